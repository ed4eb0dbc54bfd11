/* SPDX-License-Identifier: MIT */
/* The binary mesh format (.fvm): every cell type, 2D extrusions, refined
 * and renumbered meshes read back to the very arrays they were written
 * from (the SU2 reader's, for SU2 files); CGNS output read back by the CGNS
 * reader; and damaged files (truncated, a bad checksum, another version or
 * byte order, counts the file cannot hold, indices out of range) each
 * refused naming the file and the section. */
#include <unistd.h>

#include "testutil.h"
#include "fvstar/partition.h"
#include "mesh/fvm_internal.h"
#include "util/parse.h"
#include "util/xxh64.h"

static char dir[64];

static void path_of(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

#define SAME(a, b, n)                                                                  \
	do {                                                                           \
		if ((a) == NULL || (b) == NULL)                                        \
			assert_true((a) == NULL && (b) == NULL);                       \
		else                                                                   \
			assert_memory_equal((a), (b), (size_t)(n) * sizeof *(a));      \
	} while (0)

/* The read arrays of two meshes, bit for bit. */
static void assert_same_mesh(const fv_mesh_t *a, const fv_mesh_t *b, int with_tags)
{
	assert_int_equal(a->n_nodes, b->n_nodes);
	assert_int_equal(a->n_cells, b->n_cells);
	assert_int_equal(a->n_belems, b->n_belems);
	assert_int_equal(a->n_markers, b->n_markers);
	SAME(a->xyz, b->xyz, 3 * (size_t)a->n_nodes);
	SAME(a->cell_type, b->cell_type, a->n_cells);
	SAME(a->cell_node_off, b->cell_node_off, a->n_cells + 1);
	SAME(a->cell_node, b->cell_node, a->cell_node_off[a->n_cells]);
	SAME(a->belem_type, b->belem_type, a->n_belems);
	SAME(a->belem_node_off, b->belem_node_off, a->n_belems + 1);
	SAME(a->belem_node, b->belem_node, a->belem_node_off[a->n_belems]);
	SAME(a->belem_marker, b->belem_marker, a->n_belems);
	for (int k = 0; k < a->n_markers; k++)
		assert_string_equal(a->markers[k].name, b->markers[k].name);
	if (!with_tags)
		return;
	SAME(a->cell_tag, b->cell_tag, a->n_cells);
	SAME(a->node_tag, b->node_tag, a->n_nodes);
	SAME(a->cell_orig, b->cell_orig, a->n_cells);
	SAME(a->node_orig, b->node_orig, a->n_nodes);
	assert_int_equal(a->refine_levels, b->refine_levels);
	assert_int_equal(a->extruded_2d, b->extruded_2d);
	if (a->extruded_2d) {
		assert_true(a->extrude_span == b->extrude_span);
		assert_int_equal(a->extrude_marker[0], b->extrude_marker[0]);
		assert_int_equal(a->extrude_marker[1], b->extrude_marker[1]);
	}
}

/* m through .fvm and back: the same arrays, and a mesh the pipeline takes;
 * no temporary file left. */
static void fvm_roundtrip(const fv_mesh_t *m, const char *name)
{
	char p[128];
	fv_mesh_t r;
	path_of(p, sizeof p, name);
	FV_ASSERT_OK(fv_mesh_write(m, p));
	assert_int_equal(fv_test_tmp_left(p), 0);
	FV_ASSERT_OK(fv_mesh_read(&r, p));
	assert_same_mesh(m, &r, 1);
	assert_string_equal(r.source, p);
	FV_ASSERT_OK(fv_mesh_prepare(&r));
	fv_mesh_free(&r);
}

/* gen -> SU2 file -> the SU2 reader's mesh -> .fvm -> the same mesh. */
static void su2_fvm(fv_mesh_t *gen, const char *name)
{
	char su2[128], fvm[64];
	fv_mesh_t s;
	path_of(su2, sizeof su2, name);
	strcat(su2, ".su2");
	FV_ASSERT_OK(fv_mesh_write_su2(gen, su2));
	FV_ASSERT_OK(fv_mesh_read(&s, su2));
	snprintf(fvm, sizeof fvm, "%s.fvm", name);
	fvm_roundtrip(&s, fvm);
	fv_mesh_free(&s);
}

static void test_every_cell_type(void **state)
{
	(void)state;
	static const double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 1};
	static const char *names[] = {"hex", "tet", "prism", "mixed"};
	for (int kind = FV_GEN_HEX; kind <= FV_GEN_MIXED; kind++) {
		fv_gen_opts_t o = fv_test_box_opts((fv_gen_cells_t)kind, 3, 4, 2, 0.2, 7, lo, hi);
		fv_mesh_t m;
		fv_mesh_init(&m);
		FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));
		if (kind == FV_GEN_MIXED) {
			int n[FV_NCELLTYPES] = {0};
			for (fv_idx_t c = 0; c < m.n_cells; c++)
				n[m.cell_type[c]]++;
			for (int t = 0; t < FV_NCELLTYPES; t++)
				assert_true(n[t] > 0); /* tets, pyramids, prisms, hexes */
		}
		su2_fvm(&m, names[kind]);
		fvm_roundtrip(&m, "gen.fvm"); /* the generator's own arrays (no tags) */
		fv_mesh_free(&m);
	}
}

/* A 2D SU2 mesh of triangles and quadrilaterals: extruded, with the
 * extrusion's span and markers kept. */
static void test_2d(void **state)
{
	(void)state;
	static const char sq[] = "NDIME= 2\nNELEM= 3\n9 0 1 4 3\n5 1 2 5\n5 1 4 5\nNPOIN= 6\n0 0\n1 0\n2 0\n0 1\n1 1\n"
				 "2 1\nNMARK= 2\nMARKER_TAG= bottom\nMARKER_ELEMS= 2\n3 0 1\n3 1 2\nMARKER_TAG= rest\n"
				 "MARKER_ELEMS= 4\n3 2 5\n3 5 4\n3 4 3\n3 3 0\n";
	fv_mesh_t m;
	FV_ASSERT_OK(fv_mesh_parse_su2(&m, sq, sizeof sq - 1, "sq.su2"));
	assert_true(m.extruded_2d);
	FV_ASSERT_OK(fv_mesh_set_extrude_span(&m, 0.25));
	fvm_roundtrip(&m, "sq.fvm");
	fv_mesh_free(&m);
}

/* Refined (cell tags of the parent element, not i + base) and renumbered
 * (cell_orig, node_orig) meshes keep their file order and numbers. */
static void test_refined_renumbered(void **state)
{
	(void)state;
	static const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
	fv_gen_opts_t o = fv_test_box_opts(FV_GEN_MIXED, 2, 2, 2, 0.1, 3, lo, hi);
	fv_mesh_t m, fine, s;
	char su2[128];
	fv_mesh_init(&m);
	fv_mesh_init(&fine);
	FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));
	path_of(su2, sizeof su2, "coarse.su2");
	FV_ASSERT_OK(fv_mesh_write_su2(&m, su2));
	FV_ASSERT_OK(fv_mesh_read(&s, su2));
	FV_ASSERT_OK(fv_mesh_refine(&s, &fine));
	assert_int_equal(fine.refine_levels, 1);
	fvm_roundtrip(&fine, "fine.fvm");

	int32_t *blk = calloc((size_t)fine.n_cells, sizeof *blk);
	fv_idx_t off[2];
	FV_ASSERT_OK(fv_mesh_prepare(&fine));
	FV_ASSERT_OK(fv_mesh_renumber(&fine, blk, 1, off, 0, NULL));
	assert_non_null(fine.cell_orig);
	assert_non_null(fine.node_orig);
	fvm_roundtrip(&fine, "renumbered.fvm");
	free(blk);
	fv_mesh_free(&m);
	fv_mesh_free(&s);
	fv_mesh_free(&fine);
}

/* SU2 -> .cgns (the CGNS writer) -> the CGNS reader: the same nodes, cells,
 * boundary elements and markers (CGNS keeps no SU2 numbers). */
static void test_cgns(void **state)
{
	(void)state;
	static const double lo[3] = {0, 0, 0}, hi[3] = {2, 1, 1};
	char su2[128], cg[128];
	fv_mesh_t s, c;
	if (!fv_mesh_have_cgns()) {
		fv_mesh_init(&s);
		FV_ASSERT_ERR(fv_mesh_write_cgns(&s, "x.cgns"), FV_ERR_FORMAT, "built without CGNS");
		skip();
	}
	for (int kind = FV_GEN_HEX; kind <= FV_GEN_MIXED; kind++) {
		fv_gen_opts_t o = fv_test_box_opts((fv_gen_cells_t)kind, 3, 2, 2, 0.2, 5, lo, hi);
		fv_mesh_t m;
		fv_mesh_init(&m);
		FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));
		path_of(su2, sizeof su2, "cg.su2");
		path_of(cg, sizeof cg, "cg.cgns");
		FV_ASSERT_OK(fv_mesh_write_su2(&m, su2));
		FV_ASSERT_OK(fv_mesh_read(&s, su2));
		FV_ASSERT_OK(fv_mesh_write(&s, cg));
		assert_int_equal(fv_test_tmp_left(cg), 0);
		FV_ASSERT_OK(fv_mesh_read(&c, cg));
		assert_same_mesh(&s, &c, 0);
		FV_ASSERT_OK(fv_mesh_prepare(&c));
		fv_mesh_free(&c);
		fv_mesh_free(&s);
		fv_mesh_free(&m);
	}
	/* what CGNS cannot hold is refused, and nothing is left behind */
	fv_gen_opts_t o = fv_test_box_opts(FV_GEN_HEX, 1, 1, 1, 0, 1, lo, hi);
	fv_mesh_t m;
	fv_mesh_init(&m);
	FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));
	snprintf(m.markers[0].name, sizeof m.markers[0].name, "%s", "a_marker_name_of_more_than_32_characters");
	FV_ASSERT_ERR(fv_mesh_write(&m, cg), FV_ERR_ARG, "CGNS names hold 32");
	assert_int_equal(fv_test_tmp_left(cg), 0);
	fv_mesh_free(&m);
}

/* ------------------------------------------------------ damaged files */

static unsigned char *good;
static size_t good_len;

/* The header's and the directory's checksums made right again after an
 * edit, so that the check behind them is the one that speaks. */
static void reseal(unsigned char *b)
{
	fvm_header_t h;
	memcpy(&h, b, sizeof h);
	size_t head = sizeof h + (size_t)h.n_sections * sizeof(fvm_section_t);
	fv_xxh64_t st;
	fv_xxh64_init(&st, 0);
	fv_xxh64_stripes(&st, b, offsetof(fvm_header_t, checksum));
	fv_xxh64_stripes(&st, b + sizeof h, head - sizeof h);
	h.checksum = fv_xxh64_final(&st, NULL, 0);
	memcpy(b, &h, sizeof h);
}

static fvm_section_t *section(unsigned char *b, uint32_t id)
{
	fvm_header_t h;
	memcpy(&h, b, sizeof h);
	for (uint32_t k = 0; k < h.n_sections; k++) {
		fvm_section_t *s = (fvm_section_t *)(b + sizeof h) + k;
		if (s->id == id)
			return s;
	}
	fail_msg("no section %u", (unsigned)id);
	return NULL;
}

/* A section's checksum made right after an edit of its data. */
static void reseal_section(unsigned char *b, uint32_t id)
{
	fvm_section_t *s = section(b, id);
	s->checksum = fv_xxh64(b + s->offset, (size_t)(s->count * s->item_bytes), 0);
	reseal(b);
}

/* b[0..len) as a file refused with code and a message holding part (and
 * the file's name); the same from the buffer. */
static void refused(const unsigned char *b, size_t len, const char *part)
{
	char p[128];
	fv_mesh_t m;
	path_of(p, sizeof p, "bad.fvm");
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, len, f), len);
	fclose(f);
	FV_ASSERT_ERR(fv_mesh_read(&m, p), FV_ERR_FORMAT, part);
	assert_non_null(strstr(fv_errmsg(), p));
	FV_ASSERT_ERR(fv_mesh_parse_fvm(&m, b, len, "buf.fvm"), FV_ERR_FORMAT, part);
}

static unsigned char *copy(void)
{
	unsigned char *b = malloc(good_len);
	memcpy(b, good, good_len);
	return b;
}

static void test_damaged(void **state)
{
	(void)state;
	static const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
	fv_gen_opts_t o = fv_test_box_opts(FV_GEN_MIXED, 2, 2, 2, 0.1, 3, lo, hi);
	fv_mesh_t m;
	char p[128];
	size_t len;
	fv_mesh_init(&m);
	FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));
	path_of(p, sizeof p, "good.fvm");
	FV_ASSERT_OK(fv_mesh_write(&m, p));
	FV_ASSERT_OK(fv_read_file(p, (char **)&good, &good_len));
	fv_mesh_free(&m);
	len = good_len;
	unsigned char *b;

	refused(good, 0, "not an fvstar binary mesh");
	refused(good, 100, "truncated: 100 bytes, less than the 136-byte header");
	refused(good, len / 2, "truncated: the header states");
	refused(good, len - 8, "truncated");

	b = copy();
	b[1] = 'X';
	refused(b, len, "does not start with its signature");
	free(b);

	b = copy();
	((fvm_header_t *)b)->version = 2;
	reseal(b);
	refused(b, len, "format version 2; this fvstar reads version 1");
	free(b);

	b = copy();
	((fvm_header_t *)b)->byte_order = __builtin_bswap32(FVM_BYTE_ORDER);
	reseal(b);
	refused(b, len, "other byte order");
	free(b);

	/* a flipped bit in a section: its checksum names it */
	b = copy();
	b[section(b, FVM_SEC_CELL_NODES)->offset + 5] ^= 4;
	refused(b, len, "section CELL_NODES (offset");
	b[section(b, FVM_SEC_CELL_NODES)->offset + 5] ^= 4;
	b[section(b, FVM_SEC_NODES)->offset + 17] ^= 1;
	refused(b, len, "section NODES (offset");
	free(b);

	/* ... and in the header */
	b = copy();
	((fvm_header_t *)b)->n_nodes++;
	refused(b, len, "header checksum mismatch");
	/* counts the file cannot hold */
	reseal(b);
	refused(b, len, "section NODES: ");
	free(b);
	b = copy();
	section(b, FVM_SEC_CELL_NODES)->count = 1u << 30;
	((fvm_header_t *)b)->n_cell_nodes = 1 << 30;
	reseal(b);
	refused(b, len, "beyond the end of the file");
	free(b);
	b = copy();
	((fvm_header_t *)b)->n_cells = (int64_t)1 << 40;
	reseal(b);
	refused(b, len, "header counts out of range");
	free(b);
	b = copy();
	((fvm_header_t *)b)->cell_tags = FVM_TAGS_AFFINE;
	((fvm_header_t *)b)->cell_tag_base = INT64_MAX - 3;
	reseal(b);
	refused(b, len, "run past 2^63");
	free(b);
	b = malloc(len + 8);
	memcpy(b, good, len);
	memset(b + len, 0, 8);
	refused(b, len + 8, "bytes past the end of the data");
	free(b);

	/* indices out of range, checksums right */
	b = copy();
	fvm_section_t *s = section(b, FVM_SEC_CELL_NODES);
	int32_t big = (int32_t)((fvm_header_t *)b)->n_nodes;
	memcpy(b + s->offset + 4 * 7, &big, 4);
	reseal_section(b, FVM_SEC_CELL_NODES);
	refused(b, len, "section CELL_NODES, item 7 (offset");
	free(b);
	b = copy();
	s = section(b, FVM_SEC_BELEM_MARKERS);
	memcpy(b + s->offset + 4 * 3, &big, 4);
	reseal_section(b, FVM_SEC_BELEM_MARKERS);
	refused(b, len, "section BELEM_MARKERS, item 3");
	free(b);
	b = copy();
	b[section(b, FVM_SEC_CELL_TYPES)->offset + 2] = 9;
	reseal_section(b, FVM_SEC_CELL_TYPES);
	refused(b, len, "unknown element type 9");
	free(b);
	b = copy();
	s = section(b, FVM_SEC_NODES);
	double inf = 1.0 / 0.0;
	memcpy(b + s->offset + 8 * 4, &inf, 8);
	reseal_section(b, FVM_SEC_NODES);
	refused(b, len, "section NODES, node 1");
	free(b);
	b = copy();
	s = section(b, FVM_SEC_MARKER_NAMES);
	memcpy(b + s->offset + 64, b + s->offset, 64);
	reseal_section(b, FVM_SEC_MARKER_NAMES);
	refused(b, len, "comes twice");
	free(b);
	FV_FREE(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_cell_type),
		cmocka_unit_test(test_2d),
		cmocka_unit_test(test_refined_renumbered),
		cmocka_unit_test(test_cgns),
		cmocka_unit_test(test_damaged),
	};
	snprintf(dir, sizeof dir, "/tmp/fvm_test.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		rc = rc ? rc : 1;
	return rc;
}
