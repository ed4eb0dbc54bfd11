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

/* Set-up laps: the steps inside the set-up's phases (renumbering, local
 * meshes, the solver's geometry and fields...), each named, timed and with
 * the resident memory at its end and the peak so far, for the run's report (summary.json's
 * setup_steps). From the main thread only; a name seen again adds its
 * seconds to the first one's. fv_lap(name, t0) records fv_now() - t0 and
 * returns fv_now(), the next step's start. */
#define FV_LAPS_MAX 48
typedef struct fv_lap {
	const char *name; /* a string literal */
	double seconds;
	size_t rss;       /* bytes resident at the step's end */
	size_t peak;      /* the process's peak resident bytes so far: which step reached the run's peak */
	char note[256];   /* what the step chose (fv_lap_note), or empty */
} fv_lap_t;
double fv_lap(const char *name, double t0);
/* A note on step name (created if not yet timed): a choice made inside
 * it, e.g. the RCM's threads; the latest note stays. */
void fv_lap_note(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The laps so far: their count, *laps set to the table. */
int fv_laps(const fv_lap_t **laps);

/* The process's timeline: seconds since the kernel started the process
 * (its start time in /proc/self/stat, 10 ms ticks; 0 where unknown), so
 * that what comes before main (loading the libraries) and after the
 * iterations (outputs, StarPU's stop, freeing) shows beside the set-up
 * and the loop. fv_mark(name) records now under name (a string literal;
 * from any thread; a name seen again takes the later time). */
#define FV_MARKS_MAX 16
typedef struct fv_mark {
	const char *name;
	double at; /* seconds since the process started */
} fv_mark_t;
double fv_since_start(void);
void fv_mark(const char *name);
int fv_marks(const fv_mark_t **marks);
/* At the process's end, after every exit handler registered later (the
 * CUDA runtime's, StarPU's), the line "fvstar: exit handlers done at T s"
 * on stderr once fv_mark_exit_say(1) was called: call it first in main. */
void fv_mark_exit_install(void);
void fv_mark_exit_say(int on);

#endif
