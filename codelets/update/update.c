/* SPDX-License-Identifier: MIT */
/* SSP Runge-Kutta stage: q = a q0 + b (q - dt/V R) on owned cells; the
 * first stage saves q into q0. */
#include "codelets/common.h"

/* Operations per owned cell: 5 variables x 5, and dt/V. */
#define FLOPS_PER_CELL 26.0

FV_MODEL(model, "fv_update");
/* Four variants of one codelet: q0 written (first stage) or read, and
 * with or without the clock of an unsteady run as a sixth buffer. */
#define UPDATE_CODELET(n, q0_mode) \
	FV_CODELET(fv_update_cpu, (fv_update_cuda), model, "fv_update", n, STARPU_R, STARPU_R, STARPU_R, q0_mode, \
		   STARPU_RW, STARPU_R)
static struct starpu_codelet cl_first = UPDATE_CODELET(5, STARPU_W);
static struct starpu_codelet cl_next = UPDATE_CODELET(5, STARPU_R);
static struct starpu_codelet cl_first_clock = UPDATE_CODELET(6, STARPU_W);
static struct starpu_codelet cl_next_clock = UPDATE_CODELET(6, STARPU_R);

fv_err_t fv_insert_update(fv_handle_t geo, fv_handle_t res, fv_handle_t dt, fv_handle_t clock, fv_handle_t q0,
			  fv_handle_t q, int first, const fv_task_args_t *a)
{
	double flops = FLOPS_PER_CELL * a->L.n_owned;
	int q0_mode = first ? STARPU_W : STARPU_R;
	if (clock)
		return FV_SUBMIT(first ? &cl_first_clock : &cl_next_clock, "update", a, flops, FV_BUF(geo, STARPU_R),
				 FV_BUF(res, STARPU_R), FV_BUF(dt, STARPU_R), FV_BUF(q0, q0_mode), FV_BUF(q, STARPU_RW),
				 FV_BUF(clock, STARPU_R));
	return FV_SUBMIT(first ? &cl_first : &cl_next, "update", a, flops, FV_BUF(geo, STARPU_R), FV_BUF(res, STARPU_R),
			 FV_BUF(dt, STARPU_R), FV_BUF(q0, q0_mode), FV_BUF(q, STARPU_RW));
}
