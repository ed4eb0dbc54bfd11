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
	{
		/* what runtime.balance = speed takes when runtime.gpu_speed = 0 */
		int nm = 0;
		double r = fv_runtime_model_gpu_speed(&nm);
		if (r > 0)
			printf("performance models: a CUDA worker runs the per-cell stages %.4g times as fast as a CPU "
			       "worker (%d stages; runtime.gpu_speed = 0 takes this)\n",
			       r, nm);
		else
			printf("performance models: none holds CPU and CUDA times of a per-cell stage (runtime.gpu_speed = "
			       "0 takes %g)\n",
			       FV_GPU_SPEED_DEFAULT);
	}
	err = check ? fv_runtime_selftest(1 << 20, &n_cuda, stdout) : FV_OK;
	fv_runtime_shutdown();
	return err;
}
