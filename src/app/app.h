/* SPDX-License-Identifier: MIT */
/* Sub-commands of the fvstar command and their shared option helpers. */
#ifndef FVSTAR_APP_H
#define FVSTAR_APP_H

#include "fvstar/error.h"

fv_err_t fv_cmd_mesh(int argc, char **argv);
fv_err_t fv_cmd_runtime(int argc, char **argv);
fv_err_t fv_cmd_run(int argc, char **argv);

/* Strict option values: the whole string must parse and lie in range. */
fv_err_t fv_opt_long(const char *opt, const char *s, long lo, long hi, long *v);
fv_err_t fv_opt_double(const char *opt, const char *s, double lo, double hi, double *v);
/* "x,y,z" */
fv_err_t fv_opt_vec3(const char *opt, const char *s, double v[3]);

#endif
