/* SPDX-License-Identifier: MIT */
/* Exact distance from each cell centroid to the nearest point of the wall
 * faces (Spalart-Allmaras' d), through a bounding volume hierarchy of the
 * wall triangles and a pthread loop over the cells. */
#include "fvstar/mesh.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/*
 * The wall is the surface the geometry (geometry.c) integrates over: a
 * triangle as it is, a quad as the four triangles (c0, p_k, p_k+1) around
 * the average c0 of its nodes. For a planar quad that is the quad itself;
 * for a warped one it is the same surface the face areas and cell
 * centroids come from, with no choice of diagonal.
 *
 * The result for a cell is sqrt(min over all wall triangles of the squared
 * distance computed by tri_d2), bit for bit, whatever the traversal: a box
 * is skipped only when it is farther than the best distance found by more
 * than MARGIN times the coordinate scale, which bounds the rounding of
 * tri_d2 and box_d2 (each a few ulps of the coordinates). So the results
 * do not depend on the thread count, on the chunking or on the seeds.
 */
#define LEAF_TRIS 4
#define MARGIN (1024 * DBL_EPSILON)
#define STACK_MAX 128   /* > depth of a median-split tree of 2^31 items */
#define CHUNK 4096      /* cells a thread takes at a time */
#define MAX_THREADS 1024

typedef struct wtri {
	double a[3], b[3], c[3];
	int flat;             /* zero area: distance to its edges instead */
} wtri_t;

/* Interior node: children at index + 1 and right. Leaf: count > 0
 * triangles from first. Nodes are stored depth first. */
typedef struct bnode {
	double lo[3], hi[3];
	int32_t first_or_right;
	int32_t count;
} bnode_t;

typedef struct bvh {
	wtri_t *tri;
	bnode_t *node;
	int32_t n_tris, n_nodes;
	double scale;         /* largest |coordinate| of the wall */
} bvh_t;

/* ------------------------------------------------ point to triangle */

static inline double dot3(const double *u, const double *v) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }
static inline void sub3(const double *u, const double *v, double *w)
{
	w[0] = u[0] - v[0];
	w[1] = u[1] - v[1];
	w[2] = u[2] - v[2];
}

/* |p - (o + s e)|^2 */
static inline double d2_along(const double *p, const double *o, const double *e, double s)
{
	double r[3] = {p[0] - (o[0] + s * e[0]), p[1] - (o[1] + s * e[1]), p[2] - (o[2] + s * e[2])};
	return dot3(r, r);
}

static double seg_d2(const double *p, const double *a, const double *b)
{
	double ab[3], ap[3];
	sub3(b, a, ab);
	sub3(p, a, ap);
	double l2 = dot3(ab, ab), t = l2 > 0 ? dot3(ap, ab) / l2 : 0;
	return d2_along(p, a, ab, t < 0 ? 0 : t > 1 ? 1 : t);
}

static double flat_d2(const double *p, const wtri_t *t)
{
	double d = seg_d2(p, t->a, t->b), e = seg_d2(p, t->b, t->c), f = seg_d2(p, t->c, t->a);
	return fmin(d, fmin(e, f));
}

/* Ericson, Real-Time Collision Detection, 5.1.5 ClosestPtPointTriangle:
 * the Voronoi region of p (vertex, edge or face) from six dot products. */
static double tri_d2(const double *p, const wtri_t *t)
{
	const double *a = t->a, *b = t->b, *c = t->c;
	double ab[3], ac[3], ap[3], bp[3], cp[3];
	if (t->flat)
		return flat_d2(p, t);
	sub3(b, a, ab);
	sub3(c, a, ac);
	sub3(p, a, ap);
	double d1 = dot3(ab, ap), d2 = dot3(ac, ap);
	if (d1 <= 0 && d2 <= 0)
		return dot3(ap, ap);
	sub3(p, b, bp);
	double d3 = dot3(ab, bp), d4 = dot3(ac, bp);
	if (d3 >= 0 && d4 <= d3)
		return dot3(bp, bp);
	double vc = d1 * d4 - d3 * d2;
	if (vc <= 0 && d1 >= 0 && d3 <= 0)
		return d2_along(p, a, ab, d1 / (d1 - d3));
	sub3(p, c, cp);
	double d5 = dot3(ab, cp), d6 = dot3(ac, cp);
	if (d6 >= 0 && d5 <= d6)
		return dot3(cp, cp);
	double vb = d5 * d2 - d1 * d6;
	if (vb <= 0 && d2 >= 0 && d6 <= 0)
		return d2_along(p, a, ac, d2 / (d2 - d6));
	double va = d3 * d6 - d5 * d4;
	if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
		double bc[3];
		sub3(c, b, bc);
		return d2_along(p, b, bc, (d4 - d3) / ((d4 - d3) + (d5 - d6)));
	}
	double den = 1 / (va + vb + vc), v = vb * den, w = vc * den;
	double r[3] = {p[0] - (a[0] + ab[0] * v + ac[0] * w), p[1] - (a[1] + ab[1] * v + ac[1] * w),
		       p[2] - (a[2] + ab[2] * v + ac[2] * w)};
	return dot3(r, r);
}

/* ------------------------------------------------ wall triangles */

static void put_tri(wtri_t *t, const double *a, const double *b, const double *c)
{
	double ab[3], ac[3];
	memcpy(t->a, a, sizeof t->a);
	memcpy(t->b, b, sizeof t->b);
	memcpy(t->c, c, sizeof t->c);
	sub3(b, a, ab);
	sub3(c, a, ac);
	double n[3] = {ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2], ab[0] * ac[1] - ab[1] * ac[0]};
	/* Ericson's edge formulas divide by |edge|^2 and the face formula by
	 * |n|^2: a degenerate triangle is a set of segments */
	t->flat = !(dot3(n, n) > 0);
}

/* The triangles of boundary element e (geometry.c's split); returns
 * their number. */
static int belem_tris(const fv_mesh_t *m, fv_idx_t e, wtri_t *out)
{
	const fv_idx_t *v = m->belem_node + m->belem_node_off[e];
	int nn = m->belem_node_off[e + 1] - m->belem_node_off[e];
	const double *p[FV_MAX_FACE_NODES];
	double c0[3] = {0, 0, 0};
	for (int i = 0; i < nn; i++)
		p[i] = m->xyz + 3 * (size_t)v[i];
	if (nn == 3) {
		put_tri(out, p[0], p[1], p[2]);
		return 1;
	}
	for (int i = 0; i < nn; i++)
		for (int d = 0; d < 3; d++)
			c0[d] += p[i][d];
	for (int d = 0; d < 3; d++)
		c0[d] *= 1.0 / nn;
	for (int i = 0; i < nn; i++)
		put_tri(out + i, c0, p[i], p[(i + 1) % nn]);
	return nn;
}

static fv_err_t wall_tris(const fv_mesh_t *m, const uint8_t *wall, bvh_t *t)
{
	size_t n = 0;
	int any = 0;
	for (int k = 0; k < m->n_markers; k++)
		any |= wall[k] != 0;
	FV_CHECK(any, FV_ERR_ARG, "%s: wall distance: no marker is a wall (of %d markers)", m->source, m->n_markers);
	for (fv_idx_t e = 0; e < m->n_belems; e++)
		if (wall[m->belem_marker[e]])
			n += m->belem_node_off[e + 1] - m->belem_node_off[e] == 3 ? 1 : FV_MAX_FACE_NODES;
	FV_CHECK(n > 0, FV_ERR_ARG, "%s: wall distance: the wall markers have no faces", m->source);
	FV_CHECK(n <= (size_t)FV_IDX_MAX / 2, FV_ERR_MEM, "%s: wall distance: %zu wall triangles", m->source, n);
	FV_CALL(fv_malloc(&t->tri, n, sizeof *t->tri, "wall triangles"));
	t->n_tris = 0;
	t->scale = 0;
	for (fv_idx_t e = 0; e < m->n_belems; e++)
		if (wall[m->belem_marker[e]])
			t->n_tris += belem_tris(m, e, t->tri + t->n_tris);
	for (int32_t i = 0; i < t->n_tris; i++)
		for (int d = 0; d < 3; d++)
			t->scale = fmax(t->scale, fmax(fabs(t->tri[i].a[d]), fmax(fabs(t->tri[i].b[d]), fabs(t->tri[i].c[d]))));
	return FV_OK;
}

/* ------------------------------------------------ tree (median split) */

/* A triangle while the tree is built: the items are permuted in place, so
 * that every pass over a node's triangles reads contiguous memory. */
typedef struct item {
	double c[3];          /* centroid: the split key */
	int32_t id;           /* index in the wall triangles */
} item_t;

/* A total order on (centroid coordinate, index): the split is the same on
 * every machine and run. */
static inline int before(const item_t *a, const item_t *b, int axis)
{
	return a->c[axis] < b->c[axis] || (a->c[axis] == b->c[axis] && a->id < b->id);
}

/* Quickselect (Hoare partition): v[k] ends where a sort would put it, with
 * smaller items before it and larger ones after. */
static void select_kth(item_t *v, long n, long k, int axis)
{
	long lo = 0, hi = n - 1;
	while (lo < hi) {
		item_t pivot = v[lo + (hi - lo) / 2], tmp;
		long i = lo, j = hi;
		while (i <= j) {
			while (before(&v[i], &pivot, axis))
				i++;
			while (before(&pivot, &v[j], axis))
				j--;
			if (i <= j) {
				tmp = v[i];
				v[i++] = v[j];
				v[j--] = tmp;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* Splits along the longest extent of the centroids. */
static int split_axis(const item_t *v, int32_t count)
{
	double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
	int axis = 0;
	for (int32_t i = 0; i < count; i++)
		for (int d = 0; d < 3; d++) {
			lo[d] = fmin(lo[d], v[i].c[d]);
			hi[d] = fmax(hi[d], v[i].c[d]);
		}
	for (int d = 1; d < 3; d++)
		if (hi[d] - lo[d] > hi[axis] - lo[axis])
			axis = d;
	return axis;
}

static void leaf_bounds(bnode_t *nd, const wtri_t *tri, const item_t *v, int32_t count)
{
	for (int d = 0; d < 3; d++) {
		nd->lo[d] = INFINITY;
		nd->hi[d] = -INFINITY;
	}
	for (int32_t i = 0; i < count; i++) {
		const wtri_t *t = &tri[v[i].id];
		for (int d = 0; d < 3; d++) {
			nd->lo[d] = fmin(nd->lo[d], fmin(t->a[d], fmin(t->b[d], t->c[d])));
			nd->hi[d] = fmax(nd->hi[d], fmax(t->a[d], fmax(t->b[d], t->c[d])));
		}
	}
}

/* Node for the items it[first .. first + count); returns its index. The
 * bounds of an interior node are those of its children: each triangle is
 * read once, at its leaf. */
static int32_t build_node(bvh_t *t, item_t *it, int32_t first, int32_t count)
{
	int32_t me = t->n_nodes++;
	if (count <= LEAF_TRIS) {
		leaf_bounds(&t->node[me], t->tri, it + first, count);
		t->node[me].first_or_right = first;
		t->node[me].count = count;
		return me;
	}
	int32_t half = count / 2;
	select_kth(it + first, count, half, split_axis(it + first, count));
	int32_t left = build_node(t, it, first, half);
	int32_t right = build_node(t, it, first + half, count - half);
	bnode_t *nd = &t->node[me];
	for (int d = 0; d < 3; d++) {
		nd->lo[d] = fmin(t->node[left].lo[d], t->node[right].lo[d]);
		nd->hi[d] = fmax(t->node[left].hi[d], t->node[right].hi[d]);
	}
	nd->first_or_right = right;
	nd->count = 0;
	return me;
}

/* Builds the tree and puts the triangles in leaf order. */
static fv_err_t build_bvh(bvh_t *t)
{
	item_t *it = NULL;
	wtri_t *sorted = NULL;
	size_t n = (size_t)t->n_tris;
	fv_err_t err;
	/* a median split of n > LEAF_TRIS items makes at most 2n nodes */
	FV_CALL_GOTO(err, done, fv_malloc(&t->node, 2 * n + 1, sizeof *t->node, "wall tree"));
	FV_CALL_GOTO(err, done, fv_malloc(&it, n, sizeof *it, "wall tree order"));
	FV_CALL_GOTO(err, done, fv_malloc(&sorted, n, sizeof *sorted, "wall triangles"));
	for (size_t i = 0; i < n; i++) {
		it[i].id = (int32_t)i;
		for (int d = 0; d < 3; d++)
			it[i].c[d] = (t->tri[i].a[d] + t->tri[i].b[d] + t->tri[i].c[d]) / 3;
	}
	t->n_nodes = 0;
	build_node(t, it, 0, t->n_tris);
	for (size_t i = 0; i < n; i++)
		sorted[i] = t->tri[it[i].id];
	free(t->tri);
	t->tri = sorted;
	sorted = NULL;
done:
	free(it);
	free(sorted);
	return err;
}

/* ------------------------------------------------ nearest query */

static inline double box_d2(const bnode_t *b, const double *p)
{
	double s = 0;
	for (int d = 0; d < 3; d++) {
		double e = p[d] < b->lo[d] ? b->lo[d] - p[d] : p[d] > b->hi[d] ? p[d] - b->hi[d] : 0;
		s += e * e;
	}
	return s;
}

/* Squared distance beyond which a box cannot hold a triangle as near as
 * best (see MARGIN above). */
static inline double prune_d2(double best, double margin)
{
	double r = sqrt(best) + margin;
	return r * r;
}

/* Squared distance from p to the wall. *hint: a triangle to start from
 * (the previous cell's nearest, usually near), updated to this one's. */
static double nearest_d2(const bvh_t *t, const double *p, int32_t *hint)
{
	int32_t stack[STACK_MAX];
	double sd2[STACK_MAX];
	int top = 0;
	double margin = MARGIN * (t->scale + fmax(fabs(p[0]), fmax(fabs(p[1]), fabs(p[2]))));
	double best = tri_d2(p, &t->tri[*hint]), limit = prune_d2(best, margin);

	stack[top] = 0;
	sd2[top++] = box_d2(&t->node[0], p);
	while (top > 0) {
		top--;
		if (sd2[top] > limit)
			continue;
		const bnode_t *nd = &t->node[stack[top]];
		if (nd->count > 0) {
			for (int32_t i = nd->first_or_right; i < nd->first_or_right + nd->count; i++) {
				double d2 = tri_d2(p, &t->tri[i]);
				if (d2 < best) {
					best = d2;
					*hint = i;
					limit = prune_d2(best, margin);
				}
			}
			continue;
		}
		int32_t l = stack[top] + 1, r = nd->first_or_right;
		double dl = box_d2(&t->node[l], p), dr = box_d2(&t->node[r], p);
		/* the nearer child on top: popped first, it tightens the limit */
		int32_t near = dl <= dr ? l : r, far = dl <= dr ? r : l;
		double dnear = fmin(dl, dr), dfar = fmax(dl, dr);
		if (dfar <= limit) {
			stack[top] = far;
			sd2[top++] = dfar;
		}
		if (dnear <= limit) {
			stack[top] = near;
			sd2[top++] = dnear;
		}
	}
	return best;
}

/* ------------------------------------------------ loop over the cells */

typedef struct job {
	const bvh_t *t;
	const fv_mesh_t *m;
	double *dist;
	atomic_long next;     /* first cell of the next chunk */
} job_t;

/* Chunks of consecutive cells, so each cell starts from the triangle
 * nearest to the cell before it; threads take chunks as they finish. */
static void *worker(void *arg)
{
	job_t *j = arg;
	const size_t n = (size_t)j->m->n_cells;
	const fv_real_t *x = j->m->cell_ctr, *y = x + n, *z = y + n;
	for (;;) {
		long c0 = atomic_fetch_add(&j->next, CHUNK);
		if (c0 >= (long)n)
			return NULL;
		long c1 = c0 + CHUNK < (long)n ? c0 + CHUNK : (long)n;
		int32_t hint = 0;
		for (long c = c0; c < c1; c++) {
			double p[3] = {(double)x[c], (double)y[c], (double)z[c]};
			j->dist[c] = sqrt(nearest_d2(j->t, p, &hint));
		}
	}
}

static int thread_count(int n_threads, fv_idx_t n_cells)
{
	long n = n_threads > 0 ? n_threads : sysconf(_SC_NPROCESSORS_ONLN);
	long chunks = ((long)n_cells + CHUNK - 1) / CHUNK;
	if (n < 1)
		n = 1;
	if (n > chunks)
		n = chunks > 0 ? chunks : 1;
	return (int)(n < MAX_THREADS ? n : MAX_THREADS);
}

static void run_threads(job_t *j, int n_threads)
{
	pthread_t th[MAX_THREADS];
	int started = 0;
	/* The calling thread is one of the workers. A thread that cannot be
	 * started only costs time: the others take its chunks. */
	while (started < n_threads - 1 && pthread_create(&th[started], NULL, worker, j) == 0)
		started++;
	worker(j);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}

fv_err_t fv_wall_distance(const fv_mesh_t *m, const uint8_t *wall_marker, int n_threads, double *dist)
{
	bvh_t t = {0};
	job_t j = {&t, m, dist, 0};
	fv_err_t err;
	FV_CHECK(m && wall_marker && dist, FV_ERR_ARG, "wall distance: NULL argument");
	FV_CHECK(m->cell_ctr || m->n_cells == 0, FV_ERR_ARG,
		 "%s: wall distance needs the cell centroids (fv_mesh_compute_geometry)", m->source);
	FV_CHECK(n_threads >= 0, FV_ERR_ARG, "wall distance: %d threads", n_threads);
	for (fv_idx_t e = 0; e < m->n_belems; e++)
		FV_CHECK(m->belem_marker[e] >= 0 && m->belem_marker[e] < m->n_markers, FV_ERR_MESH,
			 "%s: boundary element %d has marker %d of %d", m->source, (int)e, (int)m->belem_marker[e],
			 m->n_markers);
	FV_CALL_GOTO(err, done, wall_tris(m, wall_marker, &t));
	FV_CALL_GOTO(err, done, build_bvh(&t));
	atomic_init(&j.next, 0);
	run_threads(&j, thread_count(n_threads, m->n_cells));
done:
	free(t.tri);
	free(t.node);
	return err;
}
