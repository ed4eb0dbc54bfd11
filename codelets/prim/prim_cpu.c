/* SPDX-License-Identifier: MIT */
/* CPU: conservative to primitive over all local cells. */
#include "codelets/common.h"

/* fv_k_prim over cells b .. e of n, in SIMD lanes (q and w apart, the
 * rows known: the loop vectorises; the same operations per cell). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
static void prim_cells(const fv_real_t *restrict q, fv_real_t *restrict w, fv_idx_t b, fv_idx_t e, fv_idx_t n,
		       fv_real_t gamma, int nvar, int cells)
{
	if (nvar == FV_NVAR && !cells) /* no branch in the loop: it vectorises */
		for (fv_idx_t i = b; i < e; i++)
			fv_k_prim(q, w, n, gamma, FV_NVAR, 0, i);
	else
		for (fv_idx_t i = b; i < e; i++)
			fv_k_prim(q, w, n, gamma, nvar, cells, i);
}

void fv_prim_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_idx_t b, e;
	fv_k_part_cells(a.part, a.L.n_owned, a.L.n_cells, &b, &e);
	prim_cells(FV_PTR(0, const fv_real_t), FV_PTR(1, fv_real_t), b, e, a.L.sc, a.P.gamma, a.P.nvar, a.P.w_cells);
}
