/* SPDX-License-Identifier: MIT */
/* CUDA: one SSP Runge-Kutta stage, one thread per owned cell. */
#include "codelets/cuda_common.cuh"

struct update_body {
	fv_idx_t no, nc;
	int steady, nvar;
	fv_real_t rk_a, rk_b;
	const fv_real_t *vol, *res, *dt;
	fv_real_t *q0, *q;
	const fv_clock_t *clock;
	__device__ void operator()(fv_idx_t c) const
	{
		fv_real_t r = (steady ? dt[c] : (fv_real_t)clock->dt) / vol[c];
		fv_k_update(nvar, no, nc, rk_a, rk_b, r, res, q0, q, c);
	}
};

extern "C" void fv_update_launch(const fv_task_args_t *a, const void *geo, const fv_real_t *res, const fv_real_t *dt,
				 fv_real_t *q0, fv_real_t *q, const fv_clock_t *clock, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	fv_cuda_items(v.n_owned,
		      update_body{v.so, v.sc, a->P.steady, a->P.nvar, a->rk_a, a->rk_b, v.cell_vol, res, dt, q0, q, clock},
		      st);
}

FV_CUDA_FUNC(fv_update_cuda, fv_update_launch(&a, FV_PTR(0, void), FV_PTR(1, const fv_real_t), FV_PTR(2, const fv_real_t),
					      FV_PTR(3, fv_real_t), FV_PTR(4, fv_real_t),
					      a.P.steady ? NULL : FV_PTR(5, const fv_clock_t), FV_CUDA_STREAM))
