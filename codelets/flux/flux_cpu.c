/* SPDX-License-Identifier: MIT */
/* CPU: face loop with summation into owner and neighbour (SF-F); one
 * thread per block, so no race. */
#include <string.h>

#include "codelets/common.h"

void fv_flux_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	const fv_real_t *grad = FV_PTR(2, const fv_real_t);
	const fv_real_t *phi = FV_PTR(3, const fv_real_t);
	fv_real_t *res = FV_PTR(4, fv_real_t);
	fv_idx_t no = v.n_owned;
	memset(res, 0, (size_t)FV_NVAR * no * sizeof *res);
	for (fv_idx_t f = 0; f < v.n_faces; f++) {
		fv_real_t F[FV_NVAR];
		fv_idx_t o = v.face_cell[2 * (size_t)f], nb = v.face_cell[2 * (size_t)f + 1];
		fv_k_face_flux(&v, &a.P, w, grad, phi, f, F);
		fv_k_face_add(res, no, o, nb, F);
	}
}

/* CPU, one colour group (color_tasks): the group's faces in order. */
void fv_flux_group_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	const fv_real_t *grad = FV_PTR(2, const fv_real_t);
	const fv_real_t *phi = FV_PTR(3, const fv_real_t);
	fv_real_t *res = FV_PTR(4, fv_real_t);
	fv_idx_t no = v.n_owned;
	if (a.group == 0)
		memset(res, 0, (size_t)FV_NVAR * no * sizeof *res);
	for (fv_idx_t i = a.color_off[a.group]; i < a.color_off[a.group + 1]; i++) {
		fv_real_t F[FV_NVAR];
		fv_idx_t f = v.color_face[i];
		fv_k_face_flux(&v, &a.P, w, grad, phi, f, F);
		fv_k_face_add(res, no, v.face_cell[2 * (size_t)f], v.face_cell[2 * (size_t)f + 1], F);
	}
}
