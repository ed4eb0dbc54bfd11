/* SPDX-License-Identifier: MIT */
/* CPU limiter: cell loop (LM-C); for limiter_sum = atomic or color the
 * local min/max from a face loop (LM-F) in face or colour order first. */
#include "codelets/common.h"

void fv_limiter_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	const fv_real_t *grad = FV_PTR(2, const fv_real_t);
	fv_real_t *phi = FV_PTR(3, fv_real_t);
	fv_real_t *mm = FV_PTR(4, fv_real_t);
	if (a.P.lim_sum == FV_SUM_GATHER || a.P.lim_sum == FV_SUM_AUTO) {
		for (fv_idx_t c = 0; c < v.n_owned; c++)
			fv_k_limiter(&v, &a.P, w, grad, phi, c);
		return;
	}
	int k0, k1, start, finish;
	fv_task_groups(&a, &k0, &k1, &start, &finish);
	for (fv_idx_t c = 0; start && c < v.n_owned; c++)
		fv_k_minmax_start(&v, w, mm, c);
	FV_CPU_FACES(&v, &a, a.P.lim_sum, k0, k1, f, fv_k_face_minmax(&v, &a.P, w, mm, f, 0));
	for (fv_idx_t c = 0; finish && c < v.n_owned; c++)
		fv_k_limiter_mm(&v, &a.P, w, grad, mm, phi, c);
}
