/* SPDX-License-Identifier: MIT */
/* CPU node values: node loop (NV-N), or for nodes_sum = atomic the cell
 * loop adding into the nodes (NV-C) with plain adds on one thread. */
#include <string.h>

#include "codelets/common.h"

void fv_nodes_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	fv_real_t *wn = FV_PTR(2, fv_real_t);
	if (a.P.nodes_sum != FV_SUM_ATOMIC) {
		const fv_real_t *wc = fv_k_w_cells(&a.P, w, v.sc);
		for (fv_idx_t i = 0; i < v.n_nodes; i++)
			if (fv_k_in_part(v.node_border, i, a.part))
				fv_k_node(&v, w, wc, wn, i);
		return;
	}
	memset(wn, 0, (size_t)FV_NVAR * v.sn * sizeof *wn);
	for (fv_idx_t c = 0; c < v.n_cells; c++)
		fv_k_cell_to_nodes(&v, w, wn, c, 0);
	for (fv_idx_t i = 0; i < v.n_nodes; i++)
		fv_k_node_finish(&v, wn, i);
}
