/* SPDX-License-Identifier: MIT */
/* CPU: face loop with summation into owner and neighbour (SF-F), in face
 * order or colour group by colour group; one thread per block, so no race. */
#include <string.h>

#include "codelets/common.h"

/* The fluxes of the task's faces (colour groups k0 .. k1-1 with
 * flux_sum = color, or all) added into the owned cells' residual, zeroed
 * first when the task opens the stage. */
static void flux_faces(void *buffers[], const fv_task_args_t *a, int sum, int k0, int k1, int zero)
{
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a->L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	const fv_real_t *grad = FV_PTR(2, const fv_real_t);
	const fv_real_t *phi = FV_PTR(3, const fv_real_t);
	fv_real_t *res = FV_PTR(4, fv_real_t);
	fv_idx_t no = v.n_owned;
	if (zero)
		memset(res, 0, (size_t)a->P.nvar * no * sizeof *res);
	FV_CPU_FACES(&v, a, sum, k0, k1, f, {
		fv_real_t F[FV_NFLUX];
		fv_k_face_flux(&v, &a->P, w, grad, phi, f, F);
		fv_k_face_add(&a->P, res, no, v.face_cell[2 * (size_t)f], v.face_cell[2 * (size_t)f + 1], F, 0);
	});
	/* the turbulence model's source once the last faces are in */
	if (fv_k_sa(&a->P) && (sum != FV_SUM_COLOR || k1 == a->n_colors || !a->grouped))
		for (fv_idx_t c = 0; c < no; c++)
			fv_k_sa_source_add(&v, &a->P, w, grad, res, c);
}

/* Every face in the block's order (the summation order the CPU has always
 * used, whatever the GPU strategy). */
void fv_flux_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	flux_faces(buffers, &a, FV_SUM_ATOMIC, 0, 0, 1);
}

/* One colour group (color_tasks): the group's faces in order. */
void fv_flux_group_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	flux_faces(buffers, &a, FV_SUM_COLOR, a.group, a.group + 1, a.group == 0);
}
