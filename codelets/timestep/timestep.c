/* SPDX-License-Identifier: MIT */
/* Time step: local dt = CFL V / sum(|u.S| + c|S|) per owned cell; its minimum
 * over cells is reduced (min) into the clock for unsteady runs, and the
 * clock task turns it into the global step of the iteration. */
#include <math.h>

#include "codelets/common.h"

/* One codelet per strategy (fv_params_t.dt_sum) and per kind of run:
 * unsteady runs reduce the minimum step into the clock (fourth buffer). */
static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_timestep"};
static struct starpu_perfmodel model_atomic = {.type = STARPU_HISTORY_BASED, .symbol = "fv_timestep_atomic"};
static struct starpu_perfmodel model_color = {.type = STARPU_HISTORY_BASED, .symbol = "fv_timestep_color"};
static struct starpu_perfmodel model_auto = {.type = STARPU_HISTORY_BASED, .symbol = "fv_timestep_auto"};

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
static struct starpu_codelet cls[4] = TIMESTEP_CODELETS(4, STARPU_R, STARPU_R, STARPU_W, STARPU_REDUX);
static struct starpu_codelet cls_steady[4] = TIMESTEP_CODELETS(3, STARPU_R, STARPU_R, STARPU_W);

/* color_tasks: one task per colour group, the spectral radius sums in dt
 * (group 0 writes, the others read and add); the last turns them into
 * steps and, in an unsteady run, takes the clock's reduction. */
static struct starpu_perfmodel model_group = {
	.type = STARPU_HISTORY_BASED, .symbol = "fv_timestep_group", .footprint = fv_group_footprint};
#define GROUP_CODELET(n, ...) \
	FV_CODELET(fv_timestep_cpu, (fv_timestep_color_cuda), model_group, "fv_timestep_group", n, __VA_ARGS__)
static struct starpu_codelet group_cls[3] = {
	GROUP_CODELET(3, STARPU_R, STARPU_R, STARPU_W),
	GROUP_CODELET(3, STARPU_R, STARPU_R, STARPU_RW),
	GROUP_CODELET(4, STARPU_R, STARPU_R, STARPU_RW, STARPU_REDUX),
};
static struct starpu_codelet group_first_clock = GROUP_CODELET(4, STARPU_R, STARPU_R, STARPU_W, STARPU_REDUX);

static struct starpu_perfmodel clock_model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_clock"};
static struct starpu_codelet clock_cl = {
	.cpu_funcs = {fv_clock_cpu},
	.cpu_funcs_name = {"fv_clock_cpu"},
#ifdef FV_HAVE_CUDA
	.cuda_funcs = {fv_clock_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 2,
	.modes = {STARPU_RW, STARPU_W},
	.model = &clock_model,
	.name = "fv_clock",
};

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

static struct starpu_codelet clock_init_cl = {
	.cpu_funcs = {clock_init_cpu},
#ifdef FV_HAVE_CUDA
	.cuda_funcs = {fv_clock_init_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 1,
	.modes = {STARPU_W},
	.name = "fv_clock_init"};
static struct starpu_codelet clock_redux_cl = {
	.cpu_funcs = {clock_redux_cpu},
#ifdef FV_HAVE_CUDA
	.cuda_funcs = {fv_clock_redux_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 2,
	.modes = {STARPU_RW, STARPU_R},
	.name = "fv_clock_redux"};

void fv_clock_set_reduction(starpu_data_handle_t clock)
{
	starpu_data_set_reduction_methods(clock, &clock_redux_cl, &clock_init_cl);
}

fv_err_t fv_insert_timestep(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t dt,
			    starpu_data_handle_t clock, const fv_task_args_t *a)
{
	int k = fv_sum_index(a->P.dt_sum);
	if (!clock)
		return fv_task_check(starpu_task_insert(&cls_steady[k], STARPU_R, geo, STARPU_R, w, STARPU_W, dt,
							STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME, "timestep", 0),
				     "timestep", a->block);
	return fv_task_check(starpu_task_insert(&cls[k], STARPU_R, geo, STARPU_R, w, STARPU_W, dt, STARPU_REDUX, clock,
						STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME, "timestep", 0),
			     "timestep", a->block);
}

fv_err_t fv_insert_clock(starpu_data_handle_t clock, starpu_data_handle_t norms, const fv_task_args_t *a)
{
	return fv_task_check(starpu_task_insert(&clock_cl, STARPU_RW, clock, STARPU_W, norms, STARPU_VALUE, a,
						sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker,
						STARPU_NAME, "clock", 0),
			     "clock", -1);
}

fv_err_t fv_insert_timestep_group(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t dt,
				  starpu_data_handle_t clock, const fv_task_args_t *a)
{
	int first = a->group == 0, last = a->group == a->n_colors - 1;
	FV_CHECK(a->grouped && a->group >= 0 && a->group < a->n_colors, FV_ERR_ARG, "block %d: colour group %d of %d",
		 a->block, a->group, a->n_colors);
	const char *name = fv_group_name("timestep", a->group);
	int ret;
	if (clock && last)
		ret = starpu_task_insert(first ? &group_first_clock : &group_cls[2], STARPU_R, geo, STARPU_R, w,
					 first ? STARPU_W : STARPU_RW, dt, STARPU_REDUX, clock, STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker,
					 STARPU_NAME, name, 0);
	else
		ret = starpu_task_insert(&group_cls[first ? 0 : 1], STARPU_R, geo, STARPU_R, w,
					 first ? STARPU_W : STARPU_RW, dt, STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME, name,
					 0);
	return fv_task_check(ret, "time step colour group", a->block);
}
