/* SPDX-License-Identifier: MIT */
/* Primitive variables (rho, u, v, w, p) of every local cell, ghosts too. */
#include "codelets/common.h"

/* Operations per cell: one division, three products, the kinetic energy
 * and the pressure. */
#define FLOPS_PER_CELL 14.0

FV_MODEL(model, "fv_prim");
static struct starpu_codelet cl = FV_CODELET(fv_prim_cpu, (fv_prim_cuda), model, "fv_prim", 2, STARPU_R, STARPU_W);

fv_err_t fv_insert_prim(fv_handle_t q, fv_handle_t w, const fv_task_args_t *a)
{
	return FV_SUBMIT(&cl, "prim", a, FLOPS_PER_CELL * a->L.n_cells, FV_BUF(q, STARPU_R), FV_BUF(w, STARPU_W));
}
