/* SPDX-License-Identifier: MIT */
/* Node positions of the flat-plate generator: stretched point
 * distributions along x and y, made once for the finest level and thinned
 * to every 2^(level-1)-th point, so the levels nest. */
#include "mesh_internal.h"

#include <math.h>
#include <stdlib.h>

#define MAX_LEVEL 12
/* Free parameter of a fit: |q| beyond this gives exp() overflow or zeros. */
#define FIT_Q_MAX 1400.0

/* Cells d[0..n-1]: d_i = s0 exp(b t_i + c t_i (1 - t_i)), t_i = i / (n - 1).
 * The log of the spacing is a parabola in the index: smooth growth, with
 * the first cell exactly s0 and, for c free, the last exactly s0 e^b. */
static double spacing_sum(int n, double s0, double b, double c, double *d)
{
	double sum = 0;
	for (int i = 0; i < n; i++) {
		double t = n > 1 ? (double)i / (n - 1) : 0;
		d[i] = s0 * exp(b * t + c * t * (1 - t));
		sum += d[i];
	}
	return sum;
}

/* n cells over len: one-sided (s1 <= 0) geometric growth from s0, or
 * two-sided from s0 to s1. The sum grows with the free parameter q (b
 * one-sided, c two-sided), so bisection finds it. */
static fv_err_t fit_spacing(int n, double len, double s0, double s1, double *d)
{
	int two = s1 > 0 && n >= 3;
	double b = two ? log(s1 / s0) : 0, lo = -1, hi = 1;
	if (n == 1 || (!two && s1 > 0)) {
		/* too few cells to honour an end spacing: uniform */
		for (int i = 0; i < n; i++)
			d[i] = len / n;
		return FV_OK;
	}
	while (spacing_sum(n, s0, two ? b : lo, two ? lo : 0, d) > len && lo > -FIT_Q_MAX)
		lo *= 2;
	while (spacing_sum(n, s0, two ? b : hi, two ? hi : 0, d) < len && hi < FIT_Q_MAX)
		hi *= 2;
	if (spacing_sum(n, s0, two ? b : lo, two ? lo : 0, d) > len ||
	    spacing_sum(n, s0, two ? b : hi, two ? hi : 0, d) < len) {
		if (two)
			return FV_ERROR(FV_ERR_ARG, "plate: %d cells over %g cannot start with spacing %g and end "
				        "with %g", n, len, s0, s1);
		return FV_ERROR(FV_ERR_ARG, "plate: %d cells over %g cannot start with spacing %g", n, len, s0);
	}
	for (int it = 0; it < 200 && hi - lo > 1e-15 * fabs(hi); it++) {
		double q = 0.5 * (lo + hi);
		if (spacing_sum(n, s0, two ? b : q, two ? q : 0, d) < len)
			lo = q;
		else
			hi = q;
	}
	spacing_sum(n, s0, two ? b : hi, two ? hi : 0, d);
	return FV_OK;
}

/* Points x[0..n] from x0 by the cells d (backwards when dir < 0); the
 * last point is x1 exactly, so the domain's planes are exact. */
static void place(double *x, int n, double x0, double x1, int dir, const double *d)
{
	double s = x0;
	int at = dir > 0 ? 0 : n;
	x[at] = x0;
	for (int i = 0; i < n; i++) {
		s += dir * d[i];
		x[at + dir * (i + 1)] = s;
	}
	x[dir > 0 ? n : 0] = x1;
}

/* The largest power of two dividing cells, at most cells / 2: the
 * coarsest stride the x points can have. */
static int x_stride_max(int cells)
{
	int p = 1;
	while (cells % (2 * p) == 0 && 2 * p <= cells / 2)
		p *= 2;
	return p;
}

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
	FV_CHECK(p->nx >= 3 && p->ny >= 2, FV_ERR_ARG, "plate: needs nx >= 3 and ny >= 2 points (got %d x %d)",
		 p->nx, p->ny);
	FV_CHECK((p->nx - 1) % stride == 0 && (p->ny - 1) % stride == 0, FV_ERR_ARG,
		 "plate: level %d keeps every %d-th point: nx - 1 and ny - 1 (%d, %d) must be multiples of %d",
		 p->level, stride, p->nx - 1, p->ny - 1, stride);
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

/* Level-1 points along x, y, z into f[3] (allocated by the caller with
 * nx, ny, 2 entries). */
static fv_err_t fine_axes(const fv_gen_plate_t *p, int lead, double *f[3], double *d)
{
	int plate = p->nx - 1 - lead;
	double h = p->length / plate;
	double le = p->dx_le > 0 ? p->dx_le : h / 8, te = p->dx_te > 0 ? p->dx_te : h / 2;
	double y1 = p->re > 0 ? y1_of_re(p) : p->y1;
	FV_CHECK(y1 < p->height, FV_ERR_ARG, "plate: y1 = %g from re = %g is not below the height %g", y1, p->re,
		 p->height);
	/* ahead of the plate, growing from the leading edge back to the inflow */
	FV_CALL(fit_spacing(lead, p->lead, le, 0, d));
	place(f[0], lead, 0, -p->lead, -1, d);
	FV_CALL(fit_spacing(plate, p->length, le, te, d));
	place(f[0] + lead, plate, 0, p->length, 1, d);
	FV_CALL(fit_spacing(p->ny - 1, p->height, y1, 0, d));
	place(f[1], p->ny - 1, 0, p->height, 1, d);
	f[2][0] = 0;
	f[2][1] = p->span > 0 ? p->span : p->length / 20;
	return FV_OK;
}

fv_err_t fv_plate_axes(const fv_gen_plate_t *p, fv_plate_axes_t *ax)
{
	FV_CHECK(p->level >= 1 && p->level <= MAX_LEVEL, FV_ERR_ARG, "plate: level must be in [1, %d] (got %d)",
		 MAX_LEVEL, p->level);
	int stride = 1 << (p->level - 1), pmax = p->nx >= 3 ? x_stride_max(p->nx - 1) : 1;
	int lead = p->nx_lead;
	if (lead <= 0)
		lead = pmax * (int)fmax(1, floor((p->nx - 1) * 3.0 / 17.0 / pmax + 0.5));
	FV_CALL(check_plate(p, stride, lead));
	const int nf[3] = {p->nx, p->ny, 2};
	double *f[3] = {NULL, NULL, NULL}, *d = NULL;
	fv_err_t err = FV_OK;
	*ax = (fv_plate_axes_t){.lead = lead / stride};
	FV_CALL_GOTO(err, done, fv_malloc(&d, (size_t)(p->nx > p->ny ? p->nx : p->ny), sizeof *d, "plate spacings"));
	for (int a = 0; a < 3; a++) {
		ax->n[a] = a == 2 ? 1 : (nf[a] - 1) / stride;
		FV_CALL_GOTO(err, done, fv_malloc(&f[a], (size_t)nf[a], sizeof *f[a], "plate points"));
		FV_CALL_GOTO(err, done, fv_malloc(&ax->x[a], (size_t)ax->n[a] + 1, sizeof *ax->x[a], "plate points"));
	}
	FV_CALL_GOTO(err, done, fine_axes(p, lead, f, d));
	for (int a = 0; a < 3; a++)
		for (int i = 0; i <= ax->n[a]; i++)
			ax->x[a][i] = f[a][a == 2 ? i : i * stride];
done:
	for (int a = 0; a < 3; a++)
		free(f[a]);
	free(d);
	if (err != FV_OK)
		fv_plate_axes_free(ax);
	return err;
}

void fv_plate_axes_free(fv_plate_axes_t *ax)
{
	for (int a = 0; a < 3; a++)
		FV_FREE(ax->x[a]);
}
