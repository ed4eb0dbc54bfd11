/* SPDX-License-Identifier: MIT */
/* CPU gradients: cell loop over faces (GQ-C) or least squares over
 * neighbours; for gradient_sum = atomic or color the face loop (GQ-F) in
 * face or colour order, plain adds on one thread. */
#include <string.h>

#include "codelets/common.h"

/* Values of a node record: the FV_NVAR node values, padded to a line,
 * and that line as vectors of VL lanes (GCC / clang vector extension:
 * lane by lane IEEE arithmetic, as the scalar unit). */
#define NREC 8
typedef fv_real_t vec_t __attribute__((vector_size(32)));
#define VL ((int)(sizeof(vec_t) / sizeof(fv_real_t)))
/* Cells whose gradients are written out together. */
#define TILE 64

/* fv_k_gradient over the owned cells from node records (the node values
 * of each node in one line instead of FV_NVAR arrays), the 15 sums of a
 * cell in vector lanes: lane q of row d is g[q][d], with the same
 * products added in the same order, so bit for bit the shared kernel's
 * gradient. The padding lanes are summed and dropped. One clone per
 * vector width (AVX2: a row is two registers; baseline: four). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
static void gradient_nodes_rec(const fv_view_t *v, const fv_real_t *restrict nrec, fv_real_t *restrict grad, int part)
{
	fv_idx_t nc = v->sc;
	size_t m = (size_t)v->cell_node_off[v->n_owned];
	const fv_real_t *wx = v->cell_node_grad, *wy = wx + m, *wz = wy + m;
	for (fv_idx_t c0 = 0; c0 < v->n_owned; c0 += TILE) {
		fv_idx_t nt = v->n_owned - c0 < TILE ? v->n_owned - c0 : TILE;
		fv_real_t out[TILE][3][NREC];
		for (fv_idx_t t = 0; t < nt; t++) {
			fv_idx_t c = c0 + t;
			if (!fv_k_in_part(v->cell_border, c, part))
				continue;
			vec_t g[3][NREC / VL];
			for (int d = 0; d < 3; d++)
				for (int j = 0; j < NREC / VL; j++)
					g[d][j] = (vec_t){0};
			for (fv_idx_t k = v->cell_node_off[c]; k < v->cell_node_off[c + 1]; k++) {
				const fv_real_t *x = nrec + (size_t)NREC * v->cell_node[k];
				for (int j = 0; j < NREC / VL; j++) {
					vec_t xj;
					memcpy(&xj, x + j * VL, sizeof xj);
					g[0][j] += xj * wx[k];
					g[1][j] += xj * wy[k];
					g[2][j] += xj * wz[k];
				}
			}
			for (int d = 0; d < 3; d++)
				for (int j = 0; j < NREC / VL; j++)
					memcpy(out[t][d] + j * VL, &g[d][j], sizeof g[d][j]);
		}
		/* row by row: one store stream at a time instead of 15 */
		for (int q = 0; q < FV_NVAR; q++)
			for (int d = 0; d < 3; d++) {
				fv_real_t *row = grad + (size_t)(q * 3 + d) * nc + c0;
				for (fv_idx_t t = 0; t < nt; t++)
					if (fv_k_in_part(v->cell_border, c0 + t, part))
						row[t] = out[t][d][q];
			}
	}
}

/* The node records of the block, or NULL without memory. */
static const fv_real_t *node_records(const fv_view_t *v, const fv_real_t *wn)
{
	fv_idx_t nn = v->n_nodes;
	fv_real_t *r = fv_cpu_scratch(FV_SCRATCH_NODES, (size_t)nn * NREC * sizeof *r);
	if (!r)
		return NULL;
	for (fv_idx_t i = 0; i < nn; i++) {
		for (int q = 0; q < FV_NVAR; q++)
			r[(size_t)NREC * i + q] = wn[fv_k_wn(v, i, q)];
		for (int q = FV_NVAR; q < NREC; q++)
			r[(size_t)NREC * i + q] = 0;
	}
	return r;
}

void fv_gradient_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	const fv_real_t *wn = FV_PTR(2, const fv_real_t);
	fv_real_t *grad = FV_PTR(3, fv_real_t);
	if (a.P.lsq) {
		for (fv_idx_t c = 0; c < v.n_owned; c++)
			fv_k_gradient_lsq(&v, w, grad, c);
	} else if (a.P.grad_sum == FV_SUM_GATHER || a.P.grad_sum == FV_SUM_AUTO) {
		/* a border part's few cells read the node values directly (bit
		 * for bit the same): records of every node would cost more */
		const fv_real_t *nrec = a.part == FV_SPLIT_BORDER ? NULL : node_records(&v, wn);
		if (nrec)
			gradient_nodes_rec(&v, nrec, grad, a.part);
		for (fv_idx_t c = 0; !nrec && c < v.n_owned; c++)
			if (fv_k_in_part(v.cell_border, c, a.part))
				fv_k_gradient(&v, wn, grad, c);
	} else {
		int k0, k1, start, finish;
		fv_task_groups(&a, &k0, &k1, &start, &finish);
		if (start)
			memset(grad, 0, (size_t)3 * FV_NVAR * v.sc * sizeof *grad);
		FV_CPU_FACES(&v, &a, a.P.grad_sum, k0, k1, f, fv_k_face_gradient(&v, wn, grad, f, 0));
		for (fv_idx_t c = 0; finish && c < v.n_owned; c++)
			fv_k_gradient_finish(&v, grad, c);
	}
}
