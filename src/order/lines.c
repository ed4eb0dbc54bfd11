/* SPDX-License-Identifier: MIT */
/* Lines of strongly coupled cells (boundary layers, wakes) and a colouring
 * of the lines, for the line-implicit Gauss-Seidel sweeps. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fvstar/color.h"
#include "util/alloc.h"

/*
 * Point Gauss-Seidel on cells of aspect ratio 1e3-1e6 (the TMR bump's
 * boundary layer and wake: 1e-5 high, up to 3 long) barely moves the
 * modes that are smooth across the thin direction: an update in the wake
 * grew linearly with the number of sweeps (5, 20, 100 sweeps: 4e-5,
 * 1.4e-4, 5.5e-4 of rho u in one iteration) and the residual fell 1% per
 * iteration. Solving each line of cells stacked in the thin direction at
 * once (a block-tridiagonal system, Mavriplis' line-implicit relaxation as
 * in FUN3D) removes that stiffness.
 *
 * A face's coupling is |S| / |x_j - x_c|. A cell's strong faces are its
 * (at most two) interior faces whose coupling is at least FV_LINE_RATIO
 * times that of its third-strongest interior face (its weakest when it
 * has two); two owned cells are linked when the face between them is
 * strong for both. Links form paths (a cycle is cut), cut into lines of at
 * most max_len cells (numerics.line_cells, FV_LINE_MAX by default); a cell
 * without links is a line of one. Lines
 * sharing a face get different colours (fv_color_cells on the graph of
 * lines); the groups list the cells of each line in order along it.
 */
#define FV_LINE_RATIO 4.0

static double coupling(const fv_idx_t *fc, const fv_real_t *area, size_t nf, const fv_real_t *ctr, size_t nc,
		       fv_idx_t f, fv_idx_t c)
{
	fv_idx_t j = fc[2 * (size_t)f] == c ? fc[2 * (size_t)f + 1] : fc[2 * (size_t)f];
	double a = 0, l = 0;
	for (int d = 0; d < 3; d++) {
		double s = area[(size_t)d * nf + f], x = ctr[(size_t)d * nc + j] - ctr[(size_t)d * nc + c];
		a += s * s;
		l += x * x;
	}
	return l > 0 ? sqrt(a / l) : 0;
}

/* Up to two strong neighbours of owned cell c into s[2] (-1: none). */
static void strong(const fv_line_mesh_t *m, fv_idx_t c, fv_idx_t s[2])
{
	double w[3] = {-1, -1, -1};
	fv_idx_t nb[2] = {-1, -1};
	int n = 0;
	s[0] = s[1] = -1;
	for (fv_idx_t k = m->cell_face_off[c]; k < m->cell_face_off[c + 1]; k++) {
		fv_idx_t f = m->cell_face[k], o = m->face_cell[2 * (size_t)f], b = m->face_cell[2 * (size_t)f + 1];
		if (b < 0)
			continue;
		double x = coupling(m->face_cell, m->face_area, (size_t)m->n_faces, m->cell_ctr, (size_t)m->n_cells, f, c);
		fv_idx_t j = o == c ? b : o;
		n++;
		/* keep the three largest, the two largest with their cells */
		if (x > w[0]) {
			w[2] = w[1], w[1] = w[0], w[0] = x;
			nb[1] = nb[0], nb[0] = j;
		} else if (x > w[1]) {
			w[2] = w[1], w[1] = x;
			nb[1] = j;
		} else if (x > w[2])
			w[2] = x;
	}
	if (n < 2)
		return;
	double ref = n == 2 ? w[1] : w[2];
	for (int i = 0; i < 2; i++)
		if (w[i] >= FV_LINE_RATIO * ref && nb[i] < m->n_owned)
			s[i] = nb[i];
}

static int linked(const fv_idx_t *s, fv_idx_t c, fv_idx_t j)
{
	return s[2 * (size_t)j] == c || s[2 * (size_t)j + 1] == c;
}

static int cmp_pair(const void *a, const void *b)
{
	const fv_idx_t *x = a, *y = b;
	return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Whether cell c shares a face with a cell of line l other than prev, the
 * cell before it: a path of strong links can fold back next to itself
 * (the M6's prism layer at Gmsh sf 2.1, a tet beside its line's cell two
 * steps back), and a line's solve couples only neighbours along it. */
static int folds(const fv_line_mesh_t *m, const fv_idx_t *line_of, fv_idx_t l, fv_idx_t c, fv_idx_t prev)
{
	for (fv_idx_t k = m->cell_face_off[c]; k < m->cell_face_off[c + 1]; k++) {
		fv_idx_t f = m->cell_face[k], o = m->face_cell[2 * (size_t)f], b = m->face_cell[2 * (size_t)f + 1];
		fv_idx_t j = o == c ? b : o;
		if (j >= 0 && j < m->n_owned && j != prev && line_of[j] == l)
			return 1;
	}
	return 0;
}

/* The lines: line_of[c], and the cells of line l at cells[off[l] ..
 * off[l+1]) in order; returns the line count in *nl. */
static fv_err_t build_lines(const fv_line_mesh_t *m, const fv_idx_t *s, fv_idx_t *line_of, fv_idx_t *cells,
			    fv_idx_t *off, fv_idx_t *nl)
{
	fv_idx_t n = m->n_owned, pos = 0, l = 0, max_len = m->max_len > 0 ? m->max_len : FV_LINE_MAX;
	for (fv_idx_t c = 0; c < n; c++)
		line_of[c] = -1;
	/* ends first (cells with one link or none), then what is left: cycles */
	for (int pass = 0; pass < 2; pass++)
		for (fv_idx_t c0 = 0; c0 < n; c0++) {
			if (line_of[c0] >= 0)
				continue;
			int deg = (s[2 * c0] >= 0 && linked(s, c0, s[2 * c0])) +
				  (s[2 * c0 + 1] >= 0 && linked(s, c0, s[2 * c0 + 1]));
			if (pass == 0 && deg > 1)
				continue;
			fv_idx_t c = c0, prev = -1, len = 0;
			off[l] = pos;
			while (c >= 0) {
				if (len == max_len || (prev >= 0 && folds(m, line_of, l, c, prev))) {
					off[++l] = pos;
					len = 0;
				}
				line_of[c] = l;
				cells[pos++] = c;
				len++;
				fv_idx_t next = -1;
				for (int i = 0; i < 2; i++) {
					fv_idx_t j = s[2 * (size_t)c + i];
					if (j >= 0 && line_of[j] < 0 && linked(s, c, j))
						next = j;
				}
				prev = c;
				c = next;
			}
			l++;
		}
	off[l] = pos;
	*nl = l;
	FV_CHECK(pos == n, FV_ERR_ARG, "lines: %d of %d cells in lines", (int)pos, (int)n);
	return FV_OK;
}

fv_err_t fv_color_lines(const fv_line_mesh_t *m, fv_cell_coloring_t *c, fv_idx_t *line_len)
{
	fv_idx_t n = m->n_owned, *s = NULL, *line_of = NULL, *cells = NULL, *off = NULL, *edge = NULL, nl = 0, ne = 0;
	fv_cell_coloring_t lc;
	fv_err_t err = FV_OK;
	fv_cell_coloring_init(&lc);
	fv_cell_coloring_free(c);
	FV_CALL_GOTO(err, out, fv_malloc(&s, 2 * (size_t)n + 2, sizeof *s, "strong neighbours"));
	FV_CALL_GOTO(err, out, fv_malloc(&line_of, (size_t)n + 1, sizeof *line_of, "cell lines"));
	FV_CALL_GOTO(err, out, fv_malloc(&cells, (size_t)n + 1, sizeof *cells, "cell lines"));
	FV_CALL_GOTO(err, out, fv_malloc(&off, (size_t)n + 2, sizeof *off, "line offsets"));
	for (fv_idx_t k = 0; k < n; k++)
		strong(m, k, s + 2 * (size_t)k);
	FV_CALL_GOTO(err, out, build_lines(m, s, line_of, cells, off, &nl));
	/* the graph of lines: a pair per face between two lines, each once */
	FV_CALL_GOTO(err, out, fv_malloc(&edge, 2 * (size_t)m->n_faces + 2, sizeof *edge, "line graph"));
	for (fv_idx_t f = 0; f < m->n_faces; f++) {
		fv_idx_t o = m->face_cell[2 * (size_t)f], b = m->face_cell[2 * (size_t)f + 1];
		if (o < 0 || o >= n || b < 0 || b >= n || line_of[o] == line_of[b])
			continue;
		edge[2 * ne] = line_of[o] < line_of[b] ? line_of[o] : line_of[b];
		edge[2 * ne + 1] = line_of[o] < line_of[b] ? line_of[b] : line_of[o];
		ne++;
	}
	qsort(edge, (size_t)ne, 2 * sizeof *edge, cmp_pair);
	fv_idx_t u = 0;
	for (fv_idx_t e = 0; e < ne; e++)
		if (e == 0 || cmp_pair(edge + 2 * e, edge + 2 * (e - 1))) {
			edge[2 * u] = edge[2 * e];
			edge[2 * u + 1] = edge[2 * e + 1];
			u++;
		}
	FV_CALL_GOTO(err, out, fv_color_cells(nl, u, edge, &lc));
	/* cells by colour, each line's cells together and in order */
	c->n_cells = n;
	c->n_colors = lc.n_colors;
	FV_CALL_GOTO(err, out, fv_calloc(&c->group_off, (size_t)lc.n_colors + 1, sizeof *c->group_off, "cell groups"));
	FV_CALL_GOTO(err, out, fv_malloc(&c->group_cell, (size_t)n + 1, sizeof *c->group_cell, "cell groups"));
	FV_CALL_GOTO(err, out, fv_malloc(&c->color, (size_t)n + 1, sizeof *c->color, "cell colours"));
	fv_idx_t pos = 0;
	for (int k = 0; k < lc.n_colors; k++) {
		c->group_off[k] = pos;
		for (fv_idx_t i = lc.group_off[k]; i < lc.group_off[k + 1]; i++) {
			fv_idx_t l = lc.group_cell[i];
			for (fv_idx_t p = off[l]; p < off[l + 1]; p++) {
				c->color[cells[p]] = (uint8_t)k;
				line_len[pos] = p == off[l] ? off[l + 1] - off[l] : 0;
				c->group_cell[pos++] = cells[p];
			}
		}
	}
	c->group_off[lc.n_colors] = pos;
out:
	fv_cell_coloring_free(&lc);
	free(s);
	free(line_of);
	free(cells);
	free(off);
	free(edge);
	if (err != FV_OK)
		fv_cell_coloring_free(c);
	return err;
}

fv_err_t fv_color_lines_check(const fv_line_mesh_t *m, const fv_cell_coloring_t *c, const fv_idx_t *line_len)
{
	fv_idx_t n = m->n_owned, *pos = NULL, *start = NULL;
	fv_err_t err = FV_OK;
	FV_CHECK(c->n_cells == n && c->group_off[0] == 0 && c->group_off[c->n_colors] == n, FV_ERR_ARG,
		 "line colouring: groups cover %d of %d cells", (int)c->group_off[c->n_colors], (int)n);
	FV_CALL_GOTO(err, out, fv_malloc(&pos, (size_t)n + 1, sizeof *pos, "line check"));
	FV_CALL_GOTO(err, out, fv_malloc(&start, (size_t)n + 1, sizeof *start, "line check"));
	for (fv_idx_t i = 0; i < n; i++)
		pos[i] = -1;
	for (int k = 0; k < c->n_colors; k++)
		for (fv_idx_t i = c->group_off[k], s0 = -1; i < c->group_off[k + 1]; i++) {
			fv_idx_t v = c->group_cell[i];
			if (line_len[i] > 0)
				s0 = i;
			FV_CHECK_GOTO(err, out, v >= 0 && v < n && pos[v] < 0 && c->color[v] == k && s0 >= 0 &&
						   s0 + line_len[s0] > i,
				      FV_ERR_ARG, "line colouring: group %d lists cell %d out of place", k, (int)v);
			pos[v] = i;
			start[v] = s0;
		}
	/* a face within a group: two neighbours along one line */
	for (fv_idx_t f = 0; f < m->n_faces; f++) {
		fv_idx_t o = m->face_cell[2 * (size_t)f], b = m->face_cell[2 * (size_t)f + 1];
		if (o < 0 || o >= n || b < 0 || b >= n || c->color[o] != c->color[b])
			continue;
		FV_CHECK_GOTO(err, out, start[o] == start[b] && (pos[o] - pos[b] == 1 || pos[b] - pos[o] == 1),
			      FV_ERR_ARG, "line colouring: face %d joins cells %d and %d of colour %d off a line",
			      (int)f, (int)o, (int)b, c->color[o]);
	}
out:
	free(pos);
	free(start);
	return err;
}
