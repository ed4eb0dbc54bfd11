/* SPDX-License-Identifier: MIT */
/* CUDA: sums of squared residuals of a block into its norm row, and the
 * wall pressure force and moment (a shared memory reduction per thread
 * block, then one atomicAdd per block and value; the row's order of
 * summation varies from run to run). */
#include "codelets/cuda_common.cuh"

/* Adds part[q][0 .. blockDim) over the thread block into s[q], q < n. */
template <int N>
static __device__ void block_sum(double (*part)[FV_CUDA_THREADS], double *s)
{
	__syncthreads();
	for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {
		if (threadIdx.x < h)
			for (int q = 0; q < N; q++)
				part[q][threadIdx.x] += part[q][threadIdx.x + h];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		for (int q = 0; q < N; q++)
			atomicAdd(&s[q], part[q][0]);
}

/* nv rows of res (5, or 6 with nu~'s, whose sum goes to FV_NORM_NUT) */
static __global__ void norms_kernel(fv_idx_t no, fv_idx_t so, int nv, const fv_real_t *res, double *s)
{
	__shared__ double part[FV_NVAR_SA][FV_CUDA_THREADS];
	fv_idx_t c = blockIdx.x * blockDim.x + threadIdx.x;
	for (int q = 0; q < nv; q++) {
		double r = c < no ? (double)res[(size_t)q * so + c] : 0.0;
		part[q][threadIdx.x] = r * r;
	}
	block_sum<FV_NVAR>(part, s);
	if (nv > FV_NVAR)
		block_sum<1>(part + FV_NVAR, s + FV_NORM_NUT);
}

static __global__ void force_kernel(fv_view_t v, fv_params_t P, const fv_real_t *w, const fv_real_t *grad,
				    const fv_real_t *phi, double *s)
{
	__shared__ double part[6][FV_CUDA_THREADS];
	fv_idx_t f = blockIdx.x * blockDim.x + threadIdx.x;
	fv_real_t F[3] = {0, 0, 0}, M[3] = {0, 0, 0};
	if (f < v.n_bfaces)
		fv_k_wall_force(&v, &P, w, grad, phi, f, F, M);
	for (int d = 0; d < 3; d++) {
		part[d][threadIdx.x] = F[d];
		part[3 + d][threadIdx.x] = M[d];
	}
	block_sum<6>(part, s + FV_NORM_F);
}

static __global__ void norms_count_kernel(double *s, fv_idx_t no)
{
	s[FV_NORM_CELLS] = no;
}

extern "C" void fv_norms_launch(const fv_task_args_t *a, const void *geo, const fv_real_t *w, const fv_real_t *grad,
				const fv_real_t *phi, const fv_real_t *res, double *s, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	cudaMemsetAsync(s, 0, FV_NORMS * sizeof *s, st);
	norms_count_kernel<<<1, 1, 0, st>>>(s, a->L.n_owned);
	if (a->L.n_owned > 0)
		norms_kernel<<<fv_cuda_blocks(a->L.n_owned), FV_CUDA_THREADS, 0, st>>>(a->L.n_owned, a->L.so, a->P.nvar, res, s);
	if (v.n_bfaces > 0)
		force_kernel<<<fv_cuda_blocks(v.n_bfaces), FV_CUDA_THREADS, 0, st>>>(v, a->P, w, grad, phi, s);
	FV_CUDA_CHECK_LAUNCH();
}

FV_CUDA_FUNC(fv_norms_cuda, fv_norms_launch(&a, FV_PTR(0, void), FV_PTR(1, const fv_real_t), FV_PTR(2, const fv_real_t),
					    FV_PTR(3, const fv_real_t), FV_PTR(4, const fv_real_t), FV_PTR(5, double),
					    FV_CUDA_STREAM))
