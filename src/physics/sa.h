/* SPDX-License-Identifier: MIT */
/* The Spalart-Allmaras turbulence model, SA-neg as NASA's Turbulence
 * Modeling Resource defines it (https://turbmodels.larc.nasa.gov/spalart.html:
 * the standard model with ft2 for nu~ >= 0, the negative branch of Allmaras,
 * Johnson & Spalart 2012 for nu~ < 0), shared by the CPU and CUDA codelets.
 *
 * The sixth conservative variable is rho nu~ (the sixth primitive nu~); in
 * the solver's units (physics/viscous.h) nu = mu / rho. The equation,
 *
 *   d(rho nu~)/dt + div(rho u nu~) = rho (P - D)
 *       + 1/sigma [div(rho (nu + (1 + cb2) nu~) grad nu~) - cb2 rho nu~ lap nu~],
 *
 * is TMR's compressible form with the cb2 term written as
 * div((1 + cb2) nu~ grad nu~) - cb2 nu~ lap nu~ (the identity
 * cb2 |grad nu~|^2 = div(cb2 nu~ grad nu~) - cb2 nu~ lap nu~), so that a
 * face needs only the difference of nu~ across it, not cell gradients of nu~
 * (as SU2 does); rho is taken inside the divergence. For nu~ < 0, nu~ in the
 * diffusion coefficient is nu~ fn. Convection is first-order upwind by the
 * face's mass flux. The eddy viscosity mu_t = rho nu~ fv1 (0 where nu~ < 0).
 * Walls: nu~ = 0; free stream: nu~ = 3 nu_inf (TMR).
 */
#ifndef FVSTAR_PHYSICS_SA_H
#define FVSTAR_PHYSICS_SA_H

#include "physics/gas.h"

#define FV_SA_CB1 ((fv_real_t)0.1355)
#define FV_SA_SIGMA ((fv_real_t)2 / 3)
#define FV_SA_CB2 ((fv_real_t)0.622)
#define FV_SA_KAPPA ((fv_real_t)0.41)
#define FV_SA_CW2 ((fv_real_t)0.3)
#define FV_SA_CW3 ((fv_real_t)2)
#define FV_SA_CV1 ((fv_real_t)7.1)
#define FV_SA_CT3 ((fv_real_t)1.2)
#define FV_SA_CT4 ((fv_real_t)0.5)
#define FV_SA_CN1 ((fv_real_t)16)
#define FV_SA_CV2 ((fv_real_t)0.7)
#define FV_SA_CV3 ((fv_real_t)0.9)
/* cw1 = cb1 / kappa^2 + (1 + cb2) / sigma */
#define FV_SA_CW1 (FV_SA_CB1 / (FV_SA_KAPPA * FV_SA_KAPPA) + ((fv_real_t)1 + FV_SA_CB2) / FV_SA_SIGMA)

/* fv1 = chi^3 / (chi^3 + cv1^3), chi = nu~ / nu. */
FV_HD fv_real_t fv_sa_fv1(fv_real_t chi)
{
	fv_real_t c3 = chi * chi * chi, v3 = FV_SA_CV1 * FV_SA_CV1 * FV_SA_CV1;
	return c3 / (c3 + v3);
}

/* The eddy viscosity mu_t = rho nu~ fv1 (SA-neg: 0 where nu~ < 0). */
FV_HD fv_real_t fv_sa_mut(fv_real_t rho, fv_real_t nut, fv_real_t mu)
{
	if (nut <= 0)
		return 0;
	return rho * nut * fv_sa_fv1(rho * nut / mu);
}

/* The diffusion coefficient's nu~ part: nu~, or nu~ fn where nu~ < 0. */
FV_HD fv_real_t fv_sa_diff_nut(fv_real_t nut, fv_real_t nu)
{
	if (nut >= 0)
		return nut;
	fv_real_t c3 = nut / nu;
	c3 = c3 * c3 * c3;
	return nut * (FV_SA_CN1 + c3) / (FV_SA_CN1 - c3);
}

/* S~ (TMR's note 1(c) keeps it positive where S-bar < -cv2 omega) of nu~ >=
 * 0, and into *dst its derivative by nu~. */
FV_HD fv_real_t fv_sa_stilde(fv_real_t nu, fv_real_t nut, fv_real_t omega, fv_real_t d, fv_real_t *dst)
{
	const fv_real_t one = 1, k2d2 = (FV_SA_KAPPA * FV_SA_KAPPA) * (d * d), v3 = FV_SA_CV1 * FV_SA_CV1 * FV_SA_CV1;
	fv_real_t chi = nut / nu, fv1 = fv_sa_fv1(chi), fv2 = one - chi / (one + chi * fv1);
	fv_real_t sbar = nut * fv2 / k2d2;
	/* d(nu~ fv2)/dnu~ = fv2 + chi dfv2/dchi, dfv2/dchi = -(1 - chi^2 fv1') / (1 + chi fv1)^2 */
	fv_real_t c3 = chi * chi * chi, dfv1 = (fv_real_t)3 * chi * chi * v3 / ((c3 + v3) * (c3 + v3));
	fv_real_t e = one + chi * fv1, dsbar = (fv2 - chi * (one - chi * chi * dfv1) / (e * e)) / k2d2;
	if (sbar >= -FV_SA_CV2 * omega) {
		*dst = dsbar;
		return omega + sbar;
	}
	fv_real_t den = (FV_SA_CV3 - (fv_real_t)2 * FV_SA_CV2) * omega - sbar;
	fv_real_t num = FV_SA_CV2 * FV_SA_CV2 * omega + FV_SA_CV3 * sbar;
	*dst = omega * (FV_SA_CV3 * den + num) / (den * den) * dsbar;
	return omega + omega * num / den;
}

/* fw of nu~ >= 0 and S~, and into *dfw its derivative by nu~ (S~'s
 * through dst, r clipped at 10 as the model does). */
FV_HD fv_real_t fv_sa_fw(fv_real_t nut, fv_real_t st, fv_real_t dst, fv_real_t d, fv_real_t *dfw)
{
	const fv_real_t one = 1, k2 = FV_SA_KAPPA * FV_SA_KAPPA, d2 = d * d, k2d2 = k2 * d2;
	fv_real_t r = st > 0 ? nut / (st * k2 * d2) : (fv_real_t)10, dr = 0;
	if (r >= 10)
		r = 10;
	else
		dr = (one - nut * dst / st) / (st * k2d2);
	fv_real_t r5 = r * r * r * r * r, g = r + FV_SA_CW2 * (r5 * r - r);
	fv_real_t c6 = FV_SA_CW3 * FV_SA_CW3 * FV_SA_CW3, g6 = g * g * g;
	c6 *= c6;
	g6 *= g6;
	fv_real_t fw = g * FV_POW((one + c6) / (g6 + c6), one / (fv_real_t)6);
	/* dfw/dg = fw / g c6 / (g^6 + c6), dg/dr = 1 + cw2 (6 r^5 - 1) */
	*dfw = g > 0 ? fw / g * c6 / (g6 + c6) * (one + FV_SA_CW2 * ((fv_real_t)6 * r5 - one)) * dr : (fv_real_t)0;
	return fw;
}

/* The implicit diagonal's share of the source, -d(P - D)/dnu~ per unit
 * volume and density, with the whole derivatives: of fw in the destruction
 * (fw saturates near 2 where S~ is small, so 2 cw1 fw nu~ / d^2 is twice
 * the 2 cw1 nu~ / d^2 of fw = 1: that Jacobian held nu~ in a period-2
 * cycle at the ends of the TMR bump's wall once the sweeps solved
 * exactly), of S~ (with fv2's) and ft2 in the production. Negative where
 * the production grows faster than the destruction; fv_k_sa_operator
 * bounds it there (destruction implicit and production explicit, as SU2
 * and FUN3D do, left nu~'s residual 2.5 orders down on the bump's 45 x 21
 * grid in 250 iterations, the bounded derivative 3.3). */
FV_HD fv_real_t fv_sa_source_jac(fv_real_t nu, fv_real_t nut, fv_real_t omega, fv_real_t d)
{
	const fv_real_t k2 = FV_SA_KAPPA * FV_SA_KAPPA, one = 1, two = 2, d2 = d * d;
	if (nut < 0)
		return -FV_SA_CB1 * (one - FV_SA_CT3) * omega - two * FV_SA_CW1 * nut / d2;
	fv_real_t chi = nut / nu, dst, dfw, st = fv_sa_stilde(nu, nut, omega, d, &dst);
	fv_real_t ft2 = FV_SA_CT3 * FV_EXP(-FV_SA_CT4 * chi * chi), fw = fv_sa_fw(nut, st, dst, d, &dfw);
	fv_real_t dd = (FV_SA_CW1 * (two * fw + nut * dfw) - two * FV_SA_CB1 / k2 * ft2) * nut / d2;
	/* dP/dnu~ = cb1 ((1 - ft2) (S~ + nu~ dS~) - nu~ S~ dft2), dft2 = -2 ct4 chi ft2 / nu */
	fv_real_t dp = FV_SA_CB1 * ((one - ft2) * (st + nut * dst) + two * FV_SA_CT4 * chi * chi * ft2 * st);
	return dd - dp;
}

/* The source rho (P - D) per unit volume of a cell: density rho, molecular
 * nu, nu~, vorticity magnitude omega, wall distance d; *jac receives
 * fv_sa_source_jac. */
FV_HD fv_real_t fv_sa_source(fv_real_t rho, fv_real_t nu, fv_real_t nut, fv_real_t omega, fv_real_t d,
			     fv_real_t *jac)
{
	const fv_real_t k2 = FV_SA_KAPPA * FV_SA_KAPPA, one = 1;
	fv_real_t d2 = d * d, chi = nut / nu, P, D;
	*jac = fv_sa_source_jac(nu, nut, omega, d);
	if (nut < 0) {
		/* SA-neg: P = cb1 (1 - ct3) omega nu~, D = -cw1 (nu~ / d)^2 */
		P = FV_SA_CB1 * (one - FV_SA_CT3) * omega * nut;
		D = -FV_SA_CW1 * nut * nut / d2;
	} else {
		fv_real_t dst, dfw, st = fv_sa_stilde(nu, nut, omega, d, &dst);
		fv_real_t ft2 = FV_SA_CT3 * FV_EXP(-FV_SA_CT4 * chi * chi), fw = fv_sa_fw(nut, st, dst, d, &dfw);
		P = FV_SA_CB1 * (one - ft2) * st * nut;
		D = (FV_SA_CW1 * fw - FV_SA_CB1 / k2 * ft2) * nut * nut / d2;
	}
	return rho * (P - D);
}

#endif
