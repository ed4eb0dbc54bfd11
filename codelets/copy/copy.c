/* SPDX-License-Identifier: MIT */
/* A copy of one field into another of the same size where the block's
 * tasks run (the state snapshots a diverged run falls back on): a task of
 * its own, so that every scheduler places it as it places the block's
 * other tasks. And the zeros a field without host memory holds where it
 * is first read before any task wrote it. */
#include "codelets/common.h"

FV_MODEL(model, "fv_copy");
static struct starpu_codelet cl = FV_CODELET(fv_copy_cpu, (fv_copy_cuda), model, "fv_copy", 2, STARPU_R, STARPU_W);

fv_err_t fv_insert_copy(fv_handle_t src, fv_handle_t dst, const fv_task_args_t *a)
{
	return FV_SUBMIT(&cl, "copy", a, 0.0, FV_BUF(src, STARPU_R), FV_BUF(dst, STARPU_W));
}

/* StarPU runs it on the worker that first reads a handle no task has
 * written (data registered without memory, StarPU 1.3's init_cl), just
 * before that task: the zeros the host's zeroed pages used to give. */
FV_MODEL(zero_model, "fv_zero");
static struct starpu_codelet zero_cl =
	FV_CODELET(fv_zero_cpu, (fv_zero_cuda), zero_model, "fv_zero", 1, STARPU_W);

void fv_set_zero_init(fv_handle_t h)
{
	starpu_data_set_reduction_methods(FV_SP(h), NULL, &zero_cl);
}
