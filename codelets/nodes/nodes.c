/* SPDX-License-Identifier: MIT */
/* Node values: primitive variables averaged from the cells around a node.
 * One codelet per strategy (fv_params_t.nodes_sum), each with its model:
 * gather (node loop), atomic (cell loop), auto (both CUDA variants). */
#include "codelets/common.h"

/* Operations: 5 adds per cell around a node (about 4 nodes per cell for
 * tets, 8 for hexes: 6 taken), and 5 divisions per node. */
#define FLOPS_PER_CELL 30.0
#define FLOPS_PER_NODE 5.0

FV_MODEL(model, "fv_nodes");
FV_MODEL(model_atomic, "fv_nodes_atomic");
FV_MODEL(model_auto, "fv_nodes_auto");
#define NODES_CODELET(m, cuda) FV_CODELET(fv_nodes_cpu, cuda, m, "fv_nodes", 3, STARPU_R, STARPU_R, STARPU_W)
/* indexed by FV_SUM_*; there is no colour variant (fv_numerics_check refuses it) */
static struct starpu_codelet cls[FV_N_SUM_KINDS] = {
	[FV_SUM_ATOMIC] = NODES_CODELET(model_atomic, (fv_nodes_atomic_cuda)),
	[FV_SUM_GATHER] = NODES_CODELET(model, (fv_nodes_cuda)),
	[FV_SUM_COLOR] = NODES_CODELET(model, (fv_nodes_cuda)),
	[FV_SUM_AUTO] = NODES_CODELET(model_auto, (fv_nodes_cuda, fv_nodes_atomic_cuda)),
};

/* numerics.overlap (gather only): the border part keeps the interior's */
FV_MODEL(model_border, "fv_nodes_border");
static struct starpu_codelet border_cl =
	FV_CODELET(fv_nodes_cpu, (fv_nodes_cuda), model_border, "fv_nodes", 3, STARPU_R, STARPU_R, STARPU_RW);

fv_err_t fv_insert_nodes(fv_handle_t geo, fv_handle_t w, fv_handle_t wn, const fv_task_args_t *a)
{
	if (a->part)
		return FV_SUBMIT(a->part == FV_SPLIT_BORDER ? &border_cl : &cls[FV_SUM_GATHER],
				 a->part == FV_SPLIT_BORDER ? "nodes_border" : "nodes_interior", a,
				 FLOPS_PER_NODE * a->L.n_nodes, FV_BUF(geo, STARPU_R), FV_BUF(w, STARPU_R),
				 FV_BUF(wn, a->part == FV_SPLIT_BORDER ? STARPU_RW : STARPU_W));
	return FV_SUBMIT(&cls[fv_sum_index(a->P.nodes_sum)], "nodes", a,
			 FLOPS_PER_CELL * a->L.n_cells + FLOPS_PER_NODE * a->L.n_nodes, FV_BUF(geo, STARPU_R),
			 FV_BUF(w, STARPU_R), FV_BUF(wn, STARPU_W));
}
