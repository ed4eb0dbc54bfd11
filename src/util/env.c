/* SPDX-License-Identifier: MIT */
/* fvstar's FVSTAR_* environment variables: strict counts and switches. */
#include "util/env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fvstar/types.h"
#include "util/threads.h"

fv_err_t fv_env_count(const char *name, unsigned long long lo, unsigned long long hi, unsigned long long dflt,
		      const char *what, unsigned long long *v)
{
	const char *e = getenv(name);
	char *end;
	unsigned long long x;
	*v = dflt;
	if (!e || !*e)
		return FV_OK;
	errno = 0;
	x = strtoull(e, &end, 10);
	FV_CHECK(e[0] >= '0' && e[0] <= '9' && *end == '\0' && errno == 0 && x >= lo && x <= hi, FV_ERR_ARG,
		 "%s=%s: expected a whole number from %llu to %llu (%s)", name, e, lo, hi, what);
	*v = x;
	return FV_OK;
}

fv_err_t fv_env_switch(const char *name, int dflt, int *v)
{
	const char *e = getenv(name);
	*v = dflt;
	if (!e || !*e)
		return FV_OK;
	FV_CHECK((e[0] == '0' || e[0] == '1') && e[1] == '\0', FV_ERR_ARG, "%s=%s: expected 0 or 1", name, e);
	*v = e[0] == '1';
	return FV_OK;
}

/* Every FVSTAR_* variable the set-up reads as a count, a switch or one of
 * a few words: FVSTAR_ORDER (with its chunks:N and chain:N) is checked where the cells
 * are ordered, which every run and partition reaches; the rest here,
 * since some are read only on some paths (the device-side geometry with
 * a GPU, the parallel RCM on large blocks) or where no error can be
 * returned. Their readers keep their own checks (the library's users). */
static const struct {
	const char *name;
	unsigned long long lo, hi; /* a count; hi == 0: a switch or words */
	const char *what;          /* the count's meaning, or the words */
} vars[] = {
	{"FVSTAR_SETUP_CELLS_PER_THREAD", 0, FV_CELLS_PER_THREAD_MAX, "cells a set-up thread takes; 0: every thread"},
	{"FVSTAR_MEMORY_AVAILABLE", 1, 1ULL << 60, "bytes of host memory the node has free"},
	{"FVSTAR_GEO_CHUNK", 1, FV_IDX_MAX, "owned cells a geometry section holds"},
	{"FVSTAR_MPI", 0, 0, NULL},
	{"FVSTAR_HALO_FETCH", 0, 0, NULL},
	{"FVSTAR_CUDA_WARM", 0, 0, NULL},
	{"FVSTAR_CUDA_WARM_SPARE", 0, 0, NULL},
	{"FVSTAR_OUTPUTS_BESIDE_STOP", 0, 0, NULL},
	{"FVSTAR_PARTS_BESIDE_MPI", 0, 0, NULL},
	{"FVSTAR_STARPU_BESIDE_READ", 0, 0, NULL},
	{"FVSTAR_OMP_PASSIVE", 0, 0, NULL},
	{"FVSTAR_GEO_DEVICE", 0, 0, NULL},
	{"FVSTAR_GEO_HOST", 0, 0, NULL},
	{"FVSTAR_PIN", 0, 0, "register alloc no"},
	{"FVSTAR_LAZY_FIELDS", 0, 0, "gpu all none"},
	{"FVSTAR_RCM_THREADS", 0, 0, "all one switch probe"},
};

/* "a, b or c" of the words w */
static void words_text(const char *w, char *out, size_t n)
{
	size_t k = 0, nw = 1, i = 0;
	for (const char *p = w; *p; p++)
		nw += *p == ' ';
	for (const char *p = w; *p && k + 8 < n; i++) {
		size_t len = strcspn(p, " ");
		k += (size_t)snprintf(out + k, n - k, "%s%.*s", i == 0 ? "" : i + 1 == nw ? " or " : ", ", (int)len, p);
		p += len + (p[len] == ' ');
	}
}

/* Is e one of the words w? */
static int is_word(const char *e, const char *w)
{
	size_t n = strlen(e);
	for (const char *p = w; *p;) {
		size_t len = strcspn(p, " ");
		if (len == n && strncmp(p, e, n) == 0)
			return 1;
		p += len + (p[len] == ' ');
	}
	return 0;
}

fv_err_t fv_env_check(void)
{
	unsigned long long n;
	int s;
	char text[128];
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *e = getenv(vars[i].name);
		if (vars[i].hi)
			FV_CALL(fv_env_count(vars[i].name, vars[i].lo, vars[i].hi, vars[i].lo, vars[i].what, &n));
		else if (!vars[i].what)
			FV_CALL(fv_env_switch(vars[i].name, 0, &s));
		else if (e && *e && !is_word(e, vars[i].what)) {
			words_text(vars[i].what, text, sizeof text);
			return FV_ERROR(FV_ERR_ARG, "%s=%s: expected %s", vars[i].name, e, text);
		}
	}
	return FV_OK;
}
