/* SPDX-License-Identifier: MIT */
/* Reader for SU2 native ASCII meshes: cells, points, markers; a 2D mesh
 * (NDIME= 2) is extruded one layer in z (mesh_internal.h). */
#include "fvstar/mesh.h"

#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_internal.h"
#include "util/parse.h"

/* Lower bounds on the bytes one record takes, to reject absurd counts
 * before allocating: "10 1 2 3 4\n" and so on. */
#define SU2_MIN_ELEM_BYTES 10
#define SU2_MIN_POINT_BYTES 6
#define SU2_MIN_BELEM_BYTES 8
/* 2D: "5 1 2 3\n", "0 0\n", "3 1 2\n" */
#define SU2_MIN_ELEM_BYTES_2D 8
#define SU2_MIN_POINT_BYTES_2D 4
#define SU2_MIN_BELEM_BYTES_2D 6
/* fv_mesh_marker() looks names up one by one: a sane bound */
#define SU2_NMARK_MAX 100000

/* In 2D, the 3D type an element becomes when extruded; its node count
 * in the file is then 3 or 4. */
static int su2_cell_type(long long id, int dim, fv_cell_type_t *t, int *nn)
{
	if (dim == 2) {
		if (id != 5 && id != 9)
			return 0;
		*t = id == 5 ? FV_PRISM : FV_HEX;
		*nn = id == 5 ? 3 : 4;
		return 1;
	}
	for (int k = 0; k < FV_NCELLTYPES; k++)
		if (fv_cell_shapes[k].su2_id == id) {
			*t = (fv_cell_type_t)k;
			*nn = fv_cell_shapes[k].n_nodes;
			return 1;
		}
	return 0;
}

/* Reads "KEY=" at the cursor (after blank lines and % comments); the key
 * without '=' goes to key. Returns 0 at the end of the buffer. */
static int next_keyword(fv_cursor_t *c, char *key, size_t keymax)
{
	for (;;) {
		if (!fv_cursor_skip_space(c))
			return 0;
		if (*c->p == '%') {
			fv_cursor_next_line(c);
			continue;
		}
		size_t n = 0;
		while (c->p < c->end && *c->p != '=' && *c->p != '\n' && *c->p != ' ' &&
		       *c->p != '\t' && *c->p != '\r') {
			if (n + 1 < keymax)
				key[n++] = *c->p;
			c->p++;
		}
		key[n] = '\0';
		fv_cursor_skip_blanks(c);
		if (c->p < c->end && *c->p == '=')
			c->p++;
		else
			key[0] = '\0'; /* not a keyword line: caller reports it */
		return 1;
	}
}

/* After the last record of a section the next line must not hold more
 * numbers: a count smaller than the data is as wrong as a larger one. */
static fv_err_t expect_section_end(fv_cursor_t *c, const char *count_key, long long count)
{
	fv_cursor_t look = *c;
	for (;;) {
		if (!fv_cursor_skip_space(&look))
			return FV_OK;
		if (*look.p != '%')
			break;
		fv_cursor_next_line(&look);
	}
	if ((*look.p >= '0' && *look.p <= '9') || *look.p == '-' || *look.p == '+' || *look.p == '.') {
		*c = look;
		return fv_cursor_error(c, "more records than %s %lld", count_key, count);
	}
	return FV_OK;
}

/* Rejects a record that has fewer items than its type needs (the next
 * token would be the start of the following line). */
static fv_err_t read_node_ids(fv_cursor_t *c, int n, fv_idx_t n_nodes, fv_idx_t *out, const char *what)
{
	for (int k = 0; k < n; k++) {
		long long v;
		FV_CALL(fv_cursor_long_inline(c, &v, what));
		if (v < 0 || v >= n_nodes)
			return fv_cursor_error(c, "%s: node id %lld out of range [0, %d)", what, v, (int)n_nodes);
		out[k] = (fv_idx_t)v;
	}
	fv_cursor_next_line(c); /* SU2 may append the element index */
	return FV_OK;
}

/* Line of the first keyword line ("KEY=" at the start of a line) after the
 * cursor, 0 if none: a section follows, so the file is not cut short. */
static long next_keyword_line(const fv_cursor_t *c, const char **at)
{
	fv_cursor_t look = *c;
	fv_cursor_next_line(&look);
	while (look.p < look.end) {
		fv_cursor_skip_blanks(&look);
		if (look.p < look.end && ((*look.p >= 'A' && *look.p <= 'Z') || (*look.p >= 'a' && *look.p <= 'z'))) {
			*at = look.p;
			return look.line;
		}
		fv_cursor_next_line(&look);
	}
	return 0;
}

/* A section's count: not negative, within the 32-bit indices, and not
 * more records than the rest of the file can hold at min_bytes each:
 * truncated when the file ends in the section, a wrong count when another
 * section follows. */
static fv_err_t count_checked(fv_cursor_t *c, const char *key, long long min_bytes, long long *n)
{
	const char *next = NULL;
	long next_line;
	FV_CALL(fv_cursor_count(c, 1, FV_IDX_MAX - 1, "fvstar's 32-bit indices", n, key));
	if (*n > (long long)(c->end - c->p) / min_bytes + 1) {
		next_line = next_keyword_line(c, &next);
		if (next_line) {
			int len = 0;
			while (next + len < c->end && len < 32 && next[len] != '=' && next[len] != '\n' &&
			       next[len] != ' ' && next[len] != '\r')
				len++;
			return fv_cursor_error(c, "%s %lld is more records than the file holds before the next "
					       "section (%.*s= at line %ld): the count is wrong", key, *n, len, next,
					       next_line);
		} else {
			fv_cursor_t eof = *c;
			while (eof.p < eof.end)
				fv_cursor_next_line(&eof);
			if (eof.line > c->line && eof.end[-1] == '\n')
				eof.line--;
			return fv_cursor_error(c, "truncated: %s %lld records need at least %lld bytes, but the file "
					       "ends at line %ld, %lld bytes further", key, *n, *n * min_bytes,
					       eof.line, (long long)(c->end - c->p));
		}
	}
	fv_cursor_next_line(c);
	return FV_OK;
}

/* NPOIN is usually after NELEM; its value is needed to check node ids
 * while reading the cells, so find it first (-1 when the file has no
 * NPOIN= line: the reading then fails later, at the end of the file or
 * where it is cut short). Its count is checked here, on its own line. */
static fv_err_t peek_npoin(const char *buf, size_t len, const char *name, long long *npoin)
{
	fv_cursor_t c;
	*npoin = -1;
	fv_cursor_init(&c, buf, len, name);
	while (c.p < c.end) {
		fv_cursor_skip_blanks(&c);
		if ((size_t)(c.end - c.p) > 5 && memcmp(c.p, "NPOIN", 5) == 0) {
			c.p += 5;
			fv_cursor_skip_blanks(&c);
			if (c.p < c.end && *c.p == '=') {
				c.p++;
				return fv_cursor_count(&c, 1, FV_IDX_MAX - 1, "fvstar's 32-bit indices", npoin,
						       "NPOIN=");
			}
		}
		fv_cursor_next_line(&c);
	}
	return FV_OK;
}

static fv_err_t read_cells(fv_cursor_t *c, fv_mesh_t *m, long long nelem, fv_idx_t n_nodes, int dim)
{
	size_t cap = (size_t)nelem * 4 + 1, used = 0;
	char what[80];
	FV_CALL(fv_malloc(&m->cell_type, (size_t)nelem + 1, 1, "cell types"));
	FV_CALL(fv_malloc(&m->cell_node_off, (size_t)nelem + 1, sizeof(fv_idx_t), "cell offsets"));
	FV_CALL(fv_malloc(&m->cell_node, cap, sizeof(fv_idx_t), "cell nodes"));
	/* SU2 numbers elements and points from 0 in file order */
	FV_CALL(fv_malloc(&m->cell_tag, (size_t)nelem + 1, sizeof *m->cell_tag, "element numbers"));
	m->cell_node_off[0] = 0;
	for (long long e = 0; e < nelem; e++) {
		long long id;
		fv_cell_type_t t;
		int nn;
		if (!fv_cursor_skip_space(c)) {
			snprintf(what, sizeof what, "element %lld of NELEM= %lld", e + 1, nelem);
			return fv_cursor_truncated(c, what);
		}
		if (*c->p < '0' || *c->p > '9')
			return fv_cursor_error(c, "found '%.*s' after %lld of NELEM= %lld elements",
					       fv_cursor_shown_len(c), c->p, e, nelem);
		FV_CALL(fv_cursor_long_inline(c, &id, "element type"));
		if (!su2_cell_type(id, dim, &t, &nn)) {
			if (dim == 2)
				return fv_cursor_error(c, "element type %lld in a 2D mesh (NDIME= 2): NELEM holds only "
							  "triangles (5) and quadrilaterals (9)", id);
			if (id == 3 || id == 5 || id == 9)
				return fv_cursor_error(c, "element type %lld is a %s element; NELEM of a 3D mesh holds only "
							  "volume cells (10, 12, 13, 14)", id, id == 3 ? "line" : "surface");
			return fv_cursor_error(c, "unknown element type %lld (expected 10 tetra, 12 hexahedron, "
						  "13 prism, 14 pyramid)", id);
		}
		if (used + (size_t)nn > cap) {
			cap = cap * 3 / 2 + 8;
			FV_CALL(fv_realloc(&m->cell_node, cap, sizeof(fv_idx_t), "cell nodes"));
		}
		FV_CALL(read_node_ids(c, nn, n_nodes, m->cell_node + used,
				      dim == 2 ? (nn == 3 ? "triangle" : "quadrilateral") : fv_cell_shapes[t].name));
		m->cell_type[e] = (uint8_t)t;
		m->cell_tag[e] = e;
		used += (size_t)nn;
		m->cell_node_off[e + 1] = (fv_idx_t)used;
	}
	m->n_cells = (fv_idx_t)nelem;
	return expect_section_end(c, "NELEM=", nelem);
}

static fv_err_t read_points(fv_cursor_t *c, fv_mesh_t *m, long long npoin, int dim)
{
	FV_CALL(fv_malloc(&m->xyz, 3 * (size_t)npoin + 1, sizeof(double), "node coordinates"));
	FV_CALL(fv_malloc(&m->node_tag, (size_t)npoin + 1, sizeof *m->node_tag, "point numbers"));
	for (long long i = 0; i < npoin; i++) {
		m->node_tag[i] = i;
		if (!fv_cursor_skip_space(c)) {
			char what[80];
			snprintf(what, sizeof what, "point %lld of NPOIN= %lld", i + 1, npoin);
			return fv_cursor_truncated(c, what);
		}
		/* the next section's keyword: the count is larger than the data */
		if (memchr(c->p, '=', (size_t)fv_cursor_shown_len(c)))
			return fv_cursor_error(c, "found '%.*s' after %lld of NPOIN= %lld points",
					       fv_cursor_shown_len(c), c->p, i, npoin);
		m->xyz[3 * i + 2] = 0;
		for (int d = 0; d < dim; d++)
			FV_CALL(fv_cursor_coord(c, 1, &m->xyz[3 * i + d], "point coordinate"));
		fv_cursor_next_line(c); /* optional point index */
	}
	m->n_nodes = (fv_idx_t)npoin;
	return expect_section_end(c, "NPOIN=", npoin);
}

/* Reads one marker; tag_line[k] is the MARKER_TAG= line of marker k, to
 * name both lines when a name comes twice. */
static fv_err_t read_marker(fv_cursor_t *c, fv_mesh_t *m, fv_idx_t n_nodes, int dim, size_t *cap, long *tag_line)
{
	char key[32], name[FV_MARKER_NAME_MAX];
	size_t n = 0;
	long long nb;
	long line = c->line;
	int k, n_before = m->n_markers;

	fv_cursor_skip_blanks(c);
	while (c->p < c->end && *c->p != '\n' && *c->p != '\r' && *c->p != '%') {
		if (n + 1 >= sizeof name)
			return fv_cursor_error(c, "marker name longer than %d characters", FV_MARKER_NAME_MAX - 1);
		name[n++] = *c->p++;
	}
	while (n > 0 && (name[n - 1] == ' ' || name[n - 1] == '\t'))
		n--;
	name[n] = '\0';
	if (n == 0)
		return fv_cursor_error(c, "MARKER_TAG= without a name");
	/* one name, one boundary condition: two markers of one name would
	 * merge, and the faces of one take the other's condition */
	for (k = 0; k < n_before; k++)
		if (strcmp(m->markers[k].name, name) == 0)
			return fv_cursor_error(c, "marker name '%s' comes twice: MARKER_TAG= %s at line %ld and at line "
					       "%ld (%s:%ld); each marker needs its own name, since boundary conditions "
					       "are set by name: rename one, or merge their elements under one "
					       "MARKER_TAG=", name, name, tag_line[k], line, c->name, tag_line[k]);
	fv_cursor_next_line(c);
	if (!next_keyword(c, key, sizeof key) || strcmp(key, "MARKER_ELEMS") != 0)
		return fv_cursor_error(c, "expected MARKER_ELEMS= after MARKER_TAG= %s", name);
	FV_CALL(count_checked(c, "MARKER_ELEMS=", dim == 2 ? SU2_MIN_BELEM_BYTES_2D : SU2_MIN_BELEM_BYTES, &nb));
	FV_CALL(fv_mesh_marker(m, name, &k));
	tag_line[k] = line;
	FV_CHECK((long long)m->n_belems + nb < FV_IDX_MAX, FV_ERR_MEM,
		 "%s: too many boundary elements for 32-bit indices", c->name);
	FV_CALL(fv_realloc(&m->belem_type, (size_t)(m->n_belems + nb) + 1, 1, "boundary types"));
	FV_CALL(fv_realloc(&m->belem_marker, (size_t)(m->n_belems + nb) + 1, sizeof(int32_t), "boundary markers"));
	FV_CALL(fv_realloc(&m->belem_node_off, (size_t)(m->n_belems + nb) + 1, sizeof(fv_idx_t), "boundary offsets"));
	for (long long e = 0; e < nb; e++) {
		long long id;
		fv_idx_t b = m->n_belems, used = m->belem_node_off[b];
		int nn;
		if (!fv_cursor_skip_space(c)) {
			char what[FV_MARKER_NAME_MAX + 80];
			snprintf(what, sizeof what, "element %lld of MARKER_ELEMS= %lld of marker %s", e + 1, nb, name);
			return fv_cursor_truncated(c, what);
		}
		if (*c->p < '0' || *c->p > '9')
			return fv_cursor_error(c, "found '%.*s' after %lld of MARKER_ELEMS= %lld elements of marker %s",
					       fv_cursor_shown_len(c), c->p, e, nb, name);
		FV_CALL(fv_cursor_long_inline(c, &id, "boundary element type"));
		if (dim == 2) {
			if (id != 3)
				return fv_cursor_error(c, "marker %s: element type %lld is not a line (3), the boundary "
							  "element of a 2D mesh (NDIME= 2)", name, id);
			nn = 2;
		} else if (id == 5)
			nn = 3;
		else if (id == 9)
			nn = 4;
		else
			return fv_cursor_error(c, "marker %s: element type %lld is not a triangle (5) or a quadrilateral (9)",
					       name, id);
		if ((size_t)used + (size_t)nn > *cap) {
			*cap = *cap * 3 / 2 + 64;
			FV_CALL(fv_realloc(&m->belem_node, *cap, sizeof(fv_idx_t), "boundary nodes"));
		}
		FV_CALL(read_node_ids(c, nn, n_nodes, m->belem_node + used, "boundary element"));
		m->belem_type[b] = (uint8_t)nn;
		m->belem_marker[b] = k;
		m->belem_node_off[b + 1] = used + nn;
		m->n_belems++;
	}
	return expect_section_end(c, "MARKER_ELEMS=", nb);
}

fv_err_t fv_mesh_parse_su2(fv_mesh_t *m, const char *buf, size_t len, const char *name)
{
	fv_cursor_t c;
	char key[32];
	long long npoin, nelem = -1, nmark = -1, ndime = -1, seen_npoin = -1;
	int dim = 3;               /* NDIME= comes first; 3 until it says 2 */
	size_t bcap = 64;
	long *tag_line = NULL;
	fv_err_t err = FV_OK;

	fv_mesh_init(m);
	snprintf(m->source, sizeof m->source, "%s", name);
	fv_cursor_init(&c, buf, len, name);
	FV_CALL(peek_npoin(buf, len, name, &npoin));
	FV_CALL_GOTO(err, fail, fv_malloc(&m->belem_node_off, 1, sizeof(fv_idx_t), "boundary offsets"));
	FV_CALL_GOTO(err, fail, fv_malloc(&m->belem_node, bcap, sizeof(fv_idx_t), "boundary nodes"));
	m->belem_node_off[0] = 0;

	while (next_keyword(&c, key, sizeof key)) {
		if (key[0] == '\0') {
			err = fv_cursor_error(&c, "expected a keyword (NDIME=, NELEM=, NPOIN=, NMARK=)");
			goto fail;
		} else if (strcmp(key, "NDIME") == 0) {
			FV_CALL_GOTO(err, fail, fv_cursor_long_inline(&c, &ndime, "NDIME"));
			if (ndime != 2 && ndime != 3) {
				err = fv_cursor_error(&c, "NDIME= %lld: expected 2 or 3", ndime);
				goto fail;
			}
			if (ndime == 2 && (nelem >= 0 || seen_npoin >= 0 || nmark >= 0)) {
				err = fv_cursor_error(&c, "NDIME= 2 after the sections it applies to (it must come first)");
				goto fail;
			}
			dim = (int)ndime;
			fv_cursor_next_line(&c);
		} else if (strcmp(key, "NELEM") == 0) {
			if (nelem >= 0) {
				err = fv_cursor_error(&c, "second NELEM= section");
				goto fail;
			}
			/* without NPOIN= (npoin < 0) the file fails at its end, or
			 * where it is cut short: read on to say which */
			FV_CALL_GOTO(err, fail, count_checked(&c, "NELEM=", dim == 2 ? SU2_MIN_ELEM_BYTES_2D : SU2_MIN_ELEM_BYTES, &nelem));
			FV_CALL_GOTO(err, fail, read_cells(&c, m, nelem, npoin < 0 ? FV_IDX_MAX : (fv_idx_t)npoin, dim));
		} else if (strcmp(key, "NPOIN") == 0) {
			if (seen_npoin >= 0) {
				err = fv_cursor_error(&c, "second NPOIN= section");
				goto fail;
			}
			/* "NPOIN= n" or "NPOIN= n n_domain" */
			FV_CALL_GOTO(err, fail, count_checked(&c, "NPOIN=", dim == 2 ? SU2_MIN_POINT_BYTES_2D : SU2_MIN_POINT_BYTES, &seen_npoin));
			FV_CALL_GOTO(err, fail, read_points(&c, m, seen_npoin, dim));
		} else if (strcmp(key, "NMARK") == 0) {
			if (nmark >= 0) {
				err = fv_cursor_error(&c, "second NMARK= section");
				goto fail;
			}
			FV_CALL_GOTO(err, fail, fv_cursor_count(&c, 1, SU2_NMARK_MAX, "markers in one file", &nmark, "NMARK="));
			FV_CALL_GOTO(err, fail, fv_calloc(&tag_line, (size_t)nmark + 1, sizeof *tag_line, "marker lines"));
			fv_cursor_next_line(&c);
			for (long long k = 0; k < nmark; k++) {
				if (!next_keyword(&c, key, sizeof key) || strcmp(key, "MARKER_TAG") != 0) {
					err = fv_cursor_error(&c, "expected MARKER_TAG= for marker %lld of NMARK= %lld",
							      k + 1, nmark);
					goto fail;
				}
				FV_CALL_GOTO(err, fail, read_marker(&c, m, npoin < 0 ? FV_IDX_MAX : (fv_idx_t)npoin, dim, &bcap,
								    tag_line));
			}
		} else if (strcmp(key, "MARKER_TAG") == 0) {
			err = fv_cursor_error(&c, "MARKER_TAG= outside the NMARK= section (NMARK= missing or too small)");
			goto fail;
		} else {
			err = fv_cursor_error(&c, "unknown keyword '%s='", key);
			goto fail;
		}
	}
	if (ndime < 0 || nelem < 0 || seen_npoin < 0) {
		/* the line reached tells a cut file from one that never had it */
		long last = c.line > 1 && len > 0 && buf[len - 1] == '\n' ? c.line - 1 : c.line;
		err = fv_error(FV_ERR_FORMAT, __FILE__, __LINE__, "%s: missing %s section: the file ends at line %ld "
			       "without one (truncated, or not a whole SU2 mesh)", name,
			       ndime < 0 ? "NDIME=" : nelem < 0 ? "NELEM=" : "NPOIN=", last);
		goto fail;
	}
	if (seen_npoin != npoin) {
		err = fv_error(FV_ERR_FORMAT, __FILE__, __LINE__, "%s: two NPOIN= lines disagree", name);
		goto fail;
	}
	if (nelem == 0) {
		err = fv_error(FV_ERR_FORMAT, __FILE__, __LINE__, "%s: NELEM= 0, the mesh has no cells", name);
		goto fail;
	}
	if (nmark < 0) {
		err = fv_error(FV_ERR_FORMAT, __FILE__, __LINE__,
			       "%s: no NMARK= section: every boundary face must be under a marker", name);
		goto fail;
	}
	free(tag_line);
	tag_line = NULL;
	if (dim == 2)
		FV_CALL_GOTO(err, fail, fv_mesh_extrude_2d(m, FV_EXTRUDE_SPAN_DEFAULT));
	return FV_OK;
fail:
	free(tag_line);
	fv_mesh_free(m);
	return err;
}
