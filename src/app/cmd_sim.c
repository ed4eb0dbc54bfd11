/* SPDX-License-Identifier: MIT */
/* `fvstar sim run|dry|calibrate CASE.cfg`: a run's real set-up and task
 * graph for a fixed number of iterations with nothing computed read back:
 * simulated on a platform (fvstar-sim, StarPU's SimGrid mode), on this
 * machine's workers (dry), or to fill and save the performance models and
 * bus description that simulations use (calibrate). doc/simgrid.md. */
#define _GNU_SOURCE /* realpath */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* calibrate's third pass (calibrate_unchained): its summary apart from
 * the second's, which stays the calibrated graph's */
static int unchained_pass;

/* the whole command from "sim" on: a traced dry run re-executes it */
static int cmd_argc;
static char **cmd_argv;

typedef struct sim_ctx {
	double t0;        /* StarPU's clock when the iterations were submitted */
	double *at;       /* [iterations] StarPU's clock when each was seen done */
	int first, n;
	int profile, warmup; /* StarPU's profiling from the end of the warm-up on */
	fv_sim_profile_t last; /* ... to the last iteration's end */
	int have_last;
} sim_ctx_t;

static int on_sim_iteration(const fv_iter_info_t *info, void *arg)
{
	sim_ctx_t *x = arg;
	int k = info->iter - x->first;
	if (k >= 0 && k < x->n)
		x->at[k] = fv_runtime_clock();
	if (x->profile && k == x->warmup - 1) {
		fv_sim_profile_t warm;
		fv_runtime_profile_read(&warm); /* reading resets the counters */
	}
	/* the window of the time per iteration, not the wait for the tasks
	 * after it (on a loaded machine a calibration's busy time came out at
	 * 2 to 3.75 times its 2 workers' time) */
	if (x->profile && k == x->n - 1) {
		fv_runtime_profile_read(&x->last);
		x->have_last = 1;
	}
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

/* A cluster folder (tools/sim_platform.py cluster): a node's platform
 * folder with smpi/platform.xml (the nodes, their network and each rank's
 * node) and smpi/hostfile (one line per rank). */
static int is_cluster(const char *dir, char *xml, char *hosts, size_t n)
{
	snprintf(xml, n, "%s/smpi/platform.xml", dir);
	snprintf(hosts, n, "%s/smpi/hostfile", dir);
	return access(xml, F_OK) == 0;
}

/* fvstar: `sim run` on a cluster folder is smpirun running fvstar-smpi
 * (beside this binary), one simulated process per rank. */
static fv_err_t exec_smpi(int argc, char **argv, const char *dir, const char *xml, const char *hosts)
{
#ifdef FV_SMPIRUN
	char self[PATH_MAX], path[PATH_MAX + 16], np[32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	int ranks = 0;
	FV_CHECK(n > 0, FV_ERR_IO, "cannot find this program's path (/proc/self/exe)");
	self[n] = 0;
	if (strrchr(self, '/'))
		*strrchr(self, '/') = 0;
	snprintf(path, sizeof path, "%s/fvstar-smpi", self);
	FV_CHECK(access(path, R_OK) == 0, FV_ERR_ARG,
		 "%s: a cluster folder needs fvstar-smpi, and %s is not there (configure --with-starpu-smpi=PREFIX; "
		 "tools/build-starpu.sh --simgrid --smpi builds that StarPU)",
		 dir, path);
	FV_CHECK(access(hosts, R_OK) == 0, FV_ERR_ARG, "%s: missing (tools/sim_platform.py cluster writes it)", hosts);
	{
		FILE *f = fopen(hosts, "r");
		char line[512];
		FV_CHECK(f, FV_ERR_IO, "%s: cannot read it", hosts);
		while (fgets(line, sizeof line, f))
			ranks += line[0] != '\n' && line[0] != '#';
		fclose(f);
	}
	FV_CHECK(ranks > 0, FV_ERR_ARG, "%s: no host in it (one line per rank)", hosts);
	/* smpirun: FVSTAR_SMPIRUN, else the copy installed beside this binary
	 * (a device pack: tools/device-pack.sh), else configure's */
	char smpirun[PATH_MAX];
	const char *env = getenv("FVSTAR_SMPIRUN");
	fv_runtime_tool_path("smpirun", smpirun, sizeof smpirun);
	if (env && *env)
		snprintf(smpirun, sizeof smpirun, "%s", env);
	else if (access(smpirun, X_OK) != 0)
		snprintf(smpirun, sizeof smpirun, "%s", FV_SMPIRUN);
	/* the node folder is checked by each rank (fvstar-smpi, whose StarPU
	 * sets the GPU limit) */
	snprintf(np, sizeof np, "%d", ranks);
	char **args = calloc((size_t)argc + 20, sizeof *args);
	int k = 0;
	FV_CHECK(args, FV_ERR_MEM, "out of memory");
	args[k++] = smpirun;
	args[k++] = "-np";
	args[k++] = np;
	args[k++] = "-platform";
	args[k++] = (char *)xml;
	args[k++] = "-hostfile";
	args[k++] = (char *)hosts;
	/* the application's compute time is the models', not this machine's;
	 * SimGrid's default network model (that of fvstar-sim), whose factors
	 * the platform's config sets to 1: links run at the bandwidth and
	 * latency written in the file */
	args[k++] = "--cfg=smpi/simulate-computation:no";
	args[k++] = "--cfg=network/model:LV08";
	args[k++] = "--cfg=smpi/privatization:dlopen";
	/* no guard page per actor: StarPU-MPI starts an actor per message
	 * under way, and 8 ranks of 8 GPUs ran out of memory mappings
	 * ("Failed to protect stack") */
	args[k++] = "--cfg=contexts/guard-size:0";
	args[k++] = "--log=root.thres:warning";
	args[k++] = path;
	args[k++] = "sim";
	for (int i = 0; i < argc; i++)
		args[k++] = argv[i];
	fprintf(stderr, "fvstar: %d simulated ranks (smpirun, %s)\n", ranks, xml);
	/* smpirun exits 0 when SimGrid finds the ranks deadlocked: rank 0
	 * writes "ok" into this file at its end */
	char status[] = "/tmp/fvstar-smpi-XXXXXX", got[8] = "";
	int fd = mkstemp(status), ws = 0;
	FV_CHECK(fd >= 0, FV_ERR_IO, "cannot create a file in /tmp (%s)", strerror(errno));
	close(fd);
	setenv("FVSTAR_SMPI_STATUS", status, 1);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		/* the same simulated time for the same platform and models:
		 * no address randomisation (src/runtime/sim.c says why) */
		int pers = personality(0xffffffff);
		if (pers != -1)
			personality((unsigned long)pers | ADDR_NO_RANDOMIZE);
		setenv("OMP_NUM_THREADS", "1", 0);
		execv(smpirun, args);
		fprintf(stderr, "fvstar: error: %s: cannot run it (%s)\n", smpirun, strerror(errno));
		_exit(127);
	}
	free(args);
	if (pid > 0)
		waitpid(pid, &ws, 0);
	FILE *f = fopen(status, "r");
	if (f) {
		if (!fgets(got, sizeof got, f))
			got[0] = 0;
		fclose(f);
	}
	unlink(status);
	FV_CHECK(pid > 0, FV_ERR_IO, "cannot start %s (%s)", smpirun, strerror(errno));
	FV_CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, FV_ERR_RUNTIME, "the simulation failed (smpirun: %s %d)",
		 WIFEXITED(ws) ? "exit status" : "signal", WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws));
	FV_CHECK(strncmp(got, "ok", 2) == 0, FV_ERR_RUNTIME,
		 "the simulation ended before its ranks did (SimGrid found them waiting for each other: its "
		 "messages above)");
	return FV_OK;
#else
	(void)argc;
	(void)argv;
	(void)xml;
	(void)hosts;
	return FV_ERROR(FV_ERR_ARG,
			"%s: a cluster folder (simulated ranks) needs fvstar-smpi: configure --with-starpu-smpi=PREFIX "
			"(tools/build-starpu.sh --simgrid --smpi builds that StarPU)",
			dir);
#endif
}

static const char *mode_name(int mode)
{
	return mode == SIM_RUN ? "run" : mode == SIM_DRY ? "dry" : "calibrate";
}

static const char *overlap_name(int v)
{
	return v == FV_OVERLAP_NO ? "no" : v == FV_OVERLAP_YES ? "yes" : "auto";
}

/* One rank's tasks per stage and time per iteration, gathered on every
 * rank (simulated ranks, fvstar-smpi; one slot otherwise). */
#define SIM_MAX_STAGES 64
typedef struct rank_slot {
	double per_iter;
	double submit; /* the submitting thread's seconds per task (measured) */
	fv_sim_profile_t prof; /* zero where not profiled */
	int n_stages;
	struct {
		char name[40];
		long long n;
	} st[SIM_MAX_STAGES];
} rank_slot_t;

static fv_err_t gather_ranks(double per_iter, const fv_sim_profile_t *prof, rank_slot_t **out)
{
	int nr = fv_runtime_nranks(), me = fv_runtime_rank();
	rank_slot_t *s;
	long long n;
	const char *name;
	FV_CALL(fv_calloc(&s, (size_t)nr, sizeof *s, "the ranks' task counts"));
	s[me].per_iter = per_iter;
	s[me].submit = fv_runtime_submit_seconds_per_task();
	s[me].prof = *prof;
	for (int i = 0; i < SIM_MAX_STAGES && (name = fv_runtime_task_count(i, &n)); i++) {
		snprintf(s[me].st[i].name, sizeof s[me].st[i].name, "%s", name);
		s[me].st[i].n = n;
		s[me].n_stages = i + 1;
	}
	*out = s;
	fv_err_t err = fv_runtime_combine(s, (size_t)nr * sizeof *s, "the ranks' task counts");
	if (err != FV_OK)
		FV_FREE(*out);
	return err;
}

/* {stage: tasks} of one rank's slot, or of them all summed (r < 0). */
static json_t *stage_json(const rank_slot_t *s, int nr, int r)
{
	json_t *st = json_object();
	for (int k = r < 0 ? 0 : r; k < (r < 0 ? nr : r + 1); k++)
		for (int i = 0; i < s[k].n_stages; i++) {
			json_t *v = json_object_get(st, s[k].st[i].name);
			long long was = v ? (long long)json_integer_value(v) : 0;
			json_object_set_new(st, s[k].st[i].name, json_integer((json_int_t)(was + s[k].st[i].n)));
		}
	return st;
}

/* The workers' busy time and the transfers per iteration of one rank's
 * profile (sim run, calibrate), or of them all summed (r < 0); NULL where
 * nothing was profiled. */
static json_t *profile_json(const rank_slot_t *s, int nr, int r, int iters)
{
	fv_sim_profile_t p = {0};
	static const char *dir[3] = {"h2d", "d2h", "d2d"};
	char key[32];
	for (int k = r < 0 ? 0 : r; k < (r < 0 ? nr : r + 1); k++) {
		p.cpu_busy += s[k].prof.cpu_busy;
		p.cuda_busy += s[k].prof.cuda_busy;
		p.cpu_tasks += s[k].prof.cpu_tasks;
		p.cuda_tasks += s[k].prof.cuda_tasks;
		for (int d = 0; d < 3; d++) {
			p.bytes[d] += s[k].prof.bytes[d];
			p.count[d] += s[k].prof.count[d];
		}
	}
	if (p.cpu_busy + p.cuda_busy <= 0 || iters <= 0)
		return NULL;
	json_t *o = json_object();
	json_object_set_new(o, "cuda_busy_seconds_per_iteration", fv_json_real(p.cuda_busy / iters));
	json_object_set_new(o, "cpu_busy_seconds_per_iteration", fv_json_real(p.cpu_busy / iters));
	json_object_set_new(o, "cuda_tasks_per_iteration", fv_json_real((double)p.cuda_tasks / iters));
	json_object_set_new(o, "cpu_tasks_per_iteration", fv_json_real((double)p.cpu_tasks / iters));
	for (int d = 0; d < 3; d++) {
		snprintf(key, sizeof key, "%s_bytes_per_iteration", dir[d]);
		json_object_set_new(o, key, fv_json_real(p.bytes[d] / iters));
		snprintf(key, sizeof key, "%s_transfers_per_iteration", dir[d]);
		json_object_set_new(o, key, fv_json_real((double)p.count[d] / iters));
	}
	return o;
}

/* summary.json of a sim run: the platform, workers, blocks, the time per
 * iteration (simulated or measured), the tasks per stage (every rank's
 * summed), and with several ranks each rank's. */
static fv_err_t write_summary(const char *path, int mode, const char *platform, const fv_case_t *c,
			      const fv_part_t *part, const sim_ctx_t *x, int warmup, double per_iter, double wall,
			      double setup, const rank_slot_t *slots, int rk_stages)
{
	json_t *js = json_object(), *it = json_array(), *st = stage_json(slots, fv_runtime_nranks(), -1);
	int ncpu, ncuda, nr = fv_runtime_nranks();
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
	json_object_set_new(js, "rk_stages", json_integer(rk_stages));
	if (!fv_runtime_simulated())
		json_object_set_new(js, "submit_seconds_per_task", fv_json_real(slots[0].submit));
	else
		json_object_set_new(js, "simulated_submit_seconds_per_task", fv_json_real(fv_runtime_sim_submit_cost()));
	for (int k = 0; k < x->n; k++)
		json_array_append_new(it, fv_json_real(x->at[k] - (k ? x->at[k - 1] : x->t0)));
	json_object_set_new(js, "iteration_seconds", it);
	json_object_set_new(js, "tasks_per_stage", st);
	json_t *pr = profile_json(slots, nr, -1, x->n - warmup);
	if (pr)
		json_object_set_new(js, "profile", pr);
	json_object_set_new(js, "ranks", json_integer(nr));
	if (nr > 1) {
		json_t *rs = json_array();
		for (int r = 0; r < nr; r++) {
			json_t *o = json_object();
			json_object_set_new(o, "seconds_per_iteration", fv_json_real(slots[r].per_iter));
			if (!fv_runtime_simulated())
				json_object_set_new(o, "submit_seconds_per_task", fv_json_real(slots[r].submit));
			json_object_set_new(o, "tasks_per_stage", stage_json(slots, nr, r));
			if ((pr = profile_json(slots, nr, r, x->n - warmup)))
				json_object_set_new(o, "profile", pr);
			json_array_append_new(rs, o);
		}
		json_object_set_new(js, "per_rank", rs);
	}
	json_object_set_new(js, "wall_seconds", fv_json_real(wall));
	json_object_set_new(js, "setup_wall_seconds", fv_json_real(setup));
	fv_err_t err = fv_summary_write(path, js);
	json_decref(js);
	return err;
}

/* key=value in place of the command line's own key (a key given twice is
 * an error); pargv has room for it */
static void set_key(char **pargv, int *pargc, char *kv)
{
	size_t len = (size_t)(strchr(kv, '=') - kv) + 1;
	int n = 0;
	for (int i = 0; i < *pargc; i++)
		if (strncmp(pargv[i], kv, len) != 0)
			pargv[n++] = pargv[i];
	pargv[n++] = kv;
	*pargc = n;
}

/*
 * A calibration's snapshot copies: one every 6 iterations (the least
 * output.snapshot_every takes), not once a run. The copy of the state a
 * run starts from is simulated (fvstar-sim needs its model) but ran once
 * per block and pass: in session 17's 2-GPU calibration the third pass's
 * copy took over 11 times the second's (a stall of that node), StarPU
 * flushed the entry (more errors than samples) and the simulation
 * aborted, "Codelet fv_copy does not have a perfmodel". Several samples
 * per pass outvote one such copy. A case without snapshots keeps none.
 */
static void calibrate_copies(const fv_case_t *c, long iters, long warmup, char **pargv, int *pargc)
{
	static char every[] = "output.snapshot_every=6";
	if (c->snapshot_every > 6 && iters >= warmup + 6)
		set_key(pargv, pargc, every);
}

/*
 * Several ranks: the halos of the graph fvstar-smpi simulates, whatever
 * the case says. Simulated ranks have neither numerics.halo_peer's tasks
 * (no CUDA IPC under SimGrid) nor halo_zero_copy's host tasks (their
 * buffers are not mapped there: fv_runtime_host_pinned), so a calibration
 * with them (auto: between GPU ranks) lacked fv_pack_all's model, and
 * its pack and unpack models held what the simulation does not do
 * (session 16). calibrate and dry (the simulated graph, for real) run
 * StarPU's copies through host memory, as the simulation.
 */
static fv_err_t ranks_graph(const fv_case_t *c, int mode, char **pargv, int *pargc)
{
	static char peer[] = "numerics.halo_peer=no", zero[] = "numerics.halo_zero_copy=no";
	if (fv_runtime_nranks() == 1)
		return FV_OK;
	if (fv_runtime_rank() == 0 && (c->num.halo_peer != FV_OVERLAP_NO || c->num.halo_zero_copy != FV_OVERLAP_NO))
		fprintf(stderr,
			"fvstar: sim %s, %d ranks: numerics.halo_peer = no and numerics.halo_zero_copy = no (were %s and "
			"%s): simulated ranks have neither GPU-to-GPU nor host-memory halo tasks\n",
			mode_name(mode), fv_runtime_nranks(), overlap_name(c->num.halo_peer),
			overlap_name(c->num.halo_zero_copy));
	set_key(pargv, pargc, peer);
	set_key(pargv, pargc, zero);
	return FV_OK;
}

/* SAVE/fvstar.sim: the submitting thread's microseconds per task (the
 * pass's; several ranks: rank 0's folder holds each rank's, their mean
 * goes to SAVE when tools/sim_platform.py merge reads them), which
 * fvstar-sim charges per task (src/runtime/sim.c). */
static fv_err_t save_submit_cost(const char *dir, const rank_slot_t *slots)
{
	char path[PATH_MAX + 16];
	double us = 0;
	int nr = fv_runtime_nranks();
	for (int r = 0; r < nr; r++)
		us += slots[r].submit * 1e6 / nr;
	if (us <= 0)
		return FV_OK;
	snprintf(path, sizeof path, "%s/fvstar.sim", dir);
	FILE *f = fopen(path, "w");
	FV_CHECK(f, FV_ERR_IO, "%s: cannot write it", path);
	const char *maxerr = getenv("STARPU_HISTORY_MAX_ERROR");
	fprintf(f, "# fvstar sim calibrate: the submitting thread's time per task (iterations 2..), which fvstar-sim\n"
		   "# charges per task it submits (FVSTAR_SIM_TASK_US overrides it)\n"
		   "submit_us_per_task %.4f\n"
		   "# the models kept no sample further than this from its footprint's mean (STARPU_HISTORY_MAX_ERROR)\n"
		   "history_max_error_percent %s\n",
		us, maxerr && *maxerr ? maxerr : "50");
	FV_CHECK(fclose(f) == 0, FV_ERR_IO, "%s: cannot write it", path);
	return FV_OK;
}

static fv_err_t sim_job(int mode, int argc, char **argv)
{
	fv_case_t c;
	fv_plan_t plan;
	sim_ctx_t x = {0};
	rank_slot_t *slots = NULL;
	const char *platform = NULL, *save = NULL, *outopt = NULL, *casefile = NULL;
	char save_abs[PATH_MAX], outdir[FV_CASE_PATH_MAX + 16], outkey[FV_CASE_PATH_MAX + 32];
	char path[PATH_MAX + FV_CASE_PATH_MAX + 64];
	char **pargv = NULL;
	int pargc = 0, done = 0, ncpu = 0, ncuda = 0, planned = 0;
	/* a calibration's warm-up is two iterations: the lookahead runs the
	 * second's tasks beside the first's, on pages and caches still cold */
	long iters = mode == SIM_CALIBRATE ? 30 : 10, warmup = mode == SIM_CALIBRATE ? 2 : 1;
	double setup_at = fv_now(), setup = 0, wall = 0, per_iter = 0;
	fv_err_t err = FV_OK;

	/* the run's own arguments (the case, its keys) go to the plan; ours
	 * are taken out */
	FV_CALL(fv_calloc(&pargv, (size_t)argc + 6, sizeof *pargv, "arguments"));
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
		else if (strcmp(a, "--norms-apart") == 0 && mode == SIM_DRY)
			fv_runtime_norms_apart(1);
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
	FV_CHECK_GOTO(err, out, !c.trace_dir[0] || mode == SIM_DRY, FV_ERR_ARG,
		      "output.trace: fvstar sim calibrate records no trace (its passes would write one over "
		      "another); trace a `fvstar sim dry` with the calibrated models");
	/* the FxT StarPU re-executes the command as given, not the plan's
	 * arguments (which lack "dry" and our options) */
	if (c.trace_dir[0])
		FV_CALL_GOTO(err, out, fv_runtime_trace_prepare(c.trace_dir, cmd_argc, cmd_argv));
#ifndef FV_SMPI
	/* simulated ranks (fvstar-smpi) read a partition directory as real
	 * ones do: each its own part (the same blocks as rank 0's cut) */
	FV_CHECK_GOTO(err, out, !fv_app_is_part_dir(c.mesh_file), FV_ERR_ARG,
		      "%s: fvstar sim reads a mesh, not a partition directory (one process; simulated ranks read "
		      "one: a cluster folder)",
		      c.mesh_file);
	/* several real ranks measure (dry, calibrate: the models of the
	 * tasks only ranks have); several simulated ones are fvstar-smpi's */
	FV_CHECK_GOTO(err, out, mode != SIM_RUN || fv_runtime_nranks() == 1, FV_ERR_ARG,
		      "fvstar-sim runs one process; several ranks are simulated on a cluster folder "
		      "(tools/sim_platform.py cluster, fvstar sim run: doc/simgrid.md)");
#endif
	/* where the summary goes (the plan's output directory): not over a
	 * real run's */
	snprintf(outdir, sizeof outdir, "%s", outopt ? outopt : c.out_dir);
	if (!outopt)
		snprintf(outdir + strlen(outdir), sizeof outdir - strlen(outdir), "/sim-%s%s", mode_name(mode),
			 unchained_pass ? "-unchained" : "");
	snprintf(outkey, sizeof outkey, "output.dir=%s", outdir);
	pargv[pargc++] = outkey;
	FV_CALL_GOTO(err, out, ranks_graph(&c, mode, pargv, &pargc));
	if (mode == SIM_CALIBRATE)
		calibrate_copies(&c, iters, warmup, pargv, &pargc);

	if (mode == SIM_RUN) {
		FV_CALL_GOTO(err, out, fv_runtime_sim_platform(platform, &ncpu, &ncuda));
		fprintf(stderr, "fvstar: simulated platform %s/bus/%s.platform.v4.xml: %d CPU%s, %d GPU%s\n",
			getenv("STARPU_PERF_MODEL_DIR"), getenv("STARPU_HOSTNAME"), ncpu, ncpu == 1 ? "" : "s", ncuda,
			ncuda == 1 ? "" : "s");
		if (fv_runtime_sim_submit_cost() > 0 && fv_runtime_rank() == 0)
			fprintf(stderr, "fvstar: the submitting thread: %.2f us per task (%s)\n",
				fv_runtime_sim_submit_cost() * 1e6,
				getenv("FVSTAR_SIM_TASK_US") ? "FVSTAR_SIM_TASK_US" : "the platform's fvstar.sim");
		unsetenv("STARPU_CALIBRATE"); /* a simulation measures nothing */
		/* a task lasts its history model's mean once one sample is kept
		 * (StarPU drops each footprint's first and, on a noisy machine,
		 * those far from the mean: a task run once per block, the
		 * snapshot copy, kept none in one calibration pass); simulated
		 * GPUs all take GPU 0's model */
		setenv("STARPU_CALIBRATE_MINIMUM", "1", 0);
		setenv("STARPU_PERF_MODEL_HOMOGENEOUS_CUDA", "1", 0);
		/* a CUDA task's model already holds its launch (timed from
		 * before the codelet's call), so SimGrid StarPU's 10 us queueing
		 * sleep per CUDA task and transfer counted it twice, on the
		 * critical path of dependent tasks: the M6 on 2 H200s, 1 GPU
		 * +2.8 % -> +0.0 %, 2 ranks +15.2 % -> -7.1 % against the
		 * measured time (bench/results/2026-11-27-simgrid4.md) */
		setenv("STARPU_SIMGRID_CUDA_QUEUE_COST", "0", 0);
	} else if (mode == SIM_CALIBRATE) {
		/* a fresh folder of StarPU's own: it measures the bus there at
		 * start-up, and writes the models there at shutdown. Several
		 * ranks: one each (SAVE/rank<r>), since every rank writes whole
		 * model files and the last writer's would hold only its own
		 * blocks and GPU; rank 0 merges them into SAVE (fv_cmd_sim) */
		FV_CALL_GOTO(err, out, fv_output_mkdir(save));
		FV_CHECK_GOTO(err, out, realpath(save, save_abs), FV_ERR_IO, "--save %s: cannot resolve the path", save);
		if (fv_runtime_nranks() > 1) {
			size_t len = strlen(save_abs);
			FV_CHECK_GOTO(err, out, len + 16 < sizeof save_abs, FV_ERR_ARG, "--save %s: path too long", save);
			/* the bus measured by one rank, the node otherwise idle */
			FV_CALL_GOTO(err, out, fv_runtime_mpi_start());
			FV_CALL_GOTO(err, out, fv_runtime_sim_bus_alone(save_abs));
			snprintf(save_abs + len, sizeof save_abs - len, "/rank%d", fv_runtime_rank());
			FV_CALL_GOTO(err, out, fv_output_mkdir(save_abs));
		}
		setenv("STARPU_PERF_MODEL_DIR", save_abs, 1);
		setenv("STARPU_CALIBRATE", "1", 1);
		/* a sample more than 4 times its footprint's mean (or under a
		 * quarter of it) is not recorded (StarPU counts it as an error
		 * and flushes the entry only when its errors outnumber its
		 * samples): the 10M box implicit on 1 GPU stalled 0.17 to 0.29 s
		 * inside a chain of 27 ms at iteration 8 of every pass and dry
		 * run (runs of 8 and 16 iterations alike, sessions 18 to 20), and
		 * 1000 (11 times: every sample kept) put those into the chain's
		 * mean, +16 to +26 % simulated; StarPU's own 50 % flushed entries
		 * of few samples (session 17). fvstar.sim says which was used. */
		setenv("STARPU_HISTORY_MAX_ERROR", "300", 0);
		setenv("STARPU_PERF_MODEL_HOMOGENEOUS_CUDA", "1", 0);
	}

	/* a calibration records no task of its warm-up: each pass starts
	 * from a fresh set-up, and the warm-up's cold tasks made the CPU
	 * models 11 to 34 % slower than the later iterations ran
	 * (bench/results/2026-11-27-simgrid4.md) */
	fv_runtime_models_from(mode == SIM_CALIBRATE ? (int)warmup + 1 : 0);
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
	/* the workers' busy time and the transfers, where measuring them
	 * costs nothing (simulated) or is done anyway (calibration); a dry
	 * run stays as bare as a real one */
	x.profile = mode != SIM_DRY;
	x.warmup = (int)warmup;
	/* on before the first task: StarPU times only the tasks submitted
	 * while it is */
	if (x.profile)
		fv_runtime_profile_start();
	{
		double start = fv_now();
		fv_runtime_submit_reset();
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
		fv_sim_profile_t prof = {0};
		if (x.profile && x.have_last)
			prof = x.last;
		else if (x.profile)
			fv_runtime_profile_read(&prof);
		FV_CALL_GOTO(err, out, gather_ranks(per_iter, &prof, &slots));
	}
	if (fv_runtime_rank() != 0)
		goto out; /* rank 0 reports for all */
	/* several ranks: the slowest rank's iterations (the others wait
	 * for its halos); the tasks of every rank */
	for (int r = 1; r < fv_runtime_nranks(); r++)
		if (slots[r].per_iter > per_iter)
			per_iter = slots[r].per_iter;
	{
		long long total = 0;
		fprintf(stderr, "fvstar: %s: %ld iterations, %.6f s per iteration (%s, iterations %ld..%ld), %.3f s of "
				"wall time (%.3f s per iteration)\n",
			fv_runtime_simulated() ? "simulated" : "measured", iters, per_iter,
			fv_runtime_simulated() ? "simulated time" : "StarPU's clock", warmup + 1, iters, wall,
			wall / (double)iters);
		printf("sim: seconds_per_iteration %.9g\n", per_iter);
		json_t *st = stage_json(slots, fv_runtime_nranks(), -1), *v;
		const char *name;
		json_object_foreach(st, name, v) {
			long long n = (long long)json_integer_value(v);
			printf("sim: tasks %-28s %lld (%.6g per iteration)\n", name, n, (double)n / (double)iters);
			total += n;
		}
		json_decref(st);
		printf("sim: tasks total %lld (%.6g per iteration)\n", total, (double)total / (double)iters);
		if (!fv_runtime_simulated())
			printf("sim: submitting thread %.3f us per task (iterations 2..)\n", slots[0].submit * 1e6);
		for (int r = 0; r < fv_runtime_nranks() && fv_runtime_nranks() > 1; r++) {
			long long t = 0;
			for (int i = 0; i < slots[r].n_stages; i++)
				t += slots[r].st[i].n;
			printf("sim: rank %d tasks %lld, %.9g s per iteration\n", r, t, slots[r].per_iter);
		}
		for (int r = 0; x.profile && r < fv_runtime_nranks(); r++) {
			const fv_sim_profile_t *p = &slots[r].prof;
			double m = (double)(iters - warmup);
			printf("sim: rank %d per iteration: workers busy cuda %.6f s cpu %.6f s (tasks %.1f on GPUs, %.1f "
			       "on CPUs); to GPU %.3f MB in %.1f, from GPU %.3f MB in %.1f, GPU to GPU %.3f MB in %.1f "
			       "transfers\n",
			       r, p->cuda_busy / m, p->cpu_busy / m, (double)p->cuda_tasks / m, (double)p->cpu_tasks / m,
			       p->bytes[0] / m * 1e-6, (double)p->count[0] / m,
			       p->bytes[1] / m * 1e-6, (double)p->count[1] / m, p->bytes[2] / m * 1e-6,
			       (double)p->count[2] / m);
		}
	}
	if (mode == SIM_CALIBRATE && !unchained_pass)
		FV_CALL_GOTO(err, out, save_submit_cost(save_abs, slots));
	snprintf(path, sizeof path, "%s/summary.json", outdir);
	FV_CALL_GOTO(err, out,
		     write_summary(path, mode, mode == SIM_RUN ? getenv("STARPU_PERF_MODEL_DIR") : NULL, &plan.c,
				   &plan.part, &x, (int)warmup, per_iter, wall, setup, slots, plan.so.num.rk));
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
	free(slots);
	free(x.at);
	free(pargv);
	return err;
}

/* One process: where the passes ran task chains (numerics.chain, auto
 * on GPU-only blocks), a third pass with numerics.chain = no records
 * their tasks alone, for the chains a simulation meets that no pass ran
 * (fvstar-sim submits those as their tasks: codelets/chain.c). */
static fv_err_t calibrate_unchained(int argc, char **argv)
{
	const char *save = ".";
	char dir[PATH_MAX + 32];
	int found = 0;
	for (int i = 0; i + 1 < argc; i++)
		if (strcmp(argv[i], "--save") == 0)
			save = argv[i + 1];
	snprintf(dir, sizeof dir, "%s/codelets/45", save);
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		found |= strncmp(e->d_name, "fv_chain.", 9) == 0;
	if (d)
		closedir(d);
	if (!found)
		return FV_OK;
	char **args = calloc((size_t)argc + 2, sizeof *args);
	int n = 0;
	FV_CHECK(args, FV_ERR_MEM, "out of memory");
	for (int i = 0; i < argc; i++)
		if (strncmp(argv[i], "numerics.chain=", 15) != 0)
			args[n++] = argv[i];
	args[n++] = "numerics.chain=no";
	fprintf(stderr, "fvstar: calibration pass 3 of 3: numerics.chain = no (the chains' tasks alone)\n");
	unchained_pass = 1;
	fv_err_t err = sim_job(SIM_CALIBRATE, n, args);
	unchained_pass = 0;
	free(args);
	return err;
}

fv_err_t fv_cmd_sim(int argc, char **argv)
{
	FV_CHECK(argc >= 2, FV_ERR_ARG, "usage: fvstar sim run|dry|calibrate CASE.cfg ... (fvstar sim --help)");
	const char *what = argv[1];
	cmd_argc = argc;
	cmd_argv = argv;
	if (strcmp(what, "run") == 0) {
		const char *dir = NULL;
		char xml[PATH_MAX + 32], hosts[PATH_MAX + 32];
		for (int i = 2; i + 1 < argc; i++)
			if (strcmp(argv[i], "--platform") == 0)
				dir = argv[i + 1];
		int cluster = dir && is_cluster(dir, xml, hosts, sizeof xml);
		if (!fv_runtime_simulated())
			return cluster ? exec_smpi(argc - 1, argv + 1, dir, xml, hosts)
				       : exec_sim_binary(argc - 1, argv + 1);
#ifdef FV_SMPI
		FV_CHECK(cluster, FV_ERR_ARG,
			 "fvstar-smpi runs a cluster folder's ranks (tools/sim_platform.py cluster): --platform %s is one "
			 "node's (fvstar sim run runs it with fvstar-sim)",
			 dir ? dir : "(StarPU's own)");
#else
		FV_CHECK(!cluster, FV_ERR_ARG,
			 "--platform %s: a cluster folder: fvstar sim run runs it (smpirun, fvstar-smpi), not fvstar-sim",
			 dir);
#endif
		fv_err_t err = sim_job(SIM_RUN, argc - 2, argv + 2);
#ifdef FV_SMPI
		/* the end reached, for fvstar (exec_smpi) */
		const char *st = getenv("FVSTAR_SMPI_STATUS");
		FILE *f = st && err == FV_OK && fv_runtime_rank() == 0 ? fopen(st, "w") : NULL;
		if (f) {
			fputs("ok\n", f);
			fclose(f);
		}
#endif
		return err;
	}
	if (strcmp(what, "dry") == 0 || strcmp(what, "calibrate") == 0) {
		FV_CHECK(!fv_runtime_simulated(), FV_ERR_ARG,
			 "fvstar-sim sim %s: measuring needs the real machine: run fvstar sim %s (not fvstar-sim)", what,
			 what);
		if (strcmp(what, "dry") == 0)
			return sim_job(SIM_DRY, argc - 2, argv + 2);
		/* two passes: StarPU keeps no sample of a task's first run per
		 * footprint, and some tasks run once per block and run. Under
		 * mpirun one (MPI starts once a process): run the command twice */
		int passes = fv_runtime_nranks() > 1 ? 1 : 2;
		for (int pass = 1; pass <= passes; pass++) {
			fprintf(stderr, "fvstar: calibration pass %d of %d\n", pass, passes);
			FV_CALL(sim_job(SIM_CALIBRATE, argc - 2, argv + 2));
		}
		if (passes == 2)
			FV_CALL(calibrate_unchained(argc - 2, argv + 2));
		if (passes == 1 && fv_runtime_rank() == 0)
			fprintf(stderr, "fvstar: %d ranks: one calibration pass per command; run it a second time into "
					"the same folder (StarPU keeps no sample of a task's first run)\n",
				fv_runtime_nranks());
		if (fv_runtime_rank() != 0)
			return FV_OK; /* rank 0 fits the models the ranks wrote */
		/* the fits fvstar-sim reads (tools/sim_platform.py fit); several
		 * ranks: their folders merged first (every rank wrote its models
		 * before the barrier that ends MPI) */
		const char *save = NULL;
		int nr = fv_runtime_nranks();
		for (int i = 2; i + 1 < argc; i++)
			if (strcmp(argv[i], "--save") == 0)
				save = argv[i + 1];
		char tool[PATH_MAX], cmd[4 * PATH_MAX];
		fv_runtime_tool_path("sim_platform.py", tool, sizeof tool);
		FV_CHECK(!strchr(tool, '\'') && save && !strchr(save, '\''), FV_ERR_ARG,
			 "--save %s: a path with a quote; run tools/sim_platform.py fit DIR yourself", save ? save : "");
		if (nr > 1) {
			size_t k = (size_t)snprintf(cmd, sizeof cmd, "python3 '%s' merge '%s'", tool, save);
			for (int r = 0; r < nr && k < sizeof cmd; r++)
				k += (size_t)snprintf(cmd + k, sizeof cmd - k, " '%s/rank%d'", save, r);
			FV_CHECK(k < sizeof cmd, FV_ERR_ARG, "--save %s: too many ranks to name; run tools/sim_platform.py "
				 "merge SAVE SAVE/rank0 .. yourself", save);
		} else {
			snprintf(cmd, sizeof cmd, "python3 '%s' fit '%s'", tool, save);
		}
		FV_CHECK(system(cmd) == 0, FV_ERR_RUNTIME,
			 "%s failed: the models are saved, but fvstar-sim needs them %s (run it again)", cmd,
			 nr > 1 ? "merged and fitted" : "fitted");
		return FV_OK;
	}
	return FV_ERROR(FV_ERR_ARG, "fvstar sim: unknown sub-command '%s' (run, dry or calibrate)", what);
}
