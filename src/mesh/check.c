/* SPDX-License-Identifier: MIT */
/* Mesh checks (finite coordinates, positive volumes, closed cells), their
 * statistics, and the report printed by `fvstar mesh info`. */
#include "fvstar/mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/threads.h"

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

/* |sum of cell c's face area vectors| / its surface (INFINITY for no
 * surface). */
static double closure(const fv_mesh_t *m, fv_idx_t c)
{
	size_t nf = (size_t)m->n_faces;
	double sum[3] = {0, 0, 0}, mag = 0;
	for (fv_idx_t k = m->cell_face_off[c]; k < m->cell_face_off[c + 1]; k++) {
		fv_idx_t f = m->cell_face[k];
		double sg = m->cell_face_sign[k];
		double a[3] = {m->face_area[f], m->face_area[nf + f], m->face_area[2 * nf + f]};
		for (int d = 0; d < 3; d++)
			sum[d] += sg * a[d];
		mag += sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
	}
	return mag > 0 ? sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]) / mag : INFINITY;
}

/* One part's findings: exact (counts, extrema, first bad cell in file
 * order), so the parts combine to the serial result in any grouping. */
typedef struct check_part {
	fv_idx_t n_type[FV_NCELLTYPES], bad_vol, bad_closure, n_bad_vol, n_bad_closure;
	double vol_min, vol_max, worst_closure, area_min, area_max;
	int nan_closure;
} check_part_t;

static int first_in_file(const fv_mesh_t *m, fv_idx_t a, fv_idx_t b)
{
	return b < 0 || (a >= 0 && fv_mesh_cell_orig(m, a) < fv_mesh_cell_orig(m, b));
}

static void check_cells(const fv_mesh_t *m, double tol, size_t c0, size_t c1, size_t f0, size_t f1, check_part_t *p)
{
	size_t nf = (size_t)m->n_faces;
	memset(p, 0, sizeof *p);
	p->bad_vol = p->bad_closure = -1;
	p->vol_min = p->area_min = INFINITY;
	p->vol_max = -INFINITY;
	for (fv_idx_t c = (fv_idx_t)c0; c < (fv_idx_t)c1; c++) {
		double v = m->cell_vol[c], cl = closure(m, c);
		p->n_type[m->cell_type[c]]++;
		if (v < p->vol_min)
			p->vol_min = v;
		if (v > p->vol_max)
			p->vol_max = v;
		/* the bad cell reported is the first in file order, the same
		 * whatever the renumbering */
		if (!(v > 0) && (p->n_bad_vol++ == 0 || first_in_file(m, c, p->bad_vol)))
			p->bad_vol = c;
		if (cl > p->worst_closure)
			p->worst_closure = cl;
		p->nan_closure |= !(cl == cl);
		if (!(cl <= tol) && (p->n_bad_closure++ == 0 || first_in_file(m, c, p->bad_closure)))
			p->bad_closure = c;
	}
	for (size_t f = f0; f < f1; f++) {
		double a = sqrt((double)m->face_area[f] * m->face_area[f] +
				(double)m->face_area[nf + f] * m->face_area[nf + f] +
				(double)m->face_area[2 * nf + f] * m->face_area[2 * nf + f]);
		if (a < p->area_min)
			p->area_min = a;
		if (a > p->area_max)
			p->area_max = a;
	}
}

fv_err_t fv_mesh_check(const fv_mesh_t *m, double tol, fv_mesh_stats_t *s)
{
	fv_mesh_stats_t local;
	check_part_t all, *part;
	int np = m->n_cells > FV_PAR_MIN ? fv_threads_max() : 1;

	if (!s)
		s = &local;
	memset(s, 0, sizeof *s);
	if (tol <= 0)
		tol = default_tol();
	FV_CHECK(m->cell_vol && m->face_area, FV_ERR_ARG, "%s: checks need geometry", m->source);
	FV_CALL(check_coords(m, s));
	FV_CALL(check_marker_names(m));

	FV_CALL(fv_malloc(&part, (size_t)np, sizeof *part, "check parts"));
	FV_OMP(parallel for schedule(static, 1) num_threads(np))
	for (int t = 0; t < np; t++) {
		size_t c0, c1, f0, f1;
		fv_par_range((size_t)m->n_cells, t, np, &c0, &c1);
		fv_par_range((size_t)m->n_faces, t, np, &f0, &f1);
		check_cells(m, tol, c0, c1, f0, f1, &part[t]);
	}
	all = part[0];
	for (int t = 1; t < np; t++) {
		const check_part_t *p = &part[t];
		for (int k = 0; k < FV_NCELLTYPES; k++)
			all.n_type[k] += p->n_type[k];
		all.vol_min = p->vol_min < all.vol_min ? p->vol_min : all.vol_min;
		all.vol_max = p->vol_max > all.vol_max ? p->vol_max : all.vol_max;
		all.area_min = p->area_min < all.area_min ? p->area_min : all.area_min;
		all.area_max = p->area_max > all.area_max ? p->area_max : all.area_max;
		all.worst_closure = p->worst_closure > all.worst_closure ? p->worst_closure : all.worst_closure;
		all.nan_closure |= p->nan_closure;
		if (first_in_file(m, p->bad_vol, all.bad_vol))
			all.bad_vol = p->bad_vol;
		if (first_in_file(m, p->bad_closure, all.bad_closure))
			all.bad_closure = p->bad_closure;
		all.n_bad_vol += p->n_bad_vol;
		all.n_bad_closure += p->n_bad_closure;
	}
	free(part);
	for (int k = 0; k < FV_NCELLTYPES; k++)
		s->n_cells_of_type[k] = all.n_type[k];
	/* one sum in cell order, as before the threads */
	for (fv_idx_t c = 0; c < m->n_cells; c++)
		s->vol_sum += m->cell_vol[c];
	s->vol_min = all.vol_min;
	s->vol_max = all.vol_max;
	s->closure_max = all.nan_closure ? NAN : all.worst_closure;
	s->area_min = all.area_min;
	s->area_max = all.area_max;
	if (all.bad_vol >= 0)
		return cell_error(m, all.bad_vol, all.n_bad_vol, "is inverted or degenerate: volume",
				  (double)m->cell_vol[all.bad_vol]);
	if (all.bad_closure >= 0)
		return cell_error(m, all.bad_closure, all.n_bad_closure,
				  "is not closed: |sum of face area vectors| / surface =", closure(m, all.bad_closure));
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
