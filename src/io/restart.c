/* SPDX-License-Identifier: MIT */
/* Restart files: the conservative state in the mesh file's cell order, raw
 * values in little-endian byte order, a header with the mesh's identity,
 * and an FNV-1a 64 checksum; written so that no partial file is ever seen
 * under the restart's name (or, where the file system allows it, any). */
#define _GNU_SOURCE /* O_TMPFILE */
#include "fvstar/output.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/hash.h"
#include "util/parse.h"
#include "util/tmpname.h"

#define HEADER_V2 104 /* format 2: no model, no solver state */
#define STATE_AT 128 /* format 3: the solver state's first value */
#define HEADER_BYTES (STATE_AT + 8 * FV_RESTART_SOLVER_STATE_MAX)
#define MODEL_UNKNOWN_U32 0xffffffffu
#define CHUNK ((size_t)1 << 20)
_Static_assert(CHUNK / sizeof(fv_real_t) == FV_RESTART_FILL_CELLS, "fill's chunks are write_contents' chunks");
static int host_little(void)
{
	const uint16_t one = 1;
	return *(const uint8_t *)&one == 1;
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static uint64_t double_bits(double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	return u;
}

static double bits_double(uint64_t u)
{
	double x;
	memcpy(&x, &u, sizeof x);
	return x;
}

/* count reals between host order and little-endian bytes (either way:
 * reversing is its own inverse). */
static void to_from_le(void *dst, const void *src, size_t count)
{
	if (host_little()) {
		memcpy(dst, src, count * sizeof(fv_real_t));
		return;
	}
	const uint8_t *s = src;
	uint8_t *d = dst;
	for (size_t i = 0; i < count; i++)
		for (size_t b = 0; b < sizeof(fv_real_t); b++)
			d[i * sizeof(fv_real_t) + b] = s[i * sizeof(fv_real_t) + sizeof(fv_real_t) - 1 - b];
}

static void encode_header(const fv_restart_t *r, uint8_t h[HEADER_BYTES])
{
	memcpy(h, FV_RESTART_MAGIC, 8);
	put_le(h + 8, FV_RESTART_VERSION, 4);
	put_le(h + 12, sizeof(fv_real_t), 4);
	put_le(h + 16, (uint64_t)r->n_cells, 8);
	put_le(h + 24, (uint64_t)r->n_vars, 4);
	put_le(h + 28, (uint64_t)(uint32_t)r->n_blocks, 4);
	put_le(h + 32, (uint64_t)r->iteration, 8);
	put_le(h + 40, double_bits(r->time), 8);
	for (int v = 0; v < FV_RESTART_NVARS; v++)
		put_le(h + 48 + 8 * v, double_bits(r->res0[v]), 8);
	put_le(h + 88, (uint64_t)r->mesh.n_nodes, 8);
	put_le(h + 96, r->mesh.hash, 8);
	put_le(h + 104, r->model == FV_RESTART_MODEL_UNKNOWN ? MODEL_UNKNOWN_U32 : (uint32_t)r->model, 4);
	put_le(h + 108, (uint64_t)r->n_solver_state, 4);
	put_le(h + 112, double_bits(r->res_peak), 8);
	put_le(h + 120, (uint64_t)r->res_peak_iter, 8);
	for (int k = 0; k < FV_RESTART_SOLVER_STATE_MAX; k++)
		put_le(h + STATE_AT + 8 * k, k < r->n_solver_state ? double_bits(r->solver_state[k]) : 0, 8);
}

const char *fv_restart_model_name(int model)
{
	static const char *const names[] = {"euler", "laminar", "sa"};
	return model >= 0 && model < 3 ? names[model] : "unknown";
}

/* What starting a run of model to from a restart of model from does. */
static void model_change_text(int from, int to, double nut_inf, char *buf, size_t n)
{
	static const char *const what[3] = {"inviscid", "laminar", "Spalart-Allmaras"};
	int k = snprintf(buf, n, "the %s solution's mean flow is the initial state", what[from]);
	if (k < 0 || (size_t)k >= n)
		return;
	if (to == FV_MODEL_SA)
		k += snprintf(buf + k, n - (size_t)k, "; nu~ starts at the free-stream value %.6g everywhere", nut_inf);
	else if (from == FV_MODEL_SA)
		k += snprintf(buf + k, n - (size_t)k, "; its nu~ is dropped (no eddy viscosity)");
	if (k < 0 || (size_t)k >= n)
		return;
	if (from == FV_MODEL_EULER)
		snprintf(buf + k, n - (size_t)k, "; the viscous fluxes and the no-slip walls act from the first iteration");
	else if (to == FV_MODEL_EULER)
		snprintf(buf + k, n - (size_t)k, "; the viscous fluxes are dropped");
}

fv_err_t fv_restart_check_model(const char *path, const fv_restart_t *r, int run_model, int accept, double nut_inf,
				char *note, size_t n)
{
	const char *run = fv_restart_model_name(run_model), *file = fv_restart_model_name(r->model);
	char what[320];
	if (n > 0)
		note[0] = '\0';
	FV_CHECK(run_model >= FV_MODEL_EULER && run_model <= FV_MODEL_SA, FV_ERR_ARG, "%s: run model %d", path,
		 run_model);
	if (r->model == FV_RESTART_MODEL_UNKNOWN) {
		/* format 2: the variable count is all it says */
		int nv = run_model == FV_MODEL_SA ? FV_RESTART_NVARS_MAX : FV_RESTART_NVARS;
		snprintf(note, n,
			 "%s (restart format 2) does not record its physical model: taken as this run's (%s), "
			 "unchecked; it holds %d variables per cell%s",
			 path, run, r->n_vars,
			 r->n_vars > nv ? ", its nu~ is dropped"
			 : r->n_vars < nv ? ", nu~ starts at the free-stream value" : "");
		return FV_OK;
	}
	if (r->model == run_model) {
		if (accept >= 0 && accept != run_model)
			snprintf(note, n, "output.restart_from_model = %s is unused: %s is a restart of this run's model (%s)",
				 fv_restart_model_name(accept), path, run);
		return FV_OK;
	}
	model_change_text(r->model, run_model, nut_inf, what, sizeof what);
	FV_CHECK(accept >= 0, FV_ERR_ARG,
		 "%s: a restart of another physical model: written by a run of [flow] model = %s, this run's model is "
		 "%s. To start this %s run from it (%s), set output.restart_from_model = %s",
		 path, file, run, run, what, file);
	FV_CHECK(accept == r->model, FV_ERR_ARG,
		 "%s: written by a run of [flow] model = %s, but output.restart_from_model = %s accepts a restart of "
		 "model %s only: set output.restart_from_model = %s to start this %s run from it",
		 path, file, fv_restart_model_name(accept), fv_restart_model_name(accept), file, run);
	snprintf(note, n, "%s is a restart of model %s, this run's model is %s (output.restart_from_model = %s): %s",
		 path, file, run, file, what);
	return FV_OK;
}

/* ------------------------------------------------------------- writing */

typedef struct sink {
	int fd;
	uint64_t hash;
	int err;            /* errno of the first failed write */
} sink_t;

static void sink_put(sink_t *s, const void *p, size_t n)
{
	const uint8_t *b = p;
	s->hash = fv_fnv1a(s->hash, p, n);
	while (n > 0 && !s->err) {
		ssize_t w = write(s->fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			s->err = w < 0 ? errno : EIO;
			break;
		}
		b += w;
		n -= (size_t)w;
	}
}

/* Header, state (through cell_of_file when given) and checksum into fd,
 * then fsync: on disk before the file gets its name. */
static int write_contents(int fd, const fv_restart_t *r, uint8_t *buf, fv_real_t *gather)
{
	uint8_t header[HEADER_BYTES], tail[8];
	sink_t s = {fd, FV_FNV_OFFSET, 0};
	size_t n = (size_t)r->n_cells, per = CHUNK / sizeof(fv_real_t);
	encode_header(r, header);
	sink_put(&s, header, sizeof header);
	for (int v = 0; v < r->n_vars && !s.err; v++) {
		const fv_real_t *qv = r->q ? r->q + (size_t)v * n : NULL;
		for (size_t at = 0; at < n && !s.err; at += per) {
			size_t k = n - at < per ? n - at : per;
			const fv_real_t *src = qv + at;
			if (r->fill) {
				if (r->fill(r->fill_arg, v, at, k, gather) != FV_OK)
					return -1; /* its message stands */
				src = gather;
			} else if (r->cell_of_file) {
				for (size_t i = 0; i < k; i++)
					gather[i] = qv[r->cell_of_file[at + i]];
				src = gather;
			}
			to_from_le(buf, src, k);
			sink_put(&s, buf, k * sizeof(fv_real_t));
		}
	}
	put_le(tail, s.hash, 8);
	sink_put(&s, tail, sizeof tail);
	if (!s.err && fsync(fd) != 0)
		s.err = errno;
	return s.err;
}

/* The directory of path ("." when it has none), for the temporary file
 * and the fsync that makes the rename durable. */
static fv_err_t dir_of(const char *path, char **dir)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 1;
	if (slash && n == 0)
		n = 1; /* "/restart.bin" */
	FV_CALL(fv_malloc(dir, n + 1, 1, "directory name"));
	memcpy(*dir, slash ? path : ".", n);
	(*dir)[n] = '\0';
	return FV_OK;
}

static void sync_dir(const char *dir)
{
	/* best effort: the file is complete and renamed; some file systems
	 * refuse fsync on a directory */
	int fd = open(dir, O_RDONLY);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

/* Gives the complete anonymous file fd the name tmp (Linux O_TMPFILE). */
static int link_anonymous(int fd, const char *tmp)
{
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	if (unlink(tmp) != 0 && errno != ENOENT)
		return -1;
	return linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW);
}

fv_err_t fv_restart_write(const char *path, const fv_restart_t *r)
{
	uint8_t *buf = NULL;
	fv_real_t *gather = NULL;
	char *tmp = NULL, *dir = NULL;
	int fd = -1, e, named = 0;
	fv_err_t err = FV_OK;

	FV_CHECK(r->step_row == 0 || (r->step_row == 1 && r->model != FV_RESTART_MODEL_UNKNOWN), FV_ERR_ARG,
		 "%s: a step factor row needs a recorded model", path);
	FV_CHECK(r->n_vars - r->step_row >= FV_RESTART_NVARS && r->n_vars - r->step_row <= FV_RESTART_NVARS_MAX,
		 FV_ERR_ARG, "%s: %d variables, a restart holds %d or %d", path, r->n_vars - r->step_row,
		 FV_RESTART_NVARS, FV_RESTART_NVARS_MAX);
	FV_CHECK(r->model == FV_RESTART_MODEL_UNKNOWN || (r->model >= FV_MODEL_EULER && r->model <= FV_MODEL_SA),
		 FV_ERR_ARG, "%s: model %d is none of euler, laminar, sa", path, r->model);
	FV_CHECK(r->n_solver_state >= 0 && r->n_solver_state <= FV_RESTART_SOLVER_STATE_MAX, FV_ERR_ARG,
		 "%s: %d solver state values, a restart holds at most %d", path, r->n_solver_state,
		 FV_RESTART_SOLVER_STATE_MAX);
	FV_CHECK(r->model == FV_RESTART_MODEL_UNKNOWN ||
			 (r->model == FV_MODEL_SA) == (r->n_vars - r->step_row == FV_RESTART_NVARS_MAX),
		 FV_ERR_ARG, "%s: model %s with %d variables per cell", path, fv_restart_model_name(r->model),
		 r->n_vars - r->step_row);
	FV_CHECK(r->n_cells >= 0 && (r->q || r->fill || r->n_cells == 0), FV_ERR_ARG, "%s: no state to write", path);
	FV_CHECK(r->mesh.n_cells == r->n_cells, FV_ERR_ARG, "%s: state of %d cells for a mesh of %lld", path,
		 (int)r->n_cells, (long long)r->mesh.n_cells);
	/* a name no other writer uses: two runs writing one restart never
	 * rename each other's temporary file */
	tmp = fv_tmp_name_alloc(path);
	FV_CHECK(tmp, FV_ERR_MEM, "%s: out of memory for the temporary file name", path);
	FV_CALL_GOTO(err, done, dir_of(path, &dir));
	FV_CALL_GOTO(err, done, fv_malloc(&buf, CHUNK, 1, "restart buffer"));
	if (r->cell_of_file || r->fill)
		FV_CALL_GOTO(err, done, fv_malloc(&gather, CHUNK / sizeof(fv_real_t), sizeof *gather, "restart buffer"));

#ifdef O_TMPFILE
	/* an unnamed file in the target directory: a crash while writing
	 * leaves nothing behind, not even a partial path.tmp */
	/* not with fill: its chunks come once (from other ranks), so the
	 * contents are never written a second time */
	fd = r->fill ? -1 : open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	if (fd >= 0) {
		e = write_contents(fd, r, buf, gather);
		if (e == 0 && link_anonymous(fd, tmp) != 0) {
			/* no /proc, or a file system without links: write again
			 * under the temporary name */
			close(fd);
			fd = -1;
		} else if (e != 0) {
			err = FV_ERROR(FV_ERR_IO, "%s: write failed: %s", path, strerror(e));
			goto done;
		} else {
			named = 1;
		}
	}
#endif
	if (!named) {
		if (fd >= 0)
			close(fd);
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0) {
			err = FV_ERROR(FV_ERR_IO, "%s: cannot write %s: %s", path, tmp, strerror(errno));
			goto done;
		}
		e = write_contents(fd, r, buf, gather);
		if (e != 0) {
			err = e < 0 ? FV_ERR_RUNTIME : FV_ERROR(FV_ERR_IO, "%s: write failed: %s", path, strerror(e));
			remove(tmp);
			goto done;
		}
	}
	if (close(fd) != 0) {
		fd = -1;
		err = FV_ERROR(FV_ERR_IO, "%s: write failed: %s", path, strerror(errno));
		remove(tmp);
		goto done;
	}
	fd = -1;
	/* the previous restart stays in place until the new one is complete */
	if (rename(tmp, path) != 0) {
		err = FV_ERROR(FV_ERR_IO, "%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
		remove(tmp);
		goto done;
	}
	sync_dir(dir);
done:
	if (fd >= 0)
		close(fd);
	free(tmp);
	free(dir);
	free(buf);
	free(gather);
	return err;
}

/* ------------------------------------------------------------- reading */

static fv_err_t need(size_t len, size_t n, const char *name, const char *what)
{
	FV_CHECK(len >= n, FV_ERR_FORMAT, "%s: %s: unexpected end of file (truncated)", name, what);
	return FV_OK;
}

/* Everything fv_restart_parse checks, and the header into r (r->q NULL);
 * the state starts *header bytes into data (its version's header). */
static fv_err_t parse_checked(const void *data, size_t len, const char *name, fv_restart_t *r,
			      const fv_mesh_id_t *expect, const char *mesh_name, size_t *header, int verify)
{
	const uint8_t *p = data, *state;
	uint64_t n_cells, hash, stored, n_nodes, mesh_hash;
	uint32_t version, precision, n_vars;
	size_t count, expected_size, hb;
	uint32_t model = MODEL_UNKNOWN_U32, n_state = 0;
	int64_t iteration;
	double time;

	memset(r, 0, sizeof *r);
	if (!name)
		name = "(buffer)";
	if (!mesh_name)
		mesh_name = "the mesh";
	FV_CHECK(len >= 8 && memcmp(p, FV_RESTART_MAGIC, 8) == 0, FV_ERR_FORMAT,
		 "%s: not an fvstar restart file (no %s magic)", name, FV_RESTART_MAGIC);
	FV_CALL(need(len, 12, name, "header"));
	version = (uint32_t)get_le(p + 8, 4);
	FV_CHECK(version != 1, FV_ERR_FORMAT,
		 "%s: restart format version 1, written by an older fvstar in that run's block order and "
		 "without a mesh checksum: this fvstar reads versions 2 and %d only. Start the run again, or "
		 "continue it with the fvstar that wrote the file and the same block count",
		 name, FV_RESTART_VERSION);
	FV_CHECK(version == 2 || version == FV_RESTART_VERSION, FV_ERR_FORMAT,
		 "%s: restart format version %u, this fvstar reads versions 2 and %d", name, version, FV_RESTART_VERSION);
	hb = version == 2 ? HEADER_V2 : HEADER_BYTES;
	FV_CALL(need(len, hb, name, "header"));
	precision = (uint32_t)get_le(p + 12, 4);
	n_cells = get_le(p + 16, 8);
	n_vars = (uint32_t)get_le(p + 24, 4);
	FV_CHECK(precision == sizeof(fv_real_t), FV_ERR_FORMAT,
		 "%s: written in %s precision (%u-byte reals), this fvstar is built in %s precision: restart "
		 "with a build of the same precision (--enable-single)",
		 name, precision == 4 ? "single" : precision == 8 ? "double" : "unknown", precision, FV_REAL_NAME);
	FV_CHECK(n_vars >= FV_RESTART_NVARS && n_vars <= (version == 2 ? FV_RESTART_NVARS_MAX : FV_RESTART_ROWS_MAX),
		 FV_ERR_FORMAT, "%s: %u variables per cell, expected %d (or %d with Spalart-Allmaras)", name, n_vars,
		 FV_RESTART_NVARS, FV_RESTART_NVARS_MAX);
	FV_CHECK(n_cells <= (uint64_t)FV_IDX_MAX, FV_ERR_FORMAT, "%s: %llu cells is over the index limit", name,
		 (unsigned long long)n_cells);
	count = (size_t)n_vars * (size_t)n_cells;
	expected_size = hb + count * sizeof(fv_real_t) + 8;
	FV_CHECK(len >= expected_size, FV_ERR_FORMAT, "%s: truncated: %zu bytes, a restart of %llu cells has %zu", name,
		 len, (unsigned long long)n_cells, expected_size);
	FV_CHECK(len == expected_size, FV_ERR_FORMAT, "%s: %zu bytes, a restart of %llu cells has %zu (trailing data)",
		 name, len, (unsigned long long)n_cells, expected_size);
	state = p + hb;
	/* a rank whose rank 0 checks the whole file skips it (every byte of
	 * the file read on every rank, the whole state's cost per rank) */
	stored = get_le(state + count * sizeof(fv_real_t), 8);
	hash = verify ? fv_fnv1a(FV_FNV_OFFSET, p, hb + count * sizeof(fv_real_t)) : stored;
	FV_CHECK(stored == hash, FV_ERR_FORMAT,
		 "%s: checksum mismatch (stored %016llx, computed %016llx): the file is corrupted", name,
		 (unsigned long long)stored, (unsigned long long)hash);

	/* intact: now whether it belongs to this mesh, and makes sense */
	n_nodes = get_le(p + 88, 8);
	mesh_hash = get_le(p + 96, 8);
	if (expect) {
		FV_CHECK(n_cells == (uint64_t)expect->n_cells, FV_ERR_FORMAT,
			 "%s: cell count differs: the restart holds %llu cells, %s has %lld (another mesh or "
			 "refinement level?)",
			 name, (unsigned long long)n_cells, mesh_name, (long long)expect->n_cells);
		FV_CHECK(n_nodes == (uint64_t)expect->n_nodes, FV_ERR_FORMAT,
			 "%s: node count differs: the restart was written for a mesh of %llu nodes, %s has %lld "
			 "(another mesh with as many cells?)",
			 name, (unsigned long long)n_nodes, mesh_name, (long long)expect->n_nodes);
		FV_CHECK(mesh_hash == expect->hash, FV_ERR_FORMAT,
			 "%s: mesh checksum differs: the restart was written for another mesh than %s (same %llu "
			 "cells and %llu nodes; other coordinates or connectivity)",
			 name, mesh_name, (unsigned long long)n_cells, (unsigned long long)n_nodes);
	}
	iteration = (int64_t)get_le(p + 32, 8);
	time = bits_double(get_le(p + 40, 8));
	FV_CHECK(iteration >= 0 && iteration < INT32_MAX, FV_ERR_FORMAT, "%s: iteration %lld out of range", name,
		 (long long)iteration);
	FV_CHECK(isfinite(time), FV_ERR_FORMAT, "%s: the time is not finite", name);
	for (int v = 0; v < FV_RESTART_NVARS; v++) {
		r->res0[v] = bits_double(get_le(p + 48 + 8 * v, 8));
		FV_CHECK(isfinite(r->res0[v]) && r->res0[v] >= 0, FV_ERR_FORMAT,
			 "%s: residual normalisation %d is %g, not a finite value >= 0", name, v, r->res0[v]);
	}
	if (version >= 3) {
		model = (uint32_t)get_le(p + 104, 4);
		n_state = (uint32_t)get_le(p + 108, 4);
		FV_CHECK(model == MODEL_UNKNOWN_U32 || model <= FV_MODEL_SA, FV_ERR_FORMAT,
			 "%s: model %u is none of 0 (euler), 1 (laminar), 2 (sa)", name, model);
		/* a recorded model's rows, and a last one (each cell's step
		 * factor) where there is one more */
		uint32_t base = model == FV_MODEL_SA ? FV_RESTART_NVARS_MAX : FV_RESTART_NVARS;
		FV_CHECK(model == MODEL_UNKNOWN_U32 ? n_vars <= FV_RESTART_NVARS_MAX
						   : (n_vars == base || n_vars == base + 1),
			 FV_ERR_FORMAT, "%s: model %s with %u variables per cell", name, fv_restart_model_name((int)model),
			 n_vars);
		r->step_row = model != MODEL_UNKNOWN_U32 && n_vars == base + 1;
		FV_CHECK(n_state <= FV_RESTART_SOLVER_STATE_MAX, FV_ERR_FORMAT,
			 "%s: %u solver state values, a restart holds at most %d", name, n_state,
			 FV_RESTART_SOLVER_STATE_MAX);
		r->res_peak = bits_double(get_le(p + 112, 8));
		r->res_peak_iter = (int64_t)get_le(p + 120, 8);
		FV_CHECK(isfinite(r->res_peak) && r->res_peak >= 0, FV_ERR_FORMAT,
			 "%s: peak residual %g, not a finite value >= 0", name, r->res_peak);
		FV_CHECK(r->res_peak_iter >= 0 && r->res_peak_iter <= iteration, FV_ERR_FORMAT,
			 "%s: peak residual of iteration %lld, after the restart's %lld", name,
			 (long long)r->res_peak_iter, (long long)iteration);
		for (uint32_t k = 0; k < n_state; k++)
			r->solver_state[k] = bits_double(get_le(p + STATE_AT + 8 * k, 8));
	}
	r->model = model == MODEL_UNKNOWN_U32 ? FV_RESTART_MODEL_UNKNOWN : (int)model;
	r->n_solver_state = (int)n_state;

	r->n_cells = (fv_idx_t)n_cells;
	r->n_vars = (int)n_vars;
	r->n_blocks = (int)(int32_t)get_le(p + 28, 4);
	r->iteration = iteration;
	r->time = time;
	r->mesh.n_cells = (int64_t)n_cells;
	r->mesh.n_nodes = (int64_t)n_nodes;
	r->mesh.hash = mesh_hash;
	*header = hb;
	return FV_OK;
}

fv_err_t fv_restart_parse(const void *data, size_t len, const char *name, fv_restart_t *r,
			  const fv_mesh_id_t *expect, const char *mesh_name)
{
	size_t count, hb;
	fv_err_t err;
	FV_CALL(parse_checked(data, len, name, r, expect, mesh_name, &hb, 1));
	count = (size_t)r->n_vars * (size_t)r->n_cells;
	FV_CALL_GOTO(err, fail, fv_malloc(&r->q, count + 1, sizeof(fv_real_t), "restart state"));
	to_from_le(r->q, (const uint8_t *)data + hb, count);
	return FV_OK;
fail:
	fv_restart_free(r);
	return err;
}

/* The restart file at path, mapped (not read: the state is converted
 * once, straight where it goes); *map NULL for an empty file. */
static fv_err_t map_file(const char *path, void **map, size_t *len)
{
	struct stat st;
	/* O_NONBLOCK: a named pipe is refused below, never waited on */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	*map = NULL;
	FV_CHECK(fd >= 0, FV_ERR_IO, "%s: cannot open restart: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		long long size;
		close(fd);
		/* the readers' message, naming what the path is */
		FV_CALL(fv_open_regular(path, &fd, &size));
		close(fd);
		return FV_ERROR(FV_ERR_IO, "%s: cannot read restart", path);
	}
	long long size = (long long)st.st_size;
	*len = (size_t)size;
	if (*len > 0) {
		*map = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (*map == MAP_FAILED) {
			int e = errno;
			*map = NULL;
			close(fd);
			return FV_ERROR(FV_ERR_IO, "%s: cannot read restart: %s", path, strerror(e));
		}
	}
	close(fd);
	return FV_OK;
}

fv_err_t fv_restart_read(const char *path, fv_restart_t *r, const fv_mesh_id_t *expect, const char *mesh_name)
{
	void *map;
	size_t len = 0;
	fv_err_t err;
	memset(r, 0, sizeof *r);
	FV_CALL(map_file(path, &map, &len));
	err = fv_restart_parse(len ? map : "", len, path, r, expect, mesh_name);
	if (map)
		munmap(map, len);
	return err;
}

/* The file's row that row v of a reader's nvars rows takes (the last one
 * its step factor's where step), or -1: the variables the file has and the
 * reader uses (nu~ dropped by a run without Spalart-Allmaras, left as the
 * caller set it where the file has none), and the step factor's row where
 * both have one. */
static int file_row(const fv_restart_t *r, int v, int nvars, int step)
{
	int vars = r->n_vars - r->step_row;
	if (v < nvars - step)
		return v < vars ? v : -1;
	return r->step_row ? vars : -1;
}

fv_err_t fv_restart_read_groups(const char *path, fv_restart_t *r, const fv_mesh_id_t *expect, const char *mesh_name,
				int n_groups, const size_t *n, const fv_idx_t *const *pos, int nvars, int step,
				fv_real_t *const *out, int verify)
{
	void *map;
	size_t len = 0, hb = 0;
	fv_err_t err;
	memset(r, 0, sizeof *r);
	FV_CALL(map_file(path, &map, &len));
	err = parse_checked(len ? map : "", len, path, r, expect, mesh_name, &hb, verify);
	for (int g = 0; g < n_groups && err == FV_OK; g++)
		for (size_t i = 0; i < n[g] && err == FV_OK; i++)
			if (pos[g][i] < 0 || pos[g][i] >= r->n_cells)
				err = FV_ERROR(FV_ERR_ARG, "%s: cell %d asked for, the restart holds %d", path,
					       (int)pos[g][i], (int)r->n_cells);
	if (err == FV_OK) {
		const uint8_t *state = (const uint8_t *)map + hb;
		for (int g = 0; g < n_groups; g++)
			for (int v = 0; v < nvars; v++) {
				int fv = file_row(r, v, nvars, step);
				for (size_t i = 0; fv >= 0 && i < n[g]; i++)
					to_from_le(out[g] + (size_t)v * n[g] + i,
						   state + ((size_t)fv * (size_t)r->n_cells + (size_t)pos[g][i]) *
								   sizeof(fv_real_t),
						   1);
			}
	}
	if (map)
		munmap(map, len);
	return err;
}

fv_err_t fv_restart_read_cells(const char *path, fv_restart_t *r, const fv_mesh_id_t *expect, const char *mesh_name,
			       size_t n, const fv_idx_t *pos, int nvars, int step, fv_real_t *out)
{
	return fv_restart_read_groups(path, r, expect, mesh_name, 1, &n, &pos, nvars, step, &out, 1);
}

void fv_restart_free(fv_restart_t *r)
{
	FV_FREE(r->q);
}

/* ---------------------------------------------------- the mesh's order */

fv_err_t fv_restart_layout_init(fv_restart_layout_t *l, const fv_mesh_t *m)
{
	memset(l, 0, sizeof *l);
	FV_CALL(fv_mesh_identity(m, &l->mesh));
	FV_CALL(fv_mesh_file_cells(m, &l->cell_of_file));
	snprintf(l->mesh_name, sizeof l->mesh_name, "%s", m->source);
	return FV_OK;
}

void fv_restart_layout_free(fv_restart_layout_t *l)
{
	FV_FREE(l->cell_of_file);
}

fv_err_t fv_restart_write_layout(const char *path, const fv_restart_layout_t *l, fv_restart_t *r)
{
	r->mesh = l->mesh;
	r->cell_of_file = l->cell_of_file;
	return fv_restart_write(path, r);
}

fv_err_t fv_restart_read_layout(const char *path, const fv_restart_layout_t *l, fv_restart_t *r, fv_real_t *q,
			       int nvars)
{
	size_t n;
	FV_CALL(fv_restart_read(path, r, &l->mesh, l->mesh_name));
	n = (size_t)r->n_cells;
	/* rows the file has and the run uses: nu~ is dropped by a run without
	 * Spalart-Allmaras, and left as the caller set it when the file has none */
	for (int v = 0; v < r->n_vars - r->step_row && v < nvars; v++) {
		const fv_real_t *src = r->q + (size_t)v * n;
		fv_real_t *dst = q + (size_t)v * n;
		if (!l->cell_of_file) {
			memcpy(dst, src, n * sizeof *dst);
			continue;
		}
		for (size_t i = 0; i < n; i++)
			dst[l->cell_of_file[i]] = src[i];
	}
	return FV_OK;
}
