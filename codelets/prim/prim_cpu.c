/* SPDX-License-Identifier: MIT */
/* CPU: conservative to primitive over all local cells. */
#include "codelets/common.h"

void fv_prim_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	const fv_real_t *q = FV_PTR(0, const fv_real_t);
	fv_real_t *w = FV_PTR(1, fv_real_t);
	fv_idx_t n = a.L.n_cells;
	for (fv_idx_t i = 0; i < n; i++)
		fv_k_prim(q, w, n, a.P.gamma, a.P.nvar, i);
}
