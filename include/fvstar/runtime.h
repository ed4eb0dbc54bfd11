/* SPDX-License-Identifier: MIT */
/* The runtime (StarPU) as the rest of fvstar sees it: start-up and
 * shutdown, the workers it found, where blocks run, execution traces.
 * Data and tasks: src/runtime/data.h and codelets/insert.h. */
#ifndef FVSTAR_RUNTIME_H
#define FVSTAR_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fvstar/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fv_runtime_opts {
	const char *sched;   /* NULL: STARPU_SCHED or chosen for the workers */
	int ncpu;            /* -1: STARPU_NCPU, else 0 when a GPU is used, else all cores */
	int ncuda;           /* -1: StarPU's default (STARPU_NCUDA or all GPUs) */
	int verbose;         /* 1: say on stderr what was chosen and why */
	double gpu_speed;    /* one GPU = this many CPU workers; 0: models, else FV_GPU_SPEED_DEFAULT */
	int paused;          /* 1: the workers sleep (starpu_pause) until fv_runtime_resume */
	int oversubscribe;   /* 1: more CPU workers than cores allowed */
	double watchdog;     /* several ranks: seconds without a sign of a rank before all stop; 0: none */
	int cpu_cells_asked; /* 1: the CPU workers hold cells whatever their speed (runtime.worker_speeds,
			      * runtime.balance = equal); 0: CPU workers asked for beside GPUs that would hold
			      * no cells (worth under FV_CPU_JOIN_SHARE of the GPUs) are not started */
} fv_runtime_opts_t;

void fv_runtime_opts_default(fv_runtime_opts_t *o);
/* Refuses, before StarPU starts, what StarPU would only warn about or
 * silently change: a scheduler (o->sched, STARPU_SCHED) that StarPU does
 * not have (the message lists those it has), and more CPU workers
 * (o->ncpu, else STARPU_NCPU) than the machine's cores unless
 * o->oversubscribe, or than StarPU's STARPU_MAXCPUS. fv_runtime_init calls
 * it; a caller may call it earlier, before any long set-up. */
fv_err_t fv_runtime_check_opts(const fv_runtime_opts_t *o);
/* Starts StarPU: a writable StarPU directory (STARPU_HOME when set, else
 * $HOME, else a directory under the temporary one, said on stderr), the
 * workers of o, the scheduler (o->sched, STARPU_SCHED, or the one chosen
 * for the workers found, said in one line on stderr when verbose), and
 * StarPU's own warnings silenced unless STARPU_SILENT is set to 0. */
fv_err_t fv_runtime_init(const fv_runtime_opts_t *o);
/* One process with GPUs, as soon as the case is read: a thread creates
 * the CUDA contexts of the GPUs StarPU will take (the first o->ncuda, or
 * STARPU_NCUDA, or all) while the mesh is read, instead of StarPU's
 * workers at its start (FVSTAR_CUDA_WARM=0: they do, as before).
 * fv_runtime_init waits for it; fv_runtime_warm_wait where StarPU never
 * starts (an error before it). */
void fv_runtime_warm_gpus(const fv_runtime_opts_t *o);
void fv_runtime_warm_wait(void);
/* Is that thread still creating the contexts? */
int fv_runtime_warm_busy(void);
/* 0 where no CUDA worker can run (runtime.ncuda = 0, STARPU_NCUDA=0,
 * CUDA_VISIBLE_DEVICES empty, a build without CUDA), 1 where one may:
 * told without starting the GPU's driver. */
int fv_runtime_cuda_wanted(const fv_runtime_opts_t *o);
/* Wakes the workers that fv_runtime_init left asleep (opts.paused: a
 * caller that still sets up, so that they do not poll for tasks on the
 * cores it uses); no effect otherwise. Before the first task or data
 * access that waits; fv_runtime_shutdown calls it. */
void fv_runtime_resume(void);
/* Puts the workers to sleep until fv_runtime_resume: the host's own work
 * between iterations (a restart file written) then has the cores the
 * CPU workers poll on. No task or data access that waits in between. */
void fv_runtime_pause(void);
void fv_runtime_shutdown(void);
/* Several ranks on one node (mpirun): fv_runtime_widen(1) gives this
 * rank's main thread and its set-up threads (OpenMP) every core of the
 * launcher for a while (rank 0 reading and cutting the whole mesh while
 * the other ranks wait for their parts, asleep), fv_runtime_widen(0) its
 * mask (mpirun's, or its share once fv_runtime_init placed it) and its
 * thread count back. Returns the threads of the widening, 0 where there
 * was none (one rank on the node, one core). */
int fv_runtime_widen(int on);
/* A rank of an MPI launcher on its share of the node's cores (its main
 * thread's mask), set-up threads included, from before the mesh is read;
 * fv_runtime_mpi_start does it, and a caller that widens before MPI
 * starts (rank 0 reading the mesh while MPI starts) first. No effect
 * outside a launcher or where the user placed the workers. */
void fv_runtime_place_early(void);
/* 1 when fv_runtime_init left the CPU cores out because a GPU was found
 * and no CPU worker count was asked for (runtime.ncpu, STARPU_NCPU). */
int fv_runtime_gpu_only_default(void);
/* The workers StarPU started, and the scheduler's name. */
void fv_runtime_workers(int *ncpu, int *ncuda);
const char *fv_runtime_sched_name(void);
/* Blocks for n_cells cells when the case says 0: one per GPU when only
 * GPUs work, else two per worker, at least 256 cells each. */
int fv_runtime_auto_blocks(long n_cells);
/* The worker block b's tasks run on (-1: the scheduler picks): with pin
 * set, placement[b] when placement is not NULL (fv_balance_t's worker of
 * speed-weighted blocks), else with several GPUs and no CPU worker, GPU b
 * mod n (a scheduler left to itself put both blocks of a 2-GPU run on one). */
int fv_runtime_block_worker(int block, int pin, const int *placement);
/* The GPUs' memory as StarPU manages it: for each CUDA memory node (at
 * most max), its size and the bytes StarPU holds there now, in bytes;
 * returns their count (0 without a GPU or on a build without CUDA). */
#define FV_RUNTIME_MAX_GPUS 64
int fv_runtime_device_memory(double *total, double *used, int max);
/* 1 when tasks given to worker (-1: any) can only run on a GPU: a CUDA
 * worker, or any worker where StarPU started no CPU worker. */
int fv_runtime_worker_gpu_only(int worker);
/* 1 when StarPU's host memory is pinned (page-locked, mapped into every
 * GPU's address space, where a kernel can read and write it): a CUDA
 * build without STARPU_DISABLE_PINNING. */
int fv_runtime_host_pinned(void);

/*
 * Ranks (src/runtime/ranks.c). Started by mpirun, fv_runtime_mpi_start
 * starts MPI (so that rank 0 can send each rank its mesh part before
 * StarPU starts) and fv_runtime_init StarPU-MPI; rank
 * fv_runtime_block_rank(b) owns block b (its data, and the halo buffers it
 * sends), and StarPU-MPI moves the buffers between ranks. Without mpirun:
 * one rank, plain StarPU, no MPI call.
 */
/* MPI alone (no StarPU yet), when started by an MPI launcher; a no-op
 * otherwise or when already started. fv_runtime_init calls it too. */
fv_err_t fv_runtime_mpi_start(void);
/* MPI's end when StarPU never started (fv_runtime_shutdown ends both). */
void fv_runtime_mpi_stop(void);
/* Bytes from this rank to rank `to` (any size), and their receipt into a
 * malloc'ed buffer; what names them in errors. Outside the task graph:
 * for the mesh parts rank 0 hands out, not for halos. */
fv_err_t fv_runtime_send_bytes(const void *buf, size_t bytes, int to, const char *what);
fv_err_t fv_runtime_recv_bytes(uint8_t **buf, size_t *bytes, int from, const char *what);
/* This process's rank (0 without MPI; before start-up, the launcher's). */
int fv_runtime_rank(void);
int fv_runtime_nranks(void);
/* The rank owning block b of n_blocks (n_blocks >= fv_runtime_nranks()):
 * rank_of[b] (the placement fv_blocks_to_ranks computes, the same on every
 * rank), else with rank_of NULL contiguous ranges of ids. */
int fv_runtime_block_rank(int block, int n_blocks, const int *rank_of);
/* FV_ERR_ARG unless every rank_of[b] is a rank of this run. */
fv_err_t fv_runtime_check_block_ranks(const int *rank_of, int n_blocks);
/* Every rank's piece of an array of bytes bytes, zero where another rank
 * holds the values, assembled on every rank (collective; exact). */
fv_err_t fv_runtime_combine(void *mem, size_t bytes, const char *what);
/* FV_ERR_ARG unless value is the same on every rank (collective); what
 * names it. */
fv_err_t fv_runtime_agree(long long value, const char *what);
/* Prints msg as this rank's error and, with several ranks, stops them all
 * (MPI_Abort, exit status 1): a rank that fails never leaves the others
 * waiting for it. */
void fv_runtime_fail(const char *msg);

/* Work sized to the workers' speed (src/runtime/balance.c). */
typedef enum fv_balance_kind {
	FV_BALANCE_SPEED = 0, /* blocks follow the workers' speeds, pinned to their worker */
	FV_BALANCE_EQUAL = 1  /* equal blocks, the scheduler places them */
} fv_balance_kind_t;
/* One GPU worker runs a stage this many times faster than one CPU worker
 * when no model says otherwise: an H100 did a stage 40x faster than the 16
 * cores of its node (bench/results/2026-11-22-solver-gpu.md). */
#define FV_GPU_SPEED_DEFAULT 640.0

/* CPU workers beside GPUs take part (join a run on a GPU node that asked
 * for no worker count; hold cells when runtime.ncpu added them) only when
 * they could add at least this share of the GPUs' speed: each CPU block
 * coupled to a GPU block costs a halo round trip every exchange, measured
 * at 4-17 % of the GPU's iteration for one CPU worker and 32-200 % for 14
 * (one H100 or H200 with 16 cores, 1M to 10M cells:
 * bench/results/2026-11-26-cpu-gpu-h100.md), where their 2.3 % could not
 * pay for it. */
#define FV_CPU_JOIN_SHARE 0.25

typedef struct fv_balance_opts {
	int balance;               /* fv_balance_kind_t */
	double gpu_speed;          /* runtime.gpu_speed; 0: models, else the default */
	const char *worker_speeds; /* "1,3": one per worker in StarPU's order; NULL/"": by type */
	int blocks;                /* partition.blocks; 0: automatic */
} fv_balance_opts_t;

typedef struct fv_balance {
	int n_blocks;
	double *weights;           /* [n_blocks] target shares; NULL: equal blocks */
	int *is_gpu;               /* [n_blocks] 1: a CUDA worker's block (NULL with equal blocks) */
	int *groups;               /* [n_blocks] CPU and CUDA workers: 0 GPU blocks, 1 CPU blocks, cut apart
				    * first (fv_partition_cells_weighted); else NULL */
	int *worker;               /* [n_blocks] the StarPU worker each block is pinned to (the placement the
				    * solver takes, fv_solver_opts_t.block_worker); NULL with equal blocks */
	char why[384];             /* the choice and where the speeds came from, for the start line */
} fv_balance_t;

/* After fv_runtime_init: the blocks for n_cells cells. Equal blocks (and
 * today's block count) when balance is equal, every worker has the same
 * speed or blocks is no multiple of the workers; else blocks per worker
 * (blocks / workers, one when blocks is 0),
 * weighted by the worker's speed and pinned to it (out->worker), GPU
 * blocks first. */
fv_err_t fv_runtime_balance(const fv_balance_opts_t *o, long n_cells, fv_balance_t *out);
void fv_runtime_balance_free(fv_balance_t *b);
/* How many CPU workers one GPU worker is worth: given when > 0, else the
 * ratio of StarPU's calibrated history models (sampling directory), else
 * FV_GPU_SPEED_DEFAULT; src says which. */
double fv_runtime_gpu_speed(double given, char *src, size_t n);
/* The CPU/GPU time ratio of the history models of the per-cell stages
 * (0 when none has both), over n_models stages. */
double fv_runtime_model_gpu_speed(int *n_models);
/* Worker utilisation: fv_runtime_busy_start resets StarPU's per-worker
 * profiling counters (when profiling is on: STARPU_PROFILING=1), and
 * fv_runtime_busy writes per worker "name:busy%" separated by spaces into
 * out (empty when profiling is off); returns the mean busy fraction. */
void fv_runtime_busy_start(void);
double fv_runtime_busy(char *out, size_t n);

/* Traces (src/runtime/trace.c). Before fv_runtime_init: with a trace
 * directory, runs this process again on the FxT build of StarPU if the
 * plain one is loaded (FxT costs time even when not recording), and makes
 * StarPU record into dir. After fv_runtime_shutdown: converts the FxT file
 * with starpu_fxt_tool into paje.trace (ViTE), tasks.rec, data.rec,
 * dag.dot and trace.rec, their times counted from the recording start,
 * and prints the trace's summary (fv_runtime_trace_summary) into summary
 * when not NULL. */
fv_err_t fv_runtime_trace_prepare(const char *dir, int argc, char **argv);
fv_err_t fv_runtime_trace_convert(const char *dir, FILE *summary);
/* 1 when dir holds an FxT file (prof_file_*) that fv_runtime_trace_convert
 * can convert. */
int fv_runtime_trace_has_fxt(const char *dir);
/* 1 when this run records a trace (fv_runtime_trace_prepare had a
 * directory and the FxT StarPU is loaded). Recording does not start with
 * StarPU: fv_runtime_trace_start waits for the tasks submitted so far and
 * starts it (the solver calls it at its first traced iteration), so that
 * mesh set-up and StarPU start-up stay out; fv_runtime_trace_stop ends it
 * (after the last iteration). Both do nothing when not tracing. */
/* The summary of a converted trace directory (tasks.rec): iterations,
 * tasks and time, per worker tasks, busy ms and %, GFlop/s of its tasks. */
fv_err_t fv_runtime_trace_summary(const char *dir, FILE *out);
int fv_runtime_tracing(void);
void fv_runtime_trace_start(void);
void fv_runtime_trace_stop(void);
/* Marks, while tracing: the tasks submitted after fv_runtime_trace_iteration
 * (iter) carry iteration iter, those after fv_runtime_trace_step(sub, name)
 * also sub-iteration sub (an RK stage, an implicit sweep), in tasks.rec
 * ("Iteration: iter sub") and paje.trace (the tasks' Iteration and
 * Subiteration), and each call leaves an event on the submitting thread
 * ("iteration 3", name). fv_runtime_trace_iteration(-1) ends the marks. */
void fv_runtime_trace_iteration(int iter);
void fv_runtime_trace_step(int sub, const char *name);

/* A tool script of fvstar (plot_trace.py): EXEDIR/FV_REL_LIBEXECDIR/fvstar/
 * NAME when installed there, else the source tree's tools/NAME. */
void fv_runtime_tool_path(const char *name, char *out, size_t n);

/* StarPU version, build options (CUDA, FxT, MPI, limits), scheduler, workers. */
void fv_runtime_print(FILE *out);
/* Runs the smoke codelet (y = a x + y) on every worker and compares with
 * the exact result; returns FV_ERR_RUNTIME naming the worker that failed.
 * n_cuda receives the number of CUDA workers that ran it. */
fv_err_t fv_runtime_selftest(size_t n, int *n_cuda, FILE *out);

/* Simulated machines (src/runtime/sim.c, doc/simgrid.md). 1 in fvstar-sim
 * (StarPU's SimGrid mode: tasks last what their models say, nothing is
 * computed). */
int fv_runtime_simulated(void);
/* Seconds on StarPU's clock: simulated time in fvstar-sim, else wall time. */
double fv_runtime_clock(void);
/* fvstar-sim, before fv_runtime_init: the platform and models of dir (a
 * saved sampling directory: bus/HOST.platform.v4.xml, HOST.bandwidth,
 * HOST.latency, codelets/45/), checked (errors name the file and line),
 * and StarPU pointed at it (STARPU_PERF_MODEL_DIR, STARPU_HOSTNAME); NULL:
 * StarPU's own sampling directory. Its CPU and CUDA hosts into *ncpu,
 * *ncuda (NULL: not wanted). */
fv_err_t fv_runtime_sim_platform(const char *dir, int *ncpu, int *ncuda);
/* What this rank's workers and buses did from fv_runtime_profile_start
 * (StarPU's profiling, which it turns on; simulated time in fvstar-sim) to
 * fv_runtime_profile_read: seconds executing tasks summed over the
 * workers of a kind, and bytes and transfers host to GPU [0], GPU to host
 * [1] and GPU to GPU [2]. */
typedef struct fv_sim_profile {
	double cpu_busy, cuda_busy;
	long long cpu_tasks, cuda_tasks; /* where the tasks ran: placement */
	double bytes[3];
	long long count[3];
} fv_sim_profile_t;
void fv_runtime_profile_start(void);
void fv_runtime_profile_read(fv_sim_profile_t *p);
/* fvstar sim calibrate under mpirun, after fv_runtime_mpi_start and
 * before fv_runtime_init (collective): rank 0 alone measures the bus into
 * root/rank0/bus unless it is there, and each other rank copies it into
 * root/rank<r>/bus unless that is there (ranks measuring at once on one
 * node made each other's transfers wait: 147 and 273 us host to GPU 0
 * instead of 10). No-op with one rank. */
fv_err_t fv_runtime_sim_bus_alone(const char *root);
/* The CPU and CUDA hosts of the platform fv_runtime_sim_platform read
 * (-1 before, or outside fvstar-sim). */
int fv_runtime_sim_cpus(void);
int fv_runtime_sim_gpus(void);
/* fvstar sim calibrate: the performance models record no task of
 * iterations 1 .. iter - 1, the warm-up (0, the default: every task).
 * The tasks before the first iteration run once a run and are recorded;
 * so are those from iteration iter on. A warm-up's tasks (first touch of
 * the blocks' pages, cold caches, the first copies to a GPU) ran 11 to
 * 34 % longer than the later ones and biased the CPU models.
 * fv_runtime_submitting(iter) says which iteration the tasks submitted
 * next belong to (-1: still the last one); fv_runtime_models_record
 * whether they go into the models. */
void fv_runtime_models_from(int iter);
void fv_runtime_submitting(int iter);
/* The submitting thread's seconds per task (real runs: iterations 2 on,
 * from each iteration's submission start to its end, since the last
 * reset; 0 before any). fvstar-sim charges the simulated seconds per task
 * of the platform folder (PLATFORM/fvstar.sim, read by
 * fv_runtime_sim_platform; 0: none but StarPU's own 1 us). */
double fv_runtime_submit_seconds_per_task(void);
void fv_runtime_submit_reset(void);
double fv_runtime_sim_submit_cost(void);
int fv_runtime_models_record(void);
/* Several ranks, a data-free run (fvstar sim dry --norms-apart): each
 * rank keeps its own rows of the residual norms, with no collective per
 * iteration, as simulated ranks do (fvstar-smpi never gathers them). */
void fv_runtime_norms_apart(int on);
/* Tasks submitted per stage (the task's name, a colour group's number
 * dropped): counted from fv_runtime_count_tasks(1) on (a new count) to
 * fv_runtime_count_tasks(0), read by index (NULL past the last). */
void fv_runtime_count_tasks(int on);
void fv_runtime_task_submitted(const char *name);
const char *fv_runtime_task_count(int i, long long *n);

#ifdef __cplusplus
}
#endif
#endif
