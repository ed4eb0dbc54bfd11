/* SPDX-License-Identifier: MIT */
/* CPU gradients: cell loop over faces (GQ-C) or least squares over
 * neighbours; for gradient_sum = atomic or color the face loop (GQ-F) in
 * face or colour order, plain adds on one thread. */
#include <string.h>

#include "codelets/common.h"

void fv_gradient_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	const fv_real_t *wn = FV_PTR(2, const fv_real_t);
	fv_real_t *grad = FV_PTR(3, fv_real_t);
	if (a.P.lsq) {
		for (fv_idx_t c = 0; c < v.n_owned; c++)
			fv_k_gradient_lsq(&v, w, grad, c);
	} else if (a.P.grad_sum == FV_SUM_GATHER || a.P.grad_sum == FV_SUM_AUTO) {
		for (fv_idx_t c = 0; c < v.n_owned; c++)
			fv_k_gradient(&v, wn, grad, c);
	} else {
		int k0, k1, start, finish;
		fv_task_groups(&a, &k0, &k1, &start, &finish);
		if (start)
			memset(grad, 0, (size_t)3 * FV_NVAR * v.n_cells * sizeof *grad);
		FV_CPU_FACES(&v, &a, a.P.grad_sum, k0, k1, f, fv_k_face_gradient(&v, wn, grad, f, 0));
		for (fv_idx_t c = 0; finish && c < v.n_owned; c++)
			fv_k_gradient_finish(&v, grad, c);
	}
}
