/* SPDX-License-Identifier: MIT */
/* Cell partitioning into blocks: METIS k-way or Scotch on the cell dual
 * graph, contiguous ranges of the current numbering or of a Hilbert curve
 * through the cell centroids, with cut statistics. */
#include "config.h"

#include "fvstar/partition.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "order/sfc.h"
#include "util/threads.h"

#ifdef FV_HAVE_METIS
#include <metis.h>
#endif
#ifdef FV_HAVE_SCOTCH
#include <scotch.h>
#endif

/* The dual graph in CSR form (int32, the width METIS is built with here). */
typedef struct dual_graph {
	int32_t n;
	int32_t *xadj;   /* [n + 1] */
	int32_t *adj;    /* [xadj[n]] */
} dual_graph_t;

static void free_graph(dual_graph_t *g)
{
	FV_FREE(g->xadj);
	FV_FREE(g->adj);
}

/* Cells adjacent through interior faces; cell_cell holds -1 on the
 * boundary. With loc, only the n cells c with loc[c] >= 0, numbered
 * loc[c], and the faces between two of them. The degrees and the edges are
 * filled by all threads (each cell's row is its own), the offsets by one
 * prefix sum, so the graph is the same for any thread count. */
static fv_err_t build_graph(const fv_mesh_t *m, const int32_t *loc, fv_idx_t n, dual_graph_t *g)
{
	fv_idx_t nc = loc ? n : m->n_cells, N = m->n_cells;
	int32_t *row = NULL; /* with loc: the selected cell of each graph row */
	g->n = nc;
	g->xadj = NULL;
	g->adj = NULL;
	FV_CALL(fv_malloc(&g->xadj, (size_t)nc + 1, sizeof *g->xadj, "dual graph offsets"));
	if (loc && fv_malloc(&row, (size_t)nc + 1, sizeof *row, "dual graph rows") != FV_OK) {
		free_graph(g);
		return fv_error_trace(FV_ERR_MEM, __FILE__, __LINE__);
	}
	for (fv_idx_t c = 0; loc && c < N; c++)
		if (loc[c] >= 0)
			row[loc[c]] = c;
	g->xadj[0] = 0;
	FV_OMP(parallel for schedule(static) if (nc > FV_PAR_MIN))
	for (fv_idx_t k = 0; k < nc; k++) {
		fv_idx_t c = loc ? row[k] : k;
		int32_t d = 0;
		for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++)
			d += m->cell_cell[s] >= 0 && (!loc || loc[m->cell_cell[s]] >= 0);
		g->xadj[k + 1] = d;
	}
	for (fv_idx_t k = 0; k < nc; k++)
		g->xadj[k + 1] += g->xadj[k];
	if (fv_malloc(&g->adj, (size_t)g->xadj[nc] + 1, sizeof *g->adj, "dual graph edges") != FV_OK) {
		free(row);
		free_graph(g);
		return fv_error_trace(FV_ERR_MEM, __FILE__, __LINE__);
	}
	FV_OMP(parallel for schedule(static) if (nc > FV_PAR_MIN))
	for (fv_idx_t k = 0; k < nc; k++) {
		fv_idx_t c = loc ? row[k] : k, e = g->xadj[k];
		for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
			fv_idx_t d = m->cell_cell[s];
			if (d >= 0 && (!loc || loc[d] >= 0))
				g->adj[e++] = loc ? loc[d] : d;
		}
	}
	free(row);
	return FV_OK;
}

#ifdef FV_HAVE_METIS
static fv_err_t part_metis(const fv_mesh_t *m, const int32_t *loc, fv_idx_t n_sel, int n_blocks, unsigned seed,
			   const double *frac, int32_t *part)
{
	_Static_assert(sizeof(idx_t) == sizeof(int32_t), "METIS must be built with 32-bit idx_t");
	dual_graph_t g;
	idx_t nvtxs, ncon = 1, nparts = n_blocks, objval = 0;
	idx_t options[METIS_NOPTIONS];
	real_t *tpwgts = NULL;
	int rc;
	if (frac) {
		FV_CALL(fv_malloc(&tpwgts, (size_t)n_blocks, sizeof *tpwgts, "METIS target weights"));
		for (int b = 0; b < n_blocks; b++)
			tpwgts[b] = (real_t)frac[b];
	}
	if (build_graph(m, loc, n_sel, &g) != FV_OK) {
		free(tpwgts);
		return fv_error_trace(FV_ERR_MEM, __FILE__, __LINE__);
	}
	nvtxs = g.n;
	METIS_SetDefaultOptions(options);
	options[METIS_OPTION_NUMBERING] = 0;
	if (frac) {
		/* METIS bounds each part by its target x (1 + ufactor / 1000), 3 %
		 * by default: with shares 640:1 the large part may take 3 % of the
		 * cells more than its share, the whole of a small part, which then
		 * gets nothing. Keep the large part's slack under half the smallest
		 * share (ufactor 1 at least, 30 at most as by default). */
		double lo = frac[0], hi = frac[0];
		for (int b = 1; b < n_blocks; b++) {
			lo = frac[b] < lo ? frac[b] : lo;
			hi = frac[b] > hi ? frac[b] : hi;
		}
		double uf = 1000.0 * 0.5 * lo / hi;
		options[METIS_OPTION_UFACTOR] = uf < 1 ? 1 : uf > 30 ? 30 : (idx_t)uf;
	}
	/* METIS wants a non-negative seed; keep it reproducible from ours */
	options[METIS_OPTION_SEED] = (idx_t)(seed & 0x7fffffffu);
	rc = METIS_PartGraphKway(&nvtxs, &ncon, g.xadj, g.adj, NULL, NULL, NULL, &nparts, tpwgts, NULL, options,
				 &objval, part);
	free_graph(&g);
	free(tpwgts);
	FV_CHECK(rc == METIS_OK, rc == METIS_ERROR_MEMORY ? FV_ERR_MEM : FV_ERR_RUNTIME,
		 "%s: METIS_PartGraphKway into %d blocks failed (%s)", m->source, n_blocks,
		 rc == METIS_ERROR_MEMORY ? "out of memory" : rc == METIS_ERROR_INPUT ? "bad input" : "error");
	return FV_OK;
}
#endif

#ifdef FV_HAVE_SCOTCH
/* SCOTCH_Num may be 32 or 64 bits depending on the build: copy to it. */
static fv_err_t to_scotch(const int32_t *src, size_t n, SCOTCH_Num **dst, const char *what)
{
	FV_CALL(fv_malloc(dst, n + 1, sizeof **dst, what));
	for (size_t i = 0; i < n; i++)
		(*dst)[i] = (SCOTCH_Num)src[i];
	return FV_OK;
}

/* Partition with the default strategy and the 3 % tolerance METIS uses by
 * default; with target fractions, onto a weighted complete graph whose
 * vertex weights are the fractions (in millionths); returns Scotch's
 * status. */
static int map_scotch(SCOTCH_Graph *graph, int n_blocks, const double *frac, SCOTCH_Num *ptab)
{
	SCOTCH_Strat strat;
	int rc = 1;
	SCOTCH_stratInit(&strat);
	if (SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATDEFAULT, n_blocks, 0.03) == 0) {
		if (!frac) {
			rc = SCOTCH_graphPart(graph, n_blocks, &strat, ptab);
		} else {
			SCOTCH_Arch arch;
			SCOTCH_Num *velo = malloc((size_t)n_blocks * sizeof *velo);
			if (velo && SCOTCH_archInit(&arch) == 0) {
				for (int b = 0; b < n_blocks; b++)
					velo[b] = (SCOTCH_Num)(frac[b] * 1e6 + 0.5) > 0 ? (SCOTCH_Num)(frac[b] * 1e6 + 0.5) : 1;
				if (SCOTCH_archCmpltw(&arch, (SCOTCH_Num)n_blocks, velo) == 0)
					rc = SCOTCH_graphMap(graph, &arch, &strat, ptab);
				SCOTCH_archExit(&arch);
			}
			free(velo);
		}
	}
	SCOTCH_stratExit(&strat);
	return rc;
}

/* Partitions base into ptab, reproducibly for a given seed; returns
 * Scotch's status. */
static int scotch_part_seeded(SCOTCH_Graph *base, int n_blocks, unsigned seed, const double *frac, SCOTCH_Num *ptab)
{
#if SCOTCH_VERSION >= 7
	/* Scotch 7 partitions with threads by default, which is not
	 * reproducible run to run: a private context with one thread and its
	 * own generator is. */
	SCOTCH_Context ctx;
	SCOTCH_Graph graph;
	int rc = 1;
	if (SCOTCH_contextInit(&ctx) != 0)
		return 1;
	if (SCOTCH_contextThreadSpawn(&ctx, 1, NULL) == 0 &&
	    SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMDETERMINISTIC, 1) == 0 &&
	    SCOTCH_contextRandomClone(&ctx) == 0 && SCOTCH_graphInit(&graph) == 0) {
		SCOTCH_contextRandomSeed(&ctx, (SCOTCH_Num)seed);
		if (SCOTCH_contextBindGraph(&ctx, base, &graph) == 0)
			rc = map_scotch(&graph, n_blocks, frac, ptab);
		SCOTCH_graphExit(&graph);
	}
	SCOTCH_contextExit(&ctx);
	return rc;
#else
	/* older Scotch runs on one thread: reseeding its generator suffices */
	SCOTCH_randomSeed((SCOTCH_Num)seed);
	SCOTCH_randomReset();
	return map_scotch(base, n_blocks, frac, ptab);
#endif
}

static fv_err_t part_scotch(const fv_mesh_t *m, const int32_t *loc, fv_idx_t n_sel, int n_blocks, unsigned seed,
			    const double *frac, int32_t *part)
{
	dual_graph_t g;
	SCOTCH_Num *vert = NULL, *edge = NULL, *ptab = NULL;
	SCOTCH_Graph base;
	fv_err_t err = FV_OK;
	int rc = 1;

	FV_CALL(build_graph(m, loc, n_sel, &g));
	FV_CALL_GOTO(err, done, to_scotch(g.xadj, (size_t)g.n + 1, &vert, "Scotch graph offsets"));
	FV_CALL_GOTO(err, done, to_scotch(g.adj, (size_t)g.xadj[g.n], &edge, "Scotch graph edges"));
	FV_CALL_GOTO(err, done, fv_malloc(&ptab, (size_t)g.n + 1, sizeof *ptab, "Scotch partition"));
	if (SCOTCH_graphInit(&base) == 0) {
		if (SCOTCH_graphBuild(&base, 0, g.n, vert, NULL, NULL, NULL, g.xadj[g.n], edge, NULL) == 0)
			rc = scotch_part_seeded(&base, n_blocks, seed, frac, ptab);
		SCOTCH_graphExit(&base);
	}
	if (rc != 0) {
		err = FV_ERROR(FV_ERR_RUNTIME, "%s: Scotch partitioning into %d blocks failed", m->source, n_blocks);
		goto done;
	}
	for (fv_idx_t c = 0; c < g.n; c++)
		part[c] = (int32_t)ptab[c];
done:
	free_graph(&g);
	free(vert);
	free(edge);
	free(ptab);
	return err;
}
#endif

static void part_linear(fv_idx_t n_cells, int n_blocks, const double *frac, int32_t *part)
{
	/* cell c goes to floor(c B / n): sizes differ by at most one and are
	 * all >= 1 when B <= n */
	if (!frac) {
		for (fv_idx_t c = 0; c < n_cells; c++)
			part[c] = (int32_t)((int64_t)c * n_blocks / n_cells);
		return;
	}
	/* block b ends at the rounded cumulative fraction of its predecessors
	 * and itself */
	double cum = 0;
	fv_idx_t c = 0;
	for (int b = 0; b < n_blocks; b++) {
		cum += frac[b];
		fv_idx_t end = b == n_blocks - 1 ? n_cells : (fv_idx_t)(cum * (double)n_cells + 0.5);
		for (; c < end && c < n_cells; c++)
			part[c] = b;
	}
}

/* The cells in Hilbert order of their centroids (a cube around them, 2^21
 * steps a side), ties in cell order: consecutive indices are neighbouring
 * grid cells, so a range of the order is a compact region. The same sort
 * orders large blocks (src/order/sfc.c). */
static fv_err_t hilbert_order(const fv_mesh_t *m, fv_idx_t *order)
{
	fv_idx_t off[2] = {0, m->n_cells};
	FV_CHECK(m->cell_ctr, FV_ERR_ARG,
		 "%s: the hilbert partitioner needs the cell centroids: call fv_mesh_prepare first", m->source);
	return fv_order_hilbert(m, NULL, 1, off, NULL, order, NULL, NULL);
}

/* Contiguous ranges of the Hilbert order, sized as part_linear sizes them. */
static fv_err_t part_hilbert(const fv_mesh_t *m, int n_blocks, const double *frac, int32_t *part)
{
	size_t n = (size_t)m->n_cells;
	fv_idx_t *order = NULL;
	int32_t *at = NULL;
	fv_err_t err = FV_OK;
	FV_CALL_GOTO(err, out, fv_malloc(&order, n + 1, sizeof *order, "Hilbert order"));
	FV_CALL_GOTO(err, out, fv_malloc(&at, n + 1, sizeof *at, "Hilbert blocks"));
	FV_CALL_GOTO(err, out, hilbert_order(m, order));
	part_linear(m->n_cells, n_blocks, frac, at);
	FV_OMP(parallel for schedule(static) if (n > FV_PAR_MIN))
	for (size_t i = 0; i < n; i++)
		part[order[i]] = at[i];
out:
	free(order);
	free(at);
	return err;
}

/* Recursive coordinate bisection: the cells of a range of idx split at
 * the coordinate that gives each side its share of the blocks, along the
 * axis of the three whose cut crosses the fewest faces, then each side
 * split again. */
typedef struct rcb {
	const fv_mesh_t *m;
	const double *frac;    /* block shares, NULL: equal */
	int32_t *side;         /* [n_cells] scratch: 1 left, 2 right, 0 elsewhere */
	fv_idx_t *tmp;         /* [n_cells] scratch */
	int32_t *part;
} rcb_t;

/* a < b in coordinate d, ties by cell id: a total order, so the split is
 * the same whatever the selection visits first */
static int rcb_less(const fv_real_t *x, fv_idx_t a, fv_idx_t b)
{
	return x[a] < x[b] || (x[a] == x[b] && a < b);
}

/* Quickselect: v[0..k) the k least of v[0..n) in coordinate x. */
static void rcb_select(const fv_real_t *x, fv_idx_t *v, fv_idx_t n, fv_idx_t k)
{
	fv_idx_t lo = 0, hi = n - 1, t;
	while (hi > lo) {
		/* median of three as the pivot */
		fv_idx_t mid = lo + (hi - lo) / 2, a = v[lo], b = v[mid], c = v[hi], p;
		p = rcb_less(x, a, b) ? (rcb_less(x, b, c) ? b : rcb_less(x, a, c) ? c : a)
				      : (rcb_less(x, a, c) ? a : rcb_less(x, b, c) ? c : b);
		fv_idx_t i = lo, j = hi;
		while (i <= j) {
			while (rcb_less(x, v[i], p))
				i++;
			while (rcb_less(x, p, v[j]))
				j--;
			if (i <= j) {
				t = v[i], v[i] = v[j], v[j] = t;
				i++;
				j--;
			}
		}
		if (k - 1 <= j)
			hi = j;
		else if (k - 1 >= i)
			lo = i;
		else
			break;
	}
}

/* Faces between the left (side 1) and right (side 2) cells of v[0..n). */
static int64_t rcb_cut(const rcb_t *r, const fv_idx_t *v, fv_idx_t k)
{
	const fv_mesh_t *m = r->m;
	int64_t cut = 0;
	FV_OMP(parallel for schedule(static) reduction(+ : cut) if (k > FV_PAR_MIN))
	for (fv_idx_t i = 0; i < k; i++)
		for (fv_idx_t s = m->cell_face_off[v[i]]; s < m->cell_face_off[v[i] + 1]; s++)
			cut += m->cell_cell[s] >= 0 && r->side[m->cell_cell[s]] == 2;
	return cut;
}

static void rcb_mark(rcb_t *r, const fv_idx_t *v, fv_idx_t n, fv_idx_t k)
{
	FV_OMP(parallel for schedule(static) if (n > FV_PAR_MIN))
	for (fv_idx_t i = 0; i < n; i++)
		r->side[v[i]] = i < k ? 1 : 2;
}

static void rcb_split(rcb_t *r, fv_idx_t *v, fv_idx_t n, int b0, int b1)
{
	const fv_mesh_t *m = r->m;
	size_t N = (size_t)m->n_cells;
	int nl = (b1 - b0) / 2, best = 0;
	int64_t best_cut = INT64_MAX;
	double fl = 0, fa = 0;
	fv_idx_t k;
	if (b1 - b0 == 1) {
		for (fv_idx_t i = 0; i < n; i++)
			r->part[v[i]] = b0;
		return;
	}
	for (int b = b0; b < b1; b++) {
		double f = r->frac ? r->frac[b] : 1.0;
		fa += f;
		fl += b < b0 + nl ? f : 0;
	}
	k = (fv_idx_t)(fl / fa * (double)n + 0.5);
	k = k < nl ? nl : k > n - (b1 - b0 - nl) ? n - (b1 - b0 - nl) : k;
	for (int d = 0; d < 3; d++) {
		memcpy(r->tmp, v, (size_t)n * sizeof *v);
		rcb_select(m->cell_ctr + (size_t)d * N, r->tmp, n, k);
		rcb_mark(r, r->tmp, n, k);
		int64_t cut = rcb_cut(r, r->tmp, k);
		if (cut < best_cut) {
			best_cut = cut;
			best = d;
		}
	}
	rcb_select(m->cell_ctr + (size_t)best * N, v, n, k);
	/* the cells of v back to "elsewhere" for the next level */
	FV_OMP(parallel for schedule(static) if (n > FV_PAR_MIN))
	for (fv_idx_t i = 0; i < n; i++)
		r->side[v[i]] = 0;
	rcb_split(r, v, k, b0, b0 + nl);
	rcb_split(r, v + k, n - k, b0 + nl, b1);
}

static fv_err_t part_rcb(const fv_mesh_t *m, int n_blocks, const double *frac, int32_t *part)
{
	size_t n = (size_t)m->n_cells;
	rcb_t r = {.m = m, .frac = frac, .part = part};
	fv_idx_t *v = NULL;
	fv_err_t err = FV_OK;
	FV_CHECK(m->cell_ctr, FV_ERR_ARG, "%s: the rcb partitioner needs the cell centroids: call fv_mesh_prepare first",
		 m->source);
	FV_CALL_GOTO(err, out, fv_calloc(&r.side, n + 1, sizeof *r.side, "bisection sides"));
	FV_CALL_GOTO(err, out, fv_malloc(&r.tmp, n + 1, sizeof *r.tmp, "bisection scratch"));
	FV_CALL_GOTO(err, out, fv_malloc(&v, n + 1, sizeof *v, "bisection cells"));
	for (size_t c = 0; c < n; c++)
		v[c] = (fv_idx_t)c;
	rcb_split(&r, v, (fv_idx_t)n, 0, n_blocks);
out:
	free(r.side);
	free(r.tmp);
	free(v);
	return err;
}

/* METIS or Scotch on the cells of loc (all when NULL) into n_blocks. */
static fv_err_t part_graph(const fv_mesh_t *m, fv_partitioner_t method, const int32_t *loc, fv_idx_t n_sel,
			   int n_blocks, unsigned seed, const double *frac, int32_t *part)
{
#ifdef FV_HAVE_METIS
	if (method == FV_PART_METIS)
		return part_metis(m, loc, n_sel, n_blocks, seed, frac, part);
#endif
#ifdef FV_HAVE_SCOTCH
	if (method == FV_PART_SCOTCH)
		return part_scotch(m, loc, n_sel, n_blocks, seed, frac, part);
#endif
	(void)m, (void)loc, (void)n_sel, (void)n_blocks, (void)seed, (void)frac, (void)part;
	return FV_ERROR(FV_ERR_ARG, "partitioner %d not available", (int)method);
}

/* A compact region of exactly want cells (in[c] = 1), grown breadth-first
 * from a pseudo-peripheral cell: the last one a breadth-first search from
 * cell 0 reaches, on the mesh's edge, so that the region is a cap that
 * touches the rest through few faces. A component too small to hold the
 * region is taken whole and the growth goes on from the next free cell. */
static fv_err_t grow_region(const fv_mesh_t *m, fv_idx_t want, int32_t *in)
{
	fv_idx_t *queue, head = 0, tail = 0, seed = 0, taken = 0;
	FV_CALL(fv_malloc(&queue, (size_t)m->n_cells, sizeof *queue, "region queue"));
	memset(in, 0, (size_t)m->n_cells * sizeof *in);
	/* first pass: in[] marks the visited cells */
	queue[tail++] = 0;
	in[0] = 1;
	while (head < tail) {
		fv_idx_t c = queue[head++];
		seed = c;
		for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
			fv_idx_t d = m->cell_cell[s];
			if (d >= 0 && !in[d]) {
				in[d] = 1;
				queue[tail++] = d;
			}
		}
	}
	memset(in, 0, (size_t)m->n_cells * sizeof *in);
	for (fv_idx_t scan = 0; taken < want;) {
		head = tail = 0;
		if (in[seed]) {
			/* the lowest free cell (taken < want <= n_cells: there is one;
			 * the cells below scan are all taken) */
			while (in[scan])
				scan++;
			seed = scan;
		}
		queue[tail++] = seed;
		in[seed] = 1;
		taken++;
		while (head < tail && taken < want) {
			fv_idx_t c = queue[head++];
			for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1] && taken < want; s++) {
				fv_idx_t d = m->cell_cell[s];
				if (d >= 0 && !in[d]) {
					in[d] = 1;
					queue[tail++] = d;
					taken++;
				}
			}
		}
	}
	free(queue);
	return FV_OK;
}

/* Two levels: the cells into the groups (each the sum of its blocks'
 * shares), then each group's cells into its blocks, so that the boundary
 * between two groups is the cut of the first level only (the GPU block
 * against one CPU region, not against every CPU block). Two groups of
 * which one holds less than a fifth of the cells (one GPU beside a few CPU
 * cores: 2.3 %): the small one is a region grown to exactly its share
 * (grow_region), where a graph partitioner's tolerance would leave it
 * nearly empty. */
static fv_err_t part_grouped(const fv_mesh_t *m, fv_partitioner_t method, int n_blocks, unsigned seed,
			     const double *frac, const int *group, int32_t *part)
{
	int ng = 0;
	double *gfrac = NULL, *lfrac = NULL;
	int32_t *gpart = NULL, *loc = NULL, *lpart = NULL;
	int *bk = NULL;
	fv_err_t err = FV_OK;
	for (int b = 0; b < n_blocks; b++)
		ng = group[b] + 1 > ng ? group[b] + 1 : ng;
	FV_CALL_GOTO(err, out, fv_calloc(&gfrac, (size_t)ng, sizeof *gfrac, "group shares"));
	FV_CALL_GOTO(err, out, fv_malloc(&lfrac, (size_t)n_blocks, sizeof *lfrac, "block shares"));
	FV_CALL_GOTO(err, out, fv_malloc(&bk, (size_t)n_blocks, sizeof *bk, "group blocks"));
	FV_CALL_GOTO(err, out, fv_malloc(&gpart, (size_t)m->n_cells, sizeof *gpart, "group of cell"));
	FV_CALL_GOTO(err, out, fv_malloc(&loc, (size_t)m->n_cells, sizeof *loc, "group cell index"));
	FV_CALL_GOTO(err, out, fv_malloc(&lpart, (size_t)m->n_cells, sizeof *lpart, "group partition"));
	for (int b = 0; b < n_blocks; b++)
		gfrac[group[b]] += frac ? frac[b] : 1.0 / n_blocks;
	if (ng == 2 && (gfrac[0] < 0.2 || gfrac[1] < 0.2)) {
		int small = gfrac[1] < gfrac[0];
		int nsmall = 0;
		fv_idx_t want;
		for (int b = 0; b < n_blocks; b++)
			nsmall += group[b] == small;
		want = (fv_idx_t)(gfrac[small] * (double)m->n_cells + 0.5);
		want = want < nsmall ? nsmall : want;
		want = want > m->n_cells - (n_blocks - nsmall) ? m->n_cells - (n_blocks - nsmall) : want;
		FV_CALL_GOTO(err, out, grow_region(m, want, gpart));
		if (!small)
			for (fv_idx_t c = 0; c < m->n_cells; c++)
				gpart[c] = !gpart[c];
	} else if (ng > 1)
		FV_CALL_GOTO(err, out, part_graph(m, method, NULL, 0, ng, seed, gfrac, gpart));
	else
		memset(gpart, 0, (size_t)m->n_cells * sizeof *gpart);
	for (int k = 0; k < ng; k++) {
		int nbk = 0;
		fv_idx_t n = 0;
		for (int b = 0; b < n_blocks; b++)
			if (group[b] == k) {
				lfrac[nbk] = (frac ? frac[b] : 1.0 / n_blocks) / gfrac[k];
				bk[nbk++] = b;
			}
		for (fv_idx_t c = 0; c < m->n_cells; c++)
			loc[c] = gpart[c] == k ? (int32_t)n++ : -1;
		if (nbk == 0 || n == 0)
			continue; /* an empty group: fill_empty_blocks gives its blocks a cell */
		if (nbk == 1 || n < nbk)
			memset(lpart, 0, (size_t)n * sizeof *lpart);
		else
			FV_CALL_GOTO(err, out, part_graph(m, method, loc, n, nbk, seed, lfrac, lpart));
		for (fv_idx_t c = 0; c < m->n_cells; c++)
			if (loc[c] >= 0)
				part[c] = bk[lpart[loc[c]]];
	}
out:
	free(gfrac);
	free(lfrac);
	free(bk);
	free(gpart);
	free(loc);
	free(lpart);
	return err;
}

/* Partitioners may leave a block empty on tiny meshes (METIS does). Each
 * empty block takes the highest-numbered cell of the currently largest
 * block: the result stays valid, every block non-empty, and a mesh large
 * enough to be worth partitioning never reaches this. */
static void fill_empty_blocks(fv_idx_t n_cells, int n_blocks, int32_t *part, fv_idx_t *count)
{
	for (int b = 0; b < n_blocks; b++) {
		int big = 0;
		if (count[b] > 0)
			continue;
		for (int k = 1; k < n_blocks; k++)
			if (count[k] > count[big])
				big = k;
		for (fv_idx_t c = n_cells - 1; c >= 0; c--)
			if (part[c] == big) {
				part[c] = b;
				count[big]--;
				count[b]++;
				break;
			}
	}
}

static void partition_stats(const fv_mesh_t *m, int n_blocks, const double *frac, const int32_t *part,
			    const fv_idx_t *count, fv_partition_stats_t *st)
{
	fv_idx_t lo = count[0], hi = count[0];
	int64_t cut = 0;
	double imb = 0;
	for (int b = 1; b < n_blocks; b++) {
		lo = count[b] < lo ? count[b] : lo;
		hi = count[b] > hi ? count[b] : hi;
	}
	for (int b = 0; frac && b < n_blocks; b++) {
		double target = frac[b] * (double)m->n_cells;
		imb = (double)count[b] / target > imb ? (double)count[b] / target : imb;
	}
	for (fv_idx_t f = m->n_bfaces; f < m->n_faces; f++)
		cut += part[m->face_cell[2 * (size_t)f]] != part[m->face_cell[2 * (size_t)f + 1]];
	st->n_blocks = n_blocks;
	st->edge_cut = cut;
	st->min_cells = lo;
	st->max_cells = hi;
	st->imbalance = frac ? imb : (double)hi * n_blocks / (double)m->n_cells;
}

const char *fv_partitioner_name(fv_partitioner_t method)
{
	switch (method) {
	case FV_PART_METIS: return "metis";
	case FV_PART_SCOTCH: return "scotch";
	case FV_PART_LINEAR: return "linear";
	case FV_PART_HILBERT: return "hilbert";
	case FV_PART_RCB: return "rcb";
	}
	return "?";
}

fv_err_t fv_partition_cells(const fv_mesh_t *m, int n_blocks, fv_partitioner_t method, unsigned seed,
			    int32_t *block_of_cell, fv_partition_stats_t *stats)
{
	return fv_partition_cells_weighted(m, n_blocks, method, seed, NULL, NULL, block_of_cell, stats);
}

fv_err_t fv_partition_cells_weighted(const fv_mesh_t *m, int n_blocks, fv_partitioner_t method, unsigned seed,
				     const double *weights, const int *groups, int32_t *block_of_cell,
				     fv_partition_stats_t *stats)
{
	fv_idx_t *count;
	double *frac = NULL;
	fv_err_t err = FV_OK;

	FV_CHECK(m && block_of_cell, FV_ERR_ARG, "fv_partition_cells: null argument");
	FV_CHECK(m->cell_cell && m->face_cell, FV_ERR_ARG,
		 "%s: partitioning needs the mesh's faces: call fv_mesh_prepare first", m->source);
	FV_CHECK(method == FV_PART_METIS || method == FV_PART_SCOTCH || method == FV_PART_LINEAR ||
			 method == FV_PART_HILBERT || method == FV_PART_RCB,
		 FV_ERR_ARG,
		 "unknown partitioner %d", (int)method);
	FV_CHECK(n_blocks >= 1 && n_blocks <= m->n_cells, FV_ERR_ARG,
		 "%s: cannot split %d cells into %d blocks (need 1 <= blocks <= cells)", m->source,
		 (int)m->n_cells, n_blocks);
#ifndef FV_HAVE_METIS
	FV_CHECK(method != FV_PART_METIS, FV_ERR_ARG,
		 "partitioner 'metis' not available: reconfigure with --with-metis");
#endif
#ifndef FV_HAVE_SCOTCH
	FV_CHECK(method != FV_PART_SCOTCH, FV_ERR_ARG,
		 "partitioner 'scotch' not available: reconfigure with --with-scotch");
#endif

	if (weights) {
		double sum = 0;
		for (int b = 0; b < n_blocks; b++) {
			FV_CHECK(weights[b] > 0 && weights[b] < HUGE_VAL, FV_ERR_ARG,
				 "%s: block %d has weight %g (weights must be positive)", m->source, b, weights[b]);
			sum += weights[b];
		}
		FV_CALL(fv_malloc(&frac, (size_t)n_blocks, sizeof *frac, "block fractions"));
		for (int b = 0; b < n_blocks; b++)
			frac[b] = weights[b] / sum;
	}

	if (n_blocks == 1)
		memset(block_of_cell, 0, (size_t)m->n_cells * sizeof *block_of_cell);
	else if (method == FV_PART_LINEAR)
		part_linear(m->n_cells, n_blocks, frac, block_of_cell);
	else if (method == FV_PART_HILBERT)
		err = part_hilbert(m, n_blocks, frac, block_of_cell);
	else if (method == FV_PART_RCB)
		err = part_rcb(m, n_blocks, frac, block_of_cell);
	else if (groups)
		err = part_grouped(m, method, n_blocks, seed, frac, groups, block_of_cell);
	else
		err = part_graph(m, method, NULL, 0, n_blocks, seed, frac, block_of_cell);
	if (err != FV_OK || fv_calloc(&count, (size_t)n_blocks, sizeof *count, "block sizes") != FV_OK) {
		free(frac);
		return fv_error_trace(err != FV_OK ? err : FV_ERR_MEM, __FILE__, __LINE__);
	}
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		if (block_of_cell[c] < 0 || block_of_cell[c] >= n_blocks) {
			err = FV_ERROR(FV_ERR_RUNTIME, "%s: partitioner '%s' put cell %d in block %d of %d",
				       m->source, fv_partitioner_name(method), (int)c, (int)block_of_cell[c], n_blocks);
			break;
		}
		count[block_of_cell[c]]++;
	}
	if (err == FV_OK) {
		fill_empty_blocks(m->n_cells, n_blocks, block_of_cell, count);
		if (stats)
			partition_stats(m, n_blocks, frac, block_of_cell, count, stats);
	}
	free(count);
	free(frac);
	return err;
}
