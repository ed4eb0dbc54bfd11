/* SPDX-License-Identifier: MIT */
/* Simulated machines (fvstar-sim, StarPU's SimGrid mode): the platform
 * folder checked and handed to StarPU, the simulated clock, and the task
 * counts per stage that real and simulated runs both report. */
#define _GNU_SOURCE /* realpath */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "fvstar/runtime.h"

int fv_runtime_simulated(void)
{
#ifdef STARPU_SIMGRID
	return 1;
#else
	return 0;
#endif
}

#ifdef FV_SMPI
#include <simgrid/actor.h>
/*
 * StarPU-MPI 1.3.10 under SimGrid waits for each MPI request in an actor
 * of its own ("wait for mpi transfer", _starpu_simgrid_xbt_thread_create),
 * which starpu_pthread_create_on holds a reference to for a join that
 * never comes: every message's actor, its context and its stack stayed
 * allocated to the end. The implicit M6 as 4 simulated ranks (some 10^5
 * messages) grew by 110 MB/s of simulation to past 23 GB. fvstar-smpi is
 * linked with -Wl,--wrap=starpu_pthread_create_on (Makefile.am): those
 * actors are let go at once, like a detached thread, and SimGrid frees
 * each when it ends. Every other StarPU thread is joined and keeps its
 * reference.
 */
int __real_starpu_pthread_create_on(const char *name, starpu_pthread_t *thread, const starpu_pthread_attr_t *attr,
				    void *(*start_routine)(void *), void *arg, starpu_sg_host_t host);
int __wrap_starpu_pthread_create_on(const char *name, starpu_pthread_t *thread, const starpu_pthread_attr_t *attr,
				    void *(*start_routine)(void *), void *arg, starpu_sg_host_t host);
int __wrap_starpu_pthread_create_on(const char *name, starpu_pthread_t *thread, const starpu_pthread_attr_t *attr,
				    void *(*start_routine)(void *), void *arg, starpu_sg_host_t host)
{
	int ret = __real_starpu_pthread_create_on(name, thread, attr, start_routine, arg, host);
	if (ret == 0 && name && strcmp(name, "wait for mpi transfer") == 0)
		sg_actor_unref(*thread);
	return ret;
}
#endif

#if defined(STARPU_SIMGRID) && !defined(FV_SMPI)
/*
 * fvstar-sim's main is StarPU's: it starts SimGrid on the platform that
 * STARPU_PERF_MODEL_DIR and STARPU_HOSTNAME name, then runs fvstar's main
 * (built as starpu_main) in an actor with SimGrid's fast contexts (a
 * main of our own made StarPU attach it from a thread of its own, and
 * every switch between actors a thread hand-off: 0.3 to 3 s of wall time
 * per simulated wedge iteration). So the platform folder is checked and
 * named before that, here, from the command line: `fvstar-sim sim run
 * CASE --platform DIR`; fvstar-sim runs nothing else.
 */
void xbt_log_control_set(const char *control);

__attribute__((constructor)) static void sim_early(void)
{
	static char buf[65536];
	char *argv[256];
	int argc = 0;
	const char *dir = NULL;
	FILE *f = fopen("/proc/self/cmdline", "rb");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	for (size_t i = 0; i < n && argc < 255; i += strlen(buf + i) + 1)
		argv[argc++] = buf + i;
	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "--help") == 0 ||
			  strcmp(argv[1], "-h") == 0)) {
		printf("fvstar-sim: fvstar's simulated runs (StarPU %d.%d.%d with SimGrid): fvstar-sim sim run CASE.cfg "
		       "--platform DIR [...] (fvstar sim --help, doc/simgrid.md)\n",
		       STARPU_MAJOR_VERSION, STARPU_MINOR_VERSION, STARPU_RELEASE_VERSION);
		exit(0);
	}
	if (argc < 3 || strcmp(argv[1], "sim") != 0 || strcmp(argv[2], "run") != 0) {
		fprintf(stderr, "fvstar-sim: error: it runs simulations only: fvstar-sim sim run CASE.cfg --platform DIR "
				"[...] (or fvstar sim run ...); the other commands are fvstar's\n");
		exit(2);
	}
	/* the same platform and models give the same simulated time only
	 * when the heap's addresses repeat: StarPU orders some of its work by
	 * pointers (8 simulated GPUs: 0.4 % apart from run to run), so no
	 * address randomisation and a set-up on one thread (OpenMP's
	 * dynamic loops allocate in any order) unless OMP_NUM_THREADS says
	 * otherwise; where randomisation cannot be turned off, run as is */
	int pers = personality(0xffffffff), again = 0;
	if (pers != -1 && !(pers & ADDR_NO_RANDOMIZE) &&
	    personality((unsigned long)pers | ADDR_NO_RANDOMIZE) != -1)
		again = 1;
	if (!getenv("OMP_NUM_THREADS")) {
		setenv("OMP_NUM_THREADS", "1", 1);
		again = 1;
	}
	if (again) {
		argv[argc] = NULL;
		execv("/proc/self/exe", argv);
	}
	for (int i = 3; i + 1 < argc; i++)
		if (strcmp(argv[i], "--platform") == 0)
			dir = argv[i + 1];
	if (fv_runtime_sim_platform(dir, NULL, NULL) != FV_OK) {
		fprintf(stderr, "fvstar-sim: error: %s\n", fv_errmsg());
		exit(2);
	}
	xbt_log_control_set("root.thres:warning"); /* SimGrid's INFO lines are not the user's */
}
#endif

double fv_runtime_clock(void)
{
	return starpu_timing_now() * 1e-6;
}

/* ---- task counts per stage ---- */

#define MAX_STAGES 128
static struct {
	char name[48];
	long long n;
} counts[MAX_STAGES];
static int n_counts, counting;

/*
 * The submitting thread's time per task. SimGrid's StarPU charges 1 us of
 * simulated time per submission and nothing for fvstar's own work per
 * task (its arguments, the chains, StarPU's dependencies and the
 * scheduler's choice for a task ready at once): a graph of many short
 * tasks is then simulated faster than the one thread that submits it can
 * go. Measured on the real machine (sim dry, calibrate: from the start of
 * an iteration's submission to its end, iterations 2 on, over its tasks)
 * and charged to fvstar-sim's submitting thread per task.
 */
static double submit_cost;         /* fvstar-sim: seconds per task */
static long long n_submitted;      /* real: tasks submitted ... */
static double submit_busy, submit_t0; /* ... in this many seconds */
static long long submit_n0, submit_tasks;

void fv_runtime_count_tasks(int on)
{
	if (on && !counting)
		n_counts = 0; /* a new count */
	counting = on;
}

void fv_runtime_task_submitted(const char *name)
{
	char key[48];
	size_t len;
#ifdef STARPU_SIMGRID
	/* the submitting thread's time per task, as measured where the
	 * models were (fv_runtime_sim_submit_cost) */
	if (submit_cost > 0)
		starpu_sleep((float)submit_cost);
#else
	n_submitted++;
#endif
	if (!counting || !name)
		return;
	/* "flux_color3" counts as "flux_color": a stage, not a group */
	len = strlen(name);
	while (len > 0 && isdigit((unsigned char)name[len - 1]))
		len--;
	if (len < 6 || strncmp(name + len - 6, "_color", 6) != 0)
		len = strlen(name);
	if (len >= sizeof key)
		len = sizeof key - 1;
	memcpy(key, name, len);
	key[len] = 0;
	for (int i = 0; i < n_counts; i++)
		if (strcmp(counts[i].name, key) == 0) {
			counts[i].n++;
			return;
		}
	if (n_counts < MAX_STAGES) {
		snprintf(counts[n_counts].name, sizeof counts[n_counts].name, "%s", key);
		counts[n_counts++].n = 1;
	}
}

const char *fv_runtime_task_count(int i, long long *n)
{
	if (i < 0 || i >= n_counts)
		return NULL;
	*n = counts[i].n;
	return counts[i].name;
}

/* ---- which tasks the models record (fvstar sim calibrate) ---- */

static int record_from, submitting;

void fv_runtime_models_from(int iter)
{
	record_from = iter;
	submitting = 0; /* a new run: its set-up's tasks are "iteration 0" */
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void fv_runtime_submitting(int iter)
{
	if (iter >= 0)
		submitting = iter; /* -1 (the iteration's end): still its tasks */
	if (fv_runtime_simulated())
		return;
	if (iter >= 2) { /* the first iteration's submission also allocates */
		submit_t0 = now_s();
		submit_n0 = n_submitted;
	} else if (iter < 0 && submit_t0 > 0) {
		submit_busy += now_s() - submit_t0;
		submit_tasks += n_submitted - submit_n0;
		submit_t0 = 0;
	}
}

double fv_runtime_submit_seconds_per_task(void)
{
	return submit_tasks > 0 ? submit_busy / (double)submit_tasks : 0;
}

void fv_runtime_submit_reset(void)
{
	submit_busy = submit_t0 = 0;
	submit_tasks = 0;
}

double fv_runtime_sim_submit_cost(void)
{
	return submit_cost;
}

/* PLATFORM/fvstar.sim ("submit_us_per_task X", fvstar sim calibrate),
 * unless FVSTAR_SIM_TASK_US says otherwise (a what-if; 0: StarPU's 1 us
 * alone); a folder without the file (calibrated before it) charges
 * nothing more. */
static fv_err_t read_submit_cost(const char *base)
{
	char path[PATH_MAX + 16], key[64];
	const char *e = getenv("FVSTAR_SIM_TASK_US");
	double us = 0;
	if (e && *e) {
		char *end;
		us = strtod(e, &end);
		FV_CHECK(*end == 0 && us >= 0, FV_ERR_ARG, "FVSTAR_SIM_TASK_US=%s: expected microseconds >= 0", e);
		submit_cost = us * 1e-6;
		return FV_OK;
	}
	snprintf(path, sizeof path, "%s/fvstar.sim", base);
	FILE *f = fopen(path, "r");
	submit_cost = 0;
	if (!f)
		return FV_OK;
	int line = 0, ok = 1;
	char buf[256];
	while (ok && fgets(buf, sizeof buf, f)) {
		line++;
		if (buf[0] == '#' || buf[0] == '\n')
			continue;
		ok = sscanf(buf, "%63s %lf", key, &us) == 2 && us >= 0;
		if (ok && strcmp(key, "submit_us_per_task") == 0)
			submit_cost = us * 1e-6;
	}
	fclose(f);
	FV_CHECK(ok, FV_ERR_ARG, "%s:%d: expected \"KEY VALUE\" (submit_us_per_task MICROSECONDS)", path, line);
	return FV_OK;
}

int fv_runtime_models_record(void)
{
	/* the tasks before the first iteration (a snapshot's first copy) run
	 * once a run: recorded, or no model would hold them */
	return submitting == 0 || submitting >= record_from;
}

/* ---- what the workers and buses did (StarPU's profiling) ---- */

void fv_runtime_profile_start(void)
{
	/* enabling resets every worker's and bus's counters */
	starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
}

static double seconds_of(const struct timespec *t)
{
	return (double)t->tv_sec + 1e-9 * (double)t->tv_nsec;
}

void fv_runtime_profile_read(fv_sim_profile_t *p)
{
	memset(p, 0, sizeof *p);
	if (starpu_profiling_status_get() != STARPU_PROFILING_ENABLE)
		return;
	for (int w = 0; w < (int)starpu_worker_get_count(); w++) {
		struct starpu_profiling_worker_info info;
		if (starpu_profiling_worker_get_info(w, &info) != 0)
			continue;
		if (starpu_worker_get_type(w) == STARPU_CUDA_WORKER) {
			p->cuda_busy += seconds_of(&info.executing_time);
			p->cuda_tasks += info.executed_tasks;
		} else if (starpu_worker_get_type(w) == STARPU_CPU_WORKER) {
			p->cpu_busy += seconds_of(&info.executing_time);
			p->cpu_tasks += info.executed_tasks;
		}
	}
	for (int b = 0; b < starpu_bus_get_count(); b++) {
		struct starpu_profiling_bus_info info;
		int src = starpu_bus_get_src(b), dst = starpu_bus_get_dst(b);
		if (starpu_bus_get_profiling_info(b, &info) != 0)
			continue;
		int from_gpu = starpu_node_get_kind((unsigned)src) == STARPU_CUDA_RAM;
		int to_gpu = starpu_node_get_kind((unsigned)dst) == STARPU_CUDA_RAM;
		int k = from_gpu && to_gpu ? 2 : to_gpu ? 0 : from_gpu ? 1 : -1;
		if (k < 0)
			continue;
		p->bytes[k] += (double)info.transferred_bytes;
		p->count[k] += info.transfer_count;
	}
}

/* ---- the bus, measured by one rank at a time ---- */

/* 1 if dir holds a bus description of StarPU's (HOST.config, which StarPU
 * writes last): StarPU then reads it rather than measuring again. */
static int has_bus(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;
	if (!d)
		return 0;
	while (!found && (e = readdir(d)))
		found = strlen(e->d_name) > 7 && strcmp(e->d_name + strlen(e->d_name) - 7, ".config") == 0;
	closedir(d);
	return found;
}

static fv_err_t copy_file(const char *from, const char *to)
{
	char buf[65536];
	size_t n;
	FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
	fv_err_t err = FV_OK;
	if (!in || !out) {
		err = FV_ERROR(FV_ERR_IO, "%s: cannot %s it", in ? to : from, in ? "write" : "read");
	} else {
		while ((n = fread(buf, 1, sizeof buf, in)) > 0)
			if (fwrite(buf, 1, n, out) != n) {
				err = FV_ERROR(FV_ERR_IO, "%s: cannot write it", to);
				break;
			}
	}
	if (in)
		fclose(in);
	if (out && fclose(out) != 0 && err == FV_OK)
		err = FV_ERROR(FV_ERR_IO, "%s: cannot write it", to);
	return err;
}

fv_err_t fv_runtime_sim_bus_alone(const char *root)
{
	char bus0[PATH_MAX], mine[PATH_MAX], from[PATH_MAX + 300], to[PATH_MAX + 300];
	int me = fv_runtime_rank();
	long long measured = 0;
	if (fv_runtime_nranks() <= 1 || fv_runtime_simulated())
		return FV_OK;
	FV_CHECK(strlen(root) + 32 < sizeof bus0, FV_ERR_ARG, "--save %s: path too long", root);
	snprintf(bus0, sizeof bus0, "%s/rank0/bus", root);
	if (me == 0 && !has_bus(bus0)) {
		/* StarPU measures the bus at start-up when its folder has none:
		 * a StarPU of its own, started and stopped, while the other
		 * ranks wait below */
		struct starpu_conf conf;
		char dir[PATH_MAX], *old = getenv("STARPU_PERF_MODEL_DIR") ? strdup(getenv("STARPU_PERF_MODEL_DIR")) : NULL;
		snprintf(dir, sizeof dir, "%s/rank0", root);
		setenv("STARPU_PERF_MODEL_DIR", dir, 1);
		setenv("STARPU_FXT_TRACE", "0", 0);
		setenv("STARPU_SILENT", "1", 0);
		starpu_conf_init(&conf);
		conf.ncpus = 1;
		int ret = starpu_init(&conf);
		if (ret == 0)
			starpu_shutdown();
		if (old) {
			setenv("STARPU_PERF_MODEL_DIR", old, 1);
			free(old);
		} else {
			unsetenv("STARPU_PERF_MODEL_DIR");
		}
		FV_CHECK(ret == 0, FV_ERR_RUNTIME, "rank 0: starpu_init to measure the bus alone failed (%d)", ret);
		measured = 1;
		fprintf(stderr, "fvstar: rank 0 measured the bus alone (%s); the other ranks take its description\n",
			bus0);
	}
	/* the others wait for it (a collective: every rank passes here) */
	FV_CALL(fv_runtime_combine(&measured, sizeof measured, "the end of rank 0's bus measurement"));
	snprintf(mine, sizeof mine, "%s/rank%d/bus", root, me);
	if (me == 0 || has_bus(mine))
		return FV_OK;
	FV_CHECK(has_bus(bus0), FV_ERR_RUNTIME, "rank %d: %s: rank 0 left no bus description there", me, bus0);
	snprintf(to, sizeof to, "%s/rank%d", root, me);
	FV_CHECK(mkdir(to, 0777) == 0 || errno == EEXIST, FV_ERR_IO, "%s: cannot create it (%s)", to, strerror(errno));
	FV_CHECK(mkdir(mine, 0777) == 0 || errno == EEXIST, FV_ERR_IO, "%s: cannot create it (%s)", mine,
		 strerror(errno));
	DIR *d = opendir(bus0);
	struct dirent *e;
	fv_err_t err = FV_OK;
	FV_CHECK(d, FV_ERR_IO, "%s: cannot read it", bus0);
	while (err == FV_OK && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(from, sizeof from, "%s/%s", bus0, e->d_name);
		snprintf(to, sizeof to, "%s/%s", mine, e->d_name);
		err = copy_file(from, to);
	}
	closedir(d);
	return err;
}

/* ---- the platform folder ---- */

static int sim_cpus = -1, sim_gpus = -1;

int fv_runtime_sim_cpus(void)
{
	return sim_cpus;
}

int fv_runtime_sim_gpus(void)
{
	return sim_gpus;
}

/* The names an XML file declares, for the references to check. */
typedef struct names {
	char **v;
	int n, cap;
} names_t;

static fv_err_t names_add(names_t *s, const char *v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		FV_CALL(fv_realloc(&s->v, (size_t)s->cap, sizeof *s->v, "the platform's names"));
	}
	s->v[s->n] = strdup(v);
	FV_CHECK(s->v[s->n], FV_ERR_MEM, "out of memory reading the platform");
	s->n++;
	return FV_OK;
}

static int names_has(const names_t *s, const char *v)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->v[i], v) == 0)
			return 1;
	return 0;
}

static void names_free(names_t *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof *s);
}

/* One element's attributes (those the checks read). */
typedef struct elem {
	char name[32];
	char id[128], src[128], dst[128], bw[64];
	int line, closed, end;
} elem_t;

/* The next tag from *p (line counted in *line); 0 at the end, -1 on a
 * syntax error (why in err). Comments, declarations and <? ?> are skipped. */
static int next_tag(const char **p, int *line, elem_t *e, char *err, size_t n)
{
	const char *s = *p;
	for (;;) {
		while (*s && *s != '<') {
			if (*s == '\n')
				(*line)++;
			s++;
		}
		if (!*s) {
			*p = s;
			return 0;
		}
		const char *close = NULL;
		if (strncmp(s, "<!--", 4) == 0)
			close = "-->";
		else if (strncmp(s, "<?", 2) == 0)
			close = "?>";
		else if (strncmp(s, "<!", 2) == 0)
			close = ">";
		if (!close)
			break;
		const char *t = strstr(s, close);
		if (!t) {
			snprintf(err, n, "unterminated %.4s", s);
			return -1;
		}
		for (; s < t; s++)
			*line += *s == '\n';
		s = t + strlen(close);
	}
	memset(e, 0, sizeof *e);
	e->line = *line;
	s++;
	if (*s == '/') {
		e->end = 1;
		s++;
	}
	size_t k = 0;
	while (*s && (isalnum((unsigned char)*s) || *s == '_' || *s == '-' || *s == ':')) {
		if (k + 1 < sizeof e->name)
			e->name[k++] = *s;
		s++;
	}
	if (!k) {
		snprintf(err, n, "'<' not followed by an element name");
		return -1;
	}
	for (;;) {
		while (isspace((unsigned char)*s)) {
			*line += *s == '\n';
			s++;
		}
		if (*s == '>') {
			s++;
			break;
		}
		if (s[0] == '/' && s[1] == '>' && !e->end) {
			e->closed = 1;
			s += 2;
			break;
		}
		char an[32];
		k = 0;
		while (*s && (isalnum((unsigned char)*s) || *s == '_' || *s == '-' || *s == ':')) {
			if (k + 1 < sizeof an)
				an[k++] = *s;
			s++;
		}
		an[k] = 0;
		if (!k || e->end) {
			snprintf(err, n, "<%s%s>: expected an attribute, '>' or '/>'%s%c%s", e->end ? "/" : "", e->name,
				 *s ? " at '" : " at the end of the file", *s ? *s : ' ', *s ? "'" : "");
			return -1;
		}
		while (isspace((unsigned char)*s))
			s++;
		char q = s[1];
		if (*s != '=' || (q != '"' && q != '\'')) {
			snprintf(err, n, "<%s>: attribute %s without a quoted value", e->name, an);
			return -1;
		}
		s += 2;
		const char *v = strchr(s, q);
		if (!v) {
			snprintf(err, n, "<%s>: attribute %s: unterminated value", e->name, an);
			return -1;
		}
		char *dst = strcmp(an, "id") == 0 ? e->id : strcmp(an, "src") == 0 ? e->src
						     : strcmp(an, "dst") == 0 ? e->dst
						     : strcmp(an, "bandwidth") == 0 ? e->bw
										     : NULL;
		size_t cap = dst == e->bw ? sizeof e->bw : sizeof e->id;
		if (dst)
			snprintf(dst, cap, "%.*s", (int)(v - s), s);
		for (; s < v; s++)
			*line += *s == '\n';
		s = v + 1;
	}
	*p = s;
	return 1;
}

/* A count of hosts named prefix0 .. prefix(n-1) among those declared;
 * -1 when one is missing in the sequence (its number into *gap). */
static int host_run(const names_t *hosts, const char *prefix, int *gap)
{
	int n = 0, max = -1;
	size_t lp = strlen(prefix);
	for (int i = 0; i < hosts->n; i++) {
		const char *h = hosts->v[i];
		if (strncmp(h, prefix, lp) != 0 || !h[lp])
			continue;
		char *end;
		long k = strtol(h + lp, &end, 10);
		if (*end)
			continue;
		n++;
		if (k > max)
			max = (int)k;
	}
	if (n != max + 1) {
		char want[160];
		for (int k = 0; k <= max; k++) {
			snprintf(want, sizeof want, "%s%d", prefix, k);
			if (!names_has(hosts, want)) {
				*gap = k;
				return -1;
			}
		}
	}
	return n;
}

/* Checks the platform XML file path: well formed, hosts MAIN, RAM, CPU0..,
 * CUDA0.. in sequence, every link a route names declared, a route each way
 * between RAM and every GPU. */
static fv_err_t check_platform(const char *path, int *ncpu, int *ncuda)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL, err[512], stack[64][32];
	long size;
	int depth = 0, line = 1, r, gap = 0;
	names_t hosts = {0}, links = {0}, routes = {0};
	elem_t e;
	fv_err_t ret = FV_OK;
	FV_CHECK(f, FV_ERR_IO, "%s: cannot open the platform file", path);
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    fv_malloc(&text, (size_t)size + 1, 1, "the platform file") != FV_OK ||
	    fread(text, 1, (size_t)size, f) != (size_t)size) {
		fclose(f);
		free(text);
		return FV_ERROR(FV_ERR_IO, "%s: cannot read the platform file", path);
	}
	fclose(f);
	text[size] = 0;
	const char *p = text;
	while ((r = next_tag(&p, &line, &e, err, sizeof err)) > 0) {
		if (e.end) {
			FV_CHECK_GOTO(ret, out, depth > 0 && strcmp(stack[depth - 1], e.name) == 0, FV_ERR_FORMAT,
				      "%s:%d: </%s> closes %s%s%s", path, e.line, e.name, depth ? "<" : "nothing",
				      depth ? stack[depth - 1] : "", depth ? ">" : "");
			depth--;
			continue;
		}
		FV_CHECK_GOTO(ret, out, depth > 0 || strcmp(e.name, "platform") == 0, FV_ERR_FORMAT,
			      "%s:%d: <%s> outside <platform>: not a SimGrid platform file", path, e.line, e.name);
		if (strcmp(e.name, "host") == 0) {
			FV_CHECK_GOTO(ret, out, e.id[0], FV_ERR_FORMAT, "%s:%d: <host> without an id", path, e.line);
			FV_CHECK_GOTO(ret, out, !names_has(&hosts, e.id), FV_ERR_FORMAT, "%s:%d: host %s declared twice",
				      path, e.line, e.id);
			FV_CALL_GOTO(ret, out, names_add(&hosts, e.id));
		} else if (strcmp(e.name, "link") == 0) {
			char *end;
			double bw = strtod(e.bw, &end);
			FV_CHECK_GOTO(ret, out, e.id[0], FV_ERR_FORMAT, "%s:%d: <link> without an id", path, e.line);
			FV_CHECK_GOTO(ret, out, e.bw[0] && end != e.bw && bw >= 0, FV_ERR_FORMAT,
				      "%s:%d: link %s: bandwidth '%s' is not a number with a unit (e.g. 12.5GBps)", path,
				      e.line, e.id, e.bw);
			FV_CALL_GOTO(ret, out, names_add(&links, e.id));
		} else if (strcmp(e.name, "link_ctn") == 0) {
			FV_CHECK_GOTO(ret, out, names_has(&links, e.id), FV_ERR_FORMAT,
				      "%s:%d: link_ctn names link '%s', which no <link> before it declares", path, e.line,
				      e.id);
		} else if (strcmp(e.name, "route") == 0) {
			char key[260];
			FV_CHECK_GOTO(ret, out, names_has(&hosts, e.src) && names_has(&hosts, e.dst), FV_ERR_FORMAT,
				      "%s:%d: route from '%s' to '%s': %s is no host declared before it", path, e.line,
				      e.src, e.dst, names_has(&hosts, e.src) ? e.dst : e.src);
			snprintf(key, sizeof key, "%s>%s", e.src, e.dst);
			FV_CALL_GOTO(ret, out, names_add(&routes, key));
		}
		if (!e.closed) {
			FV_CHECK_GOTO(ret, out, depth < 64, FV_ERR_FORMAT, "%s:%d: elements nested too deep", path, e.line);
			snprintf(stack[depth++], sizeof stack[0], "%s", e.name);
		}
	}
	FV_CHECK_GOTO(ret, out, r == 0, FV_ERR_FORMAT, "%s:%d: %s", path, line, err);
	FV_CHECK_GOTO(ret, out, depth == 0, FV_ERR_FORMAT, "%s:%d: the file ends inside <%s>", path, line,
		      depth ? stack[depth - 1] : "");
	FV_CHECK_GOTO(ret, out, hosts.n > 0, FV_ERR_FORMAT, "%s: no <platform> with hosts in it", path);
	FV_CHECK_GOTO(ret, out, names_has(&hosts, "MAIN") && names_has(&hosts, "RAM"), FV_ERR_FORMAT,
		      "%s: no host %s: StarPU's platforms have MAIN (the submitting thread) and RAM", path,
		      names_has(&hosts, "MAIN") ? "RAM" : "MAIN");
	*ncpu = host_run(&hosts, "CPU", &gap);
	FV_CHECK_GOTO(ret, out, *ncpu >= 0, FV_ERR_FORMAT, "%s: hosts CPU0 .. : CPU%d is missing", path, gap);
	*ncuda = host_run(&hosts, "CUDA", &gap);
	FV_CHECK_GOTO(ret, out, *ncuda >= 0, FV_ERR_FORMAT, "%s: hosts CUDA0 .. : CUDA%d is missing", path, gap);
	FV_CHECK_GOTO(ret, out, *ncuda <= STARPU_MAXCUDADEVS, FV_ERR_FORMAT,
		      "%s: %d CUDA hosts; this StarPU was built for %d at most (STARPU_MAXCUDADEVS)", path, *ncuda,
		      STARPU_MAXCUDADEVS);
	FV_CHECK_GOTO(ret, out, *ncpu <= STARPU_MAXCPUS, FV_ERR_FORMAT,
		      "%s: %d CPU hosts; this StarPU was built for %d at most (STARPU_MAXCPUS)", path, *ncpu,
		      STARPU_MAXCPUS);
	for (int g = 0; g < *ncuda; g++) {
		char a[64], b[64];
		snprintf(a, sizeof a, "RAM>CUDA%d", g);
		snprintf(b, sizeof b, "CUDA%d>RAM", g);
		char gpu[32];
		int up = names_has(&routes, a);
		snprintf(gpu, sizeof gpu, "CUDA%d", g);
		FV_CHECK_GOTO(ret, out, up && names_has(&routes, b), FV_ERR_FORMAT,
			      "%s: no route from %s to %s: every GPU needs one to and one from RAM", path,
			      up ? gpu : "RAM", up ? "RAM" : gpu);
	}
out:
	names_free(&hosts);
	names_free(&links);
	names_free(&routes);
	free(text);
	return ret;
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

fv_err_t fv_runtime_sim_platform(const char *dir, int *ncpu, int *ncuda)
{
	char base[PATH_MAX], bus[PATH_MAX + 8], path[PATH_MAX + 600], host[256] = "";
	const char *env_host = getenv("STARPU_HOSTNAME");
	int nc = 0, ng = 0;
	if (!dir) {
		/* StarPU's own: STARPU_PERF_MODEL_DIR, else STARPU_HOME's or HOME's */
		const char *m = getenv("STARPU_PERF_MODEL_DIR"), *h = getenv("STARPU_HOME");
		if (m)
			snprintf(base, sizeof base, "%s", m);
		else
			snprintf(base, sizeof base, "%s/.starpu/sampling", h ? h : getenv("HOME") ? getenv("HOME") : ".");
		dir = base;
	}
	FV_CHECK(is_dir(dir), FV_ERR_ARG,
		 "%s: no such platform folder (`fvstar sim calibrate CASE --save DIR` on a real machine saves one, "
		 "tools/sim_platform.py derives others)",
		 dir);
	FV_CHECK(realpath(dir, base), FV_ERR_IO, "%s: cannot resolve the path", dir);
	snprintf(bus, sizeof bus, "%s/bus", base);
	FV_CHECK(is_dir(bus), FV_ERR_ARG,
		 "%s: no bus/ folder: not a platform folder (it holds bus/HOST.platform.v4.xml and codelets/45/)",
		 base);
	if (env_host && env_host[0]) {
		snprintf(host, sizeof host, "%s", env_host);
	} else {
		/* the one platform in bus/ names the host */
		DIR *d = opendir(bus);
		struct dirent *de;
		int n = 0;
		FV_CHECK(d, FV_ERR_IO, "%s: cannot list the folder", bus);
		while ((de = readdir(d))) {
			size_t len = strlen(de->d_name), ls = strlen(".platform.v4.xml");
			if (len > ls && strcmp(de->d_name + len - ls, ".platform.v4.xml") == 0) {
				if (n++ == 0)
					snprintf(host, sizeof host, "%.*s", (int)(len - ls), de->d_name);
			}
		}
		closedir(d);
		FV_CHECK(n > 0, FV_ERR_ARG, "%s: no HOST.platform.v4.xml in it: not a platform folder", bus);
		FV_CHECK(n == 1, FV_ERR_ARG,
			 "%s: %d platforms (*.platform.v4.xml) in it: set STARPU_HOSTNAME to the one to simulate", bus,
			 n);
	}
	static const char *const need[] = {"platform.v4.xml", "bandwidth", "latency"};
	for (int k = 0; k < 3; k++) {
		snprintf(path, sizeof path, "%s/%s.%s", bus, host, need[k]);
		FV_CHECK(access(path, R_OK) == 0, FV_ERR_ARG,
			 "%s: missing or unreadable: a platform folder for host %s has %s.platform.v4.xml, "
			 "%s.bandwidth and %s.latency in bus/",
			 path, host, host, host, host);
	}
	snprintf(path, sizeof path, "%s/codelets/45", base);
	FV_CHECK(is_dir(path), FV_ERR_ARG,
		 "%s: no such folder: the platform folder holds no performance models (fvstar sim calibrate saves "
		 "them)",
		 path);
	snprintf(path, sizeof path, "%s/%s.platform.v4.xml", bus, host);
	FV_CALL(check_platform(path, &nc, &ng));
	FV_CALL(read_submit_cost(base));
	sim_cpus = nc;
	sim_gpus = ng;
	if (ncpu)
		*ncpu = nc;
	if (ncuda)
		*ncuda = ng;
	setenv("STARPU_PERF_MODEL_DIR", base, 1);
	setenv("STARPU_HOSTNAME", host, 1);
	return FV_OK;
}
