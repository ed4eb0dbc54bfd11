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
	int first = a.rk_a == 0;
	fv_real_t gdt = 0;
	if (!a.P.steady)
		gdt = (fv_real_t)FV_PTR(5, const fv_clock_t)->dt;
	for (fv_idx_t c = 0; c < no; c++) {
		fv_real_t r = (a.P.steady ? dt[c] : gdt) / v.cell_vol[c];
		for (int k = 0; k < FV_NVAR; k++) {
			size_t i = (size_t)k * nc + c, j = (size_t)k * no + c;
			if (first)
				q0[j] = q[i];
			q[i] = a.rk_a * q0[j] + a.rk_b * (q[i] - r * res[j]);
		}
	}
}
