/* SPDX-License-Identifier: MIT */
/* CUDA: conservative to primitive, one thread per local cell. */
#include "codelets/cuda_common.cuh"

struct prim_body {
	fv_idx_t n;
	fv_real_t gamma;
	int nvar;
	const fv_real_t *q;
	fv_real_t *w;
	__device__ void operator()(fv_idx_t i) const { fv_k_prim(q, w, n, gamma, nvar, i); }
};

extern "C" void fv_prim_launch(const fv_task_args_t *a, const fv_real_t *q, fv_real_t *w, cudaStream_t st)
{
	fv_cuda_items(a->L.n_cells, prim_body{a->L.n_cells, a->P.gamma, a->P.nvar, q, w}, st);
}

FV_CUDA_FUNC(fv_prim_cuda, fv_prim_launch(&a, FV_PTR(0, const fv_real_t), FV_PTR(1, fv_real_t), FV_CUDA_STREAM))
