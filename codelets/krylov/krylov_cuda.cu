/* SPDX-License-Identifier: MIT */
/* CUDA: the Krylov solve's block loops, one thread per owned cell (the
 * product: per colour-group position), and its dot products, each as
 * FV_KRY_PARTS thread blocks' partial sums (a fixed grid and a fixed tree
 * in shared memory: the same sums every run) that the host's reduce task
 * adds in order. The coefficients are read on the GPU (their handle's
 * copy there). */
#include "codelets/cuda_common.cuh"
#include "codelets/insert.h"
#include "kernels/krylov.h"

/* The dot products (a, b_k), k < n, b_k = b + k nv so, into dot[k
 * FV_KRY_PARTS + blockIdx.x]. */
static __global__ void dots_kernel(fv_view_t v, fv_params_t P, const fv_real_t *a, const fv_real_t *b, int n,
				   double *dot)
{
	__shared__ double part[FV_CUDA_THREADS];
	for (int k = 0; k < n; k++) {
		const fv_real_t *bk = b + (size_t)k * (size_t)P.nvar * (size_t)v.so;
		double t = 0;
		for (fv_idx_t c = blockIdx.x * blockDim.x + threadIdx.x; c < v.n_owned; c += gridDim.x * blockDim.x)
			t += fv_k_kry_dot(&v, &P, a, bk, c);
		part[threadIdx.x] = t;
		__syncthreads();
		for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {
			if (threadIdx.x < h)
				part[threadIdx.x] += part[threadIdx.x + h];
			__syncthreads();
		}
		if (threadIdx.x == 0)
			dot[(size_t)k * FV_KRY_PARTS + blockIdx.x] = part[0];
		__syncthreads();
	}
}

static void dots(const fv_view_t &v, const fv_params_t &P, const fv_real_t *a, const fv_real_t *b, int n, double *dot,
		 cudaStream_t st)
{
	dots_kernel<<<FV_KRY_PARTS, FV_CUDA_THREADS, 0, st>>>(v, P, a, b, n, dot);
	FV_CUDA_CHECK_LAUNCH();
}

struct matvec_body {
	fv_view_t v;
	fv_params_t P;
	const fv_op_t *op;
	const fv_real_t *x;
	fv_real_t *y;
	__device__ void operator()(fv_idx_t i) const { fv_k_matvec(&v, &P, op, x, y, i); }
};

struct start_body {
	fv_view_t v;
	fv_params_t P;
	const fv_op_t *op;
	const fv_real_t *res;
	fv_real_t *v0;
	int restart;
	__device__ void operator()(fv_idx_t i) const { fv_k_kry_start(&v, &P, op, res, v0, restart, i); }
};

struct prep_body {
	fv_view_t v;
	fv_params_t P;
	const double *K;
	const fv_op_t *op;
	int m, j;
	fv_real_t *vj, *rhs;
	__device__ void operator()(fv_idx_t i) const
	{
		fv_k_kry_prep(&v, &P, op, vj, rhs, (fv_real_t)K[fv_kry_scale(m, j)], i);
	}
};

struct copy_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *dq;
	fv_real_t *z;
	__device__ void operator()(fv_idx_t c) const
	{
		for (int r = 0; r < P.nvar; r++)
			z[(size_t)r * v.so + c] = dq[(size_t)r * v.sc + c];
	}
};

struct orth_body {
	fv_view_t v;
	fv_params_t P;
	const double *K;
	int m, j;
	fv_real_t *V;
	__device__ void operator()(fv_idx_t c) const { fv_k_kry_orth(&v, &P, V, K, m, j, c); }
};

struct finish_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *Z;
	const double *K;
	int m, restart;
	fv_real_t *x, *dq;
	__device__ void operator()(fv_idx_t c) const { fv_k_kry_finish(&v, &P, Z, K, m, restart, x, dq, c); }
};

extern "C" void fv_kry_start_launch(const fv_task_args_t *a, const void *geo, const fv_real_t *res, const fv_op_t *op,
				    const fv_real_t *dq, fv_real_t *V, double *dot, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	if (a->kry_step)
		fv_cuda_items(v.n_owned, matvec_body{v, a->P, op, dq, V}, st);
	fv_cuda_items(v.n_owned, start_body{v, a->P, op, res, V, a->kry_step}, st);
	dots(v, a->P, V, V, 1, dot, st);
}

extern "C" void fv_kry_prep_launch(const fv_task_args_t *a, const void *geo, const double *K, const fv_op_t *op,
				   fv_real_t *V, fv_real_t *rhs, fv_real_t *dq, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	fv_cuda_items(v.n_owned,
		      prep_body{v, a->P, K, op, a->kry_m, a->kry_j, fv_kry_vec(V, &v, &a->P, a->kry_j), rhs}, st);
	cudaMemsetAsync(dq, 0, (size_t)a->P.nvar * v.sc * sizeof *dq, st);
}

extern "C" void fv_kry_matvec_launch(const fv_task_args_t *a, const void *geo, const fv_op_t *op, const fv_real_t *dq,
				     fv_real_t *V, fv_real_t *Z, double *dot, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	fv_real_t *w = fv_kry_vec(V, &v, &a->P, a->kry_j + 1);
	fv_cuda_items(v.n_owned, copy_body{v, a->P, dq, fv_kry_vec(Z, &v, &a->P, a->kry_j)}, st);
	fv_cuda_items(v.n_owned, matvec_body{v, a->P, op, dq, w}, st);
	dots(v, a->P, w, V, a->kry_j + 1, dot, st);
}

extern "C" void fv_kry_orth_launch(const fv_task_args_t *a, const void *geo, const double *K, fv_real_t *V, double *dot,
				   cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	fv_real_t *w = fv_kry_vec(V, &v, &a->P, a->kry_j + 1);
	fv_cuda_items(v.n_owned, orth_body{v, a->P, K, a->kry_m, a->kry_j, V}, st);
	dots(v, a->P, w, w, 1, dot, st);
}

extern "C" void fv_kry_finish_launch(const fv_task_args_t *a, const void *geo, const double *K, const fv_real_t *Z,
				     fv_real_t *x, fv_real_t *dq, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	fv_cuda_items(v.n_owned, finish_body{v, a->P, Z, K, a->kry_m, a->kry_step, x, dq}, st);
}

/* The reduce task on a GPU (the blocks' rows there: no trip through the
 * host): thread k sums product k, then thread 0 the dense part. */
struct reduce_rows {
	const double *row[FV_KRY_CUDA_ROWS];
};
static __global__ void reduce_kernel(reduce_rows r, int nb, int n, double *K, int m, int step, int j)
{
	__shared__ double d[FV_KRY_DIM_MAX + 1];
	for (int k = threadIdx.x; k < n; k += blockDim.x)
		d[k] = fv_k_kry_sum(r.row, nb, k);
	__syncthreads();
	if (threadIdx.x == 0)
		fv_k_kry_reduce(K, m, step, j, d);
}

extern "C" void fv_kry_reduce_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	int nb = (int)STARPU_TASK_GET_NBUFFERS(starpu_task_get_current()) - 1;
	int n = a.kry_step == FV_KRY_STEP_COLUMN ? a.kry_j + 1 : 1;
	reduce_rows r;
	for (int b = 0; b < nb && b < FV_KRY_CUDA_ROWS; b++)
		r.row[b] = FV_PTR(1 + b, const double);
	reduce_kernel<<<1, 128, 0, FV_CUDA_STREAM>>>(r, nb, n, FV_PTR(0, double), a.kry_m, a.kry_step, a.kry_j);
	FV_CUDA_CHECK_LAUNCH();
}

FV_CUDA_FUNC(fv_kry_start_cuda, fv_kry_start_launch(&a, FV_PTR(0, void), FV_PTR(1, const fv_real_t),
						    FV_PTR(2, const fv_op_t), FV_PTR(3, const fv_real_t),
						    FV_PTR(4, fv_real_t), FV_PTR(5, double), FV_CUDA_STREAM))
FV_CUDA_FUNC(fv_kry_prep_cuda, fv_kry_prep_launch(&a, FV_PTR(0, void), FV_PTR(1, const double),
						  FV_PTR(2, const fv_op_t), FV_PTR(3, fv_real_t), FV_PTR(4, fv_real_t),
						  FV_PTR(5, fv_real_t), FV_CUDA_STREAM))
FV_CUDA_FUNC(fv_kry_matvec_cuda, fv_kry_matvec_launch(&a, FV_PTR(0, void), FV_PTR(1, const fv_op_t),
						      FV_PTR(2, const fv_real_t), FV_PTR(3, fv_real_t),
						      FV_PTR(4, fv_real_t), FV_PTR(5, double), FV_CUDA_STREAM))
FV_CUDA_FUNC(fv_kry_orth_cuda, fv_kry_orth_launch(&a, FV_PTR(0, void), FV_PTR(1, const double), FV_PTR(2, fv_real_t),
						  FV_PTR(3, double), FV_CUDA_STREAM))
FV_CUDA_FUNC(fv_kry_finish_cuda, fv_kry_finish_launch(&a, FV_PTR(0, void), FV_PTR(1, const double),
						      FV_PTR(2, const fv_real_t), FV_PTR(3, fv_real_t),
						      FV_PTR(4, fv_real_t), FV_CUDA_STREAM))
