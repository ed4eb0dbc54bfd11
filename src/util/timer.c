/* SPDX-License-Identifier: MIT */
/* Wall-clock time and resident memory (Linux /proc, getrusage). */
#include "util/timer.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

double fv_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

size_t fv_peak_rss(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (size_t)ru.ru_maxrss * 1024;
}

size_t fv_current_rss(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return 0;
	if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
		resident = 0;
	fclose(f);
	return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

static fv_lap_t laps[FV_LAPS_MAX];
static int n_laps;

static int lap_index(const char *name)
{
	int i = 0;
	while (i < n_laps && strcmp(laps[i].name, name) != 0)
		i++;
	if (i == n_laps && n_laps < FV_LAPS_MAX)
		laps[n_laps++] = (fv_lap_t){.name = name};
	return i < n_laps ? i : -1;
}

void fv_lap_note(const char *name, const char *fmt, ...)
{
	int i = lap_index(name);
	va_list ap;
	if (i < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(laps[i].note, sizeof laps[i].note, fmt, ap);
	va_end(ap);
}

double fv_lap(const char *name, double t0)
{
	double t = fv_now();
	int i = lap_index(name);
	if (i >= 0) {
		laps[i].seconds += t - t0;
		laps[i].rss = fv_current_rss();
		laps[i].peak = fv_peak_rss();
	}
	return fv_now();
}

int fv_laps(const fv_lap_t **out)
{
	*out = laps;
	return n_laps;
}

/* The process's start on fv_now()'s clock: the start time in ticks since
 * boot (field 22 of /proc/self/stat, after the command's name, which may
 * hold spaces and parentheses) against CLOCK_BOOTTIME now. */
static double start_on_now_clock(void)
{
	char buf[1024], *p;
	unsigned long long ticks = 0;
	struct timespec boot;
	size_t n;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/self/stat", "r");
	if (!f)
		return fv_now();
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* after ')': state (field 3) ... starttime (field 22) */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &ticks) != 1 || hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &boot) != 0)
		return fv_now();
	return fv_now() - ((double)boot.tv_sec + 1e-9 * (double)boot.tv_nsec - (double)ticks / (double)hz);
}

static double process_start = -1;
static fv_mark_t marks[FV_MARKS_MAX];
static int n_marks;

double fv_since_start(void)
{
	if (process_start < 0)
		process_start = start_on_now_clock();
	return fv_now() - process_start;
}

static pthread_mutex_t marks_lock = PTHREAD_MUTEX_INITIALIZER;

void fv_mark(const char *name)
{
	double at;
	int i = 0;
	pthread_mutex_lock(&marks_lock);
	at = fv_since_start(); /* in the lock: the table in time order */
	while (i < n_marks && strcmp(marks[i].name, name) != 0)
		i++;
	if (i == n_marks && n_marks < FV_MARKS_MAX)
		n_marks++;
	if (i < n_marks)
		marks[i] = (fv_mark_t){.name = name, .at = at};
	pthread_mutex_unlock(&marks_lock);
}

int fv_marks(const fv_mark_t **out)
{
	int n;
	pthread_mutex_lock(&marks_lock);
	n = n_marks;
	pthread_mutex_unlock(&marks_lock);
	*out = marks;
	return n;
}

static int exit_say;

static void exit_line(void)
{
	if (exit_say)
		fprintf(stderr, "fvstar: exit handlers done at %.3f s\n", fv_since_start());
}

void fv_mark_exit_install(void)
{
	(void)atexit(exit_line);
}

void fv_mark_exit_say(int on)
{
	exit_say = on;
}
