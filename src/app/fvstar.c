/* SPDX-License-Identifier: MIT */
/* The fvstar command: dispatch to sub-commands, one error report, exit codes
 * (0 success, 1 failure, 2 bad usage). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "config.h"
#include "fvstar/types.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: fvstar COMMAND [ARGS]\n"
		"\n"
		"  fvstar run CASE.cfg [section.key=value ...]   solve; writes into the output directory\n"
		"  fvstar surface CASE.cfg [--stations E,..] [--exp FILE] [--out DIR]  wall Cp at span stations\n"
		"  fvstar mesh info MESH                 counts, cell types, markers, ranges, checks\n"
		"  fvstar mesh gen box|ramp [OPTIONS] -o OUT   generate a mesh (.su2 or .vtu)\n"
		"  fvstar mesh refine MESH -o OUT [--levels K] uniform refinement (x8 per level)\n"
		"  fvstar mesh convert MESH -o OUT       write .su2 or .vtu\n"
		"  fvstar mesh color MESH [--method M]   face colour groups: greedy, minimal or both\n"
		"  fvstar bench stage CASE.cfg [key=value ...] [--iterations N] [--warmup N] [--history F] [--json F]\n"
		"                                        the case's kernels on one GPU without StarPU (bare driver)\n"
		"  fvstar bench kernels [ARGS]           the papers' kernel experiments (bench/bench_kernels)\n"
		"  fvstar runtime info                   StarPU build, scheduler and workers\n"
		"  fvstar runtime check                  run a codelet on every worker\n"
		"  fvstar --version\n"
		"\n"
		"Run 'fvstar mesh --help' for the options of each mesh command.\n");
}

fv_err_t fv_opt_long(const char *opt, const char *s, long lo, long hi, long *v)
{
	char *end;
	errno = 0;
	long x = strtol(s, &end, 10);
	FV_CHECK(s[0] && *end == '\0' && errno == 0 && x >= lo && x <= hi, FV_ERR_ARG,
		 "option %s: '%s' is not an integer in [%ld, %ld]", opt, s, lo, hi);
	*v = x;
	return FV_OK;
}

fv_err_t fv_opt_double(const char *opt, const char *s, double lo, double hi, double *v)
{
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	FV_CHECK(s[0] && *end == '\0' && errno == 0 && isfinite(x) && x >= lo && x <= hi, FV_ERR_ARG,
		 "option %s: '%s' is not a number in [%g, %g]", opt, s, lo, hi);
	*v = x;
	return FV_OK;
}

fv_err_t fv_opt_vec3(const char *opt, const char *s, double v[3])
{
	char *end;
	const char *p = s;
	for (int d = 0; d < 3; d++) {
		errno = 0;
		v[d] = strtod(p, &end);
		FV_CHECK(end != p && errno == 0 && isfinite(v[d]) && *end == (d < 2 ? ',' : '\0'), FV_ERR_ARG,
			 "option %s: '%s' is not x,y,z", opt, s);
		p = end + 1;
	}
	return FV_OK;
}

int main(int argc, char **argv)
{
	fv_err_t err;
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("fvstar %s (%s precision)\n", PACKAGE_VERSION, FV_REAL_NAME);
		return 0;
	}
	if (strcmp(argv[1], "mesh") == 0)
		err = fv_cmd_mesh(argc - 1, argv + 1);
	else if (strcmp(argv[1], "run") == 0)
		err = fv_cmd_run(argc - 1, argv + 1);
	else if (strcmp(argv[1], "surface") == 0)
		err = fv_cmd_surface(argc - 1, argv + 1);
	else if (strcmp(argv[1], "bench") == 0)
		err = fv_cmd_bench(argc - 1, argv + 1);
	else if (strcmp(argv[1], "runtime") == 0)
		err = fv_cmd_runtime(argc - 1, argv + 1);
	else
		err = FV_ERROR(FV_ERR_ARG, "unknown command '%s' (try fvstar --help)", argv[1]);
	if (err != FV_OK) {
		fprintf(stderr, "fvstar: error: %s\n", fv_errmsg());
		return err == FV_ERR_ARG ? 2 : 1;
	}
	return 0;
}
