/* SPDX-License-Identifier: MIT */
/* Gradients of the primitive variables on owned cells: node-based
 * Green-Gauss (from node values) or weighted least squares (from cells). */
#include "codelets/common.h"

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_gradient"};
static struct starpu_codelet cl = {
	.cpu_funcs = {fv_gradient_cpu},
	.cpu_funcs_name = {"fv_gradient_cpu"},
#ifdef FV_HAVE_CUDA
	.cuda_funcs = {fv_gradient_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 4,
	.modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_W},
	.model = &model,
	.name = "fv_gradient",
};

fv_err_t fv_insert_gradient(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t wn,
			    starpu_data_handle_t grad, const fv_task_args_t *a)
{
	/* W on the whole field: ghost gradients come from the halo afterwards */
	return fv_task_check(starpu_task_insert(&cl, STARPU_R, geo, STARPU_R, w, STARPU_R, wn, STARPU_W, grad,
						STARPU_VALUE, a, sizeof *a, STARPU_NAME, "gradient", 0),
			     "gradient", a->block);
}
