/* SPDX-License-Identifier: MIT */
/* CUDA: local time step per owned cell; for unsteady runs the minimum over
 * the block goes into this worker's copy of the clock (reduced over blocks
 * by StarPU with the init/redux functions below). */
#include <math.h>

#include "codelets/cuda_common.cuh"

/* Positive doubles order like their bit patterns as unsigned integers. */
static __device__ void atomic_min_positive(double *addr, double x)
{
	atomicMin((unsigned long long *)addr, (unsigned long long)__double_as_longlong(x));
}

static __global__ void timestep_kernel(fv_view_t v, fv_params_t P, const fv_real_t *w, fv_real_t *dt, fv_clock_t *k)
{
	fv_idx_t c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= v.n_owned)
		return;
	dt[c] = P.cfl * v.cell_vol[c] / fv_k_spectral(&v, &P, w, c);
	if (k)
		atomic_min_positive(&k->dt_min, (double)dt[c]);
}

extern "C" void fv_timestep_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	if (v.n_owned == 0)
		return;
	timestep_kernel<<<fv_cuda_blocks(v.n_owned), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
		v, a.P, FV_PTR(1, const fv_real_t), FV_PTR(2, fv_real_t), a.P.steady ? NULL : FV_PTR(3, fv_clock_t));
	FV_CUDA_CHECK_LAUNCH();
}

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
