/* SPDX-License-Identifier: MIT */
/* What the codelets share on the StarPU side: one way to declare a
 * codelet, one submission helper (buffers, arguments, worker, name, flop
 * count, errors naming the task and block), the CPU and CUDA functions of
 * every stage. Included by codelets/ only; the solver includes insert.h. */
#ifndef FVSTAR_CODELETS_COMMON_H
#define FVSTAR_CODELETS_COMMON_H

#include <starpu.h>

#include "config.h"
#include "codelets/insert.h"
#include "fvstar/error.h"
#include "kernels/task.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A codelet with a CPU function, its CUDA functions (a parenthesised list:
 * several variants let a perf-model scheduler pick), a history model and
 * its buffers' access modes:
 *   FV_CODELET(fv_x_cpu, (fv_x_cuda, fv_x_other_cuda), model, "fv_x", 2, STARPU_R, STARPU_W)
 * and the history model of symbol name: FV_MODEL(model, "fv_x").
 */
#define FV_UNPAREN(...) __VA_ARGS__
#ifdef FV_HAVE_CUDA
#define FV_CODELET_CUDA(cuda) \
	.cuda_funcs = {FV_UNPAREN cuda}, .cuda_flags = {STARPU_CUDA_ASYNC, STARPU_CUDA_ASYNC, STARPU_CUDA_ASYNC},
#elif defined(FV_SIMGRID)
/* fvstar-sim: StarPU simulates a CUDA worker for a codelet that has a CUDA
 * function and never calls it (the task lasts what its model says); one
 * stand-in per variant keeps the implementation count of the CUDA build,
 * whose calibrated models have an entry per implementation */
void fv_sim_cuda(void *buffers[], void *cl_arg);
#define FV_SIM_CUDA_N(a, b, c, d, n, ...) n
#define FV_SIM_CUDA(...) FV_SIM_CUDA_N(__VA_ARGS__, FV_SIM_CUDA4, FV_SIM_CUDA3, FV_SIM_CUDA2, FV_SIM_CUDA1, x)
#define FV_SIM_CUDA1 fv_sim_cuda
#define FV_SIM_CUDA2 fv_sim_cuda, fv_sim_cuda
#define FV_SIM_CUDA3 fv_sim_cuda, fv_sim_cuda, fv_sim_cuda
#define FV_SIM_CUDA4 fv_sim_cuda, fv_sim_cuda, fv_sim_cuda, fv_sim_cuda
#define FV_CODELET_CUDA(cuda) \
	.cuda_funcs = {FV_SIM_CUDA cuda}, .cuda_flags = {STARPU_CUDA_ASYNC, STARPU_CUDA_ASYNC, STARPU_CUDA_ASYNC},
#else
#define FV_CODELET_CUDA(cuda)
#endif
/* The codelets that exist only for CUDA workers (real or simulated). */
#if defined(FV_HAVE_CUDA) || defined(FV_SIMGRID)
#define FV_CUDA_CODELETS 1
#endif
#define FV_CODELET(cpu, cuda, model_, name_, n, ...)                                                       \
	{.cpu_funcs = {cpu}, .cpu_funcs_name = {#cpu}, FV_CODELET_CUDA(cuda).nbuffers = (n), .modes = {__VA_ARGS__}, \
	 .model = &(model_), .name = (name_)}
#ifdef FV_SIMGRID
/* fvstar-sim reads the same files as their fit a size^b + c, which
 * tools/sim_platform.py fit adds to the history: a simulated machine
 * cuts other blocks than the one measured (more GPUs, other balances),
 * whose footprints no history holds */
#define FV_MODEL_TYPE STARPU_NL_REGRESSION_BASED
#else
#define FV_MODEL_TYPE STARPU_HISTORY_BASED
#endif
#define FV_MODEL(var, symbol_) static struct starpu_perfmodel var = {.type = FV_MODEL_TYPE, .symbol = (symbol_)}

/* The StarPU handle behind a runtime handle. */
#define FV_SP(h) ((starpu_data_handle_t)(void *)(h))

/* Submits a task of codelet cl on the buffers d[0 .. n) with a's values
 * as its arguments, on a->worker (-1: the scheduler picks), named name
 * (traces, errors) with flops floating-point operations (perf models'
 * GFlop/s). */
fv_err_t fv_task_submit(struct starpu_codelet *cl, const char *name, const fv_task_args_t *a, double flops,
			struct starpu_data_descr *d, int n);
#define FV_SUBMIT(cl, name, a, flops, ...)                                                          \
	fv_task_submit((cl), (name), (a), (flops), (struct starpu_data_descr[]){__VA_ARGS__},        \
		       (int)(sizeof((struct starpu_data_descr[]){__VA_ARGS__}) / sizeof(struct starpu_data_descr)))
/* The same for a task that never joins a task chain (codelets/chain.c). */
fv_err_t fv_task_submit_alone(struct starpu_codelet *cl, const char *name, const fv_task_args_t *a, double flops,
			      struct starpu_data_descr *d, int n);
/* codelets/tasks.c: a task of packed arguments blob (size bytes, which
 * StarPU frees with the task); whether a handle's data is this rank's
 * (always, with one rank). */
fv_err_t fv_task_submit_blob(struct starpu_codelet *cl, const char *name, int block, int worker, int priority,
			     double flops, struct starpu_data_descr *d, int n, void *blob, size_t size);
int fv_task_data_mine(void *handle);
/* Where a task may stand in a chain: anywhere; first (a halo's unpack:
 * the block's open chain goes to StarPU before it); last (a halo's pack:
 * its chain goes to StarPU with it). */
typedef enum fv_chain_place { FV_CHAIN_ANYWHERE, FV_CHAIN_STARTS, FV_CHAIN_ENDS } fv_chain_place_t;
/* A halo task: it joins a chain only at its place. */
fv_err_t fv_task_submit_halo(struct starpu_codelet *cl, const char *name, const fv_task_args_t *a,
			     struct starpu_data_descr *d, int n, fv_chain_place_t place);
#define FV_SUBMIT_HALO(cl, name, a, place, ...)                                                   \
	fv_task_submit_halo((cl), (name), (a), (struct starpu_data_descr[]){__VA_ARGS__},          \
			    (int)(sizeof((struct starpu_data_descr[]){__VA_ARGS__}) / sizeof(struct starpu_data_descr)), \
			    (place))
/* codelets/chain.c: takes the task into its block's open chain (*taken),
 * or, when it cannot join one, submits every open chain first. */
fv_err_t fv_chain_add(struct starpu_codelet *cl, const char *name, const fv_task_args_t *a, double flops,
		      struct starpu_data_descr *d, int n, fv_chain_place_t place, int *taken);
#define FV_BUF(h, mode) {FV_SP(h), (mode)}

/* color_tasks: the history model of a group task keys on the group's face
 * count (every group of a block has the same buffers), and a task name per
 * stage and group ("flux_color3") that lasts, as StarPU keeps it. */
uint32_t fv_group_footprint(struct starpu_task *task);
const char *fv_group_name(const char *stage, int group);
/* A colour group task's arguments are checked (group in range). */
fv_err_t fv_group_check(const fv_task_args_t *a, const char *stage);
/* The share of the block's faces in the task's colour group (flop counts). */
static inline double fv_group_share(const fv_task_args_t *a)
{
	fv_idx_t n = a->color_off[a->n_colors];
	return n > 0 ? (double)(a->color_off[a->group + 1] - a->color_off[a->group]) / (double)n : 0.0;
}

/* A scratch buffer of the calling CPU worker thread, one per slot, at
 * least bytes long, 64-byte aligned, kept between tasks (allocating a
 * buffer of the block's size per task costs page faults); NULL without
 * memory. Its contents do not outlive the task. */
enum { FV_SCRATCH_CELLS, FV_SCRATCH_NODES, FV_SCRATCH_FACES, FV_SCRATCH_LIMITER, FV_NSCRATCH };
void *fv_cpu_scratch(int slot, size_t bytes);

/* CPU implementations (codelets/<stage>/<stage>_cpu.c). */
void fv_pack_cpu(void *buffers[], void *cl_arg);
void fv_pack_peer_cpu(void *buffers[], void *cl_arg);
void fv_unpack_cpu(void *buffers[], void *cl_arg);
void fv_pack_all_cpu(void *buffers[], void *cl_arg);
void fv_unpack_all_cpu(void *buffers[], void *cl_arg);
void fv_fetch_cpu(void *buffers[], void *cl_arg);
void fv_prim_cpu(void *buffers[], void *cl_arg);
void fv_nodes_cpu(void *buffers[], void *cl_arg);
void fv_gradient_cpu(void *buffers[], void *cl_arg);
void fv_limiter_cpu(void *buffers[], void *cl_arg);
void fv_flux_cpu(void *buffers[], void *cl_arg);
void fv_flux_group_cpu(void *buffers[], void *cl_arg);
void fv_flux_interior_cpu(void *buffers[], void *cl_arg);
void fv_flux_border_cpu(void *buffers[], void *cl_arg);
void fv_timestep_cpu(void *buffers[], void *cl_arg);
void fv_clock_cpu(void *buffers[], void *cl_arg);
void fv_update_cpu(void *buffers[], void *cl_arg);
void fv_norms_cpu(void *buffers[], void *cl_arg);
void fv_copy_cpu(void *buffers[], void *cl_arg);
void fv_zero_cpu(void *buffers[], void *cl_arg);
void fv_diagonal_cpu(void *buffers[], void *cl_arg);
void fv_sweep_cpu(void *buffers[], void *cl_arg);
void fv_implicit_update_cpu(void *buffers[], void *cl_arg);
void fv_sweep_check_cpu(void *buffers[], void *cl_arg);
void fv_kry_start_cpu(void *buffers[], void *cl_arg);
void fv_kry_prep_cpu(void *buffers[], void *cl_arg);
void fv_kry_matvec_cpu(void *buffers[], void *cl_arg);
void fv_kry_orth_cpu(void *buffers[], void *cl_arg);
void fv_kry_finish_cpu(void *buffers[], void *cl_arg);
void fv_kry_reduce_cpu(void *buffers[], void *cl_arg);

#ifdef FV_HAVE_CUDA
/* CUDA implementations (codelets/<stage>/<stage>_cuda.cu). */
void fv_pack_cuda(void *buffers[], void *cl_arg);
void fv_unpack_cuda(void *buffers[], void *cl_arg);
void fv_pack_all_cuda(void *buffers[], void *cl_arg);
void fv_unpack_all_cuda(void *buffers[], void *cl_arg);
void fv_fetch_cuda(void *buffers[], void *cl_arg);
void fv_pack_host_cuda(void *buffers[], void *cl_arg);
void fv_unpack_host_cuda(void *buffers[], void *cl_arg);
void fv_pack_all_host_cuda(void *buffers[], void *cl_arg);
void fv_unpack_all_host_cuda(void *buffers[], void *cl_arg);
void fv_pack_peer_cuda(void *buffers[], void *cl_arg);
void fv_prim_cuda(void *buffers[], void *cl_arg);
void fv_nodes_cuda(void *buffers[], void *cl_arg);
void fv_gradient_cuda(void *buffers[], void *cl_arg);
void fv_limiter_cuda(void *buffers[], void *cl_arg);
void fv_nodes_atomic_cuda(void *buffers[], void *cl_arg);
void fv_gradient_atomic_cuda(void *buffers[], void *cl_arg);
void fv_gradient_color_cuda(void *buffers[], void *cl_arg);
void fv_limiter_atomic_cuda(void *buffers[], void *cl_arg);
void fv_limiter_color_cuda(void *buffers[], void *cl_arg);
void fv_flux_cuda(void *buffers[], void *cl_arg);
void fv_flux_gather_cuda(void *buffers[], void *cl_arg);
void fv_flux_color_cuda(void *buffers[], void *cl_arg);
void fv_flux_group_cuda(void *buffers[], void *cl_arg);
void fv_flux_interior_cuda(void *buffers[], void *cl_arg);
void fv_flux_border_cuda(void *buffers[], void *cl_arg);
void fv_flux_border_gather_cuda(void *buffers[], void *cl_arg);
void fv_flux_border_color_cuda(void *buffers[], void *cl_arg);
void fv_flux_interior_direct_cuda(void *buffers[], void *cl_arg);
void fv_flux_border_direct_cuda(void *buffers[], void *cl_arg);
void fv_flux_interior_direct_gather_cuda(void *buffers[], void *cl_arg);
void fv_flux_border_direct_gather_cuda(void *buffers[], void *cl_arg);
void fv_timestep_cuda(void *buffers[], void *cl_arg);
void fv_timestep_atomic_cuda(void *buffers[], void *cl_arg);
void fv_timestep_color_cuda(void *buffers[], void *cl_arg);
void fv_clock_cuda(void *buffers[], void *cl_arg);
void fv_clock_init_cuda(void *buffers[], void *cl_arg);
void fv_clock_redux_cuda(void *buffers[], void *cl_arg);
void fv_update_cuda(void *buffers[], void *cl_arg);
void fv_norms_cuda(void *buffers[], void *cl_arg);
void fv_copy_cuda(void *buffers[], void *cl_arg);
void fv_zero_cuda(void *buffers[], void *cl_arg);
void fv_diagonal_cuda(void *buffers[], void *cl_arg);
void fv_sweep_cuda(void *buffers[], void *cl_arg);
void fv_implicit_update_cuda(void *buffers[], void *cl_arg);
void fv_sweep_check_cuda(void *buffers[], void *cl_arg);
void fv_kry_start_cuda(void *buffers[], void *cl_arg);
void fv_kry_prep_cuda(void *buffers[], void *cl_arg);
void fv_kry_matvec_cuda(void *buffers[], void *cl_arg);
void fv_kry_orth_cuda(void *buffers[], void *cl_arg);
void fv_kry_finish_cuda(void *buffers[], void *cl_arg);
void fv_kry_reduce_cuda(void *buffers[], void *cl_arg);
#endif

#define FV_ARGS_UNPACK(cl_arg, a) starpu_codelet_unpack_args((cl_arg), (a))
#define FV_PTR(i, type) ((type *)STARPU_VECTOR_GET_PTR(buffers[i]))

/* The clock of an unsteady run's time step task (fourth buffer): every
 * one-task time step has it; of a colour group's tasks, the last. */
static inline fv_clock_t *fv_timestep_clock(void *buffers[], const fv_task_args_t *a)
{
	int k0, k1, start, finish;
	fv_task_groups(a, &k0, &k1, &start, &finish);
	return a->P.steady || !finish ? NULL : FV_PTR(3, fv_clock_t);
}

#ifdef __cplusplus
}
#endif
#endif
