/* SPDX-License-Identifier: MIT */
/* Node values: primitive variables averaged from the cells around a node.
 * One codelet per strategy (fv_params_t.nodes_sum), each with its model:
 * gather (node loop), atomic (cell loop), auto (both CUDA variants). */
#include "codelets/common.h"

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_nodes"};
static struct starpu_perfmodel model_atomic = {.type = STARPU_HISTORY_BASED, .symbol = "fv_nodes_atomic"};
static struct starpu_perfmodel model_auto = {.type = STARPU_HISTORY_BASED, .symbol = "fv_nodes_auto"};

#define NODES_CODELET(m, cuda) FV_CODELET(fv_nodes_cpu, cuda, m, "fv_nodes", 3, STARPU_R, STARPU_R, STARPU_W)
/* indexed by FV_SUM_*; there is no colour variant (the solver refuses it) */
static struct starpu_codelet cls[4] = {
	[FV_SUM_ATOMIC] = NODES_CODELET(model_atomic, (fv_nodes_atomic_cuda)),
	[FV_SUM_GATHER] = NODES_CODELET(model, (fv_nodes_cuda)),
	[FV_SUM_COLOR] = NODES_CODELET(model, (fv_nodes_cuda)),
	[FV_SUM_AUTO] = NODES_CODELET(model_auto, (fv_nodes_cuda, fv_nodes_atomic_cuda)),
};

fv_err_t fv_insert_nodes(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t wn,
			 const fv_task_args_t *a)
{
	return fv_task_check(starpu_task_insert(&cls[fv_sum_index(a->P.nodes_sum)], STARPU_R, geo, STARPU_R, w,
						STARPU_W, wn, STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME, "nodes", 0),
			     "nodes", a->block);
}
