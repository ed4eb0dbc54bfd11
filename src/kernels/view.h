/* SPDX-License-Identifier: MIT */
/* One block's read-only mesh data as a single buffer (one StarPU handle,
 * copied once to each GPU) and the typed view the kernels read it through. */
#ifndef FVSTAR_KERNELS_VIEW_H
#define FVSTAR_KERNELS_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "fvstar/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The blob holds, at the byte offsets of fv_layout_t (each aligned to 64):
 *
 *   face_cell[2 nf] face_area[3 nf] face_ctr[3 nf] face_node_off[nf+1]
 *   face_node[..] bface_bc[nbf] bface_force[nbf] cell_face_off[no+1] cell_face[..]
 *   cell_face_sign[..] cell_vol[nc] cell_ctr[3 nc] node_cell_off[nn+1]
 *   node_cell[..] recv_off[nnbr+1] send_off[nnbr+1] send_cell[..]
 *   color_face[nf] (faces by colour group; empty without colouring)
 *   cell_node_off[nc+1] cell_node[..] (local nodes of each local cell, for
 *   the Green-Gauss gradient and the cell-loop node values)
 *   cell_node_grad[3 m] (Green-Gauss weight vector of each owned cell's
 *   nodes, m = cell_node_off[n_owned], component-major)
 *   cell_group[no] (implicit runs: the owned cells by colour group of the
 *   distance-1 cell colouring, the groups' offsets in the task arguments;
 *   empty otherwise)
 *   cell_nbr[..] (implicit runs: the cell across each entry of cell_face,
 *   -1 at a boundary face; empty otherwise)
 *   cell_wdist[no] (Spalart-Allmaras: each owned cell's distance to the
 *   nearest no-slip wall; empty otherwise)
 *   cell_line[no] (implicit runs: by colour-group position, the length of
 *   the line of cells starting there, 0 where the position continues a
 *   line; all 1 without lines; empty otherwise)
 *   node_border[nn] cell_border[no] (numerics.overlap, blocks with
 *   neighbours: 1 for a node with a ghost cell, and for an owned cell
 *   with such a node; empty otherwise)
 *   border_list[k][n_border[k]], k = FV_BORDER_NODES .. FV_BORDER_FCELLS
 *   (the same blocks: the border parts' items in ascending order, so that
 *   a GPU's border task visits them only: the nodes and owned cells
 *   flagged above, the owned faces beside a ghost, and the owned cells
 *   with such a face)
 *
 * so a task gets the whole mesh of its block through one buffer, and the
 * same offsets work on the CPU and on a GPU copy.
 */
/* The border parts' item lists of a split block (numerics.overlap). */
enum { FV_BORDER_NODES, FV_BORDER_CELLS, FV_BORDER_FACES, FV_BORDER_FCELLS, FV_BORDER_LISTS };

/* The fields (fv_solver's state, primitives, gradients, residual, ...)
 * are SoA, row k of a per-cell field at k * sc, of a per-owned-cell field
 * at k * so, of a per-node field at k * sn: the counts rounded up to
 * FV_ROW_ALIGN values, so that every row starts on a 128-byte boundary
 * (a GPU's streaming kernels ran 20-22 % longer on unaligned rows,
 * bench/results/2026-12-01-halo8.md). The blob's own arrays (cell_ctr
 * included) keep the plain counts. */
#define FV_ROW_ALIGN 16
static inline fv_idx_t fv_row_stride(fv_idx_t n)
{
	return (fv_idx_t)(((int64_t)n + FV_ROW_ALIGN - 1) / FV_ROW_ALIGN * FV_ROW_ALIGN);
}

typedef struct fv_layout {
	fv_idx_t n_owned, n_cells, n_faces, n_bfaces, n_nodes;
	fv_idx_t so, sc, sn;    /* row strides of the fields: owned cells, all local cells, nodes */
	int wn_side;            /* 1: the node values side by side (numerics.node_gather cells or auto) */
	int n_nbr;
	int max_faces;          /* the most faces of an owned cell */
	size_t bytes;
	size_t face_cell, face_area, face_ctr, face_node_off, face_node, bface_bc, bface_force;
	size_t cell_face_off, cell_face, cell_face_sign, cell_vol, cell_ctr;
	size_t node_cell_off, node_cell;
	size_t recv_off, send_off, send_cell;
	size_t color_face;
	size_t cell_node_off, cell_node, cell_node_grad;
	size_t cell_group, cell_nbr, cell_wdist;
	size_t cell_line;
	size_t node_border, cell_border;
	size_t border_list[FV_BORDER_LISTS];
	fv_idx_t n_border[FV_BORDER_LISTS];
	int has_border_lists;
	int has_cell_node, has_gradient_weights;
} fv_layout_t;

typedef struct fv_view {
	fv_idx_t n_owned, n_cells, n_faces, n_bfaces, n_nodes;
	fv_idx_t so, sc, sn;           /* row strides of the fields (fv_layout_t) */
	int wn_side;                   /* the node values side by side, not in rows (fv_k_wn) */
	int max_faces;
	const fv_idx_t *face_cell;
	const fv_real_t *face_area, *face_ctr;
	const fv_idx_t *face_node_off, *face_node;
	const int8_t *bface_bc;        /* fv_bc_kind of each boundary face */
	const uint8_t *bface_force;    /* 1: the face's pressure force is integrated */
	const fv_idx_t *cell_face_off, *cell_face;
	const int8_t *cell_face_sign;
	const fv_real_t *cell_vol, *cell_ctr;
	const fv_idx_t *node_cell_off, *node_cell;
	int n_nbr;
	const fv_idx_t *recv_off, *send_off, *send_cell; /* halo lists */
	const fv_idx_t *color_face;    /* faces in colour-group order */
	const fv_idx_t *cell_node_off, *cell_node; /* local nodes of local cells */
	const fv_real_t *cell_node_grad;           /* Green-Gauss node weights */
	const fv_idx_t *cell_group;    /* owned cells by colour group (implicit) */
	const fv_idx_t *cell_nbr;      /* the cell across each entry of cell_face (-1: boundary; implicit) */
	const fv_real_t *cell_wdist;   /* wall distance of owned cells (Spalart-Allmaras) */
	const fv_idx_t *cell_line;     /* by colour-group position: the length of the line starting there, 0 on a line (implicit) */
	const uint8_t *node_border, *cell_border; /* numerics.overlap: beside a ghost */
	const fv_idx_t *border_list[FV_BORDER_LISTS]; /* the border parts' items (NULL: none kept) */
	fv_idx_t n_border[FV_BORDER_LISTS];
} fv_view_t;

#define FV_VIEW_AT(base, off, type) ((const type *)((const char *)(base) + (off)))

static inline fv_view_t fv_view_make(const void *blob, const fv_layout_t *L)
{
	fv_view_t v;
	v.n_owned = L->n_owned;
	v.n_cells = L->n_cells;
	v.n_faces = L->n_faces;
	v.n_bfaces = L->n_bfaces;
	v.n_nodes = L->n_nodes;
	v.so = L->so;
	v.sc = L->sc;
	v.sn = L->sn;
	v.wn_side = L->wn_side;
	v.max_faces = L->max_faces;
	v.face_cell = FV_VIEW_AT(blob, L->face_cell, fv_idx_t);
	v.face_area = FV_VIEW_AT(blob, L->face_area, fv_real_t);
	v.face_ctr = FV_VIEW_AT(blob, L->face_ctr, fv_real_t);
	v.face_node_off = FV_VIEW_AT(blob, L->face_node_off, fv_idx_t);
	v.face_node = FV_VIEW_AT(blob, L->face_node, fv_idx_t);
	v.bface_bc = FV_VIEW_AT(blob, L->bface_bc, int8_t);
	v.bface_force = FV_VIEW_AT(blob, L->bface_force, uint8_t);
	v.cell_face_off = FV_VIEW_AT(blob, L->cell_face_off, fv_idx_t);
	v.cell_face = FV_VIEW_AT(blob, L->cell_face, fv_idx_t);
	v.cell_face_sign = FV_VIEW_AT(blob, L->cell_face_sign, int8_t);
	v.cell_vol = FV_VIEW_AT(blob, L->cell_vol, fv_real_t);
	v.cell_ctr = FV_VIEW_AT(blob, L->cell_ctr, fv_real_t);
	v.node_cell_off = FV_VIEW_AT(blob, L->node_cell_off, fv_idx_t);
	v.node_cell = FV_VIEW_AT(blob, L->node_cell, fv_idx_t);
	v.n_nbr = L->n_nbr;
	v.recv_off = FV_VIEW_AT(blob, L->recv_off, fv_idx_t);
	v.send_off = FV_VIEW_AT(blob, L->send_off, fv_idx_t);
	v.send_cell = FV_VIEW_AT(blob, L->send_cell, fv_idx_t);
	v.color_face = FV_VIEW_AT(blob, L->color_face, fv_idx_t);
	v.cell_node_off = FV_VIEW_AT(blob, L->cell_node_off, fv_idx_t);
	v.cell_node = FV_VIEW_AT(blob, L->cell_node, fv_idx_t);
	v.cell_node_grad = FV_VIEW_AT(blob, L->cell_node_grad, fv_real_t);
	v.cell_group = FV_VIEW_AT(blob, L->cell_group, fv_idx_t);
	v.cell_nbr = FV_VIEW_AT(blob, L->cell_nbr, fv_idx_t);
	v.cell_wdist = FV_VIEW_AT(blob, L->cell_wdist, fv_real_t);
	v.cell_line = FV_VIEW_AT(blob, L->cell_line, fv_idx_t);
	v.node_border = FV_VIEW_AT(blob, L->node_border, uint8_t);
	v.cell_border = FV_VIEW_AT(blob, L->cell_border, uint8_t);
	for (int k = 0; k < FV_BORDER_LISTS; k++) {
		v.border_list[k] = L->has_border_lists ? FV_VIEW_AT(blob, L->border_list[k], fv_idx_t) : NULL;
		v.n_border[k] = L->n_border[k];
	}
	return v;
}

#ifdef __cplusplus
}
#endif
#endif
