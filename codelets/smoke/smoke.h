/* SPDX-License-Identifier: MIT */
/* The smoke codelet y = alpha x + y: proves that CPU and CUDA workers run
 * codelets through StarPU on this build (fvstar runtime check). */
#ifndef FVSTAR_CODELET_SMOKE_H
#define FVSTAR_CODELET_SMOKE_H

#include <starpu.h>

#include "config.h"

#include "fvstar/error.h"
#include "fvstar/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fv_smoke_args {
	fv_real_t alpha;
} fv_smoke_args_t;

void fv_smoke_axpy_cpu(void *buffers[], void *cl_arg);
#ifdef FV_HAVE_CUDA
void fv_smoke_axpy_cuda(void *buffers[], void *cl_arg);
#endif

/* Submits y = alpha x + y on worker (or anywhere when worker < 0). */
fv_err_t fv_insert_smoke_axpy(starpu_data_handle_t x, starpu_data_handle_t y, fv_real_t alpha, int worker);

#ifdef __cplusplus
}
#endif
#endif
