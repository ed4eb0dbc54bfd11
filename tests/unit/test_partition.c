/* SPDX-License-Identifier: MIT */
/* Partitioning (METIS, Scotch, linear), renumbering (RCM, Hilbert order,
 * RCM in pieces of the Hilbert order, Alg. 2 faces) and
 * per-block local meshes, checked against brute-force recomputation.
 * Run as: tests/unit/test_partition (cmocka; all tests must pass). */
#include "config.h"

#include <math.h>

#include "testutil.h"

#include <sys/stat.h>
#include <unistd.h>

#include "fvstar/output.h"
#include "fvstar/partition.h"
#include "order/sfc.h"
#include "util/threads.h"

#define TOL 1e-12

static const fv_partitioner_t methods[] = {
#ifdef FV_HAVE_METIS
	FV_PART_METIS,
#endif
#ifdef FV_HAVE_SCOTCH
	FV_PART_SCOTCH,
#endif
	FV_PART_LINEAR,
	FV_PART_HILBERT,
	FV_PART_RCB,
};
#define N_METHODS ((int)(sizeof methods / sizeof methods[0]))

static void gen(fv_mesh_t *m, fv_gen_cells_t cells, int nx, int ny, int nz, double perturb)
{
	fv_gen_opts_t o;
	fv_gen_opts_default(&o);
	o.cells = cells;
	o.nx = nx;
	o.ny = ny;
	o.nz = nz;
	o.perturb = perturb;
	o.seed = 11;
	fv_mesh_init(m);
	FV_ASSERT_OK(fv_mesh_gen_box(m, &o));
	FV_ASSERT_OK(fv_mesh_prepare(m));
}

static void gen_mixed(fv_mesh_t *m) { gen(m, FV_GEN_MIXED, 6, 5, 4, 0.1); }
static void gen_tet(fv_mesh_t *m) { gen(m, FV_GEN_TET, 8, 8, 8, 0.1); }

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/* Cells in a random order (fixed seed), then faces and geometry rebuilt:
 * an input whose numbering has no locality at all. */
static void shuffle_cells(fv_mesh_t *m, uint64_t seed)
{
	fv_idx_t nc = m->n_cells, *perm = malloc(nc * sizeof *perm);
	uint8_t *type = malloc(nc);
	fv_idx_t *off = malloc((nc + 1) * sizeof *off), *cn = malloc(m->cell_node_off[nc] * sizeof *cn);
	for (fv_idx_t c = 0; c < nc; c++)
		perm[c] = c;
	for (fv_idx_t c = nc - 1; c > 0; c--) {
		fv_idx_t j = (fv_idx_t)(lcg(&seed) % (uint64_t)(c + 1)), t = perm[c];
		perm[c] = perm[j];
		perm[j] = t;
	}
	off[0] = 0;
	for (fv_idx_t c = 0; c < nc; c++) {
		fv_idx_t o = perm[c], n = m->cell_node_off[o + 1] - m->cell_node_off[o];
		type[c] = m->cell_type[o];
		memcpy(cn + off[c], m->cell_node + m->cell_node_off[o], n * sizeof *cn);
		off[c + 1] = off[c] + n;
	}
	free(m->cell_type);
	free(m->cell_node_off);
	free(m->cell_node);
	m->cell_type = type;
	m->cell_node_off = off;
	m->cell_node = cn;
	free(perm);
	FV_ASSERT_OK(fv_mesh_prepare(m));
}

/* Edge cut from cell_cell (the library counts faces). */
static int64_t brute_cut(const fv_mesh_t *m, const int32_t *part)
{
	int64_t cut = 0;
	for (fv_idx_t c = 0; c < m->n_cells; c++)
		for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
			fv_idx_t d = m->cell_cell[s];
			cut += d > c && part[d] != part[c];
		}
	return cut;
}

static void check_partition(const fv_mesh_t *m, int nb, const int32_t *part, const fv_partition_stats_t *st)
{
	fv_idx_t *count = calloc(nb, sizeof *count), lo = m->n_cells, hi = 0, sum = 0;
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		assert_true(part[c] >= 0 && part[c] < nb);
		count[part[c]]++;
	}
	for (int b = 0; b < nb; b++) {
		assert_true(count[b] > 0);
		lo = count[b] < lo ? count[b] : lo;
		hi = count[b] > hi ? count[b] : hi;
		sum += count[b];
	}
	assert_int_equal(sum, m->n_cells);
	assert_int_equal(st->n_blocks, nb);
	assert_int_equal(st->min_cells, lo);
	assert_int_equal(st->max_cells, hi);
	FV_ASSERT_NEAR(st->imbalance, (double)hi * nb / m->n_cells, TOL);
	assert_int_equal(st->edge_cut, brute_cut(m, part));
	if (nb == 1)
		assert_int_equal(st->edge_cut, 0);
	free(count);
}

static void test_partition_methods(void **state)
{
	static const int nbs[] = {1, 2, 3, 8};
	void (*gens[])(fv_mesh_t *) = {gen_mixed, gen_tet};
	(void)state;
	for (int g = 0; g < 2; g++) {
		fv_mesh_t m;
		gens[g](&m);
		int32_t *part = malloc(m.n_cells * sizeof *part), *again = malloc(m.n_cells * sizeof *again);
		for (int i = 0; i < N_METHODS; i++)
			for (int k = 0; k < 4; k++) {
				fv_partition_stats_t st, st2;
				FV_ASSERT_OK(fv_partition_cells(&m, nbs[k], methods[i], 5, part, &st));
				check_partition(&m, nbs[k], part, &st);
				/* same seed, same partition */
				FV_ASSERT_OK(fv_partition_cells(&m, nbs[k], methods[i], 5, again, &st2));
				assert_memory_equal(part, again, m.n_cells * sizeof *part);
				if (methods[i] == FV_PART_METIS && m.n_cells >= 3000)
					assert_true(st.imbalance < 1.1);
				if (methods[i] == FV_PART_LINEAR)
					for (fv_idx_t c = 1; c < m.n_cells; c++)
						assert_true(part[c] == part[c - 1] || part[c] == part[c - 1] + 1);
				if (nbs[k] > 1 && methods[i] != FV_PART_LINEAR)
					print_message("%-14s %d blocks, method %d: cut %lld imbalance %.3f\n", m.source,
						      nbs[k], (int)methods[i], (long long)st.edge_cut, st.imbalance);
			}
		free(part);
		free(again);
		fv_mesh_free(&m);
	}
}

/* Target weights: speeds 1:3 give blocks of 25% and 75% of the cells
 * within the partitioners' 3% imbalance (plus a cell); 1:1:2:4 as
 * 12.5/12.5/25/50%; equal weights of linear give the unweighted ranges. */
static void test_partition_weighted(void **state)
{
	static const double w13[] = {1, 3}, w1124[] = {1, 1, 2, 4}, w11[] = {5, 5};
	fv_mesh_t m;
	(void)state;
	gen_tet(&m);
	int32_t *part = malloc(m.n_cells * sizeof *part), *plain = malloc(m.n_cells * sizeof *plain);
	for (int i = 0; i < N_METHODS; i++) {
		const double *ws[] = {w13, w1124};
		const int nbs[] = {2, 4};
		for (int k = 0; k < 2; k++) {
			fv_partition_stats_t st;
			double sum = 0;
			fv_idx_t count[4] = {0};
			FV_ASSERT_OK(fv_partition_cells_weighted(&m, nbs[k], methods[i], 5, ws[k], NULL, part, &st));
			for (int b = 0; b < nbs[k]; b++)
				sum += ws[k][b];
			for (fv_idx_t c = 0; c < m.n_cells; c++) {
				assert_true(part[c] >= 0 && part[c] < nbs[k]);
				count[part[c]]++;
			}
			for (int b = 0; b < nbs[k]; b++) {
				double share = (double)count[b] / m.n_cells, want = ws[k][b] / sum;
				print_message("%s method %d weights %d blocks: block %d %.2f%% (target %.2f%%)\n", m.source,
					      (int)methods[i], nbs[k], b, 100 * share, 100 * want);
				assert_true(share <= want * 1.03 + 1.0 / m.n_cells);
				assert_true(st.imbalance <= 1.03 + 1.0 / (want * m.n_cells));
			}
			assert_int_equal(st.edge_cut, brute_cut(&m, part));
		}
		FV_ASSERT_OK(fv_partition_cells(&m, 2, methods[i], 5, plain, NULL));
		if (methods[i] == FV_PART_LINEAR) {
			FV_ASSERT_OK(fv_partition_cells_weighted(&m, 2, methods[i], 5, w11, NULL, part, NULL));
			assert_memory_equal(part, plain, m.n_cells * sizeof *part);
		}
	}
	FV_ASSERT_ERR(fv_partition_cells_weighted(&m, 2, FV_PART_LINEAR, 5, (const double[]){1, 0}, NULL, part, NULL),
		      FV_ERR_ARG, "weight");
	free(part);
	free(plain);
	fv_mesh_free(&m);
}

/* Faces between a cell of group-0 blocks and a cell of the others. */
static int64_t group_cut(const fv_mesh_t *m, const int32_t *part, const int *group)
{
	int64_t cut = 0;
	for (fv_idx_t f = m->n_bfaces; f < m->n_faces; f++)
		cut += group[part[m->face_cell[2 * (size_t)f]]] != group[part[m->face_cell[2 * (size_t)f + 1]]];
	return cut;
}

/* Groups: one GPU block of 80% and 4 CPU blocks of 5%: the shares hold
 * (3% + a cell), and the GPU block meets the CPU blocks along a shorter
 * cut than k-way with the same weights gives (the CPU blocks are cut
 * from one region; METIS here: 296 faces against 347). */
static void test_partition_grouped(void **state)
{
	static const double w[] = {80, 5, 5, 5, 5};
	static const int group[] = {0, 1, 1, 1, 1};
	fv_mesh_t m;
	(void)state;
	gen(&m, FV_GEN_TET, 14, 14, 14, 0.1);
	int32_t *part = malloc(m.n_cells * sizeof *part), *flat = malloc(m.n_cells * sizeof *flat);
	for (int i = 0; i < N_METHODS; i++) {
		fv_partition_stats_t st;
		fv_idx_t count[5] = {0};
		FV_ASSERT_OK(fv_partition_cells_weighted(&m, 5, methods[i], 3, w, group, part, &st));
		FV_ASSERT_OK(fv_partition_cells_weighted(&m, 5, methods[i], 3, w, NULL, flat, NULL));
		for (fv_idx_t c = 0; c < m.n_cells; c++)
			count[part[c]]++;
		for (int b = 0; b < 5; b++)
			assert_true(count[b] <= w[b] / 100 * m.n_cells * 1.03 + 2 && count[b] >= w[b] / 100 * m.n_cells * 0.9);
		assert_int_equal(st.edge_cut, brute_cut(&m, part));
		print_message("%s method %d: GPU/CPU cut %lld grouped, %lld k-way; total cut %lld\n", m.source,
			      (int)methods[i], (long long)group_cut(&m, part, group), (long long)group_cut(&m, flat, group),
			      (long long)st.edge_cut);
		if (methods[i] == FV_PART_METIS) /* Scotch here: 334 against 340, too close to hold everywhere */
			assert_true(group_cut(&m, part, group) <= group_cut(&m, flat, group));
	}
	free(part);
	free(flat);
	fv_mesh_free(&m);
}

/* One GPU beside CPU cores: a GPU block worth 640 CPU blocks and 4 CPU
 * blocks (each 1/644 of the cells, 25.6 here). The CPU region is grown to
 * its share, then cut in 4 (each within half and 3% + 2 cells of its
 * share); a graph partitioner's 3% tolerance alone let the GPU block take
 * the whole region and left each CPU block a single cell. Without groups,
 * METIS gets a tolerance under half the smallest share: 64:1 gives the
 * small block at least half of its 1.5%. */
static void test_partition_small_share(void **state)
{
	static const double w[] = {640, 1, 1, 1, 1}, w641[] = {64, 1};
	static const int group[] = {0, 1, 1, 1, 1};
	fv_mesh_t m;
	(void)state;
	gen(&m, FV_GEN_TET, 14, 14, 14, 0.1);
	int32_t *part = malloc(m.n_cells * sizeof *part);
	for (int i = 0; i < N_METHODS; i++) {
		fv_idx_t count[5] = {0}, region = 0;
		if (methods[i] == FV_PART_LINEAR || methods[i] == FV_PART_HILBERT || methods[i] == FV_PART_RCB)
			continue; /* ranges or bisections of the exact shares: no groups */
		FV_ASSERT_OK(fv_partition_cells_weighted(&m, 5, methods[i], 3, w, group, part, NULL));
		for (fv_idx_t c = 0; c < m.n_cells; c++)
			count[part[c]]++;
		for (int b = 1; b < 5; b++) {
			double want = w[b] / 644 * m.n_cells;
			print_message("%s method %d: CPU block %d %d cells (target %.1f)\n", m.source, (int)methods[i], b,
				      (int)count[b], want);
			assert_true(count[b] >= 0.5 * want && count[b] <= want * 1.03 + 2);
			region += count[b];
		}
		assert_int_equal(region, (fv_idx_t)(4.0 / 644 * m.n_cells + 0.5));
		if (methods[i] == FV_PART_METIS) {
			fv_idx_t n1 = 0;
			FV_ASSERT_OK(fv_partition_cells_weighted(&m, 2, methods[i], 3, w641, NULL, part, NULL));
			for (fv_idx_t c = 0; c < m.n_cells; c++)
				n1 += part[c] == 1;
			print_message("%s METIS 64:1 without groups: small block %d cells (target %.1f)\n", m.source,
				      (int)n1, m.n_cells / 65.0);
			assert_true(n1 >= 0.5 * m.n_cells / 65.0 && n1 <= m.n_cells / 65.0 * 1.03 + 2);
		}
	}
	free(part);
	fv_mesh_free(&m);
}

/* fv_mesh_renumber takes the faces from the old ones (fv_mesh_rebuild_faces):
 * the connectivity and the geometry are bit for bit those that the hash
 * of the renumbered cells' nodes (fv_mesh_prepare) builds, on mixed cells
 * with boundary markers, cut into 3 blocks. */
/* The geometric partitioners see the centroids, not the numbering: a
 * shuffled mesh gets the same cut, where linear gets blocks in pieces;
 * their cuts stay within 2.5x METIS's (the M6 medium: hilbert 2.3-4.9x,
 * rcb 1.7-1.9x, METIS 3809 faces at 2 blocks). */
static void test_partition_geometric(void **state)
{
	static const int nbs[] = {2, 4, 8};
	static const fv_partitioner_t geo[] = {FV_PART_HILBERT, FV_PART_RCB};
	fv_mesh_t m, sh;
	(void)state;
	gen(&m, FV_GEN_TET, 14, 14, 14, 0.1);
	gen(&sh, FV_GEN_TET, 14, 14, 14, 0.1);
	shuffle_cells(&sh, 7);
	int32_t *part = malloc(m.n_cells * sizeof *part);
	for (int k = 0; k < 3; k++) {
		fv_partition_stats_t st, ss, lin;
		int64_t ref = 0;
#ifdef FV_HAVE_METIS
		FV_ASSERT_OK(fv_partition_cells(&m, nbs[k], FV_PART_METIS, 1, part, &st));
		ref = st.edge_cut;
#endif
		FV_ASSERT_OK(fv_partition_cells(&sh, nbs[k], FV_PART_LINEAR, 1, part, &lin));
		for (int i = 0; i < 2; i++) {
			FV_ASSERT_OK(fv_partition_cells(&m, nbs[k], geo[i], 1, part, &st));
			check_partition(&m, nbs[k], part, &st);
			FV_ASSERT_OK(fv_partition_cells(&sh, nbs[k], geo[i], 1, part, &ss));
			check_partition(&sh, nbs[k], part, &ss);
			print_message("%d blocks, %s: cut %lld, shuffled %lld (linear %lld, metis %lld)\n", nbs[k],
				      fv_partitioner_name(geo[i]), (long long)st.edge_cut, (long long)ss.edge_cut,
				      (long long)lin.edge_cut, (long long)ref);
			assert_int_equal(st.edge_cut, ss.edge_cut);
			assert_true(5 * ss.edge_cut < lin.edge_cut);
			assert_true(st.imbalance <= 1.0 + (double)nbs[k] / m.n_cells);
			if (ref > 0)
				assert_true(st.edge_cut <= 2.5 * (double)ref);
		}
	}
	free(part);
	fv_mesh_free(&m);
	fv_mesh_free(&sh);
}

static void test_renumber_rebuild_faces(void **state)
{
	fv_mesh_t m;
	fv_idx_t off[4];
	(void)state;
	gen(&m, FV_GEN_MIXED, 7, 6, 5, 0.15);
	int32_t *part = malloc(m.n_cells * sizeof *part);
	FV_ASSERT_OK(fv_partition_cells(&m, 3, methods[0], 5, part, NULL));
	FV_ASSERT_OK(fv_mesh_renumber(&m, part, 3, off, 0, NULL));
	fv_idx_t nf = m.n_faces, nb = m.n_bfaces, ns = m.cell_face_off[m.n_cells], nfn = m.face_node_off[nf];
	fv_idx_t *fc = malloc(2 * nf * sizeof *fc), *fno = malloc((nf + 1) * sizeof *fno),
		 *fn = malloc(nfn * sizeof *fn), *cf = malloc(ns * sizeof *cf), *cc = malloc(ns * sizeof *cc),
		 *mfo = malloc((m.n_markers + 1) * sizeof *mfo);
	int32_t *fm = malloc((nb + 1) * sizeof *fm);
	int8_t *sg = malloc(ns);
	double *vol = malloc(m.n_cells * sizeof *vol), *area = malloc(3 * nf * sizeof *area);
	memcpy(fc, m.face_cell, 2 * nf * sizeof *fc);
	memcpy(fno, m.face_node_off, (nf + 1) * sizeof *fno);
	memcpy(fn, m.face_node, nfn * sizeof *fn);
	memcpy(cf, m.cell_face, ns * sizeof *cf);
	memcpy(cc, m.cell_cell, ns * sizeof *cc);
	memcpy(mfo, m.marker_face_off, (m.n_markers + 1) * sizeof *mfo);
	memcpy(fm, m.face_marker, nb * sizeof *fm);
	memcpy(sg, m.cell_face_sign, ns);
	memcpy(vol, m.cell_vol, m.n_cells * sizeof *vol);
	memcpy(area, m.face_area, 3 * nf * sizeof *area);
	FV_ASSERT_OK(fv_mesh_prepare(&m)); /* the hash of the nodes, on the renumbered cells */
	assert_int_equal(m.n_faces, nf);
	assert_int_equal(m.n_bfaces, nb);
	assert_memory_equal(m.face_cell, fc, 2 * nf * sizeof *fc);
	assert_memory_equal(m.face_node_off, fno, (nf + 1) * sizeof *fno);
	assert_memory_equal(m.face_node, fn, nfn * sizeof *fn);
	assert_memory_equal(m.cell_face, cf, ns * sizeof *cf);
	assert_memory_equal(m.cell_cell, cc, ns * sizeof *cc);
	assert_memory_equal(m.marker_face_off, mfo, (m.n_markers + 1) * sizeof *mfo);
	assert_memory_equal(m.face_marker, fm, nb * sizeof *fm);
	assert_memory_equal(m.cell_face_sign, sg, ns);
	assert_memory_equal(m.cell_vol, vol, m.n_cells * sizeof *vol);
	assert_memory_equal(m.face_area, area, 3 * nf * sizeof *area);
	print_message("%s: %d faces (%d boundary, %d markers) rebuilt as hashed\n", m.source, (int)nf, (int)nb,
		      m.n_markers);
	free(fc), free(fno), free(fn), free(cf), free(cc), free(mfo), free(fm), free(sg), free(vol), free(area);
	free(part);
	fv_mesh_free(&m);
}

/* As many blocks as cells: every block must still get a cell. */
static void test_partition_tiny(void **state)
{
	fv_mesh_t m;
	(void)state;
	gen(&m, FV_GEN_HEX, 2, 2, 2, 0);
	int32_t part[8];
	for (int i = 0; i < N_METHODS; i++)
		for (int nb = 5; nb <= 8; nb++) {
			fv_partition_stats_t st;
			FV_ASSERT_OK(fv_partition_cells(&m, nb, methods[i], 1, part, &st));
			check_partition(&m, nb, part, &st);
		}
	fv_mesh_free(&m);
}

static void test_partition_errors(void **state)
{
	fv_mesh_t m, raw;
	fv_gen_opts_t o;
	int32_t *part;
	(void)state;
	gen_mixed(&m);
	part = malloc(m.n_cells * sizeof *part);
	FV_ASSERT_ERR(fv_partition_cells(&m, 0, FV_PART_LINEAR, 1, part, NULL), FV_ERR_ARG, "blocks");
	FV_ASSERT_ERR(fv_partition_cells(&m, m.n_cells + 1, FV_PART_METIS, 1, part, NULL), FV_ERR_ARG,
		      "blocks <= cells");
	FV_ASSERT_ERR(fv_partition_cells(&m, 2, (fv_partitioner_t)7, 1, part, NULL), FV_ERR_ARG,
		      "unknown partitioner");
#ifndef FV_HAVE_SCOTCH
	FV_ASSERT_ERR(fv_partition_cells(&m, 2, FV_PART_SCOTCH, 1, part, NULL), FV_ERR_ARG,
		      "reconfigure with --with-scotch");
#endif
#ifndef FV_HAVE_METIS
	FV_ASSERT_ERR(fv_partition_cells(&m, 2, FV_PART_METIS, 1, part, NULL), FV_ERR_ARG,
		      "reconfigure with --with-metis");
#endif
	/* stats are optional */
	FV_ASSERT_OK(fv_partition_cells(&m, m.n_cells, FV_PART_LINEAR, 1, part, NULL));
	fv_gen_opts_default(&o);
	fv_mesh_init(&raw);
	FV_ASSERT_OK(fv_mesh_gen_box(&raw, &o));
	FV_ASSERT_ERR(fv_partition_cells(&raw, 2, FV_PART_LINEAR, 1, part, NULL), FV_ERR_ARG, "fv_mesh_prepare");
	fv_mesh_free(&raw);
	free(part);
	fv_mesh_free(&m);
}

/* Index jumps over the interior faces inside blocks (block[c] per cell). */
static void jumps(const fv_mesh_t *m, const int32_t *block, int64_t *bw, double *mean)
{
	int64_t sum = 0, n = 0;
	*bw = 0;
	for (fv_idx_t f = m->n_bfaces; f < m->n_faces; f++) {
		fv_idx_t a = m->face_cell[2 * f], b = m->face_cell[2 * f + 1];
		if (block[a] != block[b])
			continue;
		int64_t j = llabs((long long)b - a);
		*bw = j > *bw ? j : *bw;
		sum += j;
		n++;
	}
	*mean = n ? (double)sum / n : 0.0;
}

/* A cell's key: its type and the sums of its node coordinates in VTK
 * order, computed the same way before and after renumbering (the library's
 * centroids are not: they depend on face orientation), so bitwise equal;
 * distinct on these meshes (checked). Sorting by it matches old and new
 * cells. */
typedef struct cell_key {
	double s[4];
	fv_idx_t c;
} cell_key_t;

static int cmp_key(const void *a, const void *b)
{
	const cell_key_t *x = a, *y = b;
	for (int d = 0; d < 4; d++)
		if (x->s[d] != y->s[d])
			return x->s[d] < y->s[d] ? -1 : 1;
	return 0;
}

static cell_key_t *sorted_keys(const fv_mesh_t *m)
{
	cell_key_t *k = calloc(m->n_cells, sizeof *k);
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		k[c].c = c;
		k[c].s[0] = m->cell_type[c];
		for (fv_idx_t i = m->cell_node_off[c]; i < m->cell_node_off[c + 1]; i++)
			for (int d = 0; d < 3; d++)
				k[c].s[d + 1] += m->xyz[3 * m->cell_node[i] + d];
	}
	qsort(k, m->n_cells, sizeof *k, cmp_key);
	return k;
}

/* new cell of each old cell */
static fv_idx_t *match_cells(const fv_mesh_t *old, const fv_mesh_t *m)
{
	cell_key_t *ko = sorted_keys(old), *kn = sorted_keys(m);
	fv_idx_t *map = malloc(m->n_cells * sizeof *map);
	assert_int_equal(old->n_cells, m->n_cells);
	for (fv_idx_t i = 0; i < m->n_cells; i++) {
		assert_int_equal(cmp_key(&ko[i], &kn[i]), 0);
		if (i > 0)
			assert_true(cmp_key(&kn[i - 1], &kn[i]) < 0);
		map[ko[i].c] = kn[i].c;
	}
	free(ko);
	free(kn);
	return map;
}

/* Boundary faces first by marker; interior faces numbered in order of
 * first sight walking cells, and each cell's faces, in order (Alg. 2). */
static void check_face_order(const fv_mesh_t *m)
{
	fv_idx_t next = m->n_bfaces;
	for (fv_idx_t f = 0; f < m->n_faces; f++)
		assert_true(f < m->n_bfaces ? m->face_cell[2 * f + 1] < 0
					    : m->face_cell[2 * f] < m->face_cell[2 * f + 1]);
	for (fv_idx_t f = 1; f < m->n_bfaces; f++)
		assert_true(m->face_marker[f - 1] <= m->face_marker[f]);
	for (fv_idx_t c = 0; c < m->n_cells; c++)
		for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
			fv_idx_t f = m->cell_face[s];
			if (f >= m->n_bfaces && f >= next) {
				assert_int_equal(f, next);
				next++;
			}
		}
	assert_int_equal(next, m->n_faces);
}

static void mesh_totals(const fv_mesh_t *m, double *vol, double *area)
{
	*vol = 0;
	for (fv_idx_t c = 0; c < m->n_cells; c++)
		*vol += m->cell_vol[c];
	for (int k = 0; k < m->n_markers; k++) {
		double av[3];
		fv_mesh_marker_area(m, k, av, &area[k]);
	}
}

/* Renumbers a copy of old (rebuilt from the same cells) and checks it. */
/* m is old renumbered: its cell c is old's cell cell_orig[c] (same type,
 * nodes old's node_orig of its nodes, same coordinates), numbered as old
 * numbers it, and the mesh checksum does not change. */
static void check_file_order(const fv_mesh_t *m, const fv_mesh_t *old)
{
	fv_idx_t *cells, *nodes;
	fv_mesh_id_t a, b;
	char name[96];
	assert_non_null(m->cell_orig);
	assert_non_null(m->node_orig);
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		fv_idx_t o = m->cell_orig[c], k0 = m->cell_node_off[c], j0 = old->cell_node_off[o];
		assert_int_equal(m->cell_type[c], old->cell_type[o]);
		assert_int_equal(m->cell_node_off[c + 1] - k0, old->cell_node_off[o + 1] - j0);
		for (fv_idx_t k = 0; k < m->cell_node_off[c + 1] - k0; k++) {
			fv_idx_t v = m->cell_node[k0 + k], w = old->cell_node[j0 + k];
			assert_int_equal(m->node_orig[v], fv_mesh_node_orig(old, w));
			assert_memory_equal(m->xyz + 3 * (size_t)v, old->xyz + 3 * (size_t)w, 3 * sizeof(double));
			assert_true(fv_mesh_node_tag(m, v) == fv_mesh_node_tag(old, w));
		}
		assert_true(fv_mesh_cell_tag(m, c) == fv_mesh_cell_tag(old, o));
	}
	FV_ASSERT_OK(fv_mesh_file_cells(m, &cells));
	FV_ASSERT_OK(fv_mesh_file_nodes(m, &nodes));
	for (fv_idx_t i = 0; i < m->n_cells; i++)
		assert_int_equal(m->cell_orig[cells[i]], i);
	for (fv_idx_t i = 0; i < m->n_nodes; i++)
		assert_int_equal(m->node_orig[nodes[i]], i);
	free(cells);
	free(nodes);
	FV_ASSERT_OK(fv_mesh_identity(m, &a));
	FV_ASSERT_OK(fv_mesh_identity(old, &b));
	assert_true(a.n_cells == b.n_cells && a.n_nodes == b.n_nodes && a.hash == b.hash);
	/* messages name the file's element (generated meshes: from 1) */
	fv_mesh_cell_name(m, 0, name, sizeof name);
	{
		char want[64];
		snprintf(want, sizeof want, "element %lld", (long long)fv_mesh_cell_tag(old, m->cell_orig[0]));
		assert_string_equal(name, want);
	}
}

static void check_renumber(fv_mesh_t *m, int nb, const int32_t *part, fv_order_stats_t *st)
{
	fv_mesh_t old;
	fv_idx_t *block_off = malloc((nb + 1) * sizeof *block_off), *count = calloc(nb + 1, sizeof *count);
	double vol0, vol1, area0[8], area1[8];
	int64_t bw;
	double mean;

	/* keep the old mesh for comparison: the same cells, prepared again */
	fv_mesh_init(&old);
	FV_ASSERT_OK(fv_mesh_alloc(&old, m->n_nodes, m->n_cells, m->cell_node_off[m->n_cells], m->n_belems,
				   m->belem_node_off[m->n_belems]));
	memcpy(old.xyz, m->xyz, 3 * m->n_nodes * sizeof *old.xyz);
	memcpy(old.cell_type, m->cell_type, m->n_cells);
	memcpy(old.cell_node_off, m->cell_node_off, (m->n_cells + 1) * sizeof(fv_idx_t));
	memcpy(old.cell_node, m->cell_node, m->cell_node_off[m->n_cells] * sizeof(fv_idx_t));
	memcpy(old.belem_type, m->belem_type, m->n_belems);
	memcpy(old.belem_node_off, m->belem_node_off, (m->n_belems + 1) * sizeof(fv_idx_t));
	memcpy(old.belem_node, m->belem_node, m->belem_node_off[m->n_belems] * sizeof(fv_idx_t));
	memcpy(old.belem_marker, m->belem_marker, m->n_belems * sizeof(int32_t));
	for (int k = 0; k < m->n_markers; k++) {
		int idx;
		FV_ASSERT_OK(fv_mesh_marker(&old, m->markers[k].name, &idx));
	}
	FV_ASSERT_OK(fv_mesh_prepare(&old));
	assert_true(m->n_markers <= 8);
	mesh_totals(&old, &vol0, area0);

	FV_ASSERT_OK(fv_mesh_renumber(m, part, nb, block_off, 0, st));
	jumps(&old, part, &bw, &mean);
	assert_int_equal(st->bandwidth_before, bw);
	FV_ASSERT_NEAR(st->mean_jump_before, mean, TOL);
	{
		int32_t *nb_of = malloc(((size_t)m->n_cells + 1) * sizeof *nb_of);
		for (int b = 0; b < nb; b++)
			for (fv_idx_t c = block_off[b]; c < block_off[b + 1]; c++)
				nb_of[c] = b;
		jumps(m, nb_of, &bw, &mean);
		free(nb_of);
	}
	assert_int_equal(st->bandwidth_after, bw);
	FV_ASSERT_NEAR(st->mean_jump_after, mean, TOL);

	assert_int_equal(m->n_cells, old.n_cells);
	assert_int_equal(m->n_nodes, old.n_nodes);
	assert_int_equal(m->n_faces, old.n_faces);
	assert_int_equal(m->n_bfaces, old.n_bfaces);
	mesh_totals(m, &vol1, area1);
	FV_ASSERT_NEAR(vol1, vol0, TOL);
	for (int k = 0; k < m->n_markers; k++) {
		assert_int_equal(m->marker_face_off[k + 1] - m->marker_face_off[k],
				 old.marker_face_off[k + 1] - old.marker_face_off[k]);
		FV_ASSERT_NEAR(area1[k], area0[k], TOL);
	}

	/* block ranges: sizes of the partition, each old cell in its block's */
	for (fv_idx_t c = 0; c < m->n_cells; c++)
		count[part[c] + 1]++;
	for (int b = 0; b < nb; b++)
		count[b + 1] += count[b];
	assert_memory_equal(block_off, count, (nb + 1) * sizeof *count);
	{
		fv_idx_t *map = match_cells(&old, m);
		for (fv_idx_t c = 0; c < m->n_cells; c++) {
			assert_true(map[c] >= block_off[part[c]] && map[c] < block_off[part[c] + 1]);
			assert_int_equal(m->cell_type[map[c]], old.cell_type[c]);
		}
		free(map);
	}
	/* nodes by first use */
	{
		fv_idx_t next = 0;
		for (fv_idx_t i = 0; i < m->cell_node_off[m->n_cells]; i++) {
			assert_true(m->cell_node[i] <= next);
			next += m->cell_node[i] == next;
		}
	}
	check_face_order(m);
	check_file_order(m, &old);
	fv_mesh_free(&old);
	free(block_off);
	free(count);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* Bandwidth over faces inside blocks; part is of the renumbered mesh. */
static int64_t intra_block_bandwidth(const fv_mesh_t *m, const int32_t *part)
{
	int64_t bw = 0;
	for (fv_idx_t f = m->n_bfaces; f < m->n_faces; f++) {
		fv_idx_t o = m->face_cell[2 * f], n = m->face_cell[2 * f + 1];
		if (part[o] == part[n] && n - o > bw)
			bw = n - o;
	}
	return bw;
}

static void test_renumber(void **state)
{
	(void)state;
	for (int g = 0; g < 2; g++) {
		for (int i = 0; i < N_METHODS; i++) {
			static const int nbs[] = {1, 3, 8};
			for (int k = 0; k < 3; k++) {
				fv_mesh_t m;
				fv_order_stats_t st;
				int32_t *part;
				(g ? gen_tet : gen_mixed)(&m);
				shuffle_cells(&m, 99 + k);
				part = malloc(m.n_cells * sizeof *part);
				/* linear on a shuffled mesh: blocks in many pieces */
				FV_ASSERT_OK(fv_partition_cells(&m, nbs[k], methods[i], 3, part, NULL));
				check_renumber(&m, nbs[k], part, &st);
				/* the cells are now block by block, in block order */
				qsort(part, m.n_cells, sizeof *part, cmp_i32);
				print_message("%-14s %d blocks, method %d: bandwidth %lld -> %lld, mean jump %.1f -> %.1f\n",
					      m.source, nbs[k], (int)methods[i], (long long)st.bandwidth_before,
					      (long long)st.bandwidth_after, st.mean_jump_before, st.mean_jump_after);
				/* the statistics count faces inside blocks, so RCM shows in
				 * them. Linear blocks of a shuffled mesh are scattered all
				 * over it, so only one is judged. */
				if (nbs[k] == 1 || methods[i] != FV_PART_LINEAR)
					assert_true(st.bandwidth_after < st.bandwidth_before);
				if (methods[i] != FV_PART_LINEAR || nbs[k] == 1) {
					assert_true(st.mean_jump_after < st.mean_jump_before);
					assert_true(intra_block_bandwidth(&m, part) < st.bandwidth_before / 2);
				}
				free(part);
				fv_mesh_free(&m);
			}
		}
	}
}

static void check_blocks(const fv_mesh_t *m, const fv_idx_t *off, int nb, const fv_block_t *bl);

#ifdef _OPENMP
#include <omp.h>
/* t threads for the loops that follow; 0: as many as at the start */
static void set_threads(int t)
{
	static int all = 0;
	if (!all)
		all = omp_get_max_threads();
	omp_set_num_threads(t > 0 ? t : all);
}
#else
static void set_threads(int t) { (void)t; }
#endif

/* The Hilbert curve on a grid of 8^3: every point once, and each step to
 * a face neighbour (what makes a range of keys a compact region). */
static void test_hilbert_key(void **state)
{
	enum { B = 3, N = 1 << B };
	int32_t at[N * N * N][3];
	uint8_t seen[N * N * N] = {0};
	(void)state;
	for (uint32_t x = 0; x < N; x++)
		for (uint32_t y = 0; y < N; y++)
			for (uint32_t z = 0; z < N; z++) {
				uint32_t p[3] = {x, y, z};
				uint64_t k = fv_hilbert_key(p, B);
				assert_true(k < N * N * N);
				assert_false(seen[k]);
				seen[k] = 1;
				at[k][0] = (int32_t)x, at[k][1] = (int32_t)y, at[k][2] = (int32_t)z;
			}
	for (int k = 1; k < N * N * N; k++)
		assert_int_equal(abs(at[k][0] - at[k - 1][0]) + abs(at[k][1] - at[k - 1][1]) + abs(at[k][2] - at[k - 1][2]),
				 1);
	{
		uint32_t o[3] = {0, 0, 0}, far[3] = {(1u << 21) - 1, 0, 0};
		assert_true(fv_hilbert_key(o, 21) == 0);
		assert_true(fv_hilbert_key(far, 21) == ((uint64_t)1 << 63) - 1); /* the curve ends at a corner's neighbour */
	}
}

typedef struct {
	int32_t block;
	uint64_t key;
	fv_idx_t cell;
} hkey_t;

static int cmp_hkey(const void *a, const void *b)
{
	const hkey_t *x = a, *y = b;
	if (x->block != y->block)
		return x->block < y->block ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->cell < y->cell ? -1 : x->cell > y->cell;
}

/* fv_order_hilbert against keys of fv_hilbert_key sorted by qsort on
 * (block, key, cell), blocks 0 and 2 of 3 used (block 1's positions left
 * alone); the same on 1 and 3 threads (above FV_PAR_MIN cells, and the
 * used cells over 2^16: the radix passes in two pieces). */
static void test_order_hilbert(void **state)
{
	fv_mesh_t m;
	(void)state;
	gen(&m, FV_GEN_TET, 28, 28, 24, 0.2); /* 112,896 cells, about 75,000 used */
	shuffle_cells(&m, 5);
	fv_idx_t nc = m.n_cells, off[4] = {0};
	int32_t *blk = malloc(nc * sizeof *blk);
	fv_idx_t *perm = malloc(nc * sizeof *perm), *perm3 = malloc(nc * sizeof *perm3);
	fv_idx_t *inv = malloc(nc * sizeof *inv);
	hkey_t *ref = malloc(nc * sizeof *ref);
	uint8_t use[3] = {1, 0, 1};
	double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, side = 0, scale;
	uint64_t seed = 3;
	for (fv_idx_t c = 0; c < nc; c++) {
		blk[c] = (int32_t)(lcg(&seed) % 3);
		off[blk[c] + 1]++;
	}
	for (int b = 0; b < 3; b++)
		off[b + 1] += off[b];
	for (fv_idx_t c = 0; c < nc; c++)
		for (int d = 0; d < 3 && use[blk[c]]; d++) {
			double v = m.cell_ctr[(size_t)d * nc + c];
			lo[d] = v < lo[d] ? v : lo[d];
			hi[d] = v > hi[d] ? v : hi[d];
		}
	for (int d = 0; d < 3; d++)
		side = hi[d] - lo[d] > side ? hi[d] - lo[d] : side;
	scale = ((double)(1u << 21) - 1) / side;
	fv_idx_t n = 0;
	for (fv_idx_t c = 0; c < nc; c++) {
		uint32_t q[3];
		if (!use[blk[c]])
			continue;
		for (int d = 0; d < 3; d++) {
			double g = (m.cell_ctr[(size_t)d * nc + c] - lo[d]) * scale;
			q[d] = g <= 0 ? 0 : g >= (double)((1u << 21) - 1) ? (1u << 21) - 1 : (uint32_t)g;
		}
		ref[n++] = (hkey_t){blk[c], fv_hilbert_key(q, 21), c};
	}
	qsort(ref, (size_t)n, sizeof *ref, cmp_hkey);
	for (int t = 1; t <= 3; t += 2) {
		fv_idx_t *p = t == 1 ? perm : perm3;
		double sec[2] = {-1, -1};
		set_threads(t);
		for (fv_idx_t i = 0; i < nc; i++)
			p[i] = -7, inv[i] = -7;
		FV_ASSERT_OK(fv_order_hilbert(&m, blk, 3, off, use, p, inv, sec));
		assert_true(sec[0] >= 0 && sec[1] >= 0);
		fv_idx_t k = 0;
		for (int b = 0; b < 3; b++)
			for (fv_idx_t i = off[b]; i < off[b + 1]; i++) {
				if (!use[b]) {
					assert_int_equal(p[i], -7);
					continue;
				}
				assert_int_equal(p[i], ref[k].cell);
				assert_int_equal(inv[p[i]], i);
				k++;
			}
		assert_int_equal(k, n);
	}
	set_threads(0);
	assert_memory_equal(perm, perm3, nc * sizeof *perm);
	/* the whole mesh (block NULL), as the hilbert partitioner asks */
	{
		fv_idx_t whole[2] = {0, nc};
		FV_ASSERT_OK(fv_order_hilbert(&m, NULL, 1, whole, NULL, perm, NULL, NULL));
		for (fv_idx_t i = 0; i < nc; i++)
			inv[perm[i]] = i;
		for (fv_idx_t c = 0; c < nc; c++)
			assert_true(inv[c] >= 0 && inv[c] < nc);
	}
	free(blk);
	free(perm);
	free(perm3);
	free(inv);
	free(ref);
	fv_mesh_free(&m);
}

/* The cells' order after fv_mesh_renumber of a fresh shuffled tet box
 * into nb blocks under FVSTAR_ORDER=order: the mesh's cell_orig. */
static fv_idx_t *order_with(const char *order, int nb, fv_order_stats_t *st)
{
	fv_mesh_t m;
	fv_idx_t *orig;
	int32_t *part;
	gen_tet(&m);
	shuffle_cells(&m, 77);
	part = malloc(m.n_cells * sizeof *part);
	for (fv_idx_t c = 0; c < m.n_cells; c++)
		part[c] = (int32_t)((c * 7) % nb);
	setenv("FVSTAR_ORDER", order, 1);
	check_renumber(&m, nb, part, st);
	unsetenv("FVSTAR_ORDER");
	orig = malloc(m.n_cells * sizeof *orig);
	for (fv_idx_t c = 0; c < m.n_cells; c++)
		orig[c] = fv_mesh_cell_orig(&m, c);
	free(part);
	fv_mesh_free(&m);
	return orig;
}

/* FVSTAR_ORDER: hilbert and chunks renumber as check_renumber wants
 * (blocks, faces, nodes); a piece as large as the block is RCM itself, so
 * chunks:N of N >= the cells gives RCM's order, and smaller pieces
 * another; auto on a small mesh is RCM (digests hold); every order cuts
 * the mean jump of the shuffled mesh; bad values are errors. */
static void test_renumber_orders(void **state)
{
	fv_order_stats_t st;
	(void)state;
	fv_idx_t *rcm = order_with("rcm", 2, &st), *o;
	fv_idx_t nc = 8 * 8 * 8 * 6;
	o = order_with("auto", 2, &st);
	assert_memory_equal(o, rcm, nc * sizeof *o);
	free(o);
	o = order_with("chunks:100000", 2, &st);
	assert_memory_equal(o, rcm, nc * sizeof *o);
	free(o);
	o = order_with("chunks:300", 2, &st);
	assert_true(memcmp(o, rcm, nc * sizeof *o) != 0);
	assert_true(st.mean_jump_after < st.mean_jump_before / 4);
	free(o);
	o = order_with("chain:100000", 2, &st);
	assert_memory_equal(o, rcm, nc * sizeof *o);
	free(o);
	{
		/* chained pieces: another order, local, and the same on one
		 * thread as on all */
		fv_idx_t *one;
		int nt = fv_threads_max();
		o = order_with("chain:300", 2, &st);
		assert_true(memcmp(o, rcm, nc * sizeof *o) != 0);
		assert_true(st.mean_jump_after < st.mean_jump_before / 4);
		fv_threads_set(1);
		one = order_with("chain:300", 2, &st);
		fv_threads_set(nt);
		assert_memory_equal(o, one, nc * sizeof *o);
		free(one);
		free(o);
	}
	o = order_with("hilbert", 2, &st);
	assert_true(memcmp(o, rcm, nc * sizeof *o) != 0);
	assert_true(st.mean_jump_after < st.mean_jump_before / 4);
	free(o);
	free(rcm);
	{
		fv_mesh_t m;
		int32_t *part;
		fv_idx_t off[2];
		static const char *const bad[] = {"rcm2", "chunks:", "chunks:0", "chunks:12x", "chunks:-3", "chunk",
						  "chain:", "chain:0", "chains", "chain:5x"};
		gen_tet(&m);
		part = calloc(m.n_cells, sizeof *part);
		for (int i = 0; i < (int)(sizeof bad / sizeof *bad); i++) {
			setenv("FVSTAR_ORDER", bad[i], 1);
			FV_ASSERT_ERR(fv_mesh_renumber(&m, part, 1, off, 0, NULL), FV_ERR_ARG, "FVSTAR_ORDER=");
		}
		unsetenv("FVSTAR_ORDER");
		free(part);
		fv_mesh_free(&m);
	}
}

/* A block with no cells is only an empty range. */
static void test_renumber_empty_block(void **state)
{
	fv_mesh_t m;
	fv_order_stats_t st;
	fv_block_t *bl;
	fv_idx_t off[4];
	int32_t *part;
	(void)state;
	gen_mixed(&m);
	part = malloc(m.n_cells * sizeof *part);
	for (fv_idx_t c = 0; c < m.n_cells; c++)
		part[c] = c % 2 ? 2 : 0;
	check_renumber(&m, 3, part, &st);
	off[0] = 0;
	off[1] = off[2] = (m.n_cells + 1) / 2;
	off[3] = m.n_cells;
	FV_ASSERT_OK(fv_blocks_build(&m, off, 3, &bl));
	check_blocks(&m, off, 3, bl);
	assert_int_equal(bl[1].n_cells, 0);
	assert_int_equal(bl[1].n_faces, 0);
	assert_int_equal(bl[1].n_nbr, 0);
	assert_int_equal(bl[0].n_nbr, 1);
	assert_int_equal(bl[0].nbr[0], 2);
	fv_blocks_free(bl, 3);
	free(part);
	fv_mesh_free(&m);
}

static void test_renumber_errors(void **state)
{
	fv_mesh_t m, raw;
	fv_gen_opts_t o;
	fv_idx_t off[3];
	int32_t *part;
	(void)state;
	gen_mixed(&m);
	part = calloc(m.n_cells, sizeof *part);
	part[5] = 2;
	FV_ASSERT_ERR(fv_mesh_renumber(&m, part, 2, off, 0, NULL), FV_ERR_ARG, "cell 5 is in block 2");
	FV_ASSERT_ERR(fv_mesh_renumber(&m, part, 0, off, 0, NULL), FV_ERR_ARG, "0 blocks");
	fv_gen_opts_default(&o);
	fv_mesh_init(&raw);
	FV_ASSERT_OK(fv_mesh_gen_box(&raw, &o));
	FV_ASSERT_ERR(fv_mesh_renumber(&raw, part, 3, off, 0, NULL), FV_ERR_ARG, "fv_mesh_prepare");
	fv_mesh_free(&raw);
	free(part);
	fv_mesh_free(&m);
}

static int nbr_slot(const fv_block_t *b, int id)
{
	for (int k = 0; k < b->n_nbr; k++)
		if (b->nbr[k] == id)
			return k;
	return -1;
}

/* Everything the contract in partition.h promises, recomputed directly
 * from the global mesh. */
static void check_blocks(const fv_mesh_t *m, const fv_idx_t *off, int nb, const fv_block_t *bl)
{
	size_t NC = m->n_cells, NF = m->n_faces;
	int *face_seen = calloc(NF, sizeof *face_seen);
	uint8_t *node_owned = malloc(m->n_nodes), *is_local = malloc(NC);
	fv_idx_t total = 0;

	for (int ib = 0; ib < nb; ib++) {
		const fv_block_t *b = &bl[ib];
		fv_idx_t c0 = off[ib], c1 = off[ib + 1], ng = 0, nf = 0;
		size_t nc = b->n_cells, lnf = b->n_faces;
		assert_int_equal(b->id, ib);
		assert_int_equal(b->cell0, c0);
		assert_int_equal(b->n_owned, c1 - c0);
		assert_int_equal(b->n_cells, b->n_owned + b->n_ghost);
		total += b->n_owned;

		/* ghosts: exactly the outside cells with a node of an owned cell */
		memset(node_owned, 0, m->n_nodes);
		memset(is_local, 0, NC);
		for (fv_idx_t i = m->cell_node_off[c0]; i < m->cell_node_off[c1]; i++)
			node_owned[m->cell_node[i]] = 1;
		for (fv_idx_t i = 0; i < b->n_cells; i++) {
			fv_idx_t c = b->cell_global[i];
			assert_true(i < b->n_owned ? c == c0 + i : (c < c0 || c >= c1));
			is_local[c] = 1;
			assert_true(b->cell_vol[i] == m->cell_vol[c]);
			for (int d = 0; d < 3; d++)
				assert_true(b->cell_ctr[d * nc + i] == m->cell_ctr[d * NC + c]);
		}
		for (fv_idx_t c = 0; c < m->n_cells; c++) {
			int touches = 0;
			if (c >= c0 && c < c1)
				continue;
			for (fv_idx_t i = m->cell_node_off[c]; i < m->cell_node_off[c + 1]; i++)
				touches |= node_owned[m->cell_node[i]];
			ng += touches;
			assert_int_equal(touches, is_local[c]);
		}
		assert_int_equal(ng, b->n_ghost);

		/* receive ranges: ghosts by source block, neighbours increasing;
		 * in each, the ghosts sharing a face with an owned cell, then the
		 * others, each part increasing; fv_block_face_prefix counts the
		 * first part, and what n sends b in it is what b receives */
		fv_idx_t *send_pre = calloc((size_t)b->n_nbr + 1, sizeof *send_pre);
		fv_idx_t *recv_pre = calloc((size_t)b->n_nbr + 1, sizeof *recv_pre);
		FV_ASSERT_OK(fv_block_face_prefix(b, send_pre, recv_pre));
		assert_int_equal(b->recv_off[0], 0);
		assert_int_equal(b->recv_off[b->n_nbr], b->n_ghost);
		for (int k = 0; k < b->n_nbr; k++) {
			int n = b->nbr[k];
			assert_true(n != ib && (k == 0 || n > b->nbr[k - 1]));
			assert_true(b->recv_off[k + 1] > b->recv_off[k]);
			for (fv_idx_t i = b->recv_off[k]; i < b->recv_off[k + 1]; i++) {
				fv_idx_t c = b->cell_global[b->n_owned + i];
				int face = 0;
				assert_true(c >= off[n] && c < off[n + 1]);
				for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
					fv_idx_t f = m->cell_face[s], o = m->face_cell[2 * f], d = m->face_cell[2 * f + 1];
					face |= (o >= c0 && o < c1) || (d >= c0 && d < c1);
				}
				assert_int_equal(face, i - b->recv_off[k] < recv_pre[k]);
				if (i > b->recv_off[k] && i - b->recv_off[k] != recv_pre[k])
					assert_true(c > b->cell_global[b->n_owned + i - 1]);
			}
			{
				const fv_block_t *bn = &bl[n];
				fv_idx_t *ns = calloc((size_t)bn->n_nbr + 1, sizeof *ns), *nr = calloc((size_t)bn->n_nbr + 1,
													sizeof *nr);
				FV_ASSERT_OK(fv_block_face_prefix(bn, ns, nr));
				assert_int_equal(ns[nbr_slot(bn, ib)], recv_pre[k]);
				assert_int_equal(nr[nbr_slot(bn, ib)], send_pre[k]);
				free(ns);
				free(nr);
			}
			/* n sends these very cells, in this order */
			const fv_block_t *bn = &bl[n];
			int j = nbr_slot(bn, ib);
			assert_true(j >= 0);
			assert_int_equal(bn->send_off[j + 1] - bn->send_off[j], b->recv_off[k + 1] - b->recv_off[k]);
			for (fv_idx_t i = 0; i < b->recv_off[k + 1] - b->recv_off[k]; i++) {
				fv_idx_t s = bn->send_cell[bn->send_off[j] + i];
				assert_true(s >= 0 && s < bn->n_owned);
				assert_int_equal(bn->cell0 + s, b->cell_global[b->n_owned + b->recv_off[k] + i]);
			}
		}
		assert_int_equal(b->send_off[0], 0);
		free(send_pre);
		free(recv_pre);

		/* faces: those with an owned cell, in global order */
		for (fv_idx_t f = 0; f < m->n_faces; f++) {
			fv_idx_t o = m->face_cell[2 * f], n = m->face_cell[2 * f + 1];
			if ((o >= c0 && o < c1) || (n >= c0 && n < c1)) {
				assert_true(nf < b->n_faces);
				assert_int_equal(b->face_global[nf], f);
				face_seen[f]++;
				nf++;
			}
		}
		assert_int_equal(nf, b->n_faces);
		for (fv_idx_t i = 0; i < b->n_faces; i++) {
			fv_idx_t f = b->face_global[i];
			assert_true(i < b->n_bfaces ? f < m->n_bfaces : f >= m->n_bfaces);
			for (int k = 0; k < 2; k++) {
				fv_idx_t lc = b->face_cell[2 * i + k];
				assert_int_equal(lc < 0 ? -1 : b->cell_global[lc], m->face_cell[2 * f + k]);
			}
			for (int d = 0; d < 3; d++) {
				assert_true(b->face_area[d * lnf + i] == m->face_area[d * NF + f]);
				assert_true(b->face_ctr[d * lnf + i] == m->face_ctr[d * NF + f]);
			}
			assert_int_equal(b->face_node_off[i + 1] - b->face_node_off[i],
					 m->face_node_off[f + 1] - m->face_node_off[f]);
			for (fv_idx_t k = 0; k < b->face_node_off[i + 1] - b->face_node_off[i]; k++)
				assert_int_equal(b->node_global[b->face_node[b->face_node_off[i] + k]],
						 m->face_node[m->face_node_off[f] + k]);
		}
		assert_int_equal(b->marker_face_off[0], 0);
		assert_int_equal(b->marker_face_off[m->n_markers], b->n_bfaces);
		for (int k = 0; k < m->n_markers; k++)
			for (fv_idx_t i = b->marker_face_off[k]; i < b->marker_face_off[k + 1]; i++) {
				assert_int_equal(b->face_marker[i], k);
				assert_int_equal(m->face_marker[b->face_global[i]], k);
			}

		/* owned cells' faces */
		for (fv_idx_t i = 0; i < b->n_owned; i++) {
			fv_idx_t c = c0 + i, s0 = m->cell_face_off[c];
			assert_int_equal(b->cell_face_off[i + 1] - b->cell_face_off[i], m->cell_face_off[c + 1] - s0);
			for (fv_idx_t k = 0; k < m->cell_face_off[c + 1] - s0; k++) {
				assert_int_equal(b->face_global[b->cell_face[b->cell_face_off[i] + k]], m->cell_face[s0 + k]);
				assert_int_equal(b->cell_face_sign[b->cell_face_off[i] + k], m->cell_face_sign[s0 + k]);
			}
		}

		/* nodes: those of owned cells, increasing; node_cell complete */
		{
			fv_idx_t nn = 0;
			for (fv_idx_t v = 0; v < m->n_nodes; v++)
				if (node_owned[v]) {
					assert_true(nn < b->n_nodes);
					assert_int_equal(b->node_global[nn], v);
					assert_int_equal(b->node_cell_off[nn + 1] - b->node_cell_off[nn],
							 m->node_cell_off[v + 1] - m->node_cell_off[v]);
					for (fv_idx_t k = 0; k < m->node_cell_off[v + 1] - m->node_cell_off[v]; k++)
						assert_int_equal(b->cell_global[b->node_cell[b->node_cell_off[nn] + k]],
								 m->node_cell[m->node_cell_off[v] + k]);
					nn++;
				}
			assert_int_equal(nn, b->n_nodes);
		}
	}
	assert_int_equal(total, m->n_cells);

	/* a face is in every block that owns one of its cells */
	for (fv_idx_t f = 0; f < m->n_faces; f++) {
		fv_idx_t o = m->face_cell[2 * f], n = m->face_cell[2 * f + 1];
		int two = 0;
		for (int ib = 0; ib < nb && n >= 0; ib++)
			two |= o < off[ib + 1] && n >= off[ib + 1];
		assert_int_equal(face_seen[f], 1 + two);
	}
	free(face_seen);
	free(node_owned);
	free(is_local);
}

static void test_blocks(void **state)
{
	static const int nbs[] = {1, 2, 3, 8};
	(void)state;
	for (int g = 0; g < 2; g++)
		for (int i = 0; i < N_METHODS; i++)
			for (int k = 0; k < 4; k++) {
				fv_mesh_t m;
				fv_idx_t off[9];
				fv_block_t *bl;
				int32_t *part;
				(g ? gen_tet : gen_mixed)(&m);
				part = malloc(m.n_cells * sizeof *part);
				FV_ASSERT_OK(fv_partition_cells(&m, nbs[k], methods[i], 1, part, NULL));
				FV_ASSERT_OK(fv_mesh_renumber(&m, part, nbs[k], off, 0, NULL));
				FV_ASSERT_OK(fv_blocks_build(&m, off, nbs[k], &bl));
				check_blocks(&m, off, nbs[k], bl);
				if (nbs[k] == 1)
					assert_true(bl[0].n_ghost == 0 && bl[0].n_nbr == 0 && bl[0].n_faces == m.n_faces);
				fv_blocks_free(bl, nbs[k]);
				free(part);
				fv_mesh_free(&m);
			}
}

/* Blocks to ranks: every rank gets its share of blocks, the cut is the
 * halo cells between blocks of different ranks and at most that of the
 * contiguous ranges, and the map is the same on every call. */
static void test_blocks_to_ranks(void **state)
{
	static const int nbs[] = {4, 8, 13}, rks[] = {1, 2, 3, 4};
	(void)state;
	for (int k = 0; k < 3; k++) {
		fv_mesh_t m;
		fv_idx_t off[14];
		fv_block_t *bl;
		int32_t *part;
		int nb = nbs[k], rank_of[13], again[13], contig[13], grown;
		gen_tet(&m);
		part = malloc(m.n_cells * sizeof *part);
		FV_ASSERT_OK(fv_partition_cells(&m, nb, methods[0], 1, part, NULL));
		FV_ASSERT_OK(fv_mesh_renumber(&m, part, nb, off, 0, NULL));
		FV_ASSERT_OK(fv_blocks_build(&m, off, nb, &bl));
		for (int j = 0; j < 4; j++) {
			int R = rks[j], count[4] = {0};
			long long cut, cut2, brute = 0, ccut = 0;
			FV_ASSERT_OK(fv_blocks_to_ranks(bl, nb, R, rank_of, &cut, &grown));
			FV_ASSERT_OK(fv_blocks_to_ranks(bl, nb, R, again, &cut2, &grown));
			assert_memory_equal(rank_of, again, sizeof(int) * nb);
			for (int b = 0; b < nb; b++) {
				assert_true(rank_of[b] >= 0 && rank_of[b] < R);
				count[rank_of[b]]++;
				contig[b] = (int)((long long)(b + 1) * R - 1) / nb;
			}
			for (int r = 0; r < R; r++)
				assert_int_equal(count[r], (r + 1) * nb / R - r * nb / R);
			for (int b = 0; b < nb; b++)
				for (int i = 0; i < bl[b].n_nbr; i++) {
					long long w = bl[b].send_off[i + 1] - bl[b].send_off[i];
					brute += rank_of[bl[b].nbr[i]] != rank_of[b] ? w : 0;
					ccut += contig[bl[b].nbr[i]] != contig[b] ? w : 0;
				}
			assert_int_equal(cut, brute);
			assert_true(cut <= ccut);
			if (R == 1)
				assert_int_equal(cut, 0);
		}
		int r4[4];
		long long c4;
		FV_ASSERT_ERR(fv_blocks_to_ranks(bl, 3, 4, r4, &c4, &grown), FV_ERR_ARG, "3 blocks for 4 ranks");
		fv_blocks_free(bl, nb);
		free(part);
		fv_mesh_free(&m);
	}
}

static void test_blocks_errors(void **state)
{
	fv_mesh_t m, raw;
	fv_gen_opts_t o;
	fv_block_t *bl = NULL;
	(void)state;
	gen_mixed(&m);
	fv_idx_t bad_end[3] = {0, 10, m.n_cells - 1}, bad_order[3] = {0, m.n_cells + 5, m.n_cells}, ok[2] = {0, m.n_cells};
	FV_ASSERT_ERR(fv_blocks_build(&m, bad_end, 2, &bl), FV_ERR_ARG, "not the");
	FV_ASSERT_ERR(fv_blocks_build(&m, bad_order, 2, &bl), FV_ERR_ARG, "block 1 has range");
	FV_ASSERT_ERR(fv_blocks_build(&m, ok, 0, &bl), FV_ERR_ARG, "0 blocks");
	assert_null(bl);
	fv_gen_opts_default(&o);
	fv_mesh_init(&raw);
	FV_ASSERT_OK(fv_mesh_gen_box(&raw, &o));
	ok[1] = raw.n_cells;
	FV_ASSERT_ERR(fv_blocks_build(&raw, ok, 1, &bl), FV_ERR_ARG, "fv_mesh_prepare");
	fv_mesh_free(&raw);
	fv_blocks_free(NULL, 3);
	fv_mesh_free(&m);
}

/* A state that is a function of the file position of each cell. */
static double file_value(int v, fv_idx_t orig)
{
	return v == 0 ? 1 + 1e-3 * orig : v == 4 ? 10 + 1e-4 * orig : 0.1 * v - 1e-5 * orig;
}

static fv_real_t *state_in_file_terms(const fv_mesh_t *m)
{
	size_t n = (size_t)m->n_cells;
	fv_real_t *q = malloc(5 * n * sizeof *q);
	assert_non_null(q);
	for (int v = 0; v < 5; v++)
		for (fv_idx_t c = 0; c < m->n_cells; c++)
			q[(size_t)v * n + c] = (fv_real_t)file_value(v, fv_mesh_cell_orig(m, c));
	return q;
}

/* The mesh file, partitioned into nb blocks and renumbered, as a run does. */
static void load_renumbered(fv_mesh_t *m, const char *path, int nb)
{
	int32_t *part;
	fv_idx_t *off = malloc(((size_t)nb + 1) * sizeof *off);
	FV_ASSERT_OK(fv_mesh_load(m, path));
	part = malloc((size_t)m->n_cells * sizeof *part);
	FV_ASSERT_OK(fv_partition_cells(m, nb, methods[0], 3, part, NULL));
	FV_ASSERT_OK(fv_mesh_renumber(m, part, nb, off, 0, NULL));
	free(part);
	free(off);
}

/* Restart and solution files and messages in the mesh file's terms: the
 * same bytes for every block count, a restart read back into any block
 * count, another mesh refused, the numbers of the file in messages. */
/* A part file that is a named pipe or a device is refused at once (it
 * used to block in fopen). */
static void test_part_read_not_regular(void **state)
{
	char dir[] = "/tmp/fvstar-partfifo-XXXXXX", fifo[64];
	fv_part_t p;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof fifo, "%s/rank0.part", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	FV_ASSERT_ERR(fv_part_read(fifo, &p), FV_ERR_IO, "rank0.part: is a named pipe (FIFO), not a regular file");
	FV_ASSERT_ERR(fv_part_read("/dev/zero", &p), FV_ERR_IO, "/dev/zero: is a character device");
	FV_ASSERT_ERR(fv_part_read(dir, &p), FV_ERR_IO, "is a directory");
	assert_int_equal(unlink(fifo), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void test_file_order(void **state)
{
	char dir[] = "/tmp/fvstar-fileorder-XXXXXX", su2[64], moved[64], vtu[64], ref_vtu[64], rs[64];
	static const int nbs[] = {1, 3, 8};
	fv_mesh_t g, m, file;
	fv_mesh_id_t id;
	fv_restart_layout_t lay;
	fv_restart_t r, back;
	char *ref = NULL, name[96];
	size_t ref_len = 0;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(su2, sizeof su2, "%s/m.su2", dir);
	snprintf(moved, sizeof moved, "%s/moved.su2", dir);
	snprintf(rs, sizeof rs, "%s/restart.bin", dir);
	gen_mixed(&g);
	FV_ASSERT_OK(fv_mesh_write_su2(&g, su2));
	g.xyz[3 * 40] += 1e-9; /* an interior node, moved a little */
	FV_ASSERT_OK(fv_mesh_write_su2(&g, moved));
	fv_mesh_free(&g);

	/* SU2 numbers elements and points from 0, in file order */
	FV_ASSERT_OK(fv_mesh_load(&file, su2));
	assert_non_null(file.cell_tag);
	assert_non_null(file.node_tag);
	for (fv_idx_t c = 0; c < file.n_cells; c++)
		assert_true(file.cell_tag[c] == c);
	for (fv_idx_t v = 0; v < file.n_nodes; v++)
		assert_true(file.node_tag[v] == v);
	assert_null(file.cell_orig);
	FV_ASSERT_OK(fv_mesh_identity(&file, &id));
	{
		fv_real_t *q = state_in_file_terms(&file);
		snprintf(ref_vtu, sizeof ref_vtu, "%s/file.vtu", dir);
		FV_ASSERT_OK(fv_solution_write_vtu(ref_vtu, &file, q, (fv_real_t)1.4, NULL, NULL));
		ref = fv_test_slurp(ref_vtu, &ref_len);
		free(q);
	}

	for (int k = 0; k < 3; k++) {
		fv_real_t *q;
		fv_mesh_id_t mid;
		size_t len;
		char *got;
		load_renumbered(&m, su2, nbs[k]);
		FV_ASSERT_OK(fv_mesh_identity(&m, &mid));
		assert_true(mid.hash == id.hash && mid.n_cells == id.n_cells && mid.n_nodes == id.n_nodes);
		/* the first cell after renumbering is named as the file numbers it */
		snprintf(ref_vtu, sizeof ref_vtu, "element %d", (int)m.cell_orig[0]);
		assert_string_equal(fv_mesh_cell_name(&m, 0, name, sizeof name), ref_vtu);

		/* solution.vtu: cells, points and connectivity of the file */
		q = state_in_file_terms(&m);
		snprintf(vtu, sizeof vtu, "%s/s%d.vtu", dir, nbs[k]);
		FV_ASSERT_OK(fv_solution_write_vtu(vtu, &m, q, (fv_real_t)1.4, NULL, NULL));
		got = fv_test_slurp(vtu, &len);
		assert_int_equal(len, ref_len);
		assert_memory_equal(got, ref, len);
		free(got);

		/* a restart written from nbs[k] blocks reads back into 8 */
		FV_ASSERT_OK(fv_restart_layout_init(&lay, &m));
		memset(&r, 0, sizeof r);
		r.n_cells = m.n_cells;
		r.n_vars = 5;
		r.n_blocks = nbs[k];
		r.iteration = 7;
		r.q = q;
		FV_ASSERT_OK(fv_restart_write_layout(rs, &lay, &r));
		fv_restart_layout_free(&lay);
		fv_mesh_free(&m);
		free(q);

		load_renumbered(&m, su2, 8);
		FV_ASSERT_OK(fv_restart_layout_init(&lay, &m));
		q = malloc(5 * (size_t)m.n_cells * sizeof *q);
		FV_ASSERT_OK(fv_restart_read_layout(rs, &lay, &back, q, 5));
		assert_int_equal(back.n_blocks, nbs[k]);
		for (int v = 0; v < 5; v++)
			for (fv_idx_t c = 0; c < m.n_cells; c++)
				assert_true(q[(size_t)v * m.n_cells + c] == (fv_real_t)file_value(v, m.cell_orig[c]));
		/* ... and in file order for a reader that does not renumber */
		for (fv_idx_t i = 0; i < m.n_cells; i++)
			assert_true(back.q[(size_t)4 * m.n_cells + i] == (fv_real_t)file_value(4, i));
		fv_restart_free(&back);
		fv_restart_layout_free(&lay);
		fv_mesh_free(&m);
		free(q);
	}

	/* the same cells and nodes with one node moved: refused */
	load_renumbered(&m, moved, 3);
	FV_ASSERT_OK(fv_restart_layout_init(&lay, &m));
	assert_true(lay.mesh.n_cells == id.n_cells && lay.mesh.n_nodes == id.n_nodes && lay.mesh.hash != id.hash);
	{
		fv_real_t *q = malloc(5 * (size_t)m.n_cells * sizeof *q);
		FV_ASSERT_ERR(fv_restart_read_layout(rs, &lay, &back, q, 5), FV_ERR_FORMAT,
			      "restart.bin: mesh checksum differs: the restart was written for another mesh than");
		assert_non_null(strstr(fv_errmsg(), "moved.su2"));
		free(q);
	}
	fv_restart_layout_free(&lay);
	fv_mesh_free(&m);

	/* refinement: the children are the refined mesh's own order, named
	 * by the file's element they are in */
	{
		fv_mesh_t fine;
		fv_mesh_init(&fine);
		FV_ASSERT_OK(fv_mesh_refine(&file, &fine));
		assert_int_equal(fine.refine_levels, 1);
		assert_null(fine.cell_orig);
		assert_non_null(fine.cell_tag);
		assert_true(fine.cell_tag[0] == 0 && fine.cell_tag[fine.n_cells - 1] == file.n_cells - 1);
		assert_string_equal(fv_mesh_cell_name(&fine, 9, name, sizeof name), "cell 10 (refined from element 1)");
		fv_mesh_free(&fine);
	}
	fv_mesh_free(&file);
	free(ref);
	{
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partition_methods),
		cmocka_unit_test(test_partition_tiny),
		cmocka_unit_test(test_partition_weighted),
		cmocka_unit_test(test_partition_grouped),
		cmocka_unit_test(test_partition_small_share),
		cmocka_unit_test(test_partition_geometric),
		cmocka_unit_test(test_renumber_rebuild_faces),
		cmocka_unit_test(test_partition_errors),
		cmocka_unit_test(test_renumber),
		cmocka_unit_test(test_renumber_empty_block),
		cmocka_unit_test(test_hilbert_key),
		cmocka_unit_test(test_order_hilbert),
		cmocka_unit_test(test_renumber_orders),
		cmocka_unit_test(test_renumber_errors),
		cmocka_unit_test(test_file_order),
		cmocka_unit_test(test_part_read_not_regular),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_blocks_errors),
		cmocka_unit_test(test_blocks_to_ranks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
