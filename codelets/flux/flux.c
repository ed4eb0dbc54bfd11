/* SPDX-License-Identifier: MIT */
/* Reconstruction, Roe flux and flux summation into the residual of owned
 * cells (boundary conditions at boundary faces). */
#include "codelets/common.h"

/* One codelet per GPU summation strategy (fv_params_t.flux_sum); "auto"
 * offers the three CUDA variants and lets a perf-model scheduler choose.
 * The models are per codelet, so each strategy is calibrated separately. */
static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_flux"};
static struct starpu_perfmodel model_gather = {.type = STARPU_HISTORY_BASED, .symbol = "fv_flux_gather"};
static struct starpu_perfmodel model_color = {.type = STARPU_HISTORY_BASED, .symbol = "fv_flux_color"};
static struct starpu_perfmodel model_auto = {.type = STARPU_HISTORY_BASED, .symbol = "fv_flux_auto"};

#define FLUX_CODELET(m, cuda) \
	FV_CODELET(fv_flux_cpu, cuda, m, "fv_flux", 5, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W)
static struct starpu_codelet cls[4] = {
	[FV_SUM_ATOMIC] = FLUX_CODELET(model, (fv_flux_cuda)),
	[FV_SUM_GATHER] = FLUX_CODELET(model_gather, (fv_flux_gather_cuda)),
	[FV_SUM_COLOR] = FLUX_CODELET(model_color, (fv_flux_color_cuda)),
	[FV_SUM_AUTO] = FLUX_CODELET(model_auto, (fv_flux_cuda, fv_flux_gather_cuda, fv_flux_color_cuda)),
};

fv_err_t fv_insert_flux(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
			starpu_data_handle_t phi, starpu_data_handle_t res, const fv_task_args_t *a)
{
	struct starpu_codelet *cl = &cls[fv_sum_index(a->P.flux_sum)];
	return fv_task_check(starpu_task_insert(cl, STARPU_R, geo, STARPU_R, w, STARPU_R, grad, STARPU_R, phi,
						STARPU_W, res, STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME, "flux", 0),
			     "flux", a->block);
}

/* color_tasks: one task per colour group; group 0 writes the residual,
 * the later groups read and add. */
static struct starpu_perfmodel model_group = {
	.type = STARPU_HISTORY_BASED, .symbol = "fv_flux_group", .footprint = fv_group_footprint};

#define GROUP_CODELET(mode) \
	FV_CODELET(fv_flux_group_cpu, (fv_flux_group_cuda), model_group, "fv_flux_group", 5, STARPU_R, STARPU_R, \
		   STARPU_R, STARPU_R, mode)
static struct starpu_codelet group_cls[2] = {GROUP_CODELET(STARPU_W), GROUP_CODELET(STARPU_RW)};

fv_err_t fv_insert_flux_group(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
			      starpu_data_handle_t phi, starpu_data_handle_t res, const fv_task_args_t *a)
{
	int first = a->group == 0;
	FV_CHECK(a->grouped && a->group >= 0 && a->group < a->n_colors, FV_ERR_ARG, "block %d: colour group %d of %d",
		 a->block, a->group, a->n_colors);
	const char *name = fv_group_name("flux", a->group);
	return fv_task_check(starpu_task_insert(&group_cls[first ? 0 : 1], STARPU_R, geo, STARPU_R, w, STARPU_R, grad,
						STARPU_R, phi, first ? STARPU_W : STARPU_RW, res, STARPU_VALUE, a,
						sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME, name, 0),
			     "flux colour group", a->block);
}
