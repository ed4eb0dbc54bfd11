/* SPDX-License-Identifier: MIT */
/* CUDA: one SSP Runge-Kutta stage, one thread per owned cell. */
#include "codelets/cuda_common.cuh"

static __global__ void update_kernel(fv_view_t v, int steady, fv_real_t rk_a, fv_real_t rk_b, const fv_real_t *res,
				     const fv_real_t *dt, fv_real_t *q0, fv_real_t *q, const fv_clock_t *clock)
{
	fv_idx_t c = blockIdx.x * blockDim.x + threadIdx.x, no = v.n_owned, nc = v.n_cells;
	if (c >= no)
		return;
	fv_real_t r = (steady ? dt[c] : (fv_real_t)clock->dt) / v.cell_vol[c];
	int first = rk_a == 0;
	for (int k = 0; k < FV_NVAR; k++) {
		size_t i = (size_t)k * nc + c, j = (size_t)k * no + c;
		if (first)
			q0[j] = q[i];
		q[i] = rk_a * q0[j] + rk_b * (q[i] - r * res[j]);
	}
}

extern "C" void fv_update_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	if (v.n_owned == 0)
		return;
	update_kernel<<<fv_cuda_blocks(v.n_owned), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
		v, a.P.steady, a.rk_a, a.rk_b, FV_PTR(1, const fv_real_t), FV_PTR(2, const fv_real_t),
		FV_PTR(3, fv_real_t), FV_PTR(4, fv_real_t), a.P.steady ? NULL : FV_PTR(5, const fv_clock_t));
	FV_CUDA_CHECK_LAUNCH();
}
