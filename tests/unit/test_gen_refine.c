/* SPDX-License-Identifier: MIT */
/* Unit tests of the box, ramp and flat-plate generators and of uniform
 * refinement. */
#include <math.h>

#include "testutil.h"

static const fv_gen_cells_t kinds[] = {FV_GEN_HEX, FV_GEN_TET, FV_GEN_PRISM, FV_GEN_MIXED};
static const char *const kind_names[] = {"hex", "tet", "prism", "mixed"};
static const char *const box_markers[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
/* geometry is fv_real_t: a few thousand ulps of round-off */
#define TOL (1e4 * FV_REAL_EPS)

static const double deg = 0.017453292519943295; /* pi / 180 */
static const double box_lo[3] = {-1, 0.5, 0}, box_hi[3] = {0.5, 2.5, 1.25};

static fv_gen_opts_t box_opts(fv_gen_cells_t kind, int nx, int ny, int nz, double perturb)
{
	return fv_test_box_opts(kind, nx, ny, nz, perturb, 7, box_lo, box_hi);
}

static double box_volume(void)
{
	return (box_hi[0] - box_lo[0]) * (box_hi[1] - box_lo[1]) * (box_hi[2] - box_lo[2]);
}

/* fv_mesh_prepare (faces match, every boundary face marked, volumes
 * positive) and the statistics. */
static fv_mesh_stats_t prepared(fv_mesh_t *m)
{
	fv_mesh_stats_t st;
	FV_ASSERT_OK(fv_mesh_prepare(m));
	FV_ASSERT_OK(fv_mesh_check(m, 0, &st));
	assert_true(st.vol_min > 0);
	assert_true(st.closure_max < TOL);
	/* no duplicate boundary elements: one per boundary face */
	assert_int_equal(m->n_belems, m->n_bfaces);
	return st;
}

static int marker_index(const fv_mesh_t *m, const char *name)
{
	for (int k = 0; k < m->n_markers; k++)
		if (strcmp(m->markers[k].name, name) == 0)
			return k;
	fail_msg("%s: no marker '%s'", m->source, name);
	return -1;
}

static double marker_area(const fv_mesh_t *m, const char *name)
{
	double vec[3], area;
	fv_mesh_marker_area(m, marker_index(m, name), vec, &area);
	return area;
}

/* Each box face: area and outward direction of its marker. */
static void check_box_markers(const fv_mesh_t *m)
{
	assert_int_equal(m->n_markers, 6);
	for (int k = 0; k < 6; k++) {
		int axis = k / 2, a = (axis + 1) % 3, b = (axis + 2) % 3;
		double want = (box_hi[a] - box_lo[a]) * (box_hi[b] - box_lo[b]);
		double vec[3], area;
		assert_string_equal(m->markers[k].name, box_markers[k]);
		fv_mesh_marker_area(m, k, vec, &area);
		FV_ASSERT_NEAR(area, want, TOL);
		FV_ASSERT_NEAR(vec[axis], k % 2 ? want : -want, TOL);
	}
}

static fv_idx_t n_blocks(const fv_gen_opts_t *o)
{
	return (fv_idx_t)o->nx * o->ny * o->nz;
}

static void test_defaults(void **state)
{
	(void)state;
	fv_gen_opts_t o;
	fv_gen_opts_default(&o);
	assert_int_equal(o.cells, FV_GEN_HEX);
	assert_int_equal(o.nx, 8);
	assert_int_equal(o.ny, 8);
	assert_int_equal(o.nz, 8);
	for (int d = 0; d < 3; d++) {
		assert_true(o.lo[d] == 0 && o.hi[d] == 1);
	}
	assert_true(o.perturb == 0);
	assert_int_equal(o.seed, 1);
	assert_true(o.ramp_angle_deg == 10 && o.ramp_x0 == 0.2);
}

static void test_box_kinds(void **state)
{
	(void)state;
	static const int per_block[] = {1, 6, 2, 0};
	for (int t = 0; t < 4; t++) {
		fv_gen_opts_t o = box_opts(kinds[t], 3, 4, 5, 0);
		fv_mesh_t m;
		char source[64];
		FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));
		snprintf(source, sizeof source, "box %s 3x4x5", kind_names[t]);
		assert_string_equal(m.source, source);
		if (per_block[t]) {
			assert_int_equal(m.n_cells, per_block[t] * n_blocks(&o));
			assert_int_equal(m.n_nodes, 4 * 5 * 6);
		}
		fv_mesh_stats_t st = prepared(&m);
		FV_ASSERT_NEAR(st.vol_sum, box_volume(), TOL);
		for (int d = 0; d < 3; d++) {
			FV_ASSERT_NEAR(st.bbox[2 * d], box_lo[d], 1e-15);
			FV_ASSERT_NEAR(st.bbox[2 * d + 1], box_hi[d], 1e-15);
		}
		check_box_markers(&m);
		fv_mesh_free(&m);
	}
}

static void test_hex_face_count(void **state)
{
	(void)state;
	for (int n = 1; n <= 5; n++) {
		fv_gen_opts_t o = box_opts(FV_GEN_HEX, n, n, n, 0);
		fv_mesh_t m;
		FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));
		prepared(&m);
		assert_int_equal(m.n_faces, 3 * n * n * (n + 1));
		assert_int_equal(m.n_bfaces, 6 * n * n);
		fv_mesh_free(&m);
	}
}

static void test_mixed_has_all_types(void **state)
{
	(void)state;
	static const int sizes[][3] = {{3, 4, 5}, {2, 2, 1}, {1, 3, 1}, {3, 1, 2}, {6, 5, 4}};
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		fv_gen_opts_t o = box_opts(FV_GEN_MIXED, sizes[s][0], sizes[s][1], sizes[s][2], 0);
		fv_mesh_t m;
		FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));
		fv_mesh_stats_t st = prepared(&m);
		for (int t = 0; t < FV_NCELLTYPES; t++)
			if (st.n_cells_of_type[t] == 0)
				fail_msg("%s has no %s", m.source, fv_cell_shapes[t].name);
		FV_ASSERT_NEAR(st.vol_sum, box_volume(), TOL);
		check_box_markers(&m);
		fv_mesh_free(&m);
	}
}

static void test_perturbed(void **state)
{
	(void)state;
	for (int t = 0; t < 4; t++) {
		fv_gen_opts_t o = box_opts(kinds[t], 6, 5, 4, 0.3);
		fv_gen_opts_t flat = box_opts(kinds[t], 6, 5, 4, 0);
		fv_mesh_t m, ref;
		FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));
		FV_ASSERT_OK(fv_mesh_gen_box(&ref, &flat));
		assert_int_equal(m.n_nodes, ref.n_nodes);
		/* grid nodes come first, x fastest */
		fv_idx_t moved = 0, id = 0;
		const int n[3] = {o.nx, o.ny, o.nz};
		for (int k = 0; k <= n[2]; k++)
			for (int j = 0; j <= n[1]; j++)
				for (int i = 0; i <= n[0]; i++, id++) {
					const int ijk[3] = {i, j, k};
					int interior = 1;
					double r2 = 0;
					for (int d = 0; d < 3; d++) {
						double h = (box_hi[d] - box_lo[d]) / n[d];
						double dx = (m.xyz[3 * id + d] - ref.xyz[3 * id + d]) / h;
						interior &= ijk[d] > 0 && ijk[d] < n[d];
						r2 += dx * dx;
					}
					if (!interior)
						assert_true(r2 == 0);
					/* moves reach 2/3 of perturb: see generate.c */
					assert_true(sqrt(r2) <= 0.2 + 1e-12);
					moved += r2 > 0;
				}
		assert_int_equal(moved, (n[0] - 1) * (n[1] - 1) * (n[2] - 1));
		fv_mesh_stats_t st = prepared(&m);
		FV_ASSERT_NEAR(st.vol_sum, box_volume(), TOL);
		check_box_markers(&m);
		fv_mesh_free(&m);
		fv_mesh_free(&ref);
	}
}

static void test_perturb_seed(void **state)
{
	(void)state;
	fv_gen_opts_t o = box_opts(FV_GEN_TET, 4, 4, 4, 0.2);
	fv_mesh_t a, b, c;
	FV_ASSERT_OK(fv_mesh_gen_box(&a, &o));
	FV_ASSERT_OK(fv_mesh_gen_box(&b, &o));
	o.seed = 8;
	FV_ASSERT_OK(fv_mesh_gen_box(&c, &o));
	size_t bytes = 3 * (size_t)a.n_nodes * sizeof *a.xyz;
	assert_memory_equal(a.xyz, b.xyz, bytes);
	assert_memory_not_equal(a.xyz, c.xyz, bytes);
	fv_mesh_free(&a);
	fv_mesh_free(&b);
	fv_mesh_free(&c);
}

static void test_ramp(void **state)
{
	(void)state;
	const double len = 3, h = 1, depth = 0.5, angle = 15, x0 = 0.2 * len;
	const double slope = tan(angle * deg), rise = (len - x0) * slope;
	const double area = len * h - 0.5 * (len - x0) * rise;
	for (int t = 0; t < 4; t++)
		for (int p = 0; p < 2; p++) {
			fv_gen_opts_t o;
			fv_mesh_t m;
			fv_gen_opts_default(&o);
			o.cells = kinds[t];
			/* the wedge starts on a grid line, so the discrete wall is exact */
			o.nx = 10;
			o.ny = 4;
			o.nz = 3;
			o.hi[0] = len;
			o.hi[1] = h;
			o.hi[2] = depth;
			o.ramp_angle_deg = angle;
			o.perturb = p ? 0.3 : 0;
			FV_ASSERT_OK(fv_mesh_gen_ramp(&m, &o));
			assert_non_null(strstr(m.source, "ramp"));
			fv_mesh_stats_t st = prepared(&m);
			FV_ASSERT_NEAR(st.vol_sum, area * depth, TOL);
			FV_ASSERT_NEAR(marker_area(&m, "inlet"), h * depth, TOL);
			FV_ASSERT_NEAR(marker_area(&m, "outlet"), (h - rise) * depth, TOL);
			FV_ASSERT_NEAR(marker_area(&m, "top"), len * depth, TOL);
			FV_ASSERT_NEAR(marker_area(&m, "wall"), (x0 + (len - x0) / cos(angle * deg)) * depth,
				       TOL);
			FV_ASSERT_NEAR(marker_area(&m, "zmin"), area, TOL);
			FV_ASSERT_NEAR(marker_area(&m, "zmax"), area, TOL);
			FV_ASSERT_NEAR(st.bbox[3], h, 1e-15);
			fv_mesh_free(&m);
		}
}

/* A wedge start between grid lines cuts the corner but stays valid. */
static void test_ramp_off_grid(void **state)
{
	(void)state;
	for (int t = 0; t < 4; t++) {
		fv_gen_opts_t o;
		fv_mesh_t m;
		fv_gen_opts_default(&o);
		o.cells = kinds[t];
		o.nx = 7;
		o.ny = 3;
		o.nz = 2;
		o.ramp_angle_deg = 30;
		o.ramp_x0 = 0.33;
		o.perturb = 0.3;
		FV_ASSERT_OK(fv_mesh_gen_ramp(&m, &o));
		prepared(&m);
		fv_mesh_free(&m);
	}
}

/* Nodes of a refined ball-like mesh: V + E + quad faces + hexes, with E
 * from Euler's formula V - E + F - C = 1, so no new node is duplicated. */
static fv_idx_t refined_nodes(const fv_mesh_t *m, const fv_mesh_stats_t *st)
{
	fv_idx_t quads = 0;
	for (fv_idx_t f = 0; f < m->n_faces; f++)
		quads += m->face_node_off[f + 1] - m->face_node_off[f] == 4;
	fv_idx_t edges = m->n_nodes + m->n_faces - m->n_cells - 1;
	return m->n_nodes + edges + quads + st->n_cells_of_type[FV_HEX];
}

static void check_refined(fv_mesh_t *m, fv_mesh_t *r, double vol_tol)
{
	fv_mesh_stats_t st = prepared(m);
	fv_idx_t want_nodes = refined_nodes(m, &st);
	FV_ASSERT_OK(fv_mesh_refine(m, r));
	assert_non_null(strstr(r->source, "refined"));
	fv_mesh_stats_t rs = prepared(r);
	assert_int_equal(r->n_nodes, want_nodes);
	assert_int_equal(rs.n_cells_of_type[FV_TET], 8 * st.n_cells_of_type[FV_TET] + 4 * st.n_cells_of_type[FV_PYRAMID]);
	assert_int_equal(rs.n_cells_of_type[FV_PYRAMID], 6 * st.n_cells_of_type[FV_PYRAMID]);
	assert_int_equal(rs.n_cells_of_type[FV_PRISM], 8 * st.n_cells_of_type[FV_PRISM]);
	assert_int_equal(rs.n_cells_of_type[FV_HEX], 8 * st.n_cells_of_type[FV_HEX]);
	assert_int_equal(r->n_belems, 4 * m->n_belems);
	FV_ASSERT_NEAR(rs.vol_sum, st.vol_sum, vol_tol);
	assert_int_equal(r->n_markers, m->n_markers);
	for (int k = 0; k < m->n_markers; k++) {
		double a[3], b[3], area_m, area_r;
		assert_string_equal(r->markers[k].name, m->markers[k].name);
		fv_mesh_marker_area(m, k, a, &area_m);
		fv_mesh_marker_area(r, k, b, &area_r);
		FV_ASSERT_NEAR(area_r, area_m, TOL);
		for (int d = 0; d < 3; d++)
			FV_ASSERT_NEAR(b[d], a[d], TOL);
	}
	for (int d = 0; d < 6; d++)
		FV_ASSERT_NEAR(rs.bbox[d], st.bbox[d], 1e-15);
}

static void test_refine_boxes(void **state)
{
	(void)state;
	for (int t = 0; t < 4; t++) {
		fv_gen_opts_t o = box_opts(kinds[t], 3, 4, 5, 0);
		fv_mesh_t m, r1, r2;
		fv_mesh_init(&r1);
		fv_mesh_init(&r2);
		FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));
		check_refined(&m, &r1, TOL);
		check_refined(&r1, &r2, TOL);
		if (kinds[t] != FV_GEN_MIXED)
			assert_int_equal(r2.n_cells, 64 * m.n_cells);
		if (kinds[t] == FV_GEN_HEX)
			assert_int_equal(r2.n_nodes, 13 * 17 * 21);
		FV_ASSERT_NEAR(r2.cell_vol[0] * 64, m.cell_vol[0], TOL);
		fv_mesh_free(&m);
		fv_mesh_free(&r1);
		fv_mesh_free(&r2);
	}
}

/* Tets refine affinely: volume kept exactly even when perturbed. Other
 * shapes have non-planar faces then; they must stay valid. */
static void test_refine_perturbed(void **state)
{
	(void)state;
	for (int t = 0; t < 4; t++) {
		fv_gen_opts_t o = box_opts(kinds[t], 5, 4, 4, 0.3);
		fv_mesh_t m, r;
		fv_mesh_init(&r);
		FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));
		check_refined(&m, &r, kinds[t] == FV_GEN_TET ? TOL : 1e-3);
		fv_mesh_free(&m);
		fv_mesh_free(&r);
	}
}

static void test_refine_ramp(void **state)
{
	(void)state;
	fv_gen_opts_t o;
	fv_mesh_t m, r;
	fv_gen_opts_default(&o);
	o.cells = FV_GEN_MIXED;
	o.nx = 10;
	o.ny = 3;
	o.nz = 2;
	o.ramp_angle_deg = 20;
	fv_mesh_init(&r);
	FV_ASSERT_OK(fv_mesh_gen_ramp(&m, &o));
	check_refined(&m, &r, TOL);
	fv_mesh_free(&m);
	fv_mesh_free(&r);
}

/* One skewed cell with its faces as boundary elements. */
static void single_cell(fv_mesh_t *m, fv_cell_type_t type)
{
	static const double ref[FV_NCELLTYPES][8][3] = {
		[FV_TET] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
		[FV_PYRAMID] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 1}},
		[FV_PRISM] = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 1}, {1, 0, 1}},
		[FV_HEX] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}},
	};
	/* det 2 * 1.5 * 0.75 */
	static const double a[3][3] = {{2, 0.3, -0.2}, {0, 1.5, 0.4}, {0, 0, 0.75}};
	const fv_cell_shape_t *sh = &fv_cell_shapes[type];
	size_t bn = 0;
	int wall;
	for (int f = 0; f < sh->n_faces; f++)
		bn += (size_t)sh->face_n_nodes[f];
	fv_mesh_init(m);
	snprintf(m->source, sizeof m->source, "single %s", sh->name);
	FV_ASSERT_OK(fv_mesh_alloc(m, (size_t)sh->n_nodes, 1, (size_t)sh->n_nodes, (size_t)sh->n_faces, bn));
	FV_ASSERT_OK(fv_mesh_marker(m, "wall", &wall));
	for (int v = 0; v < sh->n_nodes; v++) {
		for (int d = 0; d < 3; d++)
			m->xyz[3 * v + d] = 1 + d + a[d][0] * ref[type][v][0] + a[d][1] * ref[type][v][1] +
					    a[d][2] * ref[type][v][2];
		m->cell_node[v] = v;
	}
	m->cell_type[0] = (uint8_t)type;
	m->cell_node_off[1] = sh->n_nodes;
	bn = 0;
	for (int f = 0; f < sh->n_faces; f++) {
		m->belem_type[f] = (uint8_t)sh->face_n_nodes[f];
		for (int k = 0; k < sh->face_n_nodes[f]; k++)
			m->belem_node[bn++] = sh->face_node[f][k];
		m->belem_node_off[f + 1] = (fv_idx_t)bn;
		m->belem_marker[f] = wall;
	}
}

static void test_refine_single_cells(void **state)
{
	(void)state;
	static const double ref_vol[FV_NCELLTYPES] = {1.0 / 6, 1.0 / 3, 0.5, 1};
	static const int nodes_after[FV_NCELLTYPES] = {10, 14, 18, 27};
	for (int t = 0; t < FV_NCELLTYPES; t++) {
		fv_mesh_t m, r, r2;
		fv_mesh_init(&r);
		fv_mesh_init(&r2);
		single_cell(&m, (fv_cell_type_t)t);
		fv_mesh_stats_t st = prepared(&m);
		FV_ASSERT_NEAR(st.vol_sum, ref_vol[t] * 2 * 1.5 * 0.75, TOL);
		check_refined(&m, &r, TOL);
		assert_int_equal(r.n_nodes, nodes_after[t]);
		assert_int_equal(r.n_cells, t == FV_PYRAMID ? 10 : 8);
		check_refined(&r, &r2, TOL);
		fv_mesh_free(&m);
		fv_mesh_free(&r);
		fv_mesh_free(&r2);
	}
}

static void test_refine_errors(void **state)
{
	(void)state;
	fv_mesh_t m, r;
	fv_mesh_init(&r);

	/* a boundary triangle across the hex's face diagonal is no cell face */
	single_cell(&m, FV_HEX);
	m.belem_type[0] = FV_TRI;
	m.belem_node_off[1] = 3;
	memmove(m.belem_node + 3, m.belem_node + 4, (size_t)(m.belem_node_off[6] - 4) * sizeof *m.belem_node);
	for (int f = 1; f <= 6; f++)
		m.belem_node_off[f] = 3 + 4 * (f - 1);
	m.belem_node[0] = 0;
	m.belem_node[1] = 2;
	m.belem_node[2] = 5;
	FV_ASSERT_ERR(fv_mesh_refine(&m, &r), FV_ERR_MESH, "not on any cell");
	assert_int_equal(r.n_cells, 0);
	assert_null(r.xyz);
	fv_mesh_free(&m);

	single_cell(&m, FV_PRISM);
	m.cell_node[4] = 1;
	FV_ASSERT_ERR(fv_mesh_refine(&m, &r), FV_ERR_MESH, "repeats node");
	m.cell_node[4] = 99;
	FV_ASSERT_ERR(fv_mesh_refine(&m, &r), FV_ERR_MESH, "out of range");
	m.cell_node[4] = 4;
	m.cell_type[0] = 9;
	FV_ASSERT_ERR(fv_mesh_refine(&m, &r), FV_ERR_MESH, "type");
	m.cell_type[0] = FV_PRISM;
	FV_ASSERT_ERR(fv_mesh_refine(&m, &m), FV_ERR_ARG, "refine");
	FV_ASSERT_OK(fv_mesh_refine(&m, &r));
	fv_mesh_free(&m);
	fv_mesh_free(&r);
}

static void test_bad_options(void **state)
{
	(void)state;
	fv_mesh_t m;
	fv_gen_opts_t o;
#define BAD(field, value, part)                                                     \
	do {                                                                        \
		fv_gen_opts_default(&o);                                            \
		o.field = value;                                                    \
		FV_ASSERT_ERR(fv_mesh_gen_box(&m, &o), FV_ERR_ARG, part);           \
		assert_int_equal(m.n_cells, 0);                                     \
		FV_ASSERT_ERR(fv_mesh_gen_ramp(&m, &o), FV_ERR_ARG, part);          \
		fv_mesh_free(&m);                                                   \
	} while (0)
	BAD(nx, 0, "nx must be >= 1 (got 0)");
	BAD(ny, -3, "ny must be >= 1 (got -3)");
	BAD(nz, 0, "nz");
	BAD(hi[0], -1, "hi[0]");
	BAD(lo[1], 1, "hi[1]");
	BAD(hi[2], NAN, "hi[2]");
	BAD(perturb, 0.31, "perturb");
	BAD(perturb, -0.1, "perturb");
	BAD(perturb, NAN, "perturb");
	BAD(cells, (fv_gen_cells_t)7, "cells");
#undef BAD
#define BAD_RAMP(field, value, part)                                                \
	do {                                                                        \
		fv_gen_opts_default(&o);                                            \
		o.field = value;                                                    \
		FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));                              \
		fv_mesh_free(&m);                                                   \
		FV_ASSERT_ERR(fv_mesh_gen_ramp(&m, &o), FV_ERR_ARG, part);          \
	} while (0)
	BAD_RAMP(ramp_angle_deg, 0, "ramp_angle_deg");
	BAD_RAMP(ramp_angle_deg, 45, "ramp_angle_deg");
	BAD_RAMP(ramp_angle_deg, NAN, "ramp_angle_deg");
	BAD_RAMP(ramp_x0, 1, "ramp_x0");
	BAD_RAMP(ramp_x0, -0.1, "ramp_x0");
#undef BAD_RAMP
	/* 0.8 * tan 40 > 0.5: the wedge would cut the top wall */
	fv_gen_opts_default(&o);
	o.ramp_angle_deg = 40;
	o.hi[1] = 0.5;
	FV_ASSERT_ERR(fv_mesh_gen_ramp(&m, &o), FV_ERR_ARG, "reaches the top");
	FV_ASSERT_ERR(fv_mesh_gen_box(&m, NULL), FV_ERR_ARG, "options");
}

static void test_too_large(void **state)
{
	(void)state;
	fv_mesh_t m;
	fv_gen_opts_t o;
	fv_gen_opts_default(&o);
	o.nx = o.ny = o.nz = 2000;
	FV_ASSERT_ERR(fv_mesh_gen_box(&m, &o), FV_ERR_MEM, "32-bit");
	assert_non_null(strstr(fv_errmsg(), "box hex 2000x2000x2000"));
	o.cells = FV_GEN_TET;
	o.nx = o.ny = o.nz = 500;
	FV_ASSERT_ERR(fv_mesh_gen_box(&m, &o), FV_ERR_MEM, "32-bit");
	o.nx = 2147483647;
	o.ny = o.nz = 1;
	FV_ASSERT_ERR(fv_mesh_gen_ramp(&m, &o), FV_ERR_MEM, "32-bit");
	assert_int_equal(m.n_cells, 0);
}

/* ------------------------------------------------------------ flat plate */

static const char *const plate_markers[7] = {"inflow", "outflow", "symmetry_front", "wall",
					     "top", "side_zmin", "side_zmax"};

/* A laminar-size plate: L = 1, 0.25 ahead, height 0.5, span 0.05. */
static fv_gen_opts_t plate_opts(fv_gen_cells_t kind, int nx, int ny, int level)
{
	fv_gen_opts_t o;
	fv_gen_opts_default(&o);
	o.cells = kind;
	o.plate.nx = nx;
	o.plate.ny = ny;
	o.plate.level = level;
	o.plate.length = 1;
	o.plate.lead = 0.25;
	o.plate.height = 0.5;
	o.plate.span = 0.05;
	o.plate.y1 = 1e-3;
	return o;
}

/* Index of the node at exactly (x, y, z), or -1. */
static fv_idx_t node_at(const fv_mesh_t *m, double x, double y, double z)
{
	for (fv_idx_t v = 0; v < m->n_nodes; v++) {
		const double *p = m->xyz + 3 * (size_t)v;
		if (p[0] == x && p[1] == y && p[2] == z)
			return v;
	}
	return -1;
}

/* Smallest |c - c0| > 0 over the nodes on the line where coordinate a of
 * the node is c0 and coordinate b is b0: the spacing next to c0. */
static double spacing_next_to(const fv_mesh_t *m, int axis, double c0, int b, double b0, int dir)
{
	double best = INFINITY;
	for (fv_idx_t v = 0; v < m->n_nodes; v++) {
		const double *p = m->xyz + 3 * (size_t)v;
		double dc = dir * (p[axis] - c0);
		if (p[b] == b0 && p[2] == 0 && dc > 0 && dc < best)
			best = dc;
	}
	return best;
}

/* Markers, their areas and outward normals, the volume, for a plate of
 * span dz. */
static void check_plate_geometry(fv_mesh_t *m, double len, double lead, double h, double dz)
{
	const double area[7] = {h * dz, h * dz, lead * dz, len * dz, (len + lead) * dz, (len + lead) * h,
				(len + lead) * h};
	const int axis[7] = {0, 0, 1, 1, 1, 2, 2}, sign[7] = {-1, 1, -1, -1, 1, -1, 1};
	fv_mesh_stats_t st = prepared(m);
	FV_ASSERT_NEAR(st.vol_sum, (len + lead) * h * dz, TOL);
	assert_int_equal(m->n_markers, 7);
	for (int k = 0; k < 7; k++) {
		double vec[3], a;
		assert_string_equal(m->markers[k].name, plate_markers[k]);
		fv_mesh_marker_area(m, k, vec, &a);
		FV_ASSERT_NEAR(a, area[k], TOL);
		FV_ASSERT_NEAR(vec[axis[k]], sign[k] * area[k], TOL);
	}
	FV_ASSERT_NEAR(st.bbox[0], -lead, 0);
	FV_ASSERT_NEAR(st.bbox[1], len, 0);
	FV_ASSERT_NEAR(st.bbox[3], h, 0);
	FV_ASSERT_NEAR(st.bbox[5], dz, 0);
}

/* The defaults at level 5: TMR's domain and its coarsest grid, 35 x 25. */
static void test_plate_tmr(void **state)
{
	(void)state;
	fv_mesh_t m;
	fv_gen_opts_t o;
	fv_gen_opts_default(&o);
	o.plate.level = 5;
	FV_ASSERT_OK(fv_mesh_gen_plate(&m, &o));
	assert_int_equal(m.n_cells, 34 * 24);
	assert_int_equal(m.n_nodes, 35 * 25 * 2);
	check_plate_geometry(&m, 2, 0.33333, 1, 0.1);
	/* 96 of TMR's 544 finest cells ahead of the plate: 6 at level 5 */
	assert_int_equal(m.marker_face_off[3] - m.marker_face_off[2], 6);
	assert_int_equal(m.marker_face_off[4] - m.marker_face_off[3], 28);
	fv_mesh_free(&m);
}

/* Level 1: the spacings asked for, exactly where asked. */
static void test_plate_spacing(void **state)
{
	(void)state;
	fv_mesh_t m;
	fv_gen_opts_t o = plate_opts(FV_GEN_HEX, 69, 41, 1);
	o.plate.dx_le = 2e-3;
	o.plate.dx_te = 5e-3;
	FV_ASSERT_OK(fv_mesh_gen_plate(&m, &o));
	assert_int_equal(m.n_cells, 68 * 40);
	/* the leading edge is a node, on the wall and at both span planes */
	assert_true(node_at(&m, 0, 0, 0) >= 0);
	assert_true(node_at(&m, 0, 0, 0.05) >= 0);
	/* first cells exactly y1 and dx_le: nothing but the first spacing is added */
	FV_ASSERT_NEAR(spacing_next_to(&m, 1, 0, 0, 1, 1), 1e-3, 0);
	FV_ASSERT_NEAR(spacing_next_to(&m, 1, 0, 0, -0.25, 1), 1e-3, 0);
	FV_ASSERT_NEAR(spacing_next_to(&m, 0, 0, 1, 0, 1), 2e-3, 0);
	FV_ASSERT_NEAR(spacing_next_to(&m, 0, 0, 1, 0, -1), 2e-3, 0);
	FV_ASSERT_NEAR(spacing_next_to(&m, 0, 1, 1, 0, -1), 5e-3, 1e-12);
	check_plate_geometry(&m, 1, 0.25, 0.5, 0.05);
	fv_mesh_free(&m);
}

/* Each level's nodes are nodes of the next finer level, and each level
 * has half the cells of the finer one in x and y. */
static void test_plate_nested(void **state)
{
	(void)state;
	fv_mesh_t fine, coarse;
	fv_gen_opts_t o = plate_opts(FV_GEN_HEX, 137, 97, 1);
	FV_ASSERT_OK(fv_mesh_gen_plate(&fine, &o));
	for (int level = 2; level <= 4; level++) {
		o.plate.level = level;
		FV_ASSERT_OK(fv_mesh_gen_plate(&coarse, &o));
		assert_int_equal(coarse.n_cells, (136 >> (level - 1)) * (96 >> (level - 1)));
		for (fv_idx_t v = 0; v < coarse.n_nodes; v++) {
			const double *p = coarse.xyz + 3 * (size_t)v;
			if (node_at(&fine, p[0], p[1], p[2]) < 0)
				fail_msg("level %d node %d (%g %g %g) is not a level %d node", level, (int)v, p[0],
					 p[1], p[2], level - 1);
		}
		check_plate_geometry(&coarse, 1, 0.25, 0.5, 0.05);
		fv_mesh_free(&fine);
		fine = coarse;
	}
	fv_mesh_free(&fine);
}

/* Any cell kind: each block's cells, positive and closed, the same
 * markers and areas. */
static void test_plate_kinds(void **state)
{
	(void)state;
	static const int per_block[4] = {1, 6, 2, 0};
	fv_mesh_t m;
	for (int k = 0; k < 4; k++) {
		fv_gen_opts_t o = plate_opts(kinds[k], 35, 25, 2);
		FV_ASSERT_OK(fv_mesh_gen_plate(&m, &o));
		if (per_block[k])
			assert_int_equal(m.n_cells, per_block[k] * 17 * 12);
		check_plate_geometry(&m, 1, 0.25, 0.5, 0.05);
		fv_mesh_free(&m);
	}
}

/* re sets y1 for y+ = 1 halfway along the plate (White's Cf). */
static void test_plate_re(void **state)
{
	(void)state;
	fv_mesh_t m;
	fv_gen_opts_t o;
	fv_gen_opts_default(&o);
	o.plate.nx = 35;
	o.plate.ny = 25;
	o.plate.re = 5e6;
	FV_ASSERT_OK(fv_mesh_gen_plate(&m, &o));
	double utau = sqrt(0.5 * 0.027 * pow(5e6, -1.0 / 7));
	FV_ASSERT_NEAR(spacing_next_to(&m, 1, 0, 0, 2, 1), 1 / (5e6 * utau), 1e-15);
	assert_true(fabs(spacing_next_to(&m, 1, 0, 0, 2, 1) - 5.2e-6) < 0.1e-6);
	fv_mesh_free(&m);
}

static void test_plate_bad_options(void **state)
{
	(void)state;
	fv_mesh_t m;
	fv_gen_opts_t o;
#define BAD_PLATE(field, value, part)                                               \
	do {                                                                        \
		o = plate_opts(FV_GEN_HEX, 69, 41, 1);                              \
		o.field = value;                                                    \
		FV_ASSERT_ERR(fv_mesh_gen_plate(&m, &o), FV_ERR_ARG, part);         \
		assert_int_equal(m.n_cells, 0);                                     \
	} while (0)
	BAD_PLATE(plate.level, 0, "level");
	BAD_PLATE(plate.level, 5, "multiples of 16"); /* 68 cells in x */
	BAD_PLATE(plate.nx, 2, "nx >= 3");
	BAD_PLATE(plate.nx_lead, 68, "ahead of the plate");
	BAD_PLATE(plate.y1, 0.5, "y1");
	BAD_PLATE(plate.y1, 0, "y1");
	BAD_PLATE(plate.height, -1, "height");
	BAD_PLATE(plate.lead, NAN, "lead");
	BAD_PLATE(plate.dx_le, 0.3, "dx_le");
	BAD_PLATE(perturb, 0.1, "perturb");
	/* the plate's end cells alone (0.2 + 0.9) are longer than it */
	o = plate_opts(FV_GEN_HEX, 69, 41, 1);
	o.plate.dx_le = 0.2;
	o.plate.dx_te = 0.9;
	FV_ASSERT_ERR(fv_mesh_gen_plate(&m, &o), FV_ERR_ARG, "cannot start with spacing 0.2 and end with 0.9");
#undef BAD_PLATE
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_box_kinds),
		cmocka_unit_test(test_hex_face_count),
		cmocka_unit_test(test_mixed_has_all_types),
		cmocka_unit_test(test_perturbed),
		cmocka_unit_test(test_perturb_seed),
		cmocka_unit_test(test_ramp),
		cmocka_unit_test(test_ramp_off_grid),
		cmocka_unit_test(test_refine_boxes),
		cmocka_unit_test(test_refine_perturbed),
		cmocka_unit_test(test_refine_ramp),
		cmocka_unit_test(test_refine_single_cells),
		cmocka_unit_test(test_refine_errors),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_plate_tmr),
		cmocka_unit_test(test_plate_spacing),
		cmocka_unit_test(test_plate_nested),
		cmocka_unit_test(test_plate_kinds),
		cmocka_unit_test(test_plate_re),
		cmocka_unit_test(test_plate_bad_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
