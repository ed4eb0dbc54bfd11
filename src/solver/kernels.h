/* SPDX-License-Identifier: MIT */
/* Loop bodies of the solver stages, one per cell, face or node, shared by
 * the CPU codelets (plain loops) and the CUDA codelets (one thread each).
 * Fields are SoA over the block's local cells: w[v * n_cells + c]. */
#ifndef FVSTAR_SOLVER_KERNELS_H
#define FVSTAR_SOLVER_KERNELS_H

#include "fvstar/types.h"
#include "physics/bc.h"
#include "physics/gas.h"
#include "physics/limiter.h"
#include "physics/roe.h"
#include "solver/view.h"

#ifdef __CUDACC__
#define FV_MIN(a, b) fmin((a), (b))
#define FV_MAX(a, b) fmax((a), (b))
#else
#define FV_MIN(a, b) ((a) < (b) ? (a) : (b))
#define FV_MAX(a, b) ((a) > (b) ? (a) : (b))
#endif

#define FV_NVAR 5

/* Scalars every stage may need; passed by value with each task. */
typedef struct fv_params {
	fv_real_t gamma;
	fv_real_t entropy_fix;
	fv_real_t cfl;
	fv_real_t limiter_k;
	int order;          /* 1 or 2 */
	int limiter;        /* 0 none, 1 Venkatakrishnan, 2 Barth-Jespersen */
	int limiter_all;    /* 1: per variable; 0: from pressure, for all */
	int steady;         /* local (1) or global (0) time step */
	int lsq;            /* gradient: 1 weighted least squares, 0 Green-Gauss */
	int flux_sum;       /* GPU flux summation: 0 atomic, 1 gather, 2 color, 3 auto */
	fv_real_t winf[FV_NVAR]; /* free stream, primitive */
	fv_real_t p_out;
	fv_real_t xref[3];  /* moment centre */
} fv_params_t;

FV_HD void fv_k_load(const fv_real_t *f, fv_idx_t n, fv_idx_t i, fv_real_t x[FV_NVAR])
{
	for (int v = 0; v < FV_NVAR; v++)
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

/* Node value: the plain average of the surrounding cells (as in the
 * papers' NV kernels); wn holds FV_NVAR values per local node. */
FV_HD void fv_k_node(const fv_view_t *v, const fv_real_t *w, fv_real_t *wn, fv_idx_t node)
{
	fv_real_t acc[FV_NVAR] = {0, 0, 0, 0, 0};
	fv_idx_t b = v->node_cell_off[node], e = v->node_cell_off[node + 1];
	for (fv_idx_t k = b; k < e; k++) {
		fv_idx_t c = v->node_cell[k];
		for (int q = 0; q < FV_NVAR; q++)
			acc[q] += w[(size_t)q * v->n_cells + c];
	}
	for (int q = 0; q < FV_NVAR; q++)
		wn[(size_t)q * v->n_nodes + node] = acc[q] / (fv_real_t)(e - b);
}

/* Node-based Green-Gauss gradient of an owned cell: the face value is the
 * mean of its node values. grad[(q * 3 + d) * n_cells + c]. */
FV_HD void fv_k_gradient(const fv_view_t *v, const fv_real_t *wn, fv_real_t *grad, fv_idx_t c)
{
	fv_real_t g[FV_NVAR][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_idx_t f = v->cell_face[k];
		fv_idx_t b = v->face_node_off[f], e = v->face_node_off[f + 1];
		fv_real_t s[3], sg = (fv_real_t)v->cell_face_sign[k] / (fv_real_t)(e - b);
		fv_k_face_vec(v->face_area, v->n_faces, f, s);
		for (int q = 0; q < FV_NVAR; q++) {
			fv_real_t sum = 0;
			for (fv_idx_t j = b; j < e; j++)
				sum += wn[(size_t)q * v->n_nodes + v->face_node[j]];
			for (int d = 0; d < 3; d++)
				g[q][d] += sg * sum * s[d];
		}
	}
	for (int q = 0; q < FV_NVAR; q++)
		for (int d = 0; d < 3; d++)
			grad[(size_t)(q * 3 + d) * v->n_cells + c] = g[q][d] / v->cell_vol[c];
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
		if (other < 0)
			continue;
		for (int q = 0; q < FV_NVAR; q++) {
			fv_real_t du = wt * (w[(size_t)q * v->n_cells + other] - w[(size_t)q * v->n_cells + c]);
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
		grad[(size_t)(q * 3) * v->n_cells + c] = g0;
		grad[(size_t)(q * 3 + 1) * v->n_cells + c] = g1;
		grad[(size_t)(q * 3 + 2) * v->n_cells + c] = g2;
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

/* Limiter of an owned cell from the min/max over its face neighbours. */
FV_HD void fv_k_limiter(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			fv_real_t *phi, fv_idx_t c)
{
	fv_real_t wc[FV_NVAR], wmin[FV_NVAR], wmax[FV_NVAR], lim[FV_NVAR] = {1, 1, 1, 1, 1};
	fv_real_t eps2 = fv_venkat_eps2(P->limiter_k, v->cell_vol[c]);
	int q0 = P->limiter_all ? 0 : 4, q1 = P->limiter_all ? FV_NVAR : 5;
	fv_k_load(w, v->n_cells, c, wc);
	for (int q = 0; q < FV_NVAR; q++)
		wmin[q] = wmax[q] = wc[q];
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_idx_t f = v->cell_face[k];
		fv_idx_t o = v->face_cell[2 * (size_t)f], nb = v->face_cell[2 * (size_t)f + 1];
		fv_idx_t other = o == c ? nb : o;
		if (other < 0)
			continue;
		for (int q = q0; q < q1; q++) {
			fv_real_t x = w[(size_t)q * v->n_cells + other];
			wmin[q] = FV_MIN(wmin[q], x);
			wmax[q] = FV_MAX(wmax[q], x);
		}
	}
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_real_t dx[3];
		fv_k_to_face(v, c, v->cell_face[k], dx);
		for (int q = q0; q < q1; q++) {
			fv_real_t d2 = fv_k_grad_dot(grad, v->n_cells, c, q, dx);
			fv_real_t p = P->limiter == 2 ? fv_barth(wmax[q] - wc[q], wmin[q] - wc[q], d2)
						      : fv_venkat(wmax[q] - wc[q], wmin[q] - wc[q], d2, eps2);
			lim[q] = FV_MIN(lim[q], p);
		}
	}
	for (int q = 0; q < FV_NVAR; q++)
		phi[(size_t)q * v->n_cells + c] = P->limiter_all ? lim[q] : lim[4];
}

/* The state of cell c extrapolated to face f (MUSCL, limited). */
FV_HD void fv_k_reconstruct(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			    const fv_real_t *phi, fv_idx_t c, fv_idx_t f, fv_real_t out[FV_NVAR])
{
	fv_k_load(w, v->n_cells, c, out);
	if (P->order < 2)
		return;
	fv_real_t dx[3], r[FV_NVAR];
	fv_k_to_face(v, c, f, dx);
	for (int q = 0; q < FV_NVAR; q++) {
		fv_real_t lim = P->limiter ? phi[(size_t)q * v->n_cells + c] : (fv_real_t)1;
		r[q] = out[q] + lim * fv_k_grad_dot(grad, v->n_cells, c, q, dx);
	}
	/* keep the first-order state where the extrapolation is not physical */
	if (r[0] > 0 && r[4] > 0)
		for (int q = 0; q < FV_NVAR; q++)
			out[q] = r[q];
}

/* Flux through local face f, from owner to neighbour (or out of the domain). */
FV_HD void fv_k_face_flux(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			  const fv_real_t *phi, fv_idx_t f, fv_real_t F[FV_NVAR])
{
	fv_idx_t o = v->face_cell[2 * (size_t)f], nb = v->face_cell[2 * (size_t)f + 1];
	fv_real_t s[3], wl[FV_NVAR], wr[FV_NVAR];
	fv_k_face_vec(v->face_area, v->n_faces, f, s);
	fv_k_reconstruct(v, P, w, grad, phi, o, f, wl);
	if (nb >= 0) {
		fv_k_reconstruct(v, P, w, grad, phi, nb, f, wr);
	} else {
		fv_real_t a = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]), n[3] = {s[0] / a, s[1] / a, s[2] / a};
		int kind = v->bface_bc[f];
		if (kind == FV_BC_SLIP_WALL) {
			fv_wall_flux(wl, s, F);
			return;
		}
		fv_bc_state(kind, wl, n, P->winf, P->p_out, P->gamma, wr);
	}
	fv_roe_flux(wl, wr, s, P->gamma, P->entropy_fix, F);
}

/* Adds face flux F to its owner's residual and subtracts it from its
 * neighbour's, for those that are owned cells (no < n_owned); plain adds:
 * for one thread per block, or faces of one colour group. */
FV_HD void fv_k_face_add(fv_real_t *res, fv_idx_t no, fv_idx_t o, fv_idx_t nb, const fv_real_t F[FV_NVAR])
{
	if (o < no)
		for (int q = 0; q < FV_NVAR; q++)
			res[(size_t)q * no + o] += F[q];
	if (nb >= 0 && nb < no)
		for (int q = 0; q < FV_NVAR; q++)
			res[(size_t)q * no + nb] -= F[q];
}

/* Residual of an owned cell from its own faces (gather, SF-C): each
 * interior face's flux is computed by both of its cells, no race. */
FV_HD void fv_k_cell_flux_gather(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
				 const fv_real_t *phi, fv_real_t *res, fv_idx_t c)
{
	fv_real_t r[FV_NVAR] = {0, 0, 0, 0, 0};
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_real_t F[FV_NVAR];
		fv_k_face_flux(v, P, w, grad, phi, v->cell_face[k], F);
		for (int q = 0; q < FV_NVAR; q++)
			r[q] += v->cell_face_sign[k] > 0 ? F[q] : -F[q];
	}
	for (int q = 0; q < FV_NVAR; q++)
		res[(size_t)q * v->n_owned + c] = r[q];
}

/* Pressure force (p - p_inf) S on boundary face f of the wall markers, with
 * the wall pressure the flux uses (owner state reconstructed to the face),
 * and its moment about P->xref; zero for any other face. S points out of
 * the fluid, so this is the force the fluid exerts on the body. */
FV_HD void fv_k_wall_force(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
			   const fv_real_t *phi, fv_idx_t f, fv_real_t F[3], fv_real_t M[3])
{
	F[0] = F[1] = F[2] = M[0] = M[1] = M[2] = 0;
	if (!v->bface_force[f])
		return;
	fv_real_t s[3], wl[FV_NVAR], r[3];
	fv_k_face_vec(v->face_area, v->n_faces, f, s);
	fv_k_reconstruct(v, P, w, grad, phi, v->face_cell[2 * (size_t)f], f, wl);
	for (int d = 0; d < 3; d++) {
		F[d] = (wl[4] - P->winf[4]) * s[d];
		r[d] = v->face_ctr[(size_t)d * v->n_faces + f] - P->xref[d];
	}
	M[0] = r[1] * F[2] - r[2] * F[1];
	M[1] = r[2] * F[0] - r[0] * F[2];
	M[2] = r[0] * F[1] - r[1] * F[0];
}

/* Spectral radius sum of an owned cell: sum over faces of (|u.S| + c|S|). */
FV_HD fv_real_t fv_k_spectral(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, fv_idx_t c)
{
	fv_real_t wc[FV_NVAR], lam = 0;
	fv_k_load(w, v->n_cells, c, wc);
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_real_t s[3];
		fv_k_face_vec(v->face_area, v->n_faces, v->cell_face[k], s);
		lam += fv_spectral_radius(wc, s, P->gamma);
	}
	return lam;
}

#endif
