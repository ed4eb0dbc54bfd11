/* SPDX-License-Identifier: MIT */
/* The set-up phases of `fvstar run` (src/app/plan.h): case, mesh, StarPU,
 * blocks and placement, state, solver, each with its inputs and outputs in
 * the plan, and the plan's destruction. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/plan.h"
#include "fvstar/output.h"
#include "io/json.h"
#include "util/env.h"
#include "util/heap.h"
#include "util/threads.h"
#include "util/timer.h"

const char *const fv_plan_phase_names[FV_PHASE_N] = {"case", "mesh", "starpu", "blocks", "state", "solver"};

/* The arguments without -v / --verbose (anywhere after the sub-command). */
static fv_err_t plan_args(fv_plan_t *p, int argc, char **argv)
{
	p->argc_all = argc;
	p->argv_all = argv;
	FV_CALL(fv_calloc(&p->argv, (size_t)argc + 1, sizeof *p->argv, "arguments"));
	for (int i = 0; i < argc; i++)
		if (i > 0 && (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "--verbose") == 0))
			p->verbose = 1;
		else
			p->argv[p->argc++] = argv[i];
	return FV_OK;
}

/* case: the case file, the command line's keys, the runtime options (what
 * StarPU would refuse refused now, not after the mesh is read) and every
 * output place checked. */
static fv_err_t plan_case(fv_plan_t *p)
{
	fv_case_t *c = &p->c;
	fv_runtime_opts_t *ro = &p->ro;
	FV_CHECK(p->argc >= 2, FV_ERR_ARG, "usage: fvstar run CASE.cfg [-v] [section.key=value ...]");
	FV_CALL(fv_case_read(c, p->argv[1]));
	for (int i = 2; i < p->argc; i++)
		FV_CALL(fv_case_set_arg(c, p->argv[i], "command line"));
	FV_CALL(fv_case_finish(c));
	ro->sched = c->sched[0] ? c->sched : NULL;
	ro->ncpu = c->ncpu;
	ro->ncuda = c->ncuda;
	ro->gpu_speed = c->gpu_speed;
	ro->oversubscribe = c->oversubscribe;
	ro->watchdog = c->watchdog;
	ro->cpu_cells_asked = c->worker_speeds[0] || c->balance == FV_BALANCE_EQUAL;
	ro->verbose = 1;
	ro->paused = 1; /* asleep until the solver is built: the cut, the blocks and the geometry use the cores */
	FV_CALL(fv_runtime_check_opts(ro));
	/* CPU workers only on many cores: run again with sleeping set-up threads */
	fv_app_passive_threads(fv_runtime_cuda_wanted(ro));
	fv_runtime_warm_gpus(ro); /* the GPUs' contexts made while the mesh is read */
	/* -v: the effective case opens the log: every key, and where each
	 * value that is not a default came from (always in case.effective) */
	if (p->verbose && !getenv("FVSTAR_TRACE_REEXEC") && fv_runtime_rank() == 0) {
		fprintf(stderr, "fvstar: the effective case (fvstar keys explains each key):\n");
		fv_case_print(c, stderr);
	}
	/* every output place is checked now, not after the last iteration */
	FV_CALL(fv_output_mkdir(c->out_dir));
	FV_CALL(fv_output_check_writable(c->out_dir, "[output] dir ="));
	if (c->trace_dir[0]) {
		FV_CALL(fv_output_mkdir(c->trace_dir));
		FV_CALL(fv_output_check_writable(c->trace_dir, "[output] trace ="));
	}
	return fv_runtime_trace_prepare(c->trace_dir, p->argc_all, p->argv_all);
}

/* OUTDIR/case.effective: the effective case, every key and where each
 * value came from, named in one line on the screen. */
static fv_err_t write_effective_case(const fv_case_t *c)
{
	char path[FV_CASE_PATH_MAX + 32];
	FILE *f;
	snprintf(path, sizeof path, "%s/case.effective", c->out_dir);
	f = fopen(path, "w");
	FV_CHECK(f, FV_ERR_IO, "%s: cannot write the effective case", path);
	fv_case_print(c, f);
	FV_CHECK(fclose(f) == 0, FV_ERR_IO, "%s: cannot write the effective case", path);
	fprintf(stderr, "fvstar: the effective case in %s (fvstar keys explains each key; -v prints it here)\n", path);
	return FV_OK;
}

static fv_err_t plan_starpu(fv_plan_t *p);

/* Rank 0 of several reads the mesh on a thread of its own while MPI
 * starts on the main thread (the one that will finalise it): MPI's start
 * took 0.3-0.4 s of every rank's set-up on a GPU node (session 18 call
 * 3), the reading waited for it. From a partition directory every rank
 * reads its own part file so, its rank taken from the launcher's
 * environment (the file's rank and rank count are checked once MPI is
 * up): MPI's start was 0.31-0.35 s of a part-file rank's 0.66-0.96 s set-up
 * on the 663k box (session 20 call 1), done before the reading. */
typedef struct mesh_reader {
	fv_plan_t *p;
	int threads;       /* the widened count, or the rank's share (a new thread starts with OpenMP's default) */
	int faces_threads; /* those its faces and geometry took */
	int part;          /* the rank's part file, not the mesh */
	double seconds;    /* the reading's */
	fv_err_t err;
	char msg[1024];    /* its error message (a thread's own) */
	pthread_t th;
	int started;
} mesh_reader_t;

#ifndef FV_SMPI /* fvstar-smpi: StarPU-MPI starts with the mesh phase, nothing beside it */
static void *read_beside(void *arg)
{
	mesh_reader_t *r = arg;
	double t = fv_now();
	fv_threads_set(r->threads);
	if (r->part) {
		char path[FV_CASE_PATH_MAX + 32];
		fv_part_path(r->p->c.mesh_file, fv_runtime_rank(), path, sizeof path);
		r->err = fv_part_read(path, &r->p->part);
	} else {
		r->err = fv_app_load_mesh(&r->p->c, &r->p->m);
		r->faces_threads = fv_threads_for((size_t)r->p->m.n_cells, fv_cells_per_thread());
	}
	r->seconds = fv_now() - t;
	if (r->err != FV_OK)
		snprintf(r->msg, sizeof r->msg, "%s", fv_errmsg());
	return NULL;
}

/* Part files read beside MPI's start (FVSTAR_PARTS_BESIDE_MPI, default
 * 1; 0: after it, as before session 22). */
static int beside_parts(void)
{
	int on;
	if (fv_env_switch("FVSTAR_PARTS_BESIDE_MPI", 1, &on) != FV_OK)
		on = 1; /* refused before the command started (fv_env_check) */
	return on;
}

/* Several ranks: StarPU started (and paused) on each rank right after
 * MPI, beside the reading (rank 0's mesh, or every rank's part file) or
 * while rank 0 reads, not after it (FVSTAR_STARPU_BESIDE_READ, default
 * 1; 0: after the mesh phase, as before session 22): StarPU's start was
 * 0.27-0.48 s of a part-file rank's set-up and 0.72-1.55 s of a rank's
 * from the mesh file (R = 2, 4; 663k box, session 20 call 1). */
static int beside_starpu(void)
{
	int on;
	if (fv_runtime_nranks() < 2 || fv_env_switch("FVSTAR_STARPU_BESIDE_READ", 1, &on) != FV_OK)
		return 0;
	return on;
}
#endif

/* MPI's start, and rank 0's reading beside it where several ranks start
 * from a mesh file: the rank on every core of the launcher (its share
 * first, which widen gives back), the others waiting for the cell count,
 * asleep; from a partition directory, every rank's part file read beside
 * it on the rank's share of the cores. */
static fv_err_t start_mpi(fv_plan_t *p, mesh_reader_t *rd)
{
	double t;
	fv_err_t err;
	(void)p; /* fvstar-smpi: no reading beside MPI's start */
#ifndef FV_SMPI
	if (fv_runtime_nranks() > 1 && (p->from_dir ? beside_parts() : fv_runtime_rank() == 0)) {
		fv_runtime_place_early();
		rd->part = p->from_dir;
		rd->threads = p->from_dir ? 0 : fv_runtime_widen(1);
		rd->threads = rd->threads > 0 ? rd->threads : fv_threads_max();
		rd->started = pthread_create(&rd->th, NULL, read_beside, rd) == 0;
		if (!rd->started && !p->from_dir)
			fv_runtime_widen(0);
	}
#endif
	t = fv_now();
	err = fv_runtime_mpi_start();
	t = fv_now() - t;
	double ts = -1;
#ifndef FV_SMPI
	if (err == FV_OK && beside_starpu()) {
		ts = fv_now();
		err = plan_starpu(p);
		ts = fv_now() - ts;
	}
#endif
	if (rd->started) {
		pthread_join(rd->th, NULL);
		if (!rd->part)
			fv_runtime_widen(0);
	}
	FV_CALL(err);
	if (fv_runtime_nranks() > 1)
		fv_lap(rd->started ? "mesh: MPI start (beside the reading)" : "mesh: MPI start", fv_now() - t);
	if (ts >= 0)
		fv_lap(rd->started ? "mesh: StarPU start (beside the reading)" : "mesh: StarPU start (before the mesh)",
		       fv_now() - ts);
	if (rd->started && rd->part) {
		fv_lap("mesh: part file read (beside MPI's start)", fv_now() - rd->seconds);
		fv_lap_note("mesh: part file read (beside MPI's start)", "on %d threads", rd->threads);
	}
	return FV_OK;
}

/* mesh: MPI before StarPU: rank 0 alone reads the mesh, cuts it and sends
 * each rank its part; a partition directory gives each rank its own */
static fv_err_t plan_mesh(fv_plan_t *p)
{
	fv_case_t *c = &p->c;
	mesh_reader_t rd = {.p = p};
	p->from_dir = fv_app_is_part_dir(c->mesh_file);
	FV_CALL(start_mpi(p, &rd));
	FV_CHECK(!rd.started || rd.err == FV_OK, rd.err, "%s", rd.msg);
#ifdef FV_SMPI
	/* simulated ranks talk through StarPU-MPI only (src/runtime/ranks.c) */
	FV_CALL(plan_starpu(p));
#endif
	/* the output directory is this run's before anything is written in it
	 * (rank 0 writes every file there) */
	if (fv_runtime_rank() == 0) {
		char note[FV_CASE_PATH_MAX + 512];
		FV_CALL(fv_output_lock(c->out_dir, note, sizeof note));
		if (note[0])
			fprintf(stderr, "fvstar: %s\n", note);
		FV_CALL(write_effective_case(c));
	}
	FV_CALL(fv_runtime_agree(p->from_dir, "mesh.file being a partition directory (1) or a mesh (0)"));
	if (p->from_dir) {
		if (rd.started) /* read beside MPI's start: checked now */
			FV_CALL(fv_app_check_part(c->mesh_file, &p->part));
		else
			FV_CALL(fv_app_read_part(c->mesh_file, &p->part));
		FV_CHECK(c->mesh_refine == 0, FV_ERR_ARG,
			 "%s: [mesh] refine = %d: a partition directory holds the mesh as cut (`fvstar mesh "
			 "partition --refine`)",
			 c->mesh_file, c->mesh_refine);
		p->n_cells = p->part.n_cells;
	} else if (fv_runtime_rank() == 0) {
		if (rd.started) {
			p->phase_threads[FV_PHASE_MESH] = rd.faces_threads;
			fv_lap_note("mesh: faces, geometry, checks",
				    "rank 0 read the mesh on %d threads beside MPI's start (faces, geometry on %d)",
				    rd.threads, rd.faces_threads);
		} else {
			/* one process (or simulated ranks): on its threads */
			FV_CALL(fv_app_load_mesh(c, &p->m));
			/* the threads fv_app_read_mesh's faces and geometry took */
			p->phase_threads[FV_PHASE_MESH] =
				fv_threads_for((size_t)p->m.n_cells, fv_cells_per_thread());
		}
		p->n_cells = p->m.n_cells;
	}
	/* every rank sizes its blocks from the cell count (the others wait
	 * here for rank 0's reading) */
	double t = fv_now();
	FV_CALL(fv_runtime_combine(&p->n_cells, sizeof p->n_cells, "the mesh's cell count"));
	if (fv_runtime_nranks() > 1)
		fv_lap("mesh: the cell count shared", t);
	return FV_OK;
}

/* starpu: StarPU starts once the mesh is ready: its workers would poll
 * while the mesh is read (25 s of set-up with 15 CPU workers on an H100
 * node) */
static fv_err_t plan_starpu(fv_plan_t *p)
{
	if (p->runtime_up)
		return FV_OK; /* fvstar-smpi: started with the mesh phase */
	FV_CALL(fv_runtime_init(&p->ro));
	p->runtime_up = 1;
	return FV_OK;
}

/* Rank 0 cutting the mesh: its own part kept, the others' sent. */
static fv_err_t hand_out(int rank, fv_part_t *p, void *arg)
{
	fv_part_t *mine = arg;
	uint8_t *buf = NULL;
	size_t n = 0;
	fv_err_t err;
	if (rank == 0) {
		*mine = *p;
		memset(p, 0, sizeof *p);
		return FV_OK;
	}
	FV_CALL(fv_part_pack(p, &buf, &n));
	err = fv_runtime_send_bytes(buf, n, rank, "its mesh part");
	free(buf);
	return err;
}

/* The rank's part: from a partition directory, each rank its own file;
 * else rank 0 cuts the mesh it read (m, freed here) into bal's blocks and
 * sends every other rank its part. */
static fv_err_t get_part(const fv_case_t *c, fv_mesh_t *m, const fv_balance_t *bal, fv_part_t *p)
{
	if (fv_app_is_part_dir(c->mesh_file))
		return fv_app_read_part(c->mesh_file, p);
	if (fv_runtime_rank() == 0) {
		/* the other ranks wait for their parts, asleep: rank 0 cuts on
		 * all the node's cores, not its share of them */
		int threads = fv_runtime_nranks() > 1 ? fv_runtime_widen(1) : 0;
		if (threads > 0) /* the node's cores, as many as the cells are worth */
			(void)fv_threads_cap((size_t)m->n_cells);
		int cut = fv_threads_max();
		fv_err_t err = fv_app_cut_parts(c, m, bal->n_blocks, bal->weights, bal->groups, fv_runtime_nranks(),
						hand_out, p);
		fv_runtime_widen(0);
		if (threads > 0)
			fv_lap_note("blocks: partition", "rank 0 cut the mesh on %d of %d threads (then on %d)", cut,
				    threads, fv_threads_max());
		fv_mesh_free(m);
		FV_CALL(err);
		return FV_OK;
	}
	uint8_t *buf = NULL;
	size_t n = 0;
	char name[64];
	fv_err_t err;
	snprintf(name, sizeof name, "the mesh part rank 0 sent rank %d", fv_runtime_rank());
	FV_CALL(fv_runtime_recv_bytes(&buf, &n, 0, "the mesh part"));
	err = fv_part_unpack(buf, n, name, p);
	free(buf);
	return err;
}

/* Which workers work and why, with the shares of the cells the
 * partitioner gave them. */
static void say_workers(const fv_balance_t *bal, const fv_idx_t *off, int nb, fv_idx_t n_cells)
{
	if (!bal->weights) {
		fprintf(stderr, "fvstar: %s\n", bal->why);
		return;
	}
	fv_idx_t gpu = 0, lo = n_cells, hi = 0;
	for (int b = 0; b < nb; b++) {
		fv_idx_t n = off[b + 1] - off[b];
		gpu += bal->is_gpu[b] ? n : 0;
		lo = n < lo ? n : lo;
		hi = n > hi ? n : hi;
	}
	if (gpu > 0)
		fprintf(stderr, "fvstar: %s; GPU blocks %.1f%% of the cells, CPU blocks %.1f%%\n", bal->why,
			100.0 * (double)gpu / (double)n_cells, 100.0 * (double)(n_cells - gpu) / (double)n_cells);
	else
		fprintf(stderr, "fvstar: %s; blocks of %.1f%% to %.1f%% of the cells\n", bal->why,
			100.0 * (double)lo / (double)n_cells, 100.0 * (double)hi / (double)n_cells);
}

/* The blocks' lines on stderr (rank 0): workers, ranks, mesh, axes. */
static void say_blocks(const fv_plan_t *p)
{
	const fv_part_t *part = &p->part;
	say_workers(&p->bal, part->block_off, part->n_blocks, (fv_idx_t)part->n_cells);
	if (part->n_ranks > 1)
		fprintf(stderr,
			"fvstar: %d ranks, %d to %d blocks each (%s), mesh parts %s: %lld of the %lld halo "
			"cells between blocks cross ranks\n",
			part->n_ranks, part->n_blocks / part->n_ranks, (part->n_blocks + part->n_ranks - 1) / part->n_ranks,
			part->grown ? "grown through the block graph" : "contiguous block ids",
			p->from_dir ? "read by each rank" : "sent by rank 0", part->cut, part->halo);
	fprintf(stderr,
		"fvstar: %s: %lld cells, %lld faces, %d blocks (edge cut %lld, imbalance %.3f), "
		"index bandwidth %lld -> %lld\n",
		p->c.mesh_file, (long long)part->n_cells, (long long)part->n_faces, part->n_blocks,
		(long long)part->ps.edge_cut, part->ps.imbalance, (long long)part->os.bandwidth_before,
		(long long)part->os.bandwidth_after);
	fprintf(stderr, "fvstar: axes: %s\n", fv_case_axes(&p->c));
}

/* blocks and placement: the memory budget first, then the blocks' count
 * and shares (bal), the cut (part), each block's worker and rank handed to
 * the solver's options (so.block_worker, so.block_rank) */
static fv_err_t plan_blocks(fv_plan_t *p)
{
	fv_case_t *c = &p->c;
	fv_part_t *part = &p->part;
	/* the whole mesh's faces: rank 0's mesh, or a part's count of them */
	long long n_faces = p->from_dir ? part->n_faces : (long long)p->m.n_faces;
	FV_CALL(fv_runtime_combine(&n_faces, sizeof n_faces, "the mesh's face count"));
	FV_CALL(fv_budget_check(c, p->n_cells, n_faces, &p->budget));
	if (p->from_dir) {
		snprintf(p->bal.why, sizeof p->bal.why, "%d blocks as cut by `fvstar mesh partition` (%.300s)",
			 part->n_blocks, c->mesh_file);
		p->bal.n_blocks = part->n_blocks;
	} else {
		fv_balance_opts_t bo = {.balance = c->balance, .gpu_speed = c->gpu_speed,
					.worker_speeds = c->worker_speeds, .blocks = c->blocks};
		FV_CALL(fv_runtime_balance(&bo, (long)p->n_cells, &p->bal));
		/* several ranks: rank 0 cuts the blocks of its own count */
		FV_CALL(fv_runtime_agree(p->bal.n_blocks, "the block count"));
		FV_CALL(get_part(c, &p->m, &p->bal, part));
	}
	FV_CALL(fv_runtime_check_block_ranks(part->rank_of, part->n_blocks));
	/* a 2D mesh turns alpha and the lift into its plane */
	FV_CALL(fv_case_set_mesh_2d(c, part->piece.extruded_2d));
	FV_CALL(fv_app_solver_opts(c, &part->piece, &p->so, &p->bc, &p->is_force));
	p->so.block_worker = p->bal.worker;
	p->so.block_rank = part->rank_of;
	for (int k = 0; k < part->piece.n_markers; k++)
		p->forces |= p->is_force[k];
	if (fv_runtime_rank() == 0)
		say_blocks(p);
	return FV_OK;
}

/* The state from c->restart_from: this rank's cells, and where the
 * iterations go on from. */
static fv_err_t plan_restart(fv_plan_t *p)
{
	fv_case_t *c = &p->c;
	fv_plan_start_t *s = &p->start;
	fv_restart_t rs;
	char note[1024];
	fv_err_t err;
	FV_CALL(fv_app_part_restart_read(c->restart_from, &p->part, &rs, &p->st));
	/* another physical model only where the case says so, and said */
	err = fv_restart_check_model(c->restart_from, &rs, c->model, c->restart_from_model,
				     c->model == FV_MODEL_SA ? fv_app_nut_inf(c) : 0, note, sizeof note);
	if (err != FV_OK) {
		fv_restart_free(&rs);
		return err;
	}
	if (note[0] && fv_runtime_rank() == 0)
		fprintf(stderr, "fvstar: %s\n", note);
	s->first = (int)rs.iteration + 1;
	s->t0 = rs.time;
	memcpy(s->res0, rs.res0, sizeof s->res0);
	s->have_res0 = 1;
	/* the reference the run measured from (a format-2 restart kept none:
	 * the peak is then this run's) */
	s->res_peak = rs.res_peak;
	s->res_peak_iter = (int)rs.res_peak_iter;
	p->so.res0_rho = rs.res0[0];
	s->n_ramp = rs.n_solver_state;
	memcpy(s->ramp, rs.solver_state, sizeof s->ramp);
	fv_restart_free(&rs);
	if (fv_runtime_rank() == 0)
		fprintf(stderr, "fvstar: continuing from %s at iteration %d\n", c->restart_from, s->first);
	return FV_OK;
}

/* state: wall distances (Spalart-Allmaras), the blocks' state from the
 * free stream, then from the restart when there is one */
static fv_err_t plan_state(fv_plan_t *p)
{
	if (p->so.sa) {
		FV_CALL(fv_app_part_wall_distances(&p->c, &p->part, &p->so, &p->wdist));
		p->so.wall_dist_blocks = (const double *const *)p->wdist;
	}
	FV_CALL(fv_app_state_alloc(&p->c, &p->part, &p->st));
	/* a restart without nu~ (an Euler or laminar run's) starts nu~ from the free stream */
	fv_app_part_initial_state(&p->c, &p->part, &p->st);
	p->start.first = 1;
	return p->c.restart_from[0] ? plan_restart(p) : FV_OK;
}

/* Runs phase k of the plan, timed, on the threads its cells are worth
 * (fv_threads_cap; the mesh phase's reader before the cells are known on
 * all, its faces and geometry capped in fv_app_read_mesh). */
static fv_err_t plan_phase(fv_plan_t *p, fv_plan_phase_t k, fv_err_t (*phase)(fv_plan_t *))
{
	int was = fv_threads_max();
	/* the whole mesh's cells until the blocks are cut (rank 0 cuts them
	 * all), this rank's from then on */
	size_t cells = k > FV_PHASE_BLOCKS && p->part.piece.n_cells > 0 ? (size_t)p->part.piece.n_cells
									 : (size_t)p->n_cells;
	if (k > FV_PHASE_MESH) {
		fv_threads_set(fv_threads_for(cells, fv_cells_per_thread()));
		p->phase_threads[k] = fv_threads_max();
	}
	double t = fv_now();
	fv_err_t err = phase(p);
	p->phase_s[k] = fv_now() - t;
	if (k > FV_PHASE_MESH)
		fv_threads_set(was);
	else if (k == FV_PHASE_MESH) { /* the rank's share of the cores, placed in the mesh phase (fv_runtime_place_early) */
		p->threads_avail = fv_threads_max();
		if (p->phase_threads[k] == 0) /* a part read, not capped (rank 0's faces: plan_mesh) */
			p->phase_threads[k] = p->threads_avail;
	}
	return err;
}

fv_err_t fv_plan_setup(fv_plan_t *p, int argc, char **argv)
{
	memset(p, 0, sizeof *p);
	fv_mark("set-up");
	fv_case_default(&p->c);
	fv_runtime_opts_default(&p->ro);
	fv_mesh_init(&p->m);
	FV_CALL(plan_args(p, argc, argv));
	FV_CALL(plan_phase(p, FV_PHASE_CASE, plan_case));
	FV_CALL(plan_phase(p, FV_PHASE_MESH, plan_mesh));
	FV_CALL(plan_phase(p, FV_PHASE_STARPU, plan_starpu));
	FV_CALL(plan_phase(p, FV_PHASE_BLOCKS, plan_blocks));
	return plan_phase(p, FV_PHASE_STATE, plan_state);
}

/* The solver's geometry is built from the blocks: the arrays only it
 * read go before the solver's fields come (the run reads ids, boundary
 * faces and halo lists afterwards). */
static void trim_blocks(void *arg)
{
	fv_part_t *part = arg;
	fv_blocks_trim(part->blocks, part->n_blocks);
}

/* solver: created over this rank's blocks (the whole mesh's counts),
 * the workers woken, the state and a restart's CFL ramp set */
static fv_err_t plan_solver(fv_plan_t *p)
{
	fv_mesh_t shape;
	fv_overlap_stats_t *ov = &p->overlap;
	fv_mesh_init(&shape);
	shape.n_cells = (fv_idx_t)p->part.n_cells;
	shape.n_markers = p->part.piece.n_markers;
	p->so.stop_flag = p->stop_flag;
	/* the blocks' digests (summary.json) before the arrays they hash go */
	double t = fv_now();
	FV_CALL(fv_app_block_digests(&p->part, &p->block_digest));
	t = fv_lap("solver: block digests", t);
	p->so.geometry_done = trim_blocks;
	p->so.geometry_done_arg = &p->part;
	FV_CALL(fv_solver_create(&p->solver, &shape, p->part.blocks, p->part.n_blocks, &p->so));
	p->so.geometry_done = NULL;
	t = fv_now();
	fv_solver_overlap_stats(p->solver, ov);
	if (fv_runtime_rank() == 0 && ov->split_blocks > 0)
		fprintf(stderr, "fvstar: overlap: the flux of %d block%s in an interior and a border task (%.1f%% of "
				"their faces beside ghosts)\n",
			ov->split_blocks, ov->split_blocks > 1 ? "s" : "",
			100.0 * (double)ov->border_faces / (double)(ov->faces > 0 ? ov->faces : 1));
	if (fv_runtime_rank() == 0 && ov->host_buffers > 0)
		fprintf(stderr, "fvstar: halo_zero_copy: %d of the %d halo buffers rank 0 sends to other ranks stay in host "
				"memory; the pack and unpack kernels use them there\n",
			ov->host_buffers, ov->cross_buffers);
	if (fv_runtime_rank() == 0 && (ov->peer_buffers > 0 || ov->peer_why[0]))
		fprintf(stderr,
			"fvstar: halo_peer: %d of the %d halo buffers rank 0 sends to other ranks go straight into the "
			"receiving rank's memory (GPU to GPU, or shared memory between CPU blocks)%s%s%s\n",
			ov->peer_buffers, ov->cross_buffers, ov->peer_why[0] ? "; the others: " : "", ov->peer_why, "");
	fv_runtime_resume();
	FV_CALL(fv_solver_set_block_states(p->solver, p->st.qb));
	FV_CALL(fv_solver_set_ramp_state(p->solver, p->start.ramp, p->start.n_ramp));
	fv_lap("solver: state set", t);
	return FV_OK;
}

/* The set-up's line: rank 0's clock, and the slowest rank's where several. */
static void say_setup(const fv_plan_t *p)
{
	double tot = 0, max = 0;
	for (int k = 0; k < FV_PHASE_N; k++) {
		tot += p->phase_s[k];
		max += p->phase_max_s[k];
	}
	fprintf(stderr,
		"fvstar: set-up %.2f s: case %.2f, mesh %.2f (read, faces, geometry), StarPU %.2f, blocks %.2f (cut, "
		"renumbering, local meshes), state %.2f, solver %.2f (geometry, colouring, data)",
		tot, p->phase_s[FV_PHASE_CASE], p->phase_s[FV_PHASE_MESH], p->phase_s[FV_PHASE_STARPU],
		p->phase_s[FV_PHASE_BLOCKS], p->phase_s[FV_PHASE_STATE], p->phase_s[FV_PHASE_SOLVER]);
	if (fv_runtime_nranks() > 1) {
		fprintf(stderr, "; the slowest rank per phase %.2f s:", max);
		for (int k = 0; k < FV_PHASE_N; k++)
			fprintf(stderr, " %s %.2f", fv_plan_phase_names[k], p->phase_max_s[k]);
	}
	fputc('\n', stderr);
	if (p->verbose) {
		const fv_lap_t *l;
		int n = fv_laps(&l);
		fprintf(stderr, "fvstar: set-up steps (s, MB resident after):");
		for (int i = 0; i < n; i++)
			fprintf(stderr, "%s %s %.2f (%.0f)", i ? "," : "", l[i].name, l[i].seconds, 1e-6 * (double)l[i].rss);
		fputc('\n', stderr);
		for (int i = 0; i < n; i++)
			if (l[i].note[0])
				fprintf(stderr, "fvstar: set-up step %s: %s\n", l[i].name, l[i].note);
	}
}

fv_err_t fv_plan_solver(fv_plan_t *p)
{
	int nr = fv_runtime_nranks(), me = fv_runtime_rank();
	double *all = NULL;
	fv_err_t err;
	FV_CALL(plan_phase(p, FV_PHASE_SOLVER, plan_solver));
	/* every rank's phase times, for their maximum */
	FV_CALL(fv_calloc(&all, (size_t)nr * FV_PHASE_N, sizeof *all, "set-up times"));
	memcpy(all + (size_t)me * FV_PHASE_N, p->phase_s, sizeof p->phase_s);
	err = fv_runtime_combine(all, (size_t)nr * FV_PHASE_N * sizeof *all, "the set-up times");
	for (int r = 0; r < nr && err == FV_OK; r++)
		for (int k = 0; k < FV_PHASE_N; k++)
			if (all[(size_t)r * FV_PHASE_N + k] > p->phase_max_s[k])
				p->phase_max_s[k] = all[(size_t)r * FV_PHASE_N + k];
	p->phase_rank_s = all; /* summary.json's setup_seconds_per_rank */
	FV_CALL(err);
	if (me == 0)
		say_setup(p);
	fv_heap_give_back(); /* what set-up freed, back to the kernel (util/heap.c) */
	fv_mark("set-up done");
	return FV_OK;
}

void fv_plan_setup_json(const fv_plan_t *p, json_t *js)
{
	json_t *sj = json_object(), *mj = json_object();
	double tot = 0, max = 0;
	for (int k = 0; k < FV_PHASE_N; k++) {
		json_object_set_new(sj, fv_plan_phase_names[k], fv_json_real(p->phase_s[k]));
		json_object_set_new(mj, fv_plan_phase_names[k], fv_json_real(p->phase_max_s[k]));
		tot += p->phase_s[k];
		max += p->phase_max_s[k];
	}
	json_object_set_new(sj, "total", fv_json_real(tot));
	json_object_set_new(mj, "total", fv_json_real(max));
	json_object_set_new(js, "setup_seconds", sj);
	{
		/* the steps inside the phases, this rank's: seconds, bytes
		 * resident after each and the peak so far */
		json_t *st = json_object();
		const fv_lap_t *l;
		int n = fv_laps(&l);
		for (int i = 0; i < n; i++) {
			json_t *e = json_object();
			json_object_set_new(e, "seconds", fv_json_real(l[i].seconds));
			json_object_set_new(e, "rss_bytes", json_integer((json_int_t)l[i].rss));
			json_object_set_new(e, "peak_rss_bytes", json_integer((json_int_t)l[i].peak));
			if (l[i].note[0])
				json_object_set_new(e, "note", json_string(l[i].note));
			json_object_set_new(st, l[i].name, e);
		}
		json_object_set_new(js, "setup_steps", st);
	}
	json_object_set_new(js, "setup_threads", json_integer(p->threads_avail));
	{
		/* the threads each phase took of them (rank 0's): one per
		 * setup_cells_per_thread cells (0: all) */
		json_t *tj = json_object();
		for (int k = FV_PHASE_MESH; k < FV_PHASE_N; k++)
			json_object_set_new(tj, fv_plan_phase_names[k], json_integer(p->phase_threads[k]));
		json_object_set_new(js, "setup_threads_per_phase", tj);
		json_object_set_new(js, "setup_cells_per_thread", json_integer((json_int_t)fv_cells_per_thread()));
		/* how the threads wait between loops (src/app/fvstar.c: passive
		 * on FV_PASSIVE_CORES cores and more without CUDA workers unless
		 * said) */
		const char *wp = getenv("OMP_WAIT_POLICY");
		json_object_set_new(js, "setup_omp_wait_policy", json_string(wp && *wp ? wp : "default"));
	}
	if (fv_runtime_nranks() > 1) {
		json_t *rj = json_array();
		json_object_set_new(js, "setup_seconds_max_over_ranks", mj);
		for (int r = 0; p->phase_rank_s && r < fv_runtime_nranks(); r++) {
			json_t *e = json_object();
			for (int k = 0; k < FV_PHASE_N; k++)
				json_object_set_new(e, fv_plan_phase_names[k],
						    fv_json_real(p->phase_rank_s[(size_t)r * FV_PHASE_N + k]));
			json_array_append_new(rj, e);
		}
		json_object_set_new(js, "setup_seconds_per_rank", rj);
	} else
		json_decref(mj);
}

void fv_plan_stop(fv_plan_t *p)
{
	if (p->stopped)
		return;
	fv_solver_destroy(p->solver);
	p->solver = NULL;
	fv_mark("solver freed");
	fv_runtime_balance_free(&p->bal);
	if (p->runtime_up) {
		fv_runtime_shutdown();
	} else {
		fv_runtime_warm_wait();
		fv_runtime_mpi_stop();
	}
	p->stopped = 1;
	fv_mark("StarPU stopped");
}

fv_err_t fv_plan_destroy(fv_plan_t *p, fv_err_t err)
{
	/* a rank that failed stops them all: the others may be waiting for it
	 * (a divergence, seen by all alike, ends normally on every rank) */
	if (err != FV_OK && err != FV_ERR_NUMERIC && fv_runtime_nranks() > 1)
		fv_runtime_fail(fv_errmsg());
	fv_plan_stop(p);
	if (err == FV_OK && p->c.trace_dir[0] && fv_runtime_rank() == 0)
		err = fv_runtime_trace_convert(p->c.trace_dir, stderr);
	fv_output_unlock();
	fv_mesh_free(&p->m);
	fv_app_state_free(&p->part, &p->st);
	fv_app_wall_distances_free(&p->part, &p->wdist);
	fv_part_free(&p->part);
	free(p->block_digest);
	free(p->phase_rank_s);
	free(p->bc);
	free(p->is_force);
	free(p->argv);
	fv_mark("freed");
	return err;
}
