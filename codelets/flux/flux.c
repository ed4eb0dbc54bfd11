/* SPDX-License-Identifier: MIT */
/* Reconstruction, Roe flux and flux summation into the residual of owned
 * cells (boundary conditions at boundary faces). */
#include "codelets/common.h"

/* One codelet per GPU summation strategy (fv_params_t.flux_sum); "auto"
 * offers the three CUDA variants and lets a perf-model scheduler choose.
 * The models are per codelet, so each strategy is calibrated separately. */
static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "fv_flux"};
static struct starpu_perfmodel model_gather = {.type = STARPU_HISTORY_BASED, .symbol = "fv_flux_gather"};
static struct starpu_perfmodel model_color = {.type = STARPU_HISTORY_BASED, .symbol = "fv_flux_color"};
static struct starpu_perfmodel model_auto = {.type = STARPU_HISTORY_BASED, .symbol = "fv_flux_auto"};

#ifdef FV_HAVE_CUDA
#define FLUX_CODELET(m, ...)                                                  \
	{.cpu_funcs = {fv_flux_cpu}, .cpu_funcs_name = {"fv_flux_cpu"}, .cuda_funcs = {__VA_ARGS__}, \
	 .cuda_flags = {STARPU_CUDA_ASYNC, STARPU_CUDA_ASYNC, STARPU_CUDA_ASYNC}, .nbuffers = 5, \
	 .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W}, .model = &(m), .name = "fv_flux"}
#else
#define FLUX_CODELET(m, ...)                                                  \
	{.cpu_funcs = {fv_flux_cpu}, .cpu_funcs_name = {"fv_flux_cpu"}, .nbuffers = 5, \
	 .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W}, .model = &(m), .name = "fv_flux"}
#endif

/* indexed by fv_params_t.flux_sum: atomic, gather, color, auto */
static struct starpu_codelet cls[4] = {
	FLUX_CODELET(model, fv_flux_cuda),
	FLUX_CODELET(model_gather, fv_flux_gather_cuda),
	FLUX_CODELET(model_color, fv_flux_color_cuda),
	FLUX_CODELET(model_auto, fv_flux_cuda, fv_flux_gather_cuda, fv_flux_color_cuda),
};

fv_err_t fv_insert_flux(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
			starpu_data_handle_t phi, starpu_data_handle_t res, const fv_task_args_t *a)
{
	struct starpu_codelet *cl = &cls[a->P.flux_sum >= 0 && a->P.flux_sum < 4 ? a->P.flux_sum : 0];
	return fv_task_check(starpu_task_insert(cl, STARPU_R, geo, STARPU_R, w, STARPU_R, grad, STARPU_R, phi,
						STARPU_W, res, STARPU_VALUE, a, sizeof *a, STARPU_NAME, "flux", 0),
			     "flux", a->block);
}

/* color_tasks: one task per colour group. The history model keys on the
 * group's face count, not on the buffers (all groups of a block share
 * them). Group 0 writes the residual, the later groups read and add. */
static uint32_t group_footprint(struct starpu_task *task)
{
	fv_task_args_t a;
	starpu_codelet_unpack_args(task->cl_arg, &a);
	return starpu_hash_crc32c_be((uint32_t)(a.color_off[a.group + 1] - a.color_off[a.group]), 0);
}

static struct starpu_perfmodel model_group = {
	.type = STARPU_HISTORY_BASED, .symbol = "fv_flux_group", .footprint = group_footprint};

#ifdef FV_HAVE_CUDA
#define GROUP_CODELET(mode)                                                                              \
	{.cpu_funcs = {fv_flux_group_cpu}, .cpu_funcs_name = {"fv_flux_group_cpu"},                          \
	 .cuda_funcs = {fv_flux_group_cuda}, .cuda_flags = {STARPU_CUDA_ASYNC}, .nbuffers = 5,               \
	 .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_R, mode}, .model = &model_group, .name = "fv_flux_group"}
#else
#define GROUP_CODELET(mode)                                                                              \
	{.cpu_funcs = {fv_flux_group_cpu}, .cpu_funcs_name = {"fv_flux_group_cpu"}, .nbuffers = 5,           \
	 .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_R, mode}, .model = &model_group, .name = "fv_flux_group"}
#endif

static struct starpu_codelet group_cls[2] = {GROUP_CODELET(STARPU_W), GROUP_CODELET(STARPU_RW)};

fv_err_t fv_insert_flux_group(starpu_data_handle_t geo, starpu_data_handle_t w, starpu_data_handle_t grad,
			      starpu_data_handle_t phi, starpu_data_handle_t res, const fv_task_args_t *a)
{
	/* StarPU keeps the name's pointer: one lasting string per group */
	static char names[FV_COLOR_MAX][16];
	int first = a->group == 0;
	if (a->group < 0 || a->group >= FV_COLOR_MAX)
		return FV_ERROR(FV_ERR_ARG, "block %d: colour group %d out of range", a->block, a->group);
	if (!names[a->group][0])
		snprintf(names[a->group], sizeof names[a->group], "flux_color%d", a->group);
	const char *name = names[a->group];
	return fv_task_check(starpu_task_insert(&group_cls[first ? 0 : 1], STARPU_R, geo, STARPU_R, w, STARPU_R, grad,
						STARPU_R, phi, first ? STARPU_W : STARPU_RW, res, STARPU_VALUE, a,
						sizeof *a, STARPU_NAME, name, 0),
			     "flux colour group", a->block);
}
