/* SPDX-License-Identifier: MIT */
/* Execution traces: FxT recording by the FxT build of StarPU, and the
 * conversion of its file for ViTE and StarVZ (fvstar/runtime.h). */
#define _GNU_SOURCE /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <starpu.h>

#include "config.h"
#include "fvstar/runtime.h"
#include "runtime/paths.h"

#define PATH_MAX_ 4096

static fv_err_t shift_times(const char *dir);

static int tracing;   /* this run records a trace */
static int recording; /* between fv_runtime_trace_start and _stop */
static int recorded;  /* recording has started (once: a stop is final) */

/*
 * Traces: the plain StarPU library is loaded by default (FxT costs time
 * even when not tracing); a traced run re-executes itself with the FxT
 * build first on the library path, records into the trace directory (from
 * fv_runtime_trace_start to fv_runtime_trace_stop), and converts the FxT
 * file with starpu_fxt_tool into paje.trace (ViTE), tasks.rec, data.rec and
 * dag.dot (StarVZ) there.
 */
static int fxt_library_loaded(void)
{
	Dl_info info;
	size_t n = strlen(fv_starpu_trace_libdir());
	return dladdr((void *)starpu_init, &info) && info.dli_fname &&
	       strncmp(info.dli_fname, fv_starpu_trace_libdir(), n) == 0;
}

fv_err_t fv_runtime_trace_prepare(const char *dir, int argc, char **argv)
{
	char prefix[PATH_MAX_ + 2];
	if (!dir || !dir[0])
		return FV_OK;
	if (!fxt_library_loaded()) {
		const char *old = getenv("LD_LIBRARY_PATH");
		char *path, **args;
		FV_CHECK(!getenv("FVSTAR_TRACE_REEXEC"), FV_ERR_RUNTIME,
			 "[output] trace: the FxT-enabled StarPU in %s could not be loaded", fv_starpu_trace_libdir());
		FV_CALL(fv_malloc(&path, strlen(fv_starpu_trace_libdir()) + (old ? strlen(old) : 0) + 2, 1, "library path"));
		sprintf(path, "%s%s%s", fv_starpu_trace_libdir(), old ? ":" : "", old ? old : "");
		setenv("LD_LIBRARY_PATH", path, 1);
		setenv("FVSTAR_TRACE_REEXEC", "1", 1);
		free(path);
		FV_CALL(fv_calloc(&args, (size_t)argc + 3, sizeof *args, "arguments"));
		args[0] = (char *)"fvstar";
		for (int i = 0; i < argc; i++)
			args[i + 1] = argv[i];
		fflush(NULL);
		execv("/proc/self/exe", args);
		free(args);
		return FV_ERROR(FV_ERR_RUNTIME, "re-executing fvstar with the FxT StarPU failed: %s", strerror(errno));
	}
	snprintf(prefix, sizeof prefix, "%s/", dir);
	setenv("STARPU_FXT_PREFIX", prefix, 1);
	setenv("STARPU_FXT_TRACE", "1", 1);
	/* FxT keeps only its meta events (workers, memory nodes) until
	 * fv_runtime_trace_start: recorded from starpu_init, a 3-iteration
	 * trace of the M6 coarse mesh was 4.7 s of which its iterations were
	 * 0.6 s (bench/results/2026-11-25-traces.md) */
	starpu_fxt_autostart_profiling(0);
	tracing = 1;
	return FV_OK;
}

int fv_runtime_tracing(void)
{
	return tracing;
}

void fv_runtime_trace_start(void)
{
	if (!tracing || recorded)
		return;
	/* what was submitted before (state upload, first snapshot, earlier
	 * iterations) runs outside the trace */
	starpu_task_wait_for_all();
	starpu_fxt_start_profiling();
	starpu_fxt_trace_user_event_string("trace start");
	recording = recorded = 1;
}

void fv_runtime_trace_stop(void)
{
	if (!recording)
		return;
	fv_runtime_trace_iteration(-1);
	starpu_task_wait_for_all();
	starpu_fxt_trace_user_event_string("trace stop");
	starpu_fxt_stop_profiling();
	recording = 0;
}

/* starpu_iteration_push levels open: 0, 1 (iteration), 2 (and step) */
static int mark_depth;

void fv_runtime_trace_iteration(int iter)
{
	char name[48];
	fv_runtime_submitting(iter); /* a calibration's warm-up (sim.c) */
	if (!recording)
		return;
	for (; mark_depth > 0; mark_depth--)
		starpu_iteration_pop();
	if (iter < 0) {
		/* StarPU 1.3.10's pop clears the level above the one it leaves,
		 * so the outer number would stay on later tasks (the residual
		 * read-back): a push of -1 ("none" in tasks.rec) and a pop
		 * clear it */
		starpu_iteration_push((unsigned long)-1);
		starpu_iteration_pop();
		return;
	}
	starpu_iteration_push((unsigned long)iter);
	mark_depth = 1;
	snprintf(name, sizeof name, "iteration %d", iter);
	starpu_fxt_trace_user_event_string(name);
}

void fv_runtime_trace_step(int sub, const char *name)
{
	if (!recording || mark_depth < 1)
		return;
	if (mark_depth == 2)
		starpu_iteration_pop();
	starpu_iteration_push((unsigned long)sub);
	mark_depth = 2;
	starpu_fxt_trace_user_event_string(name);
}

int fv_runtime_trace_has_fxt(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;
	while (d && !found && (e = readdir(d)))
		found = strncmp(e->d_name, "prof_file_", 10) == 0;
	if (d)
		closedir(d);
	return found;
}

/* Several ranks: rank r's FxT file is prof_file_<user>_<r>. */
static int rank_of_file(const char *name)
{
	const char *u = strrchr(name, '_');
	char *end;
	long r = u ? strtol(u + 1, &end, 10) : -1;
	return u && u[1] && *end == '\0' && r >= 0 && r < 1 << 20 ? (int)r : -1;
}

fv_err_t fv_runtime_trace_convert(const char *dir, FILE *summary)
{
	char tool[PATH_MAX_], input[PATH_MAX_] = "";
	int n = fv_runtime_nranks();
	char **inputs = NULL;
	DIR *d = opendir(dir);
	struct dirent *e;
	pid_t pid;
	int status;
	FV_CHECK(d, FV_ERR_IO, "%s: cannot open the trace directory: %s", dir, strerror(errno));
	if (n == 1) {
		/* `fvstar trace DIR` in one process, on the trace of a run of
		 * several ranks: its files prof_file_<user>_0 .. _<R-1>, merged
		 * again (one of them alone holds that rank's tasks, MPIRank -1) */
		int top = -1, files = 0;
		while ((e = readdir(d)))
			if (strncmp(e->d_name, "prof_file_", 10) == 0) {
				int r = rank_of_file(e->d_name);
				files++;
				top = r > top ? r : top;
			}
		rewinddir(d);
		if (files > 1 && top == files - 1)
			n = files;
	}
	if (n > 1 && fv_calloc(&inputs, (size_t)n, sizeof *inputs, "trace files") != FV_OK) {
		closedir(d);
		return FV_ERR_MEM;
	}
	while ((e = readdir(d)))
		if (strncmp(e->d_name, "prof_file_", 10) == 0) {
			int r = rank_of_file(e->d_name);
			snprintf(input, sizeof input, "%s", e->d_name);
			if (inputs && r >= 0 && r < n && !inputs[r])
				inputs[r] = strdup(e->d_name);
		}
	closedir(d);
	for (int r = 0; inputs && r < n; r++)
		if (!inputs[r]) {
			for (int i = 0; i < n; i++)
				free(inputs[i]);
			free(inputs);
			return FV_ERROR(FV_ERR_RUNTIME, "%s: no FxT file of rank %d (prof_file_*_%d)", dir, r, r);
		}
	FV_CHECK(input[0], FV_ERR_RUNTIME, "%s: StarPU wrote no FxT file (prof_file_*)", dir);
	snprintf(tool, sizeof tool, "%s", fv_starpu_fxt_tool());
	fflush(NULL);
	pid = fork();
	FV_CHECK(pid >= 0, FV_ERR_RUNTIME, "fork for starpu_fxt_tool failed: %s", strerror(errno));
	if (pid == 0) {
		/* the tool writes its outputs into its working directory; -c:
		 * a colour per task name in paje.trace (ViTE), not one for all */
		if (chdir(dir) == 0) {
			int devnull = open("/dev/null", O_WRONLY);
			if (devnull >= 0)
				dup2(devnull, 1);
			if (!inputs)
				execl(tool, "starpu_fxt_tool", "-c", "-i", input, (char *)NULL);
			/* the ranks' files merged into one trace */
			char **args = calloc((size_t)(2 * n + 3), sizeof *args);
			if (args) {
				args[0] = (char *)"starpu_fxt_tool";
				args[1] = (char *)"-c";
				for (int r = 0; r < n; r++) {
					args[2 + 2 * r] = (char *)"-i";
					args[3 + 2 * r] = inputs[r];
				}
				execv(tool, args);
			}
		}
		_exit(127);
	}
	for (int r = 0; inputs && r < n; r++)
		free(inputs[r]);
	free(inputs);
	FV_CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0, FV_ERR_RUNTIME,
		 "%s -i %s/%s failed (exit %d)", tool, dir, input, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	FV_CALL(shift_times(dir));
	if (!summary)
		return FV_OK;
	if (tracing && !recorded) {
		fprintf(summary, "fvstar: the trace in %s recorded no iteration: output.trace_from is after the run's "
			"last iteration\n", dir);
		return FV_OK;
	}
	fprintf(stderr,
		"fvstar: trace in %s: paje.trace (ViTE, pj_dump), tasks.rec, data.rec, dag.dot (StarVZ)%s; "
		"times from the recording start; 'fvstar trace %s' draws it\n",
		dir, n > 1 ? ", every rank's file merged" : "", dir);
	return fv_runtime_trace_summary(dir, summary);
}

/*
 * Times from the recording start. starpu_fxt_tool counts from starpu_init,
 * so the mesh, partition and solver set-up before the first traced
 * iteration would fill the timeline (ViTE shows it all) with nothing
 * recorded in it. Every time of paje.trace, tasks.rec and trace.rec
 * becomes max(0, t - t0), t0 the "start_profiling" event: monotone, so
 * Paje's time order holds, and the start-up's few meta events (worker
 * containers, their initialisation) sit at 0. Run again on shifted files,
 * it shifts by 0. The task colours of paje.trace become the stage colours
 * (task_colour).
 */
#define MAX_EVENT_IDS 256

/* the time of the start_profiling event in paje.trace, -1 when none */
static double recording_start(FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	double t0 = -1;
	while (t0 < 0 && getline(&line, &cap, f) > 0) {
		char *p = line, *end;
		if (line[0] == '%' || !strstr(line, "\"start_profiling\""))
			continue;
		strtol(p, &end, 10);
		double t = strtod(end, &p);
		if (p != end)
			t0 = t;
	}
	free(line);
	return t0;
}

static double shifted(double t, double t0)
{
	return t > t0 ? t - t0 : 0.0;
}

/* Rewrites path line by line through fn into path.tmp, then renames it. */
#define ORDER_SLOTS 4096 /* (container, type) pairs of a trace: workers x types */

/* An iteration or step mark written into paje.trace (iteration_marks). */
typedef struct trace_mark {
	double t;
	char label[56];
} trace_mark_t;

typedef struct paje_defs {
	trace_mark_t *marks;           /* by time; next: the first not written */
	size_t n_marks, next;
	int marks_defined;             /* the event type of the marks is written */
	char program[64];              /* the program container's alias */
	int time_first[MAX_EVENT_IDS]; /* event id -> its first field is the time */
	int cont_pos[MAX_EVENT_IDS];   /* field of its Container and Type (0: the time; -1: none) */
	int type_pos[MAX_EVENT_IDS];
	int def, n_fields;             /* the %EventDef being read, its fields so far */
	/* the last time written for each (container, type) */
	struct {
		char *key;
		double t;
	} last[ORDER_SLOTS];
} paje_defs_t;

/* The last time of key's (container, type), with room for it; NULL when
 * the table is full. */
static double *last_time(paje_defs_t *d, const char *key)
{
	uint32_t h = 2166136261u;
	for (const char *c = key; *c; c++)
		h = (h ^ (uint8_t)*c) * 16777619u;
	for (uint32_t k = 0; k < ORDER_SLOTS; k++) {
		uint32_t i = (h + k) % ORDER_SLOTS;
		if (!d->last[i].key) {
			d->last[i].key = strdup(key);
			d->last[i].t = -1e300;
			return d->last[i].key ? &d->last[i].t : NULL;
		}
		if (strcmp(d->last[i].key, key) == 0)
			return &d->last[i].t;
	}
	return NULL;
}

static fv_err_t rewrite(const char *dir, const char *name, double t0, trace_mark_t *marks, size_t n_marks,
			void (*fn)(FILE *out, char *line, double t0, paje_defs_t *d))
{
	char path[PATH_MAX_ + 64], tmp[PATH_MAX_ + 80];
	char *line = NULL;
	size_t cap = 0;
	paje_defs_t *defs;
	FILE *in, *out;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	in = fopen(path, "r");
	if (!in)
		return FV_OK; /* starpu_fxt_tool writes trace.rec only in some versions */
	if (fv_calloc(&defs, 1, sizeof *defs, "trace event definitions") != FV_OK) {
		fclose(in);
		return fv_error_trace(FV_ERR_MEM, __FILE__, __LINE__);
	}
	out = fopen(tmp, "w");
	if (!out) {
		fclose(in);
		free(defs);
		return FV_ERROR(FV_ERR_IO, "%s: cannot write: %s", tmp, strerror(errno));
	}
	defs->def = -1;
	defs->marks = marks;
	defs->n_marks = n_marks;
	while (getline(&line, &cap, in) > 0)
		fn(out, line, t0, defs);
	fn(out, NULL, t0, defs); /* the end */
	for (int i = 0; i < ORDER_SLOTS; i++)
		free(defs->last[i].key);
	free(defs);
	free(line);
	fclose(in);
	if (fclose(out) != 0 || rename(tmp, path) != 0) {
		fv_err_t err = FV_ERROR(FV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
		remove(tmp);
		return err;
	}
	return FV_OK;
}

/* The colour of a task name in ViTE: the stage colours of
 * tools/plot_trace.py's Gantt chart (StarPU gives every codelet the same
 * green, or with -c a grey from a hash of its name). */
static const char *task_colour(const char *name)
{
	static const struct {
		const char *prefix, *rgb;
	} colours[] = {
		{"sweep", "0.89 0.10 0.11"},    {"diagonal", "0.39 0.71 0.80"}, {"implicit_update", "0.80 0.73 0.45"},
		{"flux", "0.30 0.45 0.69"},     {"gradient", "0.33 0.66 0.41"}, {"limiter", "0.77 0.31 0.32"},
		{"nodes", "0.51 0.45 0.70"},    {"pack", "0.99 0.55 0.24"},     {"unpack", "0.85 0.28 0.00"},
		{"fetch", "0.99 0.82 0.64"},
		{"prim", "0.58 0.47 0.38"},     {"timestep", "0.85 0.55 0.76"}, {"clock", "0.85 0.55 0.76"},
		{"norms", "0.55 0.55 0.55"},    {"update", "0.80 0.73 0.45"},   {"copy", "0.93 0.93 0.93"},
	};
	/* idle and sleeping workers: gaps, as in the Gantt chart (StarPU: red) */
	if (strcmp(name, "I") == 0 || strcmp(name, "Sl") == 0)
		return "0.97 0.97 0.97";
	for (size_t k = 0; k < sizeof colours / sizeof colours[0]; k++)
		if (strncmp(name, colours[k].prefix, strlen(colours[k].prefix)) == 0)
			return colours[k].rgb;
	return NULL;
}

/* paje.trace: the header says which events have a time first
 * ("%EventDef NAME ID" then "% Time date"); their time is the field after
 * the event id. */
/* The marks up to time t (all with t < 0), once the program container
 * exists; their event type is defined before the first timed event. */
static void write_marks(FILE *out, paje_defs_t *d, double t)
{
	for (; d->program[0] && d->next < d->n_marks && (t < 0 || d->marks[d->next].t <= t); d->next++)
		fprintf(out, "9\t%.9f\tfvm\t%s\t\"%s\"\n", d->marks[d->next].t, d->program, d->marks[d->next].label);
}

static void paje_line(FILE *out, char *line, double t0, paje_defs_t *d)
{
	char *p = line, *end;
	if (!line) {
		write_marks(out, d, -1);
		return;
	}
	if (line[0] == '%') {
		if (strncmp(line, "%EventDef", 9) == 0) {
			char *id = line + strlen(line);
			while (id > line && (id[-1] == '\n' || id[-1] == ' ' || id[-1] == '\t'))
				id--;
			while (id > line && id[-1] >= '0' && id[-1] <= '9')
				id--;
			d->def = atoi(id);
			d->n_fields = 0;
			if (d->def >= 0 && d->def < MAX_EVENT_IDS)
				d->cont_pos[d->def] = d->type_pos[d->def] = -1;
		} else if (strncmp(line, "%EndEventDef", 12) == 0) {
			d->def = -1;
		} else if (d->def >= 0 && d->def < MAX_EVENT_IDS) {
			char name[64], type[32];
			if (sscanf(line, "%% %63s %31s", name, type) == 2) {
				if (d->n_fields == 0)
					d->time_first[d->def] = strcmp(name, "Time") == 0 && strcmp(type, "date") == 0;
				if (strcmp(name, "Container") == 0)
					d->cont_pos[d->def] = d->n_fields;
				if (strcmp(name, "Type") == 0)
					d->type_pos[d->def] = d->n_fields;
				d->n_fields++;
			}
		}
		fputs(line, out);
		return;
	}
	long id = strtol(p, &end, 10);
	if (id == 6 && end != p) { /* PajeDefineEntityValue: a worker state's colour, the last "..." */
		char alias[128], type[16];
		const char *rgb;
		char *q2 = strrchr(line, '"'), *q1 = q2;
		while (q1 && q1 > line && q1[-1] != '"')
			q1--;
		if (sscanf(end, " %127s %15s", alias, type) == 2 && strcmp(type, "WS") == 0 && q1 && q1 > line + 1 &&
		    (rgb = task_colour(alias))) {
			fwrite(line, 1, (size_t)(q1 - line), out);
			fprintf(out, "%s%s", rgb, q2);
			return;
		}
	}
	if (id == 2 && strncmp(end, "\tfvm\t", 5) == 0) { /* marked already (a second conversion) */
		d->marks_defined = 1;
		d->n_marks = 0;
	}
	if (end == p || id < 0 || id >= MAX_EVENT_IDS || !d->time_first[id]) {
		fputs(line, out);
		return;
	}
	if (!d->marks_defined) { /* the definitions are over */
		fputs("2\tfvm\tP\t\"fvstar iteration marks\"\n", out);
		d->marks_defined = 1;
	}
	p = end;
	while (*p == ' ' || *p == '\t')
		p++;
	double t = strtod(p, &end);
	if (end == p) {
		fputs(line, out);
		return;
	}
	t = shifted(t, t0);
	if (d->cont_pos[id] > 0 && d->type_pos[id] > 0) {
		/* pajeng wants the events of one container and type in time
		 * order; StarPU 1.3.10 wrote the scheduler's nsubmitted counter
		 * out of it (0.1 us early, in one M6 trace): such an event moves
		 * to the time of the event before */
		char field[4][128], key[260];
		int n = sscanf(end, " %127s %127s %127s %127s", field[0], field[1], field[2], field[3]);
		int c = d->cont_pos[id] - 1, y = d->type_pos[id] - 1;
		double *last;
		if (c < n && y < n) {
			snprintf(key, sizeof key, "%s\t%s", field[c], field[y]);
			last = last_time(d, key);
			if (last) {
				if (t < *last)
					t = *last;
				*last = t;
			}
		}
	}
	write_marks(out, d, t);
	fwrite(line, 1, (size_t)(p - line), out);
	fprintf(out, "%.9f%s", t, end);
	if (id == 7 && !d->program[0]) { /* PajeCreateContainer: "7 time alias P ..." */
		char alias[64], type[16];
		if (sscanf(end, " %63s %15s", alias, type) == 2 && strcmp(type, "P") == 0)
			snprintf(d->program, sizeof d->program, "%s", alias);
	}
}

/* tasks.rec and trace.rec: "Key: time" lines */
static void rec_line(FILE *out, char *line, double t0, paje_defs_t *d)
{
	static const char *const keys[] = {"SubmitTime: ", "StartTime: ", "EndTime: ", "S: "};
	(void)d;
	if (!line)
		return;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		size_t n = strlen(keys[k]);
		char *end;
		if (strncmp(line, keys[k], n) != 0)
			continue;
		double t = strtod(line + n, &end);
		if (end != line + n) {
			fprintf(out, "%s%f%s", keys[k], shifted(t, t0), end);
			return;
		}
	}
	fputs(line, out);
}

/*
 * Where the iterations and their steps ran: for each, the first start and
 * the last end of its tasks (tasks.rec's "Iteration: n s"), as events of
 * their own type in paje.trace ("iteration 4 begins", "iteration 4 rk 1
 * ends"), so that ViTE shows them where they ran (the marks of
 * fv_runtime_trace_iteration are events at submission, iterations ahead).
 */
typedef struct span {
	double b, e;
} span_t;

static int mark_cmp(const void *a, const void *b)
{
	const trace_mark_t *x = a, *y = b;
	return x->t < y->t ? -1 : x->t > y->t ? 1 : strcmp(x->label, y->label);
}

static void step_label(char *buf, size_t n, int sub, int implicit, int n_subs)
{
	if (!implicit)
		snprintf(buf, n, "rk %d", sub);
	else if (sub == 0)
		snprintf(buf, n, "residual");
	else if (sub == n_subs - 1)
		snprintf(buf, n, "update");
	else
		snprintf(buf, n, "sweep %d %s", (sub - 1) / 2, (sub - 1) % 2 ? "backward" : "forward");
}

static fv_err_t iteration_marks(const char *dir, double t0, trace_mark_t **marks, size_t *n_marks)
{
	char path[PATH_MAX_ + 64], *line = NULL, name[128] = "";
	size_t cap = 0;
	long lo = -1, hi = -1, it = -1, sub = -1;
	int max_sub = 0, implicit = 0, pass;
	double start = -1, end = -1;
	span_t *spans = NULL;
	FILE *f;
	*marks = NULL;
	*n_marks = 0;
	snprintf(path, sizeof path, "%s/tasks.rec", dir);
	/* pass 0: the range of iterations and steps; pass 1: their spans */
	for (pass = 0; pass < 2; pass++) {
		f = fopen(path, "r");
		if (!f) {
			free(spans);
			free(line);
			return FV_OK; /* no marks without tasks.rec */
		}
		for (;;) {
			ssize_t n = getline(&line, &cap, f);
			if (n <= 1) { /* a record ends */
				if (name[0] && strncmp(name, "_starpu", 7) != 0 && strncmp(name, "starpu_", 7) != 0 &&
				    it >= 0 && sub >= 0 && sub < 4096 && start >= 0 && end > t0) {
					if (pass == 0) {
						lo = lo < 0 || it < lo ? it : lo;
						hi = it > hi ? it : hi;
						max_sub = (int)sub > max_sub ? (int)sub : max_sub;
						implicit |= strncmp(name, "sweep", 5) == 0;
					} else {
						span_t *sp[2] = {&spans[(it - lo) * (max_sub + 2)],
								 &spans[(it - lo) * (max_sub + 2) + 1 + sub]};
						for (int k = 0; k < 2; k++) {
							if (sp[k]->b < 0 || start < sp[k]->b)
								sp[k]->b = start;
							if (end > sp[k]->e)
								sp[k]->e = end;
						}
					}
				}
				name[0] = '\0';
				it = sub = -1;
				start = end = -1;
				if (n <= 0)
					break;
				continue;
			}
			if (sscanf(line, "Name: %127s", name) == 1 || sscanf(line, "StartTime: %lf", &start) == 1 ||
			    sscanf(line, "EndTime: %lf", &end) == 1)
				continue;
			if (strncmp(line, "Iteration:", 10) == 0 && sscanf(line, "Iteration: %ld %ld", &it, &sub) != 2)
				it = sub = -1;
		}
		fclose(f);
		if (pass == 0) {
			if (lo < 0)
				break;
			size_t n_spans = (size_t)(hi - lo + 1) * (size_t)(max_sub + 2);
			FV_CALL(fv_malloc(&spans, n_spans, sizeof *spans, "iteration spans"));
			for (size_t k = 0; k < n_spans; k++)
				spans[k].b = spans[k].e = -1;
		}
	}
	free(line);
	if (!spans)
		return FV_OK;
	/* two marks per iteration and per step that ran */
	size_t n = 0, max = 2 * (size_t)(hi - lo + 1) * (size_t)(max_sub + 2);
	fv_err_t err = fv_malloc(marks, max, sizeof **marks, "iteration marks");
	for (long i = 0; err == FV_OK && i <= hi - lo; i++)
		for (int k = 0; k < max_sub + 2; k++) {
			const span_t *sp = &spans[i * (max_sub + 2) + k];
			char what[40] = "";
			if (sp->b < 0)
				continue;
			if (k > 0)
				step_label(what, sizeof what, k - 1, implicit, max_sub + 1);
			snprintf((*marks)[n].label, sizeof (*marks)[n].label, "iteration %ld%s%s begins", lo + i,
				 k ? " " : "", what);
			(*marks)[n++].t = sp->b > t0 ? sp->b - t0 : 0;
			snprintf((*marks)[n].label, sizeof (*marks)[n].label, "iteration %ld%s%s ends", lo + i,
				 k ? " " : "", what);
			(*marks)[n++].t = sp->e - t0;
		}
	free(spans);
	if (err != FV_OK)
		return err;
	qsort(*marks, n, sizeof **marks, mark_cmp);
	*n_marks = n;
	return FV_OK;
}

static fv_err_t shift_times(const char *dir)
{
	char path[PATH_MAX_ + 64];
	FILE *f;
	double t0;
	snprintf(path, sizeof path, "%s/paje.trace", dir);
	f = fopen(path, "r");
	FV_CHECK(f, FV_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
	t0 = recording_start(f);
	fclose(f);
	/* (the colours of paje.trace even when nothing is shifted: recorded
	 * from start-up, or shifted already) */
	trace_mark_t *marks = NULL;
	size_t n_marks = 0;
	fv_err_t err;
	t0 = t0 > 0 ? t0 : 0;
	FV_CALL(iteration_marks(dir, t0, &marks, &n_marks));
	err = rewrite(dir, "paje.trace", t0, marks, n_marks, paje_line);
	free(marks);
	FV_CALL(err);
	if (t0 <= 0)
		return FV_OK;
	FV_CALL(rewrite(dir, "tasks.rec", t0, NULL, 0, rec_line));
	FV_CALL(rewrite(dir, "trace.rec", t0, NULL, 0, rec_line));
	return FV_OK;
}

/*
 * The summary of a converted trace, from tasks.rec: per worker its tasks,
 * busy time and share of the traced window (first task start to last task
 * end), and the GFlop/s of its tasks while they ran (the flop counts the
 * codelets give StarPU); the worker names from paje.trace's containers.
 * Left out: StarPU's own tasks (data acquisitions, synchronisation,
 * unregistration) and the tasks done before the recording start.
 */
typedef struct worker_sum {
	char name[64];
	long tasks;
	double busy, gflop;
} worker_sum_t;

/* Workers are numbered per rank (a merged trace of several ranks names
 * them R_wN, and its task records R_JOB): rank R's worker N is summed at
 * R * RANK_WORKERS + N. */
#define RANK_WORKERS 256
#define MAX_WORKERS (16 * RANK_WORKERS)

/* The workers' names into w; returns 1 + the highest worker id named (0
 * without paje.trace), so that a worker that ran no task is listed too. */
static int worker_names(const char *dir, worker_sum_t *w)
{
	char path[PATH_MAX_ + 64], *line = NULL;
	size_t cap = 0;
	int n = 0;
	FILE *f;
	snprintf(path, sizeof path, "%s/paje.trace", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	/* "7 time wN W parent NAME" (one rank) or "7 time R_wN W parent NAME":
	 * PajeCreateContainer of a worker */
	while (getline(&line, &cap, f) > 0) {
		char alias[64], type[16], parent[64], name[64];
		int id, rank = 0;
		if (line[0] != '7' || sscanf(line, "7 %*s %63s %15s %63s %63s", alias, type, parent, name) != 4 ||
		    strcmp(type, "W") != 0 ||
		    (sscanf(alias, "w%d", &id) != 1 && sscanf(alias, "%d_w%d", &rank, &id) != 2) || id < 0 ||
		    id >= RANK_WORKERS || rank < 0 || rank >= MAX_WORKERS / RANK_WORKERS)
			continue;
		/* (StarPU prefixes the names of a merged trace's workers too: 1_CPU0) */
		id += rank * RANK_WORKERS;
		snprintf(w[id].name, sizeof w[id].name, "%s", name);
		n = id + 1 > n ? id + 1 : n;
	}
	free(line);
	fclose(f);
	return n;
}

fv_err_t fv_runtime_trace_summary(const char *dir, FILE *out)
{
	char path[PATH_MAX_ + 64], *line = NULL, name[128] = "";
	size_t cap = 0;
	worker_sum_t *w;
	double start = -1, end = -1, t_start = 0, t_end = 0, gflop = 0, t0 = 1e300, t1 = -1e300;
	long worker = -1, it = -1, it_lo = -1, it_hi = -1, n_tasks = 0, rank = 0;
	int n_workers = 0, done = 0;
	FILE *f;
	snprintf(path, sizeof path, "%s/tasks.rec", dir);
	FV_CALL(fv_calloc(&w, MAX_WORKERS, sizeof *w, "trace workers"));
	f = fopen(path, "r");
	if (!f) {
		free(w);
		return FV_ERROR(FV_ERR_IO, "%s: cannot read: %s (a trace converted by starpu_fxt_tool?)", path,
				strerror(errno));
	}
	while (!done) {
		ssize_t n = getline(&line, &cap, f);
		if (n <= 0)
			done = 1;
		if (n <= 1) { /* a blank line ends a record */
			if (name[0] && strncmp(name, "_starpu", 7) != 0 && strncmp(name, "starpu_", 7) != 0 &&
			    worker >= 0 && worker < RANK_WORKERS && rank >= 0 && rank < MAX_WORKERS / RANK_WORKERS &&
			    start >= 0 && end > 0 && end >= start) {
				worker += rank * RANK_WORKERS;
				/* (tasks done before the recording start end at 0) */
				w[worker].tasks++;
				w[worker].busy += end - start;
				w[worker].gflop += gflop;
				if (worker >= n_workers)
					n_workers = (int)worker + 1;
				t0 = start < t0 ? start : t0;
				t1 = end > t1 ? end : t1;
				n_tasks++;
				if (it >= 0) {
					it_lo = it_lo < 0 || it < it_lo ? it : it_lo;
					it_hi = it > it_hi ? it : it_hi;
				}
			}
			name[0] = '\0';
			start = end = -1;
			gflop = 0;
			worker = it = -1;
			rank = 0;
			continue;
		}
		if (sscanf(line, "Name: %127s", name) == 1)
			continue;
		/* "JobId: R_N" in a merged trace of several ranks */
		if (strncmp(line, "JobId:", 6) == 0 && strchr(line, '_')) {
			if (sscanf(line, "JobId: %ld_", &rank) != 1)
				rank = 0;
			continue;
		}
		if (sscanf(line, "WorkerId: %ld", &worker) == 1 || sscanf(line, "StartTime: %lf", &t_start) == 1 ||
		    sscanf(line, "EndTime: %lf", &t_end) == 1 || sscanf(line, "GFlop: %lf", &gflop) == 1 ||
		    sscanf(line, "Iteration: %ld", &it) == 1) {
			if (strncmp(line, "StartTime", 9) == 0)
				start = t_start;
			if (strncmp(line, "EndTime", 7) == 0)
				end = t_end;
		}
	}
	free(line);
	fclose(f);
	if (n_tasks == 0) {
		fprintf(out, "fvstar: %s: no task recorded (output.trace_from after the last iteration?)\n", dir);
		free(w);
		return FV_OK;
	}
	{
		int named = worker_names(dir, w);
		n_workers = named > n_workers ? named : n_workers;
	}
	double span = t1 - t0, busy = 0, total = 0;
	if (it_lo >= 0)
		fprintf(out, "fvstar: trace summary: iterations %ld to %ld, %ld tasks in %.3f ms (%.3f ms per iteration)\n",
			it_lo, it_hi, n_tasks, span, span / (double)(it_hi - it_lo + 1));
	else
		fprintf(out, "fvstar: trace summary: %ld tasks in %.3f ms\n", n_tasks, span);
	fprintf(out, "  %-10s %8s %10s %7s %9s\n", "worker", "tasks", "busy ms", "busy %", "GFlop/s");
	int present = 0;
	for (int k = 0; k < n_workers; k++) {
		char id[32];
		if (!w[k].name[0] && w[k].tasks == 0)
			continue; /* between two ranks' workers */
		present++;
		if (k < RANK_WORKERS)
			snprintf(id, sizeof id, "%d", k);
		else
			snprintf(id, sizeof id, "%d_%d", k / RANK_WORKERS, k % RANK_WORKERS);
		fprintf(out, "  %-10s %8ld %10.3f %7.1f %9.3f\n", w[k].name[0] ? w[k].name : id, w[k].tasks, w[k].busy,
			span > 0 ? 100 * w[k].busy / span : 0, w[k].busy > 0 ? w[k].gflop / (w[k].busy * 1e-3) : 0);
		busy += w[k].busy;
		total += w[k].gflop;
	}
	/* all workers: the mean busy share, and GFlop/s over the window */
	fprintf(out, "  %-10s %8ld %10.3f %7.1f %9.3f\n", "all", n_tasks, busy,
		span > 0 && present > 0 ? 100 * busy / (span * present) : 0, span > 0 ? total / (span * 1e-3) : 0);
	free(w);
	return FV_OK;
}
