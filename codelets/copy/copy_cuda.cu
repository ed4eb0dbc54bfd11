/* SPDX-License-Identifier: MIT */
/* CUDA copy of a field (vector of equal size) on the worker's stream, and
 * its zero fill. */
#include "codelets/cuda_common.cuh"

extern "C" void fv_copy_cuda(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	size_t n = STARPU_VECTOR_GET_NX(buffers[0]), dn = STARPU_VECTOR_GET_NX(buffers[1]);
	size_t elem = STARPU_VECTOR_GET_ELEMSIZE(buffers[0]);
	cudaError_t e = cudaMemcpyAsync(FV_PTR(1, void), FV_PTR(0, const void), (n < dn ? n : dn) * elem,
					cudaMemcpyDeviceToDevice, FV_CUDA_STREAM);
	if (e != cudaSuccess)
		STARPU_CUDA_REPORT_ERROR(e);
}

extern "C" void fv_zero_cuda(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	size_t bytes = STARPU_VECTOR_GET_NX(buffers[0]) * STARPU_VECTOR_GET_ELEMSIZE(buffers[0]);
	cudaError_t e = cudaMemsetAsync(FV_PTR(0, void), 0, bytes, FV_CUDA_STREAM);
	if (e != cudaSuccess)
		STARPU_CUDA_REPORT_ERROR(e);
}
