/* SPDX-License-Identifier: MIT */
/* The summary JSON's writers, apart from fvstar/output.h so that the public
 * headers name no third-party type (jansson's json_t). */
#ifndef FVSTAR_IO_JSON_H
#define FVSTAR_IO_JSON_H

#include <jansson.h>

#include "fvstar/case.h"
#include "fvstar/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes root (indent 2) to a temporary file of its own (path.tmp.PID.N)
 * and renames it to path. */
fv_err_t fv_summary_write(const char *path, json_t *root);
/* A JSON number, or null for NaN and infinities (JSON has neither). */
json_t *fv_json_real(double x);
/* An array of n numbers (non-finite ones as null). */
json_t *fv_json_reals(const double *x, int n);
/* The case's effective values, {section: {key: value}} (src/io/case.c). */
json_t *fv_case_json(const fv_case_t *c);

#ifdef __cplusplus
}
#endif

#endif
