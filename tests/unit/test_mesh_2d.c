/* SPDX-License-Identifier: MIT */
/* 2D SU2 meshes (NDIME= 2): extruded into one layer of prisms and hexahedra
 * with positive volumes, file markers on the side walls, two symmetry
 * markers that never take a file marker's name, and clear errors. */
#include <math.h>

#include "testutil.h"

/* [0,2]x[0,1]: a quadrilateral, and two triangles of opposite windings;
 * the file already has a marker called symmetry_zmin. */
static const char square2d[] =
	"% two triangles and a quadrilateral\n"
	"NDIME= 2\n"
	"NELEM= 3\n"
	"9 0 1 4 3 0\n"
	"5 1 2 5 1\n"
	"5 1 4 5 2\n"
	"NPOIN= 6\n"
	"0 0 0\n"
	"1 0 1\n"
	"2 0 2\n"
	"0 1 3\n"
	"1 1 4\n"
	"2 1 5\n"
	"NMARK= 4\n"
	"MARKER_TAG= bottom\n"
	"MARKER_ELEMS= 2\n"
	"3 0 1\n"
	"3 1 2\n"
	"MARKER_TAG= right\n"
	"MARKER_ELEMS= 1\n"
	"3 2 5\n"
	"MARKER_TAG= top\n"
	"MARKER_ELEMS= 2\n"
	"3 5 4\n"
	"3 4 3\n"
	"MARKER_TAG= symmetry_zmin\n"
	"MARKER_ELEMS= 1\n"
	"3 3 0\n";

static int marker(const fv_mesh_t *m, const char *name)
{
	for (int k = 0; k < m->n_markers; k++)
		if (strcmp(m->markers[k].name, name) == 0)
			return k;
	fail_msg("no marker %s", name);
	return -1;
}

static void assert_marker(const fv_mesh_t *m, const char *name, int faces, double area, double nz)
{
	int k = marker(m, name);
	double v[3], a;
	assert_int_equal(m->marker_face_off[k + 1] - m->marker_face_off[k], faces);
	fv_mesh_marker_area(m, k, v, &a);
	FV_ASSERT_NEAR(a, area, 1e-14);
	FV_ASSERT_NEAR(v[2], nz, 1e-14);
}

static void test_square(void **s)
{
	fv_mesh_t m;
	fv_mesh_stats_t st;
	(void)s;
	FV_ASSERT_OK(fv_mesh_parse_su2(&m, square2d, sizeof square2d - 1, "square2d.su2"));
	assert_true(m.extruded_2d);
	FV_ASSERT_NEAR(m.extrude_span, FV_EXTRUDE_SPAN_DEFAULT, 0);
	assert_int_equal(m.n_nodes, 12);
	assert_int_equal(m.n_cells, 3);
	assert_int_equal(m.cell_type[0], FV_HEX);
	assert_int_equal(m.cell_type[1], FV_PRISM);
	assert_int_equal(m.cell_type[2], FV_PRISM);
	FV_ASSERT_OK(fv_mesh_prepare(&m));
	FV_ASSERT_OK(fv_mesh_check(&m, 0, &st));
	FV_ASSERT_NEAR(st.vol_sum, 2, 1e-14);
	FV_ASSERT_NEAR(m.cell_vol[0], 1, 1e-14);
	FV_ASSERT_NEAR(m.cell_vol[1], 0.5, 1e-14);
	FV_ASSERT_NEAR(m.cell_vol[2], 0.5, 1e-14);
	assert_int_equal(m.n_markers, 6);
	assert_marker(&m, "bottom", 2, 2, 0);
	assert_marker(&m, "right", 1, 1, 0);
	assert_marker(&m, "top", 2, 2, 0);
	assert_marker(&m, "symmetry_zmin", 1, 1, 0); /* the file's */
	assert_marker(&m, "symmetry_zmin_2", 3, 2, -2);
	assert_marker(&m, "symmetry_zmax", 3, 2, 2);
	assert_string_equal(m.markers[m.extrude_marker[0]].name, "symmetry_zmin_2");
	assert_string_equal(m.markers[m.extrude_marker[1]].name, "symmetry_zmax");
	/* every z face is under a symmetry marker, no side face is */
	for (fv_idx_t f = 0; f < m.n_bfaces; f++) {
		int z = fabs(m.face_area[2 * m.n_faces + f]) > 0;
		int sym = m.face_marker[f] == m.extrude_marker[0] || m.face_marker[f] == m.extrude_marker[1];
		assert_int_equal(z, sym);
	}
	fv_mesh_free(&m);
}

static void test_span(void **s)
{
	fv_mesh_t m, fine;
	fv_mesh_stats_t st;
	(void)s;
	FV_ASSERT_OK(fv_mesh_parse_su2(&m, square2d, sizeof square2d - 1, "square2d.su2"));
	FV_ASSERT_OK(fv_mesh_set_extrude_span(&m, 0.25));
	/* refined: still a 2D case, two layers of the same span */
	fv_mesh_init(&fine);
	FV_ASSERT_OK(fv_mesh_refine(&m, &fine));
	assert_true(fine.extruded_2d);
	FV_ASSERT_NEAR(fine.extrude_span, 0.25, 0);
	FV_ASSERT_OK(fv_mesh_set_extrude_span(&fine, 0.5));
	FV_ASSERT_OK(fv_mesh_prepare(&fine));
	FV_ASSERT_OK(fv_mesh_check(&fine, 0, &st));
	FV_ASSERT_NEAR(st.vol_sum, 1, 1e-14);
	FV_ASSERT_NEAR(st.bbox[5], 0.5, 1e-15);
	FV_ASSERT_ERR(fv_mesh_set_extrude_span(&fine, 1), FV_ERR_ARG, "before faces and geometry");
	fv_mesh_free(&fine);

	FV_ASSERT_OK(fv_mesh_prepare(&m));
	FV_ASSERT_OK(fv_mesh_check(&m, 0, &st));
	FV_ASSERT_NEAR(st.vol_sum, 0.5, 1e-14);
	fv_mesh_free(&m);

	fv_gen_opts_t g;
	fv_gen_opts_default(&g);
	FV_ASSERT_OK(fv_mesh_gen_box(&m, &g));
	FV_ASSERT_ERR(fv_mesh_set_extrude_span(&m, 2), FV_ERR_ARG, "2D meshes only");
	fv_mesh_free(&m);
}

/* text with its first occurrence of from replaced by to */
static char *patched(const char *from, const char *to)
{
	static char buf[2048];
	const char *p = strstr(square2d, from);
	assert_non_null(p);
	snprintf(buf, sizeof buf, "%.*s%s%s", (int)(p - square2d), square2d, to, p + strlen(from));
	return buf;
}

static void bad(const char *text, fv_err_t code, const char *part)
{
	fv_mesh_t m;
	FV_ASSERT_ERR(fv_mesh_parse_su2(&m, text, strlen(text), "bad2d.su2"), code, part);
}

static void test_errors(void **s)
{
	(void)s;
	bad(patched("5 1 2 5 1\n", "10 1 2 5 4\n"), FV_ERR_FORMAT,
	    "bad2d.su2:5: element type 10 in a 2D mesh (NDIME= 2): NELEM holds only triangles (5) and "
	    "quadrilaterals (9)");
	bad(patched("3 2 5\n", "5 2 5 4\n"), FV_ERR_FORMAT, "marker right: element type 5 is not a line (3)");
	bad(patched("5 1 2 5 1\n", "5 1 2 9 1\n"), FV_ERR_FORMAT, "node id 9 out of range");
	bad(patched("NDIME= 2\n", "NDIME= 4\n"), FV_ERR_FORMAT, "NDIME= 4: expected 2 or 3");
	/* collinear: zero area */
	bad(patched("5 1 4 5 2\n", "5 0 1 2 2\n"), FV_ERR_MESH, "element 2 (triangle, nodes 0 1 2) has zero area");
	/* a 2D point line with one coordinate */
	bad(patched("1 1 4\n", "1\n"), FV_ERR_FORMAT, "bad2d.su2:12:");
	/* NDIME= 2 after the cells it describes */
	{
		static const char late[] = "NPOIN= 3\n0 0 0\n1 0 0\n0 1 0\nNDIME= 2\nNELEM= 1\n5 0 1 2\nNMARK= 0\n";
		bad(late, FV_ERR_FORMAT, "NDIME= 2 after the sections");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_square),
		cmocka_unit_test(test_span),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
