/* SPDX-License-Identifier: MIT */
/* `fvstar mesh walldist`: the wall distance of every cell, timed, with its
 * range on stdout and, with -o, a VTU with the cell field wall_distance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "fvstar/mesh.h"
#include "util/timer.h"

/* Marks the markers named in the comma-separated list. */
static fv_err_t parse_walls(const fv_mesh_t *m, const char *list, uint8_t *wall)
{
	const char *s = list;
	FV_CHECK(list && *list, FV_ERR_ARG, "fvstar mesh walldist: missing --wall MARKER[,MARKER...]");
	while (*s) {
		size_t len = strcspn(s, ",");
		int k = 0;
		while (k < m->n_markers && !(strlen(m->markers[k].name) == len && strncmp(m->markers[k].name, s, len) == 0))
			k++;
		if (k == m->n_markers) {
			fprintf(stderr, "fvstar: markers of %s:", m->source);
			for (int i = 0; i < m->n_markers; i++)
				fprintf(stderr, " %s", m->markers[i].name);
			fprintf(stderr, "\n");
			return FV_ERROR(FV_ERR_ARG, "--wall: %s has no marker '%.*s'", m->source, (int)len, s);
		}
		wall[k] = 1;
		s += len + (s[len] == ',');
	}
	return FV_OK;
}

static void print_range(const fv_mesh_t *m, const double *d)
{
	double lo = 0, hi = 0, sum = 0;
	fv_idx_t at_lo = 0, at_hi = 0;
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		if (c == 0 || d[c] < lo)
			lo = d[c], at_lo = c;
		if (c == 0 || d[c] > hi)
			hi = d[c], at_hi = c;
		sum += d[c];
	}
	char a[64], b[64];
	printf("wall distance: min %.9g (%s), max %.9g (%s), mean %.9g\n", lo, fv_mesh_cell_name(m, at_lo, a, sizeof a),
	       hi, fv_mesh_cell_name(m, at_hi, b, sizeof b), m->n_cells ? sum / m->n_cells : 0.0);
}

static fv_idx_t wall_elements(const fv_mesh_t *m, const uint8_t *wall)
{
	fv_idx_t n = 0;
	for (fv_idx_t e = 0; e < m->n_belems; e++)
		n += wall[m->belem_marker[e]] != 0;
	return n;
}

fv_err_t fv_app_walldist(const fv_mesh_t *m, const char *walls, int n_threads, const char *out)
{
	uint8_t *wall = NULL;
	double *dist = NULL;
	fv_err_t err;
	FV_CALL_GOTO(err, done, fv_calloc(&wall, (size_t)m->n_markers + 1, 1, "wall markers"));
	FV_CALL_GOTO(err, done, fv_malloc(&dist, (size_t)m->n_cells + 1, sizeof *dist, "wall distances"));
	FV_CALL_GOTO(err, done, parse_walls(m, walls, wall));
	double t0 = fv_now();
	FV_CALL_GOTO(err, done, fv_wall_distance(m, wall, n_threads, dist));
	double s = fv_now() - t0;
	long threads = n_threads > 0 ? n_threads : sysconf(_SC_NPROCESSORS_ONLN);
	printf("wall distance: %d cells, %d wall faces (%s), threads %ld: %.3f s, %.4g cells/s\n",
	       (int)m->n_cells, (int)wall_elements(m, wall), walls, threads, s, s > 0 ? m->n_cells / s : 0.0);
	print_range(m, dist);
	if (out) {
		t0 = fv_now();
		FV_CALL_GOTO(err, done, fv_mesh_write_vtu_field(m, out, "wall_distance", dist));
		fprintf(stderr, "fvstar: wrote %s (%.3f s)\n", out, fv_now() - t0);
	}
done:
	free(wall);
	free(dist);
	return err;
}
