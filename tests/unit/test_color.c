/* SPDX-License-Identifier: MIT */
/* Face colouring (greedy, minimal), its check, and the colour orders of
 * faces and cells, and the distance-1 cell colouring, on hand-made graphs
 * and generated meshes; lines of strongly coupled cells.
 * Run as: tests/unit/test_color (cmocka; all tests must pass). */
#include "testutil.h"

#include "fvstar/color.h"

static void gen(fv_mesh_t *m, fv_gen_cells_t cells, int n, double perturb, int levels)
{
	fv_gen_opts_t o;
	fv_gen_opts_default(&o);
	o.cells = cells;
	o.nx = n;
	o.ny = n + 1;
	o.nz = n + 2;
	o.perturb = perturb;
	o.seed = 3;
	fv_mesh_init(m);
	FV_ASSERT_OK(fv_mesh_gen_box(m, &o));
	for (int l = 0; l < levels; l++) {
		fv_mesh_t fine;
		fv_mesh_init(&fine);
		FV_ASSERT_OK(fv_mesh_refine(m, &fine));
		fv_mesh_free(m);
		*m = fine;
	}
	FV_ASSERT_OK(fv_mesh_build_faces(m));
}

static int max_faces_per_cell(const fv_mesh_t *m)
{
	int d = 0;
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		int k = m->cell_face_off[c + 1] - m->cell_face_off[c];
		d = k > d ? k : d;
	}
	return d;
}

/* Greedy (Zhang 2022 Alg. 4) by hand on three cells, boundary faces first:
 *   f0 f1: cell 0 | f2: cell 1 | f3: cell 2 | f4 (0,1) f5 (1,2) f6 (0,2)
 * f0..f3 take 0, 1, 0, 0; f4 sees {0,1} and {0}: 2; f5 sees {0,2} and {0}:
 * 1; f6 sees {0,1,2} and {0,1}: 3. */
static const fv_idx_t hand_fc[] = {0, -1, 0, -1, 1, -1, 2, -1, 0, 1, 1, 2, 0, 2};

static void test_greedy_by_hand(void **state)
{
	static const uint8_t want[] = {0, 1, 0, 0, 2, 1, 3};
	static const fv_idx_t want_off[] = {0, 3, 5, 6, 7}, want_face[] = {0, 2, 3, 1, 5, 4, 6};
	static const fv_idx_t want_bsize[] = {3, 1, 0, 0};
	fv_coloring_t c;
	(void)state;
	fv_coloring_init(&c);
	FV_ASSERT_OK(fv_color_faces(3, 7, hand_fc, FV_COLOR_GREEDY, &c));
	assert_int_equal(c.n_colors, 4);
	assert_int_equal(c.lower_bound, 4);
	assert_memory_equal(c.color, want, sizeof want);
	assert_memory_equal(c.group_off, want_off, sizeof want_off);
	assert_memory_equal(c.group_face, want_face, sizeof want_face);
	assert_memory_equal(c.group_bsize, want_bsize, sizeof want_bsize);
	for (int k = 0; k < 4; k++)
		assert_int_equal(c.group_size[k], want_off[k + 1] - want_off[k]);
	FV_ASSERT_OK(fv_color_check(3, 7, hand_fc, &c));
	FV_ASSERT_OK(fv_color_faces(3, 7, hand_fc, FV_COLOR_MINIMAL, &c));
	assert_int_equal(c.n_colors, 4);
	FV_ASSERT_OK(fv_color_check(3, 7, hand_fc, &c));
	fv_coloring_free(&c);
}

/* A ring of six cells, faces in the order (0,1) (3,4) (1,2) (4,5) (2,3)
 * (5,0): greedy needs three colours, the ring is bipartite and minimal
 * gets two by a Kempe swap. A ring of three cells (an odd cycle) has no
 * colouring with two: minimal must give up within its work cap and use a
 * third colour for one face. */
static void test_rings(void **state)
{
	static const fv_idx_t ring6[] = {0, 1, 3, 4, 1, 2, 4, 5, 2, 3, 0, 5};
	static const fv_idx_t ring3[] = {0, 1, 1, 2, 0, 2};
	fv_coloring_t c;
	(void)state;
	fv_coloring_init(&c);
	FV_ASSERT_OK(fv_color_faces(6, 6, ring6, FV_COLOR_GREEDY, &c));
	assert_int_equal(c.n_colors, 3);
	assert_int_equal(c.lower_bound, 2);
	FV_ASSERT_OK(fv_color_faces(6, 6, ring6, FV_COLOR_MINIMAL, &c));
	assert_int_equal(c.n_colors, 2);
	assert_true(c.n_conflicts >= 1);
	assert_true(c.n_swaps >= 1);
	assert_int_equal(c.n_fallback, 0);
	FV_ASSERT_OK(fv_color_check(6, 6, ring6, &c));

	FV_ASSERT_OK(fv_color_faces(3, 3, ring3, FV_COLOR_MINIMAL, &c));
	assert_int_equal(c.lower_bound, 2);
	assert_int_equal(c.n_colors, 3);
	assert_int_equal(c.n_fallback, 1);
	FV_ASSERT_OK(fv_color_check(3, 3, ring3, &c));

	/* no faces */
	FV_ASSERT_OK(fv_color_faces(2, 0, NULL, FV_COLOR_MINIMAL, &c));
	assert_int_equal(c.n_colors, 0);
	FV_ASSERT_OK(fv_color_check(2, 0, NULL, &c));
	fv_coloring_free(&c);
}

/* Both methods on generated meshes: valid, greedy within the
 * 2 * bound - 1 of any greedy edge colouring, minimal at the lower bound
 * (what it reaches on all of these; it guarantees only validity). */
static void test_generated(void **state)
{
	static const struct {
		fv_gen_cells_t cells;
		int n, levels, bound;
		double perturb;
	} cases[] = {
		{FV_GEN_TET, 6, 0, 4, 0.0},   {FV_GEN_TET, 7, 0, 4, 0.2},  {FV_GEN_TET, 3, 1, 4, 0.1},
		{FV_GEN_HEX, 8, 0, 6, 0.0},   {FV_GEN_HEX, 4, 1, 6, 0.25}, {FV_GEN_PRISM, 7, 0, 5, 0.1},
		{FV_GEN_PRISM, 3, 1, 5, 0.0}, {FV_GEN_MIXED, 8, 0, 6, 0.0}, {FV_GEN_MIXED, 5, 1, 6, 0.2},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fv_mesh_t m;
		fv_coloring_t g, c;
		gen(&m, cases[i].cells, cases[i].n, cases[i].perturb, cases[i].levels);
		fv_coloring_init(&g);
		fv_coloring_init(&c);
		assert_int_equal(max_faces_per_cell(&m), cases[i].bound);
		FV_ASSERT_OK(fv_color_faces(m.n_cells, m.n_faces, m.face_cell, FV_COLOR_GREEDY, &g));
		FV_ASSERT_OK(fv_color_check(m.n_cells, m.n_faces, m.face_cell, &g));
		FV_ASSERT_OK(fv_color_faces(m.n_cells, m.n_faces, m.face_cell, FV_COLOR_MINIMAL, &c));
		FV_ASSERT_OK(fv_color_check(m.n_cells, m.n_faces, m.face_cell, &c));
		assert_int_equal(g.lower_bound, cases[i].bound);
		assert_int_equal(c.lower_bound, cases[i].bound);
		assert_in_range(g.n_colors, cases[i].bound, 2 * cases[i].bound - 1);
		assert_int_equal(c.n_colors, cases[i].bound);
		assert_int_equal(c.n_fallback, 0);
		print_message("%-32s %7d faces: greedy %d colours, minimal %d (%d conflicts, %lld swapped)\n",
			      m.source, (int)m.n_faces, g.n_colors, c.n_colors, (int)c.n_conflicts,
			      (long long)c.n_swaps);
		fv_coloring_free(&g);
		fv_coloring_free(&c);
		fv_mesh_free(&m);
	}
}

static void test_check_rejects(void **state)
{
	fv_mesh_t m;
	fv_coloring_t c;
	(void)state;
	gen(&m, FV_GEN_TET, 3, 0, 0);
	fv_coloring_init(&c);
	FV_ASSERT_OK(fv_color_faces(m.n_cells, m.n_faces, m.face_cell, FV_COLOR_MINIMAL, &c));

	/* boundary face f1 takes the colour of another face f0 of its cell:
	 * the one conflict, named by both faces and the cell */
	fv_idx_t f1 = 5, cell = m.face_cell[2 * f1], f0 = m.cell_face[m.cell_face_off[cell]];
	assert_true(f1 < m.n_bfaces);
	char want[96];
	f0 = f0 == f1 ? m.cell_face[m.cell_face_off[cell] + 1] : f0;
	uint8_t keep = c.color[f1];
	c.color[f1] = c.color[f0];
	snprintf(want, sizeof want, "faces %d and %d share cell %d and colour %d", (int)(f0 < f1 ? f0 : f1),
		 (int)(f0 < f1 ? f1 : f0), (int)cell, c.color[f0]);
	FV_ASSERT_ERR(fv_color_check(m.n_cells, m.n_faces, m.face_cell, &c), FV_ERR_ARG, want);
	c.color[f1] = keep;
	FV_ASSERT_OK(fv_color_check(m.n_cells, m.n_faces, m.face_cell, &c));

	/* an uncoloured face */
	c.color[f0] = (uint8_t)c.n_colors;
	FV_ASSERT_ERR(fv_color_check(m.n_cells, m.n_faces, m.face_cell, &c), FV_ERR_ARG, "uncoloured");
	FV_ASSERT_OK(fv_color_faces(m.n_cells, m.n_faces, m.face_cell, FV_COLOR_MINIMAL, &c));

	/* groups that disagree with the colours */
	fv_idx_t t = c.group_face[0];
	c.group_face[0] = c.group_face[c.group_off[1]];
	FV_ASSERT_ERR(fv_color_check(m.n_cells, m.n_faces, m.face_cell, &c), FV_ERR_ARG, "group 0");
	c.group_face[0] = t;
	c.group_bsize[1]++;
	FV_ASSERT_ERR(fv_color_check(m.n_cells, m.n_faces, m.face_cell, &c), FV_ERR_ARG, "boundary faces");
	c.group_bsize[1]--;
	FV_ASSERT_OK(fv_color_check(m.n_cells, m.n_faces, m.face_cell, &c));

	/* bad input */
	fv_idx_t bad[] = {0, 7};
	FV_ASSERT_ERR(fv_color_faces(2, 1, bad, FV_COLOR_GREEDY, &c), FV_ERR_ARG, "face 0");
	bad[1] = 0;
	FV_ASSERT_ERR(fv_color_faces(2, 1, bad, FV_COLOR_GREEDY, &c), FV_ERR_ARG, "neighbour 0");
	FV_ASSERT_ERR(fv_color_faces(2, 1, bad, (fv_color_method_t)7, &c), FV_ERR_ARG, "method");
	fv_coloring_free(&c);
	fv_mesh_free(&m);
}

/* The new order is a permutation, boundary faces first, each block one
 * colour (and key) in the order asked for. */
static void check_face_order(const fv_mesh_t *m, const fv_coloring_t *c, const int32_t *key, int nkey,
			     const fv_idx_t *cell_new, const fv_idx_t *order, const fv_idx_t *off)
{
	int nk = c->n_colors, kb = key ? nkey : 1;
	char *seen = calloc((size_t)m->n_faces, 1);
	assert_int_equal(off[0], 0);
	assert_int_equal(off[(kb + 1) * nk], m->n_faces);
	assert_int_equal(off[kb * nk], m->n_bfaces);
	for (int b = 0; b < (kb + 1) * nk; b++) {
		int k = b % nk, bnd = b < kb * nk;
		fv_idx_t want = 0;
		for (fv_idx_t i = off[b]; i < off[b + 1]; i++) {
			fv_idx_t f = order[i];
			assert_in_range(f, 0, m->n_faces - 1);
			assert_false(seen[f]);
			seen[f] = 1;
			assert_int_equal(c->color[f], k);
			assert_int_equal(m->face_cell[2 * f + 1] < 0, bnd);
			if (bnd && key)
				assert_int_equal(key[f], b / nk);
			if (i > off[b]) {
				fv_idx_t g = order[i - 1];
				if (cell_new)
					assert_true(cell_new[m->face_cell[2 * g]] < cell_new[m->face_cell[2 * f]]);
				else
					assert_true(g < f);
			}
		}
		if (!bnd)
			want = c->group_size[k] - c->group_bsize[k];
		else if (!key)
			want = c->group_bsize[k];
		if (!bnd || !key)
			assert_int_equal(off[b + 1] - off[b], want);
	}
	free(seen);
}

static void test_face_order(void **state)
{
	fv_mesh_t m;
	fv_coloring_t c;
	(void)state;
	gen(&m, FV_GEN_MIXED, 6, 0.1, 0);
	fv_coloring_init(&c);
	for (int meth = 0; meth < 2; meth++) {
		FV_ASSERT_OK(fv_color_faces(m.n_cells, m.n_faces, m.face_cell, (fv_color_method_t)meth, &c));
		int nk = c.n_colors;
		fv_idx_t *order = malloc(m.n_faces * sizeof *order);
		fv_idx_t *off = malloc(((size_t)(m.n_markers + 1) * nk + 1) * sizeof *off);
		int32_t *key = malloc(m.n_faces * sizeof *key);
		for (fv_idx_t f = 0; f < m.n_faces; f++)
			key[f] = f < m.n_bfaces ? m.face_marker[f] : -5;
		FV_ASSERT_OK(fv_color_face_order(m.n_cells, m.face_cell, &c, NULL, 0, NULL, order, off));
		check_face_order(&m, &c, NULL, 0, NULL, order, off);
		/* markers kept grouped: boundary faces stay sorted by marker */
		FV_ASSERT_OK(fv_color_face_order(m.n_cells, m.face_cell, &c, key, m.n_markers, NULL, order, off));
		check_face_order(&m, &c, key, m.n_markers, NULL, order, off);
		for (fv_idx_t i = 1; i < m.n_bfaces; i++)
			assert_true(m.face_marker[order[i - 1]] <= m.face_marker[order[i]]);
		key[0] = m.n_markers;
		FV_ASSERT_ERR(fv_color_face_order(m.n_cells, m.face_cell, &c, key, m.n_markers, NULL, order, off),
			      FV_ERR_ARG, "boundary face 0");
		free(order);
		free(off);
		free(key);
	}
	fv_coloring_free(&c);
	fv_mesh_free(&m);
}

/* Alg. 9-10 / Giuliani-Krivodonova Table 5b: in the picked group, with
 * faces by new owner, the j-th face joins cells j and N + j; the other
 * groups come by increasing new owner. */
static void test_cell_order(void **state)
{
	static const fv_gen_cells_t kinds[] = {FV_GEN_TET, FV_GEN_MIXED};
	(void)state;
	for (int g = 0; g < 2; g++) {
		fv_mesh_t m;
		fv_coloring_t c;
		int picked;
		gen(&m, kinds[g], 5, 0.1, 0);
		fv_coloring_init(&c);
		FV_ASSERT_OK(fv_color_faces(m.n_cells, m.n_faces, m.face_cell, FV_COLOR_MINIMAL, &c));
		int nk = c.n_colors;
		fv_idx_t *cell_order = malloc(m.n_cells * sizeof *cell_order);
		fv_idx_t *cell_new = malloc(m.n_cells * sizeof *cell_new);
		fv_idx_t *order = malloc(m.n_faces * sizeof *order);
		fv_idx_t *off = malloc((2 * (size_t)nk + 1) * sizeof *off);
		for (int color = -1; color < nk; color++) {
			FV_ASSERT_OK(fv_color_cell_order(m.n_cells, m.n_faces, m.face_cell, &c, color, cell_order,
							 cell_new, &picked));
			if (color < 0)
				for (int k = 0; k < nk; k++)
					assert_true(c.group_size[k] - c.group_bsize[k] <=
						    c.group_size[picked] - c.group_bsize[picked]);
			else
				assert_int_equal(picked, color);
			for (fv_idx_t i = 0; i < m.n_cells; i++) {
				assert_in_range(cell_order[i], 0, m.n_cells - 1);
				assert_int_equal(cell_new[cell_order[i]], i);
			}
			FV_ASSERT_OK(fv_color_face_order(m.n_cells, m.face_cell, &c, NULL, 0, cell_new, order, off));
			check_face_order(&m, &c, NULL, 0, cell_new, order, off);
			fv_idx_t lo = off[nk + picked], n = off[nk + picked + 1] - lo;
			for (fv_idx_t j = 0; j < n; j++) {
				fv_idx_t f = order[lo + j];
				assert_int_equal(cell_new[m.face_cell[2 * f]], j);
				assert_int_equal(cell_new[m.face_cell[2 * f + 1]], n + j);
			}
			/* then the owners of the boundary faces of that colour */
			fv_idx_t b0 = off[picked], nb = off[picked + 1] - b0;
			for (fv_idx_t j = 0; j < nb; j++)
				assert_int_equal(cell_new[m.face_cell[2 * order[b0 + j]]], 2 * n + j);
		}
		FV_ASSERT_ERR(fv_color_cell_order(m.n_cells, m.n_faces, m.face_cell, &c, nk, cell_order, NULL, NULL),
			      FV_ERR_ARG, "colour");
		free(cell_order);
		free(cell_new);
		free(order);
		free(off);
		fv_coloring_free(&c);
		fv_mesh_free(&m);
	}
}

/* Cell colouring by hand: a chain 0-1-2-3 with a ghost 4 beside 0 and 3
 * (ignored: faces to cells >= n_cells are no edges) and boundary faces:
 * two colours, two cells each. */
static void test_cells_by_hand(void **state)
{
	static const fv_idx_t fc[] = {0, -1, 0, 1, 1, 2, 2, 3, 3, 4, 0, 4, 3, -1};
	fv_cell_coloring_t c;
	(void)state;
	fv_cell_coloring_init(&c);
	FV_ASSERT_OK(fv_color_cells(4, 7, fc, &c));
	FV_ASSERT_OK(fv_color_cells_check(4, 7, fc, &c));
	assert_int_equal(c.n_colors, 2);
	assert_int_equal(c.group_off[1], 2);
	assert_int_not_equal(c.color[0], c.color[1]);
	assert_int_equal(c.color[0], c.color[2]);
	/* a wrong colour is found, naming the face */
	c.color[1] = c.color[0];
	assert_int_equal(fv_color_cells_check(4, 7, fc, &c), FV_ERR_ARG);
	assert_non_null(strstr(fv_errmsg(), "face 1"));
	/* with cell 4 counted, the odd cycle 0-1-2-3-4 needs three */
	FV_ASSERT_OK(fv_color_cells(5, 7, fc, &c));
	FV_ASSERT_OK(fv_color_cells_check(5, 7, fc, &c));
	assert_int_equal(c.n_colors, 3);
	FV_ASSERT_OK(fv_color_cells(0, 0, NULL, &c));
	assert_int_equal(c.n_colors, 0);
	fv_cell_coloring_free(&c);
}

/* Cell colouring of generated boxes: valid; within the degeneracy bound
 * (tets 4 neighbours: at most 5 colours; hexes and mixed 6: at most 7),
 * and balanced: no group above 1.25 the mean. A block's owned cells (the
 * first half of the cells) colour alone, the others counting as ghosts. */
static void test_cells_generated(void **state)
{
	static const struct {
		fv_gen_cells_t cells;
		int n, levels, most;
		double perturb;
	} cases[] = {
		{FV_GEN_TET, 6, 0, 5, 0.0}, {FV_GEN_TET, 3, 1, 5, 0.1},   {FV_GEN_HEX, 8, 0, 7, 0.0},
		{FV_GEN_HEX, 4, 1, 7, 0.25}, {FV_GEN_PRISM, 7, 0, 6, 0.1}, {FV_GEN_MIXED, 8, 0, 7, 0.0},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fv_mesh_t m;
		fv_cell_coloring_t c;
		gen(&m, cases[i].cells, cases[i].n, cases[i].perturb, cases[i].levels);
		fv_cell_coloring_init(&c);
		for (int half = 0; half < 2; half++) {
			fv_idx_t n = half ? m.n_cells / 2 : m.n_cells, big = 0;
			FV_ASSERT_OK(fv_color_cells(n, m.n_faces, m.face_cell, &c));
			FV_ASSERT_OK(fv_color_cells_check(n, m.n_faces, m.face_cell, &c));
			assert_in_range(c.n_colors, 2, cases[i].most);
			for (int k = 0; k < c.n_colors; k++)
				big = c.group_off[k + 1] - c.group_off[k] > big ? c.group_off[k + 1] - c.group_off[k] : big;
			assert_true(big <= 1.25 * n / c.n_colors + 1);
			print_message("%-32s %7d cells%s: %d colours, largest group %d (mean %.0f)\n", m.source, (int)n,
				      half ? " (half)" : "", c.n_colors, (int)big, (double)n / c.n_colors);
		}
		fv_cell_coloring_free(&c);
		fv_mesh_free(&m);
	}
}

/* Lines (fv_color_lines): a box of 4 x 40 x 4 hexes 100 times thinner in y
 * than in x and z gives 16 lines of 40 cells stacked in y (each cell's y
 * faces couple 1e4 times more than its others), all cells in lines, the
 * check passing; the cube-shaped cells of an unstretched box, and the
 * perturbed tets of another, give lines of one. */
static void test_lines(void **state)
{
	(void)state;
	for (int stretch = 0; stretch < 3; stretch++) {
		fv_gen_opts_t o;
		fv_mesh_t m;
		fv_cell_coloring_t c;
		fv_gen_opts_default(&o);
		o.cells = stretch == 2 ? FV_GEN_TET : FV_GEN_HEX;
		o.nx = 4, o.ny = 40, o.nz = 4;
		o.perturb = stretch == 2 ? 0.1 : 0.0;
		o.hi[0] = o.hi[2] = 1;
		o.hi[1] = stretch == 1 ? 0.1 : 10; /* cells 0.25 x 0.0025 x 0.25, or 0.25 cubes */
		fv_mesh_init(&m);
		FV_ASSERT_OK(fv_mesh_gen_box(&m, &o));
		FV_ASSERT_OK(fv_mesh_build_faces(&m));
		FV_ASSERT_OK(fv_mesh_compute_geometry(&m));
		fv_idx_t *len = malloc(((size_t)m.n_cells + 1) * sizeof *len), lines = 0, longest = 0, covered = 0;
		assert_non_null(len);
		fv_line_mesh_t lm = {m.n_cells, m.n_cells, m.n_faces, m.face_cell, m.cell_face_off, m.cell_face,
				     m.face_area, m.cell_ctr, 0};
		fv_cell_coloring_init(&c);
		FV_ASSERT_OK(fv_color_lines(&lm, &c, len));
		FV_ASSERT_OK(fv_color_lines_check(&lm, &c, len));
		for (fv_idx_t i = 0; i < m.n_cells; i++)
			if (len[i] > 0) {
				lines++;
				covered += len[i];
				longest = len[i] > longest ? len[i] : longest;
			}
		print_message("%s box: %d cells, %d lines, the longest %d, %d colours\n",
			      stretch == 1 ? "stretched" : stretch ? "tet" : "cube", (int)m.n_cells, (int)lines, (int)longest,
			      c.n_colors);
		assert_int_equal(covered, m.n_cells);
		if (stretch == 1) {
			assert_int_equal(lines, 16);
			assert_int_equal(longest, 40);
			/* numerics.line_cells 16: each chain of 40 cut into 16 + 16 + 8 */
			lm.max_len = 16;
			FV_ASSERT_OK(fv_color_lines(&lm, &c, len));
			FV_ASSERT_OK(fv_color_lines_check(&lm, &c, len));
			lines = longest = 0;
			for (fv_idx_t i = 0; i < m.n_cells; i++)
				if (len[i] > 0) {
					lines++;
					longest = len[i] > longest ? len[i] : longest;
				}
			assert_int_equal(lines, 48);
			assert_int_equal(longest, 16);
		} else
			assert_int_equal(longest, 1);
		free(len);
		fv_cell_coloring_free(&c);
		fv_mesh_free(&m);
	}
}

/* A line that folds back beside itself: links 0-1-2-3 (faces of area 100)
 * where cells 0 and 2 also share a face (area 1), cell 4 weakly joined to
 * 1 and 3. The line is cut before 2, so no face joins two cells of one
 * group off a line (the SA M6 at Gmsh sf 2.1 stopped there). */
static void test_lines_fold(void **state)
{
	(void)state;
	const fv_idx_t fc[] = {0, 1, 1, 2, 0, 2, 2, 3, 1, 4, 3, 4};
	const fv_real_t a[] = {100, 100, 1, 100, 1, 1}; /* x components; y, z 0 below */
	const fv_real_t x[] = {0, 1, 1, 2, 1, 0, 0, 1, 1, (fv_real_t)0.5, 0, 0, 0, 0, 1};
	fv_real_t area[18] = {0};
	fv_idx_t off[6], cf[12], n = 5, nf = 6, len[5];
	memcpy(area, a, sizeof a);
	/* the faces of each cell, in face order */
	for (fv_idx_t c = 0, k = 0; c < n; c++) {
		off[c] = k;
		for (fv_idx_t f = 0; f < nf; f++)
			if (fc[2 * f] == c || fc[2 * f + 1] == c)
				cf[k++] = f;
		off[c + 1] = k;
	}
	fv_line_mesh_t lm = {n, n, nf, fc, off, cf, area, x, 0};
	fv_cell_coloring_t c;
	fv_cell_coloring_init(&c);
	FV_ASSERT_OK(fv_color_lines(&lm, &c, len));
	FV_ASSERT_OK(fv_color_lines_check(&lm, &c, len));
	assert_true(c.color[0] != c.color[2]);
	fv_cell_coloring_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_greedy_by_hand), cmocka_unit_test(test_rings),
		cmocka_unit_test(test_generated),      cmocka_unit_test(test_check_rejects),
		cmocka_unit_test(test_face_order),     cmocka_unit_test(test_cell_order),
		cmocka_unit_test(test_cells_by_hand),  cmocka_unit_test(test_cells_generated),
		cmocka_unit_test(test_lines),          cmocka_unit_test(test_lines_fold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
