/* SPDX-License-Identifier: MIT */
/* CUDA: node loop (NV-N): one thread per node gathers its cells, no race. */
#include "codelets/cuda_common.cuh"

static __global__ void nodes_kernel(fv_view_t v, const fv_real_t *w, fv_real_t *wn)
{
	fv_idx_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < v.n_nodes)
		fv_k_node(&v, w, wn, i);
}

extern "C" void fv_nodes_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	if (v.n_nodes == 0)
		return;
	nodes_kernel<<<fv_cuda_blocks(v.n_nodes), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
		v, FV_PTR(1, const fv_real_t), FV_PTR(2, fv_real_t));
	FV_CUDA_CHECK_LAUNCH();
}
