/* SPDX-License-Identifier: MIT */
/* StarPU start-up, shutdown, configuration report and self-test. */
#define _GNU_SOURCE /* dladdr */
#include "fvstar/runtime.h"

#include <dlfcn.h>
#include <starpu.h>
#include <stdlib.h>
#include <string.h>

#include "codelets/smoke/smoke.h"
#include "config.h"
#include "fvstar/types.h"

#ifdef FV_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static int runtime_up;
static int gpu_only_default;

/* GPUs the CUDA runtime sees (0 without CUDA, a driver or a device). */
static int cuda_devices(void)
{
	int n = 0;
#ifdef FV_HAVE_CUDA
	if (cudaGetDeviceCount(&n) != cudaSuccess)
		n = 0;
	cudaGetLastError(); /* clear the error of a machine without GPU */
#endif
	return n;
}

int fv_runtime_gpu_only_default(void)
{
	return gpu_only_default;
}

void fv_runtime_opts_default(fv_runtime_opts_t *o)
{
	o->sched = NULL;
	o->ncpu = -1;
	o->ncuda = -1;
}

fv_err_t fv_runtime_init(const fv_runtime_opts_t *o)
{
	struct starpu_conf conf;
	int ret;
	FV_CHECK(!runtime_up, FV_ERR_RUNTIME, "StarPU is already initialised");
	/* an FxT-enabled StarPU traces every run into /tmp unless told not to;
	 * tracing is asked for explicitly (STARPU_FXT_TRACE=1) */
	setenv("STARPU_FXT_TRACE", "0", 0);
	ret = starpu_conf_init(&conf);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "starpu_conf_init failed (%d)", ret);
	if (o && o->sched && !getenv("STARPU_SCHED"))
		conf.sched_policy_name = o->sched;
	if (o && o->ncpu >= 0) {
		conf.ncpus = o->ncpu;
	} else if (!getenv("STARPU_NCPU") && (!o || o->ncuda != 0) && !(getenv("STARPU_NCUDA") && atoi(getenv("STARPU_NCUDA")) == 0) &&
		   cuda_devices() > 0) {
		/* with a GPU, the default is GPU only: equal blocks on CPU cores
		 * make a GPU's iteration wait for them (a GPU here runs a stage
		 * 40x faster than all 16 cores; bench/results) */
		conf.ncpus = 0;
		gpu_only_default = 1;
	}
	if (o && o->ncuda >= 0)
		conf.ncuda = o->ncuda;
	conf.nopencl = 0;
	ret = starpu_init(&conf);
	FV_CHECK(ret != -ENODEV, FV_ERR_RUNTIME, "StarPU found no worker (STARPU_NCPU=0 and no GPU?)");
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "starpu_init failed (%d)", ret);
	runtime_up = 1;
	return FV_OK;
}

void fv_runtime_shutdown(void)
{
	if (runtime_up) {
		starpu_shutdown();
		runtime_up = 0;
	}
}

void fv_runtime_print(FILE *out)
{
	int major, minor, release;
	char name[128];
	starpu_get_version(&major, &minor, &release);
	fprintf(out, "StarPU %d.%d.%d, compiled against a build with CUDA %s, FxT %s, MPI %s, STARPU_MAXCPUS %d, STARPU_NMAXBUFS %d\n", major,
		minor, release,
#ifdef STARPU_USE_CUDA
		"yes",
#else
		"no",
#endif
#ifdef STARPU_USE_FXT
		"yes",
#else
		"no",
#endif
#ifdef STARPU_USE_MPI
		"yes",
#else
		"no",
#endif
		STARPU_MAXCPUS, STARPU_NMAXBUFS);
	{
		/* which of the two StarPU builds (plain or FxT) the loader chose */
		Dl_info info;
		if (dladdr((void *)starpu_init, &info) && info.dli_fname)
			fprintf(out, "library: %s\n", info.dli_fname);
	}
	fprintf(out, "precision: %s\n", FV_REAL_NAME);
	if (!runtime_up)
		return;
	{
		struct starpu_sched_policy *p = starpu_sched_ctx_get_sched_policy(0);
		fprintf(out, "scheduler: %s\n", p && p->policy_name ? p->policy_name : "unknown");
	}
	fprintf(out, "workers: %u (%u CPU, %u CUDA)\n", starpu_worker_get_count(), starpu_cpu_worker_get_count(),
		starpu_cuda_worker_get_count());
	for (unsigned w = 0; w < starpu_worker_get_count(); w++) {
		starpu_worker_get_name((int)w, name, sizeof name);
		fprintf(out, "  worker %u: %s (memory node %u)\n", w, name, starpu_worker_get_memory_node(w));
	}
}

fv_err_t fv_runtime_selftest(size_t n, int *n_cuda, FILE *out)
{
	fv_real_t *x = NULL, *y = NULL;
	starpu_data_handle_t hx, hy;
	unsigned nw = starpu_worker_get_count(), n_run;
	fv_err_t err = FV_OK;

	FV_CHECK(runtime_up, FV_ERR_RUNTIME, "self-test before StarPU start-up");
	FV_CHECK(starpu_malloc((void **)&x, n * sizeof *x) == 0 && starpu_malloc((void **)&y, n * sizeof *y) == 0,
		 FV_ERR_MEM, "starpu_malloc of 2 x %zu reals failed", n);
	/* small integers and a power-of-two factor: exact on every worker,
	 * with or without fused multiply-add */
	for (size_t i = 0; i < n; i++) {
		x[i] = (fv_real_t)(i % 1024);
		y[i] = 0;
	}
	starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x, (uint32_t)n, sizeof *x);
	starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)y, (uint32_t)n, sizeof *y);
	*n_cuda = 0;
	n_run = 0;
	for (unsigned w = 0; w < nw && err == FV_OK; w++) {
		int cuda = starpu_worker_get_type((int)w) == STARPU_CUDA_WORKER;
#ifndef FV_HAVE_CUDA
		if (cuda)
			continue; /* StarPU has CUDA, this build of fvstar has not */
#endif
		err = fv_insert_smoke_axpy(hx, hy, (fv_real_t)0.5, (int)w);
		n_run++;
		*n_cuda += cuda;
	}
	starpu_task_wait_for_all();
	starpu_data_unregister(hy);
	starpu_data_unregister(hx);
	for (size_t i = 0; i < n && err == FV_OK; i++) {
		fv_real_t want = (fv_real_t)(0.5 * n_run * (double)(i % 1024));
		if (y[i] != want)
			err = FV_ERROR(FV_ERR_RUNTIME, "smoke codelet: y[%zu] = %g after %u workers, expected %g", i,
				       (double)y[i], n_run, (double)want);
	}
	if (err == FV_OK && out)
		fprintf(out, "self-test: y = 0.5 x + y ran on %u of %u workers (%d CUDA), %zu values exact\n", n_run,
			nw, *n_cuda, n);
	starpu_free(x);
	starpu_free(y);
	return err;
}
