/* SPDX-License-Identifier: MIT */
/* Limiter (Venkatakrishnan or Barth) from local min/max, owned cells. One
 * codelet per strategy of the min/max (fv_params_t.lim_sum); the fifth
 * buffer holds the face loops' min/max (one value when unused). */
#include "codelets/common.h"

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_limiter"};
static struct starpu_perfmodel model_atomic = {.type = STARPU_HISTORY_BASED, .symbol = "fv_limiter_atomic"};
static struct starpu_perfmodel model_color = {.type = STARPU_HISTORY_BASED, .symbol = "fv_limiter_color"};
static struct starpu_perfmodel model_auto = {.type = STARPU_HISTORY_BASED, .symbol = "fv_limiter_auto"};

#define LIMITER_CODELET(m, cuda) \
	FV_CODELET(fv_limiter_cpu, cuda, m, "fv_limiter", 5, STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W)
static struct starpu_codelet cls[4] = {
	[FV_SUM_ATOMIC] = LIMITER_CODELET(model_atomic, (fv_limiter_atomic_cuda)),
	[FV_SUM_GATHER] = LIMITER_CODELET(model, (fv_limiter_cuda)),
	[FV_SUM_COLOR] = LIMITER_CODELET(model_color, (fv_limiter_color_cuda)),
	[FV_SUM_AUTO] = LIMITER_CODELET(model_auto, (fv_limiter_cuda, fv_limiter_atomic_cuda, fv_limiter_color_cuda)),
};

fv_err_t fv_insert_limiter(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
			   starpu_data_handle_t phi, starpu_data_handle_t mm, const fv_task_args_t *a)
{
	return fv_task_check(starpu_task_insert(&cls[fv_sum_index(a->P.lim_sum)], STARPU_R, geo, STARPU_R, w,
						STARPU_R, grad, STARPU_W, phi, STARPU_W, mm, STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker,
						STARPU_NAME, "limiter", 0),
			     "limiter", a->block);
}

/* color_tasks: one task per colour group, the min/max in mm (group 0
 * writes, the others read and update; the last writes the limiter) */
static struct starpu_perfmodel model_group = {
	.type = STARPU_HISTORY_BASED, .symbol = "fv_limiter_group", .footprint = fv_group_footprint};
#define GROUP_CODELET(mode) \
	FV_CODELET(fv_limiter_cpu, (fv_limiter_color_cuda), model_group, "fv_limiter_group", 5, STARPU_R, STARPU_R, \
		   STARPU_R, mode, mode)
static struct starpu_codelet group_cls[2] = {GROUP_CODELET(STARPU_W), GROUP_CODELET(STARPU_RW)};

fv_err_t fv_insert_limiter_group(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
				 starpu_data_handle_t phi, starpu_data_handle_t mm, const fv_task_args_t *a)
{
	int first = a->group == 0;
	FV_CHECK(a->grouped && a->group >= 0 && a->group < a->n_colors, FV_ERR_ARG, "block %d: colour group %d of %d",
		 a->block, a->group, a->n_colors);
	return fv_task_check(starpu_task_insert(&group_cls[first ? 0 : 1], STARPU_R, geo, STARPU_R, w, STARPU_R, grad,
						first ? STARPU_W : STARPU_RW, phi, first ? STARPU_W : STARPU_RW, mm,
						STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME, fv_group_name("limiter", a->group),
						0),
			     "limiter colour group", a->block);
}
