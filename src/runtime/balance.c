/* SPDX-License-Identifier: MIT */
/* Work sized to the workers' speed (runtime.balance = speed): one block
 * per worker (or k), each block's share of the cells its worker's share of
 * the total speed, its tasks pinned to that worker. Speeds come from
 * runtime.worker_speeds, else per worker type: a CPU worker counts 1, a
 * CUDA worker runtime.gpu_speed, or the ratio StarPU's history models of
 * the stage codelets hold (the sampling directory), or 640. */
#include <math.h>
#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fvstar/runtime.h"

/* Stage codelets with a CPU and a CUDA implementation whose history models
 * say how fast each kind of worker runs a cell: the per-cell stages. */
static const char *const model_symbols[] = {"fv_prim",     "fv_nodes",  "fv_gradient", "fv_limiter", "fv_flux",
					    "fv_flux_gather", "fv_timestep", "fv_update",   "fv_norms",   NULL};

/* Microseconds per byte of the largest task size measured on arch of
 * model (0: none). */
static double us_per_byte(struct starpu_perfmodel *model, struct starpu_perfmodel_arch *arch)
{
	struct starpu_perfmodel_per_arch *pa = starpu_perfmodel_get_model_per_arch(model, arch, 0);
	size_t best = 0;
	double t = 0;
	if (!pa)
		return 0;
	for (struct starpu_perfmodel_history_list *l = pa->list; l; l = l->next)
		if (l->entry && l->entry->nsample >= 3 && l->entry->size > best && l->entry->mean > 0) {
			best = l->entry->size;
			t = l->entry->mean / (double)l->entry->size;
		}
	return t;
}

double fv_runtime_model_gpu_speed(int *n_models)
{
	double cpu = 0, gpu = 0;
	int n = 0;
	for (int s = 0; model_symbols[s]; s++) {
		struct starpu_perfmodel model;
		double c = 0, g = 0;
		/* load_symbol registers the model with StarPU only when the file
		 * exists and parses (unload_model takes it out again); a missing
		 * file leaves just the symbol's copy to free */
		memset(&model, 0, sizeof model);
		if (starpu_perfmodel_load_symbol(model_symbols[s], &model) != 0) {
			if (!model.is_init)
				free((char *)model.symbol);
			continue;
		}
		for (int comb = 0; comb < starpu_perfmodel_get_narch_combs(); comb++) {
			struct starpu_perfmodel_arch *arch = starpu_perfmodel_arch_comb_fetch(comb);
			double t;
			if (!arch || arch->ndevices != 1 || arch->devices[0].ncores != 0)
				continue;
			t = us_per_byte(&model, arch);
			if (t <= 0)
				continue;
			if (arch->devices[0].type == STARPU_CPU_WORKER && (c == 0 || t < c))
				c = t;
			else if (arch->devices[0].type == STARPU_CUDA_WORKER && (g == 0 || t < g))
				g = t;
		}
		starpu_perfmodel_unload_model(&model);
		if (c > 0 && g > 0) {
			cpu += c;
			gpu += g;
			n++;
		}
	}
	if (n_models)
		*n_models = n;
	return n > 0 ? cpu / gpu : 0;
}

double fv_runtime_gpu_speed(double given, char *src, size_t n)
{
	int nm = 0;
	double r;
	if (given > 0) {
		snprintf(src, n, "runtime.gpu_speed");
		return given;
	}
	r = fv_runtime_model_gpu_speed(&nm);
	if (r > 0) {
		snprintf(src, n, "StarPU's history models of %d stage%s", nm, nm == 1 ? "" : "s");
		return r;
	}
	snprintf(src, n, "the default: no calibrated model yet; an H100 ran a stage 40x faster than its 16 cores");
	return FV_GPU_SPEED_DEFAULT;
}

/* n positive numbers "a,b,c" into v (at most max); returns the count, 0 on
 * a bad list. */
static int parse_speeds(const char *s, double *v, int max)
{
	int n = 0;
	while (*s && n < max) {
		char *end;
		double x = strtod(s, &end);
		if (end == s || !(x > 0) || !isfinite(x))
			return 0;
		v[n++] = x;
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return 0;
	}
	return *s ? 0 : n;
}

void fv_runtime_balance_free(fv_balance_t *b)
{
	free(b->weights);
	free(b->is_gpu);
	free(b->groups);
	free(b->worker);
	b->weights = NULL;
	b->is_gpu = NULL;
	b->groups = NULL;
	b->worker = NULL;
}

fv_err_t fv_runtime_balance(const fv_balance_opts_t *o, long n_cells, fv_balance_t *out)
{
	int nw = (int)starpu_worker_get_count(), ncpu, ncuda, same = 1, bpw, nh = 0, idle_cpu = 0;
	double speed[STARPU_NMAXWORKERS], total = 0, gs = 0;
	char src[160] = "";

	memset(out, 0, sizeof *out);
	fv_runtime_workers(&ncpu, &ncuda);
	if (o->worker_speeds && o->worker_speeds[0]) {
		int n = parse_speeds(o->worker_speeds, speed, STARPU_NMAXWORKERS);
		FV_CHECK(n == nw, FV_ERR_ARG, "runtime.worker_speeds = %s: %d speed%s for %d worker%s (one per StarPU "
					      "worker, in StarPU's order: fvstar runtime info lists them)",
			 o->worker_speeds, n, n == 1 ? "" : "s", nw, nw == 1 ? "" : "s");
		snprintf(src, sizeof src, "runtime.worker_speeds = %s", o->worker_speeds);
	} else {
		if (ncuda > 0 && ncpu > 0)
			gs = fv_runtime_gpu_speed(o->gpu_speed, src, sizeof src);
		/* beside GPUs, CPU workers hold cells only where their share can
		 * pay for the halo round trips with the GPU blocks (their speed
		 * 0: no block) */
		idle_cpu = gs > 0 && (double)ncpu / (gs * ncuda) < FV_CPU_JOIN_SHARE;
		for (int w = 0; w < nw; w++)
			speed[w] = starpu_worker_get_type(w) == STARPU_CUDA_WORKER && gs > 0 ? gs : idle_cpu ? 0 : 1;
	}
	for (int w = 0, first = -1; w < nw; w++) {
		if (speed[w] <= 0)
			continue;
		first = first < 0 ? w : first;
		same = same && speed[w] == speed[first];
		total += speed[w];
		nh++;
	}
	/* (idle CPU workers: the GPU blocks pinned, equal or not, so that no
	 * block lands on a CPU worker) */
	if (o->balance == FV_BALANCE_EQUAL || (same && !idle_cpu) || o->blocks % nh != 0) {
		/* today's blocks, bit for bit */
		out->n_blocks = o->blocks > 0 ? o->blocks : fv_runtime_auto_blocks(n_cells);
		out->n_blocks = out->n_blocks > 0 ? out->n_blocks : 1;
		if (o->balance == FV_BALANCE_EQUAL)
			snprintf(out->why, sizeof out->why, "runtime.balance = equal: %d equal blocks, placed by the scheduler",
				 out->n_blocks);
		else if (same)
			snprintf(out->why, sizeof out->why, "%d equal blocks (%s)", out->n_blocks,
				 ncpu > 0 && ncuda > 0 ? "the speeds are equal" : "one kind of worker");
		else
			snprintf(out->why, sizeof out->why,
				 "%d equal blocks, placed by the scheduler: runtime.balance = speed needs one block per "
				 "worker or a multiple (partition.blocks = 0 or k x %d)",
				 out->n_blocks, nh);
		return FV_OK;
	}
	bpw = o->blocks > 0 ? o->blocks / nh : 1;
	out->n_blocks = bpw * nh;
	FV_CHECK(out->n_blocks <= n_cells, FV_ERR_ARG, "%ld cells cannot make %d speed-weighted blocks", n_cells,
		 out->n_blocks);
	FV_CHECK((out->weights = calloc((size_t)out->n_blocks, sizeof *out->weights)) &&
			 (out->is_gpu = calloc((size_t)out->n_blocks, sizeof *out->is_gpu)) &&
			 (out->groups = calloc((size_t)out->n_blocks, sizeof *out->groups)) &&
			 (out->worker = calloc((size_t)out->n_blocks, sizeof *out->worker)),
		 FV_ERR_MEM, "speed-weighted blocks: out of memory");
	/* GPU blocks first, so that they come first in the renumbered mesh */
	for (int pass = 0, b = 0; pass < 2; pass++)
		for (int w = 0; w < nw; w++) {
			int gpu = starpu_worker_get_type(w) == STARPU_CUDA_WORKER;
			if (gpu != (pass == 0) || speed[w] <= 0)
				continue;
			for (int k = 0; k < bpw; k++, b++) {
				out->weights[b] = speed[w] / total / bpw;
				out->is_gpu[b] = gpu;
				out->worker[b] = w;
			}
		}
	/* the blocks of one speed make a group, cut from one region of the mesh
	 * (fv_partition_cells_weighted): the GPU blocks against the CPU blocks,
	 * or on CPU workers alone a share under a fifth of the cells against
	 * the rest (grown to its size where a partitioner would leave it
	 * nearly empty); other speeds on CPU workers: one k-way cut, whose
	 * shares hold within 3 % where two levels would compound it */
	int ng = 0;
	double gshare[2] = {0, 0};
	for (int b = 0; b < out->n_blocks; b++) {
		int k = 0;
		while (k < b && out->weights[k] != out->weights[b])
			k++;
		out->groups[b] = k < b ? out->groups[k] : ng++;
		if (out->groups[b] < 2)
			gshare[out->groups[b]] += out->weights[b];
	}
	if ((idle_cpu || !(ncuda > 0 && ncpu > 0)) && !(ng == 2 && (gshare[0] < 0.2 || gshare[1] < 0.2))) {
		free(out->groups);
		out->groups = NULL;
	}
	if (idle_cpu)
		snprintf(out->why, sizeof out->why,
			 "CPU+GPU, runtime.balance = speed: the %d CPU workers hold no cells (one GPU = %.4g CPU "
			 "workers, %s: together %.1f%% of the GPU%s, under the %.0f%% that pays for the halo round "
			 "trips between GPU and CPU blocks); %d block%s per GPU, pinned; runtime.worker_speeds "
			 "gives them cells anyway",
			 ncpu, gs, src, 100.0 * ncpu / (gs * ncuda), ncuda > 1 ? "s" : "", 100.0 * FV_CPU_JOIN_SHARE,
			 bpw, bpw == 1 ? "" : "s");
	else if (ncuda > 0 && ncpu > 0 && gs > 0)
		snprintf(out->why, sizeof out->why,
			 "CPU+GPU, runtime.balance = speed: one GPU = %.4g CPU workers (%s), %d block%s per worker, "
			 "each pinned to its worker, the CPU blocks cut from one region beside the GPU's",
			 gs, src, bpw, bpw == 1 ? "" : "s");
	else
		snprintf(out->why, sizeof out->why,
			 "runtime.balance = speed: blocks sized by %s, %d block%s per worker, each pinned to its worker",
			 src, bpw, bpw == 1 ? "" : "s");
	return FV_OK;
}

void fv_runtime_busy_start(void)
{
	if (starpu_profiling_status_get() == STARPU_PROFILING_ENABLE)
		for (unsigned w = 0; w < starpu_worker_get_count(); w++)
			starpu_profiling_worker_get_info((int)w, NULL); /* NULL: reset */
}

double fv_runtime_busy(char *out, size_t n)
{
	double sum = 0;
	size_t len = 0;
	unsigned nw = starpu_worker_get_count();
	if (n)
		out[0] = '\0';
	if (starpu_profiling_status_get() != STARPU_PROFILING_ENABLE || nw == 0)
		return 0;
	for (unsigned w = 0; w < nw; w++) {
		struct starpu_profiling_worker_info info;
		char name[64];
		double busy = 0, total;
		if (starpu_profiling_worker_get_info((int)w, &info) != 0)
			continue;
		total = starpu_timing_timespec_to_us(&info.total_time);
		if (total > 0)
			busy = starpu_timing_timespec_to_us(&info.executing_time) / total;
		sum += busy;
		starpu_worker_get_name((int)w, name, sizeof name);
		for (char *p = name; *p; p++)
			if (*p == ' ')
				*p = '_';
		if (len < n)
			len += (size_t)snprintf(out + len, n - len, "%s%s:%.1f", len ? " " : "", name, 100 * busy);
	}
	return sum / nw;
}
