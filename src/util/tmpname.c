/* SPDX-License-Identifier: MIT */
/* Temporary file names unique to the process (pid) and to the call (a
 * counter), so that writers never rename each other's files. */
#include "util/tmpname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned counter;

int fv_tmp_name(char *buf, size_t n, const char *path)
{
	unsigned k = __atomic_fetch_add(&counter, 1u, __ATOMIC_RELAXED);
	int w = snprintf(buf, n, "%s.tmp.%ld.%u", path, (long)getpid(), k);
	return w < 0 || (size_t)w >= n ? -1 : 0;
}

char *fv_tmp_name_alloc(const char *path)
{
	size_t n = strlen(path) + 48;
	char *buf = malloc(n);
	if (buf && fv_tmp_name(buf, n, path) != 0) {
		free(buf);
		buf = NULL;
	}
	return buf;
}
