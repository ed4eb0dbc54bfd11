/* SPDX-License-Identifier: MIT */
/* The tasks the solver submits, one fv_insert_<stage>() per stage (and per
 * colour group with color_tasks). Each names its task and block in errors,
 * sets the task's flop count and its worker (a->worker, -1: the scheduler
 * picks). This is all the solver knows of the codelets: handles are the
 * runtime's opaque fv_handle_t, arguments the plain fv_task_args_t. */
#ifndef FVSTAR_CODELETS_INSERT_H
#define FVSTAR_CODELETS_INSERT_H

#include "fvstar/error.h"
#include "kernels/task.h"
#include "runtime/data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Task chains (numerics.chain, codelets/chain.c): between open and close,
 * the consecutive tasks of a block (mode FV_CHAIN_AUTO: a block that runs
 * only on GPUs; FV_CHAIN_YES: any block) run as one StarPU task, bit for
 * bit as the separate tasks would; halo tasks, reductions and other
 * ranks' data end the chains. Flush submits the open chains (the window
 * stays open); close submits them and ends the window. Nothing may wait
 * for tasks while the window is open. */
void fv_insert_chain_open(int mode);
fv_err_t fv_insert_chain_flush(void);
fv_err_t fv_insert_chain_close(void);

fv_err_t fv_insert_pack(fv_handle_t geo, fv_handle_t field, fv_handle_t buf, const fv_task_args_t *a);
fv_err_t fv_insert_unpack(fv_handle_t geo, fv_handle_t buf, fv_handle_t field, const fv_task_args_t *a);
/* numerics.halo_tasks = block: one task packing the field into the n
 * buffers of the block's neighbours (in its neighbour order), one
 * unpacking the n buffers its neighbours filled for it into its ghosts. */
fv_err_t fv_insert_pack_all(fv_handle_t geo, fv_handle_t field, const fv_handle_t *bufs, int n,
			    const fv_task_args_t *a);
fv_err_t fv_insert_unpack_all(fv_handle_t geo, const fv_handle_t *bufs, int n, fv_handle_t field,
			      const fv_task_args_t *a);
/* With a->host_buf the buffers of these four stay in host memory (they
 * cross ranks): at most fv_halo_host_max_buffers() in one task. */
int fv_halo_host_max_buffers(void);
/* numerics.halo_peer, a pair between GPU ranks of one machine: the pack
 * kernel writes a->peer (the receiving rank's GPU memory, a->peer_n
 * values) once the receiver's ack of the previous exchange came, then
 * writes the 8-byte token StarPU-MPI carries to the receiver; the unpack
 * reads the token (it has come: the data are in dev, on its GPU), unpacks
 * dev and writes the ack. CUDA workers only. */
fv_err_t fv_insert_pack_peer(fv_handle_t geo, fv_handle_t field, fv_handle_t token, fv_handle_t ack,
			     const fv_task_args_t *a);
fv_err_t fv_insert_unpack_peer(fv_handle_t geo, fv_handle_t dev, fv_handle_t field, fv_handle_t token,
			       fv_handle_t ack, const fv_task_args_t *a);
/* A task on a->worker (pinned) that only reads the n buffers: they move to
 * its memory (another GPU's buffers to this GPU) as soon as their packs are
 * done, while the tasks submitted before the unpack run. */
fv_err_t fv_insert_fetch(const fv_handle_t *bufs, int n, const fv_task_args_t *a);
fv_err_t fv_insert_prim(fv_handle_t q, fv_handle_t w, const fv_task_args_t *a);
fv_err_t fv_insert_nodes(fv_handle_t geo, fv_handle_t w, fv_handle_t wn, const fv_task_args_t *a);
/* With a->grouped, the gradient, limiter, time step and flux tasks do one
 * colour group (color_tasks): group 0 writes the stage's accumulator, the
 * others add to it, ordered by their access to it; the last finishes the
 * stage. */
fv_err_t fv_insert_gradient(fv_handle_t geo, fv_handle_t w, fv_handle_t wn, fv_handle_t grad,
			    const fv_task_args_t *a);
/* mm: the face-loop variants' min/max (2 FV_NVAR values per owned cell) */
fv_err_t fv_insert_limiter(fv_handle_t geo, fv_handle_t w, fv_handle_t grad, fv_handle_t phi, fv_handle_t mm,
			   const fv_task_args_t *a);
fv_err_t fv_insert_flux(fv_handle_t geo, fv_handle_t w, fv_handle_t grad, fv_handle_t phi, fv_handle_t res,
			const fv_task_args_t *a);
/* numerics.overlap (kernels.h): the fluxes of the faces that read no ghost
 * into the face store ff (a->flux_direct: into res), and, once the ghosts
 * are in, the others' and every face's sum into res */
fv_err_t fv_insert_flux_interior(fv_handle_t geo, fv_handle_t w, fv_handle_t grad, fv_handle_t phi, fv_handle_t ff,
				 fv_handle_t res, const fv_task_args_t *a);
fv_err_t fv_insert_flux_border(fv_handle_t geo, fv_handle_t w, fv_handle_t grad, fv_handle_t phi, fv_handle_t ff,
			       fv_handle_t res, const fv_task_args_t *a);
/* clock: NULL in steady runs; unsteady, the time step reduces its minimum
 * step into it */
fv_err_t fv_insert_timestep(fv_handle_t geo, fv_handle_t w, fv_handle_t dt, fv_handle_t clock,
			    const fv_task_args_t *a);
fv_err_t fv_insert_clock(fv_handle_t clock, fv_handle_t norms, const fv_task_args_t *a);
/* Several ranks, one clock each: dst's minimum step becomes the minimum of
 * its own and src's (the exchange of the ranks' minima before the clock
 * task). */
fv_err_t fv_insert_clock_merge(fv_handle_t dst, fv_handle_t src, const fv_task_args_t *a);
fv_err_t fv_insert_update(fv_handle_t geo, fv_handle_t res, fv_handle_t dt, fv_handle_t clock, fv_handle_t q0,
			  fv_handle_t q, int first, const fv_task_args_t *a);
fv_err_t fv_insert_norms(fv_handle_t geo, fv_handle_t w, fv_handle_t grad, fv_handle_t phi, fv_handle_t res,
			 fv_handle_t norms, const fv_task_args_t *a);
/* dst = src (fields of one block, equal sizes), on the block's worker. */
fv_err_t fv_insert_copy(fv_handle_t src, fv_handle_t dst, const fv_task_args_t *a);
/* A handle registered without memory (fv_runtime_vector_lazy) reads as
 * zeros where a task, or the host, reads it before anything wrote it. */
void fv_set_zero_init(fv_handle_t h);
/* Implicit iterations (src/kernels/implicit.h): the block's diagonal (1 or
 * 25 values per owned cell) and dq = 0; the Gauss-Seidel update of the
 * cells a->cells_b .. a->cells_e of the blob's colour groups (one group, a
 * task per group and block, each writing dq after the one before); q +=
 * dq on the owned cells. */
fv_err_t fv_insert_diagonal(fv_handle_t geo, fv_handle_t q, fv_handle_t dt, fv_handle_t diag, fv_handle_t dq,
			    const fv_task_args_t *a);
fv_err_t fv_insert_sweep(fv_handle_t geo, fv_handle_t q, fv_handle_t res, fv_handle_t diag, fv_handle_t dq,
			 const fv_task_args_t *a);
/* norms: the block's norm row, FV_NORM_CLIP (cells whose update was scaled down) */
fv_err_t fv_insert_implicit_update(fv_handle_t geo, fv_handle_t dq, fv_handle_t q, fv_handle_t norms,
				   const fv_task_args_t *a);
/* After the sweeps: their linear residual reduction into the norm row (fv_k_sweep_check). */
fv_err_t fv_insert_sweep_check(fv_handle_t geo, fv_handle_t q, fv_handle_t res, fv_handle_t diag, fv_handle_t dq,
			       fv_handle_t norms, const fv_task_args_t *a);
/* numerics.linear = gmres (src/kernels/krylov.h), a->kry_m directions of
 * the Krylov field V (m + 1 vectors of the owned cells) and Z (m): start,
 * v_0 = D^-1 (-R) (a->kry_step: a restart, D^-1 (-R - A dq)) and its
 * squared norm into the block's dot row; prep, v_j scaled by the
 * coefficients' 1/|v_j|, D v_j into the sweeps' right-hand side rhs, and
 * dq = 0; matvec, z_j = dq (ghosts from the halo) and v_j+1 = D^-1 A z_j with its dot products with
 * v_0 .. v_j; orth, the Gram-Schmidt step and |v_j+1|^2; finish, x (a
 * restart: x +) sum y_i z_i, into dq's owned cells; reduce, the n
 * blocks' dot rows, in block order, into the coefficients coef (one task
 * per rank and step, a->kry_step, direction a->kry_j; on a CPU or, with at
 * most FV_KRY_CUDA_ROWS blocks, a GPU). */
#define FV_KRY_REDUCE_MAX 1024
/* the reduce task runs on a GPU with at most this many blocks */
#define FV_KRY_CUDA_ROWS 32
fv_err_t fv_insert_kry_start(fv_handle_t geo, fv_handle_t res, fv_handle_t diag, fv_handle_t dq, fv_handle_t V,
			     fv_handle_t dot, const fv_task_args_t *a);
fv_err_t fv_insert_kry_prep(fv_handle_t geo, fv_handle_t coef, fv_handle_t diag, fv_handle_t V, fv_handle_t rhs,
			    fv_handle_t dq, const fv_task_args_t *a);
fv_err_t fv_insert_kry_matvec(fv_handle_t geo, fv_handle_t diag, fv_handle_t dq, fv_handle_t V, fv_handle_t Z,
			      fv_handle_t dot, const fv_task_args_t *a);
fv_err_t fv_insert_kry_orth(fv_handle_t geo, fv_handle_t coef, fv_handle_t V, fv_handle_t dot,
			    const fv_task_args_t *a);
fv_err_t fv_insert_kry_finish(fv_handle_t geo, fv_handle_t coef, fv_handle_t Z, fv_handle_t x, fv_handle_t dq,
			      const fv_task_args_t *a);
fv_err_t fv_insert_kry_reduce(fv_handle_t coef, const fv_handle_t *dots, int n, const fv_task_args_t *a);
/* The clock's reduction (min of dt_min over blocks). */
void fv_clock_set_reduction(fv_handle_t clock);

#ifdef __cplusplus
}
#endif
#endif
