/* SPDX-License-Identifier: MIT */
/* Primitive variables (rho, u, v, w, p) of every local cell, ghosts too. */
#include "codelets/common.h"

/* Operations per cell: one division, three products, the kinetic energy
 * and the pressure. */
#define FLOPS_PER_CELL 14.0

FV_MODEL(model, "fv_prim");
static struct starpu_codelet cl = FV_CODELET(fv_prim_cpu, (fv_prim_cuda), model, "fv_prim", 2, STARPU_R, STARPU_W);
/* numerics.overlap: the ghosts' part keeps the owned cells' values */
FV_MODEL(model_ghosts, "fv_prim_ghosts");
static struct starpu_codelet cl_ghosts =
	FV_CODELET(fv_prim_cpu, (fv_prim_cuda), model_ghosts, "fv_prim", 2, STARPU_R, STARPU_RW);

fv_err_t fv_insert_prim(fv_handle_t q, fv_handle_t w, const fv_task_args_t *a)
{
	fv_idx_t b, e;
	fv_k_part_cells(a->part, a->L.n_owned, a->L.n_cells, &b, &e);
	int ghosts = a->part == FV_SPLIT_BORDER;
	return FV_SUBMIT(ghosts ? &cl_ghosts : &cl, ghosts ? "prim_border" : a->part ? "prim_interior" : "prim", a,
			 FLOPS_PER_CELL * (e - b), FV_BUF(q, STARPU_R), FV_BUF(w, ghosts ? STARPU_RW : STARPU_W));
}
