/* SPDX-License-Identifier: MIT */
/* The CUDA launches of each stage on a given stream, from the device
 * pointers a task's buffers hold. The StarPU CUDA functions unpack a task
 * and call these on the worker's stream; bench/bench_stage calls them on
 * its own stream, without the runtime, to measure what StarPU costs. `sum`
 * is the stage's race strategy (FV_SUM_ATOMIC, _GATHER or _COLOR). */
#ifndef FVSTAR_CODELETS_LAUNCH_H
#define FVSTAR_CODELETS_LAUNCH_H

#include <cuda_runtime_api.h>

#include "kernels/task.h"

#ifdef __cplusplus
extern "C" {
#endif

void fv_prim_launch(const fv_task_args_t *a, const fv_real_t *q, fv_real_t *w, cudaStream_t st);
void fv_nodes_launch(const fv_task_args_t *a, int sum, const void *geo, const fv_real_t *w, fv_real_t *wn,
		     cudaStream_t st);
void fv_gradient_launch(const fv_task_args_t *a, int sum, const void *geo, const fv_real_t *w, const fv_real_t *wn,
			fv_real_t *grad, cudaStream_t st);
void fv_limiter_launch(const fv_task_args_t *a, int sum, const void *geo, const fv_real_t *w, const fv_real_t *grad,
		       fv_real_t *phi, fv_real_t *mm, cudaStream_t st);
/* colour groups k0 .. k1-1 for FV_SUM_COLOR (all: 0 .. n_colors); the
 * residual is zeroed first unless a colour launch starts past group 0 */
void fv_flux_launch(const fv_task_args_t *a, int sum, int k0, int k1, const void *geo, const fv_real_t *w,
		    const fv_real_t *grad, const fv_real_t *phi, fv_real_t *res, cudaStream_t st);
/* numerics.overlap: part FV_SPLIT_INTERIOR stores the fluxes of the faces
 * that read no ghost into ff; FV_SPLIT_BORDER stores the others', then sums
 * every face's from ff into res with strategy sum (kernels.h) */
void fv_flux_part_launch(const fv_task_args_t *a, int sum, int part, const void *geo, const fv_real_t *w,
			 const fv_real_t *grad, const fv_real_t *phi, fv_real_t *ff, fv_real_t *res, cudaStream_t st);
/* flux_direct (kernels.h): part's fluxes straight into res (atomic, or the
 * part's cells gathered) */
void fv_flux_direct_launch(const fv_task_args_t *a, int sum, int part, const void *geo, const fv_real_t *w,
			   const fv_real_t *grad, const fv_real_t *phi, fv_real_t *res, cudaStream_t st);
void fv_timestep_launch(const fv_task_args_t *a, int sum, const void *geo, const fv_real_t *w, fv_real_t *dt,
			fv_clock_t *clock, cudaStream_t st);
void fv_norms_launch(const fv_task_args_t *a, const void *geo, const fv_real_t *w, const fv_real_t *grad,
		     const fv_real_t *phi, const fv_real_t *res, double *norms, cudaStream_t st);
/* implicit iterations: the diagonal (and dq = 0), one colour group's
 * sweep (a->cells_b .. a->cells_e), q += dq */
void fv_diagonal_launch(const fv_task_args_t *a, const void *geo, const fv_real_t *q, const fv_real_t *dt,
			fv_op_t *diag, fv_real_t *dq, cudaStream_t st);
void fv_sweep_launch(const fv_task_args_t *a, const void *geo, const fv_real_t *q, const fv_real_t *res,
		     const fv_op_t *diag, fv_real_t *dq, cudaStream_t st);
void fv_implicit_update_launch(const fv_task_args_t *a, const void *geo, const fv_real_t *dq, fv_real_t *q,
			       double *s, cudaStream_t st);
void fv_update_launch(const fv_task_args_t *a, const void *geo, const fv_real_t *res, const fv_real_t *dt,
		      fv_real_t *q0, fv_real_t *q, const fv_clock_t *clock, cudaStream_t st);

#ifdef __cplusplus
}
#endif
#endif
