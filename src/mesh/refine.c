/* SPDX-License-Identifier: MIT */
/* Uniform refinement: each cell into 8 (pyramids into 10) and each boundary
 * element into 4, new nodes shared through hash tables of edges and faces. */
#include "fvstar/mesh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Open addressing, linear probing; keys of 1 (edges) or 2 (quad faces)
 * words, the first word never 0 for a real key, so 0 marks a free slot.
 * Values are the insertion order, the new node's rank. */
typedef struct htab {
	uint64_t *key;
	fv_idx_t *val;
	size_t cap, n;
	int w;
} htab_t;

typedef struct refine {
	const fv_mesh_t *in;
	fv_mesh_t *out;
	patterns_t pat;
	htab_t edges, faces;
	fv_idx_t *cell_pts;  /* hashed point ids of each cell, pass 1 to 2 */
	fv_idx_t first_edge, first_face, next_centre;
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

static fv_err_t htab_alloc(htab_t *h, int w, size_t expect)
{
	size_t cap = 64;
	while (cap < 2 * expect)
		cap *= 2;
	h->key = NULL;
	h->val = NULL;
	h->w = w;
	h->cap = cap;
	h->n = 0;
	FV_CALL(fv_calloc(&h->key, cap * (size_t)w, sizeof *h->key, "refinement hash keys"));
	FV_CALL(fv_malloc(&h->val, cap, sizeof *h->val, "refinement hash values"));
	return FV_OK;
}

static void htab_free(htab_t *h)
{
	FV_FREE(h->key);
	FV_FREE(h->val);
}

static size_t htab_home(const htab_t *h, const uint64_t *k)
{
	return (size_t)mix64(h->w == 1 ? k[0] : k[0] ^ mix64(k[1])) & (h->cap - 1);
}

/* Slot holding key k, or the free slot where it belongs. */
static size_t htab_slot(const htab_t *h, const uint64_t *k)
{
	size_t mask = h->cap - 1;
	size_t s = htab_home(h, k);
	for (;; s = (s + 1) & mask) {
		const uint64_t *e = h->key + s * (size_t)h->w;
		if (e[0] == 0 || (e[0] == k[0] && (h->w == 1 || e[1] == k[1])))
			return s;
	}
}

static fv_err_t htab_grow(htab_t *h)
{
	htab_t big;
	fv_err_t err = htab_alloc(&big, h->w, h->cap);
	if (err != FV_OK) {
		htab_free(&big);
		return fv_error_trace(err, __FILE__, __LINE__);
	}
	big.n = h->n;
	for (size_t s = 0; s < h->cap; s++) {
		const uint64_t *k = h->key + s * (size_t)h->w;
		if (k[0] == 0)
			continue;
		size_t t = htab_slot(&big, k);
		memcpy(big.key + t * (size_t)big.w, k, (size_t)big.w * sizeof *k);
		big.val[t] = h->val[s];
	}
	htab_free(h);
	*h = big;
	return FV_OK;
}

/* The id of key k, numbering it next if new. */
static fv_err_t htab_insert(htab_t *h, const uint64_t *k, fv_idx_t *id)
{
	size_t s = htab_slot(h, k);
	if (h->key[s * (size_t)h->w] == 0) {
		FV_CHECK(h->n < FV_IDX_MAX, FV_ERR_MEM, "refinement: over %d new nodes", FV_IDX_MAX);
		if (2 * (h->n + 1) > h->cap) {
			FV_CALL(htab_grow(h));
			s = htab_slot(h, k);
		}
		memcpy(h->key + s * (size_t)h->w, k, (size_t)h->w * sizeof *k);
		h->val[s] = (fv_idx_t)h->n++;
	}
	*id = h->val[s];
	return FV_OK;
}

static fv_idx_t htab_find(const htab_t *h, const uint64_t *k)
{
	size_t s = htab_slot(h, k);
	return h->key[s * (size_t)h->w] ? h->val[s] : -1;
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

/* Pass 1: checks the cells, numbers every edge and quad face once and
 * keeps each cell's ids, so that pass 2 reads them in order instead of
 * probing the tables again (the probes are cache misses). */
static fv_err_t collect(refine_t *r, size_t *n_cells, size_t *n_cell_nodes, size_t *n_centres)
{
	const fv_mesh_t *in = r->in;
	size_t used = 0;
	for (fv_idx_t c = 0; c < in->n_cells; c++) {
		const fv_idx_t *v;
		int type;
		FV_CALL(elem_nodes(r, 0, c, &v, &type));
		const pattern_t *p = &r->pat.cell[type];
		uint64_t key[MAX_PTS][2];
		int n[MAX_PTS];
		/* all keys first, their slots fetched ahead: the probes overlap */
		for (int k = 0; k < p->n_pts; k++) {
			fv_idx_t s[4];
			n[k] = point_key(p->pt_mask[k], v, key[k], s);
			if (n[k] <= 0) {
				char name[96];
				return FV_ERROR(FV_ERR_MESH, "%s: %s repeats node %lld", in->source,
						fv_mesh_cell_name(in, c, name, sizeof name), (long long)fv_mesh_node_tag(in, s[0]));
			}
#if defined(__GNUC__)
			if (n[k] == 2 || n[k] == 4) {
				const htab_t *h = n[k] == 2 ? &r->edges : &r->faces;
				__builtin_prefetch(h->key + htab_home(h, key[k]) * (size_t)h->w);
			}
#endif
		}
		for (int k = 0; k < p->n_pts; k++)
			if (n[k] == 2 || n[k] == 4)
				FV_CALL(htab_insert(n[k] == 2 ? &r->edges : &r->faces, key[k], &r->cell_pts[used++]));
		*n_cells += (size_t)p->n_children;
		*n_cell_nodes += (size_t)p->n_child_nodes;
		*n_centres += type == FV_HEX;
	}
	return FV_OK;
}

/* Coordinates of the edge midpoints and face centres, from their keys. */
static void hashed_coords(const htab_t *h, fv_idx_t first, const double *xyz, double *out)
{
	int n = 2 * h->w;
	for (size_t s = 0; s < h->cap; s++) {
		const uint64_t *k = h->key + s * (size_t)h->w;
		if (k[0] == 0)
			continue;
		double *x = out + 3 * ((size_t)first + (size_t)h->val[s]);
		x[0] = x[1] = x[2] = 0;
		for (int a = 0; a < n; a++) {
			size_t node = (size_t)(uint32_t)(k[a / 2] >> (a % 2 ? 0 : 32));
			for (int d = 0; d < 3; d++)
				x[d] += xyz[3 * node + d] / n;
		}
	}
}

/* Global ids of the pattern points of one element: hashed points from the
 * ids pass 1 kept (cells) or from the tables (boundary elements, which
 * must lie on cell faces); a hex centre is numbered and placed here. */
static fv_err_t resolve(refine_t *r, int boundary, fv_idx_t e, const pattern_t *p, const fv_idx_t *v,
			const fv_idx_t **kept, fv_idx_t *g)
{
	for (int k = 0; k < p->n_pts; k++) {
		unsigned mask = p->pt_mask[k];
		int n = popcount8(mask);
		fv_idx_t id;
		if (n == 1) {
			for (int a = 0; a < FV_MAX_CELL_NODES; a++)
				if (mask == P(a))
					g[k] = v[a];
			continue;
		}
		if (n == 8) {
			double *x = r->out->xyz + 3 * (size_t)r->next_centre;
			x[0] = x[1] = x[2] = 0;
			for (int a = 0; a < 8; a++)
				for (int d = 0; d < 3; d++)
					x[d] += r->in->xyz[3 * (size_t)v[a] + d] / 8;
			g[k] = r->next_centre++;
			continue;
		}
		if (kept) {
			id = *(*kept)++;
		} else {
			uint64_t key[2];
			fv_idx_t s[4];
			char name[96];
			FV_CHECK(point_key(mask, v, key, s) == n, FV_ERR_MESH, "%s: %s repeats node %lld",
				 r->in->source, elem_name(r->in, boundary, e, name, sizeof name),
				 (long long)fv_mesh_node_tag(r->in, s[0]));
			id = htab_find(n == 2 ? &r->edges : &r->faces, key);
			if (id < 0) {
				char list[96];
				snprintf(list, sizeof list, "%s ", n == 2 ? "edge" : "quad");
				fv_mesh_node_list(r->in, s, n, list + strlen(list), sizeof list - strlen(list));
				return FV_ERROR(FV_ERR_MESH, "%s: %s (marker '%s'): its %s is not on any cell",
						r->in->source, elem_name(r->in, boundary, e, name, sizeof name),
						r->in->markers[r->in->belem_marker[e]].name, list);
			}
		}
		g[k] = (n == 2 ? r->first_edge : r->first_face) + id;
	}
	return FV_OK;
}

/* Pass 2: the children of every cell (boundary = 0) or boundary element. */
static fv_err_t emit(refine_t *r, int boundary)
{
	const fv_mesh_t *in = r->in;
	fv_mesh_t *out = r->out;
	fv_idx_t n_in = boundary ? in->n_belems : in->n_cells;
	uint8_t *types = boundary ? out->belem_type : out->cell_type;
	fv_idx_t *off = boundary ? out->belem_node_off : out->cell_node_off;
	fv_idx_t *nodes = boundary ? out->belem_node : out->cell_node;
	const fv_idx_t *kept = r->cell_pts;
	size_t o = 0, used = 0;
	for (fv_idx_t e = 0; e < n_in; e++) {
		const fv_idx_t *v;
		fv_idx_t g[MAX_PTS];
		int type;
		FV_CALL(elem_nodes(r, boundary, e, &v, &type));
		const pattern_t *p = elem_pattern(r, boundary, type, v);
		FV_CALL(resolve(r, boundary, e, p, v, boundary ? NULL : &kept, g));
		for (int c = 0; c < p->n_children; c++, o++) {
			types[o] = p->child_type[c];
			for (int a = 0; a < p->child_n[c]; a++)
				nodes[used++] = g[p->child_pt[c][a]];
			off[o + 1] = (fv_idx_t)used;
			if (boundary)
				out->belem_marker[o] = in->belem_marker[e];
			else
				out->cell_tag[o] = fv_mesh_cell_tag(in, e);
		}
	}
	return FV_OK;
}

static fv_err_t refine(refine_t *r)
{
	const fv_mesh_t *in = r->in;
	fv_mesh_t *out = r->out;
	size_t n_cells = 0, n_cell_nodes = 0, n_centres = 0, n_kept = 0;

	/* Table sizes from Euler's formula, E ~ V + F - C, each interior face
	 * counted once for its two cells: estimates, the tables grow if needed. */
	double n_edges = in->n_nodes, n_quads = in->n_belems;
	for (fv_idx_t c = 0; c < in->n_cells; c++) {
		int t = in->cell_type[c];
		if (t >= FV_NCELLTYPES)
			continue;
		const fv_cell_shape_t *sh = &fv_cell_shapes[t];
		n_edges += 0.5 * sh->n_faces - 1;
		for (int f = 0; f < sh->n_faces; f++)
			n_quads += sh->face_n_nodes[f] == 4 ? 0.5 : 0;
		n_kept += (size_t)r->pat.cell[t].n_hashed;
	}
	FV_CALL(htab_alloc(&r->edges, 1, (size_t)n_edges));
	FV_CALL(htab_alloc(&r->faces, 2, (size_t)n_quads));
	FV_CALL(fv_malloc(&r->cell_pts, n_kept, sizeof *r->cell_pts, "refinement cell points"));
	FV_CALL(collect(r, &n_cells, &n_cell_nodes, &n_centres));
	size_t n_nodes = (size_t)in->n_nodes + r->edges.n + r->faces.n + n_centres;
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
	memcpy(out->xyz, in->xyz, 3 * (size_t)in->n_nodes * sizeof *in->xyz);
	r->first_edge = in->n_nodes;
	r->first_face = (fv_idx_t)((size_t)in->n_nodes + r->edges.n);
	r->next_centre = (fv_idx_t)((size_t)r->first_face + r->faces.n);
	hashed_coords(&r->edges, r->first_edge, in->xyz, out->xyz);
	hashed_coords(&r->faces, r->first_face, in->xyz, out->xyz);
	FV_CALL(emit(r, 0));
	FV_FREE(r->cell_pts);
	FV_CALL(emit(r, 1));
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
	htab_free(&r.edges);
	htab_free(&r.faces);
	free(r.cell_pts);
	if (err != FV_OK) {
		fv_mesh_free(out);
		return fv_error_trace(err, __FILE__, __LINE__);
	}
	return FV_OK;
}
