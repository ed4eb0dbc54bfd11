/* SPDX-License-Identifier: MIT */
/* What a task of any stage carries besides its buffers (the block's layout,
 * the kernels' parameters, its colour groups), the loop shapes over a
 * task's faces on the CPU (the CUDA twin is fv_cuda_faces), and the rows
 * the norms and clock tasks write. No runtime here: the CPU and CUDA
 * codelets, the CUDA launchers and the bare driver of `fvstar bench stage`
 * all read these. */
#ifndef FVSTAR_KERNELS_TASK_H
#define FVSTAR_KERNELS_TASK_H

#include "fvstar/types.h"
#include "kernels/kernels.h"
#include "kernels/view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fv_task_args {
	fv_layout_t L;       /* the block's mesh layout (offsets into geo) */
	fv_params_t P;
	int block;
	int nbr;             /* halo: neighbour index in the block's lists */
	int nvars;           /* halo: values per cell of the field */
	fv_real_t rk_a;      /* update: q = a q0 + b (q - dt/V R) */
	fv_real_t rk_b;
	/* colour groups: the faces color_face[color_off[k] ..
	 * color_off[k+1]) of the geometry blob share no cell */
	int n_colors;
	fv_idx_t color_off[FV_COLOR_MAX + 1];
	int group;           /* color_tasks: the colour group of the task, */
	int grouped;         /* when set (the task does that group alone) */
	/* implicit sweeps: the task's colour group of cells,
	 * cell_group[cells_b .. cells_e) of the geometry blob */
	fv_idx_t cells_b, cells_e;
	int part;            /* numerics.overlap: FV_PART_* of a split stage's task */
	int flux_direct;     /* its flux: sums straight into the residual (GPU only) */
	fv_idx_t n_border_faces; /* numerics.overlap: faces that read a ghost */
	int worker;          /* the worker the block's tasks run on; -1: any */
	int priority;        /* several ranks: the task's StarPU priority (halo
	                        packs above the rest, so messages leave early) */
	int host_buf;        /* halo: its buffers stay in host memory, where
	                        messages between ranks leave and arrive; a CUDA
	                        kernel reads or writes them there (pinned) */
	void *peer;          /* halo pack, numerics.halo_peer: the receiving rank's
	                        buffer, mapped on this GPU, of peer_n values */
	long peer_n;
	/* numerics.linear = gmres (kernels/krylov.h): the dimension m, the
	 * direction j, the reduction's step (FV_KRY_STEP_*) or the start's
	 * and finish's restart flag */
	int kry_m, kry_j, kry_step;
} fv_task_args_t;

/* A stage's codelet array index from its strategy (FV_SUM_*). */
static inline int fv_sum_index(int sum)
{
	return sum >= 0 && sum < FV_N_SUM_KINDS ? sum : FV_SUM_GATHER;
}

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

/*
 * The CPU face loop, the one traversal every CPU face stage runs (the twin
 * of fv_cuda_faces): the body (the last argument) with face index f over the colour groups
 * k0 .. k1-1 in order (sum = color) or over every face, on one thread, so
 * plain adds:
 *   FV_CPU_FACES(&v, &a, a.P.flux_sum, k0, k1, f, add_flux(f));
 * A macro and not a function taking a callback, so that the body inlines.
 */
#define FV_CPU_FACES(v, a, sum, k0, k1, f, ...)                                                   \
	do {                                                                                       \
		fv_idx_t fv_b_, fv_e_;                                                             \
		const fv_idx_t *fv_list_ = fv_cpu_faces((v), (a), (sum), (k0), (k1), &fv_b_, &fv_e_); \
		for (fv_idx_t fv_i_ = fv_b_; fv_i_ < fv_e_; fv_i_++) {                             \
			fv_idx_t f = fv_list_ ? fv_list_[fv_i_] : fv_i_;                           \
			__VA_ARGS__;                                                               \
		}                                                                                  \
	} while (0)

/* The clock of an unsteady run, advanced once per iteration on the host
 * side of the task graph: dt = min(dt_min over cells, t_end - t). */
typedef struct fv_clock {
	double t, t_end, dt;
	double dt_min;       /* reduced over blocks (min), reset each iteration */
} fv_clock_t;

/* A row of residual sums: 5 sums of squares (and nu~'s with
 * Spalart-Allmaras), the number of cells of a block, and its wall pressure
 * force and moment; implicit runs, the sums of fv_k_sweep_check; the
 * clock's row holds the time and step of an unsteady run. */
#define FV_NORMS 18
#define FV_NORM_LIN0 14 /* the sweeps' first step, squared */
#define FV_NORM_LIN 15  /* the step left after them, squared */
#define FV_NORM_CLIP 16 /* cells whose update was scaled down (fv_k_implicit_update) */
#define FV_NORM_NUT 17  /* nu~'s residual, squared (0 without Spalart-Allmaras) */
#define FV_NORM_CELLS 5
#define FV_NORM_T 6
#define FV_NORM_DT 7
#define FV_NORM_F 8  /* 3 force components */
#define FV_NORM_M 11 /* 3 moment components */

#ifdef __cplusplus
}
#endif
#endif
