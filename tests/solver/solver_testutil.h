/* SPDX-License-Identifier: MIT */
/* What the solver tests share: StarPU started once per test group on CPU
 * workers (tests/wrap.sh sets their number). */
#ifndef FVSTAR_SOLVER_TESTUTIL_H
#define FVSTAR_SOLVER_TESTUTIL_H

#include "../unit/testutil.h"
#include "fvstar/runtime.h"

static int solver_tests_start(void **state)
{
	fv_runtime_opts_t o;
	(void)state;
	fv_runtime_opts_default(&o);
	o.ncuda = 0;
	return fv_runtime_init(&o) == FV_OK ? 0 : -1;
}

static int solver_tests_stop(void **state)
{
	(void)state;
	fv_runtime_shutdown();
	return 0;
}

#endif
