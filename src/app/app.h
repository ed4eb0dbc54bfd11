/* SPDX-License-Identifier: MIT */
/* Sub-commands of the fvstar command and their shared option helpers. */
#ifndef FVSTAR_APP_H
#define FVSTAR_APP_H

#include "fvstar/case.h"
#include "fvstar/error.h"
#include "fvstar/partition.h"
#include "fvstar/solver.h"

fv_err_t fv_cmd_mesh(int argc, char **argv);
fv_err_t fv_cmd_runtime(int argc, char **argv);
fv_err_t fv_cmd_run(int argc, char **argv);
fv_err_t fv_cmd_surface(int argc, char **argv);
fv_err_t fv_cmd_bench(int argc, char **argv);
fv_err_t fv_cmd_trace(int argc, char **argv);

/* `fvstar mesh walldist` on a prepared mesh (src/app/cmd_walldist.c):
 * walls is the comma-separated list of wall markers; out a .vtu or NULL. */
fv_err_t fv_app_walldist(const fv_mesh_t *m, const char *walls, int n_threads, const char *out);

/* The mesh of a run (src/app/cmd_run.c): read, refined [mesh] refine
 * times, prepared, markers checked against the case. */
fv_err_t fv_app_load_mesh(const fv_case_t *c, fv_mesh_t *m);
/* Partition into nb blocks and renumbering as a run does them (restart and
 * solution files keep the mesh file's order, m->cell_orig).
 * weights: the blocks' target shares (NULL: equal blocks), groups: cut into
 * groups first (fv_partition_cells_weighted). part[n_cells], off[nb + 1]. */
fv_err_t fv_app_order_cells(const fv_case_t *c, fv_mesh_t *m, int nb, const double *weights, const int *groups,
			    int32_t *part, fv_idx_t *off, fv_partition_stats_t *ps, fv_order_stats_t *os);

/* The initial conservative state of a case, SoA over the mesh's cells. */
void fv_app_initial_state(const fv_case_t *c, const fv_mesh_t *m, fv_real_t *q);
/* Rows of the state: 5, 6 with Spalart-Allmaras (rho nu~). */
int fv_app_nvars(const fv_case_t *c);
/* Spalart-Allmaras: each cell's distance to the nearest no-slip wall face
 * of the (renumbered) mesh into *dist (malloc'd). */
fv_err_t fv_app_wall_distances(const fv_case_t *c, const fv_mesh_t *m, const fv_solver_opts_t *so, double **dist);
/* Spalart-Allmaras: nu~ of the free stream in the solver's units. */
double fv_app_nut_inf(const fv_case_t *c);
/* The solver options of a case on mesh m; so->marker_bc and marker_force
 * point to *bc and *force ([n_markers + 1] each, the caller frees them). */
fv_err_t fv_app_solver_opts(const fv_case_t *c, const fv_mesh_t *m, fv_solver_opts_t *so, int8_t **bc,
			    uint8_t **force);

/* Strict option values: the whole string must parse and lie in range. */
fv_err_t fv_opt_long(const char *opt, const char *s, long lo, long hi, long *v);
fv_err_t fv_opt_double(const char *opt, const char *s, double lo, double hi, double *v);
/* "x,y,z" */
fv_err_t fv_opt_vec3(const char *opt, const char *s, double v[3]);

#endif
