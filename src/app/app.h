/* SPDX-License-Identifier: MIT */
/* Sub-commands of the fvstar command and their shared option helpers. */
#ifndef FVSTAR_APP_H
#define FVSTAR_APP_H

#include "fvstar/case.h"
#include "fvstar/error.h"
#include "fvstar/output.h"
#include "fvstar/partition.h"
#include "fvstar/solver.h"

fv_err_t fv_cmd_mesh(int argc, char **argv);
fv_err_t fv_cmd_runtime(int argc, char **argv);
fv_err_t fv_cmd_run(int argc, char **argv);
/* The command run again with OMP_WAIT_POLICY=passive where that is wanted
 * (src/app/fvstar.c: on many cores, cuda = 0: no CUDA worker will run);
 * returns where it is not (or the second start failed). */
void fv_app_passive_threads(int cuda);
/* The signal (SIGINT, SIGTERM) that stopped the last fv_cmd_run, 0: none;
 * the process then exits with 128 + it. */
int fv_app_stopped_by(void);
fv_err_t fv_cmd_surface(int argc, char **argv);
fv_err_t fv_cmd_bench(int argc, char **argv);
fv_err_t fv_cmd_trace(int argc, char **argv);
/* `fvstar sim` (src/app/cmd_sim.c): simulated, dry and calibration runs */
fv_err_t fv_cmd_sim(int argc, char **argv);
/* `fvstar mesh partition` (src/app/cmd_partition.c) */
fv_err_t fv_cmd_partition(int argc, char **argv);

/* `fvstar mesh walldist` on a prepared mesh (src/app/cmd_walldist.c):
 * walls is the comma-separated list of wall markers; out a .vtu or NULL. */
fv_err_t fv_app_walldist(const fv_mesh_t *m, const char *walls, int n_threads, const char *out);

/* The mesh of a run (src/app/cmd_run.c): read ([mesh] file and format),
 * refined [mesh] refine times, prepared; fv_app_load_mesh checks its
 * markers against the case's boundary conditions too. */
fv_err_t fv_app_read_mesh(const fv_case_t *c, fv_mesh_t *m);
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

/* Runs from mesh parts (src/app/parts.c). */
/* path is a partition directory (`fvstar mesh partition`: part.0.bin ...). */
int fv_app_is_part_dir(const char *path);
/* This rank's part from partition directory dir; refused, saying how to
 * cut the right one, when it was cut for another rank count. */
fv_err_t fv_app_read_part(const char *dir, fv_part_t *p);
/* fv_app_read_part's checks of a part p read already from dir (by the
 * launcher's rank, before MPI was up): refused and freed as there. */
fv_err_t fv_app_check_part(const char *dir, fv_part_t *p);
/* Every rank's part p of partition directory dir compared with rank 0's
 * (src/app/plan_dist.c): a part of another mesh or another cut is refused
 * on its rank, naming its file and rank. */
fv_err_t fv_app_parts_agree(const char *dir, const fv_part_t *p);
/* Cuts the loaded mesh m (renumbered in place) into nb blocks (weights,
 * groups: fv_app_order_cells) mapped to n_ranks ranks, and hands each
 * rank's part to each(rank, part, arg), the last rank first; each may keep
 * the part's contents by zeroing *part. */
fv_err_t fv_app_cut_parts(const fv_case_t *c, fv_mesh_t *m, int nb, const double *weights, const int *groups,
			  int n_ranks, fv_err_t (*each)(int rank, fv_part_t *p, void *arg), void *arg);
/* The initial state of a cell with centroid ctr: q[k * stride], k < nvars. */
void fv_app_initial_cell(const fv_case_t *c, const double ctr[3], fv_real_t *q, size_t stride);
/* A rank's state, per block: qb[b] for this rank's blocks (NULL for the
 * others'), nv rows over the block's local cells, ghosts included (the
 * layout of fv_solver_set_block_states): the case's variables, and where
 * step is 1 a last row of each cell's step factor (numerics.cell_cfl). */
typedef struct fv_app_state {
	int nv;
	int step;
	fv_real_t **qb;
} fv_app_state_t;
/* The state of case c's run (its rows: fv_solver_state_rows). */
fv_err_t fv_app_state_alloc(const fv_case_t *c, const fv_part_t *p, fv_app_state_t *st);
void fv_app_state_free(const fv_part_t *p, fv_app_state_t *st);
/* The initial state of the rank's blocks' cells, ghosts included (step
 * factors 1). */
void fv_app_part_initial_state(const fv_case_t *c, const fv_part_t *p, fv_app_state_t *st);
/* The wall distance of the rank's blocks' owned cells into (*dist)[b]
 * (malloc'd; fv_app_wall_distances_free), from every rank's boundary
 * elements (collective). */
fv_err_t fv_app_part_wall_distances(const fv_case_t *c, const fv_part_t *p, const fv_solver_opts_t *so,
				    double ***dist);
void fv_app_wall_distances_free(const fv_part_t *p, double ***dist);
/* A restart file for the part's mesh into st: this rank's cells only, read
 * from the file (the header into rs). */
fv_err_t fv_app_part_restart_read(const char *path, const fv_part_t *p, fv_restart_t *rs, fv_app_state_t *st);
/* The restart r (its header fields set) with the state st (each rank's
 * owned cells), in the file's order, written by rank 0 from every rank's
 * cells (collective). */
fv_err_t fv_app_part_restart_write(const char *path, const fv_part_t *p, fv_restart_t *r, const fv_app_state_t *st);
/* DIR/NAME.vtu (one rank, the whole mesh) or DIR/NAME_R.vtu per rank and
 * DIR/NAME.pvtu (rank 0) from the state st. */
fv_err_t fv_app_part_solution(const char *dir, const char *name, const fv_part_t *p, const fv_app_state_t *st,
			      double gamma, int with_block, const fv_sol_turb_t *turb);
/* wall.csv's data: every rank's wall faces (markers whose bc is a wall
 * kind; none when no marker is one: any 0), their markers, centroids,
 * the owners' densities and the solver's wall data, assembled. */
typedef struct fv_app_wall {
	int any;
	size_t n; /* the mesh's boundary faces */
	uint8_t *is;
	int32_t *mk;
	double *ctr, *rho, *wall;
} fv_app_wall_t;
/* The data from the solver (its blob where it lives: StarPU is needed).
 * Collective. */
fv_err_t fv_app_part_wall_get(const fv_part_t *p, fv_solver_t *s, const fv_app_state_t *st, const int8_t *marker_bc,
			      fv_app_wall_t *w);
/* wall.csv from it (rank 0; *written 0 where there is none): host work
 * alone, so it may run while StarPU stops. */
fv_err_t fv_app_part_wall_put(const char *path, const fv_part_t *p, const fv_app_wall_t *w, const fv_wall_ref_t *ref,
			      int *written);
void fv_app_part_wall_free(fv_app_wall_t *w);
/* The cells of every rank whose state is non-physical (non-finite, or
 * rho or p <= 0): their count, and the first in the file's order as
 * "element N of FILE at (x, y, z)". Collective. */
fv_err_t fv_app_part_bad_cells(const fv_part_t *p, const fv_app_state_t *st, double gamma, long long *n_bad,
			       char *label, size_t size);

/* Strict option values: the whole string must parse and lie in range. */
fv_err_t fv_opt_long(const char *opt, const char *s, long lo, long hi, long *v);
fv_err_t fv_opt_double(const char *opt, const char *s, double lo, double hi, double *v);
/* "x,y,z" */
fv_err_t fv_opt_vec3(const char *opt, const char *s, double v[3]);

#endif
