/* SPDX-License-Identifier: MIT */
/* CUDA: cell loop (GQ-C, or least squares), one thread per owned cell. */
#include "codelets/cuda_common.cuh"

static __global__ void gradient_kernel(fv_view_t v, int lsq, const fv_real_t *w, const fv_real_t *wn, fv_real_t *grad)
{
	fv_idx_t c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= v.n_owned)
		return;
	if (lsq)
		fv_k_gradient_lsq(&v, w, grad, c);
	else
		fv_k_gradient(&v, wn, grad, c);
}

extern "C" void fv_gradient_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	if (v.n_owned == 0)
		return;
	gradient_kernel<<<fv_cuda_blocks(v.n_owned), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
		v, a.P.lsq, FV_PTR(1, const fv_real_t), FV_PTR(2, const fv_real_t), FV_PTR(3, fv_real_t));
	FV_CUDA_CHECK_LAUNCH();
}
