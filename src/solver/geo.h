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
#include "kernels/kernels.h"
#include "kernels/view.h"

/* The colour groups of a blob's faces: color_face[off[k] .. off[k+1]);
 * of an implicit run's owned cells: cell_group[cell_off[k] .. cell_off[k+1]). */
typedef struct fv_geo_colors {
	int n;
	fv_idx_t off[FV_COLOR_MAX + 1];
	int n_cell;
	fv_idx_t cell_off[FV_COLOR_MAX + 1];
	fv_idx_t *bface_of;    /* [n_bfaces] the block's face of each boundary face of the
	                          blob (face_order = color may reorder them); the caller frees */
} fv_geo_colors_t;

/* Allocator of the blob into *(void **)pptr (the solver: the runtime's pinned memory). */
typedef fv_err_t (*fv_geo_alloc_t)(void *pptr, size_t bytes, const char *what);

/* Lays out and fills the blob of block bk: the colour groups when a stage
 * uses them (o->num.*_sum color or auto, color_tasks), its faces reordered
 * by colour when num.face_order = color (Zhang 2022 Alg. 11), the cell-to-node
 * lists when num.nodes_sum needs them, the owned cells' colour groups of an
 * implicit run (distance-1 colouring of the owned cells; ghosts are held
 * fixed during a sweep). *mem receives the blob. */
fv_err_t fv_geo_build(const fv_block_t *bk, const fv_solver_opts_t *o, int n_markers, fv_geo_alloc_t alloc,
		      fv_layout_t *L, void **mem, fv_geo_colors_t *colors);

/* Where fv_geo_build_to puts a blob it never holds whole: open once with
 * the blob's size, then put writes each byte once, section by section, at
 * its offset (a GPU's memory: the host holds the block and the one
 * section being computed, not the blob; the padding between sections is
 * put as zeros). */
typedef struct fv_geo_sink {
	fv_err_t (*open)(void *arg, size_t bytes);
	fv_err_t (*put)(void *arg, size_t off, const void *src, size_t bytes);
	void *arg;
} fv_geo_sink_t;

/* fv_geo_build through a sink: the same bytes. */
fv_err_t fv_geo_build_to(const fv_block_t *bk, const fv_solver_opts_t *o, int n_markers, const fv_geo_sink_t *sink,
			 fv_layout_t *L, fv_geo_colors_t *colors);

/* The kernels' parameters and the Runge-Kutta coefficients of o. */
void fv_geo_params(const fv_solver_opts_t *o, fv_params_t *P, int *n_stages, fv_real_t rk_a[3], fv_real_t rk_b[3]);

#endif
