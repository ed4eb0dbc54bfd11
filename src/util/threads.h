/* SPDX-License-Identifier: MIT */
/* The set-up's threads: OpenMP loops where the compiler has OpenMP, the
 * same loops on one thread otherwise (FV_OMP expands to nothing). */
#ifndef FV_UTIL_THREADS_H
#define FV_UTIL_THREADS_H

#include <stddef.h>
#include <string.h>

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
