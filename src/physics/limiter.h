/* SPDX-License-Identifier: MIT */
/* Slope limiters for the MUSCL reconstruction, one face at a time:
 * Venkatakrishnan's (the solver's) and Barth–Jespersen's (for comparison). */
#ifndef FVSTAR_PHYSICS_LIMITER_H
#define FVSTAR_PHYSICS_LIMITER_H

#include "physics/gas.h"

/* Venkatakrishnan's limiter for one face of a cell.
 *   dmax >= 0 >= dmin: the max / min over the cell and its neighbours of
 *                      the variable, minus the cell's value;
 *   d2:                the unlimited reconstructed change grad . (x_f - x_c);
 *   eps2:              (K h)^3, fv_venkat_eps2.
 * With D = dmax where d2 > 0 and dmin where d2 < 0,
 *
 *   phi = (D^2 + eps2 + 2 d2 D) / (D^2 + 2 d2^2 + D d2 + eps2)
 *
 * (Venkatakrishnan 1995, eq. 10 divided by d2). The raw function exceeds 1
 * (by up to 6%) where |D| > 2 |d2|; it is clipped to 1 there, as most
 * codes do, so phi is in [0, 1] and does not increase with |d2|. With
 * eps2 == 0, phi d2 never leaves [dmin, dmax]. d2 == 0 gives 1; inputs with
 * dmax < 0 or dmin > 0 (round-off in the caller's max/min) are clipped to
 * phi >= 0. The cell's phi is the minimum over its faces.
 * Selects only, no branches that diverge: the den == 0 case (d2 == 0 and
 * D^2 + eps2 == 0) is the d2 == 0 case. */
FV_HD fv_real_t fv_venkat(fv_real_t dmax, fv_real_t dmin, fv_real_t d2, fv_real_t eps2)
{
	const fv_real_t zero = (fv_real_t)0, one = (fv_real_t)1;
	fv_real_t d = d2 > zero ? dmax : dmin;
	fv_real_t dd = d * d + eps2;
	fv_real_t num = dd + (fv_real_t)2 * d2 * d;
	fv_real_t den = dd + (fv_real_t)2 * d2 * d2 + d * d2;
	den = den > zero ? den : one;
	fv_real_t phi = FV_FMIN(one, FV_FMAX(zero, num / den));
	return d2 == zero ? one : phi;
}

/* eps2 = (K h)^3 with h = cbrt(vol), computed as K^3 vol (the same number,
 * without a cbrt). K ~ 0.3..5: K -> 0 limits even smooth extrema (phi < 1
 * wherever |d2| > |D|/2), large K limits less and lets small oscillations
 * through. Note the classic units mismatch: eps2 is a length^3 compared
 * with squared jumps of the variable, so K depends on how the variables
 * are scaled. */
FV_HD fv_real_t fv_venkat_eps2(fv_real_t K, fv_real_t vol)
{
	return K * K * K * vol;
}

/* Pressure switch of a cell (numerics.limiter_shock): 1 (the slope
 * limiter's phi kept) where the pressure is smooth about the cell, 0
 * (first order) across a strong shock, from the relative jump
 *
 *   s = max((pmax - pmin) / (pmax + pmin), max_f |grad p . (x_f - x_c)| / p_c)
 *
 * over the cell and its face neighbours (the limiter's min/max) and over
 * its faces' extrapolations (dp_max, the largest |grad p . (x_f - x_c)|):
 * the node-based gradient reaches the cells that share a node, so a
 * free-stream cell one node from a shock has uniform face neighbours (no
 * jump seen by the min/max, Venkatakrishnan's phi near 1) and a large
 * gradient; the Mach 6 blunt body's shock then never settled. The same
 * data as the limiter, so the same value for any block or worker count.
 * 1 for s <= a, 0 for s >= 2a, a smoothstep between, so that the residual
 * stays a C1 function of the state. a = 0: off (1 everywhere). */
FV_HD fv_real_t fv_shock_switch(fv_real_t pmin, fv_real_t pmax, fv_real_t pc, fv_real_t dp_max, fv_real_t a)
{
	const fv_real_t zero = (fv_real_t)0, one = (fv_real_t)1;
	fv_real_t sum = pmax + pmin;
	fv_real_t s = sum > zero ? (pmax - pmin) / sum : zero;
	fv_real_t g = pc > zero ? dp_max / pc : zero;
	s = FV_FMAX(s, g);
	fv_real_t t = a > zero ? FV_FMIN(one, FV_FMAX(zero, (s - a) / a)) : zero;
	return one - t * t * ((fv_real_t)3 - (fv_real_t)2 * t);
}

/* Barth–Jespersen: phi = min(1, D / d2), D as above; 1 where d2 == 0.
 * Non-differentiable, which stalls steady-state convergence; kept to
 * compare with fv_venkat. */
FV_HD fv_real_t fv_barth(fv_real_t dmax, fv_real_t dmin, fv_real_t d2)
{
	const fv_real_t zero = (fv_real_t)0, one = (fv_real_t)1;
	fv_real_t d = d2 > zero ? dmax : dmin;
	fv_real_t safe = d2 != zero ? d2 : one;
	fv_real_t phi = FV_FMIN(one, FV_FMAX(zero, d / safe));
	return d2 == zero ? one : phi;
}

#endif
