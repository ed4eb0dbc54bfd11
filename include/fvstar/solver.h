/* SPDX-License-Identifier: MIT */
/* The Euler solver as a StarPU task graph over blocks: state, stages,
 * halo exchanges, reductions, and the iteration driver. */
#ifndef FVSTAR_SOLVER_H
#define FVSTAR_SOLVER_H

#include <signal.h>

#include "fvstar/mesh.h"
#include "fvstar/numerics.h"
#include "fvstar/partition.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fv_solver fv_solver_t;

typedef struct fv_solver_opts {
	fv_numerics_t num;      /* the [numerics] section as the case file sets it */
	double gamma;
	double winf[5];         /* free stream, primitive (rho u v w p) */
	double p_out;
	/* laminar runs (mu_inf > 0): physics/viscous.h */
	double mu_inf;          /* free-stream viscosity; 0: inviscid */
	double suth;            /* Sutherland's constant / T_inf; < 0: constant viscosity */
	double prandtl;
	double t_wall;          /* isothermal walls: T_wall / T_inf */
	int sa;                 /* Spalart-Allmaras: rho nu~ the sixth row of the state */
	double prandtl_t;       /* turbulent Prandtl number */
	double nut_inf;         /* nu~ of the free stream */
	const double *wall_dist; /* sa: [n_cells] each cell's distance to the nearest no-slip wall */
	const double *const *wall_dist_blocks; /* sa, instead: [n_blocks] this rank's blocks' [local cells] */
	const int8_t *marker_bc; /* [n_markers] fv_bc_kind of each marker */
	const uint8_t *marker_force; /* [n_markers] 1: integrate its pressure force (NULL: none) */
	double moment_center[3];
	int lookahead;          /* iterations submitted ahead of the last done */
	int pin_blocks;         /* 1: with only GPUs working, block b runs on GPU b mod n */
	const int *block_worker; /* with pin_blocks, [n_blocks] the worker of each block (fv_balance_t's
	                            placement; read by fv_solver_create only); NULL: none */
	const int *block_rank;  /* [n_blocks] the rank owning each block (fv_part_t's rank_of, the same on
	                           every rank; read by fv_solver_create only); NULL: contiguous ranges */
	int snapshot_every;     /* > 0: keep copies of the state of every such
	                           iteration (two, where the state lives), the last
	                           good one for a diverged run; 0: none */
	double res0_rho;        /* the density residual that limiter_freeze_drop counts
	                           from (a restart's first iteration); 0: this run's first */
	/* non-zero (a signal handler's flag): fv_solver_run submits no further
	 * iteration, and returns once those submitted are done and reported;
	 * NULL: none. One process only: ranks would disagree on the count */
	const volatile sig_atomic_t *stop_flag;
	/* fv_solver_create calls geometry_done(geometry_done_arg), if set, once
	 * every block's geometry is built and before its fields are allocated:
	 * the caller frees there what only the geometry read (the set-up's
	 * peak memory is the blocks beside the solver's fields) */
	void (*geometry_done)(void *arg);
	void *geometry_done_arg;
	int trace_from;         /* traced runs: recording starts when this
	                           iteration is submitted; 0: the first run's first */
	int data_free;          /* 1: nothing computed is read (`fvstar sim`):
	                           residuals, forces and time read as 0, so no
	                           stop, ramp, retry or freeze depends on them */
} fv_solver_opts_t;

/* One finished iteration, handed to the caller in order. */
typedef struct fv_iter_info {
	int iter;
	double t;               /* physical time (unsteady) */
	double dt;              /* global step (unsteady) */
	double res[5];          /* RMS residual per equation (first RK stage) */
	double res_nut;         /* nu~'s (Spalart-Allmaras; else 0) */
	double force[3];        /* pressure force (p - p_inf) S on the force markers */
	double moment[3];       /* its moment about the moment centre */
	double wall;            /* seconds since fv_solver_run started */
	double cfl;             /* the CFL the iteration ran with (ramped in implicit runs) */
	int limiter_frozen;     /* the iteration reused the limiter of an earlier one */
	int retries;            /* implicit: the CFL cuts with a retry before it (numerics.retries) */
	double lin;             /* implicit: the sweeps' linear residual reduction (last / first
	                           Gauss-Seidel step, preconditioned; > 1: they diverged) */
	double clipped;         /* implicit: cells whose update was scaled down (max_update, positivity) */
	int sweeps;             /* implicit: the sweep pairs it ran (numerics.sweeps, sweeps_max) */
	const char *retry_note; /* the first iteration after a retry or a lowered ceiling: what it did; else NULL */
} fv_iter_info_t;

/* Return non-zero to stop after this iteration. */
typedef int (*fv_iter_cb)(const fv_iter_info_t *info, void *ctx);

/* The case file's defaults (one key table, src/io/case.c), gas at rest
 * (rho 1, p 1/gamma) as free stream, no markers. */
void fv_solver_opts_default(fv_solver_opts_t *o);
/* m must be renumbered with the blocks (fv_mesh_renumber); the blocks are
 * copied into StarPU buffers and may be freed afterwards. */
fv_err_t fv_solver_create(fv_solver_t **s, const fv_mesh_t *m, const fv_block_t *blocks, int n_blocks,
			  const fv_solver_opts_t *o);
/* Sets owned and ghost values from a global conservative SoA array (the
 * per-cell step factors, numerics.cell_cfl, to 1). */
fv_err_t fv_solver_set_state(fv_solver_t *s, const fv_real_t *q_global);
/* Copies the owned values into a global conservative SoA array (waits). */
fv_err_t fv_solver_get_state(fv_solver_t *s, fv_real_t *q_global);
/* The same per block, for a rank that holds no array over the whole mesh:
 * qb[b] for each of this rank's blocks (NULL for the others'), SoA over
 * the block's local cells, ghosts included: qb[b][k * n_cells + i], k <
 * fv_solver_state_rows (the state's rows, then the per-cell step factor
 * with numerics.cell_cfl). Get writes the owned cells only; the good state
 * as fv_solver_get_good_state. */
fv_err_t fv_solver_set_block_states(fv_solver_t *s, fv_real_t *const *qb);
/* Rows of a block state of fv_solver_set_block_states: the state's, and
 * one more (each cell's step factor) in an implicit run with cell_cfl. */
int fv_solver_state_rows(const fv_numerics_t *num, int nvar);
fv_err_t fv_solver_get_block_states(fv_solver_t *s, fv_real_t *const *qb);
fv_err_t fv_solver_get_good_block_states(fv_solver_t *s, int bad, fv_real_t *const *qb, int *iter);
/* Wall values of the mesh's boundary faces g with is_bface[g] (n_bfaces of
 * them, the mesh's numbering), 5 per face into out[5 g ..]: the pressure
 * of the face's cell, the viscous stress on the wall (x, y, z; zero in an
 * inviscid run), the distance of the cell centre to the wall; from the
 * primitives and gradients of the last stage (waits); zero for the other
 * faces. Several ranks: assembled on every rank. */
fv_err_t fv_solver_wall_data(fv_solver_t *s, fv_idx_t n_bfaces, const uint8_t *is_bface, double *out);
/* Runs iterations first_iter .. last_iter; cb sees each in order. Stops
 * early on cb's request; returns FV_ERR_NUMERIC on NaN residuals. The
 * physical time starts at t0. *done receives the last iteration done. */
fv_err_t fv_solver_run(fv_solver_t *s, int first_iter, int last_iter, double t0, fv_iter_cb cb, void *ctx,
		       int *done);
/* After fv_solver_run stopped on a divergence first seen at iteration
 * bad: the last kept state whose next residual was finite (iteration
 * <= bad - 2) into q_global, its iteration into *iter; FV_ERR_ARG when
 * none is kept (snapshot_every 0, or the run diverged before the first). */
fv_err_t fv_solver_get_good_state(fv_solver_t *s, int bad, fv_real_t *q_global, int *iter);
/* The implicit CFL ramp's state after the last iteration done, at most max
 * values into v (*n of them; 0: none to keep: an explicit run, or no
 * iteration done), for a restart file; set before
 * fv_solver_run continues from the next iteration, so that the run goes on
 * as if uninterrupted (n = 0: the ramp starts again). Set refuses values
 * that are not this solver's. */
fv_err_t fv_solver_get_ramp_state(const fv_solver_t *s, double *v, int max, int *n);
fv_err_t fv_solver_set_ramp_state(fv_solver_t *s, const double *v, int n);
/* numerics.overlap on this rank's blocks: those whose flux is split into
 * an interior and a border task, and their faces and border faces;
 * numerics.halo_zero_copy: the halo buffers they send to other ranks, and
 * those of them that stay in host memory; numerics.halo_peer: those that
 * go GPU to GPU, and why the first pair that could not did not. */
typedef struct fv_overlap_stats {
	int split_blocks;
	long long faces, border_faces;
	int cross_buffers, host_buffers, peer_buffers;
	char peer_why[200];
} fv_overlap_stats_t;
void fv_solver_overlap_stats(const fv_solver_t *s, fv_overlap_stats_t *st);
void fv_solver_destroy(fv_solver_t *s);

#ifdef __cplusplus
}
#endif
#endif
