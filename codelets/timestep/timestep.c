/* SPDX-License-Identifier: MIT */
/* Time step: local dt = CFL V / sum(|u.S| + c|S|) per owned cell; its minimum
 * over cells is reduced (min) into the clock for unsteady runs, and the
 * clock task turns it into the global step of the iteration. */
#include <math.h>

#include "codelets/common.h"

/* Operations per owned cell: the spectral radius through about 5 faces
 * (|u.S| + c|S|: 12 each) and CFL V / sum. */
#define FLOPS_PER_CELL 62.0

/* One codelet per strategy (fv_params_t.dt_sum) and per kind of run:
 * unsteady runs reduce the minimum step into the clock (fourth buffer). */
FV_MODEL(model, "fv_timestep");
FV_MODEL(model_atomic, "fv_timestep_atomic");
FV_MODEL(model_color, "fv_timestep_color");
FV_MODEL(model_auto, "fv_timestep_auto");
#define TIMESTEP_CODELETS(n, ...)                                                                               \
	{                                                                                                       \
		[FV_SUM_ATOMIC] = FV_CODELET(fv_timestep_cpu, (fv_timestep_atomic_cuda), model_atomic, "fv_timestep", \
					     n, __VA_ARGS__),                                                 \
		[FV_SUM_GATHER] = FV_CODELET(fv_timestep_cpu, (fv_timestep_cuda), model, "fv_timestep", n,       \
					     __VA_ARGS__),                                                    \
		[FV_SUM_COLOR] = FV_CODELET(fv_timestep_cpu, (fv_timestep_color_cuda), model_color, "fv_timestep", \
					    n, __VA_ARGS__),                                                  \
		[FV_SUM_AUTO] = FV_CODELET(fv_timestep_cpu,                                                     \
					   (fv_timestep_cuda, fv_timestep_atomic_cuda, fv_timestep_color_cuda),  \
					   model_auto, "fv_timestep", n, __VA_ARGS__),                        \
	}
static struct starpu_codelet cls[FV_N_SUM_KINDS] = TIMESTEP_CODELETS(4, STARPU_R, STARPU_R, STARPU_W, STARPU_REDUX);
static struct starpu_codelet cls_steady[FV_N_SUM_KINDS] = TIMESTEP_CODELETS(3, STARPU_R, STARPU_R, STARPU_W);

/* color_tasks: one task per colour group, the spectral radius sums in dt
 * (group 0 writes, the others read and add); the last turns them into
 * steps and, in an unsteady run, takes the clock's reduction. */
static struct starpu_perfmodel model_group = {
	.type = STARPU_HISTORY_BASED, .symbol = "fv_timestep_group", .footprint = fv_group_footprint};
#define GROUP_CODELET(n, ...) \
	FV_CODELET(fv_timestep_cpu, (fv_timestep_color_cuda), model_group, "fv_timestep_group", n, __VA_ARGS__)
static struct starpu_codelet group_cls[2][2] = {
	/* [last with a clock][first] */
	{GROUP_CODELET(3, STARPU_R, STARPU_R, STARPU_RW), GROUP_CODELET(3, STARPU_R, STARPU_R, STARPU_W)},
	{GROUP_CODELET(4, STARPU_R, STARPU_R, STARPU_RW, STARPU_REDUX),
	 GROUP_CODELET(4, STARPU_R, STARPU_R, STARPU_W, STARPU_REDUX)},
};

FV_MODEL(clock_model, "fv_clock");
static struct starpu_codelet clock_cl =
	FV_CODELET(fv_clock_cpu, (fv_clock_cuda), clock_model, "fv_clock", 2, STARPU_RW, STARPU_W);

static void clock_init_cpu(void *buffers[], void *cl_arg)
{
	fv_clock_t *k = FV_PTR(0, fv_clock_t);
	(void)cl_arg;
	k->dt_min = INFINITY;
}

static void clock_redux_cpu(void *buffers[], void *cl_arg)
{
	fv_clock_t *dst = FV_PTR(0, fv_clock_t);
	const fv_clock_t *src = FV_PTR(1, const fv_clock_t);
	(void)cl_arg;
	if (src->dt_min < dst->dt_min)
		dst->dt_min = src->dt_min;
}

FV_MODEL(clock_init_model, "fv_clock_init");
FV_MODEL(clock_redux_model, "fv_clock_redux");
static struct starpu_codelet clock_init_cl =
	FV_CODELET(clock_init_cpu, (fv_clock_init_cuda), clock_init_model, "fv_clock_init", 1, STARPU_W);
static struct starpu_codelet clock_redux_cl = FV_CODELET(clock_redux_cpu, (fv_clock_redux_cuda), clock_redux_model,
							 "fv_clock_redux", 2, STARPU_RW, STARPU_R);

void fv_clock_set_reduction(fv_handle_t clock)
{
	starpu_data_set_reduction_methods(FV_SP(clock), &clock_redux_cl, &clock_init_cl);
}

fv_err_t fv_insert_timestep(fv_handle_t geo, fv_handle_t w, fv_handle_t dt, fv_handle_t clock,
			    const fv_task_args_t *a)
{
	double flops = FLOPS_PER_CELL * a->L.n_owned;
	if (!a->grouped) {
		int k = fv_sum_index(a->P.dt_sum);
		if (!clock)
			return FV_SUBMIT(&cls_steady[k], "timestep", a, flops, FV_BUF(geo, STARPU_R), FV_BUF(w, STARPU_R),
					 FV_BUF(dt, STARPU_W));
		return FV_SUBMIT(&cls[k], "timestep", a, flops, FV_BUF(geo, STARPU_R), FV_BUF(w, STARPU_R),
				 FV_BUF(dt, STARPU_W), FV_BUF(clock, STARPU_REDUX));
	}
	FV_CALL(fv_group_check(a, "timestep"));
	int first = a->group == 0, last = a->group == a->n_colors - 1;
	int dt_mode = first ? STARPU_W : STARPU_RW;
	const char *name = fv_group_name("timestep", a->group);
	flops *= fv_group_share(a);
	if (clock && last)
		return FV_SUBMIT(&group_cls[1][first], name, a, flops, FV_BUF(geo, STARPU_R), FV_BUF(w, STARPU_R),
				 FV_BUF(dt, dt_mode), FV_BUF(clock, STARPU_REDUX));
	return FV_SUBMIT(&group_cls[0][first], name, a, flops, FV_BUF(geo, STARPU_R), FV_BUF(w, STARPU_R),
			 FV_BUF(dt, dt_mode));
}

/* Several ranks: dst's minimum step takes src's into account (the clock
 * reduction's own combination, on dst's rank; src comes from its rank). */
fv_err_t fv_insert_clock_merge(fv_handle_t dst, fv_handle_t src, const fv_task_args_t *a)
{
	return FV_SUBMIT(&clock_redux_cl, "clock_merge", a, 1.0, FV_BUF(dst, STARPU_RW), FV_BUF(src, STARPU_R));
}

fv_err_t fv_insert_clock(fv_handle_t clock, fv_handle_t norms, const fv_task_args_t *a)
{
	return FV_SUBMIT(&clock_cl, "clock", a, 5.0, FV_BUF(clock, STARPU_RW), FV_BUF(norms, STARPU_W));
}
