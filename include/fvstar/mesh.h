/* SPDX-License-Identifier: MIT */
/* The global host mesh: nodes, cells of four types, boundary markers, and
 * the connectivity and geometry arrays built from them. */
#ifndef FVSTAR_MESH_H
#define FVSTAR_MESH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fvstar/error.h"
#include "fvstar/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Cell and boundary-element types. Node numbering follows VTK (and SU2):
 *
 *   tet        3             pyramid      4           prism  3-----5
 *             /|\                        /|\\                |\   /|
 *            / | \                      / | \ \              | \ / |
 *           0--|--2                    3--|--\-2             |  4  |
 *            \ | /                     |  |   \|             0--|--2
 *             \|/                      0------ 1              \ | /
 *              1                                               \|/
 *                                                               1
 *   (0,1,2) normal points towards 3;  base (0,1,2,3) normal points to the
 *   apex 4;  prism: (0,1,2) normal points away from (3,4,5);  hex: bottom
 *   (0,1,2,3) normal points towards the top (4,5,6,7), 4 above 0.
 */
typedef enum fv_cell_type {
	FV_TET = 0,
	FV_PYRAMID = 1,
	FV_PRISM = 2,
	FV_HEX = 3,
	FV_NCELLTYPES = 4
} fv_cell_type_t;

typedef enum fv_face_type { FV_TRI = 3, FV_QUAD = 4 } fv_face_type_t;

#define FV_MAX_CELL_NODES 8
#define FV_MAX_CELL_FACES 6
#define FV_MAX_FACE_NODES 4
#define FV_MARKER_NAME_MAX 64

/* Local faces of each cell type, outward normals (right-hand rule). */
typedef struct fv_cell_shape {
	const char *name;
	int n_nodes;
	int n_faces;
	int face_n_nodes[FV_MAX_CELL_FACES];
	int face_node[FV_MAX_CELL_FACES][FV_MAX_FACE_NODES];
	int su2_id;   /* VTK / SU2 element id */
	int gmsh_id;  /* Gmsh element type */
} fv_cell_shape_t;

extern const fv_cell_shape_t fv_cell_shapes[FV_NCELLTYPES];

typedef struct fv_marker {
	char name[FV_MARKER_NAME_MAX];
} fv_marker_t;

/*
 * Indices are fv_idx_t (int32_t): up to 2^31-1 cells, faces, nodes and CSR
 * entries; readers and builders check the limit. CSR arrays are pairs
 * (X_off[n + 1], X[X_off[n]]). Coordinates are double (they come from files
 * and are refined repeatedly); geometry is fv_real_t, stored as structures of
 * arrays (component d of face f at face_area[d * n_faces + f]).
 */
typedef struct fv_mesh {
	char source[256];          /* file name or generator, for messages */

	/* nodes */
	fv_idx_t n_nodes;
	double *xyz;               /* [3 * n_nodes], x y z of node i at 3i */

	/* cells */
	fv_idx_t n_cells;
	uint8_t *cell_type;        /* [n_cells] fv_cell_type_t */
	fv_idx_t *cell_node_off;   /* [n_cells + 1] */
	fv_idx_t *cell_node;       /* [cell_node_off[n_cells]] VTK order */

	/* boundary elements as read or generated: tri / quad with a marker */
	int n_markers;
	fv_marker_t *markers;      /* [n_markers] */
	fv_idx_t n_belems;
	uint8_t *belem_type;       /* [n_belems] FV_TRI or FV_QUAD */
	fv_idx_t *belem_node_off;  /* [n_belems + 1] */
	fv_idx_t *belem_node;
	int32_t *belem_marker;     /* [n_belems] index into markers */

	/* connectivity (fv_mesh_build_faces): boundary faces first, sorted by
	 * marker; owner < neighbour; normal from owner to neighbour */
	fv_idx_t n_faces;
	fv_idx_t n_bfaces;
	fv_idx_t *face_cell;       /* [2 * n_faces] owner, neighbour (-1: bnd) */
	fv_idx_t *face_node_off;   /* [n_faces + 1] */
	fv_idx_t *face_node;
	int32_t *face_marker;      /* [n_bfaces] */
	fv_idx_t *marker_face_off; /* [n_markers + 1] bnd faces of marker m */
	fv_idx_t *cell_face_off;   /* [n_cells + 1] */
	fv_idx_t *cell_face;       /* faces of a cell in its local face order */
	int8_t *cell_face_sign;    /* +1 where the cell owns the face, else -1 */
	fv_idx_t *cell_cell;       /* [cell_face_off[n_cells]] neighbour across
	                              that face, -1 on the boundary */
	fv_idx_t *node_cell_off;   /* [n_nodes + 1] */
	fv_idx_t *node_cell;

	/* geometry (fv_mesh_compute_geometry) */
	fv_real_t *cell_vol;       /* [n_cells] */
	fv_real_t *cell_ctr;       /* [3 * n_cells] SoA */
	fv_real_t *face_area;      /* [3 * n_faces] SoA, |S| = face area */
	fv_real_t *face_ctr;       /* [3 * n_faces] SoA */

	/* The file's order and numbers, so that restart and solution files and
	 * messages do not depend on renumbering (fv_mesh_renumber permutes
	 * these with the cells and nodes). NULL means the identity: a reader
	 * or generator that produces cells and nodes in file order may leave
	 * the orders NULL, and one whose file numbers elements from 1 in that
	 * order may leave the tags NULL too. */
	fv_idx_t *cell_orig;       /* [n_cells] 0-based position of the cell in
	                              the order the file (generator, refinement)
	                              produced the cells */
	fv_idx_t *node_orig;       /* [n_nodes] the same for nodes */
	int64_t *cell_tag;         /* [n_cells] the element's number in the
	                              file, for messages: Gmsh element tag, SU2
	                              element index (from 0, as SU2 numbers them);
	                              NULL: cell_orig + 1. After refinement: the
	                              tag of the file's element the cell is in */
	int64_t *node_tag;         /* [n_nodes] the same for nodes (Gmsh node tag,
	                              SU2 point index); NULL: node_orig + 1 */
	int refine_levels;         /* uniform refinements between the file's
	                              elements (cell_tag) and these cells */
	/* a 2D file (SU2 NDIME= 2) extruded one layer in z: nodes at z = 0 and
	 * z = extrude_span, two symmetry markers added (fv_mesh_extrude_2d) */
	int extruded_2d;
	double extrude_span;
	int extrude_marker[2];     /* z = 0 and z = span markers, -1 if none */
} fv_mesh_t;

/* File position and file number of cell c and node v (see above). */
static inline fv_idx_t fv_mesh_cell_orig(const fv_mesh_t *m, fv_idx_t c)
{
	return m->cell_orig ? m->cell_orig[c] : c;
}
static inline fv_idx_t fv_mesh_node_orig(const fv_mesh_t *m, fv_idx_t v)
{
	return m->node_orig ? m->node_orig[v] : v;
}
static inline int64_t fv_mesh_cell_tag(const fv_mesh_t *m, fv_idx_t c)
{
	return m->cell_tag ? m->cell_tag[c] : (int64_t)fv_mesh_cell_orig(m, c) + 1;
}
static inline int64_t fv_mesh_node_tag(const fv_mesh_t *m, fv_idx_t v)
{
	return m->node_tag ? m->node_tag[v] : (int64_t)fv_mesh_node_orig(m, v) + 1;
}

void fv_mesh_init(fv_mesh_t *m);
void fv_mesh_free(fv_mesh_t *m);
/* Frees connectivity and geometry, keeping nodes, cells and markers. */
void fv_mesh_free_derived(fv_mesh_t *m);

/* Allocates nodes, cells and boundary elements of known counts; CSR
 * offsets are left for the caller (sizes: n_cell_nodes, n_belem_nodes). */
fv_err_t fv_mesh_alloc(fv_mesh_t *m, size_t n_nodes, size_t n_cells,
		       size_t n_cell_nodes, size_t n_belems, size_t n_belem_nodes);
/* Returns the index of marker name, adding it if new. */
fv_err_t fv_mesh_marker(fv_mesh_t *m, const char *name, int *index);

/* Readers: format from the contents or the extension (.su2, .msh, .cgns,
 * .fvm).
 * Errors name the file and line (CGNS: node and section). The mesh has
 * nodes, cells and markers only. A 2D SU2 file is extruded (below). */
fv_err_t fv_mesh_read(fv_mesh_t *m, const char *path);
fv_err_t fv_mesh_read_su2(fv_mesh_t *m, const char *path);
fv_err_t fv_mesh_read_gmsh(fv_mesh_t *m, const char *path);
/* CGNS (HDF5 or ADF) through the CGNS library: one base, one unstructured
 * zone of linear cells (sections of one type or MIXED); markers from the
 * boundary conditions, named after their family if they have one, else
 * after the BC; without any BC, after the 2D sections. FV_ERR_FORMAT,
 * saying so, when fvstar was configured without CGNS. */
fv_err_t fv_mesh_read_cgns(fv_mesh_t *m, const char *path);
/* 1 when fvstar was built with the CGNS library. */
int fv_mesh_have_cgns(void);
/* The same from a buffer (name is used in messages; fuzzing uses these). */
fv_err_t fv_mesh_parse_su2(fv_mesh_t *m, const char *buf, size_t len, const char *name);
fv_err_t fv_mesh_parse_gmsh(fv_mesh_t *m, const char *buf, size_t len, const char *name);
/* fvstar's binary format (.fvm, doc/mesh-format.md): the arrays of the
 * mesh that was written, checksummed, read by mapping the file; errors name
 * the file, the section and the offset. */
fv_err_t fv_mesh_read_fvm(fv_mesh_t *m, const char *path);
fv_err_t fv_mesh_parse_fvm(fv_mesh_t *m, const void *buf, size_t len, const char *name);

/* 2D meshes (SU2 NDIME= 2) become one layer of prisms (triangles) and
 * hexahedra (quadrilaterals) between z = 0 and z = FV_EXTRUDE_SPAN_DEFAULT
 * (1 length unit of the file: one chord of the usual airfoil meshes; any
 * span gives the same 2D flow, as the two z faces are symmetry planes).
 * Boundary lines become quadrilaterals under their marker; the faces at
 * z = 0 and z = span get the markers symmetry_zmin and symmetry_zmax
 * (with a suffix _2, _3... where the file already has that name). */
#define FV_EXTRUDE_SPAN_DEFAULT 1.0
/* Scales z of an extruded 2D mesh to a new span (before faces and
 * geometry are built). FV_ERR_ARG if the mesh is not one. */
fv_err_t fv_mesh_set_extrude_span(fv_mesh_t *m, double span);

/* Writers: .su2 (ASCII), .fvm (binary, above), .cgns (through the CGNS
 * library: one base, one zone, the cells in one section, each marker a
 * section and a BC of its name; FV_ERR_FORMAT when built without CGNS) and
 * .vtu (VTK XML, binary appended, with cell type, volume when computed,
 * and marker faces as a second piece). Each writes a temporary file and
 * renames it. */
fv_err_t fv_mesh_write(const fv_mesh_t *m, const char *path);
fv_err_t fv_mesh_write_su2(const fv_mesh_t *m, const char *path);
fv_err_t fv_mesh_write_fvm(const fv_mesh_t *m, const char *path);
fv_err_t fv_mesh_write_cgns(const fv_mesh_t *m, const char *path);
fv_err_t fv_mesh_write_vtu(const fv_mesh_t *m, const char *path);
/* The cells (file order, as the solution VTU) with one Float64 cell field
 * values[c] (mesh order) called name: for inspecting a per-cell quantity. */
fv_err_t fv_mesh_write_vtu_field(const fv_mesh_t *m, const char *path, const char *name, const double *values);

/* Connectivity: faces from cells (hash of sorted node tuples), boundary
 * elements matched to boundary faces, CSR arrays. Errors: face shared by
 * more than two cells, unmarked boundary face, marker element that is not
 * a boundary face, node ids out of range. */
fv_err_t fv_mesh_build_faces(fv_mesh_t *m);
/* The same connectivity as fv_mesh_build_faces, for a mesh whose cells
 * were just reordered (cell c is old cell perm[c], its nodes in the same
 * order, relabelled) while its faces still describe the old order: each
 * face found from the old one instead of the hash of its nodes, numbered
 * and oriented exactly as fv_mesh_build_faces would (the mesh was checked
 * when its faces were first built). */
fv_err_t fv_mesh_rebuild_faces(fv_mesh_t *m, const fv_idx_t *perm);
fv_err_t fv_mesh_build_node_cells(fv_mesh_t *m);
/* Volumes, centroids, face area vectors and centroids (non-planar quads:
 * four triangles around the node average). */
fv_err_t fv_mesh_compute_geometry(fv_mesh_t *m);

typedef struct fv_mesh_stats {
	fv_idx_t n_cells_of_type[FV_NCELLTYPES];
	double vol_min, vol_max, vol_sum;
	double area_min, area_max;
	double closure_max;        /* max |sum S| / sum |S| over cells */
	double bbox[6];            /* xmin xmax ymin ymax zmin zmax */
} fv_mesh_stats_t;

/* Checks: positive volumes, closed cells (relative tolerance tol, or a
 * precision default when tol <= 0), finite coordinates. Fills stats. */
fv_err_t fv_mesh_check(const fv_mesh_t *m, double tol, fv_mesh_stats_t *stats);
/* Total area vector and area of the boundary faces of marker k. */
void fv_mesh_marker_area(const fv_mesh_t *m, int k, double area_vec[3], double *area);

/* Wall distance (Spalart-Allmaras' d): dist[c] is the exact Euclidean
 * distance from the centroid of cell c (cell_ctr, the volume centroid of
 * fv_mesh_compute_geometry, which must have run) to the nearest point of
 * the boundary elements whose marker k has wall_marker[k] != 0
 * (wall_marker has n_markers entries). Each wall element is the surface
 * the geometry uses: a triangle, or a quad as four triangles around the
 * average of its nodes (the quad itself when planar). A bounding volume
 * hierarchy of the wall triangles is searched from every cell on
 * n_threads threads (0: one per online processor); the result does not
 * depend on n_threads, bit for bit. FV_ERR_ARG when no marker is a wall or
 * the wall markers have no elements: the caller decides what that means. */
fv_err_t fv_wall_distance(const fv_mesh_t *m, const uint8_t *wall_marker, int n_threads, double *dist);

/* read + faces + node cells + geometry + checks, the usual pipeline */
fv_err_t fv_mesh_load(fv_mesh_t *m, const char *path);
/* faces + node cells + geometry + checks on a mesh already in memory */
fv_err_t fv_mesh_prepare(fv_mesh_t *m);

/* Generators. */
typedef enum fv_gen_cells {
	FV_GEN_HEX, FV_GEN_TET, FV_GEN_PRISM, FV_GEN_MIXED
} fv_gen_cells_t;

/* The flat plate of NASA TMR's 2D zero-pressure-gradient case: x from
 * -lead to length (the plate is 0 <= x <= length, y = 0), y from 0 to
 * height, z from 0 to span, one cell thick. Sizes are the points of the
 * finest grid of a nested family (level 1), as TMR counts them; level k
 * keeps every 2^(k-1)-th point of it, so each level's nodes are nodes of
 * all finer levels. Spacings are those of level 1 too. */
typedef struct fv_gen_plate {
	int nx, ny;                /* level-1 points: 545 x 385 (TMR's finest) */
	int level;                 /* 1 (finest) and up: 2, 3, 4, 5 give TMR's
	                              273x193, 137x97, 69x49, 35x25 */
	int nx_lead;               /* level-1 cells ahead of the plate; 0: 3/17
	                              of nx - 1 (96 of 544), rounded to a
	                              multiple of the level's stride */
	double length, lead;       /* plate length 2, inflow region 0.33333 */
	double height, span;       /* 1; span 0: length / 20 */
	double y1;                 /* first wall-normal spacing: 5e-7 (TMR's
	                              finest, y+ ~ 0.1 at Re 5e6 per unit) */
	double re;                 /* > 0: y1 for y+ = 1 at Reynolds number re
	                              per unit length instead (see generate.c) */
	double dx_le, dx_te;       /* x spacings at the leading edge (both
	                              sides) and at the plate's end; 0: 1/8 and
	                              1/2 of length / plate cells */
} fv_gen_plate_t;

/* NASA TMR's 2D bump in a channel (https://turbmodels.larc.nasa.gov/
 * bump.html): a no-slip wall 0 <= x <= 1.5 with the bump y = 0.05
 * sin^4(pi x / 0.9 - pi / 3) on 0.3 <= x <= 1.2, the floor y = 0 ahead of
 * it from x = -25 and behind it to x = 26.5, the top y = 5, z from 0 to
 * span, one cell thick. Grid lines x = const; along each, the nodes of the
 * flat channel move up by the bump's height times (1 - y / 5), so they
 * follow the bump and relax to flat at the top. Sizes count the points of
 * the finest grid of the nested family (level 1) as TMR does, cells in x
 * split 3 : 5 : 3 ahead of, on and behind the wall; level k keeps every
 * 2^(k-1)-th point. */
typedef struct fv_gen_bump {
	int nx, ny;                /* level-1 points: 1409 x 641 (TMR's finest) */
	int level;                 /* 1 (finest) and up: 1..5 give TMR's 1409x641,
	                              705x321, 353x161, 177x81, 89x41 */
	double y1;                 /* first wall-normal spacing at level 1: 5e-7
	                              (y+ ~ 0.1 at Re 3e6 per unit length; on level
	                              5, 9e-6 and y+ up to 1.0) */
	double span;               /* 0: 0.1 */
} fv_gen_bump_t;

typedef struct fv_gen_opts {
	fv_gen_cells_t cells;
	int nx, ny, nz;            /* hexahedral blocks in each direction */
	double lo[3], hi[3];       /* box extent; ramp: x in [0, hi-lo], y in [0, H],
	                              z in [lo, hi] */
	double perturb;            /* interior nodes move by a random vector of length
	                              <= (2/3) perturb spacings (perturb <= 0.3; a Kuhn
	                              tet flattens only at 0.289) */
	unsigned long seed;
	double ramp_angle_deg;     /* ramp: wedge angle */
	double ramp_x0;            /* ramp: where the wedge starts (fraction) */
	fv_gen_plate_t plate;      /* plate: its own sizes (nx, ny above unused) */
	fv_gen_bump_t bump;        /* bump: its own sizes (nx, ny above unused) */
} fv_gen_opts_t;

void fv_gen_opts_default(fv_gen_opts_t *o);
/* Box: markers xmin xmax ymin ymax zmin zmax. */
fv_err_t fv_mesh_gen_box(fv_mesh_t *m, const fv_gen_opts_t *o);
/* Ramp channel extruded in z: markers inlet outlet wall top zmin zmax. */
fv_err_t fv_mesh_gen_ramp(fv_mesh_t *m, const fv_gen_opts_t *o);
/* Flat plate (o->plate and o->cells; no perturbation): markers inflow
 * outflow symmetry_front (y = 0, x < 0) wall (the plate) top side_zmin
 * side_zmax. A node lies at x = 0 exactly. */
fv_err_t fv_mesh_gen_plate(fv_mesh_t *m, const fv_gen_opts_t *o);
/* Bump in a channel (o->bump and o->cells; no perturbation): markers
 * inflow outflow symmetry_front (y = 0, x < 0) wall (0 <= x <= 1.5)
 * symmetry_back (y = 0, x > 1.5) top side_zmin side_zmax. Nodes lie at
 * x = 0, 0.75 (the crest) and 1.5 exactly. */
fv_err_t fv_mesh_gen_bump(fv_mesh_t *m, const fv_gen_opts_t *o);

/* Uniform refinement: tet, hex, prism into 8, pyramid into 6 pyramids and
 * 4 tets; boundary elements into 4; markers kept. out must be initialised;
 * in needs only nodes, cells and boundary elements. */
fv_err_t fv_mesh_refine(const fv_mesh_t *in, fv_mesh_t *out);

/* ------------------------------------------------ file order and numbers */

/* Cell c as users find it in their file, for messages: "element 542"; on a
 * refined mesh "cell 4331 (refined from element 542)", the cell counted
 * from 1 in the refined mesh's own order. Returns buf. */
const char *fv_mesh_cell_name(const fv_mesh_t *m, fv_idx_t c, char *buf, size_t size);
/* Up to n nodes as their file numbers, "12 13 14", into buf. */
const char *fv_mesh_node_list(const fv_mesh_t *m, const fv_idx_t *nodes, int n, char *buf, size_t size);

/* The inverse of cell_orig (node_orig): the mesh cell (node) at each file
 * position, allocated into *of_file (the caller frees it); *of_file is
 * NULL when the mesh is in file order. An order that is not a permutation
 * is an error. */
fv_err_t fv_mesh_file_cells(const fv_mesh_t *m, fv_idx_t **of_file);
fv_err_t fv_mesh_file_nodes(const fv_mesh_t *m, fv_idx_t **of_file);

/* What a restart file is written for: counts and a 64-bit hash of the cell
 * types, the cells' nodes and the node coordinates (bit patterns), each
 * cell and node keyed by its file position, so the same file (and the same
 * refinement of it) gives the same hash under any partition, renumbering
 * or block count; markers are not part of it. */
typedef struct fv_mesh_id {
	int64_t n_cells, n_nodes;
	uint64_t hash;
} fv_mesh_id_t;

fv_err_t fv_mesh_identity(const fv_mesh_t *m, fv_mesh_id_t *id);

/* Human-readable report of counts, markers, ranges and checks. */
void fv_mesh_print_info(const fv_mesh_t *m, const fv_mesh_stats_t *s, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
