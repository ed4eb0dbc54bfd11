/* SPDX-License-Identifier: MIT */
/* Codelet and task insertion of the smoke codelet (see smoke.h). */
#include "codelets/common.h"
#include "codelets/smoke/smoke.h"

FV_MODEL(smoke_model, "fv_smoke_axpy");
static struct starpu_codelet smoke_cl =
	FV_CODELET(fv_smoke_axpy_cpu, (fv_smoke_axpy_cuda), smoke_model, "fv_smoke_axpy", 2, STARPU_R, STARPU_RW);

fv_err_t fv_insert_smoke_axpy(starpu_data_handle_t x, starpu_data_handle_t y, fv_real_t alpha, int worker)
{
	fv_smoke_args_t args = {alpha};
	int ret;
	if (worker >= 0)
		ret = starpu_task_insert(&smoke_cl, STARPU_R, x, STARPU_RW, y, STARPU_VALUE, &args, sizeof args,
					 STARPU_EXECUTE_ON_WORKER, worker, STARPU_NAME, "smoke_axpy",
					 STARPU_FLOPS, (double)(2 * starpu_vector_get_nx(x)), 0);
	else
		ret = starpu_task_insert(&smoke_cl, STARPU_R, x, STARPU_RW, y, STARPU_VALUE, &args, sizeof args,
					 STARPU_NAME, "smoke_axpy", STARPU_FLOPS,
					 (double)(2 * starpu_vector_get_nx(x)), 0);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "submitting task smoke_axpy (worker %d) failed: %s", worker,
		 ret == -ENODEV ? "no worker can run it" : "starpu_task_insert error");
	return FV_OK;
}
