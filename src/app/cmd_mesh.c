/* SPDX-License-Identifier: MIT */
/* `fvstar mesh info|gen|refine|convert|color|walldist` (partition: cmd_partition.c): the mesh pipeline from the
 * command line. Results go to stdout, timings and progress to stderr. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "app/app.h"
#include "fvstar/color.h"
#include "fvstar/mesh.h"
#include "util/timer.h"

static const char mesh_usage[] =
	"usage:\n"
	"  fvstar mesh info MESH [--tol T] [--span S]\n"
	"  fvstar mesh gen box|ramp [--cells hex|tet|prism|mixed] [-n N | --nx N --ny N --nz N]\n"
	"                 [--lo x,y,z] [--hi x,y,z] [--perturb F] [--seed S]\n"
	"                 [--angle DEG] [--x0 F] [--refine K] [--check] -o OUT\n"
	"  fvstar mesh gen plate [--level K] [--nx N --ny N] [--nlead N] [--length L]\n"
	"                 [--lead L] [--height H] [--span S] [--y1 H | --re R]\n"
	"                 [--dx-le D] [--dx-te D] [--cells C] [--check] -o OUT\n"
	"  fvstar mesh gen bump [--level K] [--nx N --ny N] [--span S] [--y1 H] [--cells C]\n"
	"                 [--check] -o OUT\n"
	"  fvstar mesh refine MESH [--levels K] [--check] -o OUT\n"
	"  fvstar mesh convert MESH [--span S] -o OUT\n"
	"  fvstar mesh color MESH [--method greedy|minimal|both]\n"
	"  fvstar mesh walldist MESH|box|ramp|plate|bump [gen options] --wall MARKER[,MARKER...]\n"
	"                 [--threads N] [-o OUT.vtu]\n"
	"  fvstar mesh partition MESH --ranks R [--blocks N] [--partitioner P] [--seed S]\n"
	"                 [--refine K] -o DIR   (fvstar mesh partition --help)\n"
	"\n"
	"MESH: SU2 (.su2), Gmsh MSH 2.2/4.1 ASCII (.msh), CGNS (.cgns, one unstructured\n"
	"  zone) or fvstar's binary mesh (.fvm, doc/mesh-format.md). OUT (by extension):\n"
	"  .su2, .fvm, .cgns (when built with CGNS) or .vtu.\n"
	"convert: MESH to OUT, checked first; a .fvm holds the mesh exactly as read\n"
	"  (node, cell and marker order, file numbers), so runs from it match runs\n"
	"  from MESH bit for bit; files are written under a temporary name and renamed.\n"
	"A 2D SU2 mesh (NDIME= 2) becomes one layer of prisms and hexahedra in z, span 1\n"
	"  (--span S), between the markers symmetry_zmin and symmetry_zmax.\n"
	"gen box: markers xmin xmax ymin ymax zmin zmax; nx*ny*nz blocks, each one\n"
	"  hex, 6 tets, 2 prisms, or (mixed) a column-wise mix of all four types.\n"
	"gen ramp: a channel with a compression ramp of --angle degrees starting at\n"
	"  --x0 (fraction of the length), extruded in z; markers inlet outlet wall\n"
	"  top zmin zmax.\n"
	"gen plate: NASA TMR's 2D zero-pressure-gradient flat plate, one cell thick:\n"
	"  x in [-lead, length] (--lead 0.33333, --length 2; the plate is x >= 0),\n"
	"  y in [0, --height 1], z in [0, --span S] (default length / 20). --nx, --ny\n"
	"  count POINTS of the finest grid (default 545 x 385, TMR's); --level K (1..)\n"
	"  keeps every 2^(K-1)-th point, so levels 1-5 are TMR's nested 545x385 to\n"
	"  35x25. Spacings are the finest grid's: --y1 at the wall (5e-7, TMR's; or\n"
	"  --re R: y+ = 1 halfway along the plate at Reynolds number R per unit length),\n"
	"  --dx-le at x = 0 (both sides) and --dx-te at x = length (default 1/8 and\n"
	"  1/2 of the plate's mean spacing); --nlead N cells of the finest grid lie\n"
	"  ahead of the plate (default about 3/17 of them, 96 of 544). Markers inflow\n"
	"  outflow symmetry_front (y = 0, x < 0) wall (the plate) top side_zmin side_zmax.\n"
	"gen bump: NASA TMR's 2D bump in a channel, one cell thick: the no-slip wall\n"
	"  0 <= x <= 1.5 carries the bump y = 0.05 sin^4(pi x / 0.9 - pi / 3) on\n"
	"  [0.3, 1.2]; x in [-25, 26.5], y from the floor to 5, z in [0, --span S]\n"
	"  (default 0.1). --nx, --ny count POINTS of the finest grid (default 1409 x\n"
	"  641, TMR's; cells in x 3 : 5 : 3 ahead of, on and behind the wall);\n"
	"  --level K keeps every 2^(K-1)-th point, so levels 1-5 are TMR's nested\n"
	"  1409x641 to 89x41. --y1: the finest grid's wall spacing (5e-7). Markers\n"
	"  inflow outflow symmetry_front (x < 0) wall symmetry_back (x > 1.5) top\n"
	"  side_zmin side_zmax.\n"
	"--perturb F (<= 0.3) moves interior nodes randomly by up to 2F/3 spacings.\n"
	"refine: --levels K uniform refinements (default 1; each multiplies the cells by 8).\n"
	"--check builds faces and geometry, runs the checks and prints the report.\n"
	"color: face colours for race-free flux sums (greedy: Zhang 2022 Alg. 4;\n"
	"  minimal: Giuliani-Krivodonova, aims at the max faces per cell), group sizes.\n"
	"walldist: exact distance from each cell centroid to the nearest point of the\n"
	"  --wall markers' faces, on N threads (default 0: all processors); prints the\n"
	"  time and the range; -o writes the cells with the field wall_distance. box and\n"
	"  ramp generate the mesh (the gen options, --refine K) instead of reading one.\n";

/* The process's CPU seconds (user and system) so far. */
static double cpu_seconds(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/* One step's line: wall and CPU seconds since the last line (the CPU's
 * tell the work on a loaded machine, their ratio the threads' use). */
static void report(const char *what, double t0, const fv_mesh_t *m)
{
	static double cpu0;
	double cpu = cpu_seconds();
	fprintf(stderr, "fvstar: %s: %.3f s (%d cells, %d nodes, peak RSS %.1f MB, %.3f s of CPU)\n", what,
		fv_now() - t0, (int)m->n_cells, (int)m->n_nodes, (double)fv_peak_rss() / 1e6, cpu - cpu0);
	cpu0 = cpu;
}

static fv_err_t prepare_and_print(fv_mesh_t *m, double tol)
{
	fv_mesh_stats_t s;
	double t0 = fv_now();
	FV_CALL(fv_mesh_build_faces(m));
	FV_CALL(fv_mesh_build_node_cells(m));
	report("connectivity", t0, m);
	t0 = fv_now();
	FV_CALL(fv_mesh_compute_geometry(m));
	report("geometry", t0, m);
	t0 = fv_now();
	fv_err_t err = fv_mesh_check(m, tol, &s);
	report("checks", t0, m);
	fv_mesh_print_info(m, &s, stdout);
	printf("checks: %s\n", err == FV_OK ? "passed" : "FAILED");
	return err;
}

static fv_err_t write_mesh(const fv_mesh_t *m, const char *out)
{
	double t0 = fv_now();
	FV_CALL(fv_mesh_write(m, out));
	report("write", t0, m);
	fprintf(stderr, "fvstar: wrote %s\n", out);
	return FV_OK;
}

static fv_err_t refine_levels(fv_mesh_t *m, long levels)
{
	for (long l = 0; l < levels; l++) {
		fv_mesh_t fine;
		double t0 = fv_now();
		fv_mesh_init(&fine);
		fv_err_t err = fv_mesh_refine(m, &fine);
		if (err != FV_OK) {
			fv_mesh_free(&fine);
			return err;
		}
		fv_mesh_free(m);
		*m = fine;
		report("refine", t0, m);
	}
	return FV_OK;
}

/* Colours of both methods, with the group sizes and the lower bound. */
static fv_err_t color_report(fv_mesh_t *m, int methods)
{
	static const char *names[] = {"greedy", "minimal"};
	if (!m->face_cell)
		FV_CALL(fv_mesh_build_faces(m));
	for (int meth = 0; meth < 2; meth++) {
		fv_coloring_t c;
		if (!(methods & (1 << meth)))
			continue;
		fv_coloring_init(&c);
		double t0 = fv_now();
		fv_err_t err = fv_color_faces(m->n_cells, m->n_faces, m->face_cell, (fv_color_method_t)meth, &c);
		double ms = 1e3 * (fv_now() - t0);
		if (err == FV_OK)
			err = fv_color_check(m->n_cells, m->n_faces, m->face_cell, &c);
		if (err != FV_OK) {
			fv_coloring_free(&c);
			return err;
		}
		printf("%s: %d colours, lower bound %d (max faces per cell), %.1f ms\n", names[meth], c.n_colors,
		       c.lower_bound, ms);
		if (meth == FV_COLOR_MINIMAL)
			printf("  %d conflicts after the greedy pass, %lld faces swapped, %lld loop breaks, "
			       "%d faces above the bound\n",
			       (int)c.n_conflicts, (long long)c.n_swaps, (long long)c.n_loop_breaks, (int)c.n_fallback);
		printf("  colour   ");
		for (int k = 0; k < c.n_colors; k++)
			printf(" %9d", k);
		printf("\n  interior ");
		for (int k = 0; k < c.n_colors; k++)
			printf(" %9d", (int)(c.group_size[k] - c.group_bsize[k]));
		printf("\n  boundary ");
		for (int k = 0; k < c.n_colors; k++)
			printf(" %9d", (int)c.group_bsize[k]);
		printf("\n");
		fv_coloring_free(&c);
	}
	return FV_OK;
}

static int is_generator(const char *s)
{
	return strcmp(s, "box") == 0 || strcmp(s, "ramp") == 0 || strcmp(s, "plate") == 0 || strcmp(s, "bump") == 0;
}

enum { OPT_CELLS = 256, OPT_NX, OPT_NY, OPT_NZ, OPT_LO, OPT_HI, OPT_PERTURB, OPT_SEED, OPT_ANGLE, OPT_X0,
       OPT_REFINE, OPT_LEVELS, OPT_CHECK, OPT_TOL, OPT_METHOD, OPT_SPAN, OPT_LEVEL, OPT_NLEAD, OPT_LENGTH,
       OPT_LEAD, OPT_HEIGHT, OPT_Y1, OPT_RE, OPT_DX_LE, OPT_DX_TE, OPT_WALL, OPT_THREADS };

static const struct option long_opts[] = {
	{"cells", required_argument, NULL, OPT_CELLS}, {"nx", required_argument, NULL, OPT_NX},
	{"ny", required_argument, NULL, OPT_NY},       {"nz", required_argument, NULL, OPT_NZ},
	{"lo", required_argument, NULL, OPT_LO},       {"hi", required_argument, NULL, OPT_HI},
	{"perturb", required_argument, NULL, OPT_PERTURB}, {"seed", required_argument, NULL, OPT_SEED},
	{"angle", required_argument, NULL, OPT_ANGLE}, {"x0", required_argument, NULL, OPT_X0},
	{"refine", required_argument, NULL, OPT_REFINE}, {"levels", required_argument, NULL, OPT_LEVELS},
	{"check", no_argument, NULL, OPT_CHECK},       {"tol", required_argument, NULL, OPT_TOL},
	{"output", required_argument, NULL, 'o'},      {"help", no_argument, NULL, 'h'},
	{"method", required_argument, NULL, OPT_METHOD}, {"span", required_argument, NULL, OPT_SPAN},
	{"level", required_argument, NULL, OPT_LEVEL}, {"nlead", required_argument, NULL, OPT_NLEAD},
	{"length", required_argument, NULL, OPT_LENGTH}, {"lead", required_argument, NULL, OPT_LEAD},
	{"height", required_argument, NULL, OPT_HEIGHT}, {"y1", required_argument, NULL, OPT_Y1},
	{"re", required_argument, NULL, OPT_RE},       {"dx-le", required_argument, NULL, OPT_DX_LE},
	{"dx-te", required_argument, NULL, OPT_DX_TE},   {"wall", required_argument, NULL, OPT_WALL},
	{"threads", required_argument, NULL, OPT_THREADS},
	{NULL, 0, NULL, 0}};

typedef struct mesh_args {
	const char *sub;       /* info gen refine convert color walldist */
	const char *input;     /* MESH, or box|ramp|plate|bump for gen */
	const char *output;
	fv_gen_opts_t gen;
	long levels;
	int check;
	double tol;
	double span;           /* 2D meshes: extrusion span, 0 = the reader's;
	                          gen plate, bump: its span */
	int nx_set, ny_set;    /* -n, --nx, --ny given: gen plate's or bump's points */
	int y1_set;
	int plate_opt;         /* an option only gen plate and bump take, or 0 */
	int plate_only_opt;    /* an option only gen plate takes, or 0 */
	int help;
	int color_methods;     /* color: bit 0 greedy, bit 1 minimal */
	const char *walls;     /* walldist: wall markers, comma-separated */
	int threads;           /* walldist: 0 = all processors */
} mesh_args_t;

/* walldist needs the centroids only: faces and geometry, no checks, so
 * that the timings of large benchmarks are the distance's. */
static fv_err_t walldist_report(fv_mesh_t *m, const mesh_args_t *a)
{
	double t0 = fv_now();
	if (!m->face_cell)
		FV_CALL(fv_mesh_build_faces(m));
	if (!m->cell_ctr)
		FV_CALL(fv_mesh_compute_geometry(m));
	report("faces and geometry", t0, m);
	return fv_app_walldist(m, a->walls, a->threads, a->output);
}

static fv_err_t parse_gen_cells(const char *s, fv_gen_cells_t *c)
{
	static const char *names[] = {"hex", "tet", "prism", "mixed"};
	for (int k = 0; k < 4; k++)
		if (strcmp(s, names[k]) == 0) {
			*c = (fv_gen_cells_t)k;
			return FV_OK;
		}
	return FV_ERROR(FV_ERR_ARG, "option --cells: '%s' is not hex, tet, prism or mixed", s);
}

static fv_err_t parse_color_method(const char *s, int *methods)
{
	static const char *names[] = {"greedy", "minimal", "both"};
	for (int k = 0; k < 3; k++)
		if (strcmp(s, names[k]) == 0) {
			*methods = k + 1;
			return FV_OK;
		}
	return FV_ERROR(FV_ERR_ARG, "option --method: '%s' is not greedy, minimal or both", s);
}

/* The plate's and the bump's options; *done = 0 for an option that is not
 * one of them. --level and --y1 mean the same to both. */
static fv_err_t parse_plate_opt(int c, const char *s, mesh_args_t *a, int *done)
{
	fv_gen_plate_t *p = &a->gen.plate;
	long v;
	*done = 1;
	switch (c) {
	case OPT_LEVEL:
		FV_CALL(fv_opt_long("--level", s, 1, 12, &v));
		p->level = a->gen.bump.level = (int)v;
		return FV_OK;
	case OPT_Y1:
		FV_CALL(fv_opt_double("--y1", s, 1e-15, 1e12, &p->y1));
		a->gen.bump.y1 = p->y1;
		a->y1_set = 1;
		return FV_OK;
	case OPT_NLEAD: FV_CALL(fv_opt_long("--nlead", s, 1, 100000, &v)); p->nx_lead = (int)v; break;
	case OPT_LENGTH: FV_CALL(fv_opt_double("--length", s, 1e-12, 1e12, &p->length)); break;
	case OPT_LEAD: FV_CALL(fv_opt_double("--lead", s, 1e-12, 1e12, &p->lead)); break;
	case OPT_HEIGHT: FV_CALL(fv_opt_double("--height", s, 1e-12, 1e12, &p->height)); break;
	case OPT_RE: FV_CALL(fv_opt_double("--re", s, 1, 1e12, &p->re)); break;
	case OPT_DX_LE: FV_CALL(fv_opt_double("--dx-le", s, 1e-15, 1e12, &p->dx_le)); break;
	case OPT_DX_TE: FV_CALL(fv_opt_double("--dx-te", s, 1e-15, 1e12, &p->dx_te)); break;
	default: *done = 0; return FV_OK;
	}
	a->plate_only_opt = c;
	return FV_OK;
}

/* The name of option val of long_opts. */
static const char *opt_name(int val)
{
	for (const struct option *o = long_opts; o->name; o++)
		if (o->val == val)
			return o->name;
	return "?";
}

/* gen plate and gen bump count points with --nx --ny (TMR's way) and take
 * --span. */
static fv_err_t plate_args(mesh_args_t *a)
{
	fv_gen_plate_t *p = &a->gen.plate;
	fv_gen_bump_t *b = &a->gen.bump;
	int gen = strcmp(a->sub, "gen") == 0 || strcmp(a->sub, "walldist") == 0;
	int plate = gen && strcmp(a->input, "plate") == 0, bump = gen && strcmp(a->input, "bump") == 0;
	/* not silently ignored: --level and --re once abbreviated --levels and --refine */
	FV_CHECK(plate || !a->plate_only_opt, FV_ERR_ARG, "fvstar mesh %s: --%s applies to gen plate only", a->sub,
		 opt_name(a->plate_only_opt));
	FV_CHECK(plate || bump || !a->plate_opt, FV_ERR_ARG, "fvstar mesh %s: --%s applies to gen plate and bump only",
		 a->sub, opt_name(a->plate_opt));
	if (!plate && !bump)
		return FV_OK;
	FV_CHECK(!(a->y1_set && p->re > 0), FV_ERR_ARG, "fvstar mesh gen plate: --y1 and --re both set the wall spacing");
	if (a->nx_set)
		p->nx = b->nx = a->gen.nx;
	if (a->ny_set)
		p->ny = b->ny = a->gen.ny;
	p->span = b->span = a->span;
	a->span = 0;
	return FV_OK;
}

static fv_err_t parse_args(int argc, char **argv, mesh_args_t *a)
{
	long v;
	int c;
	memset(a, 0, sizeof *a);
	fv_gen_opts_default(&a->gen);
	a->color_methods = 3;
	a->sub = argv[1];
	a->levels = strcmp(a->sub, "refine") == 0; /* refine: one level unless --levels says */
	optind = 2;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":n:o:h", long_opts, NULL)) != -1) {
		int done;
		FV_CALL(parse_plate_opt(c, optarg, a, &done));
		if (done) {
			a->plate_opt = c;
			continue;
		}
		switch (c) {
		case 'n':
			FV_CALL(fv_opt_long("-n", optarg, 1, 100000, &v));
			a->gen.nx = a->gen.ny = a->gen.nz = (int)v;
			a->nx_set = a->ny_set = 1;
			break;
		case OPT_NX: FV_CALL(fv_opt_long("--nx", optarg, 1, 100000, &v)); a->gen.nx = (int)v; a->nx_set = 1; break;
		case OPT_NY: FV_CALL(fv_opt_long("--ny", optarg, 1, 100000, &v)); a->gen.ny = (int)v; a->ny_set = 1; break;
		case OPT_NZ: FV_CALL(fv_opt_long("--nz", optarg, 1, 100000, &v)); a->gen.nz = (int)v; break;
		case OPT_CELLS: FV_CALL(parse_gen_cells(optarg, &a->gen.cells)); break;
		case OPT_LO: FV_CALL(fv_opt_vec3("--lo", optarg, a->gen.lo)); break;
		case OPT_HI: FV_CALL(fv_opt_vec3("--hi", optarg, a->gen.hi)); break;
		case OPT_PERTURB: FV_CALL(fv_opt_double("--perturb", optarg, 0, 0.3, &a->gen.perturb)); break;
		case OPT_SEED: FV_CALL(fv_opt_long("--seed", optarg, 0, 2147483647L, &v)); a->gen.seed = (unsigned long)v; break;
		case OPT_ANGLE: FV_CALL(fv_opt_double("--angle", optarg, 0, 45, &a->gen.ramp_angle_deg)); break;
		case OPT_X0: FV_CALL(fv_opt_double("--x0", optarg, 0, 1, &a->gen.ramp_x0)); break;
		case OPT_REFINE:
		case OPT_LEVELS: FV_CALL(fv_opt_long(c == OPT_REFINE ? "--refine" : "--levels", optarg, 0, 6, &a->levels)); break;
		case OPT_CHECK: a->check = 1; break;
		case OPT_TOL: FV_CALL(fv_opt_double("--tol", optarg, 0, 1, &a->tol)); break;
		case OPT_METHOD: FV_CALL(parse_color_method(optarg, &a->color_methods)); break;
		case OPT_SPAN: FV_CALL(fv_opt_double("--span", optarg, 1e-12, 1e12, &a->span)); break;
		case OPT_WALL: a->walls = optarg; break;
		case OPT_THREADS: FV_CALL(fv_opt_long("--threads", optarg, 0, 1024, &v)); a->threads = (int)v; break;
		case 'o': a->output = optarg; break;
		case 'h': a->help = 1; break;
		case ':': return FV_ERROR(FV_ERR_ARG, "option %s needs a value", argv[optind - 1]);
		default: return FV_ERROR(FV_ERR_ARG, "unknown option '%s' for fvstar mesh %s", argv[optind - 1], a->sub);
		}
	}
	if (a->help)
		return FV_OK;
	FV_CHECK(optind < argc, FV_ERR_ARG, "fvstar mesh %s: missing %s", a->sub,
		 strcmp(a->sub, "gen") == 0 ? "kind (box, ramp, plate or bump)" : "mesh file");
	a->input = argv[optind++];
	FV_CHECK(optind == argc, FV_ERR_ARG, "fvstar mesh %s: unexpected argument '%s'", a->sub, argv[optind]);
	FV_CALL(plate_args(a));
	return FV_OK;
}

fv_err_t fv_cmd_mesh(int argc, char **argv)
{
	mesh_args_t a;
	fv_mesh_t m;
	fv_err_t err = FV_OK;
	double t0;
	const char *sub = argc > 1 ? argv[1] : "";
	const int walldist = strcmp(sub, "walldist") == 0;

	if (argc < 2 || strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
		fputs(mesh_usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? FV_ERROR(FV_ERR_ARG, "fvstar mesh: missing sub-command") : FV_OK;
	}
	if (strcmp(sub, "partition") == 0)
		return fv_cmd_partition(argc, argv);
	FV_CHECK(strcmp(sub, "info") == 0 || strcmp(sub, "gen") == 0 || strcmp(sub, "refine") == 0 ||
			 strcmp(sub, "convert") == 0 || strcmp(sub, "color") == 0 || strcmp(sub, "walldist") == 0,
		 FV_ERR_ARG, "unknown mesh sub-command '%s' (info, gen, refine, convert, color, walldist, partition)",
		 sub);
	FV_CALL(parse_args(argc, argv, &a));
	if (a.help) {
		fputs(mesh_usage, stdout);
		return FV_OK;
	}
	FV_CHECK(strcmp(sub, "info") == 0 || strcmp(sub, "color") == 0 || walldist || a.output, FV_ERR_ARG,
		 "fvstar mesh %s: missing -o OUT", sub);
	FV_CHECK(!a.walls || walldist, FV_ERR_ARG, "fvstar mesh %s: --wall applies to walldist", sub);
	FV_CHECK(a.walls || !walldist, FV_ERR_ARG, "fvstar mesh walldist: missing --wall MARKER[,MARKER...]");

	FV_CHECK(a.span == 0 || strcmp(sub, "gen") != 0, FV_ERR_ARG,
		 "fvstar mesh gen: --span applies to plate, bump and to 2D mesh files");
	fv_mesh_init(&m);
	t0 = fv_now();
	if (strcmp(sub, "gen") == 0 || (walldist && is_generator(a.input))) {
		if (strcmp(a.input, "box") == 0)
			err = fv_mesh_gen_box(&m, &a.gen);
		else if (strcmp(a.input, "ramp") == 0)
			err = fv_mesh_gen_ramp(&m, &a.gen);
		else if (strcmp(a.input, "plate") == 0)
			err = fv_mesh_gen_plate(&m, &a.gen);
		else if (strcmp(a.input, "bump") == 0)
			err = fv_mesh_gen_bump(&m, &a.gen);
		else
			err = FV_ERROR(FV_ERR_ARG, "fvstar mesh gen: unknown kind '%s' (box, ramp, plate or bump)", a.input);
		if (err == FV_OK)
			report("generate", t0, &m);
	} else {
		err = fv_mesh_read(&m, a.input);
		if (err == FV_OK && a.span > 0)
			err = fv_mesh_set_extrude_span(&m, a.span);
		if (err == FV_OK)
			report("read", t0, &m);
	}
	if (err == FV_OK && strcmp(sub, "info") != 0 && a.levels > 0)
		err = refine_levels(&m, a.levels);
	/* info and convert always check: a converted mesh must be valid */
	if (err == FV_OK && (a.check || strcmp(sub, "info") == 0 || strcmp(sub, "convert") == 0))
		err = prepare_and_print(&m, a.tol);
	if (err == FV_OK && strcmp(sub, "color") == 0)
		err = color_report(&m, a.color_methods);
	if (err == FV_OK && walldist)
		err = walldist_report(&m, &a);
	else if (err == FV_OK && a.output)
		err = write_mesh(&m, a.output);
	fv_mesh_free(&m);
	return err;
}
