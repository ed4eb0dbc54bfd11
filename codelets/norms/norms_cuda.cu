/* SPDX-License-Identifier: MIT */
/* CUDA: sums of squared residuals of a block into its norm row (a shared
 * memory reduction per thread block, then one atomicAdd per block and
 * variable; the row's order of summation varies from run to run). */
#include "codelets/cuda_common.cuh"

static __global__ void norms_kernel(fv_idx_t no, const fv_real_t *res, double *s)
{
	__shared__ double part[FV_NVAR][FV_CUDA_THREADS];
	fv_idx_t c = blockIdx.x * blockDim.x + threadIdx.x;
	for (int q = 0; q < FV_NVAR; q++) {
		double r = c < no ? (double)res[(size_t)q * no + c] : 0.0;
		part[q][threadIdx.x] = r * r;
	}
	__syncthreads();
	for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {
		if (threadIdx.x < h)
			for (int q = 0; q < FV_NVAR; q++)
				part[q][threadIdx.x] += part[q][threadIdx.x + h];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		for (int q = 0; q < FV_NVAR; q++)
			atomicAdd(&s[q], part[q][0]);
}

static __global__ void norms_count_kernel(double *s, fv_idx_t no)
{
	s[FV_NORM_CELLS] = no;
}

extern "C" void fv_norms_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	double *s = FV_PTR(1, double);
	cudaMemsetAsync(s, 0, FV_NORMS * sizeof *s, FV_CUDA_STREAM);
	norms_count_kernel<<<1, 1, 0, FV_CUDA_STREAM>>>(s, a.L.n_owned);
	if (a.L.n_owned > 0)
		norms_kernel<<<fv_cuda_blocks(a.L.n_owned), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
			a.L.n_owned, FV_PTR(0, const fv_real_t), s);
	FV_CUDA_CHECK_LAUNCH();
}
