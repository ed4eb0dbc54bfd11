/* SPDX-License-Identifier: MIT */
/* The solver's task graph: which fv_insert_* in which order over the
 * blocks, for the stages of src/kernels/stages.h. Every task touches one
 * block's data (halo tasks: one buffer between two blocks); the runtime
 * orders them by their data accesses, and the driver never waits inside an
 * iteration: it keeps a few iterations in flight and reads each one's
 * residuals back through the runtime's reduction ring. No StarPU here:
 * data lives in runtime handles (src/runtime/data.h), tasks are inserted
 * through codelets/insert.h. */
#include "fvstar/solver.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codelets/insert.h"
#include "fvstar/case.h"
#include "fvstar/runtime.h"
#include "kernels/implicit.h"
#include "kernels/krylov.h"
#include "kernels/stages.h"
#include "runtime/data.h"
#include "solver/geo.h"
#include "util/env.h"
#include "util/threads.h"
#include "util/timer.h"

#define RING 32

/* The fields of a block, SoA over its local cells (or nodes, or owned
 * cells), each one registered array; an implicit run's update dq (local
 * cells) and diagonal (owned cells; one value where unused); numerics.
 * linear = gmres: the Krylov vectors v_0 .. v_m and z_0 .. z_m-1, the
 * solution x and the sweeps' right-hand side (owned cells), the block's
 * partial dot products (doubles; krylov.h). */
enum {
	F_Q, F_Q0, F_W, F_WN, F_GRAD, F_PHI, F_MM, F_RES, F_DT, F_SNAP0, F_SNAP1, F_DQ, F_DIAG, F_FFLUX,
	F_KV, F_KZ, F_KX, F_KRHS, F_KDOT, N_FIELDS
};
static const char *const field_names[N_FIELDS] = {
	"state",    "stage state", "primitives",     "node values",    "gradients", "limiter",  "limiter min/max",
	"residual", "time step",   "state snapshot", "state snapshot", "update",    "diagonal", "face fluxes",
	"krylov directions", "krylov preconditioned directions", "krylov solution", "krylov right-hand side",
	"krylov dot products"};

/* The fields the halo exchanges move, and their values per cell. */
enum { HALO_Q, HALO_GRAD, HALO_PHI, HALO_DQ, N_HALOS };
static const int halo_field[N_HALOS] = {F_Q, F_GRAD, F_PHI, F_DQ};
/* values per cell of each halo: the state and the update have nv rows
 * (nv the state's: 6 with Spalart-Allmaras), gradients and limiters the
 * mean flow's */
static int halo_nvars(const fv_params_t *P, int h)
{
	return h == HALO_GRAD ? 3 * FV_NVAR : h == HALO_PHI ? FV_NVAR : P->nvar;
}
/* The state's ghosts are every cell sharing a node with an owned cell (the
 * node values); the gradient, the limiter and the update are read across
 * faces only (reconstruction, viscous fluxes, sweeps), so their halos
 * carry the ghosts that share a face, the first of each run
 * (fv_block_face_prefix). The pack and unpack tasks take the count from
 * the buffer's size. */
static int halo_faces_only(int h)
{
	return h != HALO_Q;
}

typedef struct block_data {
	fv_layout_t L;
	void *geo_mem;         /* the geometry blob in host memory, or NULL: */
	fv_devbuf_t *geo_dev;  /* built in its GPU's memory (fv_runtime_devbuf_*) */
	fv_handle_t geo;
	void *mem[N_FIELDS];
	fv_handle_t h[N_FIELDS];
	int n_nbr;
	int *nbr;              /* neighbour block ids */
	fv_idx_t *send_pre;    /* this rank's blocks: [k] cells sent to k in the face halos */
	fv_idx_t *recv_pre;    /* [k] ghosts from k in them (fv_block_face_prefix) */
	fv_real_t **buf_mem[N_HALOS]; /* [halo][k]: what the block sends to neighbour k */
	fv_handle_t *buf[N_HALOS];
	fv_handle_t *in_buf[N_HALOS];  /* [halo][k]: what neighbour k sends the block */
	size_t *buf_bytes[N_HALOS];    /* [halo][k]: buf's size */
	char *host_out[N_HALOS];       /* [halo][k]: buf stays in host memory (numerics.halo_zero_copy) */
	char *host_in[N_HALOS];        /* [halo][k]: in_buf does */
	/* numerics.halo_peer: pairs between GPU ranks of one machine whose
	 * buffers go GPU to GPU (peer_plan). buf is then an 8-byte token that
	 * StarPU-MPI carries to the receiver once the pack kernel wrote the
	 * receiver's memory, and ack one the receiver's unpack sends back, read
	 * by the next pack (the buffer may be written again) */
	char *peer_out;                /* [k] the pair to neighbour k goes GPU to GPU (every rank knows) */
	char *peer_in;                 /* [k] the pair from neighbour k does */
	fv_handle_t *ack[N_HALOS];     /* [halo][k] peer_out pairs: the ack (the receiver's rank's) */
	void **ack_mem[N_HALOS];
	fv_handle_t *in_ack[N_HALOS];  /* [halo][k] peer_in pairs: neighbour k's ack for this block */
	fv_handle_t *dev[N_HALOS];     /* [halo][k] peer_out pairs: the buffer on the receiver's GPU (its rank's) */
	fv_handle_t *in_dev[N_HALOS];  /* [halo][k] peer_in pairs: neighbour k's dev for this block */
	void **peer_ptr;               /* [k] this rank's block, peer_out: the receiver's buffers, mapped here */
	void **peer_mem;               /* [k] this rank's block, peer_in: the buffers it exports */
	int peer_kind;                 /* this rank's block: FV_PEER_GPU, FV_PEER_HOST or 0 (fv_runtime_peer_kind) */
	int peer_w;                    /* and the GPU worker its tasks run on, or -1 */
	size_t *peer_out_bytes;        /* [k] this rank's block: peer_ptr's size */
	size_t *peer_in_bytes;         /* [k] and peer_mem's */
	size_t *peer_out_off[N_HALOS]; /* [halo][k] halo h's buffer in peer_ptr (bytes) */
	size_t *peer_in_off[N_HALOS];  /* [halo][k] and in peer_mem (a block sends and receives in slot k) */
	fv_idx_t *cell_global; /* [n_cells] for set/get state */
	fv_idx_t *bface_global; /* [n_bfaces] the mesh's boundary face of each (fv_solver_wall_data) */
	fv_idx_t *bface_of;    /* while building: the block's face of each */
	int worker;            /* the worker its tasks run on; -1: the scheduler picks */
	int lazy;              /* its tasks run on a GPU alone: fields but the state, and halo buffers, without
				* host memory (fv_runtime_vector_lazy) */
	int unpinned;          /* its tasks run on CPU cores alone: the geometry and fields not pinned */
	int rank_edge;         /* several ranks: a neighbour is another rank's */
	int n_colors;          /* colour groups of the faces (geo.h) */
	fv_idx_t color_off[FV_COLOR_MAX + 1];
	int n_cell_colors;     /* implicit: colour groups of the owned cells */
	fv_idx_t cell_off[FV_COLOR_MAX + 1];
	int split;             /* numerics.overlap: prim and the flux in an interior and a border task, */
	int split_nodes;       /* and the node values and the gradient (node loops, Green-Gauss gathers) */
	int flux_direct;       /* the split flux sums straight into the residual (kernels.h) */
	int w_cells;           /* the primitives' side-by-side copy (numerics.node_gather, fv_params_t) */
	fv_idx_t n_border_faces; /* faces of owned cells that read a ghost */
} block_data_t;

struct fv_solver {
	int nb;
	block_data_t *b;
	fv_params_t P;
	fv_solver_opts_t o;
	int n_stages;
	fv_real_t rk_a[3], rk_b[3];
	fv_idx_t n_cells;
	int me, nr;            /* this rank, the rank count */
	int n_peer;            /* numerics.halo_peer: pairs of blocks whose buffers go GPU to GPU */
	char peer_why[200];    /* why the first pair between ranks that could not did not */
	int zero_copy;         /* numerics.halo_zero_copy: buffers between ranks stay on the host: 0 none, */
	                       /* 1 every one, 2 those of at most FV_HALO_HOST_BYTES */
	int *rank_of;          /* [nb] the rank owning each block */
	fv_clock_t *clock_mem; /* this rank's clock */
	fv_handle_t *clocks;   /* unsteady only: [nr] one clock per rank */
	fv_ring_t *ring;       /* RING slots of nb rows (+ one clock row per rank) of FV_NORMS */
	int phi_valid;         /* limiter tasks have been submitted */
	int any_split;         /* numerics.overlap: a block of this rank is split */
	int any_cross;         /* a block of this rank has a neighbour on another rank */
	int late_halos;        /* numerics.halo_late: the stages in fv_stage_order_late */
	int q_sent_for;        /* the iteration whose state halo was packed at the end of the one before, or -1 */
	int run_last;          /* the last iteration of fv_solver_run's current call */
	int snap_iter[2];      /* the iteration each snapshot holds (-1: none) */
	int snap_src[2];       /* the iteration that computed it (a retry's copy is relabelled) */
	/* CFL ramping (implicit): the CFL of the last iteration submitted, the
	 * density residual and CFL of the iterations in the ring's window */
	double cfl;
	double res_rho[RING], cfl_of[RING];
	double lin_of[RING];    /* the sweeps' linear residual reduction (fv_k_sweep_check) */
	double res_best;        /* cfl_ramp = growth: the reference residual */
	double res_peak;        /* the largest density residual accepted (retries) */
	double res_first;       /* the density residual of this run's first iteration */
	int frozen_of[RING];    /* the iteration ran with a frozen limiter */
	int freeze_hit;         /* limiter_freeze_drop reached (from the lagged residual) */
	int first_iter, last_done;
	/* safeguards (implicit, numerics.retries): a done iteration whose
	 * residual calls for a retry, the iterations thrown away with it, the
	 * CFL's bounds lowered by retries */
	int bad_iter;           /* -1: none pending */
	int bad_own;            /* its own update failed (its sweeps), not the one before it */
	char bad_why[160];
	int resume_iter;        /* the first iteration from the restored state */
	int discard_to;         /* iterations up to it ran on a thrown-away state */
	int retries;
	double cfl_lo, cfl_hi;  /* numerics.cfl and cfl_max, lowered by retries */
	int good;               /* iterations since the ceiling cfl_hi was last lowered or held */
	/* the ceiling the outer iteration taught (ceiling_osc): the top cfl_hi
	 * grows back to, the window of iterations at the ceiling counted so
	 * far (its first, its rising steps, its first residual), the note */
	double cfl_cap, cfl_bad; /* the top, the lowest CFL that failed so */
	int osc_from, osc_up;
	double osc_r0;
	int osc_fails;          /* windows in a row that failed */
	int cap_note_iter;
	char cap_note[256];
	/* a stall (stall_floor): the run's peak and lowest density residuals
	 * seen by the ramp, the iteration of the lowest, the floor switched on */
	double st_peak, st_best;
	int st_best_iter, floor_on;
	int order_of[RING];     /* the iteration's order (a jump across the switch is no failure) */
	int retries_of[RING];   /* retries before the iteration was submitted */
	char retry_note[512];   /* what the last retry did, for the first iteration after it */
	char tried[256];        /* the retries so far, "failed CFL -> retry CFL", for the error */
	int sweeps;             /* implicit: the sweep pairs of the iteration submitted last (sweep_count) */
	int sweeps_from;        /* the first iteration that ran with that many */
	int sweeps_of[RING];    /* the sweep pairs each iteration ran */
	double cfl_top;         /* the largest CFL of the run */
	int gmres;              /* numerics.linear = gmres in a point-implicit run */
	fv_handle_t *kcoef;     /* [nr] its coefficients (krylov.h), one copy per rank, each */
	double *kcoef_mem;      /* summed by that rank's reduce task from every block's dot row */
	fv_handle_t *kdots;     /* [nb] the blocks' dot rows (their F_KDOT) */
	int ran;                /* fv_solver_run was called before */
	int trace_from;         /* the first traced iteration (fv_runtime_trace_start) */
};

/* Implicit runs cut the CFL and retry a failed iteration (numerics.retries). */
static int guarded(const fv_solver_t *s)
{
	return s->P.implicit != 0 && s->o.num.retries > 0;
}

void fv_solver_opts_default(fv_solver_opts_t *o)
{
	fv_case_t *c = malloc(sizeof *c);
	memset(o, 0, sizeof *o);
	if (c) {
		fv_case_default(c);
		o->num = c->num;
		o->gamma = c->gamma;
		o->pin_blocks = c->pin_blocks;
		free(c);
	} else {
		fv_numerics_default(&o->num);
		o->gamma = 1.4;
	}
	o->winf[0] = 1;
	o->winf[4] = 1 / o->gamma;
	o->p_out = o->winf[4];
	o->lookahead = 3;
}

/* Registered fields are arrays of fv_real_t: the implicit operator's n
 * fv_op_t values rounded up to whole ones. */
static size_t op_reals(size_t n)
{
	return (n * sizeof(fv_op_t) + sizeof(fv_real_t) - 1) / sizeof(fv_real_t);
}

/*
 * numerics.halo_zero_copy = auto keeps a buffer between ranks in host
 * memory up to this size. Measured on 4 H200s (bench/results/
 * 2026-11-27-halo-zero-copy.md): every buffer there (yes) saves StarPU's
 * two copies per message, 5 % on 2 ranks of the 2.53M box (buffers of
 * 0.4-1.4 MB), but costs 5-7 % at 10.37M cells (1-3.5 MB), where the copy
 * engines move the buffers beside the kernels and a kernel reading or
 * writing host memory at the bus's speed holds the GPU's stream; this
 * size gave 2.6 % and 2.8 % on both.
 */
#define FV_HALO_HOST_BYTES ((size_t)512 << 10)

/* Cells in the buffer of halo h from block bk to its neighbour k: the
 * whole run, or in a face halo the prefix, as the sender counts it (bk of
 * this rank) or the receiver (another rank's bk sending here); between
 * two other ranks' blocks the buffer is never used here. */
static fv_idx_t halo_count(const fv_solver_t *s, const fv_block_t *blocks, const fv_block_t *bk, int k, int h)
{
	const fv_block_t *to = &blocks[bk->nbr[k]];
	const block_data_t *d = &s->b[bk->id], *n = &s->b[to->id];
	if (!halo_faces_only(h))
		return bk->send_off[k + 1] - bk->send_off[k];
	if (d->send_pre)
		return d->send_pre[k];
	for (int j = 0; n->recv_pre && j < to->n_nbr; j++)
		if (to->nbr[j] == bk->id)
			return n->recv_pre[j];
	return bk->send_off[k + 1] - bk->send_off[k];
}

/* Whether a halo buffer of this size between ranks stays in host memory. */
static int host_buffer(const fv_solver_t *s, size_t bytes)
{
	return s->zero_copy == 1 || (s->zero_copy == 2 && bytes <= FV_HALO_HOST_BYTES);
}

/*
 * numerics.halo_peer: the pairs of blocks on GPUs of one machine, in
 * different ranks, whose halo buffers go GPU to GPU. The receiving rank
 * allocates the pair's buffers (all halos in one allocation) on its
 * block's GPU and exports them (CUDA IPC); the sending rank maps them on
 * its block's GPU, where the pack kernel writes them; StarPU-MPI then
 * carries an 8-byte token, after which the receiver's unpack reads its own
 * memory, and an ack back, which the next pack of the pair waits for.
 * Measured on 2 H200 (bench/results/2026-11-28-halo-peer.md): the copies
 * through host memory and Open MPI's shared memory were most of what a rank
 * per GPU cost over one process. Collective: every rank learns every
 * pair's choice (the handles registered depend on it).
 */
static size_t peer_layout(const fv_solver_t *s, const fv_block_t *blocks, int b, int k, size_t off[N_HALOS])
{
	size_t at = 0;
	for (int h = 0; h < N_HALOS; h++) {
		size_t n = (size_t)halo_nvars(&s->P, h) * (size_t)halo_count(s, blocks, &blocks[b], k, h);
		off[h] = at;
		at += ((n > 0 ? n : 1) * sizeof(fv_real_t) + 255) / 256 * 256;
	}
	return at;
}

static fv_err_t peer_plan(fv_solver_t *s, const fv_block_t *blocks, char *why, size_t n_why)
{
	int nb = s->nb, me = s->me, mode = s->o.num.halo_peer, n_cand = 0;
	char *gpu = NULL, *ok = NULL;
	int *node_of = NULL;
	unsigned char(*key)[FV_PEER_HANDLE] = NULL;
	fv_err_t err = FV_OK;
	why[0] = 0;
	for (int b = 0; b < nb; b++) {
		block_data_t *d = &s->b[b];
		d->peer_w = -1;
		d->peer_kind = s->rank_of[b] == me ? fv_runtime_peer_kind(d->worker, &d->peer_w) : 0;
		FV_CALL(fv_calloc(&d->peer_out_bytes, (size_t)blocks[b].n_nbr + 1, sizeof(size_t), "halo pairs"));
		FV_CALL(fv_calloc(&d->peer_in_bytes, (size_t)blocks[b].n_nbr + 1, sizeof(size_t), "halo pairs"));
		FV_CALL(fv_calloc(&d->peer_out, (size_t)blocks[b].n_nbr + 1, 1, "halo pairs"));
		FV_CALL(fv_calloc(&d->peer_in, (size_t)blocks[b].n_nbr + 1, 1, "halo pairs"));
		FV_CALL(fv_calloc(&d->peer_ptr, (size_t)blocks[b].n_nbr + 1, sizeof(void *), "halo pairs"));
		FV_CALL(fv_calloc(&d->peer_mem, (size_t)blocks[b].n_nbr + 1, sizeof(void *), "halo pairs"));
		for (int h = 0; h < N_HALOS; h++) {
			FV_CALL(fv_calloc(&d->peer_out_off[h], (size_t)blocks[b].n_nbr + 1, sizeof(size_t), "halo pairs"));
			FV_CALL(fv_calloc(&d->peer_in_off[h], (size_t)blocks[b].n_nbr + 1, sizeof(size_t), "halo pairs"));
		}
	}
	if (s->nr == 1 || mode == FV_OVERLAP_NO)
		return FV_OK;
	/* what memory each block's pairs can use (its rank's knows), and where
	 * the ranks are; auto: GPU blocks alone (measured to pay), yes: CPU
	 * blocks too, through shared memory */
	FV_CALL(fv_calloc(&gpu, (size_t)nb, 1, "block kinds"));
	for (int b = 0; b < nb; b++)
		gpu[b] = (char)(s->rank_of[b] == me ? s->b[b].peer_kind : 0);
	err = fv_runtime_combine(gpu, (size_t)nb, "the blocks' kinds");
	int any = 0;
	for (int b = 0; b < nb; b++) {
		if (gpu[b] != FV_PEER_GPU && mode != FV_OVERLAP_YES)
			gpu[b] = 0;
		any |= gpu[b];
	}
	if (err == FV_OK && !any && mode != FV_OVERLAP_YES) {
		free(gpu); /* CPU ranks: nothing to try */
		return FV_OK;
	}
	if (err == FV_OK)
		err = fv_calloc(&node_of, (size_t)s->nr, sizeof(int), "node of each rank");
	if (err == FV_OK)
		err = fv_runtime_peer_nodes(node_of);
	/* the candidates, in (sender, neighbour) order on every rank; why:
	 * the first pair that is not one (halo_peer = yes's error) */
	char why_not[200] = "";
	for (int b = 0; err == FV_OK && b < nb; b++)
		for (int k = 0; k < blocks[b].n_nbr; k++) {
			int to = blocks[b].nbr[k], rb = s->rank_of[b], rt = s->rank_of[to];
			if (rb == rt)
				continue;
			if (gpu[b] && gpu[b] == gpu[to] && node_of[rb] == node_of[rt]) {
				n_cand++;
				continue;
			}
			if (!why_not[0])
				snprintf(why_not, sizeof why_not, "blocks %d (rank %d) and %d (rank %d): %s", b, rb, to, rt,
					 !gpu[b] || gpu[b] != gpu[to] ? "not both on a GPU of their own, or both on CPU cores"
								      : "on two machines");
		}
	if (err == FV_OK && n_cand > 0)
		err = fv_calloc(&key, (size_t)n_cand, sizeof *key, "halo buffer handles");
	if (err == FV_OK && n_cand > 0)
		err = fv_calloc(&ok, (size_t)n_cand, 1, "halo pairs");
	/* receivers export, senders map, every rank learns which pairs work */
	for (int pass = 0; err == FV_OK && n_cand > 0 && pass < 3; pass++) {
		int p = 0;
		for (int b = 0; b < nb; b++)
			for (int k = 0; k < blocks[b].n_nbr; k++) {
				int to = blocks[b].nbr[k], j = 0;
				size_t off[N_HALOS], bytes;
				if (s->rank_of[b] == s->rank_of[to] || !gpu[b] || gpu[b] != gpu[to] ||
				    node_of[s->rank_of[b]] != node_of[s->rank_of[to]])
					continue;
				int kind = gpu[b];
				while (j < blocks[to].n_nbr && blocks[to].nbr[j] != b)
					j++;
				char w[200] = "";
				static const unsigned char zero[FV_PEER_HANDLE];
				if (pass == 0 && s->rank_of[to] == me && j < blocks[to].n_nbr) {
					bytes = peer_layout(s, blocks, b, k, off);
					s->b[to].peer_in_bytes[j] = bytes;
					if (!fv_runtime_peer_alloc(kind, s->b[to].peer_w, bytes, &s->b[to].peer_mem[j], key[p], w,
								   sizeof w) &&
					    !why[0])
						snprintf(why, n_why, "blocks %d and %d: %s", b, to, w);
				} else if (pass == 1 && s->rank_of[b] == me && memcmp(key[p], zero, sizeof zero) != 0) {
					bytes = peer_layout(s, blocks, b, k, off);
					s->b[b].peer_out_bytes[k] = bytes;
					ok[p] = (char)fv_runtime_peer_open(kind, s->b[b].peer_w, bytes, key[p],
									   &s->b[b].peer_ptr[k], w, sizeof w);
					if (!ok[p] && !why[0])
						snprintf(why, n_why, "blocks %d and %d: %s", b, to, w);
				} else if (pass == 2) {
					if (s->rank_of[to] == me)
						fv_runtime_peer_opened(kind, key[p]);
					s->b[b].peer_out[k] = ok[p];
					if (j < blocks[to].n_nbr)
						s->b[to].peer_in[j] = ok[p];
					if (ok[p]) {
						s->n_peer++;
						peer_layout(s, blocks, b, k, off);
						for (int h = 0; h < N_HALOS; h++) {
							s->b[b].peer_out_off[h][k] = off[h];
							if (j < blocks[to].n_nbr)
								s->b[to].peer_in_off[h][j] = off[h];
						}
					} else if (s->rank_of[to] == me && j < blocks[to].n_nbr && s->b[to].peer_mem[j]) {
						fv_runtime_peer_free(kind, s->b[to].peer_w, s->b[to].peer_mem[j],
								     s->b[to].peer_in_bytes[j]);
						s->b[to].peer_mem[j] = NULL;
					} else if (s->rank_of[b] == me && s->b[b].peer_ptr[k]) {
						fv_runtime_peer_close(kind, s->b[b].peer_w, s->b[b].peer_ptr[k],
								      s->b[b].peer_out_bytes[k]);
						s->b[b].peer_ptr[k] = NULL;
					}
				}
				p++;
			}
		if (pass == 0)
			err = fv_runtime_combine(key, (size_t)n_cand * sizeof *key, "the halo buffers' CUDA IPC handles");
		else if (pass == 1)
			err = fv_runtime_combine(ok, (size_t)n_cand, "the halo pairs that go GPU to GPU");
	}
	free(gpu);
	free(node_of);
	free(key);
	free(ok);
	FV_CALL(err);
	/* yes: every pair between ranks, or an error on every rank */
	int cross = 0;
	for (int b = 0; b < nb; b++)
		for (int k = 0; k < blocks[b].n_nbr; k++)
			cross += s->rank_of[b] != s->rank_of[blocks[b].nbr[k]];
	FV_CHECK(mode != FV_OVERLAP_YES || s->n_peer == cross, FV_ERR_ARG,
		 "[numerics] halo_peer = yes: %d of the %d pairs of blocks between ranks can go GPU to GPU (%s)",
		 s->n_peer, cross, why_not[0] ? why_not : why[0] ? why : "a GPU of another rank failed: its message");
	return FV_OK;
}

/* One of block d's arrays of n values: where its tasks run on a GPU
 * alone, StarPU allocates it there when first used, filled with the
 * zeros a fresh host array holds (a task that reads before any writes,
 * as the first sweep's update or an unused one-value field, reads the
 * same); otherwise host memory, zeroed, pinned unless its tasks run on
 * CPU cores alone. */
static fv_err_t block_vector(const block_data_t *d, fv_handle_t *h, void *mem, size_t n, const char *what)
{
	if (d->lazy) {
		FV_CALL(fv_runtime_vector_lazy(h, mem, n, sizeof(fv_real_t), what));
		fv_set_zero_init(*h);
		return FV_OK;
	}
	if (d->unpinned)
		return fv_runtime_vector_unpinned(h, mem, n, sizeof(fv_real_t), what);
	return fv_runtime_vector(h, mem, n, sizeof(fv_real_t), what);
}

/* Pair (bk, k) goes GPU to GPU (numerics.halo_peer): its buffer of halo h
 * is the token the pack writes (this rank's, owner < 0, or a stand-in for
 * owner's), and its ack the receiver's. Registered in the same order on
 * every rank, as the buffers they replace. */
static fv_err_t peer_token(const fv_solver_t *s, const fv_block_t *blocks, block_data_t *d, const fv_block_t *bk, int k,
			   int h, int owner)
{
	int to = s->rank_of[bk->nbr[k]];
	size_t n = d->buf_bytes[h][k] / sizeof(fv_real_t);
	if (!d->ack[h]) {
		FV_CALL(fv_calloc(&d->ack[h], (size_t)bk->n_nbr + 1, sizeof(fv_handle_t), "halo acks"));
		FV_CALL(fv_calloc(&d->ack_mem[h], (size_t)bk->n_nbr + 1, sizeof(void *), "halo acks"));
		FV_CALL(fv_calloc(&d->dev[h], (size_t)bk->n_nbr + 1, sizeof(fv_handle_t), "halo buffers"));
	}
	if (owner < 0)
		FV_CALL(fv_runtime_vector_mapped(&d->buf[h][k], &d->buf_mem[h][k], 1, sizeof(fv_real_t), "halo token"));
	else
		FV_CALL(fv_runtime_register_remote(&d->buf[h][k], 1, sizeof(fv_real_t), owner, "halo token"));
	if (to != s->me) {
		FV_CALL(fv_runtime_register_remote(&d->ack[h][k], 1, sizeof(fv_real_t), to, "halo ack"));
		return fv_runtime_register_remote(&d->dev[h][k], n, sizeof(fv_real_t), to, "halo buffer");
	}
	/* the receiver: the ack in host memory alone (StarPU-MPI's), the
	 * buffer on its block's GPU, where the sender's kernel writes it */
	const block_data_t *r = &s->b[bk->nbr[k]];
	const fv_block_t *rb = &blocks[bk->nbr[k]];
	int j = 0;
	while (j < rb->n_nbr && rb->nbr[j] != bk->id)
		j++;
	FV_CHECK(j < rb->n_nbr && r->peer_mem[j], FV_ERR_RUNTIME, "block %d: no GPU buffer for the halo from block %d",
		 bk->nbr[k], bk->id);
	FV_CALL(fv_runtime_vector_unpinned(&d->ack[h][k], &d->ack_mem[h][k], 1, sizeof(fv_real_t), "halo ack"));
	return fv_runtime_vector_device(&d->dev[h][k], r->peer_w, (char *)r->peer_mem[j] + r->peer_in_off[h][j], n,
					sizeof(fv_real_t), "halo buffer");
}

/* Block d's neighbours and the halo buffers it packs for them, one per
 * halo kind and neighbour: its own memory (owner < 0), or, for a block of
 * another rank, stand-ins owned by that rank. */
static fv_err_t halo_buffers(const fv_solver_t *s, const fv_block_t *blocks, block_data_t *d, const fv_block_t *bk,
			     int owner)
{
	const fv_params_t *P = &s->P;
	d->n_nbr = bk->n_nbr;
	FV_CALL(fv_calloc(&d->nbr, (size_t)bk->n_nbr + 1, sizeof(int), "neighbours"));
	memcpy(d->nbr, bk->nbr, (size_t)bk->n_nbr * sizeof(int));
	for (int h = 0; h < N_HALOS; h++) {
		FV_CALL(fv_calloc(&d->buf_mem[h], (size_t)bk->n_nbr + 1, sizeof(fv_real_t *), "halo buffers"));
		FV_CALL(fv_calloc(&d->buf[h], (size_t)bk->n_nbr + 1, sizeof(fv_handle_t), "halo handles"));
		FV_CALL(fv_calloc(&d->buf_bytes[h], (size_t)bk->n_nbr + 1, sizeof(size_t), "halo buffer sizes"));
		for (int k = 0; k < bk->n_nbr; k++) {
			/* a neighbour that shares only nodes sends no face halo: one
			 * value, fewer than a cell's, reads as 0 cells */
			size_t n = (size_t)halo_nvars(P, h) * (size_t)halo_count(s, blocks, bk, k, h);
			n = n > 0 ? n : 1;
			d->buf_bytes[h][k] = n * sizeof(fv_real_t);
			/* a buffer to another rank keeps pinned host memory: StarPU-MPI
			 * sends it from there (numerics.halo_zero_copy's kernels write
			 * it there) */
			int cross = s->rank_of[bk->nbr[k]] != s->rank_of[bk->id];
			if (d->peer_out[k]) {
				FV_CALL(peer_token(s, blocks, d, bk, k, h, owner));
				continue;
			}
			if (owner < 0 && d->lazy && !cross)
				FV_CALL(block_vector(d, &d->buf[h][k], &d->buf_mem[h][k], n, "halo buffer"));
			else if (owner < 0 && cross)
				FV_CALL(fv_runtime_vector_mapped(&d->buf[h][k], &d->buf_mem[h][k], n, sizeof(fv_real_t),
								 "halo buffer"));
			else if (owner < 0) /* pinned: GPUs may unpack it */
				FV_CALL(fv_runtime_vector(&d->buf[h][k], &d->buf_mem[h][k], n, sizeof(fv_real_t),
							  "halo buffer"));
			else
				FV_CALL(fv_runtime_register_remote(&d->buf[h][k], n, sizeof(fv_real_t), owner,
								   "halo buffer"));
		}
	}
	return FV_OK;
}

static fv_err_t geo_open(void *arg, size_t bytes)
{
	block_data_t *d = (block_data_t *)arg;
	return fv_runtime_devbuf_open(&d->geo_dev, d->worker, bytes, "block geometry");
}

static fv_err_t geo_put(void *arg, size_t off, const void *src, size_t bytes)
{
	return fv_runtime_devbuf_put(((block_data_t *)arg)->geo_dev, off, src, bytes);
}

/* Block b's blob: where its tasks run on one GPU alone, built straight
 * into that GPU's memory (the host never holds it whole: 340 bytes a cell
 * of tets off the set-up's peak; FVSTAR_GEO_HOST=1 opts out); else in
 * host memory, pinned unless its tasks run on CPU cores alone. */
static fv_err_t geometry_build(fv_solver_t *s, const fv_block_t *blocks, int n_markers, fv_geo_colors_t *colors,
			       int b)
{
	block_data_t *d = &s->b[b];
	int usable = 0;
	if (d->lazy)
		FV_CALL(fv_runtime_devbuf_usable(d->worker, &usable));
	if (usable) {
		fv_geo_sink_t sink = {geo_open, geo_put, d};
		return fv_geo_build_to(&blocks[b], &s->o, n_markers, &sink, &d->L, &colors[b]);
	}
	fv_geo_alloc_t alloc = d->unpinned ? fv_runtime_alloc_unpinned : fv_runtime_alloc;
	return fv_geo_build(&blocks[b], &s->o, n_markers, alloc, &d->L, &d->geo_mem, &colors[b]);
}

/* The geometry blobs of this rank's blocks (d->L, d->geo_mem, colors[b]):
 * each depends only on its block, so any thread count gives the same
 * blobs; what StarPU must see in one order (the registration: the MPI
 * tags) comes after, in build_block. Blocks too small for more threads
 * each than there are blocks (CPU workers: four blocks each; 16 blocks of
 * 41k cells on 64 threads) are built side by side, one thread each;
 * larger ones (GPUs: one block each) one after the other, each by all
 * threads (geo.c's loops), which side by side would run on one. */
static int geometry_of(fv_solver_t *s, const fv_block_t *blocks, int n_markers, fv_geo_colors_t *colors, int b)
{
	block_data_t *d = &s->b[b];
	if (s->rank_of[b] != s->me)
		return 1;
	int ok = geometry_build(s, blocks, n_markers, colors, b) == FV_OK;
	d->bface_of = colors[b].bface_of;
	return ok;
}

static fv_err_t build_geometry(fv_solver_t *s, const fv_block_t *blocks, int n_markers, fv_geo_colors_t *colors)
{
	int nb = s->nb, bad = nb, mine = 0;
	size_t cells = 0;
	for (int b = 0; b < nb; b++)
		if (s->rank_of[b] == s->me) {
			mine++;
			cells += (size_t)blocks[b].n_owned;
		}
	if (mine > 1 && fv_threads_for(cells / (size_t)mine, fv_cells_per_thread()) <= mine &&
	    fv_runtime_alloc_any_thread()) {
		FV_OMP(parallel for schedule(dynamic, 1) reduction(min : bad))
		for (int b = 0; b < nb; b++)
			if (!geometry_of(s, blocks, n_markers, colors, b))
				bad = b < bad ? b : bad;
	} else {
		/* not even a team of one: simulated ranks (fvstar-smpi) share
		 * one thread's OpenMP state, and a dynamic loop gave each
		 * block to whichever rank asked next after an allocation (a
		 * SimGrid call) switched ranks: blocks built twice or never */
		for (int b = 0; b < nb; b++)
			if (!geometry_of(s, blocks, n_markers, colors, b))
				bad = b < bad ? b : bad;
	}
	if (bad == nb)
		return FV_OK;
	/* the first failed block once more on this thread, for its message
	 * (a thread's message stays on that thread) */
	block_data_t *d = &s->b[bad];
	if (d->unpinned)
		fv_runtime_free_unpinned(d->geo_mem);
	else
		fv_runtime_free(d->geo_mem);
	fv_runtime_devbuf_drop(NULL, d->geo_dev);
	free(d->bface_of);
	d->geo_mem = NULL;
	d->geo_dev = NULL;
	d->bface_of = NULL;
	FV_CALL(geometry_build(s, blocks, n_markers, colors, bad));
	d->bface_of = colors[bad].bface_of;
	return FV_ERROR(FV_ERR_RUNTIME, "block %d: the geometry failed on a set-up thread, not on its own", bad);
}

/* numerics.halo_late: yes, or auto where every block of this rank is
 * chained (chain = yes, or auto and the block runs on GPUs only), none is
 * split and one has a neighbour on another rank: there each chain's end
 * and start is also a StarPU-MPI message, and a rank per H200 ran 2-6 %
 * faster with them late (2.53M and 10.37M cells, session 18 calls 2-3).
 * In one process two chains a stage measured no faster on 2 H200s than
 * four (the gradients' halo then waits where it travelled beside the
 * limiter: 3.9 % of the makespan for 1.7 %), and 4 GPUs ran 5.36 ms an
 * iteration with them against 4.79 the session before (call 4). */
static int late_halos(const fv_solver_t *s)
{
	int chained = s->o.num.chain != FV_CHAIN_NO && !s->any_split && s->any_cross;
	for (int b = 0; b < s->nb && chained; b++)
		chained = s->o.num.chain == FV_CHAIN_YES || fv_runtime_worker_gpu_only(s->b[b].worker);
	return s->o.num.halo_late == FV_OVERLAP_YES || (s->o.num.halo_late == FV_OVERLAP_AUTO && chained);
}

/* A block's dot row (F_KDOT) in reals: the reduce tasks of other ranks
 * receive it whole, so a stand-in has its size too. */
static size_t kdot_reals(const fv_solver_t *s)
{
	size_t km = s->gmres ? (size_t)s->o.num.krylov_dim : 0;
	return km ? (km + 1) * FV_KRY_PARTS * sizeof(double) / sizeof(fv_real_t) : 1;
}

int fv_solver_state_rows(const fv_numerics_t *num, int nvar)
{
	return nvar + (num->time_mode == FV_TIME_IMPLICIT && num->cell_cfl > 0);
}

/* The state's rows in its field and snapshots: the state's, then with
 * numerics.cell_cfl each cell's step factor (fv_k_cell_cfl), which the
 * update writes, the snapshots keep for a retry and the restart holds. */
static int state_rows(const fv_solver_t *s)
{
	return fv_solver_state_rows(&s->o.num, s->P.nvar);
}

static fv_err_t build_block(fv_solver_t *s, const fv_block_t *blocks, const fv_block_t *bk,
			    const fv_geo_colors_t *colors)
{
	block_data_t *d = &s->b[bk->id];
	size_t nc = (size_t)bk->n_cells, no = (size_t)bk->n_owned;
	/* the fields' rows: n_cells, n_owned and n_nodes values rounded up to
	 * 128 bytes (the layout's strides, fv_row_stride) */
	size_t sc = (size_t)d->L.sc, so = (size_t)d->L.so, sn = (size_t)d->L.sn;
	/* the face-loop limiters' min/max (one value when unused) */
	int mm = s->o.num.lim_sum != FV_SUM_GATHER && s->o.num.order == 2 && s->o.num.limiter != FV_LIMITER_NONE;
	size_t nv = (size_t)s->P.nvar, rows = (size_t)state_rows(s), snap = s->o.snapshot_every > 0 ? rows * sc : 1;
	int imp = s->P.implicit, sa = fv_k_sa(&s->P);
	size_t km = s->gmres ? (size_t)s->o.num.krylov_dim : 0;
	/* numerics.overlap: the stages that read ghosts run as interior and
	 * border tasks (kernels.h) in every block with neighbours (yes), or in
	 * those on a GPU with a neighbour on another rank whose tasks are not
	 * chained (auto: where the split was measured to pay; chained, with
	 * the halos late, a rank per H200 is 2-6 % faster unsplit: session 18
	 * calls 2-3); never under color_tasks */
	int cross = 0; /* a neighbour on another rank */
	for (int k = 0; k < bk->n_nbr; k++)
		cross |= s->rank_of[bk->nbr[k]] != s->rank_of[bk->id];
	s->any_cross |= cross;
	int gpu_only = fv_runtime_worker_gpu_only(d->worker);
	/* numerics.node_gather: the primitives' side-by-side copy in every
	 * block (cells), or in those that run only on GPUs (auto: measured
	 * 2.7-4.4 % faster on the 10.37M box on H200s, 2026-12-03-halo10.md;
	 * a CPU's prim loop vectorises over the rows only) */
	d->w_cells = s->P.w_cells || (s->o.num.node_gather == FV_NODE_GATHER_AUTO && gpu_only &&
				      s->o.num.nodes_sum != FV_SUM_ATOMIC);
	d->split = !s->o.num.color_tasks && bk->n_nbr > 0 &&
		   (s->o.num.overlap == FV_OVERLAP_YES ||
		    (s->o.num.overlap == FV_OVERLAP_AUTO && cross && gpu_only && s->o.num.chain == FV_CHAIN_NO));
	d->split_nodes = d->split && s->o.num.nodes_sum == FV_SUM_GATHER && s->o.num.grad_sum == FV_SUM_GATHER &&
			 !s->P.lsq;
	{
		/* the border task's faces, as its kernels tell them: from the
		 * block's faces, which the blob holds in the same or colour
		 * order (the blob may be on a GPU already) */
		fv_view_t v;
		memset(&v, 0, sizeof v);
		v.n_owned = bk->n_owned;
		v.n_faces = bk->n_faces;
		v.face_cell = bk->face_cell;
		fv_idx_t nbf = 0;
		FV_OMP(parallel for schedule(static) reduction(+ : nbf) if (v.n_faces > FV_PAR_MIN))
		for (fv_idx_t f = 0; f < v.n_faces; f++) {
			fv_idx_t o, nb;
			nbf += fv_k_face_owned(&v, f, &o, &nb) && fv_k_face_border(&v, f);
		}
		d->n_border_faces = nbf;
	}
	/* the face store, unless the block's flux sums straight into the
	 * residual (kernels.h: tasks that only run on a GPU, atomic or
	 * gather sums) */
	d->flux_direct = d->split && gpu_only &&
			 (s->o.num.flux_sum == FV_SUM_ATOMIC || s->o.num.flux_sum == FV_SUM_GATHER);
	size_t nff = d->split && !d->flux_direct ? (size_t)fv_k_fflux_values(&s->P) * (size_t)bk->n_faces : 1;
	const size_t n[N_FIELDS] = {rows * sc, nv * so, (nv + (d->w_cells ? FV_NVAR : 0)) * sc, FV_NVAR * sn, 3 * FV_NVAR * sc,
				    FV_NVAR * sc, mm ? 2 * FV_NVAR * so : 1, nv * so, no, snap, snap,
				    imp ? nv * sc : 1, imp ? op_reals(fv_op_size(imp, d->L.max_faces, sa, s->P.lines, bk->n_owned)) : 1,
				    nff > 0 ? nff : 1,
				    km ? (km + 1) * nv * so : 1, km ? km * nv * so : 1, km ? nv * so : 1, km ? nv * so : 1,
				    kdot_reals(s)};
	/* 64-byte elements (the blob's alignment): a vector's element count is
	 * 32-bit, and the blob of a 20M-cell block passes 4 GB */
	FV_CHECK(d->L.bytes % 64 == 0, FV_ERR_MEM, "block %d: geometry of %zu bytes", bk->id, d->L.bytes);
	if (d->geo_dev)
		FV_CALL(fv_runtime_devbuf_register(d->geo_dev, &d->geo, d->L.bytes / 64, 64, "block geometry"));
	else
		FV_CALL(fv_runtime_register(&d->geo, d->geo_mem, d->L.bytes / 64, 64, "block geometry"));
	d->n_colors = colors->n;
	memcpy(d->color_off, colors->off, sizeof d->color_off);
	d->n_cell_colors = colors->n_cell;
	memcpy(d->cell_off, colors->cell_off, sizeof d->cell_off);
	/* the state keeps its host memory: set, read back and written to
	 * restarts by the host; the snapshots, primitives and gradients the
	 * host reads seldom (a retry, the wall data) come home on demand
	 * (d->lazy: fv_solver_create) */
	if (d->unpinned)
		FV_CALL(fv_runtime_vector_unpinned(&d->h[F_Q], &d->mem[F_Q], n[F_Q], sizeof(fv_real_t),
						   field_names[F_Q]));
	else
		FV_CALL(fv_runtime_vector(&d->h[F_Q], &d->mem[F_Q], n[F_Q], sizeof(fv_real_t), field_names[F_Q]));
	for (int f = 0; f < N_FIELDS; f++)
		if (f != F_Q)
			FV_CALL(block_vector(d, &d->h[f], &d->mem[f], n[f], field_names[f]));
	FV_CALL(halo_buffers(s, blocks, d, bk, -1));
	FV_CALL(fv_malloc(&d->cell_global, nc + 1, sizeof(fv_idx_t), "cell ids"));
	fv_par_memcpy(d->cell_global, bk->cell_global, nc * sizeof(fv_idx_t));
	/* the blob keeps the block's boundary faces first (face_order =
	 * color may reorder them among themselves) */
	FV_CALL(fv_malloc(&d->bface_global, (size_t)bk->n_bfaces + 1, sizeof(fv_idx_t), "boundary face ids"));
	for (fv_idx_t i = 0; i < bk->n_bfaces; i++)
		d->bface_global[i] = bk->face_global[d->bface_of[i]];
	FV_FREE(d->bface_of);
	return FV_OK;
}

/* Block b of another rank: stand-ins for its data (no memory: the tasks
 * this rank submits for it only send it halo buffers), and its halo
 * buffers, which StarPU-MPI brings here when a block of this rank unpacks
 * them. Registered in the order of build_block, so that every rank names
 * every handle alike. */
static fv_err_t build_remote(fv_solver_t *s, const fv_block_t *blocks, const fv_block_t *bk, int owner)
{
	block_data_t *d = &s->b[bk->id];
	d->worker = -1;
	FV_CALL(fv_runtime_register_remote(&d->geo, 1, 64, owner, "block geometry"));
	for (int f = 0; f < N_FIELDS; f++)
		FV_CALL(fv_runtime_register_remote(&d->h[f], f == F_KDOT ? kdot_reals(s) : 1, sizeof(fv_real_t), owner,
						   field_names[f]));
	FV_CALL(halo_buffers(s, blocks, d, bk, owner));
	return FV_OK;
}

/* The clock of block b's rank (NULL: steady). */
static fv_handle_t block_clock(const fv_solver_t *s, int b)
{
	return s->clocks ? s->clocks[s->rank_of[b]] : NULL;
}

fv_err_t fv_solver_create(fv_solver_t **sp, const fv_mesh_t *m, const fv_block_t *blocks, int n_blocks,
			  const fv_solver_opts_t *o)
{
	fv_solver_t *s;
	FV_CHECK(n_blocks >= 1, FV_ERR_ARG, "solver needs at least one block");
	FV_CHECK(o->num.order == 1 || o->num.order == 2, FV_ERR_ARG, "order must be 1 or 2 (got %d)", o->num.order);
	FV_CHECK(o->num.rk >= 1 && o->num.rk <= 3, FV_ERR_ARG, "rk must be 1, 2 or 3 (got %d)", o->num.rk);
	FV_CHECK(o->marker_bc, FV_ERR_ARG, "solver needs a boundary condition for each marker");
	FV_CALL(fv_numerics_check(&o->num, NULL));
	FV_CALL(fv_calloc(&s, 1, sizeof *s, "solver"));
	s->q_sent_for = -1;
	*sp = s;
	s->o = *o;
	s->nb = n_blocks;
	s->n_cells = m->n_cells;
	s->me = fv_runtime_rank();
	s->nr = fv_runtime_nranks();
	FV_CHECK(n_blocks >= s->nr, FV_ERR_ARG,
		 "%d blocks for %d ranks: every rank needs a block of its own (partition.blocks >= %d)", n_blocks, s->nr,
		 s->nr);
	FV_CALL(fv_calloc(&s->rank_of, (size_t)n_blocks, sizeof(int), "block ranks"));
	for (int b = 0; b < n_blocks; b++)
		s->rank_of[b] = fv_runtime_block_rank(b, n_blocks, o->block_rank);
	/* (yes without GPUs: the same tasks on host memory, as CPU workers
	 * have it anyway; the tests run them so) */
	int ncpu, ncuda;
	fv_runtime_workers(&ncpu, &ncuda);
	FV_CHECK(o->num.halo_zero_copy != FV_OVERLAP_YES || ncuda == 0 || fv_runtime_host_pinned(), FV_ERR_ARG,
		 "[numerics] halo_zero_copy = yes: the GPUs cannot reach host memory that is not pinned "
		 "(STARPU_DISABLE_PINNING is set)");
	s->zero_copy = s->nr == 1 ? 0
		       : o->num.halo_zero_copy == FV_OVERLAP_YES ? 1
		       : o->num.halo_zero_copy == FV_OVERLAP_AUTO && ncuda > 0 && fv_runtime_host_pinned() ? 2
												: 0;
	s->snap_iter[0] = s->snap_iter[1] = s->snap_src[0] = s->snap_src[1] = -1;
	/* two snapshots, and far enough apart that the iterations in flight
	 * when a divergence shows overwrite at most one of them */
	if (s->o.snapshot_every > 0 && s->o.snapshot_every < s->o.lookahead + 3)
		s->o.snapshot_every = s->o.lookahead + 3;
	fv_geo_params(o, &s->P, &s->n_stages, s->rk_a, s->rk_b);
	/* a retry goes back to the latest copy from before the failure: one
	 * every lookahead + 3 iterations, the closest the two can be */
	if (guarded(s))
		s->o.snapshot_every = s->o.lookahead + 3;
	s->cfl = o->num.cfl;
	s->cfl_lo = o->num.cfl;
	s->cfl_hi = o->num.cfl_max;
	s->cfl_cap = o->num.cfl_max;
	s->cfl_bad = HUGE_VAL;
	s->osc_from = INT_MIN;
	s->cap_note_iter = INT_MIN;
	s->sweeps = o->num.sweeps;
	s->sweeps_from = INT_MIN;
	s->gmres = s->P.implicit == FV_IMPLICIT_POINT && o->num.linear == FV_LINEAR_GMRES;
	FV_CHECK(!s->gmres || (n_blocks <= FV_KRY_REDUCE_MAX && o->num.krylov_dim <= FV_KRY_DIM_MAX), FV_ERR_ARG,
		 "[numerics] linear = gmres: at most %d blocks and krylov_dim %d", FV_KRY_REDUCE_MAX, FV_KRY_DIM_MAX);
	if (s->gmres) {
		/* every rank its own copy of the coefficients, registered in rank
		 * order on every rank (StarPU-MPI's tags) */
		size_t n = fv_kry_coef_size(o->num.krylov_dim);
		FV_CALL(fv_calloc(&s->kcoef, (size_t)s->nr, sizeof(fv_handle_t), "krylov coefficients"));
		for (int r = 0; r < s->nr; r++)
			if (r == s->me)
				FV_CALL(fv_runtime_vector(&s->kcoef[r], &s->kcoef_mem, n, sizeof(double),
							  "krylov coefficients"));
			else
				FV_CALL(fv_runtime_register_remote(&s->kcoef[r], n, sizeof(double), r,
								   "krylov coefficients"));
		FV_CALL(fv_calloc(&s->kdots, (size_t)n_blocks, sizeof(fv_handle_t), "krylov dot rows"));
	}
	s->bad_iter = -1;
	s->discard_to = INT_MIN;
	s->resume_iter = INT_MIN;
	s->res_first = o->res0_rho;
	s->trace_from = o->trace_from;
	FV_CALL(fv_calloc(&s->b, (size_t)n_blocks, sizeof *s->b, "block data"));
	/* the worker first: where the tasks may run shapes the data */
	for (int b = 0; b < n_blocks; b++) {
		s->b[b].worker = s->rank_of[b] == s->me ? fv_runtime_block_worker(b, o->pin_blocks, o->block_worker) : -1;
		s->b[b].unpinned = s->rank_of[b] == s->me && fv_runtime_worker_cpu_only(s->b[b].worker);
		if (s->rank_of[b] == s->me)
			FV_CALL(fv_runtime_lazy_fields(s->b[b].worker, &s->b[b].lazy));
	}
	/* the face halos' counts of this rank's blocks first: a block of
	 * another rank sizes its buffers to them from theirs */
	for (int b = 0; b < n_blocks; b++) {
		block_data_t *d = &s->b[b];
		if (s->rank_of[b] != s->me)
			continue;
		FV_CALL(fv_calloc(&d->send_pre, (size_t)blocks[b].n_nbr + 1, sizeof(fv_idx_t), "face halo counts"));
		FV_CALL(fv_calloc(&d->recv_pre, (size_t)blocks[b].n_nbr + 1, sizeof(fv_idx_t), "face halo counts"));
		FV_CALL(fv_block_face_prefix(&blocks[b], d->send_pre, d->recv_pre));
	}
	for (int b = 0; b < n_blocks; b++)
		FV_CHECK(blocks[b].id == b, FV_ERR_ARG, "block %d has id %d", b, blocks[b].id);
	FV_CALL(peer_plan(s, blocks, s->peer_why, sizeof s->peer_why));
	{
		fv_geo_colors_t *colors;
		fv_err_t err;
		double t = fv_now();
		FV_CALL(fv_calloc(&colors, (size_t)n_blocks, sizeof *colors, "block colours"));
		err = build_geometry(s, blocks, m->n_markers, colors);
		if (err == FV_OK && o->geometry_done)
			o->geometry_done(o->geometry_done_arg);
		t = fv_lap("solver: geometry and colours", t);
		for (int b = 0; b < n_blocks && err == FV_OK; b++) {
			if (s->rank_of[b] != s->me) {
				err = build_remote(s, blocks, &blocks[b], s->rank_of[b]);
				continue;
			}
			err = build_block(s, blocks, &blocks[b], &colors[b]);
			s->any_split |= s->b[b].split;
		}
		t = fv_lap("solver: fields and halo buffers", t);
		free(colors);
		FV_CALL(err);
		s->late_halos = late_halos(s);
	}
	/* each block's incoming buffers: its slot in each neighbour's lists */
	for (int b = 0; b < n_blocks; b++)
		for (int h = 0; h < N_HALOS; h++) {
			FV_CALL(fv_calloc(&s->b[b].in_buf[h], (size_t)s->b[b].n_nbr + 1, sizeof(fv_handle_t),
					  "halo buffers"));
			FV_CALL(fv_calloc(&s->b[b].host_out[h], (size_t)s->b[b].n_nbr + 1, 1, "halo buffer places"));
			FV_CALL(fv_calloc(&s->b[b].host_in[h], (size_t)s->b[b].n_nbr + 1, 1, "halo buffer places"));
			FV_CALL(fv_calloc(&s->b[b].in_ack[h], (size_t)s->b[b].n_nbr + 1, sizeof(fv_handle_t), "halo acks"));
			FV_CALL(fv_calloc(&s->b[b].in_dev[h], (size_t)s->b[b].n_nbr + 1, sizeof(fv_handle_t),
					  "halo buffers"));
		}
	for (int b = 0; b < n_blocks; b++)
		for (int k = 0; k < s->b[b].n_nbr; k++) {
			const block_data_t *n = &s->b[s->b[b].nbr[k]];
			int j = 0;
			while (j < n->n_nbr && n->nbr[j] != b)
				j++;
			FV_CHECK(j < n->n_nbr, FV_ERR_MESH, "block %d lists %d as neighbour but not the reverse", b,
				 s->b[b].nbr[k]);
			FV_CHECK(!s->b[b].send_pre || !n->recv_pre || s->b[b].send_pre[k] == n->recv_pre[j], FV_ERR_MESH,
				 "blocks %d and %d count %lld and %lld cells sharing a face between them", b, s->b[b].nbr[k],
				 (long long)s->b[b].send_pre[k], (long long)n->recv_pre[j]);
			int cross = s->rank_of[s->b[b].nbr[k]] != s->rank_of[b];
			for (int h = 0; h < N_HALOS; h++) {
				s->b[b].in_buf[h][k] = n->buf[h][j];
				s->b[b].host_out[h][k] =
					cross && !s->b[b].peer_out[k] && host_buffer(s, s->b[b].buf_bytes[h][k]);
				s->b[b].host_in[h][k] = cross && !s->b[b].peer_in[k] && host_buffer(s, n->buf_bytes[h][j]);
				if (s->b[b].peer_in[k]) {
					s->b[b].in_ack[h][k] = n->ack[h][j];
					s->b[b].in_dev[h][k] = n->dev[h][j];
				}
			}
			if (cross)
				s->b[b].rank_edge = 1;
		}
	{
		/* rows: the blocks', then each rank's clock row */
		int *owner;
		fv_err_t err;
		FV_CALL(fv_calloc(&owner, (size_t)(n_blocks + s->nr), sizeof(int), "ring rows"));
		memcpy(owner, s->rank_of, (size_t)n_blocks * sizeof(int));
		for (int r = 0; r < s->nr; r++)
			owner[n_blocks + r] = r;
		err = fv_ring_create(&s->ring, RING, n_blocks + s->nr, FV_NORMS, s->nr > 1 ? owner : NULL);
		free(owner);
		FV_CALL(err);
	}
	if (o->num.time_mode == FV_TIME_UNSTEADY) {
		/* one clock per rank, reduced over its blocks, the ranks' minima
		 * exchanged before each advances its clock alike */
		FV_CALL(fv_calloc(&s->clocks, (size_t)s->nr, sizeof(fv_handle_t), "clocks"));
		for (int r = 0; r < s->nr; r++) {
			if (r != s->me) {
				FV_CALL(fv_runtime_register_remote(&s->clocks[r], 1, sizeof(fv_clock_t), r, "clock"));
				continue;
			}
			FV_CALL(fv_runtime_vector(&s->clocks[r], &s->clock_mem, 1, sizeof(fv_clock_t), "clock"));
			s->clock_mem->t_end = o->num.t_end;
			s->clock_mem->dt_min = INFINITY;
			fv_clock_set_reduction(s->clocks[r]);
		}
	}
	if (s->nr > 1)
		FV_CALL(fv_runtime_check_names());
	return FV_OK;
}

static void task_args(const fv_solver_t *s, int b, fv_task_args_t *a)
{
	memset(a, 0, sizeof *a);
	a->L = s->b[b].L;
	a->P = s->P;
	a->block = b;
	a->worker = s->b[b].worker;
	/* several ranks: the blocks whose halos cross ranks go first, so that
	 * their messages leave while the other blocks compute (packs go
	 * higher still, codelets/halo) */
	a->priority = s->b[b].rank_edge;
	a->n_colors = s->b[b].n_colors;
	memcpy(a->color_off, s->b[b].color_off, sizeof a->color_off);
	a->n_border_faces = s->b[b].n_border_faces;
	a->flux_direct = s->b[b].flux_direct;
	a->P.w_cells = s->b[b].w_cells;
}

/* Halo h's pack (send) or unpack tasks of every block: one per block over
 * all its neighbours' buffers (numerics.halo_tasks = block), or one per
 * neighbour; neighbour k's buffer for b fills b's ghosts from k. */
static fv_err_t halo_tasks(fv_solver_t *s, int h, int send)
{
	fv_task_args_t a;
	int per_block = s->o.num.halo_tasks == FV_HALO_BLOCK;
	for (int b = 0; b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		fv_handle_t f = d->h[halo_field[h]];
		/* numerics.halo_zero_copy: buffers to and from other ranks that
		 * stay in host memory; a block task takes all of its buffers
		 * there or none (else a task per pair) */
		const char *host = send ? d->host_out[h] : d->host_in[h];
		const char *peer = send ? d->peer_out : d->peer_in;
		int n_host = 0, n_peer = 0;
		for (int k = 0; k < d->n_nbr; k++) {
			n_host += host[k];
			n_peer += peer[k];
		}
		/* (numerics.halo_peer's pairs: a task each) */
		int whole = per_block && d->n_nbr > 0 && n_peer == 0 &&
			    (n_host == 0 || (n_host == d->n_nbr && d->n_nbr <= fv_halo_host_max_buffers()));
		task_args(s, b, &a);
		a.nvars = halo_nvars(&s->P, h);
		a.host_buf = whole && n_host > 0;
		if (whole)
			FV_CALL(send ? fv_insert_pack_all(d->geo, f, d->buf[h], d->n_nbr, &a)
				     : fv_insert_unpack_all(d->geo, d->in_buf[h], d->n_nbr, f, &a));
		for (int k = 0; !whole && k < d->n_nbr; k++) {
			a.nbr = k;
			a.host_buf = host[k];
			if (peer[k] && send) {
				a.peer = (char *)d->peer_ptr[k] + d->peer_out_off[h][k];
				a.peer_n = (long)(d->buf_bytes[h][k] / sizeof(fv_real_t));
				FV_CALL(fv_insert_pack_peer(d->geo, f, d->buf[h][k], d->ack[h][k], &a));
				a.peer = NULL;
				continue;
			}
			if (peer[k]) {
				FV_CALL(fv_insert_unpack_peer(d->geo, d->in_dev[h][k], f, d->in_buf[h][k], d->in_ack[h][k],
							      &a));
				continue;
			}
			FV_CALL(send ? fv_insert_pack(d->geo, f, d->buf[h][k], &a)
				     : fv_insert_unpack(d->geo, d->in_buf[h][k], f, &a));
		}
	}
	return FV_OK;
}

/* Halo h, first half: every block's field packed for each neighbour (one
 * task per block, numerics.halo_tasks = block, or per pair); StarPU, or
 * StarPU-MPI between ranks, moves the buffers. early: tasks will come
 * before the unpack (a split halo); a block pinned to a worker then gets a
 * fetch task that moves its incoming buffers to the worker's memory at
 * once (one rank: between ranks StarPU-MPI receives them as they come). */
static fv_err_t halo_send(fv_solver_t *s, int h, int early)
{
	fv_task_args_t a;
	/* FVSTAR_HALO_FETCH=0: no fetch task (the buffers then move when the
	 * unpack's chain starts): a measurement's switch, checked with the
	 * other FVSTAR_* variables before the run */
	static int fetch = -1;
	if (fetch < 0 && fv_env_switch("FVSTAR_HALO_FETCH", 1, &fetch) != FV_OK)
		fetch = 1;
	FV_CALL(halo_tasks(s, h, 1));
	for (int b = 0; early && fetch && s->nr == 1 && b < s->nb; b++)
		if (s->b[b].worker >= 0 && s->b[b].n_nbr > 0) {
			task_args(s, b, &a);
			FV_CALL(fv_insert_fetch(s->b[b].in_buf[h], s->b[b].n_nbr, &a));
		}
	return FV_OK;
}

/* Halo h, second half: the buffers the neighbours filled unpacked into
 * each block's ghosts. Tasks submitted between the halves that read the
 * field run while the buffers travel (the unpack waits for them). */
static fv_err_t halo_recv(fv_solver_t *s, int h)
{
	return halo_tasks(s, h, 0);
}

/* numerics.overlap: the interior parts of the stages that read the
 * state's ghosts (kernels.h), submitted between the state halo's two
 * halves, so that they run while its buffers travel; the border parts
 * follow in block_stage. */
static fv_err_t interior_tasks(fv_solver_t *s, int rk)
{
	for (int b = 0; b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		fv_handle_t *h = d->h;
		fv_task_args_t a;
		if (!d->split)
			continue;
		task_args(s, b, &a);
		a.part = FV_SPLIT_INTERIOR;
		FV_CALL(fv_insert_prim(h[F_Q], h[F_W], &a));
		if (!d->split_nodes || !fv_stage_runs(FV_STAGE_NODES, &s->P, rk, 1))
			continue;
		FV_CALL(fv_insert_nodes(d->geo, h[F_W], h[F_WN], &a));
		FV_CALL(fv_insert_gradient(d->geo, h[F_W], h[F_WN], h[F_GRAD], &a));
	}
	return FV_OK;
}

static fv_err_t halo(fv_solver_t *s, int h)
{
	FV_CALL(halo_send(s, h, 0));
	return halo_recv(s, h);
}

/* The halo stages of stages.h: the state's in one, the gradient's and the
 * limiter's in two halves (together at the end of the chain where late). */
static fv_err_t halo_stage(fv_solver_t *s, int st)
{
	/* late halos without interior tasks: nothing runs between the halves */
	int early = !s->late_halos || s->any_split;
	switch (st) {
	case FV_STAGE_HALO_Q:
		return halo(s, HALO_Q);
	case FV_STAGE_SEND_GRAD:
		return halo_send(s, HALO_GRAD, early);
	case FV_STAGE_RECV_GRAD:
		return halo_recv(s, HALO_GRAD);
	case FV_STAGE_SEND_PHI:
		return halo_send(s, HALO_PHI, early);
	default:
		return halo_recv(s, HALO_PHI);
	}
}

/* color_tasks: a stage run by colour groups becomes one task per group
 * (the flux always; the other scatter stages when their strategy is color) */
static int group_tasks(const fv_solver_t *s, int sum)
{
	return s->o.num.color_tasks && sum == FV_SUM_COLOR;
}

/* The tasks of stage st of block b (one per colour group when grouped). */
static fv_err_t block_stage(fv_solver_t *s, int st, int b, int rk, int slot)
{
	block_data_t *d = &s->b[b];
	fv_handle_t *h = d->h;
	fv_task_args_t a;
	int groups = 1;
	task_args(s, b, &a);
	switch (st) {
	case FV_STAGE_GRADIENT:
		a.grouped = group_tasks(s, s->P.grad_sum) && !s->P.lsq;
		break;
	case FV_STAGE_LIMITER:
		a.grouped = group_tasks(s, s->P.lim_sum);
		break;
	case FV_STAGE_FLUX:
		a.grouped = s->o.num.color_tasks;
		break;
	case FV_STAGE_TIMESTEP:
		a.grouped = group_tasks(s, s->P.dt_sum);
		break;
	}
	if (a.grouped)
		groups = d->n_colors;
	/* numerics.overlap: the flux in two tasks where the gradients' and
	 * limiters' halos run (second order or viscous); the border parts of
	 * the stages whose interior parts ran during the state's halo
	 * (interior_tasks) */
	int split = d->split && fv_stage_runs(FV_STAGE_RECV_GRAD, &s->P, rk, 1);
	if (st == FV_STAGE_PRIM && d->split)
		a.part = FV_SPLIT_BORDER;
	if ((st == FV_STAGE_NODES || st == FV_STAGE_GRADIENT) && d->split_nodes)
		a.part = FV_SPLIT_BORDER;
	if (st == FV_STAGE_FLUX_INTERIOR)
		return split ? fv_insert_flux_interior(d->geo, h[F_W], h[F_GRAD], h[F_PHI], h[F_FFLUX], h[F_RES], &a)
			     : FV_OK;
	if (st == FV_STAGE_FLUX && split)
		return fv_insert_flux_border(d->geo, h[F_W], h[F_GRAD], h[F_PHI], h[F_FFLUX], h[F_RES], &a);
	for (a.group = 0; a.group < groups; a.group++) {
		switch (st) {
		case FV_STAGE_PRIM:
			FV_CALL(fv_insert_prim(h[F_Q], h[F_W], &a));
			break;
		case FV_STAGE_NODES:
			FV_CALL(fv_insert_nodes(d->geo, h[F_W], h[F_WN], &a));
			break;
		case FV_STAGE_GRADIENT:
			FV_CALL(fv_insert_gradient(d->geo, h[F_W], h[F_WN], h[F_GRAD], &a));
			break;
		case FV_STAGE_LIMITER:
			FV_CALL(fv_insert_limiter(d->geo, h[F_W], h[F_GRAD], h[F_PHI], h[F_MM], &a));
			break;
		case FV_STAGE_FLUX:
			FV_CALL(fv_insert_flux(d->geo, h[F_W], h[F_GRAD], h[F_PHI], h[F_RES], &a));
			break;
		case FV_STAGE_TIMESTEP:
			FV_CALL(fv_insert_timestep(d->geo, h[F_W], h[F_DT], block_clock(s, b), &a));
			break;
		case FV_STAGE_NORMS:
			FV_CALL(fv_insert_norms(d->geo, h[F_W], h[F_GRAD], h[F_PHI], h[F_RES],
						fv_ring_row(s->ring, slot, b), &a));
			break;
		case FV_STAGE_DIAGONAL:
			FV_CALL(fv_insert_diagonal(d->geo, h[F_Q], h[F_DT], h[F_DIAG], h[F_DQ], &a));
			break;
		case FV_STAGE_UPDATE:
			if (s->P.implicit) {
				FV_CALL(fv_insert_implicit_update(d->geo, h[F_DQ], h[F_Q], fv_ring_row(s->ring, slot, b),
								  &a));
				break;
			}
			a.rk_a = s->rk_a[rk];
			a.rk_b = s->rk_b[rk];
			FV_CALL(fv_insert_update(d->geo, h[F_RES], h[F_DT], block_clock(s, b), h[F_Q0], h[F_Q], rk == 0, &a));
			break;
		}
	}
	return FV_OK;
}

/* A trace mark (fv_runtime_trace_step) for the tasks submitted after it;
 * the task chains open before it go to StarPU first, under the marks
 * before (numerics.chain). */
static fv_err_t step_mark(int sub, const char *mark)
{
	FV_CALL(fv_insert_chain_flush());
	fv_runtime_trace_step(sub, mark);
	return FV_OK;
}

/* pairs sweep pairs of every block's colour groups in sweep order, one
 * task each, on the right-hand side -res (the field rhs), each sweep
 * followed by the halo of dq but the last where last_halo is 0; trace
 * marks from sub on. */
static fv_err_t sweep_pairs(fv_solver_t *s, int rhs, int pairs, int last_halo, int sub, const char *what)
{
	for (int k = 0; k < pairs; k++)
		for (int dir = 0; dir < FV_SWEEP_DIRECTIONS; dir++) {
			char mark[64];
			snprintf(mark, sizeof mark, "%s %d %s", what, k, dir == 0 ? "forward" : "backward");
			FV_CALL(step_mark(sub + FV_SWEEP_DIRECTIONS * k + dir, mark));
			for (int b = 0; b < s->nb; b++) {
				block_data_t *d = &s->b[b];
				fv_task_args_t a;
				task_args(s, b, &a);
				for (int i = 0; i < d->n_cell_colors; i++) {
					a.group = fv_sweep_group(dir, i, d->n_cell_colors);
					a.cells_b = d->cell_off[a.group];
					a.cells_e = d->cell_off[a.group + 1];
					FV_CALL(fv_insert_sweep(d->geo, d->h[F_Q], d->h[rhs], d->h[F_DIAG], d->h[F_DQ], &a));
				}
			}
			if (last_halo || k < pairs - 1 || dir < FV_SWEEP_DIRECTIONS - 1)
				FV_CALL(halo(s, HALO_DQ));
		}
	return FV_OK;
}

/* How far the linear solve went (fv_k_sweep_check), into the norm row. */
static fv_err_t sweep_check(fv_solver_t *s, int slot)
{
	for (int b = 0; b < s->nb; b++) {
		fv_task_args_t a;
		task_args(s, b, &a);
		FV_CALL(fv_insert_sweep_check(s->b[b].geo, s->b[b].h[F_Q], s->b[b].h[F_RES], s->b[b].h[F_DIAG],
					      s->b[b].h[F_DQ], fv_ring_row(s->ring, slot, b), &a));
	}
	return FV_OK;
}

/* The sweeps of an implicit iteration (stages.h); the exchange after the
 * last sweep is left out (the update reads owned cells only, and the next
 * diagonal zeroes dq). */
static fv_err_t sweeps(fv_solver_t *s, int slot)
{
	FV_CALL(sweep_pairs(s, F_RES, s->sweeps, 0, 1, "sweep"));
	return sweep_check(s, slot);
}

/* The Krylov tasks' arguments: block b's, direction j, step (krylov.h). */
static void kry_args(const fv_solver_t *s, int b, int j, int step, fv_task_args_t *a)
{
	task_args(s, b, a);
	a->kry_m = s->o.num.krylov_dim;
	a->kry_j = j;
	a->kry_step = step;
}

/* The sum of the blocks' dot rows into the coefficients: one task per
 * rank into its copy (StarPU-MPI brings it the other ranks' rows), each
 * the same sums in the same order, so that every rank's blocks read the
 * same coefficients. */
static fv_err_t kry_reduce(fv_solver_t *s, int step, int j)
{
	fv_task_args_t a;
	for (int b = 0; b < s->nb; b++)
		s->kdots[b] = s->b[b].h[F_KDOT];
	kry_args(s, 0, j, step, &a);
	for (int r = 0; r < s->nr; r++)
		FV_CALL(fv_insert_kry_reduce(s->kcoef[r], s->kdots, s->nb, &a));
	return FV_OK;
}

/* The coefficients block b's tasks read: its rank's copy. */
static fv_handle_t kry_coef(const fv_solver_t *s, int b)
{
	return s->kcoef[s->rank_of[b]];
}

/*
 * The linear solve of numerics.linear = gmres: krylov_cycles cycles of
 * FGMRES(krylov_dim), each direction preconditioned by krylov_sweeps sweep
 * pairs (src/kernels/krylov.h), then the same check as the sweeps'
 * (lin_res comparable between the two). Nothing waits: the dot products
 * go through the reduce task into the coefficients, which the next block
 * tasks read. The ghosts' dq before each product is the halo's, so blocks
 * couple through the product exactly and through the preconditioner as
 * the sweeps do (block Jacobi).
 */
static fv_err_t krylov(fv_solver_t *s, int slot)
{
	int m = s->o.num.krylov_dim, pairs = s->o.num.krylov_sweeps, sub = 1;
	for (int cyc = 0; cyc < s->o.num.krylov_cycles; cyc++) {
		fv_task_args_t a;
		for (int b = 0; b < s->nb; b++) {
			block_data_t *d = &s->b[b];
			kry_args(s, b, 0, cyc > 0, &a);
			FV_CALL(fv_insert_kry_start(d->geo, d->h[F_RES], d->h[F_DIAG], d->h[F_DQ], d->h[F_KV], d->h[F_KDOT],
						    &a));
		}
		FV_CALL(kry_reduce(s, FV_KRY_STEP_START, 0));
		for (int j = 0; j < m; j++) {
			for (int b = 0; b < s->nb; b++) {
				block_data_t *d = &s->b[b];
				kry_args(s, b, j, 0, &a);
				FV_CALL(fv_insert_kry_prep(d->geo, kry_coef(s, b), d->h[F_DIAG], d->h[F_KV], d->h[F_KRHS], d->h[F_DQ],
							   &a));
			}
			FV_CALL(sweep_pairs(s, F_KRHS, pairs, 1, sub, "krylov sweep"));
			sub += FV_SWEEP_DIRECTIONS * pairs;
			for (int b = 0; b < s->nb; b++) {
				block_data_t *d = &s->b[b];
				kry_args(s, b, j, 0, &a);
				FV_CALL(fv_insert_kry_matvec(d->geo, d->h[F_DIAG], d->h[F_DQ], d->h[F_KV], d->h[F_KZ],
							     d->h[F_KDOT], &a));
			}
			FV_CALL(kry_reduce(s, FV_KRY_STEP_COLUMN, j));
			for (int b = 0; b < s->nb; b++) {
				block_data_t *d = &s->b[b];
				kry_args(s, b, j, 0, &a);
				FV_CALL(fv_insert_kry_orth(d->geo, kry_coef(s, b), d->h[F_KV], d->h[F_KDOT], &a));
			}
			FV_CALL(kry_reduce(s, FV_KRY_STEP_NORM, j));
		}
		for (int b = 0; b < s->nb; b++) {
			block_data_t *d = &s->b[b];
			kry_args(s, b, m, cyc > 0, &a);
			FV_CALL(fv_insert_kry_finish(d->geo, kry_coef(s, b), d->h[F_KZ], d->h[F_KX], d->h[F_DQ], &a));
		}
		FV_CALL(halo(s, HALO_DQ));
	}
	return sweep_check(s, slot);
}

/* The sweep pairs an iteration runs (the history's sweeps column): with
 * gmres, those of every preconditioner application. */
static int pairs_run(const fv_solver_t *s)
{
	return s->gmres ? s->o.num.krylov_cycles * s->o.num.krylov_dim * s->o.num.krylov_sweeps : s->sweeps;
}

/*
 * The CFL of implicit iteration n (switched evolution relaxation). The
 * driver submits n once iteration n - lookahead - 1 is done (or n - RING +
 * 1, the ring's bound), never waiting inside an iteration; so n's CFL comes
 * from the density residuals r and the sweeps' linear residual reduction
 * lin of iterations up to m = n - lag, lag = min(lookahead + 1, RING - 1),
 * the same for every run and scheduler:
 *   lin_m > 1:    cfl = max(cfl_0, cfl * cfl_cut), and the ceiling cfl_hi
 *                 half the CFL whose sweeps diverged                (cut)
 *   lin_m > FV_LIN_HOLD: cfl stays (the sweeps near their limit)     (hold)
 *   r_m > r_m-1:  cfl = max(cfl_0, cfl * cfl_cut)             (cut-back)
 *   otherwise:    cfl = min(cfl_hi, cfl * min(cfl_growth, r_m-1 / r_m)),
 * once per submitted iteration, each ratio used once (cfl_ramp = growth:
 * cfl = min(cfl_hi, cfl * cfl_growth), cut by cfl_cut where r_m passes ten
 * times the lowest residual so far, r_m then the reference); cfl_0 (numerics.cfl)
 * until two residuals of this run are known. A run continued from a
 * restart starts the ramp again from cfl_0.
 * The ceiling cfl_hi starts at cfl_max and is lowered by a divergence of
 * the sweeps or a retry; it is no fixed cap: after ceiling_wait() good
 * iterations in a row (lin_m <= FV_LIN_HOLD, nothing cut) it grows
 * FV_CEIL_GROWTH times per good iteration back towards cfl_max, so that
 * the sweeps' convergence, not the first failure, sets the step (the M6
 * medium mesh sat at CFL 15.6 for 550 iterations after two retries with a
 * fixed cap, lin_res 1e-4 throughout). cfl_max stays the top: the
 * sweeps' lin_res does not see the outer iteration's own limit (with the
 * first-order Jacobian at CFL 1e7 the wedge's residual cycled 8.5 orders
 * down, lin_res 1e-3, where at 1e4 it fell to round-off).
 */
#define FV_LIN_HOLD 0.5
/* linear = gmres: its residual cannot grow (lin_res <= 1), so a solve that
 * took less than a tenth of it stagnated, the CFL too large for it, and
 * counts as the sweeps' divergence (cut): the TMR plate from a laminar
 * state sat at CFL 2500 with lin_res 0.96-1.0 for 10 iterations, then its
 * state went NaN */
#define FV_KRY_CUT 0.9
#define FV_RETRY_CFL_MIN 0.1
#define FV_CEIL_GROWTH 1.25
#define FV_CEIL_WAIT 10

/* Good iterations before the ceiling grows: longer after each retry, so
 * that a CFL the flow cannot take is not tried again every few iterations
 * (each try costs a retry). */
static int ceiling_wait(const fv_solver_t *s)
{
	return FV_CEIL_WAIT * (1 + s->retries);
}

/*
 * A stall of an implicit run with Roe's blocks and no jacobian_floor of the
 * case: once the density residual of iteration m lies FV_STALL_DROP orders
 * below the run's peak and has not fallen FV_STALL_FALL times for
 * FV_STALL_ITERS iterations, the face blocks take the eigenvalue floor
 * FV_STALL_FLOOR from then on.
 * On the M6 at Gmsh sf 2 (53k tets) the residual cycled 3.9 orders down
 * from iteration 85 with one cell's update clipped in every iteration
 * (lin_res 5e-4: a near-singular diagonal block where a wave speed
 * vanishes); with the floor from the start it went 8 orders in 150
 * iterations, but a floor from the start cost the laminar plate 35% (0.05)
 * or 14% (0.02) more iterations, so it comes only where the run stalls.
 * A stall need not be flat: at sf 2 with more sweeps the residual wandered
 * 1.5e-9 .. 4e-9 for 50 iterations, one cell clipped, and a dip to half
 * its lowest restarted a count that asked for halving; a tenfold fall in
 * 25 iterations (0.04 orders per iteration) is what a converging run does
 * (the M6 medium mesh on an H100 crawled 0.5 orders per 50 iterations).
 */
#define FV_STALL_DROP 2.0
#define FV_STALL_FALL 0.1
#define FV_STALL_ITERS 25
#define FV_STALL_FLOOR 0.05

static void stall_floor(fv_solver_t *s, int m, double r)
{
	if (s->floor_on || s->o.num.jacobian_floor > 0 || s->P.implicit != FV_IMPLICIT_POINT ||
	    s->o.num.jacobian != FV_JACOBIAN_ROE)
		return;
	s->st_peak = fmax(s->st_peak, r);
	if (s->st_best <= 0 || r < FV_STALL_FALL * s->st_best) {
		s->st_best = r;
		s->st_best_iter = m;
		return;
	}
	if (r < s->st_peak * pow(10, -FV_STALL_DROP) && m - s->st_best_iter >= FV_STALL_ITERS) {
		s->floor_on = 1;
		s->P.jac_floor = (fv_real_t)FV_STALL_FLOOR;
	}
}

/*
 * The ceiling the outer iteration teaches. The sweeps may converge (lin_res
 * small) at a CFL where the outer iteration does not: its first-order
 * blocks do not model the second-order residual, and past some CFL a mode
 * of the update flips sign every iteration and grows. The Mach 6 blunt
 * body at second order (tests/data/blunt.geo, limiter_shock 0.03) showed
 * it: at CFL 1e4 the residual rose from 3.6e-5 to 1.6e-3 and then
 * alternated there (CD alternating in its 4th digit, lin_res 0.05) for 300
 * iterations; at 1000 the same, 1.95 orders down; at 100 half of the steps
 * rose and the residual fell 0.5 orders in 300 iterations; at 30 every
 * step fell, 8 orders in 360. So where a window of FV_OSC_WINDOW steps
 * ran at the ceiling, at least FV_OSC_RISES of them rose and the residual
 * did not fall to FV_OSC_FALL of its first in the window, the ceiling and
 * its top (cfl_cap, which the ceiling grows back to instead of cfl_max)
 * become FV_OSC_CUT times that CFL (a quarter: 1e4 to 40-60 in four
 * windows); the top then grows FV_CEIL_GROWTH times after each window at it
 * whose every step fell, up to half the lowest CFL that failed so.
 * The first time, FV_OSC_FIRST such windows in a row: the SA bump's
 * residual wandered 20 iterations at 1e4 as nu~ came up (8 rising steps
 * in 16, level) and then fell 6 orders there; one window lowered its CFL
 * for good (6.7 orders in 350 iterations, not 8 in 294). Once the rule has
 * fired, one window is evidence enough at each lower CFL.
 * Only at the top (a ceiling lowered by a retry or by sweeps that diverged
 * grows back by itself) and FV_OSC_DROP orders below the run's peak
 * residual: the start's transients (a bow shock moving to its place)
 * wander at any CFL, and a rule that fired at the blunt body's CFL 21
 * there held it at 3.4 with 2.3 orders in 550 iterations. FV_OSC_FALL 0.9,
 * not 0.8: a run falling 0.01 orders per iteration with half of its steps
 * rising is converging (the blunt body at 7 and 1e-9: cut to the floor,
 * 2.4, with 0.8). A run whose residual falls at its ceiling never meets
 * this, and runs as before bit for bit (the inviscid and SA matrices).
 * The blunt body with the defaults (1, 2, 3, 5 blocks, 1-2 workers): 8
 * orders in 440-510 iterations, CD the explicit scheme's to 9 digits.
 */
#define FV_OSC_WINDOW 8
#define FV_OSC_RISES 3
#define FV_OSC_FALL 0.9
#define FV_OSC_CUT 0.25
#define FV_OSC_DROP 1.0
#define FV_OSC_FIRST 3
/* Nor past the run's target (numerics.residual_drop) or more than
 * FV_OSC_FLOOR orders below its peak (at most 3 orders above the
 * precision's round-off): a residual there is noise, whose steps rise as
 * often as they fall; the TMR plate with 500 first-order iterations had
 * its ceiling lowered to CFL 5 at iteration 289 with its residual at
 * 9e-19, and its second-order phase then crawled 2.4 orders in 1000
 * iterations (bench/results/2026-12-01-implicit9.md); the Mach 0.5 ramp
 * of tests/cli/implicit_ceiling_noise.sh went from 1e4 to 1.5 13 orders
 * down. 12, not 10: at 10 the TMR plate of tests/cli/sa_plate.sh (69 x
 * 49, the defaults) kept CFL 1e4 from 10.7 orders down, where main's
 * rule lowered it to 10, and its residual crept from 7e-19 back up to
 * 3e-15 by iteration 600 (the test asks for 10 orders held). */
#define FV_OSC_FLOOR 12.0

/* The density residual below which no ceiling is learnt (FV_OSC_FLOOR). */
static double osc_floor(const fv_solver_t *s)
{
	double f = fmin(FV_OSC_FLOOR, -log10(FV_REAL_EPS) - 3);
	if (s->o.num.residual_drop > 0)
		f = fmin(f, s->o.num.residual_drop);
	return s->res_peak * pow(10, -f);
}

/* Whether the ceiling was lowered for iteration n (m = n - lag is the
 * newest done, r0 and r1 the residuals of m - 1 and m). */
static int ceiling_osc(fv_solver_t *s, int n, int m, double r0, double r1)
{
	double c = s->cfl_of[m % RING];
	if (c != s->cfl_hi || c != s->cfl_cap || !(r1 < s->res_peak * pow(10, -FV_OSC_DROP)) || !(r1 > osc_floor(s))) {
		s->osc_from = INT_MIN;
		s->osc_fails = 0;
		return 0;
	}
	if (s->osc_from == INT_MIN) {
		s->osc_from = m;
		s->osc_up = 0;
		s->osc_r0 = r1;
		return 0;
	}
	s->osc_up += r1 > r0;
	if (m - s->osc_from < FV_OSC_WINDOW)
		return 0;
	int up = s->osc_up;
	double r_first = s->osc_r0;
	s->osc_from = INT_MIN;
	/* cfl_bad is finite once the rule has fired */
	if (up == 0 && s->cfl_cap < fmin(s->o.num.cfl_max, 0.5 * s->cfl_bad)) {
		s->cfl_cap = fmin(fmin(s->o.num.cfl_max, 0.5 * s->cfl_bad), s->cfl_cap * FV_CEIL_GROWTH);
		s->cfl_hi = s->cfl_cap;
		return 0;
	}
	if (up < FV_OSC_RISES || r1 < FV_OSC_FALL * r_first) {
		s->osc_fails = 0;
		return 0;
	}
	if (++s->osc_fails < (s->cfl_bad < HUGE_VAL ? 1 : FV_OSC_FIRST))
		return 0;
	s->osc_fails = 0;
	/* at numerics.cfl (or a retry's lower CFL) already: nothing to cut */
	if (fmax(s->cfl_lo, FV_OSC_CUT * c) >= c)
		return 0;
	s->cfl_bad = fmin(s->cfl_bad, c);
	s->cfl_cap = fmax(s->cfl_lo, FV_OSC_CUT * c);
	s->cfl_hi = s->cfl_cap;
	s->cfl = fmin(s->cfl, s->cfl_hi);
	s->good = 0;
	s->cap_note_iter = n;
	snprintf(s->cap_note, sizeof s->cap_note,
		 "iteration %d: the residual rose in %d of the %d iterations to %d at CFL %.3g and fell only to "
		 "%.3g of its first (%.3e to %.3e): the CFL is held at %.3g from iteration %d on",
		 m, up, FV_OSC_WINDOW, m, c, r1 / r_first, r_first, r1, s->cfl_hi, n);
	return 1;
}

static fv_err_t ramp_cfl(fv_solver_t *s, int n)
{
	const fv_numerics_t *num = &s->o.num;
	int lag = s->o.lookahead + 1 < RING - 1 ? s->o.lookahead + 1 : RING - 1, m = n - lag;
	if (num->cfl_max <= 0 || s->P.implicit == 0)
		return FV_OK;
	/* after a retry, only the residuals from the restored state on */
	if (m - 1 < s->first_iter || m - 1 < s->resume_iter)
		return FV_OK;
	FV_CHECK(m <= s->last_done, FV_ERR_RUNTIME, "iteration %d submitted before iteration %d was done", n, m);
	double r0 = s->res_rho[(m - 1) % RING], r1 = s->res_rho[m % RING], lin = s->lin_of[m % RING];
	stall_floor(s, m, r1);
	/* sweeps that left more than they took in their first step diverged:
	 * the CFL is too large for them, whatever the residual did */
	if (!(lin <= (s->gmres ? FV_KRY_CUT : 1))) {
		/* below numerics.cfl too: the Mach 6 blunt body's sweeps diverge at
		 * its start's CFL 10 */
		s->cfl = fmax(FV_RETRY_CFL_MIN, s->cfl * num->cfl_cut);
		s->cfl_lo = fmin(s->cfl_lo, s->cfl);
		s->cfl_hi = fmax(s->cfl_lo, fmin(s->cfl_hi, 0.5 * s->cfl_of[m % RING]));
		s->good = 0;
		return FV_OK;
	}
	if (lin > FV_LIN_HOLD) {
		s->good = 0;
		return FV_OK;
	}
	if (ceiling_osc(s, n, m, r0, r1))
		return FV_OK;
	if (++s->good > ceiling_wait(s))
		s->cfl_hi = fmin(s->cfl_cap, s->cfl_hi * FV_CEIL_GROWTH);
	if (num->cfl_ramp == FV_CFL_RAMP_GROWTH) {
		if (s->res_best <= 0 || r0 < s->res_best)
			s->res_best = r0;
		if (r1 > 10 * s->res_best) {
			s->cfl = fmax(s->cfl_lo, s->cfl * num->cfl_cut);
			s->res_best = r1; /* the new level is the reference */
			s->good = 0;
		} else {
			s->cfl = fmin(s->cfl_hi, s->cfl * num->cfl_growth);
			if (r1 < s->res_best)
				s->res_best = r1;
		}
		return FV_OK;
	}
	if (r1 > r0)
		s->cfl = fmax(s->cfl_lo, s->cfl * num->cfl_cut);
	else
		s->cfl = fmin(s->cfl_hi, s->cfl * fmin(num->cfl_growth, r0 / r1));
	return FV_OK;
}

/*
 * The sweep pairs of implicit iteration n: numerics.sweeps, raised 1.5x
 * towards sweeps_max (0: FV_SWEEP_AUTO times sweeps) while the sweeps
 * leave more than sweeps_target of the linear residual (lin_res of
 * iterations m - 1 and m, m = n - lag, the lag of ramp_cfl, that ran with
 * the present count: one change per lag + 1). Sweeps that diverged
 * (lin_res > 1) are the CFL's to cut, not more sweeps' to carry. A
 * multicolour sweep carries information a few cells only, so the sweeps
 * a mesh needs grow with it:
 * the M6 medium mesh (979k tets, one H200) held lin_res 0.3-0.56 with 20
 * pairs at CFL 1e4 and fell 4.3 orders in 600 iterations, where 60 went 8
 * in 116 (lin_res 0.002-0.08). The M6 at Gmsh sf 1.5 (114k tets) with 20
 * pairs held 0.15-0.33: 7.86 orders in 250 iterations; with the count
 * grown while lin_res > 0.2, 8 orders in 75 (2815 pairs; > 0.3: 137,
 * 3920). At sf 2 with 8 pairs (20 x the cube root of the cell ratio to
 * the medium mesh), 4.8 orders in 300 before, 8 in 129 now (2770 pairs;
 * 23 pairs, CFL to 1000, 20 first-order iterations: 108, 2484). The
 * matrix runs as with a fixed count (its lin_res does not stay above 0.2;
 * a target of 0.1 for one iteration took the laminar plate to 1.36x the
 * pairs, the blunt body to 1.18x; bench/results/2026-11-27-implicit-sweeps.md).
 * The count never shrinks: shrunk where lin_res fell below 3e-3, the sf 2
 * proxy took 159 iterations instead of 131 for as many pairs (lin_res,
 * dominated by the rough modes, does not see the smooth error fewer
 * sweeps leave). Two iterations in a row above the target, not one: the
 * blunt body's lin_res passes 0.3 for single iterations on the way to a
 * CFL cut (0.54, 0.78 between 1e-7s), and sweeps grown there stayed for
 * the rest of the run (1.66x the pairs).
 * The target (numerics.sweeps_target) was 0.2 and the top 3 x sweeps
 * until the M6s showed what lin_res misses: on one H200 at CFL 1e4 the
 * medium mesh fell 0.05 orders per iteration with 60 pairs (lin_res
 * 0.002-0.14), the shipped case's 90 pairs 0.15 (at CFL 1000, lin_res
 * 0.0003-0.04), 5790 pairs to 8 orders against 9800; the independent
 * 1.66M tets 0.028 and 0.08 (lin_res 0.03-0.17 and 0.015-0.03). The
 * independent M6 at 57k tets (2 cores, CFL 1e4): 67 iterations and 2460
 * pairs to 8 orders with the pairs grown to 45 (lin_res 0.15-0.18 there),
 * 46 and 1941 with a target of 0.1 (68 pairs), 39 and 2340 with 60 pairs
 * from the start. A target of 0.1 and a top of 6 x sweeps (120 pairs):
 * the test matrix's NACA 0012 47 iterations for 80, its M6s 36-38 for
 * 39-49 with fewer pairs, the SA bump as before (0.05 grew its pairs to 30
 * in the start, where it then stalled 6.8 orders down); the blunt body
 * pays (see tests/cli/implicit_matrix.sh; bench/results/2026-11-30-implicit8.md).
 * Counting only the iterations whose residual did not rise won the blunt
 * body back (444 iterations, 4 retries, 12280 pairs for 530, 6, 21090;
 * the CPU matrix otherwise the same to the iteration) but cost the M6
 * medium mesh on one H200 156 iterations, 6.9 s, for 83, 4.8 s: at the
 * top its residual rises in many iterations and its pairs stayed at 68,
 * not 102. Skipping the iterations whose CFL was cut, or going back to the
 * pairs of the state a retry restores, did not help the blunt body
 * (bench/results/2026-12-01-implicit9.md).
 * sweeps_max <= sweeps: a fixed count.
 */
#define FV_SWEEP_GROWTH 1.5
#define FV_SWEEP_AUTO 6

/* The most sweep pairs an iteration may run (sweeps_max, or its default). */
static int sweeps_hi(const fv_solver_t *s)
{
	int lo = s->o.num.sweeps, hi = s->o.num.sweeps_max ? s->o.num.sweeps_max : FV_SWEEP_AUTO * lo;
	return hi > lo ? hi : lo;
}

static void sweep_count(fv_solver_t *s, int n)
{
	int lag = s->o.lookahead + 1 < RING - 1 ? s->o.lookahead + 1 : RING - 1, m = n - lag;
	int hi = sweeps_hi(s), k = s->sweeps;
	if (!s->P.implicit || k >= hi || m - 1 < s->first_iter || m - 1 < s->sweeps_from || m - 1 < s->resume_iter)
		return;
	double lin = s->lin_of[m % RING], lin1 = s->lin_of[(m - 1) % RING];
	if (lin > 1 || !(fmin(lin, lin1) > s->o.num.sweeps_target))
		return;
	s->sweeps = (int)fmin(hi, ceil(k * FV_SWEEP_GROWTH));
	s->sweeps_from = n;
}

/* limiter_freeze_drop: whether the density residual of iteration n - lag
 * (the lag of ramp_cfl: known when n is submitted, whatever the timing)
 * lies that many orders below this run's first; once it does, the limiter
 * stays frozen for the rest of the run. */
static fv_err_t freeze_by_drop(fv_solver_t *s, int n)
{
	int lag = s->o.lookahead + 1 < RING - 1 ? s->o.lookahead + 1 : RING - 1, m = n - lag;
	if (s->o.num.limiter_freeze_drop <= 0 || s->freeze_hit || m < s->first_iter)
		return FV_OK;
	FV_CHECK(m <= s->last_done, FV_ERR_RUNTIME, "iteration %d submitted before iteration %d was done", n, m);
	double r = s->res_rho[m % RING];
	if (s->res_first > 0 && r > 0 && log10(s->res_first / r) >= s->o.num.limiter_freeze_drop)
		s->freeze_hit = 1;
	return FV_OK;
}

/*
 * Safeguards of an implicit run (numerics.retries). Iteration m fails when
 * its density residual (that of the state m starts from) is not finite, its
 * sweeps diverged (lin_res above FV_RETRY_LIN), or
 * is FV_RETRY_JUMP times that of m - 1 at the same order and above any
 * accepted before: the update of m - 1 was too large a step (the second
 * iteration of a run is not judged so: from a uniform start the first
 * residual can be round-off, 1e-19 on the laminar plate). The failure is seen when m is done, so the
 * iterations after it are in flight: the next one submitted, n (m + lag
 * in a run that goes on, as ramp_cfl's lag), first copies back the latest
 * state kept from before the failure (a snapshot of iteration <= m - 2,
 * whose next residual was accepted) and runs at FV_RETRY_CUT times the
 * CFL that failed, which from then on grows to at most half of it;
 * iterations m .. n - 1 are done but thrown away (not reported). Every
 * decision comes from residuals of done iterations at a fixed lag, and the
 * copy is a task submitted in order, so the run is the same whatever the
 * timing or the scheduler, and the state never leaves the device.
 */
#define FV_RETRY_JUMP 100.0
#define FV_RETRY_CUT 0.1
#define FV_RETRY_LIN 100.0

/* Whether done iteration m (density residual res[0]) fails; why into s. */
static int check_failed(fv_solver_t *s, int m, const double res[5], double lin)
{
	s->bad_own = 0;
	static const char *const var[5] = {"rho", "rho u", "rho v", "rho w", "rho E"};
	for (int k = 0; k < 5; k++)
		if (!isfinite(res[k])) {
			snprintf(s->bad_why, sizeof s->bad_why, "the residual of %s is %s", var[k],
				 isnan(res[k]) ? "NaN" : "infinite");
			return 1;
		}
	/* sweeps that diverged this far left an update that is no step of
	 * Newton's (every cell clipped by max_update, the residual creeping up
	 * with no jump to see: the blunt body at CFL 10) */
	if (!(lin <= FV_RETRY_LIN)) {
		snprintf(s->bad_why, sizeof s->bad_why, "the %s diverged (lin_res %.3g)", s->gmres ? "linear solve" : "sweeps",
			 lin);
		s->bad_own = 1;
		return 1;
	}
	if (m - 1 <= s->first_iter || m - 1 < s->resume_iter || s->order_of[m % RING] != s->order_of[(m - 1) % RING])
		return 0;
	double r0 = s->res_rho[(m - 1) % RING];
	if (r0 > 0 && res[0] > FV_RETRY_JUMP * r0 && res[0] > s->res_peak) {
		snprintf(s->bad_why, sizeof s->bad_why, "the density residual jumped %.3g times (%.3e after %.3e)",
			 res[0] / r0, res[0], r0);
		return 1;
	}
	return 0;
}

/* The retry before iteration n (s->bad_iter failed): the kept state copied
 * back on the device, the CFL cut; an error when no retry is left. */
static fv_err_t retry(fv_solver_t *s, int n)
{
	/* the state bad starts from is good where bad's own sweeps failed */
	int bad = s->bad_iter, k = -1, from, last_good = bad - (s->bad_own ? 1 : 2);
	double failed = bad - 1 >= s->first_iter && !s->bad_own ? s->cfl_of[(bad - 1) % RING] : s->cfl_of[bad % RING];
	double cfl = fmin(s->cfl, failed) * FV_RETRY_CUT;
	for (int j = 0; j < 2; j++)
		if (s->snap_iter[j] >= 0 && s->snap_iter[j] <= last_good &&
		    (k < 0 || s->snap_iter[j] > s->snap_iter[k]))
			k = j;
	/* a run that still fails says what it tried */
	if (s->retries >= s->o.num.retries || cfl < FV_RETRY_CFL_MIN || k < 0)
		return FV_ERROR(FV_ERR_NUMERIC,
				"iteration %d: %s: the solution diverged; tried %d cuts of the CFL with a retry from the "
				"last good state (numerics.retries = %d), the last at CFL %.3g%s; the CFL reached %.3g "
				"at most, retries (failed CFL -> CFL of the retry):%s; lin_res of the failed iteration "
				"%.3g, the ceiling of the ramp %.3g",
				bad, s->bad_why, s->retries, s->o.num.retries, failed,
				k < 0 ? ", and no state from before it is kept" :
				cfl < FV_RETRY_CFL_MIN ? ", too small to cut further" : "",
				s->cfl_top, s->tried[0] ? s->tried : " none", s->lin_of[bad % RING], s->cfl_hi);
	from = s->snap_src[k];
	for (int b = 0; b < s->nb; b++) {
		fv_task_args_t a;
		task_args(s, b, &a);
		FV_CALL(fv_insert_copy(s->b[b].h[F_SNAP0 + k], s->b[b].h[F_Q], &a));
	}
	s->q_sent_for = -1; /* the state packed for iteration n is not the one it starts from */
	/* the other copy, if newer, holds a state on the way to the failure */
	if (s->snap_iter[1 - k] > s->snap_iter[k])
		s->snap_iter[1 - k] = -1;
	s->snap_iter[k] = n - 1; /* the state iteration n starts from */
	snprintf(s->retry_note, sizeof s->retry_note,
		 "iteration %d: %s; iterations %d to %d thrown away, iteration %d goes on from the state after "
		 "iteration %d at CFL %.3g (%.3g failed; at most %.3g until the sweeps converge for some "
		 "iterations)",
		 bad, s->bad_why, bad, n - 1, n, from, cfl, failed, fmax(cfl, fmin(s->cfl_hi, 0.5 * failed)));
	{
		size_t len = strlen(s->tried);
		if (len + 40 < sizeof s->tried)
			snprintf(s->tried + len, sizeof s->tried - len, "%s %.3g -> %.3g", len ? "," : "", failed, cfl);
		else if (len + 5 < sizeof s->tried && !strstr(s->tried, "..."))
			strcat(s->tried, ", ...");
	}
	s->cfl = cfl;
	s->cfl_lo = fmin(s->cfl_lo, cfl);
	s->cfl_hi = fmax(cfl, fmin(s->cfl_hi, 0.5 * failed));
	s->good = 0;
	s->res_best = 0;
	s->phi_valid = 0; /* a frozen limiter may hold the failed state's values */
	s->resume_iter = n;
	s->discard_to = n - 1;
	s->bad_iter = -1;
	s->retries++;
	return FV_OK;
}

/* The clock task of an unsteady iteration. Several ranks: first the ranks'
 * minimum steps are exchanged (dissemination: in round k each rank takes
 * the minimum of the rank 2^k before it, so after ceil(log2 R) rounds every
 * rank holds the global minimum, exact whatever the order), then each rank
 * advances its own clock alike and writes its clock row. */
static fv_err_t advance_clocks(fv_solver_t *s, int slot)
{
	fv_task_args_t a;
	task_args(s, 0, &a);
	for (int k = 1; k < s->nr; k *= 2)
		for (int r = 0; r < s->nr; r++)
			FV_CALL(fv_insert_clock_merge(s->clocks[r], s->clocks[(r - k + s->nr) % s->nr], &a));
	for (int r = 0; r < s->nr; r++)
		FV_CALL(fv_insert_clock(s->clocks[r], fv_ring_row(s->ring, slot, s->nb + r), &a));
	return FV_OK;
}

static fv_err_t submit_tasks(fv_solver_t *s, int iter)
{
	int slot = iter % RING;
	if (s->bad_iter >= 0)
		FV_CALL(retry(s, iter));
	/* the iteration's CFL and order go to its tasks through s->P */
	FV_CALL(ramp_cfl(s, iter));
	if (!s->gmres)
		sweep_count(s, iter);
	s->sweeps_of[slot] = pairs_run(s);
	s->P.cfl = (fv_real_t)s->cfl;
	s->P.order = iter <= s->o.num.first_order ? 1 : s->o.num.order;
	/* order_ramp: iteration first_order + k extrapolates k / order_ramp of
	 * the limited gradient (a softer switch); 1 (exact) afterwards */
	s->P.blend = 1;
	if (s->o.num.order_ramp > 0 && iter - s->o.num.first_order < s->o.num.order_ramp)
		s->P.blend = (fv_real_t)(iter - s->o.num.first_order) / (fv_real_t)s->o.num.order_ramp;
	s->cfl_of[slot] = s->cfl;
	s->cfl_top = fmax(s->cfl_top, s->cfl);
	s->order_of[slot] = s->P.order;
	s->retries_of[slot] = s->retries;
	/* past limiter_freeze, or once the residual has dropped
	 * limiter_freeze_drop orders, the last limiter (owned and ghost
	 * values) stays; a solver that has not computed one yet (a run
	 * continued from a restart) computes it once */
	FV_CALL(freeze_by_drop(s, iter));
	int frozen = ((s->o.num.limiter_freeze > 0 && iter > s->o.num.limiter_freeze) || s->freeze_hit) &&
		     s->phi_valid;
	s->frozen_of[slot] = frozen;
	/* traces: the iteration's tasks carry its number, and the RK stage
	 * (implicit: 0 the residual, then each sweep, then the update) */
	fv_runtime_trace_iteration(iter);
	fv_insert_chain_open(s->o.num.chain);
	for (int rk = 0; rk < s->n_stages; rk++)
		for (int i = 0; i < FV_N_STAGES; i++) {
			int st = s->late_halos ? fv_stage_order_late[i] : i;
			if (!fv_stage_runs(st, &s->P, rk, !frozen))
				continue;
			if (st == FV_STAGE_HALO_Q) { /* the first stage, always run */
				char mark[32];
				snprintf(mark, sizeof mark, s->P.implicit ? "residual" : "rk %d", rk);
				/* the state's packs end the update's chains
				 * (numerics.chain), under the mark of the stage
				 * before: the first RK stage's were submitted at the
				 * end of the iteration before (q_sent_for) */
				if (!s->any_split) {
					int sent = rk == 0 && s->q_sent_for == iter;
					if (rk > 0)
						FV_CALL(halo_send(s, HALO_Q, 0));
					FV_CALL(step_mark(rk, mark));
					if (rk == 0 && !sent)
						FV_CALL(halo_send(s, HALO_Q, 0));
					s->q_sent_for = -1;
					FV_CALL(halo_recv(s, HALO_Q));
					continue;
				}
				FV_CALL(step_mark(rk, mark));
			}
			if (st == FV_STAGE_UPDATE && s->P.implicit)
				FV_CALL(step_mark(1 + FV_SWEEP_DIRECTIONS * pairs_run(s), "update"));
			if (st == FV_STAGE_HALO_Q && s->any_split) {
				FV_CALL(halo_send(s, HALO_Q, 1));
				FV_CALL(interior_tasks(s, rk));
				FV_CALL(halo_recv(s, HALO_Q));
				continue;
			}
			if (fv_stage_is_halo(st)) {
				FV_CALL(halo_stage(s, st));
				continue;
			}
			if (st == FV_STAGE_SWEEPS) {
				FV_CALL(s->gmres ? krylov(s, slot) : sweeps(s, slot));
				continue;
			}
			for (int b = 0; b < s->nb; b++)
				FV_CALL(block_stage(s, st, b, rk, slot));
			if (st == FV_STAGE_LIMITER)
				s->phi_valid = 1;
			if (st == FV_STAGE_TIMESTEP && s->clocks)
				FV_CALL(advance_clocks(s, slot));
		}
	/* the next iteration's state halo packed now, at the end of this
	 * one's chains (not after the call's last iteration) */
	if (!s->any_split && iter < s->run_last) {
		FV_CALL(halo_send(s, HALO_Q, 0));
		s->q_sent_for = iter + 1;
	}
	/* guarded: every snapshot_every iterations from the newest (a retry
	 * relabels the one it went back to) */
	if (s->o.snapshot_every > 0 &&
	    (guarded(s) ? iter - (s->snap_iter[0] > s->snap_iter[1] ? s->snap_iter[0] : s->snap_iter[1]) >=
				  s->o.snapshot_every
			: iter % s->o.snapshot_every == 0)) {
		int k = s->snap_iter[0] <= s->snap_iter[1] ? 0 : 1; /* the older one */
		for (int b = 0; b < s->nb; b++) {
			fv_task_args_t a;
			task_args(s, b, &a);
			FV_CALL(fv_insert_copy(s->b[b].h[F_Q], s->b[b].h[F_SNAP0 + k], &a));
		}
		s->snap_iter[k] = s->snap_src[k] = iter;
	}
	FV_CALL(fv_insert_chain_close());
	fv_runtime_trace_iteration(-1);
	/* residuals (and the clock) come back without waiting */
	return fv_ring_post(s->ring, slot, s->nb + (s->clocks ? s->nr : 0), iter);
}

/* Iteration iter's tasks; the task chains closed whatever happens (no
 * task may stay unsubmitted when the driver waits). */
static fv_err_t submit_iteration(fv_solver_t *s, int iter)
{
	fv_err_t err = submit_tasks(s, iter);
	fv_err_t e = fv_insert_chain_close();
	return err != FV_OK ? err : e;
}

/* The sums of one iteration's rows, added in block order, so the history
 * does not depend on which worker ran what (a StarPU reduction would). */
static void sum_rows(const fv_solver_t *s, const double *n, double sums[FV_NORMS])
{
	memset(sums, 0, FV_NORMS * sizeof *sums);
	for (int b = 0; b < s->nb; b++)
		for (int k = 0; k < FV_NORMS; k++)
			if (k != FV_NORM_T && k != FV_NORM_DT)
				sums[k] += n[(size_t)b * FV_NORMS + k];
	if (s->clocks) {
		/* every rank's clock row holds the same time; this rank's */
		sums[FV_NORM_T] = n[(size_t)(s->nb + s->me) * FV_NORMS + FV_NORM_T];
		sums[FV_NORM_DT] = n[(size_t)(s->nb + s->me) * FV_NORMS + FV_NORM_DT];
	}
}

fv_err_t fv_solver_run(fv_solver_t *s, int first_iter, int last_iter, double t0, fv_iter_cb cb, void *ctx,
		       int *done)
{
	int next_submit = first_iter, next_done = first_iter, stop = 0;
	double start = fv_now();
	fv_err_t err = FV_OK;
	*done = first_iter - 1;
	s->q_sent_for = -1;
	s->run_last = last_iter;
	/* a run continued in this process from the next iteration (the
	 * segments between restart files) keeps the residuals of the earlier
	 * ones for the CFL ramp and limiter_freeze_drop: with a new start the
	 * ramp stood still for its lag at every restart_every (never grew with
	 * restart_every = 5) */
	if (!(s->ran && first_iter == s->last_done + 1))
		s->first_iter = first_iter;
	s->ran = 1;
	if (s->trace_from <= 0)
		s->trace_from = first_iter; /* output.trace_from = 0: the run's first */
	s->last_done = first_iter - 1;
	if (s->clocks) {
		FV_CALL(fv_runtime_acquire(s->clocks[s->me], 1, "the clock"));
		s->clock_mem->t = t0;
		s->clock_mem->dt_min = INFINITY;
		fv_runtime_release(s->clocks[s->me]);
	}
	/* the state the run starts from is the first one kept */
	if (s->o.snapshot_every > 0 && s->snap_iter[0] < 0 && s->snap_iter[1] < 0) {
		for (int b = 0; b < s->nb; b++) {
			fv_task_args_t a;
			task_args(s, b, &a);
			FV_CALL(fv_insert_copy(s->b[b].h[F_Q], s->b[b].h[F_SNAP0], &a));
		}
		s->snap_iter[0] = s->snap_src[0] = first_iter - 1;
	}
	while (next_done <= last_iter && err == FV_OK) {
		while (!stop && !(s->o.stop_flag && *s->o.stop_flag) && next_submit <= last_iter &&
		       next_submit < next_done + s->o.lookahead + 1 &&
		       next_submit - next_done < RING - 1) {
			if (next_submit >= s->trace_from)
				fv_runtime_trace_start(); /* once, when tracing */
			err = submit_iteration(s, next_submit);
			if (err != FV_OK)
				break;
			next_submit++;
		}
		if (err != FV_OK || next_done >= next_submit)
			break;
		/* the next iteration in order */
		double sums[FV_NORMS];
		fv_iter_info_t info;
		sum_rows(s, fv_ring_wait(s->ring, next_done % RING), sums);
		if (s->o.data_free)
			memset(sums, 0, sizeof sums);
		memset(&info, 0, sizeof info);
		info.iter = next_done;
		info.wall = fv_now() - start;
		for (int k = 0; k < 5; k++)
			info.res[k] = sqrt(sums[k] / (sums[FV_NORM_CELLS] > 0 ? sums[FV_NORM_CELLS] : 1));
		info.res_nut = sqrt(sums[FV_NORM_NUT] / (sums[FV_NORM_CELLS] > 0 ? sums[FV_NORM_CELLS] : 1));
		for (int d = 0; d < 3; d++) {
			info.force[d] = sums[FV_NORM_F + d];
			info.moment[d] = sums[FV_NORM_M + d];
		}
		info.t = sums[FV_NORM_T];
		info.dt = sums[FV_NORM_DT];
		info.cfl = s->cfl_of[next_done % RING];
		info.limiter_frozen = s->frozen_of[next_done % RING];
		info.retries = s->retries_of[next_done % RING];
		info.sweeps = s->P.implicit ? s->sweeps_of[next_done % RING] : 0;
		s->res_rho[next_done % RING] = info.res[0];
		if (s->P.implicit)
			/* NaN where the check's sums are: an operator or a solve gone
			 * non-finite (a NaN update that the state's guards kept out
			 * would leave no other trace) */
			info.lin = !isfinite(sums[FV_NORM_LIN0] + sums[FV_NORM_LIN]) ? NAN
				   : sums[FV_NORM_LIN0] > 0 ? sqrt(sums[FV_NORM_LIN] / sums[FV_NORM_LIN0])
							    : 0;
		if (s->P.implicit)
			info.clipped = sums[FV_NORM_CLIP];
		s->lin_of[next_done % RING] = info.lin;
		s->last_done = next_done;
		*done = next_done;
		next_done++;
		/* guarded: a failed iteration and those in flight after it are
		 * thrown away; the next submission retries */
		if (guarded(s)) {
			if (s->bad_iter >= 0 || info.iter <= s->discard_to)
				continue;
			if (check_failed(s, info.iter, info.res, info.lin)) {
				s->bad_iter = info.iter;
				continue;
			}
			if (info.iter == s->resume_iter)
				info.retry_note = s->retry_note;
			else if (info.iter == s->cap_note_iter)
				info.retry_note = s->cap_note;
			s->res_peak = fmax(s->res_peak, info.res[0]);
		}
		if (s->res_first <= 0)
			s->res_first = info.res[0];
		for (int k = 0; k < 5; k++)
			if (!isfinite(info.res[k])) {
				static const char *const var[5] = {"rho", "rho u", "rho v", "rho w", "rho E"};
				err = FV_ERROR(FV_ERR_NUMERIC, "iteration %d: the residual of %s is %s: the solution diverged",
					       info.iter, var[k], isnan(info.res[k]) ? "NaN" : "infinite");
				break;
			}
		/* unguarded (retries = 0): the update of sweeps that diverged is
		 * clipped in every cell rather than NaN, so it stops here */
		if (err == FV_OK && s->P.implicit && !guarded(s) && !(info.lin <= FV_RETRY_LIN))
			err = FV_ERROR(FV_ERR_NUMERIC,
				       "iteration %d: the sweeps diverged (lin_res %.3g at CFL %g): the solution diverged",
				       info.iter, info.lin, info.cfl);
		/* iterations submitted before a stop still run; they are not reported */
		if (err == FV_OK && !stop && cb && cb(&info, ctx))
			stop = 1;
		if (s->clocks && info.t >= s->o.num.t_end)
			stop = 1; /* later iterations in flight have dt = 0 */
		if (stop && next_done >= next_submit)
			break;
	}
	/* a failure with no submission after it (the last iteration, a stop):
	 * the copy goes in now, so that the run ends on a good state */
	if (err == FV_OK && s->bad_iter >= 0)
		err = retry(s, next_submit);
	/* several ranks: the wait is collective; after an error of this rank
	 * alone the others never join it (the caller stops them all), while a
	 * divergence is every rank's */
	if (err == FV_OK || err == FV_ERR_NUMERIC || fv_runtime_nranks() == 1)
		fv_runtime_wait_all();
	return err;
}

/*
 * The ramp's state for a restart file (implicit runs): what the CFL of the
 * iterations after the last one done depends on, so that a run continued
 * from the file submits them with the CFL an uninterrupted run would:
 *   [0] FV_RAMP_TAG   [1] the last iteration done   [2] the window W
 *   [3] the CFL       [4] res_best   [5] res_peak    [6] cfl_lo
 *   [7] cfl_hi        [8] first_iter [9] resume_iter [10] discard_to
 *   [11] retries      [12] freeze_hit  [13] good    [14] the run's cfl_max
 *   [15] floor_on     [16] st_peak     [17] st_best [18] st_best_iter
 *   [19] sweeps       [20] sweeps_from (sweep_count)
 *   [21] cfl_cap      [22] cfl_bad     [23] osc_from [24] osc_up
 *   [25] osc_r0       [26] osc_fails (ceiling_osc)
 *   then for each of the last W iterations (oldest first): its density
 *   residual, CFL, lin_res and order.
 * W = lag + 1, the residuals ramp_cfl and check_failed still read (those
 * of iterations before first_iter, never read, as they are). The
 * device's snapshots are not in it: a retry soon after a restart goes back
 * to the restart's state.
 */
#define FV_RAMP_TAG 24.4 /* the layout above (issue 24) */
#define FV_RAMP_HEAD 27
#define FV_RAMP_TAG_3 24.3 /* the third layout: [0]-[20] above */
#define FV_RAMP_HEAD_3 21
#define FV_RAMP_TAG_2 24.2 /* the second layout: [0]-[18] above */
#define FV_RAMP_HEAD_2 19
#define FV_RAMP_TAG_1 24.1 /* the first layout: [0]-[12] above */
#define FV_RAMP_HEAD_1 13

static int ramp_window(const fv_solver_t *s)
{
	return (s->o.lookahead + 1 < RING - 1 ? s->o.lookahead + 1 : RING - 1) + 1;
}

/* An iteration number as a double; INT_MIN (none) as -1e300. */
static double iter_value(int i)
{
	return i == INT_MIN ? -1e300 : (double)i;
}

static int iter_of(double v)
{
	return v < (double)INT_MIN + 1 ? INT_MIN : (int)v;
}

fv_err_t fv_solver_get_ramp_state(const fv_solver_t *s, double *v, int max, int *n)
{
	int w = ramp_window(s), last = s->last_done;
	*n = 0;
	if (!s->P.implicit || !s->ran || FV_RAMP_HEAD + 4 * w > max || last < s->first_iter)
		return FV_OK; /* nothing to keep: the ramp starts again */
	double head[FV_RAMP_HEAD] = {FV_RAMP_TAG,
				     last,
				     w,
				     s->cfl,
				     s->res_best,
				     s->res_peak,
				     s->cfl_lo,
				     s->cfl_hi,
				     s->first_iter,
				     iter_value(s->resume_iter),
				     iter_value(s->discard_to),
				     s->retries,
				     s->freeze_hit,
				     s->good,
				     s->o.num.cfl_max,
				     s->floor_on,
				     s->st_peak,
				     s->st_best,
				     s->st_best_iter,
				     s->sweeps,
				     iter_value(s->sweeps_from),
				     s->cfl_cap,
				     s->cfl_bad,
				     iter_value(s->osc_from),
				     s->osc_up,
				     s->osc_r0,
				     s->osc_fails};
	memcpy(v, head, sizeof head);
	for (int k = 0; k < w; k++) {
		int slot = (last - w + 1 + k) % RING;
		double *e = v + FV_RAMP_HEAD + 4 * k;
		e[0] = s->res_rho[slot];
		e[1] = s->cfl_of[slot];
		e[2] = s->lin_of[slot];
		e[3] = s->order_of[slot];
	}
	*n = FV_RAMP_HEAD + 4 * w;
	return FV_OK;
}

fv_err_t fv_solver_set_ramp_state(fv_solver_t *s, const double *v, int n)
{
	int w = ramp_window(s), head = FV_RAMP_HEAD;
	if (n > 0 && v[0] == FV_RAMP_TAG_1)
		head = FV_RAMP_HEAD_1;
	else if (n > 0 && v[0] == FV_RAMP_TAG_2)
		head = FV_RAMP_HEAD_2;
	else if (n > 0 && v[0] == FV_RAMP_TAG_3)
		head = FV_RAMP_HEAD_3;
	if (n == 0 || !s->P.implicit)
		return FV_OK;
	FV_CHECK(n == head + 4 * w &&
			 (v[0] == FV_RAMP_TAG || v[0] == FV_RAMP_TAG_1 || v[0] == FV_RAMP_TAG_2 || v[0] == FV_RAMP_TAG_3) &&
			 v[2] == w,
		 FV_ERR_ARG,
		 "the restart's solver state (%d values, tag %g) is not this solver's CFL ramp (%d values, tag %g)",
		 n, n > 0 ? v[0] : 0.0, FV_RAMP_HEAD + 4 * w, FV_RAMP_TAG);
	int last = (int)v[1];
	s->cfl = v[3];
	s->res_best = v[4];
	s->res_peak = v[5];
	/* the bounds a retry or the sweeps lowered stay; otherwise the case's
	 * (a continued run may set another cfl_max) */
	if (v[11] > 0 || (head != FV_RAMP_HEAD_1 && v[7] < v[14])) {
		s->cfl_lo = v[6];
		s->cfl_hi = fmin(v[7], s->o.num.cfl_max);
	}
	if (s->o.num.cfl_max > 0)
		s->cfl = fmax(s->cfl_lo, fmin(s->cfl, s->cfl_hi));
	s->first_iter = (int)v[8];
	s->resume_iter = iter_of(v[9]);
	s->discard_to = iter_of(v[10]);
	s->retries = (int)v[11];
	s->freeze_hit = (int)v[12];
	/* the sweep count the run had reached, within this run's bounds */
	if (head == FV_RAMP_HEAD || head == FV_RAMP_HEAD_3) {
		s->sweeps = (int)fmin(sweeps_hi(s), fmax(s->o.num.sweeps, v[19]));
		s->sweeps_from = iter_of(v[20]);
	}
	/* the ceiling the run learnt, within this run's cfl_max */
	if (head == FV_RAMP_HEAD) {
		s->cfl_cap = fmin(v[21], s->o.num.cfl_max);
		s->cfl_bad = v[22];
		s->osc_from = iter_of(v[23]);
		s->osc_up = (int)v[24];
		s->osc_r0 = v[25];
		s->osc_fails = (int)v[26];
	}
	if (head != FV_RAMP_HEAD_1) {
		s->good = (int)v[13];
		s->floor_on = (int)v[15];
		s->st_peak = v[16];
		s->st_best = v[17];
		s->st_best_iter = (int)v[18];
		if (s->floor_on)
			s->P.jac_floor = (fv_real_t)FV_STALL_FLOOR;
	}
	for (int k = 0; k < w; k++) {
		int slot = (last - w + 1 + k) % RING;
		const double *e = v + head + 4 * k;
		s->res_rho[slot] = e[0];
		s->cfl_of[slot] = e[1];
		s->lin_of[slot] = e[2];
		s->order_of[slot] = (int)e[3];
	}
	/* fv_solver_run continues this run from last + 1, first_iter kept */
	s->ran = 1;
	s->last_done = last;
	return FV_OK;
}

fv_err_t fv_solver_set_state(fv_solver_t *s, const fv_real_t *qg)
{
	size_t N = (size_t)s->n_cells;
	s->q_sent_for = -1;
	for (int b = 0; b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		size_t nc = (size_t)d->L.n_cells, sc = (size_t)d->L.sc;
		if (s->rank_of[b] != s->me)
			continue;
		FV_CALL(fv_runtime_acquire(d->h[F_Q], 1, "the state"));
		fv_real_t *q = fv_runtime_host_ptr(d->h[F_Q]);
		for (int k = 0; k < s->P.nvar; k++)
			for (size_t i = 0; i < nc; i++)
				q[k * sc + i] = qg[k * N + (size_t)d->cell_global[i]];
		for (size_t i = 0; state_rows(s) > s->P.nvar && i < nc; i++)
			q[(size_t)s->P.nvar * sc + i] = 1;
		fv_runtime_release(d->h[F_Q]);
	}
	return FV_OK;
}

/* Field f (the state or a snapshot) of every block's owned cells into a
 * global array (waits for the tasks writing it); several ranks: each
 * gathers its blocks, and the pieces are assembled on every rank. */
static fv_err_t gather_field(fv_solver_t *s, int f, fv_real_t *qg)
{
	size_t N = (size_t)s->n_cells;
	size_t nv = (size_t)s->P.nvar;
	if (s->nr > 1)
		memset(qg, 0, nv * N * sizeof *qg);
	for (int b = 0; b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		if (s->rank_of[b] != s->me)
			continue;
		size_t sc = (size_t)d->L.sc, no = (size_t)d->L.n_owned;
		FV_CALL(fv_runtime_acquire(d->h[f], 0, field_names[f]));
		const fv_real_t *q = fv_runtime_host_ptr(d->h[f]);
		for (size_t k = 0; k < nv; k++)
			for (size_t i = 0; i < no; i++)
				qg[k * N + (size_t)d->cell_global[i]] = q[k * sc + i];
		fv_runtime_release(d->h[f]);
	}
	return fv_runtime_combine(qg, nv * N * sizeof *qg, field_names[f]);
}

fv_err_t fv_solver_get_state(fv_solver_t *s, fv_real_t *qg)
{
	return gather_field(s, F_Q, qg);
}

/* Field f (the state or a snapshot: state_rows) of this rank's blocks to
 * (get) or from (set) per-block arrays (rows n_cells apart): all local
 * cells, or the owned ones. */
static fv_err_t copy_blocks(fv_solver_t *s, int f, fv_real_t *const *qb, int set)
{
	size_t nv = (size_t)state_rows(s);
	if (set && f == F_Q)
		s->q_sent_for = -1;
	for (int b = 0; b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		size_t nc = (size_t)d->L.n_cells, sc = (size_t)d->L.sc, n = set ? nc : (size_t)d->L.n_owned;
		if (s->rank_of[b] != s->me)
			continue;
		FV_CHECK(qb[b], FV_ERR_ARG, "block %d: no state array", b);
		FV_CALL(fv_runtime_acquire(d->h[f], set, field_names[f]));
		fv_real_t *q = fv_runtime_host_ptr(d->h[f]);
		for (size_t k = 0; k < nv; k++)
			memcpy(set ? q + k * sc : qb[b] + k * nc, set ? qb[b] + k * nc : q + k * sc, n * sizeof *q);
		fv_runtime_release(d->h[f]);
	}
	return FV_OK;
}

fv_err_t fv_solver_set_block_states(fv_solver_t *s, fv_real_t *const *qb)
{
	return copy_blocks(s, F_Q, qb, 1);
}

fv_err_t fv_solver_get_block_states(fv_solver_t *s, fv_real_t *const *qb)
{
	return copy_blocks(s, F_Q, qb, 0);
}

/* The snapshot to go back to after a divergence first seen at bad. */
static fv_err_t good_snapshot(const fv_solver_t *s, int bad, int *k, int *iter)
{
	*k = -1;
	for (int j = 0; j < 2; j++)
		if (s->snap_iter[j] >= 0 && s->snap_iter[j] <= bad - 2 && (*k < 0 || s->snap_iter[j] > s->snap_iter[*k]))
			*k = j;
	FV_CHECK(*k >= 0, FV_ERR_ARG, "no state kept from before iteration %d", bad - 1);
	*iter = s->snap_src[*k];
	return FV_OK;
}

fv_err_t fv_solver_get_good_state(fv_solver_t *s, int bad, fv_real_t *qg, int *iter)
{
	int k;
	FV_CALL(good_snapshot(s, bad, &k, iter));
	return gather_field(s, F_SNAP0 + k, qg);
}

fv_err_t fv_solver_get_good_block_states(fv_solver_t *s, int bad, fv_real_t *const *qb, int *iter)
{
	int k;
	FV_CALL(good_snapshot(s, bad, &k, iter));
	return copy_blocks(s, F_SNAP0 + k, qb, 0);
}

/* The boundary faces' view of a blob built on a GPU, for the inviscid
 * wall values (fv_k_wall_values without the viscous stress): the owners
 * of the boundary faces (the first faces), their area vectors and
 * centroids, and the cells' centroids, copied home section by section
 * into *mem; the view's faces are the boundary faces alone (n_faces =
 * n_bfaces, so that the face arrays' strides are theirs). Bringing the
 * whole blob home instead took 0.8 s of the M6 medium's 2 s outside its
 * set-up and loop on an H200 (a pinned allocation of the blob's size,
 * 34 GB at 10^8 cells). */
static fv_err_t wall_view_from_device(const block_data_t *d, fv_view_t *v, char **mem)
{
	const fv_layout_t *L = &d->L;
	size_t nbf = (size_t)L->n_bfaces, nf = (size_t)L->n_faces, nc = (size_t)L->n_cells;
	size_t fc = 2 * nbf * sizeof(fv_idx_t), fr = 3 * nbf * sizeof(fv_real_t), cr = 3 * nc * sizeof(fv_real_t);
	char *m;
	fv_err_t err = FV_OK;
	FV_CALL(fv_malloc(mem, fc + 2 * fr + cr + 64, 1, "wall faces' geometry"));
	m = *mem;
	memset(v, 0, sizeof *v);
	v->n_owned = L->n_owned;
	v->n_cells = L->n_cells;
	v->so = L->so;
	v->sc = L->sc;
	v->sn = L->sn;
	v->wn_side = L->wn_side;
	v->n_faces = L->n_bfaces;
	v->n_bfaces = L->n_bfaces;
	v->face_cell = (const fv_idx_t *)m;
	v->face_area = (const fv_real_t *)(m + fc);
	v->face_ctr = (const fv_real_t *)(m + fc + fr);
	v->cell_ctr = (const fv_real_t *)(m + fc + 2 * fr);
	err = fv_runtime_devbuf_get(d->geo_dev, L->face_cell, m, fc);
	for (size_t k = 0; k < 3 && err == FV_OK; k++) {
		size_t at = k * nbf * sizeof(fv_real_t), from = k * nf * sizeof(fv_real_t);
		err = fv_runtime_devbuf_get(d->geo_dev, L->face_area + from, m + fc + at, nbf * sizeof(fv_real_t));
		if (err == FV_OK)
			err = fv_runtime_devbuf_get(d->geo_dev, L->face_ctr + from, m + fc + fr + at,
						    nbf * sizeof(fv_real_t));
	}
	if (err == FV_OK)
		err = fv_runtime_devbuf_get(d->geo_dev, L->cell_ctr, m + fc + 2 * fr, cr);
	return err;
}

fv_err_t fv_solver_wall_data(fv_solver_t *s, fv_idx_t n_bfaces, const uint8_t *is_bface, double *out)
{
	size_t nv = FV_WALL_VALUES;
	memset(out, 0, nv * (size_t)n_bfaces * sizeof *out);
	for (int b = 0; b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		char *few = NULL;
		if (s->rank_of[b] != s->me)
			continue;
		/* the gradients only for the viscous stress (15 values a cell to
		 * bring home from a GPU) */
		int visc = fv_k_viscous(&s->P);
		/* a blob built on its GPU: the few sections the inviscid values
		 * read; the viscous stress reads more (the whole blob comes
		 * home, once: StarPU keeps the copy) */
		fv_view_t v;
		int whole = !d->geo_mem && (visc || !d->geo_dev);
		if (whole)
			FV_CALL(fv_runtime_acquire(d->geo, 0, "block geometry"));
		if (!d->geo_mem && !whole) {
			fv_err_t err = wall_view_from_device(d, &v, &few);
			if (err != FV_OK) {
				free(few);
				return err;
			}
		} else {
			v = fv_view_make(d->geo_mem ? d->geo_mem : fv_runtime_host_ptr(d->geo), &d->L);
		}
		FV_CALL(fv_runtime_acquire(d->h[F_W], 0, field_names[F_W]));
		if (visc)
			FV_CALL(fv_runtime_acquire(d->h[F_GRAD], 0, field_names[F_GRAD]));
		const fv_real_t *w = fv_runtime_host_ptr(d->h[F_W]);
		const fv_real_t *grad = visc ? fv_runtime_host_ptr(d->h[F_GRAD]) : NULL;
		for (fv_idx_t f = 0; f < v.n_bfaces; f++) {
			fv_idx_t g = d->bface_global[f];
			fv_real_t val[FV_WALL_VALUES];
			if (v.face_cell[2 * (size_t)f] >= v.n_owned || g < 0 || g >= n_bfaces || !is_bface[g])
				continue;
			fv_k_wall_values(&v, &s->P, w, grad, f, val);
			for (size_t k = 0; k < nv; k++)
				out[nv * (size_t)g + k] = (double)val[k];
		}
		if (visc)
			fv_runtime_release(d->h[F_GRAD]);
		fv_runtime_release(d->h[F_W]);
		if (whole)
			fv_runtime_release(d->geo);
		free(few);
	}
	return fv_runtime_combine(out, nv * (size_t)n_bfaces * sizeof *out, "wall data");
}

void fv_solver_overlap_stats(const fv_solver_t *s, fv_overlap_stats_t *st)
{
	memset(st, 0, sizeof *st);
	snprintf(st->peer_why, sizeof st->peer_why, "%s", s->peer_why);
	for (int b = 0; b < s->nb; b++) {
		if (s->rank_of[b] == s->me && s->b[b].split) {
			st->split_blocks++;
			st->faces += s->b[b].L.n_faces;
			st->border_faces += s->b[b].n_border_faces;
		}
		for (int k = 0; s->rank_of[b] == s->me && k < s->b[b].n_nbr; k++)
			for (int h = 0; h < N_HALOS; h++) {
				st->cross_buffers += s->rank_of[s->b[b].nbr[k]] != s->me;
				st->host_buffers += s->b[b].host_out[h][k];
				st->peer_buffers += s->b[b].peer_out[k];
			}
	}
}

/* numerics.halo_peer's GPU memory: the receivers' handles dropped, the
 * senders' mappings closed, and only then, every rank past that, the
 * receivers' memory freed. */
static void peer_drop(fv_solver_t *s)
{
	if (!s->b || s->n_peer == 0)
		return;
	for (int b = 0; b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		for (int h = 0; h < N_HALOS; h++)
			for (int k = 0; d->dev[h] && k < d->n_nbr; k++)
				fv_runtime_drop(&d->dev[h][k], NULL);
		for (int k = 0; s->rank_of[b] == s->me && k < d->n_nbr; k++) {
			if (d->peer_out[k])
				fv_runtime_peer_close(d->peer_kind, d->peer_w, d->peer_ptr[k], d->peer_out_bytes[k]);
			d->peer_ptr[k] = NULL;
		}
	}
	(void)fv_runtime_agree(s->n_peer, "the halo pairs that go GPU to GPU, at the end");
	for (int b = 0; b < s->nb; b++)
		for (int k = 0; s->rank_of[b] == s->me && k < s->b[b].n_nbr; k++) {
			fv_runtime_peer_free(s->b[b].peer_kind, s->b[b].peer_w, s->b[b].peer_mem[k],
					     s->b[b].peer_in_bytes[k]);
			s->b[b].peer_mem[k] = NULL;
		}
}

/* The solver's data is dropped at the end: the state has been read back
 * (fv_solver_get_state), so no GPU copy is written home on the way out. */
void fv_solver_destroy(fv_solver_t *s)
{
	if (!s)
		return;
	fv_runtime_wait_all();
	peer_drop(s);
	for (int b = 0; s->b && b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		void (*drop)(fv_handle_t *, void *) = d->unpinned ? fv_runtime_drop_unpinned : fv_runtime_drop;
		if (d->geo_dev)
			fv_runtime_devbuf_drop(&d->geo, d->geo_dev);
		else
			drop(&d->geo, d->geo_mem);
		for (int f = 0; f < N_FIELDS; f++)
			drop(&d->h[f], d->mem[f]);
		for (int h = 0; h < N_HALOS; h++) {
			for (int k = 0; d->buf[h] && k < d->n_nbr; k++)
				if (s->rank_of[b] == s->me && s->rank_of[d->nbr[k]] != s->me)
					fv_runtime_drop_mapped(&d->buf[h][k], d->buf_mem[h][k]);
				else
					fv_runtime_drop(&d->buf[h][k], d->buf_mem[h][k]);
			free(d->buf[h]);
			free(d->buf_mem[h]);
			free(d->in_buf[h]);
			free(d->buf_bytes[h]);
			free(d->host_out[h]);
			free(d->host_in[h]);
			for (int k = 0; d->ack[h] && k < d->n_nbr; k++)
				fv_runtime_drop_unpinned(&d->ack[h][k], d->ack_mem[h][k]);
			free(d->ack[h]);
			free(d->ack_mem[h]);
			free(d->in_ack[h]);
			free(d->in_dev[h]);
			free(d->dev[h]);
			free(d->peer_out_off[h]);
			free(d->peer_in_off[h]);
		}
		free(d->peer_out);
		free(d->peer_in);
		free(d->peer_ptr);
		free(d->peer_mem);
		free(d->peer_out_bytes);
		free(d->peer_in_bytes);
		free(d->nbr);
		free(d->send_pre);
		free(d->recv_pre);
		free(d->cell_global);
		free(d->bface_global);
		free(d->bface_of); /* set only when a block's build failed half-way */
	}
	free(s->b);
	for (int r = 0; s->kcoef && r < s->nr; r++)
		fv_runtime_drop(&s->kcoef[r], r == s->me ? s->kcoef_mem : NULL);
	free(s->kcoef);
	free(s->kdots);
	fv_ring_destroy(s->ring);
	for (int r = 0; s->clocks && r < s->nr; r++)
		fv_runtime_drop(&s->clocks[r], r == s->me ? s->clock_mem : NULL);
	free(s->clocks);
	free(s->rank_of);
	free(s);
}
