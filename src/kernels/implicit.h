/* SPDX-License-Identifier: MIT */
/* Loop bodies of the implicit iteration (numerics.time = implicit), one per
 * owned cell, shared by the CPU and CUDA codelets of codelets/implicit: the
 * diagonal of the backward-Euler operator, the Gauss-Seidel update of one
 * cell from its neighbours' updates, and the state update. */
#ifndef FVSTAR_KERNELS_IMPLICIT_H
#define FVSTAR_KERNELS_IMPLICIT_H

#include "kernels/kernels.h"
#include "kernels/visc_jacobian.h"

/*
 * Backward Euler with the local step, linearised once per iteration:
 *
 *   (V/dt + dR/dq) dq = -R,   then q += dq,
 *
 * R the (second-order) residual of the flux stage, dR/dq its first-order
 * Jacobian with the Rusanov (local Lax-Friedrichs) split of each interior
 * face f between cell i and cell j, S_f pointing out of i, written as the
 * flux F_f = (F(q_i).S_f + F(q_j).S_f)/2 - M_f (q_j - q_i)/2 with a frozen
 * dissipation matrix M_f:
 *
 *   row i:  D_i dq_i + sum_f 1/2 (dF_j - M_f dq_j) = -R_i,
 *           dF_j = F(q_j + dq_j).S_f - F(q_j).S_f   (LU-SGS: matrix-free),
 *
 *   LU-SGS (Yoon & Jameson; PHengLEI): M_f = omega lam_j I, the Rusanov
 *     (local Lax-Friedrichs) split, lam_j = |u_j.S_f| + c_j |S_f| the
 *     spectral radius at j; the diagonal a scalar, D_i = V/dt + omega/2
 *     sum_f lam_i,f over all faces of i, boundary faces included (the sum
 *     of A_i.S_f over a closed cell vanishes);
 *   point-implicit: M_f = |A~_f| |S_f|, Roe's dissipation matrix at the Roe
 *     average of q_i and q_j (fv_roe_dissipation, the flux's entropy fix:
 *     the first-order Jacobian of the Roe flux with the averages frozen;
 *     numerics.jacobian = rusanov: M_f = max(lam_i, lam_j) I instead, more
 *     diagonal weight where the sweeps of Roe's blocks diverge),
 *     the off-diagonal product linear, dF_j - M_f dq_j = (A_j.S_f - M_f)
 *     dq_j, its 5x5 block O_f = 1/2 (A_j.S_f - M_f) stored per face of the
 *     cell, and the 5x5 block D_i = V/dt I + sum_interior 1/2 (A_i.S_f + M_f) +
 *     sum_boundary dF_b/dq_i, A the Euler flux Jacobian
 *     (fv_euler_jacobian) and dF_b/dq_i the Jacobian of the boundary
 *     condition's flux (fv_k_boundary_flux at the cell's state): exact for
 *     walls, symmetry and supersonic outflow, central finite differences
 *     for the others (fv_k_add_boundary_jacobian); stored as its LU factors (Doolittle, no pivoting: the block
 *     is dominated by V/dt + the dissipation on its diagonal), the
 *     reciprocals of U's diagonal in place.
 *
 * Boundary faces bring no off-diagonal term (their Jacobian is in D_i), nor
 * do ghost cells during a sweep: their dq is what the last halo exchange
 * brought (block Jacobi between blocks).
 *
 * The operator is stored by position in the colour groups (i, the index
 * into cell_group, whose groups are contiguous ranges), nv values per
 * position, interleaved by 8 positions (fv_op_at):
 *
 *   position i:  [i / 8][value m < nv][i % 8]
 *
 *   LU-SGS: nv = 1, the scalar diagonal;
 *   point:  nv = 25 (1 + max_faces): m < 25 D_i's LU factors, then for
 *           each face k of the cell's face list the 25 values of its O
 *           (zero at a boundary face).
 *
 * The threads of a GPU sweep handle consecutive positions, so each load of
 * a warp reads four runs of 8 consecutive values (whole 32-byte sectors);
 * a CPU task walks the positions in order, and the 8 positions of a run
 * share each 64-byte line, one stream in memory instead of nv. A sweep
 * reads per cell its blocks and its neighbours' dq: a block product per
 * face instead of two Euler fluxes, two conversions and a Roe dissipation
 * (bench/results/2026-11-25-implicit-m6.md).
 */

/* Spalart-Allmaras: nu~'s update is taken at this fraction, and its
 * source's derivative on nu~'s diagonal bounded below by -FV_SA_JAC_CAP
 * times the rest of it (fv_k_sa_operator). Taken whole, the update held a
 * few cells at the ends of the TMR bump's wall (where ft2 switches the
 * production on across chi ~ 1, a source that grows with nu~) in a cycle
 * 5 orders down; at half it fell 5 orders on its 45 x 21 grid in 250
 * iterations where whole it fell 3. The mean flow's update is whole. */
#define FV_SA_RELAX ((fv_real_t)0.5)
#define FV_SA_JAC_CAP ((fv_real_t)0.5)
#define FV_BLOCK 25
#define FV_OP_W 8
/* The stored operator is fv_op_t (kernels.h), single precision. */
/* Values per position: max_faces the most faces of an owned cell; with
 * Spalart-Allmaras (sa) nu~'s scalar diagonal and one scalar per face
 * follow (fv_k_sa_operator); with line-implicit sweeps (lines, point-
 * implicit only) the line's block Thomas factors last (fv_k_line_factor):
 * FV_LINE_VALUES, and 2 more of nu~'s with sa, each as two floats (its
 * high and low parts, fv_op_put2: the factors of a line of aspect ratio
 * 1e5 held in floats alone took the TMR plate from a laminar state 595
 * iterations for main's 209, the same answer). */
#define FV_LINE_VALUES (2 * FV_BLOCK)
FV_HD size_t fv_op_values(int implicit, int max_faces, int sa, int lines)
{
	size_t n = implicit == FV_IMPLICIT_POINT ? (size_t)FV_BLOCK * (size_t)(1 + max_faces) : 1;
	n += sa ? (size_t)(1 + max_faces) : 0;
	return n + (lines && implicit == FV_IMPLICIT_POINT ? 2 * ((size_t)FV_LINE_VALUES + (sa ? 2u : 0u)) : 0);
}
/* The first of nu~'s values (after the mean flow's) at position i. */
FV_HD size_t fv_op_sa(int implicit, int max_faces)
{
	return implicit == FV_IMPLICIT_POINT ? (size_t)FV_BLOCK * (size_t)(1 + max_faces) : 1;
}
/* The first of the line's factors at position i (after nu~'s). */
FV_HD size_t fv_op_line(int implicit, int max_faces, int sa)
{
	return fv_op_sa(implicit, max_faces) + (sa ? (size_t)(1 + max_faces) : 0);
}
/* Value q of a line's factors (F: the first) as two floats, high and low:
 * about 48 bits of x. */
FV_HD void fv_op_put2(fv_op_t *F, size_t q, fv_real_t x)
{
	fv_op_t h = (fv_op_t)x;
	F[2 * q * FV_OP_W] = h;
	F[(2 * q + 1) * FV_OP_W] = (fv_op_t)(x - (fv_real_t)h);
}
FV_HD fv_real_t fv_op_get2(const fv_op_t *F, size_t q)
{
	return (fv_real_t)F[2 * q * FV_OP_W] + (fv_real_t)F[(2 * q + 1) * FV_OP_W];
}
/* The values per position of the run P (fv_op_values). */
#define FV_OP_NV(P, v) fv_op_values((P)->implicit, (v)->max_faces, fv_k_sa(P), (P)->lines)
/* The first value of position i (value m is FV_OP_W * m further). */
FV_HD size_t fv_op_at(fv_idx_t i, size_t nv)
{
	return (size_t)(i / FV_OP_W) * nv * FV_OP_W + (size_t)(i % FV_OP_W);
}
/* The operator's length in fv_op_t for n_owned positions. */
static inline size_t fv_op_size(int implicit, int max_faces, int sa, int lines, fv_idx_t n_owned)
{
	return ((size_t)n_owned + FV_OP_W - 1) / FV_OP_W * FV_OP_W * fv_op_values(implicit, max_faces, sa, lines);
}

/* LU factors in place of a row-major 5x5 matrix (unit lower L below the
 * diagonal, U on and above it, U's diagonal stored as its reciprocals). */
FV_HD void fv_lu5_factor(fv_real_t a[25])
{
	for (int k = 0; k < 5; k++) {
		fv_real_t piv = (fv_real_t)1 / a[k * 5 + k];
		a[k * 5 + k] = piv;
		for (int i = k + 1; i < 5; i++) {
			fv_real_t l = a[i * 5 + k] * piv;
			a[i * 5 + k] = l;
			for (int j = k + 1; j < 5; j++)
				a[i * 5 + j] -= l * a[k * 5 + j];
		}
	}
}

/* x = A^-1 x from the factors of fv_lu5_factor. */
FV_HD void fv_lu5_solve(const fv_real_t lu[25], fv_real_t x[5])
{
	for (int i = 1; i < 5; i++)
		for (int j = 0; j < i; j++)
			x[i] -= lu[i * 5 + j] * x[j];
	for (int i = 4; i >= 0; i--) {
		for (int j = i + 1; j < 5; j++)
			x[i] -= lu[i * 5 + j] * x[j];
		x[i] *= lu[i * 5 + i];
	}
}

/* The cell across face k of owned cell c's face list (-1: boundary): one
 * load from the blob's cell_nbr instead of two dependent ones (cell_face,
 * face_cell) on a sweep's critical path. */
FV_HD fv_idx_t fv_k_nbr(const fv_view_t *v, fv_idx_t c, fv_idx_t k)
{
	(void)c;
	return v->cell_nbr[k];
}

/* The same, and the face's area vector pointing out of c. */
FV_HD fv_idx_t fv_k_across(const fv_view_t *v, fv_idx_t c, fv_idx_t k, fv_real_t s[3])
{
	fv_k_face_vec(v->face_area, v->n_faces, v->cell_face[k], s);
	if (v->cell_face_sign[k] < 0)
		for (int d = 0; d < 3; d++)
			s[d] = -s[d];
	return fv_k_nbr(v, c, k);
}

/* dp/dq at the primitive state w: ((g-1)|u|^2/2, -(g-1) u, g-1). */
FV_HD void fv_k_dp_dq(const fv_real_t w[FV_NVAR], fv_real_t gamma, fv_real_t dp[FV_NVAR])
{
	fv_real_t g1 = gamma - (fv_real_t)1;
	dp[0] = (fv_real_t)0.5 * g1 * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]);
	for (int d = 0; d < 3; d++)
		dp[1 + d] = -g1 * w[1 + d];
	dp[4] = g1;
}

/* The Jacobian of a boundary face's flux (fv_k_boundary_flux, kind `kind`,
 * area vector s) in the conservative state qc (primitive wc) of its cell,
 * added into the row-major block D. Exact where the flux is simple:
 *   slip wall: (0, p s, 0);
 *   symmetry: the Roe flux to the mirror state, (0, p* s, 0) with
 *     p* = p + rho un (un + c~), un = u.n, c~^2 = c^2 + (g-1) un^2/2 the
 *     Roe-averaged sound speed (bc.h);
 *   supersonic outflow: the Roe flux between equal states, F(w).s, whose
 *     Jacobian is fv_euler_jacobian;
 * the others (far field, supersonic inflow, pressure outlet) by central
 * differences, step h = cbrt(eps) (1 + |q_m|): truncation and round-off
 * both about eps^(2/3) of the entries (a one-sided sqrt(eps) step turned
 * the CPU's and the GPU's round-off differences of the flux into 1e-8 of
 * the block). */
FV_HD void fv_k_add_boundary_jacobian(const fv_params_t *P, int kind, const fv_real_t qc[FV_NVAR],
				      const fv_real_t wc[FV_NVAR], const fv_real_t s[3], fv_real_t D[25])
{
	fv_real_t g = P->gamma, dp[FV_NVAR];
	switch (kind) {
	case FV_BC_SLIP_WALL:
	case FV_BC_NOSLIP:
	case FV_BC_ISOTHERMAL:
		fv_k_dp_dq(wc, g, dp);
		for (int d = 0; d < 3; d++)
			for (int m = 0; m < FV_NVAR; m++)
				D[(1 + d) * 5 + m] += s[d] * dp[m];
		return;
	case FV_BC_SYMMETRY: {
		fv_real_t a = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]), rho = wc[0], ir = (fv_real_t)1 / rho;
		fv_real_t n[3] = {s[0] / a, s[1] / a, s[2] / a};
		fv_real_t un = wc[1] * n[0] + wc[2] * n[1] + wc[3] * n[2];
		fv_real_t c2 = g * wc[4] * ir, ct = FV_SQRT(c2 + (fv_real_t)0.5 * (g - (fv_real_t)1) * un * un);
		fv_real_t dun[FV_NVAR] = {-un * ir, n[0] * ir, n[1] * ir, n[2] * ir, 0}, dps[FV_NVAR];
		fv_k_dp_dq(wc, g, dp);
		for (int m = 0; m < FV_NVAR; m++) {
			/* 2 c~ dc~ = g dp / rho - c^2 drho / rho + (g - 1) un dun */
			fv_real_t dct = (g * dp[m] * ir - (m == 0 ? c2 * ir : (fv_real_t)0) + (g - (fv_real_t)1) * un * dun[m]) /
					((fv_real_t)2 * ct);
			dps[m] = dp[m] + (m == 0 ? un * (un + ct) : (fv_real_t)0) + rho * ((fv_real_t)2 * un + ct) * dun[m] +
				 rho * un * dct;
		}
		for (int d = 0; d < 3; d++)
			for (int m = 0; m < FV_NVAR; m++)
				D[(1 + d) * 5 + m] += s[d] * dps[m];
		return;
	}
	case FV_BC_SUPERSONIC_OUTFLOW: {
		fv_real_t A[25];
		fv_euler_jacobian(wc, s, g, A);
		for (int m = 0; m < 25; m++)
			D[m] += A[m];
		return;
	}
	default:
		break;
	}
	for (int m = 0; m < FV_NVAR; m++) {
		fv_real_t qp[FV_NVAR], qm[FV_NVAR], wp[FV_NVAR], wm[FV_NVAR], fp[FV_NVAR], fm[FV_NVAR];
		fv_real_t h = FV_CBRT((fv_real_t)FV_REAL_EPS) * ((fv_real_t)1 + FV_FABS(qc[m]));
		for (int k = 0; k < FV_NVAR; k++)
			qp[k] = qm[k] = qc[k];
		qp[m] += h;
		qm[m] -= h;
		fv_real_t ih = (fv_real_t)1 / (qp[m] - qm[m]); /* the step as represented */
		fv_cons_to_prim(qp, g, wp);
		fv_cons_to_prim(qm, g, wm);
		fv_k_boundary_flux(P, kind, wp, s, fp);
		fv_k_boundary_flux(P, kind, wm, s, fm);
		for (int r = 0; r < FV_NVAR; r++)
			D[r * 5 + m] += (fp[r] - fm[r]) * ih;
	}
}

/* The viscous part of the first-order Jacobian of face k of owned cell c
 * (area vector s out of c, neighbour j, -1 at a boundary face), a scalar
 * (thin-layer, as for the diagonal of LU-SGS): a * mu / rho |S| / len, a =
 * max(4/3, gamma / Pr), len the distance of the two centres (of the centre
 * to a wall); + on the diagonal of c, - on the block of j. Zero in
 * inviscid runs and at boundary faces other than no-slip walls. */
FV_HD fv_real_t fv_k_visc_jacobian(const fv_view_t *v, const fv_params_t *P, const fv_real_t wc[FV_NVAR],
				   const fv_real_t *q, fv_idx_t c, fv_idx_t k, fv_idx_t j, const fv_real_t s[3])
{
	if (!fv_k_viscous(P))
		return 0;
	fv_idx_t f = v->cell_face[k];
	fv_real_t a = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]), len = 0;
	fv_real_t T = fv_temperature(wc, P->gamma), rho = wc[0];
	if (j < 0) {
		if (!fv_bc_is_noslip(v->bface_bc[f]))
			return 0;
		for (int d = 0; d < 3; d++)
			len += (v->face_ctr[(size_t)d * v->n_faces + f] - v->cell_ctr[(size_t)d * v->n_cells + c]) * s[d] / a;
		len = FV_FABS(len);
	} else {
		fv_real_t qj[FV_NVAR], wj[FV_NVAR];
		fv_k_load(q, v->sc, j, qj);
		fv_cons_to_prim(qj, P->gamma, wj);
		T = (fv_real_t)0.5 * (T + fv_temperature(wj, P->gamma));
		rho = (fv_real_t)0.5 * (rho + wj[0]);
		for (int d = 0; d < 3; d++) {
			fv_real_t x = v->cell_ctr[(size_t)d * v->n_cells + j] - v->cell_ctr[(size_t)d * v->n_cells + c];
			len += x * x;
		}
		len = FV_SQRT(len);
	}
	fv_real_t mu = fv_viscosity(&P->visc, T);
	/* the eddy viscosity of the cell (a wall's face has none) and of j */
	if (fv_k_sa(P) && j >= 0) {
		const size_t nc = (size_t)v->sc;
		mu += (fv_real_t)0.5 * (fv_sa_mut(wc[0], q[5 * nc + c] / wc[0], mu) + fv_sa_mut(q[j], q[5 * nc + j] / q[j], mu));
	}
	return fv_visc_radius(&P->visc, P->gamma, mu, rho, a * a, a * len);
}

/* The derivatives of nu~'s diffusive flux out of cell c through a face
 * (fv_k_sa_face, from c's side: -coef dn + cb2/sigma rho_c nu~_c dn, dn =
 * (nu~_j - nu~_c) K, K = |S| / len, coef = rho_f (nu_f + (1 + cb2)
 * nu~_f) / sigma) by rho nu~ of c (*dc) and of j (*dj), coef's own
 * dependence on nu~ included: with nu~ >= 0 they are K rho_f / rho_c
 * (nu + 0.378 nu~_c + 0.622 nu~_j) / sigma and -K (nu + 1.622 nu~_j -
 * 0.622 nu~_c) / sigma (for rho_f = rho_c = rho_j), where a coefficient
 * K (rho nu + 1.622 rho nu~_f) / sigma on both, as thin-layer diffusion
 * with the cb2 term left out, was half the true coupling to a neighbour
 * with four times the nu~ (the wall's first cells) and held the TMR
 * bump's nu~ in an irregular cycle once the sweeps solved exactly. Kept
 * an M-matrix (*dc >= 0, *dj <= 0) where cb2's term would turn a sign. */
FV_HD void fv_k_sa_diffusion_jac(const fv_params_t *P, const fv_real_t qc[FV_NVAR], const fv_real_t wc[FV_NVAR],
				 const fv_real_t qj[FV_NVAR], const fv_real_t wj[FV_NVAR], fv_real_t nc_, fv_real_t nj,
				 fv_real_t K, fv_real_t *dc, fv_real_t *dj)
{
	const fv_real_t half = (fv_real_t)0.5, cb = FV_SA_CB2 / FV_SA_SIGMA;
	fv_real_t mu_c = fv_viscosity(&P->visc, fv_temperature(wc, P->gamma));
	fv_real_t mu_j = fv_viscosity(&P->visc, fv_temperature(wj, P->gamma));
	fv_real_t rc = qc[0], rf = half * (rc + qj[0]), nuf = half * (mu_c / rc + mu_j / qj[0]);
	fv_real_t avg = half * (nc_ + nj), ntf = fv_sa_diff_nut(avg, nuf);
	fv_real_t coef = rf * (nuf + ((fv_real_t)1 + FV_SA_CB2) * ntf) / FV_SA_SIGMA;
	/* slopes of fn's nu~ (1 for nu~ >= 0; the secant below) */
	fv_real_t sf = avg >= 0 ? (fv_real_t)1 : ntf / avg;
	fv_real_t ec = fv_sa_diff_nut(nc_, mu_c / rc), sc = nc_ >= 0 ? (fv_real_t)1 : ec / nc_;
	fv_real_t cfd = half * rf * ((fv_real_t)1 + FV_SA_CB2) / FV_SA_SIGMA * sf, dn = (nj - nc_) * K;
	fv_real_t a = coef * K - cfd * dn + cb * rc * sc * dn - cb * rc * ec * K;
	fv_real_t b = -coef * K - cfd * dn + cb * rc * ec * K;
	*dc = (a > 0 ? a : (fv_real_t)0) / rc;
	*dj = (b < 0 ? b : (fv_real_t)0) / qj[0];
}

/* nu~'s first-order implicit operator at owned cell c (conservative
 * states q), a scalar per face (thin-layer, matrix-free quantities frozen):
 * the diagonal V/dt + sum over faces of the upwind outflow mf/rho_c and the
 * diffusion's derivative (fv_k_sa_diffusion_jac), plus
 * V fv_sa_source_jac (the source's whole derivative, bounded below by
 * FV_SA_JAC_CAP); off the diagonal, per face, the inflow mf/rho_j (<= 0)
 * and the diffusion's derivative (fv_k_sa_diffusion_jac). Stored after the
 * mean flow's values at position i (op: that position). No extra factor
 * on the diagonal: doubling it (to damp a period-2 cycle that a Jacobian
 * with fw = 1 caused on the TMR plate) doubled the diffusion part too, so
 * that nu~'s smooth modes, where the diffusion cancels, moved at half speed
 * or less. */
FV_HD void fv_k_sa_operator(const fv_view_t *v, const fv_params_t *P, const fv_real_t *q, fv_real_t vdt,
			    fv_op_t *op, fv_idx_t c)
{
	const size_t nc = (size_t)v->n_cells, sc = (size_t)v->sc;
	fv_real_t qc[FV_NVAR], wc[FV_NVAR];
	fv_k_load(q, (fv_idx_t)sc, c, qc);
	fv_cons_to_prim(qc, P->gamma, wc);
	fv_real_t nut = q[5 * sc + c] / qc[0], mu = fv_viscosity(&P->visc, fv_temperature(wc, P->gamma));
	fv_real_t D = vdt;
	op += fv_op_sa(P->implicit, v->max_faces) * FV_OP_W;
	fv_idx_t k0 = v->cell_face_off[c];
	for (fv_idx_t k = k0; k < v->cell_face_off[c + 1]; k++) {
		fv_real_t s[3], a, len = 0, off = 0;
		fv_idx_t j = fv_k_across(v, c, k, s), f = v->cell_face[k];
		a = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
		if (j < 0) {
			if (fv_bc_is_noslip(v->bface_bc[f])) {
				for (int e = 0; e < 3; e++)
					len += (v->face_ctr[(size_t)e * v->n_faces + f] - v->cell_ctr[(size_t)e * nc + c]) * s[e] / a;
				D += mu / FV_SA_SIGMA * a / (FV_FABS(len) * qc[0]);
			} else {
				fv_real_t mf = qc[1] * s[0] + qc[2] * s[1] + qc[3] * s[2];
				if (mf > 0)
					D += mf / qc[0];
			}
		} else {
			fv_real_t qj[FV_NVAR], wj[FV_NVAR];
			fv_k_load(q, (fv_idx_t)sc, j, qj);
			fv_cons_to_prim(qj, P->gamma, wj);
			fv_real_t mf = (fv_real_t)0.5 * ((qc[1] + qj[1]) * s[0] + (qc[2] + qj[2]) * s[1] + (qc[3] + qj[3]) * s[2]);
			for (int e = 0; e < 3; e++) {
				fv_real_t x = v->cell_ctr[(size_t)e * nc + j] - v->cell_ctr[(size_t)e * nc + c];
				len += x * x;
			}
			len = FV_SQRT(len);
			fv_real_t dc, dj;
			fv_k_sa_diffusion_jac(P, qc, wc, qj, wj, nut, q[5 * sc + j] / qj[0], a / len, &dc, &dj);
			D += (mf > 0 ? mf : 0) / qc[0] + dc;
			off = (mf < 0 ? mf : 0) / qj[0] + dj;
		}
		op[(size_t)(1 + k - k0) * FV_OP_W] = (fv_op_t)off;
	}
	/* the source's derivative bounded below by -FV_SA_JAC_CAP times the
	 * rest of the diagonal: exact where the production does not dominate,
	 * and still a diagonal that the sweeps can divide by */
	fv_real_t src = v->cell_vol[c] * fv_sa_source_jac(mu / qc[0], nut, fv_k_face_vorticity(v, q, 1, c), v->cell_wdist[c]);
	D += src > -FV_SA_JAC_CAP * D ? src : -FV_SA_JAC_CAP * D;
	op[0] = (fv_op_t)D;
}

/*
 * numerics.dominance: a per-cell limit of the CFL where point Gauss-Seidel
 * would lose diagonal dominance. G = the largest row sum of the magnitudes
 * of D^-1 O_k over the cell's faces k (D its diagonal block with vdt, O_k
 * its faces' blocks, already in op: the block Jacobi iteration's row of
 * the cell, which a converging sweep keeps below about 1); while G exceeds
 * theta = P->dominance, vdt doubles (the cell's local step halves), at
 * most FV_DOM_STEPS times. Cells already so keep the ramp's step. 0: off.
 */
#define FV_DOM_STEPS 12
FV_HD void fv_k_dominance(const fv_view_t *v, const fv_params_t *P, fv_real_t vdt, const fv_op_t *op, fv_idx_t c,
			  fv_real_t D[FV_BLOCK])
{
	if (!(P->dominance > 0))
		return;
	fv_idx_t k0 = v->cell_face_off[c], k1 = v->cell_face_off[c + 1];
	fv_real_t add = vdt > 0 ? vdt : (fv_real_t)1e-30;
	for (int t = 0; t < FV_DOM_STEPS; t++) {
		fv_real_t L[FV_BLOCK], row[FV_NVAR] = {0, 0, 0, 0, 0}, g = 0;
		for (int m = 0; m < FV_BLOCK; m++)
			L[m] = D[m];
		fv_lu5_factor(L);
		for (fv_idx_t k = k0; k < k1; k++) {
			const fv_op_t *O = op + (size_t)(1 + k - k0) * FV_BLOCK * FV_OP_W;
			for (int col = 0; col < FV_NVAR; col++) {
				fv_real_t x[FV_NVAR];
				for (int r = 0; r < FV_NVAR; r++)
					x[r] = (fv_real_t)O[(r * 5 + col) * FV_OP_W];
				fv_lu5_solve(L, x);
				for (int r = 0; r < FV_NVAR; r++)
					row[r] += FV_FABS(x[r]);
			}
		}
		for (int r = 0; r < FV_NVAR; r++)
			g = row[r] > g ? row[r] : g;
		if (!(g > P->dominance))
			return;
		for (int r = 0; r < FV_NVAR; r++)
			D[r * 6] += add;
		add *= 2;
	}
}

/* Cell c's factor of its local step (numerics.cell_cfl): the state's row
 * nvar, which fv_k_implicit_update cuts and grows; 1 where off. */
FV_HD fv_real_t fv_k_cell_cfl(const fv_view_t *v, const fv_params_t *P, const fv_real_t *q, fv_idx_t c)
{
	return P->cell_cfl > 0 ? q[(size_t)P->nvar * v->sc + c] : (fv_real_t)1;
}

/* The operator of the owned cell at colour-group position i (c =
 * cell_group[i]) from the state q (local cells) and the local step dt
 * (times the cell's factor, fv_k_cell_cfl), stored as the layout above
 * says. */
FV_HD void fv_k_diagonal(const fv_view_t *v, const fv_params_t *P, const fv_real_t *q, const fv_real_t *dt,
			 fv_op_t *op, fv_idx_t i)
{
	fv_real_t qc[FV_NVAR], wc[FV_NVAR], s[3];
	const fv_real_t half = (fv_real_t)0.5;
	fv_idx_t c = v->cell_group[i];
	op += fv_op_at(i, FV_OP_NV(P, v));
	fv_k_load(q, v->sc, c, qc);
	fv_cons_to_prim(qc, P->gamma, wc);
	fv_real_t vdt = v->cell_vol[c] / (dt[c] * fv_k_cell_cfl(v, P, q, c));
	if (P->implicit != FV_IMPLICIT_POINT) {
		fv_real_t lam = 0;
		fv_real_t vis = 0;
		for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
			fv_idx_t j = fv_k_across(v, c, k, s);
			lam += fv_spectral_radius(wc, s, P->gamma);
			vis += fv_k_visc_jacobian(v, P, wc, q, c, k, j, s);
		}
		op[0] = (fv_op_t)(vdt + half * P->omega * lam + vis);
		if (fv_k_sa(P))
			fv_k_sa_operator(v, P, q, vdt, op, c);
		return;
	}
	fv_real_t D[FV_BLOCK];
	for (int m = 0; m < FV_BLOCK; m++)
		D[m] = m % 6 == 0 ? vdt : (fv_real_t)0;
	fv_idx_t k0 = v->cell_face_off[c];
	for (fv_idx_t k = k0; k < v->cell_face_off[c + 1]; k++) {
		fv_op_t *O = op + (size_t)(1 + k - k0) * FV_BLOCK * FV_OP_W;
		fv_idx_t j = fv_k_across(v, c, k, s);
		fv_real_t Bc[FV_BLOCK], Bj[FV_BLOCK];
		int vis = fv_k_visc_blocks(v, P, q, wc, c, k, j, s, Bc, Bj);
		for (int m = 0; vis && m < FV_BLOCK; m++)
			D[m] += Bc[m];
		if (j < 0) {
			fv_k_add_boundary_jacobian(P, v->bface_bc[v->cell_face[k]], qc, wc, s, D);
			for (int m = 0; m < FV_BLOCK; m++)
				O[m * FV_OP_W] = 0;
			continue;
		}
		fv_real_t A[FV_BLOCK], Aj[FV_BLOCK], qj[FV_NVAR], wj[FV_NVAR];
		fv_k_load(q, v->sc, j, qj);
		fv_cons_to_prim(qj, P->gamma, wj);
		fv_euler_jacobian(wc, s, P->gamma, A);
		fv_euler_jacobian(wj, s, P->gamma, Aj);
		/* |A~| (or lambda I) column by column: into D with +, into O with - */
		fv_roe_matrix_t rm;
		fv_real_t lam = 0;
		memset(&rm, 0, sizeof rm);
		if (P->jac_rusanov)
			lam = FV_MAX(fv_spectral_radius(wc, s, P->gamma), fv_spectral_radius(wj, s, P->gamma));
		else {
			fv_roe_matrix(wc, wj, s, P->gamma, P->entropy_fix, &rm);
			if (P->jac_floor > 0)
				fv_roe_matrix_floor(&rm, P->jac_floor);
		}
		for (int col = 0; col < FV_NVAR; col++) {
			fv_real_t e[FV_NVAR] = {0, 0, 0, 0, 0}, mcol[FV_NVAR];
			e[col] = 1;
			if (P->jac_rusanov)
				for (int r = 0; r < FV_NVAR; r++)
					mcol[r] = lam * e[r];
			else
				fv_roe_matrix_apply(&rm, P->gamma, e, mcol);
			for (int r = 0; r < FV_NVAR; r++) {
				D[r * 5 + col] += half * (A[r * 5 + col] + mcol[r]);
				O[(r * 5 + col) * FV_OP_W] =
					(fv_op_t)(half * (Aj[r * 5 + col] - mcol[r]) - (vis ? Bj[r * 5 + col] : (fv_real_t)0));
			}
		}
	}
	fv_k_dominance(v, P, vdt, op, c, D);
	fv_lu5_factor(D);
	for (int m = 0; m < FV_BLOCK; m++)
		op[m * FV_OP_W] = (fv_op_t)D[m];
	if (fv_k_sa(P))
		fv_k_sa_operator(v, P, q, vdt, op, c);
}

/* nu~'s Gauss-Seidel update of owned cell c (op: its position). */
FV_HD void fv_k_sa_sweep(const fv_view_t *v, const fv_params_t *P, const fv_real_t *res, const fv_op_t *op,
			 fv_real_t *dq, fv_idx_t c)
{
	const size_t nc = (size_t)v->sc;
	op += fv_op_sa(P->implicit, v->max_faces) * FV_OP_W;
	fv_real_t r = -res[(size_t)5 * v->so + c];
	fv_idx_t k0 = v->cell_face_off[c];
	for (fv_idx_t k = k0; k < v->cell_face_off[c + 1]; k++) {
		fv_idx_t j = fv_k_nbr(v, c, k);
		if (j >= 0)
			r -= (fv_real_t)op[(size_t)(1 + k - k0) * FV_OP_W] * dq[5 * nc + j];
	}
	dq[5 * nc + c] = r / (fv_real_t)op[0];
}

/* acc = O x_j, O the block of face k (of the cell's list) of the operator
 * op at a position, x over the local cells (stride nc): five independent
 * sums, each over the columns in order (the sweeps and the Krylov
 * product alike). */
FV_HD void fv_k_face_product(const fv_op_t *op, fv_idx_t k, const fv_real_t *x, fv_idx_t nc, fv_idx_t j,
			     fv_real_t acc[FV_NVAR])
{
	fv_real_t xj[FV_NVAR];
	const fv_op_t *O = op + (size_t)(1 + k) * FV_BLOCK * FV_OP_W;
	fv_k_load(x, nc, j, xj);
	for (int rr = 0; rr < FV_NVAR; rr++)
		acc[rr] = 0;
	for (int m = 0; m < FV_NVAR; m++)
		for (int rr = 0; rr < FV_NVAR; rr++)
			acc[rr] += (fv_real_t)O[(rr * 5 + m) * FV_OP_W] * xj[m];
}

/* r += sgn sum_f O_f x_j over the interior faces of owned cell c (op:
 * its position's operator; sgn -1 or 1, exact either way). */
FV_HD void fv_k_offdiag_add(const fv_view_t *v, const fv_op_t *op, const fv_real_t *x, fv_idx_t c, fv_real_t sgn,
			    fv_real_t r[FV_NVAR])
{
	const fv_idx_t k0 = v->cell_face_off[c];
	for (fv_idx_t k = k0; k < v->cell_face_off[c + 1]; k++) {
		fv_idx_t j = fv_k_nbr(v, c, k);
		if (j < 0)
			continue;
		fv_real_t acc[FV_NVAR];
		fv_k_face_product(op, k - k0, x, v->sc, j, acc);
		for (int rr = 0; rr < FV_NVAR; rr++)
			r[rr] += sgn * acc[rr];
	}
}

/* The Gauss-Seidel value of the mean flow's dq_c at colour-group position
 * i (op: that position's operator) into r: from -R_c and the current dq of
 * its neighbours (dq over the local cells, ghosts included). LU-SGS
 * applies the Rusanov split matrix-free (from q); point-implicit the
 * stored blocks. */
FV_HD void fv_k_sweep_value(const fv_view_t *v, const fv_params_t *P, const fv_real_t *q, const fv_real_t *res,
			    const fv_op_t *op, const fv_real_t *dq, fv_idx_t i, fv_real_t r[FV_NVAR])
{
	const fv_real_t half = (fv_real_t)0.5;
	fv_idx_t no = v->so, nc = v->sc, c = v->cell_group[i];
	for (int m = 0; m < FV_NVAR; m++)
		r[m] = -res[(size_t)m * no + c];
	fv_idx_t k0 = v->cell_face_off[c];
	if (P->implicit == FV_IMPLICIT_POINT) {
		fv_k_offdiag_add(v, op, dq, c, -1, r);
		fv_real_t D[FV_BLOCK];
		for (int m = 0; m < FV_BLOCK; m++)
			D[m] = (fv_real_t)op[m * FV_OP_W];
		fv_lu5_solve(D, r);
		return;
	}
	for (fv_idx_t k = k0; k < v->cell_face_off[c + 1]; k++) {
		fv_real_t s[3], qj[FV_NVAR], dqj[FV_NVAR], q1[FV_NVAR], w0[FV_NVAR], w1[FV_NVAR], f0[FV_NVAR], f1[FV_NVAR];
		fv_idx_t j = fv_k_across(v, c, k, s);
		if (j < 0)
			continue;
		fv_k_load(q, nc, j, qj);
		fv_k_load(dq, nc, j, dqj);
		for (int m = 0; m < FV_NVAR; m++)
			q1[m] = qj[m] + dqj[m];
		fv_cons_to_prim(qj, P->gamma, w0);
		fv_cons_to_prim(q1, P->gamma, w1);
		fv_euler_flux(w0, s, P->gamma, f0);
		fv_euler_flux(w1, s, P->gamma, f1);
		fv_real_t lam = P->omega * fv_spectral_radius(w0, s, P->gamma);
		fv_real_t vis = 0;
		if (fv_k_viscous(P)) {
			fv_real_t qc[FV_NVAR], wc[FV_NVAR];
			fv_k_load(q, nc, c, qc);
			fv_cons_to_prim(qc, P->gamma, wc);
			vis = fv_k_visc_jacobian(v, P, wc, q, c, k, j, s);
		}
		for (int m = 0; m < FV_NVAR; m++)
			r[m] -= half * (f1[m] - f0[m] - lam * dqj[m]) - vis * dqj[m];
	}
	fv_real_t id = (fv_real_t)1 / (fv_real_t)op[0];
	for (int m = 0; m < FV_NVAR; m++)
		r[m] *= id;
}

/* D from its factors (fv_lu5_factor: unit L below the diagonal, U on and
 * above it with its diagonal's reciprocals). */
FV_HD void fv_lu5_unfactor(const fv_op_t *op, fv_real_t D[25])
{
	fv_real_t lu[25];
	for (int m = 0; m < 25; m++)
		lu[m] = (fv_real_t)op[m * FV_OP_W];
	for (int r = 0; r < 5; r++)
		for (int c = 0; c < 5; c++) {
			fv_real_t x = 0;
			for (int k = 0; k <= (r < c ? r : c); k++) {
				fv_real_t l = k == r ? (fv_real_t)1 : lu[r * 5 + k];
				fv_real_t u = k == c ? (fv_real_t)1 / lu[k * 5 + k] : lu[k * 5 + c];
				x += l * u;
			}
			D[r * 5 + c] = x;
		}
}

/*
 * The line of len cells starting at colour-group position i0 (numerics.
 * lines, src/order/lines.c), solved at once: row m of the line,
 *
 *   A_m dq_m-1 + D_m dq_m + C_m dq_m+1 = -R_m - sum_other O dq_j = r_m,
 *
 * A_m and C_m the stored blocks of the faces to the line's previous and
 * next cells, the other neighbours' dq as the sweep has them; block Thomas:
 * D'_m = D_m - A_m G_m-1, G_m = D'_m^-1 C_m (the line's factors: they
 * depend on the operator only, so fv_k_line_factor makes them once per
 * iteration, after the diagonal, into the position's last values), then
 * per sweep y_m = D'_m^-1 (r_m - A_m y_m-1) forwards and dq_m = y_m - G_m
 * dq_m+1 backwards, y_m kept in dq_m (no cell of another line of the
 * colour group is a neighbour, so none reads it). No per-line scratch:
 * a line may be of any length (a GPU thread's local memory held 64 cells'
 * G when the sweep factored the line itself, and the TMR bump's finest
 * grid's 640-cell columns were cut into ten lines). nu~'s scalar rows the
 * same way with its own operator.
 */

/* The blocks of the faces of the cell at position i (op: its operator)
 * to the cells prev and next of its line (NULL where none), with nu~'s
 * scalars (*as, *cs); r (and *rs) less the products of the other faces'
 * blocks with their cells' dq. */
FV_HD void fv_k_line_row(const fv_view_t *v, const fv_params_t *P, const fv_op_t *op, const fv_real_t *dq, fv_idx_t i,
			 fv_idx_t prev, fv_idx_t next, const fv_op_t **A, const fv_op_t **C, fv_real_t *as, fv_real_t *cs,
			 fv_real_t r[FV_NVAR], fv_real_t *rs)
{
	const fv_idx_t nc = v->sc, c = v->cell_group[i], k0 = v->cell_face_off[c];
	const int sa = fv_k_sa(P);
	const size_t sa0 = fv_op_sa(P->implicit, v->max_faces);
	*A = *C = 0;
	*as = *cs = 0;
	for (fv_idx_t k = k0; k < v->cell_face_off[c + 1]; k++) {
		fv_idx_t j = fv_k_nbr(v, c, k);
		const fv_op_t *O = op + (size_t)(1 + k - k0) * FV_BLOCK * FV_OP_W;
		fv_real_t os = sa ? (fv_real_t)op[(sa0 + (size_t)(1 + k - k0)) * FV_OP_W] : (fv_real_t)0;
		if (j < 0)
			continue;
		if (j == prev) {
			*A = O;
			*as = os;
			continue;
		}
		if (j == next) {
			*C = O;
			*cs = os;
			continue;
		}
		if (!r)
			continue;
		fv_real_t dqj[FV_NVAR];
		fv_k_load(dq, nc, j, dqj);
		for (int rr = 0; rr < FV_NVAR; rr++)
			for (int q = 0; q < FV_NVAR; q++)
				r[rr] -= (fv_real_t)O[(rr * 5 + q) * FV_OP_W] * dqj[q];
		if (sa) /* a mean-flow dq holds 5 rows: the 6th is past its end */
			*rs -= os * dq[(size_t)5 * nc + j];
	}
}

/* The factors of the line of len cells at position i0 (the block Thomas
 * forward elimination of the operator alone), into each position's line
 * values (fv_op_line): D'_m's LU factors (fv_lu5_factor), then G_m
 * (row-major; zero at the line's last cell), then nu~'s d'_m and g_m. */
FV_HD void fv_k_line_factor(const fv_view_t *v, const fv_params_t *P, fv_op_t *op0, fv_idx_t i0, fv_idx_t len)
{
	const size_t nv = FV_OP_NV(P, v), sa0 = fv_op_sa(P->implicit, v->max_faces);
	const size_t l0 = fv_op_line(P->implicit, v->max_faces, fv_k_sa(P));
	const int sa = fv_k_sa(P);
	for (fv_idx_t m = 0; m < len; m++) {
		fv_idx_t i = i0 + m;
		fv_idx_t prev = m > 0 ? v->cell_group[i - 1] : -1, next = m + 1 < len ? v->cell_group[i + 1] : -1;
		fv_op_t *op = op0 + fv_op_at(i, nv), *F = op + l0 * FV_OP_W;
		const fv_op_t *A, *C, *Fp = m > 0 ? op0 + fv_op_at(i - 1, nv) + l0 * FV_OP_W : 0;
		fv_real_t D[FV_BLOCK], as, cs;
		fv_k_line_row(v, P, op, 0, i, prev, next, &A, &C, &as, &cs, 0, 0);
		fv_lu5_unfactor(op, D);
		if (m > 0) /* D -= A G_m-1 */
			for (int rr = 0; rr < 5; rr++)
				for (int cc = 0; cc < 5; cc++) {
					fv_real_t x = 0;
					for (int k = 0; k < 5; k++)
						x += (fv_real_t)A[(rr * 5 + k) * FV_OP_W] * fv_op_get2(Fp, (size_t)(FV_BLOCK + k * 5 + cc));
					D[rr * 5 + cc] -= x;
				}
		fv_lu5_factor(D);
		for (int q = 0; q < FV_BLOCK; q++)
			fv_op_put2(F, (size_t)q, D[q]);
		for (int cc = 0; cc < 5; cc++) {
			fv_real_t col[5];
			for (int rr = 0; rr < 5; rr++)
				col[rr] = C ? (fv_real_t)C[(rr * 5 + cc) * FV_OP_W] : (fv_real_t)0;
			fv_lu5_solve(D, col);
			for (int rr = 0; rr < 5; rr++)
				fv_op_put2(F, (size_t)(FV_BLOCK + rr * 5 + cc), col[rr]);
		}
		if (sa) {
			fv_real_t ds = (fv_real_t)op[sa0 * FV_OP_W];
			if (m > 0)
				ds -= as * fv_op_get2(Fp, FV_LINE_VALUES + 1);
			fv_op_put2(F, FV_LINE_VALUES, ds);
			fv_op_put2(F, FV_LINE_VALUES + 1, next >= 0 ? cs / ds : (fv_real_t)0);
		}
	}
}

/* One sweep's solve of the line of len cells at position i0 from the
 * factors of fv_k_line_factor. */
FV_HD void fv_k_sweep_line(const fv_view_t *v, const fv_params_t *P, const fv_real_t *res, const fv_op_t *op0,
			   fv_real_t *dq, fv_idx_t i0, fv_idx_t len)
{
	const size_t nv = FV_OP_NV(P, v), l0 = fv_op_line(P->implicit, v->max_faces, fv_k_sa(P));
	const fv_idx_t no = v->so, nc = v->sc;
	const int sa = fv_k_sa(P);
	for (fv_idx_t m = 0; m < len; m++) {
		fv_idx_t i = i0 + m, c = v->cell_group[i];
		fv_idx_t prev = m > 0 ? v->cell_group[i - 1] : -1, next = m + 1 < len ? v->cell_group[i + 1] : -1;
		const fv_op_t *op = op0 + fv_op_at(i, nv), *F = op + l0 * FV_OP_W, *A, *C;
		fv_real_t r[FV_NVAR], D[FV_BLOCK], rs = sa ? -res[(size_t)5 * no + c] : (fv_real_t)0, as, cs;
		for (int q = 0; q < FV_NVAR; q++)
			r[q] = -res[(size_t)q * no + c];
		fv_k_line_row(v, P, op, dq, i, prev, next, &A, &C, &as, &cs, r, &rs);
		if (m > 0) { /* r -= A y_m-1, y_m-1 in dq of the previous cell */
			for (int rr = 0; rr < 5; rr++)
				for (int k = 0; k < 5; k++)
					r[rr] -= (fv_real_t)A[(rr * 5 + k) * FV_OP_W] * dq[(size_t)k * nc + prev];
			if (sa)
				rs -= as * dq[(size_t)5 * nc + prev];
		}
		for (int q = 0; q < FV_BLOCK; q++)
			D[q] = fv_op_get2(F, (size_t)q);
		fv_lu5_solve(D, r);
		fv_k_store(dq, nc, c, r);
		if (sa)
			dq[(size_t)5 * nc + c] = rs / fv_op_get2(F, FV_LINE_VALUES);
	}
	for (fv_idx_t m = len - 2; m >= 0; m--) {
		fv_idx_t i = i0 + m, c = v->cell_group[i], cn = v->cell_group[i + 1];
		const fv_op_t *F = op0 + fv_op_at(i, nv) + l0 * FV_OP_W;
		fv_real_t y[FV_NVAR], dn[FV_NVAR];
		fv_k_load(dq, nc, c, y);
		fv_k_load(dq, nc, cn, dn);
		for (int rr = 0; rr < 5; rr++)
			for (int k = 0; k < 5; k++)
				y[rr] -= fv_op_get2(F, (size_t)(FV_BLOCK + rr * 5 + k)) * dn[k];
		fv_k_store(dq, nc, c, y);
		if (sa)
			dq[(size_t)5 * nc + c] -= fv_op_get2(F, FV_LINE_VALUES + 1) * dq[(size_t)5 * nc + cn];
	}
}

/* The Gauss-Seidel update of the owned cell at colour-group position i
 * (fv_k_sweep_value, then nu~'s); with lines, of the line starting at i
 * (fv_k_sweep_line), nothing where i continues a line. */
FV_HD void fv_k_sweep(const fv_view_t *v, const fv_params_t *P, const fv_real_t *q, const fv_real_t *res,
		      const fv_op_t *op, fv_real_t *dq, fv_idx_t i)
{
	fv_idx_t c = v->cell_group[i];
	fv_real_t r[FV_NVAR];
	if (v->cell_line[i] != 1) {
		if (v->cell_line[i] > 1)
			fv_k_sweep_line(v, P, res, op, dq, i, v->cell_line[i]);
		return;
	}
	op += fv_op_at(i, FV_OP_NV(P, v));
	fv_k_sweep_value(v, P, q, res, op, dq, i, r);
	fv_k_store(dq, v->sc, c, r);
	if (fv_k_sa(P))
		fv_k_sa_sweep(v, P, res, op, dq, c);
}

/*
 * How far the sweeps solved the linear system, at position i: with the
 * system preconditioned by its diagonal blocks, D^-1 (-R - O dq) - dq is
 * the step one more Gauss-Seidel update would take from the sweeps' dq,
 * and D^-1 (-R) the first one (from dq = 0); acc[0] += the square of the
 * first, acc[1] of the one left (the mean flow's five rows). Summed over
 * the cells, sqrt(acc[1] / acc[0]) is the sweeps' linear residual
 * reduction: well below 1 where they converge, above it where they
 * diverge (the CFL ramp stops growing then). Ghosts' dq as the last halo
 * left them (block Jacobi, as the sweeps).
 */
FV_HD void fv_k_sweep_check(const fv_view_t *v, const fv_params_t *P, const fv_real_t *q, const fv_real_t *res,
			    const fv_op_t *op, const fv_real_t *dq, fv_idx_t i, double acc[2])
{
	fv_idx_t no = v->so, c = v->cell_group[i];
	fv_real_t r[FV_NVAR], r0[FV_NVAR];
	op += fv_op_at(i, FV_OP_NV(P, v));
	fv_k_sweep_value(v, P, q, res, op, dq, i, r);
	for (int m = 0; m < FV_NVAR; m++)
		r0[m] = -res[(size_t)m * no + c];
	if (P->implicit == FV_IMPLICIT_POINT) {
		fv_real_t D[FV_BLOCK];
		for (int m = 0; m < FV_BLOCK; m++)
			D[m] = (fv_real_t)op[m * FV_OP_W];
		fv_lu5_solve(D, r0);
	} else {
		fv_real_t id = (fv_real_t)1 / (fv_real_t)op[0];
		for (int m = 0; m < FV_NVAR; m++)
			r0[m] *= id;
	}
	for (int m = 0; m < FV_NVAR; m++) {
		double d = (double)r[m] - (double)dq[(size_t)m * v->sc + c];
		acc[0] += (double)r0[m] * (double)r0[m];
		acc[1] += d * d;
	}
}

/* q += a dq on owned cell c (per-cell under-relaxation), a = 1 or less
 * under max_update, halved (up to ten times) while the new state has a
 * density or pressure <= 0 (a start from a poor state at a large CFL);
 * the safeguard is idle once converging (dq small). If no fraction down
 * to 1/1024 is physical the cell keeps its state (a = 0): taking the
 * whole update put a negative density into the Mach 6 blunt body at CFL
 * 10 (a cell at Mach 200 whose pressure is a small difference of large
 * energies), and its NaN reached every cell through the next sweeps.
 * With numerics.cell_cfl the cell's step factor (fv_k_cell_cfl) follows:
 * times the fraction taken (nu~'s included, 0.1 at least, down to
 * P->cell_cfl) where the update is scaled down, doubled (up to 1) where it
 * is taken whole: the step of a cell whose linearisation does not hold at
 * the ramp's CFL shrinks until its update is Newton's again.
 * Returns 1 where a < 1 (the history's clipped column). */
FV_HD int fv_k_implicit_update(const fv_view_t *v, const fv_params_t *P, const fv_real_t *dq, fv_real_t *q,
			       fv_idx_t c)
{
	fv_idx_t nc = v->sc;
	fv_real_t qc[FV_NVAR], d[FV_NVAR], qn[FV_NVAR], wn[FV_NVAR], a = 1;
	fv_k_load(q, nc, c, qc);
	fv_k_load(dq, nc, c, d);
	/* max_update: at most that relative change of density and energy */
	if (P->max_update > 0) {
		fv_real_t r0 = FV_FABS(d[0]), r4 = FV_FABS(d[4]);
		if (r0 > P->max_update * qc[0])
			a = FV_MIN(a, P->max_update * qc[0] / r0);
		if (r4 > P->max_update * qc[4])
			a = FV_MIN(a, P->max_update * qc[4] / r4);
	}
	for (int t = 0; t <= 10; t++, a *= (fv_real_t)0.5) {
		for (int m = 0; m < FV_NVAR; m++)
			qn[m] = qc[m] + a * d[m];
		fv_cons_to_prim(qn, P->gamma, wn);
		if (wn[0] > 0 && wn[4] > 0)
			break;
	}
	if (!(wn[0] > 0 && wn[4] > 0)) {
		a = 0;
		for (int m = 0; m < FV_NVAR; m++)
			qn[m] = qc[m];
	}
	fv_k_store(q, nc, c, qn);
	fv_real_t taken = a; /* the fraction of the update taken */
	if (fv_k_sa(P)) {
		/* nu~ changes by at most its own size plus the free stream's in
		 * one iteration: at CFL 1e4 in the TMR plate's start-up one cell's
		 * update took nu~'s residual to 1e20 and cost a retry */
		fv_real_t *nt = &q[(size_t)5 * nc + c], d5 = FV_SA_RELAX * a * dq[(size_t)5 * nc + c];
		fv_real_t lim = FV_FABS(*nt) + qn[0] * P->visc.nut_inf;
		if (FV_FABS(d5) > lim) {
			taken = FV_MIN(taken, a * lim / FV_FABS(d5));
			d5 = d5 > 0 ? lim : -lim;
			a = 0; /* counted as clipped */
		}
		*nt += d5;
	}
	if (P->cell_cfl > 0) {
		/* held where the update, taken whole, changed density or energy
		 * by more than half of max_update: doubled there, the step of a
		 * cell at the limit would be clipped again the next iteration */
		fv_real_t *f = &q[(size_t)P->nvar * nc + c], h = (fv_real_t)0.5 * P->max_update;
		int near = h > 0 && (FV_FABS(d[0]) > h * qc[0] || FV_FABS(d[4]) > h * qc[4]);
		*f = taken < 1 ? FV_MAX(P->cell_cfl, *f * FV_MAX(taken, (fv_real_t)0.1))
		     : near  ? *f
			     : FV_MIN((fv_real_t)1, 2 * *f);
	}
	return a < 1;
}

#endif
