/* SPDX-License-Identifier: MIT */
/* A StarPU codelet on every worker, CUDA included, with an exact result.
 * Run as: tests/gpu/test_starpu_codelet (exit 77 = SKIP where no GPU). */
#include <stdio.h>
#include <stdlib.h>

#include <starpu.h>

#include "config.h"
#include "fvstar/runtime.h"

int main(void)
{
	fv_runtime_opts_t o;
	int n_cuda = 0;
	fv_err_t err;
	/* the test wrapper limits CPU workers; let StarPU find the GPUs */
	unsetenv("STARPU_NCUDA");
	fv_runtime_opts_default(&o);
	if (fv_runtime_init(&o) != FV_OK) {
		fprintf(stderr, "%s\n", fv_errmsg());
		return 1;
	}
	fv_runtime_print(stdout);
#ifndef FV_HAVE_CUDA
	printf("fvstar was built without CUDA codelets: SKIP\n");
	fv_runtime_shutdown();
	return 77;
#endif
	if (starpu_cuda_worker_get_count() == 0) {
		printf("no CUDA worker: SKIP\n");
		fv_runtime_shutdown();
		return 77;
	}
	err = fv_runtime_selftest(1 << 22, &n_cuda, stdout);
	fv_runtime_shutdown();
	if (err != FV_OK) {
		fprintf(stderr, "FAIL: %s\n", fv_errmsg());
		return 1;
	}
	if (n_cuda < 1) {
		fprintf(stderr, "FAIL: no task ran on a CUDA worker\n");
		return 1;
	}
	printf("PASS: smoke codelet exact on %d CUDA worker(s) and every CPU worker\n", n_cuda);
	return 0;
}
