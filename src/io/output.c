/* SPDX-License-Identifier: MIT */
/* Run outputs: the output directory and its lock, history CSV, summary
 * JSON and the solution VTU (raw appended binary through
 * mesh/vtu_internal.h). */
#include "fvstar/output.h"
#include "io/json.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "mesh/vtu_internal.h"
#include "util/tmpname.h"

fv_err_t fv_output_mkdir(const char *dir)
{
	char buf[FV_CASE_PATH_MAX];
	struct stat st;
	size_t n = strlen(dir);
	FV_CHECK(n > 0 && n < sizeof buf, FV_ERR_ARG, "output directory '%s' is empty or too long", dir);
	memcpy(buf, dir, n + 1);
	/* each prefix ending before a '/', then the whole path */
	for (size_t i = 1; i <= n; i++) {
		if (i < n && buf[i] != '/')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return FV_ERROR(FV_ERR_IO, "%s: cannot create directory %s: %s", dir, buf, strerror(errno));
		if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
			return FV_ERROR(FV_ERR_IO, "%s: %s exists and is not a directory", dir, buf);
		if (i < n)
			buf[i] = '/';
	}
	return FV_OK;
}

fv_err_t fv_output_check_writable(const char *dir, const char *what)
{
	char path[FV_CASE_PATH_MAX + 64];
	snprintf(path, sizeof path, "%s/.fvstar-write-test-%ld", dir, (long)getpid());
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	int e = errno;
	if (fd >= 0) {
		ssize_t w = write(fd, "x", 1);
		e = errno;
		int c = close(fd);
		unlink(path);
		if (w == 1 && c == 0)
			return FV_OK;
	}
	return FV_ERROR(FV_ERR_IO, "%s %s: cannot write there (%s); nothing has been run", what, dir, strerror(e));
}

/* ------------------------------------------------- output directory lock */

/* The lock this process holds: its file stays open (and flocked) until
 * fv_output_unlock or exit. */
static struct {
	int fd;                           /* -1: none */
	int registered;                   /* atexit done */
	char path[FV_CASE_PATH_MAX + 32];
} held = {-1, 0, ""};

typedef struct lock_info {
	long pid;
	char host[256];
	char started[64];
	int valid;                        /* pid and host read */
	long size;
} lock_info_t;

static void lock_read(int fd, lock_info_t *li)
{
	char buf[1024], *line, *save = NULL;
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	memset(li, 0, sizeof *li);
	if (n <= 0)
		return;
	li->size = (long)n;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "pid ", 4) == 0)
			li->pid = strtol(line + 4, NULL, 10);
		else if (strncmp(line, "host ", 5) == 0)
			snprintf(li->host, sizeof li->host, "%s", line + 5);
		else if (strncmp(line, "started ", 8) == 0)
			snprintf(li->started, sizeof li->started, "%s", line + 8);
	}
	li->valid = li->pid > 0 && li->host[0];
}

/* A process of that pid lives on this host (EPERM: someone else's; a
 * zombie has ended). */
static int pid_alive(long pid)
{
	char path[64], buf[256], *paren;
	FILE *f;
	if (pid <= 0 || (kill((pid_t)pid, 0) != 0 && errno != EPERM))
		return 0;
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	paren = strrchr(buf, ')'); /* "pid (comm) state ..." */
	return !(paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'));
}

/* The same, given up to 3 s to end: a run that holds no flock on its
 * lock any more is ending (its ranks aborted, say) */
static int pid_lives_on(long pid)
{
	for (int i = 0; i < 60 && pid_alive(pid); i++)
		nanosleep(&(struct timespec){0, 50000000}, NULL);
	return pid_alive(pid);
}

static void unlock_at_exit(void)
{
	fv_output_unlock();
}

void fv_output_unlock(void)
{
	if (held.fd < 0)
		return;
	/* the name goes first: a run that opens it now finds no file, or a
	 * new one (the identity check of fv_output_lock) */
	unlink(held.path);
	close(held.fd);
	held.fd = -1;
}

fv_err_t fv_output_lock(const char *dir, char *note, size_t n)
{
	char path[FV_CASE_PATH_MAX + 32], host[256] = "", text[512], when[64];
	lock_info_t li;
	time_t now = time(NULL);
	struct tm tm;
	if (note && n)
		note[0] = '\0';
	FV_CHECK(snprintf(path, sizeof path, "%s/%s", dir, FV_OUTPUT_LOCK_NAME) < (int)sizeof path, FV_ERR_ARG,
		 "output directory '%s' is too long", dir);
	if (held.fd >= 0) {
		FV_CHECK(strcmp(held.path, path) == 0, FV_ERR_ARG, "%s: this process already holds %s", path, held.path);
		return FV_OK;
	}
	if (gethostname(host, sizeof host - 1) != 0)
		snprintf(host, sizeof host, "(unknown)");
	gmtime_r(&now, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (int attempt = 0; attempt < 100; attempt++) {
		struct stat a, b;
		int flocked = 0, fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		FV_CHECK(fd >= 0, FV_ERR_IO, "%s: cannot create the output directory's lock: %s", path, strerror(errno));
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			flocked = 1;
		} else if (errno == EWOULDBLOCK) {
			/* a live process holds it; its contents may be a moment away */
			lock_read(fd, &li);
			close(fd);
			if (!li.valid && attempt < 50) {
				nanosleep(&(struct timespec){0, 20000000}, NULL);
				continue;
			}
			return FV_ERROR(FV_ERR_IO,
					"output directory %s is in use by another run: pid %ld on host %s, started %s "
					"(it holds %s). Two runs writing one directory would mix their history and "
					"restart files: give this run another output.dir, or wait for that one to end",
					dir, li.pid, li.valid ? li.host : "(not written yet)",
					li.started[0] ? li.started : "(unknown)", path);
		}
		/* else no flock on this file system (ENOLCK, EOPNOTSUPP): the
		 * contents alone say who holds it */
		if (flocked && (fstat(fd, &a) != 0 || stat(path, &b) != 0 || a.st_ino != b.st_ino || a.st_dev != b.st_dev)) {
			/* its owner removed it as we opened it: take the new one */
			close(fd);
			continue;
		}
		lock_read(fd, &li);
		if (li.valid && !(li.pid == (long)getpid() && strcmp(li.host, host) == 0)) {
			const char *why = NULL;
			if (strcmp(li.host, host) != 0)
				why = "fvstar cannot tell from this host whether it still runs";
			else if (flocked ? pid_lives_on(li.pid) : pid_alive(li.pid))
				why = "that process lives";
			if (why) {
				close(fd);
				return FV_ERROR(FV_ERR_IO,
						"output directory %s is in use by another run: pid %ld on host %s, "
						"started %s (lock file %s; %s). Two runs writing one directory would mix "
						"their history and restart files: give this run another output.dir, or "
						"wait for that one to end; if it has ended (or pid %ld is not fvstar), "
						"remove %s",
						dir, li.pid, li.host, li.started[0] ? li.started : "(unknown)", path, why,
						li.pid, path);
			}
			if (note && n)
				snprintf(note, n,
					 "%s: took over the stale lock of pid %ld on host %s, started %s: that process is "
					 "gone (it stopped without removing its lock)",
					 path, li.pid, li.host, li.started[0] ? li.started : "(unknown)");
		} else if (!li.valid && li.size > 0 && note && n) {
			snprintf(note, n, "%s: replaced an unreadable lock file", path);
		}
		snprintf(text, sizeof text, "pid %ld\nhost %s\nstarted %s\n", (long)getpid(), host, when);
		if (ftruncate(fd, 0) != 0 || pwrite(fd, text, strlen(text), 0) != (ssize_t)strlen(text)) {
			int e = errno;
			close(fd);
			return FV_ERROR(FV_ERR_IO, "%s: cannot write the output directory's lock: %s", path, strerror(e));
		}
		(void)fsync(fd);
		held.fd = fd;
		snprintf(held.path, sizeof held.path, "%s", path);
		if (!held.registered && atexit(unlock_at_exit) == 0)
			held.registered = 1;
		return FV_OK;
	}
	return FV_ERROR(FV_ERR_IO, "%s: the output directory's lock changed hands 100 times while fvstar took it", path);
}

/* ------------------------------------------------------------ history */

static fv_err_t history_header(const char *const *columns, int n, char **header)
{
	size_t len = 0;
	char *s;
	FV_CHECK(n > 0, FV_ERR_ARG, "history: no columns");
	for (int i = 0; i < n; i++) {
		FV_CHECK(columns[i] && columns[i][0] && !strpbrk(columns[i], ",\"\r\n"), FV_ERR_ARG,
			 "history: column %d name '%s' is empty or holds a comma, quote or newline", i,
			 columns[i] ? columns[i] : "(null)");
		len += strlen(columns[i]) + 1;
	}
	FV_CALL(fv_malloc(&s, len + 1, 1, "history header"));
	len = 0;
	for (int i = 0; i < n; i++) {
		size_t m = strlen(columns[i]);
		memcpy(s + len, columns[i], m);
		len += m;
		s[len++] = i + 1 < n ? ',' : '\n';
	}
	s[len] = '\0';
	*header = s;
	return FV_OK;
}

/* Keeps the header and the rows up to iteration after of an existing
 * history; drops the rest and any incomplete last line (a crash). */
static fv_err_t history_trim(FILE *f, const char *path, const char *header, long after, fv_history_t *h)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	off_t keep = 0;
	fv_err_t err = FV_OK;

	len = getline(&line, &cap, f);
	if (len < 0 || strcmp(line, header) != 0) {
		size_t n = len > 0 ? strcspn(line, "\r\n") : 0;
		err = FV_ERROR(FV_ERR_FORMAT,
			       "%s: its columns '%.*s' are not those of this run ('%.*s'): move it away to "
			       "continue",
			       path, (int)(n > 200 ? 200 : n), len > 0 ? line : "", (int)strcspn(header, "\n"), header);
		goto done;
	}
	keep = (off_t)len;
	while ((len = getline(&line, &cap, f)) > 0) {
		char *end;
		double it = strtod(line, &end);
		if (line[len - 1] != '\n') {
			h->partial_bytes = (long)len;
			break;
		}
		if (end == line || it > (double)after) {
			/* the rows after the restart, and anything after them */
			h->rows_dropped++;
			while ((len = getline(&line, &cap, f)) > 0) {
				if (line[len - 1] != '\n')
					h->partial_bytes = (long)len;
				else
					h->rows_dropped++;
			}
			break;
		}
		keep += (off_t)len;
	}
	if (ferror(f)) {
		err = FV_ERROR(FV_ERR_IO, "%s: read error: %s", path, strerror(errno));
		goto done;
	}
	fflush(f);
	if (ftruncate(fileno(f), keep) != 0 || fseeko(f, keep, SEEK_SET) != 0)
		err = FV_ERROR(FV_ERR_IO, "%s: cannot truncate to %lld bytes: %s", path, (long long)keep,
			       strerror(errno));
done:
	free(line);
	return err;
}

fv_err_t fv_history_open(fv_history_t *h, const char *path, const char *const *columns, int n, long append_after)
{
	char *header = NULL;
	fv_err_t err = FV_OK;

	memset(h, 0, sizeof *h);
	FV_CHECK(strlen(path) < sizeof h->path, FV_ERR_ARG, "%s: history path too long", path);
	FV_CALL(history_header(columns, n, &header));
	if (append_after >= 0) {
		h->f = fopen(path, "r+");
		if (!h->f && errno != ENOENT) {
			err = FV_ERROR(FV_ERR_IO, "%s: cannot open for appending: %s", path, strerror(errno));
			goto done;
		}
		if (h->f) {
			FV_CALL_GOTO(err, done, history_trim(h->f, path, header, append_after, h));
			goto opened;
		}
	}
	h->f = fopen(path, "w");
	if (!h->f) {
		err = FV_ERROR(FV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
		goto done;
	}
	if (fputs(header, h->f) == EOF || fflush(h->f) != 0) {
		err = FV_ERROR(FV_ERR_IO, "%s: write failed: %s", path, strerror(errno));
		goto done;
	}
opened:
	strcpy(h->path, path);
	h->n_columns = n;
done:
	free(header);
	if (err != FV_OK && h->f) {
		fclose(h->f);
		h->f = NULL;
	}
	return err;
}

fv_err_t fv_history_row(fv_history_t *h, const double *values)
{
	char stack[1024], *buf = stack;
	size_t cap = sizeof stack, len = 0, done = 0;
	off_t start = 0;
	int fd, e = 0;
	FV_CHECK(h->f, FV_ERR_ARG, "history: not open");
	if ((size_t)h->n_columns * 32 + 2 > cap) {
		cap = (size_t)h->n_columns * 32 + 2;
		FV_CALL(fv_malloc(&buf, cap, 1, "history row"));
	}
	for (int i = 0; i < h->n_columns; i++)
		len += (size_t)snprintf(buf + len, cap - len, i + 1 < h->n_columns ? "%.10g," : "%.10g\n", values[i]);
	/* the row in one write (the stream's buffer could split it), after
	 * whatever the stream still holds (the header) */
	fd = fileno(h->f);
	if (fflush(h->f) != 0 || (start = lseek(fd, 0, SEEK_END)) < 0)
		e = errno ? errno : EIO;
	while (!e && done < len) {
		ssize_t w = write(fd, buf + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			e = w < 0 ? errno : EIO;
		else
			done += (size_t)w;
	}
	if (buf != stack)
		free(buf);
	if (e) {
		/* a part of the row went out (a full disk): cut it off again */
		if (done > 0 && ftruncate(fd, start) != 0)
			return FV_ERROR(FV_ERR_IO, "%s: write failed: %s, and cutting off the partial row failed: %s",
					h->path, strerror(e), strerror(errno));
		return FV_ERROR(FV_ERR_IO, "%s: write failed: %s (the row of iteration %.10g is not in it)", h->path,
				strerror(e), values[0]);
	}
	h->rows++;
	return FV_OK;
}

fv_err_t fv_history_close(fv_history_t *h)
{
	int bad;
	if (!h->f)
		return FV_OK;
	bad = ferror(h->f);
	bad |= fclose(h->f) != 0;
	h->f = NULL;
	FV_CHECK(!bad, FV_ERR_IO, "%s: write failed: %s", h->path, strerror(errno));
	return FV_OK;
}

/* -------------------------------------------------------------- summary */

json_t *fv_json_real(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

json_t *fv_json_reals(const double *x, int n)
{
	json_t *a = json_array();
	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, fv_json_real(x[i]));
	return a;
}

fv_err_t fv_summary_write(const char *path, json_t *root)
{
	char *tmp;
	FV_CHECK(root, FV_ERR_ARG, "%s: no JSON to write", path);
	tmp = fv_tmp_name_alloc(path);
	FV_CHECK(tmp, FV_ERR_MEM, "%s: out of memory for the temporary file name", path);
	errno = 0;
	if (json_dump_file(root, tmp, JSON_INDENT(2)) != 0) {
		int e = errno;
		remove(tmp);
		free(tmp);
		return FV_ERROR(FV_ERR_IO, "%s: cannot write: %s", path, e ? strerror(e) : "JSON encoding failed");
	}
	if (rename(tmp, path) != 0) {
		int e = errno;
		fv_err_t err = FV_ERROR(FV_ERR_IO, "%s: cannot rename %s to it: %s", path, tmp, strerror(e));
		remove(tmp);
		free(tmp);
		return err;
	}
	free(tmp);
	return FV_OK;
}

/* --------------------------------------------------------- solution VTU */

enum { SOL_DENSITY, SOL_VELOCITY, SOL_PRESSURE, SOL_MACH, SOL_ENTROPY, SOL_NU_TILDE, SOL_MUT_RATIO, SOL_NALL };
#define SOL_NARRAYS SOL_NU_TILDE /* without turbulence */
static const char *const sol_names[SOL_NALL] = {"density", "velocity", "pressure", "mach", "entropy", "nu_tilde",
						"eddy_viscosity_ratio"};

/* The arrays a solution file holds: the turbulence model's too with turb. */
static int sol_count(const fv_sol_turb_t *turb)
{
	return turb ? SOL_NALL : SOL_NARRAYS;
}

/* Array a of the cells at file positions [i0, i0 + n) into out (3 values
 * per cell for velocity); cell maps positions to mesh cells (NULL: same). */
static void sol_values(int a, const fv_real_t *q, size_t nc, const fv_idx_t *cell, double gamma,
		       const fv_sol_turb_t *turb, size_t i0, size_t n, double *out)
{
	for (size_t j = 0; j < n; j++) {
		size_t i = cell ? (size_t)cell[i0 + j] : i0 + j;
		double rho = q[i], ru = q[nc + i], rv = q[2 * nc + i], rw = q[3 * nc + i], re = q[4 * nc + i];
		double u = ru / rho, v = rv / rho, w = rw / rho;
		double p = (gamma - 1) * (re - 0.5 * (ru * u + rv * v + rw * w));
		int ok = rho > 0 && p > 0;
		switch (a) {
		case SOL_DENSITY:
			out[j] = rho;
			break;
		case SOL_VELOCITY:
			out[3 * j] = u;
			out[3 * j + 1] = v;
			out[3 * j + 2] = w;
			break;
		case SOL_PRESSURE:
			out[j] = p;
			break;
		case SOL_MACH:
			out[j] = ok ? sqrt((u * u + v * v + w * w) * rho / (gamma * p)) : NAN;
			break;
		case SOL_ENTROPY:
			out[j] = ok ? p / pow(rho, gamma) : NAN;
			break;
		case SOL_NU_TILDE:
			out[j] = q[5 * nc + i] / rho;
			break;
		case SOL_MUT_RATIO: {
			/* mu_t / mu = chi fv1 (SA-neg: 0 where nu~ < 0), mu by Sutherland */
			double T = ok ? gamma * p / rho : 1, mu = turb->mu_inf;
			if (turb->suth >= 0)
				mu *= T * sqrt(T) * (1 + turb->suth) / (T + turb->suth);
			double chi = q[5 * nc + i] / mu, c3 = chi * chi * chi;
			out[j] = chi > 0 ? chi * c3 / (c3 + 7.1 * 7.1 * 7.1) : 0;
			break;
		}
		}
	}
}

/* The DataArray tags of the solution arrays of nc cells (appended data
 * from *off on). */
static void sol_array_tags(fv_vtu_out_t *o, size_t nc, const fv_sol_turb_t *turb, uint64_t *off)
{
	for (int a = 0; a < sol_count(turb); a++)
		fv_vtu_array_tag(o, "Float64", sol_names[a], a == SOL_VELOCITY ? 3 : 1,
				 nc * (a == SOL_VELOCITY ? 3 : 1) * sizeof(double), off);
}

/* The "block" array of the nc cells at file positions 0 .. nc-1 (cell maps
 * them to mesh cells; NULL: the same). */
static void put_block_ids(fv_vtu_out_t *o, const int32_t *block, const fv_idx_t *cell, size_t nc)
{
	size_t per = FV_VTU_CHUNK / sizeof(int32_t);
	int32_t *s = o->scratch;
	fv_vtu_put_block_size(o, nc * sizeof(int32_t));
	for (size_t done = 0; done < nc && !o->err; done += per) {
		size_t n = nc - done < per ? nc - done : per;
		for (size_t j = 0; j < n; j++)
			s[j] = block[cell ? (size_t)cell[done + j] : done + j];
		fv_vtu_put(o, s, n * sizeof *s);
	}
}

/* The appended data of every solution array for the nc cells at file
 * positions 0 .. nc-1 (cell maps them to mesh cells of the N of q; NULL:
 * the same), in chunks of the scratch buffer. */
static void put_sol_arrays(fv_vtu_out_t *o, const fv_real_t *q, size_t N, const fv_idx_t *cell, size_t nc,
			   double gamma, const fv_sol_turb_t *turb)
{
	for (int a = 0; a < sol_count(turb); a++) {
		size_t ncomp = a == SOL_VELOCITY ? 3 : 1;
		size_t per = FV_VTU_CHUNK / (ncomp * sizeof(double));
		fv_vtu_put_block_size(o, nc * ncomp * sizeof(double));
		for (size_t done = 0; done < nc && !o->err; done += per) {
			size_t n = nc - done < per ? nc - done : per;
			sol_values(a, q, N, cell, gamma, turb, done, n, o->scratch);
			fv_vtu_put(o, o->scratch, n * ncomp * sizeof(double));
		}
	}
}

/* What a solution file holds: nc cells, the mesh cell at each file position
 * (cell; NULL: the same), np points. The whole mesh's file takes its
 * geometry in the mesh file's order (ord); a rank's piece lists its points
 * (node), maps node ids to them (node_map) and adds cell_id, each cell's
 * position in the whole mesh's file. */
typedef struct sol_piece {
	size_t nc, np, nconn;
	fv_idx_t *cell, *node, *node_map, *cell_id;
	const fv_vtu_order_t *ord; /* whole mesh; NULL in a piece */
	int rank;
} sol_piece_t;

static void write_solution(fv_vtu_out_t *o, const fv_mesh_t *m, const sol_piece_t *pc, const fv_real_t *q,
			   double gamma, const int32_t *block, const fv_sol_turb_t *turb)
{
	const size_t N = (size_t)m->n_cells, nc = pc->nc, np = pc->np;
	uint64_t off = 0;
	fv_vtu_begin(o);
	fprintf(o->f, "  <!-- fvstar solution on ");
	fv_vtu_comment_name(o->f, m->source[0] ? m->source : "memory");
	if (pc->cell_id)
		fprintf(o->f, ", the cells of rank %d; cell_id: the cell's position in the mesh file", pc->rank);
	fprintf(o->f, " -->\n  <!-- dimensionless: free stream rho = 1, p = 1/gamma, c = 1; gamma = %.17g -->\n"
		      "  <!-- entropy = p / rho^gamma -->\n  <UnstructuredGrid>\n"
		      "    <Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n"
		      "      <CellData Scalars=\"density\" Vectors=\"velocity\">\n",
		gamma, np, nc);
	sol_array_tags(o, nc, turb, &off);
	if (block)
		fv_vtu_array_tag(o, "Int32", "block", 1, nc * sizeof(int32_t), &off);
	if (pc->cell_id)
		fv_vtu_array_tag(o, "Int32", "cell_id", 1, nc * sizeof(int32_t), &off);
	fprintf(o->f, "      </CellData>\n");
	fv_vtu_geometry_tags(o, np, nc, pc->nconn, &off);
	fprintf(o->f, "    </Piece>\n  </UnstructuredGrid>\n  <AppendedData encoding=\"raw\">\n   _");

	put_sol_arrays(o, q, N, pc->cell, nc, gamma, turb);
	if (block)
		put_block_ids(o, block, pc->cell, nc);
	if (pc->cell_id) {
		fv_vtu_put_block_size(o, nc * sizeof(int32_t));
		fv_vtu_put(o, pc->cell_id, nc * sizeof(int32_t));
	}
	if (pc->ord) {
		fv_vtu_put_cell_geometry(o, m, pc->ord);
	} else {
		fv_vtu_put_block_size(o, np * 3 * sizeof(double));
		fv_vtu_put_points_of(o, m->xyz, pc->node, np);
		fv_vtu_put_cells(o, m, pc->cell, nc, pc->node_map);
	}
	fprintf(o->f, "\n  </AppendedData>\n</VTKFile>\n");
}

static fv_err_t write_solution_file(const char *path, const fv_mesh_t *m, const sol_piece_t *pc,
				    const fv_real_t *q, double gamma, const int32_t *block, const fv_sol_turb_t *turb)
{
	fv_vtu_out_t o;
	fv_err_t err = fv_vtu_open(&o, path);
	if (err == FV_OK)
		write_solution(&o, m, pc, q, gamma, block, turb);
	if (fv_vtu_close(&o) != FV_OK && err == FV_OK)
		err = FV_ERR_IO;
	return err;
}

static fv_err_t check_solution(const char *path, const fv_mesh_t *m, const fv_real_t *q, fv_real_t gamma)
{
	FV_CHECK(q, FV_ERR_ARG, "%s: no solution to write", path);
	FV_CHECK(gamma > 1, FV_ERR_ARG, "%s: gamma = %g is not > 1", path, (double)gamma);
	return fv_writer_check_mesh(m, path);
}

fv_err_t fv_solution_write_vtu(const char *path, const fv_mesh_t *m, const fv_real_t *q, fv_real_t gamma,
			       const int32_t *block_of_cell, const fv_sol_turb_t *turb)
{
	fv_vtu_order_t ord;
	sol_piece_t pc = {0};
	fv_err_t err;
	FV_CALL(check_solution(path, m, q, gamma));
	FV_CALL(fv_vtu_order_file(&ord, m));
	pc.nc = (size_t)m->n_cells;
	pc.np = (size_t)m->n_nodes;
	pc.nconn = pc.nc ? (size_t)m->cell_node_off[pc.nc] : 0;
	pc.cell = ord.cell;
	pc.ord = &ord;
	err = write_solution_file(path, m, &pc, q, (double)gamma, block_of_cell, turb);
	fv_vtu_order_free(&ord);
	return err;
}

/* A rank's piece: every cell of the piece mesh m (the rank's cells, in the
 * file's order) and every node. */
static void piece_free(sol_piece_t *pc)
{
	free(pc->cell);
	free(pc->node);
	free(pc->node_map);
	free(pc->cell_id);
}

static fv_err_t piece_make(sol_piece_t *pc, const fv_mesh_t *m, int rank)
{
	size_t N = (size_t)m->n_cells, NN = (size_t)m->n_nodes;
	memset(pc, 0, sizeof *pc);
	pc->rank = rank;
	FV_CALL(fv_malloc(&pc->cell, N + 1, sizeof(fv_idx_t), "piece cells"));
	FV_CALL(fv_malloc(&pc->cell_id, N + 1, sizeof(fv_idx_t), "piece cells"));
	FV_CALL(fv_malloc(&pc->node, NN + 1, sizeof(fv_idx_t), "piece points"));
	FV_CALL(fv_malloc(&pc->node_map, NN + 1, sizeof(fv_idx_t), "piece points"));
	for (size_t c = 0; c < N; c++) {
		pc->cell[c] = (fv_idx_t)c;
		pc->cell_id[c] = fv_mesh_cell_orig(m, (fv_idx_t)c);
	}
	for (size_t v = 0; v < NN; v++)
		pc->node[v] = pc->node_map[v] = (fv_idx_t)v;
	pc->nc = N;
	pc->np = NN;
	pc->nconn = N ? (size_t)m->cell_node_off[N] : 0;
	return FV_OK;
}

fv_err_t fv_solution_write_piece(const char *path, const fv_mesh_t *m, const fv_real_t *q, fv_real_t gamma,
				 const int32_t *block_of_cell, const fv_sol_turb_t *turb, int rank)
{
	sol_piece_t pc;
	fv_err_t err;
	FV_CALL(check_solution(path, m, q, gamma));
	err = piece_make(&pc, m, rank);
	if (err == FV_OK)
		err = write_solution_file(path, m, &pc, q, (double)gamma, block_of_cell, turb);
	piece_free(&pc);
	return err;
}

/* A text file written under a temporary name and renamed when complete
 * (fv_tmp_open, fv_tmp_close of util/tmpname.h). */
static fv_err_t text_commit(FILE *f, char *tmp, const char *path)
{
	fv_err_t err = FV_OK;
	if (ferror(f))
		err = FV_ERROR(FV_ERR_IO, "%s: write failed: %s", path, strerror(errno ? errno : EIO));
	return fv_tmp_close(f, tmp, path, err);
}

fv_err_t fv_solution_write_pvtu(const char *path, const char *piece_name, int n_pieces, int with_block,
				const fv_sol_turb_t *turb)
{
	char *tmp = NULL;
	FILE *f = NULL;
	FV_CALL(fv_tmp_open(path, "w", &tmp, &f));
	fprintf(f, "<?xml version=\"1.0\"?>\n"
		   "<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
		   "header_type=\"UInt64\">\n"
		   "  <!-- fvstar solution: one piece per rank -->\n"
		   "  <PUnstructuredGrid GhostLevel=\"0\">\n"
		   "    <PCellData Scalars=\"density\" Vectors=\"velocity\">\n");
	for (int a = 0; a < sol_count(turb); a++)
		fprintf(f, "      <PDataArray type=\"Float64\" Name=\"%s\"%s/>\n", sol_names[a],
			a == SOL_VELOCITY ? " NumberOfComponents=\"3\"" : "");
	if (with_block)
		fprintf(f, "      <PDataArray type=\"Int32\" Name=\"block\"/>\n");
	fprintf(f, "      <PDataArray type=\"Int32\" Name=\"cell_id\"/>\n"
		   "    </PCellData>\n"
		   "    <PPoints>\n      <PDataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\"/>\n"
		   "    </PPoints>\n");
	for (int r = 0; r < n_pieces; r++)
		fprintf(f, "    <Piece Source=\"%s_%d.vtu\"/>\n", piece_name, r);
	fprintf(f, "  </PUnstructuredGrid>\n</VTKFile>\n");
	return text_commit(f, tmp, path);
}

fv_err_t fv_wall_write_csv(const char *path, const fv_wall_faces_t *w, const uint8_t *is_bface,
			   const double *wall, const fv_wall_ref_t *ref)
{
	char *tmp = NULL;
	FILE *f = NULL;
	size_t nf = (size_t)w->n;
	FV_CALL(fv_tmp_open(path, "w", &tmp, &f));
	fprintf(f, "marker,x,y,z,cp,cfx,cfy,cfz,cf,yplus\n");
	for (size_t g = 0; g < nf; g++) {
		if (!is_bface[g])
			continue;
		const double *v = wall + 5 * g;
		double rho = w->rho[g], tau = sqrt(v[1] * v[1] + v[2] * v[2] + v[3] * v[3]), cf = 0, yplus = 0;
		for (int d = 0; d < 3; d++)
			cf += v[1 + d] * ref->e_inf[d];
		if (ref->mu_inf > 0) {
			/* mu at the cell's temperature gamma p / rho (Sutherland) */
			double T = ref->gamma * v[0] / rho, mu = ref->mu_inf;
			if (ref->suth >= 0)
				mu *= T * sqrt(T) * (1 + ref->suth) / (T + ref->suth);
			yplus = sqrt(tau * rho) * v[4] / mu;
		}
		fprintf(f, "%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.6g\n", w->markers[w->marker[g]].name,
			w->ctr[g], w->ctr[nf + g], w->ctr[2 * nf + g], (v[0] - ref->p_inf) / ref->q_inf,
			v[1] / ref->q_inf, v[2] / ref->q_inf, v[3] / ref->q_inf, cf / ref->q_inf, yplus);
	}
	return text_commit(f, tmp, path);
}
