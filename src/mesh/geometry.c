/* SPDX-License-Identifier: MIT */
/* Geometry: face area vectors and centroids, cell volumes and centroids,
 * for tets, pyramids, prisms and hexes with planar or warped faces. */
#include "fvstar/mesh.h"

#include <math.h>

#include "util/threads.h"

/*
 * A face is a triangle, or a quad split into four triangles around the
 * average c0 of its nodes (exact for warped quads: both cells of the face
 * see the same triangles). A cell is the union of tetrahedra joining its
 * node average to those triangles, so volume and centroid are exact for
 * this piecewise-flat surface, and each cell's area vectors sum to zero.
 *
 *        p3 ------- p2
 *        | \       / |
 *        |   \   /   |
 *        |    c0     |        tri k: (c0, p_k, p_k+1)
 *        |   /   \   |
 *        | /       \ |
 *        p0 ------- p1
 */

typedef struct vec3 {
	double x, y, z;
} vec3_t;

static inline vec3_t v_sub(vec3_t a, vec3_t b) { return (vec3_t){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline vec3_t v_add(vec3_t a, vec3_t b) { return (vec3_t){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline vec3_t v_scale(vec3_t a, double s) { return (vec3_t){a.x * s, a.y * s, a.z * s}; }
static inline double v_dot(vec3_t a, vec3_t b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline double v_norm(vec3_t a) { return sqrt(v_dot(a, a)); }
static inline vec3_t v_cross(vec3_t a, vec3_t b)
{
	return (vec3_t){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static inline vec3_t node(const fv_mesh_t *m, fv_idx_t i)
{
	const double *p = m->xyz + 3 * (size_t)i;
	return (vec3_t){p[0], p[1], p[2]};
}

/* The triangles of face f, oriented as the face (owner to neighbour). */
static int face_tris(const fv_mesh_t *m, fv_idx_t f, vec3_t tri[4][3])
{
	const fv_idx_t *fn = m->face_node + m->face_node_off[f];
	int nn = m->face_node_off[f + 1] - m->face_node_off[f];
	if (nn == 3) {
		tri[0][0] = node(m, fn[0]);
		tri[0][1] = node(m, fn[1]);
		tri[0][2] = node(m, fn[2]);
		return 1;
	}
	vec3_t p[FV_MAX_FACE_NODES], c0 = {0, 0, 0};
	for (int i = 0; i < nn; i++) {
		p[i] = node(m, fn[i]);
		c0 = v_add(c0, p[i]);
	}
	c0 = v_scale(c0, 1.0 / nn);
	for (int i = 0; i < nn; i++) {
		tri[i][0] = c0;
		tri[i][1] = p[i];
		tri[i][2] = p[(i + 1) % nn];
	}
	return nn;
}

static void face_geometry(fv_mesh_t *m, fv_idx_t f)
{
	vec3_t tri[4][3], s = {0, 0, 0}, wc = {0, 0, 0};
	double wsum = 0;
	int nt = face_tris(m, f, tri);
	size_t n = (size_t)m->n_faces;
	for (int t = 0; t < nt; t++) {
		vec3_t st = v_scale(v_cross(v_sub(tri[t][1], tri[t][0]), v_sub(tri[t][2], tri[t][0])), 0.5);
		double w = v_norm(st);
		vec3_t ct = v_scale(v_add(v_add(tri[t][0], tri[t][1]), tri[t][2]), 1.0 / 3.0);
		s = v_add(s, st);
		wc = v_add(wc, v_scale(ct, w));
		wsum += w;
	}
	if (wsum > 0)
		wc = v_scale(wc, 1.0 / wsum);
	else /* degenerate face: its nodes' average; the checks report it */
		wc = v_scale(v_add(v_add(tri[0][0], tri[0][1]), tri[0][2]), 1.0 / 3.0);
	m->face_area[f] = (fv_real_t)s.x;
	m->face_area[n + f] = (fv_real_t)s.y;
	m->face_area[2 * n + f] = (fv_real_t)s.z;
	m->face_ctr[f] = (fv_real_t)wc.x;
	m->face_ctr[n + f] = (fv_real_t)wc.y;
	m->face_ctr[2 * n + f] = (fv_real_t)wc.z;
}

static void cell_geometry(fv_mesh_t *m, fv_idx_t c)
{
	vec3_t ref = {0, 0, 0};
	double vol = 0;
	vec3_t vc = {0, 0, 0};
	int nn = m->cell_node_off[c + 1] - m->cell_node_off[c];
	size_t n = (size_t)m->n_cells;
	for (fv_idx_t i = m->cell_node_off[c]; i < m->cell_node_off[c + 1]; i++)
		ref = v_add(ref, node(m, m->cell_node[i]));
	ref = v_scale(ref, 1.0 / nn);
	for (fv_idx_t s = m->cell_face_off[c]; s < m->cell_face_off[c + 1]; s++) {
		vec3_t tri[4][3];
		int nt = face_tris(m, m->cell_face[s], tri);
		double sign = m->cell_face_sign[s];
		for (int t = 0; t < nt; t++) {
			vec3_t a = v_sub(tri[t][0], ref), b = v_sub(tri[t][1], ref), d = v_sub(tri[t][2], ref);
			double v = sign * v_dot(a, v_cross(b, d)) / 6.0;
			vol += v;
			vc = v_add(vc, v_scale(v_add(v_add(a, b), d), v / 4.0));
		}
	}
	m->cell_vol[c] = (fv_real_t)vol;
	if (vol != 0)
		vc = v_scale(vc, 1.0 / vol);
	m->cell_ctr[c] = (fv_real_t)(ref.x + vc.x);
	m->cell_ctr[n + c] = (fv_real_t)(ref.y + vc.y);
	m->cell_ctr[2 * n + c] = (fv_real_t)(ref.z + vc.z);
}

fv_err_t fv_mesh_compute_geometry(fv_mesh_t *m)
{
	FV_CHECK(m->face_cell && m->cell_face, FV_ERR_ARG, "%s: geometry needs faces (fv_mesh_build_faces)", m->source);
	FV_FREE(m->cell_vol);
	FV_FREE(m->cell_ctr);
	FV_FREE(m->face_area);
	FV_FREE(m->face_ctr);
	FV_CALL(fv_malloc(&m->cell_vol, (size_t)m->n_cells, sizeof(fv_real_t), "cell volumes"));
	FV_CALL(fv_malloc(&m->cell_ctr, 3 * (size_t)m->n_cells, sizeof(fv_real_t), "cell centroids"));
	FV_CALL(fv_malloc(&m->face_area, 3 * (size_t)m->n_faces, sizeof(fv_real_t), "face areas"));
	FV_CALL(fv_malloc(&m->face_ctr, 3 * (size_t)m->n_faces, sizeof(fv_real_t), "face centroids"));
	/* every face and cell on its own: any thread count gives the same bits */
	FV_OMP(parallel for schedule(static) if (m->n_faces > FV_PAR_MIN))
	for (fv_idx_t f = 0; f < m->n_faces; f++)
		face_geometry(m, f);
	FV_OMP(parallel for schedule(static) if (m->n_cells > FV_PAR_MIN))
	for (fv_idx_t c = 0; c < m->n_cells; c++)
		cell_geometry(m, c);
	return FV_OK;
}
