/* SPDX-License-Identifier: MIT */
/* CGNS reader tests: meshes written through the CGNS library in the layouts
 * other tools write (sections per type or MIXED, BCs by element range,
 * element list or node list, families, no BCs, ADF), read back and compared
 * with the mesh they came from; then broken files, each refused with a
 * message naming the node. Also a writer for the command-line tests:
 *   test_read_cgns write IN OUT [option...]   (options: see cg_opts_t)
 * Without arguments it runs the unit tests. */
#include <math.h>
#include <unistd.h>

#include <cgnslib.h>

#include "testutil.h"
#include "mesh/mesh_internal.h"
#include "util/parse.h"

enum { BND_SPLIT, BND_MIXED, BND_NONE };
enum { BC_RANGE, BC_LIST, BC_ERANGE, BC_ELIST, BC_VERTEX, BC_NONE };

typedef struct cg_opts {
	int mixed_cells; /* mixed: one MIXED section of all cells, else one per type */
	int bnd;         /* bnd-split (default), bnd-mixed, bnd-none: 2D sections */
	int bnd_first;   /* bnd-first: 2D sections numbered before the cells */
	int bc;          /* bc-range (default), bc-list, bc-erange, bc-elist,
	                    bc-vertex, bc-none (a BC without points, which
	                    the reader matches to a section by name, cannot be
	                    written through the mid-level library) */
	int family;      /* family: each marker as two BCs of a family */
	int adf;         /* adf: ADF file instead of HDF5 */
	int bad_type;    /* bad-ngon, bad-tetra10: a section fvstar refuses */
	int bad_bc;      /* bad-bc: a BC naming an element no section has;
	                    bad-bc-cell: a BC naming a cell */
	int structured;  /* structured: a structured zone */
	int two_zones;   /* two-zones */
	int two_bases;   /* two-bases */
	int bad_node;    /* bad-node: a cell node beyond the vertices */
	int dup_name;    /* dup-name: the second BC in the family named after
	                    the first BC, so two boundaries share one name */
	int huge_coord;  /* huge-coord: CoordinateX of node 1 is 1e308 */
} cg_opts_t;

#define CG(call)                                                                   \
	do {                                                                       \
		if ((call) != CG_OK) {                                             \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
				cg_get_error());                                   \
			return 1;                                                  \
		}                                                                  \
	} while (0)

static const CGNS_ENUMT(ElementType_t) cg_cell_type[FV_NCELLTYPES] = {
	CGNS_ENUMV(TETRA_4), CGNS_ENUMV(PYRA_5), CGNS_ENUMV(PENTA_6), CGNS_ENUMV(HEXA_8)};
static const char *const cg_cell_sec[FV_NCELLTYPES] = {"Tetras", "Pyramids", "Prisms", "Hexas"};

/* A cell's nodes in CGNS order, 1-based: a prism's first triangle faces
 * the second (VTK: away from it). */
static void cell_nodes(const fv_mesh_t *m, fv_idx_t c, cgsize_t *out)
{
	fv_idx_t v[FV_MAX_CELL_NODES];
	int n = (int)(m->cell_node_off[c + 1] - m->cell_node_off[c]);
	memcpy(v, m->cell_node + m->cell_node_off[c], (size_t)n * sizeof *v);
	if (m->cell_type[c] == FV_PRISM)
		fv_prism_flip(v);
	for (int i = 0; i < n; i++)
		out[i] = v[i] + 1;
}

static int write_zone_coords(int fn, int B, int Z, const fv_mesh_t *m, int huge)
{
	double *c = malloc(((size_t)m->n_nodes + 1) * sizeof *c);
	static const char *names[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
	int C;
	for (int d = 0; d < 3; d++) {
		for (fv_idx_t i = 0; i < m->n_nodes; i++)
			c[i] = m->xyz[3 * (size_t)i + d];
		if (huge && d == 0)
			c[0] = 1e308;
		if (cg_coord_write(fn, B, Z, CGNS_ENUMV(RealDouble), names[d], c, &C) != CG_OK) {
			fprintf(stderr, "cg_coord_write: %s\n", cg_get_error());
			free(c);
			return 1;
		}
	}
	free(c);
	return 0;
}

/* Cells: one MIXED section, or one per type present. *next is the next
 * element number. */
static int write_cells(int fn, int B, int Z, const fv_mesh_t *m, const cg_opts_t *o, cgsize_t *next)
{
	int S;
	if (o->mixed_cells) {
		size_t n = (size_t)m->n_cells;
		cgsize_t *conn = malloc((n * 9 + 1) * sizeof *conn), *off = malloc((n + 1) * sizeof *off);
		size_t k = 0;
		off[0] = 0;
		for (fv_idx_t c = 0; c < m->n_cells; c++) {
			conn[k++] = cg_cell_type[m->cell_type[c]];
			cell_nodes(m, c, conn + k);
			k += (size_t)fv_cell_shapes[m->cell_type[c]].n_nodes;
			off[c + 1] = (cgsize_t)k;
		}
		int ier = cg_poly_section_write(fn, B, Z, "Cells", CGNS_ENUMV(MIXED), *next, *next + (cgsize_t)n - 1, 0,
						conn, off, &S);
		free(conn);
		free(off);
		CG(ier);
		*next += (cgsize_t)n;
		return 0;
	}
	for (int t = 0; t < FV_NCELLTYPES; t++) {
		size_t n = 0, k = 0;
		for (fv_idx_t c = 0; c < m->n_cells; c++)
			n += m->cell_type[c] == t;
		if (n == 0)
			continue;
		int npe = fv_cell_shapes[t].n_nodes;
		cgsize_t *conn = malloc(n * (size_t)npe * sizeof *conn);
		for (fv_idx_t c = 0; c < m->n_cells; c++)
			if (m->cell_type[c] == t) {
				cell_nodes(m, c, conn + k);
				k += (size_t)npe;
			}
		int ier = cg_section_write(fn, B, Z, cg_cell_sec[t], cg_cell_type[t], *next, *next + (cgsize_t)n - 1, 0,
					   conn, &S);
		free(conn);
		CG(ier);
		*next += (cgsize_t)n;
	}
	return 0;
}

/* Boundary sections: per marker (TRI_3, QUAD_4 or MIXED) or one MIXED
 * section of them all, grouped by marker; first[k], count[k]: the element
 * numbers of marker k. */
static int write_bnd(int fn, int B, int Z, const fv_mesh_t *m, const cg_opts_t *o, cgsize_t *next, cgsize_t *first,
		     cgsize_t *count)
{
	size_t nb = (size_t)m->n_belems;
	cgsize_t *conn = malloc((nb * 5 + 1) * sizeof *conn), *off = malloc((nb + 1) * sizeof *off);
	size_t k = 0, e = 0;
	int S, ier = CG_OK;
	cgsize_t start = *next;
	off[0] = 0;
	for (int mk = 0; mk < m->n_markers && ier == CG_OK; mk++) {
		size_t k0 = k, e0 = e;
		int ntri = 0, nquad = 0;
		for (fv_idx_t b = 0; b < m->n_belems; b++) {
			if (m->belem_marker[b] != mk)
				continue;
			int nn = m->belem_type[b];
			ntri += nn == 3;
			nquad += nn == 4;
			conn[k++] = nn == 3 ? CGNS_ENUMV(TRI_3) : CGNS_ENUMV(QUAD_4);
			for (int i = 0; i < nn; i++)
				conn[k++] = m->belem_node[m->belem_node_off[b] + i] + 1;
			off[++e] = (cgsize_t)k;
		}
		first[mk] = *next;
		count[mk] = (cgsize_t)(e - e0);
		if (o->bnd != BND_SPLIT || e == e0) {
			*next += (cgsize_t)(e - e0);
			continue;
		}
		if (ntri == 0 || nquad == 0) {
			/* one type: the plain layout, without the type codes */
			size_t j = 0;
			cgsize_t *plain = malloc((k - k0) * sizeof *plain);
			for (size_t i = e0; i < e; i++)
				for (cgsize_t q = off[i] + 1; q < off[i + 1]; q++)
					plain[j++] = conn[q];
			ier = cg_section_write(fn, B, Z, m->markers[mk].name,
					       ntri ? CGNS_ENUMV(TRI_3) : CGNS_ENUMV(QUAD_4), *next,
					       *next + (cgsize_t)(e - e0) - 1, 0, plain, &S);
			free(plain);
		} else {
			cgsize_t *o2 = malloc((e - e0 + 1) * sizeof *o2);
			for (size_t i = e0; i <= e; i++)
				o2[i - e0] = off[i] - off[e0];
			ier = cg_poly_section_write(fn, B, Z, m->markers[mk].name, CGNS_ENUMV(MIXED), *next,
						    *next + (cgsize_t)(e - e0) - 1, 0, conn + k0, o2, &S);
			free(o2);
		}
		*next += (cgsize_t)(e - e0);
	}
	if (ier == CG_OK && o->bnd == BND_MIXED && e > 0)
		ier = cg_poly_section_write(fn, B, Z, "Boundary", CGNS_ENUMV(MIXED), start, start + (cgsize_t)e - 1, 0,
					    conn, off, &S);
	free(conn);
	free(off);
	CG(ier);
	return 0;
}

static int write_family_bc(int fn, int B, int Z, int BC, const char *fam)
{
	CG(cg_goto(fn, B, "Zone_t", Z, "ZoneBC_t", 1, "BC_t", BC, "end"));
	CG(cg_famname_write(fam));
	return 0;
}

/* One BC (or two halves of a family) per marker. */
static int write_bcs(int fn, int B, int Z, const fv_mesh_t *m, const cg_opts_t *o, const cgsize_t *first,
		     const cgsize_t *count)
{
	CGNS_ENUMT(PointSetType_t) pt;
	int BC;
	for (int mk = 0; mk < m->n_markers; mk++) {
		int halves = o->family && count[mk] > 1 ? 2 : 1;
		char name[40];
		if (o->family) {
			int F, FBC;
			CG(cg_family_write(fn, B, m->markers[mk].name, &F));
			CG(cg_fambc_write(fn, B, F, "FamBC", CGNS_ENUMV(BCWall), &FBC));
		}
		for (int h = 0; h < halves; h++) {
			cgsize_t lo = first[mk] + (h ? count[mk] / 2 : 0);
			cgsize_t hi = halves == 2 && h == 0 ? first[mk] + count[mk] / 2 - 1 : first[mk] + count[mk] - 1;
			cgsize_t n = hi - lo + 1, *pts = NULL, np = 0;
			if (o->family)
				snprintf(name, sizeof name, "bc%d_%c", mk, 'a' + h);
			else
				snprintf(name, sizeof name, "%.32s", m->markers[mk].name);
			switch (o->bc) {
			case BC_RANGE:
			case BC_ERANGE:
				pts = malloc(2 * sizeof *pts);
				pts[0] = lo;
				pts[1] = hi;
				np = 2;
				pt = o->bc == BC_RANGE ? CGNS_ENUMV(PointRange) : CGNS_ENUMV(ElementRange);
				break;
			case BC_LIST:
			case BC_ELIST:
				/* reversed: the order of a list is not the faces' order */
				pts = malloc((size_t)n * sizeof *pts);
				for (cgsize_t i = 0; i < n; i++)
					pts[i] = hi - i;
				np = n;
				pt = o->bc == BC_LIST ? CGNS_ENUMV(PointList) : CGNS_ENUMV(ElementList);
				break;
			case BC_VERTEX: {
				/* the nodes of the marker's faces, ascending */
				char *in = calloc((size_t)m->n_nodes, 1);
				for (fv_idx_t b = 0; b < m->n_belems; b++)
					if (m->belem_marker[b] == mk)
						for (fv_idx_t q = m->belem_node_off[b]; q < m->belem_node_off[b + 1]; q++)
							in[m->belem_node[q]] = 1;
				pts = malloc(((size_t)m->n_nodes + 1) * sizeof *pts);
				for (fv_idx_t i = 0; i < m->n_nodes; i++)
					if (in[i])
						pts[np++] = i + 1;
				free(in);
				pt = CGNS_ENUMV(PointList);
				halves = 1;
				break;
			}
			default:
				pt = CGNS_ENUMV(PointList);
				break;
			}
			int ier = cg_boco_write(fn, B, Z, name, o->family ? CGNS_ENUMV(FamilySpecified) : CGNS_ENUMV(BCWall),
						pt, np, pts, &BC);
			free(pts);
			CG(ier);
			if (o->bc == BC_RANGE || o->bc == BC_LIST)
				CG(cg_boco_gridlocation_write(fn, B, Z, BC, CGNS_ENUMV(FaceCenter)));
			if (o->family && write_family_bc(fn, B, Z, BC, m->markers[mk].name))
				return 1;
		}
	}
	return 0;
}

/* m as a CGNS file in the layout o asks for; 0 on success. */
static int write_cgns(const fv_mesh_t *m, const char *path, const cg_opts_t *o)
{
	int fn, B, Z;
	cgsize_t size[9] = {m->n_nodes, m->n_cells, 0};
	cgsize_t next = 1, *first = calloc((size_t)m->n_markers + 1, sizeof *first),
		 *count = calloc((size_t)m->n_markers + 1, sizeof *count);
	int ok = 0;

	if (o->adf)
		CG(cg_set_file_type(CG_FILE_ADF));
	else
		CG(cg_set_file_type(CG_FILE_HDF5));
	CG(cg_open(path, CG_MODE_WRITE, &fn));
	CG(cg_base_write(fn, "Base", 3, 3, &B));
	if (o->two_bases) {
		int B2;
		CG(cg_base_write(fn, "Other", 3, 3, &B2));
	}
	if (o->structured) {
		cgsize_t s[9] = {2, 2, 2, 1, 1, 1, 0, 0, 0};
		double x[8] = {0, 1, 0, 1, 0, 1, 0, 1};
		int C;
		CG(cg_zone_write(fn, B, "blk", s, CGNS_ENUMV(Structured), &Z));
		CG(cg_coord_write(fn, B, Z, CGNS_ENUMV(RealDouble), "CoordinateX", x, &C));
		CG(cg_close(fn));
		free(first);
		free(count);
		return 0;
	}
	for (int z = 0; z < (o->two_zones ? 2 : 1); z++) {
		CG(cg_zone_write(fn, B, z ? "blk2" : "blk", size, CGNS_ENUMV(Unstructured), &Z));
		if (write_zone_coords(fn, B, Z, m, o->huge_coord))
			goto out;
	}
	Z = 1;
	if (o->bnd_first && o->bnd != BND_NONE) {
		/* cells after the faces: count the faces first */
		cgsize_t nb = m->n_belems;
		next = 1 + nb;
		if (write_cells(fn, B, Z, m, o, &next))
			goto out;
		next = 1;
		if (write_bnd(fn, B, Z, m, o, &next, first, count))
			goto out;
	} else {
		if (write_cells(fn, B, Z, m, o, &next))
			goto out;
		if (o->bnd != BND_NONE && write_bnd(fn, B, Z, m, o, &next, first, count))
			goto out;
	}
	if (o->bad_node) {
		cgsize_t tet[4] = {1, 2, 3, (cgsize_t)m->n_nodes + 7};
		int S;
		CG(cg_section_write(fn, B, Z, "Stray", CGNS_ENUMV(TETRA_4), next, next, 0, tet, &S));
		next++;
	}
	if (o->bad_type == 1) {
		/* two triangles as NGON_n faces */
		cgsize_t conn[6] = {1, 2, 3, 2, 3, 4}, off[3] = {0, 3, 6};
		int S;
		CG(cg_poly_section_write(fn, B, Z, "Poly", CGNS_ENUMV(NGON_n), next, next + 1, 0, conn, off, &S));
		next += 2;
	} else if (o->bad_type == 2) {
		cgsize_t conn[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
		int S;
		CG(cg_section_write(fn, B, Z, "Quadratic", CGNS_ENUMV(TETRA_10), next, next, 0, conn, &S));
		next++;
	}
	if (o->bc != BC_NONE && write_bcs(fn, B, Z, m, o, first, count))
		goto out;
	if (o->dup_name && write_family_bc(fn, B, Z, 2, m->markers[0].name))
		goto out;
	if (o->bad_bc) {
		cgsize_t pts[2] = {o->bad_bc == 2 ? 1 : next + 100, 1};
		int BC;
		CG(cg_boco_write(fn, B, Z, "ghost", CGNS_ENUMV(BCWall), CGNS_ENUMV(PointList), 1, pts, &BC));
		CG(cg_boco_gridlocation_write(fn, B, Z, BC, CGNS_ENUMV(FaceCenter)));
	}
	ok = 1;
out:
	cg_close(fn);
	free(first);
	free(count);
	return ok ? 0 : 1;
}

/* ---------------------------------------------------------------- tests */

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/fvstar-cgns-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A perturbed box of all four cell types, six markers. */
static void source_mesh(fv_mesh_t *m)
{
	fv_gen_opts_t g;
	fv_gen_opts_default(&g);
	g.cells = FV_GEN_MIXED;
	g.nx = 5;
	g.ny = 4;
	g.nz = 3;
	g.perturb = 0.2;
	g.seed = 7;
	FV_ASSERT_OK(fv_mesh_gen_box(m, &g));
}

static int find_marker(const fv_mesh_t *m, const char *name)
{
	for (int k = 0; k < m->n_markers; k++)
		if (strcmp(m->markers[k].name, name) == 0)
			return k;
	return -1;
}

/* Same cells per type, volume, and markers (names, face counts, areas). */
static void assert_same_mesh(fv_mesh_t *a, fv_mesh_t *b)
{
	fv_mesh_stats_t sa, sb;
	FV_ASSERT_OK(fv_mesh_prepare(a));
	FV_ASSERT_OK(fv_mesh_prepare(b));
	FV_ASSERT_OK(fv_mesh_check(a, 0, &sa));
	FV_ASSERT_OK(fv_mesh_check(b, 0, &sb));
	assert_int_equal(a->n_cells, b->n_cells);
	assert_int_equal(a->n_nodes, b->n_nodes);
	for (int t = 0; t < FV_NCELLTYPES; t++)
		assert_int_equal(sa.n_cells_of_type[t], sb.n_cells_of_type[t]);
	FV_ASSERT_NEAR(sb.vol_sum, sa.vol_sum, 1e-12);
	assert_true(sb.vol_min > 0);
	assert_int_equal(a->n_markers, b->n_markers);
	for (int k = 0; k < a->n_markers; k++) {
		int kb = find_marker(b, a->markers[k].name);
		double va[3], vb[3], aa, ab;
		if (kb < 0)
			fail_msg("marker %s missing", a->markers[k].name);
		assert_int_equal(a->marker_face_off[k + 1] - a->marker_face_off[k],
				 b->marker_face_off[kb + 1] - b->marker_face_off[kb]);
		fv_mesh_marker_area(a, k, va, &aa);
		fv_mesh_marker_area(b, kb, vb, &ab);
		FV_ASSERT_NEAR(ab, aa, 1e-12);
		for (int d = 0; d < 3; d++)
			FV_ASSERT_NEAR(vb[d], va[d], 1e-12);
	}
}

static void roundtrip(const cg_opts_t *o, const char *name)
{
	fv_mesh_t src, got;
	char path[128];
	snprintf(path, sizeof path, "%s/%s.cgns", tmpdir, name);
	fv_mesh_init(&src);
	source_mesh(&src);
	assert_int_equal(write_cgns(&src, path, o), 0);
	FV_ASSERT_OK(fv_mesh_read(&got, path));
	assert_int_equal(got.n_belems, src.n_belems);
	assert_same_mesh(&src, &got);
	/* one MIXED section in file order keeps the cell order */
	if (o->mixed_cells)
		for (fv_idx_t c = 0; c < src.n_cells; c++)
			FV_ASSERT_NEAR(got.cell_vol[c], src.cell_vol[c], 1e-13);
	fv_mesh_free(&src);
	fv_mesh_free(&got);
}

static void test_split_range(void **s)
{
	(void)s;
	roundtrip(&(cg_opts_t){.bc = BC_RANGE}, "split_range");
}

static void test_mixed_list(void **s)
{
	(void)s;
	roundtrip(&(cg_opts_t){.mixed_cells = 1, .bnd = BND_MIXED, .bc = BC_LIST}, "mixed_list");
}

static void test_element_range_list(void **s)
{
	(void)s;
	roundtrip(&(cg_opts_t){.bnd_first = 1, .bc = BC_ERANGE}, "erange");
	roundtrip(&(cg_opts_t){.mixed_cells = 1, .bc = BC_ELIST}, "elist");
}

static void test_vertex(void **s)
{
	(void)s;
	roundtrip(&(cg_opts_t){.bnd = BND_NONE, .bc = BC_VERTEX}, "vertex_nobnd");
	roundtrip(&(cg_opts_t){.mixed_cells = 1, .bc = BC_VERTEX}, "vertex_bnd");
}

static void test_family(void **s)
{
	(void)s;
	roundtrip(&(cg_opts_t){.family = 1, .bc = BC_RANGE}, "family_range");
	roundtrip(&(cg_opts_t){.family = 1, .bc = BC_LIST, .mixed_cells = 1, .bnd = BND_MIXED}, "family_list");
}

static void test_no_bc(void **s)
{
	(void)s;
	roundtrip(&(cg_opts_t){.bc = BC_NONE}, "nobc");
}

static void test_adf(void **s)
{
	(void)s;
	roundtrip(&(cg_opts_t){.adf = 1, .mixed_cells = 1, .bc = BC_LIST}, "adf");
}

/* One cell of each type in the node order of the CGNS SIDS (not written
 * from an fvstar mesh, so the writer's conversion cannot hide a wrong
 * one): the volumes come out positive and exact. The only BC lists every
 * node, so the boundary faces come from the cells. */
static void test_sids_order(void **s)
{
	static const double xyz[][3] = {
		/* tet: (1 2 3) seen from 4 counter-clockwise */
		{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1},
		/* pyramid: base (5 6 7 8) counter-clockwise seen from the apex 9 */
		{2, 0, 0}, {3, 0, 0}, {3, 1, 0}, {2, 1, 0}, {2.5, 0.5, 1},
		/* prism: (10 11 12) counter-clockwise seen from (13 14 15) */
		{4, 0, 0}, {5, 0, 0}, {4, 1, 0}, {4, 0, 1}, {5, 0, 1}, {4, 1, 1},
		/* hex: (16 17 18 19) counter-clockwise seen from (20..23) */
		{6, 0, 0}, {7, 0, 0}, {7, 1, 0}, {6, 1, 0}, {6, 0, 1}, {7, 0, 1}, {7, 1, 1}, {6, 1, 1},
	};
	const int nv = (int)(sizeof xyz / sizeof xyz[0]);
	cgsize_t tet[4] = {1, 2, 3, 4}, pyr[5] = {5, 6, 7, 8, 9}, pri[6] = {10, 11, 12, 13, 14, 15},
		 hex[8] = {16, 17, 18, 19, 20, 21, 22, 23}, size[3] = {nv, 4, 0}, all[2] = {1, nv};
	static const double vol[4] = {1.0 / 6, 1.0 / 3, 0.5, 1};
	double c[32];
	int fn, B, Z, S, C, BC;
	char path[128];
	fv_mesh_t m;
	(void)s;
	snprintf(path, sizeof path, "%s/sids.cgns", tmpdir);
	assert_int_equal(cg_open(path, CG_MODE_WRITE, &fn), CG_OK);
	assert_int_equal(cg_base_write(fn, "Base", 3, 3, &B), CG_OK);
	assert_int_equal(cg_zone_write(fn, B, "cells", size, CGNS_ENUMV(Unstructured), &Z), CG_OK);
	for (int d = 0; d < 3; d++) {
		static const char *names[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
		for (int i = 0; i < nv; i++)
			c[i] = xyz[i][d];
		assert_int_equal(cg_coord_write(fn, B, Z, CGNS_ENUMV(RealDouble), names[d], c, &C), CG_OK);
	}
	assert_int_equal(cg_section_write(fn, B, Z, "tet", CGNS_ENUMV(TETRA_4), 1, 1, 0, tet, &S), CG_OK);
	assert_int_equal(cg_section_write(fn, B, Z, "pyr", CGNS_ENUMV(PYRA_5), 2, 2, 0, pyr, &S), CG_OK);
	assert_int_equal(cg_section_write(fn, B, Z, "pri", CGNS_ENUMV(PENTA_6), 3, 3, 0, pri, &S), CG_OK);
	assert_int_equal(cg_section_write(fn, B, Z, "hex", CGNS_ENUMV(HEXA_8), 4, 4, 0, hex, &S), CG_OK);
	assert_int_equal(cg_boco_write(fn, B, Z, "skin", CGNS_ENUMV(BCWall), CGNS_ENUMV(PointRange), 2, all, &BC), CG_OK);
	assert_int_equal(cg_close(fn), CG_OK);

	FV_ASSERT_OK(fv_mesh_load(&m, path));
	assert_int_equal(m.n_cells, 4);
	assert_int_equal(m.n_markers, 1);
	assert_string_equal(m.markers[0].name, "skin");
	assert_int_equal(m.n_bfaces, 4 + 5 + 5 + 6);
	for (int k = 0; k < 4; k++) {
		assert_int_equal(m.cell_type[k], k);
		FV_ASSERT_NEAR(m.cell_vol[k], vol[k], 1e-14);
	}
	fv_mesh_free(&m);
}

static void write_bad(const cg_opts_t *o, const char *name, char *path, size_t size)
{
	fv_mesh_t src;
	snprintf(path, size, "%s/%s.cgns", tmpdir, name);
	fv_mesh_init(&src);
	source_mesh(&src);
	assert_int_equal(write_cgns(&src, path, o), 0);
	fv_mesh_free(&src);
}

static void test_errors(void **s)
{
	fv_mesh_t m;
	char path[128];
	(void)s;

	write_bad(&(cg_opts_t){.bad_type = 1}, "ngon", path, sizeof path);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_FORMAT,
		      "zone 'blk' section 'Poly': element type NGON_n is not supported");
	write_bad(&(cg_opts_t){.bad_type = 2}, "tetra10", path, sizeof path);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_FORMAT, "section 'Quadratic': element type TETRA_10");
	write_bad(&(cg_opts_t){.bad_bc = 1}, "badbc", path, sizeof path);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_FORMAT, "is in no section of the zone");
	write_bad(&(cg_opts_t){.bad_bc = 2}, "badbc2", path, sizeof path);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_FORMAT,
		      "BC 'ghost': element 1 is a TETRA_4 of section 'Tetras', not a triangle or quadrilateral");
	write_bad(&(cg_opts_t){.bad_bc = 2, .mixed_cells = 1}, "badbc3", path, sizeof path);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_FORMAT, "BC 'ghost': element 1 is a MIXED");
	write_bad(&(cg_opts_t){.structured = 1}, "structured", path, sizeof path);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_FORMAT, "the zone is Structured");
	write_bad(&(cg_opts_t){.two_zones = 1}, "twozones", path, sizeof path);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_FORMAT, "twozones.cgns: base 1: 2 zones");
	write_bad(&(cg_opts_t){.two_bases = 1}, "twobases", path, sizeof path);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_FORMAT, "2 bases");
	write_bad(&(cg_opts_t){.bad_node = 1}, "badnode", path, sizeof path);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_FORMAT, "section 'Stray': element");
	/* BC xmax in family xmin, beside BC xmin: one name for two boundaries */
	write_bad(&(cg_opts_t){.dup_name = 1}, "dupname", path, sizeof path);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_FORMAT,
		      "dupname.cgns: base 1 zone 'blk' BC 'xmax' (family 'xmin'): marker name 'xmin' comes twice: "
		      "/Base/blk/ZoneBC/xmin and /Base/blk/ZoneBC/xmax (FamilyName xmin); each marker needs its own "
		      "name");
	write_bad(&(cg_opts_t){.huge_coord = 1}, "hugecoord", path, sizeof path);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_FORMAT,
		      "hugecoord.cgns: base 1 zone 'blk' /Base/blk/GridCoordinates/CoordinateX: node 1: 1e+308 is "
		      "beyond the limit of 1e+12 in absolute value");

	/* not there, not CGNS, truncated */
	snprintf(path, sizeof path, "%s/none.cgns", tmpdir);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_IO, "none.cgns: cannot open");
	snprintf(path, sizeof path, "%s/text.cgns", tmpdir);
	FILE *f = fopen(path, "w");
	fputs("NDIME= 3\n", f);
	fclose(f);
	FV_ASSERT_ERR(fv_mesh_read(&m, path), FV_ERR_FORMAT, "text.cgns: not a readable CGNS file");
}

/* A good file cut short at several lengths: refused, never a crash. */
static void test_truncated(void **s)
{
	char path[128], cut[160];
	char *buf = NULL;
	size_t len;
	fv_mesh_t m;
	(void)s;
	write_bad(&(cg_opts_t){.mixed_cells = 1, .bc = BC_LIST}, "whole", path, sizeof path);
	FV_ASSERT_OK(fv_read_file(path, &buf, &len));
	snprintf(cut, sizeof cut, "%s/cut.cgns", tmpdir);
	for (int k = 1; k < 8; k++) {
		FILE *f = fopen(cut, "wb");
		fwrite(buf, 1, len * (size_t)k / 8, f);
		fclose(f);
		fv_error_clear();
		assert_int_not_equal(fv_mesh_read(&m, cut), FV_OK);
		assert_non_null(strstr(fv_errmsg(), "cut.cgns"));
	}
	free(buf);
}

/* ---------------------------------------------------------------- writer */

static int writer(int argc, char **argv)
{
	static const struct {
		const char *name;
		size_t off;
		int value;
	} flags[] = {
		{"mixed", offsetof(cg_opts_t, mixed_cells), 1},   {"bnd-mixed", offsetof(cg_opts_t, bnd), BND_MIXED},
		{"bnd-none", offsetof(cg_opts_t, bnd), BND_NONE}, {"bnd-first", offsetof(cg_opts_t, bnd_first), 1},
		{"bc-range", offsetof(cg_opts_t, bc), BC_RANGE},  {"bc-list", offsetof(cg_opts_t, bc), BC_LIST},
		{"bc-erange", offsetof(cg_opts_t, bc), BC_ERANGE}, {"bc-elist", offsetof(cg_opts_t, bc), BC_ELIST},
		{"bc-vertex", offsetof(cg_opts_t, bc), BC_VERTEX}, {"bc-none", offsetof(cg_opts_t, bc), BC_NONE},
		{"family", offsetof(cg_opts_t, family), 1},
		{"adf", offsetof(cg_opts_t, adf), 1},             {"bad-ngon", offsetof(cg_opts_t, bad_type), 1},
		{"bad-tetra10", offsetof(cg_opts_t, bad_type), 2}, {"bad-bc", offsetof(cg_opts_t, bad_bc), 1},
		{"bad-bc-cell", offsetof(cg_opts_t, bad_bc), 2},
		{"structured", offsetof(cg_opts_t, structured), 1}, {"two-zones", offsetof(cg_opts_t, two_zones), 1},
		{"two-bases", offsetof(cg_opts_t, two_bases), 1}, {"bad-node", offsetof(cg_opts_t, bad_node), 1},
		{"dup-name", offsetof(cg_opts_t, dup_name), 1},   {"huge-coord", offsetof(cg_opts_t, huge_coord), 1},
	};
	cg_opts_t o = {0};
	fv_mesh_t m;
	if (argc < 4) {
		fprintf(stderr, "usage: %s write IN OUT [option...]\n", argv[0]);
		return 2;
	}
	for (int i = 4; i < argc; i++) {
		size_t k;
		for (k = 0; k < sizeof flags / sizeof flags[0]; k++)
			if (strcmp(argv[i], flags[k].name) == 0) {
				*(int *)((char *)&o + flags[k].off) = flags[k].value;
				break;
			}
		if (k == sizeof flags / sizeof flags[0]) {
			fprintf(stderr, "%s: unknown option %s\n", argv[0], argv[i]);
			return 2;
		}
	}
	if (fv_mesh_read(&m, argv[2]) != FV_OK) {
		fprintf(stderr, "%s\n", fv_errmsg());
		return 1;
	}
	int rc = write_cgns(&m, argv[3], &o);
	fv_mesh_free(&m);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "write") == 0)
		return writer(argc, argv);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_range),
		cmocka_unit_test(test_mixed_list),
		cmocka_unit_test(test_element_range_list),
		cmocka_unit_test(test_vertex),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_no_bc),
		cmocka_unit_test(test_adf),
		cmocka_unit_test(test_sids_order),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_truncated),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
