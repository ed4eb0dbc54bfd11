/* SPDX-License-Identifier: MIT */
/* CPU: sums of squared residuals of the owned cells of a block, and the
 * pressure force and moment on its wall faces, in a fixed order, into the
 * block's row (the solver adds the rows in block order). */
#include "codelets/common.h"

void fv_norms_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t), *grad = FV_PTR(2, const fv_real_t);
	const fv_real_t *phi = FV_PTR(3, const fv_real_t), *res = FV_PTR(4, const fv_real_t);
	double *s = FV_PTR(5, double);
	fv_idx_t no = a.L.n_owned;
	for (int k = 0; k < FV_NVAR; k++) {
		double acc = 0;
		for (fv_idx_t c = 0; c < no; c++) {
			double r = res[(size_t)k * a.L.so + c];
			acc += r * r;
		}
		s[k] = acc;
	}
	s[FV_NORM_NUT] = 0;
	for (fv_idx_t c = 0; a.P.nvar > FV_NVAR && c < no; c++)
		s[FV_NORM_NUT] += (double)res[(size_t)FV_NVAR * a.L.so + c] * (double)res[(size_t)FV_NVAR * a.L.so + c];
	s[FV_NORM_CELLS] = no;
	s[FV_NORM_T] = s[FV_NORM_DT] = s[FV_NORM_LIN0] = s[FV_NORM_LIN] = s[FV_NORM_CLIP] = 0;
	for (int d = 0; d < 3; d++)
		s[FV_NORM_F + d] = s[FV_NORM_M + d] = 0;
	for (fv_idx_t f = 0; f < v.n_bfaces; f++) {
		fv_real_t F[3], M[3];
		fv_k_wall_force(&v, &a.P, w, grad, phi, f, F, M);
		for (int d = 0; d < 3; d++) {
			s[FV_NORM_F + d] += F[d];
			s[FV_NORM_M + d] += M[d];
		}
	}
}
