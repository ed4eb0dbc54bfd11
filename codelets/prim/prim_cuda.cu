/* SPDX-License-Identifier: MIT */
/* CUDA: conservative to primitive, one thread per local cell. */
#include "codelets/cuda_common.cuh"

static __global__ void prim_kernel(fv_idx_t n, fv_real_t gamma, const fv_real_t *q, fv_real_t *w)
{
	fv_idx_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	fv_real_t qi[FV_NVAR], wi[FV_NVAR];
	fv_k_load(q, n, i, qi);
	fv_cons_to_prim(qi, gamma, wi);
	fv_k_store(w, n, i, wi);
}

extern "C" void fv_prim_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	if (a.L.n_cells == 0)
		return;
	prim_kernel<<<fv_cuda_blocks(a.L.n_cells), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
		a.L.n_cells, a.P.gamma, FV_PTR(0, const fv_real_t), FV_PTR(1, fv_real_t));
	FV_CUDA_CHECK_LAUNCH();
}
