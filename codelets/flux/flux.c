/* SPDX-License-Identifier: MIT */
/* Reconstruction, Roe flux and flux summation into the residual of owned
 * cells (boundary conditions at boundary faces). */
#include "codelets/common.h"

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_flux"};
static struct starpu_codelet cl = {
	.cpu_funcs = {fv_flux_cpu},
	.cpu_funcs_name = {"fv_flux_cpu"},
#ifdef FV_HAVE_CUDA
	.cuda_funcs = {fv_flux_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 5,
	.modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W},
	.model = &model,
	.name = "fv_flux",
};

fv_err_t fv_insert_flux(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
			starpu_data_handle_t phi, starpu_data_handle_t res, const fv_task_args_t *a)
{
	return fv_task_check(starpu_task_insert(&cl, STARPU_R, geo, STARPU_R, w, STARPU_R, grad, STARPU_R, phi,
						STARPU_W, res, STARPU_VALUE, a, sizeof *a, STARPU_NAME, "flux", 0),
			     "flux", a->block);
}
