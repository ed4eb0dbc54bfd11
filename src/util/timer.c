/* SPDX-License-Identifier: MIT */
/* Wall-clock time and resident memory (Linux /proc, getrusage). */
#include "util/timer.h"

#include <stdio.h>
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
