/* SPDX-License-Identifier: MIT */
/* The viscous (Navier-Stokes) terms, shared by the CPU and CUDA codelets:
 * Sutherland's law, the face gradient with its directional correction, the
 * viscous flux through a face, and the viscous spectral radius of the time
 * step and of the implicit operator.
 *
 * Non-dimensionalisation (as the Euler solver's): rho_inf = 1, c_inf = 1,
 * p_inf = 1/gamma, lengths in mesh units; so the temperature T = gamma p /
 * rho (T_inf = 1), the gas constant R = 1/gamma and c_p = 1/(gamma - 1).
 * The Reynolds number Re = rho_inf U_inf L / mu_inf of the case file (U_inf
 * = M_inf, L the reference length in mesh units) sets mu_inf = M_inf L / Re.
 * Sutherland: mu(T) = mu_inf T^(3/2) (1 + s) / (T + s), s = S / T_inf[K]
 * (S = 110.4 K). Heat conduction k = mu c_p / Pr.
 *
 * The viscous flux through area vector S (pointing from the face's owner to
 * its neighbour, or out of the domain) is subtracted from the inviscid one:
 *   F_v = (0, tau.S, (tau u).S + k grad T.S),
 *   tau = mu (grad u + grad u^T) - 2/3 mu (div u) I.
 * (Blazek, Computational Fluid Dynamics, 3rd ed., Sec. 2.3, 6.1.) */
#ifndef FVSTAR_PHYSICS_VISCOUS_H
#define FVSTAR_PHYSICS_VISCOUS_H

#include "physics/gas.h"

/* The viscous constants every viscous kernel needs. */
typedef struct fv_visc {
	fv_real_t mu_inf;    /* free-stream viscosity M L / Re; 0: inviscid */
	fv_real_t suth;      /* Sutherland's constant over T_inf; < 0: constant viscosity */
	fv_real_t prandtl;   /* laminar Prandtl number */
	fv_real_t t_wall;    /* isothermal walls: T_wall / T_inf */
	int sa;              /* Spalart-Allmaras (physics/sa.h): nu~ is the sixth variable */
	fv_real_t prandtl_t; /* turbulent Prandtl number */
	fv_real_t nut_inf;   /* nu~ of the free stream (and of inflow) */
} fv_visc_t;

/* T = gamma p / rho. */
FV_HD fv_real_t fv_temperature(const fv_real_t w[5], fv_real_t gamma)
{
	return gamma * w[4] / w[0];
}

/* Sutherland's law at temperature T (constant viscosity where suth < 0). */
FV_HD fv_real_t fv_viscosity(const fv_visc_t *vp, fv_real_t T)
{
	if (vp->suth < 0)
		return vp->mu_inf;
	return vp->mu_inf * T * FV_SQRT(T) * ((fv_real_t)1 + vp->suth) / (T + vp->suth);
}

/* The gradients the viscous flux needs, of u, v, w and T (g[k][d], k = 0..2
 * velocity, 3 temperature), from a cell's gradients of the primitive
 * variables (rho u v w p): grad T = gamma / rho (grad p - p / rho grad rho). */
FV_HD void fv_visc_grad(const fv_real_t w[5], const fv_real_t gw[5][3], fv_real_t gamma, fv_real_t g[4][3])
{
	fv_real_t ir = (fv_real_t)1 / w[0], pr = w[4] * ir;
	for (int d = 0; d < 3; d++) {
		for (int k = 0; k < 3; k++)
			g[k][d] = gw[1 + k][d];
		g[3][d] = gamma * ir * (gw[4][d] - pr * gw[0][d]);
	}
}

/* Corrects the face gradients g (of phi = u, v, w, T) along the unit vector
 * t so that their component along t is the difference quotient
 * dphi[k] / len: g += (dphi / len - g.t) t. Between two cells t joins their
 * centres (the average of the two gradients then loses its odd-even
 * decoupling); at a wall it is the face normal and len the distance of the
 * cell centre to the wall plane. */
FV_HD void fv_visc_correct(fv_real_t g[4][3], const fv_real_t t[3], fv_real_t len, const fv_real_t dphi[4])
{
	for (int k = 0; k < 4; k++) {
		fv_real_t gt = g[k][0] * t[0] + g[k][1] * t[1] + g[k][2] * t[2];
		fv_real_t c = dphi[k] / len - gt;
		for (int d = 0; d < 3; d++)
			g[k][d] += c * t[d];
	}
}

/* The viscous flux F (5 values, F[0] = 0) through area vector s from the
 * face values: velocity u, viscosity mu, conductivity k and the corrected
 * gradients g (u, v, w, T). */
FV_HD void fv_visc_flux(const fv_real_t u[3], fv_real_t mu, fv_real_t k, const fv_real_t g[4][3], const fv_real_t s[3],
			fv_real_t F[5])
{
	fv_real_t div = g[0][0] + g[1][1] + g[2][2], tau[3][3];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			tau[i][j] = mu * (g[i][j] + g[j][i]) - (i == j ? (fv_real_t)2 / 3 * mu * div : (fv_real_t)0);
	F[0] = 0;
	F[4] = k * (g[3][0] * s[0] + g[3][1] * s[1] + g[3][2] * s[2]);
	for (int i = 0; i < 3; i++) {
		F[1 + i] = tau[i][0] * s[0] + tau[i][1] * s[1] + tau[i][2] * s[2];
		F[4] += u[i] * F[1 + i];
	}
}

/* Conductivity k = (mu / Pr + mu_t / Pr_t) c_p with c_p = 1 / (gamma - 1). */
FV_HD fv_real_t fv_conductivity(const fv_visc_t *vp, fv_real_t mu, fv_real_t mut, fv_real_t gamma)
{
	fv_real_t a = mu / vp->prandtl;
	if (mut > 0)
		a += mut / vp->prandtl_t;
	return a / (gamma - (fv_real_t)1);
}

/* The viscous spectral radius of a face of area |s|^2 / (length scale): a
 * cell's time step adds 4 of it per face over its volume (Blazek eq. 6.22,
 * C = 4 for cell-centred schemes): max(4/3, gamma / Pr) mu / rho |s|^2 / V. */
FV_HD fv_real_t fv_visc_radius(const fv_visc_t *vp, fv_real_t gamma, fv_real_t mu, fv_real_t rho, fv_real_t s2,
			       fv_real_t vol)
{
	fv_real_t a = gamma / vp->prandtl;
	if (a < (fv_real_t)4 / 3)
		a = (fv_real_t)4 / 3;
	return a * mu / rho * s2 / vol;
}

#endif
