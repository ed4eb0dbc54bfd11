/* SPDX-License-Identifier: MIT */
/* Scalar and index types, and the FV_HD marker for code shared by the CPU
 * and CUDA codelets. Precision is chosen at configure time (FV_SINGLE). */
#ifndef FVSTAR_TYPES_H
#define FVSTAR_TYPES_H

#include <stdint.h>

#ifdef FV_SINGLE
typedef float fv_real_t;
#define FV_REAL_EPS 1.1920929e-07
#define FV_REAL_NAME "single"
#else
typedef double fv_real_t;
#define FV_REAL_EPS 2.220446049250313e-16
#define FV_REAL_NAME "double"
#endif

typedef int32_t fv_idx_t;
#define FV_IDX_MAX INT32_MAX

/* Colours are kept as bits of a 64-bit mask per cell (fvstar/color.h); the
 * kernels size a task's colour groups by it. */
#define FV_COLOR_MAX 64
/* Cells per line of the line-implicit sweeps at most where no
 * numerics.line_cells says (fv_color_lines; the sweeps need no scratch
 * per cell of a line: any length runs). */
#define FV_LINE_MAX 64

#ifdef __CUDACC__
#define FV_HD __host__ __device__ __forceinline__
#else
#define FV_HD static inline
#endif

#endif
