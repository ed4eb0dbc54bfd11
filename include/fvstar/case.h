/* SPDX-License-Identifier: MIT */
/* The case file of `fvstar run` (INI): every setting of a run with its
 * default, command-line overrides, cross-checks and boundary conditions. */
#ifndef FVSTAR_CASE_H
#define FVSTAR_CASE_H

#include <stdio.h>

#include "fvstar/error.h"
#include "fvstar/mesh.h"
#include "fvstar/numerics.h"
#include "fvstar/partition.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FV_CASE_PATH_MAX 512
#define FV_CASE_MAX_BC 64     /* [bc] entries (one per mesh marker) */
#define FV_CASE_MAX_KEYS 128  /* table keys; src/io/case.c checks its table */

/* The values of the enumerated keys of the case file (the numerical
 * method's are in fvstar/numerics.h). Fields of fv_case_t that hold them
 * are int so that one table can set every field through its offset. */
typedef enum fv_mesh_format {
	FV_MESH_FORMAT_AUTO, FV_MESH_FORMAT_SU2, FV_MESH_FORMAT_GMSH, FV_MESH_FORMAT_CGNS, FV_MESH_FORMAT_FVM
} fv_mesh_format_t;
typedef enum fv_init { FV_INIT_FREESTREAM, FV_INIT_RIEMANN, FV_INIT_VORTEX } fv_init_t;
typedef enum fv_model { FV_MODEL_EULER, FV_MODEL_LAMINAR, FV_MODEL_SA } fv_model_t;
/* Boundary-condition kinds: enum fv_bc_kind of fvstar/numerics.h (the kernels'
 * own definition), FV_BC_FARFIELD .. FV_BC_PRESSURE_OUTLET. */
typedef enum fv_bc_kind fv_bc_kind_t;

/* Names of the boundary-condition kinds as written in [bc]. */
const char *fv_bc_kind_name(int kind);

typedef struct fv_case_bc {
	char marker[FV_MARKER_NAME_MAX];
	int kind;                 /* fv_bc_kind_t */
	int line;                 /* where it was set: > 0 case-file line, -1 command line */
} fv_case_bc_t;

typedef struct fv_case {
	/* the case file; empty when none was read */
	char path[FV_CASE_PATH_MAX];      /* as given */
	char dir[FV_CASE_PATH_MAX];       /* its directory ("." when none) */
	char name[FV_CASE_PATH_MAX];      /* its base name without .cfg */

	/* [mesh] */
	char mesh_file[FV_CASE_PATH_MAX]; /* resolved: relative to dir when from the file */
	int mesh_refine;
	int mesh_format;                  /* fv_mesh_format_t */

	/* [flow] dimensionless: rho_inf = 1, p_inf = 1/gamma, c_inf = 1 */
	double mach, alpha_deg, beta_deg, gamma;
	int init;                         /* fv_init_t */
	int riemann_axis;                 /* 0 x, 1 y, 2 z */
	double riemann_x0;
	double riemann_left[3];           /* rho, u along the axis, p */
	double riemann_right[3];
	double vortex_x0, vortex_y0, vortex_strength, vortex_radius;
	int model;                        /* fv_model_t */
	double reynolds, reynolds_length; /* laminar: Re on the length (mesh units) */
	double temperature;               /* laminar: T_inf [K] */
	double sutherland;                /* [K]; < 0: constant viscosity */
	double prandtl, prandtl_turb;
	double nut_ratio;                 /* sa: nu~_inf / nu_inf */

	/* [numerics]: the solver reads it as it is */
	fv_numerics_t num;
	double residual_ref;              /* [numerics] the residual reports' reference; 0: the peak so far */

	/* [bc] */
	int n_bc;
	fv_case_bc_t bc[FV_CASE_MAX_BC];
	double p_out;                     /* 0 until fv_case_finish: then 1/gamma if unset */
	double wall_temperature;          /* [K]; 0 until fv_case_finish: then temperature */

	/* [partition] */
	int blocks;                       /* 0: automatic */
	int partitioner;                  /* fv_partitioner_t */
	int seed;

	/* [runtime] */
	char sched[64];                   /* empty: STARPU_SCHED or StarPU's default */
	int ncpu, ncuda;                  /* -1: StarPU's default */
	int pin_blocks;                   /* 0/1: blocks on their worker (speed-weighted; several GPUs) */
	int balance;                      /* fv_balance_kind_t */
	double gpu_speed;                 /* 0: models, else FV_GPU_SPEED_DEFAULT */
	char worker_speeds[256];          /* "1,3"; empty: by worker type */
	int oversubscribe;                /* 0/1: more CPU workers than cores allowed */
	double watchdog;                  /* several ranks: seconds of silence before all stop; 0: none */
	int memory_check;                 /* 0 yes, 1 warn, 2 no: the memory budget before allocating */

	/* [output] */
	char out_dir[FV_CASE_PATH_MAX];   /* empty until fv_case_finish: out/<name> */
	int history_every;
	int progress_every;               /* 0: no progress lines */
	int vtu;                          /* 0/1 */
	int vtu_block_id;                 /* 0/1 */
	int restart_every;                /* 0: only at the end */
	int snapshot_every;               /* 0: no state kept for a diverged run */
	char restart_from[FV_CASE_PATH_MAX];
	int restart_from_model;           /* fv_model_t a restart may come from; -1: the run's own only */
	char trace_dir[FV_CASE_PATH_MAX];
	int trace_from;                   /* first traced iteration; 0: the run's first */

	/* [forces] */
	char force_markers[FV_CASE_PATH_MAX]; /* "a,b"; empty: all wall markers */
	double ref_area, ref_length;
	double moment_center[3];

	/* where each table key was set: 0 default, > 0 case-file line,
	 * -1 command line (for duplicate checks and messages) */
	int key_line[FV_CASE_MAX_KEYS];
	int finished;
	/* not a key: the mesh is 2D (SU2 NDIME= 2, extruded in z), set by
	 * fv_case_set_mesh_2d once the mesh is known */
	int mesh_2d;
} fv_case_t;

/* All keys at their defaults, no case file. */
void fv_case_default(fv_case_t *c);
/* Reads an INI case file into c (set by fv_case_default first). Unknown
 * sections and keys, bad values and duplicate keys are errors naming
 * "file:line: [section] key = 'value'" and what was expected. */
fv_err_t fv_case_read(fv_case_t *c, const char *path);
/* The same from len bytes in memory (need not end in NUL); name stands for
 * the file in messages and places relative [mesh] paths. */
fv_err_t fv_case_parse(fv_case_t *c, const char *buf, size_t len, const char *name);
/* Sets one key from "section.key" and a value, as from the command line
 * ("numerics.cfl=2"); origin names the source in messages ("command
 * line"). A [mesh] file given here is relative to the working directory. */
fv_err_t fv_case_set(fv_case_t *c, const char *section_dot_key, const char *value, const char *origin);
/* Same for a whole "section.key=value" argument. */
fv_err_t fv_case_set_arg(fv_case_t *c, const char *arg, const char *origin);
/* Cross-checks and derived defaults: [mesh] file required, unsteady needs
 * t_end, p_out defaults to 1/gamma, output dir to out/<case name>. */
fv_err_t fv_case_finish(fv_case_t *c);
/* All effective values as a case file that reproduces the run, with the
 * origin of every value that is not a default in a comment. */
void fv_case_print(const fv_case_t *c, FILE *out);
/* The key reference (Markdown tables: key, type, default, meaning), as
 * cases/README.md holds it. */
void fv_case_write_doc(FILE *out);
/* The same for one section (NULL: all); an unknown section is an error. */
fv_err_t fv_case_write_doc_section(FILE *out, const char *section);

/* The boundary condition of every mesh marker into kind[n_markers]
 * (kind may be NULL to check only). Errors name markers missing from [bc],
 * [bc] keys that name no marker, and [forces] markers not in the mesh. */
fv_err_t fv_case_check_markers(const fv_case_t *c, const fv_mesh_t *m);
fv_err_t fv_case_bc_kinds(const fv_case_t *c, const fv_mesh_t *m, int *kind);
/* is_force[n_markers]: 1 for the markers whose forces are integrated
 * ([forces] markers, or every wall marker when that is empty). */
fv_err_t fv_case_force_markers(const fv_case_t *c, const fv_mesh_t *m, uint8_t *is_force);

/* The mesh is 2D (fv_mesh_t's extruded_2d): alpha then turns the free
 * stream in the x-y plane and the lift is along y (SU2's 2D convention);
 * a 2D mesh with beta != 0 is FV_ERR_ARG, naming alpha as the fix (c->mesh_2d
 * is set either way). Before the free stream or the forces are used. */
fv_err_t fv_case_set_mesh_2d(fv_case_t *c, int is_2d);
/* The axes of the forces in words, for the log and summary.json ("lift
 * along y, drag along x (2D mesh ...)"). */
const char *fv_case_axes(const fv_case_t *c);
/* The free stream as primitive variables rho, u, v, w, p. On a 3D mesh,
 * alpha in the x-z plane and beta the sideslip (SU2's convention):
 * u = M (cos a cos b, sin b, sin a cos b); on a 2D mesh (fv_case_set_mesh_2d)
 * u = M (cos a, sin a, 0); rho = 1, p = 1/gamma. */
void fv_case_freestream(const fv_case_t *c, double prim[5]);
/* Unit vectors of drag (along the free stream), side force and lift; 3D:
 * drag = (cos a cos b, sin b, sin a cos b), side = (-cos a sin b, cos b,
 * -sin a sin b), lift = (-sin a, 0, cos a); 2D: drag = (cos a, sin a, 0),
 * side = (0, 0, 1), lift = (-sin a, cos a, 0). */
void fv_case_force_axes(const fv_case_t *c, double drag[3], double side[3], double lift[3]);
/* Force and moment (non-dimensional, as the solver integrates them) to
 * coefficients coef[FV_NCOEF] = CD, CS, CL, CMx, CMy, CMz: forces over
 * q_inf ref_area, moments over q_inf ref_area ref_length, with
 * q_inf = rho_inf |V_inf|^2 / 2 of fv_case_freestream. */
#define FV_NCOEF 6
void fv_case_force_coeffs(const fv_case_t *c, const double force[3], const double moment[3],
			  double coef[FV_NCOEF]);

#ifdef __cplusplus
}
#endif
#endif
