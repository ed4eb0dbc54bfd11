/* SPDX-License-Identifier: MIT */
/* Face colouring benchmark: greedy and minimal colouring of one mesh, with
 * colour counts, group sizes and times (best of R runs, one core).
 *   bench_color MESH [R]                    a mesh file (.su2, .msh)
 *   bench_color gen KIND N [LEVELS] [R]     box of N^3 blocks of KIND (hex,
 *                                           tet, prism, mixed), perturbed
 *                                           by 0.2, refined LEVELS times */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fvstar/color.h"
#include "fvstar/mesh.h"
#include "util/timer.h"

static int die(void)
{
	fprintf(stderr, "bench_color: %s\n", fv_errmsg());
	return 1;
}

static fv_err_t load(int argc, char **argv, fv_mesh_t *m, int *reps)
{
	fv_mesh_init(m);
	if (strcmp(argv[1], "gen") == 0) {
		static const char *kinds[] = {"hex", "tet", "prism", "mixed"};
		fv_gen_opts_t o;
		int kind = -1;
		FV_CHECK(argc >= 4, FV_ERR_ARG, "gen needs KIND and N");
		for (int k = 0; k < 4; k++)
			kind = strcmp(argv[2], kinds[k]) == 0 ? k : kind;
		FV_CHECK(kind >= 0, FV_ERR_ARG, "unknown cell kind '%s'", argv[2]);
		fv_gen_opts_default(&o);
		o.cells = (fv_gen_cells_t)kind;
		o.nx = o.ny = o.nz = atoi(argv[3]);
		o.perturb = 0.2;
		FV_CALL(fv_mesh_gen_box(m, &o));
		for (int l = argc > 4 ? atoi(argv[4]) : 0; l > 0; l--) {
			fv_mesh_t fine;
			fv_mesh_init(&fine);
			FV_CALL(fv_mesh_refine(m, &fine));
			fv_mesh_free(m);
			*m = fine;
		}
		*reps = argc > 5 ? atoi(argv[5]) : 3;
	} else {
		FV_CALL(fv_mesh_read(m, argv[1]));
		*reps = argc > 2 ? atoi(argv[2]) : 3;
	}
	FV_CALL(fv_mesh_build_faces(m));
	return FV_OK;
}

int main(int argc, char **argv)
{
	static const char *names[] = {"greedy", "minimal"};
	fv_mesh_t m;
	int reps = 1;
	if (argc < 2) {
		fprintf(stderr, "usage: bench_color MESH [R] | bench_color gen hex|tet|prism|mixed N [LEVELS] [R]\n");
		return 2;
	}
	if (load(argc, argv, &m, &reps) != FV_OK)
		return die();
	reps = reps < 1 ? 1 : reps;
	fv_idx_t ntype[FV_NCELLTYPES] = {0};
	for (fv_idx_t c = 0; c < m.n_cells; c++)
		ntype[m.cell_type[c]]++;
	printf("mesh %s: %d cells (tet %d, pyramid %d, prism %d, hex %d), %d faces (%d boundary)\n", m.source,
	       (int)m.n_cells, (int)ntype[FV_TET], (int)ntype[FV_PYRAMID], (int)ntype[FV_PRISM], (int)ntype[FV_HEX],
	       (int)m.n_faces, (int)m.n_bfaces);
	for (int meth = 0; meth < 2; meth++) {
		fv_coloring_t c;
		double best = 1e30, t_order = 1e30, t_cells = 1e30;
		fv_coloring_init(&c);
		for (int r = 0; r < reps; r++) {
			double t0 = fv_now();
			if (fv_color_faces(m.n_cells, m.n_faces, m.face_cell, (fv_color_method_t)meth, &c) != FV_OK)
				return die();
			t0 = fv_now() - t0;
			best = t0 < best ? t0 : best;
		}
		if (fv_color_check(m.n_cells, m.n_faces, m.face_cell, &c) != FV_OK)
			return die();
		/* the two orders of the papers: faces by colour (Alg. 11), cells
		 * from the largest group with faces by new owner (Alg. 9-10) */
		fv_idx_t *order = malloc(((size_t)m.n_faces + 1) * sizeof *order);
		fv_idx_t *cell_order = malloc(((size_t)m.n_cells + 1) * sizeof *cell_order);
		fv_idx_t *cell_new = malloc(((size_t)m.n_cells + 1) * sizeof *cell_new);
		fv_idx_t *off = malloc((2 * (size_t)c.n_colors + 1) * sizeof *off);
		if (!order || !cell_order || !cell_new || !off)
			return 1;
		for (int r = 0; r < reps; r++) {
			double t0 = fv_now();
			if (fv_color_face_order(m.n_cells, m.face_cell, &c, NULL, 0, NULL, order, off) != FV_OK)
				return die();
			double t1 = fv_now();
			if (fv_color_cell_order(m.n_cells, m.n_faces, m.face_cell, &c, -1, cell_order, cell_new, NULL) !=
				    FV_OK ||
			    fv_color_face_order(m.n_cells, m.face_cell, &c, NULL, 0, cell_new, order, off) != FV_OK)
				return die();
			double t2 = fv_now();
			t_order = t1 - t0 < t_order ? t1 - t0 : t_order;
			t_cells = t2 - t1 < t_cells ? t2 - t1 : t_cells;
		}
		printf("%s: %d colours (lower bound %d), %.1f ms", names[meth], c.n_colors, c.lower_bound, 1e3 * best);
		if (meth == FV_COLOR_MINIMAL)
			printf(", %d conflicts after the greedy pass, %lld swapped, %lld loop breaks, %d fallback",
			       (int)c.n_conflicts, (long long)c.n_swaps, (long long)c.n_loop_breaks, (int)c.n_fallback);
		printf("\n  face order %.1f ms, cell order + face order by owner %.1f ms\n", 1e3 * t_order,
		       1e3 * t_cells);
		printf("  colour:   ");
		for (int k = 0; k < c.n_colors; k++)
			printf(" %9d", k);
		printf("\n  interior: ");
		for (int k = 0; k < c.n_colors; k++)
			printf(" %9d", (int)(c.group_size[k] - c.group_bsize[k]));
		printf("\n  boundary: ");
		for (int k = 0; k < c.n_colors; k++)
			printf(" %9d", (int)c.group_bsize[k]);
		printf("\n");
		free(order);
		free(cell_order);
		free(cell_new);
		free(off);
		fv_coloring_free(&c);
	}
	fv_mesh_free(&m);
	return 0;
}
