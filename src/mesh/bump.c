/* SPDX-License-Identifier: MIT */
/* Node positions of the bump-in-channel generator: NASA TMR's 2D bump
 * (https://turbmodels.larc.nasa.gov/bump.html), its nested grid family
 * from stretched distributions along x and y (src/mesh/axes.c). */
#include "mesh_internal.h"

#include <math.h>

#define PI 3.14159265358979323846
#define X_IN -25.0   /* inflow plane */
#define X_OUT 26.5   /* outflow plane */
#define WALL 1.5     /* the no-slip wall is 0 <= x <= WALL */
#define HEIGHT 5.0   /* the top, y = HEIGHT */
#define SPAN 0.1     /* default extrusion in z */
/* TMR's 1409 x 641 grid: 384 cells ahead of the wall, 640 on it, 384
 * behind, i.e. 3 : 5 : 3. */
#define WALL_PARTS 5
#define ALL_PARTS 11
/* x spacing at the wall's ends and at x = WALL / 2 on level 1 as fractions
 * of the wall's mean spacing. TMR's 89 x 41 grid (level 5; its wall points
 * are in SU2's V&V repository, surface_0089x041_sa.csv) has 0.0136 and
 * 0.0596 there; these give 0.0136 and 0.0595 on level 5 and wall points
 * within 0.005 of TMR's. */
#define DX_END 0.34
#define DX_MID 1.6

double fv_bump_wall_y(double x)
{
	if (x < 0.3 || x > 1.2)
		return 0;
	double s = sin(PI * x / 0.9 - PI / 3);
	return 0.05 * s * s * s * s;
}

/* Level-1 points (fv_gen_fill_fn; nx and ny are checked already): side
 * cells ahead of the wall and behind it, x = 0, WALL / 2 and WALL nodes;
 * y is the flat channel's, which map_point of generate.c bends over the
 * bump. */
static fv_err_t fine_axes(const void *ctx, double *const f[3], fv_gen_axes_t *ax, double *d)
{
	const fv_gen_bump_t *b = ctx;
	int stride = 1, cells = b->nx - 1, pmax = fv_stride_max(cells);
	FV_CALL(fv_gen_stride("bump", b->level, &stride));
	int wall = pmax * (int)fmax(1, floor((double)cells * WALL_PARTS / ALL_PARTS / pmax + 0.5));
	int side = (cells - wall) / 2, half = wall / 2;
	FV_CHECK(side >= stride && side % stride == 0 && wall % stride == 0 && wall % 2 == 0 &&
			 2 * side + wall == cells,
		 FV_ERR_ARG,
		 "bump: %d cells on the wall and %d on either side of it (of %d): each part needs a multiple of %d "
		 "(level %d), the wall an even number", wall, side, cells, stride, b->level);
	FV_CHECK(b->y1 > 0 && b->y1 < HEIGHT && b->span >= 0 && isfinite(b->span), FV_ERR_ARG,
		 "bump: y1 must be in (0, %g) and span >= 0 (got %g, %g)", HEIGHT, b->y1, b->span);
	double h = WALL / wall, dx_end = DX_END * h;
	FV_CALL(fv_fit_spacing("bump", half, WALL / 2, dx_end, DX_MID * h, d));
	fv_place_points(f[0] + side, half, 0, WALL / 2, 1, d);
	fv_place_points(f[0] + side + half, half, WALL, WALL / 2, -1, d);
	FV_CALL(fv_fit_spacing("bump", side, -X_IN, dx_end, 0, d));
	fv_place_points(f[0], side, 0, X_IN, -1, d);
	fv_place_points(f[0] + side + wall, side, WALL, X_OUT, 1, d);
	FV_CALL(fv_fit_spacing("bump", b->ny - 1, HEIGHT, b->y1, 0, d));
	fv_place_points(f[1], b->ny - 1, 0, HEIGHT, 1, d);
	f[2][0] = 0;
	f[2][1] = b->span > 0 ? b->span : SPAN;
	ax->n_seg = 3;
	ax->seg_end[0] = side;
	ax->seg_end[1] = side + wall;
	ax->seg_end[2] = cells;
	return FV_OK;
}

fv_err_t fv_bump_axes(const fv_gen_bump_t *b, fv_gen_axes_t *ax)
{
	const int nf[2] = {b->nx, b->ny};
	FV_CALL(fv_gen_axes("bump", b->level, nf, fine_axes, b, ax));
	return FV_OK;
}
