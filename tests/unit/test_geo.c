/* SPDX-License-Identifier: MIT */
/* The solver's geometry blob (src/solver/geo.c): with the faces stored by
 * colour group (Alg. 11) it describes the same mesh as in the block's
 * order (boundary faces first with their conditions, each cell's faces
 * closing it, the same faces and areas), every colour group is made of at
 * most two contiguous runs (its boundary and its interior faces) of faces
 * sharing no cell; the cell-to-node lists are the transpose of node_cell;
 * the gather gradient's node weights give the face loop's gradient, exact
 * for linear fields on tets; a split block's border lists hold its border
 * tasks' items; a blob built through a sink (a GPU's memory, section by
 * section) is the host blob byte for byte, each byte put once. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "fvstar/partition.h"
#include "solver/geo.h"

static void gen(fv_mesh_t *m, fv_gen_cells_t cells, int nb, fv_block_t **bl)
{
	fv_gen_opts_t o;
	fv_idx_t off[5];
	int32_t *part;
	fv_gen_opts_default(&o);
	o.cells = cells;
	o.nx = 6, o.ny = 5, o.nz = 4;
	o.perturb = 0.1;
	o.seed = 3;
	fv_mesh_init(m);
	FV_ASSERT_OK(fv_mesh_gen_box(m, &o));
	FV_ASSERT_OK(fv_mesh_prepare(m));
	part = malloc((size_t)m->n_cells * sizeof *part);
	FV_ASSERT_OK(fv_partition_cells(m, nb, FV_PART_LINEAR, 1, part, NULL));
	FV_ASSERT_OK(fv_mesh_renumber(m, part, nb, off, 0, NULL));
	FV_ASSERT_OK(fv_blocks_build(m, off, nb, bl));
	free(part);
}

/* double-precision tolerances, scaled to the precision of the build */
#define TOL(x) ((x) * (FV_REAL_EPS / 2.220446049250313e-16))

static fv_err_t plain_alloc(void *p, size_t bytes, const char *what)
{
	return fv_calloc(p, bytes ? bytes : 1, 1, what);
}

/* Sum of the signed area vectors of each owned cell's faces: zero. */
static void check_closed(const fv_view_t *v)
{
	for (fv_idx_t c = 0; c < v->n_owned; c++) {
		double s[3] = {0, 0, 0}, a = 0;
		for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
			fv_idx_t f = v->cell_face[k];
			assert_true(v->face_cell[2 * f] == c || v->face_cell[2 * f + 1] == c);
			assert_int_equal(v->cell_face_sign[k], v->face_cell[2 * f] == c ? 1 : -1);
			for (int d = 0; d < 3; d++) {
				s[d] += v->cell_face_sign[k] * v->face_area[d * v->n_faces + f];
				a += fabs(v->face_area[d * v->n_faces + f]);
			}
		}
		for (int d = 0; d < 3; d++)
			assert_true(fabs(s[d]) <= TOL(1e-13) * a);
	}
}

static void test_face_order(void **state)
{
	(void)state;
	for (int mixed = 0; mixed < 2; mixed++)
		for (int nb = 1; nb <= 3; nb += 2) {
			fv_mesh_t m;
			fv_block_t *bl;
			gen(&m, mixed ? FV_GEN_MIXED : FV_GEN_TET, nb, &bl);
			int8_t bc[16];
			for (int k = 0; k < 16; k++)
				bc[k] = (int8_t)(k % 3);
			for (int b = 0; b < nb; b++) {
				fv_solver_opts_t o;
				fv_layout_t L0, L1;
				void *g0, *g1;
				fv_geo_colors_t c0, c1;
				fv_solver_opts_default(&o);
				o.marker_bc = bc;
				o.num.coloring = FV_COLOR_MINIMAL;
				o.num.flux_sum = FV_SUM_COLOR;
				FV_ASSERT_OK(fv_geo_build(&bl[b], &o, m.n_markers, plain_alloc, &L0, &g0, &c0));
				o.num.face_order = FV_FACE_ORDER_COLOR;
				o.num.nodes_sum = FV_SUM_ATOMIC;
				FV_ASSERT_OK(fv_geo_build(&bl[b], &o, m.n_markers, plain_alloc, &L1, &g1, &c1));
				fv_view_t v0 = fv_view_make(g0, &L0), v1 = fv_view_make(g1, &L1);
				assert_int_equal(c0.n, c1.n);
				assert_memory_equal(c0.off, c1.off, sizeof c0.off[0] * (size_t)(c0.n + 1));
				assert_int_equal(v1.n_faces, v0.n_faces);
				check_closed(&v0);
				check_closed(&v1);
				/* boundary faces first, with the same conditions in the same multiset */
				int count0[3] = {0, 0, 0}, count1[3] = {0, 0, 0};
				for (fv_idx_t f = 0; f < v1.n_faces; f++)
					assert_int_equal(v1.face_cell[2 * f + 1] < 0, f < v1.n_bfaces);
				for (fv_idx_t f = 0; f < v1.n_bfaces; f++) {
					count0[v0.bface_bc[f]]++;
					count1[v1.bface_bc[f]]++;
				}
				assert_memory_equal(count0, count1, sizeof count0);
				/* the same faces: each face of v1 is a face of v0 with equal
				 * cells, nodes and area (matched through the owner's list) */
				for (fv_idx_t f = 0; f < v1.n_faces; f++) {
					fv_idx_t o1 = v1.face_cell[2 * f], g = -1;
					fv_idx_t cell = o1 < v1.n_owned ? o1 : v1.face_cell[2 * f + 1];
					for (fv_idx_t k = v0.cell_face_off[cell]; k < v0.cell_face_off[cell + 1]; k++) {
						fv_idx_t h = v0.cell_face[k];
						if (v0.face_cell[2 * h] == o1 && v0.face_cell[2 * h + 1] == v1.face_cell[2 * f + 1] &&
						    v0.face_area[h] == v1.face_area[f] &&
						    v0.face_ctr[v0.n_faces + h] == v1.face_ctr[v1.n_faces + f])
							g = h;
					}
					assert_true(g >= 0);
					assert_int_equal(v0.face_node_off[g + 1] - v0.face_node_off[g],
							 v1.face_node_off[f + 1] - v1.face_node_off[f]);
					assert_memory_equal(v0.face_node + v0.face_node_off[g], v1.face_node + v1.face_node_off[f],
							    sizeof(fv_idx_t) * (size_t)(v1.face_node_off[f + 1] - v1.face_node_off[f]));
					if (f < v1.n_bfaces)
						assert_int_equal(v0.bface_bc[g], v1.bface_bc[f]);
				}
				/* colour groups: at most two runs of consecutive faces, no
				 * shared cell inside a group */
				for (int k = 0; k < c1.n; k++) {
					int runs = 1;
					for (fv_idx_t i = c1.off[k] + 1; i < c1.off[k + 1]; i++) {
						assert_true(v1.color_face[i] > v1.color_face[i - 1]);
						runs += v1.color_face[i] != v1.color_face[i - 1] + 1;
					}
					assert_true(runs <= 2);
					char *seen = calloc((size_t)v1.n_cells, 1);
					for (fv_idx_t i = c1.off[k]; i < c1.off[k + 1]; i++)
						for (int s = 0; s < 2; s++) {
							fv_idx_t c = v1.face_cell[2 * v1.color_face[i] + s];
							if (c >= 0) {
								assert_false(seen[c]);
								seen[c] = 1;
							}
						}
					free(seen);
				}
				/* cell_node: the transpose of node_cell */
				assert_true(L1.has_cell_node);
				assert_int_equal(v1.cell_node_off[v1.n_cells], v1.node_cell_off[v1.n_nodes]);
				for (fv_idx_t n = 0; n < v1.n_nodes; n++)
					for (fv_idx_t k = v1.node_cell_off[n]; k < v1.node_cell_off[n + 1]; k++) {
						fv_idx_t c = v1.node_cell[k], hits = 0;
						for (fv_idx_t j = v1.cell_node_off[c]; j < v1.cell_node_off[c + 1]; j++)
							hits += v1.cell_node[j] == n;
						assert_int_equal(hits, 1);
					}
				free(g0);
				free(g1);
			}
			fv_blocks_free(bl, nb);
			fv_mesh_free(&m);
		}
}

/* The gather gradient (node weights) is exact for a linear field on
 * planar faces (tets), and equals the face loop (GQ-F) on any mesh. */
static void test_gradient_weights(void **state)
{
	(void)state;
	for (int mixed = 0; mixed < 2; mixed++) {
		fv_mesh_t m;
		fv_block_t *bl;
		int8_t bc[16] = {0};
		gen(&m, mixed ? FV_GEN_MIXED : FV_GEN_TET, 3, &bl);
		for (int b = 0; b < 3; b++) {
			fv_solver_opts_t o;
			fv_layout_t L;
			void *g;
			fv_geo_colors_t col;
			fv_solver_opts_default(&o);
			o.marker_bc = bc;
			FV_ASSERT_OK(fv_geo_build(&bl[b], &o, m.n_markers, plain_alloc, &L, &g, &col));
			assert_true(L.has_gradient_weights);
			fv_view_t v = fv_view_make(g, &L);
			/* the fields as the solver lays them out (the node values side by
			 * side by default: numerics.node_gather, fv_k_wn) */
			size_t nn = (size_t)v.n_nodes, sn = (size_t)v.sn, nc = (size_t)v.sc;
			fv_real_t *wn = calloc(5 * sn, sizeof *wn), *g1 = calloc(15 * nc, sizeof *g1);
			fv_real_t *g2 = calloc(15 * nc, sizeof *g2);
			const double a[5][3] = {{1, 2, 3}, {-0.5, 0.25, 4}, {0, 0, 1}, {7, -3, 0.5}, {0.1, 0.2, -0.3}};
			for (size_t n = 0; n < nn; n++) {
				const double *x = m.xyz + 3 * (size_t)bl[b].node_global[n];
				for (int q = 0; q < 5; q++)
					wn[fv_k_wn(&v, (fv_idx_t)n, q)] = q + a[q][0] * x[0] + a[q][1] * x[1] + a[q][2] * x[2];
			}
			for (fv_idx_t c = 0; c < v.n_owned; c++)
				fv_k_gradient(&v, wn, g1, c);
			for (fv_idx_t f = 0; f < v.n_faces; f++)
				fv_k_face_gradient(&v, wn, g2, f, 0);
			for (fv_idx_t c = 0; c < v.n_owned; c++) {
				fv_k_gradient_finish(&v, g2, c);
				for (int j = 0; j < 15; j++) {
					double x = g1[j * nc + c], y = g2[j * nc + c];
					assert_true(fabs(x - y) <= TOL(1e-11) * (1 + fabs(y)));
					if (!mixed)
						assert_true(fabs(x - a[j / 3][j % 3]) <= TOL(1e-10));
				}
			}
			free(wn);
			free(g1);
			free(g2);
			free(g);
		}
		fv_blocks_free(bl, 3);
		fv_mesh_free(&m);
	}
}

/* numerics.overlap: a split block's border lists (view.h) hold exactly
 * the items its border tasks select through the kernels' predicates
 * (fv_k_in_part, fv_k_face_flux_part, fv_k_cell_face_border), in
 * ascending order, in the block's face order and in colour order; a block
 * without neighbours or overlap = no keeps none. */
static void check_list(const fv_idx_t *list, fv_idx_t n, fv_idx_t items, const int *want)
{
	fv_idx_t k = 0;
	for (fv_idx_t i = 0; i < items; i++)
		if (want[i]) {
			assert_true(k < n);
			assert_int_equal(list[k], i);
			k++;
		}
	assert_int_equal(k, n);
}

static void test_border_lists(void **state)
{
	(void)state;
	for (int nb = 1; nb <= 3; nb += 2)
		for (int colour = 0; colour < 2; colour++) {
			fv_mesh_t m;
			fv_block_t *bl;
			int8_t bc[16] = {0};
			gen(&m, FV_GEN_MIXED, nb, &bl);
			for (int b = 0; b < nb; b++)
				for (int overlap = 0; overlap < 2; overlap++) {
					fv_solver_opts_t o;
					fv_layout_t L;
					void *g;
					fv_geo_colors_t col;
					fv_solver_opts_default(&o);
					o.marker_bc = bc;
					o.num.overlap = overlap ? FV_OVERLAP_YES : FV_OVERLAP_NO;
					if (colour) {
						o.num.coloring = FV_COLOR_MINIMAL;
						o.num.flux_sum = FV_SUM_COLOR;
						o.num.face_order = FV_FACE_ORDER_COLOR;
					}
					FV_ASSERT_OK(fv_geo_build(&bl[b], &o, m.n_markers, plain_alloc, &L, &g, &col));
					fv_view_t v = fv_view_make(g, &L);
					int split = overlap && bl[b].n_nbr > 0;
					assert_int_equal(L.has_border_lists, split);
					for (int k = 0; k < FV_BORDER_LISTS; k++)
						assert_true(split ? v.border_list[k] != NULL : v.border_list[k] == NULL);
					if (!split) {
						free(g);
						continue;
					}
					fv_idx_t big = v.n_nodes > v.n_faces ? v.n_nodes : v.n_faces;
					int *want = calloc((size_t)big + 1, sizeof *want);
					for (fv_idx_t i = 0; i < v.n_nodes; i++)
						want[i] = fv_k_in_part(v.node_border, i, FV_SPLIT_BORDER);
					check_list(v.border_list[FV_BORDER_NODES], v.n_border[FV_BORDER_NODES], v.n_nodes, want);
					for (fv_idx_t c = 0; c < v.n_owned; c++)
						want[c] = fv_k_in_part(v.cell_border, c, FV_SPLIT_BORDER);
					check_list(v.border_list[FV_BORDER_CELLS], v.n_border[FV_BORDER_CELLS], v.n_owned, want);
					for (fv_idx_t f = 0; f < v.n_faces; f++) {
						fv_idx_t oc, nc;
						want[f] = fv_k_face_owned(&v, f, &oc, &nc) && fv_k_face_border(&v, f);
					}
					check_list(v.border_list[FV_BORDER_FACES], v.n_border[FV_BORDER_FACES], v.n_faces, want);
					assert_true(v.n_border[FV_BORDER_FACES] > 0);
					for (fv_idx_t c = 0; c < v.n_owned; c++)
						want[c] = fv_k_cell_face_border(&v, c);
					check_list(v.border_list[FV_BORDER_FCELLS], v.n_border[FV_BORDER_FCELLS], v.n_owned, want);
					free(want);
					free(g);
				}
			fv_blocks_free(bl, nb);
			fv_mesh_free(&m);
		}
}

/* A sink into host memory that counts the puts of each byte; fails the
 * fail-th put when fail > 0. */
typedef struct counting_sink {
	unsigned char *buf, *times;
	size_t bytes;
	int puts, fail;
} counting_sink_t;

static fv_err_t sink_open(void *arg, size_t bytes)
{
	counting_sink_t *k = arg;
	k->bytes = bytes;
	k->buf = calloc(bytes + 1, 1);
	k->times = calloc(bytes + 1, 1);
	return FV_OK;
}

static fv_err_t sink_put(void *arg, size_t off, const void *src, size_t bytes)
{
	counting_sink_t *k = arg;
	if (++k->puts == k->fail)
		return FV_ERROR(FV_ERR_RUNTIME, "put %d refused", k->puts);
	assert_true(off + bytes <= k->bytes);
	memcpy(k->buf + off, src, bytes);
	for (size_t i = 0; i < bytes; i++)
		k->times[off + i]++;
	return FV_OK;
}

static void test_sink(void **state)
{
	(void)state;
	/* pieces of 7 cells for the gradient weights */
	setenv("FVSTAR_GEO_CHUNK", "7", 1);
	for (int nb = 1; nb <= 3; nb += 2) {
		fv_mesh_t m;
		fv_block_t *bl;
		int8_t bc[16] = {0};
		gen(&m, FV_GEN_MIXED, nb, &bl);
		double *wd = malloc((size_t)m.n_cells * sizeof *wd);
		for (fv_idx_t c = 0; c < m.n_cells; c++)
			wd[c] = 0.01 * (double)(c % 17);
		for (int b = 0; b < nb; b++)
			for (int variant = 0; variant < 4; variant++) {
				fv_solver_opts_t o;
				fv_layout_t L0, L1;
				void *g0;
				fv_geo_colors_t c0, c1;
				fv_solver_opts_default(&o);
				o.marker_bc = bc;
				if (variant == 1) { /* faces in colour order, border lists */
					o.num.coloring = FV_COLOR_MINIMAL;
					o.num.flux_sum = FV_SUM_COLOR;
					o.num.face_order = FV_FACE_ORDER_COLOR;
					o.num.overlap = FV_OVERLAP_YES;
				} else if (variant == 2) { /* implicit lines, wall distances */
					o.num.time_mode = FV_TIME_IMPLICIT;
					o.num.implicit = FV_IMPLICIT_POINT;
					o.num.lines = FV_OVERLAP_YES;
					o.num.overlap = FV_OVERLAP_YES;
					o.sa = 1;
					o.wall_dist = wd;
				} else if (variant == 3) { /* atomic node values: cell nodes, no weights */
					o.num.order = 1;
					o.num.nodes_sum = FV_SUM_ATOMIC;
				}
				FV_ASSERT_OK(fv_geo_build(&bl[b], &o, m.n_markers, plain_alloc, &L0, &g0, &c0));
				counting_sink_t k = {0};
				fv_geo_sink_t sink = {sink_open, sink_put, &k};
				FV_ASSERT_OK(fv_geo_build_to(&bl[b], &o, m.n_markers, &sink, &L1, &c1));
				assert_memory_equal(&L0, &L1, sizeof L0);
				assert_int_equal(k.bytes, L0.bytes);
				for (size_t i = 0; i < k.bytes; i++)
					assert_int_equal(k.times[i], 1);
				assert_memory_equal(k.buf, g0, L0.bytes);
				assert_int_equal(c0.n, c1.n);
				assert_int_equal(c0.n_cell, c1.n_cell);
				assert_memory_equal(c0.off, c1.off, sizeof c0.off);
				assert_memory_equal(c0.cell_off, c1.cell_off, sizeof c0.cell_off);
				assert_memory_equal(c0.bface_of, c1.bface_of, (size_t)bl[b].n_bfaces * sizeof *c0.bface_of);
				/* a put that fails fails the build, whichever it is */
				int n_puts = k.puts;
				free(k.buf);
				free(k.times);
				free(c1.bface_of);
				for (int fail = 1; fail <= n_puts; fail += n_puts / 5 + 1) {
					counting_sink_t kf = {.fail = fail};
					fv_geo_sink_t sf = {sink_open, sink_put, &kf};
					fv_geo_colors_t cf;
					FV_ASSERT_ERR(fv_geo_build_to(&bl[b], &o, m.n_markers, &sf, &L1, &cf), FV_ERR_RUNTIME,
						      "refused");
					free(kf.buf);
					free(kf.times);
					free(cf.bface_of);
				}
				free(g0);
				free(c0.bface_of);
			}
		free(wd);
		fv_blocks_free(bl, nb);
		fv_mesh_free(&m);
	}
	unsetenv("FVSTAR_GEO_CHUNK");
}

static void test_opts_errors(void **state)
{
	fv_solver_opts_t o;
	(void)state;
	fv_solver_opts_default(&o);
	const char *key = NULL;
	FV_ASSERT_OK(fv_numerics_check(&o.num, NULL));
	o.num.nodes_sum = FV_SUM_COLOR;
	FV_ASSERT_ERR(fv_numerics_check(&o.num, &key), FV_ERR_ARG, "nodes_sum = color");
	assert_string_equal(key, "nodes_sum");
	fv_solver_opts_default(&o);
	o.num.gradient = FV_GRAD_LEAST_SQUARES;
	o.num.grad_sum = FV_SUM_ATOMIC;
	FV_ASSERT_ERR(fv_numerics_check(&o.num, &key), FV_ERR_ARG, "needs gradient = green-gauss");
	assert_string_equal(key, "gradient_sum");
	o.num.grad_sum = FV_SUM_AUTO;
	FV_ASSERT_OK(fv_numerics_check(&o.num, NULL));
	o.num.lim_sum = 9;
	FV_ASSERT_ERR(fv_numerics_check(&o.num, &key), FV_ERR_ARG, "limiter_sum");
	assert_string_equal(key, "limiter_sum");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_face_order),
		cmocka_unit_test(test_gradient_weights),
		cmocka_unit_test(test_border_lists),
		cmocka_unit_test(test_sink),
		cmocka_unit_test(test_opts_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
