/* SPDX-License-Identifier: MIT */
/* CPU: one SSP Runge-Kutta stage on the owned cells. */
#include "codelets/common.h"

/* Cells of a tile: their dt / V found together, then each row. */
#define TILE 256

/* fv_k_update over the owned cells, a tile of cells at a time and row by
 * row inside it, so that each loop streams one row of q, q0 and R and
 * vectorises (the same operations per value: bit for bit). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
static void update_rows(const fv_view_t *v, const fv_task_args_t *a, const fv_real_t *restrict dt, fv_real_t gdt,
			const fv_real_t *restrict res, fv_real_t *restrict q0, fv_real_t *restrict q)
{
	fv_idx_t no = v->n_owned, so = v->so, sc = v->sc;
	fv_real_t rk_a = a->rk_a, rk_b = a->rk_b;
	for (fv_idx_t c0 = 0; c0 < no; c0 += TILE) {
		fv_idx_t nt = no - c0 < TILE ? no - c0 : TILE;
		fv_real_t r[TILE];
		for (fv_idx_t t = 0; t < nt; t++)
			r[t] = (a->P.steady ? dt[c0 + t] : gdt) / v->cell_vol[c0 + t];
		for (int k = 0; k < a->P.nvar; k++) {
			fv_real_t *qk = q + (size_t)k * sc + c0, *q0k = q0 + (size_t)k * so + c0;
			const fv_real_t *rk = res + (size_t)k * so + c0;
			if (rk_a == 0)
				for (fv_idx_t t = 0; t < nt; t++)
					q0k[t] = qk[t];
			for (fv_idx_t t = 0; t < nt; t++)
				qk[t] = fv_k_rk(rk_a, rk_b, q0k[t], qk[t], r[t], rk[t]);
		}
	}
}

void fv_update_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *res = FV_PTR(1, const fv_real_t);
	const fv_real_t *dt = FV_PTR(2, const fv_real_t);
	fv_real_t *q0 = FV_PTR(3, fv_real_t);
	fv_real_t *q = FV_PTR(4, fv_real_t);
	fv_real_t gdt = 0;
	if (!a.P.steady)
		gdt = (fv_real_t)FV_PTR(5, const fv_clock_t)->dt;
	update_rows(&v, &a, dt, gdt, res, q0, q);
}
