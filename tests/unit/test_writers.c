/* SPDX-License-Identifier: MIT */
/* Unit tests of the SU2 and VTU mesh writers: contents, exact round trip,
 * the appended-data layout, and failures that must leave no file. */
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

static char tmpdir[256];

static int setup(void **state)
{
	const char *base = getenv("TMPDIR");
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "%s/fvstar-writers-XXXXXX", base && *base ? base : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

/* The directory holds only files and empty directories of these tests. */
static int teardown(void **state)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	char path[600];
	(void)state;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name);
			remove(path);
		}
	closedir(d);
	return rmdir(tmpdir);
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

/* One cell of each type (a hexahedron with a pyramid on top, a prism
 * beside it, two tetrahedra sharing a face), every volume positive, and
 * boundary elements of two markers listed out of marker order, plus a
 * marker without elements. Coordinates are scaled so that most need 17
 * digits. With extra, unused nodes hold values that are hard to print. */
#define N_BASE_NODES 16
static const double extra_values[] = {
	0.1, -0.0, 1.0 / 3.0, 2.0 / 3.0, 1e-300, 5e-324, 1.7976931348623157e308, 1e20, -123456.789,
	9.999999999999999e16, 1e-10, 9.99999999999e-11, 4503599627370497.5, 0.30000000000000004,
	2.2250738585072014e-308, 1e17, 8.5e-5, -7.0e-7};
#define N_EXTRA ((int)(sizeof extra_values / sizeof extra_values[0]))

static void make_mesh(fv_mesh_t *m, int extra)
{
	static const double base[N_BASE_NODES][3] = {
		{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1},
		{0.5, 0.5, 1.5}, {2, 0, 0}, {2, 0, 1},
		{-1, 0, 0}, {-1, 1, 0}, {-2, 0, 0}, {-1, 0, 1}, {-1.5, -1, 0.3}};
	static const int cell_type[5] = {FV_HEX, FV_PYRAMID, FV_PRISM, FV_TET, FV_TET};
	static const fv_idx_t cell_node[] = {0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 8, 1, 2, 9, 5, 6, 10,
					     11, 12, 13, 14, 11, 14, 13, 15};
	static const int belem_type[5] = {FV_QUAD, FV_TRI, FV_TRI, FV_QUAD, FV_TRI};
	static const int belem_marker[5] = {0, 1, 0, 1, 1};
	static const fv_idx_t belem_node[] = {0, 3, 2, 1, 4, 5, 8, 11, 13, 12, 2, 6, 10, 9, 5, 6, 8};
	int n_nodes = N_BASE_NODES + (extra ? (N_EXTRA + 2) / 3 : 0), k;

	fv_mesh_init(m);
	snprintf(m->source, sizeof m->source, "test mesh");
	FV_ASSERT_OK(fv_mesh_alloc(m, (size_t)n_nodes, 5, sizeof cell_node / sizeof *cell_node, 5,
				   sizeof belem_node / sizeof *belem_node));
	for (int i = 0; i < N_BASE_NODES; i++) {
		m->xyz[3 * i + 0] = 0.3 * base[i][0] + 0.1;
		m->xyz[3 * i + 1] = 0.7 * base[i][1] - 1.0 / 3.0;
		m->xyz[3 * i + 2] = 1.1 * base[i][2];
	}
	for (int i = 3 * N_BASE_NODES; i < 3 * n_nodes; i++) {
		int j = i - 3 * N_BASE_NODES;
		m->xyz[i] = j < N_EXTRA ? extra_values[j] : -1.0 / 7.0;
	}
	for (int c = 0; c < 5; c++) {
		m->cell_type[c] = (uint8_t)cell_type[c];
		m->cell_node_off[c + 1] = m->cell_node_off[c] + fv_cell_shapes[cell_type[c]].n_nodes;
	}
	memcpy(m->cell_node, cell_node, sizeof cell_node);
	FV_ASSERT_OK(fv_mesh_marker(m, "wall", &k));
	FV_ASSERT_OK(fv_mesh_marker(m, "farfield", &k));
	FV_ASSERT_OK(fv_mesh_marker(m, "unused", &k));
	for (int b = 0; b < 5; b++) {
		m->belem_type[b] = (uint8_t)belem_type[b];
		m->belem_marker[b] = belem_marker[b];
		m->belem_node_off[b + 1] = m->belem_node_off[b] + belem_type[b];
	}
	memcpy(m->belem_node, belem_node, sizeof belem_node);
}

/* The boundary elements in the order SU2 lists them: by marker. */
static const int su2_belem_order[5] = {0, 2, 1, 3, 4};

/* Lines of buf; *n gets the count. Modifies buf. */
static char **split_lines(char *buf, int *n)
{
	int cap = 64, k = 0;
	char **lines = malloc((size_t)cap * sizeof *lines);
	for (char *p = buf; *p;) {
		char *nl = strchr(p, '\n');
		if (k == cap)
			lines = realloc(lines, (size_t)(cap *= 2) * sizeof *lines);
		lines[k++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	*n = k;
	return lines;
}

static void test_su2_contents(void **state)
{
	fv_mesh_t m;
	char path[320], *buf, **line;
	size_t len;
	int n;
	(void)state;
	make_mesh(&m, 0);
	tmp_path(path, sizeof path, "mixed.su2");
	FV_ASSERT_OK(fv_mesh_write_su2(&m, path));
	assert_int_equal(fv_test_tmp_left(path), 0);
	buf = fv_test_slurp(path, &len);
	assert_true(len > 0 && buf[len - 1] == '\n');
	line = split_lines(buf, &n);
	assert_int_equal(n, 1 + 1 + 5 + 1 + 16 + 1 + 2 * 3 + 5);
	assert_string_equal(line[0], "NDIME= 3");
	assert_string_equal(line[1], "NELEM= 5");
	assert_string_equal(line[2], "12 0 1 2 3 4 5 6 7 0");
	assert_string_equal(line[3], "14 4 5 6 7 8 1");
	assert_string_equal(line[4], "13 1 2 9 5 6 10 2");
	assert_string_equal(line[5], "10 11 12 13 14 3");
	assert_string_equal(line[6], "10 11 14 13 15 4");
	assert_string_equal(line[7], "NPOIN= 16");
	/* shortest exact forms: 0.1 stays 0.1, 1/3 gets 16 digits */
	assert_string_equal(line[8], "0.1 -0.3333333333333333 0 0");
	assert_string_equal(line[24], "NMARK= 3");
	assert_string_equal(line[25], "MARKER_TAG= wall");
	assert_string_equal(line[26], "MARKER_ELEMS= 2");
	assert_string_equal(line[27], "9 0 3 2 1");
	assert_string_equal(line[28], "5 11 13 12");
	assert_string_equal(line[29], "MARKER_TAG= farfield");
	assert_string_equal(line[30], "MARKER_ELEMS= 3");
	assert_string_equal(line[31], "5 4 5 8");
	assert_string_equal(line[32], "9 2 6 10 9");
	assert_string_equal(line[33], "5 5 6 8");
	assert_string_equal(line[34], "MARKER_TAG= unused");
	assert_string_equal(line[35], "MARKER_ELEMS= 0");
	free(line);
	free(buf);
	fv_mesh_free(&m);
}

/* Every coordinate, written as text and read back by strtod, is the same
 * double bit for bit (the writer's own formatting, not printf). */
static void test_su2_coordinates_exact(void **state)
{
	fv_mesh_t m;
	char path[320], *buf, **line;
	size_t len;
	int n, first = -1;
	(void)state;
	make_mesh(&m, 1);
	tmp_path(path, sizeof path, "exact.su2");
	FV_ASSERT_OK(fv_mesh_write_su2(&m, path));
	buf = fv_test_slurp(path, &len);
	line = split_lines(buf, &n);
	for (int i = 0; i < n; i++)
		if (strncmp(line[i], "NPOIN= ", 7) == 0)
			first = i + 1;
	assert_true(first > 0);
	assert_int_equal(atoi(line[first - 1] + 7), m.n_nodes);
	for (int i = 0; i < m.n_nodes; i++) {
		char *p = line[first + i], *end;
		for (int d = 0; d < 3; d++) {
			double x = strtod(p, &end), want = m.xyz[3 * i + d];
			if (end == p || memcmp(&x, &want, sizeof x) != 0)
				fail_msg("node %d: '%s' does not read back as %.17g", i, line[first + i], want);
			p = end;
		}
		assert_int_equal(strtol(p, &end, 10), i);
	}
	free(line);
	free(buf);
	fv_mesh_free(&m);
}

static void test_su2_roundtrip(void **state)
{
#ifdef FV_TEST_NO_READ_SU2
	(void)state;
	skip();
#else
	fv_mesh_t m, r;
	char path[320];
	(void)state;
	make_mesh(&m, 1);
	tmp_path(path, sizeof path, "roundtrip.su2");
	/* the reader refuses coordinates beyond FV_COORD_MAX (1e12; the extra
	 * values reach 1.8e308), then takes back hard ones below it exactly */
	FV_ASSERT_OK(fv_mesh_write_su2(&m, path));
	FV_ASSERT_ERR(fv_mesh_read_su2(&r, path), FV_ERR_FORMAT, "is beyond the limit of 1e+12 in absolute value");
	{
		static const double big[] = {999999999999.99988, -123456789012.34567, 4503599627.3704967,
					     9.999999999999999e11};
		int k = 0;
		for (size_t i = 0; i < 3 * (size_t)m.n_nodes; i++)
			if (fabs(m.xyz[i]) > 1e12)
				m.xyz[i] = big[k++ % 4];
		assert_true(k >= 4);
	}
	FV_ASSERT_OK(fv_mesh_write_su2(&m, path));
	FV_ASSERT_OK(fv_mesh_read_su2(&r, path));
	assert_int_equal(r.n_nodes, m.n_nodes);
	assert_memory_equal(r.xyz, m.xyz, 3 * (size_t)m.n_nodes * sizeof(double));
	assert_int_equal(r.n_cells, m.n_cells);
	assert_memory_equal(r.cell_type, m.cell_type, (size_t)m.n_cells);
	assert_memory_equal(r.cell_node_off, m.cell_node_off, ((size_t)m.n_cells + 1) * sizeof(fv_idx_t));
	assert_memory_equal(r.cell_node, m.cell_node, (size_t)m.cell_node_off[m.n_cells] * sizeof(fv_idx_t));
	assert_int_equal(r.n_markers, m.n_markers);
	for (int k = 0; k < m.n_markers; k++)
		assert_string_equal(r.markers[k].name, m.markers[k].name);
	assert_int_equal(r.n_belems, m.n_belems);
	for (int j = 0; j < m.n_belems; j++) {
		int b = su2_belem_order[j];
		fv_idx_t n = m.belem_node_off[b + 1] - m.belem_node_off[b];
		assert_int_equal(r.belem_type[j], m.belem_type[b]);
		assert_int_equal(r.belem_marker[j], m.belem_marker[b]);
		assert_int_equal(r.belem_node_off[j + 1] - r.belem_node_off[j], n);
		assert_memory_equal(r.belem_node + r.belem_node_off[j], m.belem_node + m.belem_node_off[b],
				    (size_t)n * sizeof(fv_idx_t));
	}
	/* and the written file reproduces itself */
	{
		char again[330], *a, *b;
		size_t la, lb;
		tmp_path(again, sizeof again, "roundtrip2.su2");
		FV_ASSERT_OK(fv_mesh_write_su2(&r, again));
		a = fv_test_slurp(path, &la);
		b = fv_test_slurp(again, &lb);
		assert_int_equal(la, lb);
		assert_memory_equal(a, b, la);
		free(a);
		free(b);
	}
	fv_mesh_free(&r);
	fv_mesh_free(&m);
#endif
}

typedef struct vtu_array {
	int piece;
	char type[16], name[32];
	int ncomp;
	unsigned long long offset;
} vtu_array_t;

/* The value of attribute key="..." in the tag starting at tag. */
static int attr(const char *tag, const char *key, char *out, size_t n)
{
	const char *end = strchr(tag, '>');
	char pat[48];
	const char *p, *q;
	snprintf(pat, sizeof pat, " %s=\"", key);
	p = strstr(tag, pat);
	if (!p || p > end)
		return 0;
	p += strlen(pat);
	q = strchr(p, '"');
	if ((size_t)(q - p) >= n)
		return 0;
	memcpy(out, p, (size_t)(q - p));
	out[q - p] = '\0';
	return 1;
}

static size_t type_size(const char *type)
{
	if (strcmp(type, "UInt8") == 0)
		return 1;
	if (strcmp(type, "Int32") == 0)
		return 4;
	if (strcmp(type, "Float64") == 0 || strcmp(type, "Int64") == 0 || strcmp(type, "UInt64") == 0)
		return 8;
	fail_msg("unexpected DataArray type %s", type);
	return 0;
}

/* Parses the XML header: pieces' counts and appended arrays; checks each
 * block's size prefix and that the blocks tile the appended section. */
static const char *check_vtu(const char *buf, size_t len, long npts[2], long ncells[2], vtu_array_t *arr,
			     int *narr)
{
	const char *app = strstr(buf, "<AppendedData encoding=\"raw\">");
	const char *data, *p = buf;
	unsigned long long expect = 0;
	int piece = -1;
	char val[64];

	assert_non_null(app);
	data = strchr(app, '_');
	assert_non_null(data);
	data++;
	*narr = 0;
	while ((p = strchr(p + 1, '<')) && p < app) {
		if (strncmp(p, "<Piece ", 7) == 0) {
			piece++;
			assert_true(piece < 2);
			assert_true(attr(p, "NumberOfPoints", val, sizeof val));
			npts[piece] = atol(val);
			assert_true(attr(p, "NumberOfCells", val, sizeof val));
			ncells[piece] = atol(val);
		} else if (strncmp(p, "<DataArray ", 11) == 0) {
			vtu_array_t *a = &arr[(*narr)++];
			uint64_t size;
			size_t want;
			a->piece = piece;
			assert_true(attr(p, "type", a->type, sizeof a->type));
			assert_true(attr(p, "Name", a->name, sizeof a->name));
			a->ncomp = attr(p, "NumberOfComponents", val, sizeof val) ? atoi(val) : 1;
			assert_true(attr(p, "format", val, sizeof val));
			assert_string_equal(val, "appended");
			assert_true(attr(p, "offset", val, sizeof val));
			a->offset = strtoull(val, NULL, 10);
			assert_true(a->offset == expect);
			assert_true((size_t)(data - buf) + a->offset + 8 <= len);
			memcpy(&size, data + a->offset, sizeof size);
			if (strcmp(a->name, "Points") == 0)
				want = (size_t)npts[piece] * 3 * 8;
			else if (strcmp(a->name, "connectivity") == 0)
				want = (size_t)size; /* checked against the mesh by the caller */
			else
				want = (size_t)ncells[piece] * type_size(a->type) * (size_t)a->ncomp;
			if (size != want)
				fail_msg("array %s of piece %d: block of %llu bytes, expected %zu", a->name, piece,
					 (unsigned long long)size, want);
			expect += 8 + size;
		}
	}
	assert_int_equal(piece, 1);
	assert_true((size_t)(data - buf) + expect <= len);
	assert_string_equal(data + expect, "\n  </AppendedData>\n</VTKFile>\n");
	return data;
}

static const vtu_array_t *find_array(const vtu_array_t *arr, int narr, int piece, const char *name)
{
	for (int i = 0; i < narr; i++)
		if (arr[i].piece == piece && strcmp(arr[i].name, name) == 0)
			return &arr[i];
	fail_msg("no array %s in piece %d", name, piece);
	return NULL;
}

static void test_vtu_layout(void **state)
{
	fv_mesh_t m;
	char path[320], *buf;
	const char *data;
	size_t len;
	long npts[2], ncells[2];
	vtu_array_t arr[32];
	int narr;
	const uint16_t one = 1;
	(void)state;
	make_mesh(&m, 0);
	tmp_path(path, sizeof path, "mixed.vtu");

	for (int with_volume = 0; with_volume < 2; with_volume++) {
		if (with_volume) {
			static const double vol[5] = {1.0, 1.0 / 6, 0.5, 1.0 / 6, 1.0 / 6};
			FV_ASSERT_OK(fv_malloc(&m.cell_vol, 5, sizeof *m.cell_vol, "volumes"));
			for (int c = 0; c < 5; c++)
				m.cell_vol[c] = (fv_real_t)(vol[c] * 0.3 * 0.7 * 1.1);
		}
		FV_ASSERT_OK(fv_mesh_write_vtu(&m, path));
		assert_int_equal(fv_test_tmp_left(path), 0);
		buf = fv_test_slurp(path, &len);
		assert_true(strncmp(buf, "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\"", 54) == 0);
		assert_non_null(strstr(buf, *(const uint8_t *)&one ? "byte_order=\"LittleEndian\""
								  : "byte_order=\"BigEndian\""));
		assert_non_null(strstr(buf, "header_type=\"UInt64\""));
		assert_non_null(strstr(buf, "<!-- marker 1: farfield -->"));
		data = check_vtu(buf, len, npts, ncells, arr, &narr);
		assert_int_equal(narr, with_volume ? 14 : 12);
		assert_int_equal(npts[0], 16);
		assert_int_equal(ncells[0], 5);
		assert_int_equal(npts[1], 13); /* distinct nodes of the boundary elements */
		assert_int_equal(ncells[1], 5);
		for (int i = 0; i < narr / 2; i++) {
			/* the same arrays in both pieces, as VTK needs */
			assert_int_equal(arr[i].piece, 0);
			assert_int_equal(arr[i + narr / 2].piece, 1);
			assert_string_equal(arr[i].name, arr[i + narr / 2].name);
			assert_string_equal(arr[i].type, arr[i + narr / 2].type);
		}

		/* volume piece: arrays are the mesh's, types are VTK's */
		{
			const vtu_array_t *a = find_array(arr, narr, 0, "Points");
			assert_memory_equal(data + a->offset + 8, m.xyz, 16 * 3 * sizeof(double));
			a = find_array(arr, narr, 0, "connectivity");
			assert_memory_equal(data + a->offset, &(uint64_t){27 * 4}, 8);
			assert_memory_equal(data + a->offset + 8, m.cell_node, 27 * 4);
			a = find_array(arr, narr, 0, "offsets");
			assert_memory_equal(data + a->offset + 8, ((int32_t[]){8, 13, 19, 23, 27}), 5 * 4);
			a = find_array(arr, narr, 0, "types");
			assert_memory_equal(data + a->offset + 8, ((uint8_t[]){12, 14, 13, 10, 10}), 5);
			a = find_array(arr, narr, 0, "cell_type");
			assert_memory_equal(data + a->offset + 8, m.cell_type, 5);
			a = find_array(arr, narr, 0, "marker");
			assert_memory_equal(data + a->offset + 8, ((int32_t[]){-1, -1, -1, -1, -1}), 5 * 4);
			if (with_volume) {
				a = find_array(arr, narr, 0, "volume");
				for (int c = 0; c < 5; c++) {
					double v;
					memcpy(&v, data + a->offset + 8 + 8 * c, 8);
					assert_true(v == (double)m.cell_vol[c]);
				}
			}
		}
		/* boundary piece: faces over their own points, same geometry */
		{
			const vtu_array_t *pa = find_array(arr, narr, 1, "Points");
			const vtu_array_t *ca = find_array(arr, narr, 1, "connectivity");
			const char *pts = data + pa->offset + 8;
			int32_t conn[17];
			assert_memory_equal(data + ca->offset, &(uint64_t){17 * 4}, 8);
			memcpy(conn, data + ca->offset + 8, sizeof conn);
			for (int i = 0; i < 17; i++) {
				assert_true(conn[i] >= 0 && conn[i] < 13);
				assert_memory_equal(pts + 24 * conn[i], m.xyz + 3 * m.belem_node[i], 24);
			}
			assert_memory_equal(data + find_array(arr, narr, 1, "offsets")->offset + 8,
					    ((int32_t[]){4, 7, 10, 14, 17}), 5 * 4);
			assert_memory_equal(data + find_array(arr, narr, 1, "types")->offset + 8,
					    ((uint8_t[]){9, 5, 5, 9, 5}), 5);
			assert_memory_equal(data + find_array(arr, narr, 1, "marker")->offset + 8,
					    ((int32_t[]){0, 1, 0, 1, 1}), 5 * 4);
			assert_memory_equal(data + find_array(arr, narr, 1, "cell_type")->offset + 8,
					    ((uint8_t[]){255, 255, 255, 255, 255}), 5);
			if (with_volume)
				assert_memory_equal(data + find_array(arr, narr, 1, "volume")->offset + 8,
						    ((double[]){0, 0, 0, 0, 0}), 5 * 8);
		}
		free(buf);
	}
	fv_mesh_free(&m);
}

/* No boundary elements and no markers: an empty second piece, NMARK= 0. */
static void test_no_markers(void **state)
{
	fv_mesh_t m;
	char path[320], *buf;
	size_t len;
	long npts[2], ncells[2];
	vtu_array_t arr[32];
	int narr;
	(void)state;
	make_mesh(&m, 0);
	m.n_belems = 0;
	m.n_markers = 0;
	tmp_path(path, sizeof path, "nomark.vtu");
	FV_ASSERT_OK(fv_mesh_write(&m, path));
	buf = fv_test_slurp(path, &len);
	check_vtu(buf, len, npts, ncells, arr, &narr);
	assert_int_equal(npts[1], 0);
	assert_int_equal(ncells[1], 0);
	free(buf);
	tmp_path(path, sizeof path, "nomark.SU2");
	FV_ASSERT_OK(fv_mesh_write(&m, path));
	buf = fv_test_slurp(path, &len);
	assert_true(len > 9 && strcmp(buf + len - 9, "NMARK= 0\n") == 0);
	free(buf);
	fv_mesh_free(&m);
}

static void test_write_errors(void **state)
{
	fv_mesh_t m;
	char path[320], dir[320], *buf;
	size_t len;
	(void)state;
	make_mesh(&m, 0);

	/* a directory that does not exist: nothing is created */
	tmp_path(path, sizeof path, "no/such/dir/mesh.su2");
	FV_ASSERT_ERR(fv_mesh_write_su2(&m, path), FV_ERR_IO, path);
	assert_non_null(strstr(fv_errmsg(), strerror(ENOENT)));
	tmp_path(path, sizeof path, "no/such/dir/mesh.vtu");
	FV_ASSERT_ERR(fv_mesh_write_vtu(&m, path), FV_ERR_IO, path);
	FV_ASSERT_ERR(fv_mesh_write(&m, path), FV_ERR_IO, path);
	tmp_path(dir, sizeof dir, "no");
	assert_false(exists(dir));

	/* the target is a directory: the rename fails, the temporary goes */
	tmp_path(dir, sizeof dir, "adir.vtu");
	assert_int_equal(mkdir(dir, 0700), 0);
	FV_ASSERT_ERR(fv_mesh_write_vtu(&m, dir), FV_ERR_IO, dir);
	assert_int_equal(fv_test_tmp_left(dir), 0);
	tmp_path(dir, sizeof dir, "adir.su2");
	assert_int_equal(mkdir(dir, 0700), 0);
	FV_ASSERT_ERR(fv_mesh_write_su2(&m, dir), FV_ERR_IO, dir);
	assert_int_equal(fv_test_tmp_left(dir), 0);

	/* unknown extension */
	tmp_path(path, sizeof path, "mesh.txt");
	FV_ASSERT_ERR(fv_mesh_write(&m, path), FV_ERR_ARG, "unknown mesh extension '.txt' (use .su2, .fvm, .cgns or .vtu)");
	tmp_path(path, sizeof path, "mesh");
	FV_ASSERT_ERR(fv_mesh_write(&m, path), FV_ERR_ARG, "unknown mesh extension ''");
	assert_false(exists(path));

	/* an invalid mesh is refused before an existing file is touched */
	tmp_path(path, sizeof path, "keep.su2");
	FV_ASSERT_OK(fv_mesh_write(&m, path));
	m.cell_node[3] = 99;
	FV_ASSERT_ERR(fv_mesh_write(&m, path), FV_ERR_MESH, "out of range");
	tmp_path(dir, sizeof dir, "keep.vtu");
	FV_ASSERT_ERR(fv_mesh_write(&m, dir), FV_ERR_MESH, "out of range");
	assert_false(exists(dir));
	m.cell_node[3] = 3;
	m.belem_marker[2] = 7;
	FV_ASSERT_ERR(fv_mesh_write(&m, path), FV_ERR_MESH, "marker 7");
	m.belem_marker[2] = 0;
	m.xyz[5] = NAN;
	FV_ASSERT_ERR(fv_mesh_write_su2(&m, path), FV_ERR_MESH, "node 1");
	buf = fv_test_slurp(path, &len);
	assert_non_null(strstr(buf, "12 0 1 2 3 4 5 6 7 0\n"));
	free(buf);
	fv_mesh_free(&m);
}

/* A write that fails half-way (here: over the file size limit) reports
 * the path and the system's reason, and leaves the old file as it was. */
static void test_write_fails_midway(void **state)
{
	static const char old[] = "old contents\n";
	const char *names[2] = {"limited.su2", "limited.vtu"};
	fv_mesh_t m;
	(void)state;
	make_mesh(&m, 1);
	for (int i = 0; i < 2; i++) {
		char path[320], *buf;
		struct rlimit saved, small;
		void (*handler)(int);
		size_t len;
		FILE *f;
		fv_err_t err;
		tmp_path(path, sizeof path, names[i]);
		f = fopen(path, "wb");
		assert_non_null(f);
		fputs(old, f);
		fclose(f);
		assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
		small = saved;
		small.rlim_cur = 100;
		handler = signal(SIGXFSZ, SIG_IGN);
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
		fv_error_clear();
		err = fv_mesh_write(&m, path);
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
		signal(SIGXFSZ, handler);
		if (err != FV_ERR_IO || !strstr(fv_errmsg(), path) || !strstr(fv_errmsg(), strerror(EFBIG)))
			fail_msg("%s: got %d '%s'", names[i], (int)err, fv_errmsg());
		assert_int_equal(fv_test_tmp_left(path), 0);
		buf = fv_test_slurp(path, &len);
		assert_string_equal(buf, old);
		free(buf);
	}
	fv_mesh_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_su2_contents),
		cmocka_unit_test(test_su2_coordinates_exact),
		cmocka_unit_test(test_su2_roundtrip),
		cmocka_unit_test(test_vtu_layout),
		cmocka_unit_test(test_no_markers),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_write_fails_midway),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
