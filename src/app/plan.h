/* SPDX-License-Identifier: MIT */
/* `fvstar run` as a plan: one object built in phases (case, mesh, runtime,
 * blocks and placement, state, solver), each phase a function whose inputs
 * and outputs are the fields below, the same code for one process and for
 * several ranks.
 *
 *   case     argv            -> c, ro, verbose, the output directory checked
 *   mesh     c               -> from_dir, m (rank 0) or part, n_cells; MPI up,
 *                               the output directory locked, case.effective in it
 *   starpu   ro              -> runtime_up (the workers asleep)
 *   blocks   c, m, n_cells   -> budget (checked first), bal (the placement:
 *                               block -> worker), part (block -> rank), so, bc,
 *                               is_force, forces
 *   state    part, so        -> wdist, st, start (restart or free stream)
 *   solver   part, so, st    -> solver (its workers woken)
 *
 * fv_plan_destroy frees whatever the phases made, whichever phase failed. */
#ifndef FVSTAR_APP_PLAN_H
#define FVSTAR_APP_PLAN_H

#include <jansson.h>
#include <signal.h>

#include "app/app.h"
#include "fvstar/runtime.h"

/* The timed set-up phases, in order (summary.json's setup_seconds keys). */
typedef enum fv_plan_phase {
	FV_PHASE_CASE,
	FV_PHASE_MESH,
	FV_PHASE_STARPU,
	FV_PHASE_BLOCKS,
	FV_PHASE_STATE,
	FV_PHASE_SOLVER,
	FV_PHASE_N
} fv_plan_phase_t;

extern const char *const fv_plan_phase_names[FV_PHASE_N];

/* Where the iterations start: iteration 1 from the free stream, or a
 * restart's iteration, time, residual references and CFL ramp. */
typedef struct fv_plan_start {
	int first;              /* the first iteration to run */
	double t0;              /* its physical time */
	double res0[5];         /* the first iteration's residuals (have_res0) */
	int have_res0;
	double res_peak;        /* the density residual's peak so far, and where */
	int res_peak_iter;
	double ramp[FV_RESTART_SOLVER_STATE_MAX]; /* the CFL ramp (fv_solver_set_ramp_state) */
	int n_ramp;
} fv_plan_start_t;

/* The memory budget (src/app/budget.c): a rank's host bytes now and to
 * come, and its GPUs'. */
typedef struct fv_budget {
	double rss_bytes;       /* the rank's resident set at the check (rank 0: the whole mesh too) */
	double more_bytes;      /* what it will add: its blocks, their state, the solver (estimated) */
	double host_bytes;      /* its peak, estimated: rss_bytes + more_bytes */
	double avail_bytes;     /* its share of the node's MemAvailable; -1: unknown */
	double device_bytes;    /* its GPUs together: the solver's data of its blocks */
} fv_budget_t;

typedef struct fv_plan {
	/* case */
	int argc_all;           /* the command's arguments as given (the trace's re-execution) */
	char **argv_all;
	int argc;               /* without -v / --verbose: argv[0] "run", argv[1] the case */
	char **argv;
	int verbose;            /* -v: the effective case on the screen too */
	fv_case_t c;
	fv_runtime_opts_t ro;
	/* mesh */
	int from_dir;           /* mesh.file is a partition directory */
	fv_mesh_t m;            /* rank 0's whole mesh, until the blocks are cut from it */
	long long n_cells;      /* the whole mesh's, on every rank */
	/* starpu */
	int runtime_up;
	int stopped; /* fv_plan_stop ran */
	/* blocks and placement */
	fv_balance_t bal;       /* the blocks' shares and workers (bal.worker: the placement) */
	fv_part_t part;         /* this rank's blocks and every block's rank (part.rank_of) */
	uint64_t *block_digest; /* this rank's blocks' set-up digests, taken before fv_blocks_trim */
	fv_solver_opts_t so;    /* so.block_worker, so.block_rank point into bal and part */
	int8_t *bc;
	uint8_t *is_force;
	int forces;             /* the case has force markers */
	/* state */
	double **wdist;         /* Spalart-Allmaras: per block wall distances */
	fv_app_state_t st;
	fv_plan_start_t start;
	/* solver */
	const volatile sig_atomic_t *stop_flag; /* set by the caller: one process only */
	fv_solver_t *solver;
	fv_overlap_stats_t overlap; /* this rank's blocks split into interior and border tasks */
	fv_budget_t budget;     /* the memory estimate of the blocks phase */
	/* each phase's wall seconds: rank 0's clock, and the maximum over ranks */
	double phase_s[FV_PHASE_N], phase_max_s[FV_PHASE_N];
	double *phase_rank_s;   /* every rank's: [rank * FV_PHASE_N + phase] (fv_plan_solver) */
	/* the set-up's threads: those the process has, and each phase's (the
	 * mesh phase's faces and geometry): one per fv_cells_per_thread() cells */
	int threads_avail;
	int phase_threads[FV_PHASE_N];
} fv_plan_t;

/* The phases up to and including the state; then the solver. Each records
 * its time in phase_s. On an error the plan holds what was made. */
fv_err_t fv_plan_setup(fv_plan_t *p, int argc, char **argv);
fv_err_t fv_plan_solver(fv_plan_t *p);
/* The set-up's times as summary.json's "setup_seconds" (and, with several
 * ranks, "setup_seconds_max_over_ranks"). */
void fv_plan_setup_json(const fv_plan_t *p, json_t *js);
/* Frees the solver and ends StarPU (and MPI): once, here or in
 * fv_plan_destroy; what the host holds (mesh, blocks, state) stays. */
void fv_plan_stop(fv_plan_t *p);
/* Frees every phase's output (ending StarPU and MPI), converts the trace
 * when err is FV_OK, and returns err or the conversion's error. With
 * several ranks, a failed rank (err other than FV_OK and FV_ERR_NUMERIC)
 * stops them all first. */
fv_err_t fv_plan_destroy(fv_plan_t *p, fv_err_t err);

/* The memory budget: the host bytes a rank adds from its share of the
 * mesh's n_cells and n_faces and the case (state rows, implicit blocks),
 * more_bytes, and its GPUs' share, device_bytes. */
void fv_budget_estimate(const fv_case_t *c, double n_cells, double n_faces, fv_budget_t *b);
/* After StarPU starts, before the blocks: the estimate into b, a line on
 * stderr (rank 0), and the verdict of runtime.memory_check. */
fv_err_t fv_budget_check(const fv_case_t *c, long long n_cells, long long n_faces, fv_budget_t *b);
/* Memory per cell at the end of a run: the peak host memory of each rank
 * and the device memory StarPU holds on each GPU, into summary.json's
 * "memory" and two lines on stderr (rank 0). rss_mib: every rank's peak. */
void fv_budget_report(json_t *js, const fv_budget_t *b, const double *rss_mib, int n_ranks, long long n_cells);
/* The distributed set-up's evidence (src/app/plan_dist.c), gathered from
 * every rank into *out on rank 0, summary.json's keys largest_allocation
 * ({"bytes": [per rank], "what": [...]}: util/alloc.h) and block_digests
 * (each block's local mesh, halo lists and file positions, XXH64 in hex:
 * equal for any rank count). */
fv_err_t fv_app_dist_summary(const fv_part_t *p, const uint64_t *digests, json_t **out);
/* The digests of this rank's blocks (zero for the others' ones) into *out
 * (n_blocks), while the blocks still hold their whole local meshes. */
fv_err_t fv_app_block_digests(const fv_part_t *p, uint64_t **out);

#endif
