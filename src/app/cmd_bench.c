/* SPDX-License-Identifier: MIT */
/*
 * `fvstar bench stage CASE.cfg [section.key=value ...] [OPTIONS]`: the bare
 * CUDA driver. The case's mesh as one block, the solver's geometry blob
 * (src/solver/geo.c) and kernels (codelets/launch.h), launched in the
 * order of the solver's task graph on one stream, without StarPU: what a
 * GPU-only `fvstar run` of the same case with one block costs without the
 * runtime. Reports ns per cell per RK stage over the timed iterations, the
 * time of each stage (CUDA events between them), and writes the residual
 * history of every iteration, to compare with the run's history.csv.
 *
 * `fvstar bench kernels [ARGS]`: runs bench/bench_kernels of this build
 * tree (the papers' kernel experiments; `make bench` builds it).
 *
 * `fvstar bench sched CASE [key=value ...] [OPTIONS] -o DIR`: scheduling
 * policies x worker sets x blocks per worker, each a `fvstar run` of this
 * binary under a time limit, driven by tools/bench_sched.py (CSV, plot,
 * Markdown table).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

#include "app/app.h"
#include "fvstar/case.h"
#include "fvstar/partition.h"
#include "fvstar/runtime.h"
#include "util/timer.h"

#ifdef FV_HAVE_CUDA
#include "codelets/launch.h"
#include "solver/geo.h"

#include "kernels/stages.h"

/* The solver's stages (kernels/stages.h) in its order; halo stages take no
 * time with one block. */
#define N_ST FV_N_STAGES

typedef struct bench_opts {
	long iterations, warmup;
	const char *json, *history;
} bench_opts_t;

/* Device buffers of the block: what the StarPU handles of a block hold. */
typedef struct block_dev {
	void *geo;
	fv_real_t *q, *q0, *w, *wn, *grad, *phi, *mm, *res, *dt;
	double *norms; /* [iterations][FV_NORMS] */
} block_dev_t;

static fv_err_t cuda_ok(cudaError_t e, const char *what)
{
	FV_CHECK(e == cudaSuccess, FV_ERR_RUNTIME, "CUDA: %s: %s", what, cudaGetErrorString(e));
	return FV_OK;
}

static fv_err_t dev_alloc(void *p, size_t bytes, const char *what)
{
	return cuda_ok(cudaMalloc((void **)p, bytes ? bytes : 8), what);
}

static fv_err_t host_alloc(void *p, size_t bytes, const char *what)
{
	FV_CALL(cuda_ok(cudaMallocHost((void **)p, bytes ? bytes : 8), what));
	memset(*(void **)p, 0, bytes ? bytes : 8);
	return FV_OK;
}

static fv_err_t bench_args(int argc, char **argv, fv_case_t *c, bench_opts_t *bo)
{
	bo->iterations = 100;
	bo->warmup = 10;
	bo->json = bo->history = NULL;
	FV_CHECK(argc >= 3, FV_ERR_ARG,
		 "usage: fvstar bench stage CASE.cfg [section.key=value ...] [--iterations N] [--warmup N] "
		 "[--history FILE] [--json FILE]");
	fv_case_default(c);
	FV_CALL(fv_case_read(c, argv[2]));
	for (int i = 3; i < argc; i++) {
		const char *o = argv[i];
		if (strncmp(o, "--", 2) != 0) {
			FV_CALL(fv_case_set_arg(c, o, "command line"));
			continue;
		}
		FV_CHECK(i + 1 < argc, FV_ERR_ARG, "option %s needs a value", o);
		if (strcmp(o, "--iterations") == 0)
			FV_CALL(fv_opt_long(o, argv[++i], 1, 1000000, &bo->iterations));
		else if (strcmp(o, "--warmup") == 0)
			FV_CALL(fv_opt_long(o, argv[++i], 0, 1000000, &bo->warmup));
		else if (strcmp(o, "--json") == 0)
			bo->json = argv[++i];
		else if (strcmp(o, "--history") == 0)
			bo->history = argv[++i];
		else
			return FV_ERROR(FV_ERR_ARG, "unknown option '%s' of fvstar bench stage", o);
	}
	FV_CALL(fv_case_finish(c));
	FV_CHECK(c->num.time_mode == FV_TIME_STEADY, FV_ERR_ARG,
		 "%s: fvstar bench stage runs steady cases only (an unsteady run's clock is a StarPU reduction), "
		 "and explicit ones (the bare driver has no implicit sweeps)",
		 argv[2]);
	return FV_OK;
}

static fv_err_t check_fixed(const fv_solver_opts_t *so)
{
	int sums[FV_N_SUMS];
	fv_numerics_sums(&so->num, sums);
	for (int k = 0; k < FV_N_SUMS; k++)
		FV_CHECK(sums[k] != FV_SUM_AUTO, FV_ERR_ARG,
			 "numerics.%s = auto: the bare driver runs one fixed variant per stage (auto is the "
			 "scheduler's choice); name atomic, gather or color",
			 fv_sum_keys[k]);
	FV_CHECK(!so->num.color_tasks, FV_ERR_ARG, "numerics.color_tasks = yes: the bare driver launches the flux "
					       "colour groups in one sequence (color_tasks is a task-graph option)");
	return FV_OK;
}

/* One iteration in the solver's stage order for one block, stage events
 * ev[s][k] recorded before each stage k and after the last. */
static void iteration(const block_dev_t *d, fv_task_args_t *a, int n_stages, const fv_real_t *rk_a,
		      const fv_real_t *rk_b, int limit, int row, cudaEvent_t (*ev)[N_ST + 1], cudaStream_t st)
{
	const fv_params_t *P = &a->P;
	for (int s = 0; s < n_stages; s++) {
		a->rk_a = rk_a[s];
		a->rk_b = rk_b[s];
		for (int k = 0; k < N_ST; k++) {
			cudaEventRecord(ev[s][k], st);
			if (!fv_stage_runs(k, P, s, limit))
				continue;
			switch (k) {
			case FV_STAGE_PRIM:
				fv_prim_launch(a, d->q, d->w, st);
				break;
			case FV_STAGE_NODES:
				fv_nodes_launch(a, P->nodes_sum, d->geo, d->w, d->wn, st);
				break;
			case FV_STAGE_GRADIENT:
				fv_gradient_launch(a, P->grad_sum, d->geo, d->w, d->wn, d->grad, st);
				break;
			case FV_STAGE_LIMITER:
				fv_limiter_launch(a, P->lim_sum, d->geo, d->w, d->grad, d->phi, d->mm, st);
				break;
			case FV_STAGE_FLUX:
				fv_flux_launch(a, P->flux_sum, 0, a->n_colors, d->geo, d->w, d->grad, d->phi, d->res, st);
				break;
			case FV_STAGE_TIMESTEP:
				fv_timestep_launch(a, P->dt_sum, d->geo, d->w, d->dt, NULL, st);
				break;
			case FV_STAGE_NORMS:
				fv_norms_launch(a, d->geo, d->w, d->grad, d->phi, d->res, d->norms + (size_t)row * FV_NORMS,
						st);
				break;
			case FV_STAGE_UPDATE:
				fv_update_launch(a, d->geo, d->res, d->dt, d->q0, d->q, NULL, st);
				break;
			default: /* halo stages: one block; implicit stages: refused above */
				break;
			}
		}
		cudaEventRecord(ev[s][N_ST], st);
	}
}

static fv_err_t write_history(const char *path, const double *rows, int n, int first)
{
	FILE *f = fopen(path, "w");
	FV_CHECK(f, FV_ERR_IO, "%s: cannot write", path);
	fprintf(f, "iteration,res_rho,res_rhou,res_rhov,res_rhow,res_rhoE\n");
	for (int i = 0; i < n; i++) {
		const double *r = rows + (size_t)i * FV_NORMS;
		double cells = r[FV_NORM_CELLS] > 0 ? r[FV_NORM_CELLS] : 1;
		fprintf(f, "%d", first + i);
		for (int k = 0; k < 5; k++)
			fprintf(f, ",%.10g", sqrt(r[k] / cells)); /* as history.csv */
		fprintf(f, "\n");
	}
	FV_CHECK(fclose(f) == 0, FV_ERR_IO, "%s: write failed", path);
	return FV_OK;
}

static fv_err_t bench_stage(int argc, char **argv)
{
	fv_case_t c;
	bench_opts_t bo;
	fv_mesh_t m;
	fv_solver_opts_t so;
	fv_block_t *blocks = NULL;
	int8_t *bc = NULL;
	uint8_t *force = NULL;
	int32_t *part = NULL;
	fv_idx_t off[2];
	fv_real_t *q = NULL, *qb = NULL;
	double *wdist = NULL;
	void *geo = NULL;
	double *rows = NULL;
	block_dev_t d;
	fv_layout_t L;
	fv_geo_colors_t colors = {0};
	fv_task_args_t a;
	int n_stages = 0, ev_made = 0;
	fv_real_t rk_a[3], rk_b[3];
	cudaStream_t st = NULL;
	cudaEvent_t(*ev)[3][N_ST + 1] = NULL; /* [iteration][RK stage][stage] */
	double stage_ms[N_ST] = {0}, total_ms = 0;
	fv_err_t err = FV_OK;

	memset(&d, 0, sizeof d);
	fv_mesh_init(&m);
	FV_CALL(bench_args(argc, argv, &c, &bo));
	FV_CALL_GOTO(err, out, fv_app_load_mesh(&c, &m));
	FV_CALL_GOTO(err, out, fv_app_solver_opts(&c, &m, &so, &bc, &force));
	FV_CALL_GOTO(err, out, check_fixed(&so));
	FV_CALL_GOTO(err, out, fv_numerics_check(&so.num, NULL));
	FV_CALL_GOTO(err, out, fv_malloc(&part, (size_t)m.n_cells, sizeof *part, "partition"));
	FV_CALL_GOTO(err, out, fv_app_order_cells(&c, &m, 1, NULL, NULL, part, off, NULL, NULL));
	if (so.sa) {
		FV_CALL_GOTO(err, out, fv_app_wall_distances(&c, &m, &so, &wdist));
		so.wall_dist = wdist;
	}
	FV_CALL_GOTO(err, out, fv_blocks_build(&m, off, 1, &blocks));
	FV_CALL_GOTO(err, out, fv_geo_build(&blocks[0], &so, m.n_markers, host_alloc, &L, &geo, &colors));
	fv_geo_params(&so, &a.P, &n_stages, rk_a, rk_b);
	{
		fv_params_t P = a.P;
		memset(&a, 0, sizeof a);
		a.P = P;
	}
	a.L = L;
	a.n_colors = colors.n;
	memcpy(a.color_off, colors.off, sizeof a.color_off);

	/* the initial state in the block's (renumbered) order */
	size_t nc = (size_t)L.n_cells, no = (size_t)L.n_owned;
	/* the fields' rows as the solver lays them out (fv_row_stride) */
	size_t row_c = (size_t)L.sc, row_o = (size_t)L.so, row_n = (size_t)L.sn;
	int n_rows = (int)(bo.warmup + bo.iterations);
	size_t nv = (size_t)a.P.nvar;
	FV_CALL_GOTO(err, out, fv_malloc(&q, nv * (size_t)m.n_cells, sizeof *q, "state"));
	fv_app_initial_state(&c, &m, q);
	FV_CALL_GOTO(err, out, host_alloc(&qb, nv * row_c * sizeof *qb, "block state"));
	for (size_t k = 0; k < nv; k++)
		for (size_t i = 0; i < nc; i++)
			qb[k * row_c + i] = q[(size_t)k * (size_t)m.n_cells + (size_t)blocks[0].cell_global[i]];
	FV_CALL_GOTO(err, out, host_alloc(&rows, (size_t)n_rows * FV_NORMS * sizeof *rows, "norm rows"));

	FV_CALL_GOTO(err, out, dev_alloc(&d.geo, L.bytes, "geometry"));
	FV_CALL_GOTO(err, out, dev_alloc(&d.q, nv * row_c * sizeof(fv_real_t), "state"));
	FV_CALL_GOTO(err, out, dev_alloc(&d.q0, nv * row_o * sizeof(fv_real_t), "stage state"));
	size_t nw = nv + (a.P.w_cells ? FV_NVAR : 0); /* numerics.node_gather = cells: the copy */
	FV_CALL_GOTO(err, out, dev_alloc(&d.w, nw * row_c * sizeof(fv_real_t), "primitives"));
	FV_CALL_GOTO(err, out, dev_alloc(&d.wn, 5 * row_n * sizeof(fv_real_t), "node values"));
	FV_CALL_GOTO(err, out, dev_alloc(&d.grad, 15 * row_c * sizeof(fv_real_t), "gradients"));
	FV_CALL_GOTO(err, out, dev_alloc(&d.phi, 5 * row_c * sizeof(fv_real_t), "limiter"));
	FV_CALL_GOTO(err, out, dev_alloc(&d.mm, 10 * row_o * sizeof(fv_real_t), "limiter min/max"));
	FV_CALL_GOTO(err, out, dev_alloc(&d.res, nv * row_o * sizeof(fv_real_t), "residual"));
	FV_CALL_GOTO(err, out, dev_alloc(&d.dt, no * sizeof(fv_real_t), "time step"));
	FV_CALL_GOTO(err, out, dev_alloc(&d.norms, (size_t)n_rows * FV_NORMS * sizeof(double), "norm rows"));
	FV_CALL_GOTO(err, out, cuda_ok(cudaMemcpy(d.geo, geo, L.bytes, cudaMemcpyHostToDevice), "geometry upload"));
	FV_CALL_GOTO(err, out, cuda_ok(cudaMemcpy(d.q, qb, nv * row_c * sizeof *qb, cudaMemcpyHostToDevice), "state upload"));
	FV_CALL_GOTO(err, out, cuda_ok(cudaStreamCreate(&st), "stream"));
	FV_CALL_GOTO(err, out, fv_calloc(&ev, (size_t)n_rows, sizeof *ev, "events"));
	for (; ev_made < n_rows; ev_made++)
		for (int s = 0; s < 3; s++)
			for (int k = 0; k <= N_ST; k++)
				FV_CALL_GOTO(err, out, cuda_ok(cudaEventCreate(&ev[ev_made][s][k]), "event"));

	int phi_valid = 0;
	for (int it = 1; it <= n_rows; it++) {
		int limit = !(so.num.limiter_freeze > 0 && it > so.num.limiter_freeze && phi_valid);
		iteration(&d, &a, n_stages, rk_a, rk_b, limit, it - 1, ev[it - 1], st);
		phi_valid = 1;
		/* the row comes back as the run's norms do, without waiting */
		cudaMemcpyAsync(rows + (size_t)(it - 1) * FV_NORMS, d.norms + (size_t)(it - 1) * FV_NORMS,
				FV_NORMS * sizeof(double), cudaMemcpyDeviceToHost, st);
	}
	FV_CALL_GOTO(err, out, cuda_ok(cudaStreamSynchronize(st), "the iterations"));
	FV_CALL_GOTO(err, out, cuda_ok(cudaGetLastError(), "the kernels"));
	for (int it = (int)bo.warmup; it < n_rows; it++) {
		float ms = 0;
		for (int s = 0; s < n_stages; s++)
			for (int k = 0; k < N_ST; k++) {
				cudaEventElapsedTime(&ms, ev[it][s][k], ev[it][s][k + 1]);
				stage_ms[k] += ms;
			}
	}
	/* the timed iterations back to back: from the first one's start */
	{
		float ms = 0;
		cudaEventElapsedTime(&ms, ev[bo.warmup][0][0], ev[n_rows - 1][n_stages - 1][N_ST]);
		total_ms = ms;
	}
	for (int i = 0; i < n_rows; i++)
		for (int k = 0; k < 5; k++)
			FV_CALL_GOTO(err, out,
				     isfinite(rows[(size_t)i * FV_NORMS + k])
					     ? FV_OK
					     : FV_ERROR(FV_ERR_NUMERIC, "iteration %d: residual of equation %d is %g", i + 1,
							k, rows[(size_t)i * FV_NORMS + k]));

	{
		struct cudaDeviceProp prop;
		int dev = 0;
		cudaGetDevice(&dev);
		cudaGetDeviceProperties(&prop, dev);
		double per_it = total_ms / (double)bo.iterations, ns = per_it * 1e6 / ((double)no * n_stages);
		printf("fvstar bench stage: %s, %lld cells, 1 block, %s, %s precision, %d RK stages\n", c.mesh_file,
		       (long long)no, prop.name, FV_REAL_NAME, n_stages);
		printf("strategies: flux %s, nodes %s, gradient %s, limiter %s, timestep %s, faces %s, %d colour "
		       "groups\n",
		       fv_sum_name(so.num.flux_sum), fv_sum_name(so.num.nodes_sum), fv_sum_name(so.num.grad_sum),
		       fv_sum_name(so.num.lim_sum), fv_sum_name(so.num.dt_sum),
		       so.num.face_order == FV_FACE_ORDER_COLOR ? "by colour" : "natural", colors.n);
		printf("%ld timed iterations after %ld warm-up: %.4f ms per iteration, %.4f ns per cell per RK stage\n",
		       bo.iterations, bo.warmup, per_it, ns);
		printf("stage       ms/iteration  ns/cell/RK-stage  share\n");
		for (int k = 0; k < N_ST; k++)
			if (!fv_stage_is_halo(k) && !fv_stage_is_implicit(k))
				printf("%-10s  %12.4f  %16.4f  %5.1f%%\n", fv_stage_names[k], stage_ms[k] / (double)bo.iterations,
			       stage_ms[k] / (double)bo.iterations * 1e6 / ((double)no * n_stages),
			       total_ms > 0 ? 100 * stage_ms[k] / total_ms : 0.0);
		if (bo.json) {
			FILE *f = fopen(bo.json, "w");
			FV_CALL_GOTO(err, out, f ? FV_OK : FV_ERROR(FV_ERR_IO, "%s: cannot write", bo.json));
			fprintf(f, "{\"mesh\": \"%s\", \"cells\": %lld, \"device\": \"%s\", \"precision\": \"%s\", "
				   "\"rk_stages\": %d, \"iterations\": %ld, \"warmup\": %ld, \"ms_per_iteration\": %.6f, "
				   "\"ns_per_cell_stage\": %.6f, \"stages_ms_per_iteration\": {",
				c.mesh_file, (long long)no, prop.name, FV_REAL_NAME, n_stages, bo.iterations, bo.warmup,
				per_it, ns);
			for (int k = 0, n = 0; k < N_ST; k++)
				if (!fv_stage_is_halo(k) && !fv_stage_is_implicit(k))
					fprintf(f, "%s\"%s\": %.6f", n++ ? ", " : "", fv_stage_names[k],
						stage_ms[k] / (double)bo.iterations);
			fprintf(f, "}}\n");
			FV_CALL_GOTO(err, out, fclose(f) == 0 ? FV_OK : FV_ERROR(FV_ERR_IO, "%s: write failed", bo.json));
		}
	}
	if (bo.history)
		FV_CALL_GOTO(err, out, write_history(bo.history, rows, n_rows, 1));
out:
	free(colors.bface_of);
	free(wdist);
	for (int i = 0; i < ev_made; i++)
		for (int s = 0; s < 3; s++)
			for (int k = 0; k <= N_ST; k++)
				if (ev[i][s][k])
					cudaEventDestroy(ev[i][s][k]);
	free(ev);
	if (st)
		cudaStreamDestroy(st);
	void *dp[] = {d.geo, d.q, d.q0, d.w, d.wn, d.grad, d.phi, d.mm, d.res, d.dt, d.norms};
	for (size_t k = 0; k < sizeof dp / sizeof dp[0]; k++)
		if (dp[k])
			cudaFree(dp[k]);
	if (geo)
		cudaFreeHost(geo);
	if (qb)
		cudaFreeHost(qb);
	if (rows)
		cudaFreeHost(rows);
	free(q);
	free(part);
	free(bc);
	free(force);
	if (blocks)
		fv_blocks_free(blocks, 1);
	fv_mesh_free(&m);
	return err;
}
#endif

/* bench/bench_kernels next to this binary (a build tree), with the args */
static fv_err_t bench_kernels(char **argv)
{
	char self[4096], path[4200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	FV_CHECK(n > 0, FV_ERR_IO, "cannot find the fvstar binary's directory");
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof path, "%s/bench/bench_kernels", self);
	FV_CHECK(access(path, X_OK) == 0, FV_ERR_ARG,
		 "%s is not built: the kernel benchmarks need a CUDA build tree and `make bench`", path);
	argv[1] = path;
	execv(path, argv + 1);
	return FV_ERROR(FV_ERR_IO, "%s: cannot run", path);
}

/* tools/bench_sched.py (installed beside fvstar, or the source tree's),
 * told which fvstar to run: this one. */
static fv_err_t bench_sched(int argc, char **argv)
{
	char self[4096], script[4096];
	const char *py = getenv("PYTHON3") && *getenv("PYTHON3") ? getenv("PYTHON3") : "python3";
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	char **args;
	FV_CHECK(n > 0, FV_ERR_IO, "cannot find the fvstar binary");
	self[n] = '\0';
	fv_runtime_tool_path("bench_sched.py", script, sizeof script);
	FV_CHECK(access(script, R_OK) == 0, FV_ERR_IO, "%s: not found (fvstar bench sched runs it)", script);
	FV_CALL(fv_malloc(&args, (size_t)argc + 4, sizeof *args, "arguments"));
	args[0] = (char *)py;
	args[1] = script;
	args[2] = (char *)"--fvstar";
	args[3] = self;
	for (int i = 2; i < argc; i++)
		args[i + 2] = argv[i];
	args[argc + 2] = NULL;
	fflush(NULL);
	execvp(py, args);
	free(args);
	return FV_ERROR(FV_ERR_IO, "cannot run %s: %s", py, strerror(errno));
}

fv_err_t fv_cmd_bench(int argc, char **argv)
{
	FV_CHECK(argc >= 2, FV_ERR_ARG,
		 "usage: fvstar bench stage CASE.cfg [key=value ...] [OPTIONS] | fvstar bench kernels [ARGS] | "
		 "fvstar bench sched CASE.cfg [key=value ...] [OPTIONS] -o DIR");
	if (strcmp(argv[1], "kernels") == 0)
		return bench_kernels(argv);
	if (strcmp(argv[1], "sched") == 0)
		return bench_sched(argc, argv);
	if (strcmp(argv[1], "stage") == 0) {
#ifdef FV_HAVE_CUDA
		return bench_stage(argc, argv);
#else
		/* the usage first, as a CUDA build gives it */
		FV_CHECK(argc >= 3, FV_ERR_ARG, "usage: fvstar bench stage CASE.cfg [section.key=value ...]");
		return FV_ERROR(FV_ERR_ARG, "fvstar bench stage needs a CUDA build (configure found no nvcc)");
#endif
	}
	return FV_ERROR(FV_ERR_ARG, "unknown bench '%s': stage, kernels or sched", argv[1]);
}
