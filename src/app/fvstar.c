/* SPDX-License-Identifier: MIT */
/* The fvstar command: dispatch to sub-commands, one error report, exit codes
 * (0 success, 1 failure, 2 bad usage). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "config.h"
#include "fvstar/case.h"
#include "fvstar/runtime.h"
#include "fvstar/types.h"
#include "util/env.h"
#include "util/heap.h"
#include "util/timer.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: fvstar COMMAND [ARGS]\n"
		"\n"
		"  fvstar run CASE.cfg [section.key=value ...]   solve; writes into the output directory\n"
		"  fvstar surface CASE.cfg [--stations E,..] [--exp FILE] [--out DIR]  wall Cp at span stations\n"
		"  fvstar mesh info MESH                 counts, cell types, markers, ranges, checks\n"
		"  fvstar mesh gen box|ramp [OPTIONS] -o OUT   generate a mesh (.su2 or .vtu)\n"
		"  fvstar mesh refine MESH -o OUT [--levels K] uniform refinement (x8 per level)\n"
		"  fvstar mesh convert MESH -o OUT       write .su2 or .vtu\n"
		"  fvstar mesh color MESH [--method M]   face colour groups: greedy, minimal or both\n"
		"  fvstar bench stage CASE.cfg [key=value ...] [--iterations N] [--warmup N] [--history F] [--json F]\n"
		"                                        the case's kernels on one GPU without StarPU (bare driver)\n"
		"  fvstar bench kernels [ARGS]           the papers' kernel experiments (bench/bench_kernels)\n"
		"  fvstar trace DIR [--iterations K]     a run's trace: summary per worker, Gantt chart, statistics\n"
		"  fvstar sim run|dry|calibrate CASE.cfg ...  the run's task graph simulated (SimGrid), dry, calibrated\n"
		"  fvstar runtime info                   StarPU build, scheduler and workers\n"
		"  fvstar runtime check                  run a codelet on every worker\n"
		"  fvstar keys [SECTION]                 the case-file keys: type, default, meaning (Markdown)\n"
		"  fvstar --version\n"
		"\n"
		"'fvstar COMMAND --help' gives the usage of each command.\n");
}

/* The usage of the commands that have no option parser of their own
 * (mesh and surface print theirs). */
static const struct {
	const char *cmd, *text;
} helps[] = {
	{"run", "usage: fvstar run CASE.cfg [-v] [section.key=value ...]\n"
		"\n"
		"Solves the case: reads the mesh, partitions it into blocks, runs the solver's\n"
		"tasks on StarPU's workers, and writes into the output directory ([output] dir,\n"
		"default out/<case name>): history.csv (residuals and forces per iteration),\n"
		"summary.json, solution.vtu (ParaView) and restart.bin (continue with\n"
		"output.restart=DIR/restart.bin). Any case key can be set on the command line,\n"
		"as numerics.cfl=2 or partition.blocks=8; 'fvstar keys' lists them all.\n"
		"The effective case, with where each value came from, goes to\n"
		"DIR/case.effective (-v, --verbose: on the screen too). The set-up's phases\n"
		"are timed, the memory checked before the large allocations\n"
		"(runtime.memory_check) and reported per cell at the end (summary.json).\n"
		"One run at a time owns an output directory (DIR/.fvstar.lock). Ctrl-C or\n"
		"SIGTERM stops the run after the iterations in flight, with a restart and the\n"
		"command that continues it (exit status 130 or 143; a second one at once).\n"
		"\n"
		"Environment: STARPU_SCHED, STARPU_NCPU, STARPU_NCUDA override [runtime];\n"
		"STARPU_HOME is where StarPU keeps its performance models.\n"
		"\n"
		"Several ranks: mpirun -np R fvstar run CASE.cfg (StarPU-MPI; at least R\n"
		"blocks; the same results as one rank with the same blocks; rank 0 writes\n"
		"the outputs, the solution as solution.pvtu with a piece per rank).\n"},
	{"bench", "usage: fvstar bench stage CASE.cfg [section.key=value ...] [--iterations N] [--warmup N]\n"
		  "                          [--history FILE] [--json FILE]\n"
		  "       fvstar bench kernels [ARGS]\n"
		  "       fvstar bench sched CASE.cfg [section.key=value ...] [--policies P,..|all]\n"
		  "                          [--workers gpu,gpu+N,cpu,cpuN] [--blocks-per-worker K,..]\n"
		  "                          [--balance speed,equal] [--iterations N] [--warmup N]\n"
		  "                          [--calibrate N] [--timeout S] [--append] [--platform P] -o DIR\n"
		  "       fvstar bench sched --plot-only -o DIR\n"
		  "\n"
		  "stage: the case's kernels on one GPU in the solver's stage order, without\n"
		  "StarPU (the bare driver), timed with CUDA events per stage: what the runtime\n"
		  "costs is fvstar run's time per iteration against this one.\n"
		  "kernels: the papers' kernel experiments (bench/bench_kernels of the build tree;\n"
		  "its --help lists its arguments).\n"
		  "sched: StarPU scheduling policies (default eager, random, ws, lws, prio, dm,\n"
		  "dmda, dmdar, dmdas, dmdasd, heteroprio, peager, pheft; all: every one but\n"
		  "modular-heteroprio-heft) x worker sets (default gpu, gpu+15, cpu; GPU sets are\n"
		  "skipped without a GPU) x blocks per worker (default 1,2) x runtime.balance\n"
		  "(where CPU and CUDA workers mix), each a fvstar run of N iterations (default\n"
		  "50) after a calibration run (STARPU_CALIBRATE=1) of its worker set and blocks,\n"
		  "under a time limit (default 600 s): DIR/sched.csv (s/iteration after the\n"
		  "warm-up, ns/cell/stage, worker utilisation), DIR/sched.png, DIR/sched.md\n"
		  "(tools/bench_sched.py; --help there tells more). --append adds runs to\n"
		  "DIR/sched.csv (a long bench in several commands); --plot-only redraws.\n"
		  "--platform P: each run simulated (fvstar sim run on platform folder P, its\n"
		  "workers and models; no calibration run, no utilisation; doc/simgrid.md).\n"},
	{"runtime", "usage: fvstar runtime info|check\n"
		    "\n"
		    "info: the StarPU build (CUDA, FxT, MPI, limits), the library loaded, the\n"
		    "scheduler and the workers. check: also runs a codelet on every worker and\n"
		    "compares its result with the exact one.\n"},
	{"trace", "usage: fvstar trace DIR [--iterations K] [--no-plots]\n"
		  "\n"
		  "DIR is the trace directory of a run (fvstar run CASE.cfg output.trace=DIR, from\n"
		  "the iteration output.trace_from). Converts its FxT file again with StarPU's\n"
		  "FxT tool (paje.trace for ViTE and pj_dump; tasks.rec, data.rec and dag.dot\n"
		  "for StarVZ; times from the recording start), or, without one, reads\n"
		  "the converted files; prints per worker its tasks, busy time and share, and\n"
		  "GFlop/s; and draws with tools/plot_trace.py:\n"
		  "  DIR/gantt.png  the last K iterations (default 3), one row per worker, tasks\n"
		  "                 coloured by stage, halo tasks (pack, unpack, fetch) apart,\n"
		  "                 border tasks hatched, the waits on halos and the halos in\n"
		  "                 flight marked, iterations and RK stages marked, data\n"
		  "                 transfers on a row per memory node\n"
		  "  DIR/stats.png  idle share per worker, time per stage, and per iteration its\n"
		  "                 critical path (dag.dot, tasks.rec) and the time the workers\n"
		  "                 waited on halos against its makespan (also printed, and in\n"
		  "                 DIR/stats.json)\n"
		  "--no-plots: the summary only.\n"},
	{"sim", "usage: fvstar sim run CASE.cfg [--platform DIR] [--iterations N] [--warmup K] [--out DIR] [key=value ...]\n"
		"       fvstar sim dry CASE.cfg [--iterations N] [--warmup K] [--norms-apart] [--out DIR] [key=value ...]\n"
		"       fvstar sim calibrate CASE.cfg --save DIR [--iterations N] [--warmup K] [key=value ...]\n"
		"\n"
		"The run's set-up (mesh, blocks, placement, colouring) and task graph for a\n"
		"fixed number of iterations (default 10; calibrate 30), with nothing computed\n"
		"read back: no convergence test, no output of the state. Prints the time per\n"
		"iteration after the first K (default 1) and the tasks per stage, and writes\n"
		"them to DIR/summary.json (default output.dir/sim-run, sim-dry).\n"
		"run: simulated by fvstar-sim (StarPU's SimGrid mode) on the platform and\n"
		"performance models of DIR (a folder that calibrate saved, or that\n"
		"tools/sim_platform.py derived; default StarPU's own sampling folder); the time\n"
		"is simulated time. A cluster folder (tools/sim_platform.py cluster: nodes,\n"
		"network) is simulated with one process per rank: smpirun, fvstar-smpi\n"
		"(StarPU-MPI under SimGrid's SMPI). dry: the same on this machine's workers\n"
		"(measured; --norms-apart: ranks keep their own residual rows, no collective\n"
		"per iteration, as simulated ranks). calibrate: dry runs with STARPU_CALIBRATE=1\n"
		"into a fresh folder DIR: StarPU measures the bus and fills every codelet's\n"
		"history model there from the tasks after the warm-up (K, default 2; where task\n"
		"chains ran, a third pass with numerics.chain = no records their tasks alone);\n"
		"simulate the same case and workers with fvstar sim run CASE.cfg --platform DIR.\n"
		"dry and calibrate run under mpirun too (calibrate: one pass per command).\n"
		"See doc/simgrid.md.\n"},
	{"keys", "usage: fvstar keys [SECTION]\n"
		 "\n"
		 "The keys of the case file (all sections, or one: mesh, flow, numerics, bc,\n"
		 "partition, runtime, output, forces) with what they accept, their default and\n"
		 "their meaning, as Markdown tables (cases/README.md holds the same text).\n"},
};

static int is_help(const char *a)
{
	return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

fv_err_t fv_opt_long(const char *opt, const char *s, long lo, long hi, long *v)
{
	char *end;
	errno = 0;
	long x = strtol(s, &end, 10);
	FV_CHECK(s[0] && *end == '\0' && errno == 0 && x >= lo && x <= hi, FV_ERR_ARG,
		 "option %s: '%s' is not an integer in [%ld, %ld]", opt, s, lo, hi);
	*v = x;
	return FV_OK;
}

fv_err_t fv_opt_double(const char *opt, const char *s, double lo, double hi, double *v)
{
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	FV_CHECK(s[0] && *end == '\0' && errno == 0 && isfinite(x) && x >= lo && x <= hi, FV_ERR_ARG,
		 "option %s: '%s' is not a number in [%g, %g]", opt, s, lo, hi);
	*v = x;
	return FV_OK;
}

fv_err_t fv_opt_vec3(const char *opt, const char *s, double v[3])
{
	char *end;
	const char *p = s;
	for (int d = 0; d < 3; d++) {
		errno = 0;
		v[d] = strtod(p, &end);
		FV_CHECK(end != p && errno == 0 && isfinite(v[d]) && *end == (d < 2 ? ',' : '\0'), FV_ERR_ARG,
			 "option %s: '%s' is not x,y,z", opt, s);
		p = end + 1;
	}
	return FV_OK;
}

/* The set-up's OpenMP threads asleep as soon as a loop ends
 * (OMP_WAIT_POLICY=passive) where the process may use at least
 * FV_PASSIVE_CORES cores and no CUDA worker runs (fv_app_passive_threads'
 * callers: `fvstar mesh`, `fvstar run` once its case is read): by default
 * they spin about 3 ms after each loop; on 64 cores the 663k box's set-up
 * took 1.64 s so against 1.11 passive (1.39 on 32 cores: session 20 call
 * 1). On 16 cores it was 1.45-1.51 s against 1.04 passive on a 2-GPU node
 * (session 22 call 1, where leaving out hwloc's GPU plugins gave 1.00:
 * src/runtime/runtime.c) but 1.29-1.40 against 1.17 on a 4-GPU node, and
 * the second start cost 0.13 s there (call 2): from 32 cores only. The M6
 * medium's set-up on one GPU and 16 cores was not faster passive
 * (1.41-1.72 s against 1.23-1.34, session 21 call 1), so a run with CUDA
 * workers keeps the default. libgomp reads the policy
 * once, before main, so fvstar runs itself again with it set (the
 * process's start stays the same: the timeline's "main" mark shows what
 * the second start costs). FVSTAR_OMP_PASSIVE=1 always, 0 never; a
 * policy or GOMP_SPINCOUNT in the environment is kept as it is. */
#define FV_PASSIVE_CORES 32

static char **main_argv;

void fv_app_passive_threads(int cuda)
{
	int on;
	cpu_set_t set;
#ifdef FV_SIMGRID
	(void)cuda;
	(void)set;
	return; /* fvstar-sim, fvstar-smpi: simulated cores; SimGrid starts main */
#endif
	if (!main_argv || getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT") ||
	    fv_env_switch("FVSTAR_OMP_PASSIVE", -1, &on) != FV_OK || on == 0)
		return;
	if (on < 0 && (cuda || !(sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) >= FV_PASSIVE_CORES)))
		return;
	if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0)
		return;
	fflush(NULL);
	execv("/proc/self/exe", main_argv);
	unsetenv("OMP_WAIT_POLICY"); /* not run again: on as it was */
}

int main(int argc, char **argv)
{
	fv_err_t err;
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("fvstar %s (%s precision)\n", PACKAGE_VERSION, FV_REAL_NAME);
		return 0;
	}
	for (size_t k = 0; k < sizeof helps / sizeof helps[0]; k++)
		if (strcmp(argv[1], helps[k].cmd) == 0)
			for (int i = 2; i < argc; i++)
				if (is_help(argv[i])) {
					fputs(helps[k].text, stdout);
					return 0;
				}
	fv_mark("main");
	fv_mark_exit_install();
	err = fv_env_check();
	if (err != FV_OK) {
		fprintf(stderr, "fvstar: error: %s\n", fv_errmsg());
		return 2;
	}
	main_argv = argv;
	if (strcmp(argv[1], "mesh") == 0)
		fv_app_passive_threads(0);
	fv_heap_keep(); /* freed set-up memory reused, not zeroed again (util/heap.c) */
	if (strcmp(argv[1], "mesh") == 0)
		err = fv_cmd_mesh(argc - 1, argv + 1);
	else if (strcmp(argv[1], "run") == 0)
		err = fv_cmd_run(argc - 1, argv + 1);
	else if (strcmp(argv[1], "surface") == 0)
		err = fv_cmd_surface(argc - 1, argv + 1);
	else if (strcmp(argv[1], "bench") == 0)
		err = fv_cmd_bench(argc - 1, argv + 1);
	else if (strcmp(argv[1], "trace") == 0)
		err = fv_cmd_trace(argc - 1, argv + 1);
	else if (strcmp(argv[1], "sim") == 0)
		err = fv_cmd_sim(argc - 1, argv + 1);
	else if (strcmp(argv[1], "runtime") == 0)
		err = fv_cmd_runtime(argc - 1, argv + 1);
	else if (strcmp(argv[1], "keys") == 0)
		err = argc <= 3 ? fv_case_write_doc_section(stdout, argc == 3 ? argv[2] : NULL)
				: FV_ERROR(FV_ERR_ARG, "usage: fvstar keys [SECTION]");
	else
		err = FV_ERROR(FV_ERR_ARG, "unknown command '%s' (try fvstar --help)", argv[1]);
	if (err != FV_OK && fv_runtime_nranks() > 1) {
		/* a divergence is seen by every rank alike: rank 0 says it */
		if (err != FV_ERR_NUMERIC || fv_runtime_rank() == 0)
			fprintf(stderr, "fvstar: error (rank %d of %d): %s\n", fv_runtime_rank(), fv_runtime_nranks(),
				fv_errmsg());
		return 1;
	}
	if (err != FV_OK) {
		fprintf(stderr, "fvstar: error: %s\n", fv_errmsg());
		return err == FV_ERR_ARG ? 2 : 1;
	}
	/* stopped by a signal, cleanly: the shell's convention (130, 143) */
	return fv_app_stopped_by() ? 128 + fv_app_stopped_by() : 0;
}
