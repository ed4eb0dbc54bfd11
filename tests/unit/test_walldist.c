/* SPDX-License-Identifier: MIT */
/* Unit tests of the wall distance (fv_wall_distance): a plane, a faceted
 * sphere and a faceted cylinder, each against the analytic distance
 * within the faceting error and against a brute-force search of all wall
 * triangles; the same bits on any thread count; the errors.
 * Run: tests/unit/test_walldist (cmocka; exit 0 when all pass). */
#include <math.h>

#include "testutil.h"

/* The brute force and the library compute the same minimum with different
 * formulas: they agree to round-off of O(1) coordinates. */
#define EXACT 1e-12
static const double pi = 3.14159265358979323846;

/* ------------------------------------------------ brute-force reference */

static double dot(const double *u, const double *v) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }

static double seg_d2(const double *p, const double *a, const double *b)
{
	double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
	double l2 = dot(ab, ab), t = l2 > 0 ? dot(ap, ab) / l2 : 0, r[3];
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	for (int d = 0; d < 3; d++)
		r[d] = ap[d] - t * ab[d];
	return dot(r, r);
}

/* Not Ericson's regions: the foot of the perpendicular when its
 * barycentric coordinates are all >= 0, else the nearest edge. */
static double tri_d2_ref(const double *p, const double *a, const double *b, const double *c)
{
	double e1[3], e2[3], ap[3], n[3];
	for (int d = 0; d < 3; d++) {
		e1[d] = b[d] - a[d];
		e2[d] = c[d] - a[d];
		ap[d] = p[d] - a[d];
	}
	n[0] = e1[1] * e2[2] - e1[2] * e2[1];
	n[1] = e1[2] * e2[0] - e1[0] * e2[2];
	n[2] = e1[0] * e2[1] - e1[1] * e2[0];
	double nn = dot(n, n);
	if (nn > 0) {
		double h = dot(ap, n) / nn, f[3], u[3], w[3];
		for (int d = 0; d < 3; d++)
			f[d] = ap[d] - h * n[d]; /* foot, relative to a */
		u[0] = f[1] * e2[2] - f[2] * e2[1];
		u[1] = f[2] * e2[0] - f[0] * e2[2];
		u[2] = f[0] * e2[1] - f[1] * e2[0];
		w[0] = e1[1] * f[2] - e1[2] * f[1];
		w[1] = e1[2] * f[0] - e1[0] * f[2];
		w[2] = e1[0] * f[1] - e1[1] * f[0];
		double beta = dot(u, n) / nn, gamma = dot(w, n) / nn;
		if (beta >= 0 && gamma >= 0 && beta + gamma <= 1)
			return h * h * nn;
	}
	return fmin(seg_d2(p, a, b), fmin(seg_d2(p, b, c), seg_d2(p, c, a)));
}

/* Wall element e as the geometry sees it: a triangle, or a quad as four
 * triangles around its node average. */
static double belem_d2_ref(const fv_mesh_t *m, fv_idx_t e, const double *p)
{
	const fv_idx_t *v = m->belem_node + m->belem_node_off[e];
	int nn = m->belem_node_off[e + 1] - m->belem_node_off[e];
	const double *x[4];
	double c0[3] = {0, 0, 0}, best = INFINITY;
	for (int i = 0; i < nn; i++) {
		x[i] = m->xyz + 3 * (size_t)v[i];
		for (int d = 0; d < 3; d++)
			c0[d] += x[i][d] / nn;
	}
	if (nn == 3)
		return tri_d2_ref(p, x[0], x[1], x[2]);
	for (int i = 0; i < nn; i++)
		best = fmin(best, tri_d2_ref(p, c0, x[i], x[(i + 1) % nn]));
	return best;
}

static void centroid(const fv_mesh_t *m, fv_idx_t c, double *p)
{
	for (int d = 0; d < 3; d++)
		p[d] = m->cell_ctr[(size_t)d * m->n_cells + c];
}

static void check_brute_force(const fv_mesh_t *m, const uint8_t *wall, const double *dist)
{
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		double p[3], best = INFINITY;
		centroid(m, c, p);
		for (fv_idx_t e = 0; e < m->n_belems; e++)
			if (wall[m->belem_marker[e]])
				best = fmin(best, belem_d2_ref(m, e, p));
		FV_ASSERT_NEAR(dist[c], sqrt(best), EXACT);
	}
}

/* ------------------------------------------------ meshes */

static int marker_index(const fv_mesh_t *m, const char *name)
{
	for (int k = 0; k < m->n_markers; k++)
		if (strcmp(m->markers[k].name, name) == 0)
			return k;
	fail_msg("%s: no marker '%s'", m->source, name);
	return 0; /* not reached */
}

static void gen_box(fv_mesh_t *m, fv_gen_cells_t kind, int nx, int ny, int nz, double perturb, const double lo[3],
		    const double hi[3])
{
	fv_gen_opts_t o = fv_test_box_opts(kind, nx, ny, nz, perturb, 11, lo, hi);
	fv_mesh_init(m);
	FV_ASSERT_OK(fv_mesh_gen_box(m, &o));
}

/* The unit box mapped to spherical (x: phi, y: r, z: theta) or cylindrical
 * (x: axial, y: r, z: theta) coordinates; both are cyclic permutations of
 * (r, theta, phi) or (r, theta, z), so volumes stay positive, and ymin
 * becomes the inner wall of radius r0. */
static void map_shell(fv_mesh_t *m, int sphere, double r0, double r1)
{
	for (fv_idx_t i = 0; i < m->n_nodes; i++) {
		double *x = m->xyz + 3 * (size_t)i;
		double r = r0 + (r1 - r0) * x[1];
		if (sphere) {
			double phi = 0.5 * pi * x[0], th = 0.25 * pi + 0.5 * pi * x[2];
			x[0] = r * sin(th) * cos(phi);
			x[1] = r * sin(th) * sin(phi);
			x[2] = r * cos(th);
		} else {
			double ax = 2 * x[0], th = pi * x[2];
			x[0] = r * cos(th);
			x[1] = r * sin(th);
			x[2] = ax;
		}
	}
	FV_ASSERT_OK(fv_mesh_prepare(m)); /* positive volumes: the map is right */
}

static uint8_t *walls(const fv_mesh_t *m, const char *a, const char *b)
{
	uint8_t *w = calloc((size_t)m->n_markers, 1);
	assert_non_null(w);
	w[marker_index(m, a)] = 1;
	if (b)
		w[marker_index(m, b)] = 1;
	return w;
}

static double *distances(const fv_mesh_t *m, const uint8_t *wall, int n_threads)
{
	double *d = malloc((size_t)m->n_cells * sizeof *d);
	assert_non_null(d);
	FV_ASSERT_OK(fv_wall_distance(m, wall, n_threads, d));
	return d;
}

/* ------------------------------------------------ tests */

/* A planar wall, also under jittered interior nodes (the generator keeps
 * boundary nodes on the box), and two walls meeting at an edge. */
static void test_plane(void **state)
{
	static const fv_gen_cells_t kinds[] = {FV_GEN_HEX, FV_GEN_TET, FV_GEN_MIXED};
	static const double lo[3] = {-1, -0.5, 0}, hi[3] = {0.5, 1, 1.25};
	(void)state;
	for (int k = 0; k < 3; k++)
		for (int jitter = 0; jitter < 2; jitter++) {
			fv_mesh_t m;
			gen_box(&m, kinds[k], 7, 6, 5, jitter ? 0.25 : 0, lo, hi);
			FV_ASSERT_OK(fv_mesh_prepare(&m));
			uint8_t *w = walls(&m, "ymin", NULL), *w2 = walls(&m, "ymin", "xmin");
			double *d = distances(&m, w, 2), *d2 = distances(&m, w2, 2);
			for (fv_idx_t c = 0; c < m.n_cells; c++) {
				double p[3];
				centroid(&m, c, p);
				FV_ASSERT_NEAR(d[c], p[1] - lo[1], EXACT);
				FV_ASSERT_NEAR(d2[c], fmin(p[1] - lo[1], p[0] - lo[0]), EXACT);
			}
			check_brute_force(&m, w2, d2);
			free(w), free(w2), free(d), free(d2);
			fv_mesh_free(&m);
		}
}

/* A wavy wall y = 0.08 sin(2 pi x) sin(2 pi z) of hexahedra: its quads are
 * warped, so the brute force, which splits them as the geometry does,
 * tells the four triangles around the centre from a diagonal split. */
static void test_warped(void **state)
{
	const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
	fv_mesh_t m;
	(void)state;
	gen_box(&m, FV_GEN_HEX, 9, 4, 7, 0, lo, hi);
	for (fv_idx_t i = 0; i < m.n_nodes; i++) {
		double *x = m.xyz + 3 * (size_t)i;
		x[1] += 0.08 * (1 - x[1]) * sin(2 * pi * x[0]) * sin(2 * pi * x[2]);
	}
	FV_ASSERT_OK(fv_mesh_prepare(&m));
	uint8_t *w = walls(&m, "ymin", NULL);
	double *d = distances(&m, w, 3);
	check_brute_force(&m, w, d);
	free(w), free(d);
	fv_mesh_free(&m);
}

/* How far the wall elements reach inside the circle or sphere of radius r
 * their nodes lie on: a point of a triangle with vertices at radius r and
 * edges <= h is at radius >= sqrt(r^2 - h^2/3) (|sum l_i v_i|^2 =
 * sum l_i |v_i|^2 - sum_{i<j} l_i l_j |v_i - v_j|^2); a quad's centre
 * node, at >= sqrt(r^2 - 3h^2/8), makes that sqrt(r^2 - 17h^2/24).
 * dims = 2: radii and lengths in the xy plane (the cylinder). */
static double faceting_depth(const fv_mesh_t *m, const uint8_t *wall, double r, int dims)
{
	double worst = 0;
	for (fv_idx_t e = 0; e < m->n_belems; e++) {
		if (!wall[m->belem_marker[e]])
			continue;
		const fv_idx_t *v = m->belem_node + m->belem_node_off[e];
		int nn = m->belem_node_off[e + 1] - m->belem_node_off[e];
		double h2 = 0;
		for (int i = 0; i < nn; i++)
			for (int j = 0; j < i; j++) {
				double s = 0;
				for (int d = 0; d < dims; d++) {
					double t = m->xyz[3 * (size_t)v[i] + d] - m->xyz[3 * (size_t)v[j] + d];
					s += t * t;
				}
				h2 = fmax(h2, s);
			}
		double depth = r - sqrt(r * r - (nn == 3 ? 1.0 / 3 : 17.0 / 24) * h2);
		worst = fmax(worst, depth);
	}
	return worst;
}

/* The wall's points lie inside the circle or sphere, so d >= |x| - r; the
 * ray from the axis or centre through the centroid meets the wall within
 * the faceting depth, so d <= |x| - r + depth. Both are tight: the wall's
 * nodes are on it. */
static void check_analytic(const fv_mesh_t *m, const uint8_t *wall, const double *dist, double r, int dims)
{
	double depth = faceting_depth(m, wall, r, dims), gap_max = 0;
	assert_true(depth > 0 && depth < 0.05 * r);
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		double p[3];
		centroid(m, c, p);
		double rad = sqrt(p[0] * p[0] + p[1] * p[1] + (dims == 3 ? p[2] * p[2] : 0));
		double gap = dist[c] - (rad - r);
		if (!(gap >= -EXACT && gap <= depth + EXACT))
			fail_msg("cell %d at radius %.17g: distance %.17g, analytic %.17g, faceting depth %.3g", (int)c,
				 rad, dist[c], rad - r, depth);
		gap_max = fmax(gap_max, gap);
	}
	/* cells on the wall see its facets: the bound is not vacuous */
	assert_true(gap_max > 0.1 * depth);
}

/* A box of cells mapped onto a shell between radii r0 and r1 (map_shell:
 * a sphere, or a cylinder about one axis), the wall its inner face: the
 * distances against the analytic ones (dims: 3 sphere, 2 cylinder) and
 * brute force. */
static void check_shell(fv_gen_cells_t kind, int nx, int ny, int nz, int sphere, double r0, double r1)
{
	const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
	fv_mesh_t m;
	gen_box(&m, kind, nx, ny, nz, 0.2, lo, hi);
	map_shell(&m, sphere, r0, r1);
	uint8_t *w = walls(&m, "ymin", NULL);
	double *d = distances(&m, w, 2);
	check_analytic(&m, w, d, r0, sphere ? 3 : 2);
	check_brute_force(&m, w, d);
	free(w), free(d);
	fv_mesh_free(&m);
}

static void test_sphere(void **state)
{
	(void)state;
	check_shell(FV_GEN_TET, 14, 5, 14, 1, 0.7, 1.5);
}

static void test_cylinder(void **state)
{
	(void)state;
	check_shell(FV_GEN_MIXED, 6, 5, 18, 0, 0.4, 1.2);
}

/* More cells than one chunk of a thread: each chunk starts its search
 * afresh, yet every count of threads gives the same bits. */
static void test_threads(void **state)
{
	const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
	fv_mesh_t m;
	(void)state;
	gen_box(&m, FV_GEN_TET, 16, 12, 16, 0.25, lo, hi);
	map_shell(&m, 1, 0.5, 2.0);
	assert_true(m.n_cells > 4 * 4096);
	uint8_t *w = walls(&m, "ymin", "zmax");
	double *d1 = distances(&m, w, 1);
	for (int nt = 2; nt <= 4; nt++) {
		double *dn = distances(&m, w, nt);
		assert_memory_equal(d1, dn, (size_t)m.n_cells * sizeof *d1);
		free(dn);
	}
	double *d0 = distances(&m, w, 0);
	assert_memory_equal(d1, d0, (size_t)m.n_cells * sizeof *d1);
	check_brute_force(&m, w, d1);
	free(w), free(d1), free(d0);
	fv_mesh_free(&m);
}

static void test_errors(void **state)
{
	const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
	fv_mesh_t m;
	double d[27];
	int empty;
	(void)state;
	gen_box(&m, FV_GEN_HEX, 3, 3, 3, 0, lo, hi);
	uint8_t *w = walls(&m, "ymin", NULL);
	FV_ASSERT_ERR(fv_wall_distance(&m, w, 1, d), FV_ERR_ARG, "centroids");
	FV_ASSERT_OK(fv_mesh_prepare(&m));
	FV_ASSERT_ERR(fv_wall_distance(&m, w, -1, d), FV_ERR_ARG, "threads");
	memset(w, 0, (size_t)m.n_markers);
	FV_ASSERT_ERR(fv_wall_distance(&m, w, 1, d), FV_ERR_ARG, "no marker is a wall");
	free(w);
	/* a marker without faces */
	FV_ASSERT_OK(fv_mesh_marker(&m, "nothing", &empty));
	w = calloc((size_t)m.n_markers, 1);
	assert_non_null(w);
	w[empty] = 1;
	FV_ASSERT_ERR(fv_wall_distance(&m, w, 1, d), FV_ERR_ARG, "no faces");
	free(w);
	fv_mesh_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plane),
		cmocka_unit_test(test_warped),
		cmocka_unit_test(test_sphere),
		cmocka_unit_test(test_cylinder),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
