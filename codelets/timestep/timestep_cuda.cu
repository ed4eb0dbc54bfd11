/* SPDX-License-Identifier: MIT */
/* CUDA: local time step per owned cell, from a cell loop over its faces
 * (gather) or a face loop adding each side's spectral radius (atomic, or
 * per colour group); for unsteady runs the minimum over the block goes into
 * this worker's copy of the clock (reduced over blocks by StarPU with the
 * init/redux functions below). */
#include <math.h>

#include "codelets/cuda_common.cuh"

/* Positive doubles order like their bit patterns as unsigned integers. */
static __device__ void atomic_min_positive(double *addr, double x)
{
	atomicMin((unsigned long long *)addr, (unsigned long long)__double_as_longlong(x));
}

/* dt of owned cell c: from its faces' spectral radii (gather) or from the
 * sum the face loop left in dt; the minimum goes into the clock (unsteady) */
struct dt_body {
	fv_view_t v;
	fv_params_t P;
	int gather;
	const fv_real_t *w;
	fv_real_t *dt;
	fv_clock_t *k;
	__device__ void operator()(fv_idx_t c) const
	{
		dt[c] = fv_k_dt(&v, &P, gather ? fv_k_spectral(&v, &P, w, c) : dt[c], c);
		if (k)
			atomic_min_positive(&k->dt_min, (double)dt[c]);
	}
};

struct face_spectral_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *w;
	fv_real_t *lam;
	__device__ void operator()(fv_idx_t f, int atomic) const { fv_k_face_spectral_add(&v, &P, w, lam, f, atomic); }
};

extern "C" void fv_timestep_launch(const fv_task_args_t *a, int sum, const void *geo, const fv_real_t *w,
				   fv_real_t *dt, fv_clock_t *clock, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	int gather = sum == FV_SUM_GATHER || sum == FV_SUM_AUTO, k0, k1, start, finish;
	fv_task_groups(a, &k0, &k1, &start, &finish);
	if (!gather) {
		if (start)
			cudaMemsetAsync(dt, 0, (size_t)v.n_owned * sizeof *dt, st);
		fv_cuda_faces(v, a, sum, k0, k1, face_spectral_body{v, a->P, w, dt}, st);
	}
	if (gather || finish)
		fv_cuda_items(v.n_owned, dt_body{v, a->P, gather, w, dt, a->P.steady ? NULL : clock}, st);
}

#define TIMESTEP_FUNC(name, sum) \
	FV_CUDA_FUNC(name, fv_timestep_launch(&a, sum, FV_PTR(0, void), FV_PTR(1, const fv_real_t), FV_PTR(2, fv_real_t), \
					      fv_timestep_clock(buffers, &a), FV_CUDA_STREAM))
TIMESTEP_FUNC(fv_timestep_cuda, FV_SUM_GATHER)
TIMESTEP_FUNC(fv_timestep_atomic_cuda, FV_SUM_ATOMIC)
TIMESTEP_FUNC(fv_timestep_color_cuda, FV_SUM_COLOR)

static __global__ void clock_init_kernel(fv_clock_t *k)
{
	k->dt_min = INFINITY;
}

static __global__ void clock_redux_kernel(fv_clock_t *dst, const fv_clock_t *src)
{
	if (src->dt_min < dst->dt_min)
		dst->dt_min = src->dt_min;
}

extern "C" void fv_clock_init_cuda(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	clock_init_kernel<<<1, 1, 0, FV_CUDA_STREAM>>>(FV_PTR(0, fv_clock_t));
	FV_CUDA_CHECK_LAUNCH();
}

extern "C" void fv_clock_redux_cuda(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	clock_redux_kernel<<<1, 1, 0, FV_CUDA_STREAM>>>(FV_PTR(0, fv_clock_t), FV_PTR(1, const fv_clock_t));
	FV_CUDA_CHECK_LAUNCH();
}

static __global__ void clock_kernel(fv_clock_t *k, double *stamp)
{
	k->dt = k->t_end - k->t < k->dt_min ? k->t_end - k->t : k->dt_min;
	if (k->dt < 0)
		k->dt = 0;
	k->t += k->dt;
	k->dt_min = INFINITY;
	stamp[FV_NORM_T] = k->t;
	stamp[FV_NORM_DT] = k->dt;
}

extern "C" void fv_clock_cuda(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	clock_kernel<<<1, 1, 0, FV_CUDA_STREAM>>>(FV_PTR(0, fv_clock_t), FV_PTR(1, double));
	FV_CUDA_CHECK_LAUNCH();
}
