/* SPDX-License-Identifier: MIT */
/* Perfect-gas state conversions and the physical Euler flux, shared by the
 * CPU and CUDA codelets (header only, FV_HD, no libc calls but math). */
#ifndef FVSTAR_PHYSICS_GAS_H
#define FVSTAR_PHYSICS_GAS_H

#include <math.h>

#include "fvstar/types.h"

/* Math in the working precision: the float functions under FV_SINGLE so
 * that single-precision kernels never compute (or warn about) doubles. */
#ifndef FV_SQRT
#ifdef FV_SINGLE
#define FV_SQRT sqrtf
#define FV_FABS fabsf
#define FV_FMIN fminf
#define FV_FMAX fmaxf
#define FV_POW powf
#define FV_EXP expf
#define FV_CBRT cbrtf
#else
#define FV_SQRT sqrt
#define FV_FABS fabs
#define FV_FMIN fmin
#define FV_FMAX fmax
#define FV_POW pow
#define FV_EXP exp
#define FV_CBRT cbrt
#endif
#endif

/* Indices into a state vector. Conservative q = (rho, rho u, rho v, rho w,
 * rho E); primitive w = (rho, u, v, w, p). */
enum { FV_RHO = 0, FV_MX = 1, FV_MY = 2, FV_MZ = 3, FV_RHOE = 4 };
enum { FV_U = 1, FV_V = 2, FV_W = 3, FV_P = 4 };

/* Primitive from conservative. No positivity check: a kernel cannot report
 * one, and the solver checks rho and p where it can stop the run. */
FV_HD void fv_cons_to_prim(const fv_real_t q[5], fv_real_t gamma, fv_real_t w[5])
{
	fv_real_t rho = q[0], ir = (fv_real_t)1 / rho;
	fv_real_t u = q[1] * ir, v = q[2] * ir, ww = q[3] * ir;
	w[0] = rho;
	w[1] = u;
	w[2] = v;
	w[3] = ww;
	w[4] = (gamma - (fv_real_t)1) * (q[4] - (fv_real_t)0.5 * (q[1] * u + q[2] * v + q[3] * ww));
}

/* Conservative from primitive. */
FV_HD void fv_prim_to_cons(const fv_real_t w[5], fv_real_t gamma, fv_real_t q[5])
{
	fv_real_t rho = w[0];
	q[0] = rho;
	q[1] = rho * w[1];
	q[2] = rho * w[2];
	q[3] = rho * w[3];
	q[4] = w[4] / (gamma - (fv_real_t)1) +
	       (fv_real_t)0.5 * rho * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]);
}

/* c = sqrt(gamma p / rho). */
FV_HD fv_real_t fv_sound_speed(const fv_real_t w[5], fv_real_t gamma)
{
	return FV_SQRT(gamma * w[4] / w[0]);
}

/* |u| / c. */
FV_HD fv_real_t fv_mach(const fv_real_t w[5], fv_real_t gamma)
{
	return FV_SQRT((w[1] * w[1] + w[2] * w[2] + w[3] * w[3]) * w[0] / (gamma * w[4]));
}

/* The entropy function s = p / rho^gamma (constant along particle paths in
 * smooth flow; used by the far-field condition and the vortex test). */
FV_HD fv_real_t fv_entropy(const fv_real_t w[5], fv_real_t gamma)
{
	return w[4] / FV_POW(w[0], gamma);
}

/* Total enthalpy H = (rho E + p) / rho = c^2/(gamma-1) + |u|^2/2. */
FV_HD fv_real_t fv_enthalpy(const fv_real_t w[5], fv_real_t gamma)
{
	return gamma / (gamma - (fv_real_t)1) * w[4] / w[0] +
	       (fv_real_t)0.5 * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]);
}

/* |s| of an area vector. */
FV_HD fv_real_t fv_area(const fv_real_t s[3])
{
	return FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
}

/* fv_spectral_radius from the sound speed c of w and the area a = |s|, so
 * a loop over a cell's faces finds c once and each face's area once. */
FV_HD fv_real_t fv_spectral_radius_ca(const fv_real_t w[5], const fv_real_t s[3], fv_real_t c, fv_real_t a)
{
	fv_real_t un = w[1] * s[0] + w[2] * s[1] + w[3] * s[2];
	return FV_FABS(un) + c * a;
}

/* Convective spectral radius through a face, |u.s| + c |s|: the local
 * time step is vol * CFL / sum over faces of this. */
FV_HD fv_real_t fv_spectral_radius(const fv_real_t w[5], const fv_real_t s[3], fv_real_t gamma)
{
	return fv_spectral_radius_ca(w, s, fv_sound_speed(w, gamma), fv_area(s));
}

/* Physical flux F(w).s through a face with area vector s (not unit), so the
 * result is already multiplied by the face area. F(w).(-s) == -F(w).s
 * bit for bit, which the Roe flux relies on for exact antisymmetry. */
FV_HD void fv_euler_flux(const fv_real_t w[5], const fv_real_t s[3], fv_real_t gamma, fv_real_t f[5])
{
	fv_real_t rho = w[0], u = w[1], v = w[2], ww = w[3], p = w[4];
	fv_real_t un = u * s[0] + v * s[1] + ww * s[2];
	fv_real_t mf = rho * un;
	fv_real_t rhoe = p / (gamma - (fv_real_t)1) + (fv_real_t)0.5 * rho * (u * u + v * v + ww * ww);
	f[0] = mf;
	f[1] = mf * u + p * s[0];
	f[2] = mf * v + p * s[1];
	f[3] = mf * ww + p * s[2];
	f[4] = (rhoe + p) * un;
}

/* The Jacobian of fv_euler_flux in the conservative variables, A = d(F.s)/dq
 * (row-major, A[r * 5 + k] = dF_r/dq_k), at the primitive state w: with
 * V = u.s, g1 = gamma - 1, phi = g1 |u|^2 / 2 and H the total enthalpy,
 *   row rho:    0, s_x, s_y, s_z, 0
 *   row rho u_i: phi s_i - u_i V, u_i s_j - g1 s_i u_j + V delta_ij, g1 s_i
 *   row rho E:  V (phi - H), H s_j - g1 u_j V, gamma V
 * (Blazek, Computational Fluid Dynamics, App. A.7). Linear in s. */
FV_HD void fv_euler_jacobian(const fv_real_t w[5], const fv_real_t s[3], fv_real_t gamma, fv_real_t A[25])
{
	fv_real_t g1 = gamma - (fv_real_t)1;
	fv_real_t un = w[1] * s[0] + w[2] * s[1] + w[3] * s[2];
	fv_real_t phi = (fv_real_t)0.5 * g1 * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]);
	fv_real_t h = fv_enthalpy(w, gamma);
	A[0] = 0;
	A[4] = 0;
	for (int j = 0; j < 3; j++)
		A[1 + j] = s[j];
	for (int i = 0; i < 3; i++) {
		fv_real_t *r = A + 5 * (1 + i);
		r[0] = phi * s[i] - w[1 + i] * un;
		for (int j = 0; j < 3; j++)
			r[1 + j] = w[1 + i] * s[j] - g1 * s[i] * w[1 + j] + (i == j ? un : (fv_real_t)0);
		r[4] = g1 * s[i];
	}
	A[20] = un * (phi - h);
	for (int j = 0; j < 3; j++)
		A[21 + j] = h * s[j] - g1 * w[1 + j] * un;
	A[24] = gamma * un;
}

#endif
