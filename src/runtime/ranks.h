/* SPDX-License-Identifier: MIT */
/* StarPU-MPI inside the runtime: start-up in place of starpu_init when the
 * process was started by mpirun, shutdown, the wait for every task and
 * message (src/runtime/ranks.c). The rest of fvstar sees ranks through
 * fvstar/runtime.h. */
#ifndef FVSTAR_RUNTIME_RANKS_H
#define FVSTAR_RUNTIME_RANKS_H

#include <starpu.h>

#include "fvstar/error.h"

/* 1 when fv_runtime_init is to start StarPU-MPI: the process was started
 * by an MPI launcher (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK), or
 * FVSTAR_MPI=1 (FVSTAR_MPI=0 keeps plain StarPU under mpirun). */
int fv_ranks_wanted(void);
/* MPI (MPI_THREAD_MULTIPLE) and StarPU-MPI with conf, instead of
 * starpu_init. A build without StarPU-MPI: FV_ERR_RUNTIME under mpirun with
 * several ranks (the copies would write the same files), else FV_OK without
 * starting anything (fv_ranks_up() stays 0). */
fv_err_t fv_ranks_start(struct starpu_conf *conf);
int fv_ranks_up(void);
void fv_ranks_stop(void);
/* Every task and every message of every rank done (collective). */
void fv_ranks_wait_all(void);

/* The watchdog of several ranks (src/runtime/watchdog.c): after
 * fv_ranks_start, heartbeats between the ranks on a thread of their own;
 * a rank silent for `seconds` (or 20 running iteration times when longer),
 * or, all alive, a driver waiting that long for the ranks' data, stops
 * every rank (fv_runtime_fail) with a message naming the silent or late
 * ranks. No-op with one rank or seconds <= 0. Stopped (with a goodbye to
 * the other ranks) before StarPU-MPI's shutdown. */
fv_err_t fv_ranks_watchdog_start(double seconds);
/* A communicator of its own for the watchdog (out: an MPI_Comm *), from the
 * driver thread; MPI's return code. */
int fv_ranks_dup_comm(void *out);
void fv_ranks_watchdog_stop(void);
/* The driver waits for an iteration's reductions (which need every rank's
 * halos), and has them: one iteration ended. */
void fv_ranks_watch_wait(void);
void fv_ranks_watch_done(void);

#endif
