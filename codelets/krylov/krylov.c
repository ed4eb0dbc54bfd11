/* SPDX-License-Identifier: MIT */
/* The tasks of the Krylov solve of an implicit iteration (numerics.linear =
 * gmres, src/kernels/krylov.h): per block the start, the scaling of a
 * direction into the sweeps' right-hand side, the operator's product and
 * its dot products, the Gram-Schmidt step, the solution; and the one small
 * task that sums the blocks' partial dot products into GMRES's
 * coefficients. */
#include "codelets/common.h"
#include "codelets/insert.h"
#include "kernels/krylov.h"

/* Operations per owned cell and row: a product with the operator (a 5x5
 * block per face and the diagonal's factors, about 4 faces), a dot product
 * (2), a Gram-Schmidt term (2). */
#define FLOPS_MATVEC_CELL 300.0
#define FLOPS_VEC_CELL(nv) (2.0 * (nv))

FV_MODEL(start_model, "fv_kry_start");
static struct starpu_codelet start_cl = FV_CODELET(fv_kry_start_cpu, (fv_kry_start_cuda), start_model, "fv_kry_start",
						   6, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_W);
FV_MODEL(prep_model, "fv_kry_prep");
static struct starpu_codelet prep_cl = FV_CODELET(fv_kry_prep_cpu, (fv_kry_prep_cuda), prep_model, "fv_kry_prep", 6,
						  STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_W, STARPU_W);
FV_MODEL(matvec_model, "fv_kry_matvec");
static struct starpu_codelet matvec_cl = FV_CODELET(fv_kry_matvec_cpu, (fv_kry_matvec_cuda), matvec_model,
						    "fv_kry_matvec", 6, STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_RW,
						    STARPU_W);
FV_MODEL(orth_model, "fv_kry_orth");
static struct starpu_codelet orth_cl = FV_CODELET(fv_kry_orth_cpu, (fv_kry_orth_cuda), orth_model, "fv_kry_orth", 4,
						  STARPU_R, STARPU_R, STARPU_RW, STARPU_W);
FV_MODEL(finish_model, "fv_kry_finish");
static struct starpu_codelet finish_cl = FV_CODELET(fv_kry_finish_cpu, (fv_kry_finish_cuda), finish_model,
						    "fv_kry_finish", 5, STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_RW);
/* A few hundred operations, on the host or (at most FV_KRY_CUDA_ROWS
 * blocks) on a GPU, wherever the dot rows are; no model: the scheduler
 * places it by its data. */
static int reduce_can(unsigned worker, struct starpu_task *task, unsigned nimpl)
{
	(void)nimpl;
	return starpu_worker_get_type((int)worker) != STARPU_CUDA_WORKER ||
	       STARPU_TASK_GET_NBUFFERS(task) <= FV_KRY_CUDA_ROWS + 1;
}
#ifdef FV_HAVE_CUDA
#define REDUCE_CUDA .cuda_funcs = {fv_kry_reduce_cuda}, .cuda_flags = {STARPU_CUDA_ASYNC},
#else
#define REDUCE_CUDA
#endif
static struct starpu_codelet reduce_cl = {.can_execute = reduce_can,
					  .cpu_funcs = {fv_kry_reduce_cpu},
					  .cpu_funcs_name = {"fv_kry_reduce_cpu"},
					  REDUCE_CUDA.nbuffers = STARPU_VARIABLE_NBUFFERS,
					  .name = "fv_kry_reduce"};

fv_err_t fv_insert_kry_start(fv_handle_t geo, fv_handle_t res, fv_handle_t diag, fv_handle_t dq, fv_handle_t V,
			     fv_handle_t dot, const fv_task_args_t *a)
{
	double n = a->L.n_owned;
	return FV_SUBMIT(&start_cl, "krylov_start", a,
			 (a->kry_step ? FLOPS_MATVEC_CELL * n : 0.0) + 2 * FLOPS_VEC_CELL(a->P.nvar) * n,
			 FV_BUF(geo, STARPU_R), FV_BUF(res, STARPU_R), FV_BUF(diag, STARPU_R), FV_BUF(dq, STARPU_R),
			 FV_BUF(V, STARPU_RW), FV_BUF(dot, STARPU_W));
}

fv_err_t fv_insert_kry_prep(fv_handle_t geo, fv_handle_t coef, fv_handle_t diag, fv_handle_t V, fv_handle_t rhs,
			    fv_handle_t dq, const fv_task_args_t *a)
{
	FV_CHECK(a->kry_j >= 0 && a->kry_j < a->kry_m, FV_ERR_ARG, "task krylov_prep (block %d): direction %d of %d",
		 a->block, a->kry_j, a->kry_m);
	return FV_SUBMIT(&prep_cl, "krylov_prep", a, 30.0 * a->L.n_owned, FV_BUF(geo, STARPU_R),
			 FV_BUF(coef, STARPU_R), FV_BUF(diag, STARPU_R), FV_BUF(V, STARPU_RW), FV_BUF(rhs, STARPU_W),
			 FV_BUF(dq, STARPU_W));
}

fv_err_t fv_insert_kry_matvec(fv_handle_t geo, fv_handle_t diag, fv_handle_t dq, fv_handle_t V, fv_handle_t Z,
			      fv_handle_t dot, const fv_task_args_t *a)
{
	double n = a->L.n_owned;
	return FV_SUBMIT(&matvec_cl, "krylov_matvec", a,
			 FLOPS_MATVEC_CELL * n + (a->kry_j + 1) * FLOPS_VEC_CELL(a->P.nvar) * n, FV_BUF(geo, STARPU_R),
			 FV_BUF(diag, STARPU_R), FV_BUF(dq, STARPU_R), FV_BUF(V, STARPU_RW), FV_BUF(Z, STARPU_RW),
			 FV_BUF(dot, STARPU_W));
}

fv_err_t fv_insert_kry_orth(fv_handle_t geo, fv_handle_t coef, fv_handle_t V, fv_handle_t dot,
			    const fv_task_args_t *a)
{
	double n = a->L.n_owned;
	return FV_SUBMIT(&orth_cl, "krylov_orth", a, (a->kry_j + 2) * FLOPS_VEC_CELL(a->P.nvar) * n,
			 FV_BUF(geo, STARPU_R), FV_BUF(coef, STARPU_R), FV_BUF(V, STARPU_RW), FV_BUF(dot, STARPU_W));
}

fv_err_t fv_insert_kry_finish(fv_handle_t geo, fv_handle_t coef, fv_handle_t Z, fv_handle_t x, fv_handle_t dq,
			      const fv_task_args_t *a)
{
	return FV_SUBMIT(&finish_cl, "krylov_finish", a, a->kry_m * FLOPS_VEC_CELL(a->P.nvar) * a->L.n_owned,
			 FV_BUF(geo, STARPU_R), FV_BUF(coef, STARPU_R), FV_BUF(Z, STARPU_R), FV_BUF(x, STARPU_RW),
			 FV_BUF(dq, STARPU_RW));
}

fv_err_t fv_insert_kry_reduce(fv_handle_t coef, const fv_handle_t *dots, int n, const fv_task_args_t *a)
{
	struct starpu_data_descr d[FV_KRY_REDUCE_MAX + 1];
	FV_CHECK(n >= 1 && n <= FV_KRY_REDUCE_MAX, FV_ERR_ARG, "task krylov_reduce: %d blocks (1 .. %d)", n,
		 FV_KRY_REDUCE_MAX);
	d[0].handle = FV_SP(coef);
	d[0].mode = STARPU_RW;
	for (int b = 0; b < n; b++) {
		d[1 + b].handle = FV_SP(dots[b]);
		d[1 + b].mode = STARPU_R;
	}
	fv_task_args_t r = *a;
	r.worker = -1;
	return fv_task_submit_alone(&reduce_cl, "krylov_reduce", &r, 10.0 * n * (a->kry_j + 2), d, n + 1);
}
