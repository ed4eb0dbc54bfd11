/* SPDX-License-Identifier: MIT */
/* Primitive variables (rho, u, v, w, p) of every local cell, ghosts too. */
#include "codelets/common.h"

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_prim"};
static struct starpu_codelet cl = {
	.cpu_funcs = {fv_prim_cpu},
	.cpu_funcs_name = {"fv_prim_cpu"},
#ifdef FV_HAVE_CUDA
	.cuda_funcs = {fv_prim_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 2,
	.modes = {STARPU_R, STARPU_W},
	.model = &model,
	.name = "fv_prim",
};

fv_err_t fv_insert_prim(starpu_data_handle_t q, starpu_data_handle_t w, const fv_task_args_t *a)
{
	return fv_task_check(starpu_task_insert(&cl, STARPU_R, q, STARPU_W, w, STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker,
						STARPU_NAME, "prim", 0),
			     "prim", a->block);
}
