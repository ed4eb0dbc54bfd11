/* SPDX-License-Identifier: MIT */
/* Residual norms: per-block sums of squares reduced (sum) over blocks. */
#include "codelets/common.h"

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_norms"};
static struct starpu_codelet cl = {
	.cpu_funcs = {fv_norms_cpu},
	.cpu_funcs_name = {"fv_norms_cpu"},
	.nbuffers = 2,
	.modes = {STARPU_R, STARPU_REDUX},
	.model = &model,
	.name = "fv_norms",
};

static void norms_init_cpu(void *buffers[], void *cl_arg)
{
	double *s = FV_PTR(0, double);
	(void)cl_arg;
	for (int k = 0; k < FV_NORMS; k++)
		s[k] = 0;
}

static void norms_redux_cpu(void *buffers[], void *cl_arg)
{
	double *dst = FV_PTR(0, double);
	const double *src = FV_PTR(1, const double);
	(void)cl_arg;
	for (int k = 0; k < FV_NORMS; k++)
		dst[k] += src[k];
}

static struct starpu_codelet init_cl = {
	.cpu_funcs = {norms_init_cpu}, .nbuffers = 1, .modes = {STARPU_W}, .name = "fv_norms_init"};
static struct starpu_codelet redux_cl = {
	.cpu_funcs = {norms_redux_cpu}, .nbuffers = 2, .modes = {STARPU_RW, STARPU_R}, .name = "fv_norms_redux"};

void fv_norms_set_reduction(starpu_data_handle_t norms)
{
	starpu_data_set_reduction_methods(norms, &redux_cl, &init_cl);
}

fv_err_t fv_insert_norms(starpu_data_handle_t res, starpu_data_handle_t norms, const fv_task_args_t *a)
{
	return fv_task_check(starpu_task_insert(&cl, STARPU_R, res, STARPU_REDUX, norms, STARPU_VALUE, a, sizeof *a,
						STARPU_NAME, "norms", 0),
			     "norms", a->block);
}
