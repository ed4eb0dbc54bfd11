/* SPDX-License-Identifier: MIT */
/* CUDA flux summation, three variants (the codelet's cuda_funcs): a face
 * loop with atomicAdd into the owned cells ("atomic", SF-F of the papers),
 * a cell loop over each owned cell's faces ("gather", SF-C: every interior
 * face computed twice, no atomics, deterministic), and a face loop per
 * colour group ("color", Alg. 5 of Zhang et al. 2022: one launch per group
 * of faces that share no cell, plain adds, deterministic). */
#include "codelets/cuda_common.cuh"

/* Zeroes the owned cells' residual (buffer 4) before a summation. */
static void zero_residual(void *buffers[], const fv_task_args_t *a)
{
	cudaMemsetAsync(FV_PTR(4, fv_real_t), 0, (size_t)FV_NVAR * a->L.n_owned * sizeof(fv_real_t), FV_CUDA_STREAM);
}

static __global__ void flux_kernel(fv_view_t v, fv_params_t P, const fv_real_t *w, const fv_real_t *grad,
				   const fv_real_t *phi, fv_real_t *res)
{
	fv_idx_t f = blockIdx.x * blockDim.x + threadIdx.x;
	if (f >= v.n_faces)
		return;
	fv_real_t F[FV_NVAR];
	fv_idx_t o = v.face_cell[2 * (size_t)f], nb = v.face_cell[2 * (size_t)f + 1], no = v.n_owned;
	fv_k_face_flux(&v, &P, w, grad, phi, f, F);
	if (o < no)
		for (int q = 0; q < FV_NVAR; q++)
			atomicAdd(&res[(size_t)q * no + o], F[q]);
	if (nb >= 0 && nb < no)
		for (int q = 0; q < FV_NVAR; q++)
			atomicAdd(&res[(size_t)q * no + nb], -F[q]);
}

extern "C" void fv_flux_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	fv_real_t *res = FV_PTR(4, fv_real_t);
	zero_residual(buffers, &a);
	if (v.n_faces == 0)
		return;
	flux_kernel<<<fv_cuda_blocks(v.n_faces), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
		v, a.P, FV_PTR(1, const fv_real_t), FV_PTR(2, const fv_real_t), FV_PTR(3, const fv_real_t), res);
	FV_CUDA_CHECK_LAUNCH();
}

static __global__ void flux_gather_kernel(fv_view_t v, fv_params_t P, const fv_real_t *w, const fv_real_t *grad,
					  const fv_real_t *phi, fv_real_t *res)
{
	fv_idx_t c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c < v.n_owned)
		fv_k_cell_flux_gather(&v, &P, w, grad, phi, res, c);
}

extern "C" void fv_flux_gather_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	if (v.n_owned == 0)
		return;
	flux_gather_kernel<<<fv_cuda_blocks(v.n_owned), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
		v, a.P, FV_PTR(1, const fv_real_t), FV_PTR(2, const fv_real_t), FV_PTR(3, const fv_real_t),
		FV_PTR(4, fv_real_t));
	FV_CUDA_CHECK_LAUNCH();
}

/* Face flux into owner and neighbour residuals with plain adds: only for
 * faces of one colour group, which share no cell. */
static __global__ void flux_color_kernel(fv_view_t v, fv_params_t P, const fv_real_t *w, const fv_real_t *grad,
					 const fv_real_t *phi, fv_real_t *res, fv_idx_t begin, fv_idx_t end)
{
	fv_idx_t i = begin + blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= end)
		return;
	fv_real_t F[FV_NVAR];
	fv_idx_t f = v.color_face[i], no = v.n_owned;
	fv_idx_t o = v.face_cell[2 * (size_t)f], nb = v.face_cell[2 * (size_t)f + 1];
	if (o >= no && (nb < 0 || nb >= no))
		return; /* a face between ghosts */
	fv_k_face_flux(&v, &P, w, grad, phi, f, F);
	fv_k_face_add(res, no, o, nb, F);
}

/* Launches colour groups k0 .. k1-1 in order on the task's stream: the
 * launches of one stream run in order, so a group starts when the previous
 * one has finished. */
static void launch_groups(void *buffers[], const fv_task_args_t *a, int k0, int k1)
{
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a->L);
	fv_real_t *res = FV_PTR(4, fv_real_t);
	for (int k = k0; k < k1; k++) {
		fv_idx_t b = a->color_off[k], e = a->color_off[k + 1];
		if (e > b)
			flux_color_kernel<<<fv_cuda_blocks(e - b), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
				v, a->P, FV_PTR(1, const fv_real_t), FV_PTR(2, const fv_real_t),
				FV_PTR(3, const fv_real_t), res, b, e);
	}
	FV_CUDA_CHECK_LAUNCH();
}

extern "C" void fv_flux_color_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	zero_residual(buffers, &a);
	launch_groups(buffers, &a, 0, a.n_colors);
}

/* color_tasks: one group per task, group 0 zeroing the residual first. */
extern "C" void fv_flux_group_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	if (a.group == 0)
		zero_residual(buffers, &a);
	launch_groups(buffers, &a, a.group, a.group + 1);
}
