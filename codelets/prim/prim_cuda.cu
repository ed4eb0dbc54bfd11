/* SPDX-License-Identifier: MIT */
/* CUDA: conservative to primitive, one thread per local cell. */
#include "codelets/cuda_common.cuh"

struct prim_body {
	fv_idx_t b, n;
	fv_real_t gamma;
	int nvar, cells;
	const fv_real_t *q;
	fv_real_t *w;
	__device__ void operator()(fv_idx_t i) const { fv_k_prim(q, w, n, gamma, nvar, cells, b + i); }
};

extern "C" void fv_prim_launch(const fv_task_args_t *a, const fv_real_t *q, fv_real_t *w, cudaStream_t st)
{
	fv_idx_t b, e;
	fv_k_part_cells(a->part, a->L.n_owned, a->L.n_cells, &b, &e);
	fv_cuda_items(e - b, prim_body{b, a->L.sc, a->P.gamma, a->P.nvar, a->P.w_cells, q, w}, st);
}

FV_CUDA_FUNC(fv_prim_cuda, fv_prim_launch(&a, FV_PTR(0, const fv_real_t), FV_PTR(1, fv_real_t), FV_CUDA_STREAM))
