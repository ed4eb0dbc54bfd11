/* SPDX-License-Identifier: MIT */
/* Limiter (Venkatakrishnan or Barth) from local min/max, owned cells. One
 * codelet per strategy of the min/max (fv_params_t.lim_sum); the fifth
 * buffer holds the face loops' min/max (one value when unused). */
#include "codelets/common.h"

/* Operations per owned cell and limited variable: about 5 faces, each a
 * gradient projection (6) and Venkatakrishnan's function (about 15). */
#define FLOPS_PER_CELL_VAR 105.0

FV_MODEL(model, "fv_limiter");
FV_MODEL(model_atomic, "fv_limiter_atomic");
FV_MODEL(model_color, "fv_limiter_color");
FV_MODEL(model_auto, "fv_limiter_auto");
#define LIMITER_CODELET(m, cuda) \
	FV_CODELET(fv_limiter_cpu, cuda, m, "fv_limiter", 5, STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W)
static struct starpu_codelet cls[FV_N_SUM_KINDS] = {
	[FV_SUM_ATOMIC] = LIMITER_CODELET(model_atomic, (fv_limiter_atomic_cuda)),
	[FV_SUM_GATHER] = LIMITER_CODELET(model, (fv_limiter_cuda)),
	[FV_SUM_COLOR] = LIMITER_CODELET(model_color, (fv_limiter_color_cuda)),
	[FV_SUM_AUTO] = LIMITER_CODELET(model_auto, (fv_limiter_cuda, fv_limiter_atomic_cuda, fv_limiter_color_cuda)),
};

/* color_tasks: one task per colour group, the min/max in mm (group 0
 * writes, the others read and update; the last writes the limiter) */
static struct starpu_perfmodel model_group = {
	.type = STARPU_HISTORY_BASED, .symbol = "fv_limiter_group", .footprint = fv_group_footprint};
#define GROUP_CODELET(mode) \
	FV_CODELET(fv_limiter_cpu, (fv_limiter_color_cuda), model_group, "fv_limiter_group", 5, STARPU_R, STARPU_R, \
		   STARPU_R, mode, mode)
static struct starpu_codelet group_cls[2] = {GROUP_CODELET(STARPU_W), GROUP_CODELET(STARPU_RW)};

fv_err_t fv_insert_limiter(fv_handle_t geo, fv_handle_t w, fv_handle_t grad, fv_handle_t phi, fv_handle_t mm,
			   const fv_task_args_t *a)
{
	double flops = FLOPS_PER_CELL_VAR * (a->P.limiter_all ? FV_NVAR : 1) * a->L.n_owned;
	if (!a->grouped)
		return FV_SUBMIT(&cls[fv_sum_index(a->P.lim_sum)], "limiter", a, flops, FV_BUF(geo, STARPU_R),
				 FV_BUF(w, STARPU_R), FV_BUF(grad, STARPU_R), FV_BUF(phi, STARPU_W), FV_BUF(mm, STARPU_W));
	FV_CALL(fv_group_check(a, "limiter"));
	int first = a->group == 0;
	return FV_SUBMIT(&group_cls[first ? 0 : 1], fv_group_name("limiter", a->group), a, flops * fv_group_share(a),
			 FV_BUF(geo, STARPU_R), FV_BUF(w, STARPU_R), FV_BUF(grad, STARPU_R),
			 FV_BUF(phi, first ? STARPU_W : STARPU_RW), FV_BUF(mm, first ? STARPU_W : STARPU_RW));
}
