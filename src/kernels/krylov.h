/* SPDX-License-Identifier: MIT */
/* Loop bodies of the Krylov solve of an implicit iteration (numerics.linear
 * = gmres), shared by the CPU and CUDA codelets of codelets/krylov: the
 * product of the stored first-order operator with a vector, and the
 * vector updates of GMRES; and the small dense part (the Hessenberg
 * matrix, its Givens rotations, the least-squares solve) the reduction
 * task runs, on the host or a GPU. */
#ifndef FVSTAR_KERNELS_KRYLOV_H
#define FVSTAR_KERNELS_KRYLOV_H

#include <math.h>

#include "kernels/implicit.h"

/*
 * Restarted FGMRES(m) on the system the sweeps relax, scaled by its
 * block diagonal,
 *
 *   D^-1 A dq = D^-1 (-R),   A = the stored operator (implicit.h: D_i on
 *                    the diagonal, O_f off it; nu~'s scalars with
 *                    Spalart-Allmaras),
 *
 * so that GMRES minimises the residual the sweeps' check measures
 * (fv_k_sweep_check: |D^-1 (-R - A dq)| over |D^-1 R|, the history's
 * lin_res), in which every cell weighs alike: unscaled, V/dt spans 1e6
 * between the TMR bump's wake cells and its far field (GMRES(30) on its
 * 45 x 21 grid at CFL 1e4 left lin_res up to 1.5e-4 unscaled, 2e-5
 * scaled),
 * right-preconditioned by M^-1 = krylov_sweeps sweep pairs from dq = 0
 * (point and line sweeps as the run has them), per cycle
 *
 *   v_0 = r / |r|,  r = D^-1 (-R - A dq_0);  for j < m:
 *     z_j = M^-1 D v_j               (the sweeps on the right-hand side D v_j)
 *     w = D^-1 A z_j,  h_ij = (w, v_i),  w -= sum h_ij v_i   (classical Gram-
 *     h_j+1,j = |w|, v_j+1 = w / h_j+1,j                  Schmidt)
 *   dq = dq_0 + sum_j y_j z_j,  y minimising |beta e_1 - H y|.
 *
 * Flexible (z_j kept): the sweeps are no fixed linear map once the
 * ghosts' dq is in (block Jacobi between blocks, lagged by a halo). The
 * vectors v_j and z_j hold the owned cells (nv rows of stride so, as the
 * residual); the preconditioner's output is dq itself (stride sc, ghosts
 * from the halo), which the product reads across faces.
 *
 * Every dot product is a block's partial sum into its row of dot values
 * (FV_KRY_PARTS per product: a GPU's thread blocks' partial sums, a
 * CPU's in the first), which one small task per rank sums in block order
 * into that rank's copy of the coefficients (fv_k_kry_reduce): the answer
 * does not depend on the worker or rank count, and the solver does not
 * wait.
 */
#define FV_KRY_PARTS 64
/* the most directions of a cycle (numerics.krylov_dim) */
#define FV_KRY_DIM_MAX 64

/* The coefficients (doubles) of GMRES(m): a few scalars, then H ((m+1) x m,
 * row-major), the rotations' c and s, g (m+1), y (m) and the scale of
 * each v_j (1 / its norm, 0 after a breakdown). */
enum { FV_KRY_BETA, FV_KRY_RES, FV_KRY_DEAD, FV_KRY_HEAD = 4 };
FV_HD size_t fv_kry_h(int m, int i, int j)
{
	return FV_KRY_HEAD + (size_t)i * (size_t)m + (size_t)j;
}
FV_HD size_t fv_kry_c(int m, int j)
{
	return FV_KRY_HEAD + (size_t)(m + 1) * (size_t)m + (size_t)j;
}
FV_HD size_t fv_kry_s(int m, int j)
{
	return fv_kry_c(m, m) + (size_t)j;
}
FV_HD size_t fv_kry_g(int m, int j)
{
	return fv_kry_s(m, m) + (size_t)j;
}
FV_HD size_t fv_kry_y(int m, int j)
{
	return fv_kry_g(m, m + 1) + (size_t)j;
}
FV_HD size_t fv_kry_scale(int m, int j)
{
	return fv_kry_y(m, m) + (size_t)j;
}
FV_HD size_t fv_kry_coef_size(int m)
{
	return fv_kry_scale(m, m + 1);
}

/* The reduction task's steps (fv_task_args_t.kry_step). */
enum { FV_KRY_STEP_START, FV_KRY_STEP_COLUMN, FV_KRY_STEP_NORM };

/* y = D_c x (5 rows) from D's factors (fv_lu5_factor: U's diagonal
 * stored as reciprocals): U x, then L. */
FV_HD void fv_k_diag_mul(const fv_op_t *op, const fv_real_t x[FV_NVAR], fv_real_t y[FV_NVAR])
{
	fv_real_t u[FV_NVAR];
	for (int rr = 0; rr < FV_NVAR; rr++) {
		fv_real_t t = x[rr] / (fv_real_t)op[(rr * 5 + rr) * FV_OP_W];
		for (int k = rr + 1; k < FV_NVAR; k++)
			t += (fv_real_t)op[(rr * 5 + k) * FV_OP_W] * x[k];
		u[rr] = t;
	}
	for (int rr = 0; rr < FV_NVAR; rr++) {
		fv_real_t t = u[rr];
		for (int k = 0; k < rr; k++)
			t += (fv_real_t)op[(rr * 5 + k) * FV_OP_W] * u[k];
		y[rr] = t;
	}
}

/* r = D_c^-1 r (5 rows) from D's factors. */
FV_HD void fv_k_diag_solve(const fv_op_t *op, fv_real_t r[FV_NVAR])
{
	fv_real_t D[FV_BLOCK];
	for (int m = 0; m < FV_BLOCK; m++)
		D[m] = (fv_real_t)op[m * FV_OP_W];
	fv_lu5_solve(D, r);
}

/* y = D^-1 A x at colour-group position i (owned cell c = cell_group[i];
 * the system scaled by its block diagonal, krylov.h's top): x over the
 * local cells (stride sc, ghosts as the last halo left them), y over the
 * owned ones (stride so). */
FV_HD void fv_k_matvec(const fv_view_t *v, const fv_params_t *P, const fv_op_t *op0, const fv_real_t *x, fv_real_t *y,
		       fv_idx_t i)
{
	const fv_idx_t nc = v->sc, no = v->so, c = v->cell_group[i], k0 = v->cell_face_off[c];
	const fv_op_t *op = op0 + fv_op_at(i, FV_OP_NV(P, v));
	fv_real_t xc[FV_NVAR], r[FV_NVAR];
	fv_k_load(x, nc, c, xc);
	fv_k_diag_mul(op, xc, r);
	const int sa = fv_k_sa(P);
	const size_t sa0 = fv_op_sa(P->implicit, v->max_faces);
	fv_real_t rs = sa ? (fv_real_t)op[sa0 * FV_OP_W] * x[(size_t)5 * nc + c] : (fv_real_t)0;
	fv_k_offdiag_add(v, op, x, c, 1, r);
	for (fv_idx_t k = k0; sa && k < v->cell_face_off[c + 1]; k++) {
		fv_idx_t j = fv_k_nbr(v, c, k);
		if (j >= 0)
			rs += (fv_real_t)op[(sa0 + (size_t)(1 + k - k0)) * FV_OP_W] * x[(size_t)5 * nc + j];
	}
	fv_k_diag_solve(op, r);
	for (int m = 0; m < FV_NVAR; m++)
		y[(size_t)m * no + c] = r[m];
	if (sa)
		y[(size_t)5 * no + c] = rs / (fv_real_t)op[sa0 * FV_OP_W];
}

/* The vectors of the Krylov field: vector k at V + k nv so (nv rows of
 * stride so each). */
FV_HD fv_real_t *fv_kry_vec(fv_real_t *V, const fv_view_t *v, const fv_params_t *P, int k)
{
	return V + (size_t)k * (size_t)P->nvar * (size_t)v->so;
}

/* The per-cell steps (the same expression on both back-ends), at
 * colour-group position i (the operator's) or owned cell c.
 * start: v_0 = D^-1 (-R) - (restart: D^-1 A dq_0, already in v_0) */
FV_HD void fv_k_kry_start(const fv_view_t *v, const fv_params_t *P, const fv_op_t *op0, const fv_real_t *res,
			  fv_real_t *v0, int restart, fv_idx_t i)
{
	const fv_idx_t no = v->so, c = v->cell_group[i];
	const fv_op_t *op = op0 + fv_op_at(i, FV_OP_NV(P, v));
	fv_real_t r[FV_NVAR];
	for (int m = 0; m < FV_NVAR; m++)
		r[m] = -res[(size_t)m * no + c];
	fv_k_diag_solve(op, r);
	for (int m = 0; m < FV_NVAR; m++)
		v0[(size_t)m * no + c] = r[m] - (restart ? v0[(size_t)m * no + c] : (fv_real_t)0);
	if (fv_k_sa(P)) {
		size_t q = (size_t)5 * no + c;
		v0[q] = -res[q] / (fv_real_t)op[fv_op_sa(P->implicit, v->max_faces) * FV_OP_W] - (restart ? v0[q] : (fv_real_t)0);
	}
}
/* prep: v_j scaled to unit length; the sweeps' right-hand side -D v_j
 * (they solve A z = -res, and z must solve D^-1 A z = v_j) */
FV_HD void fv_k_kry_prep(const fv_view_t *v, const fv_params_t *P, const fv_op_t *op0, fv_real_t *vj, fv_real_t *rhs,
			 fv_real_t scale, fv_idx_t i)
{
	const fv_idx_t no = v->so, c = v->cell_group[i];
	const fv_op_t *op = op0 + fv_op_at(i, FV_OP_NV(P, v));
	fv_real_t x[FV_NVAR], y[FV_NVAR];
	/* scale 0 (a breakdown, or non-finite sums): v_j = 0, whatever it held */
	for (int m = 0; m < FV_NVAR; m++)
		x[m] = vj[(size_t)m * no + c] = scale != 0 ? vj[(size_t)m * no + c] * scale : (fv_real_t)0;
	fv_k_diag_mul(op, x, y);
	for (int m = 0; m < FV_NVAR; m++)
		rhs[(size_t)m * no + c] = -y[m];
	if (fv_k_sa(P)) {
		size_t q = (size_t)5 * no + c;
		vj[q] = scale != 0 ? vj[q] * scale : (fv_real_t)0;
		rhs[q] = -vj[q] * (fv_real_t)op[fv_op_sa(P->implicit, v->max_faces) * FV_OP_W];
	}
}
/* orth: w -= sum_i h_i v_i (classical Gram-Schmidt), h = H's column j */
FV_HD void fv_k_kry_orth(const fv_view_t *v, const fv_params_t *P, fv_real_t *V, const double *K, int m, int j,
			 fv_idx_t c)
{
	fv_real_t *w = fv_kry_vec(V, v, P, j + 1);
	for (int r = 0; r < P->nvar; r++) {
		size_t q = (size_t)r * v->so + c;
		double t = w[q];
		for (int i = 0; i <= j; i++)
			t -= K[fv_kry_h(m, i, j)] * fv_kry_vec(V, v, P, i)[q];
		w[q] = (fv_real_t)t;
	}
}
/* finish: x = (restart: x) + sum_i y_i z_i over the cycle's n directions, and dq = x */
FV_HD void fv_k_kry_finish(const fv_view_t *v, const fv_params_t *P, const fv_real_t *Z, const double *K, int m,
			   int restart, fv_real_t *x, fv_real_t *dq, fv_idx_t c)
{
	for (int r = 0; r < P->nvar; r++) {
		size_t q = (size_t)r * v->so + c;
		double t = restart ? x[q] : 0;
		for (int i = 0; i < m; i++) /* a dropped direction's z may be anything */
			if (K[fv_kry_y(m, i)] != 0)
				t += K[fv_kry_y(m, i)] * fv_kry_vec((fv_real_t *)Z, v, P, i)[q];
		x[q] = (fv_real_t)t;
		dq[(size_t)r * v->sc + c] = (fv_real_t)t;
	}
}
/* (a, b) at owned cell c */
FV_HD double fv_k_kry_dot(const fv_view_t *v, const fv_params_t *P, const fv_real_t *a, const fv_real_t *b, fv_idx_t c)
{
	double t = 0;
	for (int r = 0; r < P->nvar; r++) {
		size_t q = (size_t)r * v->so + c;
		t += (double)a[q] * (double)b[q];
	}
	return t;
}

/* The sum of product k of the reduce task's blocks' dot rows (rows[b]),
 * in block order, each one's parts in order: the same sum whatever ran
 * the block tasks, on either back-end. */
FV_HD double fv_k_kry_sum(const double *const *rows, int nb, int k)
{
	double t = 0;
	for (int b = 0; b < nb; b++)
		for (int p = 0; p < FV_KRY_PARTS; p++)
			t += rows[b][(size_t)k * FV_KRY_PARTS + p];
	return t;
}

/* The dense part of the reduction task, after the partial sums were added
 * into d[0 .. j] (step START: d[0] = |r|^2; COLUMN: d[i] = (w, v_i), i <=
 * j; NORM: d[0] = |w|^2 after the Gram-Schmidt step). m: the dimension;
 * last: the cycle's last direction (y solved). */
FV_HD void fv_k_kry_reduce(double *K, int m, int step, int j, const double *d)
{
	if (step == FV_KRY_STEP_START) {
		double beta = isfinite(d[0]) ? sqrt(d[0]) : 0;
		for (size_t q = 0; q < fv_kry_coef_size(m); q++)
			K[q] = 0;
		K[FV_KRY_BETA] = beta;
		K[FV_KRY_RES] = beta;
		K[fv_kry_g(m, 0)] = beta;
		K[fv_kry_scale(m, 0)] = beta > 0 ? 1 / beta : 0;
		return;
	}
	/* a sum that is not finite (the preconditioner overflowed): this
	 * direction and all after it are dropped (their columns zero) */
	if (step == FV_KRY_STEP_COLUMN) {
		for (int i = 0; i <= j; i++)
			if (!isfinite(d[i]))
				K[FV_KRY_DEAD] = 1;
		for (int i = 0; i <= j; i++)
			K[fv_kry_h(m, i, j)] = K[FV_KRY_DEAD] != 0 ? 0 : d[i];
		return;
	}
	/* NORM: the column's last entry, then its rotation */
	if (!isfinite(d[0]))
		K[FV_KRY_DEAD] = 1;
	double h1 = K[FV_KRY_DEAD] != 0 ? 0 : sqrt(d[0] > 0 ? d[0] : 0);
	/* a breakdown (w in the span already, or round-off): the next v is
	 * zero, and so is everything it brings */
	double hmax = 0;
	for (int i = 0; i <= j; i++)
		hmax = fmax(hmax, fabs(K[fv_kry_h(m, i, j)]));
	if (!(h1 > 1e-14 * hmax))
		h1 = 0;
	K[fv_kry_h(m, j + 1, j)] = h1;
	K[fv_kry_scale(m, j + 1)] = h1 > 0 ? 1 / h1 : 0;
	double *col = &K[0];
	for (int i = 0; i < j; i++) {
		double c = K[fv_kry_c(m, i)], s = K[fv_kry_s(m, i)];
		double a = col[fv_kry_h(m, i, j)], b = col[fv_kry_h(m, i + 1, j)];
		col[fv_kry_h(m, i, j)] = c * a + s * b;
		col[fv_kry_h(m, i + 1, j)] = -s * a + c * b;
	}
	double a = K[fv_kry_h(m, j, j)], b = h1, rho = hypot(a, b);
	double c = rho > 0 ? a / rho : 1, s = rho > 0 ? b / rho : 0;
	K[fv_kry_c(m, j)] = c;
	K[fv_kry_s(m, j)] = s;
	K[fv_kry_h(m, j, j)] = rho;
	K[fv_kry_h(m, j + 1, j)] = 0;
	double g = K[fv_kry_g(m, j)];
	K[fv_kry_g(m, j)] = c * g;
	K[fv_kry_g(m, j + 1)] = -s * g;
	K[FV_KRY_RES] = fabs(-s * g);
	/* y of the directions so far (back substitution; a zero pivot, after a
	 * breakdown, drops its direction) */
	for (int i = j; i >= 0; i--) {
		double t = K[fv_kry_g(m, i)];
		for (int k = i + 1; k <= j; k++)
			t -= K[fv_kry_h(m, i, k)] * K[fv_kry_y(m, k)];
		double p = K[fv_kry_h(m, i, i)];
		K[fv_kry_y(m, i)] = p != 0 ? t / p : 0;
	}
	for (int i = j + 1; i < m; i++)
		K[fv_kry_y(m, i)] = 0;
}

#endif
