/* SPDX-License-Identifier: MIT */
/* CUDA gradients: cell loop (gather, GQ-C, and least squares), face loop
 * with atomics (GQ-F) or per colour group; the face loops zero the owned
 * sums first and divide by the volumes after. */
#include "codelets/cuda_common.cuh"

struct gradient_body {
	fv_view_t v;
	int lsq, part;
	const fv_real_t *w, *wn;
	fv_real_t *grad;
	__device__ void operator()(fv_idx_t c) const
	{
		if (!fv_k_in_part(v.cell_border, c, part))
			return;
		if (lsq)
			fv_k_gradient_lsq(&v, w, grad, c);
		else
			fv_k_gradient(&v, wn, grad, c);
	}
};

struct face_gradient_body {
	fv_view_t v;
	const fv_real_t *wn;
	fv_real_t *grad;
	__device__ void operator()(fv_idx_t f, int atomic) const { fv_k_face_gradient(&v, wn, grad, f, atomic); }
};

struct gradient_finish_body {
	fv_view_t v;
	fv_real_t *grad;
	__device__ void operator()(fv_idx_t c) const { fv_k_gradient_finish(&v, grad, c); }
};

extern "C" void fv_gradient_launch(const fv_task_args_t *a, int sum, const void *geo, const fv_real_t *w,
				   const fv_real_t *wn, fv_real_t *grad, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	if (a->P.lsq || sum == FV_SUM_GATHER || sum == FV_SUM_AUTO) {
		fv_cuda_part_items(v, FV_BORDER_CELLS, a->part, v.n_owned, gradient_body{v, a->P.lsq, a->part, w, wn, grad},
				   st);
		return;
	}
	int k0, k1, start, finish;
	fv_task_groups(a, &k0, &k1, &start, &finish);
	if (start)
		cudaMemsetAsync(grad, 0, (size_t)3 * FV_NVAR * v.sc * sizeof *grad, st);
	fv_cuda_faces(v, a, sum, k0, k1, face_gradient_body{v, wn, grad}, st);
	if (finish)
		fv_cuda_items(v.n_owned, gradient_finish_body{v, grad}, st);
}

#define GRADIENT_FUNC(name, sum) \
	FV_CUDA_FUNC(name, fv_gradient_launch(&a, sum, FV_PTR(0, void), FV_PTR(1, const fv_real_t), \
					      FV_PTR(2, const fv_real_t), FV_PTR(3, fv_real_t), FV_CUDA_STREAM))
GRADIENT_FUNC(fv_gradient_cuda, FV_SUM_GATHER)
GRADIENT_FUNC(fv_gradient_atomic_cuda, FV_SUM_ATOMIC)
GRADIENT_FUNC(fv_gradient_color_cuda, FV_SUM_COLOR)
