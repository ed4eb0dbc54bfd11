/* SPDX-License-Identifier: MIT */
/* Temporary file names unique to the process (pid) and to the call (a
 * counter), so that writers never rename each other's files. */
#include "util/tmpname.h"

#include <errno.h>
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

fv_err_t fv_tmp_open(const char *path, const char *mode, char **tmp, FILE **f)
{
	*f = NULL;
	*tmp = fv_tmp_name_alloc(path);
	FV_CHECK(*tmp, FV_ERR_MEM, "%s: out of memory for the temporary file name", path);
	*f = fopen(*tmp, mode);
	if (!*f) {
		int e = errno;
		FV_FREE(*tmp);
		return FV_ERROR(FV_ERR_IO, "%s: cannot write: %s", path, strerror(e));
	}
	return FV_OK;
}

fv_err_t fv_tmp_close(FILE *f, char *tmp, const char *path, fv_err_t err)
{
	errno = 0;
	if (fclose(f) != 0 && err == FV_OK)
		err = FV_ERROR(FV_ERR_IO, "%s: write failed: %s", path, strerror(errno ? errno : EIO));
	if (err == FV_OK && rename(tmp, path) != 0)
		err = FV_ERROR(FV_ERR_IO, "%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
	if (err != FV_OK)
		remove(tmp);
	free(tmp);
	return err;
}
