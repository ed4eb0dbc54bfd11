/* SPDX-License-Identifier: MIT */
/* CUDA limiter: cell loop gathering the local min/max (LM-C), or a face
 * loop scattering it into mm with atomic min/max (LM-F) or per colour
 * group, then a cell loop for the limiter. */
#include "codelets/cuda_common.cuh"

struct limiter_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *w, *grad;
	fv_real_t *phi;
	__device__ void operator()(fv_idx_t c) const { fv_k_limiter(&v, &P, w, grad, phi, c); }
};

struct minmax_start_body {
	fv_view_t v;
	const fv_real_t *w;
	fv_real_t *mm;
	__device__ void operator()(fv_idx_t c) const { fv_k_minmax_start(&v, w, mm, c); }
};

struct face_minmax_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *w;
	fv_real_t *mm;
	__device__ void operator()(fv_idx_t f, int atomic) const { fv_k_face_minmax(&v, &P, w, mm, f, atomic); }
};

struct limiter_mm_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *w, *grad, *mm;
	fv_real_t *phi;
	__device__ void operator()(fv_idx_t c) const { fv_k_limiter_mm(&v, &P, w, grad, mm, phi, c); }
};

extern "C" void fv_limiter_launch(const fv_task_args_t *a, int sum, const void *geo, const fv_real_t *w,
				  const fv_real_t *grad, fv_real_t *phi, fv_real_t *mm, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	if (sum == FV_SUM_GATHER || sum == FV_SUM_AUTO) {
		fv_cuda_items(v.n_owned, limiter_body{v, a->P, w, grad, phi}, st);
		return;
	}
	int k0, k1, start, finish;
	fv_task_groups(a, &k0, &k1, &start, &finish);
	if (start)
		fv_cuda_items(v.n_owned, minmax_start_body{v, w, mm}, st);
	fv_cuda_faces(v, a, sum, k0, k1, face_minmax_body{v, a->P, w, mm}, st);
	if (finish)
		fv_cuda_items(v.n_owned, limiter_mm_body{v, a->P, w, grad, mm, phi}, st);
}

#define LIMITER_FUNC(name, sum) \
	FV_CUDA_FUNC(name, fv_limiter_launch(&a, sum, FV_PTR(0, void), FV_PTR(1, const fv_real_t), \
					     FV_PTR(2, const fv_real_t), FV_PTR(3, fv_real_t), FV_PTR(4, fv_real_t), \
					     FV_CUDA_STREAM))
LIMITER_FUNC(fv_limiter_cuda, FV_SUM_GATHER)
LIMITER_FUNC(fv_limiter_atomic_cuda, FV_SUM_ATOMIC)
LIMITER_FUNC(fv_limiter_color_cuda, FV_SUM_COLOR)
