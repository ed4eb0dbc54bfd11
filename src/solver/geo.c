/* SPDX-License-Identifier: MIT */
/* A block's geometry blob and the kernels' parameters (geo.h). */
#include "solver/geo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/env.h"
#include "util/threads.h"

static size_t align64(size_t x)
{
	return (x + 63) & ~(size_t)63;
}

/* Where a blob's sections go: written in place in host memory g, or
 * copied through a sink, each once (the host then holds the block and the
 * sections being computed, not the blob). */
typedef struct out {
	char *g;
	const fv_geo_sink_t *sink;
} out_t;

static const char zeros[64];

/* bytes of src at offset off, then (sink) the zeros that pad the section
 * to the next 64-byte boundary, as a zeroed host blob has them */
static fv_err_t put(const out_t *w, size_t off, const void *src, size_t bytes)
{
	if (w->g) {
		fv_par_memcpy(w->g + off, src, bytes);
		return FV_OK;
	}
	FV_CALL(w->sink->put(w->sink->arg, off, src, bytes));
	return w->sink->put(w->sink->arg, off + bytes, zeros, align64(off + bytes) - (off + bytes));
}

/* A section the build computes, at *(void **)p: in place, or a zeroed host
 * buffer that done() puts and frees. */
static fv_err_t section(const out_t *w, size_t off, size_t bytes, void *p)
{
	if (w->g) {
		*(void **)p = w->g + off;
		return FV_OK;
	}
	return fv_calloc(p, bytes ? bytes : 1, 1, "block geometry section");
}

static fv_err_t done(const out_t *w, size_t off, size_t bytes, void *p)
{
	void **q = (void **)p;
	fv_err_t err = FV_OK;
	if (!w->g)
		err = put(w, off, *q, bytes);
	if (!w->g)
		free(*q);
	*q = NULL;
	return err;
}

/* Colour groups are needed by a face stage by colour or auto (node values
 * have no colour variant), colour group tasks and the face order. */
static int uses_colors(const fv_solver_opts_t *o)
{
	int sums[FV_N_SUMS], used = o->num.color_tasks || o->num.face_order == FV_FACE_ORDER_COLOR;
	fv_numerics_sums(&o->num, sums);
	for (int k = 0; k < FV_N_SUMS; k++)
		used |= k != 1 && (sums[k] == FV_SUM_COLOR || sums[k] == FV_SUM_AUTO);
	return used;
}

/* The colouring of the block's faces, and with face_order the new face
 * order perm[new] = old (boundary faces stay first, Alg. 11). */
/* Line-implicit sweeps (numerics.lines): auto in viscous runs, whose
 * meshes stretch cells across boundary layers and wakes. */
static int use_lines(const fv_solver_opts_t *o)
{
	return o->num.implicit == FV_IMPLICIT_POINT &&
	       (o->num.lines == FV_OVERLAP_YES || (o->num.lines == FV_OVERLAP_AUTO && o->mu_inf > 0));
}

static fv_err_t color_block(const fv_block_t *bk, const fv_solver_opts_t *o, fv_coloring_t *col, fv_idx_t **perm)
{
	fv_idx_t *blocks = NULL;
	FV_CALL(fv_color_faces(bk->n_cells, bk->n_faces, bk->face_cell, (fv_color_method_t)o->num.coloring, col));
	FV_CALL(fv_color_check(bk->n_cells, bk->n_faces, bk->face_cell, col));
	if (o->num.face_order != FV_FACE_ORDER_COLOR)
		return FV_OK;
	FV_CALL(fv_malloc(perm, (size_t)bk->n_faces + 1, sizeof **perm, "face order"));
	FV_CALL(fv_malloc(&blocks, 2 * (size_t)col->n_colors + 2, sizeof *blocks, "face order blocks"));
	fv_err_t err = fv_color_face_order(bk->n_cells, bk->face_cell, col, NULL, 1, NULL, *perm, blocks);
	free(blocks);
	return err == FV_OK ? FV_OK : fv_error_trace(err, __FILE__, __LINE__);
}

/* Fills the face arrays of the blob in the order perm (NULL: the block's):
 * the node offsets first (one prefix sum), then every face by all
 * threads. */
static void fill_faces(const fv_block_t *bk, const fv_idx_t *perm, fv_idx_t *fc, fv_real_t *fa, fv_real_t *fx,
		       fv_idx_t *fno, fv_idx_t *fn)
{
	size_t nf = (size_t)bk->n_faces;
	fno[0] = 0;
	for (size_t i = 0; i < nf; i++) {
		size_t f = perm ? (size_t)perm[i] : i;
		fno[i + 1] = fno[i] + (bk->face_node_off[f + 1] - bk->face_node_off[f]);
	}
	FV_OMP(parallel for schedule(static) if (nf > FV_PAR_MIN))
	for (size_t i = 0; i < nf; i++) {
		size_t f = perm ? (size_t)perm[i] : i;
		fv_idx_t b = bk->face_node_off[f];
		fc[2 * i] = bk->face_cell[2 * f];
		fc[2 * i + 1] = bk->face_cell[2 * f + 1];
		for (int d = 0; d < 3; d++) {
			fa[d * nf + i] = bk->face_area[d * nf + f];
			fx[d * nf + i] = bk->face_ctr[d * nf + f];
		}
		memcpy(fn + fno[i], bk->face_node + b, (size_t)(fno[i + 1] - fno[i]) * sizeof *fn);
	}
}

/* color_face and the group offsets: faces of colour k in increasing
 * (new) face id, from the colour of each old face. */
static void fill_colors(const fv_block_t *bk, const fv_coloring_t *col, const fv_idx_t *perm, fv_idx_t *cf,
			fv_geo_colors_t *colors)
{
	fv_idx_t next[FV_COLOR_MAX];
	colors->n = col->n_colors;
	memcpy(colors->off, col->group_off, ((size_t)col->n_colors + 1) * sizeof *colors->off);
	memcpy(next, col->group_off, (size_t)col->n_colors * sizeof *next);
	for (fv_idx_t i = 0; i < bk->n_faces; i++)
		cf[next[col->color[perm ? perm[i] : i]]++] = i;
}

/* Local nodes of each local cell: the transpose of node_cell, each
 * cell's nodes in increasing id. On all threads: counted and placed with
 * atomics, in any order, then each cell's few nodes sorted, which gives
 * the lists of the serial transpose (node by node). */
static void fill_cell_nodes(const fv_block_t *bk, fv_idx_t *off, fv_idx_t *cn)
{
	size_t nc = (size_t)bk->n_cells, nnc = (size_t)bk->node_cell_off[bk->n_nodes];
	fv_par_memset(off, 0, (nc + 1) * sizeof *off);
	FV_OMP(parallel for schedule(static) if (nnc > FV_PAR_MIN))
	for (size_t k = 0; k < nnc; k++)
		FV_OMP(atomic)
		off[bk->node_cell[k] + 1]++;
	for (size_t c = 0; c < nc; c++)
		off[c + 1] += off[c];
	/* off[c] the cursor of cell c, then back to its start */
	FV_OMP(parallel for schedule(static) if (nnc > FV_PAR_MIN))
	for (fv_idx_t n = 0; n < bk->n_nodes; n++)
		for (fv_idx_t k = bk->node_cell_off[n]; k < bk->node_cell_off[n + 1]; k++) {
			fv_idx_t at;
			FV_OMP(atomic capture)
			at = off[bk->node_cell[k]]++;
			cn[at] = n;
		}
	memmove(off + 1, off, nc * sizeof *off);
	off[0] = 0;
	FV_OMP(parallel for schedule(static) if (nc > FV_PAR_MIN))
	for (size_t c = 0; c < nc; c++)
		for (fv_idx_t k = off[c] + 1; k < off[c + 1]; k++) {
			fv_idx_t v = cn[k], j = k;
			for (; j > off[c] && cn[j - 1] > v; j--)
				cn[j] = cn[j - 1];
			cn[j] = v;
		}
}

/* Green-Gauss weights of each owned cell's nodes: the face formula
 *   grad_c = 1/V sum_f sign_f (1/|f| sum_{n in f} w_n) S_f
 * regrouped by node, grad_c = sum_n w_n G_cn with
 *   G_cn = 1/V sum_{f of c containing n} sign_f S_f / |f|,
 * stored by component: cell_node_grad[d * m + k], m = cell_node_off[n_owned]. */
/* The weights of owned cell c into wt[d * m + k - base] (a piece of the
 * section from entry base on, m entries a component); non-zero, and why
 * in why (when given), where the cell's nodes do not match its faces'. */
static int gradient_weights(const fv_block_t *bk, const fv_idx_t *off, const fv_idx_t *cn, fv_real_t *wt, size_t m,
			    size_t base, size_t nf, fv_idx_t c, char why[160])
{
	double acc[3][FV_MAX_CELL_NODES];
	fv_idx_t b = off[c], e = off[c + 1];
	if (e - b > FV_MAX_CELL_NODES) {
		if (why)
			snprintf(why, 160, "cell %d has %d nodes", (int)c, (int)(e - b));
		return 1;
	}
	memset(acc, 0, sizeof acc);
	for (fv_idx_t k = bk->cell_face_off[c]; k < bk->cell_face_off[c + 1]; k++) {
		fv_idx_t f = bk->cell_face[k];
		fv_idx_t fb = bk->face_node_off[f], fe = bk->face_node_off[f + 1];
		double sg = (double)bk->cell_face_sign[k] / (double)(fe - fb);
		for (fv_idx_t j = fb; j < fe; j++) {
			fv_idx_t i = b;
			while (i < e && cn[i] != bk->face_node[j])
				i++;
			if (i == e) {
				if (why)
					snprintf(why, 160, "node %d of face %d is not a node of its cell %d",
						 (int)bk->face_node[j], (int)f, (int)c);
				return 1;
			}
			for (int d = 0; d < 3; d++)
				acc[d][i - b] += sg * bk->face_area[(size_t)d * nf + (size_t)f];
		}
	}
	for (fv_idx_t i = b; i < e; i++)
		for (int d = 0; d < 3; d++)
			wt[(size_t)d * m + (size_t)i - base] = (fv_real_t)(acc[d][i - b] / bk->cell_vol[c]);
	return 0;
}

/* The weights of owned cells c0 .. c1-1 (entries off[c0] .. off[c1]) into
 * wt, m entries a component. */
static fv_err_t fill_gradient_weights(const fv_block_t *bk, const fv_idx_t *off, const fv_idx_t *cn, fv_real_t *wt,
				      fv_idx_t c0, fv_idx_t c1, size_t m)
{
	size_t nf = (size_t)bk->n_faces, base = (size_t)off[c0];
	fv_idx_t bad = FV_IDX_MAX; /* the first cell in error: the message names it whatever the threads */
	FV_OMP(parallel for schedule(static) reduction(min : bad) if (c1 - c0 > FV_PAR_MIN))
	for (fv_idx_t c = c0; c < c1; c++)
		if (gradient_weights(bk, off, cn, wt, m, base, nf, c, NULL) != 0)
			bad = c < bad ? c : bad;
	if (bad == FV_IDX_MAX)
		return FV_OK;
	char why[160];
	gradient_weights(bk, off, cn, wt, m, base, nf, bad, why);
	return FV_ERROR(FV_ERR_MESH, "block %d: %s", bk->id, why);
}

/* A sink build's weights, 2^20 owned cells at a time (FVSTAR_GEO_CHUNK
 * cells: the tests' small pieces): the section, 96 bytes a tet, is the
 * largest the build computes. */
static fv_err_t put_gradient_weights(const out_t *w, const fv_block_t *bk, const fv_idx_t *off, const fv_idx_t *cn,
				     size_t at)
{
	size_t m = (size_t)off[bk->n_owned], sz = sizeof(fv_real_t);
	unsigned long long ck;
	FV_CALL(fv_env_count("FVSTAR_GEO_CHUNK", 1, FV_IDX_MAX, 1u << 20, "owned cells a geometry section holds", &ck));
	fv_idx_t chunk = (fv_idx_t)ck;
	for (fv_idx_t c0 = 0; c0 < bk->n_owned; c0 += chunk) {
		fv_idx_t c1 = bk->n_owned - c0 > chunk ? c0 + chunk : bk->n_owned;
		size_t b0 = (size_t)off[c0], len = (size_t)off[c1] - b0;
		fv_real_t *wt = NULL;
		fv_err_t err = fv_calloc(&wt, 3 * len + 1, sz, "block geometry section");
		if (err == FV_OK)
			err = fill_gradient_weights(bk, off, cn, wt, c0, c1, len);
		for (int d = 0; d < 3 && err == FV_OK; d++)
			err = w->sink->put(w->sink->arg, at + ((size_t)d * m + b0) * sz, wt + (size_t)d * len, len * sz);
		free(wt);
		FV_CALL(err);
	}
	return w->sink->put(w->sink->arg, at + 3 * m * sz, zeros, align64(at + 3 * m * sz) - (at + 3 * m * sz));
}

/* numerics.overlap: the nodes with a ghost cell, and the owned cells with
 * such a node (kernels.h: the border parts of the node values and the
 * gradient). */
static void border_flags(const fv_block_t *bk, uint8_t *nb, uint8_t *cb)
{
	memset(cb, 0, (size_t)bk->n_owned);
	for (fv_idx_t n = 0; n < bk->n_nodes; n++) {
		fv_idx_t b = bk->node_cell_off[n], e = bk->node_cell_off[n + 1], k = b;
		while (k < e && bk->node_cell[k] < bk->n_owned)
			k++;
		nb[n] = k < e;
		for (k = b; nb[n] && k < e; k++)
			if (bk->node_cell[k] < bk->n_owned)
				cb[bk->node_cell[k]] = 1;
	}
}

/* Whether face f (cells fc[2f], fc[2f+1]) is a border face: one of its
 * cells owned, the other a ghost (fv_k_face_owned, fv_k_face_border). */
static int border_face(const fv_idx_t *fc, fv_idx_t f, fv_idx_t no)
{
	fv_idx_t o = fc[2 * (size_t)f], nb = fc[2 * (size_t)f + 1];
	return (o < no || (nb >= 0 && nb < no)) && (o >= no || nb >= no);
}

/* A split block's mesh as the border lists read it: the block's arrays
 * (counting) or its blob's (whose faces may be in colour order). */
typedef struct border_mesh {
	fv_idx_t n_nodes, n_owned, n_faces;
	const fv_idx_t *face_cell, *cell_face_off, *cell_face;
} border_mesh_t;

/* The border parts' item lists (view.h) from the flags nb, cb and the
 * faces: counted into n, and written where lists is not NULL. */
static void border_lists(const border_mesh_t *m, const uint8_t *nb, const uint8_t *cb, fv_idx_t n[FV_BORDER_LISTS],
			 fv_idx_t *const lists[FV_BORDER_LISTS])
{
	fv_idx_t no = m->n_owned;
	memset(n, 0, FV_BORDER_LISTS * sizeof *n);
#define FV_ADD(k, i) (lists ? lists[k][n[k]++] = (i) : n[k]++)
	for (fv_idx_t i = 0; i < m->n_nodes; i++)
		if (nb[i])
			FV_ADD(FV_BORDER_NODES, i);
	for (fv_idx_t c = 0; c < no; c++)
		if (cb[c])
			FV_ADD(FV_BORDER_CELLS, c);
	for (fv_idx_t f = 0; f < m->n_faces; f++)
		if (border_face(m->face_cell, f, no))
			FV_ADD(FV_BORDER_FACES, f);
	for (fv_idx_t c = 0; c < no; c++) {
		fv_idx_t k = m->cell_face_off[c];
		while (k < m->cell_face_off[c + 1] && !border_face(m->face_cell, m->cell_face[k], no))
			k++;
		if (k < m->cell_face_off[c + 1])
			FV_ADD(FV_BORDER_FCELLS, c);
	}
#undef FV_ADD
}

/* The flags and lists of a split block, from its faces as the blob holds
 * them (fc, cf: in colour order where the blob's faces are). */
static void fill_border(const fv_block_t *bk, const fv_idx_t *fc, const fv_idx_t *cf, uint8_t *nb, uint8_t *cb,
			fv_idx_t *const lists[FV_BORDER_LISTS])
{
	fv_idx_t n[FV_BORDER_LISTS];
	border_mesh_t m = {bk->n_nodes, bk->n_owned, bk->n_faces, fc, bk->cell_face_off, cf};
	border_flags(bk, nb, cb);
	border_lists(&m, nb, cb, n, lists);
}

/* The lengths of a split block's border lists, before its blob exists. */
static fv_err_t count_border(const fv_block_t *bk, fv_idx_t n[FV_BORDER_LISTS])
{
	uint8_t *nb = NULL, *cb = NULL;
	fv_err_t err = fv_malloc(&nb, (size_t)bk->n_nodes + 1, 1, "border nodes");
	if (err == FV_OK)
		err = fv_malloc(&cb, (size_t)bk->n_owned + 1, 1, "border cells");
	if (err == FV_OK) {
		border_mesh_t m = {bk->n_nodes, bk->n_owned, bk->n_faces, bk->face_cell, bk->cell_face_off,
				   bk->cell_face};
		border_flags(bk, nb, cb);
		border_lists(&m, nb, cb, n, NULL);
	}
	free(nb);
	free(cb);
	return err;
}

static fv_err_t build(const fv_block_t *bk, const fv_solver_opts_t *so, int n_markers, fv_geo_alloc_t alloc,
		      const fv_geo_sink_t *sink, fv_layout_t *L, void **mem, fv_geo_colors_t *colors)
{
	size_t o = 0;
	size_t nf = (size_t)bk->n_faces, nc = (size_t)bk->n_cells, no = (size_t)bk->n_owned;
	size_t nfn = (size_t)bk->face_node_off[bk->n_faces], ncf = (size_t)bk->cell_face_off[bk->n_owned];
	size_t nnc = (size_t)bk->node_cell_off[bk->n_nodes], nsend = (size_t)bk->send_off[bk->n_nbr];
	int colored = uses_colors(so);
	const fv_numerics_t *num = &so->num;
	/* gradients: second order, and the viscous fluxes of any order */
	int gg = (num->order == 2 || so->mu_inf > 0) && num->gradient == FV_GRAD_GREEN_GAUSS;
	int cell_nodes = gg || num->nodes_sum == FV_SUM_ATOMIC || num->nodes_sum == FV_SUM_AUTO;
	size_t ncn_owned = 0;
	int implicit = num->time_mode == FV_TIME_IMPLICIT;
	int split = num->overlap != FV_OVERLAP_NO && bk->n_nbr > 0;
	fv_cell_coloring_t ccol;
	fv_coloring_t col;
	fv_idx_t *perm = NULL, *inv = NULL, *line_len = NULL;
	fv_err_t err = FV_OK;
	out_t w = {NULL, sink};
	/* the derived sections a sink build holds on the host */
	fv_idx_t *fc = NULL, *fno = NULL, *fn = NULL, *cf = NULL, *cf_col = NULL, *cno = NULL, *cn = NULL;
	fv_idx_t *lists[FV_BORDER_LISTS] = {NULL}, *cl = NULL, *nbr = NULL;
	fv_real_t *fa = NULL, *fx = NULL, *wd = NULL;
	int8_t *bbc = NULL;
	uint8_t *bfo = NULL, *nb = NULL, *cb = NULL;

	memset(L, 0, sizeof *L);
	memset(colors, 0, sizeof *colors);
	*mem = NULL;
	L->n_owned = bk->n_owned;
	L->n_cells = bk->n_cells;
	L->n_faces = bk->n_faces;
	L->n_bfaces = bk->n_bfaces;
	L->n_nodes = bk->n_nodes;
	L->so = fv_row_stride(bk->n_owned);
	L->sc = fv_row_stride(bk->n_cells);
	L->sn = fv_row_stride(bk->n_nodes);
	L->wn_side = num->node_gather != FV_NODE_GATHER_ROWS;
	L->n_nbr = bk->n_nbr;
	{
		fv_idx_t mf = 0;
		FV_OMP(parallel for schedule(static) reduction(max : mf) if (bk->n_owned > FV_PAR_MIN))
		for (fv_idx_t c = 0; c < bk->n_owned; c++)
			mf = bk->cell_face_off[c + 1] - bk->cell_face_off[c] > mf ? bk->cell_face_off[c + 1] - bk->cell_face_off[c]
										   : mf;
		L->max_faces = mf;
	}
	L->has_cell_node = cell_nodes;
	L->has_gradient_weights = gg;
#define PLACE(field, bytes) (L->field = o, o = align64(o + (bytes)))
	PLACE(face_cell, 2 * nf * sizeof(fv_idx_t));
	PLACE(face_area, 3 * nf * sizeof(fv_real_t));
	PLACE(face_ctr, 3 * nf * sizeof(fv_real_t));
	PLACE(face_node_off, (nf + 1) * sizeof(fv_idx_t));
	PLACE(face_node, nfn * sizeof(fv_idx_t));
	PLACE(bface_bc, (size_t)bk->n_bfaces);
	PLACE(bface_force, (size_t)bk->n_bfaces);
	PLACE(cell_face_off, (no + 1) * sizeof(fv_idx_t));
	PLACE(cell_face, ncf * sizeof(fv_idx_t));
	PLACE(cell_face_sign, ncf);
	PLACE(cell_vol, nc * sizeof(fv_real_t));
	PLACE(cell_ctr, 3 * nc * sizeof(fv_real_t));
	PLACE(node_cell_off, ((size_t)bk->n_nodes + 1) * sizeof(fv_idx_t));
	PLACE(node_cell, nnc * sizeof(fv_idx_t));
	PLACE(recv_off, ((size_t)bk->n_nbr + 1) * sizeof(fv_idx_t));
	PLACE(send_off, ((size_t)bk->n_nbr + 1) * sizeof(fv_idx_t));
	PLACE(send_cell, nsend * sizeof(fv_idx_t));
	PLACE(color_face, (colored ? nf : 0) * sizeof(fv_idx_t));
	PLACE(cell_node_off, (cell_nodes ? nc + 1 : 0) * sizeof(fv_idx_t));
	PLACE(cell_node, (cell_nodes ? nnc : 0) * sizeof(fv_idx_t));
	if (gg) { /* node entries of the owned cells */
		size_t nno = (size_t)bk->node_cell_off[bk->n_nodes];
		FV_OMP(parallel for schedule(static) reduction(+ : ncn_owned) if (nno > FV_PAR_MIN))
		for (size_t k = 0; k < nno; k++)
			ncn_owned += bk->node_cell[k] < bk->n_owned;
	}
	PLACE(cell_node_grad, 3 * ncn_owned * sizeof(fv_real_t));
	PLACE(cell_group, (implicit ? no : 0) * sizeof(fv_idx_t));
	PLACE(cell_nbr, (implicit ? ncf : 0) * sizeof(fv_idx_t));
	PLACE(cell_wdist, (so->sa ? no : 0) * sizeof(fv_real_t));
	PLACE(cell_line, (implicit ? no : 0) * sizeof(fv_idx_t));
	PLACE(node_border, split ? (size_t)bk->n_nodes : 0);
	PLACE(cell_border, split ? no : 0);
	if (split) {
		FV_CALL(count_border(bk, L->n_border));
		L->has_border_lists = 1;
	}
	for (int k = 0; k < FV_BORDER_LISTS; k++)
		PLACE(border_list[k], (size_t)L->n_border[k] * sizeof(fv_idx_t));
#undef PLACE
	L->bytes = o;

	fv_coloring_init(&col);
	fv_cell_coloring_init(&ccol);
	if (implicit && use_lines(so)) {
		FV_CALL_GOTO(err, out, fv_malloc(&line_len, no + 1, sizeof *line_len, "cell lines"));
		fv_line_mesh_t lm = {bk->n_owned, bk->n_cells, bk->n_faces, bk->face_cell, bk->cell_face_off,
				     bk->cell_face, bk->face_area, bk->cell_ctr, so->num.line_cells};
		FV_CALL_GOTO(err, out, fv_color_lines(&lm, &ccol, line_len));
		FV_CALL_GOTO(err, out, fv_color_lines_check(&lm, &ccol, line_len));
	} else if (implicit)
		FV_CALL_GOTO(err, out, fv_color_cells(bk->n_owned, bk->n_faces, bk->face_cell, &ccol));
	if (implicit) {
		if (!line_len)
			FV_CALL_GOTO(err, out, fv_color_cells_check(bk->n_owned, bk->n_faces, bk->face_cell, &ccol));
		colors->n_cell = ccol.n_colors;
		memcpy(colors->cell_off, ccol.group_off, ((size_t)ccol.n_colors + 1) * sizeof *colors->cell_off);
	}
	if (colored)
		FV_CALL_GOTO(err, out, color_block(bk, so, &col, &perm));
	if (perm) {
		FV_CALL_GOTO(err, out, fv_malloc(&inv, nf + 1, sizeof *inv, "face order"));
		FV_OMP(parallel for schedule(static) if (nf > FV_PAR_MIN))
		for (size_t i = 0; i < nf; i++)
			inv[perm[i]] = (fv_idx_t)i;
		for (fv_idx_t i = 0; i < bk->n_bfaces; i++)
			FV_CALL_GOTO(err, out,
				     perm[i] < bk->n_bfaces
					     ? FV_OK
					     : FV_ERROR(FV_ERR_MESH, "block %d: the face order put interior face %d "
								     "among the boundary faces",
							bk->id, (int)perm[i]));
	}
	if (alloc) {
		FV_CALL_GOTO(err, out, alloc(mem, o, "block geometry"));
		w.g = (char *)*mem;
	} else
		FV_CALL_GOTO(err, out, sink->open(sink->arg, o));
	if (!w.g && !perm && bk->face_node_off[0] == 0) {
		/* the block's own face arrays are the blob's */
		FV_CALL_GOTO(err, out, put(&w, L->face_cell, bk->face_cell, 2 * nf * sizeof(fv_idx_t)));
		FV_CALL_GOTO(err, out, put(&w, L->face_area, bk->face_area, 3 * nf * sizeof(fv_real_t)));
		FV_CALL_GOTO(err, out, put(&w, L->face_ctr, bk->face_ctr, 3 * nf * sizeof(fv_real_t)));
		FV_CALL_GOTO(err, out, put(&w, L->face_node_off, bk->face_node_off, (nf + 1) * sizeof(fv_idx_t)));
		FV_CALL_GOTO(err, out, put(&w, L->face_node, bk->face_node, nfn * sizeof(fv_idx_t)));
	} else {
		FV_CALL_GOTO(err, out, section(&w, L->face_cell, 2 * nf * sizeof(fv_idx_t), &fc));
		FV_CALL_GOTO(err, out, section(&w, L->face_area, 3 * nf * sizeof(fv_real_t), &fa));
		FV_CALL_GOTO(err, out, section(&w, L->face_ctr, 3 * nf * sizeof(fv_real_t), &fx));
		FV_CALL_GOTO(err, out, section(&w, L->face_node_off, (nf + 1) * sizeof(fv_idx_t), &fno));
		FV_CALL_GOTO(err, out, section(&w, L->face_node, nfn * sizeof(fv_idx_t), &fn));
		fill_faces(bk, perm, fc, fa, fx, fno, fn);
		FV_CALL_GOTO(err, out, done(&w, L->face_area, 3 * nf * sizeof(fv_real_t), &fa));
		FV_CALL_GOTO(err, out, done(&w, L->face_ctr, 3 * nf * sizeof(fv_real_t), &fx));
		FV_CALL_GOTO(err, out, done(&w, L->face_node_off, (nf + 1) * sizeof(fv_idx_t), &fno));
		FV_CALL_GOTO(err, out, done(&w, L->face_node, nfn * sizeof(fv_idx_t), &fn));
		/* face_cell after the border lists, which read it */
	}
	FV_CALL_GOTO(err, out, fv_malloc(&colors->bface_of, (size_t)bk->n_bfaces + 1, sizeof(fv_idx_t), "boundary faces"));
	for (fv_idx_t i = 0; i < bk->n_bfaces; i++)
		colors->bface_of[i] = perm ? perm[i] : i;
	if (so->sa) {
		const double *wb = so->wall_dist_blocks ? so->wall_dist_blocks[bk->id] : NULL;
		if (!so->wall_dist && !wb) {
			err = FV_ERROR(FV_ERR_ARG, "block %d: Spalart-Allmaras without wall distances", bk->id);
			goto out;
		}
		FV_CALL_GOTO(err, out, section(&w, L->cell_wdist, no * sizeof(fv_real_t), &wd));
		for (fv_idx_t c = 0; c < bk->n_owned; c++)
			wd[c] = (fv_real_t)(wb ? wb[c] : so->wall_dist[bk->cell_global[c]]);
		FV_CALL_GOTO(err, out, done(&w, L->cell_wdist, no * sizeof(fv_real_t), &wd));
	}
	FV_CALL_GOTO(err, out, section(&w, L->bface_bc, (size_t)bk->n_bfaces, &bbc));
	FV_CALL_GOTO(err, out, section(&w, L->bface_force, (size_t)bk->n_bfaces, &bfo));
	for (fv_idx_t i = 0; i < bk->n_bfaces; i++) {
		fv_idx_t f = perm ? perm[i] : i;
		int mk = bk->face_marker[f];
		FV_CALL_GOTO(err, out,
			     mk >= 0 && mk < n_markers
				     ? FV_OK
				     : FV_ERROR(FV_ERR_MESH, "block %d: boundary face %d has marker %d", bk->id, (int)f, mk));
		bbc[i] = (int8_t)so->marker_bc[mk];
		/* each wall face counts once: in the block that owns its cell */
		bfo[i] = so->marker_force && so->marker_force[mk] && bk->face_cell[2 * (size_t)f] < bk->n_owned;
	}
	FV_CALL_GOTO(err, out, done(&w, L->bface_bc, (size_t)bk->n_bfaces, &bbc));
	FV_CALL_GOTO(err, out, done(&w, L->bface_force, (size_t)bk->n_bfaces, &bfo));
	FV_CALL_GOTO(err, out, put(&w, L->cell_face_off, bk->cell_face_off, (no + 1) * sizeof(fv_idx_t)));
	if (inv) {
		FV_CALL_GOTO(err, out, section(&w, L->cell_face, ncf * sizeof(fv_idx_t), &cf));
		FV_OMP(parallel for schedule(static) if (ncf > FV_PAR_MIN))
		for (size_t k = 0; k < ncf; k++)
			cf[k] = inv[bk->cell_face[k]];
		/* put after the border lists, which read it */
	} else
		FV_CALL_GOTO(err, out, put(&w, L->cell_face, bk->cell_face, ncf * sizeof(fv_idx_t)));
	FV_CALL_GOTO(err, out, put(&w, L->cell_face_sign, bk->cell_face_sign, ncf));
	FV_CALL_GOTO(err, out, put(&w, L->cell_vol, bk->cell_vol, nc * sizeof(fv_real_t)));
	FV_CALL_GOTO(err, out, put(&w, L->cell_ctr, bk->cell_ctr, 3 * nc * sizeof(fv_real_t)));
	FV_CALL_GOTO(err, out,
		     put(&w, L->node_cell_off, bk->node_cell_off, ((size_t)bk->n_nodes + 1) * sizeof(fv_idx_t)));
	FV_CALL_GOTO(err, out, put(&w, L->node_cell, bk->node_cell, nnc * sizeof(fv_idx_t)));
	FV_CALL_GOTO(err, out, put(&w, L->recv_off, bk->recv_off, ((size_t)bk->n_nbr + 1) * sizeof(fv_idx_t)));
	FV_CALL_GOTO(err, out, put(&w, L->send_off, bk->send_off, ((size_t)bk->n_nbr + 1) * sizeof(fv_idx_t)));
	FV_CALL_GOTO(err, out, put(&w, L->send_cell, bk->send_cell, nsend * sizeof(fv_idx_t)));
	if (colored) {
		FV_CALL_GOTO(err, out, section(&w, L->color_face, nf * sizeof(fv_idx_t), &cf_col));
		fill_colors(bk, &col, perm, cf_col, colors);
		FV_CALL_GOTO(err, out, done(&w, L->color_face, nf * sizeof(fv_idx_t), &cf_col));
	}
	if (cell_nodes) {
		FV_CALL_GOTO(err, out, section(&w, L->cell_node_off, (nc + 1) * sizeof(fv_idx_t), &cno));
		FV_CALL_GOTO(err, out, section(&w, L->cell_node, nnc * sizeof(fv_idx_t), &cn));
		fill_cell_nodes(bk, cno, cn);
	}
	if (gg && w.g)
		FV_CALL_GOTO(err, out,
			     fill_gradient_weights(bk, cno, cn, (fv_real_t *)(w.g + L->cell_node_grad), 0, bk->n_owned,
						   (size_t)cno[bk->n_owned]));
	else if (gg)
		FV_CALL_GOTO(err, out, put_gradient_weights(&w, bk, cno, cn, L->cell_node_grad));
	if (cell_nodes) {
		FV_CALL_GOTO(err, out, done(&w, L->cell_node_off, (nc + 1) * sizeof(fv_idx_t), &cno));
		FV_CALL_GOTO(err, out, done(&w, L->cell_node, nnc * sizeof(fv_idx_t), &cn));
	}
	if (split) {
		FV_CALL_GOTO(err, out, section(&w, L->node_border, (size_t)bk->n_nodes, &nb));
		FV_CALL_GOTO(err, out, section(&w, L->cell_border, no, &cb));
		for (int k = 0; k < FV_BORDER_LISTS; k++)
			FV_CALL_GOTO(err, out,
				     section(&w, L->border_list[k], (size_t)L->n_border[k] * sizeof(fv_idx_t), &lists[k]));
		fill_border(bk, fc ? fc : bk->face_cell, cf ? cf : bk->cell_face, nb, cb, lists);
		FV_CALL_GOTO(err, out, done(&w, L->node_border, (size_t)bk->n_nodes, &nb));
		FV_CALL_GOTO(err, out, done(&w, L->cell_border, no, &cb));
		for (int k = 0; k < FV_BORDER_LISTS; k++)
			FV_CALL_GOTO(err, out,
				     done(&w, L->border_list[k], (size_t)L->n_border[k] * sizeof(fv_idx_t), &lists[k]));
	}
	if (fc)
		FV_CALL_GOTO(err, out, done(&w, L->face_cell, 2 * nf * sizeof(fv_idx_t), &fc));
	if (cf)
		FV_CALL_GOTO(err, out, done(&w, L->cell_face, ncf * sizeof(fv_idx_t), &cf));
	if (implicit) {
		FV_CALL_GOTO(err, out, put(&w, L->cell_group, ccol.group_cell, no * sizeof(fv_idx_t)));
		FV_CALL_GOTO(err, out, section(&w, L->cell_line, no * sizeof(fv_idx_t), &cl));
		for (size_t i = 0; i < no; i++)
			cl[i] = line_len ? line_len[i] : 1;
		FV_CALL_GOTO(err, out, done(&w, L->cell_line, no * sizeof(fv_idx_t), &cl));
		FV_CALL_GOTO(err, out, section(&w, L->cell_nbr, ncf * sizeof(fv_idx_t), &nbr));
		FV_OMP(parallel for schedule(static) if (bk->n_owned > FV_PAR_MIN))
		for (fv_idx_t c = 0; c < bk->n_owned; c++)
			for (fv_idx_t k = bk->cell_face_off[c]; k < bk->cell_face_off[c + 1]; k++) {
				const fv_idx_t *f2 = bk->face_cell + 2 * (size_t)bk->cell_face[k];
				nbr[k] = f2[0] == c ? f2[1] : f2[0];
			}
		FV_CALL_GOTO(err, out, done(&w, L->cell_nbr, ncf * sizeof(fv_idx_t), &nbr));
	}
	/* every section is written: a sink build's padding went with each */
out:
	if (!w.g) {
		/* a sink build that failed half-way */
		void *held[] = {fc, fno, fn, cf, cf_col, cno, cn, cl, nbr, fa, fx, wd, bbc, bfo, nb, cb};
		for (size_t k = 0; k < sizeof held / sizeof held[0]; k++)
			free(held[k]);
		for (int k = 0; k < FV_BORDER_LISTS; k++)
			free(lists[k]);
	}
	fv_coloring_free(&col);
	fv_cell_coloring_free(&ccol);
	free(line_len);
	free(perm);
	free(inv);
	return err;
}

fv_err_t fv_geo_build(const fv_block_t *bk, const fv_solver_opts_t *so, int n_markers, fv_geo_alloc_t alloc,
		      fv_layout_t *L, void **mem, fv_geo_colors_t *colors)
{
	return build(bk, so, n_markers, alloc, NULL, L, mem, colors);
}

fv_err_t fv_geo_build_to(const fv_block_t *bk, const fv_solver_opts_t *so, int n_markers, const fv_geo_sink_t *sink,
			 fv_layout_t *L, fv_geo_colors_t *colors)
{
	void *mem = NULL;
	return build(bk, so, n_markers, NULL, sink, L, &mem, colors);
}

void fv_geo_params(const fv_solver_opts_t *o, fv_params_t *P, int *n_stages, fv_real_t rk_a[3], fv_real_t rk_b[3])
{
	const fv_numerics_t *n = &o->num;
	memset(P, 0, sizeof *P);
	P->gamma = (fv_real_t)o->gamma;
	P->entropy_fix = (fv_real_t)n->entropy_fix;
	P->cfl = (fv_real_t)n->cfl;
	P->limiter_k = (fv_real_t)n->limiter_k;
	P->limiter_shock = (fv_real_t)n->limiter_shock;
	P->order = n->order;
	P->blend = 1;
	P->limiter = n->limiter;
	P->limiter_all = n->limiter_vars == FV_LIMVARS_ALL;
	P->steady = n->time_mode != FV_TIME_UNSTEADY;
	P->implicit = n->time_mode == FV_TIME_IMPLICIT ? n->implicit : 0;
	P->omega = (fv_real_t)n->omega;
	P->jac_rusanov = n->jacobian == FV_JACOBIAN_RUSANOV;
	P->jac_floor = (fv_real_t)n->jacobian_floor;
	P->max_update = (fv_real_t)n->max_update;
	P->cell_cfl = P->implicit ? (fv_real_t)n->cell_cfl : 0;
	P->dominance = (fv_real_t)n->dominance;
	P->aspect_dt = use_lines(o) ? (fv_real_t)n->aspect_dt : 0;
	P->lines = use_lines(o);
	P->lsq = n->gradient == FV_GRAD_LEAST_SQUARES;
	P->flux_sum = n->flux_sum;
	P->nodes_sum = n->nodes_sum;
	P->w_cells = n->node_gather == FV_NODE_GATHER_CELLS && n->nodes_sum != FV_SUM_ATOMIC;
	P->grad_sum = n->grad_sum;
	P->lim_sum = n->lim_sum;
	P->dt_sum = n->dt_sum;
	for (int k = 0; k < 5; k++)
		P->winf[k] = (fv_real_t)o->winf[k];
	P->p_out = (fv_real_t)o->p_out;
	P->visc.mu_inf = (fv_real_t)o->mu_inf;
	P->visc.suth = (fv_real_t)o->suth;
	P->visc.prandtl = (fv_real_t)(o->prandtl > 0 ? o->prandtl : 0.72);
	P->visc.t_wall = (fv_real_t)(o->t_wall > 0 ? o->t_wall : 1);
	P->visc.sa = o->sa;
	P->visc.prandtl_t = (fv_real_t)(o->prandtl_t > 0 ? o->prandtl_t : 0.9);
	P->visc.nut_inf = (fv_real_t)o->nut_inf;
	P->nvar = o->sa ? FV_NVAR_SA : FV_NVAR;
	for (int d = 0; d < 3; d++)
		P->xref[d] = (fv_real_t)o->moment_center[d];
	/* SSP Runge-Kutta (Shu-Osher): q = a q0 + b (q - dt/V R) */
	rk_a[0] = 0, rk_b[0] = 1;
	if (n->rk == 1 || P->implicit) {
		*n_stages = 1;
	} else if (n->rk == 3) {
		*n_stages = 3;
		rk_a[1] = (fv_real_t)0.75, rk_b[1] = (fv_real_t)0.25;
		rk_a[2] = (fv_real_t)(1.0 / 3), rk_b[2] = (fv_real_t)(2.0 / 3);
	} else {
		*n_stages = 2;
		rk_a[1] = (fv_real_t)0.5, rk_b[1] = (fv_real_t)0.5;
	}
}
