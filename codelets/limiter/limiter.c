/* SPDX-License-Identifier: MIT */
/* Limiter (Venkatakrishnan or Barth) from local min/max, owned cells. */
#include "codelets/common.h"

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_limiter"};
static struct starpu_codelet cl = {
	.cpu_funcs = {fv_limiter_cpu},
	.cpu_funcs_name = {"fv_limiter_cpu"},
#ifdef FV_HAVE_CUDA
	.cuda_funcs = {fv_limiter_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 4,
	.modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_W},
	.model = &model,
	.name = "fv_limiter",
};

fv_err_t fv_insert_limiter(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
			   starpu_data_handle_t phi, const fv_task_args_t *a)
{
	return fv_task_check(starpu_task_insert(&cl, STARPU_R, geo, STARPU_R, w, STARPU_R, grad, STARPU_W, phi,
						STARPU_VALUE, a, sizeof *a, STARPU_NAME, "limiter", 0),
			     "limiter", a->block);
}
