/* SPDX-License-Identifier: MIT */
/* `fvstar trace DIR`: a trace directory of a run (output.trace = DIR)
 * converted again from its FxT file (or, without one, the converted files
 * as they are), its summary per worker, and the pictures of
 * tools/plot_trace.py: the Gantt chart of the last iterations, the
 * statistics (idle share per worker, time per stage, critical path, time
 * waited on halos) and their numbers in DIR/stats.json. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/app.h"
#include "fvstar/runtime.h"

/* The plot script: $FVSTAR_PLOT_TRACE, else installed beside fvstar
 * (libexec/fvstar), else the source tree's tools/. */
static const char *plot_script(void)
{
	static char path[4096];
	const char *env = getenv("FVSTAR_PLOT_TRACE");
	if (env && *env)
		return env;
	fv_runtime_tool_path("plot_trace.py", path, sizeof path);
	return path;
}

fv_err_t fv_cmd_trace(int argc, char **argv)
{
	const char *dir = NULL, *last = "3";
	int plots = 1, status;
	char tasks[4096], gantt[4096], stats[4096], json[4096];
	struct stat st;
	pid_t pid;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--no-plots") == 0) {
			plots = 0;
		} else if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
			long v;
			FV_CALL(fv_opt_long("--iterations", argv[++i], 1, 1000000, &v));
			last = argv[i];
		} else {
			FV_CHECK(argv[i][0] != '-' && !dir, FV_ERR_ARG, "usage: fvstar trace DIR [--iterations K] [--no-plots]");
			dir = argv[i];
		}
	}
	FV_CHECK(dir, FV_ERR_ARG, "usage: fvstar trace DIR [--iterations K] [--no-plots]");
	FV_CHECK(stat(dir, &st) == 0, FV_ERR_IO, "%s: %s", dir, strerror(errno));
	FV_CHECK(S_ISDIR(st.st_mode), FV_ERR_IO, "%s: not a directory (a trace directory: fvstar run ... output.trace=DIR)",
		 dir);
	snprintf(tasks, sizeof tasks, "%s/tasks.rec", dir);
	if (fv_runtime_trace_has_fxt(dir))
		FV_CALL(fv_runtime_trace_convert(dir, NULL));
	else
		FV_CHECK(access(tasks, R_OK) == 0, FV_ERR_IO,
			 "%s: neither an FxT file (prof_file_*) nor tasks.rec: not a trace directory (fvstar run "
			 "... output.trace=DIR writes one)",
			 dir);
	FV_CALL(fv_runtime_trace_summary(dir, stdout));
	if (!plots)
		return FV_OK;
	snprintf(gantt, sizeof gantt, "%s/gantt.png", dir);
	snprintf(stats, sizeof stats, "%s/stats.png", dir);
	snprintf(json, sizeof json, "%s/stats.json", dir);
	fflush(NULL);
	pid = fork();
	FV_CHECK(pid >= 0, FV_ERR_RUNTIME, "fork for the plot script failed: %s", strerror(errno));
	if (pid == 0) {
		const char *py = getenv("PYTHON3") && *getenv("PYTHON3") ? getenv("PYTHON3") : "python3";
		execlp(py, py, plot_script(), dir, "-o", gantt, "--stats", stats, "--json", json, "--iterations", last,
		       (char *)NULL);
		fprintf(stderr, "fvstar: cannot run %s: %s\n", py, strerror(errno));
		_exit(127);
	}
	FV_CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0, FV_ERR_RUNTIME,
		 "%s %s failed (exit %d); the trace's files are converted, only the pictures are missing", plot_script(),
		 dir, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return FV_OK;
}
