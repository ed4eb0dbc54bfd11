/* SPDX-License-Identifier: MIT */
/* Wall-clock time and resident memory, for reports and benchmarks. */
#ifndef FVSTAR_TIMER_H
#define FVSTAR_TIMER_H

#include <stddef.h>

/* Seconds on a monotonic clock. */
double fv_now(void);
/* Peak resident set size of this process in bytes (0 if unknown). */
size_t fv_peak_rss(void);
/* Current resident set size in bytes (0 if unknown). */
size_t fv_current_rss(void);

#endif
