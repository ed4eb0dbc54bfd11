/* SPDX-License-Identifier: MIT */
/* Node positions of the flat-plate generator: stretched point
 * distributions along x and y (src/mesh/axes.c), TMR's plate family. */
#include "mesh_internal.h"

#include <math.h>

/* Wall spacing for y+ = 1 halfway along the plate, by White's turbulent
 * flat-plate friction Cf = 0.027 Re_x^(-1/7): 5.2e-6 at Re 5e6 per unit
 * and length 2 (TMR's 5e-7 on its finest grid is y+ ~ 0.1). */
static double y1_of_re(const fv_gen_plate_t *p)
{
	double cf = 0.027 * pow(p->re * 0.5 * p->length, -1.0 / 7.0);
	return 1 / (p->re * sqrt(0.5 * cf));
}

static fv_err_t check_plate(const fv_gen_plate_t *p, int stride, int lead)
{
	FV_CHECK(lead >= stride && lead % stride == 0 && p->nx - 1 - lead >= stride, FV_ERR_ARG,
		 "plate: %d cells ahead of the plate out of %d: both parts need a multiple of %d (level %d)", lead,
		 p->nx - 1, stride, p->level);
	FV_CHECK(p->length > 0 && p->lead > 0 && p->height > 0 && p->span >= 0 && isfinite(p->length) &&
			 isfinite(p->lead) && isfinite(p->height) && isfinite(p->span),
		 FV_ERR_ARG, "plate: length %g, lead %g, height %g must be > 0 and span %g >= 0", p->length, p->lead,
		 p->height, p->span);
	FV_CHECK(p->re >= 0 && isfinite(p->re), FV_ERR_ARG, "plate: re must be >= 0 (got %g)", p->re);
	FV_CHECK(p->re > 0 || (p->y1 > 0 && p->y1 < p->height), FV_ERR_ARG,
		 "plate: y1 must be in (0, height = %g) (got %g)", p->height, p->y1);
	FV_CHECK(p->dx_le >= 0 && p->dx_le < p->lead && p->dx_le < p->length && p->dx_te >= 0 &&
			 p->dx_te < p->length,
		 FV_ERR_ARG, "plate: dx_le %g must be below lead and length, dx_te %g below length", p->dx_le,
		 p->dx_te);
	return FV_OK;
}

/* Level-1 points (fv_gen_fill_fn; nx and ny are checked already): the
 * first lead cells in x lie ahead of the plate, x = 0 is a node. */
static fv_err_t fine_axes(const void *ctx, double *const f[3], fv_gen_axes_t *ax, double *d)
{
	const fv_gen_plate_t *p = ctx;
	int stride = 1, pmax = fv_stride_max(p->nx - 1), lead = p->nx_lead;
	FV_CALL(fv_gen_stride("plate", p->level, &stride));
	if (lead <= 0)
		lead = pmax * (int)fmax(1, floor((p->nx - 1) * 3.0 / 17.0 / pmax + 0.5));
	FV_CALL(check_plate(p, stride, lead));
	int plate = p->nx - 1 - lead;
	double h = p->length / plate;
	double le = p->dx_le > 0 ? p->dx_le : h / 8, te = p->dx_te > 0 ? p->dx_te : h / 2;
	double y1 = p->re > 0 ? y1_of_re(p) : p->y1;
	FV_CHECK(y1 < p->height, FV_ERR_ARG, "plate: y1 = %g from re = %g is not below the height %g", y1, p->re,
		 p->height);
	/* ahead of the plate, growing from the leading edge back to the inflow */
	FV_CALL(fv_fit_spacing("plate", lead, p->lead, le, 0, d));
	fv_place_points(f[0], lead, 0, -p->lead, -1, d);
	FV_CALL(fv_fit_spacing("plate", plate, p->length, le, te, d));
	fv_place_points(f[0] + lead, plate, 0, p->length, 1, d);
	FV_CALL(fv_fit_spacing("plate", p->ny - 1, p->height, y1, 0, d));
	fv_place_points(f[1], p->ny - 1, 0, p->height, 1, d);
	f[2][0] = 0;
	f[2][1] = p->span > 0 ? p->span : p->length / 20;
	ax->n_seg = 2;
	ax->seg_end[0] = lead;
	ax->seg_end[1] = p->nx - 1;
	return FV_OK;
}

fv_err_t fv_plate_axes(const fv_gen_plate_t *p, fv_gen_axes_t *ax)
{
	const int nf[2] = {p->nx, p->ny};
	FV_CALL(fv_gen_axes("plate", p->level, nf, fine_axes, p, ax));
	return FV_OK;
}
