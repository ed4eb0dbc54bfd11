/* SPDX-License-Identifier: MIT */
/* Execution traces: FxT recording by the FxT build of StarPU, and the
 * conversion of its file for ViTE and StarVZ (fvstar/runtime.h). */
#define _GNU_SOURCE /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
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

/*
 * Traces: the plain StarPU library is loaded by default (FxT costs time
 * even when not tracing); a traced run re-executes itself with the FxT
 * build first on the library path, records into the trace directory, and
 * converts the FxT file with starpu_fxt_tool into paje.trace (ViTE),
 * tasks.rec and dag.dot there.
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
	return FV_OK;
}

/* Several ranks: rank r's FxT file is prof_file_<user>_<r>. */
static int rank_of_file(const char *name)
{
	const char *u = strrchr(name, '_');
	char *end;
	long r = u ? strtol(u + 1, &end, 10) : -1;
	return u && u[1] && *end == '\0' && r >= 0 && r < 1 << 20 ? (int)r : -1;
}

fv_err_t fv_runtime_trace_convert(const char *dir)
{
	char tool[PATH_MAX_], input[PATH_MAX_] = "";
	int n = fv_runtime_nranks();
	char **inputs = NULL;
	DIR *d = opendir(dir);
	struct dirent *e;
	pid_t pid;
	int status;
	FV_CHECK(d, FV_ERR_IO, "%s: cannot open the trace directory: %s", dir, strerror(errno));
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
		/* the tool writes its outputs into its working directory */
		if (chdir(dir) == 0) {
			int devnull = open("/dev/null", O_WRONLY);
			if (devnull >= 0)
				dup2(devnull, 1);
			if (!inputs)
				execl(tool, "starpu_fxt_tool", "-i", input, (char *)NULL);
			/* the ranks' files merged into one trace */
			char **args = calloc((size_t)(2 * n + 2), sizeof *args);
			if (args) {
				args[0] = (char *)"starpu_fxt_tool";
				for (int r = 0; r < n; r++) {
					args[1 + 2 * r] = (char *)"-i";
					args[2 + 2 * r] = inputs[r];
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
	fprintf(stderr, "fvstar: trace in %s: paje.trace (ViTE), tasks.rec, dag.dot%s\n", dir,
		n > 1 ? " (every rank's file merged)" : "");
	return FV_OK;
}

