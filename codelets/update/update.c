/* SPDX-License-Identifier: MIT */
/* SSP Runge-Kutta stage: q = a q0 + b (q - dt/V R) on owned cells; the
 * first stage saves q into q0. */
#include "codelets/common.h"

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_update"};
/* Four variants of one codelet: q0 written (first stage) or read, and
 * with or without the clock of an unsteady run as a sixth buffer. */
#ifdef FV_HAVE_CUDA
#define UPDATE_CUDA .cuda_funcs = {fv_update_cuda}, .cuda_flags = {STARPU_CUDA_ASYNC},
#else
#define UPDATE_CUDA
#endif
#define UPDATE_CODELET(n, q0_mode)                                                                      \
	{.cpu_funcs = {fv_update_cpu}, .cpu_funcs_name = {"fv_update_cpu"}, UPDATE_CUDA.nbuffers = (n),     \
	 .modes = {STARPU_R, STARPU_R, STARPU_R, q0_mode, STARPU_RW, STARPU_R}, .model = &model,            \
	 .name = "fv_update"}
static struct starpu_codelet cl_first = UPDATE_CODELET(5, STARPU_W);
static struct starpu_codelet cl_next = UPDATE_CODELET(5, STARPU_R);
static struct starpu_codelet cl_first_clock = UPDATE_CODELET(6, STARPU_W);
static struct starpu_codelet cl_next_clock = UPDATE_CODELET(6, STARPU_R);

fv_err_t fv_insert_update(starpu_data_handle_t geo, starpu_data_handle_t res, starpu_data_handle_t dt,
			  starpu_data_handle_t clock, starpu_data_handle_t q0, starpu_data_handle_t q, int first,
			  const fv_task_args_t *a)
{
	struct starpu_codelet *c = clock ? (first ? &cl_first_clock : &cl_next_clock) : (first ? &cl_first : &cl_next);
	int ret;
	if (clock)
		ret = starpu_task_insert(c, STARPU_R, geo, STARPU_R, res, STARPU_R, dt, first ? STARPU_W : STARPU_R, q0,
					 STARPU_RW, q, STARPU_R, clock, STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME,
					 "update", 0);
	else
		ret = starpu_task_insert(c, STARPU_R, geo, STARPU_R, res, STARPU_R, dt, first ? STARPU_W : STARPU_R, q0,
					 STARPU_RW, q, STARPU_VALUE, a, sizeof *a, STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME, "update", 0);
	return fv_task_check(ret, "update", a->block);
}
