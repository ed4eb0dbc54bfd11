/* SPDX-License-Identifier: MIT */
/* Node values: primitive variables averaged from the cells around a node. */
#include "codelets/common.h"

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_nodes"};
static struct starpu_codelet cl = {
	.cpu_funcs = {fv_nodes_cpu},
	.cpu_funcs_name = {"fv_nodes_cpu"},
#ifdef FV_HAVE_CUDA
	.cuda_funcs = {fv_nodes_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 3,
	.modes = {STARPU_R, STARPU_R, STARPU_W},
	.model = &model,
	.name = "fv_nodes",
};

fv_err_t fv_insert_nodes(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t wn,
			 const fv_task_args_t *a)
{
	return fv_task_check(starpu_task_insert(&cl, STARPU_R, geo, STARPU_R, w, STARPU_W, wn, STARPU_VALUE, a,
						sizeof *a, STARPU_NAME, "nodes", 0),
			     "nodes", a->block);
}
