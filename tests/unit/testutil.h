/* SPDX-License-Identifier: MIT */
/* Helpers shared by the cmocka unit tests. */
#ifndef FVSTAR_TESTUTIL_H
#define FVSTAR_TESTUTIL_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "fvstar/mesh.h"

/* Fails the test with the error message when expr is not FV_OK. */
#define FV_ASSERT_OK(expr)                                                 \
	do {                                                               \
		fv_err_t fv_t_err_ = (expr);                               \
		if (fv_t_err_ != FV_OK)                                    \
			fail_msg("%s failed: %s", #expr, fv_errmsg());     \
	} while (0)

/* Asserts that expr fails with code and that the message contains part. */
#define FV_ASSERT_ERR(expr, code, part)                                    \
	do {                                                               \
		fv_error_clear();                                          \
		fv_err_t fv_t_err_ = (expr);                               \
		if (fv_t_err_ != (code))                                   \
			fail_msg("%s returned %d, expected %d (%s)", #expr,  \
				 (int)fv_t_err_, (int)(code), fv_errmsg()); \
		if (!strstr(fv_errmsg(), (part)))                          \
			fail_msg("message '%s' lacks '%s'", fv_errmsg(), (part)); \
	} while (0)

/* The whole file at path, NUL-terminated (free it); its length in *len
 * when len is not NULL. Fails the test when the file cannot be read. */
static inline char *fv_test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	if (!f)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = (size_t)n;
	return buf;
}

/* Options of fv_mesh_gen_box: nx x ny x nz blocks of kind cells between
 * lo and hi, nodes perturbed by perturb with seed. */
static inline fv_gen_opts_t fv_test_box_opts(fv_gen_cells_t kind, int nx, int ny, int nz, double perturb,
					     unsigned long seed, const double lo[3], const double hi[3])
{
	fv_gen_opts_t o;
	fv_gen_opts_default(&o);
	o.cells = kind;
	o.nx = nx;
	o.ny = ny;
	o.nz = nz;
	o.perturb = perturb;
	o.seed = seed;
	for (int d = 0; d < 3; d++) {
		o.lo[d] = lo[d];
		o.hi[d] = hi[d];
	}
	return o;
}

/* A tolerance stated for double precision, scaled to the build's
 * precision (x 5.4e8 with --enable-single). */
/* The temporary files of path (path.tmp, path.tmp.PID.N) left in its
 * directory: a writer that finished or failed leaves none. */
static inline int fv_test_tmp_left(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[1024], prefix[512];
	int n = 0;
	struct dirent *e;
	DIR *d;
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	snprintf(prefix, sizeof prefix, "%s.tmp", slash ? slash + 1 : path);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return n;
}

#define FV_TOL(t) ((t) * (FV_REAL_EPS / 2.220446049250313e-16))

/* |a - b| <= tol * max(1, |b|) */
#define FV_ASSERT_NEAR(a, b, tol)                                          \
	do {                                                               \
		double fv_t_a_ = (a), fv_t_b_ = (b);                       \
		double fv_t_s_ = fabs(fv_t_b_) > 1 ? fabs(fv_t_b_) : 1;   \
		if (!(fabs(fv_t_a_ - fv_t_b_) <= (tol) * fv_t_s_))         \
			fail_msg("%s = %.17g, expected %.17g (tol %g)", #a, \
				 fv_t_a_, fv_t_b_, (double)(tol));          \
	} while (0)

#endif
