/* SPDX-License-Identifier: MIT */
/* What the CUDA codelets share: unpacking a task's arguments into a view of
 * the block's device buffers, the launch geometry, and the launch check. */
#ifndef FVSTAR_CODELETS_CUDA_COMMON_CUH
#define FVSTAR_CODELETS_CUDA_COMMON_CUH

#include "codelets/common.h"

#define FV_CUDA_THREADS 256

static inline unsigned fv_cuda_blocks(long n)
{
	return (unsigned)((n + FV_CUDA_THREADS - 1) / FV_CUDA_THREADS);
}

/* A failed launch aborts through StarPU with the CUDA error. */
#define FV_CUDA_CHECK_LAUNCH()                                             \
	do {                                                               \
		cudaError_t fv_cuda_err_ = cudaGetLastError();             \
		if (fv_cuda_err_ != cudaSuccess)                           \
			STARPU_CUDA_REPORT_ERROR(fv_cuda_err_);            \
	} while (0)

#define FV_CUDA_STREAM starpu_cuda_get_local_stream()

#endif
