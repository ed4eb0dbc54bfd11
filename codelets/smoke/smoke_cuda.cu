/* SPDX-License-Identifier: MIT */
/* CUDA implementation of the smoke codelet, on StarPU's stream. */
#include "codelets/smoke/smoke.h"

#include <stdio.h>

static __global__ void smoke_axpy_kernel(unsigned n, fv_real_t alpha, const fv_real_t *x, fv_real_t *y)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = alpha * x[i] + y[i];
}

extern "C" void fv_smoke_axpy_cuda(void *buffers[], void *cl_arg)
{
	fv_smoke_args_t args;
	const fv_real_t *x = (const fv_real_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	fv_real_t *y = (fv_real_t *)STARPU_VECTOR_GET_PTR(buffers[1]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	unsigned threads = 256, blocks = (n + threads - 1) / threads;
	starpu_codelet_unpack_args(cl_arg, &args);
	if (n == 0)
		return;
	smoke_axpy_kernel<<<blocks, threads, 0, starpu_cuda_get_local_stream()>>>(n, args.alpha, x, y);
	cudaError_t err = cudaGetLastError();
	if (err != cudaSuccess)
		STARPU_CUDA_REPORT_ERROR(err);
}
