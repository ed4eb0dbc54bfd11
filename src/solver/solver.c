/* SPDX-License-Identifier: MIT */
/* The solver's data on StarPU and the task graph of one iteration. Every
 * task touches one block's handles (halo tasks: one buffer between two
 * blocks); StarPU orders them by their data accesses, and the driver never
 * waits inside an iteration: it keeps a few iterations in flight and reads
 * each iteration's residuals through an asynchronous acquire. */
#include "fvstar/solver.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#include "codelets/common.h"
#include "solver/geo.h"
#include "util/timer.h"

#define RING 32

/* Per-block StarPU data. Fields are SoA over the block's local cells. */
typedef struct block_data {
	fv_layout_t L;
	void *geo_mem;
	fv_real_t *q, *q0, *w, *wn, *grad, *phi, *mm, *res, *dt;
	starpu_data_handle_t geo, hq, hq0, hw, hwn, hgrad, hphi, hmm, hres, hdt;
	int n_nbr;
	int *nbr;              /* neighbour block ids */
	int *nbr_slot;         /* index of this block in each neighbour's list */
	fv_idx_t *send_count;  /* values per cell sent to each neighbour */
	fv_real_t **buf_mem[3];            /* [field][k] */
	starpu_data_handle_t *buf[3];      /* Q (5), gradient (15), limiter (5) */
	fv_idx_t *cell_global; /* [n_cells] for set/get state */
	int worker;            /* the worker its tasks run on; -1: the scheduler picks */
	int n_colors;          /* colour groups of the faces (geo.h) */
	fv_idx_t color_off[FV_COLOR_MAX + 1];
} block_data_t;

enum { HALO_Q, HALO_GRAD, HALO_PHI };
static const int halo_nvars[3] = {5, 15, 5};

/* One iteration's residual sums: each block's norms task writes its own
 * row, the clock task (unsteady) its stamp, and the rows are added in block
 * order once all have been acquired, so the history does not depend on
 * which worker ran what (a StarPU reduction would). */
typedef struct norm_slot {
	double sums[FV_NORMS];
	int iter;
	int pending;            /* acquisitions not yet called back */
	int ready;
} norm_slot_t;

typedef struct acquire_ctx {
	struct fv_solver *s;
	int slot;
	int row;                /* block, or nb for the clock stamp */
} acquire_ctx_t;

struct fv_solver {
	int nb;
	block_data_t *b;
	fv_params_t P;
	fv_solver_opts_t o;
	int n_stages;
	fv_real_t rk_a[3], rk_b[3];
	fv_idx_t n_cells;

	fv_clock_t *clock_mem;
	starpu_data_handle_t clock;          /* unsteady only */
	double *norm_mem[RING];               /* [(nb + 1) * FV_NORMS] rows */
	starpu_data_handle_t *norm[RING];     /* [nb + 1] */
	acquire_ctx_t *actx[RING];            /* [nb + 1] */
	norm_slot_t slot[RING];
	pthread_mutex_t lock;
	pthread_cond_t cond;
	double res0[5];                      /* first iteration's residuals */
	int have_res0;
	int phi_valid;                       /* limiter tasks have been submitted */
};

void fv_solver_opts_default(fv_solver_opts_t *o)
{
	memset(o, 0, sizeof *o);
	o->gamma = 1.4;
	o->entropy_fix = 0.1;
	o->cfl = 1.0;
	o->limiter_k = 5.0;
	o->order = 2;
	o->limiter = 1;
	o->rk = 2;
	o->steady = 1;
	o->winf[0] = 1;
	o->winf[4] = 1 / 1.4;
	o->p_out = 1 / 1.4;
	o->lookahead = 3;
	o->pin_blocks = 1;
	o->flux_sum = FV_SUM_ATOMIC;
	o->nodes_sum = o->grad_sum = o->lim_sum = o->dt_sum = FV_SUM_GATHER;
}

static fv_err_t sp_alloc(void *p, size_t bytes, const char *what)
{
	void *mem = NULL;
	FV_CHECK(starpu_malloc(&mem, bytes ? bytes : 8) == 0, FV_ERR_MEM, "starpu_malloc of %zu bytes for %s failed",
		 bytes, what);
	memset(mem, 0, bytes ? bytes : 8);
	*(void **)p = mem;
	return FV_OK;
}

static fv_err_t field(fv_real_t **mem, starpu_data_handle_t *h, size_t n, const char *what)
{
	FV_CHECK(n < UINT32_MAX, FV_ERR_MEM, "%s: %zu values exceed a StarPU vector", what, n);
	FV_CALL(sp_alloc(mem, n * sizeof(fv_real_t), what));
	starpu_vector_data_register(h, STARPU_MAIN_RAM, (uintptr_t)*mem, (uint32_t)(n ? n : 1), sizeof(fv_real_t));
	return FV_OK;
}

static fv_err_t build_block(fv_solver_t *s, const fv_block_t *bk, int n_markers)
{
	block_data_t *d = &s->b[bk->id];
	size_t nc = (size_t)bk->n_cells, no = (size_t)bk->n_owned, nn = (size_t)bk->n_nodes;
	fv_geo_colors_t colors;
	FV_CALL(fv_geo_build(bk, &s->o, n_markers, sp_alloc, &d->L, &d->geo_mem, &colors));
	/* 64-byte elements (the blob's alignment): a vector's element count is
	 * 32-bit, and the blob of a 20M-cell block passes 4 GB */
	FV_CHECK(d->L.bytes % 64 == 0 && d->L.bytes / 64 < UINT32_MAX, FV_ERR_MEM,
		 "block %d: geometry of %zu bytes exceeds a StarPU vector", bk->id, d->L.bytes);
	starpu_vector_data_register(&d->geo, STARPU_MAIN_RAM, (uintptr_t)d->geo_mem, (uint32_t)(d->L.bytes / 64), 64);
	d->n_colors = colors.n;
	memcpy(d->color_off, colors.off, sizeof d->color_off);
	FV_CALL(field(&d->q, &d->hq, 5 * nc, "state"));
	FV_CALL(field(&d->q0, &d->hq0, 5 * no, "stage state"));
	FV_CALL(field(&d->w, &d->hw, 5 * nc, "primitives"));
	FV_CALL(field(&d->wn, &d->hwn, 5 * nn, "node values"));
	FV_CALL(field(&d->grad, &d->hgrad, 15 * nc, "gradients"));
	FV_CALL(field(&d->phi, &d->hphi, 5 * nc, "limiter"));
	/* the face-loop limiters' min/max (one value when unused) */
	int mm = s->o.lim_sum != FV_SUM_GATHER && s->o.order == 2 && s->o.limiter;
	FV_CALL(field(&d->mm, &d->hmm, mm ? 2 * FV_NVAR * no : 1, "limiter min/max"));
	FV_CALL(field(&d->res, &d->hres, 5 * no, "residual"));
	FV_CALL(field(&d->dt, &d->hdt, no, "time step"));
	d->n_nbr = bk->n_nbr;
	FV_CALL(fv_calloc(&d->nbr, (size_t)bk->n_nbr + 1, sizeof(int), "neighbours"));
	FV_CALL(fv_calloc(&d->nbr_slot, (size_t)bk->n_nbr + 1, sizeof(int), "neighbour slots"));
	FV_CALL(fv_calloc(&d->send_count, (size_t)bk->n_nbr + 1, sizeof(fv_idx_t), "send counts"));
	memcpy(d->nbr, bk->nbr, (size_t)bk->n_nbr * sizeof(int));
	for (int h = 0; h < 3; h++) {
		FV_CALL(fv_calloc(&d->buf_mem[h], (size_t)bk->n_nbr + 1, sizeof(fv_real_t *), "halo buffers"));
		FV_CALL(fv_calloc(&d->buf[h], (size_t)bk->n_nbr + 1, sizeof(starpu_data_handle_t), "halo handles"));
	}
	for (int k = 0; k < bk->n_nbr; k++) {
		d->send_count[k] = bk->send_off[k + 1] - bk->send_off[k];
		for (int h = 0; h < 3; h++)
			FV_CALL(field(&d->buf_mem[h][k], &d->buf[h][k], (size_t)halo_nvars[h] * d->send_count[k],
				      "halo buffer"));
	}
	FV_CALL(fv_malloc(&d->cell_global, nc + 1, sizeof(fv_idx_t), "cell ids"));
	memcpy(d->cell_global, bk->cell_global, nc * sizeof(fv_idx_t));
	return FV_OK;
}

fv_err_t fv_solver_create(fv_solver_t **sp, const fv_mesh_t *m, const fv_block_t *blocks, int n_blocks,
			  const fv_solver_opts_t *o)
{
	fv_solver_t *s;
	FV_CHECK(n_blocks >= 1, FV_ERR_ARG, "solver needs at least one block");
	FV_CHECK(o->order == 1 || o->order == 2, FV_ERR_ARG, "order must be 1 or 2 (got %d)", o->order);
	FV_CHECK(o->rk >= 1 && o->rk <= 3, FV_ERR_ARG, "rk must be 1, 2 or 3 (got %d)", o->rk);
	FV_CHECK(o->marker_bc, FV_ERR_ARG, "solver needs a boundary condition for each marker");
	FV_CALL(fv_geo_check_opts(o));
	FV_CALL(fv_calloc(&s, 1, sizeof *s, "solver"));
	*sp = s;
	s->o = *o;
	s->nb = n_blocks;
	s->n_cells = m->n_cells;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	fv_geo_params(o, &s->P, &s->n_stages, s->rk_a, s->rk_b);
	FV_CALL(fv_calloc(&s->b, (size_t)n_blocks, sizeof *s->b, "block data"));
	for (int b = 0; b < n_blocks; b++) {
		FV_CHECK(blocks[b].id == b, FV_ERR_ARG, "block %d has id %d", b, blocks[b].id);
		FV_CALL(build_block(s, &blocks[b], m->n_markers));
	}
	/* several GPUs and no CPU worker: each block stays on one GPU (a
	 * scheduler left to itself put both blocks of a 2-GPU run on one) */
	{
		int ncuda = (int)starpu_cuda_worker_get_count(), ids[STARPU_NMAXWORKERS];
		int pin = o->pin_blocks && starpu_cpu_worker_get_count() == 0 && ncuda > 1;
		if (pin)
			starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, ids, ncuda);
		for (int b = 0; b < n_blocks; b++)
			s->b[b].worker = pin ? ids[b % ncuda] : -1;
	}
	/* where each block sits in its neighbours' lists */
	for (int b = 0; b < n_blocks; b++)
		for (int k = 0; k < s->b[b].n_nbr; k++) {
			const block_data_t *n = &s->b[s->b[b].nbr[k]];
			int j = 0;
			while (j < n->n_nbr && n->nbr[j] != b)
				j++;
			FV_CHECK(j < n->n_nbr, FV_ERR_MESH, "block %d lists %d as neighbour but not the reverse", b,
				 s->b[b].nbr[k]);
			s->b[b].nbr_slot[k] = j;
		}
	for (int r = 0; r < RING; r++) {
		FV_CALL(sp_alloc(&s->norm_mem[r], (size_t)(n_blocks + 1) * FV_NORMS * sizeof(double), "norms"));
		FV_CALL(fv_calloc(&s->norm[r], (size_t)n_blocks + 1, sizeof(starpu_data_handle_t), "norm handles"));
		FV_CALL(fv_calloc(&s->actx[r], (size_t)n_blocks + 1, sizeof(acquire_ctx_t), "norm callbacks"));
		for (int j = 0; j <= n_blocks; j++) {
			starpu_vector_data_register(&s->norm[r][j], STARPU_MAIN_RAM,
						    (uintptr_t)(s->norm_mem[r] + (size_t)j * FV_NORMS), FV_NORMS,
						    sizeof(double));
			s->actx[r][j] = (acquire_ctx_t){s, r, j};
		}
	}
	if (!o->steady) {
		FV_CALL(sp_alloc(&s->clock_mem, sizeof *s->clock_mem, "clock"));
		s->clock_mem->t_end = o->t_end;
		s->clock_mem->dt_min = INFINITY;
		starpu_vector_data_register(&s->clock, STARPU_MAIN_RAM, (uintptr_t)s->clock_mem, 1, sizeof(fv_clock_t));
		fv_clock_set_reduction(s->clock);
	}
	return FV_OK;
}

static void task_args(const fv_solver_t *s, int b, fv_task_args_t *a)
{
	memset(a, 0, sizeof *a);
	a->L = s->b[b].L;
	a->P = s->P;
	a->block = b;
	a->worker = s->b[b].worker;
	a->n_colors = s->b[b].n_colors;
	memcpy(a->color_off, s->b[b].color_off, sizeof a->color_off);
}

/* Pack every block's field for each neighbour, unpack into their ghosts. */
static fv_err_t halo(fv_solver_t *s, int h)
{
	for (int b = 0; b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		starpu_data_handle_t f = h == HALO_Q ? d->hq : h == HALO_GRAD ? d->hgrad : d->hphi;
		for (int k = 0; k < d->n_nbr; k++) {
			fv_task_args_t a;
			task_args(s, b, &a);
			a.nbr = k;
			a.nvars = halo_nvars[h];
			FV_CALL(fv_insert_pack(d->geo, f, d->buf[h][k], &a));
		}
	}
	for (int b = 0; b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		for (int k = 0; k < d->n_nbr; k++) {
			/* neighbour n's buffer for b fills b's ghosts from n */
			block_data_t *n = &s->b[d->nbr[k]];
			starpu_data_handle_t f = h == HALO_Q ? d->hq : h == HALO_GRAD ? d->hgrad : d->hphi;
			fv_task_args_t a;
			task_args(s, b, &a);
			a.nbr = k;
			a.nvars = halo_nvars[h];
			FV_CALL(fv_insert_unpack(d->geo, n->buf[h][d->nbr_slot[k]], f, &a));
		}
	}
	return FV_OK;
}

static void norms_ready(void *arg);

/* color_tasks: a stage run by colour groups becomes one task per group
 * (the flux always; the other scatter stages when their strategy is color) */
static int group_tasks(const fv_solver_t *s, int sum)
{
	return s->o.color_tasks && sum == FV_SUM_COLOR;
}

static fv_err_t submit_iteration(fv_solver_t *s, int iter)
{
	int r = iter % RING;
	for (int st = 0; st < s->n_stages; st++) {
		FV_CALL(halo(s, HALO_Q));
		for (int b = 0; b < s->nb; b++) {
			fv_task_args_t a;
			task_args(s, b, &a);
			FV_CALL(fv_insert_prim(s->b[b].hq, s->b[b].hw, &a));
		}
		if (s->P.order == 2) {
			for (int b = 0; b < s->nb; b++) {
				block_data_t *d = &s->b[b];
				fv_task_args_t a;
				task_args(s, b, &a);
				if (!s->P.lsq)
					FV_CALL(fv_insert_nodes(d->geo, d->hw, d->hwn, &a));
				if (group_tasks(s, s->P.grad_sum) && !s->P.lsq)
					for (a.grouped = 1, a.group = 0; a.group < d->n_colors; a.group++)
						FV_CALL(fv_insert_gradient_group(d->geo, d->hw, d->hwn, d->hgrad, &a));
				else
					FV_CALL(fv_insert_gradient(d->geo, d->hw, d->hwn, d->hgrad, &a));
			}
			FV_CALL(halo(s, HALO_GRAD));
			/* past limiter_freeze the last limiter (owned and ghost
			 * values) stays; a solver that has not computed one yet
			 * (a run continued from a restart) computes it once */
			int frozen = s->o.limiter_freeze > 0 && iter > s->o.limiter_freeze && s->phi_valid;
			if (s->P.limiter && !frozen) {
				for (int b = 0; b < s->nb; b++) {
					block_data_t *d = &s->b[b];
					fv_task_args_t a;
					task_args(s, b, &a);
					if (group_tasks(s, s->P.lim_sum))
						for (a.grouped = 1, a.group = 0; a.group < d->n_colors; a.group++)
							FV_CALL(fv_insert_limiter_group(d->geo, d->hw, d->hgrad, d->hphi,
											d->hmm, &a));
					else
						FV_CALL(fv_insert_limiter(d->geo, d->hw, d->hgrad, d->hphi, d->hmm, &a));
				}
				FV_CALL(halo(s, HALO_PHI));
				s->phi_valid = 1;
			}
		}
		for (int b = 0; b < s->nb; b++) {
			block_data_t *d = &s->b[b];
			fv_task_args_t a;
			task_args(s, b, &a);
			if (s->o.color_tasks)
				for (a.grouped = 1, a.group = 0; a.group < d->n_colors; a.group++)
					FV_CALL(fv_insert_flux_group(d->geo, d->hw, d->hgrad, d->hphi, d->hres, &a));
			else
				FV_CALL(fv_insert_flux(d->geo, d->hw, d->hgrad, d->hphi, d->hres, &a));
			a.grouped = a.group = 0;
			if (st == 0 && group_tasks(s, s->P.dt_sum)) {
				for (a.grouped = 1, a.group = 0; a.group < d->n_colors; a.group++)
					FV_CALL(fv_insert_timestep_group(d->geo, d->hw, d->hdt, s->clock, &a));
				a.grouped = a.group = 0;
			} else if (st == 0) {
				FV_CALL(fv_insert_timestep(d->geo, d->hw, d->hdt, s->clock, &a));
			}
			if (st == 0) {
				FV_CALL(fv_insert_norms(d->geo, d->hw, d->hgrad, d->hphi, d->hres, s->norm[r][b], &a));
			}
		}
		if (st == 0 && s->clock) {
			fv_task_args_t a;
			task_args(s, 0, &a);
			FV_CALL(fv_insert_clock(s->clock, s->norm[r][s->nb], &a));
		}
		for (int b = 0; b < s->nb; b++) {
			block_data_t *d = &s->b[b];
			fv_task_args_t a;
			task_args(s, b, &a);
			a.rk_a = s->rk_a[st];
			a.rk_b = s->rk_b[st];
			FV_CALL(fv_insert_update(d->geo, d->hres, d->hdt, s->clock, d->hq0, d->hq, st == 0, &a));
		}
	}
	/* residuals (and the clock) come back without waiting */
	int rows = s->nb + (s->clock ? 1 : 0);
	pthread_mutex_lock(&s->lock);
	s->slot[r].iter = iter;
	s->slot[r].ready = 0;
	s->slot[r].pending = rows;
	pthread_mutex_unlock(&s->lock);
	for (int j = 0; j < rows; j++)
		FV_CHECK(starpu_data_acquire_cb(s->norm[r][j], STARPU_R, norms_ready, &s->actx[r][j]) == 0,
			 FV_ERR_RUNTIME, "iteration %d: acquiring the residual norms of block %d failed", iter, j);
	return FV_OK;
}

/* Runs in a StarPU thread once one row of an iteration's norms is
 * written; the last one adds the rows in block order. */
static void norms_ready(void *arg)
{
	acquire_ctx_t *c = (acquire_ctx_t *)arg;
	fv_solver_t *s = c->s;
	norm_slot_t *sl = &s->slot[c->slot];
	starpu_data_release(s->norm[c->slot][c->row]);
	pthread_mutex_lock(&s->lock);
	if (--sl->pending == 0) {
		const double *n = s->norm_mem[c->slot];
		memset(sl->sums, 0, sizeof sl->sums);
		for (int b = 0; b < s->nb; b++)
			for (int k = 0; k < FV_NORMS; k++)
				if (k != FV_NORM_T && k != FV_NORM_DT)
					sl->sums[k] += n[(size_t)b * FV_NORMS + k];
		if (s->clock) {
			sl->sums[FV_NORM_T] = n[(size_t)s->nb * FV_NORMS + FV_NORM_T];
			sl->sums[FV_NORM_DT] = n[(size_t)s->nb * FV_NORMS + FV_NORM_DT];
		}
		sl->ready = 1;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
}

fv_err_t fv_solver_run(fv_solver_t *s, int first_iter, int last_iter, double t0, fv_iter_cb cb, void *ctx,
		       int *done)
{
	int next_submit = first_iter, next_done = first_iter, stop = 0;
	double start = fv_now();
	fv_err_t err = FV_OK;
	*done = first_iter - 1;
	if (s->clock) {
		starpu_data_acquire(s->clock, STARPU_W);
		s->clock_mem->t = t0;
		s->clock_mem->dt_min = INFINITY;
		starpu_data_release(s->clock);
	}
	while (next_done <= last_iter && err == FV_OK) {
		while (!stop && next_submit <= last_iter && next_submit < next_done + s->o.lookahead + 1 &&
		       next_submit - next_done < RING - 1) {
			err = submit_iteration(s, next_submit);
			if (err != FV_OK)
				break;
			next_submit++;
		}
		if (err != FV_OK || next_done >= next_submit)
			break;
		/* the next iteration in order */
		norm_slot_t *sl = &s->slot[next_done % RING];
		fv_iter_info_t info;
		pthread_mutex_lock(&s->lock);
		while (!sl->ready)
			pthread_cond_wait(&s->cond, &s->lock);
		pthread_mutex_unlock(&s->lock);
		memset(&info, 0, sizeof info);
		info.iter = next_done;
		info.wall = fv_now() - start;
		for (int k = 0; k < 5; k++)
			info.res[k] = sqrt(sl->sums[k] / (sl->sums[FV_NORM_CELLS] > 0 ? sl->sums[FV_NORM_CELLS] : 1));
		for (int d = 0; d < 3; d++) {
			info.force[d] = sl->sums[FV_NORM_F + d];
			info.moment[d] = sl->sums[FV_NORM_M + d];
		}
		info.t = sl->sums[FV_NORM_T];
		info.dt = sl->sums[FV_NORM_DT];
		*done = next_done;
		next_done++;
		for (int k = 0; k < 5; k++)
			if (!isfinite(info.res[k])) {
				err = FV_ERROR(FV_ERR_NUMERIC,
					       "iteration %d: residual of equation %d is %g: the solution diverged",
					       info.iter, k, info.res[k]);
				break;
			}
		/* iterations submitted before a stop still run; they are not reported */
		if (err == FV_OK && !stop && cb && cb(&info, ctx))
			stop = 1;
		if (s->clock && info.t >= s->o.t_end)
			stop = 1; /* later iterations in flight have dt = 0 */
		if (stop && next_done >= next_submit)
			break;
	}
	starpu_task_wait_for_all();
	return err;
}

fv_err_t fv_solver_set_state(fv_solver_t *s, const fv_real_t *qg)
{
	size_t N = (size_t)s->n_cells;
	for (int b = 0; b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		size_t nc = (size_t)d->L.n_cells;
		starpu_data_acquire(d->hq, STARPU_W);
		for (int k = 0; k < 5; k++)
			for (size_t i = 0; i < nc; i++)
				d->q[k * nc + i] = qg[k * N + (size_t)d->cell_global[i]];
		starpu_data_release(d->hq);
	}
	return FV_OK;
}

fv_err_t fv_solver_get_state(fv_solver_t *s, fv_real_t *qg)
{
	size_t N = (size_t)s->n_cells;
	for (int b = 0; b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		size_t nc = (size_t)d->L.n_cells, no = (size_t)d->L.n_owned;
		starpu_data_acquire(d->hq, STARPU_R);
		for (int k = 0; k < 5; k++)
			for (size_t i = 0; i < no; i++)
				qg[k * N + (size_t)d->cell_global[i]] = d->q[k * nc + i];
		starpu_data_release(d->hq);
	}
	return FV_OK;
}

/* The solver's data is dropped at the end: the state has been read back
 * (fv_solver_get_state), so no GPU copy is written home on the way out. */
static void unregister_free(starpu_data_handle_t *h, void *mem)
{
	if (*h) {
		starpu_data_unregister_no_coherency(*h);
		*h = NULL;
	}
	if (mem)
		starpu_free(mem);
}

void fv_solver_destroy(fv_solver_t *s)
{
	if (!s)
		return;
	starpu_task_wait_for_all();
	for (int b = 0; s->b && b < s->nb; b++) {
		block_data_t *d = &s->b[b];
		unregister_free(&d->geo, d->geo_mem);
		unregister_free(&d->hq, d->q);
		unregister_free(&d->hq0, d->q0);
		unregister_free(&d->hw, d->w);
		unregister_free(&d->hwn, d->wn);
		unregister_free(&d->hgrad, d->grad);
		unregister_free(&d->hphi, d->phi);
		unregister_free(&d->hmm, d->mm);
		unregister_free(&d->hres, d->res);
		unregister_free(&d->hdt, d->dt);
		for (int h = 0; h < 3; h++) {
			for (int k = 0; d->buf[h] && k < d->n_nbr; k++)
				unregister_free(&d->buf[h][k], d->buf_mem[h][k]);
			free(d->buf[h]);
			free(d->buf_mem[h]);
		}
		free(d->nbr);
		free(d->nbr_slot);
		free(d->send_count);
		free(d->cell_global);
	}
	free(s->b);
	for (int r = 0; r < RING; r++) {
		for (int j = 0; s->norm[r] && j <= s->nb; j++)
			unregister_free(&s->norm[r][j], NULL);
		free(s->norm[r]);
		free(s->actx[r]);
		if (s->norm_mem[r])
			starpu_free(s->norm_mem[r]);
	}
	unregister_free(&s->clock, s->clock_mem);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
}
