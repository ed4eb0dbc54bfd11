/* SPDX-License-Identifier: MIT */
/* CUDA flux summation, three variants (the codelet's cuda_funcs): a face
 * loop with atomicAdd into the owned cells ("atomic", SF-F of the papers),
 * a cell loop over each owned cell's faces ("gather", SF-C: every interior
 * face computed twice, no atomics, deterministic), and a face loop per
 * colour group ("color", Alg. 5 of Zhang et al. 2022: one launch per group
 * of faces that share no cell, plain adds, deterministic). */
#include "codelets/cuda_common.cuh"

struct face_flux_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *w, *grad, *phi;
	fv_real_t *res;
	__device__ void operator()(fv_idx_t f, int atomic) const
	{
		fv_idx_t o, nb;
		if (!fv_k_face_owned(&v, f, &o, &nb))
			return; /* a face between ghosts */
		fv_real_t F[FV_NFLUX];
		fv_k_face_flux(&v, &P, w, grad, phi, f, F);
		fv_k_face_add(&P, res, v.n_owned, v.so, o, nb, F, atomic);
	}
};

struct sa_source_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *w, *grad;
	fv_real_t *res;
	__device__ void operator()(fv_idx_t c) const { fv_k_sa_source_add(&v, &P, w, grad, res, c); }
};

struct cell_flux_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *w, *grad, *phi;
	fv_real_t *res;
	__device__ void operator()(fv_idx_t c) const { fv_k_cell_flux_gather(&v, &P, w, grad, phi, res, c); }
};

extern "C" void fv_flux_launch(const fv_task_args_t *a, int sum, int k0, int k1, const void *geo, const fv_real_t *w,
			       const fv_real_t *grad, const fv_real_t *phi, fv_real_t *res, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	if (sum == FV_SUM_GATHER) {
		fv_cuda_items(v.n_owned, cell_flux_body{v, a->P, w, grad, phi, res}, st);
	} else {
		if (sum != FV_SUM_COLOR || k0 == 0)
			cudaMemsetAsync(res, 0, (size_t)a->P.nvar * v.so * sizeof *res, st);
		fv_cuda_faces(v, a, sum, k0, k1, face_flux_body{v, a->P, w, grad, phi, res}, st);
	}
	/* the turbulence model's source once the last faces are in */
	if (fv_k_sa(&a->P) && k1 == (sum == FV_SUM_COLOR ? a->n_colors : k1))
		fv_cuda_items(v.n_owned, sa_source_body{v, a->P, w, grad, res}, st);
}

/* numerics.overlap: one part's face fluxes into the store, no race (each
 * face its own slot) */
struct face_part_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *w, *grad, *phi;
	fv_real_t *ff;
	int border;
	__device__ void operator()(fv_idx_t f) const { fv_k_face_flux_part(&v, &P, w, grad, phi, ff, f, border); }
};

struct face_sum_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *ff;
	fv_real_t *res;
	__device__ void operator()(fv_idx_t f, int atomic) const { fv_k_face_add_stored(&v, &P, ff, res, f, atomic); }
};

struct cell_sum_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *ff;
	fv_real_t *res;
	__device__ void operator()(fv_idx_t c) const { fv_k_cell_sum_stored(&v, &P, ff, res, c); }
};

/* flux_direct (kernels.h): atomic sums of one part's faces, or the gather
 * of one part's cells */
struct face_add_part_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *w, *grad, *phi;
	fv_real_t *res;
	int border;
	__device__ void operator()(fv_idx_t f) const { fv_k_face_flux_add_part(&v, &P, w, grad, phi, res, f, border, 1); }
};

struct cell_gather_part_body {
	fv_view_t v;
	fv_params_t P;
	const fv_real_t *w, *grad, *phi;
	fv_real_t *res;
	int border;
	__device__ void operator()(fv_idx_t c) const
	{
		if (fv_k_cell_face_border(&v, c) == border)
			fv_k_cell_flux_gather(&v, &P, w, grad, phi, res, c);
	}
};

extern "C" void fv_flux_direct_launch(const fv_task_args_t *a, int sum, int part, const void *geo, const fv_real_t *w,
				      const fv_real_t *grad, const fv_real_t *phi, fv_real_t *res, cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	int border = part == FV_SPLIT_BORDER;
	if (sum == FV_SUM_GATHER) {
		fv_cuda_part_items(v, FV_BORDER_FCELLS, part, v.n_owned,
				   cell_gather_part_body{v, a->P, w, grad, phi, res, border}, st);
	} else {
		if (!border)
			cudaMemsetAsync(res, 0, (size_t)a->P.nvar * v.so * sizeof *res, st);
		fv_cuda_part_items(v, FV_BORDER_FACES, part, v.n_faces,
				   face_add_part_body{v, a->P, w, grad, phi, res, border}, st);
	}
	if (border && fv_k_sa(&a->P))
		fv_cuda_items(v.n_owned, sa_source_body{v, a->P, w, grad, res}, st);
}

extern "C" void fv_flux_part_launch(const fv_task_args_t *a, int sum, int part, const void *geo, const fv_real_t *w,
				    const fv_real_t *grad, const fv_real_t *phi, fv_real_t *ff, fv_real_t *res,
				    cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	fv_cuda_part_items(v, FV_BORDER_FACES, part, v.n_faces,
			   face_part_body{v, a->P, w, grad, phi, ff, part == FV_SPLIT_BORDER}, st);
	if (part == FV_SPLIT_INTERIOR)
		return;
	if (sum == FV_SUM_GATHER) {
		fv_cuda_items(v.n_owned, cell_sum_body{v, a->P, ff, res}, st);
	} else {
		cudaMemsetAsync(res, 0, (size_t)a->P.nvar * v.so * sizeof *res, st);
		fv_cuda_faces(v, a, sum, face_sum_body{v, a->P, ff, res}, st);
	}
	if (fv_k_sa(&a->P))
		fv_cuda_items(v.n_owned, sa_source_body{v, a->P, w, grad, res}, st);
}

#define FLUX_FUNC(name, sum, k0, k1)                                                                  \
	FV_CUDA_FUNC(name, fv_flux_launch(&a, sum, k0, k1, FV_PTR(0, void), FV_PTR(1, const fv_real_t), \
					  FV_PTR(2, const fv_real_t), FV_PTR(3, const fv_real_t),       \
					  FV_PTR(4, fv_real_t), FV_CUDA_STREAM))
FLUX_FUNC(fv_flux_cuda, FV_SUM_ATOMIC, 0, 0)
FLUX_FUNC(fv_flux_gather_cuda, FV_SUM_GATHER, 0, 0)
FLUX_FUNC(fv_flux_color_cuda, FV_SUM_COLOR, 0, a.n_colors)
/* color_tasks: one group per task, group 0 zeroing the residual first */
FLUX_FUNC(fv_flux_group_cuda, FV_SUM_COLOR, a.group, a.group + 1)

#define PART_FUNC(name, sum, part)                                                                             \
	FV_CUDA_FUNC(name, fv_flux_part_launch(&a, sum, part, FV_PTR(0, void), FV_PTR(1, const fv_real_t),      \
					       FV_PTR(2, const fv_real_t), FV_PTR(3, const fv_real_t),          \
					       FV_PTR(4, fv_real_t), part == FV_SPLIT_BORDER ? FV_PTR(5, fv_real_t) \
										     : (fv_real_t *)NULL,        \
					       FV_CUDA_STREAM))
PART_FUNC(fv_flux_interior_cuda, FV_SUM_ATOMIC, FV_SPLIT_INTERIOR)
PART_FUNC(fv_flux_border_cuda, FV_SUM_ATOMIC, FV_SPLIT_BORDER)
PART_FUNC(fv_flux_border_gather_cuda, FV_SUM_GATHER, FV_SPLIT_BORDER)
PART_FUNC(fv_flux_border_color_cuda, FV_SUM_COLOR, FV_SPLIT_BORDER)
/* flux_direct: the residual is the sixth buffer either way */
#define DIRECT_FUNC(name, sum, part)                                                                              \
	FV_CUDA_FUNC(name, fv_flux_direct_launch(&a, sum, part, FV_PTR(0, void), FV_PTR(1, const fv_real_t),       \
						 FV_PTR(2, const fv_real_t), FV_PTR(3, const fv_real_t),           \
						 FV_PTR(5, fv_real_t), FV_CUDA_STREAM))
DIRECT_FUNC(fv_flux_interior_direct_cuda, FV_SUM_ATOMIC, FV_SPLIT_INTERIOR)
DIRECT_FUNC(fv_flux_border_direct_cuda, FV_SUM_ATOMIC, FV_SPLIT_BORDER)
DIRECT_FUNC(fv_flux_interior_direct_gather_cuda, FV_SUM_GATHER, FV_SPLIT_INTERIOR)
DIRECT_FUNC(fv_flux_border_direct_gather_cuda, FV_SUM_GATHER, FV_SPLIT_BORDER)
