/* SPDX-License-Identifier: MIT */
/* What every solver codelet shares: the scalar arguments of a task, and the
 * fv_insert_<stage>() functions the solver calls (one per stage). */
#ifndef FVSTAR_CODELETS_COMMON_H
#define FVSTAR_CODELETS_COMMON_H

#include <starpu.h>

#include "config.h"
#include "fvstar/color.h"
#include "fvstar/error.h"
#include "solver/kernels.h"
#include "solver/view.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A codelet with a CPU function, its CUDA functions (a parenthesised list:
 * several variants let a perf-model scheduler pick), a history model and
 * its buffers' access modes:
 *   FV_CODELET(fv_x_cpu, (fv_x_cuda, fv_x_other_cuda), model, "fv_x", 2, STARPU_R, STARPU_W)
 */
#define FV_UNPAREN(...) __VA_ARGS__
#ifdef FV_HAVE_CUDA
#define FV_CODELET_CUDA(cuda) \
	.cuda_funcs = {FV_UNPAREN cuda}, .cuda_flags = {STARPU_CUDA_ASYNC, STARPU_CUDA_ASYNC, STARPU_CUDA_ASYNC},
#else
#define FV_CODELET_CUDA(cuda)
#endif
#define FV_CODELET(cpu, cuda, model_, name_, n, ...)                                                       \
	{.cpu_funcs = {cpu}, .cpu_funcs_name = {#cpu}, FV_CODELET_CUDA(cuda).nbuffers = (n), .modes = {__VA_ARGS__}, \
	 .model = &(model_), .name = (name_)}

/* A stage's codelet array index from its strategy (FV_SUM_*). */
static inline int fv_sum_index(int sum)
{
	return sum >= 0 && sum < 4 ? sum : FV_SUM_GATHER;
}

typedef struct fv_task_args {
	fv_layout_t L;       /* the block's mesh layout (offsets into geo) */
	fv_params_t P;
	int block;
	int nbr;             /* halo: neighbour index in the block's lists */
	int nvars;           /* halo: values per cell of the field */
	fv_real_t rk_a;      /* update: q = a q0 + b (q - dt/V R) */
	fv_real_t rk_b;
	/* flux, colour groups: the faces color_face[color_off[k] ..
	 * color_off[k+1]) of the geometry blob share no cell */
	int n_colors;
	fv_idx_t color_off[FV_COLOR_MAX + 1];
	int group;           /* color_tasks: the colour group of the task, */
	int grouped;         /* when set (the task does that group alone) */
	int worker;          /* the worker the block's tasks run on; -1: any */
} fv_task_args_t;

/* The colour groups k0 .. k1-1 a task covers (all, or its own with
 * color_tasks), and whether it opens (start: zero or set the accumulator)
 * and closes (finish: per-cell pass after the sums) the stage. */
static inline void fv_task_groups(const fv_task_args_t *a, int *k0, int *k1, int *start, int *finish)
{
	*k0 = a->grouped ? a->group : 0;
	*k1 = a->grouped ? a->group + 1 : a->n_colors;
	*start = *k0 == 0;
	*finish = *k1 >= a->n_colors;
}

/* The faces of a CPU face loop: list[i] for i in [*b, *e): the colour
 * groups k0 .. k1-1 one after another (color), or every face in the
 * block's order (list NULL). */
static inline const fv_idx_t *fv_cpu_faces(const fv_view_t *v, const fv_task_args_t *a, int sum, int k0, int k1,
					   fv_idx_t *b, fv_idx_t *e)
{
	if (sum == FV_SUM_COLOR) {
		*b = a->color_off[k0];
		*e = a->color_off[k1];
		return v->color_face;
	}
	*b = 0;
	*e = v->n_faces;
	return NULL;
}

/* color_tasks: the history model of a group task keys on the group's face
 * count (every group of a block has the same buffers), and a task name per
 * stage and group ("flux_color3") that lasts, as StarPU keeps it. */
uint32_t fv_group_footprint(struct starpu_task *task);
const char *fv_group_name(const char *stage, int group);

/* The clock of an unsteady run, advanced once per iteration on the host
 * side of the task graph: dt = min(dt_min over cells, t_end - t). */
typedef struct fv_clock {
	double t, t_end, dt;
	double dt_min;       /* reduced over blocks (min), reset each iteration */
} fv_clock_t;

/* A row of residual sums: 5 sums of squares, the number of cells of a
 * block, and its wall pressure force and moment; the clock's row holds the
 * time and step of an unsteady run. */
#define FV_NORMS 14
#define FV_NORM_CELLS 5
#define FV_NORM_T 6
#define FV_NORM_DT 7
#define FV_NORM_F 8  /* 3 force components */
#define FV_NORM_M 11 /* 3 moment components */

fv_err_t fv_insert_pack(starpu_data_handle_t geo, starpu_data_handle_t field, starpu_data_handle_t buf,
			const fv_task_args_t *a);
fv_err_t fv_insert_unpack(starpu_data_handle_t geo, starpu_data_handle_t buf, starpu_data_handle_t field,
			  const fv_task_args_t *a);
fv_err_t fv_insert_prim(starpu_data_handle_t q, starpu_data_handle_t w, const fv_task_args_t *a);
fv_err_t fv_insert_nodes(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t wn,
			 const fv_task_args_t *a);
fv_err_t fv_insert_gradient(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t wn,
			    starpu_data_handle_t grad, const fv_task_args_t *a);
/* mm: the face-loop variants' min/max (2 FV_NVAR values per owned cell) */
fv_err_t fv_insert_limiter(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
			   starpu_data_handle_t phi, starpu_data_handle_t mm, const fv_task_args_t *a);
fv_err_t fv_insert_flux(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
			starpu_data_handle_t phi, starpu_data_handle_t res, const fv_task_args_t *a);
/* One colour group's faces (color_tasks, a->grouped): group 0 writes the
 * stage's accumulator, the others add to it, ordered by their access to
 * it; the last group finishes the stage. */
fv_err_t fv_insert_gradient_group(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t wn,
				  starpu_data_handle_t grad, const fv_task_args_t *a);
fv_err_t fv_insert_limiter_group(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
				 starpu_data_handle_t phi, starpu_data_handle_t mm, const fv_task_args_t *a);
fv_err_t fv_insert_timestep_group(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t dt,
				  starpu_data_handle_t clock, const fv_task_args_t *a);
fv_err_t fv_insert_flux_group(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
			      starpu_data_handle_t phi, starpu_data_handle_t res, const fv_task_args_t *a);
fv_err_t fv_insert_timestep(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t dt,
			    starpu_data_handle_t clock, const fv_task_args_t *a);
fv_err_t fv_insert_clock(starpu_data_handle_t clock, starpu_data_handle_t norms, const fv_task_args_t *a);
fv_err_t fv_insert_update(starpu_data_handle_t geo, starpu_data_handle_t res, starpu_data_handle_t dt,
			  starpu_data_handle_t clock, starpu_data_handle_t q0, starpu_data_handle_t q, int first,
			  const fv_task_args_t *a);
fv_err_t fv_insert_norms(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
			 starpu_data_handle_t phi, starpu_data_handle_t res, starpu_data_handle_t norms,
			 const fv_task_args_t *a);
/* Reduction (min of dt_min over blocks) of the clock. */
void fv_clock_set_reduction(starpu_data_handle_t clock);

/* CPU implementations (codelets/<stage>/<stage>_cpu.c). */
void fv_pack_cpu(void *buffers[], void *cl_arg);
void fv_unpack_cpu(void *buffers[], void *cl_arg);
void fv_prim_cpu(void *buffers[], void *cl_arg);
void fv_nodes_cpu(void *buffers[], void *cl_arg);
void fv_gradient_cpu(void *buffers[], void *cl_arg);
void fv_limiter_cpu(void *buffers[], void *cl_arg);
void fv_flux_cpu(void *buffers[], void *cl_arg);
void fv_flux_group_cpu(void *buffers[], void *cl_arg);
void fv_timestep_cpu(void *buffers[], void *cl_arg);
void fv_clock_cpu(void *buffers[], void *cl_arg);
void fv_update_cpu(void *buffers[], void *cl_arg);
void fv_norms_cpu(void *buffers[], void *cl_arg);

#ifdef FV_HAVE_CUDA
/* CUDA implementations (codelets/<stage>/<stage>_cuda.cu). */
void fv_pack_cuda(void *buffers[], void *cl_arg);
void fv_unpack_cuda(void *buffers[], void *cl_arg);
void fv_prim_cuda(void *buffers[], void *cl_arg);
void fv_nodes_cuda(void *buffers[], void *cl_arg);
void fv_gradient_cuda(void *buffers[], void *cl_arg);
void fv_limiter_cuda(void *buffers[], void *cl_arg);
void fv_nodes_atomic_cuda(void *buffers[], void *cl_arg);
void fv_gradient_atomic_cuda(void *buffers[], void *cl_arg);
void fv_gradient_color_cuda(void *buffers[], void *cl_arg);
void fv_limiter_atomic_cuda(void *buffers[], void *cl_arg);
void fv_limiter_color_cuda(void *buffers[], void *cl_arg);
void fv_flux_cuda(void *buffers[], void *cl_arg);
void fv_flux_gather_cuda(void *buffers[], void *cl_arg);
void fv_flux_color_cuda(void *buffers[], void *cl_arg);
void fv_flux_group_cuda(void *buffers[], void *cl_arg);
void fv_timestep_cuda(void *buffers[], void *cl_arg);
void fv_timestep_atomic_cuda(void *buffers[], void *cl_arg);
void fv_timestep_color_cuda(void *buffers[], void *cl_arg);
void fv_clock_cuda(void *buffers[], void *cl_arg);
void fv_clock_init_cuda(void *buffers[], void *cl_arg);
void fv_clock_redux_cuda(void *buffers[], void *cl_arg);
void fv_update_cuda(void *buffers[], void *cl_arg);
void fv_norms_cuda(void *buffers[], void *cl_arg);
#endif

/* Submits a task and turns StarPU's error into ours, naming the task. */
fv_err_t fv_task_check(int ret, const char *name, int block);

#define FV_ARGS_UNPACK(cl_arg, a) starpu_codelet_unpack_args((cl_arg), (a))
#define FV_PTR(i, type) ((type *)STARPU_VECTOR_GET_PTR(buffers[i]))

/* The clock of an unsteady run's time step task (fourth buffer): every
 * one-task time step has it; of a colour group's tasks, the last. */
static inline fv_clock_t *fv_timestep_clock(void *buffers[], const fv_task_args_t *a)
{
	int k0, k1, start, finish;
	fv_task_groups(a, &k0, &k1, &start, &finish);
	return a->P.steady || !finish ? NULL : FV_PTR(3, fv_clock_t);
}

#ifdef __cplusplus
}
#endif
#endif
