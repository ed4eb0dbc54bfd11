/* SPDX-License-Identifier: MIT */
/* Mesh pipeline benchmark: read -> connectivity -> geometry -> checks, one
 * process per mesh so that the peak resident size is the pipeline's own.
 *   bench_mesh gen N OUT.su2    tet box of 6 N^3 cells, written as SU2
 *   bench_mesh load MESH        times each stage, prints one CSV line */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fvstar/mesh.h"
#include "util/timer.h"

static int die(void)
{
	fprintf(stderr, "bench_mesh: %s\n", fv_errmsg());
	return 1;
}

int main(int argc, char **argv)
{
	fv_mesh_t m;
	if (argc == 4 && strcmp(argv[1], "gen") == 0) {
		fv_gen_opts_t o;
		fv_gen_opts_default(&o);
		o.cells = FV_GEN_TET;
		o.nx = o.ny = o.nz = atoi(argv[2]);
		o.perturb = 0.1;
		if (fv_mesh_gen_box(&m, &o) != FV_OK || fv_mesh_write_su2(&m, argv[3]) != FV_OK)
			return die();
		fv_mesh_free(&m);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "load") == 0) {
		double t0 = fv_now(), t_read, t_faces, t_nodes, t_geom, t_check;
		size_t rss_read;
		fv_mesh_stats_t s;
		if (fv_mesh_read(&m, argv[2]) != FV_OK)
			return die();
		t_read = fv_now() - t0;
		rss_read = fv_current_rss();
		t0 = fv_now();
		if (fv_mesh_build_faces(&m) != FV_OK)
			return die();
		t_faces = fv_now() - t0;
		t0 = fv_now();
		if (fv_mesh_build_node_cells(&m) != FV_OK)
			return die();
		t_nodes = fv_now() - t0;
		t0 = fv_now();
		if (fv_mesh_compute_geometry(&m) != FV_OK)
			return die();
		t_geom = fv_now() - t0;
		t0 = fv_now();
		if (fv_mesh_check(&m, 0, &s) != FV_OK)
			return die();
		t_check = fv_now() - t0;
		double n = (double)m.n_cells;
		printf("cells,faces,nodes,read_s,faces_s,node_cells_s,geometry_s,checks_s,"
		       "conn_geom_us_per_cell,rss_after_read_B_per_cell,rss_final_B_per_cell,peak_rss_B_per_cell\n");
		printf("%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.0f,%.0f,%.0f\n", (int)m.n_cells, (int)m.n_faces,
		       (int)m.n_nodes, t_read, t_faces, t_nodes, t_geom, t_check,
		       1e6 * (t_faces + t_nodes + t_geom) / n, (double)rss_read / n, (double)fv_current_rss() / n,
		       (double)fv_peak_rss() / n);
		fv_mesh_free(&m);
		return 0;
	}
	fprintf(stderr, "usage: bench_mesh gen N OUT.su2 | bench_mesh load MESH\n");
	return 2;
}
