/* SPDX-License-Identifier: MIT */
/* Names of temporary files that no other process or thread picks: a file
 * written beside its final name and renamed over it when complete. */
#ifndef FVSTAR_UTIL_TMPNAME_H
#define FVSTAR_UTIL_TMPNAME_H

#include <stddef.h>

/* "path.tmp.PID.N" into buf (n bytes), N counting this process's names:
 * two runs (or two writers of one run) never share a temporary file. 0,
 * or -1 when it does not fit. */
int fv_tmp_name(char *buf, size_t n, const char *path);
/* The same, allocated (free it); NULL when out of memory. */
char *fv_tmp_name_alloc(const char *path);

#endif
