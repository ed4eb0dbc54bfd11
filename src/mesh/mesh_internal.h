/* SPDX-License-Identifier: MIT */
/* Functions shared by the mesh readers, not part of the public mesh API. */
#ifndef FVSTAR_MESH_INTERNAL_H
#define FVSTAR_MESH_INTERNAL_H

#include "fvstar/mesh.h"

/*
 * Turns a planar mesh, as a 2D reader leaves it in m, into one layer of
 * prisms and hexahedra between z = 0 and z = span. On entry:
 *   xyz          x y of node i at 3i (z ignored)
 *   cell_type    FV_PRISM for a triangle, FV_HEX for a quadrilateral
 *   cell_node    its 3 or 4 nodes (CSR by cell_node_off), either winding
 *   belem_type   2 (a line), belem_node its 2 nodes, belem_marker as usual
 * On return m is an ordinary 3D mesh whose cell i comes from element i,
 * with the markers symmetry_zmin and symmetry_zmax added (a suffix makes
 * them unique) and extruded_2d set. Zero-area elements are refused.
 */
fv_err_t fv_mesh_extrude_2d(fv_mesh_t *m, double span);

/* A prism of Gmsh or CGNS has its first triangle facing the second one;
 * fvstar's (VTK's) faces away from it: swapping nodes 1-2 and 4-5 turns
 * one into the other, either way. */
static inline void fv_prism_flip(fv_idx_t *v)
{
	fv_idx_t t = v[1];
	v[1] = v[2];
	v[2] = t;
	t = v[4];
	v[4] = v[5];
	v[5] = t;
}

/* Node positions of a generator of nested grid families (plate, bump)
 * along each axis at one level: x[a][0..n[a]], n[2] = 1 (one cell in z).
 * The cells along x fall into n_seg parts of the floor y = 0, part k
 * ending at cell seg_end[k] (plate: ahead of it, the plate; bump: ahead,
 * the wall, behind), so the ends of every part are nodes of every level. */
typedef struct fv_gen_axes {
	int n[3];
	int n_seg, seg_end[3];
	double *x[3];
} fv_gen_axes_t;

/* Fills the level-1 points f[0][0..nx-1], f[1][0..ny-1], f[2][0..1] and
 * ax->n_seg, ax->seg_end (in level-1 cells); d is scratch for max(nx, ny)
 * cells. */
typedef fv_err_t (*fv_gen_fill_fn)(const void *ctx, double *const f[3], fv_gen_axes_t *ax, double *d);

/* The stride 2^(level-1) of a level, checked; what names the generator. */
fv_err_t fv_gen_stride(const char *what, int level, int *stride);
/* Level-1 points of nf[0] x nf[1] by fill, thinned to level: checks the
 * level and that nf - 1 are multiples of its stride. */
fv_err_t fv_gen_axes(const char *what, int level, const int nf[2], fv_gen_fill_fn fill, const void *ctx,
		     fv_gen_axes_t *ax);
void fv_gen_axes_free(fv_gen_axes_t *ax);

/* Cells d[0..n-1] over len: one-sided (s1 <= 0) smooth growth from s0, or
 * two-sided from s0 to s1 (the log of the spacing a parabola in the
 * index). An impossible fit is an error naming what. */
fv_err_t fv_fit_spacing(const char *what, int n, double len, double s0, double s1, double *d);
/* Points x[0..n] from x0 by the cells d (backwards when dir < 0); the last
 * point is x1 exactly, so the domain's planes are exact. */
void fv_place_points(double *x, int n, double x0, double x1, int dir, const double *d);
/* The largest power of two dividing cells, at most cells / 2: the coarsest
 * stride the points along an axis can have. */
int fv_stride_max(int cells);

fv_err_t fv_plate_axes(const fv_gen_plate_t *p, fv_gen_axes_t *ax);
fv_err_t fv_bump_axes(const fv_gen_bump_t *b, fv_gen_axes_t *ax);
/* TMR's bump: the wall's height at x. */
double fv_bump_wall_y(double x);

#endif
