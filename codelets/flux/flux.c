/* SPDX-License-Identifier: MIT */
/* Reconstruction, Roe flux and flux summation into the residual of owned
 * cells (boundary conditions at boundary faces). */
#include "codelets/common.h"

/* Operations per face: two MUSCL reconstructions (about 35 each), the Roe
 * flux with its entropy fix (about 180) and the two sums (10). */
#define FLOPS_PER_FACE 260.0

/* One codelet per GPU summation strategy (fv_params_t.flux_sum); "auto"
 * offers the three CUDA variants and lets a perf-model scheduler choose.
 * The models are per codelet, so each strategy is calibrated separately. */
FV_MODEL(model, "fv_flux");
FV_MODEL(model_gather, "fv_flux_gather");
FV_MODEL(model_color, "fv_flux_color");
FV_MODEL(model_auto, "fv_flux_auto");
#define FLUX_CODELET(m, cuda) \
	FV_CODELET(fv_flux_cpu, cuda, m, "fv_flux", 5, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W)
static struct starpu_codelet cls[FV_N_SUM_KINDS] = {
	[FV_SUM_ATOMIC] = FLUX_CODELET(model, (fv_flux_cuda)),
	[FV_SUM_GATHER] = FLUX_CODELET(model_gather, (fv_flux_gather_cuda)),
	[FV_SUM_COLOR] = FLUX_CODELET(model_color, (fv_flux_color_cuda)),
	[FV_SUM_AUTO] = FLUX_CODELET(model_auto, (fv_flux_cuda, fv_flux_gather_cuda, fv_flux_color_cuda)),
};

/* color_tasks: one task per colour group; group 0 writes the residual,
 * the later groups read and add. The model keys on the group's size. */
static struct starpu_perfmodel model_group = {
	.type = STARPU_HISTORY_BASED, .symbol = "fv_flux_group", .footprint = fv_group_footprint};
#define GROUP_CODELET(mode) \
	FV_CODELET(fv_flux_group_cpu, (fv_flux_group_cuda), model_group, "fv_flux_group", 5, STARPU_R, STARPU_R, \
		   STARPU_R, STARPU_R, mode)
static struct starpu_codelet group_cls[2] = {GROUP_CODELET(STARPU_W), GROUP_CODELET(STARPU_RW)};

fv_err_t fv_insert_flux(fv_handle_t geo, fv_handle_t w, fv_handle_t grad, fv_handle_t phi, fv_handle_t res,
			const fv_task_args_t *a)
{
	if (!a->grouped)
		return FV_SUBMIT(&cls[fv_sum_index(a->P.flux_sum)], "flux", a, FLOPS_PER_FACE * a->L.n_faces,
				 FV_BUF(geo, STARPU_R), FV_BUF(w, STARPU_R), FV_BUF(grad, STARPU_R), FV_BUF(phi, STARPU_R),
				 FV_BUF(res, STARPU_W));
	FV_CALL(fv_group_check(a, "flux"));
	int first = a->group == 0;
	return FV_SUBMIT(&group_cls[first ? 0 : 1], fv_group_name("flux", a->group), a,
			 FLOPS_PER_FACE * (a->color_off[a->group + 1] - a->color_off[a->group]), FV_BUF(geo, STARPU_R),
			 FV_BUF(w, STARPU_R), FV_BUF(grad, STARPU_R), FV_BUF(phi, STARPU_R),
			 FV_BUF(res, first ? STARPU_W : STARPU_RW));
}

/* numerics.overlap: the interior part's task (one CUDA variant with the
 * store: each face writes its own slot) and the border part's with the
 * sum of each strategy; both name the store and the residual, so that
 * either form (kernels.h) has the same buffers. flux_direct: CUDA only,
 * the blocks whose tasks can only run on a GPU. */
FV_MODEL(model_interior, "fv_flux_interior");
FV_MODEL(model_border, "fv_flux_border");
FV_MODEL(model_border_gather, "fv_flux_border_gather");
FV_MODEL(model_border_color, "fv_flux_border_color");
FV_MODEL(model_border_auto, "fv_flux_border_auto");
#define PART_CODELET(cpu, cuda, m, name, res_mode) \
	FV_CODELET(cpu, cuda, m, name, 6, STARPU_R, STARPU_R, STARPU_R, STARPU_R, res_mode, res_mode)
static struct starpu_codelet interior_cl =
	PART_CODELET(fv_flux_interior_cpu, (fv_flux_interior_cuda), model_interior, "fv_flux_interior", STARPU_W);
static struct starpu_codelet border_cls[FV_N_SUM_KINDS] = {
	[FV_SUM_ATOMIC] = PART_CODELET(fv_flux_border_cpu, (fv_flux_border_cuda), model_border, "fv_flux_border",
				       STARPU_RW),
	[FV_SUM_GATHER] = PART_CODELET(fv_flux_border_cpu, (fv_flux_border_gather_cuda), model_border_gather,
				       "fv_flux_border", STARPU_RW),
	[FV_SUM_COLOR] = PART_CODELET(fv_flux_border_cpu, (fv_flux_border_color_cuda), model_border_color,
				      "fv_flux_border", STARPU_RW),
	[FV_SUM_AUTO] = PART_CODELET(fv_flux_border_cpu,
				     (fv_flux_border_cuda, fv_flux_border_gather_cuda, fv_flux_border_color_cuda),
				     model_border_auto, "fv_flux_border", STARPU_RW),
};
#ifdef FV_CUDA_CODELETS
FV_MODEL(model_interior_direct, "fv_flux_interior_direct");
FV_MODEL(model_border_direct, "fv_flux_border_direct");
FV_MODEL(model_interior_direct_gather, "fv_flux_interior_direct_gather");
FV_MODEL(model_border_direct_gather, "fv_flux_border_direct_gather");
#define DIRECT_CODELET(cuda, m, nm, res_mode)                                                                  \
	{.where = STARPU_CUDA, FV_CODELET_CUDA(cuda).nbuffers = 6,                                                \
	 .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_R, res_mode, res_mode}, .model = &(m), .name = (nm)}
/* [gather][border] */
static struct starpu_codelet direct_cls[2][2] = {
	{DIRECT_CODELET((fv_flux_interior_direct_cuda), model_interior_direct, "fv_flux_interior_direct", STARPU_W),
	 DIRECT_CODELET((fv_flux_border_direct_cuda), model_border_direct, "fv_flux_border_direct", STARPU_RW)},
	{DIRECT_CODELET((fv_flux_interior_direct_gather_cuda), model_interior_direct_gather,
			"fv_flux_interior_direct_gather", STARPU_W),
	 DIRECT_CODELET((fv_flux_border_direct_gather_cuda), model_border_direct_gather,
			"fv_flux_border_direct_gather", STARPU_RW)},
};
#endif

/* The faces of a block that read a ghost (flop counts). */
static double border_share(const fv_task_args_t *a)
{
	return a->L.n_faces > 0 ? (double)a->n_border_faces / (double)a->L.n_faces : 0.0;
}

static struct starpu_codelet *part_codelet(const fv_task_args_t *a, int border)
{
#ifdef FV_CUDA_CODELETS
	if (a->flux_direct)
		return &direct_cls[a->P.flux_sum == FV_SUM_GATHER][border];
#endif
	return border ? &border_cls[fv_sum_index(a->P.flux_sum)] : &interior_cl;
}

fv_err_t fv_insert_flux_interior(fv_handle_t geo, fv_handle_t w, fv_handle_t grad, fv_handle_t phi, fv_handle_t ff,
				 fv_handle_t res, const fv_task_args_t *a)
{
	return FV_SUBMIT(part_codelet(a, 0), "flux_interior", a,
			 FLOPS_PER_FACE * a->L.n_faces * (1 - border_share(a)), FV_BUF(geo, STARPU_R),
			 FV_BUF(w, STARPU_R), FV_BUF(grad, STARPU_R), FV_BUF(phi, STARPU_R), FV_BUF(ff, STARPU_W),
			 FV_BUF(res, STARPU_W));
}

fv_err_t fv_insert_flux_border(fv_handle_t geo, fv_handle_t w, fv_handle_t grad, fv_handle_t phi, fv_handle_t ff,
			       fv_handle_t res, const fv_task_args_t *a)
{
	return FV_SUBMIT(part_codelet(a, 1), "flux_border", a,
			 FLOPS_PER_FACE * a->L.n_faces * border_share(a) + 10.0 * a->L.n_faces, FV_BUF(geo, STARPU_R),
			 FV_BUF(w, STARPU_R), FV_BUF(grad, STARPU_R), FV_BUF(phi, STARPU_R), FV_BUF(ff, STARPU_RW),
			 FV_BUF(res, STARPU_RW));
}
