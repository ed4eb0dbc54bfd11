/* SPDX-License-Identifier: MIT */
/* StarPU start-up and shutdown, and what the runtime found on this node. */
#ifndef FVSTAR_RUNTIME_H
#define FVSTAR_RUNTIME_H

#include <stdio.h>

#include "fvstar/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fv_runtime_opts {
	const char *sched;   /* NULL: STARPU_SCHED or StarPU's default */
	int ncpu;            /* -1: STARPU_NCPU, else 0 when a GPU is used, else all cores */
	int ncuda;           /* -1: StarPU's default (STARPU_NCUDA or all GPUs) */
} fv_runtime_opts_t;

void fv_runtime_opts_default(fv_runtime_opts_t *o);
fv_err_t fv_runtime_init(const fv_runtime_opts_t *o);
void fv_runtime_shutdown(void);
/* 1 when fv_runtime_init left the CPU cores out because a GPU was found
 * and no CPU worker count was asked for (runtime.ncpu, STARPU_NCPU). */
int fv_runtime_gpu_only_default(void);
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
