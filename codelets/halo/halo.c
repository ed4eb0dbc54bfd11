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

FV_MODEL(pack_model, "fv_pack");
FV_MODEL(unpack_model, "fv_unpack");
static struct starpu_codelet pack_cl =
	FV_CODELET(fv_pack_cpu, (fv_pack_cuda), pack_model, "fv_pack", 3, STARPU_R, STARPU_R, STARPU_W);
static struct starpu_codelet unpack_cl =
	FV_CODELET(fv_unpack_cpu, (fv_unpack_cuda), unpack_model, "fv_unpack", 3, STARPU_R, STARPU_R, STARPU_RW);

/* Copies only: no floating-point operation. */
fv_err_t fv_insert_pack(fv_handle_t geo, fv_handle_t field, fv_handle_t buf, const fv_task_args_t *a)
{
	/* several ranks: a buffer that goes to another rank is packed first
	 * (the send StarPU-MPI posts has the task's priority too) */
	fv_task_args_t b = *a;
	b.priority = STARPU_MAX_PRIO;
	return FV_SUBMIT(&pack_cl, "pack", &b, 0.0, FV_BUF(geo, STARPU_R), FV_BUF(field, STARPU_R),
			 FV_BUF(buf, STARPU_W));
}

fv_err_t fv_insert_unpack(fv_handle_t geo, fv_handle_t buf, fv_handle_t field, const fv_task_args_t *a)
{
	return FV_SUBMIT(&unpack_cl, "unpack", a, 0.0, FV_BUF(geo, STARPU_R), FV_BUF(buf, STARPU_R),
			 FV_BUF(field, STARPU_RW));
}
