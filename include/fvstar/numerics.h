/* SPDX-License-Identifier: MIT */
/* The numerical method's choices, defined once: the enumerations shared by
 * the case file, the solver and the kernels, and the [numerics] section as
 * one struct that the case file fills and the solver reads as it is. */
#ifndef FVSTAR_NUMERICS_H
#define FVSTAR_NUMERICS_H

#include "fvstar/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of boundary; the numbers are stable (stored in case files). */
enum fv_bc_kind {
	FV_BC_FARFIELD = 0,          /* characteristic, Riemann invariants */
	FV_BC_SLIP_WALL = 1,         /* inviscid wall, mirror state */
	FV_BC_SYMMETRY = 2,          /* same state as a slip wall */
	FV_BC_SUPERSONIC_INFLOW = 3, /* winf imposed */
	FV_BC_SUPERSONIC_OUTFLOW = 4,/* interior extrapolated */
	FV_BC_PRESSURE_OUTLET = 5,   /* static pressure imposed if subsonic */
	FV_BC_NOSLIP = 6,            /* viscous wall, adiabatic (no heat flux) */
	FV_BC_ISOTHERMAL = 7,        /* viscous wall at bc.wall_temperature */
	FV_BC_NKINDS = 8
};

/* Race strategy of a scatter stage (a loop over faces or cells adding into
 * cells or nodes): ATOMIC, a face loop (cell loop for node values) with
 * atomics on a GPU; GATHER, a loop over the targets, each gathering its
 * own sum (no race, deterministic); COLOR, a face loop per colour group of
 * faces that share no cell (plain adds, deterministic); AUTO, every CUDA
 * variant in the codelet, a perf-model scheduler picks. */
typedef enum fv_sum { FV_SUM_ATOMIC = 0, FV_SUM_GATHER = 1, FV_SUM_COLOR = 2, FV_SUM_AUTO = 3 } fv_sum_t;
#define FV_N_SUM_KINDS 4
typedef enum fv_flux { FV_FLUX_ROE } fv_flux_t;
typedef enum fv_gradient { FV_GRAD_GREEN_GAUSS, FV_GRAD_LEAST_SQUARES } fv_gradient_t;
typedef enum fv_limiter { FV_LIMITER_NONE = 0, FV_LIMITER_VENKATAKRISHNAN = 1, FV_LIMITER_BARTH = 2 } fv_limiter_t;
typedef enum fv_limiter_vars { FV_LIMVARS_PRESSURE, FV_LIMVARS_ALL } fv_limiter_vars_t;
/* STEADY: explicit Runge-Kutta with the local step; UNSTEADY: explicit
 * with one global step; IMPLICIT: steady, backward Euler with the local
 * step solved by multicolour Gauss-Seidel sweeps (fv_implicit_t). */
typedef enum fv_time_mode { FV_TIME_STEADY, FV_TIME_UNSTEADY, FV_TIME_IMPLICIT } fv_time_mode_t;
/* The implicit operator's diagonal: LU-SGS (a scalar per cell, Yoon &
 * Jameson) or point-implicit (a 5x5 block per cell, boundary conditions'
 * Jacobians included). 0 in fv_params_t: an explicit run. */
typedef enum fv_implicit { FV_IMPLICIT_LUSGS = 1, FV_IMPLICIT_POINT = 2 } fv_implicit_t;
/* point-implicit face blocks' dissipation (numerics.jacobian) */
typedef enum fv_jacobian { FV_JACOBIAN_ROE = 0, FV_JACOBIAN_RUSANOV = 1 } fv_jacobian_t;
/* point-implicit linear solve (numerics.linear): the sweeps alone, or
 * restarted GMRES right-preconditioned by them (src/kernels/krylov.h) */
typedef enum fv_linear { FV_LINEAR_SWEEPS = 0, FV_LINEAR_GMRES = 1 } fv_linear_t;
/* How an implicit run's CFL grows: from each residual ratio (switched
 * evolution relaxation), or by a fixed factor per iteration, cut back only
 * when the residual passes ten times its lowest value. */
typedef enum fv_cfl_ramp { FV_CFL_RAMP_RESIDUAL, FV_CFL_RAMP_GROWTH } fv_cfl_ramp_t;
typedef enum fv_face_order { FV_FACE_ORDER_NATURAL, FV_FACE_ORDER_COLOR } fv_face_order_t;

/* The [numerics] section. Enumerated fields are int so that the case
 * file's key table sets every field through its offset; their values are
 * the enums above (coloring: fv_color_method_t of fvstar/color.h). */
/* A halo exchange's tasks: one pack and one unpack per block, over all
 * its neighbours' buffers, or one of each per pair of neighbouring blocks. */
typedef enum fv_halo_tasks { FV_HALO_BLOCK = 0, FV_HALO_PAIR = 1 } fv_halo_tasks_t;
/* Interior and border tasks (numerics.overlap): never, for every block
 * with neighbours, or where a halo crosses ranks and the block runs on a
 * GPU (where the measured split pays). */
typedef enum fv_overlap { FV_OVERLAP_NO = 0, FV_OVERLAP_YES = 1, FV_OVERLAP_AUTO = 2 } fv_overlap_t;
/* Task chains (numerics.chain): never, for every block, or for blocks that
 * run only on GPUs (where a task's launch gap costs). */
typedef enum fv_chain { FV_CHAIN_NO = 0, FV_CHAIN_YES = 1, FV_CHAIN_AUTO = 2 } fv_chain_t;
/* Where the node values read the primitives (numerics.node_gather): the
 * field's rows, or a copy with each cell's values side by side that the
 * primitive kernel writes after them (cells: every block; auto: the blocks
 * that run only on GPUs); the node values themselves side by side but
 * with rows. */
typedef enum fv_node_gather { FV_NODE_GATHER_ROWS = 0, FV_NODE_GATHER_CELLS = 1, FV_NODE_GATHER_AUTO = 2 } fv_node_gather_t;

typedef struct fv_numerics {
	int flux;               /* fv_flux_t */
	double entropy_fix;
	int order;              /* 1 or 2 */
	int gradient;           /* fv_gradient_t */
	/* race strategy of each scatter stage (fv_sum_t) */
	int flux_sum;
	int nodes_sum;          /* no colour variant: node values scatter into nodes */
	int grad_sum;           /* Green-Gauss; least squares always gathers */
	int lim_sum;
	int dt_sum;
	int face_order;         /* fv_face_order_t */
	int coloring;           /* fv_color_method_t */
	int color_tasks;        /* 0/1: one task per colour group and block */
	int halo_tasks;         /* fv_halo_tasks_t: a halo's pack and unpack tasks */
	int halo_zero_copy;     /* fv_overlap_t values: GPU halo kernels on the host buffers of messages between ranks */
	int halo_peer;          /* fv_overlap_t values: halo buffers between GPU ranks of a node GPU to GPU (CUDA IPC) */
	int overlap;            /* fv_overlap_t: stages split into interior and border tasks */
	int halo_late;          /* fv_overlap_t values: the gradients' and limiters' halos sent after the limiter */
	int chain;              /* fv_chain_t: a block's tasks between halos as one task */
	int node_gather;        /* fv_node_gather_t */
	int limiter;            /* fv_limiter_t */
	double limiter_k;
	double limiter_shock;   /* > 0: pressure switch to first order at shocks (fv_shock_switch) */
	int limiter_freeze;     /* > 0: keep the limiter of that iteration after it */
	double limiter_freeze_drop; /* > 0: keep it once the residual dropped that many orders */
	int limiter_vars;       /* fv_limiter_vars_t */
	int rk;                 /* 1 (forward Euler), 2 or 3 stages (SSP) */
	double cfl;
	int time_mode;          /* fv_time_mode_t */
	double t_end;           /* 0: not set */
	int iterations;
	double residual_drop;   /* orders of magnitude; 0: off */
	int first_order;        /* iterations run at first order before `order` */
	int order_ramp;         /* iterations over which second order is blended in after them */
	/* time = implicit */
	int implicit;           /* fv_implicit_t */
	int jacobian;           /* fv_jacobian_t: Roe's |A~| or Rusanov's lambda I */
	double jacobian_floor;  /* Roe's blocks: every |eigenvalue| at least this times |u_n| + c */
	int sweeps;             /* forward + backward sweep pairs per iteration */
	int sweeps_max;         /* the most sweep pairs lin_res may raise them to (<= sweeps: fixed) */
	double sweeps_target;   /* lin_res above which (two iterations in a row) the pairs grow */
	int linear;             /* fv_linear_t: the sweeps, or GMRES preconditioned by them */
	int krylov_dim;         /* linear = gmres: search directions per cycle (m of GMRES(m)) */
	int krylov_cycles;      /* linear = gmres: cycles of m directions per iteration (restarts + 1) */
	int krylov_sweeps;      /* linear = gmres: sweep pairs of one application of the preconditioner */
	int lines;              /* fv_overlap_t values: line-implicit sweeps (no, yes, auto: viscous runs) */
	int line_cells;         /* line-implicit: cells per line at most (longer chains cut); 0: FV_LINE_MAX */
	double aspect_dt;       /* line-implicit runs: a stretched cell's local step up to this many
	                           times its thin side's (its long side's); 1: off */
	double dominance;       /* point-implicit: a cell's V/dt raised until each row of its block
	                           row is this dominant over the rest (a per-cell CFL limit); 0: off */
	double omega;           /* the dissipation factor of the implicit operator */
	double max_update;      /* implicit: largest relative change of density and energy per
	                           iteration and cell (the update is scaled down); 0: no limit */
	double cell_cfl;        /* implicit: the least per-cell factor of the step (cut where the
	                           update is scaled down, x2 back up to 1 where not); 0: off */
	double cfl_max;         /* > cfl: CFL ramping up to it; 0: the CFL stays at cfl */
	int cfl_ramp;           /* fv_cfl_ramp_t */
	double cfl_growth;      /* largest growth of the CFL from one iteration to the next */
	double cfl_cut;         /* factor of the CFL when the residual grows */
	int retries;            /* implicit: most cuts of the CFL with a retry from the last
	                           good state in a run; 0: a non-finite residual stops it */
} fv_numerics_t;

/* time = implicit: the CFL, the ramp's top and the per-cell limit when the
 * case sets none (fv_case_finish) */
#define FV_IMPLICIT_CFL 10.0
#define FV_IMPLICIT_CFL_MAX 1e4
#define FV_IMPLICIT_MAX_UPDATE 0.2
#define FV_IMPLICIT_CFL_GROWTH 1.5 /* with cfl_ramp = growth, the default there */

/* limiter_shock when the case sets none: FV_SHOCK_AUTO from a free-stream
 * Mach number of FV_SHOCK_MACH on (fv_case_finish), 0 below */
#define FV_SHOCK_MACH 3.0
#define FV_SHOCK_AUTO 0.03

/* The five strategy keys, in this order, and their values in n. */
#define FV_N_SUMS 5
extern const char *const fv_sum_keys[FV_N_SUMS]; /* flux_sum, nodes_sum, gradient_sum, limiter_sum, timestep_sum */
extern const char *const fv_sum_names[FV_N_SUM_KINDS + 1]; /* atomic, gather, color, auto, NULL */
void fv_numerics_sums(const fv_numerics_t *n, int sums[FV_N_SUMS]);
const char *fv_sum_name(int sum);

/* Every [numerics] key at the default of the case file's key table
 * (src/io/case.c): the one place defaults are written. */
void fv_numerics_default(fv_numerics_t *n);
/* The combinations the solver cannot run, refused naming the key. */
/* key (may be NULL) receives the offending key's name. */
fv_err_t fv_numerics_check(const fv_numerics_t *n, const char **key);

#ifdef __cplusplus
}
#endif
#endif
