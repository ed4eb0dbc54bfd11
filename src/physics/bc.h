/* SPDX-License-Identifier: MIT */
/* Boundary conditions as a boundary (ghost) state built from the interior
 * state and the unit outward normal; the face flux is then the ordinary
 * Roe flux from the interior to that state. */
#ifndef FVSTAR_PHYSICS_BC_H
#define FVSTAR_PHYSICS_BC_H

#include "fvstar/numerics.h"
#include "physics/gas.h"

/* enum fv_bc_kind, the kinds of boundary: fvstar/numerics.h. */

/* Walls: the inviscid flux is the exact wall flux (0, p s, 0). */
FV_HD int fv_bc_is_wall(int kind)
{
	return kind == FV_BC_SLIP_WALL || kind == FV_BC_NOSLIP || kind == FV_BC_ISOTHERMAL;
}

/* Viscous walls: no slip, u = 0 on the face. */
FV_HD int fv_bc_is_noslip(int kind)
{
	return kind == FV_BC_NOSLIP || kind == FV_BC_ISOTHERMAL;
}

/* Copies a primitive state. */
FV_HD void fv_state_copy(const fv_real_t a[5], fv_real_t b[5])
{
	for (int k = 0; k < 5; k++)
		b[k] = a[k];
}

/* Boundary state wb (primitive) for the face with unit outward normal n,
 * interior (or reconstructed face) state wi, free-stream / imposed inflow
 * state winf, outlet static pressure p_out.
 *
 * FV_BC_FARFIELD: with the interior's normal velocity un = u.n and c,
 *   un <= -c  supersonic inflow:  wb = winf exactly;
 *   un >=  c  supersonic outflow: wb = wi exactly;
 *   otherwise the outgoing invariant R+ = un + 2c/(g-1) from the interior,
 *   the incoming R- = un - 2c/(g-1) from the free stream, un_b = (R+ +
 *   R-)/2, c_b = (g-1)(R+ - R-)/4; entropy p/rho^g and tangential velocity
 *   from the upwind side (interior where un_b > 0, else free stream).
 *   The supersonic cases are the limits of the same formula (both
 *   invariants from one side), taken as copies so they are exact.
 * FV_BC_SLIP_WALL, FV_BC_SYMMETRY (and the viscous walls, whose flux is
 *   fv_wall_flux's; their no-slip enters through the viscous flux): mirror state, same rho and p, normal
 *   velocity reflected; the Roe flux to it has zero mass and energy flux
 *   (to round-off; the Roe-averaged u_n is zero), and momentum flux p* n |s| with p* = p + rho c~ un + rho
 *   un^2 (c~ the Roe-averaged c; p when un == 0). See fv_wall_flux.
 * FV_BC_SUPERSONIC_INFLOW: winf. FV_BC_SUPERSONIC_OUTFLOW: wi.
 * FV_BC_PRESSURE_OUTLET: rho and velocity from the interior, p = p_out;
 *   where the interior is supersonic through the face (un >= c) wi.
 *   (Backflow, un < 0, gets the same state: no better choice is known
 *   without a total-pressure condition.)
 * Any other kind: wi (zero-gradient extrapolation). */
FV_HD void fv_bc_state(int kind, const fv_real_t wi[5], const fv_real_t n[3], const fv_real_t winf[5],
		       fv_real_t p_out, fv_real_t gamma, fv_real_t wb[5])
{
	const fv_real_t one = (fv_real_t)1;
	fv_real_t un = wi[1] * n[0] + wi[2] * n[1] + wi[3] * n[2];
	fv_real_t c = fv_sound_speed(wi, gamma);
	switch (kind) {
	case FV_BC_FARFIELD: {
		if (un <= -c) {
			fv_state_copy(winf, wb);
			return;
		}
		if (un >= c) {
			fv_state_copy(wi, wb);
			return;
		}
		fv_real_t gm1 = gamma - one, k = (fv_real_t)2 / gm1;
		fv_real_t un_inf = winf[1] * n[0] + winf[2] * n[1] + winf[3] * n[2];
		fv_real_t rp = un + k * c;
		fv_real_t rm = un_inf - k * fv_sound_speed(winf, gamma);
		fv_real_t unb = (fv_real_t)0.5 * (rp + rm);
		fv_real_t cb = (fv_real_t)0.25 * gm1 * (rp - rm);
		const fv_real_t *up = unb > (fv_real_t)0 ? wi : winf;
		fv_real_t un_up = unb > (fv_real_t)0 ? un : un_inf;
		/* rho from c^2 = g p/rho and the entropy p = s rho^g */
		fv_real_t rho = FV_POW(cb * cb / (gamma * fv_entropy(up, gamma)), one / gm1);
		wb[0] = rho;
		for (int d = 0; d < 3; d++)
			wb[1 + d] = up[1 + d] + (unb - un_up) * n[d];
		wb[4] = rho * cb * cb / gamma;
		return;
	}
	case FV_BC_SLIP_WALL:
	case FV_BC_SYMMETRY:
	case FV_BC_NOSLIP:
	case FV_BC_ISOTHERMAL:
		wb[0] = wi[0];
		for (int d = 0; d < 3; d++)
			wb[1 + d] = wi[1 + d] - (fv_real_t)2 * un * n[d];
		wb[4] = wi[4];
		return;
	case FV_BC_SUPERSONIC_INFLOW:
		fv_state_copy(winf, wb);
		return;
	case FV_BC_PRESSURE_OUTLET:
		fv_state_copy(wi, wb);
		if (un < c)
			wb[4] = p_out;
		return;
	case FV_BC_SUPERSONIC_OUTFLOW:
	default:
		fv_state_copy(wi, wb);
		return;
	}
}

/* The exact inviscid wall flux (0, p s, 0) through the face with area
 * vector s, p from wi. Which one the solver uses: the mirror state of
 * fv_bc_state through fv_roe_flux (one code path for every boundary;
 * its pressure p + rho c un + rho un^2 pushes back against any normal
 * velocity during transients, and equals this flux once un == 0). This
 * function is the alternative, e.g. for computing wall forces from the
 * reconstructed face pressure; both are conservative. */
FV_HD void fv_wall_flux(const fv_real_t wi[5], const fv_real_t s[3], fv_real_t f[5])
{
	f[0] = (fv_real_t)0;
	f[1] = wi[4] * s[0];
	f[2] = wi[4] * s[1];
	f[3] = wi[4] * s[2];
	f[4] = (fv_real_t)0;
}

#endif
