/* SPDX-License-Identifier: MIT */
/* A run from mesh parts (fvstar/partition.h's fv_part_t): the rank's part
 * cut from the mesh (rank 0 cuts them all and sends them) or read from a
 * partition directory (`fvstar mesh partition`), and everything a run does
 * with its mesh done from the part alone: the initial state, the wall
 * distance, restart files, wall.csv, the solution files and the cells that
 * went non-physical. The whole mesh is on no rank once the parts are cut,
 * and the state is held per block (fv_app_state_t): only rank 0, writing
 * a restart file, holds the state of every cell, for as long as it
 * writes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/app.h"
#include "fvstar/output.h"
#include "fvstar/runtime.h"
#include "physics/bc.h"
#include "physics/exact.h"
#include "physics/gas.h"
#include "util/threads.h"
#include "util/timer.h"

int fv_app_is_part_dir(const char *path)
{
	struct stat st;
	char p[FV_CASE_PATH_MAX + 32];
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return 0;
	fv_part_path(path, 0, p, sizeof p);
	return stat(p, &st) == 0;
}

fv_err_t fv_app_read_part(const char *dir, fv_part_t *p)
{
	char path[FV_CASE_PATH_MAX + 32];
	fv_part_path(dir, fv_runtime_rank(), path, sizeof path);
	FV_CALL(fv_part_read(path, p));
	return fv_app_check_part(dir, p);
}

fv_err_t fv_app_check_part(const char *dir, fv_part_t *p)
{
	char path[FV_CASE_PATH_MAX + 32];
	int me = fv_runtime_rank(), R = fv_runtime_nranks();
	fv_err_t err0;
	fv_part_path(dir, me, path, sizeof path);
	if (p->n_ranks != R || p->rank != me) {
		fv_err_t err = FV_ERROR(FV_ERR_ARG,
					"%s: partitioned for %d rank%s (this file is rank %d's), but this run has %d: "
					"`fvstar mesh partition MESH --ranks %d -o DIR` cuts it for %d",
					path, p->n_ranks, p->n_ranks == 1 ? "" : "s", p->rank, R, R, R);
		fv_part_free(p);
		return err;
	}
	/* each rank read its own file only: the ranks compare what they read */
	err0 = fv_app_parts_agree(dir, p);
	if (err0 != FV_OK)
		fv_part_free(p);
	return err0;
}

fv_err_t fv_app_cut_parts(const fv_case_t *c, fv_mesh_t *m, int nb, const double *weights, const int *groups,
			  int n_ranks, fv_err_t (*each)(int rank, fv_part_t *p, void *arg), void *arg)
{
	fv_partition_stats_t ps;
	fv_order_stats_t os;
	int32_t *part = NULL;
	fv_idx_t *off = NULL;
	fv_block_t *blocks = NULL;
	int *rank_of = NULL, grown = 0;
	long long cut = 0;
	fv_err_t err = FV_OK;
	FV_CHECK(nb >= n_ranks, FV_ERR_ARG,
		 "%d blocks for %d ranks: every rank needs a block of its own (partition.blocks >= %d)", nb, n_ranks,
		 n_ranks);
	FV_CALL_GOTO(err, out, fv_malloc(&part, (size_t)m->n_cells + 1, sizeof *part, "partition"));
	FV_CALL_GOTO(err, out, fv_malloc(&off, (size_t)nb + 1, sizeof *off, "block offsets"));
	FV_CALL_GOTO(err, out, fv_calloc(&rank_of, (size_t)nb, sizeof *rank_of, "block ranks"));
	FV_CALL_GOTO(err, out, fv_app_order_cells(c, m, nb, weights, groups, part, off, &ps, &os));
	double t = fv_now();
	/* the mesh is freed once its parts are cut: one block takes its arrays */
	FV_CALL_GOTO(err, out, fv_blocks_build_take(m, off, nb, &blocks));
	t = fv_lap("blocks: local meshes", t);
	if (n_ranks > 1)
		FV_CALL_GOTO(err, out, fv_blocks_to_ranks(blocks, nb, n_ranks, rank_of, &cut, &grown));
	/* the last rank first: rank 0's part is the last one built, when the
	 * others' memory is given back, and takes its blocks' arrays rather
	 * than a copy */
	for (int r = n_ranks - 1; r >= 0; r--) {
		fv_part_t p;
		FV_CALL_GOTO(err, out, fv_part_build(m, blocks, off, nb, rank_of, n_ranks, r, &ps, &os, &p, r == 0));
		t = fv_lap("blocks: rank parts", t);
		p.grown = grown;
		err = each(r, &p, arg);
		t = fv_lap("blocks: parts sent", t);
		fv_part_free(&p);
		if (err != FV_OK)
			goto out;
	}
out:
	fv_blocks_free(blocks, nb);
	free(part);
	free(off);
	free(rank_of);
	return err;
}

/* ---------------------------------------------------------------- state */

void fv_app_initial_cell(const fv_case_t *c, const double ctr[3], fv_real_t *q, size_t stride)
{
	double winf[5], lr[5] = {0, 0, 0, 0, 0};
	const double *src = winf;
	fv_real_t w[5], qi[5];
	fv_case_freestream(c, winf);
	if (c->init == FV_INIT_VORTEX) {
		/* the vortex rides on the free stream (rho 1, p 1/gamma) */
		fv_vortex_t vx = {.x0 = c->vortex_x0, .y0 = c->vortex_y0, .u_inf = winf[1], .v_inf = winf[2],
				  .rho_inf = winf[0], .p_inf = winf[4], .strength = c->vortex_strength,
				  .radius = c->vortex_radius, .gamma = c->gamma};
		fv_isentropic_vortex(ctr[0], ctr[1], 0, &vx, lr);
		lr[3] = winf[3];
		src = lr;
	} else if (c->init == FV_INIT_RIEMANN) {
		const double *s = ctr[c->riemann_axis] < c->riemann_x0 ? c->riemann_left : c->riemann_right;
		lr[0] = s[0];
		lr[1 + c->riemann_axis] = s[1];
		lr[4] = s[2];
		src = lr;
	}
	for (int k = 0; k < 5; k++)
		w[k] = (fv_real_t)src[k];
	fv_prim_to_cons(w, (fv_real_t)c->gamma, qi);
	for (int k = 0; k < 5; k++)
		q[(size_t)k * stride] = qi[k];
	/* Spalart-Allmaras: nu~ of the free stream everywhere */
	if (c->model == FV_MODEL_SA)
		q[5 * stride] = qi[0] * (fv_real_t)fv_app_nut_inf(c);
}

fv_err_t fv_app_state_alloc(const fv_case_t *c, const fv_part_t *p, fv_app_state_t *st)
{
	int nv = fv_solver_state_rows(&c->num, fv_app_nvars(c));
	st->nv = nv;
	st->step = nv > fv_app_nvars(c);
	FV_CALL(fv_calloc(&st->qb, (size_t)p->n_blocks + 1, sizeof *st->qb, "block states"));
	for (int b = 0; b < p->n_blocks; b++)
		if (p->rank_of[b] == p->rank)
			FV_CALL(fv_calloc(&st->qb[b], (size_t)nv * (size_t)p->blocks[b].n_cells + 1, sizeof **st->qb,
					  "block state"));
	return FV_OK;
}

void fv_app_state_free(const fv_part_t *p, fv_app_state_t *st)
{
	if (st->qb)
		for (int b = 0; b < p->n_blocks; b++)
			free(st->qb[b]);
	FV_FREE(st->qb);
}

void fv_app_part_initial_state(const fv_case_t *c, const fv_part_t *p, fv_app_state_t *st)
{
	for (int b = 0; b < p->n_blocks; b++) {
		const fv_block_t *bk = &p->blocks[b];
		size_t n = (size_t)bk->n_cells;
		if (p->rank_of[b] != p->rank)
			continue;
		for (size_t i = 0; i < n; i++) {
			double x[3] = {(double)bk->cell_ctr[i], (double)bk->cell_ctr[n + i], (double)bk->cell_ctr[2 * n + i]};
			fv_app_initial_cell(c, x, st->qb[b] + i, n);
			if (st->step)
				st->qb[b][(size_t)(st->nv - 1) * n + i] = 1;
		}
	}
}

/* The rank's blocks' local cells (owned only, or ghosts too), one after
 * the other in block order: their count. */
static size_t local_cells(const fv_part_t *p, int ghosts)
{
	size_t n = 0;
	for (int b = 0; b < p->n_blocks; b++)
		if (p->rank_of[b] == p->rank)
			n += (size_t)(ghosts ? p->blocks[b].n_cells : p->blocks[b].n_owned);
	return n;
}

fv_err_t fv_app_part_restart_read(const char *path, const fv_part_t *p, fv_restart_t *rs, fv_app_state_t *st)
{
	int g = 0;
	size_t *n = NULL;
	const fv_idx_t **pos = NULL;
	fv_real_t **out = NULL;
	fv_err_t err = FV_OK;
	FV_CALL_GOTO(err, done, fv_calloc(&n, (size_t)p->n_blocks + 1, sizeof *n, "restart blocks"));
	FV_CALL_GOTO(err, done, fv_calloc(&pos, (size_t)p->n_blocks + 1, sizeof *pos, "restart blocks"));
	FV_CALL_GOTO(err, done, fv_calloc(&out, (size_t)p->n_blocks + 1, sizeof *out, "restart blocks"));
	for (int b = 0; b < p->n_blocks; b++)
		if (p->rank_of[b] == p->rank) {
			n[g] = (size_t)p->blocks[b].n_cells;
			pos[g] = p->cell_file[b];
			out[g++] = st->qb[b];
		}
	/* only this rank's cells of the file are read, straight into its
	 * blocks' state; rows the file has and the run uses: nu~ is dropped by
	 * a run without Spalart-Allmaras, and left as the caller set it when
	 * the file has none. Rank 0 alone reads the whole file for its
	 * checksum; a damaged file stops every rank from there. */
	err = fv_restart_read_groups(path, rs, &p->mesh_id, p->piece.source, g, n, pos, st->nv, st->step, out,
				     p->rank == 0);
	if (err == FV_OK)
		err = fv_runtime_agree(1, "the restart file checked by rank 0");
done:
	free(n);
	free(pos);
	free(out);
	return err;
}

/* A restart written without any rank holding the whole state: each rank
 * lists its owned cells in the file's order (the piece's), and rank 0
 * writes the file chunk by chunk (FV_RESTART_FILL_CELLS positions of one
 * variable), each rank sending its values in the chunk as rank 0 asks for
 * them, in the same order on every rank. */
typedef struct restart_feed {
	const fv_part_t *p;
	const fv_app_state_t *st;
	size_t n;              /* this rank's owned cells: the piece's, in the file's order */
	size_t *from;          /* [nv] the first piece cell not yet sent, per variable */
	uint8_t *msg;          /* a chunk's message: count, positions, values */
} restart_feed_t;

static const fv_real_t *piece_cell_state(const fv_part_t *p, const fv_app_state_t *st, size_t i, size_t *stride);

static fv_err_t feed_init(restart_feed_t *f, const fv_part_t *p, const fv_app_state_t *st)
{
	memset(f, 0, sizeof *f);
	f->p = p;
	f->st = st;
	f->n = (size_t)p->piece.n_cells;
	FV_CALL(fv_calloc(&f->from, (size_t)st->nv + 1, sizeof *f->from, "restart cells"));
	/* a chunk holds at most the rank's own cells */
	FV_CALL(fv_malloc(&f->msg, 8 + (f->n < FV_RESTART_FILL_CELLS ? f->n : FV_RESTART_FILL_CELLS) *
					       (sizeof(fv_idx_t) + sizeof(fv_real_t)),
			  1, "restart chunk"));
	return FV_OK;
}

static void feed_free(restart_feed_t *f)
{
	free(f->from);
	free(f->msg);
}

/* This rank's cells of variable v at positions [at, at + k) as a message
 * (8-byte count, positions, values), read from the blocks' state: its
 * length. The piece is in the file's order, so the chunk's cells are the
 * next ones below at + k; their positions and values go in on all
 * threads (5 x 10^8 of them in a restart of 10^8 cells). */
static size_t feed_chunk(restart_feed_t *f, int v, size_t at, size_t k)
{
	size_t i0 = f->from[v], c = 0;
	uint64_t cnt;
	uint8_t *pos = f->msg + 8, *val;
	while (i0 + c < f->n && (size_t)fv_mesh_cell_orig(&f->p->piece, (fv_idx_t)(i0 + c)) < at + k)
		c++;
	val = pos + c * sizeof(fv_idx_t);
	FV_OMP(parallel for schedule(static) if (c >= FV_PAR_MIN))
	for (size_t j = 0; j < c; j++) {
		size_t stride;
		fv_idx_t o = fv_mesh_cell_orig(&f->p->piece, (fv_idx_t)(i0 + j));
		fv_real_t x = piece_cell_state(f->p, f->st, i0 + j, &stride)[(size_t)v * stride];
		memcpy(pos + j * sizeof o, &o, sizeof o);
		memcpy(val + j * sizeof x, &x, sizeof x);
	}
	cnt = c;
	memcpy(f->msg, &cnt, 8);
	f->from[v] = i0 + c;
	return 8 + c * (sizeof(fv_idx_t) + sizeof(fv_real_t));
}

/* Places a chunk's message from rank `from` into dst (positions at ..):
 * *got counts the cells placed. */
static fv_err_t feed_place(const uint8_t *m, size_t len, int from, size_t at, size_t k, fv_real_t *dst, size_t *got)
{
	uint64_t c = 0;
	int bad = 0;
	if (len >= 8)
		memcpy(&c, m, 8);
	FV_CHECK(len >= 8 && c <= k && len == 8 + c * (sizeof(fv_idx_t) + sizeof(fv_real_t)), FV_ERR_RUNTIME,
		 "rank %d sent %zu bytes of restart cells for positions %zu..%zu", from, len, at, at + k);
	FV_OMP(parallel for schedule(static) reduction(| : bad) if (c >= FV_PAR_MIN))
	for (size_t i = 0; i < (size_t)c; i++) {
		fv_idx_t pos;
		fv_real_t x;
		memcpy(&pos, m + 8 + i * sizeof pos, sizeof pos);
		memcpy(&x, m + 8 + c * sizeof pos + i * sizeof x, sizeof x);
		if (pos >= 0 && (size_t)pos >= at && (size_t)pos < at + k)
			dst[(size_t)pos - at] = x;
		else
			bad = 1;
	}
	for (size_t i = 0; bad && i < (size_t)c; i++) {
		fv_idx_t pos;
		memcpy(&pos, m + 8 + i * sizeof pos, sizeof pos);
		FV_CHECK(pos >= 0 && (size_t)pos >= at && (size_t)pos < at + k, FV_ERR_RUNTIME,
			 "rank %d sent restart cell %d for positions %zu..%zu", from, (int)pos, at, at + k);
	}
	*got += c;
	return FV_OK;
}

/* fv_restart_t's fill on rank 0: its own cells, then every other rank's. */
static fv_err_t feed_fill(void *arg, int v, size_t at, size_t k, fv_real_t *dst)
{
	restart_feed_t *f = arg;
	size_t got = 0, len = feed_chunk(f, v, at, k);
	FV_CALL(feed_place(f->msg, len, 0, at, k, dst, &got));
	for (int r = 1; r < f->p->n_ranks; r++) {
		uint8_t *m = NULL;
		fv_err_t err;
		FV_CALL(fv_runtime_recv_bytes(&m, &len, r, "its cells of the restart file"));
		err = feed_place(m, len, r, at, k, dst, &got);
		free(m);
		FV_CALL(err);
	}
	FV_CHECK(got == k, FV_ERR_RUNTIME, "restart: the ranks hold %zu of the %zu cells at positions %zu..%zu", got,
		 k, at, at + k);
	return FV_OK;
}

fv_err_t fv_app_part_restart_write(const char *path, const fv_part_t *p, fv_restart_t *r, const fv_app_state_t *st)
{
	size_t N = (size_t)p->n_cells, per = FV_RESTART_FILL_CELLS;
	restart_feed_t f;
	fv_err_t err = feed_init(&f, p, st);
	if (err == FV_OK && p->rank != 0) {
		/* the chunks in the order rank 0 writes them */
		for (int v = 0; v < st->nv && err == FV_OK; v++)
			for (size_t at = 0; at < N && err == FV_OK; at += per)
				err = fv_runtime_send_bytes(f.msg, feed_chunk(&f, v, at, N - at < per ? N - at : per), 0,
							    "its cells of the restart file");
	} else if (err == FV_OK) {
		r->n_cells = (fv_idx_t)N;
		r->n_vars = st->nv;
		r->step_row = st->step;
		r->mesh = p->mesh_id;
		r->cell_of_file = NULL;
		r->q = NULL;
		r->fill = feed_fill;
		r->fill_arg = &f;
		err = fv_restart_write(path, r);
		r->fill = NULL;
		r->fill_arg = NULL;
	}
	feed_free(&f);
	return err;
}

/* Block and local index of piece cell i (an owned cell). */
static const fv_real_t *piece_cell_state(const fv_part_t *p, const fv_app_state_t *st, size_t i, size_t *stride)
{
	fv_idx_t g = p->piece_cell[i];
	int b = fv_block_of_cell(p->block_off, p->n_blocks, g);
	*stride = (size_t)p->blocks[b].n_cells;
	return st->qb[b] + (g - p->block_off[b]);
}

/* The state of the piece's cells (the piece's order). */
static fv_err_t piece_state(const fv_part_t *p, const fv_app_state_t *st, fv_real_t **out)
{
	size_t n = (size_t)p->piece.n_cells;
	FV_CALL(fv_malloc(out, (size_t)st->nv * n + 1, sizeof **out, "piece state"));
	for (size_t i = 0; i < n; i++) {
		size_t stride;
		const fv_real_t *q = piece_cell_state(p, st, i, &stride);
		for (int v = 0; v < st->nv; v++)
			(*out)[(size_t)v * n + i] = q[(size_t)v * stride];
	}
	return FV_OK;
}

/* The block of each piece cell. */
static fv_err_t piece_blocks(const fv_part_t *p, int32_t **out)
{
	size_t n = (size_t)p->piece.n_cells;
	FV_CALL(fv_malloc(out, n + 1, sizeof **out, "piece blocks"));
	for (size_t i = 0; i < n; i++)
		(*out)[i] = fv_block_of_cell(p->block_off, p->n_blocks, p->piece_cell[i]);
	return FV_OK;
}

fv_err_t fv_app_part_solution(const char *dir, const char *name, const fv_part_t *p, const fv_app_state_t *st,
			      double gamma, int with_block, const fv_sol_turb_t *turb)
{
	char path[FV_CASE_PATH_MAX + 64];
	fv_real_t *qp = NULL;
	int32_t *blk = NULL;
	fv_err_t err;
	FV_CALL(piece_state(p, st, &qp));
	err = with_block ? piece_blocks(p, &blk) : FV_OK;
	if (err == FV_OK && p->n_ranks == 1 && !p->piece.cell_orig && !p->piece.node_orig) {
		/* one rank, the whole mesh in file order: one file */
		snprintf(path, sizeof path, "%s/%s.vtu", dir, name);
		err = fv_solution_write_vtu(path, &p->piece, qp, (fv_real_t)gamma, blk, turb);
	} else if (err == FV_OK) {
		snprintf(path, sizeof path, "%s/%s_%d.vtu", dir, name, p->rank);
		err = fv_solution_write_piece(path, &p->piece, qp, (fv_real_t)gamma, blk, turb, p->rank);
		snprintf(path, sizeof path, "%s/%s.pvtu", dir, name);
		if (err == FV_OK && p->rank == 0)
			err = fv_solution_write_pvtu(path, name, p->n_ranks, with_block, turb);
	}
	free(qp);
	free(blk);
	return err;
}

/* --------------------------------------------------------- wall distance */

fv_err_t fv_app_part_wall_distances(const fv_case_t *c, const fv_part_t *p, const fv_solver_opts_t *so,
				    double ***dist)
{
	size_t E = 0, at0 = 0, n_pts = local_cells(p, 0);
	long long *count = NULL;
	fv_mesh_t w;
	uint8_t *wall = NULL;
	double *d = NULL;
	fv_err_t err = FV_OK;
	int any = 0;
	double t0 = fv_now();
	fv_mesh_init(&w);
	*dist = NULL;
	FV_CALL_GOTO(err, out, fv_calloc(&wall, (size_t)p->piece.n_markers + 1, 1, "wall markers"));
	for (int k = 0; k < p->piece.n_markers; k++)
		any |= wall[k] = (uint8_t)fv_bc_is_noslip(so->marker_bc[k]);
	FV_CHECK_GOTO(err, out, any, FV_ERR_ARG,
		      "%s: [flow] model = sa needs a no-slip wall (bc noslip or isothermal) for the wall distance",
		      c->path[0] ? c->path : "case");
	/* the wall elements of every rank's share of the boundary elements,
	 * assembled in the file's order (a surface, not the mesh: the walls'
	 * part alone, which is what fv_wall_distance keeps of a mesh), as a
	 * mesh of unshared nodes whose cells are the points asked for: this
	 * rank's owned cells */
	FV_CALL_GOTO(err, out, fv_calloc(&count, (size_t)p->n_ranks, sizeof *count, "wall elements"));
	for (fv_idx_t i = 0; i < p->n_bel; i++)
		count[p->rank] += wall[p->bel_marker[i]];
	FV_CALL_GOTO(err, out, fv_runtime_combine(count, (size_t)p->n_ranks * sizeof *count, "the wall elements"));
	for (int r = 0; r < p->n_ranks; r++) {
		at0 += r < p->rank ? (size_t)count[r] : 0;
		E += (size_t)count[r];
	}
	snprintf(w.source, sizeof w.source, "%s", p->piece.source);
	FV_CALL_GOTO(err, out, fv_calloc(&w.xyz, 12 * E + 1, sizeof *w.xyz, "wall nodes"));
	FV_CALL_GOTO(err, out, fv_calloc(&w.belem_marker, E + 1, sizeof *w.belem_marker, "wall elements"));
	FV_CALL_GOTO(err, out, fv_calloc(&w.belem_type, E + 1, 1, "wall elements"));
	FV_CALL_GOTO(err, out, fv_malloc(&w.belem_node_off, E + 1, sizeof *w.belem_node_off, "wall elements"));
	FV_CALL_GOTO(err, out, fv_malloc(&w.belem_node, 4 * E + 1, sizeof *w.belem_node, "wall elements"));
	for (fv_idx_t i = 0, e = (fv_idx_t)at0; i < p->n_bel; i++)
		if (wall[p->bel_marker[i]]) {
			memcpy(w.xyz + 12 * (size_t)e, p->bel_xyz + 12 * (size_t)i, 12 * sizeof *w.xyz);
			w.belem_marker[e] = p->bel_marker[i];
			w.belem_type[e++] = p->bel_type[i];
		}
	FV_CALL_GOTO(err, out, fv_runtime_combine(w.xyz, 12 * E * sizeof *w.xyz, "the wall"));
	FV_CALL_GOTO(err, out, fv_runtime_combine(w.belem_marker, E * sizeof *w.belem_marker, "the wall"));
	FV_CALL_GOTO(err, out, fv_runtime_combine(w.belem_type, E, "the wall"));
	w.n_nodes = (fv_idx_t)(4 * E);
	w.n_belems = (fv_idx_t)E;
	w.belem_node_off[0] = 0;
	for (size_t e = 0; e < E; e++) {
		int nn = w.belem_type[e] == FV_QUAD ? 4 : 3;
		for (int k = 0; k < nn; k++)
			w.belem_node[w.belem_node_off[e] + k] = (fv_idx_t)(4 * e + (size_t)k);
		w.belem_node_off[e + 1] = w.belem_node_off[e] + nn;
	}
	w.n_markers = p->piece.n_markers;
	w.markers = p->piece.markers;
	w.n_cells = (fv_idx_t)n_pts;
	FV_CALL_GOTO(err, out, fv_malloc(&w.cell_ctr, 3 * n_pts + 1, sizeof *w.cell_ctr, "wall distance points"));
	FV_CALL_GOTO(err, out, fv_malloc(&d, n_pts + 1, sizeof *d, "wall distances"));
	{
		size_t at = 0;
		for (int b = 0; b < p->n_blocks; b++) {
			const fv_block_t *bk = &p->blocks[b];
			size_t n = (size_t)bk->n_cells, no = (size_t)bk->n_owned;
			if (p->rank_of[b] != p->rank)
				continue;
			for (int k = 0; k < 3; k++)
				memcpy(w.cell_ctr + (size_t)k * n_pts + at, bk->cell_ctr + (size_t)k * n,
				       no * sizeof *w.cell_ctr);
			at += no;
		}
	}
	FV_CALL_GOTO(err, out, fv_wall_distance(&w, wall, 0, d));
	FV_CALL_GOTO(err, out, fv_calloc(dist, (size_t)p->n_blocks + 1, sizeof **dist, "wall distances"));
	{
		size_t at = 0;
		for (int b = 0; b < p->n_blocks; b++) {
			size_t no = (size_t)p->blocks[b].n_owned;
			if (p->rank_of[b] != p->rank)
				continue;
			FV_CALL_GOTO(err, out, fv_malloc(&(*dist)[b], no + 1, sizeof ***dist, "wall distances"));
			memcpy((*dist)[b], d + at, no * sizeof *d);
			at += no;
		}
	}
	if (fv_runtime_rank() == 0)
		fprintf(stderr, "fvstar: wall distance of %lld cells in %.2f s\n", (long long)p->n_cells, fv_now() - t0);
out:
	w.markers = NULL; /* the piece's */
	fv_mesh_free(&w);
	free(count);
	free(wall);
	free(d);
	if (err != FV_OK)
		fv_app_wall_distances_free(p, dist);
	return err;
}

void fv_app_wall_distances_free(const fv_part_t *p, double ***dist)
{
	if (*dist)
		for (int b = 0; b < p->n_blocks; b++)
			free((*dist)[b]);
	FV_FREE(*dist);
}

/* ------------------------------------------------------------- wall.csv */

fv_err_t fv_app_part_wall_get(const fv_part_t *p, fv_solver_t *s, const fv_app_state_t *st, const int8_t *marker_bc,
			      fv_app_wall_t *w)
{
	size_t F = (size_t)p->n_bfaces;
	int any = 0;
	fv_err_t err = FV_OK;
	memset(w, 0, sizeof *w);
	for (int k = 0; k < p->piece.n_markers; k++)
		any |= fv_bc_is_wall(marker_bc[k]);
	if (!any)
		return FV_OK;
	w->n = F;
	FV_CALL_GOTO(err, out, fv_calloc(&w->is, F + 1, 1, "wall faces"));
	FV_CALL_GOTO(err, out, fv_calloc(&w->mk, F + 1, sizeof *w->mk, "wall faces"));
	FV_CALL_GOTO(err, out, fv_calloc(&w->ctr, 3 * F + 1, sizeof *w->ctr, "wall faces"));
	FV_CALL_GOTO(err, out, fv_calloc(&w->rho, F + 1, sizeof *w->rho, "wall faces"));
	FV_CALL_GOTO(err, out, fv_malloc(&w->wall, 5 * F + 1, sizeof *w->wall, "wall data"));
	/* this rank's boundary faces (of its owned cells), assembled */
	for (int b = 0; b < p->n_blocks; b++) {
		const fv_block_t *bk = &p->blocks[b];
		size_t nf = (size_t)bk->n_faces;
		if (p->rank_of[b] != p->rank)
			continue;
		for (fv_idx_t f = 0; f < bk->n_bfaces; f++) {
			fv_idx_t g = bk->face_global[f], cl = bk->face_cell[2 * (size_t)f];
			if (cl >= bk->n_owned || g < 0 || (size_t)g >= F)
				continue;
			w->mk[g] = bk->face_marker[f];
			w->is[g] = (uint8_t)fv_bc_is_wall(marker_bc[w->mk[g]]);
			for (int d = 0; d < 3; d++)
				w->ctr[(size_t)d * F + (size_t)g] = (double)bk->face_ctr[(size_t)d * nf + (size_t)f];
			w->rho[g] = (double)st->qb[b][cl];
		}
	}
	FV_CALL_GOTO(err, out, fv_solver_wall_data(s, (fv_idx_t)F, w->is, w->wall));
	FV_CALL_GOTO(err, out, fv_runtime_combine(w->is, F, "the wall faces"));
	FV_CALL_GOTO(err, out, fv_runtime_combine(w->mk, F * sizeof *w->mk, "the wall faces"));
	FV_CALL_GOTO(err, out, fv_runtime_combine(w->ctr, 3 * F * sizeof *w->ctr, "the wall faces"));
	FV_CALL_GOTO(err, out, fv_runtime_combine(w->rho, F * sizeof *w->rho, "the wall faces"));
	w->any = 1;
out:
	if (err != FV_OK)
		fv_app_part_wall_free(w);
	return err;
}

fv_err_t fv_app_part_wall_put(const char *path, const fv_part_t *p, const fv_app_wall_t *w, const fv_wall_ref_t *ref,
			      int *written)
{
	fv_err_t err = FV_OK;
	*written = 0;
	if (w->any && p->rank == 0) {
		fv_wall_faces_t wf = {(fv_idx_t)w->n, p->piece.markers, w->mk, w->ctr, w->rho};
		err = fv_wall_write_csv(path, &wf, w->is, w->wall, ref);
		*written = err == FV_OK;
	}
	return err;
}

void fv_app_part_wall_free(fv_app_wall_t *w)
{
	FV_FREE(w->is);
	FV_FREE(w->mk);
	FV_FREE(w->ctr);
	FV_FREE(w->rho);
	FV_FREE(w->wall);
	w->any = 0;
}

/* ---------------------------------------------------- non-physical cells */

fv_err_t fv_app_part_bad_cells(const fv_part_t *p, const fv_app_state_t *st, double gamma, long long *n_bad,
			       char *label, size_t size)
{
	int R = p->n_ranks, me = p->rank, pick = -1;
	size_t n = (size_t)p->piece.n_cells;
	long long *first = NULL, *count = NULL;
	char *labels = NULL;
	fv_err_t err = FV_OK;
	*n_bad = 0;
	label[0] = '\0';
	FV_CALL_GOTO(err, out, fv_calloc(&first, (size_t)R, sizeof *first, "bad cells"));
	FV_CALL_GOTO(err, out, fv_calloc(&count, (size_t)R, sizeof *count, "bad cells"));
	FV_CALL_GOTO(err, out, fv_calloc(&labels, (size_t)R * 256, 1, "bad cells"));
	/* the piece is in the file's order: its first bad cell is the rank's */
	for (size_t i = 0; i < n; i++) {
		fv_real_t qi[5], wi[5];
		size_t stride;
		const fv_real_t *q = piece_cell_state(p, st, i, &stride);
		int ok = 1;
		for (int k = 0; k < 5; k++) {
			qi[k] = q[(size_t)k * stride];
			ok = ok && isfinite(qi[k]);
		}
		fv_cons_to_prim(qi, (fv_real_t)gamma, wi);
		if (ok && wi[0] > 0 && wi[4] > 0)
			continue;
		if (count[me]++ == 0) {
			char name[96];
			const fv_real_t *x = p->piece.cell_ctr;
			first[me] = (long long)fv_mesh_cell_orig(&p->piece, (fv_idx_t)i) + 1;
			snprintf(labels + 256 * (size_t)me, 256, "%s of %.80s at (%.6g, %.6g, %.6g)",
				 fv_mesh_cell_name(&p->piece, (fv_idx_t)i, name, sizeof name), p->piece.source,
				 (double)x[i], (double)x[n + i], (double)x[2 * n + i]);
		}
	}
	FV_CALL_GOTO(err, out, fv_runtime_combine(first, (size_t)R * sizeof *first, "the bad cells"));
	FV_CALL_GOTO(err, out, fv_runtime_combine(count, (size_t)R * sizeof *count, "the bad cells"));
	FV_CALL_GOTO(err, out, fv_runtime_combine(labels, (size_t)R * 256, "the bad cells"));
	for (int r = 0; r < R; r++) {
		*n_bad += count[r];
		if (first[r] > 0 && (pick < 0 || first[r] < first[pick]))
			pick = r;
	}
	if (pick >= 0)
		snprintf(label, size, "%s", labels + 256 * (size_t)pick);
out:
	free(first);
	free(count);
	free(labels);
	return err;
}
