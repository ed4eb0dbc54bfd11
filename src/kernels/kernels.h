/* SPDX-License-Identifier: MIT */
/* Loop bodies of the solver stages, one per cell, face or node, shared by
 * the CPU codelets (plain loops) and the CUDA codelets (one thread each).
 * Fields are SoA over the block's local cells, each row padded to 128
 * bytes: w[v * sc + c] (sc, so, sn: view.h's row strides). */
#ifndef FVSTAR_KERNELS_KERNELS_H
#define FVSTAR_KERNELS_KERNELS_H

#include "fvstar/numerics.h"
#include "fvstar/types.h"
#include "physics/bc.h"
#include "physics/gas.h"
#include "physics/limiter.h"
#include "physics/roe.h"
#include "physics/sa.h"
#include "physics/viscous.h"
#include "kernels/view.h"

#ifdef __CUDACC__
#define FV_MIN(a, b) fmin((a), (b))
#define FV_MAX(a, b) fmax((a), (b))
#else
#define FV_MIN(a, b) ((a) < (b) ? (a) : (b))
#define FV_MAX(a, b) ((a) > (b) ? (a) : (b))
#endif

#define FV_NVAR 5
/* Rows of the state with Spalart-Allmaras (rho nu~ the sixth), and the
 * values of a face flux: the five mean-flow fluxes, then nu~'s flux into
 * the owner and the one out of the neighbour (the cb2 term makes them
 * differ; physics/sa.h). */
#define FV_NVAR_SA 6
#define FV_NFLUX 7

/* Accumulation into a shared target: with atomic set and on a GPU, an
 * atomic operation (a face loop over all faces at once); otherwise a plain
 * one (one CPU thread, or the faces of one colour group). */
FV_HD void fv_k_add(fv_real_t *p, fv_real_t x, int atomic)
{
#ifdef __CUDA_ARCH__
	if (atomic) {
		atomicAdd(p, x);
		return;
	}
#endif
	(void)atomic;
	*p += x;
}

#ifdef __CUDA_ARCH__
/* *p = min(*p, x), or max with max set, atomically, by the integer ordering
 * of IEEE values: non-negative values order like their bits as signed
 * integers, negative ones in reverse as unsigned integers (so the min of a
 * negative is an unsigned max). Exact, one atomic, no CAS loop. */
__device__ __forceinline__ void fv_k_atomic_minmax(double *p, double x, int max)
{
	long long b = __double_as_longlong(x);
	unsigned long long u = (unsigned long long)b;
	if (b >= 0)
		max ? atomicMax((long long *)p, b) : atomicMin((long long *)p, b);
	else
		max ? atomicMin((unsigned long long *)p, u) : atomicMax((unsigned long long *)p, u);
}

__device__ __forceinline__ void fv_k_atomic_minmax(float *p, float x, int max)
{
	int b = __float_as_int(x);
	unsigned u = (unsigned)b;
	if (b >= 0)
		max ? atomicMax((int *)p, b) : atomicMin((int *)p, b);
	else
		max ? atomicMin((unsigned *)p, u) : atomicMax((unsigned *)p, u);
}
#endif

/* *p = min(*p, x), or max with max set; atomic as fv_k_add. */
FV_HD void fv_k_minmax(fv_real_t *p, fv_real_t x, int max, int atomic)
{
#ifdef __CUDA_ARCH__
	if (atomic) {
		fv_k_atomic_minmax(p, x, max);
		return;
	}
#endif
	(void)atomic;
	if (max ? x > *p : x < *p)
		*p = x;
}

/* Scalars every stage may need; passed by value with each task. */
/* The implicit operator's storage (kernels/implicit.h): single precision,
 * since it only preconditions (the residual, the update and so the
 * converged state stay in fv_real_t; the blocks are formed and solved in
 * fv_real_t), and a sweep, bound by memory on the CPU and the GPU alike,
 * reads half the bytes. */
typedef float fv_op_t;

typedef struct fv_params {
	fv_real_t gamma;
	fv_real_t entropy_fix;
	fv_real_t cfl;
	fv_real_t limiter_k;
	fv_real_t limiter_shock; /* fv_shock_switch's a; 0: off */
	int order;          /* 1 or 2 */
	fv_real_t blend;    /* order 2: factor of the limited extrapolation, 0 .. 1 (order_ramp) */
	int limiter;        /* fv_limiter_t */
	int limiter_all;    /* 1: per variable; 0: from pressure, for all */
	int steady;         /* local (1) or global (0) time step */
	int lsq;            /* gradient: 1 weighted least squares, 0 Green-Gauss */
	/* race strategy of each scatter stage (fv_sum_t, fvstar/numerics.h): the GPU variant
	 * that runs, and the loop the CPU codelet runs (face loops in face or
	 * colour order for atomic and color, plain adds on one thread) */
	int flux_sum;
	int nodes_sum;      /* gather (NV-N) or atomic (NV-C); no colour variant */
	int grad_sum;       /* Green-Gauss only; least squares always gathers */
	int lim_sum;        /* local min/max of the limiter */
	int dt_sum;         /* spectral radius sums of the time step */
	int w_cells;        /* 1: the primitives' field holds after its nvar rows a copy with each
			     * cell's FV_NVAR values side by side (numerics.node_gather = cells, or
			     * auto in a block that runs only on GPUs: set per block by the solver) */
	fv_real_t winf[FV_NVAR]; /* free stream, primitive */
	fv_real_t p_out;
	fv_real_t xref[3];  /* moment centre */
	int implicit;       /* fv_implicit_t of an implicit run; 0: explicit */
	fv_real_t omega;    /* implicit: factor of the spectral radius in the operator */
	int jac_rusanov;    /* point-implicit: Rusanov's lambda I in place of Roe's |A~| */
	fv_real_t jac_floor; /* point-implicit, Roe: |lambda| of the blocks >= jac_floor (|u_n| + c) */
	fv_real_t max_update; /* implicit: largest relative change of rho and rho E; 0: none */
	fv_real_t cell_cfl;   /* implicit: the least per-cell step factor (the state's row nvar); 0: off */
	fv_real_t dominance; /* point-implicit: the rows' least dominance of a cell's block row (fv_k_dominance); 0: off */
	fv_real_t aspect_dt; /* line-implicit: the most a stretched cell's step grows (fv_k_dt); 0: off */
	int lines;          /* point-implicit: line-implicit sweeps (numerics.lines): the operator holds the lines' factors */
	fv_visc_t visc;     /* laminar runs: visc.mu_inf > 0 (fv_k_viscous) */
	int nvar;           /* rows of the state: FV_NVAR, FV_NVAR_SA with Spalart-Allmaras */
} fv_params_t;

/* Whether the run is viscous (Navier-Stokes). */
FV_HD int fv_k_viscous(const fv_params_t *P)
{
	return P->visc.mu_inf > 0;
}

/*
 * numerics.overlap: a stencil stage of a block with neighbours runs as two
 * tasks, the interior part (what reads no ghost, submitted so that it runs
 * while the halo travels) and the border part (the rest, once the halo is
 * in); a task that is not split runs the whole stage.
 *
 *   stage      interior part                      border part
 *   prim       owned cells                        ghost cells
 *   nodes      nodes with owned cells only        nodes beside a ghost
 *   gradient   owned cells with interior nodes    owned cells with a border node
 *   flux       faces between owned cells          faces beside a ghost, then
 *              (and boundary faces), stored       all the sums (below)
 *
 * Each value is computed by the same expression as in the whole stage, so
 * the split changes no bit of any result.
 */
enum { FV_SPLIT_WHOLE, FV_SPLIT_INTERIOR, FV_SPLIT_BORDER };

/* Whether item i is in the task's part (border[i]: 1 beside a ghost). */
FV_HD int fv_k_in_part(const uint8_t *border, fv_idx_t i, int part)
{
	return part == FV_SPLIT_WHOLE || (border[i] != 0) == (part == FV_SPLIT_BORDER);
}

/* The local cells of a prim task: owned ones, ghosts, or all. */
FV_HD void fv_k_part_cells(int part, fv_idx_t no, fv_idx_t nc, fv_idx_t *b, fv_idx_t *e)
{
	*b = part == FV_SPLIT_BORDER ? no : 0;
	*e = part == FV_SPLIT_INTERIOR ? no : nc;
}

/* Whether the run is turbulent (Spalart-Allmaras, row 5 of the state). */
FV_HD int fv_k_sa(const fv_params_t *P)
{
	return P->visc.sa;
}

FV_HD void fv_k_load(const fv_real_t *f, fv_idx_t n, fv_idx_t i, fv_real_t x[FV_NVAR])
{
	for (int v = 0; v < FV_NVAR; v++)
		x[v] = f[(size_t)v * n + i];
}

/* The first nv rows (FV_NVAR or FV_NVAR_SA). */
FV_HD void fv_k_load_n(const fv_real_t *f, fv_idx_t n, fv_idx_t i, fv_real_t *x, int nv)
{
	for (int v = 0; v < nv; v++)
		x[v] = f[(size_t)v * n + i];
}

FV_HD void fv_k_store(fv_real_t *f, fv_idx_t n, fv_idx_t i, const fv_real_t x[FV_NVAR])
{
	for (int v = 0; v < FV_NVAR; v++)
		f[(size_t)v * n + i] = x[v];
}

FV_HD void fv_k_face_vec(const fv_real_t *a, fv_idx_t n, fv_idx_t f, fv_real_t s[3])
{
	s[0] = a[f];
	s[1] = a[(size_t)n + f];
	s[2] = a[2 * (size_t)n + f];
}

/* Primitives of local cell i from the conservative state (n local cells,
 * nvar rows: with Spalart-Allmaras nu~ = rho nu~ / rho); cells: also the
 * side-by-side copy after the rows (fv_k_w_cells). */
FV_HD void fv_k_prim(const fv_real_t *q, fv_real_t *w, fv_idx_t n, fv_real_t gamma, int nvar, int cells, fv_idx_t i)
{
	fv_real_t qi[FV_NVAR], wi[FV_NVAR];
	fv_k_load(q, n, i, qi);
	fv_cons_to_prim(qi, gamma, wi);
	fv_k_store(w, n, i, wi);
	if (nvar > FV_NVAR)
		w[(size_t)5 * n + i] = q[(size_t)5 * n + i] / qi[0];
	if (cells)
		for (int k = 0; k < FV_NVAR; k++)
			w[(size_t)nvar * n + (size_t)FV_NVAR * i + k] = wi[k];
}

/* Where node n's value q lies in the node values: row q, or side by side
 * (v->wn_side, numerics.node_gather = cells or auto: a cell's gradient reads each
 * of its nodes' five values in one or two sectors). */
FV_HD size_t fv_k_wn(const fv_view_t *v, fv_idx_t n, int q)
{
	return v->wn_side ? (size_t)FV_NVAR * n + (size_t)q : (size_t)q * v->sn + n;
}

/* The side-by-side copy of the primitives (P->w_cells: cell c's FV_NVAR
 * values at [FV_NVAR * c]), or NULL where the field has only its rows. */
FV_HD const fv_real_t *fv_k_w_cells(const fv_params_t *P, const fv_real_t *w, fv_idx_t sc)
{
	return P->w_cells ? w + (size_t)P->nvar * sc : (const fv_real_t *)0;
}

/* Node value: the plain average of the surrounding cells (as in the
 * papers' NV kernels); wn holds FV_NVAR values per local node. The cells'
 * values come from the rows of w, or from wc (fv_k_w_cells) where not
 * NULL: each cell's five in one or two memory sectors, not five; the same
 * values added in the same order. */
FV_HD void fv_k_node(const fv_view_t *v, const fv_real_t *w, const fv_real_t *wc, fv_real_t *wn, fv_idx_t node)
{
	fv_real_t acc[FV_NVAR] = {0, 0, 0, 0, 0};
	fv_idx_t b = v->node_cell_off[node], e = v->node_cell_off[node + 1];
	if (wc)
		for (fv_idx_t k = b; k < e; k++) {
			const fv_real_t *x = wc + (size_t)FV_NVAR * v->node_cell[k];
			for (int q = 0; q < FV_NVAR; q++)
				acc[q] += x[q];
		}
	else
		for (fv_idx_t k = b; k < e; k++) {
			fv_idx_t c = v->node_cell[k];
			for (int q = 0; q < FV_NVAR; q++)
				acc[q] += w[(size_t)q * v->sc + c];
		}
	for (int q = 0; q < FV_NVAR; q++)
		wn[fv_k_wn(v, node, q)] = acc[q] / (fv_real_t)(e - b);
}

/* Green-Gauss term of face f: the mean of its node values times its area
 * vector, gf[q][d]; a cell adds it with the sign of its side, then divides
 * by its volume. */
FV_HD void fv_k_face_gg(const fv_view_t *v, const fv_real_t *wn, fv_idx_t f, fv_real_t gf[FV_NVAR][3])
{
	fv_idx_t b = v->face_node_off[f], e = v->face_node_off[f + 1];
	fv_real_t s[3], inv = (fv_real_t)1 / (fv_real_t)(e - b);
	fv_k_face_vec(v->face_area, v->n_faces, f, s);
	for (int q = 0; q < FV_NVAR; q++) {
		fv_real_t sum = 0;
		for (fv_idx_t j = b; j < e; j++)
			sum += wn[fv_k_wn(v, v->face_node[j], q)];
		for (int d = 0; d < 3; d++)
			gf[q][d] = inv * sum * s[d];
	}
}

/* Node-based Green-Gauss gradient of an owned cell (GQ-C): the face sum
 * regrouped by the cell's nodes with precomputed weight vectors (geo.c),
 * so each node value is read once, not once per face that holds it.
 * grad[(q * 3 + d) * n_cells + c]. */
FV_HD void fv_k_gradient(const fv_view_t *v, const fv_real_t *wn, fv_real_t *grad, fv_idx_t c)
{
	fv_real_t g[FV_NVAR][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
	size_t m = (size_t)v->cell_node_off[v->n_owned];
	for (fv_idx_t k = v->cell_node_off[c]; k < v->cell_node_off[c + 1]; k++) {
		fv_idx_t n = v->cell_node[k];
		fv_real_t gx = v->cell_node_grad[k], gy = v->cell_node_grad[m + k], gz = v->cell_node_grad[2 * m + k];
		for (int q = 0; q < FV_NVAR; q++) {
			fv_real_t x = wn[fv_k_wn(v, n, q)];
			g[q][0] += x * gx;
			g[q][1] += x * gy;
			g[q][2] += x * gz;
		}
	}
	for (int q = 0; q < FV_NVAR; q++)
		for (int d = 0; d < 3; d++)
			grad[(size_t)(q * 3 + d) * v->sc + c] = g[q][d];
}

/* Face-loop gradient (GQ-F): after face sums into grad (owner +, owned
 * neighbour -), each owned cell divides by its volume. */
FV_HD void fv_k_gradient_finish(const fv_view_t *v, fv_real_t *grad, fv_idx_t c)
{
	for (int j = 0; j < 3 * FV_NVAR; j++)
		grad[(size_t)j * v->sc + c] /= v->cell_vol[c];
}

/* Weighted least-squares gradient of an owned cell (weights 1/|d|^2) from
 * its face neighbours; a boundary face adds its centroid with the cell's own
 * value (no change across the boundary), which keeps the 3x3 system regular
 * for cells in one layer. */
FV_HD void fv_k_gradient_lsq(const fv_view_t *v, const fv_real_t *w, fv_real_t *grad, fv_idx_t c)
{
	fv_real_t a[6] = {0, 0, 0, 0, 0, 0}; /* xx xy xz yy yz zz */
	fv_real_t b[FV_NVAR][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
	fv_real_t xc[3], inv[6], det;
	for (int d = 0; d < 3; d++)
		xc[d] = v->cell_ctr[(size_t)d * v->n_cells + c];
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_idx_t f = v->cell_face[k];
		fv_idx_t o = v->face_cell[2 * (size_t)f], nb = v->face_cell[2 * (size_t)f + 1];
		fv_idx_t other = o == c ? nb : o;
		fv_real_t d[3], wt;
		for (int q = 0; q < 3; q++)
			d[q] = (other >= 0 ? v->cell_ctr[(size_t)q * v->n_cells + other]
					   : v->face_ctr[(size_t)q * v->n_faces + f]) - xc[q];
		wt = 1 / (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
		a[0] += wt * d[0] * d[0], a[1] += wt * d[0] * d[1], a[2] += wt * d[0] * d[2];
		a[3] += wt * d[1] * d[1], a[4] += wt * d[1] * d[2], a[5] += wt * d[2] * d[2];
		/* no-slip walls too: their zero velocity in these gradients, which
		 * also reconstruct the faces' states, overshot the first cell's
		 * opposite face by half the cell's velocity (1.5 U after an
		 * impulsive start) and blew up the M6's prism layer; the viscous
		 * flux takes the wall's velocity through its own difference */
		if (other < 0)
			continue;
		for (int q = 0; q < FV_NVAR; q++) {
			fv_real_t du = wt * (w[(size_t)q * v->sc + other] - w[(size_t)q * v->sc + c]);
			b[q][0] += du * d[0], b[q][1] += du * d[1], b[q][2] += du * d[2];
		}
	}
	/* inverse of the symmetric matrix by its adjugate */
	inv[0] = a[3] * a[5] - a[4] * a[4];
	inv[1] = a[2] * a[4] - a[1] * a[5];
	inv[2] = a[1] * a[4] - a[2] * a[3];
	inv[3] = a[0] * a[5] - a[2] * a[2];
	inv[4] = a[1] * a[2] - a[0] * a[4];
	inv[5] = a[0] * a[3] - a[1] * a[1];
	det = a[0] * inv[0] + a[1] * inv[1] + a[2] * inv[2];
	for (int q = 0; q < FV_NVAR; q++) {
		fv_real_t g0 = (inv[0] * b[q][0] + inv[1] * b[q][1] + inv[2] * b[q][2]) / det;
		fv_real_t g1 = (inv[1] * b[q][0] + inv[3] * b[q][1] + inv[4] * b[q][2]) / det;
		fv_real_t g2 = (inv[2] * b[q][0] + inv[4] * b[q][1] + inv[5] * b[q][2]) / det;
		grad[(size_t)(q * 3) * v->sc + c] = g0;
		grad[(size_t)(q * 3 + 1) * v->sc + c] = g1;
		grad[(size_t)(q * 3 + 2) * v->sc + c] = g2;
	}
}

FV_HD fv_real_t fv_k_grad_dot(const fv_real_t *grad, fv_idx_t n, fv_idx_t c, int q, const fv_real_t dx[3])
{
	return grad[(size_t)(q * 3) * n + c] * dx[0] + grad[(size_t)(q * 3 + 1) * n + c] * dx[1] +
	       grad[(size_t)(q * 3 + 2) * n + c] * dx[2];
}

FV_HD void fv_k_to_face(const fv_view_t *v, fv_idx_t c, fv_idx_t f, fv_real_t dx[3])
{
	for (int d = 0; d < 3; d++)
		dx[d] = v->face_ctr[(size_t)d * v->n_faces + f] - v->cell_ctr[(size_t)d * v->n_cells + c];
}

/* Variables the limiter looks at: all, or the pressure only. */
FV_HD void fv_k_limiter_vars(const fv_params_t *P, int *q0, int *q1)
{
	*q0 = P->limiter_all ? 0 : 4;
	*q1 = FV_NVAR;
}

/* Limiter of owned cell c from the min/max of its neighbourhood. */
FV_HD void fv_k_limiter_from(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			     const fv_real_t wmin[FV_NVAR], const fv_real_t wmax[FV_NVAR], fv_real_t *phi, fv_idx_t c)
{
	fv_real_t wc[FV_NVAR], lim[FV_NVAR] = {1, 1, 1, 1, 1}, dp_max = 0;
	fv_real_t eps2 = fv_venkat_eps2(P->limiter_k, v->cell_vol[c]);
	int q0, q1;
	fv_k_limiter_vars(P, &q0, &q1);
	fv_k_load(w, v->sc, c, wc);
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_real_t dx[3];
		fv_k_to_face(v, c, v->cell_face[k], dx);
		for (int q = q0; q < q1; q++) {
			fv_real_t d2 = fv_k_grad_dot(grad, v->sc, c, q, dx);
			fv_real_t p = P->limiter == FV_LIMITER_BARTH ? fv_barth(wmax[q] - wc[q], wmin[q] - wc[q], d2)
						      : fv_venkat(wmax[q] - wc[q], wmin[q] - wc[q], d2, eps2);
			lim[q] = FV_MIN(lim[q], p);
			if (q == 4)
				dp_max = FV_MAX(dp_max, FV_FABS(d2));
		}
	}
	fv_real_t sw = fv_shock_switch(wmin[4], wmax[4], wc[4], dp_max, P->limiter_shock);
	for (int q = q0; q < q1; q++)
		lim[q] = FV_MIN(lim[q], sw);
	/* from pressure: one value, at variable 4, read for all (the others
	 * are left unset) */
	for (int q = P->limiter_all ? 0 : 4; q < FV_NVAR; q++)
		phi[(size_t)q * v->sc + c] = lim[q];
}

/* Limiter of an owned cell, gathering the min/max over its face
 * neighbours (LM-C). */
FV_HD void fv_k_limiter(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			fv_real_t *phi, fv_idx_t c)
{
	fv_real_t wmin[FV_NVAR], wmax[FV_NVAR];
	int q0, q1;
	fv_k_limiter_vars(P, &q0, &q1);
	fv_k_load(w, v->sc, c, wmin);
	fv_k_load(w, v->sc, c, wmax);
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_idx_t f = v->cell_face[k];
		fv_idx_t o = v->face_cell[2 * (size_t)f], nb = v->face_cell[2 * (size_t)f + 1];
		fv_idx_t other = o == c ? nb : o;
		if (other < 0)
			continue;
		for (int q = q0; q < q1; q++) {
			fv_real_t x = w[(size_t)q * v->sc + other];
			wmin[q] = FV_MIN(wmin[q], x);
			wmax[q] = FV_MAX(wmax[q], x);
		}
	}
	fv_k_limiter_from(v, P, w, grad, wmin, wmax, phi, c);
}

/* Face-loop limiter (LM-F), last pass: phi of owned cell c from the
 * min/max the face loop left in mm: min of variable q at mm[q * no + c],
 * max at mm[(FV_NVAR + q) * no + c]. */
FV_HD void fv_k_limiter_mm(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			   const fv_real_t *mm, fv_real_t *phi, fv_idx_t c)
{
	fv_real_t wmin[FV_NVAR], wmax[FV_NVAR];
	for (int q = 0; q < FV_NVAR; q++) {
		wmin[q] = mm[(size_t)q * v->so + c];
		wmax[q] = mm[(size_t)(FV_NVAR + q) * v->so + c];
	}
	fv_k_limiter_from(v, P, w, grad, wmin, wmax, phi, c);
}

/* The state of cell c extrapolated to face f (MUSCL, limited). */
FV_HD void fv_k_reconstruct(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			    const fv_real_t *phi, fv_idx_t c, fv_idx_t f, fv_real_t out[FV_NVAR])
{
	fv_k_load(w, v->sc, c, out);
	if (P->order < 2)
		return;
	fv_real_t dx[3], r[FV_NVAR];
	/* one limiter for all variables (pressure) is read once */
	fv_real_t lim = P->limiter && !P->limiter_all ? P->blend * phi[(size_t)4 * v->sc + c] : P->blend;
	fv_k_to_face(v, c, f, dx);
	for (int q = 0; q < FV_NVAR; q++) {
		if (P->limiter && P->limiter_all)
			lim = P->blend * phi[(size_t)q * v->sc + c];
		r[q] = out[q] + lim * fv_k_grad_dot(grad, v->sc, c, q, dx);
	}
	/* keep the first-order state where the extrapolation is not physical */
	if (r[0] > 0 && r[4] > 0)
		for (int q = 0; q < FV_NVAR; q++)
			out[q] = r[q];
}

/* Flux out of the domain through a boundary face of kind `kind` (area
 * vector s) from the interior state wl: the exact wall flux at a slip
 * wall, else the Roe flux to the boundary state. */
FV_HD void fv_k_boundary_flux(const fv_params_t *P, int kind, const fv_real_t wl[FV_NVAR], const fv_real_t s[3],
			      fv_real_t F[FV_NVAR])
{
	fv_real_t wr[FV_NVAR];
	if (fv_bc_is_wall(kind)) {
		fv_wall_flux(wl, s, F);
		return;
	}
	fv_real_t a = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]), n[3] = {s[0] / a, s[1] / a, s[2] / a};
	fv_bc_state(kind, wl, n, P->winf, P->p_out, P->gamma, wr);
	fv_roe_flux(wl, wr, s, P->gamma, P->entropy_fix, F);
}

/* T = gamma p / rho of local cell c from the primitives w. */
FV_HD fv_real_t fv_k_temperature_at(const fv_real_t *w, size_t nc, fv_idx_t c, fv_real_t gamma)
{
	return gamma * w[4 * nc + c] / w[c];
}
#define fv_temperature_at fv_k_temperature_at

/* Cell c's state wc and its gradients of u, v, w and T (fv_visc_grad). */
FV_HD void fv_k_visc_cell(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			  fv_idx_t c, fv_real_t wc[FV_NVAR], fv_real_t g[4][3])
{
	fv_real_t gw[FV_NVAR][3];
	fv_k_load(w, v->sc, c, wc);
	for (int q = 0; q < FV_NVAR; q++)
		for (int d = 0; d < 3; d++)
			gw[q][d] = grad[(size_t)(q * 3 + d) * v->sc + c];
	fv_visc_grad(wc, gw, P->gamma, g);
}

/* The viscous flux through local face f (physics/viscous.h), from owner
 * to neighbour: between two cells, the average of their gradients
 * corrected along the line of their centres, the velocity and the
 * temperature of the viscosity averaged; at a no-slip wall, u = 0 and the
 * cell's gradients corrected along the normal by the difference quotient
 * to the wall (zero for T at an adiabatic wall, so no heat flux; T_wall at
 * an isothermal one). Other boundaries: none (far field, outlets,
 * symmetry: the gradients normal to them are taken as zero). */
FV_HD void fv_k_viscous_flux(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			     fv_idx_t f, fv_real_t F[FV_NVAR])
{
	fv_idx_t o = v->face_cell[2 * (size_t)f], nb = v->face_cell[2 * (size_t)f + 1];
	fv_real_t s[3], t[3], wo[FV_NVAR], g[4][3], u[3], dphi[4], len = 0, T, mut = 0;
	int kind = nb < 0 ? v->bface_bc[f] : -1;
	for (int q = 0; q < FV_NVAR; q++)
		F[q] = 0;
	if (nb < 0 && !fv_bc_is_noslip(kind))
		return;
	fv_k_face_vec(v->face_area, v->n_faces, f, s);
	fv_k_visc_cell(v, P, w, grad, o, wo, g);
	T = fv_temperature(wo, P->gamma);
	if (nb >= 0) {
		fv_real_t wn[FV_NVAR], gn[4][3], Tn;
		fv_k_visc_cell(v, P, w, grad, nb, wn, gn);
		Tn = fv_temperature(wn, P->gamma);
		/* the face's eddy viscosity: the mean of its cells' (0 at walls) */
		if (fv_k_sa(P))
			mut = (fv_real_t)0.5 *
			      (fv_sa_mut(wo[0], w[(size_t)5 * v->sc + o], fv_viscosity(&P->visc, T)) +
			       fv_sa_mut(wn[0], w[(size_t)5 * v->sc + nb], fv_viscosity(&P->visc, Tn)));
		for (int d = 0; d < 3; d++) {
			t[d] = v->cell_ctr[(size_t)d * v->n_cells + nb] - v->cell_ctr[(size_t)d * v->n_cells + o];
			len += t[d] * t[d];
			u[d] = (fv_real_t)0.5 * (wo[1 + d] + wn[1 + d]);
			dphi[d] = wn[1 + d] - wo[1 + d];
		}
		for (int k = 0; k < 4; k++)
			for (int d = 0; d < 3; d++)
				g[k][d] = (fv_real_t)0.5 * (g[k][d] + gn[k][d]);
		dphi[3] = Tn - T;
		T = (fv_real_t)0.5 * (T + Tn);
		len = FV_SQRT(len);
		for (int d = 0; d < 3; d++)
			t[d] /= len;
	} else {
		fv_real_t a = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
		for (int d = 0; d < 3; d++) {
			t[d] = s[d] / a;
			len += (v->face_ctr[(size_t)d * v->n_faces + f] - v->cell_ctr[(size_t)d * v->n_cells + o]) * t[d];
			u[d] = 0;
			dphi[d] = -wo[1 + d];
		}
		dphi[3] = 0;
		if (kind == FV_BC_ISOTHERMAL) {
			dphi[3] = P->visc.t_wall - T;
			T = P->visc.t_wall;
		}
	}
	fv_visc_correct(g, t, len, dphi);
	fv_real_t mu = fv_viscosity(&P->visc, T);
	fv_visc_flux(u, mu + mut, fv_conductivity(&P->visc, mu, mut, P->gamma), g, s, F);
}

/* nu~'s fluxes through face f (physics/sa.h) from the mean-flow mass flux
 * mf (F[0] of the face): first-order upwind convection, the diffusion
 * 1/sigma rho (nu + (1 + cb2) nu~) dnu~/dn by the difference across the face
 * (between cell centres; to the wall, where nu~ = 0), minus, for each cell,
 * cb2/sigma rho nu~ of that cell times the same normal derivative. *Fo goes
 * into the owner's residual, *Fn out of the neighbour's. Far field and
 * inflow bring nu_inf in, other boundaries (outlets, symmetry) no
 * diffusion. */
FV_HD void fv_k_sa_face(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, fv_idx_t f, fv_real_t mf,
			fv_real_t *Fo, fv_real_t *Fn)
{
	const size_t nc = (size_t)v->n_cells, sc = (size_t)v->sc;
	fv_idx_t o = v->face_cell[2 * (size_t)f], nb = v->face_cell[2 * (size_t)f + 1];
	fv_real_t s[3], a, len = 0, ro = w[o], no = w[5 * sc + o], rn, nn;
	fv_real_t mu_o = fv_viscosity(&P->visc, fv_temperature_at(w, sc, o, P->gamma)), coef, dn;
	fv_k_face_vec(v->face_area, v->n_faces, f, s);
	a = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
	if (nb >= 0) {
		rn = w[nb], nn = w[5 * sc + nb];
		for (int d = 0; d < 3; d++) {
			fv_real_t x = v->cell_ctr[(size_t)d * nc + nb] - v->cell_ctr[(size_t)d * nc + o];
			len += x * x;
		}
		len = FV_SQRT(len);
		fv_real_t mu_n = fv_viscosity(&P->visc, fv_temperature_at(w, sc, nb, P->gamma));
		fv_real_t nuf = (fv_real_t)0.5 * (mu_o / ro + mu_n / rn);
		fv_real_t ntf = fv_sa_diff_nut((fv_real_t)0.5 * (no + nn), nuf);
		coef = (fv_real_t)0.5 * (ro + rn) * (nuf + ((fv_real_t)1 + FV_SA_CB2) * ntf) / FV_SA_SIGMA;
		dn = (nn - no) / len * a;
		fv_real_t conv = mf > 0 ? mf * no : mf * nn;
		*Fo = conv - coef * dn + FV_SA_CB2 / FV_SA_SIGMA * ro * fv_sa_diff_nut(no, mu_o / ro) * dn;
		*Fn = conv - coef * dn + FV_SA_CB2 / FV_SA_SIGMA * rn * fv_sa_diff_nut(nn, mu_n / rn) * dn;
		return;
	}
	*Fn = 0;
	int kind = v->bface_bc[f];
	if (fv_bc_is_noslip(kind)) {
		for (int d = 0; d < 3; d++)
			len += (v->face_ctr[(size_t)d * v->n_faces + f] - v->cell_ctr[(size_t)d * nc + o]) * s[d] / a;
		len = FV_FABS(len);
		/* the face value nu~ = 0: the coefficient of the molecular part only */
		coef = mu_o / FV_SA_SIGMA;
		dn = -no / len * a;
		*Fo = -coef * dn + FV_SA_CB2 / FV_SA_SIGMA * ro * fv_sa_diff_nut(no, mu_o / ro) * dn;
		return;
	}
	/* upwind: the free stream's nu~ comes in through far field and inflow */
	nn = (kind == FV_BC_FARFIELD || kind == FV_BC_SUPERSONIC_INFLOW) ? P->visc.nut_inf : no;
	*Fo = mf > 0 ? mf * no : mf * nn;
}

/* What a face's flux adds to its inviscid flux F (F[0] its mass flux):
 * with Spalart-Allmaras nu~'s fluxes F[5] and F[6] (fv_k_sa_face), in a
 * viscous run minus the viscous flux. */
FV_HD void fv_k_face_rest(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			  fv_idx_t f, fv_real_t F[FV_NFLUX])
{
	if (fv_k_sa(P))
		fv_k_sa_face(v, P, w, f, F[0], &F[5], &F[6]);
	if (fv_k_viscous(P)) {
		fv_real_t Fv[FV_NVAR];
		fv_k_viscous_flux(v, P, w, grad, f, Fv);
		for (int q = 0; q < FV_NVAR; q++)
			F[q] -= Fv[q];
	}
}

/* Flux through local face f, from owner to neighbour (or out of the
 * domain): inviscid, then fv_k_face_rest. */
FV_HD void fv_k_face_flux(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			  const fv_real_t *phi, fv_idx_t f, fv_real_t F[FV_NFLUX])
{
	fv_idx_t o = v->face_cell[2 * (size_t)f], nb = v->face_cell[2 * (size_t)f + 1];
	fv_real_t s[3], wl[FV_NVAR], wr[FV_NVAR];
	F[5] = F[6] = 0;
	fv_k_face_vec(v->face_area, v->n_faces, f, s);
	fv_k_reconstruct(v, P, w, grad, phi, o, f, wl);
	if (nb < 0)
		fv_k_boundary_flux(P, v->bface_bc[f], wl, s, F);
	else {
		fv_k_reconstruct(v, P, w, grad, phi, nb, f, wr);
		fv_roe_flux(wl, wr, s, P->gamma, P->entropy_fix, F);
	}
	fv_k_face_rest(v, P, w, grad, f, F);
}

/* The vorticity magnitude of cell c from its velocity gradients. */
FV_HD fv_real_t fv_k_vorticity(const fv_real_t *grad, size_t nc, fv_idx_t c)
{
#define FV_G(q, d) grad[(size_t)((q) * 3 + (d)) * nc + c]
	fv_real_t wx = FV_G(3, 1) - FV_G(2, 2), wy = FV_G(1, 2) - FV_G(3, 0), wz = FV_G(2, 0) - FV_G(1, 1);
#undef FV_G
	return FV_SQRT(wx * wx + wy * wy + wz * wz);
}

/* The vorticity magnitude of owned cell c from its faces (Green-Gauss, the
 * face velocity the mean of the two cells', 0 at no-slip walls, the cell's
 * at other boundaries) of the state s, primitive (velocity in rows 1-3) or
 * with cons conservative. The SA source's vorticity: the node-based
 * gradient averages nodes across a thin cell's length, and at the TMR
 * bump's leading edge gave the symmetry cells ahead of it (1e-5 high,
 * 0.03 long) the shear of the wall's first cells: their nu~ rose to 28
 * times the free stream's, and the eddy viscosity of the face into the
 * wall kept the first wall cells in a cycle 6 orders down. */
FV_HD fv_real_t fv_k_face_vorticity(const fv_view_t *v, const fv_real_t *s, int cons, fv_idx_t c)
{
	const size_t nc = (size_t)v->sc;
	fv_real_t w[3] = {0, 0, 0}, uc[3], ic = cons ? (fv_real_t)1 / s[c] : (fv_real_t)1;
	for (int d = 0; d < 3; d++)
		uc[d] = s[(1 + d) * nc + c] * ic;
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_real_t a[3], u[3];
		fv_idx_t f = v->cell_face[k], o = v->face_cell[2 * (size_t)f], j = v->face_cell[2 * (size_t)f + 1];
		fv_k_face_vec(v->face_area, v->n_faces, f, a);
		if (o != c) {
			j = o;
			for (int d = 0; d < 3; d++)
				a[d] = -a[d];
		}
		for (int d = 0; d < 3; d++)
			u[d] = j >= 0 ? (fv_real_t)0.5 * (uc[d] + s[(1 + d) * nc + j] * (cons ? (fv_real_t)1 / s[j] : (fv_real_t)1))
				      : fv_bc_is_noslip(v->bface_bc[f]) ? (fv_real_t)0 : uc[d];
		/* curl u = 1/V sum S x u */
		w[0] += a[1] * u[2] - a[2] * u[1];
		w[1] += a[2] * u[0] - a[0] * u[2];
		w[2] += a[0] * u[1] - a[1] * u[0];
	}
	return FV_SQRT(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) / v->cell_vol[c];
}

/* The Spalart-Allmaras source of owned cell c, subtracted from its nu~
 * residual (R = fluxes out - V source); *jac: V times its linearisation
 * (fv_sa_source), for the implicit diagonal. */
FV_HD fv_real_t fv_k_sa_source(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			       fv_idx_t c, fv_real_t *jac)
{
	const size_t nc = (size_t)v->sc;
	(void)grad; /* the vorticity from the faces (fv_k_face_vorticity), not the node-based gradients */
	fv_real_t rho = w[c], nu = fv_viscosity(&P->visc, fv_temperature_at(w, nc, c, P->gamma)) / rho;
	fv_real_t src = fv_sa_source(rho, nu, w[5 * nc + c], fv_k_face_vorticity(v, w, 0, c), v->cell_wdist[c], jac);
	*jac *= v->cell_vol[c];
	return v->cell_vol[c] * src;
}

/* Adds the source into owned cell c's nu~ residual (res: owned rows). */
FV_HD void fv_k_sa_source_add(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			      fv_real_t *res, fv_idx_t c)
{
	fv_real_t jac;
	res[(size_t)5 * v->so + c] -= fv_k_sa_source(v, P, w, grad, c, &jac);
}

/* Adds face flux F to its owner's residual and subtracts it from its
 * neighbour's, for those that are owned cells (no < n_owned); atomic as
 * fv_k_add. */
FV_HD void fv_k_face_add(const fv_params_t *P, fv_real_t *res, fv_idx_t no, fv_idx_t so, fv_idx_t o, fv_idx_t nb,
			 const fv_real_t F[FV_NFLUX], int atomic)
{
	int sa = fv_k_sa(P);
	if (o < no) {
		for (int q = 0; q < FV_NVAR; q++)
			fv_k_add(&res[(size_t)q * so + o], F[q], atomic);
		if (sa)
			fv_k_add(&res[(size_t)5 * so + o], F[5], atomic);
	}
	if (nb >= 0 && nb < no) {
		for (int q = 0; q < FV_NVAR; q++)
			fv_k_add(&res[(size_t)q * so + nb], -F[q], atomic);
		if (sa)
			fv_k_add(&res[(size_t)5 * so + nb], -F[6], atomic);
	}
}

/* Residual of an owned cell from its own faces (gather, SF-C): each
 * interior face's flux is computed by both of its cells, no race. */
FV_HD void fv_k_cell_flux_gather(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
				 const fv_real_t *phi, fv_real_t *res, fv_idx_t c)
{
	fv_real_t r[FV_NVAR_SA] = {0, 0, 0, 0, 0, 0};
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_real_t F[FV_NFLUX];
		fv_k_face_flux(v, P, w, grad, phi, v->cell_face[k], F);
		for (int q = 0; q < FV_NVAR; q++)
			r[q] += v->cell_face_sign[k] > 0 ? F[q] : -F[q];
		r[5] += v->cell_face_sign[k] > 0 ? F[5] : -F[6];
	}
	for (int q = 0; q < P->nvar; q++)
		res[(size_t)q * v->so + c] = r[q];
}

/* Pressure force (p - p_inf) S on boundary face f of the wall markers (and
 * the viscous one, -tau S, in a laminar run), with
 * the wall pressure the flux uses (owner state reconstructed to the face),
 * and its moment about P->xref; zero for any other face. S points out of
 * the fluid, so this is the force the fluid exerts on the body. */
FV_HD void fv_k_wall_force(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			   const fv_real_t *phi, fv_idx_t f, fv_real_t F[3], fv_real_t M[3])
{
	F[0] = F[1] = F[2] = M[0] = M[1] = M[2] = 0;
	if (!v->bface_force[f])
		return;
	fv_real_t s[3], wl[FV_NVAR], r[3], Fv[FV_NVAR] = {0, 0, 0, 0, 0};
	fv_k_face_vec(v->face_area, v->n_faces, f, s);
	fv_k_reconstruct(v, P, w, grad, phi, v->face_cell[2 * (size_t)f], f, wl);
	/* a viscous wall adds its shear: the momentum flux p S - tau S */
	if (fv_k_viscous(P))
		fv_k_viscous_flux(v, P, w, grad, f, Fv);
	for (int d = 0; d < 3; d++) {
		F[d] = (wl[4] - P->winf[4]) * s[d] - Fv[1 + d];
		r[d] = v->face_ctr[(size_t)d * v->n_faces + f] - P->xref[d];
	}
	M[0] = r[1] * F[2] - r[2] * F[1];
	M[1] = r[2] * F[0] - r[0] * F[2];
	M[2] = r[0] * F[1] - r[1] * F[0];
}

/* What a wall face f tells (FV_WALL_VALUES values into out): the pressure
 * of its cell, the force per unit area of the viscous stress on the wall
 * (x, y, z: -tau S / |S|, zero in an inviscid run or at a slip wall) and
 * the distance of the cell centre to the face's plane (y+ of the first
 * cell). Post-processing (Cp, Cf, y+), on the host at the end of a run. */
#define FV_WALL_VALUES 5
FV_HD void fv_k_wall_values(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			    fv_idx_t f, fv_real_t out[FV_WALL_VALUES])
{
	fv_idx_t o = v->face_cell[2 * (size_t)f];
	fv_real_t s[3], Fv[FV_NVAR] = {0, 0, 0, 0, 0}, dn = 0;
	fv_k_face_vec(v->face_area, v->n_faces, f, s);
	fv_real_t a = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
	if (fv_k_viscous(P))
		fv_k_viscous_flux(v, P, w, grad, f, Fv);
	out[0] = w[(size_t)4 * v->sc + o];
	for (int d = 0; d < 3; d++) {
		out[1 + d] = -Fv[1 + d] / a;
		dn += (v->face_ctr[(size_t)d * v->n_faces + f] - v->cell_ctr[(size_t)d * v->n_cells + o]) * s[d] / a;
	}
	out[4] = FV_FABS(dn);
}

/* One value of an SSP Runge-Kutta stage: a q0 + b (q - r R). */
FV_HD fv_real_t fv_k_rk(fv_real_t rk_a, fv_real_t rk_b, fv_real_t q0, fv_real_t q, fv_real_t r, fv_real_t res)
{
	return rk_a * q0 + rk_b * (q - r * res);
}

/* One SSP Runge-Kutta stage on owned cell c: q = a q0 + b (q - r R) with
 * r = dt / V; the first stage (a = 0) saves q into q0. */
FV_HD void fv_k_update(int nvar, fv_idx_t no, fv_idx_t nc, fv_real_t rk_a, fv_real_t rk_b, fv_real_t r,
		       const fv_real_t *res, fv_real_t *q0, fv_real_t *q, fv_idx_t c)
{
	for (int k = 0; k < nvar; k++) {
		size_t i = (size_t)k * nc + c, j = (size_t)k * no + c;
		if (rk_a == 0)
			q0[j] = q[i];
		q[i] = fv_k_rk(rk_a, rk_b, q0[j], q[i], r, res[j]);
	}
}

/* The time step's radius of cell c (state wc) through area vector s:
 * |u.S| + c|S|, and in a laminar run 4 times the viscous radius (Blazek
 * eq. 6.22, C = 4 for cell-centred schemes). */
FV_HD fv_real_t fv_k_radius(const fv_view_t *v, const fv_params_t *P, const fv_real_t *wc, fv_idx_t c,
			    const fv_real_t s[3])
{
	fv_real_t lam = fv_spectral_radius(wc, s, P->gamma);
	if (fv_k_viscous(P)) {
		fv_real_t mu = fv_viscosity(&P->visc, fv_temperature(wc, P->gamma));
		if (fv_k_sa(P))
			mu += fv_sa_mut(wc[0], wc[5], mu);
		lam += 4 * fv_visc_radius(&P->visc, P->gamma, mu, wc[0], s[0] * s[0] + s[1] * s[1] + s[2] * s[2],
					  v->cell_vol[c]);
	}
	return lam;
}

/* Spectral radius of cell c's state through face f (fv_k_radius). */
FV_HD fv_real_t fv_k_face_spectral(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, fv_idx_t c,
				   fv_idx_t f)
{
	fv_real_t wc[FV_NVAR_SA], s[3];
	fv_k_load_n(w, v->sc, c, wc, P->nvar);
	fv_k_face_vec(v->face_area, v->n_faces, f, s);
	return fv_k_radius(v, P, wc, c, s);
}

/* Spectral radius sum of an owned cell over its faces (gather). */
FV_HD fv_real_t fv_k_spectral(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, fv_idx_t c)
{
	fv_real_t wc[FV_NVAR_SA], lam = 0;
	fv_k_load_n(w, v->sc, c, wc, P->nvar);
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_real_t s[3];
		fv_k_face_vec(v->face_area, v->n_faces, v->cell_face[k], s);
		lam += fv_k_radius(v, P, wc, c, s);
	}
	return lam;
}

/* The factor of a stretched cell's time step (numerics.aspect_dt, runs
 * with line sweeps): a quarter of the mean of its two largest face areas
 * over its third largest (a hexahedron or prism dx long, dy high: about
 * dx / 4 dy), at least 1 (cells under 4:1, and cubes, tetrahedra), at most
 * P->aspect_dt. V over the radius sum is the thin side's step: at the
 * ceiling's CFL 1e4, the first cells of the TMR bump's 89 x 41 grid
 * (6500:1, Mach 0.2) moved the flow along the wall a fifth of a cell per
 * iteration, and 8 orders took about 500 iterations (92 with a factor of
 * at most 10, 80 with 1000; CFL 1e5 without it 90). The lines solve the
 * thin direction at once, but not the coupling between lines, which V/dt
 * keeps diagonally dominant: on the bump's finest grid with 1000 Roe's
 * blocks' sweeps diverged from CFL 10 on; and the TMR plate from a
 * laminar state took 203-407 iterations with 10 for 209. Off by default
 * (bench/results/2026-12-02-implicit10.md). */
FV_HD fv_real_t fv_k_aspect(const fv_view_t *v, const fv_params_t *P, fv_idx_t c)
{
	fv_real_t a1 = 0, a2 = 0, a3 = 0;
	if (!(P->aspect_dt > 1))
		return 1;
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_real_t s[3], a;
		fv_k_face_vec(v->face_area, v->n_faces, v->cell_face[k], s);
		a = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
		if (a > a1) {
			a3 = a2;
			a2 = a1;
			a1 = a;
		} else if (a > a2) {
			a3 = a2;
			a2 = a;
		} else if (a > a3)
			a3 = a;
	}
	fv_real_t g = (a1 + a2) / ((fv_real_t)8 * a3);
	return g > P->aspect_dt ? P->aspect_dt : g > 1 ? g : (fv_real_t)1;
}

/* Local time step of owned cell c from its spectral radius sum. */
FV_HD fv_real_t fv_k_dt(const fv_view_t *v, const fv_params_t *P, fv_real_t lam, fv_idx_t c)
{
	return P->cfl * v->cell_vol[c] / lam * fv_k_aspect(v, P, c);
}

/* A face of the block that touches an owned cell (faces between two
 * ghosts contribute nothing to a scatter into owned cells). */
FV_HD int fv_k_face_owned(const fv_view_t *v, fv_idx_t f, fv_idx_t *o, fv_idx_t *nb)
{
	*o = v->face_cell[2 * (size_t)f];
	*nb = v->face_cell[2 * (size_t)f + 1];
	return *o < v->n_owned || (*nb >= 0 && *nb < v->n_owned);
}

/*
 * Interior and border flux (numerics.overlap): a block with neighbours
 * computes its flux in two tasks, so that the bulk runs while the ghosts'
 * gradients and limiters travel. With the face store (any worker):
 *
 *   interior task: faces whose cells are both owned (or a boundary face of
 *                  an owned cell): their flux F_f into the face store
 *   border task:   faces between an owned cell and a ghost: their flux into
 *                  the store; then every face's stored flux summed into the
 *                  residual in the order of the one-task stage
 *
 * The sums keep the one-task order (face order, colour groups, or each
 * cell's face list), so the residual is bit for bit that of the single
 * flux task. The store holds fv_k_fflux_values rows of n_faces values.
 * A block whose tasks only run on GPUs sums straight into the residual
 * instead (flux_direct: no store to write and read back), with the
 * atomic strategy the interior faces then the border ones (atomic sums
 * have no fixed order anyway), with the gather strategy the cells with no
 * face beside a ghost then the others (the same sums as one task).
 */
FV_HD int fv_k_fflux_values(const fv_params_t *P)
{
	return fv_k_sa(P) ? FV_NFLUX : FV_NVAR;
}

/* Whether face f reads a ghost cell (the border task's faces). */
FV_HD int fv_k_face_border(const fv_view_t *v, fv_idx_t f)
{
	fv_idx_t o = v->face_cell[2 * (size_t)f], nb = v->face_cell[2 * (size_t)f + 1];
	return o >= v->n_owned || nb >= v->n_owned;
}

FV_HD void fv_k_fflux_store(const fv_params_t *P, fv_real_t *ff, fv_idx_t nf, fv_idx_t f, const fv_real_t F[FV_NFLUX])
{
	for (int q = 0; q < fv_k_fflux_values(P); q++)
		ff[(size_t)q * nf + f] = F[q];
}

FV_HD void fv_k_fflux_load(const fv_params_t *P, const fv_real_t *ff, fv_idx_t nf, fv_idx_t f, fv_real_t F[FV_NFLUX])
{
	F[5] = F[6] = 0;
	for (int q = 0; q < fv_k_fflux_values(P); q++)
		F[q] = ff[(size_t)q * nf + f];
}

/* Face f's flux into the store when it belongs to the part asked for
 * (border: touching a ghost; else interior); faces between two ghosts
 * have none. */
FV_HD void fv_k_face_flux_part(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			       const fv_real_t *phi, fv_real_t *ff, fv_idx_t f, int border)
{
	fv_idx_t o, nb;
	if (!fv_k_face_owned(v, f, &o, &nb) || fv_k_face_border(v, f) != border)
		return;
	fv_real_t F[FV_NFLUX];
	fv_k_face_flux(v, P, w, grad, phi, f, F);
	fv_k_fflux_store(P, ff, v->n_faces, f, F);
}

/* fv_k_face_add of face f's stored flux. */
FV_HD void fv_k_face_add_stored(const fv_view_t *v, const fv_params_t *P, const fv_real_t *ff, fv_real_t *res,
				fv_idx_t f, int atomic)
{
	fv_idx_t o, nb;
	if (!fv_k_face_owned(v, f, &o, &nb))
		return;
	fv_real_t F[FV_NFLUX];
	fv_k_fflux_load(P, ff, v->n_faces, f, F);
	fv_k_face_add(P, res, v->n_owned, v->so, o, nb, F, atomic);
}

/* Whether owned cell c has a face beside a ghost (flux_direct, gather). */
FV_HD int fv_k_cell_face_border(const fv_view_t *v, fv_idx_t c)
{
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++)
		if (fv_k_face_border(v, v->cell_face[k]))
			return 1;
	return 0;
}

/* flux_direct, atomic: face f's flux added into the residual when it is
 * in the part (border: beside a ghost). */
FV_HD void fv_k_face_flux_add_part(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w,
				   const fv_real_t *grad, const fv_real_t *phi, fv_real_t *res, fv_idx_t f, int border,
				   int atomic)
{
	fv_idx_t o, nb;
	if (!fv_k_face_owned(v, f, &o, &nb) || fv_k_face_border(v, f) != border)
		return;
	fv_real_t F[FV_NFLUX];
	fv_k_face_flux(v, P, w, grad, phi, f, F);
	fv_k_face_add(P, res, v->n_owned, v->so, o, nb, F, atomic);
}

/* fv_k_cell_flux_gather from the stored fluxes: the same sums. */
FV_HD void fv_k_cell_sum_stored(const fv_view_t *v, const fv_params_t *P, const fv_real_t *ff, fv_real_t *res,
				fv_idx_t c)
{
	fv_real_t r[FV_NVAR_SA] = {0, 0, 0, 0, 0, 0};
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_real_t F[FV_NFLUX];
		fv_k_fflux_load(P, ff, v->n_faces, v->cell_face[k], F);
		for (int q = 0; q < FV_NVAR; q++)
			r[q] += v->cell_face_sign[k] > 0 ? F[q] : -F[q];
		r[5] += v->cell_face_sign[k] > 0 ? F[5] : -F[6];
	}
	for (int q = 0; q < P->nvar; q++)
		res[(size_t)q * v->so + c] = r[q];
}

/*
 * The face-loop forms of the scatter stages (the papers' "-F" loops): each
 * face adds into its owned cells, with atomics (all faces at once on a GPU)
 * or plain adds (one CPU thread; the faces of one colour group). The target
 * is set before (fv_k_*_start, or zeroed) and finished after, per cell.
 */

/* GQ-F: face f's Green-Gauss term into the gradient sums of its cells
 * (grad zeroed; then fv_k_gradient_finish). */
FV_HD void fv_k_face_gradient(const fv_view_t *v, const fv_real_t *wn, fv_real_t *grad, fv_idx_t f, int atomic)
{
	fv_idx_t o, nb, no = v->n_owned;
	if (!fv_k_face_owned(v, f, &o, &nb))
		return;
	fv_real_t gf[FV_NVAR][3];
	fv_k_face_gg(v, wn, f, gf);
	for (int q = 0; q < FV_NVAR; q++)
		for (int d = 0; d < 3; d++) {
			size_t j = (size_t)(q * 3 + d) * v->sc;
			if (o < no)
				fv_k_add(&grad[j + o], gf[q][d], atomic);
			if (nb >= 0 && nb < no)
				fv_k_add(&grad[j + nb], -gf[q][d], atomic);
		}
}

/* LM-F: the min/max of owned cell c start at its own values. */
FV_HD void fv_k_minmax_start(const fv_view_t *v, const fv_real_t *w, fv_real_t *mm, fv_idx_t c)
{
	for (int q = 0; q < FV_NVAR; q++)
		mm[(size_t)q * v->so + c] = mm[(size_t)(FV_NVAR + q) * v->so + c] =
			w[(size_t)q * v->sc + c];
}

/* LM-F: interior face f brings each of its owned cells the other's values
 * (then fv_k_limiter_mm). */
FV_HD void fv_k_face_minmax(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, fv_real_t *mm, fv_idx_t f,
			    int atomic)
{
	fv_idx_t o, nb, no = v->n_owned, so = v->so, sc = v->sc;
	int q0, q1;
	if (!fv_k_face_owned(v, f, &o, &nb) || nb < 0)
		return;
	fv_k_limiter_vars(P, &q0, &q1);
	for (int q = q0; q < q1; q++) {
		if (o < no) {
			fv_real_t x = w[(size_t)q * sc + nb];
			fv_k_minmax(&mm[(size_t)q * so + o], x, 0, atomic);
			fv_k_minmax(&mm[(size_t)(FV_NVAR + q) * so + o], x, 1, atomic);
		}
		if (nb < no) {
			fv_real_t x = w[(size_t)q * sc + o];
			fv_k_minmax(&mm[(size_t)q * so + nb], x, 0, atomic);
			fv_k_minmax(&mm[(size_t)(FV_NVAR + q) * so + nb], x, 1, atomic);
		}
	}
}

/* Time step, face loop: each owned cell of face f adds the spectral radius
 * of its own state through f (dt zeroed; then dt = fv_k_dt(dt)). */
FV_HD void fv_k_face_spectral_add(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, fv_real_t *lam,
				  fv_idx_t f, int atomic)
{
	fv_idx_t o, nb, no = v->n_owned;
	if (!fv_k_face_owned(v, f, &o, &nb))
		return;
	if (o < no)
		fv_k_add(&lam[o], fv_k_face_spectral(v, P, w, o, f), atomic);
	if (nb >= 0 && nb < no)
		fv_k_add(&lam[nb], fv_k_face_spectral(v, P, w, nb, f), atomic);
}

/* NV-C: local cell c adds its values to its local nodes (wn zeroed; then
 * fv_k_node_finish). */
FV_HD void fv_k_cell_to_nodes(const fv_view_t *v, const fv_real_t *w, fv_real_t *wn, fv_idx_t c, int atomic)
{
	for (fv_idx_t k = v->cell_node_off[c]; k < v->cell_node_off[c + 1]; k++)
		for (int q = 0; q < FV_NVAR; q++)
			fv_k_add(&wn[fv_k_wn(v, v->cell_node[k], q)], w[(size_t)q * v->sc + c], atomic);
}

FV_HD void fv_k_node_finish(const fv_view_t *v, fv_real_t *wn, fv_idx_t node)
{
	fv_real_t n = (fv_real_t)(v->node_cell_off[node + 1] - v->node_cell_off[node]);
	for (int q = 0; q < FV_NVAR; q++)
		wn[fv_k_wn(v, node, q)] /= n;
}

#endif
