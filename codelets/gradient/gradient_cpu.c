/* SPDX-License-Identifier: MIT */
/* CPU: cell loop over faces (GQ-C), or least squares over neighbours. */
#include "codelets/common.h"

void fv_gradient_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	const fv_real_t *wn = FV_PTR(2, const fv_real_t);
	fv_real_t *grad = FV_PTR(3, fv_real_t);
	if (a.P.lsq)
		for (fv_idx_t c = 0; c < v.n_owned; c++)
			fv_k_gradient_lsq(&v, w, grad, c);
	else
		for (fv_idx_t c = 0; c < v.n_owned; c++)
			fv_k_gradient(&v, wn, grad, c);
}
