/* SPDX-License-Identifier: MIT */
/* Wall surfaces taken from a mesh, face-to-node averaging, plane cuts
 * joined into curves, and span stations in chord coordinates. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fvstar/post.h"
#include "mesh/vtu_internal.h"
#include "util/search.h"

#define DEG (3.14159265358979323846 / 180)

const double fv_m6_station_eta[FV_M6_N_STATIONS] = {0.20, 0.44, 0.65, 0.80, 0.90, 0.96, 0.99};

/* ------------------------------------------------------------- surfaces */

void fv_surface_init(fv_surface_t *s)
{
	memset(s, 0, sizeof *s);
}

void fv_surface_free(fv_surface_t *s)
{
	free(s->xyz);
	free(s->node_mesh);
	free(s->face_node_off);
	free(s->face_node);
	free(s->face_mesh);
	free(s->face_area);
	fv_surface_init(s);
}

static double face_area(const double *xyz, const fv_idx_t *fn, int nv)
{
	const double *a = xyz + 3 * (size_t)fn[0], *b = xyz + 3 * (size_t)fn[1], *c = xyz + 3 * (size_t)fn[2];
	double u[3], v[3], w[3];
	/* a planar quad's area is half the cross product of its diagonals */
	const double *d = nv == 4 ? xyz + 3 * (size_t)fn[3] : a;
	for (int k = 0; k < 3; k++) {
		u[k] = nv == 4 ? c[k] - a[k] : b[k] - a[k];
		v[k] = nv == 4 ? d[k] - b[k] : c[k] - a[k];
	}
	w[0] = u[1] * v[2] - u[2] * v[1];
	w[1] = u[2] * v[0] - u[0] * v[2];
	w[2] = u[0] * v[1] - u[1] * v[0];
	return 0.5 * sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
}

/* The surface of faces over n_nodes points. from_mesh: only the points
 * the faces use are kept, their ids in node_mesh, face ids in face_mesh;
 * otherwise every point keeps its number. */
static fv_err_t build(fv_surface_t *s, fv_idx_t n_nodes, const double *xyz, fv_idx_t n_faces,
		      const fv_idx_t *off, const fv_idx_t *node, const fv_idx_t *face_id, int from_mesh)
{
	fv_idx_t *map = NULL, nn = 0;
	fv_err_t err = FV_OK;
	fv_surface_free(s);
	FV_CHECK(n_nodes >= 0 && n_faces >= 0, FV_ERR_ARG, "surface: negative counts");
	for (fv_idx_t f = 0; f < n_faces; f++) {
		fv_idx_t nv = off[f + 1] - off[f];
		FV_CHECK(nv == 3 || nv == 4, FV_ERR_ARG, "surface: face %d has %d nodes (3 or 4 expected)", (int)f,
			 (int)nv);
		for (fv_idx_t j = off[f]; j < off[f + 1]; j++)
			FV_CHECK(node[j] >= 0 && node[j] < n_nodes, FV_ERR_ARG,
				 "surface: face %d names node %d of %d", (int)f, (int)node[j], (int)n_nodes);
	}
	FV_CALL(fv_malloc(&map, (size_t)n_nodes + 1, sizeof *map, "surface node map"));
	for (fv_idx_t i = 0; i < n_nodes; i++)
		map[i] = from_mesh ? -1 : nn++;
	for (fv_idx_t j = 0; j < off[n_faces]; j++)
		if (map[node[j]] < 0)
			map[node[j]] = nn++;
	s->n_nodes = nn;
	s->n_faces = n_faces;
	FV_CALL_GOTO(err, fail, fv_malloc(&s->xyz, 3 * (size_t)nn + 1, sizeof *s->xyz, "surface nodes"));
	FV_CALL_GOTO(err, fail, fv_malloc(&s->node_mesh, (size_t)nn + 1, sizeof *s->node_mesh, "surface nodes"));
	FV_CALL_GOTO(err, fail, fv_malloc(&s->face_node_off, (size_t)n_faces + 1, sizeof *s->face_node_off, "surface faces"));
	FV_CALL_GOTO(err, fail, fv_malloc(&s->face_node, (size_t)off[n_faces] + 1, sizeof *s->face_node, "surface faces"));
	FV_CALL_GOTO(err, fail, fv_malloc(&s->face_mesh, (size_t)n_faces + 1, sizeof *s->face_mesh, "surface faces"));
	FV_CALL_GOTO(err, fail, fv_malloc(&s->face_area, (size_t)n_faces + 1, sizeof *s->face_area, "surface faces"));
	for (fv_idx_t i = 0; i < n_nodes; i++)
		if (map[i] >= 0) {
			memcpy(s->xyz + 3 * (size_t)map[i], xyz + 3 * (size_t)i, 3 * sizeof *xyz);
			s->node_mesh[map[i]] = from_mesh ? i : -1;
		}
	s->face_node_off[0] = 0;
	for (fv_idx_t f = 0; f < n_faces; f++) {
		fv_idx_t o = s->face_node_off[f], nv = off[f + 1] - off[f];
		for (fv_idx_t j = 0; j < nv; j++)
			s->face_node[o + j] = map[node[off[f] + j]];
		s->face_node_off[f + 1] = o + nv;
		s->face_mesh[f] = face_id ? face_id[f] : -1;
		s->face_area[f] = face_area(s->xyz, s->face_node + o, (int)nv);
	}
	free(map);
	return FV_OK;
fail:
	free(map);
	fv_surface_free(s);
	return err;
}

fv_err_t fv_surface_build(fv_surface_t *s, fv_idx_t n_nodes, const double *xyz, fv_idx_t n_faces,
			  const fv_idx_t *face_node_off, const fv_idx_t *face_node)
{
	return build(s, n_nodes, xyz, n_faces, face_node_off, face_node, NULL, 0);
}

fv_err_t fv_surface_extract(fv_surface_t *s, const fv_mesh_t *m, const uint8_t *use_marker)
{
	fv_idx_t n = 0, *off = NULL, *node = NULL, *id = NULL;
	fv_err_t err;
	FV_CHECK(m->face_node_off && m->face_marker, FV_ERR_ARG, "%s: surface of a mesh without faces", m->source);
	for (fv_idx_t f = 0; f < m->n_bfaces; f++)
		n += use_marker[m->face_marker[f]] != 0;
	FV_CHECK(n > 0, FV_ERR_ARG, "%s: no boundary face has one of the surface markers", m->source);
	FV_CALL(fv_malloc(&off, (size_t)n + 1, sizeof *off, "surface faces"));
	FV_CALL_GOTO(err, done, fv_malloc(&node, 4 * (size_t)n, sizeof *node, "surface faces"));
	FV_CALL_GOTO(err, done, fv_malloc(&id, (size_t)n, sizeof *id, "surface faces"));
	off[0] = 0;
	n = 0;
	for (fv_idx_t f = 0; f < m->n_bfaces; f++) {
		if (!use_marker[m->face_marker[f]])
			continue;
		fv_idx_t o = off[n];
		for (fv_idx_t j = m->face_node_off[f]; j < m->face_node_off[f + 1]; j++)
			node[o++] = m->face_node[j];
		id[n++] = f;
		off[n] = o;
	}
	err = build(s, m->n_nodes, m->xyz, n, off, node, id, 1);
	if (err != FV_OK)
		fv_error_trace(err, __FILE__, __LINE__);
done:
	free(off);
	free(node);
	free(id);
	return err;
}

fv_err_t fv_surface_face_to_node(const fv_surface_t *s, const double *face_val, double *node_val)
{
	double *w;
	FV_CALL(fv_calloc(&w, (size_t)s->n_nodes + 1, sizeof *w, "node weights"));
	memset(node_val, 0, (size_t)s->n_nodes * sizeof *node_val);
	for (fv_idx_t f = 0; f < s->n_faces; f++)
		for (fv_idx_t j = s->face_node_off[f]; j < s->face_node_off[f + 1]; j++) {
			node_val[s->face_node[j]] += s->face_area[f] * face_val[f];
			w[s->face_node[j]] += s->face_area[f];
		}
	for (fv_idx_t i = 0; i < s->n_nodes; i++)
		node_val[i] = w[i] > 0 ? node_val[i] / w[i] : NAN;
	free(w);
	return FV_OK;
}

static void write_surface(fv_vtu_out_t *o, const fv_surface_t *s, const char *name, const double *node_val,
			  const double *face_val)
{
	size_t np = (size_t)s->n_nodes, nf = (size_t)s->n_faces, nconn = (size_t)s->face_node_off[s->n_faces];
	uint64_t off = 0;
	fv_vtu_begin(o);
	fprintf(o->f, "  <UnstructuredGrid>\n    <Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n"
		      "      <PointData Scalars=\"%s\">\n", np, nf, name);
	fv_vtu_array_tag(o, "Float64", name, 1, np * sizeof(double), &off);
	fprintf(o->f, "      </PointData>\n      <CellData Scalars=\"%s\">\n", name);
	fv_vtu_array_tag(o, "Float64", name, 1, nf * sizeof(double), &off);
	fprintf(o->f, "      </CellData>\n");
	fv_vtu_geometry_tags(o, np, nf, nconn, &off);
	fprintf(o->f, "    </Piece>\n  </UnstructuredGrid>\n  <AppendedData encoding=\"raw\">\n   _");
	fv_vtu_put_block_size(o, np * sizeof(double));
	fv_vtu_put(o, node_val, np * sizeof(double));
	fv_vtu_put_block_size(o, nf * sizeof(double));
	fv_vtu_put(o, face_val, nf * sizeof(double));
	fv_vtu_put_block_size(o, np * 3 * sizeof(double));
	fv_vtu_put(o, s->xyz, np * 3 * sizeof(double));
	/* fv_idx_t is int32_t: connectivity and offsets as they are */
	fv_vtu_put_block_size(o, nconn * sizeof(int32_t));
	fv_vtu_put(o, s->face_node, nconn * sizeof(int32_t));
	fv_vtu_put_block_size(o, nf * sizeof(int32_t));
	fv_vtu_put(o, s->face_node_off + 1, nf * sizeof(int32_t));
	fv_vtu_put_block_size(o, nf);
	for (size_t f = 0; f < nf; f++) {
		uint8_t t = s->face_node_off[f + 1] - s->face_node_off[f] == 3 ? 5 : 9; /* VTK_TRIANGLE, VTK_QUAD */
		fv_vtu_put(o, &t, 1);
	}
	fprintf(o->f, "\n  </AppendedData>\n</VTKFile>\n");
}

fv_err_t fv_surface_write_vtu(const char *path, const fv_surface_t *s, const char *name, const double *node_val,
			      const double *face_val)
{
	fv_vtu_out_t o;
	fv_err_t err;
	FV_CHECK(s->n_faces > 0 && node_val && face_val, FV_ERR_ARG, "%s: an empty surface or no values to write",
		 path);
	err = fv_vtu_open(&o, path);
	if (err == FV_OK)
		write_surface(&o, s, name, node_val, face_val);
	if (fv_vtu_close(&o) != FV_OK && err == FV_OK)
		err = FV_ERR_IO;
	return err;
}

/* ------------------------------------------------------------------ cuts */

void fv_cut_init(fv_cut_t *c)
{
	memset(c, 0, sizeof *c);
}

void fv_cut_free(fv_cut_t *c)
{
	free(c->curve_off);
	free(c->closed);
	free(c->xyz);
	free(c->value);
	fv_cut_init(c);
}

static uint64_t edge_key(fv_idx_t a, fv_idx_t b)
{
	return a < b ? (uint64_t)a << 32 | (uint64_t)b : (uint64_t)b << 32 | (uint64_t)a;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static fv_idx_t find_key(const uint64_t *keys, fv_idx_t n, uint64_t k)
{
	return (fv_idx_t)fv_search(keys, (size_t)n, (int64_t)k, fv_key_u63);
}

/* The point where edge (a, b) crosses the plane, taken from the end nearer
 * to it so that a node on the plane is returned exactly. */
static void edge_point(const fv_surface_t *s, const double *val, const double *sd, fv_idx_t a, fv_idx_t b,
		       int axis, double c0, double p[3], double *v)
{
	if (fabs(sd[a]) > fabs(sd[b])) {
		fv_idx_t t = a;
		a = b;
		b = t;
	}
	double t = sd[a] / (sd[a] - sd[b]);
	for (int k = 0; k < 3; k++)
		p[k] = s->xyz[3 * (size_t)a + k] + t * (s->xyz[3 * (size_t)b + k] - s->xyz[3 * (size_t)a + k]);
	p[axis] = c0;
	*v = val ? val[a] + t * (val[b] - val[a]) : 0;
}

static int same_point(const double *xyz, fv_idx_t i, fv_idx_t j)
{
	return xyz[3 * (size_t)i] == xyz[3 * (size_t)j] && xyz[3 * (size_t)i + 1] == xyz[3 * (size_t)j + 1] &&
	       xyz[3 * (size_t)i + 2] == xyz[3 * (size_t)j + 2];
}

fv_err_t fv_surface_cut(const fv_surface_t *s, const double *node_val, int axis, double c0, fv_cut_t *cut)
{
	double *sd = NULL, *pxyz = NULL, *pval = NULL;
	uint64_t *seg = NULL, *keys = NULL;
	fv_idx_t n_seg = 0, n_keys = 0, *deg = NULL, *inc = NULL, *order = NULL;
	uint8_t *used = NULL;
	fv_err_t err = FV_OK;

	fv_cut_free(cut);
	FV_CHECK(axis >= 0 && axis < 3, FV_ERR_ARG, "cut: axis %d is not 0, 1 or 2", axis);
	FV_CALL(fv_malloc(&sd, (size_t)s->n_nodes + 1, sizeof *sd, "cut distances"));
	for (fv_idx_t i = 0; i < s->n_nodes; i++)
		sd[i] = s->xyz[3 * (size_t)i + axis] - c0;
	/* at most one segment per triangle, two triangles per quad */
	FV_CALL_GOTO(err, done, fv_malloc(&seg, 4 * (size_t)s->n_faces + 2, sizeof *seg, "cut segments"));
	for (fv_idx_t f = 0; f < s->n_faces; f++) {
		const fv_idx_t *fn = s->face_node + s->face_node_off[f];
		int nv = (int)(s->face_node_off[f + 1] - s->face_node_off[f]);
		for (int t = 0; t < nv - 2; t++) {
			fv_idx_t tri[3] = {fn[0], fn[t + 1], fn[t + 2]};
			int nc = 0;
			for (int e = 0; e < 3; e++) {
				fv_idx_t a = tri[e], b = tri[(e + 1) % 3];
				if ((sd[a] >= 0) != (sd[b] >= 0))
					seg[2 * (size_t)n_seg + (size_t)nc++] = edge_key(a, b);
			}
			/* nc is 0 or 2: a triangle has an even number of sign changes */
			if (nc == 2)
				n_seg++;
		}
	}
	/* the points: one per distinct cut edge */
	FV_CALL_GOTO(err, done, fv_malloc(&keys, 2 * (size_t)n_seg + 1, sizeof *keys, "cut points"));
	memcpy(keys, seg, 2 * (size_t)n_seg * sizeof *keys);
	qsort(keys, 2 * (size_t)n_seg, sizeof *keys, cmp_u64);
	for (fv_idx_t i = 0; i < 2 * n_seg; i++)
		if (n_keys == 0 || keys[i] != keys[n_keys - 1])
			keys[n_keys++] = keys[i];
	/* incidence: point -> segments (CSR) */
	FV_CALL_GOTO(err, done, fv_calloc(&deg, (size_t)n_keys + 1, sizeof *deg, "cut incidence"));
	FV_CALL_GOTO(err, done, fv_malloc(&inc, 2 * (size_t)n_seg + 1, sizeof *inc, "cut incidence"));
	FV_CALL_GOTO(err, done, fv_calloc(&used, (size_t)n_seg + 1, 1, "cut incidence"));
	for (fv_idx_t i = 0; i < n_seg; i++)
		for (int e = 0; e < 2; e++) {
			fv_idx_t p = find_key(keys, n_keys, seg[2 * (size_t)i + (size_t)e]);
			seg[2 * (size_t)i + (size_t)e] = (uint64_t)p; /* from here on, point ids */
			deg[p + 1]++;
		}
	for (fv_idx_t p = 0; p < n_keys; p++)
		deg[p + 1] += deg[p];
	{
		fv_idx_t *fill;
		FV_CALL_GOTO(err, done, fv_malloc(&fill, (size_t)n_keys + 1, sizeof *fill, "cut incidence"));
		memcpy(fill, deg, ((size_t)n_keys + 1) * sizeof *fill);
		for (fv_idx_t i = 0; i < n_seg; i++)
			for (int e = 0; e < 2; e++)
				inc[fill[seg[2 * (size_t)i + (size_t)e]]++] = i;
		free(fill);
	}
	/* walk: open curves from their ends (odd degree) first, then loops;
	 * each point may be listed once per curve through it, plus a closing
	 * repeat, so n_seg + number of curves bounds the list */
	FV_CALL_GOTO(err, done, fv_malloc(&order, 3 * (size_t)n_seg + 1, sizeof *order, "cut curves"));
	FV_CALL_GOTO(err, done, fv_malloc(&cut->curve_off, (size_t)n_seg + 1, sizeof *cut->curve_off, "cut curves"));
	FV_CALL_GOTO(err, done, fv_malloc(&cut->closed, (size_t)n_seg + 1, 1, "cut curves"));
	{
		fv_idx_t n_order = 0;
		cut->curve_off[0] = 0;
		for (int pass = 0; pass < 2; pass++)
			for (fv_idx_t start = 0; start < n_keys; start++) {
				if (pass == 0 && (deg[start + 1] - deg[start]) % 2 == 0)
					continue;
				for (;;) {
					fv_idx_t p = start, c0i = n_order;
					for (;;) {
						fv_idx_t next = -1;
						order[n_order++] = p;
						for (fv_idx_t j = deg[p]; j < deg[p + 1] && next < 0; j++)
							if (!used[inc[j]]) {
								fv_idx_t i = inc[j];
								used[i] = 1;
								next = (fv_idx_t)seg[2 * (size_t)i] == p ? (fv_idx_t)seg[2 * (size_t)i + 1]
													  : (fv_idx_t)seg[2 * (size_t)i];
							}
						if (next < 0)
							break;
						p = next;
					}
					if (n_order - c0i < 2) {
						n_order = c0i; /* no unused segment here */
						break;
					}
					cut->closed[cut->n_curves] = order[n_order - 1] == start;
					if (cut->closed[cut->n_curves])
						n_order--;
					cut->curve_off[++cut->n_curves] = n_order;
				}
			}
		FV_CALL_GOTO(err, done, fv_malloc(&pxyz, 3 * (size_t)n_keys + 1, sizeof *pxyz, "cut points"));
		FV_CALL_GOTO(err, done, fv_malloc(&pval, (size_t)n_keys + 1, sizeof *pval, "cut points"));
		for (fv_idx_t p = 0; p < n_keys; p++)
			edge_point(s, node_val, sd, (fv_idx_t)(keys[p] >> 32), (fv_idx_t)(keys[p] & 0xffffffffu), axis, c0,
				   pxyz + 3 * (size_t)p, &pval[p]);
		/* the points in curve order, without repeats where a curve passes
		 * through a node; curves reduced to one point are dropped */
		FV_CALL_GOTO(err, done, fv_malloc(&cut->xyz, 3 * (size_t)n_order + 1, sizeof *cut->xyz, "cut points"));
		FV_CALL_GOTO(err, done, fv_malloc(&cut->value, (size_t)n_order + 1, sizeof *cut->value, "cut points"));
		int nc = 0;
		fv_idx_t np = 0, b = cut->curve_off[0];
		for (int k = 0; k < cut->n_curves; k++) {
			/* curve_off is compacted in place: read the bounds first */
			fv_idx_t first = np, a = b;
			b = cut->curve_off[k + 1];
			for (fv_idx_t j = a; j < b; j++) {
				fv_idx_t p = order[j];
				memcpy(cut->xyz + 3 * (size_t)np, pxyz + 3 * (size_t)p, 3 * sizeof *pxyz);
				cut->value[np] = pval[p];
				if (np == first || !same_point(cut->xyz, np, np - 1))
					np++;
			}
			if (cut->closed[k] && np - first > 1 && same_point(cut->xyz, np - 1, first))
				np--;
			if (np - first < 2) {
				np = first;
				continue;
			}
			cut->closed[nc] = cut->closed[k];
			cut->curve_off[nc] = first;
			cut->curve_off[++nc] = np;
		}
		cut->n_curves = nc;
		cut->n_points = np;
		cut->curve_off[nc] = np;
	}
done:
	if (err != FV_OK)
		fv_cut_free(cut);
	free(sd);
	free(seg);
	free(keys);
	free(deg);
	free(inc);
	free(used);
	free(order);
	free(pxyz);
	free(pval);
	return err;
}

double fv_cut_length(const fv_cut_t *c, int k)
{
	double len = 0;
	fv_idx_t a = c->curve_off[k], b = c->curve_off[k + 1];
	for (fv_idx_t i = a; i < b; i++) {
		fv_idx_t j = i + 1 < b ? i + 1 : a;
		if (j == a && !c->closed[k])
			break;
		double d[3];
		for (int q = 0; q < 3; q++)
			d[q] = c->xyz[3 * (size_t)j + q] - c->xyz[3 * (size_t)i + q];
		len += sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
	}
	return len;
}

/* ----------------------------------------------------- span stations */

void fv_planform_onera_m6(fv_planform_t *p, double semi_span)
{
	p->semi_span = semi_span;
	p->c_root = 0.8059 * semi_span / 1.1963;
	p->sweep_le_deg = 30;
	p->sweep_te_deg = 15.8;
}

void fv_station_free(fv_station_t *st)
{
	free(st->pt);
	memset(st, 0, sizeof *st);
}

static int cmp_station_point(const void *a, const void *b)
{
	const fv_station_point_t *p = a, *q = b;
	if (p->upper != q->upper)
		return q->upper - p->upper; /* upper first */
	if (p->x_c != q->x_c)
		return p->x_c < q->x_c ? -1 : 1;
	return (p->z_c > q->z_c) - (p->z_c < q->z_c);
}

fv_err_t fv_station_from_cut(const fv_cut_t *cut, double eta, double y, const fv_planform_t *planform, int nominal,
			     fv_station_t *st)
{
	fv_idx_t ile = 0, ite = 0, n = 0;
	double slope;
	memset(st, 0, sizeof *st);
	st->eta = eta;
	st->y = y;
	st->n_curves = cut->n_curves;
	FV_CHECK(cut->n_points >= 2, FV_ERR_ARG, "station 2y/b = %g (y = %g): the cut of the surface is empty", eta, y);
	for (fv_idx_t i = 1; i < cut->n_points; i++) {
		if (cut->xyz[3 * (size_t)i] < cut->xyz[3 * (size_t)ile])
			ile = i;
		if (cut->xyz[3 * (size_t)i] > cut->xyz[3 * (size_t)ite])
			ite = i;
	}
	memcpy(st->le, cut->xyz + 3 * (size_t)ile, sizeof st->le);
	memcpy(st->te, cut->xyz + 3 * (size_t)ite, sizeof st->te);
	st->chord = st->te[0] - st->le[0];
	FV_CHECK(st->chord > 0, FV_ERR_ARG, "station 2y/b = %g (y = %g): the cut has no extent in x", eta, y);
	st->x_le_used = st->le[0];
	st->chord_used = st->chord;
	if (planform) {
		st->x_le_nominal = y * tan(planform->sweep_le_deg * DEG);
		st->chord_nominal =
			planform->c_root - y * (tan(planform->sweep_le_deg * DEG) - tan(planform->sweep_te_deg * DEG));
		FV_CHECK(st->chord_nominal > 0 || !nominal, FV_ERR_ARG, "station y = %g lies beyond the planform's tip", y);
		if (nominal) {
			st->x_le_used = st->x_le_nominal;
			st->chord_used = st->chord_nominal;
		}
	}
	FV_CHECK(planform || !nominal, FV_ERR_ARG, "station 2y/b = %g: nominal chord without a planform", eta);
	slope = (st->te[2] - st->le[2]) / st->chord;
	/* points on the chord line (the LE and TE at least) go to both sides */
	FV_CALL(fv_malloc(&st->pt, 2 * (size_t)cut->n_points, sizeof *st->pt, "station points"));
	for (fv_idx_t i = 0; i < cut->n_points; i++) {
		const double *p = cut->xyz + 3 * (size_t)i;
		double zl = st->le[2] + slope * (p[0] - st->le[0]);
		fv_station_point_t q;
		q.x = p[0], q.y = p[1], q.z = p[2];
		q.value = cut->value[i];
		q.x_c = (p[0] - st->x_le_used) / st->chord_used;
		q.z_c = (p[2] - st->le[2]) / st->chord_used;
		int on = i == ile || i == ite || p[2] == zl;
		if (on || p[2] > zl) {
			q.upper = 1;
			st->pt[n++] = q;
			st->n_upper++;
		}
		if (on || p[2] < zl) {
			q.upper = 0;
			st->pt[n++] = q;
			st->n_lower++;
		}
	}
	qsort(st->pt, (size_t)n, sizeof *st->pt, cmp_station_point);
	return FV_OK;
}

fv_err_t fv_station_write_csv(const fv_station_t *st, const char *value_name, const char *path)
{
	FILE *f = fopen(path, "w");
	FV_CHECK(f, FV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
	fprintf(f, "x_over_c,z_over_c,%s,surface,x,y,z\n", value_name);
	for (fv_idx_t i = 0; i < st->n_upper + st->n_lower; i++) {
		const fv_station_point_t *p = &st->pt[i];
		fprintf(f, "%.15g,%.15g,%.15g,%s,%.15g,%.15g,%.15g\n", p->x_c, p->z_c, p->value,
			p->upper ? "upper" : "lower", p->x, p->y, p->z);
	}
	int bad = ferror(f);
	bad |= fclose(f) != 0;
	FV_CHECK(!bad, FV_ERR_IO, "%s: write failed", path);
	return FV_OK;
}
