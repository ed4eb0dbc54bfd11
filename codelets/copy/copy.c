/* SPDX-License-Identifier: MIT */
/* A copy of one field into another of the same size where the block's
 * tasks run (the state snapshots a diverged run falls back on): a task of
 * its own, so that every scheduler places it as it places the block's
 * other tasks. */
#include "codelets/common.h"

FV_MODEL(model, "fv_copy");
static struct starpu_codelet cl = FV_CODELET(fv_copy_cpu, (fv_copy_cuda), model, "fv_copy", 2, STARPU_R, STARPU_W);

fv_err_t fv_insert_copy(fv_handle_t src, fv_handle_t dst, const fv_task_args_t *a)
{
	return FV_SUBMIT(&cl, "copy", a, 0.0, FV_BUF(src, STARPU_R), FV_BUF(dst, STARPU_W));
}
