/* SPDX-License-Identifier: MIT */
/* `fvstar surface CASE.cfg`: the wall pressure coefficient of a run's
 * restart cut at span stations, as CSV beside the wind-tunnel data. */
#define _GNU_SOURCE /* getopt_long */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "fvstar/case.h"
#include "fvstar/output.h"
#include "fvstar/post.h"

#define MAX_STATIONS 64

static const char surface_usage[] =
	"usage: fvstar surface CASE.cfg [section.key=value ...] [--stations E1,E2,...] [--span B]\n"
	"                      [--exp FILE] [--out DIR] [--restart FILE] [--nominal-chord]\n"
	"\n"
	"Cuts the wall ([forces] markers, or every wall marker) of the run's restart\n"
	"(OUT/restart.bin of the case; --restart to name another) at y = eta * B and\n"
	"writes, per station, DIR/cp_etaE.csv: x_over_c, z_over_c, cp, surface\n"
	"(upper|lower), x, y, z; DIR/stations.csv lists LE, TE and chords;\n"
	"DIR/surface.vtu is the wall with Cp at nodes and faces (ParaView).\n"
	"Cp = (p - p_inf) / (rho_inf |V_inf|^2 / 2) from the cell at each wall face,\n"
	"averaged to the nodes by face area and interpolated along the cut.\n"
	"  --stations  2y/b of the stations (default the ONERA M6 sections:\n"
	"              0.2,0.44,0.65,0.8,0.9,0.96,0.99)\n"
	"  --span B    semi-span (default 1.1963, the M6 in metres)\n"
	"  --exp FILE  Tecplot file of measured Cp (AGARD AR-138 layout): writes\n"
	"              DIR/exp_etaE.csv for the stations of its sections\n"
	"  --out DIR   output directory (default OUT/surface)\n"
	"  --nominal-chord  x/c from the M6 planform scaled to B (LE sweep 30 deg,\n"
	"              c(y) = c_root - y (tan 30 - tan 15.8)) instead of the cut's\n"
	"              own LE (min x) and chord (max x - min x)\n";

typedef struct surface_args {
	const char *case_path;
	char **sets;
	int n_sets;
	double eta[MAX_STATIONS];
	int n_eta;
	double span;
	const char *exp, *out, *restart;
	int nominal;
	int help;
} surface_args_t;

static fv_err_t parse_list(const char *s, double *v, int *n)
{
	const char *p = s;
	char *end;
	*n = 0;
	for (;;) {
		FV_CHECK(*n < MAX_STATIONS, FV_ERR_ARG, "option --stations: more than %d stations", MAX_STATIONS);
		errno = 0;
		v[*n] = strtod(p, &end);
		FV_CHECK(end != p && errno == 0 && v[*n] > 0 && v[*n] <= 1 && (*end == ',' || !*end), FV_ERR_ARG,
			 "option --stations: '%s' is not a list of 2y/b in (0, 1]", s);
		(*n)++;
		if (!*end)
			return FV_OK;
		p = end + 1;
	}
}

enum { OPT_STATIONS = 256, OPT_SPAN, OPT_EXP, OPT_OUT, OPT_RESTART, OPT_NOMINAL };

static fv_err_t parse_args(int argc, char **argv, surface_args_t *a)
{
	static const struct option opts[] = {
		{"stations", required_argument, NULL, OPT_STATIONS}, {"span", required_argument, NULL, OPT_SPAN},
		{"exp", required_argument, NULL, OPT_EXP},           {"out", required_argument, NULL, OPT_OUT},
		{"restart", required_argument, NULL, OPT_RESTART},   {"nominal-chord", no_argument, NULL, OPT_NOMINAL},
		{"help", no_argument, NULL, 'h'},                    {NULL, 0, NULL, 0}};
	int c;
	memset(a, 0, sizeof *a);
	memcpy(a->eta, fv_m6_station_eta, sizeof fv_m6_station_eta);
	a->n_eta = FV_M6_N_STATIONS;
	a->span = 1.1963;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_STATIONS: FV_CALL(parse_list(optarg, a->eta, &a->n_eta)); break;
		case OPT_SPAN: FV_CALL(fv_opt_double("--span", optarg, 1e-12, 1e12, &a->span)); break;
		case OPT_EXP: a->exp = optarg; break;
		case OPT_OUT: a->out = optarg; break;
		case OPT_RESTART: a->restart = optarg; break;
		case OPT_NOMINAL: a->nominal = 1; break;
		case 'h': a->help = 1; return FV_OK;
		case ':': return FV_ERROR(FV_ERR_ARG, "option %s needs a value", argv[optind - 1]);
		default: return FV_ERROR(FV_ERR_ARG, "unknown option '%s' for fvstar surface", argv[optind - 1]);
		}
	}
	/* getopt_long moved the operands to the end: CASE.cfg, then keys */
	FV_CHECK(optind < argc, FV_ERR_ARG,
		 "usage: fvstar surface CASE.cfg [section.key=value ...] [OPTIONS] (--help lists them)");
	a->case_path = argv[optind];
	a->sets = argv + optind + 1;
	a->n_sets = argc - optind - 1;
	return FV_OK;
}

/* Cp on the wall faces from the state of the owner cells. */
static fv_err_t wall_cp(const fv_case_t *c, const fv_mesh_t *m, const fv_surface_t *s, const fv_real_t *q,
			double *cp, long *n_bad)
{
	double winf[5], qinf;
	size_t n = (size_t)m->n_cells;
	fv_case_freestream(c, winf);
	qinf = 0.5 * winf[0] * (winf[1] * winf[1] + winf[2] * winf[2] + winf[3] * winf[3]);
	FV_CHECK(qinf > 0, FV_ERR_ARG, "%s: Cp needs a moving free stream ([flow] mach = 0)", c->path);
	*n_bad = 0;
	for (fv_idx_t f = 0; f < s->n_faces; f++) {
		size_t i = (size_t)m->face_cell[2 * (size_t)s->face_mesh[f]];
		double rho = q[i], mx = q[n + i], my = q[2 * n + i], mz = q[3 * n + i], rhoE = q[4 * n + i];
		double p = (c->gamma - 1) * (rhoE - 0.5 * (mx * mx + my * my + mz * mz) / rho);
		cp[f] = (p - winf[4]) / qinf;
		if (!(rho > 0 && p > 0 && isfinite(cp[f])))
			(*n_bad)++;
	}
	return FV_OK;
}

static void station_name(char *buf, size_t n, const char *dir, const char *prefix, double eta)
{
	/* 0.2 -> eta0.20; finer stations keep their digits */
	if (fabs(eta * 100 - round(eta * 100)) < 1e-9)
		snprintf(buf, n, "%s/%s_eta%.2f.csv", dir, prefix, eta);
	else
		snprintf(buf, n, "%s/%s_eta%g.csv", dir, prefix, eta);
}

/* The M6 section (1..7) of a station, or 0. */
static int m6_section(double eta)
{
	for (int k = 0; k < FV_M6_N_STATIONS; k++)
		if (fabs(eta - fv_m6_station_eta[k]) < 1e-6)
			return k + 1;
	return 0;
}

fv_err_t fv_cmd_surface(int argc, char **argv)
{
	surface_args_t a;
	fv_case_t c;
	fv_mesh_t m;
	fv_restart_t rs;
	fv_surface_t s;
	fv_cut_t cut;
	fv_station_t st;
	fv_expdata_t exp;
	fv_mesh_id_t id;
	uint8_t *wall = NULL;
	double *face_cp = NULL, *node_cp = NULL;
	FILE *sf = NULL;
	long n_bad = 0;
	fv_err_t err = FV_OK;
	char dir[FV_CASE_PATH_MAX + 16], path[2 * FV_CASE_PATH_MAX + 64], restart[FV_CASE_PATH_MAX + 16];

	FV_CALL(parse_args(argc, argv, &a));
	if (a.help) {
		fputs(surface_usage, stdout);
		return FV_OK;
	}
	fv_case_default(&c);
	FV_CALL(fv_case_read(&c, a.case_path));
	for (int i = 0; i < a.n_sets; i++)
		FV_CALL(fv_case_set_arg(&c, a.sets[i], "command line"));
	FV_CALL(fv_case_finish(&c));
	snprintf(dir, sizeof dir, "%s", a.out ? a.out : c.out_dir);
	if (!a.out)
		strncat(dir, "/surface", sizeof dir - strlen(dir) - 1);
	snprintf(restart, sizeof restart, "%s%s", a.restart ? a.restart : c.out_dir, a.restart ? "" : "/restart.bin");

	fv_mesh_init(&m);
	fv_surface_init(&s);
	fv_cut_init(&cut);
	memset(&rs, 0, sizeof rs);
	memset(&st, 0, sizeof st);
	memset(&exp, 0, sizeof exp);
	if (a.exp)
		FV_CALL_GOTO(err, out, fv_expdata_read(&exp, a.exp));
	/* the mesh as read (and refined) is in file order, the restart's */
	FV_CALL_GOTO(err, out, fv_app_load_mesh(&c, &m));
	FV_CALL_GOTO(err, out, fv_mesh_identity(&m, &id));
	FV_CALL_GOTO(err, out, fv_restart_read(restart, &rs, &id, m.source));

	FV_CALL_GOTO(err, out, fv_calloc(&wall, (size_t)m.n_markers + 1, 1, "wall markers"));
	FV_CALL_GOTO(err, out, fv_case_force_markers(&c, &m, wall));
	{
		int any = 0;
		for (int k = 0; k < m.n_markers; k++)
			any |= wall[k];
		if (!any) {
			err = FV_ERROR(FV_ERR_ARG, "%s: no wall marker: name them in [forces] markers or set one to wall "
					      "in [bc]", c.path);
			goto out;
		}
	}
	FV_CALL_GOTO(err, out, fv_surface_extract(&s, &m, wall));
	FV_CALL_GOTO(err, out, fv_malloc(&face_cp, (size_t)s.n_faces, sizeof *face_cp, "wall Cp"));
	FV_CALL_GOTO(err, out, fv_malloc(&node_cp, (size_t)s.n_nodes, sizeof *node_cp, "wall Cp"));
	FV_CALL_GOTO(err, out, wall_cp(&c, &m, &s, rs.q, face_cp, &n_bad));
	FV_CALL_GOTO(err, out, fv_surface_face_to_node(&s, face_cp, node_cp));
	fprintf(stderr,
		"fvstar: %s: iteration %lld (a run of %d blocks); wall: %d faces, %d nodes%s\n", restart,
		(long long)rs.iteration, rs.n_blocks, (int)s.n_faces, (int)s.n_nodes,
		n_bad ? " (with non-physical states)" : "");
	if (n_bad)
		fprintf(stderr, "fvstar: warning: %ld wall faces have rho <= 0 or p <= 0\n", n_bad);

	FV_CALL_GOTO(err, out, fv_output_mkdir(dir));
	snprintf(path, sizeof path, "%s/surface.vtu", dir);
	FV_CALL_GOTO(err, out, fv_surface_write_vtu(path, &s, "cp", node_cp, face_cp));
	snprintf(path, sizeof path, "%s/stations.csv", dir);
	sf = fopen(path, "w");
	if (!sf) {
		err = FV_ERROR(FV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
		goto out;
	}
	fprintf(sf, "eta,y,curves,n_upper,n_lower,x_le,z_le,x_te,z_te,chord,x_le_nominal,chord_nominal,x_over_c_from,"
		    "cp_min,cp_max\n");
	printf("%6s %9s %6s %6s %10s %10s %10s %9s %9s\n", "2y/b", "y", "upper", "lower", "x_le", "chord",
	       "chord_nom", "cp_min", "cp_max");
	for (int k = 0; k < a.n_eta; k++) {
		fv_planform_t pf;
		double y = a.eta[k] * a.span, lo = HUGE_VAL, hi = -HUGE_VAL;
		int sec = m6_section(a.eta[k]);
		fv_planform_onera_m6(&pf, a.span);
		FV_CALL_GOTO(err, out, fv_surface_cut(&s, node_cp, 1, y, &cut));
		FV_CALL_GOTO(err, out, fv_station_from_cut(&cut, a.eta[k], y, &pf, a.nominal, &st));
		for (fv_idx_t i = 0; i < st.n_upper + st.n_lower; i++) {
			lo = fmin(lo, st.pt[i].value);
			hi = fmax(hi, st.pt[i].value);
		}
		if (st.n_curves != 1)
			fprintf(stderr, "fvstar: warning: station 2y/b = %g cuts the wall in %d curves\n", a.eta[k],
				st.n_curves);
		station_name(path, sizeof path, dir, "cp", a.eta[k]);
		FV_CALL_GOTO(err, out, fv_station_write_csv(&st, "cp", path));
		fprintf(sf, "%.10g,%.10g,%d,%d,%d,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%s,%.10g,%.10g\n", st.eta,
			st.y, st.n_curves, (int)st.n_upper, (int)st.n_lower, st.le[0], st.le[2], st.te[0], st.te[2],
			st.chord, st.x_le_nominal, st.chord_nominal, a.nominal ? "nominal" : "measured", lo, hi);
		printf("%6.3f %9.5f %6d %6d %10.5f %10.5f %10.5f %9.4f %9.4f\n", st.eta, st.y, (int)st.n_upper,
		       (int)st.n_lower, st.le[0], st.chord, st.chord_nominal, lo, hi);
		fv_station_free(&st);
		if (a.exp) {
			const fv_exp_zone_t *z = sec ? fv_expdata_section(&exp, sec) : NULL;
			if (!z) {
				fprintf(stderr, "fvstar: %s has no section for 2y/b = %g\n", a.exp, a.eta[k]);
				continue;
			}
			station_name(path, sizeof path, dir, "exp", a.eta[k]);
			FV_CALL_GOTO(err, out, fv_exp_zone_write_csv(z, path));
		}
	}
	{
		int bad = ferror(sf);
		bad |= fclose(sf) != 0;
		sf = NULL;
		if (bad) {
			err = FV_ERROR(FV_ERR_IO, "%s/stations.csv: write failed", dir);
			goto out;
		}
	}
	fprintf(stderr, "fvstar: %d stations in %s (cp_eta*.csv%s, stations.csv)\n", a.n_eta, dir,
		a.exp ? ", exp_eta*.csv" : "");
out:
	if (sf)
		fclose(sf);
	fv_station_free(&st);
	fv_cut_free(&cut);
	fv_surface_free(&s);
	fv_restart_free(&rs);
	fv_expdata_free(&exp);
	fv_mesh_free(&m);
	free(wall);
	free(face_cp);
	free(node_cp);
	return err;
}
