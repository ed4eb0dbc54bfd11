/* SPDX-License-Identifier: MIT */
/* CPU: one SSP Runge-Kutta stage on the owned cells. */
#include "codelets/common.h"

void fv_update_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *res = FV_PTR(1, const fv_real_t);
	const fv_real_t *dt = FV_PTR(2, const fv_real_t);
	fv_real_t *q0 = FV_PTR(3, fv_real_t);
	fv_real_t *q = FV_PTR(4, fv_real_t);
	fv_idx_t no = v.n_owned, nc = v.n_cells;
	fv_real_t gdt = 0;
	if (!a.P.steady)
		gdt = (fv_real_t)FV_PTR(5, const fv_clock_t)->dt;
	for (fv_idx_t c = 0; c < no; c++)
		fv_k_update(a.P.nvar, no, nc, a.rk_a, a.rk_b, (a.P.steady ? dt[c] : gdt) / v.cell_vol[c], res, q0, q, c);
}
