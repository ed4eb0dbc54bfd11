/* SPDX-License-Identifier: MIT */
/* Gradients of the primitive variables on owned cells: node-based
 * Green-Gauss (from node values) or weighted least squares (from cells).
 * One codelet per strategy (fv_params_t.grad_sum), each with its model. */
#include "codelets/common.h"

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_gradient"};
static struct starpu_perfmodel model_atomic = {.type = STARPU_HISTORY_BASED, .symbol = "fv_gradient_atomic"};
static struct starpu_perfmodel model_color = {.type = STARPU_HISTORY_BASED, .symbol = "fv_gradient_color"};
static struct starpu_perfmodel model_auto = {.type = STARPU_HISTORY_BASED, .symbol = "fv_gradient_auto"};

#define GRADIENT_CODELET(m, cuda) \
	FV_CODELET(fv_gradient_cpu, cuda, m, "fv_gradient", 4, STARPU_R, STARPU_R, STARPU_R, STARPU_W)
static struct starpu_codelet cls[4] = {
	[FV_SUM_ATOMIC] = GRADIENT_CODELET(model_atomic, (fv_gradient_atomic_cuda)),
	[FV_SUM_GATHER] = GRADIENT_CODELET(model, (fv_gradient_cuda)),
	[FV_SUM_COLOR] = GRADIENT_CODELET(model_color, (fv_gradient_color_cuda)),
	[FV_SUM_AUTO] = GRADIENT_CODELET(model_auto,
					 (fv_gradient_cuda, fv_gradient_atomic_cuda, fv_gradient_color_cuda)),
};

fv_err_t fv_insert_gradient(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t wn,
			    starpu_data_handle_t grad, const fv_task_args_t *a)
{
	/* least squares has only the cell loop */
	int k = a->P.lsq ? FV_SUM_GATHER : fv_sum_index(a->P.grad_sum);
	/* W on the whole field: ghost gradients come from the halo afterwards */
	return fv_task_check(starpu_task_insert(&cls[k], STARPU_R, geo, STARPU_R, w, STARPU_R, wn, STARPU_W, grad,
						STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME, "gradient", 0),
			     "gradient", a->block);
}

/* color_tasks: one task per colour group, the sums in grad (group 0 writes,
 * the others read and add; the last divides by the volumes) */
static struct starpu_perfmodel model_group = {
	.type = STARPU_HISTORY_BASED, .symbol = "fv_gradient_group", .footprint = fv_group_footprint};
#define GROUP_CODELET(mode) \
	FV_CODELET(fv_gradient_cpu, (fv_gradient_color_cuda), model_group, "fv_gradient_group", 4, STARPU_R, STARPU_R, \
		   STARPU_R, mode)
static struct starpu_codelet group_cls[2] = {GROUP_CODELET(STARPU_W), GROUP_CODELET(STARPU_RW)};

fv_err_t fv_insert_gradient_group(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t wn,
				  starpu_data_handle_t grad, const fv_task_args_t *a)
{
	int first = a->group == 0;
	FV_CHECK(a->grouped && a->group >= 0 && a->group < a->n_colors, FV_ERR_ARG, "block %d: colour group %d of %d",
		 a->block, a->group, a->n_colors);
	return fv_task_check(starpu_task_insert(&group_cls[first ? 0 : 1], STARPU_R, geo, STARPU_R, w, STARPU_R, wn,
						first ? STARPU_W : STARPU_RW, grad, STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker,
						STARPU_NAME, fv_group_name("gradient", a->group), 0),
			     "gradient colour group", a->block);
}
