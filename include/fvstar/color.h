/* SPDX-License-Identifier: MIT */
/* Face colouring for race-free flux summation: no two faces of one colour
 * share a cell, so a kernel may add the fluxes of one colour group in
 * parallel without atomics; the face and cell orders built on it; and the
 * distance-1 cell colouring of the implicit solver's sweeps. */
#ifndef FVSTAR_COLOR_H
#define FVSTAR_COLOR_H

#include <stdint.h>

#include "fvstar/error.h"
#include "fvstar/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* FV_COLOR_MAX (fvstar/types.h): colours per mesh at most. */

typedef enum fv_color_method {
	/* Zhang et al. 2022, Alg. 3-4: faces in their given order, each takes
	 * the first colour that none of its cells' faces has. */
	FV_COLOR_GREEDY = 0,
	/* Giuliani & Krivodonova: a greedy pass restricted to the lower bound
	 * (max faces of a cell) that leaves conflicts uncoloured, then conflict
	 * resolution by colour swaps along alternating (Kempe) paths, breaking
	 * loops by uncolouring a pair of faces. Work is capped; faces still
	 * uncoloured then take colours above the bound (n_fallback). */
	FV_COLOR_MINIMAL = 1
} fv_color_method_t;

/*
 * Colour groups as CSR: the faces of colour k are
 * group_face[group_off[k] .. group_off[k+1]), in increasing face id.
 */
typedef struct fv_coloring {
	int n_colors;
	fv_idx_t n_faces;
	uint8_t *color;            /* [n_faces] in [0, n_colors) */
	fv_idx_t *group_off;       /* [n_colors + 1] */
	fv_idx_t *group_face;      /* [n_faces] */
	fv_idx_t *group_size;      /* [n_colors] faces of colour k */
	fv_idx_t *group_bsize;     /* [n_colors] boundary faces of colour k */

	int lower_bound;           /* max faces of one cell (boundary faces count) */
	fv_idx_t n_conflicts;      /* minimal: faces the restricted greedy pass left */
	fv_idx_t n_fallback;       /* minimal: faces coloured above the lower bound */
	int64_t n_swaps;           /* minimal: faces recoloured by Kempe swaps */
	int64_t n_loop_breaks;     /* minimal: loops broken by uncolouring a pair */
} fv_coloring_t;

void fv_coloring_init(fv_coloring_t *c);
void fv_coloring_free(fv_coloring_t *c);

/* Colours the faces of face_cell ([2 * n_faces]: owner, neighbour or -1 for
 * a boundary face); c must be initialised and receives the colouring (its
 * previous arrays are freed). Errors: a cell id out of range, a cell with
 * more than FV_COLOR_MAX faces, more than FV_COLOR_MAX colours. */
fv_err_t fv_color_faces(fv_idx_t n_cells, fv_idx_t n_faces, const fv_idx_t *face_cell, fv_color_method_t method,
			fv_coloring_t *c);

/* Verifies c against face_cell: every face has a colour below n_colors, no
 * two faces of one colour share a cell, and the groups and sizes agree with
 * color. FV_ERR_ARG names the first offending face (and cell). */
fv_err_t fv_color_check(fv_idx_t n_cells, fv_idx_t n_faces, const fv_idx_t *face_cell, const fv_coloring_t *c);

/*
 * Face order for contiguous colour groups (Zhang 2022 Alg. 11: face data
 * reordered by colour). face_order[new] = old face. The new order is made
 * of blocks, block_off[b] .. block_off[b+1]:
 *
 *   | boundary faces: (key 0, colour 0) (key 0, colour 1) ... (key K-1, colour n-1)
 *   | interior faces: colour 0, colour 1, ..., colour n-1 |
 *
 * so boundary faces stay first. bface_key ([n_faces], read at boundary
 * faces only; values in [0, n_keys)) keeps e.g. the markers grouped; NULL
 * gives K = 1 and boundary blocks by colour only. block_off holds
 * (K + 1) * n_colors + 1 entries; the interior group of colour k is block
 * K * n_colors + k. Inside a block faces keep their relative order, or, when
 * cell_new ([n_cells], new id of each old cell) is given, come in
 * increasing new owner (Giuliani & Krivodonova Table 6b).
 */
fv_err_t fv_color_face_order(fv_idx_t n_cells, const fv_idx_t *face_cell, const fv_coloring_t *c,
			     const int32_t *bface_key, int n_keys, const fv_idx_t *cell_new, fv_idx_t *face_order,
			     fv_idx_t *block_off);

/*
 * Cell numbering from one interior colour group (Zhang 2022 Alg. 9-10:
 * volume renumbering for the largest group; Giuliani & Krivodonova Sect. 5
 * and Table 5b for colour 1). With the N interior faces of colour k in
 * increasing face id, the owner of the j-th becomes cell j and its
 * neighbour cell N + j; then the owners of the boundary faces of colour k
 * in increasing face id; then all other cells in their old order.
 * color < 0 picks the largest interior group. cell_order[new] = old cell;
 * cell_new (may be NULL) receives the inverse. *picked gets k (may be
 * NULL). After renumbering, the faces of other colours may have owner >
 * neighbour: a caller keeping that convention swaps them and flips their
 * normals.
 */
fv_err_t fv_color_cell_order(fv_idx_t n_cells, fv_idx_t n_faces, const fv_idx_t *face_cell, const fv_coloring_t *c,
			     int color, fv_idx_t *cell_order, fv_idx_t *cell_new, int *picked);

/*
 * Distance-1 colouring of cells, for the multicolour Gauss-Seidel sweeps of
 * the implicit solver: no two cells that share a face have one colour, so
 * the cells of a colour group may be updated at once. The cells
 * [0, n_cells) are the vertices; a face is an edge when both its cells are
 * below n_cells (boundary faces, and faces to cells >= n_cells such as a
 * block's ghosts, which a sweep holds fixed, are not). Smallest-last order
 * (Matula & Beck), first fit in that order (at most the graph's degeneracy
 * + 1 colours: 5 on tets, 7 on hexes, fewer in practice), then a
 * balancing pass that moves cells from groups above n_cells / n_colors to
 * the smallest group free at the cell (Lu et al. 2015's shuffling).
 * Deterministic. The groups list cells of colour k in increasing id:
 * group_cell[group_off[k] .. group_off[k+1]).
 */
typedef struct fv_cell_coloring {
	int n_colors;
	fv_idx_t n_cells;
	uint8_t *color;            /* [n_cells] in [0, n_colors) */
	fv_idx_t *group_off;       /* [n_colors + 1] */
	fv_idx_t *group_cell;      /* [n_cells] */
} fv_cell_coloring_t;

void fv_cell_coloring_init(fv_cell_coloring_t *c);
void fv_cell_coloring_free(fv_cell_coloring_t *c);

/* Colours cells [0, n_cells) of face_cell ([2 * n_faces]: owner,
 * neighbour or -1); c must be initialised (its arrays are replaced).
 * Errors: a negative owner, a cell with FV_COLOR_MAX neighbours or more. */
fv_err_t fv_color_cells(fv_idx_t n_cells, fv_idx_t n_faces, const fv_idx_t *face_cell, fv_cell_coloring_t *c);

/* Verifies c: every cell coloured below n_colors, no face between two
 * cells of one colour, groups consistent with color. FV_ERR_ARG names the
 * first offending face. */
fv_err_t fv_color_cells_check(fv_idx_t n_cells, fv_idx_t n_faces, const fv_idx_t *face_cell,
			      const fv_cell_coloring_t *c);

/* The owned cells [0, n_owned) of a block and what fv_color_lines reads
 * of its faces (face_area and cell_ctr component-major over n_faces and
 * n_cells). */
typedef struct fv_line_mesh {
	fv_idx_t n_owned, n_cells, n_faces;
	const fv_idx_t *face_cell, *cell_face_off, *cell_face;
	const fv_real_t *face_area, *cell_ctr;
	fv_idx_t max_len; /* cells per line at most (longer chains are cut); 0: FV_LINE_MAX */
} fv_line_mesh_t;

/* Lines of strongly coupled owned cells (src/order/lines.c says which)
 * and a colouring of the lines into c, the cells of each line together and
 * in order along it; line_len[i] ([n_owned]) is the length of the line
 * starting at group position i, 0 where position i continues a line.
 * Deterministic. */
fv_err_t fv_color_lines(const fv_line_mesh_t *m, fv_cell_coloring_t *c, fv_idx_t *line_len);

/* Verifies fv_color_lines' result: every owned cell once, in its colour's
 * group, inside a line; two cells of one colour share a face only as
 * neighbours along one line. */
fv_err_t fv_color_lines_check(const fv_line_mesh_t *m, const fv_cell_coloring_t *c, const fv_idx_t *line_len);

#ifdef __cplusplus
}
#endif
#endif
