/* SPDX-License-Identifier: MIT */
/* `fvstar run CASE.cfg [section.key=value ...]`: case file -> mesh ->
 * partition and renumbering -> blocks -> solver on StarPU -> history.csv,
 * summary.json, solution.vtu and restart files in the output directory. */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "config.h"

#include "app/app.h"
#include "app/plan.h"
#include "fvstar/case.h"
#include "fvstar/output.h"
#include "io/json.h"
#include "physics/bc.h"
#include "fvstar/partition.h"
#include "fvstar/runtime.h"
#include "fvstar/solver.h"
#include "physics/exact.h"
#include "physics/gas.h"
#include "util/env.h"
#include "util/threads.h"
#include "util/timer.h"

/* history.csv: iteration .. log10_rel_res_rho, the coefficients, the
 * residual reference and the drop from it, then the CFL, the retries so
 * far (numerics.retries), the sweeps' linear residual reduction
 * (implicit; 0 otherwise), the cells whose update was scaled down,
 * the sweep pairs run (numerics.sweeps_max) and the residual of nu~ (SA) */
#define HIST_COLS (17 + FV_NCOEF)

/* An iteration's lift coefficient, with the loop's seconds and the
 * process's (since it started) at its row: summary.json's cl_settled. */
typedef struct cl_row {
	int iter;
	double loop_s, process_s, cl;
} cl_row_t;

typedef struct run_ctx {
	const fv_case_t *c;
	fv_history_t hist;
	double res0[5];         /* the first iteration's residuals (log10_rel_res_rho) */
	int have_res0;
	/* the residual reports' reference: the density residual's peak so
	 * far (carried by the restart), or numerics.residual_ref */
	double res_peak;
	int res_peak_iter;
	int last_iter;
	double last_res[5], t, t_start, wall_before;
	int forces;             /* the case has force markers */
	double coef[FV_NCOEF];  /* last CD, CS, CL, CMx, CMy, CMz */
	int first_iter;
	int frozen_at;          /* the first iteration with a frozen limiter (0: none) */
	int stop_said;          /* a stop signal was acknowledged */
	fv_overlap_stats_t overlap; /* rank 0's blocks */
	fv_err_t err;           /* a failed history write stops the run */
	double wall;            /* the iterations' seconds, restart writes left out */
	double restart_s;       /* the restart writes' seconds */
	int restart_at;         /* the iteration of the last restart written (-1: none) */
	double output_s;        /* the final state's files' seconds (wall.csv, solution) */
	int beside_stop;        /* the final files written while StarPU stops (write_outputs) */
	int restart_pending;    /* the last restart's file is still to write ... */
	fv_restart_t final_rs;  /* ... with this header, its state home in the plan's st */
	cl_row_t *cl_rows;      /* every iteration's lift and when it came (forces) ... */
	size_t n_cl, cap_cl;    /* ... (cap_cl = SIZE_MAX: an allocation failed, none kept) */
} run_ctx_t;

/* SIGINT or SIGTERM received (its number), read by the run loop: the
 * solver submits no further iteration, those in flight end and are
 * reported, the restart is written. The handler does nothing else; a
 * second signal ends the process at once. */
static volatile sig_atomic_t stop_signal;
static int stopped_by;

static void on_stop_signal(int sig)
{
	if (stop_signal) {
		static const char msg[] = "fvstar: a second signal: stopped at once, no restart written\n";
		/* write and _exit are async-signal-safe */
		ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
		(void)w;
		_exit(128 + sig);
	}
	stop_signal = sig;
}

static void catch_stop_signals(int on)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on ? on_stop_signal : SIG_DFL;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int fv_app_stopped_by(void)
{
	return stopped_by;
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* arg as the shell reads it back: quoted unless plainly safe */
static void put_shell_word(FILE *out, const char *arg)
{
	if (arg[0] && strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=,:+-@%") ==
			      strlen(arg)) {
		fputs(arg, out);
		return;
	}
	fputc('\'', out);
	for (const char *p = arg; *p; p++)
		if (*p == '\'')
			fputs("'\\''", out);
		else
			fputc(*p, out);
	fputc('\'', out);
}

/* The command that continues a run stopped at iteration done towards
 * last from its restart: this command's arguments, with output.restart
 * and numerics.iterations replaced. */
static void continue_command(FILE *out, int argc, char **argv, const char *restart, int iterations)
{
	fputs("fvstar run ", out);
	put_shell_word(out, argv[1]);
	for (int i = 2; i < argc; i++) {
		if (strncmp(argv[i], "output.restart=", 15) == 0 || strncmp(argv[i], "numerics.iterations=", 20) == 0)
			continue;
		fputc(' ', out);
		put_shell_word(out, argv[i]);
	}
	fputs(" output.restart=", out);
	put_shell_word(out, restart);
	fprintf(out, " numerics.iterations=%d\n", iterations);
}

/* "42 s", "3 min 05 s", "2 h 10 min". */
static void duration_text(double t, char *buf, size_t n)
{
	long s = t > 0 && t < 1e9 ? (long)(t + 0.5) : 0;
	if (s < 60)
		snprintf(buf, n, "%ld s", s);
	else if (s < 3600)
		snprintf(buf, n, "%ld min %02ld s", s / 60, s % 60);
	else
		snprintf(buf, n, "%ld h %02ld min", s / 3600, s % 3600 / 60);
}

/* The first word on a stop signal, from the run loop (not the handler). */
static void say_stop(run_ctx_t *r)
{
	if (stop_signal && !r->stop_said) {
		r->stop_said = 1;
		fprintf(stderr,
			"fvstar: %s received: the run stops after the iterations in flight, with a restart (a second "
			"signal stops at once)\n",
			signal_name(stop_signal));
	}
}

/* The density residual's reference: the user's, or the peak so far. */
static double res_ref(const run_ctx_t *r)
{
	return r->c->residual_ref > 0 ? r->c->residual_ref : r->res_peak;
}

/* Orders of magnitude of res below the reference (negative: above). */
static double orders_below(const run_ctx_t *r, double res)
{
	double ref = res_ref(r);
	return ref > 0 ? log10(ref / (res > 0 ? res : 1e-300)) : 0;
}

/* "3.60 orders below the peak at iteration 12", or of the user's value. */
static void drop_text(const run_ctx_t *r, double res, char *buf, size_t n)
{
	double d = orders_below(r, res);
	if (r->c->residual_ref > 0)
		snprintf(buf, n, "%.2f orders %s numerics.residual_ref %.3g", fabs(d), d >= 0 ? "below" : "above",
			 r->c->residual_ref);
	else
		snprintf(buf, n, "%.2f orders below the peak at iteration %d", d, r->res_peak_iter);
}

/* The row's lift kept for cl_settled (nothing kept once an allocation
 * failed: the summary then leaves cl_settled out). */
static void keep_cl(run_ctx_t *r, int iter, double loop_s)
{
	if (r->n_cl == r->cap_cl && r->cap_cl != SIZE_MAX) {
		size_t cap = r->cap_cl ? 2 * r->cap_cl : 256;
		cl_row_t *p = realloc(r->cl_rows, cap * sizeof *p);
		if (!p) {
			free(r->cl_rows);
			r->cl_rows = NULL;
			r->n_cl = 0;
		}
		r->cl_rows = p;
		r->cap_cl = p ? cap : SIZE_MAX;
	}
	if (r->n_cl < r->cap_cl && r->cap_cl != SIZE_MAX)
		r->cl_rows[r->n_cl++] = (cl_row_t){iter, loop_s, fv_since_start(), r->coef[2]};
}

/* summary.json's cl_settled: for each tolerance, the first iteration from
 * which the lift stays within it (relative) of the run's last, with the
 * loop's seconds and the process's (start to that row) there: the time to
 * the answer as a user waits for it (T8 of issue 25: process start to CL
 * within 0.5 % against the loop to it). Known only at the run's end, and
 * only as good as the last iteration is converged. */
static const cl_row_t *cl_settle_row(const run_ctx_t *r, double tol)
{
	if (r->n_cl == 0 || r->cap_cl == SIZE_MAX || r->cl_rows[r->n_cl - 1].cl == 0)
		return NULL;
	double last = r->cl_rows[r->n_cl - 1].cl;
	size_t k = r->n_cl;
	while (k > 0 && fabs(r->cl_rows[k - 1].cl - last) <= tol * fabs(last))
		k--;
	return &r->cl_rows[k < r->n_cl ? k : r->n_cl - 1];
}

static json_t *cl_settled(const run_ctx_t *r)
{
	static const double tol[] = {0.005, 0.001};
	json_t *a = json_array();
	for (size_t t = 0; t < sizeof tol / sizeof tol[0]; t++) {
		const cl_row_t *c = cl_settle_row(r, tol[t]);
		if (!c)
			break;
		json_t *o = json_object();
		json_object_set_new(o, "within", fv_json_real(tol[t]));
		json_object_set_new(o, "iteration", json_integer(c->iter));
		json_object_set_new(o, "loop_seconds", fv_json_real(c->loop_s));
		json_object_set_new(o, "process_seconds", fv_json_real(c->process_s));
		json_object_set_new(o, "process_over_loop", fv_json_real(c->loop_s > 0 ? c->process_s / c->loop_s : 0));
		json_array_append_new(a, o);
	}
	return a;
}

static int on_iteration(const fv_iter_info_t *info, void *arg)
{
	run_ctx_t *r = (run_ctx_t *)arg;
	double row[HIST_COLS], drop, first_drop;
	char drop_txt[128];
	if (!r->have_res0) {
		for (int k = 0; k < 5; k++)
			r->res0[k] = info->res[k] > 0 ? info->res[k] : 1;
		r->have_res0 = 1;
	}
	/* from the peak: a run from the free stream starts near 0 and rises,
	 * and a drop from its first iteration would read as a rise of many
	 * orders all the way to convergence */
	if (info->res[0] > r->res_peak || r->res_peak_iter == 0) {
		r->res_peak = info->res[0];
		r->res_peak_iter = info->iter;
	}
	first_drop = log10(r->res0[0] / (info->res[0] > 0 ? info->res[0] : 1e-300));
	drop = orders_below(r, info->res[0]);
	drop_text(r, info->res[0], drop_txt, sizeof drop_txt);
	if (info->limiter_frozen && !r->frozen_at) {
		r->frozen_at = info->iter;
		if (r->c->progress_every > 0)
			fprintf(stderr, "fvstar: the limiter is frozen from iteration %d on (residual %s)\n", info->iter,
				drop_txt);
	}
	row[0] = info->iter;
	row[1] = r->wall_before + info->wall;
	row[2] = info->t;
	for (int k = 0; k < 5; k++)
		row[3 + k] = info->res[k];
	row[8] = -first_drop;
	fv_case_force_coeffs(r->c, info->force, info->moment, r->coef);
	for (int k = 0; k < FV_NCOEF; k++)
		row[9 + k] = r->coef[k];
	if (r->forces)
		keep_cl(r, info->iter, row[1]);
	/* after the columns scripts know: the reference and the drop from it */
	row[9 + FV_NCOEF] = res_ref(r);
	row[10 + FV_NCOEF] = drop;
	row[11 + FV_NCOEF] = info->cfl;
	row[12 + FV_NCOEF] = info->retries;
	row[13 + FV_NCOEF] = info->lin;
	row[14 + FV_NCOEF] = info->clipped;
	row[15 + FV_NCOEF] = info->sweeps;
	row[16 + FV_NCOEF] = info->res_nut;
	if (info->retry_note && fv_runtime_rank() == 0)
		fprintf(stderr, "fvstar: %s\n", info->retry_note);
	if (r->hist.f && r->c->history_every > 0 && info->iter % r->c->history_every == 0 && r->err == FV_OK) {
		r->err = fv_history_row(&r->hist, row);
		/* several ranks: only rank 0 writes, so only it would stop; the
		 * others would wait for it in the next iteration's collectives */
		if (r->err != FV_OK && fv_runtime_nranks() > 1)
			fv_runtime_fail(fv_errmsg());
	}
	if (r->c->progress_every > 0 && info->iter % r->c->progress_every == 0 && fv_runtime_rank() == 0) {
		/* ETA from the mean time per iteration so far: to the iteration
		 * limit, or (unsteady) to t_end at the current pace */
		double wall = r->wall_before + info->wall, per = wall / (info->iter - r->first_iter + 1), eta;
		if (r->c->num.time_mode == FV_TIME_UNSTEADY && info->t > r->t_start)
			eta = wall * (r->c->num.t_end - info->t) / (info->t - r->t_start);
		else
			eta = per * (r->first_iter + r->c->num.iterations - 1 - info->iter);
		char eta_text[32];
		int last = r->first_iter + r->c->num.iterations - 1, w = snprintf(NULL, 0, "%d", last);
		duration_text(eta, eta_text, sizeof eta_text);
		/* the drop in orders of magnitude of the density residual from
		 * the reference, saying which */
		fprintf(stderr, "iteration %*d/%d  res(rho) %.3e  %s", w, info->iter, last, info->res[0], drop_txt);
		if (r->forces)
			fprintf(stderr, "  CL %.6f  CD %.6f", r->coef[2], r->coef[0]);
		if (r->c->num.time_mode == FV_TIME_UNSTEADY)
			fprintf(stderr, "  t %.6g/%g", info->t, r->c->num.t_end);
		if (r->c->num.time_mode == FV_TIME_IMPLICIT)
			fprintf(stderr, "  CFL %.3g", info->cfl);
		fprintf(stderr, "  %.3g s/it  ETA %s\n", per, eta_text);
	}
	say_stop(r);
	r->last_iter = info->iter;
	r->t = info->t;
	memcpy(r->last_res, info->res, sizeof r->last_res);
	return r->err != FV_OK || (r->c->num.residual_drop > 0 && drop >= r->c->num.residual_drop);
}

void fv_app_initial_state(const fv_case_t *c, const fv_mesh_t *m, fv_real_t *q)
{
	size_t n = (size_t)m->n_cells;
	for (size_t i = 0; i < n; i++) {
		double x[3] = {(double)m->cell_ctr[i], (double)m->cell_ctr[n + i], (double)m->cell_ctr[2 * n + i]};
		fv_app_initial_cell(c, x, q + i, n);
	}
}

/* The turbulence arrays of the solution files (NULL: none). */
static const fv_sol_turb_t *sol_turb(const fv_case_t *c, fv_sol_turb_t *t)
{
	if (c->model != FV_MODEL_SA)
		return NULL;
	t->mu_inf = c->mach * c->reynolds_length / c->reynolds;
	t->suth = c->sutherland < 0 ? -1 : c->sutherland / c->temperature;
	return t;
}

int fv_app_nvars(const fv_case_t *c)
{
	return c->model == FV_MODEL_SA ? 6 : 5;
}

double fv_app_nut_inf(const fv_case_t *c)
{
	/* nu_inf = mu_inf / rho_inf, rho_inf = 1 */
	return c->nut_ratio * c->mach * c->reynolds_length / c->reynolds;
}

/* Spalart-Allmaras: each cell's distance to the nearest no-slip wall face,
 * on the renumbered mesh (the blocks' cell_global). */
fv_err_t fv_app_wall_distances(const fv_case_t *c, const fv_mesh_t *m, const fv_solver_opts_t *so, double **dist)
{
	uint8_t *wall = NULL;
	fv_err_t err;
	int any = 0;
	double t0 = fv_now();
	FV_CALL(fv_calloc(&wall, (size_t)m->n_markers + 1, 1, "wall markers"));
	for (int k = 0; k < m->n_markers; k++)
		any |= wall[k] = (uint8_t)fv_bc_is_noslip(so->marker_bc[k]);
	err = any ? FV_OK
		  : FV_ERROR(FV_ERR_ARG, "%s: [flow] model = sa needs a no-slip wall (bc noslip or isothermal) for the "
					 "wall distance", c->path[0] ? c->path : "case");
	if (err == FV_OK)
		err = fv_malloc(dist, (size_t)m->n_cells + 1, sizeof **dist, "wall distances");
	if (err == FV_OK)
		err = fv_wall_distance(m, wall, 0, *dist);
	free(wall);
	FV_CALL(err);
	if (fv_runtime_rank() == 0)
		fprintf(stderr, "fvstar: wall distance of %lld cells in %.2f s\n", (long long)m->n_cells, fv_now() - t0);
	return FV_OK;
}

/* The restart of iteration iter brought home: every rank its blocks'
 * state into st, and the header (the solver's ramp included) into r. */
static fv_err_t restart_get(const fv_case_t *c, fv_solver_t *s, fv_app_state_t *st, int iter, const run_ctx_t *rc,
			    fv_restart_t *r)
{
	FV_CALL(fv_solver_get_block_states(s, st->qb));
	memset(r, 0, sizeof *r);
	r->iteration = iter;
	r->time = rc->t;
	memcpy(r->res0, rc->res0, sizeof r->res0);
	r->res_peak = rc->res_peak;
	r->res_peak_iter = rc->res_peak_iter;
	r->model = c->model;
	return fv_solver_get_ramp_state(s, r->solver_state, FV_RESTART_SOLVER_STATE_MAX, &r->n_solver_state);
}

/* restart.bin from what restart_get brought home: host work alone (rank
 * 0 writes every rank's cells). */
static fv_err_t restart_put(const fv_case_t *c, const fv_part_t *p, fv_restart_t *r, const fv_app_state_t *st)
{
	char path[FV_CASE_PATH_MAX + 32];
	r->n_blocks = p->n_blocks;
	snprintf(path, sizeof path, "%s/restart.bin", c->out_dir);
	return fv_app_part_restart_write(path, p, r, st);
}

static fv_err_t write_restart(const fv_case_t *c, fv_solver_t *s, const fv_part_t *p, fv_app_state_t *st, int iter,
			      const run_ctx_t *rc)
{
	fv_restart_t r;
	FV_CALL(restart_get(c, s, st, iter, rc, &r));
	/* the state is home: the file is the host's work alone, on the cores
	 * the CPU workers would poll on (a 4.2M-cell restart on 2 cores:
	 * 4.3-9.4 s with them polling, 2.4-2.9 s asleep) */
	fv_runtime_pause();
	fv_err_t err = restart_put(c, p, &r, st);
	fv_runtime_resume();
	return err;
}

static json_t *summary_json(const fv_case_t *c, const fv_part_t *p, const run_ctx_t *r, int iters, double wall,
			    int n_stages)
{
	const fv_partition_stats_t *ps = &p->ps;
	const fv_order_stats_t *os = &p->os;
	int nb = p->n_blocks;
	json_t *root = json_object(), *mesh = json_object(), *part = json_object(), *work = json_object();
	int ncpu, ncuda;
	double ns = iters > 0 ? 1e9 * wall / ((double)iters * n_stages * (double)p->n_cells) : 0;
	json_object_set_new(root, "case", fv_case_json(c));
	json_object_set_new(mesh, "file", json_string(c->mesh_file));
	json_object_set_new(mesh, "cells", json_integer(p->n_cells));
	json_object_set_new(mesh, "faces", json_integer(p->n_faces));
	json_object_set_new(mesh, "nodes", json_integer(p->n_nodes));
	json_object_set_new(root, "mesh", mesh);
	json_object_set_new(part, "blocks", json_integer(nb));
	json_object_set_new(part, "edge_cut", json_integer(ps->edge_cut));
	json_object_set_new(part, "imbalance", fv_json_real(ps->imbalance));
	json_object_set_new(part, "bandwidth_before", json_integer(os->bandwidth_before));
	json_object_set_new(part, "bandwidth_after", json_integer(os->bandwidth_after));
	json_object_set_new(part, "overlap_blocks", json_integer(r->overlap.split_blocks));
	json_object_set_new(part, "overlap_border_faces",
			    fv_json_real(r->overlap.faces > 0 ? (double)r->overlap.border_faces / (double)r->overlap.faces : 0));
	json_object_set_new(part, "halo_host_buffers", json_integer(r->overlap.host_buffers));
	json_object_set_new(root, "partition", part);
	fv_runtime_workers(&ncpu, &ncuda);
	json_object_set_new(work, "cpu", json_integer(ncpu));
	json_object_set_new(work, "cuda", json_integer(ncuda));
	json_object_set_new(work, "scheduler", json_string(fv_runtime_sched_name()));
	json_object_set_new(root, "workers", work);
	json_object_set_new(root, "precision", json_string(FV_REAL_NAME));
	json_object_set_new(root, "iterations", json_integer(r->last_iter));
	json_object_set_new(root, "time", fv_json_real(r->t));
	json_object_set_new(root, "final_residuals", fv_json_reals(r->last_res, 5));
	/* from the reference (the peak unless numerics.residual_ref), which
	 * the next keys name; and from the first iteration, as before */
	json_object_set_new(root, "residual_drop_orders",
			    fv_json_real(r->have_res0 && r->last_res[0] > 0 ? orders_below(r, r->last_res[0]) : 0));
	json_object_set_new(root, "residual_reference", json_string(c->residual_ref > 0 ? "numerics.residual_ref" : "peak"));
	json_object_set_new(root, "residual_reference_value", fv_json_real(res_ref(r)));
	json_object_set_new(root, "residual_peak", fv_json_real(r->res_peak));
	json_object_set_new(root, "residual_peak_iteration", json_integer(r->res_peak_iter));
	json_object_set_new(root, "residual_drop_from_first_orders",
			    fv_json_real(r->have_res0 && r->last_res[0] > 0 ? log10(r->res0[0] / r->last_res[0]) : 0));
	json_object_set_new(root, "limiter_frozen_from", json_integer(r->frozen_at));
	json_object_set_new(root, "wall_seconds", fv_json_real(wall));
	json_object_set_new(root, "seconds_per_iteration", fv_json_real(iters > 0 ? wall / iters : 0));
	json_object_set_new(root, "rk_stages", json_integer(n_stages));
	json_object_set_new(root, "ns_per_cell_per_stage", fv_json_real(ns));
	if (r->forces) {
		static const char *const names[FV_NCOEF] = {"CD", "CS", "CL", "CMx", "CMy", "CMz"};
		json_t *f = json_object();
		for (int k = 0; k < FV_NCOEF; k++)
			json_object_set_new(f, names[k], fv_json_real(r->coef[k]));
		json_object_set_new(f, "markers", json_string(c->force_markers[0] ? c->force_markers : "all walls"));
		json_object_set_new(f, "axes", json_string(fv_case_axes(c)));
		json_object_set_new(f, "ref_area", fv_json_real(c->ref_area));
		json_object_set_new(f, "ref_length", fv_json_real(c->ref_length));
		json_object_set_new(f, "moment_center", fv_json_reals(c->moment_center, 3));
		json_object_set_new(f, "cl_settled", cl_settled(r));
		json_object_set_new(root, "forces", f);
	}
	return root;
}

/* A run stopped on a non-finite residual at iteration bad: the cells that
 * hold non-physical values, the last good state into the solution files
 * (the restart file stays as it was), and what usually helps. */
static fv_err_t diverged(const fv_case_t *c, const fv_part_t *p, fv_solver_t *s, fv_app_state_t *st, int bad,
			 int restart_at)
{
	fv_sol_turb_t turb;
	char what[1024], where[FV_CASE_PATH_MAX + 256] = "", saved[FV_CASE_PATH_MAX + 160];
	char label[256];
	long long n_bad = 0;
	int good = -1;
	char restart[FV_CASE_PATH_MAX + 96];
	snprintf(what, sizeof what, "%s", fv_errmsg());
	if (restart_at >= 0)
		snprintf(restart, sizeof restart, "%s/restart.bin of iteration %d is intact%s", c->out_dir, restart_at,
			 restart_at >= bad - 1 ? " (but its state already leads to the divergence)" : "");
	else
		snprintf(restart, sizeof restart, "this run wrote no restart file (output.restart_every)");
	if (fv_solver_get_block_states(s, st->qb) == FV_OK &&
	    fv_app_part_bad_cells(p, st, c->gamma, &n_bad, label, sizeof label) == FV_OK && n_bad > 0)
		snprintf(where, sizeof where, "; when it stopped, %lld cells held a non-physical state, the first %s",
			 n_bad, label);
	if (fv_solver_get_good_block_states(s, bad, st->qb, &good) == FV_OK &&
	    fv_app_part_solution(c->out_dir, "solution", p, st, c->gamma, 0, sol_turb(c, &turb)) == FV_OK)
		snprintf(saved, sizeof saved, "; %s/solution.%s holds the state of iteration %d, the last good one kept",
			 c->out_dir, p->n_ranks > 1 || p->piece.cell_orig || p->piece.node_orig ? "pvtu" : "vtu", good);
	else
		snprintf(saved, sizeof saved, "; no good state was kept (output.snapshot_every)");
	if (c->num.time_mode == FV_TIME_IMPLICIT)
		/* an implicit run diverges where its sweeps solve the linear
		 * system too loosely for the CFL reached */
		return FV_ERROR(FV_ERR_NUMERIC,
				"%s%s%s; %s. Usual remedies for an implicit run: Rusanov's face blocks (numerics.jacobian "
				"= rusanov, now %s: more diagonal weight where the sweeps diverge), more sweeps "
				"(numerics.sweeps = %d now: a finer mesh needs more), a lower cfl_max (%g now), a "
				"first-order start (numerics.first_order = %d now), boundary conditions that match the "
				"flow",
				what, where, saved, restart, c->num.jacobian == FV_JACOBIAN_RUSANOV ? "rusanov" : "roe",
				c->num.sweeps, c->num.cfl_max, c->num.first_order);
	return FV_ERROR(FV_ERR_NUMERIC,
			"%s%s%s; %s. Usual remedies: a lower CFL (numerics.cfl = %g now), a first-order start "
			"(numerics.order = 1 for a few hundred iterations, then continue from its restart with order = "
			"2), boundary conditions that match the flow",
			what, where, saved, restart, c->num.cfl);
}

static fv_err_t read_mesh(const fv_case_t *c, fv_mesh_t *m);

/* FVSTAR_CUDA_WARM_SPARE=1: the mesh read on one thread fewer while the
 * CUDA contexts' thread runs (fv_runtime_warm_gpus): with it, 16 set-up
 * threads on 16 cores wait at each loop's end for the one sharing a core
 * with it (the M6 medium's mesh phase 0.31 -> 0.50 s beside it on an
 * H100, session 20 call 1); a trial, off by default. */
fv_err_t fv_app_read_mesh(const fv_case_t *c, fv_mesh_t *m)
{
	int was = fv_threads_max(), spare = 0;
	if (fv_env_switch("FVSTAR_CUDA_WARM_SPARE", 0, &spare) != FV_OK)
		spare = 0;
	spare = spare && was > 1 && fv_runtime_warm_busy();
	if (spare)
		fv_threads_set(was - 1);
	fv_err_t err = read_mesh(c, m);
	if (spare)
		fv_threads_set(was);
	return err;
}

static fv_err_t read_mesh(const fv_case_t *c, fv_mesh_t *m)
{
	double t = fv_now();
	switch (c->mesh_format) {
	case FV_MESH_FORMAT_SU2:
		FV_CALL(fv_mesh_read_su2(m, c->mesh_file));
		break;
	case FV_MESH_FORMAT_GMSH:
		FV_CALL(fv_mesh_read_gmsh(m, c->mesh_file));
		break;
	case FV_MESH_FORMAT_CGNS:
		FV_CALL(fv_mesh_read_cgns(m, c->mesh_file));
		break;
	case FV_MESH_FORMAT_FVM:
		FV_CALL(fv_mesh_read_fvm(m, c->mesh_file));
		break;
	default: /* auto: from the extension or the contents */
		FV_CALL(fv_mesh_read(m, c->mesh_file));
	}
	for (int l = 0; l < c->mesh_refine; l++) {
		fv_mesh_t fine;
		fv_mesh_init(&fine);
		fv_err_t err = fv_mesh_refine(m, &fine);
		if (err != FV_OK) {
			fv_mesh_free(&fine);
			return fv_error_trace(err, __FILE__, __LINE__);
		}
		fv_mesh_free(m);
		*m = fine;
	}
	t = fv_lap("mesh: read", t);
	/* the faces and geometry on the threads the cells are worth */
	int was = fv_threads_cap((size_t)m->n_cells);
	fv_err_t err = fv_mesh_prepare(m);
	fv_threads_set(was);
	FV_CALL(err);
	fv_lap("mesh: faces, geometry, checks", t);
	return FV_OK;
}

fv_err_t fv_app_load_mesh(const fv_case_t *c, fv_mesh_t *m)
{
	FV_CALL(fv_app_read_mesh(c, m));
	return fv_case_check_markers(c, m);
}

fv_err_t fv_app_order_cells(const fv_case_t *c, fv_mesh_t *m, int nb, const double *weights, const int *groups,
			    int32_t *part, fv_idx_t *off, fv_partition_stats_t *ps, fv_order_stats_t *os)
{
	double t = fv_now();
	FV_CALL(fv_partition_cells_weighted(m, nb, (fv_partitioner_t)c->partitioner, (unsigned)c->seed, weights, groups,
					    part, ps));
	fv_lap("blocks: partition", t);
	return fv_mesh_renumber(m, part, nb, off, c->num.time_mode == FV_TIME_IMPLICIT ? 0 : FV_ORDER_CHAIN_MIN_EXPLICIT,
				os);
}

fv_err_t fv_app_solver_opts(const fv_case_t *c, const fv_mesh_t *m, fv_solver_opts_t *so, int8_t **bc,
			    uint8_t **force)
{
	int *kinds = NULL;
	fv_err_t err = FV_OK;
	*bc = NULL;
	*force = NULL;
	FV_CALL_GOTO(err, out, fv_calloc(&kinds, (size_t)m->n_markers + 1, sizeof *kinds, "bc kinds"));
	FV_CALL_GOTO(err, out, fv_calloc(bc, (size_t)m->n_markers + 1, 1, "bc kinds"));
	FV_CALL_GOTO(err, out, fv_case_bc_kinds(c, m, kinds));
	for (int k = 0; k < m->n_markers; k++)
		(*bc)[k] = (int8_t)kinds[k];
	FV_CALL_GOTO(err, out, fv_calloc(force, (size_t)m->n_markers + 1, 1, "force markers"));
	FV_CALL_GOTO(err, out, fv_case_force_markers(c, m, *force));

	fv_solver_opts_default(so);
	so->num = c->num;
	so->gamma = c->gamma;
	so->pin_blocks = c->pin_blocks;
	so->snapshot_every = c->snapshot_every;
	so->trace_from = c->trace_from;
	fv_case_freestream(c, so->winf);
	so->p_out = c->p_out;
	if (c->model != FV_MODEL_EULER) {
		so->mu_inf = c->mach * c->reynolds_length / c->reynolds;
		so->suth = c->sutherland < 0 ? -1 : c->sutherland / c->temperature;
		so->prandtl = c->prandtl;
		so->t_wall = c->wall_temperature / c->temperature;
		so->sa = c->model == FV_MODEL_SA;
		so->prandtl_t = c->prandtl_turb;
		so->nut_inf = so->sa ? fv_app_nut_inf(c) : 0;
	}
	so->marker_bc = *bc;
	so->marker_force = *force;
	memcpy(so->moment_center, c->moment_center, sizeof so->moment_center);
out:
	free(kinds);
	if (err != FV_OK) {
		FV_FREE(*bc);
		FV_FREE(*force);
	}
	return err;
}

/* Each rank's peak memory (resident set), gathered on every rank: mem[r]
 * for rank r; then mem[R + r] the MiB StarPU holds on its GPUs and
 * mem[2 R + r] their count (R ranks). */
static fv_err_t gather_memory(double **mem)
{
	struct rusage ru;
	int nr = fv_runtime_nranks(), me = fv_runtime_rank(), ng;
	double total[FV_RUNTIME_MAX_GPUS], used[FV_RUNTIME_MAX_GPUS];
	FV_CALL(fv_calloc(mem, 3 * (size_t)nr, sizeof **mem, "memory"));
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		(*mem)[me] = (double)ru.ru_maxrss / 1024.0;
	ng = fv_runtime_device_memory(total, used, FV_RUNTIME_MAX_GPUS);
	for (int g = 0; g < ng; g++)
		(*mem)[nr + me] += used[g] / (1024.0 * 1024.0);
	(*mem)[2 * nr + me] = ng;
	return fv_runtime_combine(*mem, 3 * (size_t)nr * sizeof **mem, "the peak memory");
}

/* summary.json's "ranks", and the memory on stderr. */
static void ranks_summary(json_t *js, const fv_part_t *p, const double *rss_mib, const char *mesh_from)
{
	json_t *rk = json_object(), *mem = json_array();
	for (int i = 0; i < p->n_ranks; i++)
		json_array_append_new(mem, fv_json_real(rss_mib[i]));
	json_object_set_new(rk, "count", json_integer(p->n_ranks));
	json_object_set_new(rk, "block_map", json_string(p->grown ? "grown" : "contiguous"));
	json_object_set_new(rk, "halo_cells_between_ranks", json_integer(p->cut));
	json_object_set_new(rk, "halo_cells_between_blocks", json_integer(p->halo));
	json_object_set_new(rk, "peak_memory_mib", mem);
	json_object_set_new(rk, "mesh_from", json_string(mesh_from));
	json_object_set_new(js, "ranks", rk);
	fprintf(stderr, "fvstar: peak memory per rank (MiB):");
	for (int i = 0; i < p->n_ranks; i++)
		fprintf(stderr, " %.0f", rss_mib[i]);
	fprintf(stderr, "\n");
}

/* wall.csv (rank 0) from every rank's wall faces: all markers of wall
 * kinds (slip and viscous); none when the mesh has none. */
static fv_err_t write_wall(const fv_case_t *c, const fv_part_t *p, const fv_solver_opts_t *so,
			   const fv_app_wall_t *w, int *written)
{
	char path[FV_CASE_PATH_MAX + 32];
	double u2 = so->winf[1] * so->winf[1] + so->winf[2] * so->winf[2] + so->winf[3] * so->winf[3];
	double un = sqrt(u2) > 0 ? sqrt(u2) : 1;
	fv_wall_ref_t ref = {.gamma = c->gamma, .p_inf = so->winf[4], .q_inf = u2 > 0 ? 0.5 * so->winf[0] * u2 : 1,
			     .e_inf = {so->winf[1] / un, so->winf[2] / un, so->winf[3] / un},
			     .mu_inf = so->mu_inf, .suth = so->suth};
	snprintf(path, sizeof path, "%s/wall.csv", c->out_dir);
	return fv_app_part_wall_put(path, p, w, &ref, written);
}

/* history.csv (rank 0), continued after a restart's iteration. */
static fv_err_t open_history(const fv_plan_t *p, run_ctx_t *r)
{
	static const char *const cols[] = {"iteration", "wall_s", "time", "res_rho", "res_rhou", "res_rhov",
					   "res_rhow", "res_rhoE", "log10_rel_res_rho", "CD", "CS", "CL",
					   "CMx", "CMy", "CMz", "res_rho_ref", "orders_below_ref", "cfl", "retries",
					   "lin_res", "clipped", "sweeps", "res_nut"};
	char path[FV_CASE_PATH_MAX + 32];
	int first = p->start.first;
	snprintf(path, sizeof path, "%s/history.csv", p->c.out_dir);
	if (fv_runtime_rank() != 0)
		return FV_OK;
	FV_CALL(fv_history_open(&r->hist, path, cols, HIST_COLS, p->c.restart_from[0] ? first - 1 : -1));
	if (r->hist.partial_bytes > 0)
		fprintf(stderr,
			"fvstar: %s: its last row was incomplete (%ld bytes without an end of line: a run "
			"stopped while writing it) and is cut off\n",
			path, r->hist.partial_bytes);
	if (r->hist.rows_dropped > 0)
		fprintf(stderr, "fvstar: %s: %ld rows after iteration %d (the restart's) dropped\n", path,
			r->hist.rows_dropped, first - 1);
	return FV_OK;
}

/* The iterations, a restart every output.restart_every and after the
 * last; r->wall: their time, r->restart_s: the restart files'. */
static fv_err_t run_loop(fv_plan_t *p, run_ctx_t *r)
{
	const fv_case_t *c = &p->c;
	fv_err_t err = FV_OK;
	int done = 0;
	double start = fv_now();
	int from = p->start.first, last = p->start.first + c->num.iterations - 1;
	fv_mark("loop");
	fv_runtime_busy_start();
	while (from <= last && err == FV_OK && !stop_signal) {
		int to = c->restart_every > 0 ? from + c->restart_every - 1 : last;
		if (to > last)
			to = last;
		r->wall_before = fv_now() - start;
		err = fv_solver_run(p->solver, from, to, r->last_iter ? r->t : p->start.t0, on_iteration, r, &done);
		if (err != FV_OK || done < to || to == last)
			fv_runtime_trace_stop(); /* the iterations only, not the output after them */
		if (err == FV_OK)
			err = r->err;
		if (err != FV_OK)
			break;
		{
			double t_write = fv_now();
			fv_mark("loop done"); /* the last restart's start (the latest mark wins) */
			if (r->beside_stop && (done < to || to == last || stop_signal)) {
				/* the last: its file beside StarPU's stop (write_outputs) */
				FV_CALL(restart_get(c, p->solver, &p->st, done, r, &r->final_rs));
				r->restart_pending = 1;
			} else {
				FV_CALL(write_restart(c, p->solver, &p->part, &p->st, done, r));
				fv_mark("restart written");
			}
			r->restart_s += fv_now() - t_write;
		}
		r->restart_at = done;
		if (done < to)
			break; /* converged or reached t_end */
		from = to + 1;
	}
	/* the iterations' time: the restart files written between them
	 * (summary.json's restart_write_seconds) are not the solver's */
	say_stop(r);
	r->wall = fv_now() - start - r->restart_s;
	if (err != FV_OK)
		fv_mark("loop done");
	if (err == FV_ERR_NUMERIC)
		err = diverged(c, &p->part, p->solver, &p->st, done, r->restart_at);
	if (err != FV_OK)
		return fv_error_trace(err, __FILE__, __LINE__);
	return FV_OK;
}

/* The process's marks so far, in seconds since it started (util/timer.h). */
static json_t *timeline_json(void)
{
	const fv_mark_t *m;
	int n = fv_marks(&m);
	json_t *t = json_object();
	for (int i = 0; i < n; i++)
		json_object_set_new(t, m[i].name, fv_json_real(m[i].at));
	return t;
}

/* -v, rank 0, the process's last line: its marks from start to end; the
 * gaps between them are what the set-up's and the loop's clocks miss. */
static void say_timeline(void)
{
	const fv_mark_t *m;
	int n = fv_marks(&m);
	fprintf(stderr, "fvstar: timeline (s since the process started):");
	fv_mark_exit_say(1);
	for (int i = 0; i < n; i++)
		fprintf(stderr, "%s %s %.3f", i ? "," : "", m[i].name, m[i].at);
	fputc('\n', stderr);
}

/* summary.json (rank 0) but the figures known only once the files are
 * written (restart and output seconds, the timeline: summary_put); what
 * StarPU knows (workers, scheduler, busy shares) is in it. */
static json_t *summary_get(const fv_plan_t *p, const run_ctx_t *r, const double *mem, json_t *dist)
{
	const fv_part_t *part = &p->part;
	char busy[4096];
	json_t *js = summary_json(&p->c, part, r, r->last_iter - p->start.first + 1, r->wall, p->so.num.rk);
	json_t *cells = json_array();
	double mean = fv_runtime_busy(busy, sizeof busy);
	if (part->n_ranks > 1)
		ranks_summary(js, part, mem, p->from_dir ? "partition directory" : "rank 0");
	else
		json_object_set_new(js, "peak_memory_mib", fv_json_real(mem[0]));
	fv_budget_report(js, &p->budget, mem, part->n_ranks, part->n_cells);
	json_object_update(js, dist);
	for (int b = 0; b < part->n_blocks; b++)
		json_array_append_new(cells, json_integer(part->block_off[b + 1] - part->block_off[b]));
	json_object_set_new(json_object_get(js, "partition"), "block_cells", cells);
	/* set by summary_put, in their places */
	json_object_set_new(js, "restart_write_seconds", json_null());
	json_object_set_new(js, "output_seconds", json_null());
	fv_plan_setup_json(p, js);
	json_object_set_new(js, "timeline", json_null());
	json_object_set_new(json_object_get(js, "partition"), "balance",
			    json_string(p->bal.weights ? "speed" : "equal"));
	if (busy[0]) {
		/* StarPU's profiling (STARPU_PROFILING=1): busy % per worker over the iterations */
		json_object_set_new(json_object_get(js, "workers"), "busy", json_string(busy));
		json_object_set_new(json_object_get(js, "workers"), "busy_mean", fv_json_real(mean));
	}
	return js;
}

static fv_err_t summary_put(const fv_plan_t *p, const run_ctx_t *r, json_t *js)
{
	char path[FV_CASE_PATH_MAX + 32];
	json_object_set_new(js, "restart_write_seconds", fv_json_real(r->restart_s));
	json_object_set_new(js, "output_seconds", fv_json_real(r->output_s));
	fv_mark("summary");
	json_object_set_new(js, "timeline", timeline_json());
	snprintf(path, sizeof path, "%s/summary.json", p->c.out_dir);
	return fv_summary_write(path, js);
}

/* The last lines on stderr (rank 0): the residual's drop, the forces,
 * where the results are, and how to go on after a stop signal. */
static void last_words(const fv_plan_t *p, const run_ctx_t *r, int wall_written)
{
	const fv_case_t *c = &p->c;
	int first = p->start.first;
	if (r->have_res0 && r->last_res[0] > 0) {
		char drop_txt[128];
		double d1 = log10(r->res0[0] / r->last_res[0]);
		drop_text(r, r->last_res[0], drop_txt, sizeof drop_txt);
		fprintf(stderr, "fvstar: res(rho) %.3e at iteration %d: %s (%.2f orders %s the first iteration's)\n",
			r->last_res[0], r->last_iter, drop_txt, fabs(d1), d1 >= 0 ? "below" : "above");
	}
	if (r->forces)
		fprintf(stderr, "fvstar: CL %.6f  CD %.6f  CMy %.6f (reference area %g, length %g)\n", r->coef[2],
			r->coef[0], r->coef[4], c->ref_area, c->ref_length);
	const cl_row_t *cs = r->forces ? cl_settle_row(r, 0.005) : NULL;
	if (cs)
		fprintf(stderr,
			"fvstar: CL within 0.5%% of its last value from iteration %d: %.2f s after the process started, "
			"%.2f s of iterations (summary.json forces.cl_settled)\n",
			cs->iter, cs->process_s, cs->loop_s);
	fprintf(stderr,
		"fvstar: %d iterations in %.2f s (and %.2f s writing restart files); results in %s (history.csv, "
		"summary.json%s, restart.bin%s)\n",
		r->last_iter - first + 1, r->wall, r->restart_s, c->out_dir,
		!c->vtu ? "" : p->part.n_ranks > 1 ? ", solution.pvtu with one piece per rank" : ", solution.vtu",
		wall_written ? ", wall.csv" : "");
	if (stop_signal) {
		/* stopped cleanly: where it got to, and how to go on */
		int last = first + c->num.iterations - 1;
		stopped_by = stop_signal;
		fprintf(stderr, "fvstar: stopped by %s at iteration %d of %d; %s/restart.bin holds iteration %d\n",
			signal_name(stop_signal), r->restart_at, last, c->out_dir, r->restart_at);
		if (r->restart_at < last) {
			char restart[FV_CASE_PATH_MAX + 32];
			snprintf(restart, sizeof restart, "%s/restart.bin", c->out_dir);
			fprintf(stderr, "fvstar: to continue: ");
			continue_command(stderr, p->argc, p->argv, restart, last - r->restart_at);
		}
	}
}

/* The final files: what they need from StarPU (outputs_get: the state,
 * the wall's data, the memory, summary.json's figures), then the files
 * themselves (outputs_put: restart.bin where it waits, wall.csv, the
 * solution, summary.json, the last words), host work alone. */
typedef struct final_files {
	fv_plan_t *p;
	run_ctx_t *r;
	fv_app_wall_t wall;
	json_t *js; /* rank 0 */
	double t0;
	fv_err_t err;
	char msg[1024]; /* the error of outputs_put on its thread */
} final_files_t;

static fv_err_t outputs_get(fv_plan_t *p, run_ctx_t *r, final_files_t *f)
{
	double *mem = NULL;
	json_t *dist = NULL;
	fv_err_t err;
	f->t0 = fv_now();
	/* the last restart brought this state home already */
	if (!r->restart_pending)
		FV_CALL(fv_solver_get_block_states(p->solver, p->st.qb));
	FV_CALL(fv_app_part_wall_get(&p->part, p->solver, &p->st, p->so.marker_bc, &f->wall));
	r->output_s = fv_now() - f->t0;
	FV_CALL(gather_memory(&mem));
	err = fv_app_dist_summary(&p->part, p->block_digest, &dist);
	if (err == FV_OK && fv_runtime_rank() == 0)
		f->js = summary_get(p, r, mem, dist);
	free(mem);
	json_decref(dist);
	return err;
}

static fv_err_t outputs_put(final_files_t *f)
{
	fv_plan_t *p = f->p;
	run_ctx_t *r = f->r;
	const fv_case_t *c = &p->c;
	fv_sol_turb_t turb;
	int wall_written = 0;
	double t = fv_now();
	if (r->restart_pending) {
		FV_CALL(restart_put(c, &p->part, &r->final_rs, &p->st));
		r->restart_pending = 0;
		r->restart_s += fv_now() - t;
		fv_mark("restart written");
		t = fv_now();
	}
	FV_CALL(write_wall(c, &p->part, &p->so, &f->wall, &wall_written));
	if (c->vtu)
		FV_CALL(fv_app_part_solution(c->out_dir, "solution", &p->part, &p->st, c->gamma, c->vtu_block_id,
					     sol_turb(c, &turb)));
	r->output_s += fv_now() - t;
	fv_mark("outputs written");
	if (f->js) {
		FV_CALL(summary_put(p, r, f->js));
		last_words(p, r, wall_written);
	}
	return FV_OK;
}

static void *outputs_thread(void *arg)
{
	final_files_t *f = arg;
	f->err = outputs_put(f);
	if (f->err != FV_OK)
		snprintf(f->msg, sizeof f->msg, "%s", fv_errmsg());
	return NULL;
}

/* One process, not traced, not simulated (FVSTAR_OUTPUTS_BESIDE_STOP=0:
 * not at all): the files are written on a thread while this one frees
 * the solver and stops StarPU, the StarPU work first (outputs_get). On
 * the M6 medium on an H200 the files took 0.2 s, the stop 0.07 s (session
 * 20 call 2). Several ranks write as before. */
static int beside_stop(const fv_plan_t *p)
{
	int on;
#ifdef FV_SIMGRID
	/* simulated: StarPU's threads are SimGrid's actors; no thread of ours beside them */
	(void)p;
	return 0;
#endif
	if (fv_env_switch("FVSTAR_OUTPUTS_BESIDE_STOP", 1, &on) != FV_OK)
		on = 1;
	return on && fv_runtime_nranks() == 1 && !p->c.trace_dir[0];
}

static fv_err_t write_outputs(fv_plan_t *p, run_ctx_t *r)
{
	final_files_t f;
	pthread_t th;
	fv_err_t err;
	memset(&f, 0, sizeof f);
	f.p = p;
	f.r = r;
	err = outputs_get(p, r, &f);
	if (err == FV_OK && r->beside_stop && pthread_create(&th, NULL, outputs_thread, &f) == 0) {
		fv_plan_stop(p);
		pthread_join(th, NULL);
		err = f.err == FV_OK ? FV_OK : fv_error(f.err, __FILE__, __LINE__, "%s", f.msg);
	} else if (err == FV_OK) {
		err = outputs_put(&f);
	} else if (r->restart_pending) {
		/* the restart file all the same */
		char msg[1024];
		snprintf(msg, sizeof msg, "%s", fv_errmsg());
		if (restart_put(&p->c, &p->part, &r->final_rs, &p->st) == FV_OK)
			r->restart_pending = 0;
		err = fv_error(err, __FILE__, __LINE__, "%s", msg);
	}
	fv_app_part_wall_free(&f.wall);
	json_decref(f.js);
	return err;
}

/* The run's context from where the plan starts its iterations. */
static void run_ctx_start(run_ctx_t *r, const fv_plan_t *p)
{
	memset(r, 0, sizeof *r);
	r->c = &p->c;
	r->first_iter = p->start.first;
	r->t_start = p->start.t0;
	memcpy(r->res0, p->start.res0, sizeof r->res0);
	r->have_res0 = p->start.have_res0;
	r->res_peak = p->start.res_peak;
	r->res_peak_iter = p->start.res_peak_iter;
	r->restart_at = -1;
	r->forces = p->forces;
	r->overlap = p->overlap;
}

fv_err_t fv_cmd_run(int argc, char **argv)
{
	fv_plan_t p;
	run_ctx_t r;
	int caught = 0;
	fv_err_t err = fv_plan_setup(&p, argc, argv);
	memset(&r, 0, sizeof r);
	/* one process: SIGINT and SIGTERM stop the run cleanly (several ranks
	 * would not agree on the iteration: there they end it as before) */
	if (err == FV_OK && fv_runtime_nranks() == 1) {
		stop_signal = 0;
		p.stop_flag = &stop_signal;
		catch_stop_signals(1);
		caught = 1;
	}
	if (err == FV_OK)
		err = fv_plan_solver(&p);
	if (err == FV_OK) {
		run_ctx_start(&r, &p);
		r.beside_stop = beside_stop(&p);
		err = open_history(&p, &r);
	}
	if (err == FV_OK)
		err = run_loop(&p, &r);
	if (err == FV_OK)
		err = write_outputs(&p, &r);
	if (r.hist.f)
		fv_history_close(&r.hist);
	free(r.cl_rows);
	err = fv_plan_destroy(&p, err);
	if (caught)
		catch_stop_signals(0);
	if (err == FV_OK && p.verbose && fv_runtime_rank() == 0)
		say_timeline();
	return err;
}
