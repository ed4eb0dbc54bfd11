/* SPDX-License-Identifier: MIT */
/* One layer in z from a 2D mesh, so that 2D cases (airfoils) run on the 3D
 * solver between two symmetry planes. */
#include "mesh/mesh_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const sym_base[2] = {"symmetry_zmin", "symmetry_zmax"};

static int has_marker(const fv_mesh_t *m, const char *name)
{
	for (int k = 0; k < m->n_markers; k++)
		if (strcmp(m->markers[k].name, name) == 0)
			return 1;
	return 0;
}

/* symmetry_zmin, or symmetry_zmin_2, _3... when the file's markers (seen
 * in file, the mesh being read) already use the name: a case file binds a
 * boundary condition to a name, and two markers of one name would merge. */
static fv_err_t add_sym_marker(fv_mesh_t *out, const fv_mesh_t *file, int side, int *index)
{
	char name[FV_MARKER_NAME_MAX];
	snprintf(name, sizeof name, "%s", sym_base[side]);
	for (int k = 2; has_marker(file, name); k++) {
		FV_CHECK(k < 1000, FV_ERR_FORMAT, "%s: no free name for marker %s", file->source, sym_base[side]);
		snprintf(name, sizeof name, "%s_%d", sym_base[side], k);
	}
	return fv_mesh_marker(out, name, index);
}

/* Twice the signed area of a planar polygon (positive: counter-clockwise
 * seen from +z). */
static double signed_area2(const double *xyz, const fv_idx_t *v, int n)
{
	double a = 0;
	for (int i = 0; i < n; i++) {
		const double *p = xyz + 3 * (size_t)v[i], *q = xyz + 3 * (size_t)v[(i + 1) % n];
		a += p[0] * q[1] - q[0] * p[1];
	}
	return a;
}

fv_err_t fv_mesh_extrude_2d(fv_mesh_t *m, double span)
{
	fv_mesh_t out;
	fv_err_t err = FV_OK;
	size_t nc = (size_t)m->n_cells, nl = (size_t)m->n_belems, nn2 = (size_t)m->n_nodes;
	size_t cell_nodes = 2 * (size_t)m->cell_node_off[nc];
	int sym[2];

	FV_CHECK(span > 0 && isfinite(span), FV_ERR_ARG, "%s: extrusion span %g is not positive", m->source, span);
	FV_CHECK(2 * nn2 <= FV_IDX_MAX, FV_ERR_MEM, "%s: %zu nodes: too many to extrude with 32-bit indices",
		 m->source, nn2);
	fv_mesh_init(&out);
	memcpy(out.source, m->source, sizeof out.source);
	FV_CALL_GOTO(err, fail, fv_mesh_alloc(&out, 2 * nn2, nc, cell_nodes, nl + 2 * nc, 4 * nl + cell_nodes));
	if (m->n_markers > 0) {
		FV_CALL_GOTO(err, fail, fv_malloc(&out.markers, (size_t)m->n_markers, sizeof *out.markers, "markers"));
		memcpy(out.markers, m->markers, (size_t)m->n_markers * sizeof *out.markers);
		out.n_markers = m->n_markers;
	}
	for (int s = 0; s < 2; s++)
		FV_CALL_GOTO(err, fail, add_sym_marker(&out, m, s, &sym[s]));

	for (size_t i = 0; i < nn2; i++) {
		double *lo = out.xyz + 3 * i, *hi = out.xyz + 3 * (i + nn2);
		lo[0] = hi[0] = m->xyz[3 * i];
		lo[1] = hi[1] = m->xyz[3 * i + 1];
		lo[2] = 0;
		hi[2] = span;
	}

	/* boundary lines first (file order), then the z = 0 faces, then z = span */
	fv_idx_t *bn = out.belem_node;
	size_t nb = 0;
	for (size_t e = 0; e < nl; e++) {
		const fv_idx_t *v = m->belem_node + m->belem_node_off[e];
		if (m->belem_type[e] != 2 || m->belem_node_off[e + 1] - m->belem_node_off[e] != 2) {
			err = FV_ERROR(FV_ERR_FORMAT, "%s: marker %s: boundary element %zu is not a line", m->source,
				       m->markers[m->belem_marker[e]].name, e);
			goto fail;
		}
		bn[0] = v[0];
		bn[1] = v[1];
		bn[2] = v[1] + (fv_idx_t)nn2;
		bn[3] = v[0] + (fv_idx_t)nn2;
		bn += 4;
		out.belem_type[nb] = FV_QUAD;
		out.belem_marker[nb] = m->belem_marker[e];
		out.belem_node_off[nb + 1] = out.belem_node_off[nb] + 4;
		nb++;
	}

	fv_idx_t *cn = out.cell_node;
	for (size_t c = 0; c < nc; c++) {
		const fv_idx_t *v = m->cell_node + m->cell_node_off[c];
		int n = (int)(m->cell_node_off[c + 1] - m->cell_node_off[c]);
		int want = m->cell_type[c] == FV_PRISM ? 3 : 4;
		fv_idx_t ccw[4];
		if ((m->cell_type[c] != FV_PRISM && m->cell_type[c] != FV_HEX) || n != want) {
			err = FV_ERROR(FV_ERR_FORMAT, "%s: element %zu is not a triangle or a quadrilateral", m->source, c);
			goto fail;
		}
		double a2 = signed_area2(m->xyz, v, n);
		if (!(a2 != 0)) {
			char nodes[64];
			int len = 0;
			for (int i = 0; i < n; i++)
				len += snprintf(nodes + len, sizeof nodes - (size_t)len, " %d", (int)v[i]);
			err = FV_ERROR(FV_ERR_MESH, "%s: element %zu (%s, nodes%s) has zero area", m->source, c,
				       n == 3 ? "triangle" : "quadrilateral", nodes);
			goto fail;
		}
		/* counter-clockwise seen from +z: files use either winding */
		ccw[0] = v[0];
		for (int i = 1; i < n; i++)
			ccw[i] = a2 > 0 ? v[i] : v[n - i];
		/* VTK: a prism's first triangle faces away from the second, a hex's
		 * first quadrilateral towards the second (mesh.h) */
		if (n == 3) {
			const fv_idx_t o[3] = {ccw[0], ccw[2], ccw[1]};
			for (int i = 0; i < 3; i++) {
				cn[i] = o[i];
				cn[3 + i] = o[i] + (fv_idx_t)nn2;
			}
		} else {
			for (int i = 0; i < 4; i++) {
				cn[i] = ccw[i];
				cn[4 + i] = ccw[i] + (fv_idx_t)nn2;
			}
		}
		cn += 2 * n;
		out.cell_type[c] = m->cell_type[c];
		out.cell_node_off[c + 1] = out.cell_node_off[c] + 2 * n;
	}
	for (int s = 0; s < 2; s++)
		for (size_t c = 0; c < nc; c++) {
			const fv_idx_t *v = m->cell_node + m->cell_node_off[c];
			int n = (int)(m->cell_node_off[c + 1] - m->cell_node_off[c]);
			for (int i = 0; i < n; i++)
				bn[i] = v[i] + (s ? (fv_idx_t)nn2 : 0);
			bn += n;
			out.belem_type[nb] = (uint8_t)n;
			out.belem_marker[nb] = sym[s];
			out.belem_node_off[nb + 1] = out.belem_node_off[nb] + n;
			nb++;
		}

	out.extruded_2d = 1;
	out.extrude_span = span;
	out.extrude_marker[0] = sym[0];
	out.extrude_marker[1] = sym[1];
	fv_mesh_free(m);
	*m = out;
	return FV_OK;
fail:
	fv_mesh_free(&out);
	return err;
}

fv_err_t fv_mesh_set_extrude_span(fv_mesh_t *m, double span)
{
	FV_CHECK(m->extruded_2d, FV_ERR_ARG, "%s: the span applies to 2D meshes only (this one is 3D)", m->source);
	FV_CHECK(span > 0 && isfinite(span), FV_ERR_ARG, "%s: extrusion span %g is not positive", m->source, span);
	FV_CHECK(!m->face_cell && !m->cell_vol, FV_ERR_ARG,
		 "%s: the span must be set before faces and geometry are built", m->source);
	/* a scale, not a reset: a refined layer has nodes inside the span */
	double f = span / m->extrude_span;
	for (fv_idx_t i = 0; i < m->n_nodes; i++)
		m->xyz[3 * (size_t)i + 2] *= f;
	m->extrude_span = span;
	return FV_OK;
}
