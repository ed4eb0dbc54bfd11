/* SPDX-License-Identifier: MIT */
/* Mesh checks (finite coordinates, positive volumes, closed cells), their
 * statistics, and the report printed by `fvstar mesh info`. */
#include "fvstar/mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double default_tol(void)
{
	/* area vectors are stored in fv_real_t: round-off of a few ulps */
	return 1e4 * FV_REAL_EPS;
}

static fv_err_t check_coords(const fv_mesh_t *m, fv_mesh_stats_t *s)
{
	s->bbox[0] = s->bbox[2] = s->bbox[4] = INFINITY;
	s->bbox[1] = s->bbox[3] = s->bbox[5] = -INFINITY;
	for (fv_idx_t i = 0; i < m->n_nodes; i++)
		for (int d = 0; d < 3; d++) {
			double x = m->xyz[3 * (size_t)i + d];
			FV_CHECK(isfinite(x), FV_ERR_MESH, "%s: node %lld has a non-finite coordinate (%g)",
				 m->source, (long long)fv_mesh_node_tag(m, i), x);
			if (x < s->bbox[2 * d])
				s->bbox[2 * d] = x;
			if (x > s->bbox[2 * d + 1])
				s->bbox[2 * d + 1] = x;
		}
	return FV_OK;
}

/* The cell as its file numbers it (element tag, node tags) and where it
 * is: after renumbering, internal indices would mean nothing to a user. */
static fv_err_t cell_error(const fv_mesh_t *m, fv_idx_t c, fv_idx_t n_bad, const char *what, double value)
{
	char nodes[160], name[96];
	size_t n = (size_t)m->n_cells;
	fv_mesh_node_list(m, m->cell_node + m->cell_node_off[c], m->cell_node_off[c + 1] - m->cell_node_off[c], nodes,
			  sizeof nodes);
	return FV_ERROR(FV_ERR_MESH, "%s: %s (%s, nodes %s, centroid %g %g %g) %s %g%s", m->source,
			fv_mesh_cell_name(m, c, name, sizeof name), fv_cell_shapes[m->cell_type[c]].name, nodes,
			(double)m->cell_ctr[c],
			(double)m->cell_ctr[n + c], (double)m->cell_ctr[2 * n + c], what, value,
			n_bad > 1 ? " (and other cells)" : "");
}

static int cmp_marker_name(const void *a, const void *b)
{
	const fv_marker_t *x = *(const fv_marker_t *const *)a, *y = *(const fv_marker_t *const *)b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x > y) - (x < y);
}

/* Boundary conditions are set by marker name: two markers of one name
 * would take one condition. The readers refuse such files with both
 * lines; this covers meshes from anywhere else (parts, programs). */
static fv_err_t check_marker_names(const fv_mesh_t *m)
{
	const fv_marker_t **ord = NULL;
	fv_err_t err = FV_OK;
	if (m->n_markers < 2)
		return FV_OK;
	FV_CALL(fv_malloc(&ord, (size_t)m->n_markers, sizeof *ord, "marker order"));
	for (int k = 0; k < m->n_markers; k++)
		ord[k] = &m->markers[k];
	qsort(ord, (size_t)m->n_markers, sizeof *ord, cmp_marker_name);
	for (int k = 1; k < m->n_markers && err == FV_OK; k++)
		if (strcmp(ord[k]->name, ord[k - 1]->name) == 0)
			err = FV_ERROR(FV_ERR_MESH, "%s: markers %d and %d are both named '%s': each marker needs its own "
				       "name, since boundary conditions are set by name", m->source,
				       (int)(ord[k - 1] - m->markers), (int)(ord[k] - m->markers), ord[k]->name);
	free(ord);
	return err;
}

fv_err_t fv_mesh_check(const fv_mesh_t *m, double tol, fv_mesh_stats_t *s)
{
	fv_mesh_stats_t local;
	fv_idx_t bad_vol = -1, bad_closure = -1, n_bad_vol = 0, n_bad_closure = 0;
	double worst_closure = 0, bad_closure_value = 0;
	size_t nf = (size_t)m->n_faces;

	if (!s)
		s = &local;
	memset(s, 0, sizeof *s);
	if (tol <= 0)
		tol = default_tol();
	FV_CHECK(m->cell_vol && m->face_area, FV_ERR_ARG, "%s: checks need geometry", m->source);
	FV_CALL(check_coords(m, s));
	FV_CALL(check_marker_names(m));

	s->vol_min = INFINITY;
	s->vol_max = -INFINITY;
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		double v = m->cell_vol[c], sum[3] = {0, 0, 0}, mag = 0, cl;
		s->n_cells_of_type[m->cell_type[c]]++;
		s->vol_sum += v;
		if (v < s->vol_min)
			s->vol_min = v;
		if (v > s->vol_max)
			s->vol_max = v;
		/* the bad cell reported is the first in file order, the same
		 * whatever the renumbering */
		if (!(v > 0) && (n_bad_vol++ == 0 || fv_mesh_cell_orig(m, c) < fv_mesh_cell_orig(m, bad_vol)))
			bad_vol = c;
		for (fv_idx_t k = m->cell_face_off[c]; k < m->cell_face_off[c + 1]; k++) {
			fv_idx_t f = m->cell_face[k];
			double sg = m->cell_face_sign[k];
			double a[3] = {m->face_area[f], m->face_area[nf + f], m->face_area[2 * nf + f]};
			for (int d = 0; d < 3; d++)
				sum[d] += sg * a[d];
			mag += sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
		}
		cl = mag > 0 ? sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]) / mag : INFINITY;
		if (cl > worst_closure || !(cl == cl))
			worst_closure = cl;
		if (!(cl <= tol) &&
		    (n_bad_closure++ == 0 || fv_mesh_cell_orig(m, c) < fv_mesh_cell_orig(m, bad_closure))) {
			bad_closure = c;
			bad_closure_value = cl;
		}
	}
	s->closure_max = worst_closure;
	s->area_min = INFINITY;
	s->area_max = 0;
	for (fv_idx_t f = 0; f < m->n_faces; f++) {
		double a = sqrt((double)m->face_area[f] * m->face_area[f] +
				(double)m->face_area[nf + f] * m->face_area[nf + f] +
				(double)m->face_area[2 * nf + f] * m->face_area[2 * nf + f]);
		if (a < s->area_min)
			s->area_min = a;
		if (a > s->area_max)
			s->area_max = a;
	}
	if (bad_vol >= 0)
		return cell_error(m, bad_vol, n_bad_vol, "is inverted or degenerate: volume", (double)m->cell_vol[bad_vol]);
	if (bad_closure >= 0)
		return cell_error(m, bad_closure, n_bad_closure, "is not closed: |sum of face area vectors| / surface =",
				  bad_closure_value);
	return FV_OK;
}

void fv_mesh_marker_area(const fv_mesh_t *m, int k, double area_vec[3], double *area)
{
	size_t nf = (size_t)m->n_faces;
	area_vec[0] = area_vec[1] = area_vec[2] = 0;
	*area = 0;
	for (fv_idx_t f = m->marker_face_off[k]; f < m->marker_face_off[k + 1]; f++) {
		double a[3] = {m->face_area[f], m->face_area[nf + f], m->face_area[2 * nf + f]};
		for (int d = 0; d < 3; d++)
			area_vec[d] += a[d];
		*area += sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
	}
}

void fv_mesh_print_info(const fv_mesh_t *m, const fv_mesh_stats_t *s, FILE *out)
{
	fprintf(out, "mesh: %s\n", m->source);
	fprintf(out, "nodes: %d\n", (int)m->n_nodes);
	fprintf(out, "cells: %d\n", (int)m->n_cells);
	if (m->extruded_2d)
		fprintf(out, "2D mesh: extruded in z over a span of %g, symmetry markers %s %s\n", m->extrude_span,
			m->extrude_marker[0] >= 0 ? m->markers[m->extrude_marker[0]].name : "-",
			m->extrude_marker[1] >= 0 ? m->markers[m->extrude_marker[1]].name : "-");
	for (int t = 0; t < FV_NCELLTYPES; t++)
		fprintf(out, "  %-12s %d\n", fv_cell_shapes[t].name, (int)s->n_cells_of_type[t]);
	fprintf(out, "faces: %d (boundary %d, interior %d)\n", (int)m->n_faces, (int)m->n_bfaces,
		(int)(m->n_faces - m->n_bfaces));
	fprintf(out, "markers: %d\n", m->n_markers);
	for (int k = 0; k < m->n_markers; k++) {
		double av[3], a;
		fv_mesh_marker_area(m, k, av, &a);
		fprintf(out, "  %-16s faces %d  area %.10g  normal sum %.4g %.4g %.4g\n", m->markers[k].name,
			(int)(m->marker_face_off[k + 1] - m->marker_face_off[k]), a, av[0], av[1], av[2]);
	}
	fprintf(out, "volume: total %.12g min %.6g max %.6g\n", s->vol_sum, s->vol_min, s->vol_max);
	fprintf(out, "face area: min %.6g max %.6g\n", s->area_min, s->area_max);
	fprintf(out, "bounding box: x [%g, %g] y [%g, %g] z [%g, %g]\n", s->bbox[0], s->bbox[1], s->bbox[2],
		s->bbox[3], s->bbox[4], s->bbox[5]);
	fprintf(out, "closure: max %.3g (tolerance %.3g)\n", s->closure_max, default_tol());
	fprintf(out, "precision: %s\n", FV_REAL_NAME);
}
