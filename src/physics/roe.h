/* SPDX-License-Identifier: MIT */
/* Roe's approximate Riemann solver with Harten's entropy fix on the
 * acoustic waves, for the CPU and CUDA face-flux codelets. */
#ifndef FVSTAR_PHYSICS_ROE_H
#define FVSTAR_PHYSICS_ROE_H

#include "physics/gas.h"

/* Harten's fixed |lambda|: |lambda| where |lambda| >= delta, else
 * (lambda^2 + delta^2) / (2 delta). Continuous (both give delta at
 * |lambda| == delta), never below delta/2, so an expansion through a sonic
 * point keeps some dissipation. delta == 0 gives plain |lambda|; the other
 * arm is never taken then (|lambda| >= 0), and where a GPU computes both
 * arms the select drops its 0/0. Even in lambda, which the Roe flux needs
 * for exact antisymmetry. */
FV_HD fv_real_t fv_harten_abs(fv_real_t lam, fv_real_t delta)
{
	fv_real_t al = FV_FABS(lam);
	return al >= delta ? al : (lam * lam + delta * delta) / ((fv_real_t)2 * delta);
}

/* Roe flux through a face with area vector s (not unit; it points from the
 * left state wl to the right state wr), multiplied by the face area:
 *
 *   F = (F(wl).s + F(wr).s)/2 - |s|/2 * sum_k |lambda_k| alpha_k r_k
 *
 * on Roe averages (sqrt(rho) weights) of u and H, with the waves written in
 * the rotation-invariant form of Blazek (Computational Fluid Dynamics,
 * sec. 4.3.3): lambda_1,3 = u_n -+ c (acoustic), lambda_2 = u_n (entropy
 * and the two shear waves together), n = s/|s|.
 *
 * Entropy fix (the exact choice): Harten's, fv_harten_abs, applied to the
 * two acoustic eigenvalues only, with
 *
 *   delta = entropy_fix * (|u_n| + c)      (Roe-averaged u_n and c),
 *
 * i.e. proportional to the face's spectral radius as in PHengLEI. Typical
 * entropy_fix 0.05..0.2; 0 is plain Roe. The linear wave u_n is left
 * unfixed: it cannot form an expansion shock, and fixing it would smear a
 * stationary contact (which this flux keeps exact, zero mass flux).
 *
 * Properties the tests check: wl == wr gives fv_euler_flux (all jumps are
 * exactly zero); fv_roe_flux(wl, wr, s) == -fv_roe_flux(wr, wl, -s) (the
 * sums are grouped symmetrically in the two acoustic waves, which swap);
 * both bit for bit in IEEE arithmetic without FMA contraction, to round-off
 * with it (nvcc's default); it depends on s only through rotation-invariant
 * dot products; where all eigenvalues are positive (and above delta) it is
 * F(wl).s. Conservation itself does not rest on this: the solver adds one
 * face flux to L and subtracts it from R.
 *
 * Non-physical inputs (rho or p <= 0) give NaN or nonsense; the caller
 * checks states. A zero area vector gives a zero flux. */
FV_HD void fv_roe_flux(const fv_real_t wl[5], const fv_real_t wr[5], const fv_real_t s[3], fv_real_t gamma,
		       fv_real_t entropy_fix, fv_real_t f[5])
{
	const fv_real_t half = (fv_real_t)0.5, one = (fv_real_t)1;
	fv_real_t fl[5], fr[5];
	fv_euler_flux(wl, s, gamma, fl);
	fv_euler_flux(wr, s, gamma, fr);

	fv_real_t area = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
	fv_real_t ia = area > (fv_real_t)0 ? one / area : (fv_real_t)0;
	fv_real_t n[3] = { s[0] * ia, s[1] * ia, s[2] * ia };

	/* Roe averages */
	fv_real_t sl = FV_SQRT(wl[0]), sr = FV_SQRT(wr[0]), iw = one / (sl + sr);
	fv_real_t rho = sl * sr;
	fv_real_t u[3], du[3];
	for (int k = 0; k < 3; k++) {
		u[k] = (sl * wl[1 + k] + sr * wr[1 + k]) * iw;
		du[k] = wr[1 + k] - wl[1 + k];
	}
	fv_real_t h = (sl * fv_enthalpy(wl, gamma) + sr * fv_enthalpy(wr, gamma)) * iw;
	fv_real_t q2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
	fv_real_t c2 = (gamma - one) * (h - half * q2);
	fv_real_t c = FV_SQRT(c2);
	fv_real_t un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];

	/* jumps and wave strengths */
	fv_real_t drho = wr[0] - wl[0], dp = wr[4] - wl[4];
	fv_real_t dun = du[0] * n[0] + du[1] * n[1] + du[2] * n[2];
	fv_real_t udu = u[0] * du[0] + u[1] * du[1] + u[2] * du[2];
	fv_real_t ic2 = one / c2;
	fv_real_t a1 = (dp - rho * c * dun) * half * ic2; /* u_n - c */
	fv_real_t a3 = (dp + rho * c * dun) * half * ic2; /* u_n + c */
	fv_real_t a2 = drho - dp * ic2;                  /* entropy */

	/* |eigenvalues|, fixed on the acoustic waves */
	fv_real_t delta = entropy_fix * (FV_FABS(un) + c);
	fv_real_t l1 = fv_harten_abs(un - c, delta);
	fv_real_t l3 = fv_harten_abs(un + c, delta);
	fv_real_t l2 = FV_FABS(un);

	fv_real_t k1 = l1 * a1, k3 = l3 * a3, k2 = l2 * a2;
	fv_real_t ks = k1 + k3, kd = c * (k3 - k1), shear = l2 * rho;
	fv_real_t d0 = ks + k2;

	fv_real_t ha = half * area;
	f[0] = half * (fl[0] + fr[0]) - ha * d0;
	for (int k = 0; k < 3; k++)
		f[1 + k] = half * (fl[1 + k] + fr[1 + k]) -
			   ha * (d0 * u[k] + kd * n[k] + shear * (du[k] - dun * n[k]));
	f[4] = half * (fl[4] + fr[4]) -
	       ha * (ks * h + kd * un + k2 * half * q2 + shear * (udu - un * dun));
}

/* Roe's dissipation matrix |A~| of a face: the Roe averages of wl and wr
 * and the |eigenvalues| with the entropy fix of fv_roe_flux, for the
 * implicit solver's frozen Roe Jacobian, dF/dq_R = (A_R.s - |A~| |s|) / 2. */
typedef struct fv_roe_matrix {
	fv_real_t rho, u[3], h, q2, c, c2, n[3], un, area, l1, l2, l3;
} fv_roe_matrix_t;

FV_HD void fv_roe_matrix(const fv_real_t wl[5], const fv_real_t wr[5], const fv_real_t s[3], fv_real_t gamma,
			 fv_real_t entropy_fix, fv_roe_matrix_t *m)
{
	const fv_real_t half = (fv_real_t)0.5, one = (fv_real_t)1;
	m->area = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
	fv_real_t ia = m->area > (fv_real_t)0 ? one / m->area : (fv_real_t)0;
	for (int k = 0; k < 3; k++)
		m->n[k] = s[k] * ia;
	fv_real_t sl = FV_SQRT(wl[0]), sr = FV_SQRT(wr[0]), iw = one / (sl + sr);
	m->rho = sl * sr;
	for (int k = 0; k < 3; k++)
		m->u[k] = (sl * wl[1 + k] + sr * wr[1 + k]) * iw;
	m->h = (sl * fv_enthalpy(wl, gamma) + sr * fv_enthalpy(wr, gamma)) * iw;
	m->q2 = m->u[0] * m->u[0] + m->u[1] * m->u[1] + m->u[2] * m->u[2];
	m->c2 = (gamma - one) * (m->h - half * m->q2);
	m->c = FV_SQRT(m->c2);
	m->un = m->u[0] * m->n[0] + m->u[1] * m->n[1] + m->u[2] * m->n[2];
	fv_real_t delta = entropy_fix * (FV_FABS(m->un) + m->c);
	m->l1 = fv_harten_abs(m->un - m->c, delta);
	m->l3 = fv_harten_abs(m->un + m->c, delta);
	m->l2 = FV_FABS(m->un);
}

/* The implicit solver's floor on m's |eigenvalues|, all three waves: at
 * least floor (|u_n| + c), the face's spectral radius, so that a face
 * where u_n or u_n -+ c vanishes (stagnation, sonic points, walls) keeps
 * diagonal weight in the Jacobian's blocks; the flux keeps its own fix. */
FV_HD void fv_roe_matrix_floor(fv_roe_matrix_t *m, fv_real_t floor)
{
	fv_real_t d = floor * (FV_FABS(m->un) + m->c);
	m->l1 = m->l1 > d ? m->l1 : d;
	m->l2 = m->l2 > d ? m->l2 : d;
	m->l3 = m->l3 > d ? m->l3 : d;
}

/* out = |A~| |s| dq for a jump dq of the conservative variables. With dq =
 * q(wr) - q(wl) it is the dissipation term of fv_roe_flux (Roe's
 * property); for any dq the wave strengths come from the primitive jumps
 * linearised at the Roe state (d rho = dq_0, du = (dq_m - u~ d rho) /
 * rho~, dp = (gamma - 1)(dq_E - u~.dq_m + |u~|^2 d rho / 2)). Linear in dq. */
FV_HD void fv_roe_matrix_apply(const fv_roe_matrix_t *m, fv_real_t gamma, const fv_real_t dq[5], fv_real_t out[5])
{
	const fv_real_t half = (fv_real_t)0.5, one = (fv_real_t)1;
	fv_real_t du[3], drho = dq[0], irho = one / m->rho;
	for (int k = 0; k < 3; k++)
		du[k] = (dq[1 + k] - m->u[k] * drho) * irho;
	fv_real_t dp =
		(gamma - one) * (dq[4] - (m->u[0] * dq[1] + m->u[1] * dq[2] + m->u[2] * dq[3]) + half * m->q2 * drho);
	fv_real_t dun = du[0] * m->n[0] + du[1] * m->n[1] + du[2] * m->n[2];
	fv_real_t udu = m->u[0] * du[0] + m->u[1] * du[1] + m->u[2] * du[2];
	fv_real_t ic2 = one / m->c2;
	fv_real_t a1 = (dp - m->rho * m->c * dun) * half * ic2;
	fv_real_t a3 = (dp + m->rho * m->c * dun) * half * ic2;
	fv_real_t a2 = drho - dp * ic2;
	fv_real_t k1 = m->l1 * a1, k3 = m->l3 * a3, k2 = m->l2 * a2;
	fv_real_t ks = k1 + k3, kd = m->c * (k3 - k1), shear = m->l2 * m->rho;
	fv_real_t d0 = ks + k2;
	out[0] = m->area * d0;
	for (int k = 0; k < 3; k++)
		out[1 + k] = m->area * (d0 * m->u[k] + kd * m->n[k] + shear * (du[k] - dun * m->n[k]));
	out[4] = m->area * (ks * m->h + kd * m->un + k2 * half * m->q2 + shear * (udu - m->un * dun));
}

/* |A~| |s| dq at the face of wl, wr (fv_roe_matrix, then its apply). */
FV_HD void fv_roe_dissipation(const fv_real_t wl[5], const fv_real_t wr[5], const fv_real_t s[3], fv_real_t gamma,
			      fv_real_t entropy_fix, const fv_real_t dq[5], fv_real_t out[5])
{
	fv_roe_matrix_t m;
	fv_roe_matrix(wl, wr, s, gamma, entropy_fix, &m);
	fv_roe_matrix_apply(&m, gamma, dq, out);
}

#endif
