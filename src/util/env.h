/* SPDX-License-Identifier: MIT */
/* fvstar's own environment variables (FVSTAR_*) read as counts or
 * switches: unset or empty gives the default; anything else that is not
 * one is an error naming the variable and its value, as a bad case key
 * is. */
#ifndef FV_UTIL_ENV_H
#define FV_UTIL_ENV_H

#include <stddef.h>

#include "fvstar/error.h"

/* A whole number in [lo, hi] written in decimal digits alone (no sign,
 * exponent or suffix) into *v; dflt where the variable is unset or empty.
 * what says what the count is, for the message ("cells a set-up thread
 * takes"). */
fv_err_t fv_env_count(const char *name, unsigned long long lo, unsigned long long hi, unsigned long long dflt,
		      const char *what, unsigned long long *v);

/* 0 or 1 into *v; dflt (any int: -1 for "not said") where unset or
 * empty. */
fv_err_t fv_env_switch(const char *name, int dflt, int *v);

/* Every FVSTAR_* variable the set-up reads (but FVSTAR_ORDER, checked
 * where the cells are ordered), checked once before a command starts:
 * some are read only on some paths or where no error can be returned
 * (fv_cells_per_thread, fv_ranks_wanted, the CUDA contexts' thread). */
fv_err_t fv_env_check(void);

#endif
