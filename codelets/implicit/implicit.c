/* SPDX-License-Identifier: MIT */
/* The tasks of an implicit iteration (numerics.time = implicit,
 * src/kernels/implicit.h): the operator's diagonal of a block, one
 * Gauss-Seidel task per colour group of cells and block, the sweeps'
 * check (their linear residual reduction), the update q += dq. */
#include "codelets/common.h"
#include "kernels/implicit.h"

/* Operations per owned cell (about 4 faces): LU-SGS, a spectral radius per
 * face (15) and the sum; point-implicit, per interior face two flux
 * Jacobians (60 each), Roe's matrix applied to 5 columns (5 x 60) and the
 * two blocks (50), the 5x5 LU (80), and at a boundary face six boundary
 * fluxes of finite differences (250 each). Per face of a sweep: LU-SGS two
 * conversions (15 each), two Euler fluxes (25 each), a spectral radius (15)
 * and the sums (20); point, a 5x5 block product (50); per cell the solve
 * (10, or 50 for a block). */
#define FLOPS_DIAG_LUSGS 80.0
#define FLOPS_DIAG_POINT 2000.0
#define FLOPS_DIAG_BFACE 1500.0
#define FLOPS_SWEEP_FACE(point) ((point) ? 50.0 : 115.0)
#define FLOPS_SWEEP_CELL(point) ((point) ? 50.0 : 10.0)
#define FLOPS_UPDATE 30.0

FV_MODEL(diag_model, "fv_diagonal");
static struct starpu_codelet diag_cl = FV_CODELET(fv_diagonal_cpu, (fv_diagonal_cuda), diag_model, "fv_diagonal", 5,
						  STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W);

/* A sweep task's cost follows its group's cell count and the variant. */
static uint32_t sweep_footprint(struct starpu_task *task)
{
	fv_task_args_t a;
	starpu_codelet_unpack_args(task->cl_arg, &a);
	return starpu_hash_crc32c_be((uint32_t)(a.cells_e - a.cells_b), (uint32_t)a.P.implicit);
}
static struct starpu_perfmodel sweep_model = {
	.type = STARPU_HISTORY_BASED, .symbol = "fv_sweep", .footprint = sweep_footprint};
static struct starpu_codelet sweep_cl = FV_CODELET(fv_sweep_cpu, (fv_sweep_cuda), sweep_model, "fv_sweep", 5, STARPU_R,
						   STARPU_R, STARPU_R, STARPU_R, STARPU_RW);

FV_MODEL(check_model, "fv_sweep_check");
static struct starpu_codelet check_cl = FV_CODELET(fv_sweep_check_cpu, (fv_sweep_check_cuda), check_model,
						   "fv_sweep_check", 6, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R,
						   STARPU_RW);

FV_MODEL(update_model, "fv_implicit_update");
static struct starpu_codelet update_cl = FV_CODELET(fv_implicit_update_cpu, (fv_implicit_update_cuda), update_model,
						    "fv_implicit_update", 4, STARPU_R, STARPU_R, STARPU_RW, STARPU_RW);

fv_err_t fv_insert_diagonal(fv_handle_t geo, fv_handle_t q, fv_handle_t dt, fv_handle_t diag, fv_handle_t dq,
			    const fv_task_args_t *a)
{
	int point = a->P.implicit == FV_IMPLICIT_POINT;
	double flops = (point ? FLOPS_DIAG_POINT : FLOPS_DIAG_LUSGS) * a->L.n_owned +
		       (point ? FLOPS_DIAG_BFACE * a->L.n_bfaces : 0.0);
	return FV_SUBMIT(&diag_cl, "diagonal", a, flops, FV_BUF(geo, STARPU_R), FV_BUF(q, STARPU_R), FV_BUF(dt, STARPU_R),
			 FV_BUF(diag, STARPU_W), FV_BUF(dq, STARPU_W));
}

fv_err_t fv_insert_sweep(fv_handle_t geo, fv_handle_t q, fv_handle_t res, fv_handle_t diag, fv_handle_t dq,
			 const fv_task_args_t *a)
{
	FV_CHECK(a->cells_b >= 0 && a->cells_b <= a->cells_e && a->cells_e <= a->L.n_owned, FV_ERR_ARG,
		 "task sweep (block %d): cells %d..%d of %d", a->block, (int)a->cells_b, (int)a->cells_e,
		 (int)a->L.n_owned);
	double cells = (double)(a->cells_e - a->cells_b);
	double faces = a->L.n_owned > 0 ? cells * 2.0 * (a->L.n_faces - a->L.n_bfaces) / a->L.n_owned : 0.0;
	return FV_SUBMIT(&sweep_cl, fv_group_name("sweep", a->group), a,
			 FLOPS_SWEEP_FACE(a->P.implicit == FV_IMPLICIT_POINT) * faces +
				 FLOPS_SWEEP_CELL(a->P.implicit == FV_IMPLICIT_POINT) * cells,
			 FV_BUF(geo, STARPU_R), FV_BUF(q, STARPU_R), FV_BUF(res, STARPU_R), FV_BUF(diag, STARPU_R),
			 FV_BUF(dq, STARPU_RW));
}

fv_err_t fv_insert_implicit_update(fv_handle_t geo, fv_handle_t dq, fv_handle_t q, fv_handle_t norms,
				   const fv_task_args_t *a)
{
	return FV_SUBMIT(&update_cl, "implicit_update", a, FLOPS_UPDATE * a->L.n_owned, FV_BUF(geo, STARPU_R),
			 FV_BUF(dq, STARPU_R), FV_BUF(q, STARPU_RW), FV_BUF(norms, STARPU_RW));
}

fv_err_t fv_insert_sweep_check(fv_handle_t geo, fv_handle_t q, fv_handle_t res, fv_handle_t diag, fv_handle_t dq,
			       fv_handle_t norms, const fv_task_args_t *a)
{
	int point = a->P.implicit == FV_IMPLICIT_POINT;
	double faces = a->L.n_owned > 0 ? 2.0 * (a->L.n_faces - a->L.n_bfaces) : 0.0;
	/* named after the norms (a reduction into their row), not the sweeps:
	 * the trace tools count sweep* tasks per colour group */
	return FV_SUBMIT(&check_cl, "norms_sweeps", a,
			 FLOPS_SWEEP_FACE(point) * faces + (2 * FLOPS_SWEEP_CELL(point) + 20) * a->L.n_owned,
			 FV_BUF(geo, STARPU_R), FV_BUF(q, STARPU_R), FV_BUF(res, STARPU_R), FV_BUF(diag, STARPU_R),
			 FV_BUF(dq, STARPU_R), FV_BUF(norms, STARPU_RW));
}
