/* SPDX-License-Identifier: MIT */
/* Unit tests of the case file (parsing, overrides, every kind of error,
 * marker checks) and of the outputs: history, summary, solution, restart. */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fvstar/case.h"
#include "fvstar/output.h"
#include "io/json.h"

static char tmpdir[256];

static int setup(void **state)
{
	const char *base = getenv("TMPDIR");
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "%s/fvstar-caseio-XXXXXX", base && *base ? base : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

/* Removes what the tests left: files and one level of directories. */
static void remove_tree(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[900];
	struct stat st;
	if (!d)
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			if (depth < 4 && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
				remove_tree(path, depth + 1);
			else
				remove(path);
		}
	closedir(d);
	rmdir(dir);
}

static int teardown(void **state)
{
	(void)state;
	remove_tree(tmpdir, 0);
	return 0;
}

static void tmp_path(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", tmpdir, name);
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		fail_msg("cannot write %s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
}

/* A case file named name in the temporary directory. */
static const char *case_file(const char *name, const char *text)
{
	static char path[512];
	tmp_path(path, sizeof path, name);
	write_text(path, text);
	return path;
}

/* ------------------------------------------------------------ case file */

static void test_defaults(void **state)
{
	fv_case_t c;
	(void)state;
	fv_case_default(&c);
	assert_string_equal(c.path, "");
	assert_string_equal(c.mesh_file, "");
	assert_int_equal(c.mesh_refine, 0);
	assert_int_equal(c.mesh_format, FV_MESH_FORMAT_AUTO);
	assert_true(c.mach == 0.5 && c.alpha_deg == 0 && c.beta_deg == 0 && c.gamma == 1.4);
	assert_int_equal(c.init, FV_INIT_FREESTREAM);
	assert_int_equal(c.riemann_axis, 0);
	assert_true(c.riemann_x0 == 0.5);
	assert_true(c.riemann_left[0] == 1 && c.riemann_left[1] == 0 && c.riemann_left[2] == 1);
	assert_true(c.riemann_right[0] == 0.125 && c.riemann_right[1] == 0 && c.riemann_right[2] == 0.1);
	assert_int_equal(c.num.flux, FV_FLUX_ROE);
	assert_true(c.num.entropy_fix == 0.1);
	assert_int_equal(c.num.order, 2);
	assert_int_equal(c.num.gradient, FV_GRAD_GREEN_GAUSS);
	assert_int_equal(c.num.limiter, FV_LIMITER_VENKATAKRISHNAN);
	assert_true(c.num.limiter_k == 5.0);
	assert_int_equal(c.num.limiter_vars, FV_LIMVARS_PRESSURE);
	assert_int_equal(c.num.rk, 2);
	assert_true(c.num.cfl == 1.0);
	assert_int_equal(c.num.time_mode, FV_TIME_STEADY);
	assert_true(c.num.t_end == 0);
	assert_int_equal(c.num.iterations, 1000);
	assert_true(c.num.residual_drop == 0);
	assert_int_equal(c.n_bc, 0);
	assert_true(c.p_out == 0);
	assert_int_equal(c.blocks, 0);
	assert_int_equal(c.partitioner, FV_PART_METIS);
	assert_int_equal(c.seed, 0);
	assert_string_equal(c.sched, "");
	assert_int_equal(c.ncpu, -1);
	assert_int_equal(c.ncuda, -1);
	assert_string_equal(c.out_dir, "");
	assert_int_equal(c.history_every, 1);
	assert_int_equal(c.progress_every, 10);
	assert_int_equal(c.vtu, 1);
	assert_int_equal(c.vtu_block_id, 0);
	assert_int_equal(c.restart_every, 0);
	assert_string_equal(c.restart_from, "");
	assert_string_equal(c.trace_dir, "");
	assert_string_equal(c.force_markers, "");
	assert_true(c.ref_area == 1 && c.ref_length == 1);
	assert_true(c.moment_center[0] == 0 && c.moment_center[1] == 0 && c.moment_center[2] == 0);

	/* finish: the mesh is required; derived defaults */
	FV_ASSERT_ERR(fv_case_finish(&c), FV_ERR_ARG, "[mesh] file is not set");
	FV_ASSERT_OK(fv_case_set(&c, "mesh.file", "box.su2", "command line"));
	FV_ASSERT_OK(fv_case_finish(&c));
	assert_true(c.p_out == 1 / 1.4);
	assert_string_equal(c.out_dir, "out/fvstar");
	assert_string_equal(c.mesh_file, "box.su2");
}

static const char *full_case =
	"; every key, none at its default\n"
	"[mesh]\n"
	"file = meshes/wing.su2\n"
	"refine = 2\n"
	"format = su2\n"
	"\n"
	"[flow]\n"
	"mach = 0.8 ; inline comment\n"
	"alpha = 1.25\n"
	"beta = -2\n"
	"gamma = 1.3\n"
	"init = riemann\n"
	"riemann_axis = z\n"
	"riemann_x0 = -0.25\n"
	"left = \"2, 0.5, 3\"\n"
	"right = 0.5,-1,0.25\n"
	"\n"
	"# numerics, indented keys\n"
	"[numerics]\n"
	"  flux = roe\n"
	"  entropy_fix = 0.05\n"
	"  order = 1\n"
	"  gradient = least-squares\n"
	"  limiter = barth\n"
	"  limiter_k = 0.3\n"
	"  limiter_vars = all\n"
	"  rk = 3\n"
	"  cfl = 2.5\n"
	"  time = unsteady\n"
	"  t_end = 0.2\n"
	"  iterations = 50\n"
	"  residual_drop = 6\n"
	"[bc]\n"
	"wing = wall\n"
	"far: farfield\n"
	"sym = symmetry\n"
	"in = supersonic_inflow\n"
	"out = supersonic_outflow\n"
	"exit = pressure_outlet\n"
	"p_out = 0.8\n"
	"[partition]\n"
	"blocks = 12\n"
	"partitioner = scotch\n"
	"seed = 7\n"
	"[runtime]\n"
	"sched = dmdas\n"
	"ncpu = 4\n"
	"ncuda = 0\n"
	"[output]\n"
	"dir = results/wing\n"
	"history_every = 5\n"
	"progress_every = 0\n"
	"vtu = no\n"
	"vtu_block_id = yes\n"
	"restart_every = 100\n"
	"restart = old/restart.bin\n"
	"trace = trace\n"
	"[forces]\n"
	"markers = wing , sym\n"
	"ref_area = 0.5\n"
	"ref_length = 0.25\n"
	"moment_center = 0.25, 0, -1e-1\n";

static void check_full(const fv_case_t *c, const char *dir)
{
	char mesh[600];
	snprintf(mesh, sizeof mesh, "%s/meshes/wing.su2", dir);
	assert_string_equal(c->mesh_file, mesh);
	assert_int_equal(c->mesh_refine, 2);
	assert_int_equal(c->mesh_format, FV_MESH_FORMAT_SU2);
	assert_true(c->mach == 0.8 && c->alpha_deg == 1.25 && c->beta_deg == -2 && c->gamma == 1.3);
	assert_int_equal(c->init, FV_INIT_RIEMANN);
	assert_int_equal(c->riemann_axis, 2);
	assert_true(c->riemann_x0 == -0.25);
	assert_true(c->riemann_left[0] == 2 && c->riemann_left[1] == 0.5 && c->riemann_left[2] == 3);
	assert_true(c->riemann_right[0] == 0.5 && c->riemann_right[1] == -1 && c->riemann_right[2] == 0.25);
	assert_true(c->num.entropy_fix == 0.05);
	assert_int_equal(c->num.order, 1);
	assert_int_equal(c->num.gradient, FV_GRAD_LEAST_SQUARES);
	assert_int_equal(c->num.limiter, FV_LIMITER_BARTH);
	assert_true(c->num.limiter_k == 0.3);
	assert_int_equal(c->num.limiter_vars, FV_LIMVARS_ALL);
	assert_int_equal(c->num.rk, 3);
	assert_true(c->num.cfl == 2.5);
	assert_int_equal(c->num.time_mode, FV_TIME_UNSTEADY);
	assert_true(c->num.t_end == 0.2);
	assert_int_equal(c->num.iterations, 50);
	assert_true(c->num.residual_drop == 6);
	assert_int_equal(c->n_bc, 6);
	assert_string_equal(c->bc[0].marker, "wing");
	assert_int_equal(c->bc[0].kind, FV_BC_SLIP_WALL);
	assert_string_equal(c->bc[1].marker, "far");
	assert_int_equal(c->bc[1].kind, FV_BC_FARFIELD);
	assert_int_equal(c->bc[2].kind, FV_BC_SYMMETRY);
	assert_int_equal(c->bc[3].kind, FV_BC_SUPERSONIC_INFLOW);
	assert_int_equal(c->bc[4].kind, FV_BC_SUPERSONIC_OUTFLOW);
	assert_string_equal(c->bc[5].marker, "exit");
	assert_int_equal(c->bc[5].kind, FV_BC_PRESSURE_OUTLET);
	assert_true(c->p_out == 0.8);
	assert_int_equal(c->blocks, 12);
	assert_int_equal(c->partitioner, FV_PART_SCOTCH);
	assert_int_equal(c->seed, 7);
	assert_string_equal(c->sched, "dmdas");
	assert_int_equal(c->ncpu, 4);
	assert_int_equal(c->ncuda, 0);
	assert_string_equal(c->out_dir, "results/wing");
	assert_int_equal(c->history_every, 5);
	assert_int_equal(c->progress_every, 0);
	assert_int_equal(c->vtu, 0);
	assert_int_equal(c->vtu_block_id, 1);
	assert_int_equal(c->restart_every, 100);
	assert_string_equal(c->restart_from, "old/restart.bin");
	assert_string_equal(c->trace_dir, "trace");
	assert_string_equal(c->force_markers, "wing,sym");
	assert_true(c->ref_area == 0.5 && c->ref_length == 0.25);
	assert_true(c->moment_center[0] == 0.25 && c->moment_center[1] == 0 && c->moment_center[2] == -0.1);
}

static void test_full_case(void **state)
{
	fv_case_t c, d;
	char printed[512];
	(void)state;
	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, case_file("wing.cfg", full_case)));
	assert_string_equal(c.name, "wing");
	assert_string_equal(c.dir, tmpdir);
	assert_int_equal(c.bc[1].line, 35);
	FV_ASSERT_OK(fv_case_finish(&c));
	check_full(&c, tmpdir);
	assert_int_equal(c.finished, 1);

	/* what fv_case_print writes is a case file giving the same values
	 * (the mesh path is absolute by then, so it is not joined again) */
	tmp_path(printed, sizeof printed, "printed.cfg");
	FILE *f = fopen(printed, "w");
	assert_non_null(f);
	fv_case_print(&c, f);
	fclose(f);
	fv_case_default(&d);
	FV_ASSERT_OK(fv_case_read(&d, printed));
	FV_ASSERT_OK(fv_case_finish(&d));
	check_full(&d, tmpdir);
	json_t *jc = fv_case_json(&c), *jd = fv_case_json(&d);
	json_object_del(jc, "file");
	json_object_del(jd, "file");
	assert_true(json_equal(jc, jd));
	assert_string_equal(json_string_value(json_object_get(json_object_get(jc, "numerics"), "limiter")), "barth");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(jc, "numerics"), "rk")), 3);
	assert_string_equal(json_string_value(json_object_get(json_object_get(jc, "bc"), "exit")), "pressure_outlet");
	json_decref(jc);
	json_decref(jd);

	/* the defaults print and read back too (t_end is left out unset) */
	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_set(&c, "mesh.file", "/abs/box.su2", NULL));
	f = fopen(printed, "w");
	fv_case_print(&c, f);
	fclose(f);
	fv_case_default(&d);
	FV_ASSERT_OK(fv_case_read(&d, printed));
	jc = fv_case_json(&c);
	jd = fv_case_json(&d);
	json_object_del(jc, "file");
	json_object_del(jd, "file");
	assert_true(json_equal(jc, jd));
	json_decref(jc);
	json_decref(jd);
}

static void test_paths_and_names(void **state)
{
	fv_case_t c;
	char sub[512], path[600];
	(void)state;
	tmp_path(sub, sizeof sub, "cases");
	FV_ASSERT_OK(fv_output_mkdir(sub));
	snprintf(path, sizeof path, "%s/ramp.case.cfg", sub);
	write_text(path, "[mesh]\nfile = ../ramp.su2\n");
	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, path));
	FV_ASSERT_OK(fv_case_finish(&c));
	assert_string_equal(c.name, "ramp.case");
	assert_string_equal(c.out_dir, "out/ramp.case");
	snprintf(path, sizeof path, "%s/../ramp.su2", sub);
	assert_string_equal(c.mesh_file, path);

	/* a second case file into the same struct is refused */
	FV_ASSERT_ERR(fv_case_read(&c, path), FV_ERR_ARG, "was read already");

	/* absolute paths are kept */
	snprintf(path, sizeof path, "%s/abs.cfg", sub);
	write_text(path, "[mesh]\nfile = /data/ramp.su2\n");
	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, path));
	assert_string_equal(c.mesh_file, "/data/ramp.su2");

	/* a case file in the working directory: dir ".", nothing joined */
	char cwd[1024];
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(sub), 0);
	write_text("local.cfg", "[mesh]\nfile = box.su2\n");
	fv_case_default(&c);
	fv_err_t err = fv_case_read(&c, "local.cfg");
	assert_int_equal(chdir(cwd), 0);
	FV_ASSERT_OK(err);
	assert_string_equal(c.dir, ".");
	assert_string_equal(c.name, "local");
	assert_string_equal(c.mesh_file, "box.su2");
}

static void test_overrides(void **state)
{
	fv_case_t c;
	(void)state;
	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, case_file("over.cfg", "[mesh]\nfile = box.su2\n[numerics]\ncfl = 0.5\n"
							     "[bc]\nxmin = wall\n")));
	/* the command line replaces file values, once each */
	FV_ASSERT_OK(fv_case_set(&c, "numerics.cfl", "3", "command line"));
	assert_true(c.num.cfl == 3);
	FV_ASSERT_ERR(fv_case_set(&c, "numerics.cfl", "4", "command line"), FV_ERR_ARG,
		      "command line: [numerics] cfl = '4': given twice");
	FV_ASSERT_OK(fv_case_set_arg(&c, "flow.alpha=2.5", "command line"));
	assert_true(c.alpha_deg == 2.5);
	FV_ASSERT_OK(fv_case_set_arg(&c, "bc.xmin=symmetry", "command line"));
	assert_int_equal(c.n_bc, 1);
	assert_int_equal(c.bc[0].kind, FV_BC_SYMMETRY);
	assert_int_equal(c.bc[0].line, -1);
	FV_ASSERT_OK(fv_case_set_arg(&c, "bc.my.marker=farfield", NULL));
	assert_string_equal(c.bc[1].marker, "my.marker");
	/* a mesh given on the command line is relative to the working directory */
	FV_ASSERT_OK(fv_case_set_arg(&c, "mesh.file=other.su2", NULL));
	assert_string_equal(c.mesh_file, "other.su2");
	FV_ASSERT_OK(fv_case_set_arg(&c, "output.dir=", NULL));
	FV_ASSERT_OK(fv_case_set_arg(&c, "flow.right=1,2,3", NULL));
	assert_true(c.riemann_right[2] == 3);

	FV_ASSERT_ERR(fv_case_set_arg(&c, "numerics.limiter=venkat", "command line"), FV_ERR_ARG,
		      "command line: [numerics] limiter = 'venkat': expected venkatakrishnan, barth or none");
	FV_ASSERT_ERR(fv_case_set_arg(&c, "cfl=2", "command line"), FV_ERR_ARG, "'cfl' is not section.key");
	FV_ASSERT_ERR(fv_case_set_arg(&c, "numerics.cfl", "command line"), FV_ERR_ARG,
		      "is not section.key=value");
	FV_ASSERT_ERR(fv_case_set_arg(&c, "=2", "command line"), FV_ERR_ARG, "is not section.key=value");
	FV_ASSERT_ERR(fv_case_set_arg(&c, "numerics.=2", "command line"), FV_ERR_ARG, "is not section.key");
	FV_ASSERT_ERR(fv_case_set_arg(&c, "numerics.foo=2", "argv[3]"), FV_ERR_ARG,
		      "argv[3]: [numerics] unknown key 'foo'");
	FV_ASSERT_ERR(fv_case_set_arg(&c, "nosuch.foo=2", NULL), FV_ERR_ARG, "unknown section [nosuch]");
	/* a failed set leaves the value alone */
	assert_int_equal(c.num.limiter, FV_LIMITER_VENKATAKRISHNAN);
	FV_ASSERT_OK(fv_case_finish(&c));
}

typedef struct bad_case {
	const char *text;
	fv_err_t code;
	const char *message;
} bad_case_t;

static void test_errors(void **state)
{
	static const bad_case_t bad[] = {
		{"[mesh]\nfile = a.su2\n\n[numerics]\nlimitr = barth\n", FV_ERR_ARG,
		 "bad.cfg:5: [numerics] unknown key 'limitr' (did you mean 'limiter'? keys of [numerics]: flux, entropy_fix"},
		{"[numerics]\nlimiter = venkat\n", FV_ERR_ARG,
		 "bad.cfg:2: [numerics] limiter = 'venkat': expected venkatakrishnan, barth or none"},
		{"[flow]\nmach = 0.5x\n", FV_ERR_ARG, "bad.cfg:2: [flow] mach = '0.5x': expected a number >= 0"},
		{"[flow]\nmach = nan\n", FV_ERR_ARG, "bad.cfg:2: [flow] mach = 'nan': expected a number >= 0"},
		{"[flow]\nmach = inf\n", FV_ERR_ARG, "[flow] mach = 'inf'"},
		{"[flow]\nmach = 1e999\n", FV_ERR_ARG, "[flow] mach = '1e999'"},
		{"[flow]\nmach = 0x1p1\n", FV_ERR_ARG, "[flow] mach = '0x1p1'"},
		{"[flow]\nmach =\n", FV_ERR_ARG, "[flow] mach = ''"},
		{"[flow]\nmach = -0.1\n", FV_ERR_ARG, "bad.cfg:2: [flow] mach = '-0.1': expected a number >= 0"},
		{"[flow]\ngamma = 1\n", FV_ERR_ARG, "[flow] gamma = '1': expected a number > 1 and <= 10"},
		{"[flow]\nalpha = 181\n", FV_ERR_ARG, "[flow] alpha = '181': expected a number in [-180, 180]"},
		{"[numerics]\ncfl = 0\n", FV_ERR_ARG, "[numerics] cfl = '0': expected a number > 0"},
		{"[numerics]\niterations = 1.5\n", FV_ERR_ARG, "expected an integer >= 0"},
		{"[numerics]\niterations = 99999999999\n", FV_ERR_ARG,
		 "[numerics] iterations = '99999999999': expected an integer >= 0 (at most 2147483647, the integer limit)"},
		{"[numerics]\niterations = 2147483648\n", FV_ERR_ARG, "(at most 2147483647, the integer limit)"},
		{"[runtime]\noversubscribe = 1\n", FV_ERR_ARG, "[runtime] oversubscribe = '1': expected yes or no"},
		{"[runtime]\nwatchdog = -1\n", FV_ERR_ARG, "[runtime] watchdog = '-1': expected a number >= 0"},
		{"[numerics]\norder = 3\n", FV_ERR_ARG, "[numerics] order = '3': expected 1 or 2"},
		{"[mesh]\nrefine = 11\n", FV_ERR_ARG, "[mesh] refine = '11': expected an integer in [0, 10]"},
		{"[mesh]\nrefine = -1\n", FV_ERR_ARG, "expected an integer in [0, 10]"},
		{"[runtime]\nncpu = -2\n", FV_ERR_ARG, "[runtime] ncpu = '-2': expected an integer in [-1, 65536]"},
		{"[runtime]\nsched = dm da\n", FV_ERR_ARG, "[runtime] sched = 'dm da': expected a name"},
		{"[output]\nvtu = true\n", FV_ERR_ARG, "[output] vtu = 'true': expected yes or no"},
		{"[flow]\nleft = 1,2\n", FV_ERR_ARG, "[flow] left = '1,2': expected rho,u,p"},
		{"[flow]\nleft = 1,2,3,4\n", FV_ERR_ARG, "expected rho,u,p"},
		{"[flow]\nright = 1,2,-3\n", FV_ERR_ARG, "with rho > 0 and p > 0"},
		{"[forces]\nmoment_center = 1,,2\n", FV_ERR_ARG, "expected three numbers x,y,z"},
		{"[forces]\nmarkers = a,,b\n", FV_ERR_ARG, "expected a comma-separated list of marker names"},
		{"[flow]\nmach = 0.5\nalpha = 1\nmach = 0.6\n", FV_ERR_ARG,
		 "bad.cfg:4: [flow] mach = '0.6': duplicate key (first set at line 2)"},
		{"[flow]\nmach = 0.5\n[mesh]\nrefine = 1\n[flow]\nmach = 0.6\n", FV_ERR_ARG,
		 "bad.cfg:6: [flow] mach = '0.6': duplicate key (first set at line 2)"},
		{"[bc]\nwing = wall\nwing = wall\n", FV_ERR_ARG,
		 "bad.cfg:3: [bc] wing = 'wall': duplicate key (first set at line 2)"},
		{"[bc]\nwing = slip\n", FV_ERR_ARG,
		 "bad.cfg:2: [bc] wing = 'slip': expected farfield, wall, symmetry, supersonic_inflow, "
		 "supersonic_outflow, pressure_outlet, noslip or isothermal"},
		{"[bc]\np_out = 0\n", FV_ERR_ARG, "[bc] p_out = '0': expected a number > 0"},
		{"[numeric]\nlimiter = barth\n", FV_ERR_ARG,
		 "bad.cfg:2: unknown section [numeric] (did you mean 'numerics'? sections: mesh, flow, numerics, bc"},
		{"mach = 0.5\n", FV_ERR_ARG, "bad.cfg:1: mach = '0.5' comes before any [section]"},
		{"[flow]\n\nmach\n", FV_ERR_FORMAT, "bad.cfg:3: expected '[section]', 'key = value'"},
		{"[flow\nmach = 1\n", FV_ERR_FORMAT, "bad.cfg:1: expected '[section]'"},
		/* the first error wins, whatever its kind */
		{"[flow]\nmach = 1\nbroken\nmach = 2\n", FV_ERR_FORMAT, "bad.cfg:3: expected"},
		{"[flow]\nmach = 1\nmach = 2\nbroken\n", FV_ERR_ARG, "bad.cfg:3: [flow] mach = '2': duplicate"},
	};
	fv_case_t c;
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		fv_case_default(&c);
		fv_error_clear();
		fv_err_t err = fv_case_read(&c, case_file("bad.cfg", bad[i].text));
		if (err != bad[i].code || !strstr(fv_errmsg(), bad[i].message))
			fail_msg("case %zu: got %d '%s', expected %d '%s'", i, (int)err, fv_errmsg(), (int)bad[i].code,
				 bad[i].message);
	}

	/* a line longer than inih's buffer, a NUL byte, a missing file */
	char text[600] = "[mesh]\nfile = ";
	memset(text + strlen(text), 'a', 400);
	strcat(text, ".su2\n");
	fv_case_default(&c);
	FV_ASSERT_ERR(fv_case_read(&c, case_file("long.cfg", text)), FV_ERR_FORMAT,
		      "long.cfg:2: line longer than");
	char path[512];
	tmp_path(path, sizeof path, "nul.cfg");
	FILE *f = fopen(path, "wb");
	fwrite("[flow]\nmach = 1\0\n", 1, 17, f);
	fclose(f);
	fv_case_default(&c);
	FV_ASSERT_ERR(fv_case_read(&c, path), FV_ERR_FORMAT, "nul.cfg:2: NUL byte");
	tmp_path(path, sizeof path, "missing.cfg");
	fv_case_default(&c);
	FV_ASSERT_ERR(fv_case_read(&c, path), FV_ERR_IO, "missing.cfg: cannot open: No such file");
	fv_case_default(&c);
	FV_ASSERT_ERR(fv_case_read(&c, tmpdir), FV_ERR_IO, "not a regular file");
}

static void test_finish(void **state)
{
	fv_case_t c;
	(void)state;
	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, case_file("u.cfg", "[mesh]\nfile = a.su2\n[numerics]\ntime = unsteady\n")));
	FV_ASSERT_ERR(fv_case_finish(&c), FV_ERR_ARG, "u.cfg:4: [numerics] time = unsteady needs [numerics] t_end");
	FV_ASSERT_OK(fv_case_set(&c, "numerics.t_end", "2", NULL));
	FV_ASSERT_OK(fv_case_finish(&c));

	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, case_file("s.cfg", "[mesh]\nfile = a.su2\n[numerics]\nt_end = 1\n")));
	FV_ASSERT_ERR(fv_case_finish(&c), FV_ERR_ARG, "s.cfg:4: [numerics] t_end = 1 is set but time = steady");
	FV_ASSERT_OK(fv_case_set(&c, "numerics.time", "unsteady", NULL));
	FV_ASSERT_OK(fv_case_finish(&c));

	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, case_file("w.cfg", "[mesh]\nfile = a.su2\n[runtime]\nncpu = 0\nncuda = 0\n")));
	FV_ASSERT_ERR(fv_case_finish(&c), FV_ERR_ARG, "leave no worker");

	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, case_file("m.cfg", "[flow]\ngamma = 1.2\n")));
	FV_ASSERT_ERR(fv_case_finish(&c), FV_ERR_ARG, "m.cfg: [mesh] file is not set");
	FV_ASSERT_OK(fv_case_set(&c, "mesh.file", "a.su2", NULL));
	FV_ASSERT_OK(fv_case_finish(&c));
	assert_true(c.p_out == 1 / 1.2);
	assert_string_equal(c.out_dir, "out/m");

	/* limiter_shock unset: the pressure switch from Mach 3 on, none below;
	 * a value the case sets (0 too) is kept */
	const char *machs[] = {"6", "3", "2.9", "0.8"};
	const double want[] = {FV_SHOCK_AUTO, FV_SHOCK_AUTO, 0, 0};
	for (int i = 0; i < 4; i++) {
		fv_case_default(&c);
		FV_ASSERT_OK(fv_case_set(&c, "mesh.file", "a.su2", NULL));
		FV_ASSERT_OK(fv_case_set(&c, "flow.mach", machs[i], NULL));
		FV_ASSERT_OK(fv_case_finish(&c));
		assert_true(c.num.limiter_shock == want[i]);
	}
	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, case_file("b.cfg", "[mesh]\nfile = a.su2\n[flow]\nmach = 6\n[numerics]\n"
							  "limiter_shock = 0\n")));
	FV_ASSERT_OK(fv_case_finish(&c));
	assert_true(c.num.limiter_shock == 0);
}

static void make_box(fv_mesh_t *m)
{
	fv_gen_opts_t o;
	fv_gen_opts_default(&o);
	o.nx = o.ny = o.nz = 2;
	fv_mesh_init(m);
	FV_ASSERT_OK(fv_mesh_gen_box(m, &o));
	FV_ASSERT_OK(fv_mesh_prepare(m));
}

static void test_markers(void **state)
{
	fv_mesh_t m;
	fv_case_t c;
	int kind[6];
	uint8_t force[6];
	(void)state;
	make_box(&m);
	assert_int_equal(m.n_markers, 6);

	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, case_file("box.cfg", "[mesh]\nfile = box.su2\n[bc]\nxmin = supersonic_inflow\n"
							    "xmax = supersonic_outflow\nymin = wall\nymax = symmetry\n"
							    "zmin = wall\n")));
	FV_ASSERT_ERR(fv_case_check_markers(&c, &m), FV_ERR_ARG, "marker 'zmax' has no boundary condition in [bc] of ");
	FV_ASSERT_ERR(fv_case_check_markers(&c, &m), FV_ERR_ARG, "box.cfg");
	FV_ASSERT_OK(fv_case_set_arg(&c, "bc.zmax=farfield", NULL));
	FV_ASSERT_OK(fv_case_bc_kinds(&c, &m, kind));
	assert_int_equal(kind[0], FV_BC_SUPERSONIC_INFLOW);
	assert_int_equal(kind[1], FV_BC_SUPERSONIC_OUTFLOW);
	assert_int_equal(kind[2], FV_BC_SLIP_WALL);
	assert_int_equal(kind[3], FV_BC_SYMMETRY);
	assert_int_equal(kind[4], FV_BC_SLIP_WALL);
	assert_int_equal(kind[5], FV_BC_FARFIELD);
	FV_ASSERT_OK(fv_case_force_markers(&c, &m, force));
	assert_memory_equal(force, ((uint8_t[]){0, 0, 1, 0, 1, 0}), 6);

	/* two missing markers are named together */
	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, case_file("two.cfg", "[bc]\nxmin = wall\nxmax = wall\nymin = wall\nymax = wall\n")));
	FV_ASSERT_ERR(fv_case_check_markers(&c, &m), FV_ERR_ARG, "markers 'zmin', 'zmax' have no boundary condition");

	/* a [bc] key that names no marker: its line and the mesh's markers */
	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, case_file("extra.cfg", "[bc]\nxmin = wall\nxmax = wall\nymin = wall\n"
							      "ymax = wall\nzmin = wall\nzmax = wall\nwng = wall\n")));
	FV_ASSERT_ERR(fv_case_check_markers(&c, &m), FV_ERR_ARG,
		      "extra.cfg:8: [bc] wng = wall: the mesh (");
	FV_ASSERT_ERR(fv_case_check_markers(&c, &m), FV_ERR_ARG,
		      "has no marker 'wng' (its markers: xmin, xmax, ymin, ymax, zmin, zmax)");

	/* [forces] markers: named ones only, all known */
	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_read(&c, case_file("f.cfg", "[bc]\nxmin = wall\nxmax = wall\nymin = wall\n"
							  "ymax = wall\nzmin = wall\nzmax = wall\n"
							  "[forces]\nmarkers = zmax,xmin\n")));
	FV_ASSERT_OK(fv_case_force_markers(&c, &m, force));
	assert_memory_equal(force, ((uint8_t[]){1, 0, 0, 0, 0, 1}), 6);
	FV_ASSERT_OK(fv_case_set_arg(&c, "forces.markers=xmin,wing", NULL));
	FV_ASSERT_ERR(fv_case_check_markers(&c, &m), FV_ERR_ARG,
		      "command line: [forces] markers: the mesh (");
	FV_ASSERT_ERR(fv_case_force_markers(&c, &m, force), FV_ERR_ARG, "has no marker 'wing'");

	/* more than FV_CASE_MAX_BC entries */
	fv_case_default(&c);
	char key[32];
	for (int i = 0; i < FV_CASE_MAX_BC; i++) {
		snprintf(key, sizeof key, "bc.m%d", i);
		FV_ASSERT_OK(fv_case_set(&c, key, "wall", NULL));
	}
	FV_ASSERT_ERR(fv_case_set(&c, "bc.one_more", "wall", NULL), FV_ERR_ARG, "more than 64 boundary conditions");
	fv_mesh_free(&m);
}

static void test_freestream(void **state)
{
	fv_case_t c;
	double prim[5], d[3], s[3], l[3];
	(void)state;
	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_set(&c, "flow.mach", "2", NULL));
	FV_ASSERT_OK(fv_case_set(&c, "flow.alpha", "90", NULL));
	fv_case_freestream(&c, prim);
	FV_ASSERT_NEAR(prim[0], 1, 1e-15);
	FV_ASSERT_NEAR(prim[1], 0, 1e-15);
	FV_ASSERT_NEAR(prim[2], 0, 1e-15);
	FV_ASSERT_NEAR(prim[3], 2, 1e-15);
	FV_ASSERT_NEAR(prim[4], 1 / 1.4, 1e-15);
	FV_ASSERT_OK(fv_case_set(&c, "flow.beta", "30", NULL));
	c.alpha_deg = 10;
	fv_case_freestream(&c, prim);
	FV_ASSERT_NEAR(prim[2], 1, 1e-15); /* 2 sin 30 */
	FV_ASSERT_NEAR(sqrt(prim[1] * prim[1] + prim[2] * prim[2] + prim[3] * prim[3]), 2, 1e-15);
	/* drag along the free stream; the axes are orthonormal */
	fv_case_force_axes(&c, d, s, l);
	for (int i = 0; i < 3; i++)
		FV_ASSERT_NEAR(d[i], prim[1 + i] / 2, 1e-15);
	FV_ASSERT_NEAR(d[0] * s[0] + d[1] * s[1] + d[2] * s[2], 0, 1e-15);
	FV_ASSERT_NEAR(d[0] * l[0] + d[1] * l[1] + d[2] * l[2], 0, 1e-15);
	FV_ASSERT_NEAR(s[0] * l[0] + s[1] * l[1] + s[2] * l[2], 0, 1e-15);
	FV_ASSERT_NEAR(s[0] * s[0] + s[1] * s[1] + s[2] * s[2], 1, 1e-15);
	FV_ASSERT_NEAR(l[0] * l[0] + l[1] * l[1] + l[2] * l[2], 1, 1e-15);
}

/* A 2D mesh takes alpha in the x-y plane, its lift along y (SU2's 2D
 * convention); beta is refused there with alpha named; a 3D mesh keeps
 * alpha in the x-z plane. The 2D alpha free stream and lift axis are, bit
 * for bit, the 3D convention's beta free stream and side-force axis (the
 * stand-in the NACA 0012 case used before). */
static void test_freestream_2d(void **state)
{
	fv_case_t c, b;
	double prim[5], pb[5], d[3], s[3], l[3], db[3], sb[3], lb[3];
	double force[3] = {0.3, 0.7, -0.2}, mom[3] = {0, 0, 0}, cf[FV_NCOEF], cfb[FV_NCOEF];
	(void)state;
	fv_case_default(&c);
	FV_ASSERT_OK(fv_case_set(&c, "flow.mach", "0.5", NULL));
	FV_ASSERT_OK(fv_case_set(&c, "flow.alpha", "2", NULL));
	assert_string_equal(fv_case_axes(&c), "lift along z, drag along x, side force along y (3D mesh: alpha turns "
					      "the free stream towards +z, beta towards +y)");
	fv_case_freestream(&c, prim);
	FV_ASSERT_NEAR(prim[2], 0, 0);
	FV_ASSERT_NEAR(prim[3], 0.5 * sin(2 * acos(-1.0) / 180), 1e-16);
	FV_ASSERT_OK(fv_case_set_mesh_2d(&c, 1));
	assert_int_equal(c.mesh_2d, 1);
	assert_non_null(strstr(fv_case_axes(&c), "lift along y, drag along x (2D mesh"));
	fv_case_freestream(&c, prim);
	fv_case_force_axes(&c, d, s, l);
	fv_case_force_coeffs(&c, force, mom, cf);
	/* the stand-in: a 3D case with alpha 0 and beta 2 */
	fv_case_default(&b);
	FV_ASSERT_OK(fv_case_set(&b, "flow.mach", "0.5", NULL));
	FV_ASSERT_OK(fv_case_set(&b, "flow.beta", "2", NULL));
	fv_case_freestream(&b, pb);
	fv_case_force_axes(&b, db, sb, lb);
	fv_case_force_coeffs(&b, force, mom, cfb);
	for (int k = 0; k < 5; k++)
		assert_true(prim[k] == pb[k]);
	for (int k = 0; k < 3; k++) {
		assert_true(d[k] == db[k]);
		assert_true(l[k] == sb[k]);
	}
	assert_true(cf[0] == cfb[0]); /* CD */
	assert_true(cf[2] == cfb[1]); /* CL (2D) = CS (3D, beta) */
	FV_ASSERT_NEAR(cf[1], force[2] / (0.5 * 0.25), 1e-12); /* CS: the z force */
	assert_true(l[1] > 0.99 && l[2] == 0 && s[2] == 1);
	/* beta on a 2D mesh: refused, naming alpha */
	FV_ASSERT_OK(fv_case_set(&c, "flow.beta", "2", NULL));
	FV_ASSERT_ERR(fv_case_set_mesh_2d(&c, 1), FV_ERR_ARG,
		      "command line: [flow] beta = 2 on a 2D mesh");
	assert_non_null(strstr(fv_errmsg(), "set alpha = 2 and beta = 0"));
	/* back on a 3D mesh: today's convention */
	FV_ASSERT_OK(fv_case_set_mesh_2d(&c, 0));
	fv_case_freestream(&c, prim);
	assert_true(prim[3] > 0 && prim[2] > 0);
}

/* cases/README.md holds fv_case_write_doc's text between its markers. */
static void test_readme(void **state)
{
	const char *top = getenv("top_srcdir");
	char path[600], *readme, *doc = NULL;
	size_t doc_len = 0;
	(void)state;
	if (!top || !*top)
		skip();
	snprintf(path, sizeof path, "%s/cases/README.md", top);
	readme = fv_test_slurp(path, NULL);
	FILE *f = open_memstream(&doc, &doc_len);
	assert_non_null(f);
	fv_case_write_doc(f);
	fclose(f);
	const char *begin = strstr(readme, "<!-- keys: begin (generated) -->\n\n");
	const char *end = strstr(readme, "<!-- keys: end -->");
	assert_non_null(begin);
	assert_non_null(end);
	begin += strlen("<!-- keys: begin (generated) -->\n\n");
	if ((size_t)(end - begin) != doc_len || memcmp(begin, doc, doc_len) != 0) {
		fail_msg("cases/README.md's key reference differs from fv_case_write_doc; the generated text "
			 "is:\n%s",
			 doc);
	}
	free(doc);
	free(readme);
}

/* -------------------------------------------------------------- outputs */

static void test_history(void **state)
{
	static const char *const cols[] = {"iteration", "time", "res_rho"};
	fv_history_t h;
	char path[512], *text;
	(void)state;
	tmp_path(path, sizeof path, "hist/deeper/history.csv");
	{
		char dir[512];
		tmp_path(dir, sizeof dir, "hist/deeper");
		FV_ASSERT_OK(fv_output_mkdir(dir));
		FV_ASSERT_OK(fv_output_mkdir(dir)); /* exists already: fine */
	}
	FV_ASSERT_OK(fv_history_open(&h, path, cols, 3, -1));
	/* the header is on disk before any row */
	text = fv_test_slurp(path, NULL);
	assert_string_equal(text, "iteration,time,res_rho\n");
	free(text);
	for (int i = 1; i <= 5; i++) {
		double row[3] = {i, 0.1 * i, 1.0 / 3 / i};
		FV_ASSERT_OK(fv_history_row(&h, row));
	}
	/* flushed at every row: complete before close */
	text = fv_test_slurp(path, NULL);
	assert_non_null(strstr(text, "\n5,0.5,0.06666666667\n"));
	free(text);
	FV_ASSERT_OK(fv_history_close(&h));
	FV_ASSERT_OK(fv_history_close(&h));

	/* continuing from the restart of iteration 3: rows 4 and 5 go, and
	 * a torn last line too */
	FILE *f = fopen(path, "a");
	fputs("6,0.6,0.0", f);
	fclose(f);
	FV_ASSERT_OK(fv_history_open(&h, path, cols, 3, 3));
	assert_int_equal(h.rows_dropped, 2);
	assert_int_equal(h.partial_bytes, 9);
	double row[3] = {4, 0.4, NAN};
	FV_ASSERT_OK(fv_history_row(&h, row));
	FV_ASSERT_OK(fv_history_close(&h));
	text = fv_test_slurp(path, NULL);
	assert_string_equal(text, "iteration,time,res_rho\n"
				  "1,0.1,0.3333333333\n"
				  "2,0.2,0.1666666667\n"
				  "3,0.3,0.1111111111\n"
				  "4,0.4,nan\n");
	free(text);

	/* a full disk (here: the file size limit) in the middle of a row: the
	 * part written is cut off again, the file ends in a whole row */
	{
		struct rlimit saved, small;
		void (*handler)(int) = signal(SIGXFSZ, SIG_IGN);
		struct stat st;
		fv_err_t e = FV_OK;
		int written = 0;
		FV_ASSERT_OK(fv_history_open(&h, path, cols, 3, 4));
		assert_int_equal(h.rows_dropped + h.partial_bytes, 0);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
		small = saved;
		small.rlim_cur = (rlim_t)st.st_size + 70; /* 3 rows of 26 bytes do not fit */
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
		for (int i = 5; i < 10 && e == FV_OK; i++) {
			double r5[3] = {i, 0.123456789 * i, 1.0 / 7 / i};
			e = fv_history_row(&h, r5);
			written += e == FV_OK;
		}
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
		signal(SIGXFSZ, handler);
		if (e != FV_ERR_IO || !strstr(fv_errmsg(), "history.csv: write failed: File too large (the row of "
							   "iteration 7 is not in it)"))
			fail_msg("got %d '%s'", (int)e, fv_errmsg());
		assert_int_equal(written, 2);
		FV_ASSERT_OK(fv_history_close(&h));
		text = fv_test_slurp(path, NULL);
		assert_true(strlen(text) > 0 && text[strlen(text) - 1] == '\n');
		assert_non_null(strstr(text, "\n4,0.4,nan\n5,"));
		assert_null(strstr(text, "\n7,"));
		free(text);
	}

	/* other columns: refused, the file is left alone */
	static const char *const other[] = {"iteration", "res_rho"};
	FV_ASSERT_ERR(fv_history_open(&h, path, other, 2, 3), FV_ERR_FORMAT,
		      "its columns 'iteration,time,res_rho' are not those of this run ('iteration,res_rho')");
	assert_null(h.f);
	/* append to a missing file starts one */
	char fresh[512];
	tmp_path(fresh, sizeof fresh, "fresh.csv");
	FV_ASSERT_OK(fv_history_open(&h, fresh, other, 2, 10));
	FV_ASSERT_OK(fv_history_close(&h));
	text = fv_test_slurp(fresh, NULL);
	assert_string_equal(text, "iteration,res_rho\n");
	free(text);

	static const char *const bad[] = {"a,b"};
	FV_ASSERT_ERR(fv_history_open(&h, fresh, bad, 1, -1), FV_ERR_ARG, "holds a comma");
	tmp_path(path, sizeof path, "no/such/dir/history.csv");
	FV_ASSERT_ERR(fv_history_open(&h, path, cols, 3, -1), FV_ERR_IO, "history.csv: cannot write");
	FV_ASSERT_ERR(fv_history_row(&h, row), FV_ERR_ARG, "not open");
	/* mkdir through a file */
	FV_ASSERT_ERR(fv_output_mkdir(fresh), FV_ERR_IO, "is not a directory");
}

/* The output directory's lock: taken, taken again, refused while a live
 * process of this host holds it (here: the parent of the test), stale
 * when its pid has gone, released. */
static void test_output_lock(void **state)
{
	char dir[512], other[512], lock[600], text[256], note[1024];
	(void)state;
	tmp_path(dir, sizeof dir, "locked");
	tmp_path(other, sizeof other, "other");
	FV_ASSERT_OK(fv_output_mkdir(dir));
	FV_ASSERT_OK(fv_output_mkdir(other));
	snprintf(lock, sizeof lock, "%s/.fvstar.lock", dir);
	FV_ASSERT_OK(fv_output_lock(dir, note, sizeof note));
	assert_string_equal(note, "");
	char *back = fv_test_slurp(lock, NULL);
	snprintf(text, sizeof text, "pid %ld\nhost ", (long)getpid());
	assert_true(strncmp(back, text, strlen(text)) == 0);
	assert_non_null(strstr(back, "\nstarted 20"));
	free(back);
	FV_ASSERT_OK(fv_output_lock(dir, note, sizeof note)); /* again: held already */
	FV_ASSERT_ERR(fv_output_lock(other, note, sizeof note), FV_ERR_ARG, "this process already holds");
	fv_output_unlock();
	assert_false(exists(lock));
	fv_output_unlock(); /* none held: nothing */

	/* a live process of this host: refused, the lock left as it was */
	char host[256] = "";
	gethostname(host, sizeof host - 1);
	snprintf(text, sizeof text, "pid %ld\nhost %s\nstarted 2026-01-01T00:00:00Z\n", (long)getppid(), host);
	write_text(lock, text);
	snprintf(note, sizeof note, "is in use by another run: pid %ld on host %s, started 2026-01-01T00:00:00Z",
		 (long)getppid(), host);
	{
		char want[1024];
		snprintf(want, sizeof want, "%s", note);
		FV_ASSERT_ERR(fv_output_lock(dir, note, sizeof note), FV_ERR_IO, want);
	}
	back = fv_test_slurp(lock, NULL);
	assert_string_equal(back, text);
	free(back);
	/* a pid that is gone: taken over, and said */
	snprintf(text, sizeof text, "pid %ld\nhost %s\nstarted 2026-01-01T00:00:00Z\n", 999999999L, host);
	write_text(lock, text);
	FV_ASSERT_OK(fv_output_lock(dir, note, sizeof note));
	assert_non_null(strstr(note, "took over the stale lock of pid 999999999"));
	fv_output_unlock();
	/* unreadable contents: replaced, and said */
	write_text(lock, "garbage");
	FV_ASSERT_OK(fv_output_lock(dir, note, sizeof note));
	assert_non_null(strstr(note, "replaced an unreadable lock file"));
	fv_output_unlock();
	assert_false(exists(lock));
}

static void test_summary(void **state)
{
	char path[512], tmp[600];
	json_error_t jerr;
	double v[3] = {1.5, NAN, -INFINITY};
	fv_case_t c;
	(void)state;
	tmp_path(path, sizeof path, "summary.json");
	fv_case_default(&c);
	json_t *root = json_pack("{s:s, s:i, s:o, s:o}", "name", "box", "cells", 1000, "residuals",
				 fv_json_reals(v, 3), "case", fv_case_json(&c));
	assert_non_null(root);
	json_object_set_new(root, "seconds", fv_json_real(0.25));
	FV_ASSERT_OK(fv_summary_write(path, root));
	assert_int_equal(fv_test_tmp_left(path), 0);
	json_t *back = json_load_file(path, 0, &jerr);
	if (!back)
		fail_msg("%s:%d: %s", path, jerr.line, jerr.text);
	assert_true(json_equal(root, back));
	json_t *res = json_object_get(back, "residuals");
	assert_true(json_real_value(json_array_get(res, 0)) == 1.5);
	assert_true(json_is_null(json_array_get(res, 1)) && json_is_null(json_array_get(res, 2)));
	assert_true(json_real_value(json_object_get(json_object_get(json_object_get(back, "case"), "flow"), "mach")) ==
		    0.5);
	/* indented two spaces */
	char *text = fv_test_slurp(path, NULL);
	assert_non_null(strstr(text, "{\n  \"name\": \"box\""));
	free(text);
	json_decref(back);

	tmp_path(path, sizeof path, "no/such/dir/summary.json");
	FV_ASSERT_ERR(fv_summary_write(path, root), FV_ERR_IO, "summary.json: cannot write");
	FV_ASSERT_ERR(fv_summary_write(path, NULL), FV_ERR_ARG, "no JSON");
	json_decref(root);
}

/* The appended data after "_": the block of the index-th DataArray. */
static const char *vtu_block(const char *buf, size_t len, const char *name, uint64_t *bytes)
{
	char key[128];
	const char *tag, *data = strstr(buf, "<AppendedData encoding=\"raw\">\n   _");
	assert_non_null(data);
	data += strlen("<AppendedData encoding=\"raw\">\n   _");
	snprintf(key, sizeof key, "Name=\"%s\"", name);
	tag = strstr(buf, key);
	if (!tag || tag > data)
		return NULL;
	unsigned long long off = strtoull(strstr(tag, "offset=\"") + 8, NULL, 10);
	assert_true(data + off + 8 <= buf + len);
	memcpy(bytes, data + off, 8);
	assert_true(data + off + 8 + *bytes <= buf + len);
	return data + off + 8;
}

static void test_solution_vtu(void **state)
{
	fv_mesh_t m;
	char path[512];
	size_t len;
	uint64_t bytes;
	(void)state;
	make_box(&m);
	const size_t n = (size_t)m.n_cells;
	fv_real_t *q = malloc(5 * n * sizeof *q);
	int32_t *block = malloc(n * sizeof *block);
	assert_true(q && block);
	const double gamma = (double)(fv_real_t)1.4; /* as the writer sees it */
	for (size_t i = 0; i < n; i++) {
		double rho = 1 + 0.01 * (double)i, u = 0.5, v = -0.25 * (double)(i % 3), w = 0.125, p = 1 / gamma + 0.001 * (double)i;
		q[i] = (fv_real_t)rho;
		q[n + i] = (fv_real_t)(rho * u);
		q[2 * n + i] = (fv_real_t)(rho * v);
		q[3 * n + i] = (fv_real_t)(rho * w);
		q[4 * n + i] = (fv_real_t)(p / (gamma - 1) + 0.5 * rho * (u * u + v * v + w * w));
		block[i] = (int32_t)(i % 4);
	}
	q[4 * n + 1] = 0; /* negative pressure in cell 1: NaN mach, no error */
	tmp_path(path, sizeof path, "solution.vtu");
	FV_ASSERT_OK(fv_solution_write_vtu(path, &m, q, (fv_real_t)gamma, block, NULL));
	char *buf = fv_test_slurp(path, &len);
	char expect[128];
	snprintf(expect, sizeof expect, "<Piece NumberOfPoints=\"%d\" NumberOfCells=\"%d\">", (int)m.n_nodes,
		 (int)m.n_cells);
	assert_non_null(strstr(buf, expect));
	assert_true(strncmp(buf, "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\"", 52) == 0);
	assert_non_null(strstr(buf, "NumberOfComponents=\"3\""));
	assert_true(len > 11 && strcmp(buf + len - 11, "</VTKFile>\n") == 0);

	/* every array has the size of its cells; values as expected */
	const char *names[] = {"density", "velocity", "pressure", "mach", "entropy"};
	const int ncomp[] = {1, 3, 1, 1, 1};
	for (int a = 0; a < 5; a++) {
		const double *d = (const double *)vtu_block(buf, len, names[a], &bytes);
		assert_non_null(d);
		assert_int_equal(bytes, n * (size_t)ncomp[a] * sizeof(double));
		for (size_t i = 0; i < n; i++) {
			double rho = q[i], u = q[n + i] / rho, v = q[2 * n + i] / rho, w = q[3 * n + i] / rho;
			double p = (gamma - 1) * (q[4 * n + i] - 0.5 * rho * (u * u + v * v + w * w));
			double val;
			memcpy(&val, d + (size_t)ncomp[a] * i, sizeof val);
			switch (a) {
			case 0: assert_true(val == rho); break;
			case 1: FV_ASSERT_NEAR(val, u, 1e-14);
				memcpy(&val, d + 3 * i + 1, sizeof val);
				FV_ASSERT_NEAR(val, v, 1e-14);
				break;
			case 2: FV_ASSERT_NEAR(val, p, 1e-13); break;
			case 3:
				if (i == 1)
					assert_true(isnan(val));
				else
					FV_ASSERT_NEAR(val, sqrt((u * u + v * v + w * w) / (gamma * p / rho)), 1e-13);
				break;
			case 4:
				if (i == 1)
					assert_true(isnan(val));
				else
					FV_ASSERT_NEAR(val, p / pow(rho, gamma), 1e-13);
				break;
			}
		}
	}
	const int32_t *b = (const int32_t *)vtu_block(buf, len, "block", &bytes);
	assert_non_null(b);
	assert_int_equal(bytes, n * sizeof(int32_t));
	assert_memory_equal(b, block, n * sizeof(int32_t));
	assert_non_null(vtu_block(buf, len, "Points", &bytes));
	assert_int_equal(bytes, (size_t)m.n_nodes * 3 * sizeof(double));
	assert_non_null(vtu_block(buf, len, "connectivity", &bytes));
	assert_int_equal(bytes, (size_t)m.cell_node_off[n] * sizeof(int32_t));
	assert_non_null(vtu_block(buf, len, "types", &bytes));
	assert_int_equal(bytes, n);
	free(buf);

	/* without blocks: no block array */
	FV_ASSERT_OK(fv_solution_write_vtu(path, &m, q, (fv_real_t)gamma, NULL, NULL));
	buf = fv_test_slurp(path, &len);
	assert_null(vtu_block(buf, len, "block", &bytes));
	assert_non_null(vtu_block(buf, len, "entropy", &bytes));
	free(buf);

	/* as VTK reads it, where a Python has vtk (python3-vtk9), found as
	 * tests/cli/vtu_vtk.sh finds it */
	const char *candidates[] = {getenv("PYTHON3"), "python3", "/usr/bin/python3"}, *py = NULL;
	char cmd[1500];
	for (int i = 0; i < 3 && !py; i++) {
		if (!candidates[i] || !*candidates[i])
			continue;
		snprintf(cmd, sizeof cmd, "'%s' -c 'import vtk' >/dev/null 2>&1", candidates[i]);
		if (system(cmd) == 0)
			py = candidates[i];
	}
	if (py) {
		print_message("VTK read-back with %s\n", py);
		FV_ASSERT_OK(fv_solution_write_vtu(path, &m, q, (fv_real_t)gamma, block, NULL));
		snprintf(cmd, sizeof cmd,
			 "'%s' -c 'import sys, vtk\n"
			 "r = vtk.vtkXMLUnstructuredGridReader(); r.SetFileName(sys.argv[1]); r.Update()\n"
			 "g = r.GetOutput(); cd = g.GetCellData()\n"
			 "a = {cd.GetArrayName(i): cd.GetArray(i) for i in range(cd.GetNumberOfArrays())}\n"
			 "assert g.GetNumberOfCells() == %zu and g.GetNumberOfPoints() == %d, (g.GetNumberOfCells(), g.GetNumberOfPoints())\n"
			 "assert sorted(a) == sorted([\"density\", \"velocity\", \"pressure\", \"mach\", \"entropy\", \"block\"]), sorted(a)\n"
			 "assert a[\"velocity\"].GetNumberOfComponents() == 3\n"
			 "assert all(a[k].GetNumberOfTuples() == %zu for k in a)\n"
			 "assert a[\"density\"].GetValue(2) == %.17g and a[\"block\"].GetValue(3) == 3\n"
			 "' '%s'",
			 py, n, (int)m.n_nodes, n, (double)q[2], path);
		assert_int_equal(system(cmd), 0);
	} else {
		print_message("no python3 with vtk: VTK read-back skipped\n");
	}

	/* errors leave no file behind */
	tmp_path(path, sizeof path, "no/such/dir/solution.vtu");
	FV_ASSERT_ERR(fv_solution_write_vtu(path, &m, q, (fv_real_t)gamma, NULL, NULL), FV_ERR_IO, "cannot write");
	FV_ASSERT_ERR(fv_solution_write_vtu(path, &m, q, (fv_real_t)1.0, NULL, NULL), FV_ERR_ARG, "gamma");
	free(q);
	free(block);
	fv_mesh_free(&m);
}

static void fill_restart(fv_restart_t *r, fv_idx_t n)
{
	memset(r, 0, sizeof *r);
	r->n_cells = n;
	r->n_vars = FV_RESTART_NVARS;
	r->n_blocks = 7;
	r->iteration = 1234567890LL;
	r->time = 1.0 / 3;
	r->mesh.n_cells = n;
	r->mesh.n_nodes = 3 * n + 5;
	r->mesh.hash = 0x0123456789abcdefULL;
	for (int v = 0; v < 5; v++)
		r->res0[v] = 1e-3 / (v + 1) + 1e-19;
	r->q = malloc((size_t)(5 * n + 1) * sizeof(fv_real_t));
	assert_non_null(r->q);
	/* values whose every bit matters: random bits, -0, a subnormal */
	uint64_t x = 88172645463325252ULL;
	for (size_t i = 0; i < (size_t)(5 * n); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		r->q[i] = (fv_real_t)((double)(x >> 11) / 9007199254740992.0 * 4 - 1);
	}
	r->q[0] = (fv_real_t)-0.0;
	r->q[1] = (fv_real_t)(sizeof(fv_real_t) == 8 ? 1e-310 : 1e-40);
}

static void patch_byte(const char *path, long off, int delta)
{
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	fseek(f, off, SEEK_SET);
	int ch = fgetc(f);
	fseek(f, off, SEEK_SET);
	fputc((ch + delta) & 0xff, f);
	fclose(f);
}

/* Header bytes of the restart format (include/fvstar/output.h): format 3,
 * and format 2 (no model, no solver state). */
#define RS_HEADER 640
#define RS_HEADER_V2 104

static void test_restart(void **state)
{
	fv_restart_t r, back;
	fv_mesh_id_t other;
	char path[512], copy[512], tmp[600];
	const fv_idx_t n = 1000;
	size_t len;
	(void)state;
	fill_restart(&r, n);
	tmp_path(path, sizeof path, "restart.bin");
	FV_ASSERT_OK(fv_restart_write(path, &r));
	assert_int_equal(fv_test_tmp_left(path), 0);

	/* bit for bit, with the mesh's identity */
	FV_ASSERT_OK(fv_restart_read(path, &back, &r.mesh, "mesh.su2"));
	assert_int_equal(back.n_cells, n);
	assert_int_equal(back.n_vars, 5);
	assert_int_equal(back.n_blocks, 7);
	assert_true(back.iteration == r.iteration);
	assert_true(back.mesh.n_cells == n && back.mesh.n_nodes == 3 * n + 5 && back.mesh.hash == r.mesh.hash);
	assert_memory_equal(&back.time, &r.time, sizeof r.time);
	assert_memory_equal(back.res0, r.res0, sizeof r.res0);
	assert_memory_equal(back.q, r.q, (size_t)(5 * n) * sizeof(fv_real_t));
	fv_restart_free(&back);
	FV_ASSERT_OK(fv_restart_read(path, &back, NULL, NULL));
	fv_restart_free(&back);

	/* the layout of the header; the state and the checksum end the file */
	char *buf = fv_test_slurp(path, &len);
	assert_int_equal(len, RS_HEADER + 5 * (size_t)n * sizeof(fv_real_t) + 8);
	assert_memory_equal(buf, "FVSTARRS", 8);
	assert_int_equal((unsigned char)buf[8], 3);
	assert_int_equal((unsigned char)buf[12], sizeof(fv_real_t));
	assert_int_equal((unsigned char)buf[16], n & 0xff);
	assert_int_equal((unsigned char)buf[88], (3 * n + 5) & 0xff);
	assert_int_equal((unsigned char)buf[96], 0xef);
	assert_memory_equal(buf + RS_HEADER, r.q, 16); /* little-endian hosts */
	/* ... the same bytes from memory */
	FV_ASSERT_OK(fv_restart_parse(buf, len, "mem", &back, &r.mesh, "mesh.su2"));
	assert_memory_equal(back.q, r.q, (size_t)(5 * n) * sizeof(fv_real_t));
	fv_restart_free(&back);
	FV_ASSERT_ERR(fv_restart_parse(buf, len - 1, "mem", &back, NULL, NULL), FV_ERR_FORMAT, "mem: truncated");
	free(buf);

	/* the same with no cells */
	fv_restart_t empty = {.n_cells = 0, .n_vars = 5};
	tmp_path(copy, sizeof copy, "empty.bin");
	FV_ASSERT_OK(fv_restart_write(copy, &empty));
	FV_ASSERT_OK(fv_restart_read(copy, &back, &empty.mesh, NULL));
	fv_restart_free(&back);

	/* a flipped byte of the state: checksum */
	tmp_path(copy, sizeof copy, "corrupt.bin");
	FV_ASSERT_OK(fv_restart_write(copy, &r));
	patch_byte(copy, RS_HEADER + 777, 1);
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &r.mesh, NULL), FV_ERR_FORMAT, "corrupt.bin: checksum mismatch");
	assert_null(back.q);
	/* ... or of the time, or of the mesh checksum in the header */
	FV_ASSERT_OK(fv_restart_write(copy, &r));
	patch_byte(copy, 41, 1);
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &r.mesh, NULL), FV_ERR_FORMAT, "checksum mismatch");
	FV_ASSERT_OK(fv_restart_write(copy, &r));
	patch_byte(copy, 97, 1);
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &r.mesh, NULL), FV_ERR_FORMAT, "checksum mismatch");

	/* truncated, or longer */
	FV_ASSERT_OK(fv_restart_write(copy, &r));
	assert_int_equal(truncate(copy, RS_HEADER + 100), 0);
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &r.mesh, NULL), FV_ERR_FORMAT, "corrupt.bin: truncated: 740 bytes");
	assert_int_equal(truncate(copy, 40), 0);
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &r.mesh, NULL), FV_ERR_FORMAT,
		      "corrupt.bin: header: unexpected end of file");
	FV_ASSERT_OK(fv_restart_write(copy, &r));
	FILE *f = fopen(copy, "ab");
	fputs("x", f);
	fclose(f);
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &r.mesh, NULL), FV_ERR_FORMAT, "(trailing data)");

	/* another mesh: cell count, node count, checksum, each named */
	FV_ASSERT_OK(fv_restart_write(copy, &r));
	other = r.mesh;
	other.n_cells = n + 1;
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &other, "fine.su2"), FV_ERR_FORMAT,
		      "corrupt.bin: cell count differs: the restart holds 1000 cells, fine.su2 has 1001");
	other = r.mesh;
	other.n_nodes++;
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &other, "fine.su2"), FV_ERR_FORMAT,
		      "corrupt.bin: node count differs: the restart was written for a mesh of 3005 nodes, fine.su2 has "
		      "3006");
	other = r.mesh;
	other.hash ^= 1;
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &other, "moved.su2"), FV_ERR_FORMAT,
		      "corrupt.bin: mesh checksum differs: the restart was written for another mesh than moved.su2");
	assert_null(back.q);

	/* precision, version (the old format by name), magic */
	patch_byte(copy, 12, sizeof(fv_real_t) == 8 ? -4 : 4);
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &r.mesh, NULL), FV_ERR_FORMAT,
		      sizeof(fv_real_t) == 8 ? "corrupt.bin: written in single precision (4-byte reals), this fvstar is "
					       "built in double precision"
					     : "written in double precision");
	FV_ASSERT_OK(fv_restart_write(copy, &r));
	patch_byte(copy, 8, 1);
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &r.mesh, NULL), FV_ERR_FORMAT,
		      "restart format version 4, this fvstar reads versions 2 and 3");
	FV_ASSERT_OK(fv_restart_write(copy, &r));
	patch_byte(copy, 8, -2);
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &r.mesh, NULL), FV_ERR_FORMAT,
		      "corrupt.bin: restart format version 1, written by an older fvstar in that run's block order");
	FV_ASSERT_OK(fv_restart_write(copy, &r));
	patch_byte(copy, 0, 1);
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &r.mesh, NULL), FV_ERR_FORMAT,
		      "corrupt.bin: not an fvstar restart file");
	write_text(copy, "");
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &r.mesh, NULL), FV_ERR_FORMAT, "not an fvstar restart file");
	tmp_path(copy, sizeof copy, "missing.bin");
	FV_ASSERT_ERR(fv_restart_read(copy, &back, &r.mesh, NULL), FV_ERR_IO, "missing.bin: cannot open restart");
	tmp_path(copy, sizeof copy, "");
	FV_ASSERT_ERR(fv_restart_read(copy, &back, NULL, NULL), FV_ERR_IO, "not a regular file");

	/* values a run cannot have written, with a valid checksum */
	tmp_path(copy, sizeof copy, "odd.bin");
	r.iteration = -1;
	FV_ASSERT_OK(fv_restart_write(copy, &r));
	FV_ASSERT_ERR(fv_restart_read(copy, &back, NULL, NULL), FV_ERR_FORMAT, "odd.bin: iteration -1 out of range");
	r.iteration = 5;
	r.time = NAN;
	FV_ASSERT_OK(fv_restart_write(copy, &r));
	FV_ASSERT_ERR(fv_restart_read(copy, &back, NULL, NULL), FV_ERR_FORMAT, "the time is not finite");
	r.time = 0.5;

	/* a write that fails (over the file size limit, as on a full disk)
	 * leaves the last restart intact, and no temporary file */
	{
		struct rlimit saved, small;
		void (*handler)(int) = signal(SIGXFSZ, SIG_IGN);
		fv_err_t e;
		assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
		small = saved;
		small.rlim_cur = 4096;
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
		r.iteration = 1;
		e = fv_restart_write(path, &r);
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
		signal(SIGXFSZ, handler);
		if (e != FV_ERR_IO || !strstr(fv_errmsg(), "restart.bin: write failed: File too large"))
			fail_msg("got %d '%s'", (int)e, fv_errmsg());
		assert_int_equal(fv_test_tmp_left(path), 0);
	}
	FV_ASSERT_OK(fv_restart_read(path, &back, &r.mesh, NULL));
	assert_true(back.iteration == 1234567890LL);
	fv_restart_free(&back);
	/* ... and a complete one replaces it, leaving no temporary file */
	FV_ASSERT_OK(fv_restart_write(path, &r));
	FV_ASSERT_OK(fv_restart_read(path, &back, &r.mesh, NULL));
	assert_true(back.iteration == 1);
	fv_restart_free(&back);
	assert_int_equal(fv_test_tmp_left(path), 0);
	/* a path.tmp of another writer (or an older fvstar's crash) is not
	 * touched: each writer has a temporary file of its own */
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	write_text(tmp, "partial");
	r.iteration = 2;
	FV_ASSERT_OK(fv_restart_write(path, &r));
	assert_int_equal(fv_test_tmp_left(path), 1);
	remove(tmp);
	FV_ASSERT_OK(fv_restart_read(path, &back, &r.mesh, NULL));
	assert_true(back.iteration == 2);
	fv_restart_free(&back);

	/* a state in another cell order is written in the file's order */
	{
		fv_real_t *perm_q = malloc((size_t)(5 * n) * sizeof *perm_q);
		fv_idx_t *cell_of_file = malloc((size_t)n * sizeof *cell_of_file);
		assert_non_null(perm_q);
		assert_non_null(cell_of_file);
		for (fv_idx_t i = 0; i < n; i++)
			cell_of_file[i] = (fv_idx_t)((i * 7919 + 13) % n); /* 7919 is prime, n = 1000 */
		for (int v = 0; v < 5; v++)
			for (fv_idx_t i = 0; i < n; i++)
				perm_q[(size_t)v * n + cell_of_file[i]] = r.q[(size_t)v * n + i];
		fv_restart_t w = r;
		w.q = perm_q;
		w.cell_of_file = cell_of_file;
		FV_ASSERT_OK(fv_restart_write(path, &w));
		FV_ASSERT_OK(fv_restart_read(path, &back, &r.mesh, NULL));
		assert_memory_equal(back.q, r.q, (size_t)(5 * n) * sizeof(fv_real_t));
		fv_restart_free(&back);
		free(perm_q);
		free(cell_of_file);
	}

	/* the fuzzer's seeds, written by tests/fuzz/make_restart_seeds.py:
	 * the format as documented, read by an independent writer */
	if (getenv("top_srcdir")) {
		char seed[1024];
		for (int old = 0; old < 2; old++) {
			snprintf(seed, sizeof seed, "%s/tests/fuzz/seeds/restart/%s", getenv("top_srcdir"),
				 sizeof(fv_real_t) == 8 ? (old ? "format2.bin" : "three-cells.bin")
							: (old ? "format2-single.bin" : "single-precision.bin"));
			FV_ASSERT_OK(fv_restart_read(seed, &back, NULL, NULL));
			assert_int_equal(back.n_cells, 3);
			assert_int_equal(back.n_blocks, 4);
			assert_true(back.mesh.n_nodes == 9 && back.mesh.hash == 0x1234ABCD5678EF90ULL);
			assert_true(back.time == 0.25 && back.res0[3] == 1e-300);
			assert_true(back.q[0] == (fv_real_t)1.0 && back.q[3 * 4 + 2] == (fv_real_t)1.42);
			assert_int_equal(back.model, old ? FV_RESTART_MODEL_UNKNOWN : FV_MODEL_EULER);
			assert_int_equal(back.n_solver_state, 0);
			fv_restart_free(&back);
		}
		snprintf(seed, sizeof seed, "%s/tests/fuzz/seeds/restart/sa-solver-state.bin", getenv("top_srcdir"));
		if (sizeof(fv_real_t) == 8) {
			const double want[4] = {2.5, 1e-300, -0.0, 12.0};
			FV_ASSERT_OK(fv_restart_read(seed, &back, NULL, NULL));
			assert_int_equal(back.model, FV_MODEL_SA);
			assert_int_equal(back.n_vars, 6);
			assert_int_equal(back.n_solver_state, 4);
			assert_memory_equal(back.solver_state, want, sizeof want);
			fv_restart_free(&back);
		}
		snprintf(seed, sizeof seed, "%s/tests/fuzz/seeds/restart/format1.bin", getenv("top_srcdir"));
		FV_ASSERT_ERR(fv_restart_read(seed, &back, NULL, NULL), FV_ERR_FORMAT, "restart format version 1");
	}

	r.mesh.n_cells = n + 1;
	FV_ASSERT_ERR(fv_restart_write(path, &r), FV_ERR_ARG, "state of 1000 cells for a mesh of 1001");
	r.mesh.n_cells = n;
	r.n_vars = 7;
	FV_ASSERT_ERR(fv_restart_write(path, &r), FV_ERR_ARG, "7 variables, a restart holds 5 or 6");
	free(r.q);
}

/* Format 3: the model and the solver's state, bit for bit; format 2 (the
 * same file without them) still read, as a model not recorded. */
static void test_restart_v3(void **state)
{
	fv_restart_t r, back;
	char path[512], old[512];
	const fv_idx_t n = 37;
	size_t len;
	(void)state;
	fill_restart(&r, n);
	tmp_path(path, sizeof path, "v3.bin");
	/* a Spalart-Allmaras run's six rows, and solver state values whose
	 * every bit matters (a NaN payload, -0, a subnormal, infinity) */
	free(r.q);
	r.n_vars = 6;
	r.model = FV_MODEL_SA;
	r.q = malloc((size_t)(6 * n) * sizeof(fv_real_t));
	assert_non_null(r.q);
	for (size_t i = 0; i < (size_t)(6 * n); i++)
		r.q[i] = (fv_real_t)(0.5 + 1e-3 * (double)i);
	r.n_solver_state = FV_RESTART_SOLVER_STATE_MAX;
	for (int k = 0; k < FV_RESTART_SOLVER_STATE_MAX; k++)
		r.solver_state[k] = 1.0 / (k + 3) + 1e6 * k;
	uint64_t nan_bits = 0x7ff8000000abcdefULL;
	memcpy(&r.solver_state[0], &nan_bits, 8);
	r.solver_state[1] = -0.0;
	r.solver_state[2] = 4.9e-324;
	r.solver_state[3] = INFINITY;
	r.res_peak = 0.1 + 1e-17;
	r.res_peak_iter = 77;
	FV_ASSERT_OK(fv_restart_write(path, &r));
	FV_ASSERT_OK(fv_restart_read(path, &back, &r.mesh, "mesh.su2"));
	assert_int_equal(back.model, FV_MODEL_SA);
	assert_memory_equal(&back.res_peak, &r.res_peak, sizeof r.res_peak);
	assert_true(back.res_peak_iter == 77);
	assert_int_equal(back.n_vars, 6);
	assert_int_equal(back.n_solver_state, FV_RESTART_SOLVER_STATE_MAX);
	assert_memory_equal(back.solver_state, r.solver_state, sizeof r.solver_state);
	assert_memory_equal(back.q, r.q, (size_t)(6 * n) * sizeof(fv_real_t));
	assert_true(back.iteration == r.iteration);
	assert_memory_equal(back.res0, r.res0, sizeof r.res0);
	fv_restart_free(&back);
	assert_string_equal(fv_restart_model_name(FV_MODEL_SA), "sa");
	assert_string_equal(fv_restart_model_name(FV_RESTART_MODEL_UNKNOWN), "unknown");

	/* the layout: model at 104, count at 108, the peak at 112 and 120,
	 * the values from 128 */
	char *buf = fv_test_slurp(path, &len);
	assert_int_equal(len, RS_HEADER + 6 * (size_t)n * sizeof(fv_real_t) + 8);
	assert_int_equal((unsigned char)buf[104], 2);
	assert_int_equal((unsigned char)buf[108], FV_RESTART_SOLVER_STATE_MAX);
	assert_memory_equal(buf + 112, &r.res_peak, 8);
	assert_int_equal((unsigned char)buf[120], 77);
	assert_memory_equal(buf + 128, r.solver_state, 8 * FV_RESTART_SOLVER_STATE_MAX); /* little-endian */

	/* the solver state is under the checksum */
	{
		char *bad = malloc(len);
		assert_non_null(bad);
		memcpy(bad, buf, len);
		bad[128 + 8 * 10 + 3] ^= 1;
		FV_ASSERT_ERR(fv_restart_parse(bad, len, "mem", &back, NULL, NULL), FV_ERR_FORMAT,
			      "mem: checksum mismatch");
		free(bad);
	}

	/* fewer values: only those come back, the rest of the slots read 0 */
	r.n_solver_state = 3;
	FV_ASSERT_OK(fv_restart_write(path, &r));
	FV_ASSERT_OK(fv_restart_read(path, &back, NULL, NULL));
	assert_int_equal(back.n_solver_state, 3);
	assert_memory_equal(back.solver_state, r.solver_state, 3 * sizeof(double));
	for (int k = 3; k < FV_RESTART_SOLVER_STATE_MAX; k++)
		assert_true(back.solver_state[k] == 0);
	fv_restart_free(&back);

	/* format 2: the same bytes without the model and the solver state,
	 * with their own checksum, as an older fvstar wrote them */
	{
		size_t qbytes = 6 * (size_t)n * sizeof(fv_real_t), len2 = RS_HEADER_V2 + qbytes + 8;
		unsigned char *v2 = malloc(len2);
		uint64_t h = 14695981039346656037ULL;
		assert_non_null(v2);
		memcpy(v2, buf, RS_HEADER_V2);
		v2[8] = 2;
		memcpy(v2 + RS_HEADER_V2, buf + RS_HEADER, qbytes);
		for (size_t i = 0; i < RS_HEADER_V2 + qbytes; i++) {
			h ^= v2[i];
			h *= 1099511628211ULL;
		}
		for (int i = 0; i < 8; i++)
			v2[RS_HEADER_V2 + qbytes + i] = (unsigned char)(h >> (8 * i));
		tmp_path(old, sizeof old, "v2.bin");
		FILE *f = fopen(old, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(v2, 1, len2, f), len2);
		fclose(f);
		FV_ASSERT_OK(fv_restart_read(old, &back, &r.mesh, "mesh.su2"));
		assert_int_equal(back.model, FV_RESTART_MODEL_UNKNOWN);
		assert_int_equal(back.n_solver_state, 0);
		assert_true(back.res_peak == 0 && back.res_peak_iter == 0);
		assert_int_equal(back.n_vars, 6);
		assert_true(back.iteration == r.iteration);
		assert_memory_equal(back.q, r.q, qbytes);
		fv_restart_free(&back);
		/* ... and a few cells of it, as a rank reads them */
		{
			fv_idx_t pos[2] = {5, 36};
			fv_real_t out[12];
			FV_ASSERT_OK(fv_restart_read_cells(old, &back, &r.mesh, NULL, 2, pos, 6, 0, out));
			assert_true(out[0] == r.q[5] && out[1] == r.q[36] && out[10] == r.q[5 * n + 5]);
			assert_int_equal(back.model, FV_RESTART_MODEL_UNKNOWN);
		}
		free(v2);
	}
	free(buf);

	/* the per-cell step factor's row (numerics.cell_cfl): one row more than
	 * the model's, read into a reader's step row only, never into nu~ */
	{
		fv_real_t *q7 = malloc((size_t)(7 * n) * sizeof(fv_real_t)), out[14];
		fv_idx_t pos[2] = {5, 36};
		assert_non_null(q7);
		for (size_t i = 0; i < (size_t)(7 * n); i++)
			q7[i] = (fv_real_t)(2.5 + 1e-3 * (double)i);
		fv_real_t *q6 = r.q;
		r.q = q7;
		r.n_vars = 7;
		r.step_row = 1;
		FV_ASSERT_OK(fv_restart_write(path, &r));
		FV_ASSERT_OK(fv_restart_read(path, &back, &r.mesh, "mesh.su2"));
		assert_int_equal(back.n_vars, 7);
		assert_int_equal(back.step_row, 1);
		assert_memory_equal(back.q, q7, (size_t)(7 * n) * sizeof(fv_real_t));
		fv_restart_free(&back);
		/* an SA run with the factor: all seven rows */
		FV_ASSERT_OK(fv_restart_read_cells(path, &back, &r.mesh, NULL, 2, pos, 7, 1, out));
		assert_true(out[10] == q7[5 * n + 5] && out[12] == q7[6 * n + 5] && out[13] == q7[6 * n + 36]);
		/* an Euler run with the factor: the mean flow, then the factor (nu~ skipped) */
		for (int k = 0; k < 12; k++)
			out[k] = -1;
		FV_ASSERT_OK(fv_restart_read_cells(path, &back, &r.mesh, NULL, 2, pos, 6, 1, out));
		assert_true(out[8] == q7[4 * n + 5] && out[10] == q7[6 * n + 5] && out[11] == q7[6 * n + 36]);
		/* an SA run without it: six rows, the factor not read */
		for (int k = 0; k < 14; k++)
			out[k] = -1;
		FV_ASSERT_OK(fv_restart_read_cells(path, &back, &r.mesh, NULL, 2, pos, 6, 0, out));
		assert_true(out[10] == q7[5 * n + 5] && out[12] == -1);
		/* an Euler file with the factor: six rows, the sixth not nu~ */
		r.model = FV_MODEL_EULER;
		r.n_vars = 6;
		FV_ASSERT_OK(fv_restart_write(path, &r));
		FV_ASSERT_OK(fv_restart_read(path, &back, &r.mesh, "mesh.su2"));
		assert_int_equal(back.model, FV_MODEL_EULER);
		assert_int_equal(back.step_row, 1);
		fv_restart_free(&back);
		/* ... a SA run from it: its nu~ left as the caller set it */
		for (int k = 0; k < 14; k++)
			out[k] = -1;
		FV_ASSERT_OK(fv_restart_read_cells(path, &back, &r.mesh, NULL, 2, pos, 7, 1, out));
		assert_true(out[8] == q7[4 * n + 5] && out[10] == -1 && out[12] == q7[5 * n + 5]);
		/* a model not recorded cannot say which row is the factor */
		r.model = FV_RESTART_MODEL_UNKNOWN;
		FV_ASSERT_ERR(fv_restart_write(path, &r), FV_ERR_ARG, "a step factor row needs a recorded model");
		r.model = FV_MODEL_SA;
		r.n_vars = 6;
		r.step_row = 0;
		r.q = q6;
		free(q7);
	}

	/* values a writer refuses, and a file that says them anyway */
	r.model = FV_MODEL_EULER;
	FV_ASSERT_ERR(fv_restart_write(path, &r), FV_ERR_ARG, "model euler with 6 variables per cell");
	r.model = 7;
	FV_ASSERT_ERR(fv_restart_write(path, &r), FV_ERR_ARG, "model 7 is none of euler, laminar, sa");
	r.model = FV_MODEL_SA;
	r.n_solver_state = FV_RESTART_SOLVER_STATE_MAX + 1;
	FV_ASSERT_ERR(fv_restart_write(path, &r), FV_ERR_ARG, "65 solver state values, a restart holds at most 64");
	r.n_solver_state = 0;
	free(r.q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_full_case),
		cmocka_unit_test(test_paths_and_names),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_markers),
		cmocka_unit_test(test_freestream),
		cmocka_unit_test(test_freestream_2d),
		cmocka_unit_test(test_readme),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_output_lock),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_solution_vtu),
		cmocka_unit_test(test_restart),
		cmocka_unit_test(test_restart_v3),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
