/* SPDX-License-Identifier: MIT */
/* The runtime (StarPU) as the rest of fvstar sees it: start-up and
 * shutdown, the workers it found, where blocks run, execution traces.
 * Data and tasks: src/runtime/data.h and codelets/insert.h. */
#ifndef FVSTAR_RUNTIME_H
#define FVSTAR_RUNTIME_H

#include <stddef.h>
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
} fv_runtime_opts_t;

void fv_runtime_opts_default(fv_runtime_opts_t *o);
/* Starts StarPU: a writable StarPU directory (STARPU_HOME when set, else
 * $HOME, else a directory under the temporary one, said on stderr), the
 * workers of o, the scheduler (o->sched, STARPU_SCHED, or the one chosen
 * for the workers found, said in one line on stderr when verbose), and
 * StarPU's own warnings silenced unless STARPU_SILENT is set to 0. */
fv_err_t fv_runtime_init(const fv_runtime_opts_t *o);
void fv_runtime_shutdown(void);
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
 * set, several GPUs and no CPU worker, GPU b mod n (a scheduler left to
 * itself put both blocks of a 2-GPU run on one). */
int fv_runtime_block_worker(int block, int pin);

/*
 * Ranks (src/runtime/ranks.c). Started by mpirun, fv_runtime_init starts
 * StarPU-MPI: every rank reads the case and the mesh and cuts the same
 * blocks; rank fv_runtime_block_rank(b) owns block b (its data, and the
 * halo buffers it sends), and StarPU-MPI moves the buffers between ranks.
 * Without mpirun: one rank, plain StarPU.
 */
/* This process's rank (0 without MPI; before start-up, the launcher's). */
int fv_runtime_rank(void);
int fv_runtime_nranks(void);
/* The rank owning block b of n_blocks (n_blocks >= fv_runtime_nranks()):
 * the map of fv_runtime_set_block_ranks for that block count, else
 * contiguous ranges of ids. */
int fv_runtime_block_rank(int block, int n_blocks);
/* Block b belongs to rank rank_of[b] (every rank sets the same map, before
 * the solver is created; fv_blocks_to_ranks computes one). */
fv_err_t fv_runtime_set_block_ranks(const int *rank_of, int n_blocks);
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

#ifdef __cplusplus
}
#endif
#endif
