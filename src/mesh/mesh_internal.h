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

/* Node positions of the plate generator along each axis at p's level:
 * x[a][0..n[a]], n[2] = 1 (one cell in z); the first `lead` cells in x lie
 * ahead of the plate, so x[0][lead] = 0 exactly. Checks p. */
typedef struct fv_plate_axes {
	int n[3];
	int lead;
	double *x[3];
} fv_plate_axes_t;

fv_err_t fv_plate_axes(const fv_gen_plate_t *p, fv_plate_axes_t *ax);
void fv_plate_axes_free(fv_plate_axes_t *ax);

#endif
