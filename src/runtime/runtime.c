/* SPDX-License-Identifier: MIT */
/* StarPU start-up, shutdown, configuration report and self-test. */
#define _GNU_SOURCE /* dladdr, sched_getaffinity */
#include "fvstar/runtime.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codelets/smoke/smoke.h"
#include "config.h"
#include "fvstar/output.h"
#include "fvstar/types.h"
#include "runtime/ranks.h"
#include "util/env.h"
#include "util/threads.h"

#ifdef FV_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static int runtime_up;
static int workers_paused; /* starpu_pause in force (opts.paused) */
static int gpu_only_default;
/* On a GPU node without a worker count asked for: what the idle cores
 * could add to the GPUs (share of their speed, from one GPU's worth in CPU
 * workers and where that came from), and whether they joined for it. */
static struct {
	long cores;
	double share, speed;
	char src[160];
	int joined;
	int dropped; /* CPU workers asked for and not started: they would hold no cells */
} idle_cores;

/* Whether environment variable name (STARPU_NCPU, STARPU_NCUDA) asks for
 * no worker: set and 0 (an empty or non-numeric value is refused before
 * StarPU starts, env_count). */
static int env_zero(const char *name)
{
	const char *v = getenv(name);
	return v && *v && atoi(v) == 0;
}

/* GPUs the CUDA runtime sees (0 without CUDA, a driver or a device). */
static int cuda_devices(void)
{
	int n = 0;
#ifdef FV_HAVE_CUDA
	if (cudaGetDeviceCount(&n) != cudaSuccess)
		n = 0;
	cudaGetLastError(); /* clear the error of a machine without GPU */
#elif defined(STARPU_SIMGRID)
	n = fv_runtime_sim_gpus() > 0 ? fv_runtime_sim_gpus() : 0; /* the platform's */
#endif
	return n;
}

/*
 * The cores this process may use: its affinity mask (taskset, numactl, a
 * batch system's binding) or, for a rank an MPI launcher started, the
 * launcher's (mpirun binds each rank to one core by default; place_rank
 * shares the launcher's cores between the node's ranks). Every online core
 * where the mask cannot be read.
 */
static long allowed_cores(cpu_set_t *set)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t who = fv_ranks_wanted() ? getppid() : 0;
	if (sched_getaffinity(who, sizeof *set, set) == 0 && CPU_COUNT(set) > 0)
		return CPU_COUNT(set);
	CPU_ZERO(set);
	for (long i = 0; i < n && i < CPU_SETSIZE; i++)
		CPU_SET((int)i, set);
	return CPU_COUNT(set);
}

/* The cores of this machine that the process may use, or of the simulated
 * platform (fvstar-sim). */
static long host_cores(void)
{
	cpu_set_t set;
	return fv_runtime_sim_cpus() >= 0 ? fv_runtime_sim_cpus() : allowed_cores(&set);
}

/*
 * StarPU 1.3 binds its workers to the machine's first cores whatever the
 * process's mask: two runs side by side under `taskset -c 0-7` and
 * `taskset -c 8-15` put their workers on the same cores 0-7, and a rank's
 * workers left the cores its launcher was given. STARPU_WORKERS_GETBIND
 * makes StarPU build its topology from the mask; set where the mask leaves
 * out some cores and the user placed no worker.
 */
static void honour_mask(void)
{
	cpu_set_t set;
	if (getenv("STARPU_WORKERS_GETBIND") || getenv("STARPU_WORKERS_CPUID") || getenv("STARPU_WORKERS_NOBIND") ||
	    fv_runtime_sim_cpus() >= 0 || sched_getaffinity(0, sizeof set, &set) != 0)
		return;
	if (CPU_COUNT(&set) > 0 && CPU_COUNT(&set) < sysconf(_SC_NPROCESSORS_ONLN))
		setenv("STARPU_WORKERS_GETBIND", "1", 1);
}

int fv_runtime_gpu_only_default(void)
{
	return gpu_only_default;
}

void fv_runtime_opts_default(fv_runtime_opts_t *o)
{
	o->sched = NULL;
	o->ncpu = -1;
	o->ncuda = -1;
	o->verbose = 0;
	o->gpu_speed = 0;
	o->paused = 0;
	o->oversubscribe = 0;
	o->watchdog = 0;
	o->cpu_cells_asked = 0;
}

/* The scheduler asked for (from names it: the key or the variable) among
 * StarPU's policies: StarPU itself only warns about an unknown name and
 * runs its default, so that a typo went unnoticed. */
static fv_err_t check_sched(const char *name, const char *from)
{
	struct starpu_sched_policy **p = starpu_sched_get_predefined_policies();
	char list[2048] = "";
	size_t k = 0;
	for (; p && *p; p++) {
		if ((*p)->policy_name && strcmp((*p)->policy_name, name) == 0)
			return FV_OK;
		if (k < sizeof list)
			k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", k ? ", " : "", (*p)->policy_name);
	}
	return FV_ERROR(FV_ERR_ARG, "%s: StarPU has no scheduler '%s'; the schedulers of StarPU %d.%d.%d: %s", from,
			name, STARPU_MAJOR_VERSION, STARPU_MINOR_VERSION, STARPU_RELEASE_VERSION, list);
}

/* CPU workers beyond the cores share them: every task then waits for a
 * time slice (runtime.ncpu = 65536 started 128 workers on 2 cores without a
 * word), and StarPU caps the count at its build's STARPU_MAXCPUS. from
 * names the count's source. */
static fv_err_t check_ncpu(long asked, const char *from, int oversubscribe)
{
	long cores = host_cores();
	FV_CHECK(cores <= 0 || asked <= cores || oversubscribe, FV_ERR_ARG,
		 "%s: more CPU workers than the %ld cores this process may use (its affinity mask, or mpirun's for a "
		 "rank); workers beyond the cores share them and every task waits for a time slice: ask for %ld at "
		 "most, or set runtime.oversubscribe = yes to force it",
		 from, cores, cores);
	FV_CHECK(asked <= STARPU_MAXCPUS, FV_ERR_ARG,
		 "%s: this StarPU was built for at most %d CPU workers (STARPU_MAXCPUS) and would start %d of them "
		 "(this machine has %ld cores)",
		 from, STARPU_MAXCPUS, STARPU_MAXCPUS, cores);
	return FV_OK;
}

/* CUDA workers beyond the GPUs found: StarPU starts those it finds and
 * says nothing (runtime.ncuda = 4 on a machine without a GPU ran on the
 * CPU workers alone). */
static fv_err_t check_ncuda(long asked, const char *from)
{
	int n;
	if (asked <= 0)
		return FV_OK;
#if !defined(FV_HAVE_CUDA) && !defined(STARPU_SIMGRID)
	(void)n;
	return FV_ERROR(FV_ERR_ARG,
			"%s: this fvstar was built without CUDA (configure found no nvcc, or --disable-cuda), so no "
			"CUDA worker can run its tasks; ask for 0 or leave it unset",
			from);
#else
	n = cuda_devices();
	FV_CHECK(asked <= n, FV_ERR_ARG,
		 "%s: more CUDA workers than the %d GPU%s the CUDA runtime finds here; ask for %d at most (or leave it "
		 "unset: all GPUs)",
		 from, n, n == 1 ? "" : "s", n);
	return FV_OK;
#endif
}

/* A count from the environment, strictly: "STARPU_NCPU=two" is refused,
 * where StarPU would read 0. */
static fv_err_t env_count(const char *var, long *n, char *from, size_t size)
{
	const char *env = getenv(var);
	char *end;
	*n = -1;
	if (!env)
		return FV_OK;
	errno = 0;
	*n = strtol(env, &end, 10);
	FV_CHECK(env[0] && !*end && errno == 0 && *n >= 0, FV_ERR_ARG,
		 "%s=%.100s (environment): expected a worker count >= 0", var, env);
	snprintf(from, size, "%s=%ld (environment)", var, *n);
	return FV_OK;
}

fv_err_t fv_runtime_check_opts(const fv_runtime_opts_t *o)
{
	const char *env = getenv("STARPU_SCHED");
	char from[160];
	/* STARPU_SCHED=help is StarPU's own way to list its policies (it
	 * prints them, then starts its default) */
	if (env && strcmp(env, "help") != 0) {
		snprintf(from, sizeof from, "STARPU_SCHED=%.100s (environment)", env);
		FV_CALL(check_sched(env, from));
	}
	if (o && o->sched) {
		snprintf(from, sizeof from, "runtime.sched = %.100s", o->sched);
		FV_CALL(check_sched(o->sched, from));
	}
	/* StarPU takes STARPU_NCPU and STARPU_NCUDA over the counts fvstar
	 * gives it */
	long n;
	FV_CALL(env_count("STARPU_NCPU", &n, from, sizeof from));
	if (n >= 0)
		FV_CALL(check_ncpu(n, from, o && o->oversubscribe));
	FV_CALL(env_count("STARPU_NCUDA", &n, from, sizeof from));
	if (n >= 0)
		FV_CALL(check_ncuda(n, from));
	if (o && o->ncuda >= 0) {
		snprintf(from, sizeof from, "runtime.ncuda = %d", o->ncuda);
		FV_CALL(check_ncuda(o->ncuda, from));
	}
	if (o && o->ncpu >= 0) {
		snprintf(from, sizeof from, "runtime.ncpu = %d", o->ncpu);
		FV_CALL(check_ncpu(o->ncpu, from, o->oversubscribe));
	}
	return FV_OK;
}

/* mkdir -p of a directory that must end up writable. */
static int writable_dir(const char *dir)
{
	return fv_output_mkdir(dir) == FV_OK && access(dir, W_OK | X_OK) == 0;
}

/* StarPU keeps its performance models and bus calibration under
 * $STARPU_HOME/.starpu (default $HOME) and aborts when it cannot write
 * there, as with a read-only home in a container or a batch job. */
static fv_err_t starpu_home(int verbose)
{
	char dir[4096 + 16];
	const char *home = getenv("STARPU_HOME");
	if (home) {
		snprintf(dir, sizeof dir, "%s/.starpu", home);
		FV_CHECK(writable_dir(dir), FV_ERR_RUNTIME,
			 "STARPU_HOME=%s: cannot create or write %s (StarPU keeps its performance models there); "
			 "set STARPU_HOME to a writable directory",
			 home, dir);
		return FV_OK;
	}
	home = getenv("HOME");
	snprintf(dir, sizeof dir, "%s/.starpu", home && home[0] ? home : "/nonexistent");
	if (home && home[0] && writable_dir(dir))
		return FV_OK;
	const char *tmp = getenv("TMPDIR");
	char fallback[4000];
	snprintf(fallback, sizeof fallback, "%s/fvstar-starpu-%ld", tmp && tmp[0] ? tmp : "/tmp", (long)getuid());
	snprintf(dir, sizeof dir, "%s/.starpu", fallback);
	FV_CHECK(writable_dir(dir), FV_ERR_RUNTIME,
		 "neither %s/.starpu nor %s is writable: StarPU needs a directory for its performance models; set "
		 "STARPU_HOME to a writable directory",
		 home && home[0] ? home : "$HOME", dir);
	setenv("STARPU_HOME", fallback, 1);
	if (verbose)
		fprintf(stderr,
			"fvstar: %s is not writable: StarPU's performance models go to %s (set STARPU_HOME to keep "
			"them elsewhere)\n",
			home && home[0] ? home : "$HOME", fallback);
	return FV_OK;
}

/*
 * Several ranks on one node (Open MPI's OMPI_COMM_WORLD_LOCAL_RANK and
 * _LOCAL_SIZE): StarPU would start every rank's workers on the same first
 * cores and GPUs. Unless the user placed them (STARPU_WORKERS_CUDAID,
 * STARPU_WORKERS_CPUID, STARPU_WORKERS_NOBIND), local rank l of L takes
 * GPUs l*g .. l*g+g-1 of the n found, g = max(1, n / L) (so with one GPU
 * every rank shares GPU 0), and when the launcher's cores (allowed_cores:
 * all the node's, or those taskset or a batch system gave mpirun) number
 * at least two per rank, the l-th c = cores / L of them in order (StarPU-MPI
 * keeps one for its progress thread unless a CPU worker count was asked
 * for). Set in the environment and the mask before starpu_init.
 *
 * mpirun binds each rank to one core by default (Open MPI: --bind-to core
 * for two ranks or fewer), and every thread the rank starts inherits it:
 * the main thread, which submits the tasks, then stays on that one core
 * beside a worker: 2 ranks on 2 H200s (a GPU each, 2.53M-cell box) ran
 * 3.30-3.35 ms an iteration, against 2.90 with --bind-to none. The rank's
 * mask becomes its c cores, and StarPU builds its topology from that mask
 * (STARPU_WORKERS_GETBIND): its workers stay on them.
 */
static void take_cores(int rank, const cpu_set_t *all, long first, long n)
{
	cpu_set_t now, want;
	long seen = 0, have = 0;
	CPU_ZERO(&want);
	for (int i = 0; i < CPU_SETSIZE && seen < first + n; i++) {
		if (!CPU_ISSET(i, all))
			continue;
		if (seen++ >= first)
			CPU_SET(i, &want);
	}
	if (sched_getaffinity(0, sizeof now, &now) != 0)
		CPU_ZERO(&now);
	CPU_AND(&now, &now, &want);
	have = CPU_COUNT(&now);
	if (sched_setaffinity(0, sizeof want, &want) != 0)
		return;
	setenv("STARPU_WORKERS_GETBIND", "1", 0); /* a user's 0 wins */
	if (rank == 0 && have < n)
		fprintf(stderr,
			"fvstar: note: mpirun bound this rank to %ld of its %ld cores; each rank now runs on its %ld "
			"(mpirun --bind-to none leaves the placement to fvstar)\n",
			have, n, n);
}

/*
 * A rank's share of the launcher's cores from its start, before the mesh
 * is read (the set-up's threads), not only once StarPU starts: under
 * mpirun's default binding a rank's set-up ran on one thread (2 ranks on
 * a 32-core node, 10.37M cells: mesh faces and geometry 8.48 s against
 * 0.63 in one process, 43.9 s of set-up against 13.1; session 18 call 2).
 * OpenMP reads its thread count from the mask the process had when it
 * started, so the count is set too (unless OMP_NUM_THREADS says it).
 */
/* This process's rank l of the L on its node (Open MPI's local rank and
 * size; 0 of 1 without them). */
static void local_rank(int *l, int *L)
{
	const char *lr = getenv("OMPI_COMM_WORLD_LOCAL_RANK"), *ls = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
	*l = lr ? atoi(lr) : 0;
	*L = ls ? atoi(ls) : 1;
}

void fv_runtime_place_early(void)
{
	int l, L;
	cpu_set_t all;
	local_rank(&l, &L);
	if (!fv_ranks_wanted() || L < 1 || l < 0 || l >= L || getenv("STARPU_WORKERS_CPUID") ||
	    getenv("STARPU_WORKERS_NOBIND"))
		return;
	long c = allowed_cores(&all) / L;
	if (c < 2)
		return;
	take_cores(l, &all, l * c, c);
	if (!getenv("OMP_NUM_THREADS"))
		fv_threads_set((int)c);
}

static void place_rank(struct starpu_conf *conf, const fv_runtime_opts_t *o)
{
	int l, L, n = cuda_devices();
	cpu_set_t all;
	long cores = allowed_cores(&all);
	local_rank(&l, &L);
	char list[4096];
	size_t k = 0;
	if (L <= 1 || l < 0 || l >= L)
		return;
	if (n > 0 && !getenv("STARPU_WORKERS_CUDAID")) {
		int g = n / L > 1 ? n / L : 1;
		for (int i = 0; i < g && k < sizeof list - 16; i++)
			k += (size_t)snprintf(list + k, sizeof list - k, "%s%d", i ? " " : "", (l * g + i) % n);
		setenv("STARPU_WORKERS_CUDAID", list, 1);
		if (conf->ncuda < 0 && !getenv("STARPU_NCUDA") && !(o && o->ncuda >= 0))
			conf->ncuda = g;
	}
	if (cores / L >= 2 && !getenv("STARPU_WORKERS_CPUID") && !getenv("STARPU_WORKERS_NOBIND")) {
		long c = cores / L;
		take_cores(l, &all, l * c, c);
		if (conf->ncpus < 0 && !getenv("STARPU_NCPU"))
			conf->ncpus = (int)c - 1; /* the last core: StarPU-MPI's thread */
	}
	/* CPU workers asked for on every core of a rank leave none for
	 * StarPU-MPI's progress thread, which then waits for a time slice to
	 * move each halo: 2 ranks x 8 workers on 16 cores ran 35x slower than
	 * 2 x 7 (bench/results/2026-11-25-ranks-balance-gpu.md) */
	int asked = conf->ncpus >= 0 ? conf->ncpus : getenv("STARPU_NCPU") ? atoi(getenv("STARPU_NCPU")) : -1;
	if (l == 0 && cores / L >= 2 && asked >= cores / L)
		fprintf(stderr,
			"fvstar: warning: %d ranks on this node with %d CPU workers each on %ld cores leave no core for "
			"StarPU-MPI's progress thread, which makes every halo wait (measured 35x slower); ask for %ld "
			"workers per rank at most\n",
			L, asked, cores, cores / L - 1);
	/* ranks on one node that use its GPUs: their halos go GPU to GPU
	 * (numerics.halo_peer, CUDA IPC), but one process still does less
	 * per exchange than StarPU-MPI's tokens */
	if (l == 0 && n > 0 && !env_zero("STARPU_NCUDA") &&
	    !(o && o->ncuda == 0))
		fprintf(stderr,
			"fvstar: note: %d ranks share this node's %d GPU%s: their halos go GPU to GPU (numerics.halo_peer = auto) "
			"with a message through StarPU-MPI each way; one process per node with all its GPUs (blocks "
			"pinned, runtime.pin_blocks) needs none (measured 1.02-1.17x faster on 2 and 4 H200s, 2.5M and "
			"10.4M cells)\n",
			L, n, n > 1 ? "s" : "");
}

/*
 * No CUDA worker asked for (runtime.ncuda = 0, STARPU_NCUDA=0): hwloc's
 * GPU plugins (CUDA, NVML, OpenCL, ...) left out of StarPU's topology,
 * unless HWLOC_COMPONENTS says otherwise. With a GPU in the machine they
 * start its driver in every process: the StarPU phase of a 663k-cell
 * set-up on 16 CPU workers took 0.61-0.63 s with them, 0.27 s without
 * (an H200 node, session 22 call 1), and 0.64 / 0.99 s per rank for
 * 2 / 4 CPU-only ranks of the 10.37M box.
 */
static void no_gpu_plugins(const struct starpu_conf *conf, const fv_runtime_opts_t *o)
{
	if (getenv("HWLOC_COMPONENTS") || !(conf->ncuda == 0 || (o && o->ncuda == 0) || env_zero("STARPU_NCUDA")))
		return;
	setenv("HWLOC_COMPONENTS", "-cuda,-nvml,-opencl,-rsmi,-levelzero,-gl", 1);
}

/* starpu_init; in fvstar-sim with an argv, as starpu_init's NULL crashed
 * StarPU's SimGrid start-up when it had not started the simulation itself
 * (src/runtime/sim.c: now it has). */
static int start_starpu(struct starpu_conf *conf)
{
#ifdef STARPU_SIMGRID
	static char name[] = "fvstar-sim";
	static char *args[] = {name, NULL};
	int argc = 1;
	char **argv = args;
	return starpu_initialize(conf, &argc, &argv);
#else
	return starpu_init(conf);
#endif
}

#ifdef FV_HAVE_CUDA
static pthread_t warm_thread;
static int warm_on, warm_n;
static volatile int warm_done; /* the thread's last store */

/* A CUDA context per GPU (the primary one, which StarPU's worker then
 * finds made): its creation took part of StarPU's 0.45-0.95 s start in
 * the M6 medium's set-up on an H200 host. */
static void *warm_contexts(void *arg)
{
	int n = 0;
	(void)arg;
	if (cudaGetDeviceCount(&n) != cudaSuccess)
		n = 0;
	if (warm_n >= 0 && warm_n < n)
		n = warm_n;
	for (int d = 0; d < n; d++)
		if (cudaSetDevice(d) == cudaSuccess)
			cudaFree(0);
	cudaGetLastError();
	__atomic_store_n(&warm_done, 1, __ATOMIC_RELEASE);
	return NULL;
}
#endif

int fv_runtime_warm_busy(void)
{
#ifdef FV_HAVE_CUDA
	return warm_on && !__atomic_load_n(&warm_done, __ATOMIC_ACQUIRE);
#else
	return 0;
#endif
}

void fv_runtime_warm_gpus(const fv_runtime_opts_t *o)
{
#ifdef FV_HAVE_CUDA
	const char *nc = getenv("STARPU_NCUDA");
	int on;
	/* 0 or 1, checked before the command started (fv_env_check) */
	if (fv_env_switch("FVSTAR_CUDA_WARM", 1, &on) != FV_OK)
		on = 1;
	if (warm_on || !on || fv_ranks_wanted() || getenv("STARPU_WORKERS_CUDAID") ||
	    (o && o->ncuda == 0) || (nc && atoi(nc) <= 0))
		return;
	warm_n = o && o->ncuda > 0 ? o->ncuda : nc ? atoi(nc) : -1;
	warm_on = pthread_create(&warm_thread, NULL, warm_contexts, NULL) == 0;
#else
	(void)o;
#endif
}

int fv_runtime_cuda_wanted(const fv_runtime_opts_t *o)
{
#ifdef FV_HAVE_CUDA
	const char *vis = getenv("CUDA_VISIBLE_DEVICES");
	return !((o && o->ncuda == 0) || env_zero("STARPU_NCUDA") || (vis && !*vis));
#else
	(void)o;
	return 0;
#endif
}

void fv_runtime_warm_wait(void)
{
#ifdef FV_HAVE_CUDA
	if (warm_on)
		pthread_join(warm_thread, NULL);
	warm_on = 0;
#endif
}

/* The scheduler fvstar picks when none is asked for, and why. */
static const char *default_sched(int cpus, int gpus, const char **why)
{
	/* one kind of worker: locality work stealing needs no model; CPU and
	 * GPU workers together: deque model data aware sorted, whose history
	 * models place each task where it ends first */
	*why = cpus && gpus ? "CPU and CUDA workers: tasks placed by history-based performance models; "
			      "runtime.sched to change"
			    : "one kind of worker: locality work stealing, no model to calibrate; runtime.sched to "
			      "change";
	return cpus && gpus ? "dmdas" : "lws";
}

/* StarPU stopped and started again with ncpus CPU workers beside the
 * GPUs (-1: StarPU's default), its scheduler chosen again for them unless
 * one was asked for; what names the start in an error. */
static fv_err_t restart_starpu(struct starpu_conf *conf, const fv_runtime_opts_t *o, int ncpus, const char **why,
			       const char *what)
{
	starpu_shutdown();
	runtime_up = 0;
	conf->ncpus = ncpus;
	if (!getenv("STARPU_SCHED") && !(o && o->sched))
		conf->sched_policy_name = default_sched(ncpus != 0, 1, why);
	int ret = start_starpu(conf);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "starpu_init %s failed (%d)", what, ret);
	runtime_up = 1;
	return FV_OK;
}

fv_err_t fv_runtime_init(const fv_runtime_opts_t *o)
{
	struct starpu_conf conf;
	int ret;
	const char *why = NULL;
	int verbose = o && o->verbose;
	fv_runtime_warm_wait();
	FV_CHECK(!runtime_up, FV_ERR_RUNTIME, "StarPU is already initialised");
	FV_CALL(fv_runtime_check_opts(o));
	FV_CALL(starpu_home(verbose));
	/* an FxT-enabled StarPU traces every run into /tmp unless told not to;
	 * tracing is asked for explicitly (STARPU_FXT_TRACE=1) */
	setenv("STARPU_FXT_TRACE", "0", 0);
	/* StarPU's warnings (uncalibrated models, "too big deviation" by the
	 * thousand, slow first transfers) are not the user's business; a user
	 * who wants them sets STARPU_SILENT=0 */
	setenv("STARPU_SILENT", "1", 0);
	ret = starpu_conf_init(&conf);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "starpu_conf_init failed (%d)", ret);
	gpu_only_default = 0;
	memset(&idle_cores, 0, sizeof idle_cores);
	{
		/* StarPU 1.3.10's modular-heteroprio-heft hands out none of
		 * fvstar's tasks in some runs (the run hangs at its first
		 * iteration, with or without calibrated models) */
		const char *asked = getenv("STARPU_SCHED") ? getenv("STARPU_SCHED") : o ? o->sched : NULL;
		FV_CHECK(!asked || strcmp(asked, "modular-heteroprio-heft") != 0, FV_ERR_ARG,
			 "scheduler modular-heteroprio-heft (%s): StarPU 1.3.10 runs none of fvstar's tasks under it "
			 "(the run hangs); use modular-heteroprio, heteroprio, dmdas or another policy",
			 getenv("STARPU_SCHED") ? "STARPU_SCHED" : "runtime.sched");
	}
	if (getenv("STARPU_SCHED")) {
		why = "asked for in STARPU_SCHED";
	} else if (o && o->sched) {
		conf.sched_policy_name = o->sched;
		why = "asked for in runtime.sched";
	}
	if (o && o->ncpu >= 0) {
		conf.ncpus = o->ncpu;
	} else if (!getenv("STARPU_NCPU") && (!o || o->ncuda != 0) && !env_zero("STARPU_NCUDA") &&
		   cuda_devices() > 0) {
		/* with a GPU, the default is GPU only: equal blocks on CPU cores
		 * make a GPU's iteration wait for them (a GPU here runs a stage
		 * 40x faster than all 16 cores; bench/results) */
		conf.ncpus = 0;
		gpu_only_default = 1;
	}
	if (o && o->ncuda >= 0)
		conf.ncuda = o->ncuda;
	conf.nopencl = 0;
	if (fv_ranks_wanted())
		place_rank(&conf, o);
	else
		honour_mask();
	no_gpu_plugins(&conf, o);
	if (!why) {
		int cpus = conf.ncpus != 0 && !env_zero("STARPU_NCPU");
		int gpus = conf.ncuda != 0 && !env_zero("STARPU_NCUDA") &&
			   cuda_devices() > 0;
		conf.sched_policy_name = default_sched(cpus, gpus, &why);
	}
	if (fv_ranks_wanted()) {
		/* StarPU-MPI starts StarPU itself (one StarPU per rank); a build
		 * without it refuses several ranks, and runs one as usual */
		FV_CALL(fv_ranks_start(&conf));
		ret = fv_ranks_up() ? 0 : start_starpu(&conf);
	} else {
		ret = start_starpu(&conf);
	}
	FV_CHECK(ret != -ENODEV, FV_ERR_RUNTIME, "StarPU found no worker (STARPU_NCPU=0 and no GPU?)");
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "starpu_init failed (%d)", ret);
	runtime_up = 1;
	/* several ranks: one stopped or lost stops them all, named */
	FV_CALL(fv_ranks_watchdog_start(o ? o->watchdog : 0));
	if (gpu_only_default) {
		/* GPU only unless the cores could add FV_CPU_JOIN_SHARE: one GPU's
		 * worth in CPU workers from runtime.gpu_speed, StarPU's history
		 * models or 640 (StarPU up, to read the models); if they can (one
		 * process), StarPU starts again with every core */
		int ng = (int)starpu_cuda_worker_get_count();
		long cores = host_cores() - ng;
		idle_cores.cores = cores > 0 ? cores : 0;
		idle_cores.speed = fv_runtime_gpu_speed(o ? o->gpu_speed : 0, idle_cores.src, sizeof idle_cores.src);
		idle_cores.share =
			ng > 0 && idle_cores.speed > 0 ? (double)idle_cores.cores / (idle_cores.speed * ng) : 0;
		if (!fv_ranks_wanted() && idle_cores.cores > 0 && idle_cores.share >= FV_CPU_JOIN_SHARE) {
			gpu_only_default = 0;
			idle_cores.joined = 1;
			/* StarPU's default: the cores its GPU drivers leave */
			FV_CALL(restart_starpu(&conf, o, -1, &why, "with the CPU cores"));
		}
	}
	if (!gpu_only_default && o && !o->cpu_cells_asked && !fv_ranks_wanted()) {
		/* CPU workers asked for beside GPUs (runtime.ncpu, STARPU_NCPU)
		 * that are worth under FV_CPU_JOIN_SHARE of them would hold no
		 * cells (fv_runtime_balance) and run no task (a traced M6 run:
		 * every task on the GPU), but StarPU's drivers poll for work on
		 * a core each, beside the thread that submits and the GPU's
		 * driver: 15 of them beside an H200 took 2-3 % from the M6
		 * medium's implicit iterations (bench/results/2026-12-04-halo11.md).
		 * StarPU starts again without them, and the start line says so;
		 * runtime.worker_speeds or runtime.balance = equal keeps them. */
		int nc = (int)starpu_cpu_worker_get_count(), ng = (int)starpu_cuda_worker_get_count();
		double gs = nc > 0 && ng > 0 ? fv_runtime_gpu_speed(o->gpu_speed, idle_cores.src, sizeof idle_cores.src) : 0;
		if (gs > 0 && (double)nc / (gs * ng) < FV_CPU_JOIN_SHARE) {
			idle_cores.dropped = nc;
			idle_cores.speed = gs;
			idle_cores.share = (double)nc / (gs * ng);
			/* STARPU_NCPU, read by StarPU after the conf, would bring them back */
			setenv("STARPU_NCPU", "0", 1);
			FV_CALL(restart_starpu(&conf, o, 0, &why, "without the CPU workers"));
		}
	}
	if (o && o->paused) {
		/* idle workers poll for tasks in a tight loop: on a small
		 * machine they took 62% of the CPU time while the caller cut
		 * and built 2.5M cells */
		starpu_pause();
		workers_paused = 1;
	}
	if (verbose && fv_runtime_rank() == 0) {
		int nc, ng;
		char only[768] = "";
		fv_runtime_workers(&nc, &ng);
		if (gpu_only_default && ng > 0)
			/* what the idle cores could give at best: their share of the
			 * combined speed, one core left to drive each GPU */
			snprintf(only, sizeof only,
				 " (GPU only: the %ld other cores would add %.1f%% at most, one GPU being worth %.4g "
				 "CPU workers (%s), less than the halo round trips between GPU and CPU blocks cost: "
				 "1 and 14 CPU workers beside an H100 ran at 0.86x and 0.34x of it alone on 1M cells; "
				 "runtime.ncpu = N adds N CPU workers)",
				 idle_cores.cores, 100.0 * idle_cores.share, idle_cores.speed, idle_cores.src);
		if (idle_cores.dropped)
			snprintf(only, sizeof only,
				 " (GPU only: the %d CPU workers asked for are worth %.1f%% of the GPU%s, one GPU being "
				 "worth %.4g CPU workers (%s), under the %.0f%% from which CPU workers hold cells: they "
				 "would hold none and poll a core each, so they are not started; runtime.worker_speeds "
				 "or runtime.balance = equal gives them cells)",
				 idle_cores.dropped, 100.0 * idle_cores.share, ng > 1 ? "s" : "", idle_cores.speed,
				 idle_cores.src, 100.0 * FV_CPU_JOIN_SHARE);
		if (idle_cores.joined)
			snprintf(only, sizeof only,
				 " (CPU+GPU: the cores could add %.0f%% to the GPU%s, one GPU being worth %.4g CPU "
				 "workers (%s), over the %.0f%% from which the cores join a GPU run to pay for the "
				 "halo round trips between GPU and CPU blocks; runtime.ncpu = 0 for the GPU%s alone)",
				 100.0 * idle_cores.share, ng > 1 ? "s" : "", idle_cores.speed, idle_cores.src,
				 100.0 * FV_CPU_JOIN_SHARE, ng > 1 ? "s" : "");
		fprintf(stderr, "fvstar: %s%d CPU + %d CUDA workers%s; scheduler %s (%s)\n",
			fv_runtime_nranks() > 1 ? "per rank, " : "", nc, ng, only,
			fv_runtime_sched_name(), why);
	}
	return FV_OK;
}

void fv_runtime_workers(int *ncpu, int *ncuda)
{
	*ncpu = runtime_up ? (int)starpu_cpu_worker_get_count() : 0;
	*ncuda = runtime_up ? (int)starpu_cuda_worker_get_count() : 0;
}

const char *fv_runtime_sched_name(void)
{
	struct starpu_sched_policy *p = runtime_up ? starpu_sched_ctx_get_sched_policy(0) : NULL;
	return p && p->policy_name ? p->policy_name : "unknown";
}

int fv_runtime_auto_blocks(long n_cells)
{
	int ncpu, ncuda;
	fv_runtime_workers(&ncpu, &ncuda);
	/* CPU workers only: four blocks each. Smaller blocks keep a task's data
	 * nearer the core and leave the workers less idle at the halo waits:
	 * 16 workers, M6 medium (979k cells), 28.0 ns per cell and stage with 64
	 * blocks against 31.6 with 32 on the H100 node's host, 29.4 against 30.0
	 * on the H200's; 2 workers, M6 coarse, 59.8-66.6 ms per iteration with 8
	 * against 66.5-73.7 with 4
	 * (bench/results/2026-11-26-cpu-gpu-h100.md) */
	int per = ncuda == 0 ? 4 : 2;
	int nb = per * (ncpu + ncuda > 0 ? ncpu + ncuda : 1) * fv_runtime_nranks();
	/* GPUs only: one block each (no halo exchange on a single GPU) */
	if (ncpu == 0 && ncuda > 0)
		nb = ncuda * fv_runtime_nranks();
	if (nb > n_cells / 256)
		nb = (int)(n_cells / 256);
	/* every rank owns at least one block */
	return nb > fv_runtime_nranks() ? nb : fv_runtime_nranks();
}

int fv_runtime_block_worker(int block, int pin, const int *placement)
{
	int ncpu, ncuda, ids[STARPU_NMAXWORKERS];
	fv_runtime_workers(&ncpu, &ncuda);
	if (pin && placement && placement[block] >= 0)
		return placement[block];
	if (!pin || ncpu != 0 || ncuda < 2)
		return -1;
	starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, ids, ncuda);
	return ids[block % ncuda];
}

int fv_runtime_device_memory(double *total, double *used, int max)
{
	int n = 0;
	for (unsigned node = 0; node < starpu_memory_nodes_get_count() && n < max; node++) {
		starpu_ssize_t t, a;
		if (starpu_node_get_kind(node) != STARPU_CUDA_RAM)
			continue;
		t = starpu_memory_get_total(node);
		a = starpu_memory_get_available(node);
		total[n] = t > 0 ? (double)t : 0;
		used[n] = t > 0 && a >= 0 && a <= t ? (double)(t - a) : 0;
		n++;
	}
	return n;
}

int fv_runtime_worker_gpu_only(int worker)
{
	int ncpu, ncuda;
	fv_runtime_workers(&ncpu, &ncuda);
	if (worker >= 0)
		return starpu_worker_get_type(worker) == STARPU_CUDA_WORKER;
	return ncpu == 0 && ncuda > 0;
}

int fv_runtime_host_pinned(void)
{
#ifdef FV_HAVE_CUDA
	/* as StarPU reads it (starpu_get_env_number: > 0 disables); not
	 * under SimGrid: simulated ranks keep StarPU's copies of the halo
	 * buffers, whose models every calibration holds */
	const char *v = getenv("STARPU_DISABLE_PINNING");
	return !(v && atoi(v) > 0);
#else
	return 0;
#endif
}

/* The mask and threads of a widening, to take back. */
static struct {
	int wide, threads;
	long cores;
	cpu_set_t saved;
} widened;

int fv_runtime_widen(int on)
{
	int l, L;
	local_rank(&l, &L);
	if (on && !widened.wide && L > 1) {
		cpu_set_t all;
		long cores = allowed_cores(&all);
		if (cores < 2 || sched_getaffinity(0, sizeof widened.saved, &widened.saved) != 0 ||
		    sched_setaffinity(0, sizeof all, &all) != 0)
			return 0;
		widened.wide = 1;
		widened.cores = cores;
		widened.threads = fv_threads_max();
		fv_threads_set((int)cores);
		return (int)cores;
	}
	if (!on && widened.wide) {
		/* the pool's threads started while wide have the launcher's
		 * cores: each takes the rank's mask back itself */
		FV_OMP(parallel num_threads((int)widened.cores))
		(void)sched_setaffinity(0, sizeof widened.saved, &widened.saved);
		(void)sched_setaffinity(0, sizeof widened.saved, &widened.saved);
		fv_threads_set(widened.threads);
		widened.wide = 0;
	}
	return 0;
}

void fv_runtime_pause(void)
{
	if (!workers_paused) {
		starpu_pause();
		workers_paused = 1;
	}
}

void fv_runtime_resume(void)
{
	if (workers_paused) {
		starpu_resume();
		workers_paused = 0;
	}
}

void fv_runtime_shutdown(void)
{
	fv_runtime_resume();
	if (runtime_up) {
		fv_ranks_watchdog_stop();
		if (fv_ranks_up())
			fv_ranks_stop();
		else
			starpu_shutdown();
		runtime_up = 0;
	}
}

void fv_runtime_print(FILE *out)
{
	int major, minor, release;
	char name[128];
	starpu_get_version(&major, &minor, &release);
	fprintf(out, "StarPU %d.%d.%d, compiled against a build with CUDA %s, FxT %s, MPI %s, STARPU_MAXCPUS %d, STARPU_NMAXBUFS %d\n", major,
		minor, release,
#ifdef STARPU_USE_CUDA
		"yes",
#else
		"no",
#endif
#ifdef STARPU_USE_FXT
		"yes",
#else
		"no",
#endif
#ifdef STARPU_USE_MPI
		"yes",
#else
		"no",
#endif
		STARPU_MAXCPUS, STARPU_NMAXBUFS);
	{
		/* which of the two StarPU builds (plain or FxT) the loader chose */
		Dl_info info;
		if (dladdr((void *)starpu_init, &info) && info.dli_fname)
			fprintf(out, "library: %s\n", info.dli_fname);
	}
	fprintf(out, "precision: %s\n", FV_REAL_NAME);
#ifdef FV_HAVE_MPI
	fprintf(out, "StarPU-MPI: yes (under mpirun: one rank per process); rank %d of %d\n", fv_runtime_rank(),
		fv_runtime_nranks());
#else
	fprintf(out, "StarPU-MPI: no (built without MPI)\n");
#endif
	if (!runtime_up)
		return;
	fprintf(out, "scheduler: %s\n", fv_runtime_sched_name());
	fprintf(out, "workers: %u (%u CPU, %u CUDA)\n", starpu_worker_get_count(), starpu_cpu_worker_get_count(),
		starpu_cuda_worker_get_count());
	for (unsigned w = 0; w < starpu_worker_get_count(); w++) {
		starpu_worker_get_name((int)w, name, sizeof name);
		fprintf(out, "  worker %u: %s (memory node %u)\n", w, name, starpu_worker_get_memory_node(w));
	}
}

fv_err_t fv_runtime_selftest(size_t n, int *n_cuda, FILE *out)
{
	fv_real_t *x = NULL, *y = NULL;
	starpu_data_handle_t hx, hy;
	unsigned nw = starpu_worker_get_count(), n_run;
	fv_err_t err = FV_OK;

	FV_CHECK(runtime_up, FV_ERR_RUNTIME, "self-test before StarPU start-up");
	FV_CHECK(starpu_malloc((void **)&x, n * sizeof *x) == 0 && starpu_malloc((void **)&y, n * sizeof *y) == 0,
		 FV_ERR_MEM, "starpu_malloc of 2 x %zu reals failed", n);
	/* small integers and a power-of-two factor: exact on every worker,
	 * with or without fused multiply-add */
	for (size_t i = 0; i < n; i++) {
		x[i] = (fv_real_t)(i % 1024);
		y[i] = 0;
	}
	starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x, (uint32_t)n, sizeof *x);
	starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)y, (uint32_t)n, sizeof *y);
	*n_cuda = 0;
	n_run = 0;
	for (unsigned w = 0; w < nw && err == FV_OK; w++) {
		int cuda = starpu_worker_get_type((int)w) == STARPU_CUDA_WORKER;
#ifndef FV_HAVE_CUDA
		if (cuda)
			continue; /* StarPU has CUDA, this build of fvstar has not */
#endif
		err = fv_insert_smoke_axpy(hx, hy, (fv_real_t)0.5, (int)w);
		n_run++;
		*n_cuda += cuda;
	}
	starpu_task_wait_for_all();
	starpu_data_unregister(hy);
	starpu_data_unregister(hx);
	for (size_t i = 0; i < n && err == FV_OK; i++) {
		fv_real_t want = (fv_real_t)(0.5 * n_run * (double)(i % 1024));
		if (y[i] != want)
			err = FV_ERROR(FV_ERR_RUNTIME, "smoke codelet: y[%zu] = %g after %u workers, expected %g", i,
				       (double)y[i], n_run, (double)want);
	}
	if (err == FV_OK && out)
		fprintf(out, "self-test: y = 0.5 x + y ran on %u of %u workers (%d CUDA), %zu values exact\n", n_run,
			nw, *n_cuda, n);
	starpu_free(x);
	starpu_free(y);
	return err;
}
