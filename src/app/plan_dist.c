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
#include "util/xxh64.h"

/* XXH64 of n bytes at p, chained on h. */
static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	return fv_xxh64(p, n, h);
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

fv_err_t fv_app_largest_alloc(json_t **out)
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
