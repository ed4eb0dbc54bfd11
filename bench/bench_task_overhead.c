/* SPDX-License-Identifier: MIT */
/* StarPU task overhead: many small independent tasks (y += a x on 1024
 * doubles, one vector per task) and one long chain on a single vector;
 * used to compare the FxT-enabled StarPU build with the plain one.
 * Usage: bench_task_overhead [NTASKS] [REPEATS] -> CSV on stdout. */
#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NX 1024

static void axpy_cpu(void *buffers[], void *arg)
{
	double *x = (double *)STARPU_VECTOR_GET_PTR(buffers[0]);
	double *y = (double *)STARPU_VECTOR_GET_PTR(buffers[1]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	(void)arg;
	for (unsigned i = 0; i < n; i++)
		y[i] += 0.5 * x[i];
}

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "bench_overhead_axpy"};
static struct starpu_codelet cl = {
	.cpu_funcs = {axpy_cpu}, .nbuffers = 2, .modes = {STARPU_R, STARPU_RW}, .model = &model, .name = "axpy"};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int ntasks = argc > 1 ? atoi(argv[1]) : 20000, reps = argc > 2 ? atoi(argv[2]) : 5;
	int nvec = 256;
	double *x, *y[256];
	starpu_data_handle_t hx, hy[256];
	if (starpu_init(NULL) != 0)
		return 1;
	starpu_malloc((void **)&x, NX * sizeof *x);
	for (int i = 0; i < NX; i++)
		x[i] = i;
	starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x, NX, sizeof *x);
	for (int v = 0; v < nvec; v++) {
		starpu_malloc((void **)&y[v], NX * sizeof *y[v]);
		for (int i = 0; i < NX; i++)
			y[v][i] = 0;
		starpu_vector_data_register(&hy[v], STARPU_MAIN_RAM, (uintptr_t)y[v], NX, sizeof *y[v]);
	}
	printf("fxt,workers,ntasks,rep,independent_us_per_task,chain_us_per_task\n");
	for (int r = 0; r < reps; r++) {
		double t0 = now(), t1, t2;
		for (int t = 0; t < ntasks; t++)
			starpu_task_insert(&cl, STARPU_R, hx, STARPU_RW, hy[t % nvec], 0);
		starpu_task_wait_for_all();
		t1 = now();
		for (int t = 0; t < ntasks / 4; t++)
			starpu_task_insert(&cl, STARPU_R, hx, STARPU_RW, hy[0], 0);
		starpu_task_wait_for_all();
		t2 = now();
#ifdef STARPU_USE_FXT
		const char *fxt = "yes";
#else
		const char *fxt = "no";
#endif
		printf("%s,%u,%d,%d,%.3f,%.3f\n", fxt, starpu_worker_get_count(), ntasks, r, 1e6 * (t1 - t0) / ntasks,
		       1e6 * (t2 - t1) / (ntasks / 4));
	}
	for (int v = 0; v < nvec; v++) {
		starpu_data_unregister(hy[v]);
		starpu_free(y[v]);
	}
	starpu_data_unregister(hx);
	starpu_free(x);
	starpu_shutdown();
	return 0;
}
