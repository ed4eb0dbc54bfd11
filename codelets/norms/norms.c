/* SPDX-License-Identifier: MIT */
/* Residual norms and wall forces: each block's sums of squared residuals
 * and its pressure force and moment into its own row. */
#include "codelets/common.h"

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_norms"};
static struct starpu_codelet cl = {
	.cpu_funcs = {fv_norms_cpu},
	.cpu_funcs_name = {"fv_norms_cpu"},
#ifdef FV_HAVE_CUDA
	.cuda_funcs = {fv_norms_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 6,
	.modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W},
	.model = &model,
	.name = "fv_norms",
};

fv_err_t fv_insert_norms(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
			 starpu_data_handle_t phi, starpu_data_handle_t res, starpu_data_handle_t norms,
			 const fv_task_args_t *a)
{
	return fv_task_check(starpu_task_insert(&cl, STARPU_R, geo, STARPU_R, w, STARPU_R, grad, STARPU_R, phi,
						STARPU_R, res, STARPU_W, norms, STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker,
						STARPU_NAME, "norms", 0),
			     "norms", a->block);
}
