/* SPDX-License-Identifier: MIT */
/* SU2 reader, faces, geometry and checks on small meshes with exact answers,
 * and one clear error for each kind of bad input.
 * Run as: tests/unit/test_mesh_core (cmocka; all tests must pass). */
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "util/parse.h"

/* Unit cube nodes, VTK hex order. */
#define CUBE_POINTS                                                            \
	"NPOIN= 8\n"                                                           \
	"0 0 0 0\n1 0 0 1\n1 1 0 2\n0 1 0 3\n0 0 1 4\n1 0 1 5\n1 1 1 6\n0 1 1 7\n"

static const char hex_su2[] =
	"% one unit hexahedron\n"
	"NDIME= 3\n"
	"NELEM= 1\n"
	"12 0 1 2 3 4 5 6 7 0\n" CUBE_POINTS
	"NMARK= 2\n"
	"MARKER_TAG= bottom\nMARKER_ELEMS= 1\n9 0 1 2 3\n"
	"MARKER_TAG= sides\nMARKER_ELEMS= 5\n9 4 5 6 7\n9 0 1 5 4\n9 1 2 6 5\n9 2 3 7 6\n9 3 0 4 7\n";

/* The cube as 6 Kuhn tets around the diagonal 0-6 (positive orientation). */
static const char tets_su2[] =
	"NDIME= 3\n"
	"NELEM= 6\n"
	"10 0 1 2 6\n10 0 2 3 6\n10 0 3 7 6\n10 0 7 4 6\n10 0 4 5 6\n10 0 5 1 6\n" CUBE_POINTS
	"NMARK= 1\n"
	"MARKER_TAG= wall\nMARKER_ELEMS= 12\n"
	"5 0 1 2\n5 0 2 3\n5 4 5 6\n5 4 6 7\n5 0 1 5\n5 0 5 4\n"
	"5 1 2 6\n5 1 6 5\n5 2 3 6\n5 3 7 6\n5 0 3 7\n5 0 7 4\n";

/* A pyramid (unit base, apex height 1) and a prism (half cube) sharing
 * nothing: two cells, all faces on the boundary. */
static const char pyr_prism_su2[] =
	"NDIME= 3\n"
	"NELEM= 2\n"
	"14 0 1 2 3 4\n"
	"13 5 6 7 8 9 10\n"
	"NPOIN= 11\n"
	"0 0 0\n1 0 0\n1 1 0\n0 1 0\n0.5 0.5 1\n"
	"5 0 0\n5 1 0\n6 0 0\n5 0 1\n5 1 1\n6 0 1\n"
	"NMARK= 2\n"
	"MARKER_TAG= pyr\nMARKER_ELEMS= 5\n9 0 1 2 3\n5 0 1 4\n5 1 2 4\n5 2 3 4\n5 3 0 4\n"
	"MARKER_TAG= prism\nMARKER_ELEMS= 5\n5 5 6 7\n5 8 9 10\n9 5 8 9 6\n9 6 9 10 7\n9 7 10 8 5\n";

static void load_buf(fv_mesh_t *m, const char *text)
{
	FV_ASSERT_OK(fv_mesh_parse_su2(m, text, strlen(text), "test.su2"));
	FV_ASSERT_OK(fv_mesh_prepare(m));
}

static double face_dot(const fv_mesh_t *m, fv_idx_t f, const double d[3])
{
	size_t n = (size_t)m->n_faces;
	return m->face_area[f] * d[0] + m->face_area[n + f] * d[1] + m->face_area[2 * n + f] * d[2];
}

/* Invariants every prepared mesh satisfies. */
static void assert_connectivity(const fv_mesh_t *m)
{
	size_t nc = (size_t)m->n_cells, nf = (size_t)m->n_faces;
	for (fv_idx_t f = 0; f < m->n_faces; f++) {
		fv_idx_t o = m->face_cell[2 * f], nb = m->face_cell[2 * f + 1];
		double d[3];
		assert_true(f < m->n_bfaces ? nb == -1 : (nb > o && nb < m->n_cells));
		/* normal from owner to neighbour, outward on the boundary */
		for (int k = 0; k < 3; k++)
			d[k] = nb >= 0 ? m->cell_ctr[k * nc + nb] - m->cell_ctr[k * nc + o]
				       : m->face_ctr[k * nf + f] - m->cell_ctr[k * nc + o];
		assert_true(face_dot(m, f, d) > 0);
	}
	for (fv_idx_t f = 1; f < m->n_bfaces; f++)
		assert_true(m->face_marker[f - 1] <= m->face_marker[f]);
	for (fv_idx_t c = 0; c < m->n_cells; c++)
		for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
			fv_idx_t f = m->cell_face[s];
			assert_int_equal(m->face_cell[2 * f + (m->cell_face_sign[s] > 0 ? 0 : 1)], c);
			assert_int_equal(m->cell_cell[s], m->face_cell[2 * f + (m->cell_face_sign[s] > 0 ? 1 : 0)]);
		}
	for (fv_idx_t c = 0; c < m->n_cells; c++)
		for (fv_idx_t i = m->cell_node_off[c]; i < m->cell_node_off[c + 1]; i++) {
			fv_idx_t v = m->cell_node[i];
			int found = 0;
			for (fv_idx_t k = m->node_cell_off[v]; k < m->node_cell_off[v + 1]; k++)
				found |= m->node_cell[k] == c;
			assert_true(found);
		}
}

static void test_hex(void **state)
{
	fv_mesh_t m;
	fv_mesh_stats_t s;
	double av[3], a;
	(void)state;
	load_buf(&m, hex_su2);
	assert_int_equal(m.n_cells, 1);
	assert_int_equal(m.n_faces, 6);
	assert_int_equal(m.n_bfaces, 6);
	assert_int_equal(m.n_markers, 2);
	FV_ASSERT_OK(fv_mesh_check(&m, 0, &s));
	FV_ASSERT_NEAR(s.vol_sum, 1.0, FV_TOL(1e-14));
	FV_ASSERT_NEAR(m.cell_ctr[0], 0.5, FV_TOL(1e-14));
	FV_ASSERT_NEAR(m.cell_ctr[1], 0.5, FV_TOL(1e-14));
	FV_ASSERT_NEAR(m.cell_ctr[2], 0.5, FV_TOL(1e-14));
	fv_mesh_marker_area(&m, 0, av, &a);
	FV_ASSERT_NEAR(a, 1.0, FV_TOL(1e-14));
	FV_ASSERT_NEAR(av[2], -1.0, FV_TOL(1e-14)); /* bottom points down */
	fv_mesh_marker_area(&m, 1, av, &a);
	FV_ASSERT_NEAR(a, 5.0, FV_TOL(1e-14));
	assert_connectivity(&m);
	fv_mesh_free(&m);
}

static void test_tets(void **state)
{
	fv_mesh_t m;
	fv_mesh_stats_t s;
	(void)state;
	load_buf(&m, tets_su2);
	assert_int_equal(m.n_cells, 6);
	/* 12 boundary triangles + 6 interior faces around the diagonal */
	assert_int_equal(m.n_faces, 18);
	assert_int_equal(m.n_bfaces, 12);
	FV_ASSERT_OK(fv_mesh_check(&m, 0, &s));
	FV_ASSERT_NEAR(s.vol_sum, 1.0, FV_TOL(1e-14));
	FV_ASSERT_NEAR(s.vol_min, 1.0 / 6, FV_TOL(1e-14));
	FV_ASSERT_NEAR(s.vol_max, 1.0 / 6, FV_TOL(1e-14));
	assert_true(s.closure_max < FV_TOL(1e-14));
	assert_connectivity(&m);
	/* node 0 and 6 are in every tet */
	assert_int_equal(m.node_cell_off[1] - m.node_cell_off[0], 6);
	assert_int_equal(m.node_cell_off[7] - m.node_cell_off[6], 6);
	fv_mesh_free(&m);
}

static void test_pyramid_prism(void **state)
{
	fv_mesh_t m;
	(void)state;
	load_buf(&m, pyr_prism_su2);
	FV_ASSERT_NEAR(m.cell_vol[0], 1.0 / 3, FV_TOL(1e-14));
	FV_ASSERT_NEAR(m.cell_vol[1], 0.5, FV_TOL(1e-14));
	/* pyramid centroid at a quarter of the height */
	FV_ASSERT_NEAR(m.cell_ctr[2 * 2 + 0], 0.25, FV_TOL(1e-14));
	assert_int_equal(m.n_faces, 10);
	assert_connectivity(&m);
	fv_mesh_free(&m);
}

/* A hex with a raised corner has warped faces: still closed, and its
 * volume is that of the tetrahedralised surface, independent of where the
 * mesh sits in space. */
static void test_warped_hex_translation(void **state)
{
	fv_mesh_t a, b;
	fv_mesh_stats_t s;
	(void)state;
	FV_ASSERT_OK(fv_mesh_parse_su2(&a, hex_su2, strlen(hex_su2), "a"));
	FV_ASSERT_OK(fv_mesh_parse_su2(&b, hex_su2, strlen(hex_su2), "b"));
	a.xyz[3 * 6 + 2] = 1.3;
	b.xyz[3 * 6 + 2] = 1.3;
	for (int i = 0; i < 8; i++)
		for (int d = 0; d < 3; d++)
			b.xyz[3 * i + d] += 1000.0 * (d + 1);
	FV_ASSERT_OK(fv_mesh_prepare(&a));
	FV_ASSERT_OK(fv_mesh_prepare(&b));
	FV_ASSERT_OK(fv_mesh_check(&a, 0, &s));
	assert_true(s.closure_max < FV_TOL(1e-14));
	assert_true(a.cell_vol[0] > 1.0 && a.cell_vol[0] < 1.3);
	FV_ASSERT_NEAR(b.cell_vol[0], a.cell_vol[0], FV_TOL(1e-11));
	FV_ASSERT_NEAR(b.cell_ctr[0] - 1000.0, a.cell_ctr[0], FV_TOL(1e-11));
	fv_mesh_free(&a);
	fv_mesh_free(&b);
}

static void test_any_order_and_comments(void **state)
{
	/* NPOIN before NELEM, comments, CRLF, "NPOIN= n n" */
	static const char txt[] =
		"NDIME=3\r\n% comment\r\n" "NPOIN= 8 8\r\n"
		"0 0 0\r\n1 0 0\r\n1 1 0\r\n0 1 0\r\n0 0 1\r\n1 0 1\r\n1 1 1\r\n0 1 1\r\n"
		"NELEM= 1\r\n12 0 1 2 3 4 5 6 7\r\n"
		"NMARK= 1\r\nMARKER_TAG= all  \r\nMARKER_ELEMS= 6\r\n"
		"9 0 1 2 3\r\n9 4 5 6 7\r\n9 0 1 5 4\r\n9 1 2 6 5\r\n9 2 3 7 6\r\n9 3 0 4 7\r\n";
	fv_mesh_t m;
	(void)state;
	load_buf(&m, txt);
	assert_string_equal(m.markers[0].name, "all");
	FV_ASSERT_NEAR(m.cell_vol[0], 1.0, FV_TOL(1e-14));
	fv_mesh_free(&m);
}

/* Each bad input: the right code and a message naming the place. */
typedef struct bad_case {
	const char *what;
	const char *from, *to;  /* replace in hex_su2 (or tets_su2) */
	int tets;
	fv_err_t code;
	const char *msg;
	int prepare;            /* the error shows only after parsing */
} bad_case_t;

static const bad_case_t bad_cases[] = {
	{"unknown element", "12 0 1 2 3 4 5 6 7 0", "11 0 1 2 3 4 5 6 7 0", 0, FV_ERR_FORMAT, "test.su2:4: unknown element type 11", 0},
	{"surface in NELEM", "12 0 1 2 3 4 5 6 7 0", "9 0 1 2 3", 0, FV_ERR_FORMAT, "test.su2:4: element type 9", 0},
	{"node out of range", "12 0 1 2 3 4 5 6 7 0", "12 0 1 2 3 4 5 6 8 0", 0, FV_ERR_FORMAT, "test.su2:4: hexahedron: node id 8 out of range", 0},
	{"negative node", "12 0 1 2 3 4 5 6 7 0", "12 0 1 2 3 -4 5 6 7 0", 0, FV_ERR_FORMAT, "test.su2:4:", 0},
	{"too few nodes", "12 0 1 2 3 4 5 6 7 0", "12 0 1 2 3 4 5 6", 0, FV_ERR_FORMAT, "test.su2:4: line ends before hexahedron", 0},
	{"NELEM too large", "NELEM= 1\n", "NELEM= 2\n", 0, FV_ERR_FORMAT, "test.su2:5: found 'NPOIN=' after 1 of NELEM= 2", 0},
	{"NELEM too small", "NELEM= 1\n", "NELEM= 0\n", 0, FV_ERR_FORMAT, "test.su2:4: more records than NELEM= 0", 0},
	{"NPOIN too small", "NPOIN= 8\n", "NPOIN= 7\n", 0, FV_ERR_FORMAT, "test.su2:4: hexahedron: node id 7 out of range [0, 7)", 0},
	{"NaN coordinate", "1 1 1 6\n", "1 nan 1 6\n", 0, FV_ERR_FORMAT, "test.su2:12: point coordinate is not finite", 0},
	{"garbage coordinate", "1 1 1 6\n", "1 1x 1 6\n", 0, FV_ERR_FORMAT, "test.su2:12: expected a real number", 0},
	{"missing coordinate", "1 1 1 6\n", "1 1\n", 0, FV_ERR_FORMAT, "test.su2:12: line ends before point coordinate", 0},
	{"3D cell in a 2D mesh", "NDIME= 3", "NDIME= 2", 0, FV_ERR_FORMAT, "test.su2:4: element type 12 in a 2D mesh (NDIME= 2)", 0},
	{"NDIME 4", "NDIME= 3", "NDIME= 4", 0, FV_ERR_FORMAT, "test.su2:2: NDIME= 4: expected 2 or 3", 0},
	{"unknown keyword", "NMARK= 2", "NMARKS= 2", 0, FV_ERR_FORMAT, "test.su2:14: unknown keyword 'NMARKS='", 0},
	{"bad marker element", "9 4 5 6 7\n", "7 4 5 6 7\n", 0, FV_ERR_FORMAT, "marker sides: element type 7", 0},
	{"marker count", "MARKER_ELEMS= 5", "MARKER_ELEMS= 6", 0, FV_ERR_FORMAT, "truncated: the file ends at line 24, before element 6 of MARKER_ELEMS= 6 of marker sides", 0},
	{"missing marker", "NMARK= 2", "NMARK= 3", 0, FV_ERR_FORMAT, "expected MARKER_TAG= for marker 3", 0},
	{"no NMARK", "NMARK= 2\n", "", 0, FV_ERR_FORMAT, "test.su2:14: MARKER_TAG= outside the NMARK= section", 0},
	{"duplicate marker", "MARKER_TAG= sides", "MARKER_TAG= bottom", 0, FV_ERR_FORMAT, "test.su2:18: marker name 'bottom' comes twice: MARKER_TAG= bottom at line 15 and at line 18", 0},
	{"NPOIN beyond the limit", "NPOIN= 8\n", "NPOIN= 4294967296\n", 0, FV_ERR_FORMAT, "test.su2:5: NPOIN= 4294967296 is beyond the limit of 2147483646", 0},
	{"negative NPOIN", "NPOIN= 8\n", "NPOIN= -8\n", 0, FV_ERR_FORMAT, "test.su2:5: NPOIN= -8 is negative", 0},
	{"negative NMARK", "NMARK= 2\n", "NMARK= -2\n", 0, FV_ERR_FORMAT, "test.su2:14: NMARK= -2 is negative", 0},
	{"absurd coordinate", "1 1 1 6\n", "1 -2e15 1 6\n", 0, FV_ERR_FORMAT, "test.su2:12: point coordinate -2e+15 is beyond the limit of 1e+12", 0},
	{"huge count", "NELEM= 1\n", "NELEM= 99999999\n", 0, FV_ERR_FORMAT, "test.su2:3: NELEM= 99999999 is more records than the file holds before the next section (NPOIN= at line 5): the count is wrong", 0},
	{"unmarked face", "MARKER_ELEMS= 5\n9 4 5 6 7\n", "MARKER_ELEMS= 4\n", 0, FV_ERR_MESH, "boundary face (nodes 4 5 6 7) of element 0 is under no marker", 1},
	{"not a face", "9 4 5 6 7\n", "9 4 5 6 0\n", 0, FV_ERR_MESH, "marker sides: boundary element 1 (nodes 4 5 6 0) is not a face of any cell", 1},
	{"inverted cell", "12 0 1 2 3 4 5 6 7 0", "12 4 5 6 7 0 1 2 3 0", 0, FV_ERR_MESH, "element 0 (hexahedron, nodes 4 5 6 7 0 1 2 3, centroid 0.5 0.5 0.5) is inverted", 1},
	{"repeated node", "12 0 1 2 3 4 5 6 7 0", "12 0 1 2 3 4 5 6 6 0", 0, FV_ERR_MESH, "element 0 (hexahedron) repeats node 6", 1},
	{"interior face marked", "5 0 1 2\n5 0 2 3\n", "5 0 1 2\n5 0 2 6\n", 1, FV_ERR_MESH, "is an interior face between element 0 and element 1", 1},
	{"face of 3 cells", "10 0 5 1 6\n", "10 0 5 1 6\n10 0 1 2 6\n", 1, FV_ERR_FORMAT, "more records than NELEM= 6", 0},
	{"face of 3 cells (counted)", "NELEM= 6\n10 0 1 2 6\n", "NELEM= 7\n10 0 1 2 6\n10 0 1 2 6\n", 1, FV_ERR_MESH, "shared by more than two cells", 1},
};

static char *replace(const char *src, const char *from, const char *to)
{
	const char *hit = strstr(src, from);
	char *out;
	size_t a, b, c;
	if (!hit)
		fail_msg("test text lacks '%s'", from);
	a = (size_t)(hit - src);
	b = strlen(to);
	c = strlen(hit + strlen(from));
	out = malloc(a + b + c + 1);
	memcpy(out, src, a);
	memcpy(out + a, to, b);
	memcpy(out + a + b, hit + strlen(from), c + 1);
	return out;
}

static void test_bad_inputs(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof bad_cases / sizeof bad_cases[0]; k++) {
		const bad_case_t *bc = &bad_cases[k];
		char *txt = replace(bc->tets ? tets_su2 : hex_su2, bc->from, bc->to);
		fv_mesh_t m;
		fv_err_t err;
		print_message("bad input: %s\n", bc->what);
		fv_error_clear();
		err = fv_mesh_parse_su2(&m, txt, strlen(txt), "test.su2");
		if (bc->prepare) {
			if (err != FV_OK)
				fail_msg("%s: parse failed early: %s", bc->what, fv_errmsg());
			err = fv_mesh_prepare(&m);
			fv_mesh_free(&m);
		}
		if (err != bc->code || !strstr(fv_errmsg(), bc->msg))
			fail_msg("%s: got %d '%s', expected %d with '%s'", bc->what, (int)err, fv_errmsg(),
				 (int)bc->code, bc->msg);
		free(txt);
	}
}

/* Every prefix of a valid file fails cleanly (or parses, for the few
 * prefixes that end exactly at a record boundary and are complete). */
static void test_truncations(void **state)
{
	size_t n = strlen(hex_su2);
	(void)state;
	for (size_t len = 0; len < n; len++) {
		fv_mesh_t m;
		fv_err_t err = fv_mesh_parse_su2(&m, hex_su2, len, "cut.su2");
		if (err == FV_OK) {
			err = fv_mesh_prepare(&m);
			fv_mesh_free(&m);
		}
		if (err == FV_OK && len < n - 12)
			fail_msg("prefix of %zu bytes accepted", len);
		if (err != FV_OK)
			assert_true(strstr(fv_errmsg(), "cut.su2") != NULL);
	}
}

static void test_no_markers(void **state)
{
	fv_mesh_t m;
	(void)state;
	FV_ASSERT_ERR(fv_mesh_parse_su2(&m, hex_su2, (size_t)(strstr(hex_su2, "NMARK") - hex_su2), "nomark.su2"),
		      FV_ERR_FORMAT, "nomark.su2: no NMARK= section");
}

static void test_read_file_errors(void **state)
{
	fv_mesh_t m;
	char dir[64], fifo[96], *buf;
	size_t len;
	(void)state;
	FV_ASSERT_ERR(fv_mesh_read(&m, "/nonexistent/dir/mesh.su2"), FV_ERR_IO, "/nonexistent/dir/mesh.su2: cannot open");
	FV_ASSERT_ERR(fv_mesh_read(&m, "/"), FV_ERR_IO, "/: is a directory, not a regular file");
	FV_ASSERT_ERR(fv_mesh_read(&m, "/dev/null"), FV_ERR_IO, "/dev/null: is a character device, not a regular file");
	/* a FIFO without a writer: refused, where open() alone would wait */
	snprintf(dir, sizeof dir, "/tmp/fvstar-fifo-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof fifo, "%s/mesh.su2", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	FV_ASSERT_ERR(fv_mesh_read(&m, fifo), FV_ERR_IO, "mesh.su2: is a named pipe (FIFO), not a regular file");
	FV_ASSERT_ERR(fv_read_file(fifo, &buf, &len), FV_ERR_IO, "mesh.su2: is a named pipe (FIFO)");
	if (fv_mesh_have_cgns())
		FV_ASSERT_ERR(fv_mesh_read_cgns(&m, fifo), FV_ERR_IO, "mesh.su2: is a named pipe (FIFO)");
	assert_int_equal(unlink(fifo), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* A mesh that did not come through a reader (a program, a part file) with
 * two markers of one name fails its checks. */
static void test_marker_names_unique(void **state)
{
	fv_mesh_t m;
	(void)state;
	load_buf(&m, hex_su2);
	FV_ASSERT_OK(fv_mesh_check(&m, 0, NULL));
	strcpy(m.markers[1].name, "bottom");
	FV_ASSERT_ERR(fv_mesh_check(&m, 0, NULL), FV_ERR_MESH,
		      "test.su2: markers 0 and 1 are both named 'bottom': each marker needs its own name");
	fv_mesh_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_tets),
		cmocka_unit_test(test_pyramid_prism),
		cmocka_unit_test(test_warped_hex_translation),
		cmocka_unit_test(test_any_order_and_comments),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_no_markers),
		cmocka_unit_test(test_marker_names_unique),
		cmocka_unit_test(test_read_file_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
