/* SPDX-License-Identifier: MIT */
/* What a run writes: history CSV, summary JSON, solution VTU and restart
 * files, each written so that a crash leaves the previous one usable. */
#ifndef FVSTAR_OUTPUT_H
#define FVSTAR_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "fvstar/case.h"
#include "fvstar/error.h"
#include "fvstar/mesh.h"
#include "fvstar/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Creates dir and its missing parents (like mkdir -p). */
fv_err_t fv_output_mkdir(const char *dir);
/* A file can be created and written in dir (checked before a run starts,
 * not after its last iteration); what names the setting in the message. */
fv_err_t fv_output_check_writable(const char *dir, const char *what);

/* The lock that gives an output directory to one run at a time:
 * dir/FV_OUTPUT_LOCK_NAME holds the owner's pid, host and start time, and
 * the owner holds an flock on it while it runs. */
#define FV_OUTPUT_LOCK_NAME ".fvstar.lock"
/* Takes dir's lock for this process (one directory per process; taking
 * the one it holds again does nothing). Refused, naming the lock file and
 * the other run's pid, host and start time, while a process that lives
 * holds it: one that holds its flock, or the pid it names on this host
 * (a lock of another host is refused while it is flocked or when flock
 * does not work there). A stale lock (its process gone) is taken over and
 * *note (n bytes, may be NULL) says so; else *note is empty. Released by
 * fv_output_unlock and, if the process exits without it, at exit. */
fv_err_t fv_output_lock(const char *dir, char *note, size_t n);
/* Removes the lock this process holds, if any. */
void fv_output_unlock(void);

/* ----------------------------------------------------------- history CSV */

typedef struct fv_history {
	FILE *f;
	char path[FV_CASE_PATH_MAX];
	int n_columns;
	long rows;         /* rows written by this process */
	/* what opening an existing history for appending cut: rows after the
	 * restart's iteration, and the bytes of an incomplete last row (no
	 * newline: a run that stopped while writing it) */
	long rows_dropped;
	long partial_bytes;
} fv_history_t;

/* Opens the history CSV. append_after < 0: a new file with a header line
 * of the column names. append_after >= 0 (continuing from a restart of
 * iteration append_after): the existing file is kept when its header names
 * the same columns, rows whose first column is > append_after (written
 * after that restart by the run that stopped) are dropped, and rows are
 * appended; a missing file is started anew. */
fv_err_t fv_history_open(fv_history_t *h, const char *path, const char *const *columns, int n,
			 long append_after);
/* One row of n_columns values (%.10g), written whole with one write: a
 * write that fails part-way (a full disk) is cut off again, so the file
 * never ends in half a row. */
fv_err_t fv_history_row(fv_history_t *h, const double *values);
fv_err_t fv_history_close(fv_history_t *h);

/* The summary JSON's writers take jansson's json_t: src/io/json.h. */

/* ---------------------------------------------------------- solution VTU */

/* A Spalart-Allmaras run's state has a sixth row, rho nu~: the solution
 * files then add nu_tilde and eddy_viscosity_ratio (mu_t / mu, mu by
 * Sutherland's law from mu_inf at T = 1 and suth = S / T_inf, constant
 * where suth < 0). NULL: none. */
typedef struct fv_sol_turb {
	double mu_inf, suth;
} fv_sol_turb_t;
/* The solution as one VTK piece over the mesh's cells, with cell data
 * density, velocity (3 components), pressure, mach, entropy (p / rho^gamma:
 * 1/gamma in the free stream), with turb nu_tilde and eddy_viscosity_ratio,
 * and, when block_of_cell is given, block.
 * q is conservative, SoA over the mesh's cells in its current order:
 * q[v * n_cells + i], v = rho, rho u, rho v, rho w, rho E; the file lists
 * cells and points in the mesh file's order (cell_orig, node_orig) with
 * the file's connectivity, whatever the partition and renumbering. Non-physical states (rho <= 0 or
 * p <= 0) give NaN mach and entropy rather than an error, so a diverged
 * run can still be looked at. Written to a temporary file of its own
 * (path.tmp.PID.N), renamed when complete. */
fv_err_t fv_solution_write_vtu(const char *path, const fv_mesh_t *m, const fv_real_t *q, fv_real_t gamma,
			       const int32_t *block_of_cell, const fv_sol_turb_t *turb);
/* One rank's piece of the solution (runs on several ranks): the same
 * arrays for every cell of the piece mesh m (the rank's cells in the
 * file's order, fv_part_t's piece; q over them), with its points, plus
 * cell_id, each cell's position in the whole mesh's file
 * (fv_mesh_cell_orig: the whole solution's cell order). */
fv_err_t fv_solution_write_piece(const char *path, const fv_mesh_t *m, const fv_real_t *q, fv_real_t gamma,
				 const int32_t *block_of_cell, const fv_sol_turb_t *turb, int rank);
/* The .pvtu that gathers pieces piece_name_0.vtu .. piece_name_{n-1}.vtu
 * (names relative to it); with_block: they carry the block array. Written
 * to a temporary file of its own and renamed. */
fv_err_t fv_solution_write_pvtu(const char *path, const char *piece_name, int n_pieces, int with_block,
				const fv_sol_turb_t *turb);
/* Reference values of wall.csv's coefficients. */
typedef struct fv_wall_ref {
	double gamma, p_inf, q_inf;   /* q_inf = rho_inf U_inf^2 / 2 */
	double e_inf[3];              /* free-stream direction: cf is the stress along it */
	double mu_inf, suth;          /* viscosity at T = 1, Sutherland / T_inf (< 0: constant) */
} fv_wall_ref_t;
/* The whole mesh's boundary faces as wall.csv sees them: marker (an
 * index into markers), centre (SoA, 3 n) and the density of the face's
 * cell, face g at index g (the renumbered mesh's boundary faces). */
typedef struct fv_wall_faces {
	fv_idx_t n;
	const fv_marker_t *markers;
	const int32_t *marker;
	const double *ctr;
	const double *rho;
} fv_wall_faces_t;
/* wall.csv: one row per boundary face g with is_bface[g], from
 * fv_solver_wall_data's 5 values per face: marker, face centre, cp, the
 * stress coefficient vector and its component along the free stream (cf),
 * y+ of the first cell centre. Replaced atomically. */
fv_err_t fv_wall_write_csv(const char *path, const fv_wall_faces_t *faces, const uint8_t *is_bface,
			   const double *wall, const fv_wall_ref_t *ref);

/* --------------------------------------------------------------- restart */

#define FV_RESTART_MAGIC "FVSTARRS"
#define FV_RESTART_VERSION 3
#define FV_RESTART_NVARS 5      /* the mean flow's; a Spalart-Allmaras run's restart has 6 */
#define FV_RESTART_NVARS_MAX 6
#define FV_RESTART_ROWS_MAX 7   /* with the per-cell step factor's row (step_row) */
#define FV_RESTART_SOLVER_STATE_MAX 64
/* fv_restart_t's model when the file does not say (format 2) */
#define FV_RESTART_MODEL_UNKNOWN (-1)

/*
 * Restart file, little-endian:
 *   0  char[8]  "FVSTARRS"
 *   8  u32      version (3; 2 is read as well, and had bytes 0-103 alone
 *               in the header: no model, no solver state; version 1 held
 *               the run's block order and no mesh identity, and is refused)
 *  12  u32      precision: sizeof(fv_real_t) of the writer (4 or 8)
 *  16  u64      n_cells
 *  24  u32      n_vars (5; 6 with Spalart-Allmaras: rho nu~); one more
 *               where the model is recorded (format 3) and the last row
 *               is each cell's implicit step factor (numerics.cell_cfl)
 *  28  u32      n_blocks of the run that wrote it (information only)
 *  32  i64      iteration
 *  40  f64      time
 *  48  f64[5]   residual normalisation (the first-iteration residuals)
 *  88  u64      n_nodes of the mesh
 *  96  u64      mesh checksum (fv_mesh_identity)
 * 104  u32      model (fv_model_t: 0 euler, 1 laminar, 2 sa)
 * 108  u32      n_solver_state (<= 64)
 * 112  f64      the peak density residual up to iteration (0: none)
 * 120  i64      the iteration of that peak
 * 128  f64[64]  solver state: the first n_solver_state values are the
 *               solver's, stored verbatim; the rest are zero
 * 640  real[n_vars * n_cells]  q, SoA in the mesh file's cell order (the
 *               order of the file, or of its refinement), raw values
 *  ..  u64      FNV-1a 64 of every byte before it
 * The state and checksum end the file, so scripts find the state from the
 * end whatever the header size. Any block count, renumbering, scheduler or
 * worker count reads it. Written into an unnamed file (O_TMPFILE) or a
 * temporary file of a name unique to the writer in the same directory,
 * synced, then renamed over path: the previous restart stays intact until
 * the new one is complete.
 */
typedef struct fv_restart {
	fv_idx_t n_cells;
	int n_vars;                        /* rows: FV_RESTART_NVARS (or _MAX), + step_row */
	int step_row;                      /* 1: row n_vars - 1 is each cell's step factor (cell_cfl) */
	int n_blocks;
	int64_t iteration;
	double time;
	double res0[FV_RESTART_NVARS];
	fv_mesh_id_t mesh;                 /* the mesh it is (was written) for */
	int model;                         /* fv_model_t; FV_RESTART_MODEL_UNKNOWN from a format 2 file */
	/* the residual reports' reference: the largest density residual so
	 * far and its iteration (0 and 0 from a format 2 file) */
	double res_peak;
	int64_t res_peak_iter;
	/* the solver's own state (the implicit CFL ramp's), opaque here:
	 * written and read verbatim, 0 values from a format 2 file */
	double solver_state[FV_RESTART_SOLVER_STATE_MAX];
	int n_solver_state;
	fv_real_t *q;                      /* [n_vars * n_cells] */
	/* writing only: NULL when q is in the file's cell order; else file
	 * position i holds q's cell cell_of_file[i] (fv_mesh_file_cells) */
	const fv_idx_t *cell_of_file;
	/* writing only, in place of q (NULL): fill(fill_arg, v, at, k, dst)
	 * puts variable v of file positions [at, at + k) into dst, called once
	 * per chunk in the file's order (v, then at, a multiple of
	 * FV_RESTART_FILL_CELLS): a state that no process holds whole */
	fv_err_t (*fill)(void *fill_arg, int v, size_t at, size_t k, fv_real_t *dst);
	void *fill_arg;
} fv_restart_t;
#define FV_RESTART_FILL_CELLS (((size_t)1 << 20) / sizeof(fv_real_t))

/* The name of a restart's model ("euler", "laminar", "sa", "unknown"). */
const char *fv_restart_model_name(int model);
/* Whether restart r (read from path) may start a run of run_model: a
 * restart of the same model, or of the model accept names (the case key
 * output.restart_from_model; -1: none). A restart of another model is
 * refused naming the file, both models and the key that accepts it. On
 * success note (n bytes) holds the log line to print, empty when there is
 * nothing to say: what a restart of another model gives (nut_inf: the
 * free-stream nu~ an SA run starts from), or that a format-2 restart
 * records no model. */
fv_err_t fv_restart_check_model(const char *path, const fv_restart_t *r, int run_model, int accept, double nut_inf,
				char *note, size_t n);

fv_err_t fv_restart_write(const char *path, const fv_restart_t *r);
/* Reads a restart, allocating r->q (fv_restart_free), in file order.
 * expect (NULL: any) is the mesh it must be for, named mesh_name in
 * messages. Errors name the file: bad magic, version (1 is named as the
 * old format), precision, sizes, truncation, checksum, then a cell count,
 * node count or mesh checksum that differs from expect. Versions 2 and 3
 * are read; version 2 gives model FV_RESTART_MODEL_UNKNOWN and no solver
 * state. */
fv_err_t fv_restart_read(const char *path, fv_restart_t *r, const fv_mesh_id_t *expect, const char *mesh_name);
/* The same checks without holding the whole state: the values of the n
 * cells at file positions pos[i], rows v < min(the file's n_vars, nvars),
 * into out[v * n + i]; the header into r (r->q stays NULL). For a rank
 * that reads its own cells of a restart of the whole mesh. With step (1),
 * row nvars - 1 of out is the per-cell step factor's row, read where the
 * file has one (and left as the caller set it where not); the file's
 * step row is never read into a variable's row. */
fv_err_t fv_restart_read_cells(const char *path, fv_restart_t *r, const fv_mesh_id_t *expect, const char *mesh_name,
			       size_t n, const fv_idx_t *pos, int nvars, int step, fv_real_t *out);
/* The same for n_groups groups of cells read from one mapping: group g's
 * n[g] cells at file positions pos[g][i] into out[g][v * n[g] + i] (a
 * rank's blocks, straight into their state arrays). verify = 0 skips the
 * checksum (every other check stays): for the ranks of a run whose rank 0
 * checks it. */
fv_err_t fv_restart_read_groups(const char *path, fv_restart_t *r, const fv_mesh_id_t *expect, const char *mesh_name,
				int n_groups, const size_t *n, const fv_idx_t *const *pos, int nvars, int step,
				fv_real_t *const *out, int verify);
/* The same from len bytes in memory (name for messages; the fuzzer). */
fv_err_t fv_restart_parse(const void *data, size_t len, const char *name, fv_restart_t *r,
			  const fv_mesh_id_t *expect, const char *mesh_name);
void fv_restart_free(fv_restart_t *r);

/* A run's mesh as restart files see it: its identity and the cell at each
 * file position, computed once (fv_restart_layout_init after
 * renumbering) and used for every restart written or read. */
typedef struct fv_restart_layout {
	fv_mesh_id_t mesh;
	fv_idx_t *cell_of_file;            /* NULL: the mesh is in file order */
	char mesh_name[256];
} fv_restart_layout_t;

fv_err_t fv_restart_layout_init(fv_restart_layout_t *l, const fv_mesh_t *m);
void fv_restart_layout_free(fv_restart_layout_t *l);
/* Writes r (q in the mesh's current cell order) in the file's order with
 * the mesh's identity (r->mesh and r->cell_of_file are set from l). */
fv_err_t fv_restart_write_layout(const char *path, const fv_restart_layout_t *l, fv_restart_t *r);
/* Reads a restart for l's mesh (refusing another mesh) into r, and its
 * state into q[n_vars * n_cells] in the mesh's current cell order. */
fv_err_t fv_restart_read_layout(const char *path, const fv_restart_layout_t *l, fv_restart_t *r, fv_real_t *q,
			       int nvars);

#ifdef __cplusplus
}
#endif
#endif
