/* SPDX-License-Identifier: MIT */
/* CPU: the implicit iteration's cell loops (the diagonal, one colour group's
 * Gauss-Seidel update, q += dq), one thread per task. */
#include <string.h>

#include "codelets/common.h"
#include "kernels/implicit.h"

/* The operator of every owned cell, by colour-group position, then each
 * line's factors; dq zeroed, ghosts included (the first sweep starts from
 * dq = 0). */
void fv_diagonal_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *q = FV_PTR(1, const fv_real_t);
	const fv_real_t *dt = FV_PTR(2, const fv_real_t);
	fv_op_t *diag = FV_PTR(3, fv_op_t);
	fv_real_t *dq = FV_PTR(4, fv_real_t);
	memset(dq, 0, (size_t)a.P.nvar * v.sc * sizeof *dq);
	for (fv_idx_t i = 0; i < v.n_owned; i++)
		fv_k_diagonal(&v, &a.P, q, dt, diag, i);
	for (fv_idx_t i = 0; a.P.lines && i < v.n_owned; i++)
		if (v.cell_line[i] > 1)
			fv_k_line_factor(&v, &a.P, diag, i, v.cell_line[i]);
}

/* The cells of the task's colour group, in increasing id (they share no
 * face: the order changes nothing). */
void fv_sweep_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *q = FV_PTR(1, const fv_real_t);
	const fv_real_t *res = FV_PTR(2, const fv_real_t);
	const fv_op_t *diag = FV_PTR(3, const fv_op_t);
	fv_real_t *dq = FV_PTR(4, fv_real_t);
	for (fv_idx_t i = a.cells_b; i < a.cells_e; i++)
		fv_k_sweep(&v, &a.P, q, res, diag, dq, i);
}

void fv_implicit_update_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *dq = FV_PTR(1, const fv_real_t);
	fv_real_t *q = FV_PTR(2, fv_real_t);
	double *s = FV_PTR(3, double);
	fv_idx_t clipped = 0;
	for (fv_idx_t c = 0; c < v.n_owned; c++)
		clipped += fv_k_implicit_update(&v, &a.P, dq, q, c);
	s[FV_NORM_CLIP] = (double)clipped;
}

/* The sums of fv_k_sweep_check over the owned cells, in position order,
 * into the block's norm row. */
void fv_sweep_check_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	double acc[2] = {0, 0}, *s = FV_PTR(5, double);
	for (fv_idx_t i = 0; i < v.n_owned; i++)
		fv_k_sweep_check(&v, &a.P, FV_PTR(1, const fv_real_t), FV_PTR(2, const fv_real_t),
				 FV_PTR(3, const fv_op_t), FV_PTR(4, const fv_real_t), i, acc);
	s[FV_NORM_LIN0] = acc[0];
	s[FV_NORM_LIN] = acc[1];
}
