/* SPDX-License-Identifier: MIT */
/* Box, ramp-channel, flat-plate and bump generators: a structured node grid cut
 * into hexahedral blocks, each block split into hex, tet, prism or pyramid
 * cells, on all threads with the serial result. */
#include "mesh_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/threads.h"

/* Interior nodes move by a random vector uniform in a ball of radius
 * PERTURB_REACH * perturb grid spacings, at most 0.2 at the limit. A tet
 * can only flatten when its nodes move by half its width: Kuhn tets are
 * 1/sqrt(3) wide (safe below 0.289); for the tets of pyramid blocks, whose
 * centre moves by the mean of the corners, a search found nothing below
 * 0.24. Moves of +-0.3 per axis, as once tried, did tangle Kuhn tets. */
#define MAX_PERTURB 0.3
#define PERTURB_REACH (2.0 / 3.0)
#define DEG 0.017453292519943295769 /* pi / 180 */

/* How the cells of one block are made. */
typedef enum block_kind {
	BLOCK_HEX,   /* one hex */
	BLOCK_KUHN,  /* six tets around the main diagonal, corner 0 to 6 */
	BLOCK_PRISM, /* two prisms on the xy diagonal corner 0 to 2 */
	BLOCK_PYR    /* a centre node and one pyramid (or two tets) per face */
} block_kind_t;

/* How a block face (its 4 corners q in the outward order of
 * fv_cell_shapes[FV_HEX]) is cut into cell faces. */
enum { SPLIT_NONE, SPLIT_02, SPLIT_13 };

typedef enum gen_kind { GEN_BOX, GEN_RAMP, GEN_PLATE, GEN_BUMP } gen_kind_t;

typedef struct gen {
	const fv_gen_opts_t *o;
	gen_kind_t kind;
	fv_gen_axes_t ax;   /* plate, bump: node positions along each axis */
	int n[3];           /* blocks per direction */
	fv_idx_t *col_ctr;  /* mixed: first centre node of each pyramid column */
	double tan_a, x0;   /* ramp: slope and start of the wedge */
	int plane[6];       /* boundary plane of each hex face, see face_plane */
	int ref[9][3];      /* block points in the cube [0, 2]^3: corners, centre */
} gen_t;

typedef struct block {
	block_kind_t kind;
	fv_idx_t v[9];      /* corners in VTK hex order, then the centre */
	int split[6];       /* per face of fv_cell_shapes[FV_HEX] */
} block_t;

/* Where elements go; with m == NULL only counted, so that the arrays can be
 * allocated once with the sizes the writing pass will use. */
typedef struct sink {
	fv_mesh_t *m;
	size_t n_cells, n_cell_nodes, n_belems, n_belem_nodes;
} sink_t;

static const char *const kind_names[] = {"hex", "tet", "prism", "mixed"};
static const char *const box_markers[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
static const char *const ramp_markers[6] = {"inlet", "outlet", "wall", "top", "zmin", "zmax"};
/* in the order of plane_marker */
static const char *const plate_markers[7] = {"inflow", "outflow", "symmetry_front", "wall",
					     "top", "side_zmin", "side_zmax"};
static const char *const bump_markers[8] = {"inflow", "outflow", "symmetry_front", "wall", "symmetry_back",
					    "top", "side_zmin", "side_zmax"};
static const char *const *const kind_markers[4] = {box_markers, ramp_markers, plate_markers, bump_markers};
static const int kind_n_markers[4] = {6, 6, 7, 8};
static const char *const gen_names[4] = {"box", "ramp", "plate", "bump"};

/* Kuhn tets: the six monotone paths from corner 0 to corner 6; they share
 * the face diagonals through 0 or 6, so neighbouring blocks conform. */
static const int kuhn_tets[6][4] = {
	{0, 1, 2, 6}, {0, 1, 5, 6}, {0, 3, 2, 6}, {0, 3, 7, 6}, {0, 4, 5, 6}, {0, 4, 7, 6},
};
/* Bottom triangles clockwise seen from above, as the VTK prism wants. */
static const int prism_halves[2][6] = {{0, 2, 1, 4, 6, 5}, {0, 3, 2, 4, 7, 6}};

void fv_gen_opts_default(fv_gen_opts_t *o)
{
	memset(o, 0, sizeof *o);
	o->cells = FV_GEN_HEX;
	o->nx = o->ny = o->nz = 8;
	for (int d = 0; d < 3; d++) {
		o->lo[d] = 0;
		o->hi[d] = 1;
	}
	o->perturb = 0;
	o->seed = 1;
	o->ramp_angle_deg = 10;
	o->ramp_x0 = 0.2;
	/* NASA TMR's 2D zero-pressure-gradient plate, its finest grid */
	o->plate = (fv_gen_plate_t){.nx = 545, .ny = 385, .level = 1, .length = 2, .lead = 0.33333,
				    .height = 1, .y1 = 5e-7};
	/* NASA TMR's 2D bump in a channel, its finest grid */
	o->bump = (fv_gen_bump_t){.nx = 1409, .ny = 641, .level = 1, .y1 = 5e-7};
}

/* 0 or 1: coordinate along axis of hex corner v in the unit cube. */
static int corner_bit(int v, int axis)
{
	return axis == 0 ? ((v + 1) >> 1) & 1 : axis == 1 ? (v >> 1) & 1 : (v >> 2) & 1;
}

/* Boundary plane 2 * axis + side that hex face f lies on; the same order
 * as the marker lists (xmin xmax ymin ymax zmin zmax). */
static int face_plane(int f)
{
	const int *q = fv_cell_shapes[FV_HEX].face_node[f];
	for (int axis = 0;; axis++) {
		int b = corner_bit(q[0], axis);
		if (corner_bit(q[1], axis) == b && corner_bit(q[2], axis) == b && corner_bit(q[3], axis) == b)
			return 2 * axis + b;
	}
}

static fv_idx_t grid_node(const gen_t *g, int i, int j, int k)
{
	return (fv_idx_t)((size_t)i + (size_t)(g->n[0] + 1) * ((size_t)j + (size_t)(g->n[1] + 1) * (size_t)k));
}

static block_kind_t column_kind(const gen_t *g, int i, int j)
{
	/* Neighbouring mixed columns always differ, so pyramid blocks meet hex
	 * and prism blocks sideways (quad faces) and each other only across z
	 * faces; a whole column has one kind, so prism triangles stack. From
	 * 2 x 2 columns (or 1 x 3) on, all four cell types appear. */
	static const block_kind_t mixed_cycle[3] = {BLOCK_PRISM, BLOCK_PYR, BLOCK_HEX};
	switch (g->o->cells) {
	case FV_GEN_HEX: return BLOCK_HEX;
	case FV_GEN_TET: return BLOCK_KUHN;
	case FV_GEN_PRISM: return BLOCK_PRISM;
	default: return mixed_cycle[(i + j) % 3];
	}
}

/* The diagonal of face f through the face corner at position p. */
static int split_at(int p)
{
	return p % 2 ? SPLIT_13 : SPLIT_02;
}

/* Position in face f of whichever of the block corners a, b it holds. */
static int face_pos(int f, int a, int b)
{
	const int *q = fv_cell_shapes[FV_HEX].face_node[f];
	for (int p = 0; p < 4; p++)
		if (q[p] == a || q[p] == b)
			return p;
	return -1;
}

static int block_face_split(const gen_t *g, const block_t *b, const int ijk[3], int f)
{
	int plane = g->plane[f], axis = plane / 2, nb[3] = {ijk[0], ijk[1], ijk[2]};
	switch (b->kind) {
	case BLOCK_HEX:
		return SPLIT_NONE;
	case BLOCK_KUHN:
		return split_at(face_pos(f, 0, 6));
	case BLOCK_PRISM:
		return axis == 2 ? split_at(face_pos(f, 0, 4)) : SPLIT_NONE;
	case BLOCK_PYR:
		break;
	}
	/* Pyramid blocks: faces shared with another pyramid block, and boundary
	 * faces, become two tets on the diagonal through the smallest global
	 * node, which both sides agree on; faces against hex and prism blocks
	 * stay quads. */
	nb[axis] += plane % 2 ? 1 : -1;
	if (nb[axis] >= 0 && nb[axis] < g->n[axis] && column_kind(g, nb[0], nb[1]) != BLOCK_PYR)
		return SPLIT_NONE;
	const int *q = fv_cell_shapes[FV_HEX].face_node[f];
	int pmin = 0;
	for (int p = 1; p < 4; p++)
		if (b->v[q[p]] < b->v[q[pmin]])
			pmin = p;
	return split_at(pmin);
}

static void block_setup(const gen_t *g, int i, int j, int k, block_t *b)
{
	int ijk[3] = {i, j, k};
	b->kind = column_kind(g, i, j);
	for (int v = 0; v < 8; v++)
		b->v[v] = grid_node(g, i + corner_bit(v, 0), j + corner_bit(v, 1), k + corner_bit(v, 2));
	b->v[8] = b->kind == BLOCK_PYR ? g->col_ctr[(size_t)i + (size_t)g->n[0] * (size_t)j] + k : -1;
	for (int f = 0; f < 6; f++)
		b->split[f] = block_face_split(g, b, ijk, f);
}

static void put(sink_t *s, int boundary, int type, const fv_idx_t *v, int n, int marker)
{
	fv_mesh_t *m = s->m;
	size_t *count = boundary ? &s->n_belems : &s->n_cells;
	size_t *used = boundary ? &s->n_belem_nodes : &s->n_cell_nodes;
	if (m) {
		uint8_t *types = boundary ? m->belem_type : m->cell_type;
		fv_idx_t *off = boundary ? m->belem_node_off : m->cell_node_off;
		fv_idx_t *nodes = boundary ? m->belem_node : m->cell_node;
		types[*count] = (uint8_t)type;
		memcpy(nodes + *used, v, (size_t)n * sizeof *v);
		off[*count + 1] = (fv_idx_t)(*used + (size_t)n);
		if (boundary)
			m->belem_marker[*count] = marker;
	}
	(*count)++;
	*used += (size_t)n;
}

/* A tet from local block points (corners 0-7, centre 8), turned to positive
 * volume by its sign in the reference cube, which the mapping keeps. */
static void put_tet(sink_t *s, const gen_t *g, const block_t *b, const int loc[4])
{
	int e[3][3], t[4] = {loc[0], loc[1], loc[2], loc[3]};
	fv_idx_t v[4];
	if (!s->m) {
		put(s, 0, FV_TET, NULL, 4, -1);
		return;
	}
	for (int a = 0; a < 3; a++)
		for (int d = 0; d < 3; d++)
			e[a][d] = g->ref[loc[a + 1]][d] - g->ref[loc[0]][d];
	int det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
		  e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
		  e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
	if (det < 0) {
		t[1] = loc[2];
		t[2] = loc[1];
	}
	for (int a = 0; a < 4; a++)
		v[a] = b->v[t[a]];
	put(s, 0, FV_TET, v, 4, -1);
}

static void block_cells(sink_t *s, const gen_t *g, const block_t *b)
{
	const fv_cell_shape_t *hex = &fv_cell_shapes[FV_HEX];
	fv_idx_t v[6];
	switch (b->kind) {
	case BLOCK_HEX:
		put(s, 0, FV_HEX, b->v, 8, -1);
		break;
	case BLOCK_KUHN:
		for (int t = 0; t < 6; t++)
			put_tet(s, g, b, kuhn_tets[t]);
		break;
	case BLOCK_PRISM:
		for (int h = 0; h < 2; h++) {
			for (int a = 0; a < 6; a++)
				v[a] = b->v[prism_halves[h][a]];
			put(s, 0, FV_PRISM, v, 6, -1);
		}
		break;
	case BLOCK_PYR:
		for (int f = 0; f < 6; f++) {
			const int *q = hex->face_node[f];
			/* reversed outward face: the base normal points to the apex */
			int base[4] = {q[0], q[3], q[2], q[1]};
			if (b->split[f] == SPLIT_NONE) {
				fv_idx_t p[5] = {b->v[base[0]], b->v[base[1]], b->v[base[2]], b->v[base[3]], b->v[8]};
				put(s, 0, FV_PYRAMID, p, 5, -1);
			} else {
				/* q0-q2 is base 0-2, q1-q3 is base 1-3 */
				int r = b->split[f] == SPLIT_13 ? 1 : 0;
				int t1[4] = {base[r], base[r + 1], base[r + 2], 8};
				int t2[4] = {base[r], base[r + 2], base[(r + 3) % 4], 8};
				put_tet(s, g, b, t1);
				put_tet(s, g, b, t2);
			}
		}
		break;
	}
}

/* The boundary elements of block face f: the cell faces there, exactly. */
static void block_face_belems(sink_t *s, const block_t *b, int f, int marker)
{
	const int *q = fv_cell_shapes[FV_HEX].face_node[f];
	fv_idx_t v[4] = {b->v[q[0]], b->v[q[1]], b->v[q[2]], b->v[q[3]]};
	if (b->split[f] == SPLIT_NONE) {
		put(s, 1, FV_QUAD, v, 4, marker);
	} else {
		int r = b->split[f] == SPLIT_13 ? 1 : 0;
		fv_idx_t t1[3] = {v[r], v[r + 1], v[r + 2]}, t2[3] = {v[r], v[r + 2], v[(r + 3) % 4]};
		put(s, 1, FV_TRI, t1, 3, marker);
		put(s, 1, FV_TRI, t2, 3, marker);
	}
}

static size_t n_blocks(const gen_t *g)
{
	return (size_t)g->n[0] * (size_t)g->n[1] * (size_t)g->n[2];
}

/* Block id (i fastest, then j, then k: the serial order) to i, j, k. */
static void block_ijk(const gen_t *g, size_t id, int ijk[3])
{
	ijk[0] = (int)(id % (size_t)g->n[0]);
	id /= (size_t)g->n[0];
	ijk[1] = (int)(id % (size_t)g->n[1]);
	ijk[2] = (int)(id / (size_t)g->n[1]);
}

/* The cells of every block, part t of nt into sink s[t] on the threads:
 * parts are contiguous ranges of blocks in the serial order, so counting
 * them (s[t].m NULL) and then writing each from where the parts before it
 * end gives the serial mesh for any thread count. */
static void all_cells(const gen_t *g, sink_t *s, int nt)
{
	FV_OMP(parallel if (nt > 1))
	for (int t = fv_thread_num(); t < nt; t += fv_threads_now()) {
		size_t lo, hi;
		block_t b;
		fv_par_range(n_blocks(g), t, nt, &lo, &hi);
		for (size_t id = lo; id < hi; id++) {
			int ijk[3];
			block_ijk(g, id, ijk);
			block_setup(g, ijk[0], ijk[1], ijk[2], &b);
			block_cells(&s[t], g, &b);
		}
	}
}

/* Marker of the boundary face of block column i on a boundary plane: the
 * plane itself, but the plate and the bump split y = 0 into the parts of
 * their axes (symmetry_front, wall and for the bump symmetry_back). */
static int plane_marker(const gen_t *g, int plane, int i)
{
	int k = 0;
	if (g->ax.n_seg == 0 || plane < 2)
		return plane;
	if (plane > 2)
		return plane + g->ax.n_seg - 1;
	while (k < g->ax.n_seg - 1 && i >= g->ax.seg_end[k])
		k++;
	return 2 + k;
}

/* Boundary elements grouped by marker, markers in plane order. */
static void all_belems(const gen_t *g, sink_t *s)
{
	block_t b;
	for (int f = 0; f < 6; f++) {
		int plane = g->plane[f], axis = plane / 2;
		int lo[3] = {0, 0, 0}, hi[3] = {g->n[0], g->n[1], g->n[2]};
		lo[axis] = plane % 2 ? g->n[axis] - 1 : 0;
		hi[axis] = lo[axis] + 1;
		for (int k = lo[2]; k < hi[2]; k++)
			for (int j = lo[1]; j < hi[1]; j++)
				for (int i = lo[0]; i < hi[0]; i++) {
					block_setup(g, i, j, k, &b);
					block_face_belems(s, &b, f, plane_marker(g, plane, i));
				}
	}
}

/* Grid parameters p (node (i,j,k) at p = (i,j,k)) to coordinates. The
 * ramp channel has its inlet's lower corner at x = y = 0: x runs over
 * [0, L = hi[0] - lo[0]], y from the wall to H = hi[1] - lo[1], z over
 * [lo[2], hi[2]]; each column of nodes is spread evenly over the local
 * height, so nodes follow the wedge. The plate's and the bump's nodes
 * are unperturbed, so p is integral and indexes their axes; the bump's
 * y axis is the flat channel's, shifted up by the bump's height times
 * (1 - y / top), so the top stays flat. */
static void map_point(const gen_t *g, const double p[3], double *x)
{
	const fv_gen_opts_t *o = g->o;
	double f[3];
	if (g->kind == GEN_PLATE || g->kind == GEN_BUMP) {
		for (int d = 0; d < 3; d++)
			x[d] = g->ax.x[d][(int)p[d]];
		if (g->kind == GEN_BUMP) {
			double top = g->ax.x[1][g->ax.n[1]], yb = fv_bump_wall_y(x[0]);
			x[1] = yb + x[1] * (top - yb) / top;
		}
		return;
	}
	for (int d = 0; d < 3; d++) {
		f[d] = p[d] / g->n[d];
		/* exact at both ends, so boundary nodes lie exactly on the planes */
		x[d] = o->lo[d] * (1 - f[d]) + o->hi[d] * f[d];
	}
	if (g->kind == GEN_RAMP) {
		double len = o->hi[0] - o->lo[0], h = o->hi[1] - o->lo[1];
		double xx = len * f[0];
		double yb = xx > g->x0 ? (xx - g->x0) * g->tan_a : 0;
		x[0] = xx;
		x[1] = yb + f[1] * (h - yb);
	}
}

/* splitmix64: a counter-based generator, so each node's jitter depends only
 * on the seed and the node, not on the order nodes are visited. */
static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A point uniform in the unit ball, by rejection from the cube. */
static void jitter(uint64_t seed, size_t node, double u[3])
{
	for (uint64_t attempt = 0;; attempt++) {
		double r2 = 0;
		for (int d = 0; d < 3; d++) {
			uint64_t r = splitmix64(seed ^ splitmix64((3 * (uint64_t)node + (uint64_t)d) * 64 + attempt));
			u[d] = (double)(r >> 11) * 0x1p-53 * 2 - 1;
			r2 += u[d] * u[d];
		}
		if (r2 <= 1)
			return;
	}
}

/* Grid node id (i fastest) placed, jittered where interior. */
static void grid_point(const gen_t *g, uint64_t seed, size_t id, double *x)
{
	const fv_gen_opts_t *o = g->o;
	size_t n0 = (size_t)g->n[0] + 1, n1 = (size_t)g->n[1] + 1;
	int i = (int)(id % n0), j = (int)(id / n0 % n1), k = (int)(id / n0 / n1);
	double p[3] = {i, j, k};
	/* in grid units, so the move is a fraction of the local spacing */
	if (o->perturb > 0 && i > 0 && i < g->n[0] && j > 0 && j < g->n[1] && k > 0 && k < g->n[2]) {
		double u[3];
		jitter(seed, id, u);
		for (int d = 0; d < 3; d++)
			p[d] += PERTURB_REACH * o->perturb * u[d];
	}
	map_point(g, p, x);
}

/* Every node depends on its own position alone, so the threads place
 * them in any order: grid nodes, then the pyramid blocks' centres. */
static void make_nodes(const gen_t *g, fv_mesh_t *m, int nt)
{
	uint64_t seed = splitmix64((uint64_t)g->o->seed);
	size_t n_grid = ((size_t)g->n[0] + 1) * ((size_t)g->n[1] + 1) * ((size_t)g->n[2] + 1);
	FV_OMP(parallel if (nt > 1))
	{
		FV_OMP(for schedule(static))
		for (size_t id = 0; id < n_grid; id++)
			grid_point(g, seed, id, m->xyz + 3 * id);
		if (g->col_ctr) {
			FV_OMP(for schedule(static))
			for (size_t id = 0; id < n_blocks(g); id++) {
				int ijk[3];
				block_t b;
				block_ijk(g, id, ijk);
				if (column_kind(g, ijk[0], ijk[1]) != BLOCK_PYR)
					continue;
				block_setup(g, ijk[0], ijk[1], ijk[2], &b);
				double *c = m->xyz + 3 * (size_t)b.v[8];
				c[0] = c[1] = c[2] = 0;
				for (int v = 0; v < 8; v++)
					for (int d = 0; d < 3; d++)
						c[d] += m->xyz[3 * (size_t)b.v[v] + d] / 8;
			}
		}
	}
}

static fv_err_t check_opts(const fv_gen_opts_t *o, gen_kind_t kind)
{
	static const char axes[] = "xyz";
	FV_CHECK(o, FV_ERR_ARG, "generator options missing (NULL)");
	FV_CHECK(o->cells >= FV_GEN_HEX && o->cells <= FV_GEN_MIXED, FV_ERR_ARG,
		 "cells must be hex, tet, prism or mixed (got %d)", (int)o->cells);
	/* the plate's and the bump's points are placed exactly (wall spacing, x = 0) */
	if (kind == GEN_PLATE || kind == GEN_BUMP) {
		FV_CHECK(o->perturb == 0, FV_ERR_ARG, "%s: perturb must be 0 (got %g)", gen_names[kind],
			 o->perturb);
		return FV_OK;
	}
	const int n[3] = {o->nx, o->ny, o->nz};
	for (int d = 0; d < 3; d++) {
		FV_CHECK(n[d] >= 1, FV_ERR_ARG, "n%c must be >= 1 (got %d)", axes[d], n[d]);
		FV_CHECK(isfinite(o->lo[d]) && isfinite(o->hi[d]) && o->hi[d] > o->lo[d], FV_ERR_ARG,
			 "hi[%d] must be greater than lo[%d] (%c extent %g to %g)", d, d, axes[d],
			 o->lo[d], o->hi[d]);
	}
	FV_CHECK(o->perturb >= 0 && o->perturb <= MAX_PERTURB, FV_ERR_ARG,
		 "perturb must be in [0, %g] (got %g)", MAX_PERTURB, o->perturb);
	if (kind != GEN_RAMP)
		return FV_OK;
	FV_CHECK(o->ramp_angle_deg > 0 && o->ramp_angle_deg < 45, FV_ERR_ARG,
		 "ramp_angle_deg must be in (0, 45) (got %g)", o->ramp_angle_deg);
	FV_CHECK(o->ramp_x0 >= 0 && o->ramp_x0 < 1, FV_ERR_ARG, "ramp_x0 must be in [0, 1) (got %g)",
		 o->ramp_x0);
	double len = o->hi[0] - o->lo[0], h = o->hi[1] - o->lo[1];
	double rise = (1 - o->ramp_x0) * len * tan(o->ramp_angle_deg * DEG);
	FV_CHECK(rise < h, FV_ERR_ARG,
		 "ramp_angle_deg = %g with ramp_x0 = %g: the ramp (height %g) reaches the top wall "
		 "(channel height hi[1] - lo[1] = %g)", o->ramp_angle_deg, o->ramp_x0, rise, h);
	return FV_OK;
}

/* Column-wise centre numbering for the pyramid blocks of a mixed mesh. */
static fv_err_t number_centres(gen_t *g, size_t *n_nodes)
{
	size_t ncol = (size_t)g->n[0] * (size_t)g->n[1];
	if (g->o->cells != FV_GEN_MIXED)
		return FV_OK;
	FV_CALL(fv_malloc(&g->col_ctr, ncol, sizeof *g->col_ctr, "generator column table"));
	for (int j = 0; j < g->n[1]; j++)
		for (int i = 0; i < g->n[0]; i++) {
			fv_idx_t *c = &g->col_ctr[(size_t)i + (size_t)g->n[0] * (size_t)j];
			*c = -1;
			if (column_kind(g, i, j) == BLOCK_PYR && *n_nodes <= FV_IDX_MAX) {
				*c = (fv_idx_t)*n_nodes;
				*n_nodes += (size_t)g->n[2];
			}
		}
	return FV_OK;
}

/* Blocks per direction and the name in m->source. */
static fv_err_t grid_setup(gen_t *g, fv_mesh_t *m)
{
	const fv_gen_opts_t *o = g->o;
	if (g->kind == GEN_PLATE || g->kind == GEN_BUMP) {
		int level = g->kind == GEN_PLATE ? o->plate.level : o->bump.level;
		FV_CALL(g->kind == GEN_PLATE ? fv_plate_axes(&o->plate, &g->ax) : fv_bump_axes(&o->bump, &g->ax));
		memcpy(g->n, g->ax.n, sizeof g->n);
		snprintf(m->source, sizeof m->source, "%s %s %dx%d points (level %d)", gen_names[g->kind],
			 kind_names[o->cells], g->n[0] + 1, g->n[1] + 1, level);
		return FV_OK;
	}
	g->n[0] = o->nx;
	g->n[1] = o->ny;
	g->n[2] = o->nz;
	g->tan_a = tan(o->ramp_angle_deg * DEG);
	g->x0 = o->ramp_x0 * (o->hi[0] - o->lo[0]);
	snprintf(m->source, sizeof m->source, "%s %s %dx%dx%d", gen_names[g->kind], kind_names[o->cells], o->nx,
		 o->ny, o->nz);
	return FV_OK;
}

static fv_err_t generate(fv_mesh_t *m, const fv_gen_opts_t *o, gen_kind_t kind)
{
	gen_t g = {.o = o, .kind = kind};
	sink_t s = {0}, *part = NULL;
	size_t n_cells = 0, n_cell_nodes = 0;
	int nt = 1;
	fv_err_t err = FV_OK;

	fv_mesh_init(m);
	FV_CALL(check_opts(o, kind));
	FV_CALL(grid_setup(&g, m));
	for (int f = 0; f < 6; f++)
		g.plane[f] = face_plane(f);
	for (int v = 0; v < 9; v++)
		for (int d = 0; d < 3; d++)
			g.ref[v][d] = v == 8 ? 1 : 2 * corner_bit(v, d);

	/* Bound the work before counting: every grid point is a node and each
	 * block has at least this many cell-node entries. */
	static const int min_block_nodes[] = {8, 24, 12, 8};
	double blocks = (double)g.n[0] * g.n[1] * g.n[2];
	double grid = (double)(g.n[0] + 1.0) * (g.n[1] + 1.0) * (g.n[2] + 1.0);
	if (grid > FV_IDX_MAX || min_block_nodes[o->cells] * blocks > FV_IDX_MAX) {
		err = FV_ERROR(FV_ERR_MEM,
			       "%s: %.4g nodes and %.4g blocks (%.4g cell-node entries) are over the 32-bit "
			       "index limit (%d)", m->source, grid, blocks, min_block_nodes[o->cells] * blocks,
			       FV_IDX_MAX);
		goto fail;
	}
	size_t n_nodes = (size_t)grid;
	FV_CALL_GOTO(err, fail, number_centres(&g, &n_nodes));
	/* one part per thread; one for small meshes (threads cost more) */
	nt = grid >= FV_PAR_MIN ? fv_threads_max() : 1;
	FV_CALL_GOTO(err, fail, fv_calloc(&part, (size_t)nt, sizeof *part, "generator parts"));
	all_cells(&g, part, nt);
	all_belems(&g, &s);
	for (int t = 0; t < nt; t++) {
		size_t nc = part[t].n_cells, nn = part[t].n_cell_nodes;
		part[t].n_cells = n_cells;
		part[t].n_cell_nodes = n_cell_nodes;
		n_cells += nc;
		n_cell_nodes += nn;
	}
	if (n_nodes > FV_IDX_MAX || n_cells >= FV_IDX_MAX || n_cell_nodes > FV_IDX_MAX ||
	    s.n_belem_nodes > FV_IDX_MAX) {
		err = FV_ERROR(FV_ERR_MEM,
			       "%s: %zu nodes, %zu cells, %zu cell-node entries are over the 32-bit "
			       "index limit (%d)", m->source, n_nodes, n_cells, n_cell_nodes, FV_IDX_MAX);
		goto fail;
	}
	FV_CALL_GOTO(err, fail, fv_mesh_alloc(m, n_nodes, n_cells, n_cell_nodes, s.n_belems,
					      s.n_belem_nodes));
	for (int k = 0; k < kind_n_markers[kind]; k++) {
		int index;
		FV_CALL_GOTO(err, fail, fv_mesh_marker(m, kind_markers[kind][k], &index));
	}
	make_nodes(&g, m, nt);
	for (int t = 0; t < nt; t++)
		part[t].m = m;
	all_cells(&g, part, nt);
	memset(&s, 0, sizeof s);
	s.m = m;
	all_belems(&g, &s);
	free(part);
	free(g.col_ctr);
	fv_gen_axes_free(&g.ax);
	return FV_OK;
fail:
	free(part);
	free(g.col_ctr);
	fv_gen_axes_free(&g.ax);
	fv_mesh_free(m);
	return err;
}

fv_err_t fv_mesh_gen_box(fv_mesh_t *m, const fv_gen_opts_t *o)
{
	FV_CALL(generate(m, o, GEN_BOX));
	return FV_OK;
}

fv_err_t fv_mesh_gen_ramp(fv_mesh_t *m, const fv_gen_opts_t *o)
{
	FV_CALL(generate(m, o, GEN_RAMP));
	return FV_OK;
}

fv_err_t fv_mesh_gen_plate(fv_mesh_t *m, const fv_gen_opts_t *o)
{
	FV_CALL(generate(m, o, GEN_PLATE));
	return FV_OK;
}

fv_err_t fv_mesh_gen_bump(fv_mesh_t *m, const fv_gen_opts_t *o)
{
	FV_CALL(generate(m, o, GEN_BUMP));
	return FV_OK;
}
