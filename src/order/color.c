/* SPDX-License-Identifier: MIT */
/* Face colouring (greedy, and minimal by Kempe-chain conflict resolution),
 * the face and cell orders that make colour groups contiguous, and the
 * distance-1 cell colouring of the implicit sweeps. */
#include "fvstar/color.h"

#include <stdlib.h>
#include <string.h>

/*
 * The faces are the edges of a multigraph whose vertices are the cells; a
 * boundary face is an edge to a private vertex of degree one, which is
 * never stored: it has every colour free but the face's own. A colouring
 * is then an edge colouring, and the largest cell degree is a lower bound.
 *
 * The minimal method walks alternating paths, one cell per step. Through
 * face ids a step would miss the caches several times in a chain (cell ->
 * faces -> colours -> other cell); it works on slots instead, one per
 * (cell, face) pair, the slots of a cell side by side, each naming the
 * cell across by that cell's slots:
 *
 *   cell c:  slots first[c] .. first[c] + deg[c] - 1   (one cache line)
 *   slot s:  col    colour of the face
 *            nbr    first slot of the cell across (-1: boundary face)
 *            ndeg   its degree
 *            twin   the face's slot there, from nbr
 *
 * so a step reads the slots of one cell and jumps to the next cell's; the
 * colours used at a cell are the bits of its slots' colours. A cell is
 * named by its first slot. Face colours are read back from the owner
 * slots (fslot) at the end.
 */

#define UNCOLORED 0xff

/* Work of the minimal method, in path steps, per face: generated meshes
 * take 0.7 (tets) to 2.3 (refined tets), Delaunay tet meshes from Gmsh
 * 2.8 to 3.6. The cap stops a mesh that has no colouring with the lower
 * bound (an odd ring of cells of degree two, say) from looping: a step
 * costs 30 ns (cells numbered along a curve) to 130 ns (Gmsh's order), so
 * at most 1 to 4 s for 4M faces. */
#define WORK_PER_FACE 8
/* Longest alternating path followed before the attempt counts as failed. */
#define PATH_CAP 4096

typedef struct slot {
	fv_idx_t nbr;
	uint8_t ndeg, twin, col, pad;
} slot_t;

typedef struct cell_ref {
	fv_idx_t first;         /* -1: a boundary face's private vertex */
	int deg;
} cell_ref_t;

/* An uncoloured face, by its slot at cell. */
typedef struct conflict {
	fv_idx_t slot;
	cell_ref_t cell;
} conflict_t;

typedef struct col_ctx {
	fv_idx_t nc, nf;
	const fv_idx_t *fc;     /* face_cell */
	fv_idx_t *deg;          /* [nc + 1] faces of each cell; minimal: first slots */
	uint64_t *used;         /* greedy: [nc] colours on the faces of each cell */
	/* minimal */
	slot_t *slot;           /* [n_slots] */
	fv_idx_t *fslot;        /* [nf] slot of each face at its owner */
	int k;                  /* colours the minimal method aims at */
	uint64_t full;          /* mask of colours 0 .. k-1 */
	fv_idx_t *path;         /* [2 * PATH_CAP] slots of the paths being walked */
	conflict_t *stack;      /* [nf] uncoloured faces still to resolve */
	fv_idx_t n_stack;
	uint64_t rng;
	int64_t work;
	int64_t n_swaps, n_loop_breaks;
} col_ctx_t;

void fv_coloring_init(fv_coloring_t *c)
{
	memset(c, 0, sizeof *c);
}

void fv_coloring_free(fv_coloring_t *c)
{
	FV_FREE(c->color);
	FV_FREE(c->group_off);
	FV_FREE(c->group_face);
	FV_FREE(c->group_size);
	FV_FREE(c->group_bsize);
	fv_coloring_init(c);
}

static inline uint64_t bit(int k)
{
	return (uint64_t)1 << k;
}

static inline int lowest(uint64_t m)
{
	return __builtin_ctzll(m);
}

/* xorshift64*: a fixed seed keeps the colouring reproducible. */
static inline uint64_t rnd(col_ctx_t *x)
{
	x->rng ^= x->rng >> 12;
	x->rng ^= x->rng << 25;
	x->rng ^= x->rng >> 27;
	return x->rng * 2685821657736338717ULL;
}

/* A uniformly chosen set bit of m (m != 0). */
static int random_bit(col_ctx_t *x, uint64_t m)
{
	int n = __builtin_popcountll(m), r = (int)(rnd(x) % (uint64_t)n);
	while (r-- > 0)
		m &= m - 1;
	return lowest(m);
}

/* Validates face_cell and counts the faces of each cell; returns the
 * largest count in *max_deg. */
static fv_err_t count_cell_faces(col_ctx_t *x, int *max_deg)
{
	fv_idx_t nc = x->nc, nf = x->nf, deg_max = 0;
	for (fv_idx_t f = 0; f < nf; f++) {
		fv_idx_t o = x->fc[2 * (size_t)f], n = x->fc[2 * (size_t)f + 1];
		FV_CHECK(o >= 0 && o < nc, FV_ERR_ARG, "face %d: owner %d outside [0, %d)", (int)f, (int)o, (int)nc);
		FV_CHECK(n >= -1 && n < nc && n != o, FV_ERR_ARG, "face %d: neighbour %d invalid (owner %d, %d cells)",
			 (int)f, (int)n, (int)o, (int)nc);
	}
	FV_CALL(fv_calloc(&x->deg, (size_t)nc + 1, sizeof *x->deg, "faces per cell"));
	for (fv_idx_t f = 0; f < nf; f++) {
		x->deg[x->fc[2 * (size_t)f]]++;
		if (x->fc[2 * (size_t)f + 1] >= 0)
			x->deg[x->fc[2 * (size_t)f + 1]]++;
	}
	for (fv_idx_t c = 0; c < nc; c++)
		deg_max = x->deg[c] > deg_max ? x->deg[c] : deg_max;
	FV_CHECK(deg_max <= FV_COLOR_MAX, FV_ERR_ARG, "a cell has %d faces: colouring handles at most %d",
		 (int)deg_max, FV_COLOR_MAX);
	*max_deg = (int)deg_max;
	return FV_OK;
}

/* Zhang 2022 Alg. 4 with the conflict lists of Alg. 3 replaced by the
 * colour masks of the two cells: the same first free colour. */
static fv_err_t color_greedy(col_ctx_t *x, uint8_t *color)
{
	FV_CALL(fv_calloc(&x->used, (size_t)x->nc + 1, sizeof *x->used, "cell colour masks"));
	for (fv_idx_t f = 0; f < x->nf; f++) {
		fv_idx_t o = x->fc[2 * (size_t)f], n = x->fc[2 * (size_t)f + 1];
		uint64_t freem = ~(x->used[o] | (n >= 0 ? x->used[n] : 0));
		FV_CHECK(freem != 0, FV_ERR_MEM, "face %d: greedy colouring needs more than %d colours", (int)f,
			 FV_COLOR_MAX);
		int k = lowest(freem);
		color[f] = (uint8_t)k;
		x->used[o] |= bit(k);
		if (n >= 0)
			x->used[n] |= bit(k);
	}
	return FV_OK;
}

/* The slots of the minimal method, those of a cell in face order; x->deg
 * becomes the first slot of each cell (and the slot count at nc). */
static fv_err_t build_slots(col_ctx_t *x)
{
	fv_idx_t nc = x->nc, nf = x->nf, *first = x->deg, *fill = NULL, ns = 0;
	for (fv_idx_t c = 0; c <= nc; c++) {
		fv_idx_t d = c < nc ? first[c] : 0;
		first[c] = ns;
		ns += d;
	}
	FV_CALL(fv_calloc(&fill, (size_t)nc + 1, sizeof *fill, "slot counters"));
	if (fv_malloc(&x->slot, (size_t)ns + 1, sizeof *x->slot, "colour slots") != FV_OK ||
	    fv_malloc(&x->fslot, (size_t)nf + 1, sizeof *x->fslot, "face slots") != FV_OK) {
		free(fill);
		return fv_error_trace(FV_ERR_MEM, __FILE__, __LINE__);
	}
	for (fv_idx_t f = 0; f < nf; f++) {
		fv_idx_t o = x->fc[2 * (size_t)f], n = x->fc[2 * (size_t)f + 1];
		fv_idx_t so = first[o] + fill[o]++;
		if (n >= 0) {
			fv_idx_t sn = first[n] + fill[n]++;
			x->slot[so] = (slot_t){.nbr = first[n], .ndeg = (uint8_t)(first[n + 1] - first[n]),
					       .twin = (uint8_t)(sn - first[n]), .col = UNCOLORED};
			x->slot[sn] = (slot_t){.nbr = first[o], .ndeg = (uint8_t)(first[o + 1] - first[o]),
					       .twin = (uint8_t)(so - first[o]), .col = UNCOLORED};
		} else {
			x->slot[so] = (slot_t){.nbr = -1, .col = UNCOLORED};
		}
		x->fslot[f] = so;
	}
	free(fill);
	return FV_OK;
}

static inline cell_ref_t cell_of(const col_ctx_t *x, fv_idx_t c)
{
	return (cell_ref_t){x->deg[c], (int)(x->deg[c + 1] - x->deg[c])};
}

/* The cell across the face of slot s. */
static inline cell_ref_t across(const col_ctx_t *x, fv_idx_t s)
{
	return (cell_ref_t){x->slot[s].nbr, x->slot[s].ndeg};
}

/* Colours on the faces of cell c; none at a private vertex. */
static inline uint64_t used_at(const col_ctx_t *x, cell_ref_t c)
{
	uint64_t m = 0;
	for (int i = 0; i < c.deg; i++) {
		uint8_t k = x->slot[c.first + i].col;
		m |= k == UNCOLORED ? 0 : bit(k);
	}
	return m;
}

/* The slot of colour k at cell c (which has one). */
static inline fv_idx_t slot_of(const col_ctx_t *x, cell_ref_t c, int k)
{
	for (fv_idx_t s = c.first;; s++)
		if (x->slot[s].col == k)
			return s;
}

/* Colours the face of slot s with k (UNCOLORED clears it). */
static inline void set_color(col_ctx_t *x, fv_idx_t s, int k)
{
	slot_t *p = &x->slot[s];
	p->col = (uint8_t)k;
	if (p->nbr >= 0)
		x->slot[p->nbr + p->twin].col = (uint8_t)k;
}

/*
 * A walker follows the path from a cell whose faces have colours a, b, a,
 * b, ... The cell has a face of colour a and none of colour b, so the path
 * is simple; it ends at a cell that lacks the next colour, or at a
 * boundary face's private vertex (end.first = -1).
 */
typedef struct walker {
	cell_ref_t c, end;
	int a, b, cur, nxt, n, done;
	fv_idx_t *path;        /* [PATH_CAP] slots, each at the cell left */
} walker_t;

static void walk_init(walker_t *w, cell_ref_t c, int a, int b, fv_idx_t *path)
{
	*w = (walker_t){.c = c, .end = {-1, 0}, .a = a, .b = b, .cur = a, .nxt = b, .path = path};
}

/* One face further; returns 1 once the path has ended (w->done), or when it
 * is PATH_CAP faces long (w->done stays 0). */
static int walk_step(col_ctx_t *x, walker_t *w)
{
	if (!(used_at(x, w->c) & bit(w->cur))) {
		w->end = w->c;
		w->done = 1;
		return 1;
	}
	if (w->n == PATH_CAP)
		return 1;
	fv_idx_t s = slot_of(x, w->c, w->cur);
	w->path[w->n++] = s;
	x->work++;
	w->c = across(x, s);
	if (w->c.first < 0) {
		w->done = 1;
		return 1;
	}
	int t = w->cur;
	w->cur = w->nxt;
	w->nxt = t;
	return 0;
}

/* Swaps a and b along the walked path (the colour sets of its inner cells
 * do not change, those of its ends do). */
static void swap_path(col_ctx_t *x, const walker_t *w)
{
	for (int i = 0; i < w->n; i++) {
		fv_idx_t s = w->path[i];
		set_color(x, s, x->slot[s].col == w->a ? w->b : w->a);
	}
	x->n_swaps += w->n;
}

/*
 * Tries to colour the uncoloured face (slot s at cell u, across it v)
 * within the k colours: a colour free at both cells, else a Kempe swap.
 * With a free at u and b free at v, swapping a and b on the a/b path from v
 * frees a at v unless the path ends at u (then it closes an odd cycle with
 * the face); likewise b at u with the path from u. Both paths are walked in
 * step and the first to end decides: the work is twice the shorter path.
 * Returns 1 when the face got a colour.
 */
static int resolve(col_ctx_t *x, conflict_t e)
{
	cell_ref_t u = e.cell, v = across(x, e.slot);
	uint64_t fu = ~used_at(x, u) & x->full, fv = ~used_at(x, v) & x->full;
	walker_t wv, wu;
	if (fu & fv) {
		set_color(x, e.slot, lowest(fu & fv));
		return 1;
	}
	/* v is a cell here: a boundary face's private vertex has every colour
	 * free, and u has one (the face is one of at most k faces of u) */
	for (uint64_t ma = fu; ma; ma &= ma - 1) {
		int a = lowest(ma);
		for (uint64_t mb = fv; mb; mb &= mb - 1) {
			int b = lowest(mb), stop_v = 0, stop_u = 0;
			walk_init(&wv, v, a, b, x->path);
			walk_init(&wu, u, b, a, x->path + PATH_CAP);
			while (!stop_v || !stop_u) {
				if (!stop_v && (stop_v = walk_step(x, &wv)) && wv.done) {
					if (wv.end.first == u.first)
						break; /* odd cycle: the path from u is the same */
					swap_path(x, &wv);
					set_color(x, e.slot, a);
					return 1;
				}
				if (!stop_u && (stop_u = walk_step(x, &wu)) && wu.done) {
					if (wu.end.first == v.first)
						break;
					swap_path(x, &wu);
					set_color(x, e.slot, b);
					return 1;
				}
			}
		}
	}
	return 0;
}

/* Uncolours the face of colour k at cell c, if any, as a new conflict. */
static void uncolor_at(col_ctx_t *x, cell_ref_t c, int k)
{
	if (c.first < 0 || !(used_at(x, c) & bit(k)))
		return;
	fv_idx_t g = slot_of(x, c, k);
	set_color(x, g, UNCOLORED);
	x->stack[x->n_stack++] = (conflict_t){g, c};
}

/*
 * Giuliani-Krivodonova's loop breaking: the face takes a colour k used at
 * both cells (or, when there is none, at one of them) and the faces that
 * had k become uncoloured, one conflict more. The colour, and which of the
 * two new conflicts comes first, are random: with a fixed order the
 * conflicts of a Delaunay tet mesh locked into a cycle until the work cap.
 */
static void break_loop(col_ctx_t *x, conflict_t e)
{
	cell_ref_t u = e.cell, v = across(x, e.slot);
	uint64_t mu = used_at(x, u) & x->full, mv = used_at(x, v) & x->full;
	int k = random_bit(x, (mu & mv) ? mu & mv : mu | mv), first = (int)(rnd(x) & 1);
	uncolor_at(x, first ? u : v, k);
	uncolor_at(x, first ? v : u, k);
	set_color(x, e.slot, k);
	x->n_loop_breaks++;
	x->work += 2;
}

/*
 * Giuliani & Krivodonova, Sect. 3.1, on the cell-face multigraph:
 * (1) a greedy pass restricted to k = max cell degree colours; a face with
 *     no colour free at both of its cells is left uncoloured (a conflict);
 * (2) conflicts are resolved one at a time, last first: a common free
 *     colour, else a Kempe-chain swap, else a loop break that moves the
 *     conflict to two new faces.
 * A loop break adds at most one face to the stack, which holds only
 * uncoloured faces, so it never exceeds nf. Once the work passes
 * WORK_PER_FACE steps per face, faces still uncoloured take the first free
 * colour, above k if need be.
 */
static fv_err_t color_minimal(col_ctx_t *x, uint8_t *color, fv_idx_t *n_conflicts, fv_idx_t *n_fallback)
{
	int64_t budget = (int64_t)WORK_PER_FACE * x->nf + 100000;
	FV_CALL(build_slots(x));
	FV_CALL(fv_malloc(&x->path, 2 * PATH_CAP, sizeof *x->path, "Kempe paths"));
	FV_CALL(fv_malloc(&x->stack, (size_t)x->nf + 1, sizeof *x->stack, "colour conflicts"));
	for (fv_idx_t f = 0; f < x->nf; f++) {
		fv_idx_t s = x->fslot[f];
		cell_ref_t o = cell_of(x, x->fc[2 * (size_t)f]);
		uint64_t freem = ~(used_at(x, o) | used_at(x, across(x, s))) & x->full;
		if (freem)
			set_color(x, s, lowest(freem));
		else
			x->stack[x->n_stack++] = (conflict_t){s, o};
	}
	*n_conflicts = x->n_stack;
	while (x->n_stack > 0 && x->work < budget) {
		conflict_t e = x->stack[--x->n_stack];
		if (!resolve(x, e))
			break_loop(x, e);
	}
	*n_fallback = 0;
	while (x->n_stack > 0) {
		conflict_t e = x->stack[--x->n_stack];
		uint64_t freem = ~(used_at(x, e.cell) | used_at(x, across(x, e.slot)));
		FV_CHECK(freem != 0, FV_ERR_MEM, "colouring needs more than %d colours", FV_COLOR_MAX);
		set_color(x, e.slot, lowest(freem));
		*n_fallback += lowest(freem) >= x->k;
	}
	for (fv_idx_t f = 0; f < x->nf; f++)
		color[f] = x->slot[x->fslot[f]].col;
	return FV_OK;
}

/* Colour groups as CSR, and the sizes. */
static fv_err_t build_groups(fv_coloring_t *c, const fv_idx_t *face_cell)
{
	int nk = c->n_colors;
	FV_CALL(fv_calloc(&c->group_off, (size_t)nk + 1, sizeof *c->group_off, "colour group offsets"));
	FV_CALL(fv_calloc(&c->group_size, (size_t)nk + 1, sizeof *c->group_size, "colour group sizes"));
	FV_CALL(fv_calloc(&c->group_bsize, (size_t)nk + 1, sizeof *c->group_bsize, "colour group sizes"));
	FV_CALL(fv_malloc(&c->group_face, (size_t)c->n_faces + 1, sizeof *c->group_face, "colour groups"));
	for (fv_idx_t f = 0; f < c->n_faces; f++) {
		c->group_size[c->color[f]]++;
		c->group_bsize[c->color[f]] += face_cell[2 * (size_t)f + 1] < 0;
	}
	for (int k = 0; k < nk; k++)
		c->group_off[k + 1] = c->group_off[k] + c->group_size[k];
	for (fv_idx_t f = 0; f < c->n_faces; f++)
		c->group_face[c->group_off[c->color[f]]++] = f;
	for (int k = nk; k > 0; k--)
		c->group_off[k] = c->group_off[k - 1];
	c->group_off[0] = 0;
	return FV_OK;
}

static fv_err_t color_faces(col_ctx_t *x, fv_color_method_t method, fv_coloring_t *c)
{
	int max_deg = 0;
	FV_CALL(count_cell_faces(x, &max_deg));
	FV_CALL(fv_malloc(&c->color, (size_t)x->nf + 1, sizeof *c->color, "face colours"));
	c->n_faces = x->nf;
	c->lower_bound = max_deg;
	if (method == FV_COLOR_GREEDY) {
		FV_CALL(color_greedy(x, c->color));
	} else {
		x->k = max_deg;
		x->full = max_deg >= 64 ? ~(uint64_t)0 : bit(max_deg) - 1;
		x->rng = 0x9E3779B97F4A7C15ULL;
		FV_CALL(color_minimal(x, c->color, &c->n_conflicts, &c->n_fallback));
		c->n_swaps = x->n_swaps;
		c->n_loop_breaks = x->n_loop_breaks;
	}
	c->n_colors = 0;
	for (fv_idx_t f = 0; f < x->nf; f++)
		c->n_colors = c->color[f] >= c->n_colors ? c->color[f] + 1 : c->n_colors;
	FV_CALL(build_groups(c, x->fc));
	return FV_OK;
}

fv_err_t fv_color_faces(fv_idx_t n_cells, fv_idx_t n_faces, const fv_idx_t *face_cell, fv_color_method_t method,
			fv_coloring_t *c)
{
	FV_CHECK(c && (face_cell || n_faces == 0), FV_ERR_ARG, "fv_color_faces: null argument");
	FV_CHECK(n_cells >= 0 && n_faces >= 0, FV_ERR_ARG, "fv_color_faces: %d cells, %d faces", (int)n_cells,
		 (int)n_faces);
	FV_CHECK(method == FV_COLOR_GREEDY || method == FV_COLOR_MINIMAL, FV_ERR_ARG,
		 "fv_color_faces: unknown method %d", (int)method);
	fv_coloring_free(c);
	col_ctx_t x = {.nc = n_cells, .nf = n_faces, .fc = face_cell};
	fv_err_t err = color_faces(&x, method, c);
	free(x.deg);
	free(x.used);
	free(x.slot);
	free(x.fslot);
	free(x.path);
	free(x.stack);
	if (err != FV_OK) {
		fv_coloring_free(c);
		return fv_error_trace(err, __FILE__, __LINE__);
	}
	return FV_OK;
}

/* Some face g < f of colour k on cell cell: the other face of a conflict
 * found at f (the scan runs on failure only). */
static fv_idx_t earlier_face(const fv_idx_t *face_cell, const uint8_t *color, fv_idx_t f, fv_idx_t cell, int k)
{
	for (fv_idx_t g = 0; g < f; g++)
		if (color[g] == k && (face_cell[2 * (size_t)g] == cell || face_cell[2 * (size_t)g + 1] == cell))
			return g;
	return -1;
}

static fv_err_t check_groups(fv_idx_t n_faces, const fv_idx_t *face_cell, const fv_coloring_t *c)
{
	int nk = c->n_colors;
	FV_CHECK(c->group_off && c->group_face && c->group_size && c->group_bsize, FV_ERR_ARG,
		 "colouring: missing colour groups");
	FV_CHECK(c->group_off[0] == 0 && c->group_off[nk] == n_faces, FV_ERR_ARG,
		 "colouring: groups cover %d faces, not %d", (int)(c->group_off[nk] - c->group_off[0]), (int)n_faces);
	for (int k = 0; k < nk; k++) {
		fv_idx_t lo = c->group_off[k], hi = c->group_off[k + 1], nb = 0;
		FV_CHECK(lo <= hi && hi - lo == c->group_size[k], FV_ERR_ARG,
			 "colouring: group %d has offsets %d..%d but size %d", k, (int)lo, (int)hi, (int)c->group_size[k]);
		for (fv_idx_t i = lo; i < hi; i++) {
			fv_idx_t f = c->group_face[i];
			FV_CHECK(f >= 0 && f < n_faces && c->color[f] == k, FV_ERR_ARG,
				 "colouring: group %d lists face %d of colour %d", k, (int)f,
				 f >= 0 && f < n_faces ? (int)c->color[f] : -1);
			FV_CHECK(i == lo || c->group_face[i - 1] < f, FV_ERR_ARG,
				 "colouring: group %d is not in increasing face order at face %d", k, (int)f);
			nb += face_cell[2 * (size_t)f + 1] < 0;
		}
		FV_CHECK(nb == c->group_bsize[k], FV_ERR_ARG, "colouring: group %d has %d boundary faces, not %d", k,
			 (int)nb, (int)c->group_bsize[k]);
	}
	return FV_OK;
}

fv_err_t fv_color_check(fv_idx_t n_cells, fv_idx_t n_faces, const fv_idx_t *face_cell, const fv_coloring_t *c)
{
	uint64_t *mask = NULL;
	fv_err_t err = FV_OK;
	FV_CHECK(c && (face_cell || n_faces == 0), FV_ERR_ARG, "fv_color_check: null argument");
	FV_CHECK(c->n_faces == n_faces, FV_ERR_ARG, "colouring has %d faces, the mesh %d", (int)c->n_faces,
		 (int)n_faces);
	FV_CHECK(c->n_colors >= 0 && c->n_colors <= FV_COLOR_MAX, FV_ERR_ARG, "colouring has %d colours",
		 c->n_colors);
	FV_CHECK(c->color || n_faces == 0, FV_ERR_ARG, "colouring: no colours");
	FV_CALL(fv_calloc(&mask, (size_t)n_cells + 1, sizeof *mask, "colour check masks"));
	for (fv_idx_t f = 0; f < n_faces && err == FV_OK; f++) {
		int k = c->color[f];
		if (k >= c->n_colors) {
			err = FV_ERROR(FV_ERR_ARG, "face %d is uncoloured (colour %d, outside [0, %d))", (int)f, k,
				       c->n_colors);
			break;
		}
		for (int side = 0; side < 2; side++) {
			fv_idx_t cell = face_cell[2 * (size_t)f + side];
			if (cell < 0 && side == 1)
				continue;
			if (cell < 0 || cell >= n_cells) {
				err = FV_ERROR(FV_ERR_ARG, "face %d: cell %d outside [0, %d)", (int)f, (int)cell,
					       (int)n_cells);
				break;
			}
			if (mask[cell] & bit(k)) {
				err = FV_ERROR(FV_ERR_ARG, "faces %d and %d share cell %d and colour %d",
					       (int)earlier_face(face_cell, c->color, f, cell, k), (int)f, (int)cell, k);
				break;
			}
			mask[cell] |= bit(k);
		}
	}
	free(mask);
	FV_CALL(err);
	FV_CALL(check_groups(n_faces, face_cell, c));
	return FV_OK;
}

fv_err_t fv_color_face_order(fv_idx_t n_cells, const fv_idx_t *face_cell, const fv_coloring_t *c,
			     const int32_t *bface_key, int n_keys, const fv_idx_t *cell_new, fv_idx_t *face_order,
			     fv_idx_t *block_off)
{
	fv_idx_t nf, *by_owner = NULL, *cnt = NULL;
	int nk, nkey = bface_key ? n_keys : 1;
	size_t nb;
	fv_err_t err = FV_OK;

	FV_CHECK(c && face_cell && face_order && block_off, FV_ERR_ARG, "fv_color_face_order: null argument");
	FV_CHECK(nkey >= 1, FV_ERR_ARG, "fv_color_face_order: %d keys", nkey);
	nf = c->n_faces;
	nk = c->n_colors;
	nb = (size_t)(nkey + 1) * (size_t)nk;
	for (fv_idx_t f = 0; f < nf; f++)
		FV_CHECK(face_cell[2 * (size_t)f + 1] >= 0 || !bface_key || (bface_key[f] >= 0 && bface_key[f] < nkey),
			 FV_ERR_ARG, "boundary face %d has key %d, outside [0, %d)", (int)f, (int)bface_key[f], nkey);
	for (size_t b = 0; b <= nb; b++)
		block_off[b] = 0;
#define BLOCK(f) (face_cell[2 * (size_t)(f) + 1] < 0                                         \
			  ? (size_t)(bface_key ? bface_key[f] : 0) * nk + c->color[f]           \
			  : (size_t)nkey * nk + c->color[f])
	for (fv_idx_t f = 0; f < nf; f++)
		block_off[BLOCK(f) + 1]++;
	for (size_t b = 0; b < nb; b++)
		block_off[b + 1] += block_off[b];

	/* the faces in the order they are placed: as given, or by new owner
	 * (a counting sort; a block has each cell at most once) */
	if (cell_new) {
		FV_CALL_GOTO(err, done, fv_calloc(&cnt, (size_t)n_cells + 1, sizeof *cnt, "faces per owner"));
		FV_CALL_GOTO(err, done, fv_malloc(&by_owner, (size_t)nf + 1, sizeof *by_owner, "faces by owner"));
		for (fv_idx_t f = 0; f < nf; f++) {
			fv_idx_t o = face_cell[2 * (size_t)f];
			if (o < 0 || o >= n_cells || cell_new[o] < 0 || cell_new[o] >= n_cells) {
				err = FV_ERROR(FV_ERR_ARG, "face %d: owner %d has no new number in [0, %d)", (int)f,
					       (int)o, (int)n_cells);
				goto done;
			}
			cnt[cell_new[o] + 1]++;
		}
		for (fv_idx_t i = 0; i < n_cells; i++)
			cnt[i + 1] += cnt[i];
		for (fv_idx_t f = 0; f < nf; f++)
			by_owner[cnt[cell_new[face_cell[2 * (size_t)f]]]++] = f;
	}
	for (fv_idx_t i = 0; i < nf; i++) {
		fv_idx_t f = by_owner ? by_owner[i] : i;
		face_order[block_off[BLOCK(f)]++] = f;
	}
#undef BLOCK
	for (size_t b = nb; b > 0; b--)
		block_off[b] = block_off[b - 1];
	block_off[0] = 0;
done:
	free(cnt);
	free(by_owner);
	return err;
}

fv_err_t fv_color_cell_order(fv_idx_t n_cells, fv_idx_t n_faces, const fv_idx_t *face_cell, const fv_coloring_t *c,
			     int color, fv_idx_t *cell_order, fv_idx_t *cell_new, int *picked)
{
	fv_idx_t *nw = cell_new, n_int, j = 0, next;
	fv_err_t err = FV_OK;
	int k = color;

	FV_CHECK(c && face_cell && cell_order, FV_ERR_ARG, "fv_color_cell_order: null argument");
	FV_CHECK(c->n_faces == n_faces && c->group_off, FV_ERR_ARG,
		 "fv_color_cell_order: colouring of %d faces for %d faces", (int)c->n_faces, (int)n_faces);
	FV_CHECK(color < c->n_colors, FV_ERR_ARG, "fv_color_cell_order: colour %d of %d", color, c->n_colors);
	if (k < 0) {
		k = 0;
		for (int i = 1; i < c->n_colors; i++)
			if (c->group_size[i] - c->group_bsize[i] > c->group_size[k] - c->group_bsize[k])
				k = i;
	}
	if (!nw)
		FV_CALL(fv_malloc(&nw, (size_t)n_cells + 1, sizeof *nw, "new cell numbers"));
	for (fv_idx_t i = 0; i < n_cells; i++)
		nw[i] = -1;
	n_int = c->n_colors > 0 ? c->group_size[k] - c->group_bsize[k] : 0;
	next = 2 * n_int;
	/* interior faces of k: owner j, neighbour N + j; then boundary owners */
	for (int pass = 0; pass < 2 && c->n_colors > 0; pass++)
		for (fv_idx_t i = c->group_off[k]; i < c->group_off[k + 1]; i++) {
			fv_idx_t f = c->group_face[i], o = face_cell[2 * (size_t)f], n = face_cell[2 * (size_t)f + 1];
			if ((n >= 0) != (pass == 0))
				continue;
			if (o < 0 || o >= n_cells || n >= n_cells) {
				err = FV_ERROR(FV_ERR_ARG, "face %d: cells %d, %d outside [0, %d)", (int)f, (int)o, (int)n,
					       (int)n_cells);
				goto done;
			}
			if (nw[o] >= 0 || (n >= 0 && nw[n] >= 0)) {
				err = FV_ERROR(FV_ERR_ARG, "face %d: a cell has two faces of colour %d", (int)f, k);
				goto done;
			}
			if (pass == 0) {
				nw[o] = j;
				nw[n] = n_int + j++;
			} else {
				nw[o] = next++;
			}
		}
	for (fv_idx_t i = 0; i < n_cells; i++)
		if (nw[i] < 0)
			nw[i] = next++;
	for (fv_idx_t i = 0; i < n_cells; i++)
		cell_order[nw[i]] = i;
	if (picked)
		*picked = k;
done:
	if (nw != cell_new)
		free(nw);
	return err;
}

/* ------------------------------------------------------ cell colouring */

void fv_cell_coloring_init(fv_cell_coloring_t *c)
{
	memset(c, 0, sizeof *c);
}

void fv_cell_coloring_free(fv_cell_coloring_t *c)
{
	FV_FREE(c->color);
	FV_FREE(c->group_off);
	FV_FREE(c->group_cell);
	fv_cell_coloring_init(c);
}

/* The cell graph as CSR: the neighbours of cell v below n are
 * adj[off[v] .. off[v+1]). */
typedef struct cell_graph {
	fv_idx_t n;
	fv_idx_t *off, *adj;
} cell_graph_t;

static int cell_edge(const fv_idx_t *fc, fv_idx_t n, fv_idx_t f)
{
	fv_idx_t o = fc[2 * (size_t)f], b = fc[2 * (size_t)f + 1];
	return o >= 0 && o < n && b >= 0 && b < n && o != b;
}

static fv_err_t cell_graph(fv_idx_t n, fv_idx_t nf, const fv_idx_t *fc, cell_graph_t *g)
{
	fv_idx_t *fill = NULL;
	g->n = n;
	for (fv_idx_t f = 0; f < nf; f++)
		FV_CHECK(fc[2 * (size_t)f] >= 0, FV_ERR_ARG, "face %d: owner %d", (int)f, (int)fc[2 * (size_t)f]);
	FV_CALL(fv_calloc(&g->off, (size_t)n + 2, sizeof *g->off, "cell graph offsets"));
	for (fv_idx_t f = 0; f < nf; f++)
		if (cell_edge(fc, n, f)) {
			g->off[fc[2 * (size_t)f] + 2]++;
			g->off[fc[2 * (size_t)f + 1] + 2]++;
		}
	for (fv_idx_t v = 0; v < n; v++) {
		FV_CHECK(g->off[v + 2] < FV_COLOR_MAX, FV_ERR_ARG, "cell %d has %d neighbours: colouring handles %d",
			 (int)v, (int)g->off[v + 2], FV_COLOR_MAX - 1);
		g->off[v + 2] += g->off[v + 1];
	}
	/* off[v + 1] is now the start of v's list; fill it while moving it on */
	FV_CALL(fv_malloc(&g->adj, (size_t)g->off[n + 1] + 1, sizeof *g->adj, "cell graph"));
	fill = g->off + 1;
	for (fv_idx_t f = 0; f < nf; f++)
		if (cell_edge(fc, n, f)) {
			fv_idx_t o = fc[2 * (size_t)f], b = fc[2 * (size_t)f + 1];
			g->adj[fill[o]++] = b;
			g->adj[fill[b]++] = o;
		}
	return FV_OK;
}

/* Smallest-last order (Matula & Beck 1983): repeatedly remove a vertex of
 * least degree among those left; order[] lists them last removed first.
 * Buckets of vertices by current degree as doubly linked lists. */
static fv_err_t smallest_last(const cell_graph_t *g, fv_idx_t *order)
{
	fv_idx_t n = g->n, *deg = NULL, *next = NULL, *prev = NULL, head[FV_COLOR_MAX + 1];
	uint8_t *gone = NULL;
	fv_err_t err = FV_OK;
	FV_CALL_GOTO(err, out, fv_malloc(&deg, (size_t)n + 1, sizeof *deg, "cell degrees"));
	FV_CALL_GOTO(err, out, fv_malloc(&next, (size_t)n + 1, sizeof *next, "degree buckets"));
	FV_CALL_GOTO(err, out, fv_malloc(&prev, (size_t)n + 1, sizeof *prev, "degree buckets"));
	FV_CALL_GOTO(err, out, fv_calloc(&gone, (size_t)n + 1, sizeof *gone, "removed cells"));
	for (int d = 0; d <= FV_COLOR_MAX; d++)
		head[d] = -1;
	/* highest id first into each bucket so that ties go in increasing id */
	for (fv_idx_t v = n - 1; v >= 0; v--) {
		int d = (int)(g->off[v + 1] - g->off[v]);
		deg[v] = d;
		prev[v] = -1;
		next[v] = head[d];
		if (head[d] >= 0)
			prev[head[d]] = v;
		head[d] = v;
	}
	int d = 0;
	for (fv_idx_t i = n - 1; i >= 0; i--) {
		while (head[d] < 0)
			d++;
		fv_idx_t v = head[d];
		head[d] = next[v];
		if (next[v] >= 0)
			prev[next[v]] = -1;
		gone[v] = 1;
		order[i] = v;
		for (fv_idx_t k = g->off[v]; k < g->off[v + 1]; k++) {
			fv_idx_t u = g->adj[k];
			if (gone[u])
				continue;
			/* u moves down one bucket */
			int du = (int)deg[u]--;
			if (prev[u] >= 0)
				next[prev[u]] = next[u];
			else
				head[du] = next[u];
			if (next[u] >= 0)
				prev[next[u]] = prev[u];
			prev[u] = -1;
			next[u] = head[du - 1];
			if (head[du - 1] >= 0)
				prev[head[du - 1]] = u;
			head[du - 1] = u;
		}
		d = d > 0 ? d - 1 : 0;
	}
out:
	free(deg);
	free(next);
	free(prev);
	free(gone);
	return err;
}

static uint64_t nbr_colors(const cell_graph_t *g, const uint8_t *color, fv_idx_t v)
{
	uint64_t m = 0;
	for (fv_idx_t k = g->off[v]; k < g->off[v + 1]; k++)
		if (color[g->adj[k]] != UNCOLORED)
			m |= bit(color[g->adj[k]]);
	return m;
}

/* Moves cells out of groups larger than ceil(n / n_colors) into the
 * smallest group that none of their neighbours is in, while it is below
 * that size: fewer and more even sweeps' tasks, same colour count. */
static void balance_cells(const cell_graph_t *g, uint8_t *color, int nk, fv_idx_t *size)
{
	fv_idx_t target = (g->n + nk - 1) / (nk > 0 ? nk : 1);
	for (fv_idx_t v = 0; v < g->n; v++) {
		if (size[color[v]] <= target)
			continue;
		uint64_t used = nbr_colors(g, color, v);
		int best = -1;
		for (int k = 0; k < nk; k++)
			if (!(used & bit(k)) && size[k] < target && (best < 0 || size[k] < size[best]))
				best = k;
		if (best >= 0) {
			size[color[v]]--;
			size[best]++;
			color[v] = (uint8_t)best;
		}
	}
}

fv_err_t fv_color_cells(fv_idx_t n_cells, fv_idx_t n_faces, const fv_idx_t *face_cell, fv_cell_coloring_t *c)
{
	cell_graph_t g = {0, NULL, NULL};
	fv_idx_t *order = NULL, size[FV_COLOR_MAX] = {0};
	fv_err_t err = FV_OK;
	FV_CHECK(c && (face_cell || n_faces == 0) && n_cells >= 0 && n_faces >= 0, FV_ERR_ARG,
		 "fv_color_cells: bad argument (%d cells, %d faces)", (int)n_cells, (int)n_faces);
	fv_cell_coloring_free(c);
	c->n_cells = n_cells;
	FV_CALL_GOTO(err, out, cell_graph(n_cells, n_faces, face_cell, &g));
	FV_CALL_GOTO(err, out, fv_malloc(&order, (size_t)n_cells + 1, sizeof *order, "cell order"));
	FV_CALL_GOTO(err, out, smallest_last(&g, order));
	FV_CALL_GOTO(err, out, fv_malloc(&c->color, (size_t)n_cells + 1, sizeof *c->color, "cell colours"));
	memset(c->color, UNCOLORED, (size_t)n_cells);
	for (fv_idx_t i = 0; i < n_cells; i++) {
		fv_idx_t v = order[i];
		/* fewer than FV_COLOR_MAX neighbours: a colour is free */
		int k = lowest(~nbr_colors(&g, c->color, v));
		c->color[v] = (uint8_t)k;
		size[k]++;
		c->n_colors = k + 1 > c->n_colors ? k + 1 : c->n_colors;
	}
	balance_cells(&g, c->color, c->n_colors, size);
	FV_CALL_GOTO(err, out, fv_calloc(&c->group_off, (size_t)c->n_colors + 1, sizeof *c->group_off, "cell groups"));
	FV_CALL_GOTO(err, out, fv_malloc(&c->group_cell, (size_t)n_cells + 1, sizeof *c->group_cell, "cell groups"));
	for (int k = 0; k < c->n_colors; k++)
		c->group_off[k + 1] = c->group_off[k] + size[k];
	memcpy(size, c->group_off, (size_t)c->n_colors * sizeof *size);
	for (fv_idx_t v = 0; v < n_cells; v++)
		c->group_cell[size[c->color[v]]++] = v;
out:
	free(g.off);
	free(g.adj);
	free(order);
	if (err != FV_OK)
		fv_cell_coloring_free(c);
	return err;
}

fv_err_t fv_color_cells_check(fv_idx_t n_cells, fv_idx_t n_faces, const fv_idx_t *face_cell,
			      const fv_cell_coloring_t *c)
{
	FV_CHECK(c && (face_cell || n_faces == 0), FV_ERR_ARG, "fv_color_cells_check: null argument");
	FV_CHECK(c->n_cells == n_cells, FV_ERR_ARG, "cell colouring has %d cells, not %d", (int)c->n_cells,
		 (int)n_cells);
	FV_CHECK(c->n_colors >= (n_cells > 0) && c->n_colors <= FV_COLOR_MAX, FV_ERR_ARG, "cell colouring has %d colours",
		 c->n_colors);
	for (fv_idx_t v = 0; v < n_cells; v++)
		FV_CHECK(c->color[v] < c->n_colors, FV_ERR_ARG, "cell %d has colour %d of %d", (int)v, c->color[v],
			 c->n_colors);
	for (fv_idx_t f = 0; f < n_faces; f++)
		FV_CHECK(!cell_edge(face_cell, n_cells, f) ||
				 c->color[face_cell[2 * (size_t)f]] != c->color[face_cell[2 * (size_t)f + 1]],
			 FV_ERR_ARG, "face %d: cells %d and %d have one colour, %d", (int)f, (int)face_cell[2 * (size_t)f],
			 (int)face_cell[2 * (size_t)f + 1], c->color[face_cell[2 * (size_t)f]]);
	FV_CHECK(c->group_off[0] == 0 && c->group_off[c->n_colors] == n_cells, FV_ERR_ARG,
		 "cell colouring: groups cover %d of %d cells", (int)c->group_off[c->n_colors], (int)n_cells);
	for (int k = 0; k < c->n_colors; k++)
		for (fv_idx_t i = c->group_off[k]; i < c->group_off[k + 1]; i++) {
			fv_idx_t v = c->group_cell[i];
			FV_CHECK(v >= 0 && v < n_cells && c->color[v] == k && (i == c->group_off[k] || c->group_cell[i - 1] < v),
				 FV_ERR_ARG, "cell colouring: group %d lists cell %d out of place", k, (int)v);
		}
	return FV_OK;
}
