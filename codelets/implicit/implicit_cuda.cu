/* SPDX-License-Identifier: MIT */
/* CUDA: the implicit iteration's cell loops, one thread per cell: the
 * operator of each owned cell (by colour-group position), the Gauss-Seidel update of each cell of one
 * colour group (its cells share no face: a thread writes its own cell's dq
 * and reads only other groups' cells, no race), q += dq. */
#include "codelets/cuda_common.cuh"
#include "kernels/implicit.h"

struct diagonal_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *q, *dt;
	fv_op_t *diag;
	__device__ void operator()(fv_idx_t c) const { fv_k_diagonal(&v, &P, q, dt, diag, c); }
};

/* The factors of the line starting at position i (none where i continues
 * a line or is a line of one). */
struct line_factor_body {
	fv_view_t v;
	fv_params_t P;
	fv_op_t *diag;
	__device__ void operator()(fv_idx_t i) const
	{
		if (v.cell_line[i] > 1)
			fv_k_line_factor(&v, &P, diag, i, v.cell_line[i]);
	}
};

struct sweep_body {
	fv_view_t v;
	fv_params_t P;
	fv_idx_t b;
	const fv_real_t *q, *res;
	const fv_op_t *diag;
	fv_real_t *dq;
	__device__ void operator()(fv_idx_t i) const { fv_k_sweep(&v, &P, q, res, diag, dq, b + i); }
};

struct implicit_update_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *dq;
	fv_real_t *q;
	double *clipped; /* rare: one atomic per clipped cell */
	__device__ void operator()(fv_idx_t c) const
	{
		if (fv_k_implicit_update(&v, &P, dq, q, c))
			atomicAdd(clipped, 1.0);
	}
};

/* fv_k_sweep_check of each owned cell, summed over a thread block in
 * shared memory, then one atomicAdd per thread block and value. */
static __global__ void sweep_check_kernel(fv_view_t v, fv_params_t P, const fv_real_t *q, const fv_real_t *res,
					  const fv_op_t *diag, const fv_real_t *dq, double *s)
{
	__shared__ double part[2][FV_CUDA_THREADS];
	fv_idx_t i = blockIdx.x * blockDim.x + threadIdx.x;
	double acc[2] = {0, 0};
	if (i < v.n_owned)
		fv_k_sweep_check(&v, &P, q, res, diag, dq, i, acc);
	part[0][threadIdx.x] = acc[0];
	part[1][threadIdx.x] = acc[1];
	__syncthreads();
	for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {
		if (threadIdx.x < h)
			for (int k = 0; k < 2; k++)
				part[k][threadIdx.x] += part[k][threadIdx.x + h];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		for (int k = 0; k < 2; k++)
			atomicAdd(&s[k], part[k][0]);
}

extern "C" void fv_diagonal_launch(const fv_task_args_t *a, const void *geo, const fv_real_t *q, const fv_real_t *dt,
				   fv_op_t *diag, fv_real_t *dq, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	cudaMemsetAsync(dq, 0, (size_t)a->P.nvar * v.sc * sizeof *dq, st);
	fv_cuda_items(v.n_owned, diagonal_body{v, a->P, q, dt, diag}, st);
	if (a->P.lines)
		fv_cuda_items(v.n_owned, line_factor_body{v, a->P, diag}, st);
}

extern "C" void fv_sweep_launch(const fv_task_args_t *a, const void *geo, const fv_real_t *q, const fv_real_t *res,
				const fv_op_t *diag, fv_real_t *dq, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	fv_cuda_items(a->cells_e - a->cells_b, sweep_body{v, a->P, a->cells_b, q, res, diag, dq}, st);
}

extern "C" void fv_implicit_update_launch(const fv_task_args_t *a, const void *geo, const fv_real_t *dq, fv_real_t *q,
					  double *s, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	cudaMemsetAsync(s + FV_NORM_CLIP, 0, sizeof *s, st);
	fv_cuda_items(v.n_owned, implicit_update_body{v, a->P, dq, q, s + FV_NORM_CLIP}, st);
}

extern "C" void fv_sweep_check_launch(const fv_task_args_t *a, const void *geo, const fv_real_t *q,
				      const fv_real_t *res, const fv_op_t *diag, const fv_real_t *dq, double *s,
				      cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	cudaMemsetAsync(s + FV_NORM_LIN0, 0, 2 * sizeof *s, st);
	if (v.n_owned > 0)
		sweep_check_kernel<<<fv_cuda_blocks(v.n_owned), FV_CUDA_THREADS, 0, st>>>(v, a->P, q, res, diag, dq,
											 s + FV_NORM_LIN0);
	FV_CUDA_CHECK_LAUNCH();
}

FV_CUDA_FUNC(fv_diagonal_cuda, fv_diagonal_launch(&a, FV_PTR(0, void), FV_PTR(1, const fv_real_t),
						  FV_PTR(2, const fv_real_t), FV_PTR(3, fv_op_t), FV_PTR(4, fv_real_t),
						  FV_CUDA_STREAM))
FV_CUDA_FUNC(fv_sweep_cuda, fv_sweep_launch(&a, FV_PTR(0, void), FV_PTR(1, const fv_real_t), FV_PTR(2, const fv_real_t),
					    FV_PTR(3, const fv_op_t), FV_PTR(4, fv_real_t), FV_CUDA_STREAM))
FV_CUDA_FUNC(fv_implicit_update_cuda, fv_implicit_update_launch(&a, FV_PTR(0, void), FV_PTR(1, const fv_real_t),
								FV_PTR(2, fv_real_t), FV_PTR(3, double), FV_CUDA_STREAM))
FV_CUDA_FUNC(fv_sweep_check_cuda, fv_sweep_check_launch(&a, FV_PTR(0, void), FV_PTR(1, const fv_real_t),
							  FV_PTR(2, const fv_real_t), FV_PTR(3, const fv_op_t),
							  FV_PTR(4, const fv_real_t), FV_PTR(5, double), FV_CUDA_STREAM))
