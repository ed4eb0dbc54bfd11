/* SPDX-License-Identifier: MIT */
/* A run's memory: the budget checked before the blocks, the state and the
 * solver are allocated (runtime.memory_check), and the memory per cell
 * measured at the end of the run (summary.json's "memory"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/plan.h"
#include "fvstar/output.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define MIB (1024.0 * 1024.0)

/* Host bytes at a rank's peak, fitted to the peak resident set of
 * explicit runs (SU2 tets and hexes from `fvstar mesh gen box`, 2 CPU
 * workers, double precision): a fixed part (the binary, StarPU, MPI) and a
 * part per cell and per face of the rank's blocks; the rank that reads and
 * cuts the whole mesh holds the mesh too. See fv_budget_estimate for how
 * close it came. */
#define HOST_FIXED (90.0 * MIB)
#define HOST_PER_CELL 600.0     /* the blocks' cells, state, gradients, node values */
#define HOST_PER_FACE 200.0     /* the blocks' faces, fluxes, colours */
#define MESH_PER_CELL 300.0     /* the whole mesh while it is cut (rank 0) */
#define MESH_PER_FACE 100.0
/* the solver's registered data alone (what a GPU holds of its blocks) */
#define DEVICE_PER_CELL 450.0
#define DEVICE_PER_FACE 150.0

/* The implicit operator's bytes per cell (kernels/implicit.h's
 * fv_op_values: single precision, a 5x5 block for the cell and one per
 * face with point-implicit; one value with LU-SGS; nu~'s scalars with
 * Spalart-Allmaras) and the update's rows, for faces_per_cell faces. */
static double implicit_per_cell(const fv_case_t *c, double faces_per_cell)
{
	int sa = c->model == FV_MODEL_SA, nv = sa ? 6 : 5;
	double vals;
	if (c->num.time_mode != FV_TIME_IMPLICIT)
		return 0;
	vals = c->num.implicit == FV_IMPLICIT_POINT ? 25.0 * (1 + faces_per_cell) : 1;
	vals += sa ? 1 + faces_per_cell : 0;
	return 4.0 * vals + 2.0 * nv * sizeof(fv_real_t);
}

void fv_budget_estimate(const fv_case_t *c, double n_cells, double n_faces, int whole_mesh, fv_budget_t *b)
{
	int nr = fv_runtime_nranks();
	double cells = n_cells / nr, faces = n_faces / nr;
	/* the most faces of a cell, as the operator is sized: tets 4, hexes 6 */
	double fpc = n_cells > 0 ? 2.0 * n_faces / n_cells + 0.5 : 4;
	/* extra state rows (nu~) and single precision scale the solver's part */
	double scale = (c->model == FV_MODEL_SA ? 1.2 : 1.0) * (sizeof(fv_real_t) == 4 ? 0.6 : 1.0);
	double imp = implicit_per_cell(c, fpc);
	b->device_bytes = scale * (DEVICE_PER_CELL * cells + DEVICE_PER_FACE * faces) + imp * cells;
	b->host_bytes = HOST_FIXED + scale * (HOST_PER_CELL * cells + HOST_PER_FACE * faces) + imp * cells;
	if (whole_mesh)
		b->host_bytes += MESH_PER_CELL * n_cells + MESH_PER_FACE * n_faces;
}

/* A number from /proc (kB after key), or -1. */
static double proc_kb(const char *file, const char *key)
{
	char line[256];
	double v = -1;
	size_t n = strlen(key);
	FILE *f = fopen(file, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, n) == 0) {
			v = atof(line + n);
			break;
		}
	fclose(f);
	return v;
}

/* The host bytes this rank may still take: its share of the node's
 * MemAvailable (FVSTAR_MEMORY_AVAILABLE, bytes, replaces it: tests). */
static double host_available(int *shared)
{
	const char *env = getenv("FVSTAR_MEMORY_AVAILABLE");
	const char *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
	double avail = env && env[0] ? atof(env) : 1024.0 * proc_kb("/proc/meminfo", "MemAvailable:");
	*shared = local && atoi(local) > 0 ? atoi(local) : 1;
	return avail < 0 ? -1 : avail / *shared;
}

/* What would fit instead, for the message. */
static void advice(const fv_case_t *c, double cells_fit, char *buf, size_t n)
{
	int nr = fv_runtime_nranks();
	size_t k = (size_t)snprintf(buf, n, "about %.3g cells per rank would fit (%d rank%s now: more ranks on more "
					    "nodes, `mpirun -np R`, or a coarser mesh)",
				    cells_fit > 0 ? cells_fit : 0, nr, nr == 1 ? "" : "s");
	if (c->num.time_mode == FV_TIME_IMPLICIT && k < n)
		k += (size_t)snprintf(buf + k, n - k, "; an explicit run (numerics.time = steady) needs no implicit "
						      "operator%s",
				      c->num.implicit == FV_IMPLICIT_POINT ? ", numerics.implicit = lusgs a scalar one" : "");
	if (nr == 1 && k < n)
		snprintf(buf + k, n - k, "; a partition directory (`fvstar mesh partition`) spares the whole mesh");
}

/* The check's verdict: FV_OK, or with runtime.memory_check = warn a line
 * on stderr, else FV_ERR_MEM with msg. */
static fv_err_t verdict(const fv_case_t *c, const char *msg)
{
	if (c->memory_check == 1) {
		fprintf(stderr, "fvstar: warning (runtime.memory_check = warn): %s\n", msg);
		return FV_OK;
	}
	return FV_ERROR(FV_ERR_MEM, "%s (runtime.memory_check = warn or no runs anyway)", msg);
}

fv_err_t fv_budget_check(const fv_case_t *c, long long n_cells, long long n_faces, int whole_mesh)
{
	fv_budget_t b;
	double total[FV_RUNTIME_MAX_GPUS], used[FV_RUNTIME_MAX_GPUS];
	int shared, ng, ncpu, ncuda;
	double avail, rss, need, per;
	char what[512], msg[1536];
	if (c->memory_check == 2 || n_cells <= 0)
		return FV_OK;
	fv_budget_estimate(c, (double)n_cells, (double)n_faces, whole_mesh, &b);
	avail = host_available(&shared);
	rss = 1024.0 * proc_kb("/proc/self/status", "VmRSS:");
	need = b.host_bytes - (rss > 0 ? rss : 0);
	per = (b.host_bytes - HOST_FIXED) / ((double)n_cells / fv_runtime_nranks());
	if (avail >= 0 && need > avail) {
		advice(c, (avail + (rss > 0 ? rss : 0) - HOST_FIXED) / per, what, sizeof what);
		snprintf(msg, sizeof msg,
			 "rank %d: %lld cells need about %.2f GiB of host memory at the peak (%.0f bytes per cell of "
			 "this rank, %.2f GiB more than now), but %.2f GiB are available (MemAvailable%s): short by "
			 "%.2f GiB; %s",
			 fv_runtime_rank(), n_cells, b.host_bytes / GIB, per, need / GIB, avail / GIB,
			 shared > 1 ? ", shared by the node's ranks" : "", (need - avail) / GIB, what);
		return verdict(c, msg);
	}
	fv_runtime_workers(&ncpu, &ncuda);
	ng = fv_runtime_device_memory(total, used, FV_RUNTIME_MAX_GPUS);
	for (int g = 0; g < ng; g++) {
		double dev = b.device_bytes / ng, free_b = total[g] - used[g];
		if (total[g] <= 0 || dev <= free_b)
			continue;
		advice(c, (double)n_cells / fv_runtime_nranks() * free_b / dev, what, sizeof what);
		snprintf(msg, sizeof msg,
			 "rank %d: GPU %d would hold about %.2f GiB of the blocks' data but has %.2f GiB free: short by "
			 "%.2f GiB; %s, or CPU workers beside the GPUs (runtime.ncpu) take a share",
			 fv_runtime_rank(), g, dev / GIB, free_b / GIB, (dev - free_b) / GIB, what);
		return verdict(c, msg);
	}
	return FV_OK;
}

void fv_budget_report(json_t *js, const double *mem, int n_ranks, long long n_cells)
{
	json_t *mj = json_object();
	double peak = 0, dev = 0, ngpu = 0, cells = (double)(n_cells > 0 ? n_cells : 1);
	for (int r = 0; r < n_ranks; r++) {
		peak += mem[r];
		dev += mem[n_ranks + r];
		ngpu += mem[2 * n_ranks + r];
	}
	json_object_set_new(mj, "host_peak_mib", fv_json_real(peak));
	json_object_set_new(mj, "host_bytes_per_cell", fv_json_real(peak * MIB / cells));
	json_object_set_new(mj, "gpus", json_integer((json_int_t)ngpu));
	if (ngpu > 0) {
		json_object_set_new(mj, "device_mib", fv_json_real(dev));
		json_object_set_new(mj, "device_bytes_per_cell", fv_json_real(dev * MIB / cells));
	}
	json_object_set_new(js, "memory", mj);
	fprintf(stderr, "fvstar: host memory at the peak %.0f MiB%s, %.0f bytes per cell\n", peak,
		n_ranks > 1 ? " (all ranks)" : "", peak * MIB / cells);
	if (ngpu > 0)
		fprintf(stderr, "fvstar: device memory held by StarPU %.0f MiB on %d GPU%s, %.0f bytes per cell\n", dev,
			(int)ngpu, ngpu > 1 ? "s" : "", dev * MIB / cells);
	else
		fprintf(stderr, "fvstar: device memory: none (no GPU worker)\n");
}
