/* SPDX-License-Identifier: MIT */
/* The trace library directory and starpu_fxt_tool, found at run time
 * relative to the executable so that an installed or copied fvstar does
 * not depend on the build tree's deps/. */
#define _DEFAULT_SOURCE /* realpath */
#include "runtime/paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "fvstar/runtime.h"

/* The executable's directory, resolved (links followed); "" when unknown. */
static const char *exe_dir(void)
{
	static char dir[PATH_MAX];
	static int done;
	if (!done) {
		ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
		char *slash;
		done = 1;
		dir[n > 0 ? n : 0] = '\0';
		slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		else
			dir[0] = '\0';
	}
	return dir;
}

/* EXEDIR/rel/name resolved into out when it exists and is a directory
 * (want_dir) or an executable file; returns whether it does. */
static int beside_exe(const char *rel, const char *name, int want_dir, char *out)
{
	char path[PATH_MAX];
	struct stat st;
	const char *d = exe_dir();
	int n;
	if (!d[0])
		return 0;
	n = snprintf(path, sizeof path, "%s/%s/%s", d, rel, name);
	if (n < 0 || (size_t)n >= sizeof path || stat(path, &st) != 0)
		return 0;
	if (want_dir ? !S_ISDIR(st.st_mode) : !(S_ISREG(st.st_mode) && access(path, X_OK) == 0))
		return 0;
	return realpath(path, out) != NULL;
}

const char *fv_starpu_trace_libdir(void)
{
	static char dir[PATH_MAX];
	static int done;
	if (!done) {
		const char *env = getenv("FVSTAR_STARPU_TRACE_LIBDIR");
		done = 1;
		if (env && *env && strlen(env) < sizeof dir)
			strcpy(dir, env);
		else if (!beside_exe(FV_REL_LIBDIR, "fvstar/starpu-fxt", 1, dir))
			snprintf(dir, sizeof dir, "%s", FV_STARPU_TRACE_LIBDIR);
	}
	return dir;
}

const char *fv_starpu_fxt_tool(void)
{
	static char tool[PATH_MAX];
	static int done;
	if (!done) {
		const char *env = getenv("FVSTAR_STARPU_FXT_TOOL");
		done = 1;
		if (env && *env && strlen(env) < sizeof tool)
			strcpy(tool, env);
		else if (!beside_exe(FV_REL_LIBEXECDIR, "fvstar/starpu_fxt_tool", 0, tool))
			snprintf(tool, sizeof tool, "%s/starpu_fxt_tool", FV_STARPU_BINDIR);
	}
	return tool;
}

void fv_runtime_tool_path(const char *name, char *out, size_t n)
{
	char path[PATH_MAX], rel[PATH_MAX];
	snprintf(rel, sizeof rel, "fvstar/%s", name);
	if (beside_exe(FV_REL_LIBEXECDIR, rel, 0, path))
		snprintf(out, n, "%s", path);
	else
		snprintf(out, n, "%s/%s", FV_TOOLS_SRCDIR, name);
}
