/* SPDX-License-Identifier: MIT */
/* Connectivity: faces from cells by hashing sorted node tuples, boundary
 * elements matched to boundary faces, and the CSR arrays of the solver. */
#include "fvstar/mesh.h"

#include <stdlib.h>
#include <string.h>

#include "util/threads.h"

/* A face key: its nodes sorted, unused slots -1. */
typedef struct face_key {
	fv_idx_t n[FV_MAX_FACE_NODES];
} face_key_t;

static void make_key(const fv_idx_t *nodes, int nn, face_key_t *k)
{
	fv_idx_t a[FV_MAX_FACE_NODES] = {-1, -1, -1, -1};
	for (int i = 0; i < nn; i++) {
		fv_idx_t v = nodes[i];
		int j = i;
		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
	memcpy(k->n, a, sizeof a);
}

static uint64_t hash_key(const face_key_t *k)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;
	for (int i = 0; i < FV_MAX_FACE_NODES; i++) {
		h ^= (uint64_t)(uint32_t)k->n[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return h;
}

/* Open addressing: a slot holds the cell face that made the face (cell in
 * the low 31 bits, local face in the next 3) and 30 bits of its key's
 * hash, so most probes that miss never touch the cell's nodes; the key
 * itself is rebuilt from the cell's nodes on a tag match. Threads insert
 * with compare-and-swap: a slot, once filled, never changes. */
#define SLOT_EMPTY UINT64_MAX
#define TAG_SHIFT 34
#define LF_SHIFT 31
#define CELL_MASK ((UINT64_C(1) << LF_SHIFT) - 1)

/* The table is cut into one region per node, sized from the number of
 * cell faces whose smallest node it is (counted before the pass): a face
 * lives in the region of its smallest node, so cells visited in order
 * probe nearby memory, and no region can overflow however the nodes are
 * numbered (a mesh generator that numbers surface nodes first makes a few
 * nodes the smallest of many faces). */
typedef struct face_table {
	uint64_t *slot;
	uint64_t *off;       /* [n_nodes + 1] first slot of each node's region */
} face_table_t;

typedef struct face_build {
	fv_mesh_t *m;
	face_table_t t;
	fv_idx_t n_faces, cap;
	fv_idx_t *owner, *nbr;        /* [cap] */
	uint8_t *nn;                  /* [cap] nodes of face */
	fv_idx_t *fnode;              /* [4 * cap] owner-oriented nodes */
} face_build_t;

/* The sorted key of local face lf of cell c, and its node count. */
static int cell_face_key(const fv_mesh_t *m, fv_idx_t c, int lf, fv_idx_t fn[FV_MAX_FACE_NODES], face_key_t *k)
{
	const fv_cell_shape_t *sh = &fv_cell_shapes[m->cell_type[c]];
	const fv_idx_t *cn = m->cell_node + m->cell_node_off[c];
	int nn = sh->face_n_nodes[lf];
	for (int i = 0; i < nn; i++)
		fn[i] = cn[sh->face_node[lf][i]];
	make_key(fn, nn, k);
	return nn;
}

static int key_equal_entry(const fv_mesh_t *m, uint64_t v, const face_key_t *k, int nn)
{
	fv_idx_t fn[FV_MAX_FACE_NODES];
	face_key_t kf;
	if (cell_face_key(m, (fv_idx_t)(v & CELL_MASK), (int)(v >> LF_SHIFT & 7), fn, &kf) != nn)
		return 0;
	return memcmp(kf.n, k->n, sizeof kf.n) == 0;
}

static inline uint64_t slot_value(uint64_t h, fv_idx_t c, int lf)
{
	return (h >> TAG_SHIFT << TAG_SHIFT) | (uint64_t)lf << LF_SHIFT | (uint64_t)(uint32_t)c;
}

/* The cell face slot (index into cell_face) of a table entry. */
static inline fv_idx_t entry_slot(const fv_mesh_t *m, uint64_t v)
{
	return m->cell_face_off[v & CELL_MASK] + (fv_idx_t)(v >> LF_SHIFT & 7);
}

/* A face's first slot lies in the region of its smallest node, at a
 * hashed offset. */
static inline uint64_t home_slot(const face_table_t *t, const face_key_t *k, uint64_t h)
{
	uint64_t b = t->off[k->n[0]], n = t->off[k->n[0] + 1] - b;
	return b + (h >> 40) % n;
}

/* Returns the table entry with this key, or SLOT_EMPTY; *slot_out is
 * where it would go and *h_out the key's hash. Probes wrap inside the
 * region, which always keeps a free slot. */
static uint64_t table_find(const face_build_t *b, const face_key_t *k, int nn, uint64_t *slot_out, uint64_t *h_out)
{
	uint64_t h = hash_key(k), s = home_slot(&b->t, k, h);
	uint64_t lo = b->t.off[k->n[0]], hi = b->t.off[k->n[0] + 1];
	*h_out = h;
	for (;;) {
		uint64_t v = b->t.slot[s];
		if (v == SLOT_EMPTY || ((v >> TAG_SHIFT) == (h >> TAG_SHIFT) && key_equal_entry(b->m, v, k, nn))) {
			*slot_out = s;
			return v;
		}
		if (++s == hi)
			s = lo;
	}
}

/* The face with this key (its number as made so far), or -1. */
static fv_idx_t face_find(const face_build_t *b, const face_key_t *k, int nn, uint64_t *slot_out, uint64_t *h_out)
{
	uint64_t v = table_find(b, k, nn, slot_out, h_out);
	return v == SLOT_EMPTY ? -1 : b->m->cell_face[entry_slot(b->m, v)];
}

/* Starts loading the table slots of cell c's faces: the table is far
 * larger than the caches, and cells a few steps ahead are independent. */
static void prefetch_cell(const face_build_t *b, fv_idx_t c)
{
	const fv_mesh_t *m = b->m;
	const fv_cell_shape_t *sh;
	const fv_idx_t *cn;
	if (c >= m->n_cells || m->cell_type[c] >= FV_NCELLTYPES)
		return;
	sh = &fv_cell_shapes[m->cell_type[c]];
	cn = m->cell_node + m->cell_node_off[c];
	if (m->cell_node_off[c + 1] - m->cell_node_off[c] != sh->n_nodes)
		return;
	for (int lf = 0; lf < sh->n_faces; lf++) {
		fv_idx_t fn[FV_MAX_FACE_NODES];
		face_key_t k;
		for (int i = 0; i < sh->face_n_nodes[lf]; i++)
			fn[i] = cn[sh->face_node[lf][i]];
		make_key(fn, sh->face_n_nodes[lf], &k);
		__builtin_prefetch(&b->t.slot[home_slot(&b->t, &k, hash_key(&k))]);
	}
}

static fv_err_t grow_faces(face_build_t *b)
{
	size_t cap = (size_t)b->cap + (size_t)b->cap / 2 + 1024;
	if (cap > FV_IDX_MAX)
		cap = FV_IDX_MAX;
	FV_CHECK(cap > (size_t)b->cap, FV_ERR_MEM, "%s: more than 2^31 faces", b->m->source);
	FV_CALL(fv_realloc(&b->owner, cap, sizeof *b->owner, "face owners"));
	FV_CALL(fv_realloc(&b->nbr, cap, sizeof *b->nbr, "face neighbours"));
	FV_CALL(fv_realloc(&b->nn, cap, sizeof *b->nn, "face sizes"));
	FV_CALL(fv_realloc(&b->fnode, 4 * cap, sizeof *b->fnode, "face nodes"));
	b->cap = (fv_idx_t)cap;
	return FV_OK;
}

/* Messages name cells and nodes by their numbers in the file. */
static const char *fmt_nodes(const fv_mesh_t *m, char *buf, size_t len, const fv_idx_t *n, int nn)
{
	return fv_mesh_node_list(m, n, nn, buf, len);
}

static fv_err_t check_cell_nodes(const fv_mesh_t *m, fv_idx_t c)
{
	const fv_idx_t *cn = m->cell_node + m->cell_node_off[c];
	int nn = m->cell_node_off[c + 1] - m->cell_node_off[c];
	char name[96];
	FV_CHECK(m->cell_type[c] < FV_NCELLTYPES && nn == fv_cell_shapes[m->cell_type[c]].n_nodes,
		 FV_ERR_MESH, "%s: %s has type %d with %d nodes", m->source, fv_mesh_cell_name(m, c, name, sizeof name),
		 (int)m->cell_type[c], nn);
	for (int i = 0; i < nn; i++) {
		FV_CHECK(cn[i] >= 0 && cn[i] < m->n_nodes, FV_ERR_MESH,
			 "%s: %s: node id %d out of range [0, %d)", m->source, fv_mesh_cell_name(m, c, name, sizeof name),
			 (int)cn[i], (int)m->n_nodes);
		for (int j = 0; j < i; j++)
			FV_CHECK(cn[i] != cn[j], FV_ERR_MESH, "%s: %s (%s) repeats node %lld", m->source,
				 fv_mesh_cell_name(m, c, name, sizeof name), fv_cell_shapes[m->cell_type[c]].name,
				 (long long)fv_mesh_node_tag(m, cn[i]));
	}
	return FV_OK;
}

/* Pass over cells: every local face is found or created, in cell order.
 * The threads' pass below makes the same faces; this one, one thread,
 * finds the first error of a broken mesh in cell order. */
static fv_err_t match_cell_faces(face_build_t *b)
{
	fv_mesh_t *m = b->m;
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		const fv_cell_shape_t *sh = &fv_cell_shapes[m->cell_type[c]];
		const fv_idx_t *cn = m->cell_node + m->cell_node_off[c];
		prefetch_cell(b, c + 8);
		for (int lf = 0; lf < sh->n_faces; lf++) {
			fv_idx_t fn[FV_MAX_FACE_NODES];
			int nn = sh->face_n_nodes[lf];
			face_key_t k;
			uint64_t s, h;
			fv_idx_t f, slot = m->cell_face_off[c] + lf;
			for (int i = 0; i < nn; i++)
				fn[i] = cn[sh->face_node[lf][i]];
			make_key(fn, nn, &k);
			f = face_find(b, &k, nn, &s, &h);
			if (f < 0) {
				if (b->n_faces == b->cap)
					FV_CALL(grow_faces(b));
				f = b->n_faces++;
				b->t.slot[s] = slot_value(h, c, lf);
				b->owner[f] = c;
				b->nbr[f] = -1;
				b->nn[f] = (uint8_t)nn;
				memcpy(b->fnode + 4 * (size_t)f, fn, sizeof fn);
				m->cell_face_sign[slot] = 1;
			} else {
				char buf[96], n0[96], n1[96], n2[96];
				FV_CHECK(b->owner[f] != c, FV_ERR_MESH, "%s: %s has the face (nodes %s) twice",
					 m->source, fv_mesh_cell_name(m, c, n0, sizeof n0),
					 fmt_nodes(m, buf, sizeof buf, fn, nn));
				FV_CHECK(b->nbr[f] < 0, FV_ERR_MESH,
					 "%s: face (nodes %s) is shared by more than two cells: %s, %s and %s",
					 m->source, fmt_nodes(m, buf, sizeof buf, fn, nn),
					 fv_mesh_cell_name(m, b->owner[f], n0, sizeof n0),
					 fv_mesh_cell_name(m, b->nbr[f], n1, sizeof n1), fv_mesh_cell_name(m, c, n2, sizeof n2));
				b->nbr[f] = c;
				m->cell_face_sign[slot] = -1;
			}
			m->cell_face[slot] = f;
		}
	}
	return FV_OK;
}

/* Inserts the key of cell face (c, lf) = slot s, or pairs s with the
 * cell face already there: partner[] of both then names the other.
 * Returns 0 where the mesh is broken (a cell meeting its own face, or a
 * face of three cells), which the serial pass then reports. */
static int insert_shared(face_build_t *b, fv_idx_t c, int lf, fv_idx_t s, fv_idx_t *partner)
{
	const fv_mesh_t *m = b->m;
	fv_idx_t fn[FV_MAX_FACE_NODES];
	face_key_t k;
	int nn = cell_face_key(m, c, lf, fn, &k);
	uint64_t h = hash_key(&k), pos = home_slot(&b->t, &k, h);
	uint64_t lo = b->t.off[k.n[0]], hi = b->t.off[k.n[0] + 1], want = slot_value(h, c, lf);
	for (;;) {
		uint64_t v = __atomic_load_n(&b->t.slot[pos], __ATOMIC_RELAXED);
		if (v == SLOT_EMPTY &&
		    __atomic_compare_exchange_n(&b->t.slot[pos], &v, want, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return 1;
		/* v: the entry there, another thread's if the swap failed */
		if ((v >> TAG_SHIFT) == (h >> TAG_SHIFT) && key_equal_entry(m, v, &k, nn)) {
			fv_idx_t e = entry_slot(m, v), none = -1;
			if ((fv_idx_t)(v & CELL_MASK) == c ||
			    !__atomic_compare_exchange_n(&partner[e], &none, s, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
				return 0;
			partner[s] = e;
			return 1;
		}
		if (++pos == hi)
			pos = lo;
	}
}

/* The faces of cell face slots [lo, hi) whose cells are [c0, c1): the
 * first slot of each face (partner none or after it) makes it. */
static void make_faces(face_build_t *b, fv_idx_t c0, fv_idx_t c1, const fv_idx_t *partner, fv_idx_t next)
{
	fv_mesh_t *m = b->m;
	for (fv_idx_t c = c0; c < c1; c++) {
		const fv_cell_shape_t *sh = &fv_cell_shapes[m->cell_type[c]];
		for (int lf = 0; lf < sh->n_faces; lf++) {
			fv_idx_t s = m->cell_face_off[c] + lf, f;
			fv_idx_t fn[FV_MAX_FACE_NODES];
			face_key_t k;
			if (partner[s] >= 0 && partner[s] < s)
				continue;
			f = next++;
			b->nn[f] = (uint8_t)cell_face_key(m, c, lf, fn, &k);
			memcpy(b->fnode + 4 * (size_t)f, fn, sizeof fn);
			b->owner[f] = c;
			b->nbr[f] = -1;
			m->cell_face[s] = f;
			m->cell_face_sign[s] = 1;
		}
	}
}

/* The faces in the order of match_cell_faces (a face is numbered where
 * its first cell face comes in cell order), made by every thread: the
 * key of each cell face goes into the shared table, which pairs it with
 * its twin; then each thread numbers the faces first met in its cells,
 * after those of the threads before it. *broken: the mesh has a cell
 * meeting its own face or a face of three cells (nothing made). */
static fv_err_t match_cell_faces_par(face_build_t *b, int *broken)
{
	fv_mesh_t *m = b->m;
	size_t ns = (size_t)m->cell_face_off[m->n_cells], nf = 0;
	/* the cells cut into np parts, one a thread; each loop below visits
	 * the same parts whatever thread takes them */
	int np = m->n_cells > FV_PAR_MIN ? fv_threads_max() : 1, bad = 0;
	fv_idx_t *partner = NULL, *first = NULL, *co = NULL;
	fv_err_t err = FV_OK;
	FV_CALL_GOTO(err, out, fv_malloc(&partner, ns + 1, sizeof *partner, "face twins"));
	FV_CALL_GOTO(err, out, fv_malloc(&first, (size_t)np + 1, sizeof *first, "faces per thread"));
	FV_CALL_GOTO(err, out, fv_malloc(&co, (size_t)np + 1, sizeof *co, "cells per thread"));
	for (int t = 0; t <= np; t++)
		co[t] = (fv_idx_t)((size_t)m->n_cells * (size_t)t / (size_t)np);
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++)
		for (fv_idx_t s = m->cell_face_off[co[t]]; s < m->cell_face_off[co[t + 1]]; s++)
			partner[s] = -1;
	FV_OMP(parallel for schedule(static, 1) num_threads(np) reduction(|| : bad))
	for (int t = 0; t < np; t++)
		for (fv_idx_t c = co[t]; c < co[t + 1] && !bad; c++) {
			prefetch_cell(b, c + 8);
			for (int lf = 0; lf < fv_cell_shapes[m->cell_type[c]].n_faces; lf++)
				bad = bad || !insert_shared(b, c, lf, m->cell_face_off[c] + lf, partner);
		}
	*broken = bad;
	if (bad)
		goto out;
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++) {
		fv_idx_t made = 0;
		for (fv_idx_t s = m->cell_face_off[co[t]]; s < m->cell_face_off[co[t + 1]]; s++)
			made += partner[s] < 0 || partner[s] > s;
		first[t + 1] = made;
	}
	first[0] = 0;
	for (int t = 0; t < np; t++) {
		nf += (size_t)first[t + 1];
		first[t + 1] = (fv_idx_t)nf;
	}
	b->n_faces = b->cap = (fv_idx_t)nf;
	FV_CALL_GOTO(err, out, fv_malloc(&b->owner, nf + 1, sizeof *b->owner, "face owners"));
	FV_CALL_GOTO(err, out, fv_malloc(&b->nbr, nf + 1, sizeof *b->nbr, "face neighbours"));
	FV_CALL_GOTO(err, out, fv_malloc(&b->nn, nf + 1, sizeof *b->nn, "face sizes"));
	FV_CALL_GOTO(err, out, fv_malloc(&b->fnode, 4 * nf + 4, sizeof *b->fnode, "face nodes"));
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++)
		make_faces(b, co[t], co[t + 1], partner, first[t]);
	/* the second cell face of each face, whose first is now numbered */
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++)
		for (fv_idx_t c = co[t]; c < co[t + 1]; c++)
			for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++)
				if (partner[s] >= 0 && partner[s] < s) {
					fv_idx_t f = m->cell_face[partner[s]];
					b->nbr[f] = c;
					m->cell_face[s] = f;
					m->cell_face_sign[s] = -1;
				}
out:
	free(partner);
	free(first);
	free(co);
	return err;
}

/* Boundary elements onto boundary faces; marker[f] = -1 where none. */
static fv_err_t match_boundary(face_build_t *b, int32_t *marker)
{
	fv_mesh_t *m = b->m;
	for (fv_idx_t f = 0; f < b->n_faces; f++)
		marker[f] = -1;
	for (fv_idx_t e = 0; e < m->n_belems; e++) {
		const fv_idx_t *en = m->belem_node + m->belem_node_off[e];
		int nn = m->belem_node_off[e + 1] - m->belem_node_off[e];
		int mk = m->belem_marker[e];
		face_key_t k;
		uint64_t s, h;
		fv_idx_t f;
		char buf[96], n0[96], n1[96];
		FV_CHECK(mk >= 0 && mk < m->n_markers && (nn == 3 || nn == 4), FV_ERR_MESH,
			 "%s: boundary element %d is malformed", m->source, (int)e);
		for (int i = 0; i < nn; i++)
			FV_CHECK(en[i] >= 0 && en[i] < m->n_nodes, FV_ERR_MESH,
				 "%s: marker %s: boundary element %d: node id %d out of range [0, %d)",
				 m->source, m->markers[mk].name, (int)e, (int)en[i], (int)m->n_nodes);
		make_key(en, nn, &k);
		f = face_find(b, &k, nn, &s, &h);
		FV_CHECK(f >= 0, FV_ERR_MESH, "%s: marker %s: boundary element %d (nodes %s) is not a face of any cell",
			 m->source, m->markers[mk].name, (int)e, fmt_nodes(m, buf, sizeof buf, en, nn));
		FV_CHECK(b->nbr[f] < 0, FV_ERR_MESH,
			 "%s: marker %s: boundary element %d (nodes %s) is an interior face between %s and %s",
			 m->source, m->markers[mk].name, (int)e, fmt_nodes(m, buf, sizeof buf, en, nn),
			 fv_mesh_cell_name(m, b->owner[f], n0, sizeof n0), fv_mesh_cell_name(m, b->nbr[f], n1, sizeof n1));
		FV_CHECK(marker[f] < 0, FV_ERR_MESH, "%s: boundary face (nodes %s) is under two markers, %s and %s",
			 m->source, fmt_nodes(m, buf, sizeof buf, en, nn), m->markers[marker[f]].name,
			 m->markers[mk].name);
		marker[f] = mk;
	}
	for (fv_idx_t f = 0; f < b->n_faces; f++) {
		char buf[96], n0[96];
		FV_CHECK(b->nbr[f] >= 0 || marker[f] >= 0, FV_ERR_MESH,
			 "%s: boundary face (nodes %s) of %s is under no marker", m->source,
			 fmt_nodes(m, buf, sizeof buf, b->fnode + 4 * (size_t)f, b->nn[f]),
			 fv_mesh_cell_name(m, b->owner[f], n0, sizeof n0));
	}
	return FV_OK;
}

/* Final numbering: boundary faces first, grouped by marker in the order of
 * creation; then interior faces in the order of creation, which is the
 * order of Alg. 2 of the FGCS paper (first seen from the lower cell).
 * The faces are cut into parts: each part counts its faces of every
 * group, and numbers them after the same group's faces of the parts
 * before it, so the order is the serial one for any part count. */
static fv_err_t number_faces(face_build_t *b, const int32_t *marker, fv_idx_t *new_of_old)
{
	fv_mesh_t *m = b->m;
	int ng = m->n_markers + 1; /* group ng - 1: interior faces */
	int np = b->n_faces > FV_PAR_MIN ? fv_threads_max() : 1;
	fv_idx_t *cnt, next = 0;
	FV_CALL(fv_calloc(&m->marker_face_off, (size_t)m->n_markers + 1, sizeof(fv_idx_t), "marker offsets"));
	FV_CALL(fv_calloc(&cnt, (size_t)np * (size_t)ng, sizeof *cnt, "faces per marker"));
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++) {
		size_t lo, hi;
		fv_par_range((size_t)b->n_faces, t, np, &lo, &hi);
		for (size_t f = lo; f < hi; f++)
			cnt[(size_t)t * ng + (b->nbr[f] < 0 ? marker[f] : ng - 1)]++;
	}
	/* cnt[t][g] becomes the first number of part t's faces of group g */
	for (int g = 0; g < ng; g++) {
		if (g < ng - 1)
			m->marker_face_off[g] = next;
		else
			m->n_bfaces = m->marker_face_off[g] = next;
		for (int t = 0; t < np; t++) {
			fv_idx_t n = cnt[(size_t)t * ng + g];
			cnt[(size_t)t * ng + g] = next;
			next += n;
		}
	}
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++) {
		size_t lo, hi;
		fv_idx_t *pos = cnt + (size_t)t * ng;
		fv_par_range((size_t)b->n_faces, t, np, &lo, &hi);
		for (size_t f = lo; f < hi; f++)
			new_of_old[f] = pos[b->nbr[f] < 0 ? marker[f] : ng - 1]++;
	}
	free(cnt);
	return FV_OK;
}

/* Exclusive prefix sum of n[0..len) into off[0..len] by all threads (two
 * passes over parts); off[len] is the total. Integer sums: the same for
 * any part count. Returns 0 where a partial sum exceeds FV_IDX_MAX. */
static int prefix_sum(const uint8_t *n, const fv_idx_t *perm, size_t len, fv_idx_t *off)
{
	int np = len > FV_PAR_MIN ? fv_threads_max() : 1;
	int64_t part[257], total = 0;
	if (np > 256)
		np = 256;
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++) {
		size_t lo, hi;
		int64_t sum = 0;
		fv_par_range(len, t, np, &lo, &hi);
		for (size_t i = lo; i < hi; i++)
			sum += n[perm[i]];
		part[t] = sum;
	}
	for (int t = 0; t < np; t++) {
		int64_t v = part[t];
		part[t] = total;
		total += v;
	}
	if (total > FV_IDX_MAX)
		return 0;
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++) {
		size_t lo, hi;
		fv_idx_t run = (fv_idx_t)part[t];
		fv_par_range(len, t, np, &lo, &hi);
		for (size_t i = lo; i < hi; i++) {
			off[i] = run;
			run += n[perm[i]];
		}
	}
	off[len] = (fv_idx_t)total;
	return 1;
}

static fv_err_t store_faces(face_build_t *b, const int32_t *marker, const fv_idx_t *new_of_old)
{
	fv_mesh_t *m = b->m;
	fv_idx_t nf = b->n_faces;
	fv_idx_t *old_of_new;
	m->n_faces = nf;
	FV_CALL(fv_malloc(&m->face_cell, 2 * (size_t)nf, sizeof(fv_idx_t), "face cells"));
	FV_CALL(fv_malloc(&m->face_node_off, (size_t)nf + 1, sizeof(fv_idx_t), "face offsets"));
	FV_CALL(fv_malloc(&m->face_marker, (size_t)m->n_bfaces + 1, sizeof(int32_t), "face markers"));
	FV_CALL(fv_malloc(&old_of_new, (size_t)nf + 1, sizeof *old_of_new, "face permutation"));
	FV_OMP(parallel for schedule(static) if (nf > FV_PAR_MIN))
	for (fv_idx_t f = 0; f < nf; f++)
		old_of_new[new_of_old[f]] = f;
	if (!prefix_sum(b->nn, old_of_new, (size_t)nf, m->face_node_off)) {
		free(old_of_new);
		return FV_ERROR(FV_ERR_MEM, "%s: too many face nodes for 32-bit indices", m->source);
	}
	FV_CALL(fv_malloc(&m->face_node, (size_t)m->face_node_off[nf] + 1, sizeof(fv_idx_t), "face nodes"));
	FV_OMP(parallel for schedule(static) if (nf > FV_PAR_MIN))
	for (fv_idx_t g = 0; g < nf; g++) {
		fv_idx_t f = old_of_new[g];
		m->face_cell[2 * (size_t)g] = b->owner[f];
		m->face_cell[2 * (size_t)g + 1] = b->nbr[f];
		memcpy(m->face_node + m->face_node_off[g], b->fnode + 4 * (size_t)f, b->nn[f] * sizeof(fv_idx_t));
		if (g < m->n_bfaces)
			m->face_marker[g] = marker[f];
	}
	free(old_of_new);
	FV_OMP(parallel for schedule(static) if (m->n_cells > FV_PAR_MIN))
	for (fv_idx_t s = 0; s < m->cell_face_off[m->n_cells]; s++)
		m->cell_face[s] = new_of_old[m->cell_face[s]];
	return FV_OK;
}

static fv_err_t build_cell_cell(fv_mesh_t *m)
{
	size_t ns = (size_t)m->cell_face_off[m->n_cells];
	FV_CALL(fv_malloc(&m->cell_cell, ns + 1, sizeof(fv_idx_t), "cell neighbours"));
	FV_OMP(parallel for schedule(static) if (m->n_cells > FV_PAR_MIN))
	for (fv_idx_t c = 0; c < m->n_cells; c++)
		for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
			const fv_idx_t *fc = m->face_cell + 2 * (size_t)m->cell_face[s];
			m->cell_cell[s] = fc[0] == c ? fc[1] : fc[0];
		}
	return FV_OK;
}

/* The last steps of both builds: the final numbering, the mesh's face
 * arrays and the cell neighbours, from the faces made. */
static fv_err_t finish_faces(face_build_t *b, const int32_t *marker)
{
	fv_idx_t *new_of_old;
	fv_err_t err;
	FV_CALL(fv_malloc(&new_of_old, (size_t)b->n_faces + 1, sizeof *new_of_old, "face numbering"));
	err = number_faces(b, marker, new_of_old);
	if (err == FV_OK)
		err = store_faces(b, marker, new_of_old);
	free(new_of_old);
	return err == FV_OK ? build_cell_cell(b->m) : err;
}

/* The node of cell c's local face lf with the smallest number. */
static fv_idx_t smallest_node(const fv_mesh_t *m, fv_idx_t c, int lf)
{
	const fv_cell_shape_t *sh = &fv_cell_shapes[m->cell_type[c]];
	const fv_idx_t *cn = m->cell_node + m->cell_node_off[c];
	fv_idx_t v = cn[sh->face_node[lf][0]];
	for (int i = 1; i < sh->face_n_nodes[lf]; i++)
		if (cn[sh->face_node[lf][i]] < v)
			v = cn[sh->face_node[lf][i]];
	return v;
}

/* Whether check_cell_nodes would pass cell c (which it then explains). */
static int cell_nodes_ok(const fv_mesh_t *m, fv_idx_t c)
{
	const fv_idx_t *cn = m->cell_node + m->cell_node_off[c];
	int nn = m->cell_node_off[c + 1] - m->cell_node_off[c];
	if (m->cell_type[c] >= FV_NCELLTYPES || nn != fv_cell_shapes[m->cell_type[c]].n_nodes)
		return 0;
	for (int i = 0; i < nn; i++) {
		if (cn[i] < 0 || cn[i] >= m->n_nodes)
			return 0;
		for (int j = 0; j < i; j++)
			if (cn[i] == cn[j])
				return 0;
	}
	return 1;
}

/* Checks every cell's nodes and sizes the table regions: a node's region
 * holds 1.5 times the cell faces whose smallest node it is, plus one, so
 * its load stays under 2/3 (each distinct face is counted at least once). */
static fv_err_t plan_table(face_build_t *b)
{
	fv_mesh_t *m = b->m;
	uint64_t *off, total = 0;
	int bad = 0;
	FV_CALL(fv_calloc(&off, (size_t)m->n_nodes + 2, sizeof *off, "face hash regions"));
	b->t.off = off;
	FV_OMP(parallel for schedule(static) reduction(|| : bad) if (m->n_cells > FV_PAR_MIN))
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		if (!cell_nodes_ok(m, c)) {
			bad = 1;
			continue;
		}
		for (int lf = 0; lf < fv_cell_shapes[m->cell_type[c]].n_faces; lf++)
			__atomic_fetch_add(&off[smallest_node(m, c, lf) + 1], 1, __ATOMIC_RELAXED);
	}
	/* the first bad cell, in cell order */
	for (fv_idx_t c = 0; bad && c < m->n_cells; c++)
		FV_CALL(check_cell_nodes(m, c));
	for (fv_idx_t v = 0; v < m->n_nodes; v++) {
		uint64_t n = off[v + 1];
		off[v] = total;
		total += n + n / 2 + 1;
	}
	off[m->n_nodes] = total;
	FV_CALL(fv_malloc(&b->t.slot, total, sizeof *b->t.slot, "face hash table"));
	fv_par_memset(b->t.slot, 0xff, total * sizeof *b->t.slot); /* SLOT_EMPTY */
	return FV_OK;
}

static void free_build(face_build_t *b)
{
	free(b->t.slot);
	free(b->t.off);
	free(b->owner);
	free(b->nbr);
	free(b->nn);
	free(b->fnode);
}

fv_err_t fv_mesh_build_faces(fv_mesh_t *m)
{
	face_build_t b = {.m = m};
	int32_t *marker = NULL;
	size_t n_slots = 0, expect;
	int broken = 0;
	fv_err_t err;

	fv_mesh_free_derived(m);
	FV_CHECK(m->n_cells > 0, FV_ERR_MESH, "%s: the mesh has no cells", m->source);
	FV_CALL(fv_malloc(&m->cell_face_off, (size_t)m->n_cells + 1, sizeof(fv_idx_t), "cell face offsets"));
	m->cell_face_off[0] = 0;
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		if (m->cell_type[c] >= FV_NCELLTYPES) {
			char name[96];
			return FV_ERROR(FV_ERR_MESH, "%s: %s has unknown type %d", m->source,
					fv_mesh_cell_name(m, c, name, sizeof name), (int)m->cell_type[c]);
		}
		n_slots += (size_t)fv_cell_shapes[m->cell_type[c]].n_faces;
		FV_CHECK(n_slots <= FV_IDX_MAX, FV_ERR_MEM, "%s: too many cell faces for 32-bit indices", m->source);
		m->cell_face_off[c + 1] = (fv_idx_t)n_slots;
	}
	FV_CALL(fv_malloc(&m->cell_face, n_slots + 1, sizeof(fv_idx_t), "cell faces"));
	FV_CALL(fv_malloc(&m->cell_face_sign, n_slots + 1, 1, "cell face signs"));

	FV_CALL_GOTO(err, fail, plan_table(&b));
	FV_CALL_GOTO(err, fail, match_cell_faces_par(&b, &broken));
	if (broken) {
		/* the serial pass names the first broken cell in cell order */
		uint64_t n_table = b.t.off[m->n_nodes];
		fv_par_memset(b.t.slot, 0xff, n_table * sizeof *b.t.slot);
		/* a valid mesh has (cell faces + boundary faces) / 2 faces */
		expect = (n_slots + (size_t)m->n_belems) / 2 + 16;
		b.cap = (fv_idx_t)(expect > FV_IDX_MAX ? FV_IDX_MAX : expect);
		b.n_faces = 0;
		FV_CALL_GOTO(err, fail, fv_malloc(&b.owner, (size_t)b.cap, sizeof *b.owner, "face owners"));
		FV_CALL_GOTO(err, fail, fv_malloc(&b.nbr, (size_t)b.cap, sizeof *b.nbr, "face neighbours"));
		FV_CALL_GOTO(err, fail, fv_malloc(&b.nn, (size_t)b.cap, sizeof *b.nn, "face sizes"));
		FV_CALL_GOTO(err, fail, fv_malloc(&b.fnode, 4 * (size_t)b.cap, sizeof *b.fnode, "face nodes"));
		FV_CALL_GOTO(err, fail, match_cell_faces(&b));
	}
	FV_CALL_GOTO(err, fail, fv_malloc(&marker, (size_t)b.n_faces + 1, sizeof *marker, "face markers"));
	FV_CALL_GOTO(err, fail, match_boundary(&b, marker));
	FV_FREE(b.t.slot);
	FV_FREE(b.t.off);
	FV_CALL_GOTO(err, fail, finish_faces(&b, marker));
fail:
	free_build(&b);
	free(marker);
	if (err != FV_OK)
		fv_mesh_free_derived(m);
	return err;
}

/* Old face of the new cell face slot s = (c, lf). */
static inline fv_idx_t old_face(const fv_idx_t *perm, const fv_idx_t *old_off, const fv_idx_t *old_cf, fv_idx_t c,
				int lf)
{
	return old_cf[old_off[perm[c]] + lf];
}

/* match_cell_faces' visit over the renumbered cells, by every thread: a
 * face is made by the first cell face that meets it in cell order,
 * oriented as that cell sees it. new_id[of] is first the lowest slot of
 * old face of, then its new face; the sign array marks the slots that
 * make a face, and cell_face holds each slot's old face (looked up once)
 * until the slot gets its new one. The cells are cut into parts, and each part numbers its
 * faces after those of the parts before it, as one thread would. */
static fv_err_t rebuild_visit(face_build_t *b, const fv_idx_t *perm, const fv_idx_t *old_off, const fv_idx_t *old_cf,
			      fv_idx_t old_nf, fv_idx_t old_nb, const int32_t *old_marker, fv_idx_t *new_id,
			      int32_t *marker)
{
	fv_mesh_t *m = b->m;
	int np = m->n_cells > FV_PAR_MIN ? fv_threads_max() : 1;
	fv_idx_t *first, *co;
	int64_t nf = 0;
	FV_CALL(fv_malloc(&first, 2 * ((size_t)np + 1), sizeof *first, "faces per thread"));
	co = first + np + 1;
	for (int t = 0; t <= np; t++)
		co[t] = (fv_idx_t)((size_t)m->n_cells * (size_t)t / (size_t)np);
	FV_OMP(parallel for schedule(static) if (np > 1))
	for (fv_idx_t f = 0; f < old_nf; f++)
		new_id[f] = FV_IDX_MAX;
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++)
		for (fv_idx_t c = co[t]; c < co[t + 1]; c++)
			for (int lf = 0; lf < fv_cell_shapes[m->cell_type[c]].n_faces; lf++) {
				fv_idx_t s = m->cell_face_off[c] + lf, of = old_face(perm, old_off, old_cf, c, lf);
				fv_idx_t *at = &new_id[of], cur = __atomic_load_n(at, __ATOMIC_RELAXED);
				m->cell_face[s] = of; /* the old face, until the slot gets its new one */
				while (s < cur && !__atomic_compare_exchange_n(at, &cur, s, 0, __ATOMIC_RELAXED,
									       __ATOMIC_RELAXED))
					;
			}
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++) {
		fv_idx_t made = 0;
		for (fv_idx_t c = co[t]; c < co[t + 1]; c++)
			for (int lf = 0; lf < fv_cell_shapes[m->cell_type[c]].n_faces; lf++) {
				fv_idx_t s = m->cell_face_off[c] + lf;
				int mk = new_id[m->cell_face[s]] == s;
				m->cell_face_sign[s] = mk ? 1 : -1;
				made += mk;
			}
		first[t + 1] = made;
	}
	first[0] = 0;
	for (int t = 0; t < np; t++) {
		nf += first[t + 1];
		first[t + 1] = (fv_idx_t)nf;
	}
	if (nf != old_nf) { /* only a wrong old connectivity: one face a slot at most */
		free(first);
		return FV_ERROR(FV_ERR_MESH, "%s: the reordered cells have %lld faces, not %d", m->source,
				(long long)nf, (int)old_nf);
	}
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++) {
		fv_idx_t f = first[t];
		for (fv_idx_t c = co[t]; c < co[t + 1]; c++) {
			const fv_cell_shape_t *sh = &fv_cell_shapes[m->cell_type[c]];
			const fv_idx_t *cn = m->cell_node + m->cell_node_off[c];
			for (int lf = 0; lf < sh->n_faces; lf++) {
				fv_idx_t s = m->cell_face_off[c] + lf, of = m->cell_face[s];
				int nn = sh->face_n_nodes[lf];
				if (m->cell_face_sign[s] < 0)
					continue;
				new_id[of] = f;
				b->owner[f] = c;
				b->nbr[f] = -1;
				b->nn[f] = (uint8_t)nn;
				for (int i = 0; i < FV_MAX_FACE_NODES; i++)
					b->fnode[4 * (size_t)f + i] = i < nn ? cn[sh->face_node[lf][i]] : 0;
				marker[f] = of < old_nb ? old_marker[of] : -1;
				m->cell_face[s] = f++;
			}
		}
	}
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++)
		for (fv_idx_t c = co[t]; c < co[t + 1]; c++)
			for (int lf = 0; lf < fv_cell_shapes[m->cell_type[c]].n_faces; lf++) {
				fv_idx_t s = m->cell_face_off[c] + lf, f;
				if (m->cell_face_sign[s] > 0)
					continue;
				f = new_id[m->cell_face[s]];
				b->nbr[f] = c;
				m->cell_face[s] = f;
			}
	b->n_faces = old_nf;
	free(first);
	return FV_OK;
}

fv_err_t fv_mesh_rebuild_faces(fv_mesh_t *m, const fv_idx_t *perm)
{
	face_build_t b = {.m = m};
	fv_idx_t *old_off = m->cell_face_off, *old_cf = m->cell_face, *new_id = NULL;
	int32_t *old_marker = m->face_marker, *marker = NULL;
	fv_idx_t old_nf = m->n_faces, old_nb = m->n_bfaces;
	size_t n_slots = 0;
	fv_err_t err = FV_OK;

	FV_CHECK(old_off && old_cf && old_marker && perm, FV_ERR_ARG,
		 "%s: rebuilding faces needs the faces of the old order", m->source);
	/* the old faces stay ours; the rest of the old connectivity goes */
	m->cell_face_off = m->cell_face = NULL;
	m->face_marker = NULL;
	fv_mesh_free_derived(m);
	FV_CALL_GOTO(err, fail, fv_malloc(&m->cell_face_off, (size_t)m->n_cells + 1, sizeof(fv_idx_t),
					  "cell face offsets"));
	m->cell_face_off[0] = 0;
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		n_slots += (size_t)fv_cell_shapes[m->cell_type[c]].n_faces;
		m->cell_face_off[c + 1] = (fv_idx_t)n_slots;
	}
	FV_CALL_GOTO(err, fail, fv_malloc(&m->cell_face, n_slots + 1, sizeof(fv_idx_t), "cell faces"));
	FV_CALL_GOTO(err, fail, fv_malloc(&m->cell_face_sign, n_slots + 1, 1, "cell face signs"));
	b.cap = old_nf;
	FV_CALL_GOTO(err, fail, fv_malloc(&b.owner, (size_t)b.cap + 1, sizeof *b.owner, "face owners"));
	FV_CALL_GOTO(err, fail, fv_malloc(&b.nbr, (size_t)b.cap + 1, sizeof *b.nbr, "face neighbours"));
	FV_CALL_GOTO(err, fail, fv_malloc(&b.nn, (size_t)b.cap + 1, sizeof *b.nn, "face sizes"));
	FV_CALL_GOTO(err, fail, fv_malloc(&b.fnode, 4 * (size_t)b.cap + 1, sizeof *b.fnode, "face nodes"));
	FV_CALL_GOTO(err, fail, fv_malloc(&marker, (size_t)b.cap + 1, sizeof *marker, "face markers"));
	FV_CALL_GOTO(err, fail, fv_malloc(&new_id, (size_t)old_nf + 1, sizeof *new_id, "face renumbering"));
	FV_CALL_GOTO(err, fail, rebuild_visit(&b, perm, old_off, old_cf, old_nf, old_nb, old_marker, new_id, marker));
	FV_CALL_GOTO(err, fail, finish_faces(&b, marker));
fail:
	free_build(&b);
	free(marker);
	free(new_id);
	free(old_off);
	free(old_cf);
	free(old_marker);
	if (err != FV_OK)
		fv_mesh_free_derived(m);
	return err;
}

static int cmp_idx(const void *a, const void *b)
{
	fv_idx_t x = *(const fv_idx_t *)a, y = *(const fv_idx_t *)b;
	return (x > y) - (x < y);
}

fv_err_t fv_mesh_build_node_cells(fv_mesh_t *m)
{
	fv_idx_t *pos;
	/* threads count and fill with atomic cursors, one thread without */
	int par = m->n_cells > FV_PAR_MIN && fv_threads_max() > 1;
	FV_FREE(m->node_cell_off);
	FV_FREE(m->node_cell);
	FV_CALL(fv_calloc(&m->node_cell_off, (size_t)m->n_nodes + 1, sizeof(fv_idx_t), "node cell offsets"));
	if (!par)
		for (fv_idx_t i = 0; i < m->cell_node_off[m->n_cells]; i++)
			m->node_cell_off[m->cell_node[i] + 1]++;
	else {
		FV_OMP(parallel for schedule(static))
		for (fv_idx_t i = 0; i < m->cell_node_off[m->n_cells]; i++)
			__atomic_fetch_add(&m->node_cell_off[m->cell_node[i] + 1], 1, __ATOMIC_RELAXED);
	}
	for (fv_idx_t v = 0; v < m->n_nodes; v++)
		m->node_cell_off[v + 1] += m->node_cell_off[v];
	FV_CALL(fv_malloc(&m->node_cell, (size_t)m->node_cell_off[m->n_nodes] + 1, sizeof(fv_idx_t), "node cells"));
	FV_CALL(fv_malloc(&pos, (size_t)m->n_nodes + 1, sizeof *pos, "node cursors"));
	memcpy(pos, m->node_cell_off, (size_t)m->n_nodes * sizeof *pos);
	if (!par)
		for (fv_idx_t c = 0; c < m->n_cells; c++)
			for (fv_idx_t i = m->cell_node_off[c]; i < m->cell_node_off[c + 1]; i++)
				m->node_cell[pos[m->cell_node[i]]++] = c;
	else {
		FV_OMP(parallel for schedule(static))
		for (fv_idx_t c = 0; c < m->n_cells; c++)
			for (fv_idx_t i = m->cell_node_off[c]; i < m->cell_node_off[c + 1]; i++)
				m->node_cell[__atomic_fetch_add(&pos[m->cell_node[i]], 1, __ATOMIC_RELAXED)] = c;
	}
	free(pos);
	/* threads fill a node's list in any order: each list sorted, as one
	 * thread makes it (cells in increasing order) */
	FV_OMP(parallel for schedule(static) if (par))
	for (fv_idx_t v = 0; v < m->n_nodes; v++) {
		fv_idx_t *l = m->node_cell + m->node_cell_off[v];
		fv_idx_t n = m->node_cell_off[v + 1] - m->node_cell_off[v], i = 1;
		while (i < n && l[i - 1] < l[i]) /* most lists: one thread's, in order */
			i++;
		if (i == n)
			continue;
		if (n > 32) { /* a hub node (an axis, a pole): no quadratic sort */
			qsort(l, (size_t)n, sizeof *l, cmp_idx);
			continue;
		}
		for (fv_idx_t i = 1; i < n; i++) {
			fv_idx_t x = l[i], j = i;
			for (; j > 0 && l[j - 1] > x; j--)
				l[j] = l[j - 1];
			l[j] = x;
		}
	}
	return FV_OK;
}
