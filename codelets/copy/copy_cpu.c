/* SPDX-License-Identifier: MIT */
/* CPU copy of a field (vector of equal size), and its zero fill. */
#include <string.h>

#include "codelets/common.h"

void fv_copy_cpu(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	size_t n = STARPU_VECTOR_GET_NX(buffers[0]), dn = STARPU_VECTOR_GET_NX(buffers[1]);
	size_t elem = STARPU_VECTOR_GET_ELEMSIZE(buffers[0]);
	memcpy(FV_PTR(1, void), FV_PTR(0, const void), (n < dn ? n : dn) * elem);
}

void fv_zero_cpu(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	memset(FV_PTR(0, void), 0, STARPU_VECTOR_GET_NX(buffers[0]) * STARPU_VECTOR_GET_ELEMSIZE(buffers[0]));
}
