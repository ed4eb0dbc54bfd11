/* SPDX-License-Identifier: MIT */
/* CPU: node loop (NV-N), no race on one thread. */
#include "codelets/common.h"

void fv_nodes_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	fv_real_t *wn = FV_PTR(2, fv_real_t);
	for (fv_idx_t i = 0; i < v.n_nodes; i++)
		fv_k_node(&v, w, wn, i);
}
