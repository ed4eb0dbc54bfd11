/* SPDX-License-Identifier: MIT */
/* A run's memory: the budget checked before the blocks, the state and the
 * solver are allocated (runtime.memory_check), and the memory per cell
 * measured at the end of the run (summary.json's "memory"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/plan.h"
#include "fvstar/output.h"
#include "io/json.h"
#include "runtime/data.h"
#include "util/env.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define MIB (1024.0 * 1024.0)

/* Host bytes a rank adds after the check: its blocks' cells and faces,
 * their state and the solver's data (the whole mesh that rank 0 cut is
 * resident by then, and freed once cut), a few MiB of buffers besides.
 * Fitted on 2 CPU workers, double precision, SU2 boxes of
 * `fvstar mesh gen box` (the measured peak RSS less VmRSS at the check):
 *   tet 20^3 (48k cells, 2.05 faces/cell)   63 MiB measured,  64 estimated
 *   tet 40^3 (384k cells, 2.03)            428 MiB,          452 (+6%)
 *   hex 40x40x20 x2 (256k cells, 3.05)     347 MiB,          367 (+6%)
 *   hex 20 (32k cells, 3.1)                 51 MiB,           54 (+6%)
 * and the whole peak (what summary.json's memory.rank0_estimate_mib
 * reports): 757 MiB estimated against 733 measured (tet 40, +3%), 682
 * against 662 (hex 40, +3%); one rank of two (tet 40): 453 MiB measured.
 * Implicit runs (point-implicit, Roe blocks) add the operator: whole peaks
 * of 966 MiB measured against 971 estimated (tet 40), 870 against 875
 * (hex 40). Spalart-Allmaras' sixth row and single precision scale the
 * solver's part by guesses (1.2, 0.6), not measured. */
#define HOST_FIXED (10.0 * MIB)
#define HOST_PER_CELL 700.0
#define HOST_PER_FACE 250.0
/* The solver's registered data alone (what a GPU holds of its blocks):
 * each block's geometry blob and fields as fv_solver_create sizes them
 * (2026-11-27, explicit, double, 4 blocks): tet box 1.05M cells (2.03
 * block faces per owned cell) 340 + 437 = 777 bytes per owned cell, hex
 * 262k (3.08) 572 + 475 = 1047; single precision 444 and 622 (0.57x and
 * 0.59x, the 0.6 below). Not yet the halo buffers and CUDA scratch. */
#define DEVICE_PER_CELL 260.0
#define DEVICE_PER_FACE 257.0
/* A rank whose blocks run on GPUs alone holds on the host no field but
 * the state (fv_runtime_lazy_fields), no geometry blob where it is built
 * in the GPU's memory (the default, fv_runtime_devbuf_*), no CPU
 * scratch and no implicit operator:
 * its share of the blocks phase (local meshes, the rank's part, both a
 * matter of faces), the states and the blob's sections while they are
 * put. Fitted on boxes of one block, double precision, set up on CPU
 * workers with FVSTAR_LAZY_FIELDS=all less the blob that lands in host
 * memory there (2026-11-28: the peak less VmRSS at the check, tets of
 * 2.02 faces per cell 241 bytes per cell, hexahedra of 3.03 faces 402),
 * and the blob where it is in host memory all the same (tets 334, hexes
 * 572 measured). */
#define GPU_HOST_PER_FACE 125.0
#define BLOB_PER_FACE 180.0
/* and a fixed 2 MiB, not HOST_FIXED's 10: the estimate of those boxes
 * (tet boxes of 24576 and 196608 cells) was 9 and 15 MiB above the peak
 * (48 MiB against 39, 199 against 184), which went unseen while libstarpu
 * linked cuBLAS: its ~180 MiB sat in both the VmRSS at the check and the
 * peak (228 against 219, 379 against 364; bench/results/2026-12-06-ci14.md) */
#define GPU_HOST_FIXED (2.0 * MIB)

/* The implicit operator's bytes per cell (kernels/implicit.h's
 * fv_op_values: single precision, a 5x5 block for the cell and one per
 * face with point-implicit; one value with LU-SGS; nu~'s scalars with
 * Spalart-Allmaras; the lines' factors) and two rows of the update (and
 * GMRES's vectors, the step factors' rows), for faces_per_cell faces:
 * the solver's data grew by 218 MiB (tet 40, 214 estimated) and 193 (hex
 * 40, 193). */
static double implicit_per_cell(const fv_case_t *c, double faces_per_cell)
{
	int sa = c->model == FV_MODEL_SA, nv = sa ? 6 : 5;
	double vals;
	if (c->num.time_mode != FV_TIME_IMPLICIT)
		return 0;
	vals = c->num.implicit == FV_IMPLICIT_POINT ? 25.0 * (1 + faces_per_cell) : 1;
	vals += sa ? 1 + faces_per_cell : 0;
	/* the lines' factors (numerics.lines: yes, or auto in viscous runs) */
	if (c->num.implicit == FV_IMPLICIT_POINT &&
	    (c->num.lines == FV_OVERLAP_YES || (c->num.lines == FV_OVERLAP_AUTO && c->model != FV_MODEL_EULER)))
		vals += 2 * (50 + (sa ? 2 : 0)); /* two floats each */
	/* linear = gmres: v_0 .. v_m, z_0 .. z_m-1, the solution and the
	 * sweeps' right-hand side (src/kernels/krylov.h), a row each */
	double krylov = c->num.implicit == FV_IMPLICIT_POINT && c->num.linear == FV_LINEAR_GMRES
				? (2.0 * c->num.krylov_dim + 3) * nv * sizeof(fv_real_t)
				: 0;
	/* numerics.cell_cfl: each cell's step factor, a row of the state and
	 * of its two snapshots */
	double step = c->num.cell_cfl > 0 ? 3.0 * sizeof(fv_real_t) : 0;
	return 4.0 * vals + 2.0 * nv * sizeof(fv_real_t) + krylov + step;
}

/* Whether the rank's blocks run on GPUs alone (the solver's rule for a
 * block the scheduler places: fv_runtime_lazy_fields), and whether their
 * blobs are in host memory even so (FVSTAR_GEO_HOST=1; CPU workers with
 * FVSTAR_LAZY_FIELDS=all, several GPUs sharing the blocks). A bad
 * variable is left to the solver's message. */
static int gpu_only(int *blob_host)
{
	int ncpu, ncuda, lazy = 0, usable = 0;
	fv_runtime_workers(&ncpu, &ncuda);
	if (fv_runtime_lazy_fields(-1, &lazy) != FV_OK || fv_runtime_devbuf_usable(-1, &usable) != FV_OK)
		lazy = 0;
	*blob_host = !usable || ncuda == 0;
	return lazy;
}

void fv_budget_estimate(const fv_case_t *c, double n_cells, double n_faces, fv_budget_t *b)
{
	int nr = fv_runtime_nranks(), blob_host;
	double cells = n_cells / nr, faces = n_faces / nr;
	/* the most faces of a cell, as the operator is sized: tets 4, hexes 6 */
	double fpc = n_cells > 0 ? 2.0 * n_faces / n_cells : 4;
	/* nu~'s row and single precision scale the solver's part */
	double scale = (c->model == FV_MODEL_SA ? 1.2 : 1.0) * (sizeof(fv_real_t) == 4 ? 0.6 : 1.0);
	/* numerics.node_gather = cells or auto: the five primitives side by side
	 * (auto: on GPUs only; counted everywhere) */
	double w_cells = c->num.node_gather != FV_NODE_GATHER_ROWS && c->num.nodes_sum != FV_SUM_ATOMIC
				 ? 5 * sizeof(fv_real_t) * cells
				 : 0;
	b->device_bytes = scale * (DEVICE_PER_CELL * cells + DEVICE_PER_FACE * faces) +
			  implicit_per_cell(c, fpc) * cells + w_cells;
	if (gpu_only(&blob_host))
		b->more_bytes = GPU_HOST_FIXED + GPU_HOST_PER_FACE * faces +
				(blob_host ? scale * BLOB_PER_FACE * faces : 0);
	else
		b->more_bytes = HOST_FIXED + scale * (HOST_PER_CELL * cells + HOST_PER_FACE * faces) +
				implicit_per_cell(c, fpc) * cells + w_cells;
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
 * MemAvailable; FVSTAR_MEMORY_AVAILABLE (bytes) replaces it (tests). */
static fv_err_t host_available(int *shared, const char **from, double *bytes)
{
	const char *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
	unsigned long long given;
	FV_CALL(fv_env_count("FVSTAR_MEMORY_AVAILABLE", 1, 1ULL << 60, 0, "bytes of host memory the node has free",
			     &given));
	double avail = given ? (double)given : 1024.0 * proc_kb("/proc/meminfo", "MemAvailable:");
	*from = given ? "FVSTAR_MEMORY_AVAILABLE" : "MemAvailable";
	*shared = local && atoi(local) > 0 ? atoi(local) : 1;
	*bytes = avail < 0 ? -1 : avail / *shared;
	return FV_OK;
}

/* "123 MiB" below 10 GiB, else "12.3 GiB" (buf of 32). */
static const char *size_text(double bytes, char *buf)
{
	if (bytes < 10 * GIB)
		snprintf(buf, 32, "%.0f MiB", bytes / MIB);
	else
		snprintf(buf, 32, "%.1f GiB", bytes / GIB);
	return buf;
}

/* What would fit instead, for the message: cells_fit per rank, and where
 * the case is implicit, what an explicit or LU-SGS run would add. */
static void advice(const fv_case_t *c, double cells_fit, double n_cells, double n_faces, int device, char *buf,
		   size_t n)
{
	int nr = fv_runtime_nranks();
	char t[32];
	size_t k = (size_t)snprintf(buf, n, "what would fit: about %.0f cells per rank (%d rank%s now: more ranks "
					    "(`mpirun -np R`, over more nodes), or a coarser mesh)",
				    cells_fit > 0 ? cells_fit : 0, nr, nr == 1 ? "" : "s");
	if (c->num.time_mode == FV_TIME_IMPLICIT && k < n) {
		fv_case_t ex = *c, lu = *c;
		fv_budget_t be, bl;
		ex.num.time_mode = FV_TIME_STEADY;
		lu.num.implicit = FV_IMPLICIT_LUSGS;
		fv_budget_estimate(&ex, n_cells, n_faces, &be);
		fv_budget_estimate(&lu, n_cells, n_faces, &bl);
		k += (size_t)snprintf(buf + k, n - k, "; an explicit run (numerics.time = steady) needs %s",
				      size_text(device ? be.device_bytes : be.more_bytes, t));
		if (c->num.implicit == FV_IMPLICIT_POINT && k < n)
			k += (size_t)snprintf(buf + k, n - k, ", LU-SGS (numerics.implicit = lusgs) %s",
					      size_text(device ? bl.device_bytes : bl.more_bytes, t));
	}
	if (device && k < n)
		k += (size_t)snprintf(buf + k, n - k, "; CPU workers beside the GPUs (runtime.ncpu) take a share");
	if (!device && nr == 1 && k < n)
		snprintf(buf + k, n - k, "; a partition directory (`fvstar mesh partition`) spares rank 0 the whole mesh");
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

/* The budget's line (rank 0): what the rank holds, will add, may take. */
static void say_budget(const fv_budget_t *b, double cells, int ng, double dev_free)
{
	fprintf(stderr, "fvstar: memory budget: rank 0 holds %.0f MiB and will add about %.0f MiB (%.0f bytes per cell "
			"of its blocks) of %.0f MiB available",
		b->rss_bytes / MIB, b->more_bytes / MIB, b->more_bytes / cells, b->avail_bytes / MIB);
	if (ng > 0)
		fprintf(stderr, "; each of its %d GPU%s about %.0f MiB of %.0f MiB free", ng, ng > 1 ? "s" : "",
			b->device_bytes / ng / MIB, dev_free / MIB);
	fputc('\n', stderr);
}

fv_err_t fv_budget_check(const fv_case_t *c, long long n_cells, long long n_faces, fv_budget_t *b)
{
	double total[FV_RUNTIME_MAX_GPUS], used[FV_RUNTIME_MAX_GPUS], dev_free = 0, dev;
	double cells = (double)n_cells / fv_runtime_nranks();
	int shared = 1, ng;
	const char *from = "MemAvailable";
	char what[768], msg[1536], t[3][32];
	memset(b, 0, sizeof *b);
	if (n_cells <= 0 || c->memory_check == 2)
		return FV_OK;
	fv_budget_estimate(c, (double)n_cells, (double)n_faces, b);
	FV_CALL(host_available(&shared, &from, &b->avail_bytes));
	b->rss_bytes = 1024.0 * proc_kb("/proc/self/status", "VmRSS:");
	b->host_bytes = (b->rss_bytes > 0 ? b->rss_bytes : 0) + b->more_bytes;
	ng = fv_runtime_device_memory(total, used, FV_RUNTIME_MAX_GPUS);
	for (int g = 0; g < ng; g++)
		dev_free = g == 0 || total[g] - used[g] < dev_free ? total[g] - used[g] : dev_free;
	if (fv_runtime_rank() == 0)
		say_budget(b, cells, ng, dev_free);
	if (b->avail_bytes >= 0 && b->more_bytes > b->avail_bytes) {
		advice(c, cells * b->avail_bytes / b->more_bytes, (double)n_cells, (double)n_faces, 0, what,
		       sizeof what);
		snprintf(msg, sizeof msg,
			 "rank %d: the blocks, state and solver of its %.0f cells (of %lld) need about %s more host "
			 "memory (%.0f bytes per cell), but %s are available (%s%s): short by %s; %s",
			 fv_runtime_rank(), cells, n_cells, size_text(b->more_bytes, t[0]), b->more_bytes / cells,
			 size_text(b->avail_bytes, t[1]), from, shared > 1 ? ", shared by the node's ranks" : "",
			 size_text(b->more_bytes - b->avail_bytes, t[2]), what);
		return verdict(c, msg);
	}
	dev = ng > 0 ? b->device_bytes / ng : 0;
	if (ng > 0 && dev > dev_free) {
		advice(c, cells * dev_free / dev, (double)n_cells, (double)n_faces, 1, what, sizeof what);
		snprintf(msg, sizeof msg,
			 "rank %d: each of its %d GPU%s would hold about %s of the blocks' data, but one has %s free: "
			 "short by %s; %s",
			 fv_runtime_rank(), ng, ng > 1 ? "s" : "", size_text(dev, t[0]), size_text(dev_free, t[1]),
			 size_text(dev - dev_free, t[2]), what);
		return verdict(c, msg);
	}
	return FV_OK;
}

void fv_budget_report(json_t *js, const fv_budget_t *b, const double *mem, int n_ranks, long long n_cells)
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
	/* rank 0's estimate against its measured peak (the budget's check) */
	json_object_set_new(mj, "rank0_peak_mib", fv_json_real(mem[0]));
	json_object_set_new(mj, "rank0_estimate_mib", fv_json_real(b->host_bytes / MIB));
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
