/* SPDX-License-Identifier: MIT */
/* Surface post-processing: wall surfaces with node values, plane cuts into
 * curves, span stations in chord coordinates, and the ONERA M6 wind-tunnel
 * pressure file (Tecplot ASCII) they are compared with. */
#ifndef FVSTAR_POST_H
#define FVSTAR_POST_H

#include <stdint.h>

#include "fvstar/error.h"
#include "fvstar/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- surfaces */

/* A surface of triangles and quads with its own compact node numbering. */
typedef struct fv_surface {
	fv_idx_t n_nodes;
	double *xyz;               /* [3 * n_nodes] */
	fv_idx_t *node_mesh;       /* [n_nodes] mesh node (-1 when not from a mesh) */
	fv_idx_t n_faces;
	fv_idx_t *face_node_off;   /* [n_faces + 1], 3 or 4 nodes a face */
	fv_idx_t *face_node;       /* surface node ids */
	fv_idx_t *face_mesh;       /* [n_faces] mesh face (-1 when not from a mesh) */
	double *face_area;         /* [n_faces] |S| (quads: |d02 x d13| / 2) */
} fv_surface_t;

void fv_surface_init(fv_surface_t *s);
void fv_surface_free(fv_surface_t *s);
/* A surface from a face list over n_nodes points (faces of 3 or 4 nodes);
 * the points keep their numbers, those no face uses included. */
fv_err_t fv_surface_build(fv_surface_t *s, fv_idx_t n_nodes, const double *xyz, fv_idx_t n_faces,
			  const fv_idx_t *face_node_off, const fv_idx_t *face_node);
/* The boundary faces of a prepared mesh whose marker k has use_marker[k]
 * set (use_marker[n_markers]), over the mesh nodes they use (numbered by
 * first use; node_mesh maps back); an error when they are none. */
fv_err_t fv_surface_extract(fv_surface_t *s, const fv_mesh_t *m, const uint8_t *use_marker);
/* node_val[n_nodes] = sum over the faces around a node of area * face_val,
 * divided by the sum of their areas. */
fv_err_t fv_surface_face_to_node(const fv_surface_t *s, const double *face_val, double *node_val);
/* The surface as a VTK XML unstructured grid of triangles and quads (raw
 * appended binary, written to path.tmp and renamed), with the scalar
 * `name` as point data (node_val) and cell data (face_val), for ParaView. */
fv_err_t fv_surface_write_vtu(const char *path, const fv_surface_t *s, const char *name, const double *node_val,
			      const double *face_val);

/* ------------------------------------------------------------------ cuts */

/* Curves of a plane cut: points of curve k are curve_off[k] ..
 * curve_off[k+1]-1, in walking order; a closed curve does not repeat its
 * first point. */
typedef struct fv_cut {
	int n_curves;
	fv_idx_t *curve_off;       /* [n_curves + 1] */
	uint8_t *closed;           /* [n_curves] */
	fv_idx_t n_points;
	double *xyz;               /* [3 * n_points] */
	double *value;             /* [n_points] */
} fv_cut_t;

void fv_cut_init(fv_cut_t *c);
void fv_cut_free(fv_cut_t *c);
/*
 * Cuts the surface (quads as the triangles 012 and 023) with the plane
 * xyz[axis] = c0. Node values (node_val may be NULL) and coordinates are
 * interpolated linearly along the cut edges; the cut coordinate is set to c0
 * exactly. A node on the plane counts as above it, so every triangle is cut
 * along 0 or 2 edges and the segments join by edge into curves; repeated
 * points (a curve through a node) are removed. An empty cut is no error.
 */
fv_err_t fv_surface_cut(const fv_surface_t *s, const double *node_val, int axis, double c0, fv_cut_t *cut);
/* The length of curve k (closing segment included when closed). */
double fv_cut_length(const fv_cut_t *c, int k);

/* ----------------------------------------------------- span stations */

/* A trapezoidal planform: leading edge x = y tan(sweep_le), chord
 * c(y) = c_root - y (tan(sweep_le) - tan(sweep_te)). */
typedef struct fv_planform {
	double c_root, sweep_le_deg, sweep_te_deg, semi_span;
} fv_planform_t;

/* The ONERA M6 wing scaled to the semi-span b (1.1963 m as built):
 * root chord 0.8059 b / 1.1963, sweeps 30 and 15.8 degrees. */
void fv_planform_onera_m6(fv_planform_t *p, double semi_span);
/* 2y/b of the seven pressure sections of AGARD AR-138 test 2308. */
#define FV_M6_N_STATIONS 7
extern const double fv_m6_station_eta[FV_M6_N_STATIONS];

typedef struct fv_station_point {
	double x_c, z_c, value;    /* chord coordinates (from the LE point) */
	double x, y, z;
	int upper;                 /* 1 upper surface, 0 lower */
} fv_station_point_t;

/*
 * A span station: the cut of a wing by y = eta * semi_span, its points in
 * chord coordinates, the upper surface (above the line from the LE point,
 * min x, to the TE point, max x) then the lower surface, each by
 * increasing x/c, from the measured LE and chord or the planform's.
 */
typedef struct fv_station {
	double eta, y;
	int n_curves;              /* curves of the cut (1 for a clean wing) */
	double le[3], te[3];       /* min-x and max-x points of the cut */
	double chord;              /* measured: te[0] - le[0] */
	double x_le_nominal, chord_nominal;   /* planform, 0 without one */
	double x_le_used, chord_used;         /* what x/c is taken from */
	fv_idx_t n_upper, n_lower;
	fv_station_point_t *pt;    /* [n_upper + n_lower] upper first */
} fv_station_t;

void fv_station_free(fv_station_t *st);
/* Builds a station from a cut (all its curves; an error when it is
 * empty or has a zero chord). planform (may be NULL) gives the nominal LE
 * and chord; nominal = 1 takes x/c from them, 0 from the measured ones. */
fv_err_t fv_station_from_cut(const fv_cut_t *cut, double eta, double y, const fv_planform_t *planform, int nominal,
			     fv_station_t *st);
/* Writes the station as CSV: x_over_c,z_over_c,<value_name>,surface,x,y,z. */
fv_err_t fv_station_write_csv(const fv_station_t *st, const char *value_name, const char *path);

/* ---------------------------------------------------- experimental data */

typedef struct fv_exp_point {
	int tap;
	double x_c, z_c, cp;
	int upper;                 /* by tap number: taps above the lower run */
} fv_exp_point_t;

typedef struct fv_exp_zone {
	char title[128];
	int section;               /* the Section column (1..7 for the M6) */
	int line;                  /* the ZONE line in the file */
	int n, n_upper, n_lower;
	fv_exp_point_t *pt;        /* [n] in file order */
} fv_exp_zone_t;

typedef struct fv_expdata {
	int n_zones;
	fv_exp_zone_t *zone;
} fv_expdata_t;

/*
 * Reads a Tecplot ASCII point file of surface pressures: VARIABLES naming
 * Section, Tap, X/L, Z/L and CP (any order, no others), ZONE lines with
 * I=count and F=POINT, one row of numbers per point. Each zone lists the
 * lower surface from the TE to tap 1 at the LE, then the upper surface:
 * taps 1 .. (row of tap 1) are lower, the others upper, and the taps of a
 * zone must be 1..I once each. Errors name "file:line:".
 */
fv_err_t fv_expdata_read(fv_expdata_t *e, const char *path);
void fv_expdata_free(fv_expdata_t *e);
/* The zone of a section number, or NULL. */
const fv_exp_zone_t *fv_expdata_section(const fv_expdata_t *e, int section);
/* CSV: x_over_c,z_over_c,cp,surface,tap (upper then lower, by x/c). */
fv_err_t fv_exp_zone_write_csv(const fv_exp_zone_t *z, const char *path);

#ifdef __cplusplus
}
#endif
#endif
