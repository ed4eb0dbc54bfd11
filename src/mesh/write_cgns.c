/* SPDX-License-Identifier: MIT */
/* CGNS writer through the CGNS mid-level library, for other tools: the
 * layout fvstar's own CGNS reader (read_cgns.c) reads back to the same
 * nodes, cells, boundary elements and markers. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "fvstar/mesh.h"

#ifndef FV_HAVE_CGNS

fv_err_t fv_mesh_write_cgns(const fv_mesh_t *m, const char *path)
{
	(void)m;
	return FV_ERROR(FV_ERR_FORMAT,
			"%s: fvstar was built without CGNS, so it cannot write .cgns files (install libcgns-dev, "
			"then configure again with --with-cgns), or write .su2 or .fvm",
			path);
}

#else

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cgnslib.h>

#include "mesh/mesh_internal.h"
#include "mesh/vtu_internal.h"
#include "util/tmpname.h"

/*
 * The file: one base "Base" (cell and physical dimension 3) with one
 * Unstructured zone "Zone"; CoordinateX/Y/Z in RealDouble; the cells as
 * elements 1..n_cells in one section "Cells" (of the one cell type, or
 * MIXED), in mesh order; then, marker by marker, the boundary elements of
 * each marker (in mesh order) as a section named after the marker (TRI_3,
 * QUAD_4 or MIXED) and a BC of that name whose PointRange at FaceCenter
 * lists that section's elements. CGNS numbers a prism's nodes with its
 * first triangle facing the second; fvstar's VTK order has it facing away.
 */

static const CGNS_ENUMT(ElementType_t) cg_cell_type[FV_NCELLTYPES] = {
	CGNS_ENUMV(TETRA_4), CGNS_ENUMV(PYRA_5), CGNS_ENUMV(PENTA_6), CGNS_ENUMV(HEXA_8)};

#define CG_NAME_MAX 32

typedef struct cg_out {
	const fv_mesh_t *m;
	const char *path;
	int fn, B, Z;
} cg_out_t;

static fv_err_t cg_fail(const cg_out_t *o, int line, const char *what)
{
	return fv_error(FV_ERR_IO, __FILE__, line, "%s: cannot write %s: CGNS: %s", o->path, what, cg_get_error());
}

#define CG_TRY(o, call, what)                                      \
	do {                                                       \
		if ((call) != CG_OK)                               \
			return cg_fail((o), __LINE__, (what));     \
	} while (0)

/* Names CGNS holds (32 characters) and markers it can hold (a section is
 * never empty), refused before anything is created. */
static fv_err_t check_cgns(const fv_mesh_t *m, const char *path, fv_idx_t *per_marker)
{
	FV_CALL(fv_writer_check_mesh(m, path));
	FV_CHECK(m->n_cells > 0, FV_ERR_ARG, "%s: the mesh has no cells", path);
	FV_CHECK((long long)m->n_nodes <= INT32_MAX && (long long)m->cell_node_off[m->n_cells] + m->n_cells <= INT32_MAX,
		 FV_ERR_ARG, "%s: too large for this CGNS library's 32-bit element data", path);
	for (fv_idx_t b = 0; b < m->n_belems; b++)
		per_marker[m->belem_marker[b]]++;
	for (int k = 0; k < m->n_markers; k++) {
		const char *s = m->markers[k].name;
		FV_CHECK(strlen(s) <= CG_NAME_MAX, FV_ERR_ARG,
			 "%s: marker name '%s' has %zu characters; CGNS names hold %d (rename the marker)", path, s,
			 strlen(s), CG_NAME_MAX);
		FV_CHECK(strcmp(s, "Cells") != 0, FV_ERR_ARG,
			 "%s: marker name 'Cells' is the name of the cell section of the file (rename the marker)", path);
		FV_CHECK(per_marker[k] > 0, FV_ERR_ARG,
			 "%s: marker '%s' has no boundary elements, and a CGNS section cannot be empty", path, s);
	}
	return FV_OK;
}

static fv_err_t write_coords(cg_out_t *o)
{
	static const char *names[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
	const fv_mesh_t *m = o->m;
	double *c = NULL;
	int C;
	FV_CALL(fv_malloc(&c, (size_t)m->n_nodes + 1, sizeof *c, "coordinates"));
	for (int d = 0; d < 3; d++) {
		for (fv_idx_t i = 0; i < m->n_nodes; i++)
			c[i] = m->xyz[3 * (size_t)i + d];
		if (cg_coord_write(o->fn, o->B, o->Z, CGNS_ENUMV(RealDouble), names[d], c, &C) != CG_OK) {
			free(c);
			return cg_fail(o, __LINE__, names[d]);
		}
	}
	free(c);
	return FV_OK;
}

/* Nodes of cell c, 1-based, in CGNS order, at out; their count. */
static int cell_nodes(const fv_mesh_t *m, fv_idx_t c, cgsize_t *out)
{
	const fv_idx_t *v = m->cell_node + m->cell_node_off[c];
	int n = (int)(m->cell_node_off[c + 1] - m->cell_node_off[c]);
	fv_idx_t w[8];
	memcpy(w, v, (size_t)n * sizeof *w);
	if (m->cell_type[c] == FV_PRISM)
		fv_prism_flip(w);
	for (int i = 0; i < n; i++)
		out[i] = w[i] + 1;
	return n;
}

/* Elements first..first+n-1 of one type, or MIXED with a type code before
 * each element's nodes (off: where each starts). */
static fv_err_t write_section(cg_out_t *o, const char *name, int types, CGNS_ENUMT(ElementType_t) one,
			      cgsize_t first, cgsize_t n, cgsize_t *conn, cgsize_t *off)
{
	int S, ier;
	if (types == 1) {
		/* drop the type codes: the plain layout */
		cgsize_t k = 0;
		for (cgsize_t e = 0; e < n; e++)
			for (cgsize_t q = off[e] + 1; q < off[e + 1]; q++)
				conn[k++] = conn[q];
		ier = cg_section_write(o->fn, o->B, o->Z, name, one, first, first + n - 1, 0, conn, &S);
	} else {
		ier = cg_poly_section_write(o->fn, o->B, o->Z, name, CGNS_ENUMV(MIXED), first, first + n - 1, 0, conn, off,
					    &S);
	}
	if (ier != CG_OK)
		return cg_fail(o, __LINE__, name);
	return FV_OK;
}

static fv_err_t write_cells(cg_out_t *o)
{
	const fv_mesh_t *m = o->m;
	size_t nc = (size_t)m->n_cells;
	cgsize_t *conn = NULL, *off = NULL;
	int seen[FV_NCELLTYPES] = {0}, types = 0;
	fv_err_t err;
	FV_CALL(fv_malloc(&conn, (size_t)m->cell_node_off[nc] + nc + 1, sizeof *conn, "CGNS cells"));
	err = fv_malloc(&off, nc + 1, sizeof *off, "CGNS cells");
	if (err == FV_OK) {
		off[0] = 0;
		for (size_t c = 0; c < nc; c++) {
			cgsize_t k = off[c];
			types += !seen[m->cell_type[c]];
			seen[m->cell_type[c]] = 1;
			conn[k] = cg_cell_type[m->cell_type[c]];
			off[c + 1] = k + 1 + cell_nodes(m, (fv_idx_t)c, conn + k + 1);
		}
		err = write_section(o, "Cells", types, cg_cell_type[m->cell_type[0]], 1, (cgsize_t)nc, conn, off);
	}
	free(conn);
	free(off);
	return err;
}

/* Marker by marker: a section of its elements and a BC listing them. */
static fv_err_t write_markers(cg_out_t *o, const fv_idx_t *per_marker)
{
	const fv_mesh_t *m = o->m;
	cgsize_t *conn = NULL, *off = NULL, first = (cgsize_t)m->n_cells + 1;
	fv_idx_t most = 0;
	fv_err_t err = FV_OK;
	for (int k = 0; k < m->n_markers; k++)
		most = per_marker[k] > most ? per_marker[k] : most;
	FV_CALL(fv_malloc(&conn, 5 * (size_t)most + 1, sizeof *conn, "CGNS boundary"));
	FV_CALL_GOTO(err, done, fv_malloc(&off, (size_t)most + 1, sizeof *off, "CGNS boundary"));
	for (int k = 0; k < m->n_markers && err == FV_OK; k++) {
		cgsize_t n = 0, range[2];
		int tri = 0, quad = 0, BC;
		off[0] = 0;
		for (fv_idx_t b = 0; b < m->n_belems; b++) {
			if (m->belem_marker[b] != k)
				continue;
			int nn = m->belem_type[b];
			cgsize_t q = off[n];
			tri |= nn == FV_TRI;
			quad |= nn == FV_QUAD;
			conn[q++] = nn == FV_TRI ? CGNS_ENUMV(TRI_3) : CGNS_ENUMV(QUAD_4);
			for (int i = 0; i < nn; i++)
				conn[q++] = m->belem_node[m->belem_node_off[b] + i] + 1;
			off[++n] = q;
		}
		const char *name = m->markers[k].name;
		err = write_section(o, name, tri + quad, tri ? CGNS_ENUMV(TRI_3) : CGNS_ENUMV(QUAD_4), first, n, conn, off);
		if (err != FV_OK)
			break;
		range[0] = first;
		range[1] = first + n - 1;
		if (cg_boco_write(o->fn, o->B, o->Z, name, CGNS_ENUMV(BCTypeUserDefined), CGNS_ENUMV(PointRange), 2, range,
				  &BC) != CG_OK ||
		    cg_boco_gridlocation_write(o->fn, o->B, o->Z, BC, CGNS_ENUMV(FaceCenter)) != CG_OK)
			err = cg_fail(o, __LINE__, name);
		first += n;
	}
done:
	free(conn);
	free(off);
	return err;
}

static fv_err_t write_all(cg_out_t *o, const fv_idx_t *per_marker)
{
	const fv_mesh_t *m = o->m;
	cgsize_t size[9] = {(cgsize_t)m->n_nodes, (cgsize_t)m->n_cells, 0};
	CG_TRY(o, cg_base_write(o->fn, "Base", 3, 3, &o->B), "the base");
	CG_TRY(o, cg_zone_write(o->fn, o->B, "Zone", size, CGNS_ENUMV(Unstructured), &o->Z), "the zone");
	FV_CALL(write_coords(o));
	FV_CALL(write_cells(o));
	FV_CALL(write_markers(o, per_marker));
	return FV_OK;
}

fv_err_t fv_mesh_write_cgns(const fv_mesh_t *m, const char *path)
{
	cg_out_t o = {.m = m, .path = path};
	fv_idx_t *per_marker = NULL;
	char *tmp = NULL;
	fv_err_t err;

	FV_CALL(fv_calloc(&per_marker, (size_t)m->n_markers + 1, sizeof *per_marker, "marker counts"));
	err = check_cgns(m, path, per_marker);
	/* a name no other writer uses, renamed over path once complete */
	if (err == FV_OK && !(tmp = fv_tmp_name_alloc(path)))
		err = FV_ERROR(FV_ERR_MEM, "%s: out of memory for the temporary file name", path);
	if (err == FV_OK && cg_open(tmp, CG_MODE_WRITE, &o.fn) != CG_OK) {
		err = FV_ERROR(FV_ERR_IO, "%s: cannot write %s: CGNS: %s", path, tmp, cg_get_error());
		remove(tmp);
	} else if (err == FV_OK) {
		err = write_all(&o, per_marker);
		if (cg_close(o.fn) != CG_OK && err == FV_OK)
			err = cg_fail(&o, __LINE__, "the file (closing it)");
		if (err == FV_OK && rename(tmp, path) != 0)
			err = FV_ERROR(FV_ERR_IO, "%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
		if (err != FV_OK)
			remove(tmp);
	}
	free(tmp);
	free(per_marker);
	return err == FV_OK ? FV_OK : fv_error_trace(err, __FILE__, __LINE__);
}

#endif
