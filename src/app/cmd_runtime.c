/* SPDX-License-Identifier: MIT */
/* `fvstar runtime info|check`: what StarPU sees on this node, and a codelet
 * run on every worker (CPU and CUDA) with an exact result. */
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "fvstar/runtime.h"

fv_err_t fv_cmd_runtime(int argc, char **argv)
{
	fv_runtime_opts_t o;
	fv_err_t err;
	int n_cuda = 0, check;
	FV_CHECK(argc == 2 && (strcmp(argv[1], "info") == 0 || strcmp(argv[1], "check") == 0), FV_ERR_ARG,
		 "usage: fvstar runtime info|check");
	check = strcmp(argv[1], "check") == 0;
	fv_runtime_opts_default(&o);
	FV_CALL(fv_runtime_init(&o));
	fv_runtime_print(stdout);
	err = check ? fv_runtime_selftest(1 << 20, &n_cuda, stdout) : FV_OK;
	fv_runtime_shutdown();
	return err;
}
