/* SPDX-License-Identifier: MIT */
/* Gradients of the primitive variables on owned cells: node-based
 * Green-Gauss (from node values) or weighted least squares (from cells).
 * One codelet per strategy (fv_params_t.grad_sum), each with its model. */
#include "codelets/common.h"

/* Operations per owned cell: Green-Gauss, 5 variables x 3 components x a
 * multiply-add over about 6 nodes (tets 4, hexes 8); least squares, the
 * 3x3 system and 5 right-hand sides over about 5 faces. */
#define FLOPS_GG 180.0
#define FLOPS_LSQ 260.0

FV_MODEL(model, "fv_gradient");
FV_MODEL(model_atomic, "fv_gradient_atomic");
FV_MODEL(model_color, "fv_gradient_color");
FV_MODEL(model_auto, "fv_gradient_auto");
#define GRADIENT_CODELET(m, cuda) \
	FV_CODELET(fv_gradient_cpu, cuda, m, "fv_gradient", 4, STARPU_R, STARPU_R, STARPU_R, STARPU_W)
static struct starpu_codelet cls[FV_N_SUM_KINDS] = {
	[FV_SUM_ATOMIC] = GRADIENT_CODELET(model_atomic, (fv_gradient_atomic_cuda)),
	[FV_SUM_GATHER] = GRADIENT_CODELET(model, (fv_gradient_cuda)),
	[FV_SUM_COLOR] = GRADIENT_CODELET(model_color, (fv_gradient_color_cuda)),
	[FV_SUM_AUTO] = GRADIENT_CODELET(model_auto,
					 (fv_gradient_cuda, fv_gradient_atomic_cuda, fv_gradient_color_cuda)),
};

/* color_tasks: one task per colour group, the sums in grad (group 0 writes,
 * the others read and add; the last divides by the volumes) */
static struct starpu_perfmodel model_group = {
	.type = STARPU_HISTORY_BASED, .symbol = "fv_gradient_group", .footprint = fv_group_footprint};
#define GROUP_CODELET(mode) \
	FV_CODELET(fv_gradient_cpu, (fv_gradient_color_cuda), model_group, "fv_gradient_group", 4, STARPU_R, STARPU_R, \
		   STARPU_R, mode)
static struct starpu_codelet group_cls[2] = {GROUP_CODELET(STARPU_W), GROUP_CODELET(STARPU_RW)};

FV_MODEL(model_border, "fv_gradient_border");
static struct starpu_codelet border_cl = FV_CODELET(fv_gradient_cpu, (fv_gradient_cuda), model_border, "fv_gradient",
						    4, STARPU_R, STARPU_R, STARPU_R, STARPU_RW);

fv_err_t fv_insert_gradient(fv_handle_t geo, fv_handle_t w, fv_handle_t wn, fv_handle_t grad,
			    const fv_task_args_t *a)
{
	double flops = (a->P.lsq ? FLOPS_LSQ : FLOPS_GG) * a->L.n_owned;
	/* numerics.overlap (Green-Gauss, gather only): the border part keeps
	 * the interior's */
	if (a->part)
		return FV_SUBMIT(a->part == FV_SPLIT_BORDER ? &border_cl : &cls[FV_SUM_GATHER],
				 a->part == FV_SPLIT_BORDER ? "gradient_border" : "gradient_interior", a, flops,
				 FV_BUF(geo, STARPU_R), FV_BUF(w, STARPU_R), FV_BUF(wn, STARPU_R),
				 FV_BUF(grad, a->part == FV_SPLIT_BORDER ? STARPU_RW : STARPU_W));
	/* least squares has only the cell loop; W on the whole field: ghost
	 * gradients come from the halo afterwards */
	if (!a->grouped)
		return FV_SUBMIT(&cls[a->P.lsq ? FV_SUM_GATHER : fv_sum_index(a->P.grad_sum)], "gradient", a, flops,
				 FV_BUF(geo, STARPU_R), FV_BUF(w, STARPU_R), FV_BUF(wn, STARPU_R),
				 FV_BUF(grad, STARPU_W));
	FV_CALL(fv_group_check(a, "gradient"));
	int first = a->group == 0;
	return FV_SUBMIT(&group_cls[first ? 0 : 1], fv_group_name("gradient", a->group), a, flops * fv_group_share(a),
			 FV_BUF(geo, STARPU_R), FV_BUF(w, STARPU_R), FV_BUF(wn, STARPU_R),
			 FV_BUF(grad, first ? STARPU_W : STARPU_RW));
}
