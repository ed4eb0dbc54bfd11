/* SPDX-License-Identifier: MIT */
/* CPU implementation of the smoke codelet. */
#include "codelets/smoke/smoke.h"

void fv_smoke_axpy_cpu(void *buffers[], void *cl_arg)
{
	fv_smoke_args_t args;
	const fv_real_t *x = (const fv_real_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	fv_real_t *y = (fv_real_t *)STARPU_VECTOR_GET_PTR(buffers[1]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	starpu_codelet_unpack_args(cl_arg, &args);
	for (unsigned i = 0; i < n; i++)
		y[i] = args.alpha * x[i] + y[i];
}
