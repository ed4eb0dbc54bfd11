/* SPDX-License-Identifier: MIT */
/* The distributed set-up's checks: the part files of a partition directory,
 * each read by its own rank only, compared across ranks (one mesh, one
 * cut), and every rank's largest single allocation for summary.json (what
 * shows that no rank held an array over the whole mesh). */
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "fvstar/runtime.h"
#include "io/json.h"
#include "util/alloc.h"
#include "util/threads.h"
#include "util/xxh64.h"

/* XXH64 of n bytes at p, chained on h; an array of more than one 16 MiB
 * piece hashed piece by piece on all threads (XXH64 itself is one serial
 * pass: 5 s for the 35 GB of a 10^8-cell block) and the pieces' digests,
 * 512 at a time, chained on h in order: the same value for any thread
 * count. */
static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	enum { PIECE = 1 << 24, GROUP = 512 };
	const char *c = (const char *)p;
	uint64_t d[GROUP];
	if (n <= PIECE)
		return fv_xxh64(p, n, h);
	for (size_t at = 0; at < n; at += (size_t)GROUP * PIECE) {
		size_t left = n - at, np = (left + PIECE - 1) / PIECE;
		np = np < GROUP ? np : GROUP;
		FV_OMP(parallel for schedule(dynamic, 1))
		for (size_t k = 0; k < np; k++) {
			size_t lo = at + k * PIECE, len = n - lo < PIECE ? n - lo : PIECE;
			d[k] = fv_xxh64(c + lo, len, 0);
		}
		h = fv_xxh64(d, np * sizeof *d, h);
	}
	return h;
}

/* The cut's identity: what every part of one `fvstar mesh partition`
 * holds alike (the ranks and blocks, every block's cells, rank and halo
 * lists), independent of which rank's file it is. */
static uint64_t cut_hash(const fv_part_t *p)
{
	int64_t head[3] = {p->n_ranks, p->n_blocks, p->n_faces};
	uint64_t h = mix(0, head, sizeof head);
	h = mix(h, p->block_off, ((size_t)p->n_blocks + 1) * sizeof *p->block_off);
	h = mix(h, p->rank_of, (size_t)p->n_blocks * sizeof *p->rank_of);
	for (int b = 0; b < p->n_blocks; b++) {
		const fv_block_t *bk = &p->blocks[b];
		int64_t n[5] = {bk->cell0, bk->n_owned, bk->n_ghost, bk->n_cells, bk->n_nbr};
		h = mix(h, n, sizeof n);
		h = mix(h, bk->nbr, (size_t)bk->n_nbr * sizeof *bk->nbr);
		h = mix(h, bk->recv_off, ((size_t)bk->n_nbr + 1) * sizeof *bk->recv_off);
		h = mix(h, bk->send_off, ((size_t)bk->n_nbr + 1) * sizeof *bk->send_off);
	}
	return h;
}

fv_err_t fv_app_parts_agree(const char *dir, const fv_part_t *p)
{
	int R = fv_runtime_nranks(), me = fv_runtime_rank();
	uint64_t *id = NULL;
	char mine[FV_CASE_PATH_MAX + 32], first[FV_CASE_PATH_MAX + 32];
	fv_err_t err;
	if (R == 1)
		return FV_OK;
	/* per rank: the mesh's cell count, node count, checksum, and the cut's */
	FV_CALL(fv_calloc(&id, 4 * (size_t)R, sizeof *id, "part identities"));
	id[4 * me + 0] = (uint64_t)p->mesh_id.n_cells;
	id[4 * me + 1] = (uint64_t)p->mesh_id.n_nodes;
	id[4 * me + 2] = p->mesh_id.hash;
	id[4 * me + 3] = cut_hash(p);
	err = fv_runtime_combine(id, 4 * (size_t)R * sizeof *id, "the mesh parts' identities");
	fv_part_path(dir, me, mine, sizeof mine);
	fv_part_path(dir, 0, first, sizeof first);
	if (err == FV_OK && memcmp(id, id + 4 * me, 3 * sizeof *id) != 0)
		err = FV_ERROR(FV_ERR_FORMAT,
			       "%s: rank %d's part is of another mesh (%llu cells, %llu nodes, checksum %016llx) than "
			       "rank 0's %s (%llu cells, %llu nodes, checksum %016llx): the directory mixes the parts of "
			       "two meshes; `fvstar mesh partition MESH --ranks %d -o %s` cuts it again",
			       mine, me, (unsigned long long)id[4 * me], (unsigned long long)id[4 * me + 1],
			       (unsigned long long)id[4 * me + 2], first, (unsigned long long)id[0],
			       (unsigned long long)id[1], (unsigned long long)id[2], R, dir);
	else if (err == FV_OK && id[3] != id[4 * me + 3])
		err = FV_ERROR(FV_ERR_FORMAT,
			       "%s: rank %d's part is of another cut of the mesh than rank 0's %s (other blocks or halo "
			       "lists): the directory mixes two partitions; `fvstar mesh partition MESH --ranks %d -o %s` "
			       "cuts it again",
			       mine, me, first, R, dir);
	free(id);
	return err;
}

#define H(arr, n) (h = mix(h, (arr), (size_t)(n) * sizeof *(arr)))

/* A block's set-up: its local mesh and halo lists, and the file position
 * of each cell, as this rank holds them. */
static uint64_t block_hash(const fv_block_t *b, const fv_idx_t *cell_file, int n_markers)
{
	size_t nf = (size_t)b->n_faces, no = (size_t)b->n_owned, nc = (size_t)b->n_cells, nn = (size_t)b->n_nodes;
	int64_t n[9] = {b->id, b->cell0, b->n_owned, b->n_ghost, b->n_faces, b->n_bfaces, b->n_nodes, b->n_nbr, n_markers};
	uint64_t h = mix(0, n, sizeof n);
	H(b->cell_global, nc);
	H(b->face_global, nf);
	H(b->face_cell, 2 * nf);
	H(b->face_marker, b->n_bfaces);
	H(b->marker_face_off, n_markers + 1);
	H(b->face_node_off, nf + 1);
	H(b->face_node, b->face_node_off[nf]);
	H(b->face_area, 3 * nf);
	H(b->face_ctr, 3 * nf);
	H(b->cell_face_off, no + 1);
	H(b->cell_face, b->cell_face_off[no]);
	H(b->cell_face_sign, b->cell_face_off[no]);
	H(b->cell_vol, nc);
	H(b->cell_ctr, 3 * nc);
	H(b->node_global, nn);
	H(b->node_cell_off, nn + 1);
	H(b->node_cell, b->node_cell_off[nn]);
	H(b->nbr, b->n_nbr);
	H(b->recv_off, b->n_nbr + 1);
	H(b->send_off, b->n_nbr + 1);
	H(b->send_cell, b->send_off[b->n_nbr]);
	H(cell_file, nc);
	return h;
}
#undef H

/* Every block's set-up digest, from the rank that holds it: the same for
 * any rank count and whether the rank read its part or was sent it. */
fv_err_t fv_app_block_digests(const fv_part_t *p, uint64_t **out)
{
	uint64_t *h = NULL;
	FV_CALL(fv_calloc(&h, (size_t)p->n_blocks + 1, sizeof *h, "block digests"));
	for (int b = 0; b < p->n_blocks; b++)
		if (p->rank_of[b] == p->rank)
			h[b] = block_hash(&p->blocks[b], p->cell_file[b], p->piece.n_markers);
	*out = h;
	return FV_OK;
}

static fv_err_t block_digests(const fv_part_t *p, const uint64_t *mine, json_t **out)
{
	uint64_t *h = NULL;
	fv_err_t err;
	*out = NULL;
	FV_CHECK(mine, FV_ERR_ARG, "block digests: not taken at set-up");
	FV_CALL(fv_calloc(&h, (size_t)p->n_blocks + 1, sizeof *h, "block digests"));
	memcpy(h, mine, (size_t)p->n_blocks * sizeof *h);
	err = fv_runtime_combine(h, (size_t)p->n_blocks * sizeof *h, "the blocks' digests");
	if (err == FV_OK && p->rank == 0) {
		char hex[24];
		*out = json_array();
		for (int b = 0; b < p->n_blocks; b++) {
			snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h[b]);
			json_array_append_new(*out, json_string(hex));
		}
	}
	free(h);
	return err;
}

/* Every rank's largest single allocation (util/alloc.h), gathered:
 * {"bytes": [per rank], "what": [...]} on rank 0. */
static fv_err_t largest_alloc(json_t **out)
{
	int R = fv_runtime_nranks(), me = fv_runtime_rank();
	double *bytes = NULL;
	char *what = NULL;
	const char *w;
	fv_err_t err = FV_OK;
	*out = NULL;
	FV_CALL_GOTO(err, done, fv_calloc(&bytes, (size_t)R, sizeof *bytes, "largest allocations"));
	FV_CALL_GOTO(err, done, fv_calloc(&what, (size_t)R, 64, "largest allocations"));
	bytes[me] = (double)fv_alloc_largest(&w);
	snprintf(what + 64 * (size_t)me, 64, "%s", w);
	FV_CALL_GOTO(err, done, fv_runtime_combine(bytes, (size_t)R * sizeof *bytes, "the largest allocations"));
	FV_CALL_GOTO(err, done, fv_runtime_combine(what, (size_t)R * 64, "the largest allocations"));
	if (me == 0) {
		json_t *o = json_object(), *b = json_array(), *l = json_array();
		for (int r = 0; r < R; r++) {
			json_array_append_new(b, json_integer((json_int_t)bytes[r]));
			json_array_append_new(l, json_string(what + 64 * (size_t)r));
		}
		json_object_set_new(o, "bytes", b);
		json_object_set_new(o, "what", l);
		*out = o;
	}
done:
	free(bytes);
	free(what);
	return err;
}

fv_err_t fv_app_dist_summary(const fv_part_t *p, const uint64_t *digests, json_t **out)
{
	json_t *big = NULL, *dig = NULL;
	fv_err_t err;
	*out = NULL;
	err = largest_alloc(&big);
	if (err == FV_OK)
		err = block_digests(p, digests, &dig);
	if (err == FV_OK && p->rank == 0) {
		*out = json_object();
		json_object_set_new(*out, "largest_allocation", big);
		json_object_set_new(*out, "block_digests", dig);
		return FV_OK;
	}
	json_decref(big);
	json_decref(dig);
	return err;
}
