/* SPDX-License-Identifier: MIT */
/* CPU: the Krylov solve's block loops (one thread per task) and the
 * reduction of the blocks' dot products into GMRES's coefficients. */
#include <string.h>

#include "codelets/common.h"
#include "codelets/insert.h"
#include "kernels/krylov.h"

/* A block's dot row: product k's sum in part 0 of its FV_KRY_PARTS. */
static void dot_put(double *dot, int k, double x)
{
	memset(dot + (size_t)k * FV_KRY_PARTS, 0, FV_KRY_PARTS * sizeof *dot);
	dot[(size_t)k * FV_KRY_PARTS] = x;
}

void fv_kry_start_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *res = FV_PTR(1, const fv_real_t);
	fv_real_t *v0 = FV_PTR(4, fv_real_t);
	if (a.kry_step)
		for (fv_idx_t i = 0; i < v.n_owned; i++)
			fv_k_matvec(&v, &a.P, FV_PTR(2, const fv_op_t), FV_PTR(3, const fv_real_t), v0, i);
	double t = 0;
	for (fv_idx_t i = 0; i < v.n_owned; i++)
		fv_k_kry_start(&v, &a.P, FV_PTR(2, const fv_op_t), res, v0, a.kry_step, i);
	for (fv_idx_t c = 0; c < v.n_owned; c++)
		t += fv_k_kry_dot(&v, &a.P, v0, v0, c);
	dot_put(FV_PTR(5, double), 0, t);
}

void fv_kry_prep_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const double *K = FV_PTR(1, const double);
	const fv_op_t *op = FV_PTR(2, const fv_op_t);
	fv_real_t *vj = fv_kry_vec(FV_PTR(3, fv_real_t), &v, &a.P, a.kry_j);
	fv_real_t *rhs = FV_PTR(4, fv_real_t), *dq = FV_PTR(5, fv_real_t);
	fv_real_t scale = (fv_real_t)K[fv_kry_scale(a.kry_m, a.kry_j)];
	for (fv_idx_t i = 0; i < v.n_owned; i++)
		fv_k_kry_prep(&v, &a.P, op, vj, rhs, scale, i);
	memset(dq, 0, (size_t)a.P.nvar * v.sc * sizeof *dq);
}

void fv_kry_matvec_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_op_t *op = FV_PTR(1, const fv_op_t);
	const fv_real_t *dq = FV_PTR(2, const fv_real_t);
	fv_real_t *V = FV_PTR(3, fv_real_t), *zj = fv_kry_vec(FV_PTR(4, fv_real_t), &v, &a.P, a.kry_j);
	fv_real_t *w = fv_kry_vec(V, &v, &a.P, a.kry_j + 1);
	double *dot = FV_PTR(5, double);
	for (int r = 0; r < a.P.nvar; r++)
		memcpy(zj + (size_t)r * v.so, dq + (size_t)r * v.sc, (size_t)v.n_owned * sizeof *zj);
	for (fv_idx_t i = 0; i < v.n_owned; i++)
		fv_k_matvec(&v, &a.P, op, dq, w, i);
	for (int k = 0; k <= a.kry_j; k++) {
		const fv_real_t *vk = fv_kry_vec(V, &v, &a.P, k);
		double t = 0;
		for (fv_idx_t c = 0; c < v.n_owned; c++)
			t += fv_k_kry_dot(&v, &a.P, w, vk, c);
		dot_put(dot, k, t);
	}
}

void fv_kry_orth_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const double *K = FV_PTR(1, const double);
	fv_real_t *V = FV_PTR(2, fv_real_t), *w = fv_kry_vec(V, &v, &a.P, a.kry_j + 1);
	double t = 0;
	for (fv_idx_t c = 0; c < v.n_owned; c++) {
		fv_k_kry_orth(&v, &a.P, V, K, a.kry_m, a.kry_j, c);
		t += fv_k_kry_dot(&v, &a.P, w, w, c);
	}
	dot_put(FV_PTR(3, double), 0, t);
}

void fv_kry_finish_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const double *K = FV_PTR(1, const double);
	const fv_real_t *Z = FV_PTR(2, const fv_real_t);
	fv_real_t *x = FV_PTR(3, fv_real_t), *dq = FV_PTR(4, fv_real_t);
	for (fv_idx_t c = 0; c < v.n_owned; c++)
		fv_k_kry_finish(&v, &a.P, Z, K, a.kry_m, a.kry_step, x, dq, c);
}

/* The blocks' rows summed (fv_k_kry_sum), then the dense part. */
void fv_kry_reduce_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	int nb = (int)STARPU_TASK_GET_NBUFFERS(starpu_task_get_current()) - 1;
	int n = a.kry_step == FV_KRY_STEP_COLUMN ? a.kry_j + 1 : 1;
	const double *rows[FV_KRY_REDUCE_MAX];
	double d[FV_KRY_DIM_MAX + 1];
	for (int b = 0; b < nb; b++)
		rows[b] = FV_PTR(1 + b, const double);
	for (int k = 0; k < n; k++)
		d[k] = fv_k_kry_sum(rows, nb, k);
	fv_k_kry_reduce(FV_PTR(0, double), a.kry_m, a.kry_step, a.kry_j, d);
}
