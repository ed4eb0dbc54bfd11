/* SPDX-License-Identifier: MIT */
/* Per-block local meshes of a block-contiguous mesh: owned and ghost cells,
 * local faces, nodes and geometry, and the halo send/receive lists.
 *
 * Choices the contract in partition.h leaves open: local nodes are in
 * increasing global id (node_global is sorted); each node's node_cell list
 * keeps the global mesh's order (increasing global cell id); a block may be
 * empty (an empty range in block_off), giving a block with nothing local. */
#include "fvstar/partition.h"

#include <stdlib.h>
#include <string.h>

#include "util/search.h"
#include "util/threads.h"

/* Global-to-local maps, rewritten by each block in turn; one set per
 * thread, each thread building whole blocks. A mark is the block's id + 1,
 * so a map fresh from calloc (0) holds none, and only the pages a thread's
 * blocks touch are ever resident; a ghost is recognised by cell_blk[c] ==
 * MARK(b), so no map is ever cleared; face_loc and node_loc are read only
 * for faces and nodes the block has just written. */
#define MARK(b) ((b)->id + 1)
typedef struct build {
	const fv_mesh_t *m;
	const fv_idx_t *block_off;
	int n_blocks;
	int32_t *cell_blk;   /* [n_cells] mark of the last block that took c as a ghost */
	int32_t *face_blk;   /* [n_cells] mark of the last block with an owned cell sharing a face with c */
	fv_idx_t *cell_loc;  /* [n_cells] local index of that ghost */
	int32_t *node_blk;   /* [n_nodes] mark of the last block that took the node */
	fv_idx_t *node_loc;  /* [n_nodes] */
	fv_idx_t *face_loc;  /* [n_faces] */
	fv_idx_t *scratch;   /* [max(n_cells, n_nodes, n_faces)] */
	fv_idx_t *sort_tmp;  /* as large, for radix_sort */
} build_t;

/* LSD radix sort of non-negative ids, 11 bits a pass: the id lists of all
 * blocks together are as long as the mesh, and qsort dominated the build. */
static void radix_sort(fv_idx_t *a, fv_idx_t *tmp, fv_idx_t n)
{
	fv_idx_t max = 0, *src = a, *dst = tmp;
	for (fv_idx_t i = 0; i < n; i++)
		max = a[i] > max ? a[i] : max;
	for (int shift = 0; shift == 0 || (shift < 31 && (max >> shift) > 0); shift += 11) {
		fv_idx_t cnt[2048 + 1] = {0}, *t;
		for (fv_idx_t i = 0; i < n; i++)
			cnt[((src[i] >> shift) & 2047) + 1]++;
		for (int d = 0; d < 2048; d++)
			cnt[d + 1] += cnt[d];
		for (fv_idx_t i = 0; i < n; i++)
			dst[cnt[(src[i] >> shift) & 2047]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, (size_t)n * sizeof *a);
}

int fv_block_of_cell(const fv_idx_t *block_off, int n_blocks, fv_idx_t c)
{
	/* the last b with block_off[b] <= c */
	size_t b = fv_lower_bound(block_off, (size_t)n_blocks, (int64_t)c + 1, fv_key_i32);
	return b ? (int)b - 1 : 0;
}

/* Local index of global cell c in block b, -1 when c is not local. */
static fv_idx_t local_cell(const build_t *w, const fv_block_t *b, fv_idx_t c)
{
	if (c >= b->cell0 && c < b->cell0 + b->n_owned)
		return c - b->cell0;
	return w->cell_blk[c] == MARK(b) ? w->cell_loc[c] : -1;
}

/* A sorted copy of the n ids gathered in scratch. */
static fv_err_t take_sorted(build_t *w, fv_idx_t n, fv_idx_t **out, const char *what)
{
	radix_sort(w->scratch, w->sort_tmp, n);
	FV_CALL(fv_malloc(out, (size_t)n + 1, sizeof **out, what));
	memcpy(*out, w->scratch, (size_t)n * sizeof **out);
	return FV_OK;
}

/* dst[d * n + i] = src[d * n_src + ids[i]] for ncomp components (SoA). */
static void gather_soa(fv_real_t *dst, const fv_real_t *src, size_t n_src, const fv_idx_t *ids, size_t n,
		       int ncomp)
{
	for (int d = 0; d < ncomp; d++)
		for (size_t i = 0; i < n; i++)
			dst[d * n + i] = src[d * n_src + (size_t)ids[i]];
}

/* Nodes of owned cells, in increasing global id. */
static fv_err_t block_nodes(build_t *w, fv_block_t *b)
{
	const fv_mesh_t *m = w->m;
	fv_idx_t nn = 0, c1 = b->cell0 + b->n_owned;
	for (fv_idx_t i = m->cell_node_off[b->cell0]; i < m->cell_node_off[c1]; i++) {
		fv_idx_t v = m->cell_node[i];
		if (w->node_blk[v] != MARK(b)) {
			w->node_blk[v] = MARK(b);
			w->scratch[nn++] = v;
		}
	}
	b->n_nodes = nn;
	FV_CALL(take_sorted(w, nn, &b->node_global, "block nodes"));
	for (fv_idx_t i = 0; i < nn; i++)
		w->node_loc[b->node_global[i]] = i;
	return FV_OK;
}

/* Cells: owned, then ghosts by source block (blocks are contiguous
 * ranges) in increasing block id; in each source block's run, the ghosts
 * that share a face with an owned cell first, then those that only share
 * a node, each part by increasing global id. The halos of values read
 * across faces alone send the first part (fv_block_face_prefix). */
static fv_err_t block_cells(build_t *w, fv_block_t *b)
{
	const fv_mesh_t *m = w->m;
	fv_idx_t ng = 0, c1 = b->cell0 + b->n_owned;
	for (fv_idx_t s = m->cell_face_off[b->cell0]; s < m->cell_face_off[c1]; s++) {
		fv_idx_t f = m->cell_face[s];
		for (int k = 0; k < 2; k++) {
			fv_idx_t d = m->face_cell[2 * (size_t)f + k];
			if (d >= 0 && (d < b->cell0 || d >= c1))
				w->face_blk[d] = MARK(b);
		}
	}
	/* from the block's nodes, each visited once (block_nodes ran first) */
	for (fv_idx_t i = 0; i < b->n_nodes; i++) {
		fv_idx_t v = b->node_global[i];
		for (fv_idx_t k = m->node_cell_off[v]; k < m->node_cell_off[v + 1]; k++) {
			fv_idx_t d = m->node_cell[k];
			if ((d < b->cell0 || d >= c1) && w->cell_blk[d] != MARK(b)) {
				w->cell_blk[d] = MARK(b);
				w->scratch[ng++] = d;
			}
		}
	}
	radix_sort(w->scratch, w->sort_tmp, ng);
	b->n_ghost = ng;
	b->n_cells = b->n_owned + ng;

	/* neighbours and receive ranges: one run of ghosts per source block */
	{
		size_t cap = (size_t)(ng < w->n_blocks ? ng : w->n_blocks) + 1;
		FV_CALL(fv_malloc(&b->nbr, cap, sizeof *b->nbr, "block neighbours"));
		FV_CALL(fv_malloc(&b->recv_off, cap, sizeof *b->recv_off, "block receive offsets"));
	}
	b->n_nbr = 0;
	for (fv_idx_t i = 0, end = 0; i < ng; i++)
		if (w->scratch[i] >= end) {
			int src = fv_block_of_cell(w->block_off, w->n_blocks, w->scratch[i]);
			b->nbr[b->n_nbr] = src;
			b->recv_off[b->n_nbr++] = i;
			end = w->block_off[src + 1];
		}
	b->recv_off[b->n_nbr] = ng;
	/* each run: the ghosts sharing a face first (a stable split) */
	for (int k = 0; k < b->n_nbr; k++) {
		fv_idx_t r0 = b->recv_off[k], r1 = b->recv_off[k + 1], j = r0;
		for (int face = 1; face >= 0; face--)
			for (fv_idx_t i = r0; i < r1; i++)
				if ((w->face_blk[w->scratch[i]] == MARK(b)) == face)
					w->sort_tmp[j++] = w->scratch[i];
		memcpy(w->scratch + r0, w->sort_tmp + r0, (size_t)(r1 - r0) * sizeof *w->scratch);
	}
	FV_CALL(fv_malloc(&b->cell_global, (size_t)b->n_cells + 1, sizeof *b->cell_global, "block cells"));
	for (fv_idx_t i = 0; i < b->n_owned; i++)
		b->cell_global[i] = b->cell0 + i;
	for (fv_idx_t i = 0; i < ng; i++) {
		b->cell_global[b->n_owned + i] = w->scratch[i];
		w->cell_loc[w->scratch[i]] = b->n_owned + i;
	}
	return FV_OK;
}

/* Local cells around each local node, after block_cells. */
static fv_err_t block_node_cells(build_t *w, fv_block_t *b)
{
	const fv_mesh_t *m = w->m;
	fv_idx_t nn = b->n_nodes;
	/* every cell around a local node is owned or a ghost by construction */
	FV_CALL(fv_malloc(&b->node_cell_off, (size_t)nn + 1, sizeof *b->node_cell_off, "block node cell offsets"));
	b->node_cell_off[0] = 0;
	for (fv_idx_t i = 0; i < nn; i++) {
		fv_idx_t v = b->node_global[i];
		b->node_cell_off[i + 1] = b->node_cell_off[i] + m->node_cell_off[v + 1] - m->node_cell_off[v];
	}
	FV_CALL(fv_malloc(&b->node_cell, (size_t)b->node_cell_off[nn] + 1, sizeof *b->node_cell, "block node cells"));
	for (fv_idx_t i = 0; i < nn; i++) {
		fv_idx_t v = b->node_global[i], k0 = m->node_cell_off[v];
		for (fv_idx_t k = k0; k < m->node_cell_off[v + 1]; k++) {
			fv_idx_t lc = local_cell(w, b, m->node_cell[k]);
			FV_CHECK(lc >= 0, FV_ERR_MESH, "%s: block %d: cell %d around node %d is neither owned nor a ghost",
				 m->source, b->id, (int)m->node_cell[k], (int)v);
			b->node_cell[b->node_cell_off[i] + k - k0] = lc;
		}
	}
	return FV_OK;
}

/* Faces with an owned cell, in global order: boundary faces come first
 * grouped by marker there, then interior faces in Alg. 2 order. */
static fv_err_t block_faces(build_t *w, fv_block_t *b)
{
	const fv_mesh_t *m = w->m;
	fv_idx_t nf = 0, c1 = b->cell0 + b->n_owned;
	size_t gnf = (size_t)m->n_faces;

	/* each face once: from its owner, or from its neighbour when the owner
	 * is outside the block */
	for (fv_idx_t s = m->cell_face_off[b->cell0]; s < m->cell_face_off[c1]; s++) {
		fv_idx_t f = m->cell_face[s], o = m->face_cell[2 * (size_t)f];
		if (m->cell_face_sign[s] > 0 || o < b->cell0 || o >= c1)
			w->scratch[nf++] = f;
	}
	b->n_faces = nf;
	FV_CALL(take_sorted(w, nf, &b->face_global, "block faces"));
	b->n_bfaces = 0;
	while (b->n_bfaces < nf && b->face_global[b->n_bfaces] < m->n_bfaces)
		b->n_bfaces++;

	FV_CALL(fv_calloc(&b->marker_face_off, (size_t)m->n_markers + 1, sizeof *b->marker_face_off,
			  "block marker offsets"));
	FV_CALL(fv_malloc(&b->face_marker, (size_t)b->n_bfaces + 1, sizeof *b->face_marker, "block face markers"));
	for (fv_idx_t i = 0; i < b->n_bfaces; i++) {
		b->face_marker[i] = m->face_marker[b->face_global[i]];
		b->marker_face_off[b->face_marker[i] + 1]++;
	}
	for (int k = 0; k < m->n_markers; k++)
		b->marker_face_off[k + 1] += b->marker_face_off[k];

	FV_CALL(fv_malloc(&b->face_cell, 2 * (size_t)nf + 1, sizeof *b->face_cell, "block face cells"));
	FV_CALL(fv_malloc(&b->face_node_off, (size_t)nf + 1, sizeof *b->face_node_off, "block face offsets"));
	b->face_node_off[0] = 0;
	for (fv_idx_t i = 0; i < nf; i++) {
		fv_idx_t f = b->face_global[i];
		w->face_loc[f] = i;
		for (int k = 0; k < 2; k++) {
			fv_idx_t c = m->face_cell[2 * (size_t)f + k];
			b->face_cell[2 * (size_t)i + k] = c < 0 ? -1 : local_cell(w, b, c);
			FV_CHECK(c < 0 || b->face_cell[2 * (size_t)i + k] >= 0, FV_ERR_MESH,
				 "%s: block %d: cell %d of face %d is neither owned nor a ghost", m->source, b->id,
				 (int)c, (int)f);
		}
		b->face_node_off[i + 1] = b->face_node_off[i] + m->face_node_off[f + 1] - m->face_node_off[f];
	}
	FV_CALL(fv_malloc(&b->face_node, (size_t)b->face_node_off[nf] + 1, sizeof *b->face_node, "block face nodes"));
	for (fv_idx_t i = 0; i < nf; i++) {
		fv_idx_t f = b->face_global[i], k0 = m->face_node_off[f];
		for (fv_idx_t k = k0; k < m->face_node_off[f + 1]; k++) {
			fv_idx_t v = m->face_node[k];
			/* a face of an owned cell has all its nodes in that cell */
			FV_CHECK(w->node_blk[v] == MARK(b), FV_ERR_MESH, "%s: block %d: node %d of face %d is not local",
				 m->source, b->id, (int)v, (int)f);
			b->face_node[b->face_node_off[i] + k - k0] = w->node_loc[v];
		}
	}
	FV_CALL(fv_malloc(&b->face_area, 3 * (size_t)nf + 1, sizeof *b->face_area, "block face areas"));
	FV_CALL(fv_malloc(&b->face_ctr, 3 * (size_t)nf + 1, sizeof *b->face_ctr, "block face centres"));
	gather_soa(b->face_area, m->face_area, gnf, b->face_global, (size_t)nf, 3);
	gather_soa(b->face_ctr, m->face_ctr, gnf, b->face_global, (size_t)nf, 3);
	return FV_OK;
}

/* Owned cells' faces, after block_faces: every face of an owned cell is
 * local, so face_loc holds it. */
static fv_err_t block_cell_faces(build_t *w, fv_block_t *b)
{
	const fv_mesh_t *m = w->m;
	fv_idx_t s0 = m->cell_face_off[b->cell0], ns = m->cell_face_off[b->cell0 + b->n_owned] - s0;
	FV_CALL(fv_malloc(&b->cell_face_off, (size_t)b->n_owned + 1, sizeof *b->cell_face_off, "block cell face offsets"));
	FV_CALL(fv_malloc(&b->cell_face, (size_t)ns + 1, sizeof *b->cell_face, "block cell faces"));
	FV_CALL(fv_malloc(&b->cell_face_sign, (size_t)ns + 1, sizeof *b->cell_face_sign, "block cell face signs"));
	for (fv_idx_t i = 0; i <= b->n_owned; i++)
		b->cell_face_off[i] = m->cell_face_off[b->cell0 + i] - s0;
	for (fv_idx_t s = 0; s < ns; s++)
		b->cell_face[s] = w->face_loc[m->cell_face[s0 + s]];
	memcpy(b->cell_face_sign, m->cell_face_sign + s0, (size_t)ns * sizeof *b->cell_face_sign);
	return FV_OK;
}

static fv_err_t block_cell_geometry(build_t *w, fv_block_t *b)
{
	const fv_mesh_t *m = w->m;
	FV_CALL(fv_malloc(&b->cell_vol, (size_t)b->n_cells + 1, sizeof *b->cell_vol, "block cell volumes"));
	FV_CALL(fv_malloc(&b->cell_ctr, 3 * (size_t)b->n_cells + 1, sizeof *b->cell_ctr, "block cell centres"));
	gather_soa(b->cell_vol, m->cell_vol, (size_t)m->n_cells, b->cell_global, (size_t)b->n_cells, 1);
	gather_soa(b->cell_ctr, m->cell_ctr, (size_t)m->n_cells, b->cell_global, (size_t)b->n_cells, 3);
	return FV_OK;
}

static int find_nbr(const fv_block_t *b, int id)
{
	return (int)fv_search(b->nbr, (size_t)b->n_nbr, id, fv_key_int);
}

/* What b sends to n is what n receives from b: n's ghost run from b, as
 * b's local owned indices. Node sharing is symmetric, so n must list b
 * among its neighbours whenever b lists n. */
static fv_err_t block_send_lists(const fv_mesh_t *m, fv_block_t *blocks, fv_block_t *b)
{
	FV_CALL(fv_malloc(&b->send_off, (size_t)b->n_nbr + 1, sizeof *b->send_off, "block send offsets"));
	b->send_off[0] = 0;
	for (int k = 0; k < b->n_nbr; k++) {
		const fv_block_t *n = &blocks[b->nbr[k]];
		int j = find_nbr(n, b->id);
		FV_CHECK(j >= 0, FV_ERR_MESH, "%s: halo not symmetric: block %d has ghosts from block %d but not the reverse",
			 m->source, b->id, n->id);
		b->send_off[k + 1] = b->send_off[k] + n->recv_off[j + 1] - n->recv_off[j];
	}
	FV_CALL(fv_malloc(&b->send_cell, (size_t)b->send_off[b->n_nbr] + 1, sizeof *b->send_cell, "block send cells"));
	for (int k = 0; k < b->n_nbr; k++) {
		const fv_block_t *n = &blocks[b->nbr[k]];
		const fv_idx_t *g = n->cell_global + n->n_owned + n->recv_off[find_nbr(n, b->id)];
		for (fv_idx_t i = 0; i < b->send_off[k + 1] - b->send_off[k]; i++)
			b->send_cell[b->send_off[k] + i] = g[i] - b->cell0;
	}
	return FV_OK;
}

static void free_build(build_t *w)
{
	free(w->cell_blk);
	free(w->face_blk);
	free(w->cell_loc);
	free(w->node_blk);
	free(w->node_loc);
	free(w->face_loc);
	free(w->scratch);
	free(w->sort_tmp);
}

static fv_err_t check_args(const fv_mesh_t *m, const fv_idx_t *block_off, int n_blocks, fv_block_t **blocks)
{
	FV_CHECK(m && block_off && blocks, FV_ERR_ARG, "fv_blocks_build: null argument");
	FV_CHECK(m->face_cell && m->node_cell && m->cell_vol && m->face_area, FV_ERR_ARG,
		 "%s: blocks need faces, node cells and geometry: call fv_mesh_prepare first", m->source);
	FV_CHECK(n_blocks >= 1, FV_ERR_ARG, "%s: %d blocks", m->source, n_blocks);
	FV_CHECK(block_off[0] == 0 && block_off[n_blocks] == m->n_cells, FV_ERR_ARG,
		 "%s: block ranges cover [%d, %d), not the %d cells", m->source, (int)block_off[0],
		 (int)block_off[n_blocks], (int)m->n_cells);
	for (int b = 0; b < n_blocks; b++)
		FV_CHECK(block_off[b] <= block_off[b + 1], FV_ERR_ARG, "%s: block %d has range [%d, %d)", m->source, b,
			 (int)block_off[b], (int)block_off[b + 1]);
	return FV_OK;
}

/* One thread's maps, fresh: the marks from calloc (pages of zeros the
 * kernel maps only when touched), the rest written before read. */
static fv_err_t alloc_build(build_t *w)
{
	const fv_mesh_t *m = w->m;
	size_t nmax = (size_t)m->n_cells;
	nmax = (size_t)m->n_nodes > nmax ? (size_t)m->n_nodes : nmax;
	nmax = (size_t)m->n_faces > nmax ? (size_t)m->n_faces : nmax;
	FV_CALL(fv_calloc(&w->cell_blk, (size_t)m->n_cells, sizeof *w->cell_blk, "ghost marks"));
	FV_CALL(fv_malloc(&w->cell_loc, (size_t)m->n_cells, sizeof *w->cell_loc, "ghost indices"));
	FV_CALL(fv_calloc(&w->face_blk, (size_t)m->n_cells, sizeof *w->face_blk, "face ghost marks"));
	FV_CALL(fv_calloc(&w->node_blk, (size_t)m->n_nodes, sizeof *w->node_blk, "node marks"));
	FV_CALL(fv_malloc(&w->node_loc, (size_t)m->n_nodes, sizeof *w->node_loc, "node indices"));
	FV_CALL(fv_malloc(&w->face_loc, (size_t)m->n_faces, sizeof *w->face_loc, "face indices"));
	FV_CALL(fv_malloc(&w->scratch, nmax, sizeof *w->scratch, "block scratch"));
	FV_CALL(fv_malloc(&w->sort_tmp, nmax, sizeof *w->sort_tmp, "block sort buffer"));
	return FV_OK;
}

static fv_err_t build_block(build_t *w, fv_block_t *b)
{
	FV_CALL(block_nodes(w, b));
	FV_CALL(block_cells(w, b));
	FV_CALL(block_node_cells(w, b));
	FV_CALL(block_faces(w, b));
	FV_CALL(block_cell_faces(w, b));
	return block_cell_geometry(w, b);
}

/* One block of every cell (one GPU): the general build below, whose maps
 * and sorts serve many blocks, on one thread, comes down to copies of the
 * mesh's arrays (no ghost; every face, in order; local cells are global
 * ones; nodes those of the cells, in order), made here by all threads.
 * Its arrays are the general build's, value for value. */
/* The array *from as the block's *to: taken (take: the mesh's pointer
 * moved, its slot emptied) or copied by all threads. */
static fv_err_t take_or_copy(void *to, void *from, size_t bytes, int take, const char *what)
{
	void **t = to, **f = from;
	if (take) {
		*t = *f;
		*f = NULL;
		return FV_OK;
	}
	FV_CALL(fv_malloc(t, 1, bytes + 8, what));
	fv_par_memcpy(*t, *f, bytes);
	return FV_OK;
}

static fv_err_t build_whole(const fv_mesh_t *m, fv_mesh_t *take, fv_block_t *b)
{
	size_t nc = (size_t)m->n_cells, nf = (size_t)m->n_faces, nv = (size_t)m->n_nodes;
	size_t ncn = (size_t)m->node_cell_off[nv], ncf = (size_t)m->cell_face_off[nc];
	size_t nfn = (size_t)(m->face_node_off[nf] - m->face_node_off[0]);
	fv_idx_t *node_loc = NULL, nn = 0;
	fv_err_t err = FV_OK;
	FV_CALL(fv_malloc(&node_loc, nv + 1, sizeof *node_loc, "node indices"));
	/* the nodes of the cells, in increasing id */
	FV_OMP(parallel for schedule(static) if (nv > FV_PAR_MIN))
	for (size_t v = 0; v < nv; v++)
		node_loc[v] = -1;
	/* (every writer writes 0) */
	FV_OMP(parallel for schedule(static) if (nc > FV_PAR_MIN))
	for (size_t i = 0; i < (size_t)m->cell_node_off[nc]; i++)
		__atomic_store_n(&node_loc[m->cell_node[i]], 0, __ATOMIC_RELAXED);
	for (size_t v = 0; v < nv; v++)
		if (node_loc[v] == 0)
			node_loc[v] = nn++;
		else
			node_loc[v] = -1;
	b->n_nodes = nn;
	b->n_ghost = 0;
	b->n_cells = b->n_owned;
	b->n_nbr = 0;
	b->n_faces = (fv_idx_t)nf;
	b->n_bfaces = m->n_bfaces;
	FV_CALL_GOTO(err, out, fv_malloc(&b->node_global, (size_t)nn + 1, sizeof *b->node_global, "block nodes"));
	for (size_t v = 0; v < nv; v++)
		if (node_loc[v] >= 0)
			b->node_global[node_loc[v]] = (fv_idx_t)v;
	FV_CALL_GOTO(err, out, fv_malloc(&b->nbr, 1, sizeof *b->nbr, "block neighbours"));
	FV_CALL_GOTO(err, out, fv_malloc(&b->recv_off, 1, sizeof *b->recv_off, "block receive offsets"));
	b->recv_off[0] = 0;
	FV_CALL_GOTO(err, out, fv_malloc(&b->cell_global, nc + 1, sizeof *b->cell_global, "block cells"));
	FV_OMP(parallel for schedule(static) if (nc > FV_PAR_MIN))
	for (size_t c = 0; c < nc; c++)
		b->cell_global[c] = (fv_idx_t)c;
	/* cells around the nodes: global ids are local ones */
	FV_CALL_GOTO(err, out, fv_malloc(&b->node_cell_off, (size_t)nn + 1, sizeof *b->node_cell_off,
					 "block node cell offsets"));
	b->node_cell_off[0] = 0;
	for (fv_idx_t i = 0; i < nn; i++) {
		fv_idx_t v = b->node_global[i];
		b->node_cell_off[i + 1] = b->node_cell_off[i] + m->node_cell_off[v + 1] - m->node_cell_off[v];
	}
	if ((size_t)nn == nv && m->node_cell_off[0] == 0) {
		FV_CALL_GOTO(err, out, take_or_copy(&b->node_cell, take ? &take->node_cell : (void *)&m->node_cell,
						    ncn * sizeof *b->node_cell, take != NULL, "block node cells"));
	} else {
		FV_CALL_GOTO(err, out, fv_malloc(&b->node_cell, (size_t)b->node_cell_off[nn] + 1, sizeof *b->node_cell,
						 "block node cells"));
		for (fv_idx_t i = 0; i < nn; i++) {
			fv_idx_t v = b->node_global[i];
			memcpy(b->node_cell + b->node_cell_off[i], m->node_cell + m->node_cell_off[v],
			       (size_t)(m->node_cell_off[v + 1] - m->node_cell_off[v]) * sizeof *b->node_cell);
		}
	}
	/* every face, in order */
	FV_CALL_GOTO(err, out, fv_malloc(&b->face_global, nf + 1, sizeof *b->face_global, "block faces"));
	FV_CALL_GOTO(err, out, fv_calloc(&b->marker_face_off, (size_t)m->n_markers + 1, sizeof *b->marker_face_off,
					 "block marker offsets"));
	FV_CALL_GOTO(err, out, fv_malloc(&b->face_marker, (size_t)b->n_bfaces + 1, sizeof *b->face_marker,
					 "block face markers"));
	FV_CALL_GOTO(err, out, fv_malloc(&b->face_cell, 2 * nf + 1, sizeof *b->face_cell, "block face cells"));
	FV_CALL_GOTO(err, out, fv_malloc(&b->face_node_off, nf + 1, sizeof *b->face_node_off, "block face offsets"));
	FV_CALL_GOTO(err, out, fv_malloc(&b->face_node, nfn + 1, sizeof *b->face_node, "block face nodes"));
	for (fv_idx_t i = 0; i < b->n_bfaces; i++) {
		b->face_marker[i] = m->face_marker[i];
		b->marker_face_off[b->face_marker[i] + 1]++;
	}
	for (int k = 0; k < m->n_markers; k++)
		b->marker_face_off[k + 1] += b->marker_face_off[k];
	{
		fv_idx_t bad = FV_IDX_MAX; /* the first face with a node of no cell */
		FV_OMP(parallel for schedule(static) reduction(min : bad) if (nf > FV_PAR_MIN))
		for (size_t f = 0; f < nf; f++) {
			b->face_global[f] = (fv_idx_t)f;
			for (int k = 0; k < 2; k++)
				b->face_cell[2 * f + k] = m->face_cell[2 * f + k] < 0 ? -1 : m->face_cell[2 * f + k];
			b->face_node_off[f] = m->face_node_off[f] - m->face_node_off[0];
			for (fv_idx_t k = m->face_node_off[f]; k < m->face_node_off[f + 1]; k++) {
				b->face_node[k - m->face_node_off[0]] = node_loc[m->face_node[k]];
				bad = node_loc[m->face_node[k]] < 0 && (fv_idx_t)f < bad ? (fv_idx_t)f : bad;
			}
		}
		b->face_node_off[nf] = (fv_idx_t)nfn;
		FV_CHECK_GOTO(err, out, bad == FV_IDX_MAX, FV_ERR_MESH,
			      "%s: block %d: a node of face %d is not local (a node of no cell)", m->source, b->id,
			      (int)bad);
	}
	/* the arrays the block holds as the mesh does: taken where the mesh
	 * is given (a single GPU's block of 10^8 cells is 15 GB of copies
	 * otherwise); the mesh keeps what its part reads (cells, nodes,
	 * centres: fv_part_build) */
	int own = take != NULL;
#define TAKE(field, bytes, what) \
	FV_CALL_GOTO(err, out, take_or_copy(&b->field, own ? &take->field : (void *)&m->field, bytes, own, what))
	TAKE(face_area, 3 * nf * sizeof *b->face_area, "block face areas");
	TAKE(face_ctr, 3 * nf * sizeof *b->face_ctr, "block face centres");
	/* the cells' faces and geometry */
	if (m->cell_face_off[0] == 0) {
		TAKE(cell_face_off, (nc + 1) * sizeof *b->cell_face_off, "block cell face offsets");
		TAKE(cell_face, ncf * sizeof *b->cell_face, "block cell faces");
		TAKE(cell_face_sign, ncf * sizeof *b->cell_face_sign, "block cell face signs");
	} else {
		FV_CALL_GOTO(err, out, fv_malloc(&b->cell_face_off, nc + 1, sizeof *b->cell_face_off,
						 "block cell face offsets"));
		FV_CALL_GOTO(err, out, fv_malloc(&b->cell_face, ncf + 1, sizeof *b->cell_face, "block cell faces"));
		FV_CALL_GOTO(err, out, fv_malloc(&b->cell_face_sign, ncf + 1, sizeof *b->cell_face_sign,
						 "block cell face signs"));
		FV_OMP(parallel for schedule(static) if (nc > FV_PAR_MIN))
		for (size_t c = 0; c <= nc; c++)
			b->cell_face_off[c] = m->cell_face_off[c] - m->cell_face_off[0];
		fv_par_memcpy(b->cell_face, m->cell_face + m->cell_face_off[0], ncf * sizeof *b->cell_face);
		fv_par_memcpy(b->cell_face_sign, m->cell_face_sign + m->cell_face_off[0],
			      ncf * sizeof *b->cell_face_sign);
	}
	TAKE(cell_vol, nc * sizeof *b->cell_vol, "block cell volumes");
	own = 0; /* the part's piece reads the mesh's centres */
	TAKE(cell_ctr, 3 * nc * sizeof *b->cell_ctr, "block cell centres");
#undef TAKE
out:
	free(node_loc);
	return err;
}

/* The blocks on nt threads: each block depends only on the mesh, so any
 * thread count builds the same blocks. A failure (a broken mesh's, never
 * a valid one's) is built again on one thread, for the first error in
 * block order and its message. */
static fv_err_t build_blocks(const fv_mesh_t *m, const fv_idx_t *block_off, int n_blocks, int nt, fv_block_t *bl)
{
	build_t *ws = NULL;
	int failed = 0;
	fv_err_t err = FV_OK;
	FV_CALL(fv_calloc(&ws, (size_t)nt, sizeof *ws, "block builders"));
	for (int t = 0; t < nt && err == FV_OK; t++) {
		ws[t] = (build_t){.m = m, .block_off = block_off, .n_blocks = n_blocks};
		err = alloc_build(&ws[t]);
	}
	for (int ib = 0; ib < n_blocks; ib++) {
		bl[ib].id = ib;
		bl[ib].cell0 = block_off[ib];
		bl[ib].n_owned = block_off[ib + 1] - block_off[ib];
	}
	if (err == FV_OK && nt == 1)
		for (int ib = 0; ib < n_blocks && err == FV_OK; ib++)
			err = build_block(&ws[0], &bl[ib]);
	else if (err == FV_OK) {
		FV_OMP(parallel for schedule(dynamic, 1) num_threads(nt) reduction(|| : failed))
		for (int ib = 0; ib < n_blocks; ib++)
			failed = failed || build_block(&ws[fv_thread_num()], &bl[ib]) != FV_OK;
		err = failed ? FV_ERR_MESH : FV_OK;
	}
	for (int t = 0; t < nt; t++)
		free_build(&ws[t]);
	free(ws);
	return err;
}

static fv_err_t blocks_build(const fv_mesh_t *m, fv_mesh_t *take, const fv_idx_t *block_off, int n_blocks,
			     fv_block_t **blocks);

fv_err_t fv_blocks_build(const fv_mesh_t *m, const fv_idx_t *block_off, int n_blocks, fv_block_t **blocks)
{
	return blocks_build(m, NULL, block_off, n_blocks, blocks);
}

fv_err_t fv_blocks_build_take(fv_mesh_t *m, const fv_idx_t *block_off, int n_blocks, fv_block_t **blocks)
{
	return blocks_build(m, m, block_off, n_blocks, blocks);
}

static fv_err_t blocks_build(const fv_mesh_t *m, fv_mesh_t *take, const fv_idx_t *block_off, int n_blocks,
			     fv_block_t **blocks)
{
	fv_block_t *bl = NULL;
	int nt = m && m->n_cells > FV_PAR_MIN ? fv_threads_max() : 1, failed = 0;
	fv_err_t err = FV_OK;

	if (blocks)
		*blocks = NULL;
	FV_CALL(check_args(m, block_off, n_blocks, blocks));
	nt = nt < n_blocks ? nt : n_blocks;
	FV_CALL_GOTO(err, fail, fv_calloc(&bl, (size_t)n_blocks, sizeof *bl, "blocks"));
	if (n_blocks == 1) {
		bl[0].n_owned = m->n_cells;
		FV_CALL_GOTO(err, fail, build_whole(m, take, &bl[0]));
		nt = 1;
	} else
		err = build_blocks(m, block_off, n_blocks, nt, bl);
	if (err != FV_OK && nt > 1) {
		fv_blocks_free(bl, n_blocks);
		FV_CALL(fv_calloc(&bl, (size_t)n_blocks, sizeof *bl, "blocks"));
		err = build_blocks(m, block_off, n_blocks, 1, bl);
	}
	if (err != FV_OK)
		goto fail;
	FV_OMP(parallel for schedule(dynamic, 1) num_threads(nt) reduction(|| : failed))
	for (int ib = 0; ib < n_blocks; ib++)
		failed = failed || block_send_lists(m, bl, &bl[ib]) != FV_OK;
	if (failed) /* again in block order, for the first block's message */
		for (int ib = 0; ib < n_blocks; ib++) {
			free(bl[ib].send_off);
			free(bl[ib].send_cell);
			bl[ib].send_off = bl[ib].send_cell = NULL;
			FV_CALL_GOTO(err, fail, block_send_lists(m, bl, &bl[ib]));
		}
	*blocks = bl;
	return FV_OK;
fail:
	fv_blocks_free(bl, n_blocks);
	return err;
}

void fv_blocks_trim(fv_block_t *blocks, int n_blocks)
{
	for (int i = 0; blocks && i < n_blocks; i++) {
		fv_block_t *b = &blocks[i];
		FV_FREE(b->face_node_off);
		FV_FREE(b->face_node);
		FV_FREE(b->face_area);
		FV_FREE(b->cell_face_off);
		FV_FREE(b->cell_face);
		FV_FREE(b->cell_face_sign);
		FV_FREE(b->cell_vol);
		FV_FREE(b->cell_ctr);
		FV_FREE(b->node_global);
		FV_FREE(b->node_cell_off);
		FV_FREE(b->node_cell);
	}
}

void fv_blocks_free(fv_block_t *blocks, int n_blocks)
{
	if (!blocks)
		return;
	for (int i = 0; i < n_blocks; i++) {
		fv_block_t *b = &blocks[i];
		free(b->cell_global);
		free(b->face_global);
		free(b->face_cell);
		free(b->face_marker);
		free(b->marker_face_off);
		free(b->face_node_off);
		free(b->face_node);
		free(b->face_area);
		free(b->face_ctr);
		free(b->cell_face_off);
		free(b->cell_face);
		free(b->cell_face_sign);
		free(b->cell_vol);
		free(b->cell_ctr);
		free(b->node_global);
		free(b->node_cell_off);
		free(b->node_cell);
		free(b->nbr);
		free(b->recv_off);
		free(b->send_off);
		free(b->send_cell);
	}
	free(blocks);
}

/* Halo cells sent between blocks of different ranks, per exchange. */
static long long rank_cut(const fv_block_t *blocks, int nb, const int *rank_of)
{
	long long cut = 0;
	for (int b = 0; b < nb; b++)
		for (int k = 0; k < blocks[b].n_nbr; k++)
			if (rank_of[blocks[b].nbr[k]] != rank_of[b])
				cut += blocks[b].send_off[k + 1] - blocks[b].send_off[k];
	return cut;
}

fv_err_t fv_blocks_to_ranks(const fv_block_t *blocks, int nb, int n_ranks, int *rank_of, long long *cut,
			    int *grown)
{
	int *grow = NULL;
	long long *gain = NULL;
	FV_CHECK(n_ranks >= 1 && nb >= n_ranks, FV_ERR_ARG, "%d blocks for %d ranks", nb, n_ranks);
	/* contiguous ranges: rank r owns blocks r nb / R .. (r + 1) nb / R - 1 */
	for (int r = 0; r < n_ranks; r++)
		for (int b = (int)((long long)r * nb / n_ranks); b < (int)((long long)(r + 1) * nb / n_ranks); b++)
			rank_of[b] = r;
	*cut = rank_cut(blocks, nb, rank_of);
	*grown = 0;
	if (n_ranks == 1)
		return FV_OK;
	FV_CALL(fv_malloc(&grow, (size_t)nb, sizeof *grow, "block ranks"));
	if (fv_calloc(&gain, (size_t)nb, sizeof *gain, "block ranks") != FV_OK) {
		free(grow);
		return FV_ERR_MEM;
	}
	/* groups of the same sizes grown through the block graph: each rank
	 * takes, one at a time, the unassigned block with the most halo cells
	 * shared with its group (ties: the most shared with earlier groups,
	 * then the lowest id), starting from the front the earlier groups left */
	for (int b = 0; b < nb; b++)
		grow[b] = -1;
	for (int r = 0; r < n_ranks; r++) {
		int size = (int)((long long)(r + 1) * nb / n_ranks) - (int)((long long)r * nb / n_ranks);
		long long *own = NULL;
		if (fv_calloc(&own, (size_t)nb, sizeof *own, "block ranks") != FV_OK) {
			free(grow);
			free(gain);
			return FV_ERR_MEM;
		}
		for (int n = 0; n < size; n++) {
			int best = -1;
			for (int b = 0; b < nb; b++)
				if (grow[b] < 0 && (best < 0 || own[b] > own[best] || (own[b] == own[best] && gain[b] > gain[best])))
					best = b;
			grow[best] = r;
			for (int k = 0; k < blocks[best].n_nbr; k++) {
				int m = blocks[best].nbr[k];
				long long w = blocks[best].send_off[k + 1] - blocks[best].send_off[k];
				own[m] += w;
				gain[m] += w;
			}
		}
		free(own);
	}
	long long grown_cut = rank_cut(blocks, nb, grow);
	if (grown_cut < *cut) {
		memcpy(rank_of, grow, (size_t)nb * sizeof *rank_of);
		*cut = grown_cut;
		*grown = 1;
	}
	free(grow);
	free(gain);
	return FV_OK;
}

fv_err_t fv_block_face_prefix(const fv_block_t *b, fv_idx_t *send, fv_idx_t *recv)
{
	int *run = NULL; /* the neighbour each ghost comes from */
	FV_CALL(fv_malloc(&run, (size_t)b->n_ghost + 1, sizeof *run, "ghost runs"));
	for (int k = 0; k < b->n_nbr; k++) {
		for (fv_idx_t g = b->recv_off[k]; g < b->recv_off[k + 1]; g++)
			run[g] = k;
		send[k] = recv[k] = 0;
	}
	/* a ghost in a face of the block shares it with an owned cell */
	for (fv_idx_t f = 0; f < b->n_faces; f++)
		for (int s = 0; s < 2; s++) {
			fv_idx_t c = b->face_cell[2 * (size_t)f + s];
			if (c >= b->n_owned) {
				int k = run[c - b->n_owned];
				fv_idx_t at = c - b->n_owned - b->recv_off[k] + 1;
				recv[k] = at > recv[k] ? at : recv[k];
			}
		}
	/* a sent cell with a face towards a ghost of neighbour k shares it
	 * with one of k's owned cells */
	for (int k = 0; k < b->n_nbr; k++)
		for (fv_idx_t i = b->send_off[k]; i < b->send_off[k + 1]; i++) {
			fv_idx_t c = b->send_cell[i];
			for (fv_idx_t j = b->cell_face_off[c]; j < b->cell_face_off[c + 1]; j++) {
				fv_idx_t f = b->cell_face[j], o = b->face_cell[2 * (size_t)f];
				fv_idx_t other = o == c ? b->face_cell[2 * (size_t)f + 1] : o;
				if (other >= b->n_owned && run[other - b->n_owned] == k)
					send[k] = i - b->send_off[k] + 1;
			}
		}
	free(run);
	return FV_OK;
}
