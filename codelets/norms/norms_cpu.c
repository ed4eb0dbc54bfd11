/* SPDX-License-Identifier: MIT */
/* CPU: sums of squared residuals of the owned cells of a block, in a fixed
 * order, into the block's row (the solver adds the rows in block order). */
#include "codelets/common.h"

void fv_norms_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	const fv_real_t *res = FV_PTR(0, const fv_real_t);
	double *s = FV_PTR(1, double);
	fv_idx_t no = a.L.n_owned;
	for (int k = 0; k < FV_NVAR; k++) {
		double acc = 0;
		for (fv_idx_t c = 0; c < no; c++) {
			double r = res[(size_t)k * no + c];
			acc += r * r;
		}
		s[k] = acc;
	}
	s[FV_NORM_CELLS] = no;
	s[FV_NORM_T] = s[FV_NORM_DT] = 0;
}
