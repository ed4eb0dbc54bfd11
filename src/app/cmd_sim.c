/* SPDX-License-Identifier: MIT */
/* `fvstar sim run|dry|calibrate CASE.cfg`: a run's real set-up and task
 * graph for a fixed number of iterations with nothing computed read back:
 * simulated on a platform (fvstar-sim, StarPU's SimGrid mode), on this
 * machine's workers (dry), or to fill and save the performance models and
 * bus description that simulations use (calibrate). doc/simgrid.md. */
#define _GNU_SOURCE /* realpath */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"

#include "app/app.h"
#include "app/plan.h"
#include "fvstar/case.h"
#include "fvstar/output.h"
#include "fvstar/partition.h"
#include "fvstar/runtime.h"
#include "fvstar/solver.h"
#include "io/json.h"
#include "util/timer.h"

fv_err_t fv_opt_long(const char *opt, const char *s, long lo, long hi, long *v);

enum { SIM_RUN, SIM_DRY, SIM_CALIBRATE };

typedef struct sim_ctx {
	double t0;        /* StarPU's clock when the iterations were submitted */
	double *at;       /* [iterations] StarPU's clock when each was seen done */
	int first, n;
} sim_ctx_t;

static int on_sim_iteration(const fv_iter_info_t *info, void *arg)
{
	sim_ctx_t *x = arg;
	int k = info->iter - x->first;
	if (k >= 0 && k < x->n)
		x->at[k] = fv_runtime_clock();
	return 0; /* a fixed count: no convergence test */
}

/* fvstar (no SimGrid): `sim run` is fvstar-sim's, beside this binary. */
static fv_err_t exec_sim_binary(int argc, char **argv)
{
	char self[PATH_MAX], path[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	FV_CHECK(n > 0, FV_ERR_IO, "cannot find this program's path (/proc/self/exe)");
	self[n] = 0;
	char *slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(path, sizeof path, "%s/fvstar-sim", self);
	FV_CHECK(access(path, X_OK) == 0, FV_ERR_ARG,
		 "fvstar sim run needs fvstar-sim (StarPU with SimGrid), and %s is not there: configure with "
		 "--with-starpu-simgrid=PREFIX (tools/build-starpu.sh --simgrid builds that StarPU); `fvstar sim dry` "
		 "runs the same graph on this machine's workers",
		 path);
	char **args = calloc((size_t)argc + 3, sizeof *args);
	FV_CHECK(args, FV_ERR_MEM, "out of memory");
	args[0] = path;
	args[1] = "sim";
	for (int i = 0; i < argc; i++)
		args[i + 2] = argv[i];
	fflush(NULL);
	execv(path, args);
	free(args);
	return FV_ERROR(FV_ERR_IO, "%s: cannot run it (%s)", path, strerror(errno));
}

static const char *mode_name(int mode)
{
	return mode == SIM_RUN ? "run" : mode == SIM_DRY ? "dry" : "calibrate";
}

/* summary.json of a sim run: the platform, workers, blocks, the time per
 * iteration (simulated or measured), the tasks per stage. */
static fv_err_t write_summary(const char *path, int mode, const char *platform, const fv_case_t *c,
			      const fv_part_t *part, const sim_ctx_t *x, int warmup, double per_iter, double wall,
			      double setup)
{
	json_t *js = json_object(), *it = json_array(), *st = json_object();
	int ncpu, ncuda;
	long long n;
	const char *name;
	fv_runtime_workers(&ncpu, &ncuda);
	json_object_set_new(js, "mode", json_string(mode_name(mode)));
	json_object_set_new(js, "simulated", json_boolean(fv_runtime_simulated()));
	if (platform)
		json_object_set_new(js, "platform", json_string(platform));
	json_object_set_new(js, "case", json_string(c->mesh_file));
	json_object_set_new(js, "cells", json_integer((json_int_t)part->n_cells));
	json_object_set_new(js, "blocks", json_integer(part->n_blocks));
	json_object_set_new(js, "cpu_workers", json_integer(ncpu));
	json_object_set_new(js, "cuda_workers", json_integer(ncuda));
	json_object_set_new(js, "scheduler", json_string(fv_runtime_sched_name()));
	json_object_set_new(js, "iterations", json_integer(x->n));
	json_object_set_new(js, "warmup", json_integer(warmup));
	json_object_set_new(js, "seconds_per_iteration", fv_json_real(per_iter));
	for (int k = 0; k < x->n; k++)
		json_array_append_new(it, fv_json_real(x->at[k] - (k ? x->at[k - 1] : x->t0)));
	json_object_set_new(js, "iteration_seconds", it);
	for (int i = 0; (name = fv_runtime_task_count(i, &n)); i++)
		json_object_set_new(st, name, json_integer(n));
	json_object_set_new(js, "tasks_per_stage", st);
	json_object_set_new(js, "wall_seconds", fv_json_real(wall));
	json_object_set_new(js, "setup_wall_seconds", fv_json_real(setup));
	fv_err_t err = fv_summary_write(path, js);
	json_decref(js);
	return err;
}

static fv_err_t sim_job(int mode, int argc, char **argv)
{
	fv_case_t c;
	fv_plan_t plan;
	sim_ctx_t x = {0};
	const char *platform = NULL, *save = NULL, *outopt = NULL, *casefile = NULL;
	char save_abs[PATH_MAX], outdir[FV_CASE_PATH_MAX + 16], outkey[FV_CASE_PATH_MAX + 32];
	char path[PATH_MAX + FV_CASE_PATH_MAX + 64];
	char **pargv = NULL;
	int pargc = 0, done = 0, ncpu = 0, ncuda = 0, planned = 0;
	long iters = mode == SIM_CALIBRATE ? 30 : 10, warmup = 1;
	double setup_at = fv_now(), setup = 0, wall = 0, per_iter = 0;
	fv_err_t err = FV_OK;

	/* the run's own arguments (the case, its keys) go to the plan; ours
	 * are taken out */
	FV_CALL(fv_calloc(&pargv, (size_t)argc + 3, sizeof *pargv, "arguments"));
	pargv[pargc++] = "sim";
	fv_case_default(&c);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--platform") == 0 && i + 1 < argc && mode == SIM_RUN)
			platform = argv[++i];
		else if (strcmp(a, "--save") == 0 && i + 1 < argc && mode == SIM_CALIBRATE)
			save = argv[++i];
		else if (strcmp(a, "--out") == 0 && i + 1 < argc)
			outopt = argv[++i];
		else if (strcmp(a, "--iterations") == 0 && i + 1 < argc)
			FV_CALL_GOTO(err, out, fv_opt_long(a, argv[++i], 1, 1000000, &iters));
		else if (strcmp(a, "--warmup") == 0 && i + 1 < argc)
			FV_CALL_GOTO(err, out, fv_opt_long(a, argv[++i], 0, 1000000, &warmup));
		else if (a[0] == '-' && strcmp(a, "-v") != 0 && strcmp(a, "--verbose") != 0)
			FV_CHECK_GOTO(err, out, 0, FV_ERR_ARG,
				      "fvstar sim %s: unknown option or missing value '%s' (fvstar sim --help)",
				      mode_name(mode), a);
		else {
			if (!casefile) {
				casefile = a;
				FV_CALL_GOTO(err, out, fv_case_read(&c, casefile));
			} else if (a[0] != '-') {
				FV_CALL_GOTO(err, out, fv_case_set_arg(&c, a, "command line"));
				if (strncmp(a, "output.dir=", 11) == 0)
					continue; /* ours below, under it */
			}
			pargv[pargc++] = (char *)a;
		}
	}
	FV_CHECK_GOTO(err, out, casefile, FV_ERR_ARG, "fvstar sim %s: no case file (fvstar sim --help)",
		      mode_name(mode));
	FV_CHECK_GOTO(err, out, mode != SIM_CALIBRATE || save, FV_ERR_ARG,
		      "fvstar sim calibrate: --save DIR is required (the folder the models and platform go to)");
	FV_CHECK_GOTO(err, out, warmup < iters, FV_ERR_ARG, "--warmup %ld: fewer than the %ld iterations", warmup,
		      iters);
	FV_CALL_GOTO(err, out, fv_case_finish(&c));
	FV_CHECK_GOTO(err, out, !c.trace_dir[0] || !fv_runtime_simulated(), FV_ERR_ARG,
		      "output.trace: fvstar-sim records no trace (StarPU's SimGrid build has no FxT)");
	FV_CHECK_GOTO(err, out, !fv_app_is_part_dir(c.mesh_file), FV_ERR_ARG,
		      "%s: fvstar sim reads a mesh, not a partition directory (one process)", c.mesh_file);
	FV_CHECK_GOTO(err, out, fv_runtime_nranks() == 1, FV_ERR_ARG,
		      "fvstar sim runs one process (StarPU-MPI under SimGrid's SMPI is not built: doc/simgrid.md)");
	/* where the summary goes (the plan's output directory): not over a
	 * real run's */
	snprintf(outdir, sizeof outdir, "%s", outopt ? outopt : c.out_dir);
	if (!outopt)
		snprintf(outdir + strlen(outdir), sizeof outdir - strlen(outdir), "/sim-%s", mode_name(mode));
	snprintf(outkey, sizeof outkey, "output.dir=%s", outdir);
	pargv[pargc++] = outkey;

	if (mode == SIM_RUN) {
		FV_CALL_GOTO(err, out, fv_runtime_sim_platform(platform, &ncpu, &ncuda));
		fprintf(stderr, "fvstar: simulated platform %s/bus/%s.platform.v4.xml: %d CPU%s, %d GPU%s\n",
			getenv("STARPU_PERF_MODEL_DIR"), getenv("STARPU_HOSTNAME"), ncpu, ncpu == 1 ? "" : "s", ncuda,
			ncuda == 1 ? "" : "s");
		unsetenv("STARPU_CALIBRATE"); /* a simulation measures nothing */
		/* a task lasts its history model's mean once one sample is kept
		 * (StarPU drops each footprint's first and, on a noisy machine,
		 * those far from the mean: a task run once per block, the
		 * snapshot copy, kept none in one calibration pass); simulated
		 * GPUs all take GPU 0's model */
		setenv("STARPU_CALIBRATE_MINIMUM", "1", 0);
		setenv("STARPU_PERF_MODEL_HOMOGENEOUS_CUDA", "1", 0);
	} else if (mode == SIM_CALIBRATE) {
		/* a fresh folder of StarPU's own: it measures the bus there at
		 * start-up, and writes the models there at shutdown */
		FV_CALL_GOTO(err, out, fv_output_mkdir(save));
		FV_CHECK_GOTO(err, out, realpath(save, save_abs), FV_ERR_IO, "--save %s: cannot resolve the path", save);
		setenv("STARPU_PERF_MODEL_DIR", save_abs, 1);
		setenv("STARPU_CALIBRATE", "1", 1);
		/* every sample kept, not only those within 50% of the mean */
		setenv("STARPU_HISTORY_MAX_ERROR", "1000", 0);
		setenv("STARPU_PERF_MODEL_HOMOGENEOUS_CUDA", "1", 0);
	}

	/* the run's set-up, phase by phase (src/app/plan.c), with nothing
	 * computed read back */
	planned = 1;
	FV_CALL_GOTO(err, out, fv_plan_setup(&plan, pargc, pargv));
	plan.so.data_free = 1;
	FV_CALL_GOTO(err, out, fv_plan_solver(&plan));
	setup = fv_now() - setup_at;
	fprintf(stderr, "fvstar: %s: %lld cells, %d blocks; set-up %.2f s (wall)\n", c.mesh_file,
		(long long)plan.part.n_cells, plan.part.n_blocks, setup);

	FV_CALL_GOTO(err, out, fv_calloc(&x.at, (size_t)iters, sizeof *x.at, "the iteration times"));
	x.first = 1;
	x.n = (int)iters;
	{
		double start = fv_now();
		fv_runtime_count_tasks(1);
		x.t0 = fv_runtime_clock();
		err = fv_solver_run(plan.solver, 1, (int)iters, 0, on_sim_iteration, &x, &done);
		fv_runtime_count_tasks(0);
		wall = fv_now() - start;
		if (err != FV_OK)
			goto out;
		FV_CHECK_GOTO(err, out, done == (int)iters, FV_ERR_RUNTIME, "the run stopped at iteration %d of %ld",
			      done, iters);
	}
	/* after the warm-up (the first iteration moves the read-only data to
	 * the GPUs once) */
	per_iter = (x.at[iters - 1] - (warmup ? x.at[warmup - 1] : x.t0)) / (double)(iters - warmup);
	{
		long long n, total = 0;
		const char *name;
		fprintf(stderr, "fvstar: %s: %ld iterations, %.6f s per iteration (%s, iterations %ld..%ld), %.3f s of "
				"wall time (%.3f s per iteration)\n",
			fv_runtime_simulated() ? "simulated" : "measured", iters, per_iter,
			fv_runtime_simulated() ? "simulated time" : "StarPU's clock", warmup + 1, iters, wall,
			wall / (double)iters);
		printf("sim: seconds_per_iteration %.9g\n", per_iter);
		for (int i = 0; (name = fv_runtime_task_count(i, &n)); i++) {
			printf("sim: tasks %-28s %lld (%.6g per iteration)\n", name, n, (double)n / (double)iters);
			total += n;
		}
		printf("sim: tasks total %lld (%.6g per iteration)\n", total, (double)total / (double)iters);
	}
	snprintf(path, sizeof path, "%s/summary.json", outdir);
	FV_CALL_GOTO(err, out,
		     write_summary(path, mode, mode == SIM_RUN ? getenv("STARPU_PERF_MODEL_DIR") : NULL, &plan.c,
				   &plan.part, &x, (int)warmup, per_iter, wall, setup));
	fprintf(stderr, "fvstar: summary in %s\n", path);
out:
	if (planned)
		err = fv_plan_destroy(&plan, err); /* calibrate: StarPU writes the models now */
	if (err == FV_OK && mode == SIM_CALIBRATE) {
		snprintf(path, sizeof path, "%s/codelets/45", save_abs);
		struct stat sb;
		if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
			err = FV_ERROR(FV_ERR_RUNTIME, "%s: StarPU wrote no models there", path);
		else
			fprintf(stderr, "fvstar: models and platform saved in %s (codelets/45/, bus/)\n", save_abs);
	}
	free(x.at);
	free(pargv);
	return err;
}

fv_err_t fv_cmd_sim(int argc, char **argv)
{
	FV_CHECK(argc >= 2, FV_ERR_ARG, "usage: fvstar sim run|dry|calibrate CASE.cfg ... (fvstar sim --help)");
	const char *what = argv[1];
	if (strcmp(what, "run") == 0) {
		if (!fv_runtime_simulated())
			return exec_sim_binary(argc - 1, argv + 1);
		return sim_job(SIM_RUN, argc - 2, argv + 2);
	}
	if (strcmp(what, "dry") == 0 || strcmp(what, "calibrate") == 0) {
		FV_CHECK(!fv_runtime_simulated(), FV_ERR_ARG,
			 "fvstar-sim sim %s: measuring needs the real machine: run fvstar sim %s (not fvstar-sim)", what,
			 what);
		if (strcmp(what, "dry") == 0)
			return sim_job(SIM_DRY, argc - 2, argv + 2);
		/* two passes: StarPU keeps no sample of a task's first run per
		 * footprint, and some tasks run once per block and run */
		for (int pass = 1; pass <= 2; pass++) {
			fprintf(stderr, "fvstar: calibration pass %d of 2\n", pass);
			FV_CALL(sim_job(SIM_CALIBRATE, argc - 2, argv + 2));
		}
		/* the fits fvstar-sim reads (tools/sim_platform.py fit) */
		const char *save = NULL;
		for (int i = 2; i + 1 < argc; i++)
			if (strcmp(argv[i], "--save") == 0)
				save = argv[i + 1];
		char tool[PATH_MAX], cmd[3 * PATH_MAX];
		fv_runtime_tool_path("sim_platform.py", tool, sizeof tool);
		FV_CHECK(!strchr(tool, '\'') && save && !strchr(save, '\''), FV_ERR_ARG,
			 "--save %s: a path with a quote; run tools/sim_platform.py fit DIR yourself", save ? save : "");
		snprintf(cmd, sizeof cmd, "python3 '%s' fit '%s'", tool, save);
		FV_CHECK(system(cmd) == 0, FV_ERR_RUNTIME,
			 "%s failed: the models are saved, but fvstar-sim needs their fits (run it again)", cmd);
		return FV_OK;
	}
	return FV_ERROR(FV_ERR_ARG, "fvstar sim: unknown sub-command '%s' (run, dry or calibrate)", what);
}
