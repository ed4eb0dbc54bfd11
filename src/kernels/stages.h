/* SPDX-License-Identifier: MIT */
/* The stages of one Runge-Kutta stage, in the order the task graph runs
 * them on each block, and which of them a run needs: the one definition
 * that the solver's submission loop and the bare driver of `fvstar bench
 * stage` both walk. A new stage goes here first. */
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
	FV_STAGE_HALO_GRAD,
	FV_STAGE_LIMITER,
	FV_STAGE_HALO_PHI,
	FV_STAGE_FLUX,       /* reconstruction, Roe flux, summation into the residual */
	FV_STAGE_TIMESTEP,   /* local step (first RK stage); unsteady: then the clock */
	FV_STAGE_NORMS,      /* residual norms and wall forces (first RK stage) */
	FV_STAGE_UPDATE,     /* the RK update of the state */
	FV_N_STAGES
} fv_stage_t;

static const char *const fv_stage_names[FV_N_STAGES] = {
	"halo_q", "prim", "nodes", "gradient", "halo_grad", "limiter", "halo_phi", "flux", "timestep", "norms", "update"};

/* Halo stages move ghost values between blocks (none with one block). */
static inline int fv_stage_is_halo(int st)
{
	return st == FV_STAGE_HALO_Q || st == FV_STAGE_HALO_GRAD || st == FV_STAGE_HALO_PHI;
}

/* Whether stage st runs in Runge-Kutta stage rk (from 0) with the kernels'
 * parameters P; limit: the limiter is computed this iteration (not frozen). */
static inline int fv_stage_runs(int st, const fv_params_t *P, int rk, int limit)
{
	switch (st) {
	case FV_STAGE_NODES:
		return P->order == 2 && !P->lsq;
	case FV_STAGE_GRADIENT:
	case FV_STAGE_HALO_GRAD:
		return P->order == 2;
	case FV_STAGE_LIMITER:
	case FV_STAGE_HALO_PHI:
		return P->order == 2 && P->limiter && limit;
	case FV_STAGE_TIMESTEP:
	case FV_STAGE_NORMS:
		return rk == 0;
	default:
		return 1;
	}
}

#ifdef __cplusplus
}
#endif
#endif
