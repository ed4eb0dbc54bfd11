/* SPDX-License-Identifier: MIT */
/* Unit tests of the Gmsh MSH 2.2 / 4.1 reader: contents, node orders,
 * markers, and one clear error with a line number for each bad input. */
#include <math.h>
#include <unistd.h>

#include "testutil.h"

/* Two tets sharing face (20 30 40), sparse node tags, one triangle in two
 * physical groups (written twice, MSH 2.2 style), a volume in two physical
 * volumes, a line and a point to skip. */
static const char msh22_two_tets[] =
	"$MeshFormat\n"
	"2.2 0 8\n"
	"$EndMeshFormat\n"
	"$PhysicalNames\n"
	"4\n"
	"2 1 \"bottom side\"\n"
	"2 3 \"extra\"\n"
	"3 1 \"fluid\"\n"
	"3 4 \"fluid2\"\n"
	"$EndPhysicalNames\n"
	"$Comments\n"
	"anything $Nodes here\n"
	"$EndComments\n"
	"$Nodes\n"
	"5\n"
	"10 0 0 0\n"
	"20 1 0 0\n"
	"30 0 1 0\n"
	"40 0 0 1\n"
	"1000000 1 1 1\n"
	"$EndNodes\n"
	"$Elements\n"
	"12\n"
	"1 15 2 0 1 10\n"
	"2 1 2 0 1 10 20\n"
	"3 2 2 1 1 10 30 20\n"
	"4 2 2 3 1 10 30 20\n"
	"5 2 2 1 1 10 20 40\n"
	"6 2 2 1 2 10 40 30\n"
	"7 2 2 2 7 20 30 1000000\n"
	"8 2 2 0 8 20 1000000 40\n"
	"9 2 2 0 8 30 40 1000000\n"
	"10 4 2 1 1 10 20 30 40\n"
	"11 4 2 1 1 20 30 40 1000000\n"
	"12 4 2 4 1 20 30 40 1000000\n"
	"$EndElements\n";

/* A hex, two prisms, a pyramid on the hex and a tet on a prism; blocks of
 * both parametric kinds; an unused node; an entity with two physical
 * groups, one without any, and skipped lines and points. */
static const char msh41_mixed[] =
	"$MeshFormat\n"
	"4.1 0 8\n"
	"$EndMeshFormat\n"
	"$PhysicalNames\n"
	"3\n"
	"2 7 \"bottom\"\n"
	"2 6 \"six\"\n"
	"3 9 \"fluid\"\n"
	"$EndPhysicalNames\n"
	"$Entities\n"
	"1 0 3 1\n"
	"1 0 0 0 0\n"
	"1 0 0 0 2 1 0 1 7 0\n"
	"2 0 0 0 1 1 1 0 0\n"
	"3 0 0 0 1 1 1 2 5 6 0\n"
	"1 0 0 0 2 1 2 1 9 3 1 2 -3\n"
	"$EndEntities\n"
	"$Nodes\n"
	"2 15 1 15\n"
	"3 1 0 8\n"
	"1\n2\n3\n4\n5\n6\n7\n8\n"
	"0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n1 1 1\n0 1 1\n"
	"2 1 1 7\n"
	"9\n10\n11\n12\n13\n14\n15\n"
	"2 0 0 0.1 0.2\n"
	"2 1 0 0.1 0.2\n"
	"2 0 1 0.1 0.2\n"
	"2 1 1 0.1 0.2\n"
	"0.5 0.5 2 0.1 0.2\n"
	"1.5 0.3 2 0.1 0.2\n"
	"5 5 5 0.1 0.2\n"
	"$EndNodes\n"
	"$Elements\n"
	"10 12 1 12\n"
	"3 1 5 1\n"
	"1 1 2 3 4 5 6 7 8\n"
	"3 1 6 2\n"
	"2 2 9 10 6 11 12\n"
	"3 2 10 3 6 12 7\n"
	"3 1 7 1\n"
	"4 5 6 7 8 13\n"
	"3 1 4 1\n"
	"5 6 11 12 14\n"
	"2 1 3 1\n"
	"6 1 4 3 2\n"
	"2 1 2 2\n"
	"7 2 10 9\n"
	"8 2 3 10\n"
	"2 2 2 1\n"
	"9 6 11 14\n"
	"2 3 2 1\n"
	"10 11 12 14\n"
	"1 1 1 1\n"
	"11 1 2\n"
	"0 1 15 1\n"
	"12 13\n"
	"$EndElements\n"
	"$Periodic\n"
	"0\n"
	"$EndPeriodic\n";

static const char msh41_prism[] =
	"$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
	"$Nodes\n1 6 1 6\n3 1 0 6\n1\n2\n3\n4\n5\n6\n"
	"0 0 0\n1 0 0\n0 1 0\n0 0 1\n1 0 1\n0 1 1\n$EndNodes\n"
	"$Elements\n1 1 1 1\n3 1 6 1\n1 1 2 3 4 5 6\n$EndElements\n";

/* Parses text from an exact-size heap copy, so that a read past the end
 * shows up under a memory checker. */
static fv_err_t parse_str(fv_mesh_t *m, const char *text, size_t len)
{
	char *buf = malloc(len ? len : 1);
	fv_err_t err;
	if (!buf)
		return FV_ERR_MEM;
	memcpy(buf, text, len);
	err = fv_mesh_parse_gmsh(m, buf, len, "t.msh");
	free(buf);
	return err;
}

static fv_err_t parse(fv_mesh_t *m, const char *text)
{
	return parse_str(m, text, strlen(text));
}

/* Volume of cell c from its VTK node order and the outward faces of
 * fv_cell_shapes: divergence theorem over faces fanned around their
 * centroids. Negative when the order is wrong. */
static double cell_volume(const fv_mesh_t *m, fv_idx_t c)
{
	const fv_cell_shape_t *s = &fv_cell_shapes[m->cell_type[c]];
	const fv_idx_t *v = m->cell_node + m->cell_node_off[c];
	double vol = 0;
	for (int f = 0; f < s->n_faces; f++) {
		int n = s->face_n_nodes[f];
		double ctr[3] = {0, 0, 0};
		for (int k = 0; k < n; k++)
			for (int d = 0; d < 3; d++)
				ctr[d] += m->xyz[3 * v[s->face_node[f][k]] + d] / n;
		for (int k = 0; k < n; k++) {
			const double *a = &m->xyz[3 * v[s->face_node[f][k]]];
			const double *b = &m->xyz[3 * v[s->face_node[f][(k + 1) % n]]];
			double cr[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
					a[0] * b[1] - a[1] * b[0]};
			vol += (ctr[0] * cr[0] + ctr[1] * cr[1] + ctr[2] * cr[2]) / 6;
		}
	}
	return vol;
}

static int marker_index(const fv_mesh_t *m, const char *name)
{
	for (int k = 0; k < m->n_markers; k++)
		if (strcmp(m->markers[k].name, name) == 0)
			return k;
	return -1;
}

static fv_idx_t count_marker(const fv_mesh_t *m, int k)
{
	fv_idx_t n = 0;
	for (fv_idx_t i = 0; i < m->n_belems; i++)
		n += m->belem_marker[i] == k;
	return n;
}

static void test_msh22_two_tets(void **state)
{
	fv_mesh_t m;
	(void)state;
	FV_ASSERT_OK(parse(&m, msh22_two_tets));
	assert_string_equal(m.source, "t.msh");
	assert_int_equal(m.n_nodes, 5);
	assert_int_equal(m.n_cells, 2);
	assert_int_equal(m.cell_type[0], FV_TET);
	assert_int_equal(m.cell_type[1], FV_TET);
	assert_int_equal(m.cell_node_off[2], 8);
	/* sparse tags in file order: 20 -> 1, 1000000 -> 4 */
	assert_int_equal(m.cell_node[4], 1);
	assert_int_equal(m.cell_node[7], 4);
	FV_ASSERT_NEAR(m.xyz[3 * 4 + 2], 1.0, 0);
	FV_ASSERT_NEAR(cell_volume(&m, 0), 1.0 / 6, 1e-14);
	FV_ASSERT_NEAR(cell_volume(&m, 1), 2.0 / 6, 1e-14);
	/* the file's numbers for messages: element 12 repeats 11 */
	assert_non_null(m.cell_tag);
	assert_int_equal(m.cell_tag[0], 10);
	assert_int_equal(m.cell_tag[1], 11);
	assert_non_null(m.node_tag);
	assert_int_equal(m.node_tag[1], 20);
	assert_int_equal(m.node_tag[4], 1000000);
	assert_null(m.cell_orig);
	assert_null(m.node_orig);

	/* the triangle written for groups 1 and 3 is kept once, in group 1 */
	assert_int_equal(m.n_belems, 6);
	assert_int_equal(m.n_markers, 3);
	assert_string_equal(m.markers[0].name, "bottom side");
	assert_string_equal(m.markers[1].name, "physical_2");
	assert_string_equal(m.markers[2].name, "elementary_8");
	assert_int_equal(marker_index(&m, "extra"), -1);
	assert_int_equal(count_marker(&m, 0), 3);
	assert_int_equal(count_marker(&m, 1), 1);
	assert_int_equal(count_marker(&m, 2), 2);
	for (fv_idx_t i = 0; i < m.n_belems; i++) {
		assert_int_equal(m.belem_type[i], FV_TRI);
		assert_int_equal(m.belem_node_off[i], 3 * i);
	}
	assert_int_equal(m.belem_node_off[6], 18);
	assert_int_equal(m.belem_node[0], 0);
	assert_int_equal(m.belem_node[1], 2);
	assert_int_equal(m.belem_node[2], 1);

	/* the lead's pipeline accepts it: every boundary face marked */
	FV_ASSERT_OK(fv_mesh_prepare(&m));
	fv_mesh_free(&m);

	/* an inverted cell is named by its element and node tags */
	{
		char *bad = strdup(msh22_two_tets), *at = strstr(bad, "10 4 2 1 1 10 20 30 40");
		assert_non_null(at);
		memcpy(at, "54 4 2 1 1 20 10 30 40", 22);
		FV_ASSERT_OK(parse(&m, bad));
		FV_ASSERT_ERR(fv_mesh_prepare(&m), FV_ERR_MESH,
			      "t.msh: element 54 (tetrahedron, nodes 20 10 30 40, centroid 0.25 0.25 0.25) is inverted");
		fv_mesh_free(&m);
		free(bad);
	}
}

static void test_msh41_mixed(void **state)
{
	fv_mesh_t m;
	const int want_type[] = {FV_HEX, FV_PRISM, FV_PRISM, FV_PYRAMID, FV_TET};
	const double want_vol[] = {1, 0.5, 0.5, 1.0 / 3, 1.0 / 6};
	/* Gmsh prism 2 9 10 6 11 12 (tags) -> VTK 2 10 9 6 12 11 (indices - 1) */
	const fv_idx_t want_prism[] = {1, 9, 8, 5, 11, 10};
	(void)state;
	FV_ASSERT_OK(parse(&m, msh41_mixed));
	assert_int_equal(m.n_cells, 5);
	assert_int_equal(m.n_nodes, 14);   /* node 15 unused */
	for (int c = 0; c < 5; c++) {
		assert_int_equal(m.cell_type[c], want_type[c]);
		assert_int_equal(m.cell_node_off[c + 1] - m.cell_node_off[c],
				 fv_cell_shapes[want_type[c]].n_nodes);
		FV_ASSERT_NEAR(cell_volume(&m, c), want_vol[c], 1e-14);
	}
	for (int k = 0; k < 6; k++)
		assert_int_equal(m.cell_node[m.cell_node_off[1] + k], want_prism[k]);
	/* element tags of the blocks; the unused node 15 dropped */
	const int64_t want_tag[] = {1, 2, 3, 4, 5};
	for (int c = 0; c < 5; c++)
		assert_int_equal(m.cell_tag[c], want_tag[c]);
	for (int v = 0; v < 14; v++)
		assert_int_equal(m.node_tag[v], v + 1);
	/* parametric coordinates skipped: node 14 (tag 14) is the tet apex */
	FV_ASSERT_NEAR(m.xyz[3 * 13 + 0], 1.5, 0);
	FV_ASSERT_NEAR(m.xyz[3 * 13 + 1], 0.3, 0);
	FV_ASSERT_NEAR(m.xyz[3 * 13 + 2], 2.0, 0);

	assert_int_equal(m.n_belems, 5);
	assert_int_equal(m.n_markers, 3);
	/* physical-tag order, then surfaces without a group */
	assert_string_equal(m.markers[0].name, "physical_5");
	assert_string_equal(m.markers[1].name, "bottom");
	assert_string_equal(m.markers[2].name, "surface_2");
	assert_int_equal(m.belem_type[0], FV_QUAD);
	assert_int_equal(m.belem_type[1], FV_TRI);
	assert_int_equal(m.belem_marker[0], 1);
	assert_int_equal(m.belem_node_off[1], 4);
	assert_int_equal(m.belem_node_off[5], 4 + 4 * 3);
	assert_int_equal(count_marker(&m, 0), 1);
	assert_int_equal(count_marker(&m, 1), 3);
	assert_int_equal(count_marker(&m, 2), 1);
	fv_mesh_free(&m);
}

static void test_prism_order(void **state)
{
	fv_mesh_t m;
	(void)state;
	FV_ASSERT_OK(parse(&m, msh41_prism));
	assert_int_equal(m.n_cells, 1);
	assert_int_equal(m.cell_type[0], FV_PRISM);
	FV_ASSERT_NEAR(cell_volume(&m, 0), 0.5, 1e-14);
	/* VTK's first triangle faces away from the second: its normal is -z */
	assert_int_equal(m.cell_node[0], 0);
	assert_int_equal(m.cell_node[1], 2);
	assert_int_equal(m.cell_node[2], 1);
	assert_int_equal(m.cell_node[3], 3);
	assert_int_equal(m.cell_node[4], 5);
	assert_int_equal(m.cell_node[5], 4);
	fv_mesh_free(&m);
}

/* Parametric nodes (gmsh -save_parametric): MSH 2.2's $ParametricNodes
 * ("tag x y z dim entity [u [v]]") and a 4.1 block with its flag set
 * ("x y z" then one value per dimension); the parametric values are not
 * used. */
static void test_parametric(void **state)
{
	static const char p22[] = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
		"$ParametricNodes\n4\n1 0 0 0 0 1\n2 1 0 0 1 1 0.5\n3 0 1 0 2 1 0.1 0.2\n4 0 0 1 3 1\n"
		"$EndParametricNodes\n$Elements\n1\n1 4 2 1 1 1 2 3 4\n$EndElements\n";
	static const char p41[] = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
		"$Nodes\n2 4 1 4\n2 1 1 3\n1\n2\n3\n0 0 0 0.5 0.5\n1 0 0 1 0\n0 1 0 0 1\n"
		"0 1 0 1\n4\n0 0 1\n$EndNodes\n"
		"$Elements\n1 1 1 1\n3 1 4 1\n1 1 2 3 4\n$EndElements\n";
	fv_mesh_t m;
	(void)state;
	FV_ASSERT_OK(parse_str(&m, p22, strlen(p22)));
	assert_int_equal(m.n_cells, 1);
	assert_int_equal(m.n_nodes, 4);
	FV_ASSERT_NEAR(cell_volume(&m, 0), 1.0 / 6, 1e-14);
	fv_mesh_free(&m);
	FV_ASSERT_OK(parse_str(&m, p41, strlen(p41)));
	assert_int_equal(m.n_cells, 1);
	FV_ASSERT_NEAR(m.xyz[3 * 2 + 1], 1.0, 0);
	FV_ASSERT_NEAR(cell_volume(&m, 0), 1.0 / 6, 1e-14);
	fv_mesh_free(&m);
}

/* CRLF line ends, tabs and blank lines are whitespace like any other. */
static void test_crlf(void **state)
{
	fv_mesh_t m;
	char buf[2048];
	size_t n = 0;
	(void)state;
	for (const char *p = msh41_prism; *p && n + 3 < sizeof buf; p++) {
		if (*p == '\n') {
			buf[n++] = '\r';
			buf[n++] = '\n';
		} else {
			buf[n++] = *p == ' ' ? '\t' : *p;
		}
	}
	FV_ASSERT_OK(parse_str(&m, buf, n));
	assert_int_equal(m.n_cells, 1);
	FV_ASSERT_NEAR(cell_volume(&m, 0), 0.5, 1e-14);
	fv_mesh_free(&m);
}

static void test_read_file(void **state)
{
	char path[] = "/tmp/fvstar_test_gmsh_XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	fv_mesh_t m;
	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(msh41_mixed, f);
	fclose(f);
	FV_ASSERT_OK(fv_mesh_read_gmsh(&m, path));
	assert_int_equal(m.n_cells, 5);
	assert_string_equal(m.source, path);
	fv_mesh_free(&m);
	unlink(path);
	FV_ASSERT_ERR(fv_mesh_read_gmsh(&m, "/nonexistent/x.msh"), FV_ERR_IO, "x.msh");
	assert_int_equal(m.n_cells, 0);
	assert_null(m.xyz);
}

/* --- bad inputs: FV_ERR_FORMAT, "t.msh:LINE:" and the reason ----------- */

typedef struct bad_case {
	const char *text;
	const char *where;   /* "t.msh:LINE:" */
	const char *why;     /* part of the message */
} bad_case_t;

#define HDR22 "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"                /* lines 1-3 */
#define NODES22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n" /* 4-10 */
#define HDR41 "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
#define NODES41 "$Nodes\n1 4 1 4\n3 1 0 4\n1\n2\n3\n4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n$EndNodes\n"

static const bad_case_t bad_cases[] = {
	/* truncated in the middle of the nodes */
	{HDR22 NODES22 "$Elements\n2\n1 4 2 1 1 1 2 3 4\n2 4 2 1 1 1 2", "t.msh:14:",
	 "truncated: the file ends at line 14, before node tag"},
	/* count larger than the data */
	{HDR22 "$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n", "t.msh:10:",
	 "node tag"},
	/* count smaller than the data */
	{HDR22 "$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n", "t.msh:9:",
	 "expected $EndNodes, found '4'"},
	{HDR22 "$Nodes\n-3\n", "t.msh:5:", "number of nodes -3 is negative"},
	{HDR22 "$Nodes\n99999999999\n1 0 0 0\n$EndNodes\n", "t.msh:5:", "number of nodes 99999999999 is beyond the limit of 2147483647"},
	{HDR22 "$Nodes\n99999999999999999999999\n", "t.msh:5:", "is beyond the limit of a 64-bit integer"},
	{HDR22 NODES22 "$Elements\n1\n1 200 2 1 1 1 2 3 4\n$EndElements\n", "t.msh:13:",
	 "unknown element type 200"},
	{HDR22 NODES22 "$Elements\n1\n1 11 2 1 1 1 2 3 4 1 2 3 4 1 2\n$EndElements\n",
	 "t.msh:13:", "10-node tetrahedron"},
	{HDR22 NODES22 "$Elements\n1\n\n1 4 2 1 1 1 2 3 77\n$EndElements\n", "t.msh:14:",
	 "node tag 77 is not defined"},
	/* one element per line */
	{HDR22 NODES22 "$Elements\n1\n1 4 2 1 1 1 2 3\n4\n$EndElements\n", "t.msh:13:",
	 "line ends before node tag"},
	{HDR22 "$Nodes\n2\n1 0 0 0\n2 nan 0 0\n$EndNodes\n", "t.msh:7:", "not finite"},
	{HDR22 "$Nodes\n2\n1 0 0 0\n2 0 1e999 0\n$EndNodes\n", "t.msh:7:", "not finite"},
	{HDR22 "$Nodes\n2\n1 0 0 0\n2 0 abc 0\n$EndNodes\n", "t.msh:7:", "abc"},
	{"$MeshFormat\n2.2 1 8\n\001\002\003\004\n$EndMeshFormat\n", "t.msh:2:",
	 "binary MSH not supported, write ASCII (-format msh41 / -bin 0)"},
	{"$MeshFormat\n4.1 1 8\n", "t.msh:2:", "binary MSH not supported"},
	{"$MeshFormat\n4 0 8\n$EndMeshFormat\n", "t.msh:2:", "MSH 4.0"},
	{"$MeshFormat\n3.0 0 8\n$EndMeshFormat\n", "t.msh:2:", "version '3.0'"},
	{HDR22 "$Nodes\n1\n1 0 0 0\n$Elements\n", "t.msh:7:", "expected $EndNodes, found '$Elements'"},
	{HDR22 "$Nodes\n1\n1 0 0 0\n", "t.msh:6:", "truncated: the file ends at line 6, before $EndNodes"},
	{HDR22 "$Foo\n1 2 3\n$EndBar\n", "t.msh:4:", "section $Foo has no $EndFoo"},
	{HDR22 "$Nodes\n2\n1 0 0 0\n1 1 0 0\n$EndNodes\n", "t.msh:7:", "duplicate node tag 1"},
	{HDR22 NODES22 "$Elements\n1\n1 2 2 1 1 1 2 3\n$EndElements\n", "t.msh:11:",
	 "no volume elements"},
	{HDR22 NODES22, "t.msh:11:", "no $Elements"},
	{HDR22 "$Elements\n0\n$EndElements\n", "t.msh:4:", "$Elements before $Nodes"},
	{HDR22 "$PhysicalNames\n1\n2 1 \"wall\n$EndPhysicalNames\n", "t.msh:6:", "closing"},
	{HDR22 "$PhysicalNames\n1\n2 1 \"a_name_that_is_far_too_long_for_a_marker_of_"
	       "fvstar_which_holds_63\"\n$EndPhysicalNames\n", "t.msh:6:", "longer than 63"},
	{HDR22 "$PhysicalNames\n2\n2 1 \"a\"\n2 1 \"b\"\n$EndPhysicalNames\n", "t.msh:4:",
	 "named twice"},
	{HDR22 "$PhysicalNames\n1\n2 1 \"a\tb\"\n$EndPhysicalNames\n", "t.msh:6:",
	 "control character"},
	{HDR22 NODES22 "$Elements\n1\n1 4 -1 1 2 3 4\n$EndElements\n", "t.msh:13:",
	 "number of tags -1 is negative"},
	{HDR22 "$EndNodes\n", "t.msh:4:", "without its section"},
	/* issue 28: two physical surfaces of one name; a tag count beyond the
	 * element's line; a parametric node without its parametric values;
	 * a coordinate beyond any mesh's size */
	{HDR22 "$PhysicalNames\n2\n2 1 \"wall\"\n2 2 \"wall\"\n$EndPhysicalNames\n" NODES22
	 "$Elements\n3\n1 2 2 1 1 1 2 3\n2 2 2 2 2 1 2 4\n3 4 2 9 1 1 2 3 4\n$EndElements\n", "t.msh:7:",
	 "marker name 'wall' comes twice: physical surface 1 \"wall\" (line 6) and physical surface 2 \"wall\" (line 7)"},
	{HDR22 NODES22 "$Elements\n2\n1 4 999999 1 1 1 2 3 4\n2 4 2 1 1 1 2 3 4\n$EndElements\n", "t.msh:13:",
	 "element 1: 999999 tags, more than the rest of its line holds"},
	{HDR41 "$Nodes\n1 1 1 1\n2 1 1 1\n1\n0 0 0 0.5\n$EndNodes\n", "t.msh:8:",
	 "parametric node: the line ends before its parametric coordinate v (the block at line 6 is parametric, of dimension 2"},
	{HDR41 "$Nodes\n1 1 1 1\n2 1 0 1\n1\n0 0 0 0.5\n$EndNodes\n", "t.msh:8:",
	 "'0.5' after the node's x y z: a parametric node in a block whose parametric flag is 0?"},
	{HDR22 "$Nodes\n1\n1 0 1e300 0\n$EndNodes\n", "t.msh:6:", "y coordinate 1e+300 is beyond the limit of 1e+12"},
	{HDR22 "junk\n", "t.msh:4:", "expected a section"},
	{"", "t.msh:1:", "empty file"},
	{"\n\nhello\n", "t.msh:3:", "not a Gmsh MSH file"},
	{"$NOD\n", "t.msh:1:", "MSH version 1"},
	/* 4.1 */
	{HDR41 "$Nodes\n1 5 1 5\n3 1 0 4\n1\n2\n3\n4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n$EndNodes\n",
	 "t.msh:5:", "node blocks hold 4 nodes, the $Nodes header says 5"},
	{HDR41 "$Nodes\n1 3 1 3\n3 1 0 4\n1\n2\n3\n4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n$EndNodes\n",
	 "t.msh:6:", "more than the 3 nodes"},
	{HDR41 "$Nodes\n1 1 1 1\n3 1 2 1\n1\n0 0 0\n$EndNodes\n", "t.msh:6:", "parametric flag 2"},
	{HDR41 NODES41 "$Elements\n1 1 1 1\n3 1 4 2\n1 1 2 3 4\n2 1 2 3 4\n$EndElements\n",
	 "t.msh:18:", "more than the 1 elements"},
	{HDR41 NODES41 "$Elements\n1 2 1 2\n3 1 4 1\n1 1 2 3 4\n$EndElements\n",
	 "t.msh:17:", "element blocks hold 1 elements, the $Elements header says 2"},
	{HDR41 NODES41 "$Elements\n1 1 1 1\n3 1 2 1\n1 1 2 3\n$EndElements\n", "t.msh:18:",
	 "entity of dimension 3"},
	{HDR41 NODES41 "$Elements\n1 1 1 1\n3 1 4 1\n1 1 2 3 5\n$EndElements\n", "t.msh:19:",
	 "node tag 5 is not defined"},
	{HDR41 NODES41 "$Elements\n1 1 1 1\n3 1 4 1\n1 1 2 3 4\n", "t.msh:19:",
	 "truncated: the file ends at line 19, before $EndElements"},
	{HDR41 "$Entities\n0 0 -1 0\n$EndEntities\n", "t.msh:5:", "number of surfaces -1 is negative"},
	{HDR41 "$Entities\n0 0 1 0\n1 0 0 0 1 1 1 1\n", "t.msh:6:", "number of physical tags"},
	{HDR41 "$PartitionedEntities\n1\n", "t.msh:4:", "partitioned"},
	{HDR41 "$Nodes\n1 2 1 2\n3 1 0 2\n1\n0\n0 0 0\n0 0 0\n$EndNodes\n", "t.msh:8:",
	 "node tag 0 is not positive"},
};

static void test_bad_inputs(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		const bad_case_t *b = &bad_cases[i];
		size_t len = strlen(b->text);
		fv_mesh_t m;
		fv_err_t err;
		fv_error_clear();
		err = parse_str(&m, b->text, len);
		if (err != FV_ERR_FORMAT)
			fail_msg("case %zu: returned %d (%s)", i, (int)err, fv_errmsg());
		if (strncmp(fv_errmsg(), b->where, strlen(b->where)) != 0 || !strstr(fv_errmsg(), b->why))
			fail_msg("case %zu: message '%s' lacks '%s' ... '%s'", i, fv_errmsg(), b->where,
				 b->why);
		/* partial allocations were released and the mesh left empty */
		assert_null(m.xyz);
		assert_null(m.cell_node);
		assert_null(m.markers);
		assert_int_equal(m.n_cells, 0);
	}
}

/* Every prefix of the valid files, and every one-byte change from a small
 * set, either parses or fails with FV_ERR_FORMAT naming the file. */
static void sweep(const char *text)
{
	static const char subst[] = {'9', '-', '0', '\n', ' ', 'x', '$', '"', '.'};
	size_t n = strlen(text);
	char *buf = malloc(n);
	assert_non_null(buf);
	for (size_t len = 0; len <= n; len++) {
		fv_mesh_t m;
		fv_err_t err = parse_str(&m, text, len);
		if (err != FV_OK && err != FV_ERR_FORMAT)
			fail_msg("prefix %zu: code %d (%s)", len, (int)err, fv_errmsg());
		if (err != FV_OK && strncmp(fv_errmsg(), "t.msh:", 6) != 0)
			fail_msg("prefix %zu: message '%s'", len, fv_errmsg());
		fv_mesh_free(&m);
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < sizeof subst; k++) {
			fv_mesh_t m;
			fv_err_t err;
			memcpy(buf, text, n);
			buf[i] = subst[k];
			err = fv_mesh_parse_gmsh(&m, buf, n, "t.msh");
			if (err != FV_OK && err != FV_ERR_FORMAT)
				fail_msg("byte %zu -> '%c': code %d (%s)", i, subst[k], (int)err,
					 fv_errmsg());
			if (err == FV_OK) {
				/* whatever parsed refers to existing nodes only */
				for (fv_idx_t j = 0; j < m.cell_node_off[m.n_cells]; j++)
					assert_true(m.cell_node[j] >= 0 && m.cell_node[j] < m.n_nodes);
				for (fv_idx_t j = 0; j < m.belem_node_off[m.n_belems]; j++)
					assert_true(m.belem_node[j] >= 0 && m.belem_node[j] < m.n_nodes);
				for (fv_idx_t j = 0; j < m.n_belems; j++)
					assert_true(m.belem_marker[j] >= 0 &&
						    m.belem_marker[j] < m.n_markers);
			}
			fv_mesh_free(&m);
		}
	}
	free(buf);
}

static void test_sweeps(void **state)
{
	(void)state;
	sweep(msh22_two_tets);
	sweep(msh41_mixed);
}

/* Node tags far apart switch the tag map to sorting half-way. */
static void test_sparse_switch(void **state)
{
	static const char text[] =
		HDR41 "$Nodes\n2 5 1 9000000000\n"
		"3 1 0 3\n1\n2\n3\n0 0 0\n1 0 0\n0 1 0\n"
		"3 1 0 2\n9000000000\n5\n0 0 1\n9 9 9\n$EndNodes\n"
		"$Elements\n1 1 1 1\n3 1 4 1\n1 1 2 3 9000000000\n$EndElements\n";
	static const char dup[] =
		HDR41 "$Nodes\n1 3 1 9000000000\n"
		"3 1 0 3\n1\n9000000000\n1\n0 0 0\n1 0 0\n0 1 0\n$EndNodes\n";
	fv_mesh_t m;
	(void)state;
	FV_ASSERT_OK(parse(&m, text));
	assert_int_equal(m.n_nodes, 4);
	FV_ASSERT_NEAR(cell_volume(&m, 0), 1.0 / 6, 1e-14);
	FV_ASSERT_NEAR(m.xyz[3 * 3 + 2], 1.0, 0);
	fv_mesh_free(&m);
	FV_ASSERT_ERR(parse(&m, dup), FV_ERR_FORMAT, "t.msh:4: duplicate node tag 1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msh22_two_tets),
		cmocka_unit_test(test_msh41_mixed),
		cmocka_unit_test(test_prism_order),
		cmocka_unit_test(test_parametric),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_read_file),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_sweeps),
		cmocka_unit_test(test_sparse_switch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
