/* SPDX-License-Identifier: MIT */
/* CPU: local time step per owned cell (cell loop, or for timestep_sum =
 * atomic or color a face loop adding each side's spectral radius); the
 * clock update of unsteady runs. */
#include <math.h>
#include <string.h>

#include "codelets/common.h"

void fv_timestep_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	fv_real_t *dt = FV_PTR(2, fv_real_t);
	double dmin = INFINITY;
	int gather = a.P.dt_sum == FV_SUM_GATHER || a.P.dt_sum == FV_SUM_AUTO, k0, k1, start, finish;
	fv_task_groups(&a, &k0, &k1, &start, &finish);
	if (!gather) {
		if (start)
			memset(dt, 0, (size_t)v.n_owned * sizeof *dt);
		FV_CPU_FACES(&v, &a, a.P.dt_sum, k0, k1, f, fv_k_face_spectral_add(&v, &a.P, w, dt, f, 0));
		if (!finish)
			return;
	}
	for (fv_idx_t c = 0; c < v.n_owned; c++) {
		dt[c] = fv_k_dt(&v, &a.P, gather ? fv_k_spectral(&v, &a.P, w, c) : dt[c], c);
		if (dt[c] < dmin)
			dmin = dt[c];
	}
	fv_clock_t *k = fv_timestep_clock(buffers, &a);
	if (k && dmin < k->dt_min)
		k->dt_min = dmin;
}

void fv_clock_cpu(void *buffers[], void *cl_arg)
{
	fv_clock_t *k = FV_PTR(0, fv_clock_t);
	(void)cl_arg;
	k->dt = k->t_end - k->t < k->dt_min ? k->t_end - k->t : k->dt_min;
	if (k->dt < 0)
		k->dt = 0;
	k->t += k->dt;
	k->dt_min = INFINITY;
	double *norms = FV_PTR(1, double);
	norms[FV_NORM_T] = k->t;
	norms[FV_NORM_DT] = k->dt;
}
