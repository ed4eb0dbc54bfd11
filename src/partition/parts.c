/* SPDX-License-Identifier: MIT */
/* Mesh parts (partition.h): one rank's blocks, owned cells and share of
 * the boundary elements, cut from the whole mesh, and their byte form
 * (sent by rank 0 to each rank, or one file per rank). */
#include "fvstar/partition.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/parse.h"
#include "util/threads.h"
#include "util/xxh64.h"

void fv_part_path(const char *dir, int rank, char *buf, size_t size)
{
	snprintf(buf, size, "%s/part.%d.bin", dir, rank);
}

void fv_part_free(fv_part_t *p)
{
	if (!p)
		return;
	if (p->cell_file)
		for (int b = 0; b < p->n_blocks; b++)
			free(p->cell_file[b]);
	free(p->cell_file);
	fv_blocks_free(p->blocks, p->n_blocks);
	free(p->block_off);
	free(p->rank_of);
	fv_mesh_free(&p->piece);
	free(p->piece_cell);
	free(p->bel_type);
	free(p->bel_marker);
	free(p->bel_xyz);
	memset(p, 0, sizeof *p);
}

/* ------------------------------------------------------------ building */

typedef struct key {
	fv_idx_t orig, id;
} key_t;

static int key_cmp(const void *a, const void *b)
{
	const key_t *x = a, *y = b;
	return x->orig < y->orig ? -1 : x->orig > y->orig;
}

/* The rank's neighbour lists of another rank's block: what it registers
 * that block's halo buffers from. */
static fv_err_t skeleton(const fv_block_t *src, fv_block_t *dst)
{
	size_t k = (size_t)src->n_nbr;
	dst->id = src->id;
	dst->cell0 = src->cell0;
	dst->n_owned = src->n_owned;
	dst->n_ghost = src->n_ghost;
	dst->n_cells = src->n_cells;
	dst->n_nbr = src->n_nbr;
	FV_CALL(fv_malloc(&dst->nbr, k + 1, sizeof *dst->nbr, "neighbours"));
	FV_CALL(fv_malloc(&dst->recv_off, k + 1, sizeof *dst->recv_off, "halo offsets"));
	FV_CALL(fv_malloc(&dst->send_off, k + 1, sizeof *dst->send_off, "halo offsets"));
	memcpy(dst->nbr, src->nbr, k * sizeof *dst->nbr);
	memcpy(dst->recv_off, src->recv_off, (k + 1) * sizeof *dst->recv_off);
	memcpy(dst->send_off, src->send_off, (k + 1) * sizeof *dst->send_off);
	return FV_OK;
}

/* A malloc'ed copy of n elements of size bytes (one more allocated, so
 * that empty arrays are not NULL). */
static fv_err_t dup_arr(void *dst, const void *src, size_t n, size_t size, const char *what)
{
	void **out = dst;
	FV_CALL(fv_malloc(out, n + 1, size, what));
	if (n)
		memcpy(*out, src, n * size);
	return FV_OK;
}

#define DUP(dst, src, n, what) FV_CALL(dup_arr(&(dst), (src), (size_t)(n), sizeof *(dst), what))

static fv_err_t block_copy(const fv_block_t *s, int n_markers, fv_block_t *d)
{
	size_t nf = (size_t)s->n_faces, no = (size_t)s->n_owned, nc = (size_t)s->n_cells, nn = (size_t)s->n_nodes;
	FV_CALL(skeleton(s, d));
	d->n_faces = s->n_faces;
	d->n_bfaces = s->n_bfaces;
	d->n_nodes = s->n_nodes;
	DUP(d->cell_global, s->cell_global, nc, "cell ids");
	DUP(d->face_global, s->face_global, nf, "face ids");
	DUP(d->face_cell, s->face_cell, 2 * nf, "face cells");
	DUP(d->face_marker, s->face_marker, s->n_bfaces, "face markers");
	DUP(d->marker_face_off, s->marker_face_off, n_markers + 1, "marker faces");
	DUP(d->face_node_off, s->face_node_off, nf + 1, "face nodes");
	DUP(d->face_node, s->face_node, s->face_node_off[nf], "face nodes");
	DUP(d->face_area, s->face_area, 3 * nf, "face areas");
	DUP(d->face_ctr, s->face_ctr, 3 * nf, "face centres");
	DUP(d->cell_face_off, s->cell_face_off, no + 1, "cell faces");
	DUP(d->cell_face, s->cell_face, s->cell_face_off[no], "cell faces");
	DUP(d->cell_face_sign, s->cell_face_sign, s->cell_face_off[no], "cell faces");
	DUP(d->cell_vol, s->cell_vol, nc, "cell volumes");
	DUP(d->cell_ctr, s->cell_ctr, 3 * nc, "cell centres");
	DUP(d->node_global, s->node_global, nn, "node ids");
	DUP(d->node_cell_off, s->node_cell_off, nn + 1, "node cells");
	DUP(d->node_cell, s->node_cell, s->node_cell_off[nn], "node cells");
	DUP(d->send_cell, s->send_cell, s->send_off[s->n_nbr], "halo cells");
	return FV_OK;
}

/* Threads writing a list in order: each counts its contiguous part of
 * [0, n) (cnt[t + 1]), then writes after the parts before it (cnt[t]).
 * cnt: [threads + 1]; within a parallel region of nt threads. */
static void scan_parts(size_t *cnt, int nt)
{
	FV_OMP(barrier)
	FV_OMP(single)
	{
		cnt[0] = 0;
		for (int i = 0; i < nt; i++)
			cnt[i + 1] += cnt[i];
	}
}

/* k[0..n) sorted by orig: file positions are distinct and below n_all,
 * so one pass over a map of n_all places them in O(n_all) (the threads
 * scatter, the map's order is the answer); qsort where they are not. */
static fv_err_t sort_by_orig(key_t *k, size_t n, size_t n_all)
{
	fv_idx_t *at;
	size_t *cnt;
	int ok = 1, nt = fv_threads_max();
	if (n < 2 || fv_malloc(&at, n_all + 1, sizeof *at, "file positions") != FV_OK) {
		qsort(k, n, sizeof *k, key_cmp);
		return FV_OK;
	}
	if (fv_calloc(&cnt, (size_t)nt + 1, sizeof *cnt, "thread counts") != FV_OK) {
		free(at);
		qsort(k, n, sizeof *k, key_cmp);
		return FV_OK;
	}
	FV_OMP(parallel for schedule(static) if (n_all > FV_PAR_MIN))
	for (size_t i = 0; i < n_all; i++)
		at[i] = -1;
	/* a position twice or out of range: qsort, which keeps both */
	FV_OMP(parallel for schedule(static) reduction(&& : ok) if (n > FV_PAR_MIN))
	for (size_t i = 0; i < n; i++) {
		fv_idx_t o = k[i].orig, none = -1;
		ok = ok && o >= 0 && (size_t)o < n_all &&
		     __atomic_compare_exchange_n(&at[o], &none, k[i].id, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
	if (ok)
		FV_OMP(parallel num_threads(nt) if (n_all > FV_PAR_MIN))
		{
			int t = fv_thread_num(), nth = fv_threads_now();
			size_t lo, hi, c = 0;
			fv_par_range(n_all, t, nth, &lo, &hi);
			for (size_t o = lo; o < hi; o++)
				c += at[o] >= 0;
			cnt[t + 1] = c;
			scan_parts(cnt, nth);
			c = cnt[t];
			for (size_t o = lo; o < hi; o++)
				if (at[o] >= 0) {
					k[c].orig = (fv_idx_t)o;
					k[c++].id = at[o];
				}
		}
	free(at);
	free(cnt);
	if (!ok)
		qsort(k, n, sizeof *k, key_cmp);
	return FV_OK;
}

/* The owned cells of the rank as a mesh in the file's order, by all
 * threads (the whole mesh where one rank runs: 10^8 cells). */
static fv_err_t build_piece(const fv_mesh_t *m, const fv_part_t *p, fv_mesh_t *pc, fv_idx_t **piece_cell)
{
	size_t n = 0, nn = 0, N = (size_t)m->n_cells, NN = (size_t)m->n_nodes, *cnt = NULL;
	key_t *ck = NULL, *nk = NULL;
	fv_idx_t *node_map = NULL;
	int nt = fv_threads_max();
	fv_err_t err = FV_OK;
	for (int b = 0; b < p->n_blocks; b++)
		if (p->rank_of[b] == p->rank)
			n += (size_t)(p->block_off[b + 1] - p->block_off[b]);
	FV_CALL_GOTO(err, out, fv_malloc(&ck, n + 1, sizeof *ck, "piece cells"));
	FV_CALL_GOTO(err, out, fv_malloc(&node_map, NN + 1, sizeof *node_map, "piece nodes"));
	FV_CALL_GOTO(err, out, fv_calloc(&cnt, (size_t)nt + 1, sizeof *cnt, "thread counts"));
	n = 0;
	for (int b = 0; b < p->n_blocks; b++) {
		fv_idx_t c0 = p->block_off[b], nb = p->block_off[b + 1] - c0;
		if (p->rank_of[b] != p->rank)
			continue;
		FV_OMP(parallel for schedule(static) if (nb > FV_PAR_MIN))
		for (fv_idx_t i = 0; i < nb; i++) {
			ck[n + (size_t)i].orig = fv_mesh_cell_orig(m, c0 + i);
			ck[n + (size_t)i].id = c0 + i;
		}
		n += (size_t)nb;
	}
	FV_CALL_GOTO(err, out, sort_by_orig(ck, n, N));
	FV_OMP(parallel for schedule(static) if (NN > FV_PAR_MIN))
	for (size_t v = 0; v < NN; v++)
		node_map[v] = -1;
	/* the piece's nodes marked (every writer writes 0) */
	FV_OMP(parallel for schedule(static) if (n > FV_PAR_MIN))
	for (size_t i = 0; i < n; i++)
		for (fv_idx_t a = m->cell_node_off[ck[i].id]; a < m->cell_node_off[ck[i].id + 1]; a++)
			__atomic_store_n(&node_map[m->cell_node[a]], 0, __ATOMIC_RELAXED);
	FV_OMP(parallel for schedule(static) reduction(+ : nn) if (NN > FV_PAR_MIN))
	for (size_t v = 0; v < NN; v++)
		nn += node_map[v] == 0;
	FV_CALL_GOTO(err, out, fv_malloc(&nk, nn + 1, sizeof *nk, "piece nodes"));
	FV_OMP(parallel num_threads(nt) if (NN > FV_PAR_MIN))
	{
		int t = fv_thread_num(), nth = fv_threads_now();
		size_t lo, hi, j = 0;
		fv_par_range(NN, t, nth, &lo, &hi);
		for (size_t v = lo; v < hi; v++)
			j += node_map[v] == 0;
		cnt[t + 1] = j;
		scan_parts(cnt, nth);
		j = cnt[t];
		for (size_t v = lo; v < hi; v++)
			if (node_map[v] == 0) {
				nk[j].orig = fv_mesh_node_orig(m, (fv_idx_t)v);
				nk[j++].id = (fv_idx_t)v;
			}
	}
	FV_CALL_GOTO(err, out, sort_by_orig(nk, nn, NN));
	FV_OMP(parallel for schedule(static) if (nn > FV_PAR_MIN))
	for (size_t i = 0; i < nn; i++)
		node_map[nk[i].id] = (fv_idx_t)i;

	size_t conn = 0;
	FV_OMP(parallel for schedule(static) reduction(+ : conn) if (n > FV_PAR_MIN))
	for (size_t i = 0; i < n; i++)
		conn += (size_t)(m->cell_node_off[ck[i].id + 1] - m->cell_node_off[ck[i].id]);
	FV_CALL_GOTO(err, out, fv_mesh_alloc(pc, nn, n, conn, 0, 0));
	snprintf(pc->source, sizeof pc->source, "%s", m->source);
	pc->refine_levels = m->refine_levels;
	pc->extruded_2d = m->extruded_2d;
	pc->extrude_span = m->extrude_span;
	pc->extrude_marker[0] = m->extrude_marker[0];
	pc->extrude_marker[1] = m->extrude_marker[1];
	for (int k = 0; k < m->n_markers; k++) {
		int idx;
		FV_CALL_GOTO(err, out, fv_mesh_marker(pc, m->markers[k].name, &idx));
	}
	FV_CALL_GOTO(err, out, fv_malloc(piece_cell, n + 1, sizeof **piece_cell, "piece cells"));
	FV_CALL_GOTO(err, out, fv_malloc(&pc->cell_orig, n + 1, sizeof *pc->cell_orig, "piece cells"));
	FV_CALL_GOTO(err, out, fv_malloc(&pc->node_orig, nn + 1, sizeof *pc->node_orig, "piece nodes"));
	FV_CALL_GOTO(err, out, fv_malloc(&pc->cell_ctr, 3 * n + 1, sizeof *pc->cell_ctr, "piece centres"));
	if (m->cell_tag)
		FV_CALL_GOTO(err, out, fv_malloc(&pc->cell_tag, n + 1, sizeof *pc->cell_tag, "piece cells"));
	if (m->node_tag)
		FV_CALL_GOTO(err, out, fv_malloc(&pc->node_tag, nn + 1, sizeof *pc->node_tag, "piece nodes"));
	pc->cell_node_off[0] = 0;
	for (size_t i = 0; i < n; i++)
		pc->cell_node_off[i + 1] = pc->cell_node_off[i] + m->cell_node_off[ck[i].id + 1] - m->cell_node_off[ck[i].id];
	FV_OMP(parallel for schedule(static) if (n > FV_PAR_MIN))
	for (size_t i = 0; i < n; i++) {
		fv_idx_t c = ck[i].id, k = pc->cell_node_off[i];
		(*piece_cell)[i] = c;
		pc->cell_type[i] = m->cell_type[c];
		pc->cell_orig[i] = ck[i].orig;
		if (m->cell_tag)
			pc->cell_tag[i] = m->cell_tag[c];
		for (int d = 0; d < 3; d++)
			pc->cell_ctr[(size_t)d * n + i] = m->cell_ctr[(size_t)d * N + (size_t)c];
		for (fv_idx_t a = m->cell_node_off[c]; a < m->cell_node_off[c + 1]; a++)
			pc->cell_node[k++] = node_map[m->cell_node[a]];
	}
	FV_OMP(parallel for schedule(static) if (nn > FV_PAR_MIN))
	for (size_t i = 0; i < nn; i++) {
		fv_idx_t v = nk[i].id;
		memcpy(pc->xyz + 3 * i, m->xyz + 3 * (size_t)v, 3 * sizeof *pc->xyz);
		pc->node_orig[i] = nk[i].orig;
		if (m->node_tag)
			pc->node_tag[i] = m->node_tag[v];
	}
	/* the whole mesh in file order (one rank): positions are the identity */
	{
		int id_c = n == N, id_n = nn == NN;
		FV_OMP(parallel for schedule(static) reduction(&& : id_c) if (n > FV_PAR_MIN))
		for (size_t i = 0; i < n; i++)
			id_c = id_c && pc->cell_orig[i] == (fv_idx_t)i;
		FV_OMP(parallel for schedule(static) reduction(&& : id_n) if (nn > FV_PAR_MIN))
		for (size_t i = 0; i < nn; i++)
			id_n = id_n && pc->node_orig[i] == (fv_idx_t)i;
		if (id_c && id_n) {
			FV_FREE(pc->cell_orig);
			FV_FREE(pc->node_orig);
		}
	}
out:
	free(ck);
	free(nk);
	free(node_map);
	free(cnt);
	return err;
}

fv_err_t fv_part_build(const fv_mesh_t *m, fv_block_t *blocks, const fv_idx_t *block_off, int n_blocks,
		       const int *rank_of, int n_ranks, int rank, const fv_partition_stats_t *ps,
		       const fv_order_stats_t *os, fv_part_t *p, int take)
{
	fv_err_t err = FV_OK;
	FV_CHECK(n_ranks >= 1 && rank >= 0 && rank < n_ranks && n_blocks >= n_ranks, FV_ERR_ARG,
		 "part %d of %d ranks with %d blocks", rank, n_ranks, n_blocks);
	memset(p, 0, sizeof *p);
	fv_mesh_init(&p->piece);
	p->rank = rank;
	p->n_ranks = n_ranks;
	p->n_blocks = n_blocks;
	FV_CALL_GOTO(err, fail, fv_mesh_identity(m, &p->mesh_id));
	p->n_cells = m->n_cells;
	p->n_faces = m->n_faces;
	p->n_nodes = m->n_nodes;
	p->n_bfaces = m->n_bfaces;
	p->n_belems = m->n_belems;
	if (ps)
		p->ps = *ps;
	if (os)
		p->os = *os;
	FV_CALL_GOTO(err, fail, dup_arr(&p->block_off, block_off, (size_t)n_blocks + 1, sizeof *block_off, "block offsets"));
	FV_CALL_GOTO(err, fail, dup_arr(&p->rank_of, rank_of, (size_t)n_blocks, sizeof *rank_of, "block ranks"));
	FV_CALL_GOTO(err, fail, fv_calloc(&p->blocks, (size_t)n_blocks, sizeof *p->blocks, "blocks"));
	FV_CALL_GOTO(err, fail, fv_calloc(&p->cell_file, (size_t)n_blocks, sizeof *p->cell_file, "cell positions"));
	for (int b = 0; b < n_blocks; b++) {
		fv_block_t *s = &blocks[b], *d = &p->blocks[b];
		p->halo += s->send_off[s->n_nbr];
		for (int k = 0; k < s->n_nbr; k++)
			if (rank_of[s->nbr[k]] != rank_of[b])
				p->cut += s->send_off[k + 1] - s->send_off[k];
		if (rank_of[b] != rank) {
			FV_CALL_GOTO(err, fail, skeleton(s, d));
			continue;
		}
		if (take) {
			/* the arrays change hands; the skeleton that other parts
			 * would copy is not needed any more */
			*d = *s;
			memset(s, 0, sizeof *s);
			s->id = d->id;
		} else {
			FV_CALL_GOTO(err, fail, block_copy(s, m->n_markers, d));
		}
		FV_CALL_GOTO(err, fail, fv_malloc(&p->cell_file[b], (size_t)d->n_cells + 1, sizeof **p->cell_file,
						  "cell positions"));
		FV_OMP(parallel for schedule(static) if (d->n_cells > FV_PAR_MIN))
		for (fv_idx_t i = 0; i < d->n_cells; i++)
			p->cell_file[b][i] = fv_mesh_cell_orig(m, d->cell_global[i]);
	}
	FV_CALL_GOTO(err, fail, build_piece(m, p, &p->piece, &p->piece_cell));
	/* a contiguous share of the boundary elements, as read */
	p->bel0 = (fv_idx_t)((int64_t)rank * m->n_belems / n_ranks);
	p->n_bel = (fv_idx_t)((int64_t)(rank + 1) * m->n_belems / n_ranks) - p->bel0;
	FV_CALL_GOTO(err, fail, fv_malloc(&p->bel_type, (size_t)p->n_bel + 1, 1, "boundary elements"));
	FV_CALL_GOTO(err, fail, fv_malloc(&p->bel_marker, (size_t)p->n_bel + 1, sizeof *p->bel_marker, "boundary elements"));
	FV_CALL_GOTO(err, fail, fv_calloc(&p->bel_xyz, 12 * (size_t)p->n_bel + 1, sizeof *p->bel_xyz, "boundary elements"));
	for (fv_idx_t i = 0; i < p->n_bel; i++) {
		fv_idx_t e = p->bel0 + i, a0 = m->belem_node_off[e];
		p->bel_type[i] = m->belem_type[e];
		p->bel_marker[i] = m->belem_marker[e];
		for (fv_idx_t a = a0; a < m->belem_node_off[e + 1] && a - a0 < 4; a++)
			memcpy(p->bel_xyz + 12 * (size_t)i + 3 * (size_t)(a - a0), m->xyz + 3 * (size_t)m->belem_node[a],
			       3 * sizeof(double));
	}
	p->grown = 0;
	return FV_OK;
fail:
	fv_part_free(p);
	return err;
}

/* ------------------------------------------------------------ bytes */

typedef struct wbuf {
	uint8_t *p;
	size_t n, cap;
	fv_err_t err;
} wbuf_t;

static void put(wbuf_t *w, const void *src, size_t n)
{
	if (w->err != FV_OK)
		return;
	if (w->n + n > w->cap) {
		size_t cap = w->cap ? w->cap : 1 << 16;
		while (cap < w->n + n)
			cap *= 2;
		uint8_t *q = realloc(w->p, cap);
		if (!q) {
			w->err = FV_ERROR(FV_ERR_MEM, "mesh part: out of memory for %zu bytes", cap);
			return;
		}
		w->p = q;
		w->cap = cap;
	}
	if (n)
		memcpy(w->p + w->n, src, n);
	w->n += n;
}

static void put_i64(wbuf_t *w, int64_t v)
{
	put(w, &v, sizeof v);
}

/* An array: its element count, then the elements. */
static void put_arr(wbuf_t *w, const void *a, size_t count, size_t size)
{
	put_i64(w, (int64_t)count);
	put(w, a, count * size);
}

typedef struct rbuf {
	const uint8_t *p;
	size_t n, at;
	const char *name;
	fv_err_t err;
} rbuf_t;

static void get(rbuf_t *r, void *dst, size_t n)
{
	if (r->err != FV_OK)
		return;
	if (n > r->n - r->at) {
		r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part truncated (%zu bytes, more expected at byte %zu)",
				  r->name, r->n, r->at);
		return;
	}
	memcpy(dst, r->p + r->at, n);
	r->at += n;
}

static int64_t get_i64(rbuf_t *r)
{
	int64_t v = 0;
	get(r, &v, sizeof v);
	return v;
}

/* An array of exactly `count` elements (the count the sizes before it
 * imply), malloc'ed into *dst. */
static void get_arr(rbuf_t *r, void *dst, size_t count, size_t size, const char *what)
{
	int64_t n = get_i64(r);
	void **out = dst;
	*out = NULL;
	if (r->err != FV_OK)
		return;
	if (n != (int64_t)count) {
		r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: %s has %lld entries, its sizes say %zu", r->name, what,
				  (long long)n, count);
		return;
	}
	if (count > (r->n - r->at) / (size ? size : 1)) {
		r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part truncated in %s (%zu entries of %zu bytes)", r->name,
				  what, count, size);
		return;
	}
	if ((r->err = fv_malloc_large(out, count + 1, size, what)) != FV_OK)
		return;
	get(r, *out, count * size);
}

static void put_block(wbuf_t *w, const fv_block_t *b, int n_markers, int full)
{
	size_t nf = (size_t)b->n_faces, no = (size_t)b->n_owned, nc = (size_t)b->n_cells, nn = (size_t)b->n_nodes;
	int64_t head[8] = {b->id, b->cell0, b->n_owned, b->n_ghost, b->n_cells, b->n_nbr, full ? b->n_faces : 0,
			   full ? b->n_nodes : 0};
	put(w, head, sizeof head);
	put_i64(w, full ? b->n_bfaces : 0);
	put_arr(w, b->nbr, (size_t)b->n_nbr, sizeof *b->nbr);
	put_arr(w, b->recv_off, (size_t)b->n_nbr + 1, sizeof *b->recv_off);
	put_arr(w, b->send_off, (size_t)b->n_nbr + 1, sizeof *b->send_off);
	if (!full)
		return;
	put_arr(w, b->cell_global, nc, sizeof *b->cell_global);
	put_arr(w, b->face_global, nf, sizeof *b->face_global);
	put_arr(w, b->face_cell, 2 * nf, sizeof *b->face_cell);
	put_arr(w, b->face_marker, (size_t)b->n_bfaces, sizeof *b->face_marker);
	put_arr(w, b->marker_face_off, (size_t)n_markers + 1, sizeof *b->marker_face_off);
	put_arr(w, b->face_node_off, nf + 1, sizeof *b->face_node_off);
	put_arr(w, b->face_node, (size_t)b->face_node_off[nf], sizeof *b->face_node);
	put_arr(w, b->face_area, 3 * nf, sizeof *b->face_area);
	put_arr(w, b->face_ctr, 3 * nf, sizeof *b->face_ctr);
	put_arr(w, b->cell_face_off, no + 1, sizeof *b->cell_face_off);
	put_arr(w, b->cell_face, (size_t)b->cell_face_off[no], sizeof *b->cell_face);
	put_arr(w, b->cell_face_sign, (size_t)b->cell_face_off[no], sizeof *b->cell_face_sign);
	put_arr(w, b->cell_vol, nc, sizeof *b->cell_vol);
	put_arr(w, b->cell_ctr, 3 * nc, sizeof *b->cell_ctr);
	put_arr(w, b->node_global, nn, sizeof *b->node_global);
	put_arr(w, b->node_cell_off, nn + 1, sizeof *b->node_cell_off);
	put_arr(w, b->node_cell, (size_t)b->node_cell_off[nn], sizeof *b->node_cell);
	put_arr(w, b->send_cell, (size_t)b->send_off[b->n_nbr], sizeof *b->send_cell);
}

/* A count read from the bytes, before it sizes anything. */
static int64_t get_count(rbuf_t *r, int64_t v, int64_t max, const char *what)
{
	if (r->err == FV_OK && (v < 0 || v > max))
		r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: %s = %lld is out of range [0, %lld]", r->name, what,
				  (long long)v, (long long)max);
	return r->err == FV_OK ? v : 0;
}

/* The last entry of an offset array, checked to size the array after it. */
static size_t last_off(rbuf_t *r, const fv_idx_t *off, size_t n, const char *what)
{
	if (r->err != FV_OK)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (off[i + 1] < off[i] || off[0] != 0) {
			r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: %s offsets are not increasing from 0", r->name,
					  what);
			return 0;
		}
	return (size_t)off[n];
}

static void get_block(rbuf_t *r, fv_block_t *b, int n_markers, int full, int n_blocks)
{
	int64_t head[8] = {0}, nbf;
	get(r, head, sizeof head);
	nbf = get_i64(r);
	b->id = (int)get_count(r, head[0], n_blocks - 1, "block id");
	b->cell0 = (fv_idx_t)get_count(r, head[1], FV_IDX_MAX, "first cell");
	b->n_owned = (fv_idx_t)get_count(r, head[2], FV_IDX_MAX, "owned cells");
	b->n_ghost = (fv_idx_t)get_count(r, head[3], FV_IDX_MAX, "ghost cells");
	b->n_cells = (fv_idx_t)get_count(r, head[4], FV_IDX_MAX, "cells");
	b->n_nbr = (int)get_count(r, head[5], n_blocks, "neighbours");
	b->n_faces = (fv_idx_t)get_count(r, head[6], FV_IDX_MAX, "faces");
	b->n_nodes = (fv_idx_t)get_count(r, head[7], FV_IDX_MAX, "nodes");
	b->n_bfaces = (fv_idx_t)get_count(r, nbf, b->n_faces, "boundary faces");
	if (r->err == FV_OK && (int64_t)b->n_cells != (int64_t)b->n_owned + b->n_ghost)
		r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: block %d has %d cells, not %d + %d", r->name, b->id,
				  (int)b->n_cells, (int)b->n_owned, (int)b->n_ghost);
	size_t nf = (size_t)b->n_faces, no = (size_t)b->n_owned, nc = (size_t)b->n_cells, nn = (size_t)b->n_nodes;
	size_t k = (size_t)b->n_nbr;
	get_arr(r, &b->nbr, k, sizeof *b->nbr, "neighbours");
	get_arr(r, &b->recv_off, k + 1, sizeof *b->recv_off, "halo offsets");
	get_arr(r, &b->send_off, k + 1, sizeof *b->send_off, "halo offsets");
	for (size_t i = 0; r->err == FV_OK && i < k; i++)
		if (b->nbr[i] < 0 || b->nbr[i] >= n_blocks)
			r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: block %d has neighbour %d of %d blocks", r->name,
					  b->id, b->nbr[i], n_blocks);
	size_t ns = last_off(r, b->send_off, k, "halo send");
	(void)last_off(r, b->recv_off, k, "halo receive");
	if (!full || r->err != FV_OK)
		return;
	get_arr(r, &b->cell_global, nc, sizeof *b->cell_global, "cell ids");
	get_arr(r, &b->face_global, nf, sizeof *b->face_global, "face ids");
	get_arr(r, &b->face_cell, 2 * nf, sizeof *b->face_cell, "face cells");
	get_arr(r, &b->face_marker, (size_t)b->n_bfaces, sizeof *b->face_marker, "face markers");
	get_arr(r, &b->marker_face_off, (size_t)n_markers + 1, sizeof *b->marker_face_off, "marker faces");
	get_arr(r, &b->face_node_off, nf + 1, sizeof *b->face_node_off, "face nodes");
	get_arr(r, &b->face_node, last_off(r, b->face_node_off, nf, "face node"), sizeof *b->face_node, "face nodes");
	get_arr(r, &b->face_area, 3 * nf, sizeof *b->face_area, "face areas");
	get_arr(r, &b->face_ctr, 3 * nf, sizeof *b->face_ctr, "face centres");
	get_arr(r, &b->cell_face_off, no + 1, sizeof *b->cell_face_off, "cell faces");
	size_t ncf = last_off(r, b->cell_face_off, no, "cell face");
	get_arr(r, &b->cell_face, ncf, sizeof *b->cell_face, "cell faces");
	get_arr(r, &b->cell_face_sign, ncf, sizeof *b->cell_face_sign, "cell face signs");
	get_arr(r, &b->cell_vol, nc, sizeof *b->cell_vol, "cell volumes");
	get_arr(r, &b->cell_ctr, 3 * nc, sizeof *b->cell_ctr, "cell centres");
	get_arr(r, &b->node_global, nn, sizeof *b->node_global, "node ids");
	get_arr(r, &b->node_cell_off, nn + 1, sizeof *b->node_cell_off, "node cells");
	get_arr(r, &b->node_cell, last_off(r, b->node_cell_off, nn, "node cell"), sizeof *b->node_cell, "node cells");
	get_arr(r, &b->send_cell, ns, sizeof *b->send_cell, "halo cells");
	/* local indices inside the block: what the solver indexes with */
	for (size_t i = 0; r->err == FV_OK && i < 2 * nf; i++)
		if (b->face_cell[i] < (i % 2 ? -1 : 0) || b->face_cell[i] >= b->n_cells)
			r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: block %d: face %zu has cell %d of %d", r->name,
					  b->id, i / 2, (int)b->face_cell[i], (int)b->n_cells);
	for (size_t i = 0; r->err == FV_OK && i < ns; i++)
		if (b->send_cell[i] < 0 || b->send_cell[i] >= b->n_owned)
			r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: block %d sends cell %d of %d", r->name, b->id,
					  (int)b->send_cell[i], (int)b->n_owned);
	for (size_t i = 0; r->err == FV_OK && i < (size_t)b->face_node_off[nf]; i++)
		if (b->face_node[i] < 0 || b->face_node[i] >= b->n_nodes)
			r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: block %d: a face has node %d of %d", r->name,
					  b->id, (int)b->face_node[i], (int)b->n_nodes);
	for (size_t i = 0; r->err == FV_OK && i < ncf; i++)
		if (b->cell_face[i] < 0 || b->cell_face[i] >= b->n_faces)
			r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: block %d: a cell has face %d of %d", r->name,
					  b->id, (int)b->cell_face[i], (int)b->n_faces);
	for (size_t i = 0; r->err == FV_OK && i < (size_t)b->node_cell_off[nn]; i++)
		if (b->node_cell[i] < 0 || b->node_cell[i] >= b->n_cells)
			r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: block %d: a node has cell %d of %d", r->name,
					  b->id, (int)b->node_cell[i], (int)b->n_cells);
	for (size_t i = 0; r->err == FV_OK && i < (size_t)b->n_bfaces; i++)
		if (b->face_marker[i] < 0 || b->face_marker[i] >= n_markers)
			r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: block %d: a face has marker %d of %d", r->name,
					  b->id, (int)b->face_marker[i], n_markers);
	(void)last_off(r, b->marker_face_off, (size_t)n_markers, "marker face");
	if (r->err == FV_OK && b->marker_face_off[n_markers] != b->n_bfaces)
		r->err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: block %d: markers hold %d of its %d boundary faces",
				  r->name, b->id, (int)b->marker_face_off[n_markers], (int)b->n_bfaces);
}

fv_err_t fv_part_pack(const fv_part_t *p, uint8_t **buf, size_t *bytes)
{
	wbuf_t w = {0};
	const fv_mesh_t *pc = &p->piece;
	size_t n = (size_t)pc->n_cells, nn = (size_t)pc->n_nodes;
	uint32_t ver = FV_PART_VERSION, one = 1;
	int64_t head[16] = {p->rank, p->n_ranks, p->n_blocks, p->n_cells, p->n_faces, p->n_nodes,
			    p->n_bfaces, p->n_belems, pc->n_markers, (int64_t)n, (int64_t)nn, p->bel0, p->n_bel,
			    pc->refine_levels, pc->extruded_2d, sizeof(fv_real_t)};
	int64_t flags = (pc->cell_orig ? 1 : 0) | (pc->node_orig ? 2 : 0) | (pc->cell_tag ? 4 : 0) |
			(pc->node_tag ? 8 : 0);
	int64_t stats[11] = {p->ps.n_blocks, p->ps.edge_cut, p->ps.min_cells, p->ps.max_cells,
			     p->os.bandwidth_before, p->os.bandwidth_after, p->cut, p->halo, p->grown,
			     pc->extrude_marker[0], pc->extrude_marker[1]};
	double reals[4] = {p->ps.imbalance, p->os.mean_jump_before, p->os.mean_jump_after, pc->extrude_span};
	int64_t id[3] = {p->mesh_id.n_cells, p->mesh_id.n_nodes, (int64_t)p->mesh_id.hash};
	uint64_t h;
	*buf = NULL;
	*bytes = 0;
	put(&w, FV_PART_MAGIC, 8);
	put(&w, &ver, 4);
	put(&w, &one, 4); /* the byte order: 1 as the writer stores it */
	put(&w, head, sizeof head);
	put_i64(&w, flags);
	put(&w, stats, sizeof stats);
	put(&w, reals, sizeof reals);
	put(&w, id, sizeof id);
	put(&w, pc->source, sizeof pc->source);
	put(&w, pc->markers, (size_t)pc->n_markers * sizeof *pc->markers);
	put_arr(&w, p->block_off, (size_t)p->n_blocks + 1, sizeof *p->block_off);
	put_arr(&w, p->rank_of, (size_t)p->n_blocks, sizeof *p->rank_of);
	for (int b = 0; b < p->n_blocks; b++) {
		int full = p->rank_of[b] == p->rank;
		put_block(&w, &p->blocks[b], pc->n_markers, full);
		if (full)
			put_arr(&w, p->cell_file[b], (size_t)p->blocks[b].n_cells, sizeof **p->cell_file);
	}
	put_arr(&w, pc->cell_type, n, 1);
	put_arr(&w, pc->cell_node_off, n + 1, sizeof *pc->cell_node_off);
	put_arr(&w, pc->cell_node, (size_t)pc->cell_node_off[n], sizeof *pc->cell_node);
	put_arr(&w, pc->xyz, 3 * nn, sizeof *pc->xyz);
	put_arr(&w, pc->cell_ctr, 3 * n, sizeof *pc->cell_ctr);
	put_arr(&w, p->piece_cell, n, sizeof *p->piece_cell);
	if (flags & 1)
		put_arr(&w, pc->cell_orig, n, sizeof *pc->cell_orig);
	if (flags & 2)
		put_arr(&w, pc->node_orig, nn, sizeof *pc->node_orig);
	if (flags & 4)
		put_arr(&w, pc->cell_tag, n, sizeof *pc->cell_tag);
	if (flags & 8)
		put_arr(&w, pc->node_tag, nn, sizeof *pc->node_tag);
	put_arr(&w, p->bel_type, (size_t)p->n_bel, 1);
	put_arr(&w, p->bel_marker, (size_t)p->n_bel, sizeof *p->bel_marker);
	put_arr(&w, p->bel_xyz, 12 * (size_t)p->n_bel, sizeof *p->bel_xyz);
	h = w.err == FV_OK ? fv_xxh64(w.p, w.n, 0) : 0;
	put(&w, &h, sizeof h);
	if (w.err != FV_OK) {
		free(w.p);
		return w.err;
	}
	*buf = w.p;
	*bytes = w.n;
	return FV_OK;
}

fv_err_t fv_part_unpack(const uint8_t *buf, size_t bytes, const char *name, fv_part_t *p)
{
	rbuf_t r = {buf, bytes, 0, name, FV_OK};
	char magic[8];
	uint32_t ver = 0, one = 0;
	int64_t head[16], flags, stats[11], id[3];
	double reals[4];
	uint64_t h;
	fv_mesh_t *pc = &p->piece;
	memset(p, 0, sizeof *p);
	fv_mesh_init(pc);
	FV_CHECK(bytes >= 16 && memcmp(buf, FV_PART_MAGIC, 8) == 0, FV_ERR_FORMAT,
		 "%s: not an fvstar mesh part (no %s at its start; `fvstar mesh partition` writes them)", name,
		 FV_PART_MAGIC);
	get(&r, magic, 8);
	get(&r, &ver, 4);
	get(&r, &one, 4);
	FV_CHECK(one == 1, FV_ERR_FORMAT, "%s: mesh part written on a machine of the other byte order", name);
	FV_CHECK(ver == FV_PART_VERSION, FV_ERR_FORMAT, "%s: mesh part version %u, this fvstar reads version %d", name,
		 ver, FV_PART_VERSION);
	memcpy(&h, buf + bytes - 8, 8);
	FV_CHECK(bytes >= 24 && fv_xxh64(buf, bytes - 8, 0) == h, FV_ERR_FORMAT,
		 "%s: mesh part checksum mismatch (the file is damaged or incomplete)", name);
	r.n = bytes - 8;
	get(&r, head, sizeof head);
	flags = get_i64(&r);
	get(&r, stats, sizeof stats);
	get(&r, reals, sizeof reals);
	get(&r, id, sizeof id);
	FV_CALL_GOTO(r.err, fail, r.err);
	FV_CHECK_GOTO(r.err, fail, head[15] == (int64_t)sizeof(fv_real_t), FV_ERR_FORMAT,
		      "%s: mesh part of a %d-byte precision build; this fvstar computes in %s", name, (int)head[15],
		      FV_REAL_NAME);
	p->n_ranks = (int)get_count(&r, head[1], 1 << 24, "ranks");
	p->rank = (int)get_count(&r, head[0], p->n_ranks - 1, "rank");
	p->n_blocks = (int)get_count(&r, head[2], 1 << 24, "blocks");
	p->n_cells = get_count(&r, head[3], FV_IDX_MAX, "cells");
	p->n_faces = get_count(&r, head[4], FV_IDX_MAX, "faces");
	p->n_nodes = get_count(&r, head[5], FV_IDX_MAX, "nodes");
	p->n_bfaces = get_count(&r, head[6], p->n_faces, "boundary faces");
	p->n_belems = get_count(&r, head[7], FV_IDX_MAX, "boundary elements");
	int n_markers = (int)get_count(&r, head[8], 1 << 20, "markers");
	size_t n = (size_t)get_count(&r, head[9], p->n_cells, "piece cells");
	size_t nn = (size_t)get_count(&r, head[10], p->n_nodes, "piece nodes");
	p->bel0 = (fv_idx_t)get_count(&r, head[11], p->n_belems, "first boundary element");
	p->n_bel = (fv_idx_t)get_count(&r, head[12], p->n_belems - p->bel0, "boundary elements");
	pc->refine_levels = (int)head[13];
	pc->extruded_2d = (int)head[14];
	FV_CALL_GOTO(r.err, fail, r.err);
	FV_CHECK_GOTO(r.err, fail, p->n_blocks >= p->n_ranks, FV_ERR_FORMAT, "%s: mesh part: %d blocks for %d ranks",
		      name, p->n_blocks, p->n_ranks);
	p->ps.n_blocks = (int)stats[0];
	p->ps.edge_cut = stats[1];
	p->ps.min_cells = (fv_idx_t)stats[2];
	p->ps.max_cells = (fv_idx_t)stats[3];
	p->os.bandwidth_before = stats[4];
	p->os.bandwidth_after = stats[5];
	p->cut = stats[6];
	p->halo = stats[7];
	p->grown = (int)stats[8];
	for (int k = 0; k < 2; k++) {
		/* -1: none */
		FV_CHECK_GOTO(r.err, fail, stats[9 + k] >= -1 && stats[9 + k] < n_markers, FV_ERR_FORMAT,
			      "%s: mesh part: extrusion marker %lld of %d", name, (long long)stats[9 + k], n_markers);
		pc->extrude_marker[k] = (int)stats[9 + k];
	}
	p->ps.imbalance = reals[0];
	p->os.mean_jump_before = reals[1];
	p->os.mean_jump_after = reals[2];
	pc->extrude_span = reals[3];
	p->mesh_id.n_cells = id[0];
	p->mesh_id.n_nodes = id[1];
	p->mesh_id.hash = (uint64_t)id[2];
	get(&r, pc->source, sizeof pc->source);
	pc->source[sizeof pc->source - 1] = '\0';
	FV_CALL_GOTO(r.err, fail, fv_calloc(&pc->markers, (size_t)n_markers + 1, sizeof *pc->markers, "markers"));
	pc->n_markers = n_markers;
	get(&r, pc->markers, (size_t)n_markers * sizeof *pc->markers);
	for (int k = 0; k < n_markers; k++)
		pc->markers[k].name[FV_MARKER_NAME_MAX - 1] = '\0';
	get_arr(&r, &p->block_off, (size_t)p->n_blocks + 1, sizeof *p->block_off, "block offsets");
	get_arr(&r, &p->rank_of, (size_t)p->n_blocks, sizeof *p->rank_of, "block ranks");
	FV_CALL_GOTO(r.err, fail, r.err);
	for (int b = 0; b < p->n_blocks; b++)
		FV_CHECK_GOTO(r.err, fail, p->rank_of[b] >= 0 && p->rank_of[b] < p->n_ranks, FV_ERR_FORMAT,
			      "%s: mesh part: block %d on rank %d of %d", name, b, p->rank_of[b], p->n_ranks);
	FV_CALL_GOTO(r.err, fail, fv_calloc(&p->blocks, (size_t)p->n_blocks, sizeof *p->blocks, "blocks"));
	FV_CALL_GOTO(r.err, fail, fv_calloc(&p->cell_file, (size_t)p->n_blocks, sizeof *p->cell_file, "cell positions"));
	for (int b = 0; b < p->n_blocks && r.err == FV_OK; b++) {
		int full = p->rank_of[b] == p->rank;
		get_block(&r, &p->blocks[b], n_markers, full, p->n_blocks);
		if (r.err == FV_OK && p->blocks[b].id != b)
			r.err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: block %d is stored as %d", name, b,
					 p->blocks[b].id);
		if (full)
			get_arr(&r, &p->cell_file[b], (size_t)p->blocks[b].n_cells, sizeof **p->cell_file,
				"cell positions");
		for (fv_idx_t i = 0; full && r.err == FV_OK && i < p->blocks[b].n_cells; i++)
			if (p->cell_file[b][i] < 0 || p->cell_file[b][i] >= p->n_cells ||
			    p->blocks[b].cell_global[i] < 0 || p->blocks[b].cell_global[i] >= p->n_cells)
				r.err = FV_ERROR(FV_ERR_FORMAT, "%s: mesh part: block %d: cell %d out of the mesh's %lld",
						 name, b, (int)i, (long long)p->n_cells);
	}
	FV_CALL_GOTO(r.err, fail, r.err);
	pc->n_cells = (fv_idx_t)n;
	pc->n_nodes = (fv_idx_t)nn;
	get_arr(&r, &pc->cell_type, n, 1, "cell types");
	get_arr(&r, &pc->cell_node_off, n + 1, sizeof *pc->cell_node_off, "cell nodes");
	get_arr(&r, &pc->cell_node, last_off(&r, pc->cell_node_off, n, "cell node"), sizeof *pc->cell_node,
		"cell nodes");
	get_arr(&r, &pc->xyz, 3 * nn, sizeof *pc->xyz, "node coordinates");
	get_arr(&r, &pc->cell_ctr, 3 * n, sizeof *pc->cell_ctr, "cell centres");
	get_arr(&r, &p->piece_cell, n, sizeof *p->piece_cell, "piece cells");
	if (flags & 1)
		get_arr(&r, &pc->cell_orig, n, sizeof *pc->cell_orig, "cell positions");
	if (flags & 2)
		get_arr(&r, &pc->node_orig, nn, sizeof *pc->node_orig, "node positions");
	if (flags & 4)
		get_arr(&r, &pc->cell_tag, n, sizeof *pc->cell_tag, "cell numbers");
	if (flags & 8)
		get_arr(&r, &pc->node_tag, nn, sizeof *pc->node_tag, "node numbers");
	get_arr(&r, &p->bel_type, (size_t)p->n_bel, 1, "boundary element types");
	get_arr(&r, &p->bel_marker, (size_t)p->n_bel, sizeof *p->bel_marker, "boundary element markers");
	get_arr(&r, &p->bel_xyz, 12 * (size_t)p->n_bel, sizeof *p->bel_xyz, "boundary element nodes");
	FV_CALL_GOTO(r.err, fail, r.err);
	for (size_t i = 0; i < n; i++) {
		FV_CHECK_GOTO(r.err, fail, pc->cell_type[i] < FV_NCELLTYPES, FV_ERR_FORMAT,
			      "%s: mesh part: cell %zu has type %d", name, i, pc->cell_type[i]);
		FV_CHECK_GOTO(r.err, fail, p->piece_cell[i] >= 0 && p->piece_cell[i] < p->n_cells, FV_ERR_FORMAT,
			      "%s: mesh part: cell %zu is cell %d of %lld", name, i, (int)p->piece_cell[i],
			      (long long)p->n_cells);
	}
	for (size_t a = 0; a < (size_t)pc->cell_node_off[n]; a++)
		FV_CHECK_GOTO(r.err, fail, pc->cell_node[a] >= 0 && pc->cell_node[a] < (fv_idx_t)nn, FV_ERR_FORMAT,
			      "%s: mesh part: a cell has node %d of %zu", name, (int)pc->cell_node[a], nn);
	for (fv_idx_t i = 0; i < p->n_bel; i++)
		FV_CHECK_GOTO(r.err, fail, (p->bel_type[i] == FV_TRI || p->bel_type[i] == FV_QUAD) &&
						   p->bel_marker[i] >= 0 && p->bel_marker[i] < n_markers,
			      FV_ERR_FORMAT, "%s: mesh part: boundary element %d has type %d and marker %d", name,
			      (int)(p->bel0 + i), p->bel_type[i], (int)p->bel_marker[i]);
	FV_CHECK_GOTO(r.err, fail, r.at == r.n, FV_ERR_FORMAT, "%s: mesh part: %zu bytes after its end", name,
		      r.n - r.at);
	return FV_OK;
fail:
	fv_part_free(p);
	return r.err;
}

/* --------------------------------------------------------------- files */

fv_err_t fv_part_write(const char *path, const fv_part_t *p)
{
	uint8_t *buf = NULL;
	size_t n = 0, at = 0;
	char tmp[4096];
	int fd;
	fv_err_t err = FV_OK;
	FV_CHECK(strlen(path) + 5 < sizeof tmp, FV_ERR_ARG, "%s: path too long", path);
	FV_CALL(fv_part_pack(p, &buf, &n));
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		err = FV_ERROR(FV_ERR_IO, "%s: cannot write: %s", tmp, strerror(errno));
		goto out;
	}
	while (at < n) {
		ssize_t w = write(fd, buf + at, n - at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err = FV_ERROR(FV_ERR_IO, "%s: write failed: %s", tmp, w < 0 ? strerror(errno) : "no space");
			break;
		}
		at += (size_t)w;
	}
	if (err == FV_OK && fsync(fd) != 0)
		err = FV_ERROR(FV_ERR_IO, "%s: write failed: %s", tmp, strerror(errno));
	if (close(fd) != 0 && err == FV_OK)
		err = FV_ERROR(FV_ERR_IO, "%s: write failed: %s", tmp, strerror(errno));
	if (err == FV_OK && rename(tmp, path) != 0)
		err = FV_ERROR(FV_ERR_IO, "%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
	if (err != FV_OK)
		remove(tmp);
out:
	free(buf);
	return err;
}

fv_err_t fv_part_read(const char *path, fv_part_t *p)
{
	char *buf = NULL;
	size_t len = 0;
	fv_err_t err;
	const void *map;
	memset(p, 0, sizeof *p);
	/* a regular file only: a named pipe or a device is refused, not waited
	 * on; mapped, so no copy of it goes to fresh memory first */
	FV_CALL(fv_map_file(path, &map, &len));
	if (map) {
		err = fv_part_unpack(map, len, path, p);
		fv_unmap_file(map, len);
		return err;
	}
	FV_CALL(fv_read_file(path, &buf, &len));
	err = fv_part_unpack((const uint8_t *)buf, len, path, p);
	free(buf);
	return err;
}
