/* SPDX-License-Identifier: MIT */
/* Cell renumbering: blocks contiguous, Reverse Cuthill-McKee inside each
 * block (a large one: Cuthill-McKee inside pieces of the centroids'
 * Hilbert order chained from piece to piece, side by side; or RCM on all
 * threads, FVSTAR_ORDER=rcm; or independent RCM pieces, chunks), nodes by
 * first use; faces are then rebuilt in Alg. 2 order. */
#include "fvstar/partition.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "order/sfc.h"
#include "util/threads.h"
#include "util/timer.h"

/* Scratch of the ordering. A component is placed whole once found, so the
 * unplaced cells of a block reachable from an unplaced cell are exactly its
 * component. */
typedef struct rcm {
	const fv_mesh_t *m;
	const int32_t *block;
	uint8_t *deg;          /* [n_cells] neighbours in the same block */
	uint8_t *seen;         /* [n_cells] BFS marks, cleared after each BFS */
	fv_idx_t *queue;       /* [n_cells] BFS queues: block b's BFS stays in its
	                          cells, so it queues in [block_off[b], block_off[b + 1]) */
	fv_idx_t *new_of_old;  /* [n_cells] -1 until placed */
	fv_idx_t *perm;        /* [n_cells] old cell of each new position (the
	                          result, owned by the caller) */
	/* one block on all threads (par_*): */
	int32_t *stamp;        /* [n_cells] the last level BFS that reached each cell */
	fv_idx_t *key;         /* [n_cells] the least position of a placing parent */
	fv_idx_t *bpar;        /* [n_cells] the BFS parent that reached a cell first */
	fv_idx_t *cnt;         /* [n_cells + 1] children per parent of a level */
	uint8_t *use;          /* [blocks] 1: the block is placed already (Hilbert order;
				  order_units), NULL: none is */
	uint8_t *chain;        /* [blocks] pieces chained (FVSTAR_ORDER=chain; order_units):
				  CHAIN_NEXT: the next unit is the next piece of the same block,
				  CHAIN_PREV: the previous one is; NULL: none is */
	int32_t bfs_id;
	fv_idx_t chain_min;    /* FVSTAR_ORDER=auto: blocks of this many cells and more in chained pieces */
	int mode;              /* RCM_TRY, RCM_SERIAL or RCM_PARALLEL (par_order_block) */
	int large_all;         /* FVSTAR_ORDER=rcm: a block of LARGE_BLOCK cells and more goes on all
				  threads from its first BFS, after a short trial (probe_serial) */
	fv_idx_t n_probe;      /* the cells of that trial, 0: none */
	double t_serial;       /* seconds of the serial BFS tried, 0 before */
	double s_per_cell;     /* the same per cell it reached */
	fv_idx_t level_min;    /* levels above this many cells expanded by all threads */
	int switch_level;      /* FVSTAR_RCM_THREADS=switch (tests): every level search hands over to one
				  thread at this level, as a slow one does */
	/* what the ordering did, for the run's report (fv_lap_note) */
	double t_par;          /* seconds of the first parallel BFS, and */
	fv_idx_t n_par;        /* the cells it reached */
	int n_bfs[2];          /* BFS on one thread, on all */
	int n_cm[2];           /* Cuthill-McKee queues on one thread, on all */
	int n_handover;        /* level searches handed over to one thread half-way */
	int levels;            /* the most levels of a BFS */
} rcm_t;

/* One block on all threads pays a few synchronisations per BFS level: on
 * a node whose cores are busy elsewhere (oversubscribed), each costs a
 * time slice, and the level-by-level search became 20x slower than one
 * thread's on the loaded 2-core build machine. The first large
 * component's BFS runs on one thread, its next one on all, and the faster
 * does the rest: the orders are the same either way. */
enum { RCM_TRY, RCM_SERIAL, RCM_PARALLEL };
enum { CHAIN_NEXT = 1, CHAIN_PREV = 2 };
/* A block this large (a GPU's: 10^7-10^8 cells) is not tried with a whole
 * serial BFS: that alone took 13 s of the 19 s its RCM took at 10^8 cells
 * on 16 cores of a GPU node, where all threads ran a BFS 6x faster
 * (s18c1). One thread's BFS over its first PROBE_CELLS cells gives the
 * rate instead, which the threads must beat or hand over (a busy node:
 * 4.2M cells on all threads of the loaded 2-core build machine took 19 s
 * untried). Those first cells stay in cache: at 10^8 cells one thread ran
 * them at 0.048 us/cell against 0.137 over the whole block (s18c3), so
 * the rate is taken PROBE_SLOWER times slower. */
#define LARGE_BLOCK ((fv_idx_t)1 << 22)
#define PROBE_CELLS ((fv_idx_t)1 << 20)
#define PROBE_SLOWER 2.5
/* Components below this many cells are ordered on one thread and decide
 * nothing. FVSTAR_RCM_THREADS=all skips the trial (and expands levels of
 * 64 cells and more on all threads: the tests' small meshes), =one keeps
 * one block's ordering on one thread. */
#define PAR_COMPONENT_MIN 65536

static void free_rcm(rcm_t *r)
{
	FV_FREE(r->deg);
	FV_FREE(r->seen);
	FV_FREE(r->queue);
	FV_FREE(r->new_of_old);
	FV_FREE(r->stamp);
	FV_FREE(r->key);
	FV_FREE(r->bpar);
	FV_FREE(r->cnt);
}

static int same_block_nbr(const rcm_t *r, fv_idx_t c, fv_idx_t s)
{
	fv_idx_t d = r->m->cell_cell[s];
	return d >= 0 && r->block[d] == r->block[c];
}

/* Level structure from start: returns the eccentricity of start and, in
 * *far, the node of least degree (then least id) on the last level. */
/* Cell c's unseen neighbours in its block appended to queue[tail..],
 * marked seen; the new tail. */
static inline fv_idx_t push_unseen(const rcm_t *r, fv_idx_t c, fv_idx_t *queue, fv_idx_t tail)
{
	const fv_mesh_t *m = r->m;
	for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
		fv_idx_t d = m->cell_cell[s];
		if (same_block_nbr(r, c, s) && !r->seen[d]) {
			r->seen[d] = 1;
			queue[tail++] = d;
		}
	}
	return tail;
}

static int bfs_levels(const rcm_t *r, fv_idx_t *queue, fv_idx_t start, fv_idx_t *far, fv_idx_t *visited)
{
	fv_idx_t head = 0, tail = 0, level_end, level_start = 0;
	int ecc = 0;
	queue[tail++] = start;
	r->seen[start] = 1;
	level_end = tail;
	while (head < tail) {
		fv_idx_t c = queue[head++];
		tail = push_unseen(r, c, queue, tail);
		if (head == level_end && head < tail) {
			level_start = level_end;
			level_end = tail;
			ecc++;
		}
	}
	*far = queue[level_start];
	for (fv_idx_t i = level_start; i < tail; i++) {
		fv_idx_t v = queue[i];
		if (r->deg[v] < r->deg[*far] || (r->deg[v] == r->deg[*far] && v < *far))
			*far = v;
	}
	for (fv_idx_t i = 0; i < tail; i++)
		r->seen[queue[i]] = 0;
	*visited = tail;
	return ecc;
}

/* George-Liu: move to a far node of least degree while the eccentricity
 * grows. Each step costs a BFS of the component; a few steps reach a
 * node close enough to the periphery for RCM, hence the cap. */
static fv_idx_t pseudo_peripheral(const rcm_t *r, fv_idx_t *queue, fv_idx_t start)
{
	fv_idx_t far, n;
	int ecc = bfs_levels(r, queue, start, &far, &n);
	for (int it = 0; it < 8 && far != start; it++) {
		fv_idx_t far2;
		int ecc2 = bfs_levels(r, queue, far, &far2, &n);
		if (ecc2 <= ecc)
			break;
		start = far;
		ecc = ecc2;
		far = far2;
	}
	return start;
}

/* Cell d into nb[0..k), kept in increasing degree (then id): Cuthill-
 * McKee's order of a cell's new neighbours. Returns the new count. */
static int insert_by_degree(const rcm_t *r, fv_idx_t *nb, int k, fv_idx_t d)
{
	int j = k;
	while (j > 0 && (r->deg[nb[j - 1]] > r->deg[d] || (r->deg[nb[j - 1]] == r->deg[d] && nb[j - 1] > d))) {
		nb[j] = nb[j - 1];
		j--;
	}
	nb[j] = d;
	return k + 1;
}

/* Cuthill-McKee's queue from head (the cells placed up to tail): unplaced
 * neighbours join in increasing degree (then id). Returns the next free
 * position. */
static fv_idx_t cm_queue(const rcm_t *r, fv_idx_t head, fv_idx_t tail)
{
	const fv_mesh_t *m = r->m;
	while (head < tail) {
		fv_idx_t c = r->perm[head++], nb[FV_MAX_CELL_FACES];
		int k = 0;
		for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
			fv_idx_t d = m->cell_cell[s];
			if (!same_block_nbr(r, c, s) || r->new_of_old[d] >= 0)
				continue;
			k = insert_by_degree(r, nb, k, d);
		}
		for (int i = 0; i < k; i++) {
			r->new_of_old[nb[i]] = tail;
			r->perm[tail++] = nb[i];
		}
	}
	return tail;
}

/* Cuthill-McKee from start, placing cells from position pos. */
static fv_idx_t cuthill_mckee(const rcm_t *r, fv_idx_t start, fv_idx_t pos)
{
	r->new_of_old[start] = pos;
	r->perm[pos] = start;
	return cm_queue(r, pos, pos + 1);
}

/* One block on all threads (a single GPU's block holds the whole mesh, and
 * a BFS of 10^8 cells on one core is tens of seconds): the same orders as
 * the serial functions above, computed level by level. Levels of a BFS are
 * the same sets whatever the threads, and so are the eccentricity and the
 * far node (least degree, then id, of the last level). Cuthill-McKee's
 * queue is a BFS too: a cell of level L + 1 is placed by the first of its
 * level-L neighbours in queue order, after that parent's earlier children,
 * among its siblings by (degree, id); so the next level is the cells
 * sorted by (least parent position, degree, id), found with an atomic
 * minimum per cell and a prefix sum of the children per parent. */

/* A level of at most this many cells is expanded by one thread. */
#define PAR_LEVEL_MIN 2048

static fv_idx_t cas_min(fv_idx_t *at, fv_idx_t v)
{
	fv_idx_t cur = __atomic_load_n(at, __ATOMIC_RELAXED);
	while (v < cur && !__atomic_compare_exchange_n(at, &cur, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	return cur;
}

/* Prefix sum of r->cnt[0..n) into offsets (r->cnt[n] the total). */
static fv_idx_t cnt_scan(rcm_t *r, fv_idx_t n)
{
	fv_idx_t sum = 0;
	for (fv_idx_t i = 0; i < n; i++) {
		fv_idx_t k = r->cnt[i];
		r->cnt[i] = sum;
		sum += k;
	}
	r->cnt[n] = sum;
	return sum;
}

/* Whether a level search that started at t0 and has placed done cells
 * goes on on one thread from its level-th level: slower than the serial
 * BFS tried (plus 10 ms), or FVSTAR_RCM_THREADS=switch's level. From a
 * level boundary the serial search holds the same cells. */
static int hand_over(rcm_t *r, double t0, fv_idx_t done, int level)
{
	if (r->switch_level > 0)
		return level == r->switch_level;
	return r->t_serial > 0 && fv_now() - t0 > r->s_per_cell * (double)done + 0.01;
}

/* The rest of a BFS on one thread from the level queue[lo, hi) (its
 * cells, and every cell before them, stamped id), level ecc: the same
 * levels. Returns the eccentricity; *last the start of the last level,
 * *tail the cells reached. */
static int bfs_rest(rcm_t *r, fv_idx_t *queue, int32_t id, fv_idx_t lo, fv_idx_t hi, int ecc, fv_idx_t *last,
		    fv_idx_t *tail)
{
	const fv_mesh_t *m = r->m;
	fv_idx_t head = lo, end = hi, level_start = lo, t = hi;
	while (head < t) {
		fv_idx_t c = queue[head++];
		for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
			fv_idx_t d = m->cell_cell[s];
			if (same_block_nbr(r, c, s) && r->stamp[d] != id) {
				r->stamp[d] = id;
				queue[t++] = d;
			}
		}
		if (head == end && head < t) {
			level_start = end;
			end = t;
			ecc++;
		}
	}
	*last = level_start;
	*tail = t;
	return ecc;
}

/* bfs_levels on all threads: the next level's cells are those whose stamp
 * a parent of this level set first (compare-and-swap), each parent's
 * children counted, then written after the parents before it. */
static int par_bfs_levels(rcm_t *r, fv_idx_t *queue, fv_idx_t start, fv_idx_t *far, fv_idx_t *visited)
{
	const fv_mesh_t *m = r->m;
	int32_t id = ++r->bfs_id;
	fv_idx_t lo = 0, hi = 1;
	int ecc = 0;
	double t0 = fv_now();
	queue[0] = start;
	r->stamp[start] = id;
	r->bpar[start] = -1; /* not a parent's from an earlier BFS: start is no one's child */
	for (;;) {
		fv_idx_t n = hi - lo;
		if (hand_over(r, t0, hi, ecc)) {
			r->mode = r->switch_level > 0 ? r->mode : RCM_SERIAL;
			r->n_handover++;
			ecc = bfs_rest(r, queue, id, lo, hi, ecc, &lo, &hi);
			break;
		}
		FV_OMP(parallel for schedule(static) if (n > r->level_min))
		for (fv_idx_t i = lo; i < hi; i++) {
			fv_idx_t c = queue[i], k = 0;
			for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
				fv_idx_t d = m->cell_cell[s];
				int32_t old;
				if (!same_block_nbr(r, c, s))
					continue;
				old = __atomic_load_n(&r->stamp[d], __ATOMIC_RELAXED);
				if (old != id && __atomic_compare_exchange_n(&r->stamp[d], &old, id, 0, __ATOMIC_RELAXED,
									     __ATOMIC_RELAXED))
					r->bpar[d] = i, k++; /* i claimed d */
			}
			r->cnt[i - lo] = k;
		}
		if (cnt_scan(r, n) == 0)
			break;
		FV_OMP(parallel for schedule(static) if (n > r->level_min))
		for (fv_idx_t i = lo; i < hi; i++) {
			fv_idx_t c = queue[i], at = hi + r->cnt[i - lo];
			for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
				fv_idx_t d = m->cell_cell[s];
				if (same_block_nbr(r, c, s) && r->bpar[d] == i && r->stamp[d] == id)
					queue[at++] = d;
			}
		}
		lo = hi;
		hi += r->cnt[n];
		ecc++;
	}
	fv_idx_t best = queue[lo];
	for (fv_idx_t i = lo; i < hi; i++) {
		fv_idx_t v = queue[i];
		if (r->deg[v] < r->deg[best] || (r->deg[v] == r->deg[best] && v < best))
			best = v;
	}
	*far = best;
	*visited = hi;
	r->levels = ecc + 1 > r->levels ? ecc + 1 : r->levels;
	return ecc;
}

/* A BFS of the component of start, on one thread or all (r->mode; tried
 * on a large component: its serial BFS timed, then its parallel one). */
static int any_bfs_levels(rcm_t *r, fv_idx_t start, fv_idx_t *far)
{
	double t0 = fv_now();
	fv_idx_t n;
	int ecc;
	if (r->mode == RCM_PARALLEL || (r->mode == RCM_TRY && r->t_serial > 0)) {
		r->n_bfs[1]++;
		ecc = par_bfs_levels(r, r->queue, start, far, &n);
		if (r->n_bfs[1] == 1) {
			r->t_par = fv_now() - t0;
			r->n_par = n;
		}
		/* and back to one thread for good where the cores turn busy */
		if (r->t_serial > 0 && r->mode != RCM_SERIAL)
			r->mode = fv_now() - t0 < r->s_per_cell * (double)n ? RCM_PARALLEL : RCM_SERIAL;
		return ecc;
	}
	r->n_bfs[0]++;
	ecc = bfs_levels(r, r->queue, start, far, &n);
	r->levels = ecc + 1 > r->levels ? ecc + 1 : r->levels;
	if (r->mode == RCM_TRY && n >= PAR_COMPONENT_MIN) {
		r->t_serial = fv_now() - t0 + 1e-9;
		r->s_per_cell = r->t_serial / (double)n;
	}
	return ecc;
}

static fv_idx_t par_pseudo_peripheral(rcm_t *r, fv_idx_t start)
{
	fv_idx_t far;
	int ecc = any_bfs_levels(r, start, &far);
	for (int it = 0; it < 8 && far != start; it++) {
		fv_idx_t far2;
		int ecc2 = any_bfs_levels(r, far, &far2);
		if (ecc2 <= ecc)
			break;
		start = far;
		ecc = ecc2;
		far = far2;
	}
	return start;
}

/* cuthill_mckee on all threads, level by level (see above). */
static fv_idx_t par_cuthill_mckee(rcm_t *r, fv_idx_t start, fv_idx_t pos)
{
	const fv_mesh_t *m = r->m;
	fv_idx_t lo = pos, hi = pos + 1;
	double t0 = fv_now();
	int level = 0;
	r->new_of_old[start] = pos;
	r->perm[pos] = start;
	for (;;) {
		fv_idx_t n = hi - lo;
		/* slower than one thread's BFS so far (plus 10 ms): the queue
		 * goes on on one thread from this level, which the serial queue
		 * reaches with the same cells placed */
		if (hand_over(r, t0, hi - pos, level++)) {
			r->mode = r->switch_level > 0 ? r->mode : RCM_SERIAL;
			r->n_handover++;
			return cm_queue(r, lo, hi);
		}
		/* each unplaced neighbour's first parent */
		FV_OMP(parallel for schedule(static) if (n > r->level_min))
		for (fv_idx_t i = lo; i < hi; i++) {
			fv_idx_t c = r->perm[i];
			for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++)
				if (same_block_nbr(r, c, s) && r->new_of_old[m->cell_cell[s]] < 0)
					cas_min(&r->key[m->cell_cell[s]], i);
		}
		FV_OMP(parallel for schedule(static) if (n > r->level_min))
		for (fv_idx_t i = lo; i < hi; i++) {
			fv_idx_t c = r->perm[i], k = 0;
			for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++)
				k += same_block_nbr(r, c, s) && r->key[m->cell_cell[s]] == i;
			r->cnt[i - lo] = k;
		}
		if (cnt_scan(r, n) == 0)
			return hi;
		FV_OMP(parallel for schedule(static) if (n > r->level_min))
		for (fv_idx_t i = lo; i < hi; i++) {
			fv_idx_t c = r->perm[i], nb[FV_MAX_CELL_FACES], at = hi + r->cnt[i - lo];
			int k = 0;
			for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
				fv_idx_t d = m->cell_cell[s];
				if (!same_block_nbr(r, c, s) || r->key[d] != i)
					continue;
				k = insert_by_degree(r, nb, k, d);
			}
			for (int j = 0; j < k; j++) {
				r->new_of_old[nb[j]] = at + j;
				r->perm[at + j] = nb[j];
			}
		}
		lo = hi;
		hi += r->cnt[n];
	}
}

/* What one block's ordering on all threads did, for the run's report
 * (summary.json's setup_steps, fvstar run -v). */
static void note_rcm(const rcm_t *r)
{
	char trial[128] = "no trial";
	if (r->t_serial > 0 && r->n_par > 0)
		snprintf(trial, sizeof trial, "trial%s: one thread %.3g us/cell, all %.3g us/cell",
			 r->n_probe ? " (one thread's over the first cells, rate x 2.5)" : "", 1e6 * r->s_per_cell,
			 1e6 * r->t_par / (double)r->n_par);
	else if (r->t_serial > 0)
		snprintf(trial, sizeof trial, "trial: one thread %.3g us/cell", 1e6 * r->s_per_cell);
	fv_lap_note("renumber: order",
		    "%s; BFS %d on one thread, %d on all; Cuthill-McKee %d on one, %d on all; %d handed over to one "
		    "thread; at most %d levels; %s at the end",
		    trial, r->n_bfs[0], r->n_bfs[1], r->n_cm[0], r->n_cm[1], r->n_handover, r->levels,
		    r->mode == RCM_PARALLEL ? "all threads" : r->mode == RCM_SERIAL ? "one thread" : "untried");
}

/* The trial of a large block: one thread's BFS from start over its first
 * PROBE_CELLS cells, its rate the one hand_over holds the threads to. */
static void probe_serial(rcm_t *r, fv_idx_t start)
{
	fv_idx_t head = 0, tail = 0, *queue = r->queue;
	double t0 = fv_now();
	queue[tail++] = start;
	r->seen[start] = 1;
	while (head < tail && tail < PROBE_CELLS) {
		fv_idx_t c = queue[head++];
		tail = push_unseen(r, c, queue, tail);
	}
	r->t_serial = fv_now() - t0 + 1e-9;
	r->s_per_cell = PROBE_SLOWER * r->t_serial / (double)tail;
	r->n_probe = tail;
	for (fv_idx_t i = 0; i < tail; i++)
		r->seen[queue[i]] = 0;
}

/* One block's cells [lo, hi) of cand ordered on all threads: its scratch
 * is the whole mesh's (the blocks go one after another). */
static fv_err_t par_order_block(rcm_t *r, const fv_idx_t *cand, fv_idx_t lo, fv_idx_t hi)
{
	fv_idx_t nc = r->m->n_cells, pos = lo;
	const char *env = getenv("FVSTAR_RCM_THREADS");
	if (env && (strcmp(env, "all") == 0 || strcmp(env, "switch") == 0)) {
		r->mode = RCM_PARALLEL;
		r->level_min = 64;
		r->switch_level = strcmp(env, "switch") == 0 ? 3 : 0;
	} else if (env && strcmp(env, "one") == 0)
		r->mode = RCM_SERIAL;
	else if (env && strcmp(env, "probe") == 0)
		r->level_min = 64; /* a large block's way on any block (tests) */
	else
		FV_CHECK(!env || !*env, FV_ERR_ARG, "FVSTAR_RCM_THREADS=%s: expected all, one, switch or probe", env);
	if (((!env || !*env) && r->large_all && hi - lo >= LARGE_BLOCK && r->t_serial == 0) ||
	    (env && strcmp(env, "probe") == 0 && r->t_serial == 0))
		probe_serial(r, cand[lo]);
	if (!r->stamp) {
		FV_CALL(fv_calloc(&r->stamp, (size_t)nc, sizeof *r->stamp, "BFS stamps"));
		FV_CALL(fv_malloc(&r->key, (size_t)nc, sizeof *r->key, "Cuthill-McKee parents"));
		FV_CALL(fv_malloc(&r->bpar, (size_t)nc, sizeof *r->bpar, "BFS parents"));
		FV_CALL(fv_malloc(&r->cnt, (size_t)nc + 1, sizeof *r->cnt, "BFS children"));
		FV_OMP(parallel for schedule(static))
		for (fv_idx_t c = 0; c < nc; c++)
			r->key[c] = FV_IDX_MAX;
	}
	for (fv_idx_t i = lo; i < hi; i++)
		if (r->new_of_old[cand[i]] < 0) {
			fv_idx_t start = par_pseudo_peripheral(r, cand[i]);
			r->n_cm[r->mode == RCM_PARALLEL]++;
			pos = r->mode == RCM_PARALLEL ? par_cuthill_mckee(r, start, pos) : cuthill_mckee(r, start, pos);
		}
	note_rcm(r);
	FV_OMP(parallel for schedule(static))
	for (fv_idx_t i = lo; i < lo + (hi - lo) / 2; i++) {
		fv_idx_t j = hi - 1 - (i - lo), t = r->perm[i];
		r->perm[i] = r->perm[j];
		r->perm[j] = t;
	}
	FV_OMP(parallel for schedule(static))
	for (fv_idx_t i = lo; i < hi; i++)
		r->new_of_old[r->perm[i]] = i;
	return FV_OK;
}

/* The unplaced cells of the unit [lo, hi) (cand: its cells by degree)
 * placed from pos by Cuthill-McKee, each connected piece from a
 * pseudo-peripheral start; then, if reverse, the unit's order reversed
 * (RCM) and new_of_old set from it. One thread, the unit's cells only. */
static void unit_rest(rcm_t *r, const fv_idx_t *cand, fv_idx_t lo, fv_idx_t hi, fv_idx_t pos, int reverse)
{
	for (fv_idx_t i = lo; i < hi; i++)
		if (r->new_of_old[cand[i]] < 0)
			pos = cuthill_mckee(r, pseudo_peripheral(r, r->queue + lo, cand[i]), pos);
	if (!reverse)
		return;
	for (fv_idx_t i = lo, j = hi - 1; i < j; i++, j--) {
		fv_idx_t t = r->perm[i];
		r->perm[i] = r->perm[j];
		r->perm[j] = t;
	}
	for (fv_idx_t i = lo; i < hi; i++)
		r->new_of_old[r->perm[i]] = i;
}

/* A piece of a block cut along the Hilbert order of its centroids
 * (FVSTAR_ORDER=chain), units [lo, hi) of r->perm holding its cells in
 * that order on entry. A piece that follows another of its block starts
 * from its cells beside that one (in curve order) and runs Cuthill-McKee
 * forward, away from it; the first piece of a block starts from its cells
 * beside the next piece and is reversed, so that it ends there. The faces
 * between consecutive pieces then join the end of one to the start of the
 * next, a jump of about a level's width, where independent RCM pieces
 * (chunks) put them anywhere in both. Cells not reached from those (a
 * piece in parts) by RCM from a pseudo-peripheral start, reversed with the
 * first piece or placed after the rest. Only the piece's own cells and
 * positions are touched, so the pieces run side by side on any threads and
 * give one order. */
static void chain_piece(rcm_t *r, const fv_idx_t *cand, int u, fv_idx_t lo, fv_idx_t hi)
{
	const fv_mesh_t *m = r->m;
	fv_idx_t pos = lo, n_seed = 0, *seed = r->queue + lo;
	int32_t other = (r->chain[u] & CHAIN_PREV) ? u - 1 : u + 1;
	int first = !(r->chain[u] & CHAIN_PREV);
	for (fv_idx_t i = lo; i < hi; i++) {
		fv_idx_t c = r->perm[i];
		for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
			fv_idx_t d = m->cell_cell[s];
			if (d >= 0 && r->block[d] == other) {
				seed[n_seed++] = c;
				break;
			}
		}
	}
	for (fv_idx_t i = 0; i < n_seed; i++) {
		r->new_of_old[seed[i]] = pos + i;
		r->perm[pos + i] = seed[i];
	}
	pos = cm_queue(r, pos, pos + n_seed);
	unit_rest(r, cand, lo, hi, pos, first);
}

/* Fills r->perm / r->new_of_old: blocks in order, RCM inside each, every
 * connected piece of a block started from a pseudo-peripheral node found
 * from its unplaced cell of least degree. Blocks with r->use set are
 * placed already (the Hilbert order) and left alone. (The "blocks" here
 * are order_units' units: the blocks, or pieces of them; apart: each on
 * one thread, side by side, however few.) */
static fv_err_t order_cells(rcm_t *r, int n_blocks, fv_idx_t *block_off, int apart)
{
	const fv_mesh_t *m = r->m;
	fv_idx_t nc = m->n_cells, *cand = NULL, *key_off = NULL;
	const int nd = FV_MAX_CELL_FACES + 1;
	fv_err_t err = FV_OK;
	size_t nkeys = (size_t)n_blocks * nd;

	FV_OMP(parallel for schedule(static) if (nc > FV_PAR_MIN))
	for (fv_idx_t c = 0; c < nc; c++) {
		int d = 0;
		for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++)
			d += same_block_nbr(r, c, s);
		r->deg[c] = (uint8_t)d;
		r->new_of_old[c] = -1;
	}
	/* candidates sorted by (block, degree, id): one counting sort gives the
	 * block ranges and the least-degree start of each piece */
	FV_CALL(fv_calloc(&key_off, nkeys + 1, sizeof *key_off, "ordering keys"));
	if (fv_malloc(&cand, (size_t)nc, sizeof *cand, "ordering candidates") != FV_OK) {
		free(key_off);
		return fv_error_trace(FV_ERR_MEM, __FILE__, __LINE__);
	}
	for (fv_idx_t c = 0; c < nc; c++)
		key_off[(size_t)r->block[c] * nd + r->deg[c] + 1]++;
	for (size_t k = 0; k < nkeys; k++)
		key_off[k + 1] += key_off[k];
	for (int b = 0; b <= n_blocks; b++)
		block_off[b] = key_off[(size_t)b * nd];
	for (fv_idx_t c = 0; c < nc; c++)
		cand[key_off[(size_t)r->block[c] * nd + r->deg[c]]++] = c;
	free(key_off);

	/* blocks large enough for more threads each than there are blocks:
	 * each block on all threads, one after another (the same orders);
	 * smaller ones, and pieces of a block (apart), side by side, one
	 * thread each (16 blocks of 41k cells on 64 threads went one after
	 * another, each on one thread: a block that small never tries the
	 * threads, PAR_COMPONENT_MIN) */
	if (!apart && fv_threads_for((size_t)nc / (size_t)n_blocks, fv_cells_per_thread()) > n_blocks &&
	    nc > FV_PAR_MIN) {
		for (int b = 0; b < n_blocks && err == FV_OK; b++)
			if (!r->use || !r->use[b])
				err = par_order_block(r, cand, block_off[b], block_off[b + 1]);
		free(cand);
		return err;
	}
	/* blocks apart: each touches only its own cells and positions, so any
	 * thread count gives the same order */
	FV_OMP(parallel for schedule(dynamic, 1) if (nc > FV_PAR_MIN))
	for (int b = 0; b < n_blocks; b++) {
		fv_idx_t lo = block_off[b], hi = block_off[b + 1];
		if (r->use && r->use[b])
			continue;
		if (r->chain && r->chain[b]) {
			chain_piece(r, cand, b, lo, hi);
			continue;
		}
		unit_rest(r, cand, lo, hi, lo, 1);
	}
	free(cand);
	return FV_OK;
}

/* The ordering of a large block. RCM's BFS is serial at heart, but its
 * levels are not: level by level on all threads (par_order_block, the
 * same order) from the first BFS, a 10^8-cell block on 16 cores of a GPU
 * node is ordered in a few seconds (19 s with the serial trial BFS
 * first). Pieces (FVSTAR_ORDER=chunks): the block's cells in the Hilbert
 * order of their centroids, cut into consecutive pieces of CHUNK_CELLS
 * cells (compact regions), each piece ordered by RCM on one thread, the
 * pieces side by side: the fastest set-up (3.3 s against 19 s at 10^8),
 * the default of session 17 for blocks of 2^22 cells and more, but the
 * loop at 10^8 was 6.5 % slower than with RCM over 40 iterations (s18c1;
 * 4-19 % in s17c3-c4): 2 % of the faces join two pieces far apart in
 * memory, and a face loop's stream misses 9 % more often in a cache of
 * 2^14-2^16 sectors than in RCM's (bench_mesh order, 4.2M and 13M cells).
 * The Hilbert order alone cost 20-100 %. The piece size is fixed, not
 * taken from the thread count, so any thread count gives one order. */
#define CHUNK_CELLS ((fv_idx_t)1 << 18)
/* Chained pieces (FVSTAR_ORDER=chain, the default for blocks of
 * CHAIN_MIN cells and more): larger, since each takes one Cuthill-McKee
 * queue and no BFS for its start, and fewer faces join pieces that are
 * not consecutive. On a 4.09M tet box (bench_mesh order, session 21):
 * faces jumping over 2^16 cells 0.32 % of them against 1.24 % for chunks
 * and 0.89 % for chained pieces of 2^18; the face loop's stream missed a
 * cache of 2^14 sectors 6.35 % of the time against RCM's 6.29 % and
 * chunks' 6.84 %. The caller says from what size a block is chained
 * (fv_mesh_renumber's chain_min, LARGE_BLOCK by default): on GPUs the
 * explicit scheme runs faster chained than with RCM of whole blocks at
 * every size measured (the 10.37M box on one H200 12.46 ms an iteration
 * against 13.01 with one block, 13.40 against 13.89 with 4 blocks of 2.6M,
 * on four 3.97 against 4.18; the 2.53M box 3.19 against 3.30), while the
 * one implicit case measured (the M6 SA, 1.1M cells on one block) took
 * 169 iterations to 8 orders chained against 113 with RCM, 47 s against 43
 * (bench/results/2026-12-06-halo13.md). */
#define CHAIN_CELLS ((fv_idx_t)1 << 20)

enum { ORDER_AUTO = -1, ORDER_RCM, ORDER_HILBERT, ORDER_CHUNKS, ORDER_CHAIN };

/* FVSTAR_ORDER: auto (or unset: RCM of whole blocks below chain_min
 * cells, chained pieces of CHAIN_CELLS from there where the centroids are
 * known), rcm (RCM of whole blocks, a large one on all threads after the
 * trial: the default of sessions 18-20, which ran on one thread at 10^8
 * cells on a loaded H200 node, 64 s, its threads having lost the trial:
 * s21c1), hilbert (the Hilbert order alone, for comparisons),
 * chunks[:CELLS] (every block in independent RCM pieces of CELLS cells:
 * session 17's) or chain[:CELLS] (every block in chained pieces,
 * chain_piece, of CELLS cells, CHAIN_CELLS by default). */
static fv_err_t order_mode(const fv_mesh_t *m, int *mode, fv_idx_t *chunk)
{
	const char *env = getenv("FVSTAR_ORDER");
	*mode = ORDER_AUTO;
	*chunk = CHAIN_CELLS; /* auto's pieces are chained */
	if (!env || !*env || strcmp(env, "auto") == 0)
		return FV_OK;
	*chunk = CHUNK_CELLS;
	if (strcmp(env, "rcm") == 0)
		*mode = ORDER_RCM;
	else if (strcmp(env, "hilbert") == 0)
		*mode = ORDER_HILBERT;
	else if ((strncmp(env, "chunks", 6) == 0 && (env[6] == '\0' || env[6] == ':')) ||
		 (strncmp(env, "chain", 5) == 0 && (env[5] == '\0' || env[5] == ':'))) {
		size_t k = env[4] == 'n' ? 5 : 6;
		*mode = k == 5 ? ORDER_CHAIN : ORDER_CHUNKS;
		*chunk = k == 5 ? CHAIN_CELLS : CHUNK_CELLS;
		if (env[k] == ':') {
			char *end;
			long v = strtol(env + k + 1, &end, 10);
			FV_CHECK(end != env + k + 1 && *end == '\0' && v >= 1 && v <= FV_IDX_MAX, FV_ERR_ARG,
				 "FVSTAR_ORDER=%s: pieces of 1 to %d cells", env, (int)FV_IDX_MAX);
			*chunk = (fv_idx_t)v;
		}
	} else
		FV_CHECK(0, FV_ERR_ARG, "FVSTAR_ORDER=%s: expected auto, rcm, hilbert, chunks[:CELLS] or chain[:CELLS]",
			 env);
	FV_CHECK(*mode == ORDER_RCM || m->cell_ctr, FV_ERR_ARG, "%s: FVSTAR_ORDER=%s needs the cells' centroids",
		 m->source, env);
	return FV_OK;
}

/* order_cells over units: each block whole (RCM), or its Hilbert order
 * (placed, left alone), or its pieces of that order (RCM each); units in
 * block order, a block's pieces in curve order, so block b starts at its
 * first unit. */
static fv_err_t order_units(rcm_t *r, int n_blocks, fv_idx_t *block_off)
{
	const fv_mesh_t *m = r->m;
	const int32_t *block = r->block;
	fv_idx_t nc = m->n_cells, chunk, *unit_off = NULL;
	int mode, n_units = 0, n_hil = 0, n_chunked = 0, n_chained = 0;
	uint8_t *kind = NULL, *sorted = NULL;
	int32_t *unit = NULL, *first = NULL;
	double sec[2] = {0, 0}, t0;
	fv_err_t err = FV_OK;

	FV_CALL(order_mode(m, &mode, &chunk));
	r->large_all = mode == ORDER_AUTO || mode == ORDER_RCM;
	FV_CALL_GOTO(err, done, fv_calloc(&kind, (size_t)n_blocks, sizeof *kind, "block orderings"));
	FV_CALL_GOTO(err, done, fv_calloc(&sorted, (size_t)n_blocks, sizeof *sorted, "blocks in Hilbert order"));
	FV_CALL_GOTO(err, done, fv_calloc(&first, (size_t)n_blocks + 1, sizeof *first, "first unit of each block"));
	for (int b = 0; b <= n_blocks; b++)
		block_off[b] = 0;
	for (fv_idx_t c = 0; c < nc; c++)
		block_off[block[c] + 1]++;
	for (int b = 0; b < n_blocks; b++) {
		fv_idx_t size = block_off[b + 1];
		block_off[b + 1] += block_off[b];
		if (mode != ORDER_AUTO)
			kind[b] = (uint8_t)mode;
		else
			kind[b] = size >= r->chain_min && m->cell_ctr ? ORDER_CHAIN : ORDER_RCM;
		sorted[b] = kind[b] != ORDER_RCM;
		n_hil += kind[b] == ORDER_HILBERT;
		n_chunked += kind[b] == ORDER_CHUNKS || kind[b] == ORDER_CHAIN;
		n_chained += kind[b] == ORDER_CHAIN;
		first[b] = n_units;
		n_units += kind[b] == ORDER_CHUNKS || kind[b] == ORDER_CHAIN ? (int)((size + chunk - 1) / chunk) : 1;
	}
	first[n_blocks] = n_units;
	if (n_hil + n_chunked == 0) {
		err = order_cells(r, n_blocks, block_off, 0);
		goto done;
	}
	FV_CALL_GOTO(err, done, fv_order_hilbert(m, block, n_blocks, block_off, sorted, r->perm, NULL, sec));
	FV_CALL_GOTO(err, done, fv_malloc(&unit, (size_t)nc + 1, sizeof *unit, "ordering units"));
	FV_CALL_GOTO(err, done, fv_calloc(&r->use, (size_t)n_units, sizeof *r->use, "units in Hilbert order"));
	if (n_chained)
		FV_CALL_GOTO(err, done, fv_calloc(&r->chain, (size_t)n_units, sizeof *r->chain, "chained pieces"));
	FV_CALL_GOTO(err, done, fv_malloc(&unit_off, (size_t)n_units + 1, sizeof *unit_off, "unit ranges"));
	FV_OMP(parallel for schedule(static) if (nc > FV_PAR_MIN))
	for (fv_idx_t c = 0; c < nc; c++)
		if (kind[block[c]] == ORDER_RCM)
			unit[c] = first[block[c]];
	for (int b = 0; b < n_blocks; b++) {
		fv_idx_t lo = block_off[b], hi = block_off[b + 1];
		int k = kind[b];
		if (k == ORDER_RCM)
			continue;
		r->use[first[b]] = k == ORDER_HILBERT;
		for (int u = first[b]; k == ORDER_CHAIN && u < first[b + 1]; u++)
			r->chain[u] = (uint8_t)((u > first[b] ? CHAIN_PREV : 0) | (u + 1 < first[b + 1] ? CHAIN_NEXT : 0));
		FV_OMP(parallel for schedule(static) if (hi - lo > FV_PAR_MIN))
		for (fv_idx_t i = lo; i < hi; i++)
			unit[r->perm[i]] = first[b] + (k != ORDER_HILBERT ? (int32_t)((i - lo) / chunk) : 0);
	}
	t0 = fv_now();
	r->block = unit;
	err = order_cells(r, n_units, unit_off, n_chunked > 0);
	r->block = block;
	if (err != FV_OK)
		goto done;
	for (int b = 0; b <= n_blocks; b++)
		block_off[b] = unit_off[first[b]];
	fv_lap_note("renumber: order",
		    "Hilbert order of the centroids in %d of %d blocks (keys %.3f s, sort %.3f s), %d of them then by "
		    "%s in %d pieces of %d cells (%.3f s), RCM in the rest",
		    n_hil + n_chunked, n_blocks, sec[0], sec[1], n_chunked,
		    n_chained ? "Cuthill-McKee chained from piece to piece" : "RCM",
		    first[n_blocks] - (n_blocks - n_chunked),
		    (int)chunk, fv_now() - t0);
done:
	r->block = block;
	FV_FREE(r->use);
	FV_FREE(r->chain);
	free(kind);
	free(sorted);
	free(first);
	free(unit);
	free(unit_off);
	return err;
}

/* Cells in the order perm, nodes by first use in that order (nodes of no
 * cell last, in their old order); the file positions and numbers of cells
 * and nodes move with them. Everything is allocated before the mesh is
 * touched, so a failure leaves it as it was. */
static fv_err_t apply_order(fv_mesh_t *m, const fv_idx_t *perm)
{
	fv_idx_t nc = m->n_cells, nn = m->n_nodes, next = 0;
	size_t ncn = (size_t)m->cell_node_off[nc];
	uint8_t *type = NULL;
	fv_idx_t *off = NULL, *cn = NULL, *node_new = NULL, *cell_orig = NULL, *node_orig = NULL;
	int64_t *cell_tag = NULL, *node_tag = NULL;
	double *xyz = NULL;
	fv_err_t err = FV_OK;

	FV_CALL_GOTO(err, done, fv_malloc(&type, (size_t)nc, sizeof *type, "renumbered cell types"));
	FV_CALL_GOTO(err, done, fv_malloc(&off, (size_t)nc + 1, sizeof *off, "renumbered cell offsets"));
	FV_CALL_GOTO(err, done, fv_malloc(&cn, ncn + 1, sizeof *cn, "renumbered cell nodes"));
	FV_CALL_GOTO(err, done, fv_malloc(&node_new, (size_t)nn + 1, sizeof *node_new, "node numbering"));
	FV_CALL_GOTO(err, done, fv_malloc(&xyz, 3 * (size_t)nn + 1, sizeof *xyz, "renumbered coordinates"));
	FV_CALL_GOTO(err, done, fv_malloc(&cell_orig, (size_t)nc + 1, sizeof *cell_orig, "cell file order"));
	FV_CALL_GOTO(err, done, fv_malloc(&node_orig, (size_t)nn + 1, sizeof *node_orig, "node file order"));
	if (m->cell_tag)
		FV_CALL_GOTO(err, done, fv_malloc(&cell_tag, (size_t)nc + 1, sizeof *cell_tag, "element numbers"));
	if (m->node_tag)
		FV_CALL_GOTO(err, done, fv_malloc(&node_tag, (size_t)nn + 1, sizeof *node_tag, "node numbers"));

	/* nodes by first use: a node's number is the count of first uses
	 * before its own in the new cell order (node_new holds first the
	 * position of its first use, found by the threads as a minimum) */
	off[0] = 0;
	for (fv_idx_t c = 0; c < nc; c++)
		off[c + 1] = off[c] + m->cell_node_off[perm[c] + 1] - m->cell_node_off[perm[c]];
	FV_OMP(parallel for schedule(static) if (nn > FV_PAR_MIN))
	for (fv_idx_t v = 0; v < nn; v++)
		node_new[v] = FV_IDX_MAX;
	FV_OMP(parallel for schedule(static) if (nc > FV_PAR_MIN))
	for (fv_idx_t c = 0; c < nc; c++) {
		fv_idx_t o = perm[c], k = m->cell_node_off[o];
		type[c] = m->cell_type[o];
		cell_orig[c] = fv_mesh_cell_orig(m, o);
		if (cell_tag)
			cell_tag[c] = m->cell_tag[o];
		for (fv_idx_t i = 0; i < off[c + 1] - off[c]; i++) {
			fv_idx_t *at = &node_new[m->cell_node[k + i]], cur = __atomic_load_n(at, __ATOMIC_RELAXED);
			while (off[c] + i < cur && !__atomic_compare_exchange_n(at, &cur, off[c] + i, 0, __ATOMIC_RELAXED,
										 __ATOMIC_RELAXED))
				;
		}
	}
	/* cn as a scratch of first-use marks, then the count before each */
	FV_OMP(parallel for schedule(static) if (nc > FV_PAR_MIN))
	for (fv_idx_t c = 0; c < nc; c++) {
		fv_idx_t k = m->cell_node_off[perm[c]];
		for (fv_idx_t i = off[c]; i < off[c + 1]; i++)
			cn[i] = node_new[m->cell_node[k + i - off[c]]] == i;
	}
	for (size_t i = 0; i < ncn; i++) {
		fv_idx_t first = cn[i];
		cn[i] = next;
		next += first;
	}
	FV_OMP(parallel for schedule(static) if (nn > FV_PAR_MIN))
	for (fv_idx_t v = 0; v < nn; v++)
		if (node_new[v] != FV_IDX_MAX)
			node_new[v] = cn[node_new[v]];
	FV_OMP(parallel for schedule(static) if (nc > FV_PAR_MIN))
	for (fv_idx_t c = 0; c < nc; c++) {
		fv_idx_t k = m->cell_node_off[perm[c]];
		for (fv_idx_t i = off[c]; i < off[c + 1]; i++)
			cn[i] = node_new[m->cell_node[k + i - off[c]]];
	}
	/* nodes of no cell last, in their old order */
	for (fv_idx_t v = 0; v < nn; v++)
		if (node_new[v] == FV_IDX_MAX)
			node_new[v] = next++;
	FV_OMP(parallel for schedule(static) if (nn > FV_PAR_MIN))
	for (fv_idx_t v = 0; v < nn; v++) {
		memcpy(xyz + 3 * (size_t)node_new[v], m->xyz + 3 * (size_t)v, 3 * sizeof *xyz);
		node_orig[node_new[v]] = fv_mesh_node_orig(m, v);
		if (node_tag)
			node_tag[node_new[v]] = m->node_tag[v];
	}
	for (fv_idx_t i = 0; m->n_belems > 0 && i < m->belem_node_off[m->n_belems]; i++)
		m->belem_node[i] = node_new[m->belem_node[i]];

#define SWAP_IN(field, val) do { free(m->field); m->field = (val); (val) = NULL; } while (0)
	SWAP_IN(cell_type, type);
	SWAP_IN(cell_node_off, off);
	SWAP_IN(cell_node, cn);
	SWAP_IN(xyz, xyz);
	SWAP_IN(cell_orig, cell_orig);
	SWAP_IN(node_orig, node_orig);
	if (cell_tag)
		SWAP_IN(cell_tag, cell_tag);
	if (node_tag)
		SWAP_IN(node_tag, node_tag);
#undef SWAP_IN
done:
	free(cell_orig);
	free(node_orig);
	free(cell_tag);
	free(node_tag);
	free(type);
	free(off);
	free(cn);
	free(node_new);
	free(xyz);
	return err;
}

/* Index jumps over the interior faces inside a block: faces between blocks
 * join cells that no task reads together, so they say nothing of locality. */
static void index_jumps(const fv_mesh_t *m, const int32_t *block, int64_t *bandwidth, double *mean)
{
	int64_t bw = 0, sum = 0, n = 0;
	FV_OMP(parallel for schedule(static) reduction(max : bw) reduction(+ : sum, n) if (m->n_faces > FV_PAR_MIN))
	for (fv_idx_t f = m->n_bfaces; f < m->n_faces; f++) {
		fv_idx_t a = m->face_cell[2 * (size_t)f], b = m->face_cell[2 * (size_t)f + 1];
		if (block[a] != block[b])
			continue;
		int64_t j = (int64_t)b - a;
		j = j < 0 ? -j : j;
		bw = j > bw ? j : bw;
		sum += j;
		n++;
	}
	*bandwidth = bw;
	*mean = n > 0 ? (double)sum / (double)n : 0.0;
}

/* Errors before the cells move leave the mesh as it was; should the
 * connectivity fail afterwards (memory), the mesh is renumbered but has
 * no connectivity, as after a failed fv_mesh_build_faces. */
fv_err_t fv_mesh_renumber(fv_mesh_t *m, const int32_t *block_of_cell, int n_blocks, fv_idx_t *block_off,
			  fv_idx_t chain_min, fv_order_stats_t *stats)
{
	rcm_t r = {.m = m, .block = block_of_cell, .level_min = PAR_LEVEL_MIN,
		   .chain_min = chain_min > 0 ? chain_min : LARGE_BLOCK};
	fv_idx_t nc, *perm = NULL;
	int32_t *blk = NULL;
	fv_order_stats_t st;
	fv_err_t err = FV_OK;
	double t = fv_now();

	FV_CHECK(m && block_of_cell && block_off, FV_ERR_ARG, "fv_mesh_renumber: null argument");
	FV_CHECK(m->cell_cell && m->face_cell && m->cell_face_off, FV_ERR_ARG,
		 "%s: renumbering needs the mesh's faces: call fv_mesh_prepare first", m->source);
	FV_CHECK(n_blocks >= 1, FV_ERR_ARG, "%s: renumbering into %d blocks", m->source, n_blocks);
	nc = m->n_cells;
	fv_idx_t bad = nc; /* the first cell outside the blocks */
	FV_OMP(parallel for schedule(static) reduction(min : bad) if (nc > FV_PAR_MIN))
	for (fv_idx_t c = 0; c < nc; c++)
		if (block_of_cell[c] < 0 || block_of_cell[c] >= n_blocks)
			bad = c < bad ? c : bad;
	FV_CHECK(bad == nc, FV_ERR_ARG, "%s: cell %d is in block %d, outside [0, %d)", m->source, (int)bad,
		 bad < nc ? (int)block_of_cell[bad] : 0, n_blocks);

	index_jumps(m, block_of_cell, &st.bandwidth_before, &st.mean_jump_before);
	FV_CALL_GOTO(err, done, fv_malloc(&r.deg, (size_t)nc, sizeof *r.deg, "cell degrees"));
	FV_CALL_GOTO(err, done, fv_calloc(&r.seen, (size_t)nc, sizeof *r.seen, "BFS marks"));
	FV_CALL_GOTO(err, done, fv_malloc(&r.queue, (size_t)nc, sizeof *r.queue, "BFS queue"));
	FV_CALL_GOTO(err, done, fv_malloc(&r.new_of_old, (size_t)nc, sizeof *r.new_of_old, "cell numbering"));
	FV_CALL_GOTO(err, done, fv_malloc(&perm, (size_t)nc, sizeof *perm, "cell permutation"));
	r.perm = perm;
	FV_CALL_GOTO(err, done, order_units(&r, n_blocks, block_off));
	free_rcm(&r); /* before prepare, which peaks in memory */
	t = fv_lap("renumber: order", t);
	FV_CALL_GOTO(err, done, apply_order(m, perm));
	t = fv_lap("renumber: cells and nodes moved", t);
	/* the faces from the old ones (no hash of their nodes), then what
	 * fv_mesh_prepare builds after them */
	FV_CALL_GOTO(err, done, fv_mesh_rebuild_faces(m, perm));
	t = fv_lap("renumber: faces", t);
	FV_CALL_GOTO(err, done, fv_mesh_build_node_cells(m));
	FV_CALL_GOTO(err, done, fv_mesh_compute_geometry(m));
	FV_CALL_GOTO(err, done, fv_mesh_check(m, 0, NULL));
	t = fv_lap("renumber: node cells, geometry, checks", t);
	FV_CALL_GOTO(err, done, fv_malloc(&blk, (size_t)nc + 1, sizeof *blk, "blocks of cells"));
	for (int b = 0; b < n_blocks; b++) {
		FV_OMP(parallel for schedule(static) if (block_off[b + 1] - block_off[b] > FV_PAR_MIN))
		for (fv_idx_t c = block_off[b]; c < block_off[b + 1]; c++)
			blk[c] = b;
	}
	index_jumps(m, blk, &st.bandwidth_after, &st.mean_jump_after);
	if (stats)
		*stats = st;
done:
	free_rcm(&r);
	free(perm);
	free(blk);
	return err;
}
