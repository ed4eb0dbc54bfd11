/* SPDX-License-Identifier: MIT */
/* The thin-layer Jacobian of a face's viscous flux as 5x5 blocks, for the
 * point-implicit operator of viscous and Spalart-Allmaras runs. */
#ifndef FVSTAR_KERNELS_VISC_JACOBIAN_H
#define FVSTAR_KERNELS_VISC_JACOBIAN_H

#include "kernels/kernels.h"

/*
 * The viscous flux through a face of area a, unit normal n, between
 * centres len apart, keeps only the differences across the face (thin
 * layer), with coefficients frozen at the face:
 *
 *   momentum: c_mu (du + n (n.du) / 3),
 *   energy:   c_mu (u.du + (n.u)(n.du) / 3) + c_k dT,
 *
 * c_mu = (mu + mu_t) a / len, c_k = k a / len, u the face's velocity, du
 * and dT the jumps across it; nothing in the continuity row. Written in
 * the conservative variables of a cell X (du_l/dq = (-u_l, e_l) / rho,
 * dT/dq = gamma / rho (dp/dq - p / rho e_0)), that is the 5x5 block
 * B(X); cell i's residual (flux out, minus the viscous flux) has +B(i) on
 * its diagonal and -B(j) for its neighbour j. A scalar a max(4/3, gamma /
 * Pr) mu / rho a / len on all five rows of both (the LU-SGS
 * approximation) put a density diffusion that the equations do not have
 * into the continuity row, coefficients 1e3 times the convective ones
 * across the thin cells of the TMR bump's wake, and froze its
 * y-varying density modes: 8 orders took thousands of iterations.
 */

/* B(X) (row-major, out) from X's primitive state wx, the face's
 * coefficients and velocity. */
FV_HD void fv_visc_block(const fv_real_t wx[FV_NVAR], fv_real_t gamma, fv_real_t cmu, fv_real_t ck,
			 const fv_real_t n[3], const fv_real_t uf[3], fv_real_t B[25])
{
	fv_real_t ir = (fv_real_t)1 / wx[0], g1 = gamma - (fv_real_t)1, du[3][FV_NVAR], dT[FV_NVAR];
	fv_real_t third = (fv_real_t)1 / 3;
	/* dp/dq = ((g-1)|u|^2/2, -(g-1) u, g-1) */
	fv_real_t dp[FV_NVAR] = {(fv_real_t)0.5 * g1 * (wx[1] * wx[1] + wx[2] * wx[2] + wx[3] * wx[3]), -g1 * wx[1],
				 -g1 * wx[2], -g1 * wx[3], g1};
	for (int l = 0; l < 3; l++)
		for (int m = 0; m < FV_NVAR; m++)
			du[l][m] = (m == 0 ? -wx[1 + l] : m == 1 + l ? (fv_real_t)1 : (fv_real_t)0) * ir;
	for (int m = 0; m < FV_NVAR; m++)
		dT[m] = gamma * ir * (dp[m] - (m == 0 ? wx[4] * ir : (fv_real_t)0));
	fv_real_t un = n[0] * uf[0] + n[1] * uf[1] + n[2] * uf[2];
	for (int m = 0; m < FV_NVAR; m++) {
		fv_real_t ndu = n[0] * du[0][m] + n[1] * du[1][m] + n[2] * du[2][m];
		B[m] = 0;
		B[20 + m] = ck * dT[m];
		for (int l = 0; l < 3; l++) {
			B[(1 + l) * 5 + m] = cmu * (du[l][m] + third * n[l] * ndu);
			B[20 + m] += cmu * (uf[l] * du[l][m] + third * un * n[l] * du[l][m]);
		}
	}
}

/* The blocks of face k of owned cell c (area vector s out of c, neighbour
 * j, -1 at a boundary face): Bc into D (+), Bj for the face's off-diagonal
 * block (-). Returns 0 where the face has no viscous flux (inviscid runs,
 * boundaries other than no-slip walls); at a wall the face's velocity is
 * 0, and an adiabatic wall conducts no heat. */
FV_HD int fv_k_visc_blocks(const fv_view_t *v, const fv_params_t *P, const fv_real_t *q, const fv_real_t wc[FV_NVAR],
			   fv_idx_t c, fv_idx_t k, fv_idx_t j, const fv_real_t s[3], fv_real_t Bc[25],
			   fv_real_t Bj[25])
{
	if (!fv_k_viscous(P))
		return 0;
	const size_t nc = (size_t)v->n_cells, sc = (size_t)v->sc;
	fv_idx_t f = v->cell_face[k];
	fv_real_t a = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]), n[3] = {s[0] / a, s[1] / a, s[2] / a};
	fv_real_t T = fv_temperature(wc, P->gamma), len = 0, mut = 0, uf[3] = {0, 0, 0}, wj[FV_NVAR];
	int kind = -1;
	if (j < 0) {
		kind = v->bface_bc[f];
		if (!fv_bc_is_noslip(kind))
			return 0;
		for (int d = 0; d < 3; d++)
			len += (v->face_ctr[(size_t)d * v->n_faces + f] - v->cell_ctr[(size_t)d * nc + c]) * n[d];
		len = FV_FABS(len);
	} else {
		fv_real_t qj[FV_NVAR];
		fv_k_load(q, (fv_idx_t)sc, j, qj);
		fv_cons_to_prim(qj, P->gamma, wj);
		fv_real_t Tj = fv_temperature(wj, P->gamma);
		if (fv_k_sa(P))
			mut = (fv_real_t)0.5 * (fv_sa_mut(wc[0], q[5 * sc + c] / wc[0], fv_viscosity(&P->visc, T)) +
						fv_sa_mut(wj[0], q[5 * sc + j] / wj[0], fv_viscosity(&P->visc, Tj)));
		for (int d = 0; d < 3; d++) {
			fv_real_t x = v->cell_ctr[(size_t)d * nc + j] - v->cell_ctr[(size_t)d * nc + c];
			len += x * x;
			uf[d] = (fv_real_t)0.5 * (wc[1 + d] + wj[1 + d]);
		}
		len = FV_SQRT(len);
		T = (fv_real_t)0.5 * (T + Tj);
	}
	fv_real_t mu = fv_viscosity(&P->visc, T);
	fv_real_t cmu = (mu + mut) * a / len, ck = fv_conductivity(&P->visc, mu, mut, P->gamma) * a / len;
	if (kind >= 0 && kind != FV_BC_ISOTHERMAL)
		ck = 0;
	fv_visc_block(wc, P->gamma, cmu, ck, n, uf, Bc);
	if (j >= 0)
		fv_visc_block(wj, P->gamma, cmu, ck, n, uf, Bj);
	return 1;
}

#endif
