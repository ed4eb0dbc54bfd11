/* SPDX-License-Identifier: MIT */
/* Uniform refinement: each cell into 8 (pyramids into 10) and each boundary
 * element into 4, new nodes shared through hash tables of edges and faces,
 * on all threads with the serial result. */
#include "fvstar/mesh.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/threads.h"

#define MAX_PTS 27
#define MAX_CHILDREN 10

/* A point of a refinement pattern is the average of a set of the parent's
 * nodes, a bit mask: one node, an edge midpoint (2 bits), a quad-face
 * centre (4) or the hex centre (8). Naming points this way lets one lookup
 * serve all shapes and makes neighbours agree on shared points. */
typedef struct pattern {
	int n_pts;
	uint8_t pt_mask[MAX_PTS];
	int n_children;
	int n_child_nodes;
	int n_hashed;       /* points that are edges or quad faces */
	uint8_t child_type[MAX_CHILDREN];
	uint8_t child_n[MAX_CHILDREN];
	uint8_t child_pt[MAX_CHILDREN][FV_MAX_CELL_NODES];
} pattern_t;

typedef struct patterns {
	pattern_t cell[FV_NCELLTYPES];
	/* by the octahedron diagonal; cell[FV_TET] is tet[0]. The corner tets
	 * come first and name all ten points, so the three share point order
	 * and pass 1 can key any tet by tet[0]. */
	pattern_t tet[3];
	pattern_t tri, quad;
} patterns_t;

/* One table per kind of new node: on edges (2 parent nodes) and on quad
 * faces (4), open addressing with linear probing, shared by the threads.
 * A slot holds the first cell point that makes the node, c << 5 | k
 * (point k of cell c's pattern), under 28 bits of the key's hash; the key
 * itself is rebuilt from that cell's nodes. Threads claim a slot by
 * compare-and-swap and keep the smallest cell point (an atomic minimum),
 * so each node ends with its first maker in cell order, and the nodes are
 * numbered in that order: the serial numbering for any thread count. */
#define SLOT_EMPTY UINT64_MAX
#define PT_BITS 5
#define OCC_BITS 36
#define OCC_MASK ((UINT64_C(1) << OCC_BITS) - 1)
/* claims counted in steps (one atomic add per step, per thread) */
#define CLAIM_STEP 4096

typedef struct ptab {
	uint64_t *slot;    /* [cap] */
	fv_idx_t *id;      /* [cap] the slot's node among the table's (pass 3) */
	size_t cap;
	size_t claimed;    /* slots claimed, in CLAIM_STEPs */
} ptab_t;

/* What the cells of one thread's part (a contiguous range, fv_par_range)
 * make; after the prefix sum, where the part's output starts. */
typedef struct part_count {
	size_t children, child_nodes, hexes, hashed;
	size_t edges, faces;         /* first makers of edge and face nodes */
	size_t edge_est, quad_est;   /* twice the table size estimates */
} part_count_t;

typedef struct refine {
	const fv_mesh_t *in;
	fv_mesh_t *out;
	patterns_t pat;
	ptab_t tab[2];        /* edges, quad faces */
	fv_idx_t *cell_pts;   /* slot of each hashed point of each cell; ~slot
	                         for the point's first maker (pass 2 to 3) */
	int nt;               /* parts of the cells */
	part_count_t *pc;     /* [nt + 1] */
	fv_idx_t first[2];    /* first edge node, first face node */
	fv_idx_t first_centre;
	int overflow;         /* bit t: table t over 3/4 full */
	fv_idx_t bad;         /* smallest element that failed, or FV_IDX_MAX */
} refine_t;

#define P(a) (1u << (a))
#define E(a, b) (P(a) | P(b))

/* Reference coordinates of each parent shape, positive in VTK order. */
static const double ref_xyz[FV_NCELLTYPES][FV_MAX_CELL_NODES][3] = {
	[FV_TET] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
	[FV_PYRAMID] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 1}},
	[FV_PRISM] = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 1}, {1, 0, 1}},
	[FV_HEX] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}},
};
/* Nodes o, a, b, c whose det(a - o, b - o, c - o) is positive in VTK order,
 * and the node swaps that mirror a child with the wrong sign. */
static const int orient_nodes[FV_NCELLTYPES][4] = {
	[FV_TET] = {0, 1, 2, 3}, [FV_PYRAMID] = {0, 1, 3, 4}, [FV_PRISM] = {0, 2, 1, 3}, [FV_HEX] = {0, 1, 3, 4},
};
static const int orient_swaps[FV_NCELLTYPES][2][2] = {
	[FV_TET] = {{1, 2}, {1, 1}}, [FV_PYRAMID] = {{1, 3}, {1, 1}},
	[FV_PRISM] = {{1, 2}, {4, 5}}, [FV_HEX] = {{1, 3}, {5, 7}},
};
/* A triangle into four, corners 0 1 2; the middle one keeps the winding. */
static const uint8_t tri_sub[4][3] = {
	{P(0), E(0, 1), E(0, 2)}, {E(0, 1), P(1), E(1, 2)}, {E(0, 2), E(1, 2), P(2)}, {E(0, 1), E(1, 2), E(0, 2)},
};

static int popcount8(unsigned m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* Points of a pattern that live in the hash tables (edges, quad faces). */
static int is_hashed(unsigned mask)
{
	int n = popcount8(mask);
	return n == 2 || n == 4;
}

static int corner_bit(int v, int axis)
{
	return axis == 0 ? ((v + 1) >> 1) & 1 : axis == 1 ? (v >> 1) & 1 : (v >> 2) & 1;
}

static void ref_point(int parent, unsigned mask, double x[3])
{
	int n = popcount8(mask);
	x[0] = x[1] = x[2] = 0;
	for (int v = 0; v < FV_MAX_CELL_NODES; v++)
		if (mask & P(v))
			for (int d = 0; d < 3; d++)
				x[d] += ref_xyz[parent][v][d] / n;
}

/* Adds a child given by point masks; 3D children are mirrored into VTK
 * order by their sign in the parent's reference shape, which every valid
 * parent shares. parent < 0 for boundary elements (kept as given). */
static void add_child(pattern_t *p, int parent, int type, int n, const unsigned *mask)
{
	int c = p->n_children++;
	uint8_t *pt = p->child_pt[c];
	p->child_type[c] = (uint8_t)type;
	p->child_n[c] = (uint8_t)n;
	p->n_child_nodes += n;
	for (int a = 0; a < n; a++) {
		int k = 0;
		while (k < p->n_pts && p->pt_mask[k] != mask[a])
			k++;
		if (k == p->n_pts) {
			p->pt_mask[p->n_pts++] = (uint8_t)mask[a];
			p->n_hashed += is_hashed(mask[a]);
		}
		pt[a] = (uint8_t)k;
	}
	if (parent < 0)
		return;
	const int *o = orient_nodes[type];
	double x[4][3], e[3][3];
	for (int a = 0; a < 4; a++)
		ref_point(parent, p->pt_mask[pt[o[a]]], x[a]);
	for (int a = 0; a < 3; a++)
		for (int d = 0; d < 3; d++)
			e[a][d] = x[a + 1][d] - x[0][d];
	double det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
		     e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
		     e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
	if (det < 0)
		for (int s = 0; s < 2; s++) {
			uint8_t t = pt[orient_swaps[type][s][0]];
			pt[orient_swaps[type][s][0]] = pt[orient_swaps[type][s][1]];
			pt[orient_swaps[type][s][1]] = t;
		}
}

/* Hex and quad: children on the 3 x 3 (x 3) lattice of corners, edge
 * midpoints, face centres and the centre; lattice coordinate 1 means "both
 * ends", so a lattice point is the average of the corners it can reach. */
static void lattice_pattern(pattern_t *p, int parent, int type, int dim)
{
	int nc = dim == 3 ? 8 : 4;
	for (int c = 0; c < (1 << dim); c++) {
		unsigned mask[8];
		for (int v = 0; v < nc; v++) {
			int l[3];
			for (int d = 0; d < 3; d++)
				l[d] = corner_bit(c, d) + corner_bit(v, d);
			mask[v] = 0;
			for (int w = 0; w < nc; w++) {
				int in = 1;
				for (int d = 0; d < 3; d++)
					in &= l[d] == 1 || l[d] == 2 * corner_bit(w, d);
				if (in)
					mask[v] |= P(w);
			}
		}
		add_child(p, parent, type, nc, mask);
	}
}

/* Triangle and prism: the four sub-triangles, alone or stacked in two
 * layers of prisms (mid-height: vertical edge midpoints and quad-face
 * centres, the triangle's points shifted up by "or-ing" in the top nodes). */
static void layered_pattern(pattern_t *p, int parent, int type)
{
	int prism = type == FV_PRISM;
	for (int l = 0; l < (prism ? 2 : 1); l++)
		for (int t = 0; t < 4; t++) {
			unsigned mask[6];
			for (int a = 0; a < 3; a++) {
				unsigned m = tri_sub[t][a];
				mask[a] = l == 0 ? m : m | m << 3;
				mask[a + 3] = l == 0 ? m | m << 3 : m << 3;
			}
			add_child(p, parent, type, prism ? 6 : 3, mask);
		}
}

/* Corner tets, then the inner octahedron cut along the diagonal between the
 * midpoints of edges a-b and c-d, as four tets around it. */
static void tet_pattern(pattern_t *p, int a, int b, int c, int d)
{
	for (int v = 0; v < 4; v++) {
		unsigned mask[4];
		for (int w = 0; w < 4; w++)
			mask[w] = w == v ? P(v) : E(v, w);
		add_child(p, FV_TET, FV_TET, 4, mask);
	}
	const unsigned ring[4] = {E(a, c), E(c, b), E(b, d), E(d, a)};
	for (int r = 0; r < 4; r++) {
		unsigned mask[4] = {E(a, b), E(c, d), ring[r], ring[(r + 1) % 4]};
		add_child(p, FV_TET, FV_TET, 4, mask);
	}
}

/* Base 0 1 2 3, apex 4: four corner pyramids under the lateral edge
 * midpoints, the apex pyramid, the inverted one down to the base centre,
 * and the four tets between them. */
static void pyramid_pattern(pattern_t *p)
{
	const unsigned base = P(0) | P(1) | P(2) | P(3);
	for (int v = 0; v < 4; v++) {
		int nx = (v + 1) % 4, pv = (v + 3) % 4;
		unsigned corner[5] = {P(v), E(v, nx), base, E(v, pv), E(v, 4)};
		add_child(p, FV_PYRAMID, FV_PYRAMID, 5, corner);
	}
	unsigned mid[5] = {E(0, 4), E(1, 4), E(2, 4), E(3, 4), P(4)};
	add_child(p, FV_PYRAMID, FV_PYRAMID, 5, mid);
	mid[4] = base;
	add_child(p, FV_PYRAMID, FV_PYRAMID, 5, mid);
	for (int v = 0; v < 4; v++) {
		int nx = (v + 1) % 4;
		unsigned tet[4] = {E(v, nx), base, E(v, 4), E(nx, 4)};
		add_child(p, FV_PYRAMID, FV_TET, 4, tet);
	}
}

static void build_patterns(patterns_t *pat)
{
	memset(pat, 0, sizeof *pat);
	tet_pattern(&pat->tet[0], 0, 1, 2, 3);
	tet_pattern(&pat->tet[1], 0, 2, 1, 3);
	tet_pattern(&pat->tet[2], 0, 3, 1, 2);
	pat->cell[FV_TET] = pat->tet[0];
	pyramid_pattern(&pat->cell[FV_PYRAMID]);
	layered_pattern(&pat->cell[FV_PRISM], FV_PRISM, FV_PRISM);
	lattice_pattern(&pat->cell[FV_HEX], FV_HEX, FV_HEX, 3);
	layered_pattern(&pat->tri, -1, FV_TRI);
	lattice_pattern(&pat->quad, -1, FV_QUAD, 2);
}

/* The octahedron diagonal that keeps the inner tets best shaped: the
 * shortest of the three between opposite edge midpoints. */
static const pattern_t *tet_variant(const refine_t *r, const fv_idx_t *v)
{
	static const int pairs[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}};
	const double *x = r->in->xyz;
	int best = 0;
	double best_len = 0;
	for (int k = 0; k < 3; k++) {
		const int *q = pairs[k];
		double len = 0;
		for (int d = 0; d < 3; d++) {
			double s = x[3 * (size_t)v[q[0]] + d] + x[3 * (size_t)v[q[1]] + d] -
				   x[3 * (size_t)v[q[2]] + d] - x[3 * (size_t)v[q[3]] + d];
			len += s * s;
		}
		if (k == 0 || len < best_len) {
			best = k;
			best_len = len;
		}
	}
	return &r->pat.tet[best];
}

static uint64_t mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}


/* Sorted global nodes of a point mask packed as a key; returns the node
 * count, or 0 when two of them coincide. The hex centre (8) has no key. */
static int point_key(unsigned mask, const fv_idx_t *v, uint64_t key[2], fv_idx_t s[4])
{
	int n = popcount8(mask);
	if (n > 4)
		return n;
	n = 0;
	for (int a = 0; a < FV_MAX_CELL_NODES && n < 4; a++)
		if (mask & P(a)) {
			fv_idx_t x = v[a];
			int b = n++;
			for (; b > 0 && s[b - 1] > x; b--)
				s[b] = s[b - 1];
			s[b] = x;
		}
	for (int a = 1; a < n; a++)
		if (s[a] == s[a - 1])
			return 0;
	key[0] = (uint64_t)s[0] << 32 | (uint64_t)s[1];
	key[1] = n == 4 ? (uint64_t)s[2] << 32 | (uint64_t)s[3] : 0;
	return n;
}

/* "boundary element 7", or the cell as its file numbers it. */
static const char *elem_name(const fv_mesh_t *m, int boundary, fv_idx_t e, char *buf, size_t size)
{
	if (boundary)
		snprintf(buf, size, "boundary element %d", (int)e);
	else
		fv_mesh_cell_name(m, e, buf, size);
	return buf;
}

/* Element e's nodes, checked against its shape and the node range. */
static fv_err_t elem_nodes(const refine_t *r, int boundary, fv_idx_t e, const fv_idx_t **v, int *type)
{
	const fv_mesh_t *in = r->in;
	const fv_idx_t *off = boundary ? in->belem_node_off : in->cell_node_off;
	int t = boundary ? in->belem_type[e] : in->cell_type[e];
	int want = boundary ? (t == FV_TRI || t == FV_QUAD ? t : -1)
			    : (t < FV_NCELLTYPES ? fv_cell_shapes[t].n_nodes : -1);
	int n = off[e + 1] - off[e];
	char name[96];
	FV_CHECK(want > 0, FV_ERR_MESH, "%s: %s has unknown type %d", in->source,
		 elem_name(in, boundary, e, name, sizeof name), t);
	FV_CHECK(n == want, FV_ERR_MESH, "%s: %s has %d nodes, its type needs %d", in->source,
		 elem_name(in, boundary, e, name, sizeof name), n, want);
	*v = (boundary ? in->belem_node : in->cell_node) + off[e];
	for (int a = 0; a < n; a++)
		FV_CHECK((*v)[a] >= 0 && (*v)[a] < in->n_nodes, FV_ERR_MESH, "%s: %s: node id %d out of range",
			 in->source, elem_name(in, boundary, e, name, sizeof name), (int)(*v)[a]);
	if (boundary)
		FV_CHECK(in->belem_marker[e] >= 0 && in->belem_marker[e] < in->n_markers, FV_ERR_MESH,
			 "%s: boundary element %d: marker %d out of range", in->source, (int)e,
			 (int)in->belem_marker[e]);
	*type = t;
	return FV_OK;
}

static const pattern_t *elem_pattern(const refine_t *r, int boundary, int type, const fv_idx_t *v)
{
	if (boundary)
		return type == FV_TRI ? &r->pat.tri : &r->pat.quad;
	return type == FV_TET ? tet_variant(r, v) : &r->pat.cell[type];
}

/* The table a hashed point of n nodes lives in: 0 edges, 1 quad faces. */
static int tab_of(int n)
{
	return n == 4;
}

static uint64_t key_hash(int n, const uint64_t key[2])
{
	return mix64(n == 2 ? key[0] : key[0] ^ mix64(key[1]));
}

static uint64_t occ_of(fv_idx_t c, int k)
{
	return (uint64_t)c << PT_BITS | (uint64_t)k;
}

/* The key of the point a slot's cell point names (a checked cell). */
static void occ_key(const refine_t *r, uint64_t occ, uint64_t key[2])
{
	const fv_mesh_t *in = r->in;
	fv_idx_t c = (fv_idx_t)(occ >> PT_BITS), s[4];
	const pattern_t *p = &r->pat.cell[in->cell_type[c]];
	point_key(p->pt_mask[occ & ((1u << PT_BITS) - 1)], in->cell_node + in->cell_node_off[c], key, s);
}

static int same_key(int n, const uint64_t a[2], const uint64_t b[2])
{
	return a[0] == b[0] && (n == 2 || a[1] == b[1]);
}

static fv_err_t ptab_alloc(ptab_t *t, size_t expect)
{
	size_t cap = 1024;
	while (cap < 2 * expect)
		cap *= 2;
	FV_CHECK(cap <= (size_t)FV_IDX_MAX + 1, FV_ERR_MEM, "refinement: a table of %zu new nodes is over the 32-bit "
		 "index limit", expect);
	t->cap = cap;
	t->claimed = 0;
	FV_CALL(fv_malloc_large(&t->slot, cap, sizeof *t->slot, "refinement table"));
	FV_CALL(fv_malloc_large(&t->id, cap, sizeof *t->id, "refinement node ids"));
	fv_par_memset(t->slot, 0xff, cap * sizeof *t->slot);
	return FV_OK;
}

static void ptab_free(ptab_t *t)
{
	FV_FREE(t->slot);
	FV_FREE(t->id);
}

/* The slot of the key of cell point occ, claimed if new (*claimed = 1),
 * its first maker lowered to occ; -1 when the table is full. */
static int64_t ptab_insert(const refine_t *r, ptab_t *t, int n, const uint64_t key[2], uint64_t occ, int *claimed)
{
	uint64_t h = key_hash(n, key), want = (h >> OCC_BITS << OCC_BITS) | occ;
	size_t mask = t->cap - 1, s = (size_t)h & mask;
	*claimed = 0;
	for (size_t probe = 0; probe < t->cap; probe++, s = (s + 1) & mask) {
		uint64_t cur = __atomic_load_n(&t->slot[s], __ATOMIC_RELAXED), k2[2];
		if (cur == SLOT_EMPTY &&
		    __atomic_compare_exchange_n(&t->slot[s], &cur, want, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			*claimed = 1;
			return (int64_t)s;
		}
		if (cur >> OCC_BITS != want >> OCC_BITS)
			continue;
		occ_key(r, cur & OCC_MASK, k2);
		if (!same_key(n, key, k2))
			continue;
		while (want < cur &&
		       !__atomic_compare_exchange_n(&t->slot[s], &cur, want, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			;
		return (int64_t)s;
	}
	return -1;
}

/* The slot of a key, or -1 (after every insertion). */
static int64_t ptab_find(const refine_t *r, const ptab_t *t, int n, const uint64_t key[2])
{
	uint64_t h = key_hash(n, key), k2[2];
	size_t mask = t->cap - 1, s = (size_t)h & mask;
	for (size_t probe = 0; probe < t->cap; probe++, s = (s + 1) & mask) {
		uint64_t cur = t->slot[s];
		if (cur == SLOT_EMPTY)
			return -1;
		if (cur >> OCC_BITS != h >> OCC_BITS)
			continue;
		occ_key(r, cur & OCC_MASK, k2);
		if (same_key(n, key, k2))
			return (int64_t)s;
	}
	return -1;
}

static void lower_to(fv_idx_t *at, fv_idx_t v)
{
	fv_idx_t cur = __atomic_load_n(at, __ATOMIC_RELAXED);
	while (v < cur && !__atomic_compare_exchange_n(at, &cur, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* Cell c checked, with its nodes, type and the keys of its pattern's
 * points (n[k]: the point's node count); the first error in the order
 * the serial pass met them. */
static fv_err_t cell_keys(const refine_t *r, fv_idx_t c, const fv_idx_t **v, int *type, uint64_t key[][2], int *n)
{
	const fv_mesh_t *in = r->in;
	FV_CALL(elem_nodes(r, 0, c, v, type));
	const pattern_t *p = &r->pat.cell[*type];
	for (int k = 0; k < p->n_pts; k++) {
		fv_idx_t s[4];
		n[k] = point_key(p->pt_mask[k], *v, key[k], s);
		if (n[k] <= 0) {
			char name[96];
			return FV_ERROR(FV_ERR_MESH, "%s: %s repeats node %lld", in->source,
					fv_mesh_cell_name(in, c, name, sizeof name), (long long)fv_mesh_node_tag(in, s[0]));
		}
	}
	return FV_OK;
}

/* Runs part(r, t) for t < r->nt on the threads (each part once, whatever
 * number of threads OpenMP gives). */
static void each_part(refine_t *r, int nt, void (*part)(refine_t *, int))
{
	FV_OMP(parallel if (nt > 1))
	for (int t = fv_thread_num(); t < nt; t += fv_threads_now())
		part(r, t);
}

/* Pass 0: what each part's cells make, and the sizes of the tables from
 * Euler's formula (E ~ V + F - C, each interior face counted once for its
 * two cells): estimates, a table found too small is made again larger. */
static void count_part(refine_t *r, int t)
{
	const fv_mesh_t *in = r->in;
	part_count_t *pc = &r->pc[t];
	size_t lo, hi;
	fv_par_range((size_t)in->n_cells, t, r->nt, &lo, &hi);
	memset(pc, 0, sizeof *pc);
	for (size_t c = lo; c < hi; c++) {
		int type = in->cell_type[c];
		if (type >= FV_NCELLTYPES)
			continue;
		const fv_cell_shape_t *sh = &fv_cell_shapes[type];
		const pattern_t *p = &r->pat.cell[type];
		pc->children += (size_t)p->n_children;
		pc->child_nodes += (size_t)p->n_child_nodes;
		pc->hexes += type == FV_HEX;
		pc->hashed += (size_t)p->n_hashed;
		pc->edge_est += (size_t)sh->n_faces - 2;
		for (int f = 0; f < sh->n_faces; f++)
			pc->quad_est += sh->face_n_nodes[f] == 4;
	}
}

/* Pass 1: checks the cells and enters every edge and quad face, keeping
 * each cell's slots, so that later passes read them in order instead of
 * probing the tables again (the probes are cache misses). */
static void collect_part(refine_t *r, int t)
{
	const fv_mesh_t *in = r->in;
	size_t lo, hi, used = r->pc[t].hashed, claims[2] = {0, 0};
	fv_par_range((size_t)in->n_cells, t, r->nt, &lo, &hi);
	for (size_t c = lo; c < hi; c++) {
		const fv_idx_t *v;
		uint64_t key[MAX_PTS][2];
		int n[MAX_PTS], type;
		if (__atomic_load_n(&r->overflow, __ATOMIC_RELAXED))
			return;
		if (cell_keys(r, (fv_idx_t)c, &v, &type, key, n) != FV_OK) {
			lower_to(&r->bad, (fv_idx_t)c);
			return;
		}
		const pattern_t *p = &r->pat.cell[type];
#if defined(__GNUC__)
		/* the slots fetched ahead: the probes overlap */
		for (int k = 0; k < p->n_pts; k++)
			if (n[k] == 2 || n[k] == 4) {
				const ptab_t *tb = &r->tab[tab_of(n[k])];
				__builtin_prefetch(tb->slot + (key_hash(n[k], key[k]) & (tb->cap - 1)));
			}
#endif
		for (int k = 0; k < p->n_pts; k++) {
			if (n[k] != 2 && n[k] != 4)
				continue;
			int tt = tab_of(n[k]), claimed;
			ptab_t *tb = &r->tab[tt];
			int64_t s = ptab_insert(r, tb, n[k], key[k], occ_of((fv_idx_t)c, k), &claimed);
			if (s < 0) {
				__atomic_fetch_or(&r->overflow, 1 << tt, __ATOMIC_RELAXED);
				return;
			}
			r->cell_pts[used++] = (fv_idx_t)s;
			if (claimed && ++claims[tt] == CLAIM_STEP) {
				claims[tt] = 0;
				if (__atomic_add_fetch(&tb->claimed, CLAIM_STEP, __ATOMIC_RELAXED) > tb->cap / 4 * 3)
					__atomic_fetch_or(&r->overflow, 1 << tt, __ATOMIC_RELAXED);
			}
		}
	}
}

/* Pass 2: marks the cell points that made their node first, counted. */
static void first_part(refine_t *r, int t)
{
	const fv_mesh_t *in = r->in;
	size_t lo, hi, used = r->pc[t].hashed, first[2] = {0, 0};
	fv_par_range((size_t)in->n_cells, t, r->nt, &lo, &hi);
	for (size_t c = lo; c < hi; c++) {
		const pattern_t *p = &r->pat.cell[in->cell_type[c]];
		for (int k = 0; k < p->n_pts; k++) {
			if (!is_hashed(p->pt_mask[k]))
				continue;
			int tt = tab_of(popcount8(p->pt_mask[k]));
			fv_idx_t s = r->cell_pts[used];
			if ((r->tab[tt].slot[s] & OCC_MASK) == occ_of((fv_idx_t)c, k)) {
				r->cell_pts[used] = ~s;
				first[tt]++;
			}
			used++;
		}
	}
	r->pc[t].edges = first[0];
	r->pc[t].faces = first[1];
}

/* Pass 3: numbers the nodes at their first makers and places them, each
 * the average of its parent nodes in key order. */
static void number_part(refine_t *r, int t)
{
	const fv_mesh_t *in = r->in;
	size_t lo, hi, used = r->pc[t].hashed, next[2] = {r->pc[t].edges, r->pc[t].faces};
	fv_par_range((size_t)in->n_cells, t, r->nt, &lo, &hi);
	for (size_t c = lo; c < hi; c++) {
		const pattern_t *p = &r->pat.cell[in->cell_type[c]];
		const fv_idx_t *v = in->cell_node + in->cell_node_off[c];
		for (int k = 0; k < p->n_pts; k++) {
			if (!is_hashed(p->pt_mask[k]))
				continue;
			fv_idx_t s = r->cell_pts[used];
			if (s < 0) {
				uint64_t key[2];
				fv_idx_t nodes[4];
				int n = point_key(p->pt_mask[k], v, key, nodes), tt = tab_of(n);
				fv_idx_t id = (fv_idx_t)next[tt]++;
				double *x = r->out->xyz + 3 * ((size_t)r->first[tt] + (size_t)id);
				r->tab[tt].id[~s] = id;
				r->cell_pts[used] = ~s;
				x[0] = x[1] = x[2] = 0;
				for (int a = 0; a < n; a++)
					for (int d = 0; d < 3; d++)
						x[d] += in->xyz[3 * (size_t)nodes[a] + d] / n;
			}
			used++;
		}
	}
}

/* Global ids of the pattern points of one element: hashed points from the
 * slots pass 1 kept (cells, *kept) or from the tables (boundary elements,
 * kept NULL, which must lie on cell faces); a hex centre is placed at
 * *centre, numbered next. */
static fv_err_t resolve(const refine_t *r, int boundary, fv_idx_t e, const pattern_t *p, const fv_idx_t *v,
			const fv_idx_t **kept, fv_idx_t *centre, fv_idx_t *g)
{
	for (int k = 0; k < p->n_pts; k++) {
		unsigned mask = p->pt_mask[k];
		int n = popcount8(mask);
		int64_t s;
		if (n == 1) {
			for (int a = 0; a < FV_MAX_CELL_NODES; a++)
				if (mask == P(a))
					g[k] = v[a];
			continue;
		}
		if (n == 8) {
			double *x = r->out->xyz + 3 * (size_t)*centre;
			x[0] = x[1] = x[2] = 0;
			for (int a = 0; a < 8; a++)
				for (int d = 0; d < 3; d++)
					x[d] += r->in->xyz[3 * (size_t)v[a] + d] / 8;
			g[k] = (*centre)++;
			continue;
		}
		if (kept) {
			s = *(*kept)++;
		} else {
			uint64_t key[2];
			fv_idx_t nodes[4];
			char name[96];
			FV_CHECK(point_key(mask, v, key, nodes) == n, FV_ERR_MESH, "%s: %s repeats node %lld",
				 r->in->source, elem_name(r->in, boundary, e, name, sizeof name),
				 (long long)fv_mesh_node_tag(r->in, nodes[0]));
			s = ptab_find(r, &r->tab[tab_of(n)], n, key);
			if (s < 0) {
				char list[96];
				snprintf(list, sizeof list, "%s ", n == 2 ? "edge" : "quad");
				fv_mesh_node_list(r->in, nodes, n, list + strlen(list), sizeof list - strlen(list));
				return FV_ERROR(FV_ERR_MESH, "%s: %s (marker '%s'): its %s is not on any cell",
						r->in->source, elem_name(r->in, boundary, e, name, sizeof name),
						r->in->markers[r->in->belem_marker[e]].name, list);
			}
		}
		g[k] = r->first[tab_of(n)] + r->tab[tab_of(n)].id[s];
	}
	return FV_OK;
}

/* Pass 4: the children of the part's cells, where the counts put them. */
static void cells_part(refine_t *r, int t)
{
	const fv_mesh_t *in = r->in;
	fv_mesh_t *out = r->out;
	const part_count_t *pc = &r->pc[t];
	const fv_idx_t *kept = r->cell_pts + pc->hashed;
	fv_idx_t centre = (fv_idx_t)((size_t)r->first_centre + pc->hexes);
	size_t lo, hi, o = pc->children, used = pc->child_nodes;
	fv_par_range((size_t)in->n_cells, t, r->nt, &lo, &hi);
	for (size_t e = lo; e < hi; e++) {
		const fv_idx_t *v = in->cell_node + in->cell_node_off[e];
		const pattern_t *p = elem_pattern(r, 0, in->cell_type[e], v);
		fv_idx_t g[MAX_PTS];
		int64_t tag = fv_mesh_cell_tag(in, (fv_idx_t)e);
		resolve(r, 0, (fv_idx_t)e, p, v, &kept, &centre, g); /* cells were checked */
		for (int c = 0; c < p->n_children; c++, o++) {
			out->cell_type[o] = p->child_type[c];
			for (int a = 0; a < p->child_n[c]; a++)
				out->cell_node[used++] = g[p->child_pt[c][a]];
			out->cell_node_off[o + 1] = (fv_idx_t)used;
			out->cell_tag[o] = tag;
		}
	}
}

/* Boundary element e into four, at 4 e (its nodes at 4 times its offset). */
static fv_err_t belem_children(refine_t *r, fv_idx_t e)
{
	const fv_mesh_t *in = r->in;
	fv_mesh_t *out = r->out;
	const fv_idx_t *v;
	fv_idx_t g[MAX_PTS];
	int type;
	FV_CALL(elem_nodes(r, 1, e, &v, &type));
	const pattern_t *p = elem_pattern(r, 1, type, v);
	FV_CALL(resolve(r, 1, e, p, v, NULL, NULL, g));
	size_t o = 4 * (size_t)e, used = 4 * (size_t)in->belem_node_off[e];
	for (int c = 0; c < p->n_children; c++, o++) {
		out->belem_type[o] = p->child_type[c];
		for (int a = 0; a < p->child_n[c]; a++)
			out->belem_node[used++] = g[p->child_pt[c][a]];
		out->belem_node_off[o + 1] = (fv_idx_t)used;
		out->belem_marker[o] = in->belem_marker[e];
	}
	return FV_OK;
}

static void belems_part(refine_t *r, int t)
{
	size_t lo, hi;
	fv_par_range((size_t)r->in->n_belems, t, r->nt, &lo, &hi);
	for (size_t e = lo; e < hi; e++)
		if (belem_children(r, (fv_idx_t)e) != FV_OK) {
			lower_to(&r->bad, (fv_idx_t)e);
			return;
		}
}

/* Field off of the parts' counts as exclusive prefix sums; the total. */
static size_t prefix(part_count_t *pc, int nt, size_t off)
{
	size_t sum = 0;
	for (int t = 0; t < nt; t++) {
		size_t *x = (size_t *)(void *)((char *)&pc[t] + off), n = *x;
		*x = sum;
		sum += n;
	}
	return sum;
}

#define PREFIX(r, field) prefix((r)->pc, (r)->nt, offsetof(part_count_t, field))

/* Pass 1 until both tables are large enough. */
static fv_err_t collect(refine_t *r, size_t est[2])
{
	for (;;) {
		for (int tt = 0; tt < 2; tt++)
			FV_CALL(ptab_alloc(&r->tab[tt], est[tt]));
		r->overflow = 0;
		r->bad = FV_IDX_MAX;
		each_part(r, r->nt, collect_part);
		if (r->bad < FV_IDX_MAX) {
			/* the message again on this thread: the first bad cell's */
			const fv_idx_t *v;
			uint64_t key[MAX_PTS][2];
			int n[MAX_PTS], type;
			FV_CALL(cell_keys(r, r->bad, &v, &type, key, n));
			return FV_ERROR(FV_ERR_MESH, "%s: cell %d failed its check", r->in->source, (int)r->bad);
		}
		if (!r->overflow)
			return FV_OK;
		for (int tt = 0; tt < 2; tt++) {
			ptab_free(&r->tab[tt]);
			if (r->overflow & (1 << tt))
				est[tt] = 2 * (r->tab[tt].cap > est[tt] ? r->tab[tt].cap : est[tt]);
		}
	}
}

/* The refined mesh's arrays, markers and what it keeps of in. */
static fv_err_t alloc_out(refine_t *r, size_t n_cells, size_t n_cell_nodes, size_t n_centres)
{
	const fv_mesh_t *in = r->in;
	fv_mesh_t *out = r->out;
	size_t n_edges = r->pc[r->nt].edges, n_faces = r->pc[r->nt].faces;
	size_t n_nodes = (size_t)in->n_nodes + n_edges + n_faces + n_centres;
	size_t n_belems = 4 * (size_t)in->n_belems;
	size_t n_belem_nodes = in->n_belems ? 4 * (size_t)in->belem_node_off[in->n_belems] : 0;
	FV_CHECK(n_nodes <= FV_IDX_MAX && n_cells < FV_IDX_MAX && n_cell_nodes <= FV_IDX_MAX &&
			 n_belem_nodes <= FV_IDX_MAX,
		 FV_ERR_MEM, "%s: refined mesh of %zu nodes, %zu cells, %zu cell-node entries is over the "
		 "32-bit index limit (%d)", in->source, n_nodes, n_cells, n_cell_nodes, FV_IDX_MAX);
	FV_CALL(fv_mesh_alloc(out, n_nodes, n_cells, n_cell_nodes, n_belems, n_belem_nodes));
	/* The children, in the order emitted, are the refined mesh's own file
	 * order (cell_orig and node_orig stay NULL); each keeps the number of
	 * the file's element it lies in, for messages. */
	FV_CALL(fv_malloc(&out->cell_tag, n_cells + 1, sizeof *out->cell_tag, "element numbers"));
	out->refine_levels = in->refine_levels + 1;
	if (in->n_markers > 0) {
		FV_CALL(fv_malloc(&out->markers, (size_t)in->n_markers, sizeof *out->markers, "markers"));
		memcpy(out->markers, in->markers, (size_t)in->n_markers * sizeof *out->markers);
		out->n_markers = in->n_markers;
	}
	/* still a 2D case between symmetry planes, with more layers */
	out->extruded_2d = in->extruded_2d;
	out->extrude_span = in->extrude_span;
	out->extrude_marker[0] = in->extrude_marker[0];
	out->extrude_marker[1] = in->extrude_marker[1];
	r->first[0] = in->n_nodes;
	r->first[1] = (fv_idx_t)((size_t)in->n_nodes + n_edges);
	r->first_centre = (fv_idx_t)((size_t)r->first[1] + n_faces);
	return FV_OK;
}

static void copy_nodes_part(refine_t *r, int t)
{
	size_t lo, hi;
	fv_par_range(3 * (size_t)r->in->n_nodes, t, r->nt, &lo, &hi);
	memcpy(r->out->xyz + lo, r->in->xyz + lo, (hi - lo) * sizeof *r->out->xyz);
}

static fv_err_t refine(refine_t *r)
{
	const fv_mesh_t *in = r->in;
	/* one part per thread, one part for small meshes (threads cost more) */
	r->nt = in->n_cells >= FV_PAR_MIN ? fv_threads_max() : 1;
	FV_CALL(fv_calloc(&r->pc, (size_t)r->nt + 1, sizeof *r->pc, "refinement parts"));
	each_part(r, r->nt, count_part);
	size_t n_cells = PREFIX(r, children), n_cell_nodes = PREFIX(r, child_nodes);
	size_t n_centres = PREFIX(r, hexes), n_kept = PREFIX(r, hashed);
	size_t est[2] = {((size_t)2 * (size_t)in->n_nodes + PREFIX(r, edge_est)) / 2,
			 (size_t)in->n_belems + PREFIX(r, quad_est) / 2};
	FV_CALL(fv_malloc_large(&r->cell_pts, n_kept + 1, sizeof *r->cell_pts, "refinement cell points"));
	FV_CALL(collect(r, est));
	each_part(r, r->nt, first_part);
	r->pc[r->nt].edges = PREFIX(r, edges);
	r->pc[r->nt].faces = PREFIX(r, faces);
	FV_CALL(alloc_out(r, n_cells, n_cell_nodes, n_centres));
	each_part(r, r->nt, copy_nodes_part);
	each_part(r, r->nt, number_part);
	each_part(r, r->nt, cells_part);
	FV_FREE(r->cell_pts);
	r->bad = FV_IDX_MAX;
	int nt = r->nt;
	r->nt = in->n_belems >= FV_PAR_MIN ? fv_threads_max() : 1;
	each_part(r, r->nt, belems_part);
	r->nt = nt;
	if (r->bad < FV_IDX_MAX) {
		FV_CALL(belem_children(r, r->bad));
		return FV_ERROR(FV_ERR_MESH, "%s: boundary element %d failed its check", in->source, (int)r->bad);
	}
	return FV_OK;
}

fv_err_t fv_mesh_refine(const fv_mesh_t *in, fv_mesh_t *out)
{
	refine_t r = {.in = in, .out = out};
	fv_err_t err;
	FV_CHECK(in && out && in != out, FV_ERR_ARG, "refine: needs two distinct meshes");
	FV_CHECK(in->n_cells > 0 && in->xyz && in->cell_node_off && (in->n_belems == 0 || in->belem_node_off),
		 FV_ERR_ARG, "%s: refine: the mesh has no cells", in->source);
	fv_mesh_free(out);
	snprintf(out->source, sizeof out->source, "%.200s refined", in->source);
	build_patterns(&r.pat);
	err = refine(&r);
	ptab_free(&r.tab[0]);
	ptab_free(&r.tab[1]);
	free(r.cell_pts);
	free(r.pc);
	if (err != FV_OK) {
		fv_mesh_free(out);
		return fv_error_trace(err, __FILE__, __LINE__);
	}
	return FV_OK;
}
