/* SPDX-License-Identifier: MIT */
/* Wall-clock time and resident memory (Linux /proc, getrusage). */
#include "util/timer.h"

#include <stdarg.h>
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
