/* SPDX-License-Identifier: MIT */
/* The stages of one Runge-Kutta stage (or one implicit iteration), in the
 * order the task graph runs them on each block, and which of them a run
 * needs: the one definition that the solver's submission loop and the bare
 * driver of `fvstar bench stage` both walk. A new stage goes here first. */
#ifndef FVSTAR_KERNELS_STAGES_H
#define FVSTAR_KERNELS_STAGES_H

#include "kernels/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fv_stage {
	FV_STAGE_HALO_Q,     /* ghosts of the state from the neighbours */
	FV_STAGE_PRIM,       /* primitive variables */
	FV_STAGE_NODES,      /* node values (Green-Gauss) */
	FV_STAGE_GRADIENT,
	FV_STAGE_SEND_GRAD,  /* the owned cells' gradients packed for the neighbours */
	FV_STAGE_LIMITER,    /* owned cells: their own gradient, their neighbours' values */
	FV_STAGE_SEND_PHI,
	FV_STAGE_TIMESTEP,   /* local step (first RK stage); unsteady: then the clock */
	FV_STAGE_FLUX_INTERIOR, /* numerics.overlap: the faces that read no ghost, while the halos travel */
	FV_STAGE_RECV_GRAD,  /* the ghosts' gradients unpacked */
	FV_STAGE_RECV_PHI,
	FV_STAGE_FLUX,       /* reconstruction, Roe flux, summation into the residual */
	FV_STAGE_NORMS,      /* residual norms and wall forces (first RK stage) */
	FV_STAGE_DIAGONAL,   /* implicit: the operator's diagonal; dq = 0 */
	FV_STAGE_SWEEPS,     /* implicit: Gauss-Seidel sweeps over colour groups (fv_sweep_*) */
	FV_STAGE_UPDATE,     /* the RK update of the state; implicit: q += dq */
	FV_N_STAGES
} fv_stage_t;
/*
 * The ghosts' gradient and limiter are sent as soon as they are computed
 * and received just before the flux, the first stage that reads them (the
 * limiter of an owned cell reads its own gradient and its neighbours'
 * values; the time step reads the values): while they travel between
 * blocks (GPUs, ranks), the limiter, the time step and (numerics.overlap)
 * the flux of the faces that read no ghost run. The state's
 * ghosts are needed at once (node values), so their halo is one stage.
 */
static const char *const fv_stage_names[FV_N_STAGES] = {
	"halo_q",   "prim",      "nodes",    "gradient", "send_grad", "limiter",  "send_phi", "timestep",
	"flux_interior", "recv_grad", "recv_phi", "flux", "norms",   "diagonal",  "sweeps",   "update"};
/*
 * numerics.halo_late: the same stages with the gradients' and limiters'
 * halos sent after the limiter and the time step. A block's task chain
 * (numerics.chain) ends at a halo's pack and starts at its unpack: in the
 * order above a Runge-Kutta stage is four chains a block (unpack to the
 * gradients' pack, the limiter to its pack, the time step, the unpacks to
 * the state's pack) and, on GPUs in one process, two fetch tasks; in this
 * one it is two, at the cost of the gradients' halo no longer travelling
 * while the limiter runs.
 */
static const int fv_stage_order_late[FV_N_STAGES] = {
	FV_STAGE_HALO_Q,   FV_STAGE_PRIM,      FV_STAGE_NODES,     FV_STAGE_GRADIENT,      FV_STAGE_LIMITER,
	FV_STAGE_TIMESTEP, FV_STAGE_SEND_GRAD, FV_STAGE_SEND_PHI,  FV_STAGE_FLUX_INTERIOR, FV_STAGE_RECV_GRAD,
	FV_STAGE_RECV_PHI, FV_STAGE_FLUX,      FV_STAGE_NORMS,     FV_STAGE_DIAGONAL,      FV_STAGE_SWEEPS,
	FV_STAGE_UPDATE};
/* Halo stages move ghost values between blocks (none with one block). */
static inline int fv_stage_is_halo(int st)
{
	return st == FV_STAGE_HALO_Q || st == FV_STAGE_SEND_GRAD || st == FV_STAGE_SEND_PHI ||
	       st == FV_STAGE_RECV_GRAD || st == FV_STAGE_RECV_PHI;
}
/* Stages of implicit iterations only (none in the bare driver of bench). */
static inline int fv_stage_is_implicit(int st)
{
	return st == FV_STAGE_DIAGONAL || st == FV_STAGE_SWEEPS;
}

/* Whether stage st runs in Runge-Kutta stage rk (from 0) with the kernels'
 * parameters P; limit: the limiter is computed this iteration (not frozen). */
static inline int fv_stage_runs(int st, const fv_params_t *P, int rk, int limit)
{
	switch (st) {
	case FV_STAGE_NODES:
		return (P->order == 2 || fv_k_viscous(P)) && !P->lsq;
	case FV_STAGE_GRADIENT:
	case FV_STAGE_SEND_GRAD:
	case FV_STAGE_RECV_GRAD:
	case FV_STAGE_FLUX_INTERIOR: /* (blocks with neighbours and overlap on) */
		return P->order == 2 || fv_k_viscous(P);
	case FV_STAGE_LIMITER:
	case FV_STAGE_SEND_PHI:
	case FV_STAGE_RECV_PHI:
		return P->order == 2 && P->limiter && limit;
	case FV_STAGE_TIMESTEP:
	case FV_STAGE_NORMS:
		return rk == 0;
	case FV_STAGE_DIAGONAL:
	case FV_STAGE_SWEEPS:
		return P->implicit != 0;
	default:
		return 1;
	}
}

/*
 * The sweeps stage of an implicit iteration, `sweeps` times over:
 *
 *   forward:  colour groups 0, 1, .., C-1 of each block, then halo dq
 *   backward: colour groups C-1, .., 1, 0 of each block, then halo dq
 *
 * (C the block's cell colour count). A group's cells share no face, so
 * they are updated at once from their neighbours' latest dq: those of the
 * groups before it in this sweep, of the groups after it from the sweep
 * before. Every group task of a block writes the block's dq, so the
 * runtime runs them in submission order, and the groups of different
 * blocks side by side; between blocks dq moves by the halo exchange after
 * each sweep (block Jacobi at block boundaries).
 */
#define FV_SWEEP_DIRECTIONS 2 /* forward, backward */

/* The k-th group (k in [0, n_colors)) of a sweep in direction dir (0
 * forward, 1 backward). */
static inline int fv_sweep_group(int dir, int k, int n_colors)
{
	return dir == 0 ? k : n_colors - 1 - k;
}

#ifdef __cplusplus
}
#endif
#endif
