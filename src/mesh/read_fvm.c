/* SPDX-License-Identifier: MIT */
/* Reader of fvstar's binary mesh format (.fvm, fvm_internal.h): the file
 * mapped, every section checked against its checksum while it is copied
 * into the mesh arrays, then every index and count checked, so that a
 * damaged file is an error naming the file and section, never a crash. */
#include "fvstar/mesh.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/fvm_internal.h"
#include "util/alloc.h"
#include "util/parse.h"
#include "util/xxh64.h"

/* Sections are hashed and copied this many bytes at a time, so the copy
 * reads what the hash just brought into the cache; the arrays they go to
 * are on 2 MB pages (util/alloc.h), whose first touch costs less. */
#define COPY_CHUNK ((size_t)64 << 10)
/* As the SU2 reader's bound: marker names are looked up one by one. */
#define FVM_MARKERS_MAX 100000

static const char *const sec_names[] = {"?", "NODES", "CELL_TYPES", "CELL_NODES", "BELEM_TYPES", "BELEM_NODES",
					"BELEM_MARKERS", "MARKER_NAMES", "CELL_TAGS", "NODE_TAGS", "CELL_ORIG",
					"NODE_ORIG"};

const char *fvm_section_name(uint32_t id)
{
	return id >= 1 && id < FVM_SEC_END ? sec_names[id] : "unknown";
}

#define BAD(...) FV_ERROR(FV_ERR_FORMAT, __VA_ARGS__)

/* What a parse needs: the buffer, its name, the header, the directory. */
typedef struct fvm_in {
	const unsigned char *buf;
	size_t len;
	const char *name;
	fvm_header_t h;
	const fvm_section_t *dir;
	/* the directory entry of each section id, NULL if absent */
	const fvm_section_t *sec[FVM_SEC_END];
} fvm_in_t;

static fv_err_t check_header(fvm_in_t *in)
{
	const fvm_header_t *h = &in->h;
	const char *name = in->name;
	if (in->len < 8 || memcmp(in->buf, FVM_MAGIC, 8) != 0)
		return BAD("%s: not an fvstar binary mesh (.fvm): %s", name,
			   in->len ? "the file does not start with its signature" : "the file is empty");
	if (in->len < sizeof *h)
		return BAD("%s: truncated: %zu bytes, less than the %zu-byte header", name, in->len, sizeof *h);
	memcpy(&in->h, in->buf, sizeof *h);
	if (h->byte_order != FVM_BYTE_ORDER) {
		if (h->byte_order == __builtin_bswap32(FVM_BYTE_ORDER))
			return BAD("%s: written on a machine of the other byte order (byte-order mark %08x, this "
				   "machine reads %08x); convert it there, to SU2 or CGNS", name, (unsigned)h->byte_order,
				   FVM_BYTE_ORDER);
		return BAD("%s: bad byte-order mark %08x at offset 8 (expected %08x): the header is damaged", name,
			   (unsigned)h->byte_order, FVM_BYTE_ORDER);
	}
	if (h->version != FVM_VERSION)
		return BAD("%s: format version %u; this fvstar reads version %u (write the file again with this "
			   "fvstar's mesh convert)", name, (unsigned)h->version, FVM_VERSION);
	if (h->header_bytes != sizeof *h || h->section_bytes != sizeof(fvm_section_t))
		return BAD("%s: header of %u bytes and directory entries of %u (version %u has %zu and %zu): the "
			   "header is damaged", name, (unsigned)h->header_bytes, (unsigned)h->section_bytes,
			   FVM_VERSION, sizeof *h, sizeof(fvm_section_t));
	if (h->n_sections < FVM_SEC_MARKER_NAMES || h->n_sections >= FVM_SEC_END)
		return BAD("%s: %u sections in the directory (a file has %d to %d): the header is damaged", name,
			   (unsigned)h->n_sections, FVM_SEC_MARKER_NAMES, FVM_SEC_END - 1);
	if (h->file_bytes != in->len)
		return BAD("%s: %s: the header states %llu bytes, the file has %zu", name,
			   h->file_bytes > in->len ? "truncated" : "bytes past the end of the data",
			   (unsigned long long)h->file_bytes, in->len);
	size_t head = sizeof *h + (size_t)h->n_sections * sizeof(fvm_section_t);
	if (in->len < head)
		return BAD("%s: truncated: %zu bytes, less than the header and its directory (%zu)", name, in->len,
			   head);
	in->dir = (const fvm_section_t *)(in->buf + sizeof *h);
	fv_xxh64_t st;
	fv_xxh64_init(&st, 0);
	fv_xxh64_stripes(&st, in->buf, offsetof(fvm_header_t, checksum));
	fv_xxh64_stripes(&st, in->dir, head - sizeof *h);
	uint64_t sum = fv_xxh64_final(&st, NULL, 0);
	if (sum != h->checksum)
		return BAD("%s: header checksum mismatch (stored %016llx, computed %016llx): the header or the section "
			   "directory (bytes 0-%zu) is damaged", name, (unsigned long long)h->checksum,
			   (unsigned long long)sum, head - 1);
	return FV_OK;
}

/* Counts and fields of a header whose checksum matched: a file written by
 * something else than fvstar may still hold nonsense. */
static fv_err_t check_counts(const fvm_in_t *in)
{
	const fvm_header_t *h = &in->h;
	const char *name = in->name;
	static const uint8_t zero[6];
	if (h->n_nodes < 1 || h->n_nodes > FV_IDX_MAX - 1 || h->n_cells < 1 || h->n_cells > FV_IDX_MAX - 1 ||
	    h->n_cell_nodes < 0 || h->n_cell_nodes > FV_IDX_MAX || h->n_belems < 0 || h->n_belems > FV_IDX_MAX - 1 ||
	    h->n_belem_nodes < 0 || h->n_belem_nodes > FV_IDX_MAX || h->n_markers < 0 || h->n_markers > FVM_MARKERS_MAX)
		return BAD("%s: header counts out of range: %lld nodes, %lld cells (%lld cell nodes), %lld boundary "
			   "elements (%lld nodes), %d markers (limits: fvstar's 32-bit indices, at least one node and "
			   "one cell, %d markers)", name, (long long)h->n_nodes, (long long)h->n_cells,
			   (long long)h->n_cell_nodes, (long long)h->n_belems, (long long)h->n_belem_nodes,
			   (int)h->n_markers, FVM_MARKERS_MAX);
	if (h->flags & ~(uint32_t)FVM_FLAG_EXTRUDED_2D)
		return BAD("%s: unknown header flags %08x", name, (unsigned)h->flags);
	if (h->refine_levels < 0 || h->refine_levels > 30)
		return BAD("%s: %d refinement levels in the header", name, (int)h->refine_levels);
	if (h->flags & FVM_FLAG_EXTRUDED_2D) {
		if (!(h->extrude_span > 0 && h->extrude_span <= FV_COORD_MAX))
			return BAD("%s: extruded 2D mesh of span %g", name, h->extrude_span);
		for (int i = 0; i < 2; i++)
			if (h->extrude_marker[i] < -1 || h->extrude_marker[i] >= h->n_markers)
				return BAD("%s: extrusion marker %d of %d markers", name, (int)h->extrude_marker[i],
					   (int)h->n_markers);
	}
	if (h->cell_tags > FVM_TAGS_SECTION || h->node_tags > FVM_TAGS_SECTION || memcmp(h->reserved, zero, 6) != 0)
		return BAD("%s: unknown tag storage (%u, %u) or reserved bytes set in the header", name,
			   (unsigned)h->cell_tags, (unsigned)h->node_tags);
	/* base + i must not overflow */
	if ((h->cell_tags == FVM_TAGS_AFFINE && h->cell_tag_base > INT64_MAX - h->n_cells) ||
	    (h->node_tags == FVM_TAGS_AFFINE && h->node_tag_base > INT64_MAX - h->n_nodes))
		return BAD("%s: element or node numbers from %lld or %lld run past 2^63", name,
			   (long long)h->cell_tag_base, (long long)h->node_tag_base);
	return FV_OK;
}

/* The sections a header announces, in file order, with their item sizes
 * and counts; *n of them. */
static void expected_sections(const fvm_header_t *h, uint32_t id[], uint32_t size[], uint64_t count[], int *n)
{
	int k = 0;
#define EXPECT(i, s, c) (id[k] = (i), size[k] = (s), count[k] = (uint64_t)(c), k++)
	EXPECT(FVM_SEC_NODES, 24, h->n_nodes);
	EXPECT(FVM_SEC_CELL_TYPES, 1, h->n_cells);
	EXPECT(FVM_SEC_CELL_NODES, 4, h->n_cell_nodes);
	EXPECT(FVM_SEC_BELEM_TYPES, 1, h->n_belems);
	EXPECT(FVM_SEC_BELEM_NODES, 4, h->n_belem_nodes);
	EXPECT(FVM_SEC_BELEM_MARKERS, 4, h->n_belems);
	EXPECT(FVM_SEC_MARKER_NAMES, 64, h->n_markers);
	if (h->cell_tags == FVM_TAGS_SECTION)
		EXPECT(FVM_SEC_CELL_TAGS, 8, h->n_cells);
	if (h->node_tags == FVM_TAGS_SECTION)
		EXPECT(FVM_SEC_NODE_TAGS, 8, h->n_nodes);
#undef EXPECT
	*n = k;
}

/* The directory against the header: ids, sizes and counts as announced,
 * each section 8-byte aligned within the file after the one before, zero
 * bytes between them. */
static fv_err_t check_directory(fvm_in_t *in)
{
	const fvm_header_t *h = &in->h;
	uint32_t id[FVM_SEC_END], size[FVM_SEC_END];
	uint64_t count[FVM_SEC_END];
	int n;
	uint64_t end = sizeof *h + (uint64_t)h->n_sections * sizeof(fvm_section_t);
	uint32_t next_opt = FVM_SEC_CELL_ORIG;
	expected_sections(h, id, size, count, &n);
	if (h->n_sections < (uint32_t)n)
		return BAD("%s: the directory lists %u sections where the header calls for at least %d (the "
			   "header is damaged)", in->name, (unsigned)h->n_sections, n);
	for (uint32_t k = 0; k < h->n_sections; k++) {
		fvm_section_t s;
		memcpy(&s, &in->dir[k], sizeof s);
		const char *sn = fvm_section_name(s.id);
		int want = (int)k < n ? (int)id[k] : 0;
		/* after the announced sections, the optional orders, cells first */
		if ((int)k >= n && (s.id == FVM_SEC_CELL_ORIG || s.id == FVM_SEC_NODE_ORIG) && s.id >= next_opt)
			want = (int)s.id;
		if ((int)s.id != want)
			return BAD("%s: directory entry %u is section %u (%s) where the header calls for %s", in->name, k,
				   (unsigned)s.id, sn, want ? fvm_section_name((uint32_t)want) : "no more sections");
		uint32_t isz = (int)k < n ? size[k] : 4;
		uint64_t cnt = (int)k < n ? count[k] : (uint64_t)(s.id == FVM_SEC_CELL_ORIG ? h->n_cells : h->n_nodes);
		if (s.item_bytes != isz || s.count != cnt)
			return BAD("%s: section %s: %llu items of %u bytes where the header calls for %llu of %u", in->name,
				   sn, (unsigned long long)s.count, (unsigned)s.item_bytes, (unsigned long long)cnt,
				   (unsigned)isz);
		if (s.offset % 8 || s.offset < end || s.offset - end >= 8 || s.offset > in->len ||
		    s.count > (in->len - s.offset) / s.item_bytes)
			return BAD("%s: section %s at offset %llu, %llu bytes: %s (file of %zu bytes)", in->name, sn,
				   (unsigned long long)s.offset, (unsigned long long)(s.count * s.item_bytes),
				   s.offset % 8 ? "not 8-byte aligned"
				   : s.offset < end ? "overlaps what comes before it"
				   : s.offset - end >= 8 ? "more than 7 bytes after what comes before it"
				   : "beyond the end of the file",
				   in->len);
		for (uint64_t i = end; i < s.offset; i++)
			if (in->buf[i])
				return BAD("%s: padding byte at offset %llu before section %s is not zero", in->name,
					   (unsigned long long)i, sn);
		end = s.offset + s.count * s.item_bytes;
		in->sec[s.id] = &in->dir[k];
		if ((int)k >= n)
			next_opt = s.id + 1;
	}
	if (in->len - end >= 8)
		return BAD("%s: %llu bytes after the last section (at most 7 of padding)", in->name,
			   (unsigned long long)(in->len - end));
	for (uint64_t i = end; i < in->len; i++)
		if (in->buf[i])
			return BAD("%s: padding byte at offset %llu after the last section is not zero", in->name,
				   (unsigned long long)i);
	return FV_OK;
}

/* Section id into a new array of count * item_bytes (+ extra) bytes,
 * checksummed on the way. */
static fv_err_t load(const fvm_in_t *in, uint32_t id, size_t extra, void *out)
{
	fvm_section_t s;
	memcpy(&s, in->sec[id], sizeof s);
	size_t bytes = (size_t)(s.count * s.item_bytes), done = 0;
	const unsigned char *src = in->buf + s.offset;
	unsigned char *dst;
	fv_xxh64_t st;
	FV_CALL(fv_malloc_large(&dst, bytes + extra + 1, 1, fvm_section_name(id)));
	fv_xxh64_init(&st, 0);
	while (bytes - done >= 32) {
		size_t n = bytes - done < COPY_CHUNK ? (bytes - done) & ~(size_t)31 : COPY_CHUNK;
		fv_xxh64_stripes(&st, src + done, n);
		memcpy(dst + done, src + done, n);
		done += n;
	}
	memcpy(dst + done, src + done, bytes - done);
	uint64_t sum = fv_xxh64_final(&st, src + done, bytes - done);
	if (sum != s.checksum) {
		free(dst);
		return BAD("%s: section %s (offset %llu, %zu bytes): checksum mismatch (stored %016llx, computed %016llx): "
			   "the data are damaged", in->name, fvm_section_name(id), (unsigned long long)s.offset, bytes,
			   (unsigned long long)s.checksum, (unsigned long long)sum);
	}
	*(void **)out = dst;
	return FV_OK;
}

/* The file offset of item i of section id, for messages. */
static unsigned long long at(const fvm_in_t *in, uint32_t id, size_t i)
{
	return (unsigned long long)(in->sec[id]->offset + i * in->sec[id]->item_bytes);
}

/* CSR offsets from the element types (node counts nn[type]); a type
 * outside [0, ntypes) or with nn 0 is an error. */
static fv_err_t offsets_from_types(const fvm_in_t *in, uint32_t id, const uint8_t *type, size_t n, const int *nn,
				   int ntypes, int64_t total, fv_idx_t *off)
{
	int64_t sum = 0;
	off[0] = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned t = type[i];
		if (t >= (unsigned)ntypes || nn[t] == 0)
			return BAD("%s: section %s, item %zu (offset %llu): unknown element type %u", in->name,
				   fvm_section_name(id), i, at(in, id, i), t);
		sum += nn[t];
		if (sum > total)
			break;
		off[i + 1] = (fv_idx_t)sum;
	}
	if (sum != total)
		return BAD("%s: section %s: the element types need %s%lld nodes, the header states %lld", in->name,
			   fvm_section_name(id), sum > total ? "more than " : "", (long long)sum, (long long)total);
	return FV_OK;
}

/* Every value of v[0..n) in [0, hi): one pass that vectorises, then the
 * first culprit for the message. */
static fv_err_t check_range(const fvm_in_t *in, uint32_t id, const int32_t *v, size_t n, uint32_t hi, const char *what)
{
	uint32_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad |= (uint32_t)v[i] >= hi;
	if (!bad)
		return FV_OK;
	size_t i = 0;
	while ((uint32_t)v[i] < hi)
		i++;
	return BAD("%s: section %s, item %zu (offset %llu): %s %d out of range [0, %u)", in->name, fvm_section_name(id),
		   i, at(in, id, i), what, (int)v[i], (unsigned)hi);
}

static fv_err_t check_coords(const fvm_in_t *in, const double *x, size_t n)
{
	int bad = 0;
	for (size_t i = 0; i < n; i++)
		bad |= !(fabs(x[i]) <= FV_COORD_MAX);
	if (!bad)
		return FV_OK;
	size_t i = 0;
	while (fabs(x[i]) <= FV_COORD_MAX)
		i++;
	return BAD("%s: section NODES, node %zu (offset %llu): coordinate %g is not finite or beyond %g in absolute "
		   "value", in->name, i / 3, at(in, FVM_SEC_NODES, i / 3), x[i], FV_COORD_MAX);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp((*(const fv_marker_t *const *)a)->name, (*(const fv_marker_t *const *)b)->name);
}

/* Names NUL-terminated, printable, not empty, each once. */
static fv_err_t check_names(const fvm_in_t *in, const fv_marker_t *mk, int n)
{
	const fv_marker_t **sorted = NULL;
	fv_err_t err = FV_OK;
	for (int k = 0; k < n; k++) {
		const char *s = mk[k].name;
		size_t len = strnlen(s, sizeof mk[k].name);
		int ok = len > 0 && len < sizeof mk[k].name;
		for (size_t i = 0; ok && i < len; i++)
			ok = (unsigned char)s[i] >= ' ' && s[i] != 0x7f;
		if (!ok)
			return BAD("%s: section MARKER_NAMES, marker %d (offset %llu): the name is empty, not "
				   "NUL-terminated within %zu bytes, or has a control character", in->name, k,
				   at(in, FVM_SEC_MARKER_NAMES, (size_t)k), sizeof mk[k].name);
	}
	FV_CALL(fv_malloc(&sorted, (size_t)n + 1, sizeof *sorted, "marker names"));
	for (int k = 0; k < n; k++)
		sorted[k] = &mk[k];
	qsort(sorted, (size_t)n, sizeof *sorted, cmp_name);
	for (int k = 1; k < n && err == FV_OK; k++)
		if (strcmp(sorted[k]->name, sorted[k - 1]->name) == 0)
			err = BAD("%s: section MARKER_NAMES: marker name '%s' comes twice", in->name, sorted[k]->name);
	free(sorted);
	return err;
}

/* An order of n items: a permutation of 0..n-1. */
static fv_err_t check_perm(const fvm_in_t *in, uint32_t id, const fv_idx_t *p, size_t n)
{
	uint8_t *seen = NULL;
	fv_err_t err = FV_OK;
	FV_CALL(check_range(in, id, p, n, (uint32_t)n, "position"));
	FV_CALL(fv_calloc(&seen, n / 8 + 1, 1, "order check"));
	for (size_t i = 0; i < n && err == FV_OK; i++) {
		if (seen[p[i] >> 3] & (1u << (p[i] & 7)))
			err = BAD("%s: section %s, item %zu (offset %llu): position %d comes twice", in->name,
				  fvm_section_name(id), i, at(in, id, i), (int)p[i]);
		seen[p[i] >> 3] |= (uint8_t)(1u << (p[i] & 7));
	}
	free(seen);
	return err;
}

static fv_err_t tags(const fvm_in_t *in, uint8_t mode, int64_t base, uint32_t id, size_t n, int64_t **out)
{
	if (mode == FVM_TAGS_SECTION)
		return load(in, id, 0, out);
	if (mode == FVM_TAGS_AFFINE) {
		FV_CALL(fv_malloc_large(out, n + 1, sizeof **out, fvm_section_name(id)));
		for (size_t i = 0; i < n; i++)
			(*out)[i] = base + (int64_t)i;
	}
	return FV_OK;
}

static fv_err_t build_mesh(const fvm_in_t *in, fv_mesh_t *m)
{
	const fvm_header_t *h = &in->h;
	size_t nn = (size_t)h->n_nodes, nc = (size_t)h->n_cells, nb = (size_t)h->n_belems;
	int cell_nn[FV_NCELLTYPES], belem_nn[5] = {0, 0, 0, 3, 4};
	for (int t = 0; t < FV_NCELLTYPES; t++)
		cell_nn[t] = fv_cell_shapes[t].n_nodes;

	FV_CALL(load(in, FVM_SEC_NODES, 0, &m->xyz));
	m->n_nodes = (fv_idx_t)nn;
	FV_CALL(check_coords(in, m->xyz, 3 * nn));
	FV_CALL(load(in, FVM_SEC_CELL_TYPES, 0, &m->cell_type));
	FV_CALL(load(in, FVM_SEC_CELL_NODES, 0, &m->cell_node));
	FV_CALL(fv_malloc_large(&m->cell_node_off, nc + 1, sizeof *m->cell_node_off, "cell offsets"));
	m->n_cells = (fv_idx_t)nc;
	FV_CALL(offsets_from_types(in, FVM_SEC_CELL_TYPES, m->cell_type, nc, cell_nn, FV_NCELLTYPES, h->n_cell_nodes,
				   m->cell_node_off));
	FV_CALL(check_range(in, FVM_SEC_CELL_NODES, m->cell_node, (size_t)h->n_cell_nodes, (uint32_t)nn, "node"));

	FV_CALL(load(in, FVM_SEC_MARKER_NAMES, 0, &m->markers));
	m->n_markers = h->n_markers;
	FV_CALL(check_names(in, m->markers, m->n_markers));
	FV_CALL(load(in, FVM_SEC_BELEM_TYPES, 0, &m->belem_type));
	FV_CALL(load(in, FVM_SEC_BELEM_NODES, 0, &m->belem_node));
	FV_CALL(load(in, FVM_SEC_BELEM_MARKERS, 0, &m->belem_marker));
	FV_CALL(fv_malloc(&m->belem_node_off, nb + 1, sizeof *m->belem_node_off, "boundary offsets"));
	m->n_belems = (fv_idx_t)nb;
	FV_CALL(offsets_from_types(in, FVM_SEC_BELEM_TYPES, m->belem_type, nb, belem_nn, 5, h->n_belem_nodes,
				   m->belem_node_off));
	FV_CALL(check_range(in, FVM_SEC_BELEM_NODES, m->belem_node, (size_t)h->n_belem_nodes, (uint32_t)nn, "node"));
	FV_CALL(check_range(in, FVM_SEC_BELEM_MARKERS, m->belem_marker, nb, (uint32_t)h->n_markers, "marker"));

	FV_CALL(tags(in, h->cell_tags, h->cell_tag_base, FVM_SEC_CELL_TAGS, nc, &m->cell_tag));
	FV_CALL(tags(in, h->node_tags, h->node_tag_base, FVM_SEC_NODE_TAGS, nn, &m->node_tag));
	if (in->sec[FVM_SEC_CELL_ORIG]) {
		FV_CALL(load(in, FVM_SEC_CELL_ORIG, 0, &m->cell_orig));
		FV_CALL(check_perm(in, FVM_SEC_CELL_ORIG, m->cell_orig, nc));
	}
	if (in->sec[FVM_SEC_NODE_ORIG]) {
		FV_CALL(load(in, FVM_SEC_NODE_ORIG, 0, &m->node_orig));
		FV_CALL(check_perm(in, FVM_SEC_NODE_ORIG, m->node_orig, nn));
	}
	m->refine_levels = h->refine_levels;
	m->extrude_marker[0] = m->extrude_marker[1] = -1;
	if (h->flags & FVM_FLAG_EXTRUDED_2D) {
		m->extruded_2d = 1;
		m->extrude_span = h->extrude_span;
		m->extrude_marker[0] = h->extrude_marker[0];
		m->extrude_marker[1] = h->extrude_marker[1];
	}
	return FV_OK;
}

fv_err_t fv_mesh_parse_fvm(fv_mesh_t *m, const void *buf, size_t len, const char *name)
{
	fvm_in_t in = {.buf = buf, .len = len, .name = name};
	fv_err_t err;
	fv_mesh_init(m);
	snprintf(m->source, sizeof m->source, "%s", name);
	FV_CALL(check_header(&in));
	FV_CALL(check_counts(&in));
	FV_CALL(check_directory(&in));
	err = build_mesh(&in, m);
	if (err != FV_OK) {
		fv_mesh_free(m);
		return fv_error_trace(err, __FILE__, __LINE__);
	}
	return FV_OK;
}

fv_err_t fv_mesh_read_fvm(fv_mesh_t *m, const char *path)
{
	const void *map;
	size_t len;
	char *buf;
	fv_err_t err;
	fv_mesh_init(m);
	FV_CALL(fv_map_file(path, &map, &len));
	if (map) {
		err = fv_mesh_parse_fvm(m, map, len, path);
		fv_unmap_file(map, len);
		return err;
	}
	/* empty, or a file system without mmap: one read */
	FV_CALL(fv_read_file(path, &buf, &len));
	err = fv_mesh_parse_fvm(m, buf, len, path);
	free(buf);
	return err;
}
