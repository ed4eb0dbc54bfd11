/* SPDX-License-Identifier: MIT */
/* A block's geometry blob (view.h) and the kernels' scalar parameters,
 * built from a block and the solver options: shared by the solver and by
 * the bare CUDA driver of bench (fvstar bench-stage), so both run the same
 * kernels on the same data. */
#ifndef FVSTAR_SOLVER_GEO_H
#define FVSTAR_SOLVER_GEO_H

#include "fvstar/color.h"
#include "fvstar/partition.h"
#include "fvstar/solver.h"
#include "solver/kernels.h"
#include "solver/view.h"

/* The colour groups of a blob's faces: color_face[off[k] .. off[k+1]). */
typedef struct fv_geo_colors {
	int n;
	fv_idx_t off[FV_COLOR_MAX + 1];
} fv_geo_colors_t;

/* Allocator of the blob into *(void **)pptr (the solver: starpu_malloc). */
typedef fv_err_t (*fv_geo_alloc_t)(void *pptr, size_t bytes, const char *what);

/* Lays out and fills the blob of block bk: the colour groups when a stage
 * uses them (o->*_sum color or auto, o->color_tasks), its faces reordered
 * by colour when o->face_order_color (Zhang 2022 Alg. 11), the cell-to-node
 * lists when o->nodes_sum needs them. *mem receives the blob. */
fv_err_t fv_geo_build(const fv_block_t *bk, const fv_solver_opts_t *o, int n_markers, fv_geo_alloc_t alloc,
		      fv_layout_t *L, void **mem, fv_geo_colors_t *colors);

/* The kernels' parameters and the Runge-Kutta coefficients of o. */
void fv_geo_params(const fv_solver_opts_t *o, fv_params_t *P, int *n_stages, fv_real_t rk_a[3], fv_real_t rk_b[3]);

/* The race strategies of o, in the order of their case keys
 * fv_sum_keys[] (flux_sum, nodes_sum, gradient_sum, limiter_sum,
 * timestep_sum), and the name of a strategy value. */
#define FV_N_SUMS 5
extern const char *const fv_sum_keys[FV_N_SUMS];
void fv_geo_sums(const fv_solver_opts_t *o, int sums[FV_N_SUMS]);
const char *fv_sum_name(int sum);

/* Checks the strategy options of o, naming the offending one. */
fv_err_t fv_geo_check_opts(const fv_solver_opts_t *o);

#endif
