/* SPDX-License-Identifier: MIT */
/* Unit tests of the surface post-processing: plane cuts of surfaces with
 * exact answers (box boundaries of every cell type, an L-shaped open
 * surface, a sphere within its stated discretisation error), face-to-node
 * averaging, span stations of a swept wing, and the reader of the ONERA M6
 * wind-tunnel file (cases/onera_m6/onera_m6_exp_2308.dat, AGARD AR-138 test
 * 2308) with malformed variants.
 * Run by `make check`; needs top_srcdir in the environment for the data. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fvstar/post.h"

#define PI 3.14159265358979323846

/* A linear function of position: cut values must reproduce it. */
static double lin(const double *p)
{
	return 0.3 + 1.1 * p[0] - 2.3 * p[1] + 0.7 * p[2];
}

static void box_mesh(fv_mesh_t *m, fv_gen_cells_t cells, const double lo[3], const double hi[3])
{
	fv_gen_opts_t o;
	fv_gen_opts_default(&o);
	o.cells = cells;
	o.nx = 3, o.ny = 4, o.nz = 5;
	memcpy(o.lo, lo, sizeof o.lo);
	memcpy(o.hi, hi, sizeof o.hi);
	fv_mesh_init(m);
	FV_ASSERT_OK(fv_mesh_gen_box(m, &o));
	FV_ASSERT_OK(fv_mesh_prepare(m));
}

static double *node_lin(const fv_surface_t *s)
{
	double *v = malloc((size_t)s->n_nodes * sizeof *v);
	assert_non_null(v);
	for (fv_idx_t i = 0; i < s->n_nodes; i++)
		v[i] = lin(s->xyz + 3 * (size_t)i);
	return v;
}

/* Every point on the plane exactly, its value the linear function to
 * round-off, no point repeated next to itself. */
static void check_points(const fv_cut_t *c, int axis, double c0)
{
	for (int k = 0; k < c->n_curves; k++)
		for (fv_idx_t i = c->curve_off[k]; i < c->curve_off[k + 1]; i++) {
			const double *p = c->xyz + 3 * (size_t)i;
			assert_true(p[axis] == c0);
			FV_ASSERT_NEAR(c->value[i], lin(p), 1e-14);
			if (i > c->curve_off[k])
				assert_false(p[0] == p[-3] && p[1] == p[-2] && p[2] == p[-1]);
		}
}

/* The boundary of a box of each cell type (quads, triangles, both) cut
 * across each axis: one closed curve, the exact rectangle perimeter. */
static void test_box_cut(void **state)
{
	const double lo[3] = {-1, -0.5, 0.2}, hi[3] = {2, 1.5, 1.7};
	(void)state;
	for (int cells = FV_GEN_HEX; cells <= FV_GEN_MIXED; cells++) {
		fv_mesh_t m;
		fv_surface_t s;
		fv_cut_t c;
		uint8_t all[6] = {1, 1, 1, 1, 1, 1};
		box_mesh(&m, (fv_gen_cells_t)cells, lo, hi);
		assert_int_equal(m.n_markers, 6);
		fv_surface_init(&s);
		fv_cut_init(&c);
		FV_ASSERT_OK(fv_surface_extract(&s, &m, all));
		assert_int_equal(s.n_faces, m.n_bfaces);
		double *v = node_lin(&s);
		for (int axis = 0; axis < 3; axis++) {
			int a = (axis + 1) % 3, b = (axis + 2) % 3;
			double perim = 2 * ((hi[a] - lo[a]) + (hi[b] - lo[b]));
			/* inside a layer of cells, then on a layer of nodes */
			double at[2] = {lo[axis] + 0.37 * (hi[axis] - lo[axis]), lo[axis] + 0.6 * (hi[axis] - lo[axis])};
			if (axis == 1)
				at[1] = 0.5; /* ny = 4 over [-0.5, 1.5]: a node layer */
			for (int t = 0; t < 2; t++) {
				FV_ASSERT_OK(fv_surface_cut(&s, v, axis, at[t], &c));
				assert_int_equal(c.n_curves, 1);
				assert_true(c.closed[0]);
				check_points(&c, axis, at[t]);
				FV_ASSERT_NEAR(fv_cut_length(&c, 0), perim, 1e-14);
				for (fv_idx_t i = 0; i < c.n_points; i++) {
					const double *p = c.xyz + 3 * (size_t)i;
					/* on the rectangle: one of its coordinates at a bound */
					assert_true(p[a] == lo[a] || p[a] == hi[a] || p[b] == lo[b] || p[b] == hi[b]);
				}
			}
			/* outside: nothing, and no error */
			FV_ASSERT_OK(fv_surface_cut(&s, v, axis, hi[axis] + 1, &c));
			assert_int_equal(c.n_curves, 0);
			assert_int_equal(c.n_points, 0);
		}
		free(v);
		fv_cut_free(&c);
		fv_surface_free(&s);
		fv_mesh_free(&m);
	}
}

/* Two adjacent faces of the box (xmin and zmin): one open curve from
 * (xmin, y0, zmax) to (xmax, y0, zmin), of length Lz + Lx. */
static void test_open_cut(void **state)
{
	const double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 3};
	fv_mesh_t m;
	fv_surface_t s;
	fv_cut_t c;
	uint8_t use[6] = {0};
	int xmin = -1, zmin = -1;
	(void)state;
	box_mesh(&m, FV_GEN_MIXED, lo, hi);
	for (int k = 0; k < m.n_markers; k++) {
		if (strcmp(m.markers[k].name, "xmin") == 0)
			xmin = k;
		if (strcmp(m.markers[k].name, "zmin") == 0)
			zmin = k;
	}
	assert_true(xmin >= 0 && zmin >= 0);
	use[xmin] = use[zmin] = 1;
	fv_surface_init(&s);
	fv_cut_init(&c);
	FV_ASSERT_OK(fv_surface_extract(&s, &m, use));
	double *v = node_lin(&s);
	FV_ASSERT_OK(fv_surface_cut(&s, v, 1, 1.23, &c));
	assert_int_equal(c.n_curves, 1);
	assert_false(c.closed[0]);
	check_points(&c, 1, 1.23);
	FV_ASSERT_NEAR(fv_cut_length(&c, 0), 1 + 3, 1e-14);
	const double *p = c.xyz, *q = c.xyz + 3 * (size_t)(c.n_points - 1);
	if (p[0] != 0) {
		const double *t = p;
		p = q;
		q = t;
	}
	assert_true(p[0] == 0 && p[2] == 3);
	assert_true(q[0] == 1 && q[2] == 0);
	/* an empty marker set is an error */
	memset(use, 0, sizeof use);
	FV_ASSERT_ERR(fv_surface_extract(&s, &m, use), FV_ERR_ARG, "no boundary face");
	free(v);
	fv_cut_free(&c);
	fv_surface_free(&s);
	fv_mesh_free(&m);
}

/* An icosahedron refined `level` times, projected onto the sphere of radius
 * r around ctr. */
static void icosphere(int level, const double ctr[3], double r, fv_surface_t *s)
{
	const double g = (1 + sqrt(5.0)) / 2;
	const double v0[12][3] = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0}, {0, -1, g}, {0, 1, g},
				  {0, -1, -g}, {0, 1, -g}, {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
	const int f0[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
			       {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
			       {3, 8, 9},  {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
	int nv = 12, nf = 20, maxv = 12 + 30 * (1 << (2 * level)), maxf = 20 << (2 * level);
	double *xyz = malloc(3 * (size_t)maxv * sizeof *xyz);
	fv_idx_t *tri = malloc(3 * (size_t)maxf * sizeof *tri), *off;
	assert_true(xyz && tri);
	memcpy(xyz, v0, sizeof v0);
	for (int f = 0; f < 20; f++)
		for (int k = 0; k < 3; k++)
			tri[3 * f + k] = f0[f][k];
	for (int l = 0; l < level; l++) {
		/* midpoints by a linear search over the new ones: small sizes */
		fv_idx_t *nt = malloc(12 * (size_t)nf * sizeof *nt);
		int nv0 = nv;
		assert_non_null(nt);
		for (int f = 0; f < nf; f++) {
			fv_idx_t mid[3];
			for (int e = 0; e < 3; e++) {
				fv_idx_t a = tri[3 * f + e], b = tri[3 * f + (e + 1) % 3];
				double p[3];
				for (int k = 0; k < 3; k++)
					p[k] = 0.5 * (xyz[3 * a + k] + xyz[3 * b + k]);
				mid[e] = -1;
				for (int j = nv0; j < nv && mid[e] < 0; j++)
					if (xyz[3 * j] == p[0] && xyz[3 * j + 1] == p[1] && xyz[3 * j + 2] == p[2])
						mid[e] = j;
				if (mid[e] < 0) {
					memcpy(xyz + 3 * nv, p, sizeof p);
					mid[e] = nv++;
				}
			}
			fv_idx_t t[4][3] = {{tri[3 * f], mid[0], mid[2]},
					    {mid[0], tri[3 * f + 1], mid[1]},
					    {mid[2], mid[1], tri[3 * f + 2]},
					    {mid[0], mid[1], mid[2]}};
			memcpy(nt + 12 * f, t, sizeof t);
		}
		free(tri);
		tri = nt;
		nf *= 4;
		/* project only after the level: midpoints stay shared */
		for (int i = nv0; i < nv; i++) {
			double *p = xyz + 3 * i, n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
			for (int k = 0; k < 3; k++)
				p[k] /= n;
		}
	}
	for (int i = 0; i < nv; i++) {
		double *p = xyz + 3 * i, n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
		for (int k = 0; k < 3; k++)
			p[k] = ctr[k] + r * p[k] / n;
	}
	off = malloc(((size_t)nf + 1) * sizeof *off);
	assert_non_null(off);
	for (int f = 0; f <= nf; f++)
		off[f] = 3 * f;
	fv_surface_init(s);
	FV_ASSERT_OK(fv_surface_build(s, nv, xyz, nf, off, tri));
	assert_int_equal(s->n_nodes, nv);
	free(xyz);
	free(tri);
	free(off);
}

/*
 * A sphere of radius R: every cut point lies on a flat triangle whose
 * corners are on the sphere, so inside the ball and no nearer to the
 * centre than the triangle's plane, at sqrt(R^2 - rho^2) >= R - rho^2 / R
 * (rho: the triangle's circumradius). Hence R - rho_max^2 / R <= |p - c|
 * <= R, stated here with rho_max measured on the mesh (about 0.1 R at
 * level 3: |p - c| within 1% of R). The curve is closed and its length
 * within 1% of 2 pi r, r = sqrt(R^2 - (y0 - c_y)^2).
 */
static void test_sphere_cut(void **state)
{
	const double ctr[3] = {0.1, -0.2, 0.3}, R = 2, y0 = -0.2 + 0.7;
	fv_surface_t s;
	fv_cut_t c;
	double rho_max = 0, *v;
	(void)state;
	icosphere(3, ctr, R, &s);
	assert_int_equal(s.n_faces, 20 * 64);
	for (fv_idx_t f = 0; f < s.n_faces; f++) {
		const fv_idx_t *t = s.face_node + 3 * f;
		double e[3];
		for (int k = 0; k < 3; k++) {
			const double *a = s.xyz + 3 * (size_t)t[k], *b = s.xyz + 3 * (size_t)t[(k + 1) % 3];
			e[k] = sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
				    (a[2] - b[2]) * (a[2] - b[2]));
		}
		/* circumradius = abc / (4 area) */
		double rho = e[0] * e[1] * e[2] / (4 * s.face_area[f]);
		rho_max = fmax(rho_max, rho);
	}
	double bound = rho_max * rho_max / R;
	assert_true(bound < 0.01 * R);
	fv_cut_init(&c);
	v = node_lin(&s);
	FV_ASSERT_OK(fv_surface_cut(&s, v, 1, y0, &c));
	assert_int_equal(c.n_curves, 1);
	assert_true(c.closed[0]);
	check_points(&c, 1, y0);
	for (fv_idx_t i = 0; i < c.n_points; i++) {
		const double *p = c.xyz + 3 * (size_t)i;
		double d = sqrt((p[0] - ctr[0]) * (p[0] - ctr[0]) + (p[1] - ctr[1]) * (p[1] - ctr[1]) +
				(p[2] - ctr[2]) * (p[2] - ctr[2]));
		assert_true(d <= R * (1 + 1e-14));
		assert_true(d >= R - bound - 1e-14);
	}
	double r = sqrt(R * R - 0.7 * 0.7), len = fv_cut_length(&c, 0);
	FV_ASSERT_NEAR(len / (2 * PI * r), 1, 0.01);
	free(v);
	fv_cut_free(&c);
	fv_surface_free(&s);
}

/* Area weights: a triangle of area 1/2 and one of area 2 around a shared
 * edge; a quad's area from its diagonals. */
static void test_face_to_node(void **state)
{
	const double xyz[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 4, 4, 0, 0, 0, 1, 1, 0, 1};
	/* tri 0 1 2 (area 1/2), tri 1 3 2 (area 3.5), quad 0 1 5 4 (area 1) */
	const fv_idx_t off[] = {0, 3, 6, 10}, fn[] = {0, 1, 2, 1, 3, 2, 0, 1, 5, 4};
	const double fval[] = {1, 10, 100};
	double nval[6];
	fv_surface_t s;
	(void)state;
	fv_surface_init(&s);
	FV_ASSERT_OK(fv_surface_build(&s, 6, xyz, 3, off, fn));
	FV_ASSERT_NEAR(s.face_area[0], 0.5, 1e-15);
	FV_ASSERT_NEAR(s.face_area[1], 3.5, 1e-15);
	FV_ASSERT_NEAR(s.face_area[2], 1, 1e-15);
	FV_ASSERT_OK(fv_surface_face_to_node(&s, fval, nval));
	FV_ASSERT_NEAR(nval[0], (0.5 * 1 + 1 * 100) / 1.5, 1e-15);
	FV_ASSERT_NEAR(nval[1], (0.5 * 1 + 3.5 * 10 + 1 * 100) / 5, 1e-15);
	FV_ASSERT_NEAR(nval[2], (0.5 * 1 + 3.5 * 10) / 4, 1e-15);
	FV_ASSERT_NEAR(nval[3], 10, 1e-15);
	FV_ASSERT_NEAR(nval[4], 100, 1e-15);
	FV_ASSERT_NEAR(nval[5], 100, 1e-15);
	/* bad faces */
	const fv_idx_t off2[] = {0, 2}, off3[] = {0, 3}, fn3[] = {0, 1, 7};
	FV_ASSERT_ERR(fv_surface_build(&s, 6, xyz, 1, off2, fn), FV_ERR_ARG, "2 nodes");
	FV_ASSERT_ERR(fv_surface_build(&s, 6, xyz, 1, off3, fn3), FV_ERR_ARG, "node 7 of 6");
	fv_surface_free(&s);
}

/*
 * A swept, tapered wing of the M6 planform with an elliptic section
 * (x/c = (1 + cos t) / 2, z/c = 0.06 sin t), ruled between sections: its LE
 * and TE are straight lines, so at any y the cut's min-x and max-x points
 * are the planform's LE and TE, the measured chord equals c(y) to
 * round-off, and a node value equal to x is reproduced at every point.
 */
static void test_station(void **state)
{
	enum { NS = 7, NP = 40 };
	const double b = 1.1963;
	fv_planform_t pf;
	double xyz[3 * NS * NP], val[NS * NP];
	fv_idx_t off[(NS - 1) * NP + 1], fn[4 * (NS - 1) * NP];
	fv_surface_t s;
	fv_cut_t c;
	fv_station_t st, sn;
	(void)state;
	fv_planform_onera_m6(&pf, b);
	for (int j = 0; j < NS; j++) {
		double y = b * j / (NS - 1), xle = y * tan(30 * PI / 180),
		       ch = pf.c_root - y * (tan(30 * PI / 180) - tan(15.8 * PI / 180));
		for (int i = 0; i < NP; i++) {
			double t = 2 * PI * i / NP, *p = xyz + 3 * (j * NP + i);
			p[0] = xle + ch * (1 + cos(t)) / 2;
			p[1] = y;
			p[2] = ch * 0.06 * sin(t);
			val[j * NP + i] = p[0];
		}
	}
	for (int j = 0; j < NS - 1; j++)
		for (int i = 0; i < NP; i++) {
			int f = j * NP + i, i1 = (i + 1) % NP;
			fv_idx_t q[4] = {j * NP + i, j * NP + i1, (j + 1) * NP + i1, (j + 1) * NP + i};
			memcpy(fn + 4 * f, q, sizeof q);
			off[f] = 4 * f;
		}
	off[(NS - 1) * NP] = 4 * (NS - 1) * NP;
	fv_surface_init(&s);
	fv_cut_init(&c);
	FV_ASSERT_OK(fv_surface_build(&s, NS * NP, xyz, (NS - 1) * NP, off, fn));
	double eta = 0.44, y = eta * b;
	FV_ASSERT_OK(fv_surface_cut(&s, val, 1, y, &c));
	assert_int_equal(c.n_curves, 1);
	assert_true(c.closed[0]);
	assert_int_equal(c.n_points, 2 * NP); /* NP section edges, NP quad diagonals */
	FV_ASSERT_OK(fv_station_from_cut(&c, eta, y, &pf, 0, &st));
	FV_ASSERT_NEAR(st.le[0], y * tan(30 * PI / 180), 1e-14);
	FV_ASSERT_NEAR(st.chord, st.chord_nominal, 1e-14);
	FV_ASSERT_NEAR(st.x_le_nominal, y * tan(30 * PI / 180), 1e-15);
	FV_ASSERT_NEAR(st.chord_nominal, 0.8059 - y * (tan(30 * PI / 180) - tan(15.8 * PI / 180)), 1e-15);
	/* LE and TE on both sides */
	assert_int_equal(st.n_upper, NP + 1);
	assert_int_equal(st.n_lower, NP + 1);
	for (fv_idx_t i = 0; i < st.n_upper + st.n_lower; i++) {
		const fv_station_point_t *p = &st.pt[i];
		assert_true(p->upper == (i < st.n_upper));
		assert_true(p->x_c >= -1e-15 && p->x_c <= 1 + 1e-15);
		FV_ASSERT_NEAR(p->value, p->x, 1e-14);
		assert_true(p->y == y);
		assert_true(p->upper ? p->z_c >= -1e-15 : p->z_c <= 1e-15);
		/* each side by increasing x/c, from the LE to the TE */
		if (i != 0 && i != st.n_upper)
			assert_true(p->x_c >= p[-1].x_c);
	}
	FV_ASSERT_NEAR(st.pt[0].x_c, 0, 1e-15);
	FV_ASSERT_NEAR(st.pt[st.n_upper - 1].x_c, 1, 1e-14);
	/* x/c from the nominal planform: the same numbers here */
	FV_ASSERT_OK(fv_station_from_cut(&c, eta, y, &pf, 1, &sn));
	assert_int_equal(sn.n_upper + sn.n_lower, st.n_upper + st.n_lower);
	for (fv_idx_t i = 0; i < sn.n_upper + sn.n_lower; i++)
		FV_ASSERT_NEAR(sn.pt[i].x_c, st.pt[i].x_c, 1e-13);
	fv_station_free(&sn);
	/* an empty cut is an error naming the station */
	fv_station_free(&st);
	FV_ASSERT_OK(fv_surface_cut(&s, val, 1, 2 * b, &c));
	FV_ASSERT_ERR(fv_station_from_cut(&c, 2, 2 * b, &pf, 0, &st), FV_ERR_ARG, "2y/b = 2");
	fv_cut_free(&c);
	fv_surface_free(&s);
}

/* --------------------------------------------------------- experiment */

static void data_path(char *buf, size_t n)
{
	const char *top = getenv("top_srcdir");
	if (!top || !*top)
		skip();
	snprintf(buf, n, "%s/cases/onera_m6/onera_m6_exp_2308.dat", top);
}

static void test_exp_read(void **state)
{
	static const int n_pts[7] = {34, 34, 34, 34, 45, 45, 45}, n_low[7] = {12, 12, 12, 12, 15, 15, 15};
	char path[600];
	fv_expdata_t e;
	(void)state;
	data_path(path, sizeof path);
	FV_ASSERT_OK(fv_expdata_read(&e, path));
	assert_int_equal(e.n_zones, 7);
	for (int k = 0; k < 7; k++) {
		const fv_exp_zone_t *z = &e.zone[k];
		assert_int_equal(z->section, k + 1);
		assert_int_equal(z->n, n_pts[k]);
		assert_int_equal(z->n_lower, n_low[k]);
		assert_int_equal(z->n_upper, n_pts[k] - n_low[k]);
		assert_ptr_equal(fv_expdata_section(&e, k + 1), z);
		/* tap 1 at the LE with Z/L >= 0 (section 4: 0), yet lower */
		for (int i = 0; i < z->n; i++)
			if (z->pt[i].tap == 1) {
				assert_false(z->pt[i].upper);
				assert_true(z->pt[i].z_c >= 0 && z->pt[i].x_c < 0.001);
			}
		assert_non_null(strstr(z->title, "Mach= 0.8395"));
	}
	assert_null(fv_expdata_section(&e, 8));
	assert_int_equal(e.zone[0].line, 3);
	assert_int_equal(e.zone[6].line, 235);
	/* first row of section 1: tap 12, lower */
	const fv_exp_point_t *p = &e.zone[0].pt[0];
	assert_int_equal(p->tap, 12);
	assert_false(p->upper);
	FV_ASSERT_NEAR(p->x_c, 0.9503, 1e-15);
	FV_ASSERT_NEAR(p->z_c, -0.00726, 1e-15);
	FV_ASSERT_NEAR(p->cp, 0.10141, 1e-15);
	/* section 1, tap 31: the suction peak -1.0692 at x/c = 0.03525 */
	p = &e.zone[0].pt[15];
	assert_int_equal(p->tap, 31);
	assert_true(p->upper);
	FV_ASSERT_NEAR(p->x_c, 0.03525, 1e-15);
	FV_ASSERT_NEAR(p->cp, -1.0692, 1e-15);
	/* the last row of the file: section 7, tap 16, upper */
	p = &e.zone[6].pt[44];
	assert_int_equal(p->tap, 16);
	assert_true(p->upper);
	FV_ASSERT_NEAR(p->cp, -0.21822, 1e-15);
	fv_expdata_free(&e);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

#define HEAD "TITLE = \"t\"\nVARIABLES = \"Section\", \"Tap\", \"X/L\", \"Z/L\", \"CP\"\n"
#define ZONE3 "ZONE T=\"Section 2\", I=  3, F=POINT\n"
#define ROW(tap, x, z, cp) " 2.0 " #tap " " #x " " #z " " #cp "\n"

static void test_exp_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{HEAD ZONE3 ROW(2, 0.5, -0.04, 0.1) " 2.0 1 0.0 0.0\n" ROW(3, 0.5, 0.04, -0.3), "bad.dat:5: 4 columns, expected 5"},
		{HEAD ZONE3 ROW(2, 0.5, -0.04, 0.1) ROW(1, 0.0, 0.01, 0.8) " 2.0 3 0.5 0.04 -0.3 7\n", "bad.dat:6: more than the 5 columns"},
		{HEAD ZONE3 ROW(2, 0.5, -0.04, 0.1) ROW(1, 0.0, 0.01, abc) ROW(3, 0.5, 0.04, -0.3), "bad.dat:5: column 5: 'abc' is not a number"},
		{HEAD ZONE3 ROW(2, 0.5, -0.04, 0.1) ROW(1, 0.0, 0.01, 0.8), "bad.dat:6: the zone of line 3 ('Section 2') has I=3 but 2 rows"},
		{HEAD ZONE3 ROW(2, 0.5, -0.04, 0.1) ROW(1, 0.0, 0.01, 0.8) ZONE3 ROW(2, 0.5, -0.04, 0.1), "bad.dat:6: the zone of line 3 ('Section 2') has I=3 but 2 rows"},
		{HEAD ZONE3 ROW(2, 0.5, -0.04, 0.1) ROW(1, 0.0, 0.01, 0.8) ROW(3, 0.5, 0.04, -0.3) ROW(3, 0.5, 0.04, -0.3), "bad.dat:7: more rows than the I=3"},
		{HEAD ZONE3 ROW(2, 0.5, -0.04, 0.1) ROW(1, 0.0, 0.01, 0.8) ROW(2, 0.5, 0.04, -0.3), "bad.dat:6: tap 2 repeats line 4"},
		{HEAD ZONE3 ROW(2, 0.5, -0.04, 0.1) ROW(1, 0.0, 0.01, 0.8) ROW(4, 0.5, 0.04, -0.3), "bad.dat:6: tap 4 is not a whole number in 1..3"},
		{HEAD ZONE3 ROW(3, 0.5, -0.04, 0.1) ROW(1, 0.0, 0.01, 0.8) ROW(2, 0.5, 0.04, -0.3), "bad.dat:4: tap 3 is out of place"},
		{HEAD ZONE3 ROW(2, 0.5, -0.04, 0.1) " 3.0 1 0.0 0.01 0.8\n" ROW(3, 0.5, 0.04, -0.3), "bad.dat:5: section 3 in a zone of section 2"},
		{HEAD ROW(2, 0.5, -0.04, 0.1), "bad.dat:3: data before the first ZONE"},
		{HEAD, "bad.dat:3: no ZONE"},
		{ZONE3, "bad.dat:1: ZONE before VARIABLES"},
		{"VARIABLES = \"Section\", \"Tap\", \"X/L\", \"CP\"\n", "bad.dat:1: VARIABLES: 'Z/L' is missing"},
		{"VARIABLES = \"Section\", \"Tap\", \"X/L\", \"Y/L\", \"CP\"\n", "bad.dat:1: VARIABLES: unknown variable 'Y/L'"},
		{HEAD "ZONE T=\"x\", F=POINT\n", "bad.dat:3: ZONE without I="},
		{HEAD "ZONE T=\"x\", I=3, F=BLOCK\n", "bad.dat:3: ZONE: only F=POINT"},
		{HEAD "ZONE T=\"x\", I=-3\n", "bad.dat:3: ZONE: I= needs a positive count"},
		{HEAD ZONE3 "GEOMETRY x=1\n", "bad.dat:4: unexpected 'GEOMETRY x=1'"},
	};
	char dir[256], path[300];
	fv_expdata_t e;
	const char *base = getenv("TMPDIR");
	(void)state;
	snprintf(dir, sizeof dir, "%s/fvstar-post-XXXXXX", base && *base ? base : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/bad.dat", dir);
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		write_file(path, cases[k].text);
		fv_error_clear();
		fv_err_t err = fv_expdata_read(&e, path);
		if (err != FV_ERR_FORMAT || !strstr(fv_errmsg(), cases[k].msg))
			fail_msg("case %zu: error %d '%s', expected '%s'", k, (int)err, fv_errmsg(), cases[k].msg);
		assert_int_equal(e.n_zones, 0);
	}
	/* the smallest good file, with comments, blank lines and the
	 * DATAPACKING spelling */
	write_file(path, "# comment\n" HEAD "\nZONE T=\"Section 2\" I=3 DATAPACKING=POINT\n" ROW(2, 0.5, -0.04, 0.1)
			 ROW(1, 0.0, 0.01, 0.8) ROW(3, 0.5, 0.04, -0.3));
	FV_ASSERT_OK(fv_expdata_read(&e, path));
	assert_int_equal(e.n_zones, 1);
	assert_int_equal(e.zone[0].n_lower, 2);
	assert_int_equal(e.zone[0].n_upper, 1);
	fv_expdata_free(&e);
	FV_ASSERT_ERR(fv_expdata_read(&e, "/nonexistent/x.dat"), FV_ERR_IO, "/nonexistent/x.dat: cannot open");
	/* a named pipe is refused, not waited on */
	remove(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	FV_ASSERT_ERR(fv_expdata_read(&e, path), FV_ERR_IO, "is a named pipe (FIFO), not a regular file");
	remove(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_box_cut),      cmocka_unit_test(test_open_cut), cmocka_unit_test(test_sphere_cut),
		cmocka_unit_test(test_face_to_node), cmocka_unit_test(test_station),  cmocka_unit_test(test_exp_read),
		cmocka_unit_test(test_exp_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
