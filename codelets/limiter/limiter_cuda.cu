/* SPDX-License-Identifier: MIT */
/* CUDA: cell loop (LM-C), one thread per owned cell, no race. */
#include "codelets/cuda_common.cuh"

static __global__ void limiter_kernel(fv_view_t v, fv_params_t P, const fv_real_t *w, const fv_real_t *grad,
				      fv_real_t *phi)
{
	fv_idx_t c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c < v.n_owned)
		fv_k_limiter(&v, &P, w, grad, phi, c);
}

extern "C" void fv_limiter_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	if (v.n_owned == 0)
		return;
	limiter_kernel<<<fv_cuda_blocks(v.n_owned), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
		v, a.P, FV_PTR(1, const fv_real_t), FV_PTR(2, const fv_real_t), FV_PTR(3, fv_real_t));
	FV_CUDA_CHECK_LAUNCH();
}
