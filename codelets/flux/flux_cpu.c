/* SPDX-License-Identifier: MIT */
/* CPU: face loop with summation into owner and neighbour (SF-F); one
 * thread per block, so no race. */
#include <string.h>

#include "codelets/common.h"

/* The fluxes of faces list[begin .. end) (list NULL: faces begin .. end)
 * added into the owned cells' residual, zeroed first when asked. */
static void sum_faces(void *buffers[], const fv_task_args_t *a, const fv_idx_t *list, fv_idx_t begin, fv_idx_t end,
		      int zero)
{
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a->L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	const fv_real_t *grad = FV_PTR(2, const fv_real_t);
	const fv_real_t *phi = FV_PTR(3, const fv_real_t);
	fv_real_t *res = FV_PTR(4, fv_real_t);
	fv_idx_t no = v.n_owned;
	if (zero)
		memset(res, 0, (size_t)FV_NVAR * no * sizeof *res);
	for (fv_idx_t i = begin; i < end; i++) {
		fv_real_t F[FV_NVAR];
		fv_idx_t f = list ? list[i] : i;
		fv_k_face_flux(&v, &a->P, w, grad, phi, f, F);
		fv_k_face_add(res, no, v.face_cell[2 * (size_t)f], v.face_cell[2 * (size_t)f + 1], F, 0);
	}
}

void fv_flux_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	sum_faces(buffers, &a, NULL, 0, a.L.n_faces, 1);
}

/* CPU, one colour group (color_tasks): the group's faces in order. */
void fv_flux_group_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	sum_faces(buffers, &a, v.color_face, a.color_off[a.group], a.color_off[a.group + 1], a.group == 0);
}
