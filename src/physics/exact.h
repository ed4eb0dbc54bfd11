/* SPDX-License-Identifier: MIT */
/* Exact solutions for validation on the host, in double: the 1D Riemann
 * problem (Toro ch. 4), oblique shocks, and the isentropic vortex. */
#ifndef FVSTAR_PHYSICS_EXACT_H
#define FVSTAR_PHYSICS_EXACT_H

#include <math.h>

/* ---- exact Riemann solver for the 1D Euler equations, gamma-law gas ----
 * Toro, Riemann Solvers and Numerical Methods for Fluid Dynamics, 3rd ed.,
 * ch. 4: p* by Newton's method on f_L(p) + f_R(p) + (uR - uL) = 0 from
 * Toro's adaptive initial guess (PVRS, two-rarefaction or two-shock),
 * then sampling of the self-similar solution at xi = (x - x0)/t. Vacuum
 * (generated or given) is not handled: the functions return 1. */

/* f_K(p) and its derivative, Toro eq. 4.6-4.7 / 4.37. */
static inline void fv_exact_prefun(double p, double rho, double pk, double ck, double g, double *f, double *fd)
{
	if (p <= pk) { /* rarefaction */
		double pr = p / pk;
		*f = 2.0 / (g - 1.0) * ck * (pow(pr, (g - 1.0) / (2.0 * g)) - 1.0);
		*fd = 1.0 / (rho * ck) * pow(pr, -(g + 1.0) / (2.0 * g));
	} else { /* shock */
		double a = 2.0 / ((g + 1.0) * rho), b = (g - 1.0) / (g + 1.0) * pk;
		double q = sqrt(a / (b + p));
		*f = (p - pk) * q;
		*fd = (1.0 - 0.5 * (p - pk) / (b + p)) * q;
	}
}

/* Star-region pressure and velocity. Returns 0, or 1 where the data give
 * vacuum (non-positive rho or p, or 2(cL + cR)/(g-1) <= uR - uL). */
static inline int fv_exact_riemann_star(double rhoL, double uL, double pL, double rhoR, double uR, double pR,
					double g, double *pstar, double *ustar)
{
	if (!(rhoL > 0 && pL > 0 && rhoR > 0 && pR > 0 && g > 1))
		return 1;
	double cL = sqrt(g * pL / rhoL), cR = sqrt(g * pR / rhoR), du = uR - uL;
	if (2.0 / (g - 1.0) * (cL + cR) <= du)
		return 1;
	double g1 = (g - 1.0) / (2.0 * g), g3 = 2.0 * g / (g - 1.0), g4 = 2.0 / (g - 1.0);
	double g5 = 2.0 / (g + 1.0), g6 = (g - 1.0) / (g + 1.0), g7 = (g - 1.0) / 2.0;

	/* initial guess, Toro sec. 9.5.1 */
	double cup = 0.25 * (rhoL + rhoR) * (cL + cR);
	double ppv = fmax(0.0, 0.5 * (pL + pR) - 0.5 * du * cup);
	double pmin = fmin(pL, pR), pmax = fmax(pL, pR), p;
	if (pmax / pmin <= 2.0 && ppv >= pmin && ppv <= pmax) {
		p = ppv;
	} else if (ppv < pmin) { /* two rarefactions */
		double pq = pow(pL / pR, g1);
		double um = (pq * uL / cL + uR / cR + g4 * (pq - 1.0)) / (pq / cL + 1.0 / cR);
		double ptl = 1.0 + g7 * (uL - um) / cL, ptr = 1.0 + g7 * (um - uR) / cR;
		p = 0.5 * (pL * pow(ptl, g3) + pR * pow(ptr, g3));
	} else { /* two shocks */
		double gl = sqrt((g5 / rhoL) / (g6 * pL + ppv)), gr = sqrt((g5 / rhoR) / (g6 * pR + ppv));
		p = (gl * pL + gr * pR - du) / (gl + gr);
	}
	if (!(p > 0))
		p = 1e-8 * pmin;

	/* Newton; f is monotone and concave, so it converges from any p > 0
	 * (a negative step is cut back to a small positive pressure) */
	double fl, fdl, fr, fdr;
	for (int it = 0; it < 100; it++) {
		fv_exact_prefun(p, rhoL, pL, cL, g, &fl, &fdl);
		fv_exact_prefun(p, rhoR, pR, cR, g, &fr, &fdr);
		double pn = p - (fl + fr + du) / (fdl + fdr);
		if (!(pn > 0))
			pn = 1e-3 * p;
		double change = 2.0 * fabs(pn - p) / (pn + p);
		p = pn;
		if (change < 1e-15)
			break;
	}
	fv_exact_prefun(p, rhoL, pL, cL, g, &fl, &fdl);
	fv_exact_prefun(p, rhoR, pR, cR, g, &fr, &fdr);
	*pstar = p;
	*ustar = 0.5 * (uL + uR) + 0.5 * (fr - fl);
	return 0;
}

/* Wave speeds: s[0] left head, s[1] left tail (equal for a shock), s[2]
 * contact, s[3] right tail, s[4] right head (equal for a shock). Positions
 * at time t are x0 + s t. Returns as fv_exact_riemann_star. */
static inline int fv_exact_riemann_speeds(double rhoL, double uL, double pL, double rhoR, double uR, double pR,
					  double g, double s[5])
{
	double ps, us;
	if (fv_exact_riemann_star(rhoL, uL, pL, rhoR, uR, pR, g, &ps, &us))
		return 1;
	double cL = sqrt(g * pL / rhoL), cR = sqrt(g * pR / rhoR), g1 = (g - 1.0) / (2.0 * g),
	       g2 = (g + 1.0) / (2.0 * g);
	if (ps > pL) {
		s[0] = s[1] = uL - cL * sqrt(g2 * ps / pL + g1);
	} else {
		s[0] = uL - cL;
		s[1] = us - cL * pow(ps / pL, g1);
	}
	s[2] = us;
	if (ps > pR) {
		s[3] = s[4] = uR + cR * sqrt(g2 * ps / pR + g1);
	} else {
		s[4] = uR + cR;
		s[3] = us + cR * pow(ps / pR, g1);
	}
	return 0;
}

/* The solution (rho, u, p) at xi = (x - x0)/t, Toro sec. 4.5. At a
 * discontinuity (xi exactly on a shock or the contact) the left value is
 * returned. Returns as fv_exact_riemann_star. */
static inline int fv_exact_riemann(double rhoL, double uL, double pL, double rhoR, double uR, double pR, double g,
				   double xi, double *rho, double *u, double *p)
{
	double ps, us;
	if (fv_exact_riemann_star(rhoL, uL, pL, rhoR, uR, pR, g, &ps, &us))
		return 1;
	double g1 = (g - 1.0) / (2.0 * g), g2 = (g + 1.0) / (2.0 * g), g3 = 2.0 * g / (g - 1.0);
	double g4 = 2.0 / (g - 1.0), g5 = 2.0 / (g + 1.0), g6 = (g - 1.0) / (g + 1.0), g7 = (g - 1.0) / 2.0;
	double cL = sqrt(g * pL / rhoL), cR = sqrt(g * pR / rhoR);
	if (xi <= us) { /* left of the contact */
		if (ps > pL) {
			double sl = uL - cL * sqrt(g2 * ps / pL + g1);
			if (xi <= sl) {
				*rho = rhoL, *u = uL, *p = pL;
			} else {
				double r = ps / pL;
				*rho = rhoL * (r + g6) / (g6 * r + 1.0), *u = us, *p = ps;
			}
		} else {
			double shl = uL - cL, stl = us - cL * pow(ps / pL, g1);
			if (xi <= shl) {
				*rho = rhoL, *u = uL, *p = pL;
			} else if (xi > stl) {
				*rho = rhoL * pow(ps / pL, 1.0 / g), *u = us, *p = ps;
			} else { /* inside the left fan */
				double c = g5 * (cL + g7 * (uL - xi));
				*rho = rhoL * pow(c / cL, g4);
				*u = g5 * (cL + g7 * uL + xi);
				*p = pL * pow(c / cL, g3);
			}
		}
	} else { /* right of the contact */
		if (ps > pR) {
			double sr = uR + cR * sqrt(g2 * ps / pR + g1);
			if (xi > sr) {
				*rho = rhoR, *u = uR, *p = pR;
			} else {
				double r = ps / pR;
				*rho = rhoR * (r + g6) / (g6 * r + 1.0), *u = us, *p = ps;
			}
		} else {
			double shr = uR + cR, str = us + cR * pow(ps / pR, g1);
			if (xi >= shr) {
				*rho = rhoR, *u = uR, *p = pR;
			} else if (xi <= str) {
				*rho = rhoR * pow(ps / pR, 1.0 / g), *u = us, *p = ps;
			} else { /* inside the right fan */
				double c = g5 * (cR - g7 * (uR - xi));
				*rho = rhoR * pow(c / cR, g4);
				*u = g5 * (-cR + g7 * uR + xi);
				*p = pR * pow(c / cR, g3);
			}
		}
	}
	return 0;
}

/* ---- oblique shock ---- */

#define FV_EXACT_PI 3.14159265358979323846

/* Deflection angle theta (degrees) behind a shock at angle beta (degrees)
 * to an upstream flow at Mach M1: the theta-beta-M relation
 * tan theta = 2 cot beta (M1^2 sin^2 beta - 1) / (M1^2 (g + cos 2 beta) + 2). */
static inline double fv_oblique_theta(double M1, double beta_deg, double g)
{
	double b = beta_deg * FV_EXACT_PI / 180.0, sb = sin(b);
	double t = 2.0 / tan(b) * (M1 * M1 * sb * sb - 1.0) / (M1 * M1 * (g + cos(2.0 * b)) + 2.0);
	return atan(t) * 180.0 / FV_EXACT_PI;
}

/* Shock angle (degrees) of the largest deflection at Mach M1 > 1 (closed
 * form of d theta / d beta = 0); the weak solutions lie below it. */
static inline double fv_oblique_beta_max(double M1, double g)
{
	double m2 = M1 * M1;
	double s2 = ((g + 1.0) / 4.0 * m2 - 1.0 +
		     sqrt((g + 1.0) * ((g + 1.0) / 16.0 * m2 * m2 + (g - 1.0) / 2.0 * m2 + 1.0))) / (g * m2);
	return asin(sqrt(s2)) * 180.0 / FV_EXACT_PI;
}

/* Normal shock at upstream normal Mach number Mn1 >= 1: pressure and
 * density ratios and the downstream normal Mach number. */
static inline void fv_normal_shock(double Mn1, double g, double *p2_p1, double *rho2_rho1, double *Mn2)
{
	double m2 = Mn1 * Mn1;
	*p2_p1 = 1.0 + 2.0 * g / (g + 1.0) * (m2 - 1.0);
	*rho2_rho1 = (g + 1.0) * m2 / ((g - 1.0) * m2 + 2.0);
	*Mn2 = sqrt((1.0 + 0.5 * (g - 1.0) * m2) / (g * m2 - 0.5 * (g - 1.0)));
}

/* Weak oblique shock turning a Mach M1 flow by theta_deg (>= 0): shock
 * angle beta (degrees, by bisection on the theta-beta-M relation between
 * the Mach angle and fv_oblique_beta_max, where theta increases), pressure
 * ratio p2/p1 and downstream Mach number M2. Returns 0, or 1 where M1 <= 1
 * or theta is beyond the largest deflection (detached shock). */
static inline int fv_oblique_shock(double M1, double theta_deg, double g, double *beta_deg, double *p2_p1,
				   double *M2)
{
	if (!(M1 > 1.0) || !(theta_deg >= 0.0))
		return 1;
	double lo = asin(1.0 / M1) * 180.0 / FV_EXACT_PI, hi = fv_oblique_beta_max(M1, g);
	if (theta_deg > fv_oblique_theta(M1, hi, g))
		return 1;
	for (int it = 0; it < 200 && hi - lo > 1e-13; it++) {
		double mid = 0.5 * (lo + hi);
		if (fv_oblique_theta(M1, mid, g) < theta_deg)
			lo = mid;
		else
			hi = mid;
	}
	double beta = 0.5 * (lo + hi), rr, mn2;
	double b = beta * FV_EXACT_PI / 180.0, th = theta_deg * FV_EXACT_PI / 180.0;
	fv_normal_shock(M1 * sin(b), g, p2_p1, &rr, &mn2);
	*beta_deg = beta;
	*M2 = mn2 / sin(b - th);
	return 0;
}

/* ---- isentropic vortex (Shu 1998; Yee, Sandham & Djomehri 1999) ----
 * A vortex advected by a uniform free stream in the x-y plane (w = 0):
 * with r^2 = ((x - x0 - u_inf t)^2 + (y - y0 - v_inf t)^2) / R^2,
 *   du = -eps/(2 pi) exp((1 - r^2)/2) (y - yc)/R,
 *   dv =  eps/(2 pi) exp((1 - r^2)/2) (x - xc)/R,
 *   T  = p/rho = T_inf - (g-1) eps^2 / (8 g pi^2) exp(1 - r^2),
 *   rho = rho_inf (T/T_inf)^(1/(g-1)),  p = rho T,
 * an exact smooth solution (isentropic, radial momentum balanced) on the
 * unbounded plane. Shu's case: fv_vortex_default, domain [0,10]^2. */
typedef struct fv_vortex {
	double x0, y0;       /* centre at t = 0 */
	double u_inf, v_inf; /* advection velocity */
	double rho_inf, p_inf;
	double strength;     /* eps */
	double radius;       /* R, the length scale */
	double gamma;
} fv_vortex_t;

static inline void fv_vortex_default(fv_vortex_t *v)
{
	v->x0 = 5.0, v->y0 = 5.0;
	v->u_inf = 1.0, v->v_inf = 1.0;
	v->rho_inf = 1.0, v->p_inf = 1.0;
	v->strength = 5.0;
	v->radius = 1.0;
	v->gamma = 1.4;
}

/* Primitive state w = (rho, u, v, 0, p) at (x, y) and time t. */
static inline void fv_isentropic_vortex(double x, double y, double t, const fv_vortex_t *v, double w[5])
{
	double g = v->gamma, pi = FV_EXACT_PI;
	double dx = (x - v->x0 - v->u_inf * t) / v->radius, dy = (y - v->y0 - v->v_inf * t) / v->radius;
	double r2 = dx * dx + dy * dy, e = exp(0.5 * (1.0 - r2));
	double tinf = v->p_inf / v->rho_inf;
	double T = tinf - (g - 1.0) * v->strength * v->strength / (8.0 * g * pi * pi) * e * e;
	double rho = v->rho_inf * pow(T / tinf, 1.0 / (g - 1.0));
	w[0] = rho;
	w[1] = v->u_inf - v->strength / (2.0 * pi) * e * dy;
	w[2] = v->v_inf + v->strength / (2.0 * pi) * e * dx;
	w[3] = 0.0;
	w[4] = rho * T;
}

#endif
