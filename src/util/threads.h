/* SPDX-License-Identifier: MIT */
/* The set-up's threads: OpenMP loops where the compiler has OpenMP, the
 * same loops on one thread otherwise (FV_OMP expands to nothing). */
#ifndef FV_UTIL_THREADS_H
#define FV_UTIL_THREADS_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/env.h"

#ifdef _OPENMP
#include <omp.h>
#define FV_PRAGMA(x) _Pragma(#x)
/* FV_OMP(parallel for schedule(static)) */
#define FV_OMP(x) FV_PRAGMA(omp x)
static inline int fv_threads_max(void) { return omp_get_max_threads(); }
static inline int fv_thread_num(void) { return omp_get_thread_num(); }
static inline int fv_threads_now(void) { return omp_get_num_threads(); }
static inline void fv_threads_set(int n) { omp_set_num_threads(n > 0 ? n : 1); }
#else
#define FV_OMP(x)
static inline int fv_threads_max(void) { return 1; }
static inline int fv_thread_num(void) { return 0; }
static inline int fv_threads_now(void) { return 1; }
static inline void fv_threads_set(int n) { (void)n; }
#endif

/* Loops shorter than this stay on one thread: waking the others costs
 * more than the work. */
#define FV_PAR_MIN 20000

/* Cells (or faces, nodes) a set-up thread takes at least where the
 * threads are chosen from the work (fv_threads_for): fewer each, and
 * starting them, their barriers and the first touch of their pages cost
 * more than they bring (a 663k-cell box set up in 5.03 s on 64 threads
 * against 1.08 s on 16: session 18 call 4). FVSTAR_SETUP_CELLS_PER_THREAD
 * sets it for a run's phases (src/app/plan.c). */
#define FV_CELLS_PER_THREAD 32768

/* The threads n items of work are worth: one per per_thread items (0:
 * every thread), at least one, at most fv_threads_max(). */
static inline int fv_threads_for(size_t n, size_t per_thread)
{
	int max = fv_threads_max();
	size_t k = per_thread > 0 ? n / per_thread : (size_t)max;
	return k < 1 ? 1 : k > (size_t)max ? max : (int)k;
}

/* The largest FVSTAR_SETUP_CELLS_PER_THREAD: one thread for any mesh. */
#define FV_CELLS_PER_THREAD_MAX 1000000000000ULL

/* FV_CELLS_PER_THREAD, or FVSTAR_SETUP_CELLS_PER_THREAD (0: every thread,
 * whatever the work). A bad value is refused by fv_env_check before any
 * command starts (src/util/env.c); here it would give the default. */
static inline size_t fv_cells_per_thread(void)
{
	unsigned long long v;
	if (fv_env_count("FVSTAR_SETUP_CELLS_PER_THREAD", 0, FV_CELLS_PER_THREAD_MAX, FV_CELLS_PER_THREAD, "", &v) !=
	    FV_OK)
		return FV_CELLS_PER_THREAD;
	return (size_t)v;
}

/* The threads capped at what n cells are worth (fv_threads_for with
 * fv_cells_per_thread()) until fv_threads_set(the count returned). */
static inline int fv_threads_cap(size_t n)
{
	int was = fv_threads_max();
	fv_threads_set(fv_threads_for(n, fv_cells_per_thread()));
	return was;
}

/* Part t of nt of [0, n): contiguous and the same for every call, so a
 * per-thread count and the pass that uses it see the same items. */
static inline void fv_par_range(size_t n, int t, int nt, size_t *lo, size_t *hi)
{
	*lo = n * (size_t)t / (size_t)nt;
	*hi = n * (size_t)(t + 1) / (size_t)nt;
}

/* memset by all threads, each its own contiguous part, so the pages of a
 * fresh array are faulted in (zeroed by the kernel) on every core at once
 * and first touched by the thread whose static loop part uses them. */
static inline void fv_par_memset(void *p, int byte, size_t bytes)
{
	if (bytes < ((size_t)1 << 20)) {
		memset(p, byte, bytes);
		return;
	}
	FV_OMP(parallel)
	{
		size_t lo, hi;
		fv_par_range(bytes, fv_thread_num(), fv_threads_now(), &lo, &hi);
		memset((char *)p + lo, byte, hi - lo);
	}
}

/* memcpy by all threads, each its own contiguous part (first touch of
 * fresh pages where dst is new, as fv_par_memset). */
static inline void fv_par_memcpy(void *dst, const void *src, size_t bytes)
{
	if (bytes < ((size_t)1 << 20)) {
		memcpy(dst, src, bytes);
		return;
	}
	FV_OMP(parallel)
	{
		size_t lo, hi;
		fv_par_range(bytes, fv_thread_num(), fv_threads_now(), &lo, &hi);
		memcpy((char *)dst + lo, (const char *)src + lo, hi - lo);
	}
}

#endif
