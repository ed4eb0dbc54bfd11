/* SPDX-License-Identifier: MIT */
/* CUDA node values: node loop (gather, NV-N: each node averages its cells,
 * no race) or cell loop (atomic, NV-C: each cell adds into its nodes with
 * atomicAdd, then each node divides by its cell count). */
#include "codelets/cuda_common.cuh"

struct node_body {
	fv_view_t v;
	const fv_real_t *w, *wc;
	fv_real_t *wn;
	int part;
	__device__ void operator()(fv_idx_t n) const
	{
		if (fv_k_in_part(v.node_border, n, part))
			fv_k_node(&v, w, wc, wn, n);
	}
};

struct cell_to_nodes_body {
	fv_view_t v;
	const fv_real_t *w;
	fv_real_t *wn;
	__device__ void operator()(fv_idx_t c) const { fv_k_cell_to_nodes(&v, w, wn, c, 1); }
};

struct node_finish_body {
	fv_view_t v;
	fv_real_t *wn;
	__device__ void operator()(fv_idx_t n) const { fv_k_node_finish(&v, wn, n); }
};

extern "C" void fv_nodes_launch(const fv_task_args_t *a, int sum, const void *geo, const fv_real_t *w, fv_real_t *wn,
				cudaStream_t st)
{
	fv_view_t v = fv_view_make(geo, &a->L);
	if (sum != FV_SUM_ATOMIC) {
		const fv_real_t *wc = fv_k_w_cells(&a->P, w, v.sc);
		fv_cuda_part_items(v, FV_BORDER_NODES, a->part, v.n_nodes, node_body{v, w, wc, wn, a->part}, st);
		return;
	}
	cudaMemsetAsync(wn, 0, (size_t)FV_NVAR * v.sn * sizeof *wn, st);
	fv_cuda_items(v.n_cells, cell_to_nodes_body{v, w, wn}, st);
	fv_cuda_items(v.n_nodes, node_finish_body{v, wn}, st);
}

#define NODES_FUNC(name, sum) \
	FV_CUDA_FUNC(name, fv_nodes_launch(&a, sum, FV_PTR(0, void), FV_PTR(1, const fv_real_t), \
					   FV_PTR(2, fv_real_t), FV_CUDA_STREAM))
NODES_FUNC(fv_nodes_cuda, FV_SUM_GATHER)
NODES_FUNC(fv_nodes_atomic_cuda, FV_SUM_ATOMIC)
