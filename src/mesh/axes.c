/* SPDX-License-Identifier: MIT */
/* Stretched point distributions along the axes of the plate and bump
 * generators: made once for the finest level of a nested family and
 * thinned to every 2^(level-1)-th point, so the levels nest. */
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

/* The sum grows with the free parameter q (b one-sided, c two-sided), so
 * bisection finds it. */
fv_err_t fv_fit_spacing(const char *what, int n, double len, double s0, double s1, double *d)
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
			return FV_ERROR(FV_ERR_ARG, "%s: %d cells over %g cannot start with spacing %g and end "
				        "with %g", what, n, len, s0, s1);
		return FV_ERROR(FV_ERR_ARG, "%s: %d cells over %g cannot start with spacing %g", what, n, len, s0);
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

void fv_place_points(double *x, int n, double x0, double x1, int dir, const double *d)
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

int fv_stride_max(int cells)
{
	int p = 1;
	while (cells % (2 * p) == 0 && 2 * p <= cells / 2)
		p *= 2;
	return p;
}

fv_err_t fv_gen_stride(const char *what, int level, int *stride)
{
	FV_CHECK(level >= 1 && level <= MAX_LEVEL, FV_ERR_ARG, "%s: level must be in [1, %d] (got %d)", what,
		 MAX_LEVEL, level);
	*stride = 1 << (level - 1);
	return FV_OK;
}

fv_err_t fv_gen_axes(const char *what, int level, const int nf[2], fv_gen_fill_fn fill, const void *ctx,
		     fv_gen_axes_t *ax)
{
	int stride = 1;
	FV_CALL(fv_gen_stride(what, level, &stride));
	FV_CHECK(nf[0] >= 3 && nf[1] >= 2, FV_ERR_ARG, "%s: needs nx >= 3 and ny >= 2 points (got %d x %d)", what,
		 nf[0], nf[1]);
	FV_CHECK((nf[0] - 1) % stride == 0 && (nf[1] - 1) % stride == 0, FV_ERR_ARG,
		 "%s: level %d keeps every %d-th point: nx - 1 and ny - 1 (%d, %d) must be multiples of %d", what,
		 level, stride, nf[0] - 1, nf[1] - 1, stride);
	const int n3[3] = {nf[0], nf[1], 2};
	double *f[3] = {NULL, NULL, NULL}, *d = NULL;
	fv_err_t err = FV_OK;
	*ax = (fv_gen_axes_t){.n_seg = 0};
	FV_CALL_GOTO(err, done, fv_malloc(&d, (size_t)(nf[0] > nf[1] ? nf[0] : nf[1]), sizeof *d, "generator spacings"));
	for (int a = 0; a < 3; a++) {
		ax->n[a] = a == 2 ? 1 : (n3[a] - 1) / stride;
		FV_CALL_GOTO(err, done, fv_malloc(&f[a], (size_t)n3[a], sizeof *f[a], "generator points"));
		FV_CALL_GOTO(err, done, fv_malloc(&ax->x[a], (size_t)ax->n[a] + 1, sizeof *ax->x[a], "generator points"));
	}
	FV_CALL_GOTO(err, done, fill(ctx, f, ax, d));
	for (int k = 0; k < ax->n_seg; k++)
		ax->seg_end[k] /= stride;
	for (int a = 0; a < 3; a++)
		for (int i = 0; i <= ax->n[a]; i++)
			ax->x[a][i] = f[a][a == 2 ? i : i * stride];
done:
	for (int a = 0; a < 3; a++)
		free(f[a]);
	free(d);
	if (err != FV_OK)
		fv_gen_axes_free(ax);
	return err;
}

void fv_gen_axes_free(fv_gen_axes_t *ax)
{
	for (int a = 0; a < 3; a++)
		FV_FREE(ax->x[a]);
}
