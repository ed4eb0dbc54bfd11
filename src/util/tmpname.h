/* SPDX-License-Identifier: MIT */
/* Names of temporary files that no other process or thread picks: a file
 * written beside its final name and renamed over it when complete. */
#ifndef FVSTAR_UTIL_TMPNAME_H
#define FVSTAR_UTIL_TMPNAME_H

#include <stddef.h>
#include <stdio.h>

#include "fvstar/error.h"

/* "path.tmp.PID.N" into buf (n bytes), N counting this process's names:
 * two runs (or two writers of one run) never share a temporary file. 0,
 * or -1 when it does not fit. */
int fv_tmp_name(char *buf, size_t n, const char *path);
/* The same, allocated (free it); NULL when out of memory. */
char *fv_tmp_name_alloc(const char *path);

/* A file written under such a name and renamed over path once complete, so
 * that a reader never sees half of it and a failed write leaves the old
 * file: fv_tmp_open opens *f on the temporary name *tmp (fopen's mode;
 * errors name path); fv_tmp_close closes f and renames *tmp over path when
 * err is FV_OK and the close succeeds, removes it otherwise, frees tmp and
 * returns err or the close's or the rename's failure. */
fv_err_t fv_tmp_open(const char *path, const char *mode, char **tmp, FILE **f);
fv_err_t fv_tmp_close(FILE *f, char *tmp, const char *path, fv_err_t err);

#endif
