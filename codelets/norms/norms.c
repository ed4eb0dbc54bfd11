/* SPDX-License-Identifier: MIT */
/* Residual norms and wall forces: each block's sums of squared residuals
 * and its pressure force and moment into its own row. */
#include "codelets/common.h"

/* Operations: 10 per owned cell (5 squares, 5 sums); per boundary face
 * the owner's reconstruction (35), the force and its moment (20). */
#define FLOPS_PER_CELL 10.0
#define FLOPS_PER_BFACE 55.0

FV_MODEL(model, "fv_norms");
static struct starpu_codelet cl = FV_CODELET(fv_norms_cpu, (fv_norms_cuda), model, "fv_norms", 6, STARPU_R, STARPU_R,
					     STARPU_R, STARPU_R, STARPU_R, STARPU_W);

fv_err_t fv_insert_norms(fv_handle_t geo, fv_handle_t w, fv_handle_t grad, fv_handle_t phi, fv_handle_t res,
			 fv_handle_t norms, const fv_task_args_t *a)
{
	return FV_SUBMIT(&cl, "norms", a, FLOPS_PER_CELL * a->L.n_owned + FLOPS_PER_BFACE * a->L.n_bfaces,
			 FV_BUF(geo, STARPU_R), FV_BUF(w, STARPU_R), FV_BUF(grad, STARPU_R), FV_BUF(phi, STARPU_R),
			 FV_BUF(res, STARPU_R), FV_BUF(norms, STARPU_W));
}
