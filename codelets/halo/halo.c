/* SPDX-License-Identifier: MIT */
/* Halo exchange tasks: pack a block's owned values for one neighbour into
 * that pair's buffer, unpack a buffer into the neighbour's ghost range.
 *
 *   block b: [ owned ........ | ghosts from n0 | ghosts from n1 ]
 *                 |  send_cell(b->n1)                ^
 *                 v                                  |
 *              buf(b->n1) --(StarPU moves it)--> unpack in n1
 */
#include "codelets/common.h"

static struct starpu_perfmodel pack_model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_pack"};
static struct starpu_perfmodel unpack_model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_unpack"};

static struct starpu_codelet pack_cl = {
	.cpu_funcs = {fv_pack_cpu},
	.cpu_funcs_name = {"fv_pack_cpu"},
#ifdef FV_HAVE_CUDA
	.cuda_funcs = {fv_pack_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 3,
	.modes = {STARPU_R, STARPU_R, STARPU_W},
	.model = &pack_model,
	.name = "fv_pack",
};

static struct starpu_codelet unpack_cl = {
	.cpu_funcs = {fv_unpack_cpu},
	.cpu_funcs_name = {"fv_unpack_cpu"},
#ifdef FV_HAVE_CUDA
	.cuda_funcs = {fv_unpack_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 3,
	.modes = {STARPU_R, STARPU_R, STARPU_RW},
	.model = &unpack_model,
	.name = "fv_unpack",
};

fv_err_t fv_insert_pack(starpu_data_handle_t geo, starpu_data_handle_t field, starpu_data_handle_t buf,
			const fv_task_args_t *a)
{
	return fv_task_check(starpu_task_insert(&pack_cl, STARPU_R, geo, STARPU_R, field, STARPU_W, buf,
						STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME, "pack", 0),
			     "pack", a->block);
}

fv_err_t fv_insert_unpack(starpu_data_handle_t geo, starpu_data_handle_t buf, starpu_data_handle_t field,
			  const fv_task_args_t *a)
{
	return fv_task_check(starpu_task_insert(&unpack_cl, STARPU_R, geo, STARPU_R, buf, STARPU_RW, field,
						STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME, "unpack", 0),
			     "unpack", a->block);
}
