/* SPDX-License-Identifier: MIT */
/* Reader for Gmsh MSH 2.2 and 4.1 ASCII files: linear volume cells, and the
 * triangles and quadrangles of surfaces as marked boundary elements. */
#include "fvstar/mesh.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_internal.h"
#include "util/parse.h"
#include "util/search.h"

/*
 * Conventions worth knowing when reading a Gmsh file with this reader:
 *
 * - Markers are the physical groups of dimension 2, named from
 *   $PhysicalNames, else "physical_<tag>". A 4.1 surface entity without a
 *   physical group gives "surface_<entity>"; a 2.2 element with physical
 *   tag 0 gives "elementary_<tag>". An entity in several physical groups
 *   takes the first one listed in $Entities; MSH 2.2 writes such an element
 *   once per group on consecutive lines, and only the first copy is kept.
 * - Volume elements are kept whatever their physical group; points and
 *   lines are skipped; higher-order elements are refused.
 * - Nodes that no kept element references (geometry points and the like)
 *   are dropped; the others keep their file order.
 * - $PartitionedEntities (partitioned 4.1 files) are refused: their element
 *   blocks name partition entities, not the model's.
 */

/* Distinct boundary groups are resolved to markers with fv_mesh_marker(),
 * linear in the number of markers; the cap keeps hostile files fast. */
#define GMSH_GROUP_MAX 4096

enum ekind { EK_SKIP, EK_CELL, EK_BND, EK_REFUSE };

typedef struct etype {
	int nn;          /* nodes, for the kinds we read or skip */
	int kind;
	int fv;          /* fv_cell_type_t or fv_face_type_t */
	const char *name;
} etype_t;

/* Gmsh element types 1..31 (GmshDefines.h); a zero node count on a
 * refused type is never used. */
static const etype_t etypes[] = {
	[1] = {2, EK_SKIP, 0, "2-node line"},
	[2] = {3, EK_BND, FV_TRI, "3-node triangle"},
	[3] = {4, EK_BND, FV_QUAD, "4-node quadrangle"},
	[4] = {4, EK_CELL, FV_TET, "4-node tetrahedron"},
	[5] = {8, EK_CELL, FV_HEX, "8-node hexahedron"},
	[6] = {6, EK_CELL, FV_PRISM, "6-node prism"},
	[7] = {5, EK_CELL, FV_PYRAMID, "5-node pyramid"},
	[8] = {3, EK_SKIP, 0, "3-node line"},
	[9] = {0, EK_REFUSE, 0, "6-node triangle"},
	[10] = {0, EK_REFUSE, 0, "9-node quadrangle"},
	[11] = {0, EK_REFUSE, 0, "10-node tetrahedron"},
	[12] = {0, EK_REFUSE, 0, "27-node hexahedron"},
	[13] = {0, EK_REFUSE, 0, "18-node prism"},
	[14] = {0, EK_REFUSE, 0, "14-node pyramid"},
	[15] = {1, EK_SKIP, 0, "point"},
	[16] = {0, EK_REFUSE, 0, "8-node quadrangle"},
	[17] = {0, EK_REFUSE, 0, "20-node hexahedron"},
	[18] = {0, EK_REFUSE, 0, "15-node prism"},
	[19] = {0, EK_REFUSE, 0, "13-node pyramid"},
	[20] = {0, EK_REFUSE, 0, "9-node triangle"},
	[21] = {0, EK_REFUSE, 0, "10-node triangle"},
	[22] = {0, EK_REFUSE, 0, "12-node triangle"},
	[23] = {0, EK_REFUSE, 0, "15-node triangle"},
	[24] = {0, EK_REFUSE, 0, "15-node triangle"},
	[25] = {0, EK_REFUSE, 0, "21-node triangle"},
	[26] = {4, EK_SKIP, 0, "4-node line"},
	[27] = {5, EK_SKIP, 0, "5-node line"},
	[28] = {6, EK_SKIP, 0, "6-node line"},
	[29] = {0, EK_REFUSE, 0, "20-node tetrahedron"},
	[30] = {0, EK_REFUSE, 0, "35-node tetrahedron"},
	[31] = {0, EK_REFUSE, 0, "56-node tetrahedron"},
};

/* Higher-order lines (types 62..66, 7 to 11 nodes) are skipped like the
 * others; everything else past 31 is refused. */
static const etype_t eline_ho[] = {
	{7, EK_SKIP, 0, "7-node line"}, {8, EK_SKIP, 0, "8-node line"},
	{9, EK_SKIP, 0, "9-node line"}, {10, EK_SKIP, 0, "10-node line"},
	{11, EK_SKIP, 0, "11-node line"},
};

/* Group kinds: the key of a boundary element's marker before names are
 * known (sections may come in any order). */
enum gkind { GK_PHYS = 1, GK_ELEM = 2, GK_SURF = 3 };

typedef struct pname {
	long long tag;
	long line;       /* in $PhysicalNames, for messages */
	char name[FV_MARKER_NAME_MAX];
} pname_t;

typedef struct surf {
	long long tag;
	long long phys;
	int has_phys;
} surf_t;

typedef struct tagidx {
	long long tag;
	fv_idx_t idx;
} tagidx_t;

/* the keys of the three sorted tables, for util/search.h */
static int64_t pair_tag(const void *a, size_t i) { return ((const tagidx_t *)a)[i].tag; }
static int64_t pname_tag(const void *a, size_t i) { return ((const pname_t *)a)[i].tag; }
static int64_t surf_tag(const void *a, size_t i) { return ((const surf_t *)a)[i].tag; }

typedef struct vec {
	void *p;
	size_t n, cap;
} vec_t;

typedef struct gmsh {
	fv_cursor_t c;
	fv_mesh_t *m;
	int version;               /* 2 (2.x) or 41 */
	long elements_line;

	pname_t *pnames;           /* dimension-2 names, sorted by tag */
	size_t n_pnames;
	int have_pnames;
	surf_t *surfs;             /* 4.1 surface entities, sorted by tag */
	size_t n_surfs;
	int have_entities;

	/* node tag -> index: dense map[tag], or sorted pairs when sparse */
	int have_nodes;
	int dense;
	long nodes_line;
	fv_idx_t *map;
	size_t map_cap, map_limit;
	tagidx_t *pairs;
	size_t n_pairs;

	/* elements as read; offsets follow from the types at the end */
	int have_elements;
	vec_t ctype, cnode, ctag;  /* uint8_t, fv_idx_t, int64_t element tag */
	vec_t btype, bnode, bgrp;  /* uint8_t, fv_idx_t, int32_t */

	/* boundary groups: sorted keys for lookup, keys by id for naming */
	int64_t *gkey;
	int32_t *gid;
	int64_t *gkey_of;
	int n_groups, groups_cap;
	int64_t last_key;
	int32_t last_gid;

	void *tmp;                 /* scratch freed with the state */
} gmsh_t;

static void gmsh_free(gmsh_t *st)
{
	free(st->pnames);
	free(st->surfs);
	free(st->map);
	free(st->pairs);
	free(st->ctype.p);
	free(st->cnode.p);
	free(st->ctag.p);
	free(st->btype.p);
	free(st->bnode.p);
	free(st->bgrp.p);
	free(st->gkey);
	free(st->gid);
	free(st->gkey_of);
	free(st->tmp);
}

static int is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v';
}

static int tok_is(const char *tok, size_t len, const char *word)
{
	return len == strlen(word) && memcmp(tok, word, len) == 0;
}

/* Shown length of a token in messages. */
static int shown(size_t len)
{
	return len > 40 ? 40 : (int)len;
}

static size_t bytes_left(const fv_cursor_t *c)
{
	return (size_t)(c->end - c->p);
}

/* A count that the rest of the buffer can hold, at min_bytes per item: a
 * bad count fails here, on its line, rather than in an allocation or a long
 * loop; it is called wrong when the section's $End line follows, and the
 * file truncated when it does not. */
static fv_err_t read_count(fv_cursor_t *c, size_t min_bytes, size_t *n, const char *what)
{
	long long v;
	FV_CALL(fv_cursor_count(c, 0, FV_IDX_MAX, "fvstar's 32-bit indices", &v, what));
	if ((unsigned long long)v > bytes_left(c) / min_bytes) {
		fv_cursor_t look = *c;
		while (look.p < look.end) {
			fv_cursor_next_line(&look);
			fv_cursor_skip_blanks(&look);
			if (bytes_left(&look) >= 4 && memcmp(look.p, "$End", 4) == 0)
				return fv_cursor_error(c, "%s %lld is more than the section holds (it ends at line "
						       "%ld): the count is wrong", what, v, look.line);
		}
		if (look.line > c->line && look.end[-1] == '\n')
			look.line--;
		return fv_cursor_error(c, "truncated: %s %lld, but the file ends at line %ld, %zu bytes further",
				       what, v, look.line, bytes_left(c));
	}
	*n = (size_t)v;
	return FV_OK;
}

static fv_err_t read_int(fv_cursor_t *c, long long lo, long long hi, long long *v, const char *what)
{
	FV_CALL(fv_cursor_long(c, v, what));
	if (*v < lo || *v > hi)
		return fv_cursor_error(c, "%s %lld out of range [%lld, %lld]", what, *v, lo, hi);
	return FV_OK;
}

static fv_err_t skip_tokens(fv_cursor_t *c, size_t n, const char *what)
{
	const char *tok;
	size_t len;
	for (size_t i = 0; i < n; i++)
		FV_CALL(fv_cursor_token(c, &tok, &len, what));
	return FV_OK;
}

static fv_err_t expect_end(fv_cursor_t *c, const char *word)
{
	const char *tok;
	size_t len;
	FV_CALL(fv_cursor_token(c, &tok, &len, word));
	if (!tok_is(tok, len, word))
		return fv_cursor_error(c, "expected %s, found '%.*s'", word, shown(len), tok);
	return FV_OK;
}

static fv_err_t elem_type(fv_cursor_t *c, long long type, const etype_t **t)
{
	const etype_t *e = NULL;
	if (type >= 1 && type < (long long)(sizeof etypes / sizeof etypes[0]))
		e = &etypes[type];
	else if (type >= 62 && type <= 66)
		e = &eline_ho[type - 62];
	if (!e || !e->name) {
		if (type >= 1 && type <= 140)
			return fv_cursor_error(c, "element type %lld is not supported (only linear "
					       "tetrahedra, hexahedra, prisms, pyramids, triangles and "
					       "quadrangles; points and lines are skipped)", type);
		return fv_cursor_error(c, "unknown element type %lld", type);
	}
	if (e->kind == EK_REFUSE)
		return fv_cursor_error(c, "element type %lld (%s) is not supported: only linear "
				       "elements are read (mesh with -order 1)", type, e->name);
	*t = e;
	return FV_OK;
}

/* ---- growable arrays ---------------------------------------------------- */

static fv_err_t vec_reserve(vec_t *v, size_t extra, size_t elsize, const char *what)
{
	size_t cap;
	if (extra <= v->cap - v->n)
		return FV_OK;
	cap = v->cap + v->cap / 2;
	if (cap < v->n + extra)
		cap = v->n + extra;
	if (cap < 256)
		cap = 256;
	FV_CALL(fv_realloc(&v->p, cap, elsize, what));
	v->cap = cap;
	return FV_OK;
}

/* Hands the array over at its final size (at least one element, so that
 * a NULL pointer never means an empty mesh part). */
static void *vec_take(vec_t *v, size_t elsize)
{
	void *p = v->p;
	if (!p)
		p = malloc(elsize);
	else if (v->cap > v->n) {
		void *q = realloc(p, (v->n ? v->n : 1) * elsize);
		if (q)
			p = q;
	}
	v->p = NULL;
	v->n = v->cap = 0;
	return p;
}

/* The index limits of fv_mesh_t, checked before the arrays grow. */
static fv_err_t check_room(gmsh_t *st, size_t n_elems, size_t n_nodes, int cells)
{
	const vec_t *e = cells ? &st->ctype : &st->btype;
	const vec_t *nd = cells ? &st->cnode : &st->bnode;
	if (n_elems >= (size_t)FV_IDX_MAX - e->n || n_nodes > (size_t)FV_IDX_MAX - nd->n)
		return fv_error(FV_ERR_MEM, __FILE__, __LINE__,
				"%s:%ld: too many %s for 32-bit indices", st->c.name, st->c.line,
				cells ? "cells" : "boundary elements");
	return FV_OK;
}

static fv_err_t reserve_elems(gmsh_t *st, const etype_t *t, size_t count)
{
	size_t nn = (size_t)t->nn * count;
	if (t->kind == EK_CELL) {
		FV_CALL(check_room(st, count, nn, 1));
		FV_CALL(vec_reserve(&st->ctype, count, sizeof(uint8_t), "cell types"));
		FV_CALL(vec_reserve(&st->cnode, nn, sizeof(fv_idx_t), "cell nodes"));
		FV_CALL(vec_reserve(&st->ctag, count, sizeof(int64_t), "element tags"));
	} else if (t->kind == EK_BND) {
		FV_CALL(check_room(st, count, nn, 0));
		FV_CALL(vec_reserve(&st->btype, count, sizeof(uint8_t), "boundary element types"));
		FV_CALL(vec_reserve(&st->bnode, nn, sizeof(fv_idx_t), "boundary nodes"));
		FV_CALL(vec_reserve(&st->bgrp, count, sizeof(int32_t), "boundary markers"));
	}
	return FV_OK;
}

/* Tets, hexes and pyramids number alike in Gmsh and VTK; prisms do not. */
static void to_vtk(int fv_type, fv_idx_t *v)
{
	if (fv_type == FV_PRISM)
		fv_prism_flip(v);
}

/* Appends element tag (nodes already mapped); room was reserved. */
static void push_elem(gmsh_t *st, const etype_t *t, long long tag, const fv_idx_t *v, int32_t grp)
{
	if (t->kind == EK_CELL) {
		fv_idx_t *dst = (fv_idx_t *)st->cnode.p + st->cnode.n;
		((uint8_t *)st->ctype.p)[st->ctype.n++] = (uint8_t)t->fv;
		((int64_t *)st->ctag.p)[st->ctag.n++] = tag;
		memcpy(dst, v, (size_t)t->nn * sizeof *v);
		to_vtk(t->fv, dst);
		st->cnode.n += (size_t)t->nn;
	} else {
		((uint8_t *)st->btype.p)[st->btype.n++] = (uint8_t)t->fv;
		memcpy((fv_idx_t *)st->bnode.p + st->bnode.n, v, (size_t)t->nn * sizeof *v);
		st->bnode.n += (size_t)t->nn;
		((int32_t *)st->bgrp.p)[st->bgrp.n++] = grp;
	}
}

/* Is the element the same as the last one of its kind? (MSH 2.2 repeats an
 * element once per physical group; prisms compare after reordering.) */
static int same_as_last(const gmsh_t *st, const etype_t *t, const fv_idx_t *v)
{
	const vec_t *ty = t->kind == EK_CELL ? &st->ctype : &st->btype;
	const vec_t *nd = t->kind == EK_CELL ? &st->cnode : &st->bnode;
	fv_idx_t w[FV_MAX_CELL_NODES];
	if (!ty->n || ((const uint8_t *)ty->p)[ty->n - 1] != t->fv)
		return 0;
	memcpy(w, v, (size_t)t->nn * sizeof *v);
	if (t->kind == EK_CELL)
		to_vtk(t->fv, w);
	return memcmp((const fv_idx_t *)nd->p + nd->n - (size_t)t->nn, w,
		      (size_t)t->nn * sizeof *w) == 0;
}

/* ---- node tags ---------------------------------------------------------- */

static int cmp_tagidx(const void *a, const void *b)
{
	long long x = ((const tagidx_t *)a)->tag, y = ((const tagidx_t *)b)->tag;
	return (x > y) - (x < y);
}

/* Dense while tags stay below limit (at most about four slots per node);
 * hint is the largest tag when the header gives it. */
static fv_err_t nodemap_init(gmsh_t *st, size_t n_nodes, long long hint)
{
	st->dense = 1;
	st->map_limit = 4 * n_nodes + 1000;
	if (hint > 0 && (unsigned long long)hint <= st->map_limit) {
		st->map_cap = (size_t)hint + 1;
		FV_CALL(fv_malloc(&st->map, st->map_cap, sizeof *st->map, "node tag map"));
		memset(st->map, 0xff, st->map_cap * sizeof *st->map);
	}
	return FV_OK;
}

static fv_err_t nodemap_to_sparse(gmsh_t *st, size_t n_nodes)
{
	FV_CALL(fv_malloc(&st->pairs, n_nodes ? n_nodes : 1, sizeof *st->pairs, "node tags"));
	for (size_t t = 0; t < st->map_cap; t++)
		if (st->map[t] >= 0)
			st->pairs[st->map[t]] = (tagidx_t){(long long)t, st->map[t]};
	FV_FREE(st->map);
	st->map_cap = 0;
	st->dense = 0;
	return FV_OK;
}

/* Records node i (of n_nodes) under tag; the cursor is on the tag. */
static fv_err_t nodemap_add(gmsh_t *st, long long tag, fv_idx_t i, size_t n_nodes)
{
	if (tag < 1)
		return fv_cursor_error(&st->c, "node tag %lld is not positive", tag);
	if (st->dense && (unsigned long long)tag > st->map_limit)
		FV_CALL(nodemap_to_sparse(st, n_nodes));
	if (!st->dense) {
		st->pairs[i] = (tagidx_t){tag, i};
		st->n_pairs = (size_t)i + 1;
		return FV_OK;
	}
	if ((size_t)tag >= st->map_cap) {
		size_t cap = 2 * st->map_cap;
		if (cap <= (size_t)tag)
			cap = (size_t)tag + 1;
		if (cap > st->map_limit + 1)
			cap = st->map_limit + 1;
		FV_CALL(fv_realloc(&st->map, cap, sizeof *st->map, "node tag map"));
		memset(st->map + st->map_cap, 0xff, (cap - st->map_cap) * sizeof *st->map);
		st->map_cap = cap;
	}
	if (st->map[tag] >= 0)
		return fv_cursor_error(&st->c, "duplicate node tag %lld", tag);
	st->map[tag] = i;
	return FV_OK;
}

static fv_err_t nodemap_finish(gmsh_t *st)
{
	if (st->dense)
		return FV_OK;
	qsort(st->pairs, st->n_pairs, sizeof *st->pairs, cmp_tagidx);
	for (size_t i = 1; i < st->n_pairs; i++)
		if (st->pairs[i].tag == st->pairs[i - 1].tag) {
			fv_cursor_t at = st->c;
			at.line = st->nodes_line;
			return fv_cursor_error(&at, "duplicate node tag %lld in $Nodes", st->pairs[i].tag);
		}
	return FV_OK;
}

/* Reads a node tag of an element's line and maps it to its index; the
 * cursor names the line. */
static fv_err_t node_ref(gmsh_t *st, fv_idx_t *v)
{
	long long tag;
	FV_CALL(fv_cursor_long_inline(&st->c, &tag, "node tag"));
	if (st->dense) {
		if (tag >= 0 && (unsigned long long)tag < st->map_cap && st->map[tag] >= 0) {
			*v = st->map[tag];
			return FV_OK;
		}
	} else {
		ptrdiff_t i = fv_search(st->pairs, st->n_pairs, tag, pair_tag);
		if (i >= 0) {
			*v = st->pairs[i].idx;
			return FV_OK;
		}
	}
	return fv_cursor_error(&st->c, "node tag %lld is not defined in $Nodes", tag);
}

/* ---- boundary groups ---------------------------------------------------- */

static fv_err_t group_id(gmsh_t *st, int kind, long long tag, int32_t *id)
{
	int64_t key;
	int lo;
	if (tag < INT32_MIN || tag > INT32_MAX)
		return fv_cursor_error(&st->c, "tag %lld out of range", tag);
	key = ((int64_t)kind << 32) | (int64_t)(uint32_t)(int32_t)tag;
	if (st->n_groups && key == st->last_key) {
		*id = st->last_gid;
		return FV_OK;
	}
	lo = (int)fv_lower_bound(st->gkey, (size_t)st->n_groups, key, fv_key_i64);
	if (lo < st->n_groups && st->gkey[lo] == key) {
		*id = st->gid[lo];
	} else {
		if (st->n_groups >= GMSH_GROUP_MAX)
			return fv_cursor_error(&st->c, "more than %d boundary groups", GMSH_GROUP_MAX);
		if (st->n_groups == st->groups_cap) {
			int cap = st->groups_cap ? 2 * st->groups_cap : 16;
			FV_CALL(fv_realloc(&st->gkey, (size_t)cap, sizeof *st->gkey, "groups"));
			FV_CALL(fv_realloc(&st->gid, (size_t)cap, sizeof *st->gid, "groups"));
			FV_CALL(fv_realloc(&st->gkey_of, (size_t)cap, sizeof *st->gkey_of, "groups"));
			st->groups_cap = cap;
		}
		memmove(st->gkey + lo + 1, st->gkey + lo, (size_t)(st->n_groups - lo) * sizeof *st->gkey);
		memmove(st->gid + lo + 1, st->gid + lo, (size_t)(st->n_groups - lo) * sizeof *st->gid);
		st->gkey[lo] = key;
		st->gid[lo] = st->n_groups;
		st->gkey_of[st->n_groups] = key;
		*id = st->n_groups++;
	}
	st->last_key = key;
	st->last_gid = *id;
	return FV_OK;
}

static const pname_t *find_pname(const gmsh_t *st, long long tag)
{
	ptrdiff_t i = fv_search(st->pnames, st->n_pnames, tag, pname_tag);
	return i >= 0 ? &st->pnames[i] : NULL;
}

static const surf_t *find_surf(const gmsh_t *st, long long tag)
{
	ptrdiff_t i = fv_search(st->surfs, st->n_surfs, tag, surf_tag);
	return i >= 0 ? &st->surfs[i] : NULL;
}

static void phys_name(const gmsh_t *st, long long tag, char *name, size_t size)
{
	const pname_t *p = find_pname(st, tag);
	if (p)
		snprintf(name, size, "%s", p->name);
	else
		snprintf(name, size, "physical_%lld", tag);
}

typedef struct gorder {
	int cls;          /* 0: physical group, 1: surface or elementary tag */
	long long num;    /* physical tag, else entity tag */
	int g;            /* group id */
} gorder_t;

/* A group as a message names it: "physical surface 3 "wall" (line 7)". */
static void describe_group(const gmsh_t *st, const gorder_t *o, char *buf, size_t size)
{
	int kind = (int)(st->gkey_of[o->g] >> 32);
	if (o->cls == 0) {
		const pname_t *p = find_pname(st, o->num);
		if (p)
			snprintf(buf, size, "physical surface %lld \"%s\" (line %ld)", o->num, p->name, p->line);
		else
			snprintf(buf, size, "physical surface %lld, which has no name in $PhysicalNames", o->num);
	} else if (kind == GK_ELEM) {
		snprintf(buf, size, "the elements of elementary surface %lld without a physical group", o->num);
	} else {
		snprintf(buf, size, "surface entity %lld without a physical group", o->num);
	}
}

/* The line that names a group, else that of $Elements. */
static long group_line(const gmsh_t *st, const gorder_t *o)
{
	const pname_t *p = o->cls == 0 ? find_pname(st, o->num) : NULL;
	return p ? p->line : st->elements_line;
}

static int cmp_gorder(const void *a, const void *b)
{
	const gorder_t *x = a, *y = b;
	if (x->cls != y->cls)
		return x->cls - y->cls;
	if (x->num != y->num)
		return (x->num > y->num) - (x->num < y->num);
	return x->g - y->g;
}

/* Names every group, creates the markers, and renumbers the boundary
 * elements from group ids to marker indices. Markers come in physical-tag
 * order (as Gmsh's own SU2 export has them, and alike for 2.2 and 4.1),
 * then the surfaces without a physical group. */
static fv_err_t resolve_markers(gmsh_t *st)
{
	char name[FV_MARKER_NAME_MAX + 32];
	int32_t *grp = st->bgrp.p;
	gorder_t *ord;
	int32_t *to_marker;
	size_t ng = (size_t)st->n_groups;
	/* one buffer: the order, then the group -> marker map */
	FV_CALL(fv_malloc(&st->tmp, ng * (sizeof *ord + sizeof(int32_t)) + 1, 1, "marker map"));
	ord = st->tmp;
	to_marker = (int32_t *)(ord + ng);
	for (size_t g = 0; g < ng; g++) {
		int kind = (int)(st->gkey_of[g] >> 32);
		long long tag = (int32_t)(uint32_t)(st->gkey_of[g] & 0xffffffff);
		ord[g] = (gorder_t){kind == GK_PHYS ? 0 : 1, tag, (int)g};
		if (kind == GK_SURF) {
			const surf_t *sf = find_surf(st, tag);
			if (sf && sf->has_phys)
				ord[g] = (gorder_t){0, sf->phys, (int)g};
		}
	}
	qsort(ord, ng, sizeof *ord, cmp_gorder);
	for (size_t i = 0; i < ng; i++) {
		int kind = (int)(st->gkey_of[ord[i].g] >> 32);
		int idx, n_before = st->m->n_markers;
		if (ord[i].cls == 0)
			phys_name(st, ord[i].num, name, sizeof name);
		else if (kind == GK_ELEM)
			snprintf(name, sizeof name, "elementary_%lld", ord[i].num);
		else
			snprintf(name, sizeof name, "surface_%lld", ord[i].num);
		if (i > 0 && ord[i].cls == ord[i - 1].cls && ord[i].num == ord[i - 1].num) {
			/* surfaces of one physical group: one marker, as meant */
			to_marker[ord[i].g] = to_marker[ord[i - 1].g];
			continue;
		}
		FV_CALL(fv_mesh_marker(st->m, name, &idx));
		if (idx < n_before) {
			/* another group has this name: merged, the faces of one would
			 * take the other's boundary condition */
			size_t j = 0;
			char first[160], second[160];
			while (j < i && to_marker[ord[j].g] != idx)
				j++;
			describe_group(st, &ord[j], first, sizeof first);
			describe_group(st, &ord[i], second, sizeof second);
			fv_cursor_t at = st->c;
			at.line = group_line(st, &ord[i]);
			return fv_cursor_error(&at, "marker name '%s' comes twice: %s and %s; each marker needs its own "
					       "name, since boundary conditions are set by name: rename one, or put "
					       "their surfaces in one physical group", name, first, second);
		}
		to_marker[ord[i].g] = idx;
	}
	for (size_t i = 0; i < st->bgrp.n; i++)
		grp[i] = to_marker[grp[i]];
	FV_FREE(st->tmp);
	return FV_OK;
}

/* ---- sections ----------------------------------------------------------- */

static fv_err_t parse_format(gmsh_t *st)
{
	fv_cursor_t *c = &st->c;
	const char *tok;
	size_t len;
	long long ftype, dsize;
	FV_CALL(fv_cursor_token(c, &tok, &len, "MSH version"));
	if (tok_is(tok, len, "2.2") || tok_is(tok, len, "2.1") || tok_is(tok, len, "2.0") ||
	    tok_is(tok, len, "2"))
		st->version = 2;
	else if (tok_is(tok, len, "4.1"))
		st->version = 41;
	else if (tok_is(tok, len, "4") || tok_is(tok, len, "4.0"))
		return fv_cursor_error(c, "MSH 4.0 is not supported, save as 4.1 or 2.2 "
				       "(-format msh41 or -format msh22)");
	else
		return fv_cursor_error(c, "unsupported MSH version '%.*s' (2.2 and 4.1 are read)",
				       shown(len), tok);
	FV_CALL(fv_cursor_long(c, &ftype, "file type"));
	if (ftype == 1)
		return fv_cursor_error(c, "binary MSH not supported, write ASCII (-format msh41 / -bin 0)");
	if (ftype != 0)
		return fv_cursor_error(c, "file type %lld is neither 0 (ASCII) nor 1 (binary)", ftype);
	FV_CALL(fv_cursor_long(c, &dsize, "data size"));
	return expect_end(c, "$EndMeshFormat");
}

/* A physical name on the rest of the line, quoted (Gmsh) or one token. */
static fv_err_t read_name(fv_cursor_t *c, const char **s, size_t *n)
{
	const char *nl;
	fv_cursor_skip_blanks(c);
	if (c->p >= c->end || *c->p == '\n')
		return fv_cursor_error(c, "line ends before the physical name");
	nl = memchr(c->p, '\n', bytes_left(c));
	if (!nl)
		nl = c->end;
	if (*c->p == '"') {
		const char *q = memchr(c->p + 1, '"', (size_t)(nl - c->p - 1));
		if (!q)
			return fv_cursor_error(c, "physical name without a closing '\"'");
		*s = c->p + 1;
		*n = (size_t)(q - *s);
		c->p = q + 1;
	} else {
		*s = c->p;
		while (c->p < nl && !is_space(*c->p))
			c->p++;
		*n = (size_t)(c->p - *s);
	}
	return FV_OK;
}

static int cmp_pname(const void *a, const void *b)
{
	long long x = ((const pname_t *)a)->tag, y = ((const pname_t *)b)->tag;
	return (x > y) - (x < y);
}

static fv_err_t parse_physical_names(gmsh_t *st, long line)
{
	fv_cursor_t *c = &st->c;
	size_t n = 0;
	if (st->have_pnames)
		return fv_cursor_error(c, "second $PhysicalNames section");
	st->have_pnames = 1;
	/* "d t n" and a newline at least */
	FV_CALL(read_count(c, 6, &n, "number of physical names"));
	FV_CALL(fv_malloc(&st->pnames, n ? n : 1, sizeof *st->pnames, "physical names"));
	for (size_t i = 0; i < n; i++) {
		long long dim, tag;
		const char *s = NULL;
		size_t len = 0;
		FV_CALL(read_int(c, 0, 3, &dim, "physical group dimension"));
		FV_CALL(read_int(c, INT32_MIN, INT32_MAX, &tag, "physical tag"));
		FV_CALL(read_name(c, &s, &len));
		if (dim != 2 || len == 0)
			continue;   /* unnamed groups get physical_<tag> */
		if (len >= FV_MARKER_NAME_MAX)
			return fv_cursor_error(c, "physical name '%.40s...' is longer than %d characters",
					       s, FV_MARKER_NAME_MAX - 1);
		/* marker names end up in SU2 files and reports, one per line */
		for (size_t k = 0; k < len; k++)
			if ((unsigned char)s[k] < 0x20 || s[k] == 0x7f)
				return fv_cursor_error(c, "physical name with a control character");
		st->pnames[st->n_pnames].tag = tag;
		st->pnames[st->n_pnames].line = c->line;
		memcpy(st->pnames[st->n_pnames].name, s, len);
		st->pnames[st->n_pnames].name[len] = '\0';
		st->n_pnames++;
	}
	FV_CALL(expect_end(c, "$EndPhysicalNames"));
	qsort(st->pnames, st->n_pnames, sizeof *st->pnames, cmp_pname);
	ptrdiff_t i = fv_first_repeat(st->pnames, st->n_pnames, pname_tag);
	fv_cursor_t at = *c;
	at.line = line;
	return i < 0 ? FV_OK : fv_cursor_error(&at, "physical surface %lld named twice", st->pnames[i].tag);
}

static int cmp_surf(const void *a, const void *b)
{
	long long x = ((const surf_t *)a)->tag, y = ((const surf_t *)b)->tag;
	return (x > y) - (x < y);
}

/* Reads "numPhysicalTags physicalTag ..." keeping the first tag. */
static fv_err_t read_phys_tags(fv_cursor_t *c, long long *first, int *has)
{
	size_t n = 0;
	FV_CALL(read_count(c, 2, &n, "number of physical tags"));
	*has = n > 0;
	for (size_t k = 0; k < n; k++) {
		long long t;
		FV_CALL(read_int(c, INT32_MIN, INT32_MAX, &t, "physical tag"));
		if (k == 0)
			*first = t;
	}
	return FV_OK;
}

static fv_err_t parse_entities(gmsh_t *st, long line)
{
	fv_cursor_t *c = &st->c;
	size_t count[4];
	static const char *what[4] = {"number of points", "number of curves",
				      "number of surfaces", "number of volumes"};
	if (st->have_entities)
		return fv_cursor_error(c, "second $Entities section");
	st->have_entities = 1;
	/* A point has at least 5 tokens, other entities at least 9. */
	for (int d = 0; d < 4; d++)
		FV_CALL(read_count(c, d ? 18 : 10, &count[d], what[d]));
	FV_CALL(fv_malloc(&st->surfs, count[2] ? count[2] : 1, sizeof *st->surfs, "surface entities"));
	for (int d = 0; d < 4; d++) {
		for (size_t i = 0; i < count[d]; i++) {
			long long tag, phys = 0, t;
			int has = 0;
			size_t nb = 0;
			FV_CALL(read_int(c, INT32_MIN, INT32_MAX, &tag, "entity tag"));
			/* coordinates or bounding box: unused, not checked */
			FV_CALL(skip_tokens(c, d ? 6 : 3, d ? "entity bounding box" : "point coordinates"));
			FV_CALL(read_phys_tags(c, &phys, &has));
			if (d > 0) {
				FV_CALL(read_count(c, 2, &nb, "number of bounding entities"));
				for (size_t k = 0; k < nb; k++)
					FV_CALL(fv_cursor_long(c, &t, "bounding entity tag"));
			}
			if (d == 2)
				st->surfs[st->n_surfs++] = (surf_t){tag, phys, has};
		}
	}
	FV_CALL(expect_end(c, "$EndEntities"));
	qsort(st->surfs, st->n_surfs, sizeof *st->surfs, cmp_surf);
	ptrdiff_t i = fv_first_repeat(st->surfs, st->n_surfs, surf_tag);
	fv_cursor_t at = *c;
	at.line = line;
	return i < 0 ? FV_OK : fv_cursor_error(&at, "surface entity %lld listed twice", st->surfs[i].tag);
}

static fv_err_t alloc_nodes(gmsh_t *st, size_t n)
{
	if (n > (size_t)FV_IDX_MAX)
		return fv_error(FV_ERR_MEM, __FILE__, __LINE__, "%s:%ld: %zu nodes are too many for "
				"32-bit indices", st->c.name, st->c.line, n);
	FV_CALL(fv_malloc(&st->m->xyz, 3 * (n ? n : 1), sizeof *st->m->xyz, "node coordinates"));
	st->m->n_nodes = (fv_idx_t)n;
	return FV_OK;
}

/* x y z of node i on the rest of its line; then the parametric values a
 * block of dimension param_dim carries (0: none, and nothing may follow). */
static fv_err_t read_xyz(gmsh_t *st, size_t i, int param_dim, long block_line)
{
	static const char *uvw[3] = {"u", "v", "w"};
	fv_cursor_t *c = &st->c;
	double *x = st->m->xyz + 3 * i;
	FV_CALL(fv_cursor_coord(c, 1, &x[0], "x coordinate"));
	FV_CALL(fv_cursor_coord(c, 1, &x[1], "y coordinate"));
	FV_CALL(fv_cursor_coord(c, 1, &x[2], "z coordinate"));
	for (int d = 0; d < param_dim; d++) {
		double u;
		if (fv_cursor_at_eol(c))
			return fv_cursor_error(c, "parametric node: the line ends before its parametric coordinate %s "
					       "(the block at line %ld is parametric, of dimension %d: x y z and %d "
					       "parametric values per node)", uvw[d], block_line, param_dim, param_dim);
		FV_CALL(fv_cursor_double_inline(c, &u, "parametric coordinate"));
	}
	if (!fv_cursor_at_eol(c))
		return fv_cursor_error(c, "'%.*s' after the node's x y z: %s", fv_cursor_shown_len(c), c->p,
				       param_dim ? "more parametric values than the block's dimension" :
				       "a parametric node in a block whose parametric flag is 0? (one node per line, "
				       "x y z, in a block with flag 0)");
	return FV_OK;
}

/* MSH 2.2 $Nodes, or $ParametricNodes (param): "tag x y z", then for a
 * parametric node its entity and parametric values, which are skipped. */
static fv_err_t parse_nodes22(gmsh_t *st, int param)
{
	fv_cursor_t *c = &st->c;
	size_t n = 0;
	/* "t x y z" and a newline at least */
	FV_CALL(read_count(c, 8, &n, "number of nodes"));
	FV_CALL(alloc_nodes(st, n));
	FV_CALL(nodemap_init(st, n, 0));
	for (size_t i = 0; i < n; i++) {
		long long tag;
		FV_CALL(fv_cursor_long(c, &tag, "node tag"));
		FV_CALL(nodemap_add(st, tag, (fv_idx_t)i, n));
		if (param) {
			double x;
			FV_CALL(fv_cursor_coord(c, 1, &st->m->xyz[3 * i], "x coordinate"));
			FV_CALL(fv_cursor_coord(c, 1, &st->m->xyz[3 * i + 1], "y coordinate"));
			FV_CALL(fv_cursor_coord(c, 1, &st->m->xyz[3 * i + 2], "z coordinate"));
			/* dim entity [u [v]] */
			while (!fv_cursor_at_eol(c))
				FV_CALL(fv_cursor_double_inline(c, &x, "parametric node's dimension, entity or coordinate"));
		} else {
			FV_CALL(read_xyz(st, i, 0, 0));
		}
	}
	FV_CALL(expect_end(c, param ? "$EndParametricNodes" : "$EndNodes"));
	return nodemap_finish(st);
}

static fv_err_t parse_nodes41(gmsh_t *st)
{
	fv_cursor_t *c = &st->c;
	size_t nblocks = 0, n = 0, done = 0;
	long long tmin, tmax;
	long header;
	fv_cursor_skip_space(c);
	header = c->line;
	FV_CALL(read_count(c, 8, &nblocks, "number of node blocks"));
	FV_CALL(read_count(c, 8, &n, "number of nodes"));
	FV_CALL(fv_cursor_long(c, &tmin, "smallest node tag"));
	FV_CALL(fv_cursor_long(c, &tmax, "largest node tag"));
	FV_CALL(alloc_nodes(st, n));
	FV_CALL(nodemap_init(st, n, tmax));
	for (size_t b = 0; b < nblocks; b++) {
		long long dim, etag, param;
		size_t cnt = 0;
		long block_line;
		fv_cursor_skip_space(c);
		block_line = c->line;
		FV_CALL(read_int(c, 0, 3, &dim, "entity dimension"));
		FV_CALL(fv_cursor_long(c, &etag, "entity tag"));
		FV_CALL(read_int(c, 0, 1, &param, "parametric flag"));
		FV_CALL(read_count(c, 8, &cnt, "number of nodes in block"));
		if (cnt > n - done)
			return fv_cursor_error(c, "node blocks hold more than the %zu nodes of the "
					       "$Nodes header", n);
		for (size_t k = 0; k < cnt; k++) {
			long long tag;
			FV_CALL(fv_cursor_long(c, &tag, "node tag"));
			FV_CALL(nodemap_add(st, tag, (fv_idx_t)(done + k), n));
		}
		for (size_t k = done; k < done + cnt; k++) {
			if (!fv_cursor_skip_space(c))
				return fv_cursor_truncated(c, "the coordinates of a node");
			FV_CALL(read_xyz(st, k, param ? (int)dim : 0, block_line));
		}
		done += cnt;
	}
	if (done != n) {
		c->line = header;
		return fv_cursor_error(c, "node blocks hold %zu nodes, the $Nodes header says %zu",
				       done, n);
	}
	FV_CALL(expect_end(c, "$EndNodes"));
	return nodemap_finish(st);
}

static fv_err_t parse_elements22(gmsh_t *st)
{
	fv_cursor_t *c = &st->c;
	size_t n = 0;
	/* "e t n v" and a newline at least */
	FV_CALL(read_count(c, 8, &n, "number of elements"));
	for (size_t e = 0; e < n; e++) {
		long long id, type, ntags, phys = 0, elem = 0, t;
		const etype_t *et = NULL;
		fv_idx_t v[FV_MAX_CELL_NODES];
		int32_t grp = 0;
		const char *nl;
		/* one element per line: "number type ntags tags... nodes..." */
		FV_CALL(fv_cursor_long(c, &id, "element number"));
		FV_CALL(fv_cursor_long_inline(c, &type, "element type"));
		FV_CALL(elem_type(c, type, &et));
		FV_CALL(fv_cursor_count(c, 1, INT32_MAX, NULL, &ntags, "number of tags"));
		nl = memchr(c->p, '\n', bytes_left(c));
		if ((unsigned long long)ntags > (size_t)((nl ? nl : c->end) - c->p) / 2)
			return fv_cursor_error(c, "element %lld: %lld tags, more than the rest of its line holds", id,
					       ntags);
		for (long long k = 0; k < ntags; k++) {
			FV_CALL(fv_cursor_long_inline(c, &t, "element tag"));
			if (k == 0)
				phys = t;
			else if (k == 1)
				elem = t;
		}
		if (et->kind == EK_SKIP) {
			for (int k = 0; k < et->nn; k++)
				FV_CALL(fv_cursor_long_inline(c, &t, "node tag"));
			continue;
		}
		for (int k = 0; k < et->nn; k++)
			FV_CALL(node_ref(st, &v[k]));
		if (same_as_last(st, et, v))
			continue;
		if (et->kind == EK_BND) {
			if (phys)
				FV_CALL(group_id(st, GK_PHYS, phys, &grp));
			else
				FV_CALL(group_id(st, GK_ELEM, elem, &grp));
		}
		FV_CALL(reserve_elems(st, et, 1));
		push_elem(st, et, id, v, grp);
	}
	return expect_end(c, "$EndElements");
}

static fv_err_t parse_elements41(gmsh_t *st)
{
	fv_cursor_t *c = &st->c;
	size_t nblocks = 0, n = 0, done = 0;
	long long t;
	long header;
	fv_cursor_skip_space(c);
	header = c->line;
	FV_CALL(read_count(c, 8, &nblocks, "number of element blocks"));
	FV_CALL(read_count(c, 4, &n, "number of elements"));
	FV_CALL(fv_cursor_long(c, &t, "smallest element tag"));
	FV_CALL(fv_cursor_long(c, &t, "largest element tag"));
	for (size_t b = 0; b < nblocks; b++) {
		long long dim, etag, type;
		size_t cnt = 0;
		const etype_t *et = NULL;
		int32_t grp = 0;
		fv_idx_t v[FV_MAX_CELL_NODES];
		FV_CALL(read_int(c, 0, 3, &dim, "entity dimension"));
		FV_CALL(read_int(c, INT32_MIN, INT32_MAX, &etag, "entity tag"));
		FV_CALL(fv_cursor_long(c, &type, "element type"));
		FV_CALL(elem_type(c, type, &et));
		FV_CALL(read_count(c, 2 * ((size_t)et->nn + 1), &cnt, "number of elements in block"));
		if (cnt > n - done)
			return fv_cursor_error(c, "element blocks hold more than the %zu elements of "
					       "the $Elements header", n);
		if (et->kind == EK_BND) {
			if (dim != 2)
				return fv_cursor_error(c, "%s elements in an entity of dimension %lld",
						       et->name, dim);
			FV_CALL(group_id(st, GK_SURF, etag, &grp));
		}
		FV_CALL(reserve_elems(st, et, cnt));
		for (size_t e = 0; e < cnt; e++) {
			long long tag;
			FV_CALL(fv_cursor_long(c, &tag, "element tag"));
			if (et->kind == EK_SKIP) {
				for (int k = 0; k < et->nn; k++)
					FV_CALL(fv_cursor_long_inline(c, &t, "node tag"));
				continue;
			}
			for (int k = 0; k < et->nn; k++)
				FV_CALL(node_ref(st, &v[k]));
			push_elem(st, et, tag, v, grp);
		}
		done += cnt;
	}
	if (done != n) {
		c->line = header;
		return fv_cursor_error(c, "element blocks hold %zu elements, the $Elements header "
				       "says %zu", done, n);
	}
	return expect_end(c, "$EndElements");
}

/* Skips a section we do not read, up to the line that starts with its
 * $End marker. */
static fv_err_t skip_section(gmsh_t *st, const char *tok, size_t len, long line)
{
	fv_cursor_t *c = &st->c;
	char end[80];
	size_t elen;
	if (len > 64)
		return fv_cursor_error(c, "section name '%.40s...' is too long", tok);
	snprintf(end, sizeof end, "$End%.*s", (int)(len - 1), tok + 1);
	elen = strlen(end);
	fv_cursor_next_line(c);
	while (c->p < c->end) {
		fv_cursor_skip_blanks(c);
		if (bytes_left(c) >= elen && memcmp(c->p, end, elen) == 0 &&
		    (bytes_left(c) == elen || is_space(c->p[elen]))) {
			c->p += elen;
			return FV_OK;
		}
		fv_cursor_next_line(c);
	}
	c->line = line;
	return fv_cursor_error(c, "section %.*s has no %s", shown(len), tok, end);
}

/* Drops nodes that no element references, keeping the order of the rest,
 * and records the tags of the nodes kept. */
static fv_err_t compact_nodes(gmsh_t *st)
{
	fv_mesh_t *m = st->m;
	size_t n = (size_t)m->n_nodes, j = 0;
	fv_idx_t *cn = st->cnode.p, *bn = st->bnode.p;
	int32_t *id;
	int64_t *tag;
	FV_CALL(fv_calloc(&st->tmp, n ? n : 1, sizeof *id, "node renumbering"));
	FV_CALL(fv_malloc(&m->node_tag, n ? n : 1, sizeof *m->node_tag, "node tags"));
	id = st->tmp;
	tag = m->node_tag;
	if (st->dense) {
		for (size_t t = 0; t < st->map_cap; t++)
			if (st->map[t] >= 0)
				tag[st->map[t]] = (int64_t)t;
	} else {
		for (size_t k = 0; k < st->n_pairs; k++)
			tag[st->pairs[k].idx] = st->pairs[k].tag;
	}
	for (size_t i = 0; i < st->cnode.n; i++)
		id[cn[i]] = 1;
	for (size_t i = 0; i < st->bnode.n; i++)
		id[bn[i]] = 1;
	for (size_t i = 0; i < n; i++) {
		if (!id[i]) {
			id[i] = -1;
			continue;
		}
		id[i] = (int32_t)j;
		if (j != i) {
			memmove(&m->xyz[3 * j], &m->xyz[3 * i], 3 * sizeof *m->xyz);
			tag[j] = tag[i];
		}
		j++;
	}
	if (j != n) {
		double *x;
		for (size_t i = 0; i < st->cnode.n; i++)
			cn[i] = id[cn[i]];
		for (size_t i = 0; i < st->bnode.n; i++)
			bn[i] = id[bn[i]];
		m->n_nodes = (fv_idx_t)j;
		x = realloc(m->xyz, 3 * (j ? j : 1) * sizeof *x);
		if (x)
			m->xyz = x;
	}
	FV_FREE(st->tmp);
	return FV_OK;
}

static fv_err_t finish(gmsh_t *st)
{
	fv_mesh_t *m = st->m;
	size_t nc = st->ctype.n, nb = st->btype.n;
	const uint8_t *ct, *bt;
	if (nc == 0) {
		fv_cursor_t at = st->c;
		at.line = st->elements_line;
		return fv_cursor_error(&at, "no volume elements (linear tetrahedra, hexahedra, "
				       "prisms or pyramids) in $Elements");
	}
	FV_CALL(compact_nodes(st));
	FV_CALL(resolve_markers(st));
	FV_CALL(fv_malloc(&m->cell_node_off, nc + 1, sizeof *m->cell_node_off, "cell offsets"));
	FV_CALL(fv_malloc(&m->belem_node_off, nb + 1, sizeof *m->belem_node_off, "boundary offsets"));
	ct = st->ctype.p;
	bt = st->btype.p;
	m->cell_node_off[0] = 0;
	for (size_t i = 0; i < nc; i++)
		m->cell_node_off[i + 1] = m->cell_node_off[i] + fv_cell_shapes[ct[i]].n_nodes;
	m->belem_node_off[0] = 0;
	for (size_t i = 0; i < nb; i++)
		m->belem_node_off[i + 1] = m->belem_node_off[i] + bt[i];  /* FV_TRI = 3, FV_QUAD = 4 */
	m->n_cells = (fv_idx_t)nc;
	m->n_belems = (fv_idx_t)nb;
	m->cell_type = vec_take(&st->ctype, sizeof(uint8_t));
	m->cell_node = vec_take(&st->cnode, sizeof(fv_idx_t));
	m->cell_tag = vec_take(&st->ctag, sizeof(int64_t));
	m->belem_type = vec_take(&st->btype, sizeof(uint8_t));
	m->belem_node = vec_take(&st->bnode, sizeof(fv_idx_t));
	m->belem_marker = vec_take(&st->bgrp, sizeof(int32_t));
	if (!m->cell_type || !m->cell_node || !m->cell_tag || !m->belem_type || !m->belem_node || !m->belem_marker)
		return FV_ERROR(FV_ERR_MEM, "%s: out of memory", m->source);
	return FV_OK;
}

static fv_err_t parse(gmsh_t *st)
{
	fv_cursor_t *c = &st->c;
	const char *tok;
	size_t len;
	if (!fv_cursor_skip_space(c))
		return fv_cursor_error(c, "empty file, expected $MeshFormat");
	FV_CALL(fv_cursor_token(c, &tok, &len, "$MeshFormat"));
	if (tok_is(tok, len, "$NOD") || tok_is(tok, len, "$NOE"))
		return fv_cursor_error(c, "MSH version 1 is not supported, save as 4.1 or 2.2");
	if (!tok_is(tok, len, "$MeshFormat"))
		return fv_cursor_error(c, "not a Gmsh MSH file: expected $MeshFormat, found '%.*s'",
				       shown(len), tok);
	FV_CALL(parse_format(st));

	while (fv_cursor_skip_space(c)) {
		long line = c->line;
		FV_CALL(fv_cursor_token(c, &tok, &len, "a section"));
		if (tok_is(tok, len, "$PhysicalNames")) {
			FV_CALL(parse_physical_names(st, line));
		} else if (tok_is(tok, len, "$Entities") && st->version == 41) {
			FV_CALL(parse_entities(st, line));
		} else if (tok_is(tok, len, "$PartitionedEntities")) {
			return fv_cursor_error(c, "partitioned MSH files are not supported");
		} else if (tok_is(tok, len, "$Nodes") || (st->version == 2 && tok_is(tok, len, "$ParametricNodes"))) {
			if (st->have_nodes)
				return fv_cursor_error(c, "second $Nodes section");
			st->have_nodes = 1;
			st->nodes_line = line;
			FV_CALL(st->version == 2 ? parse_nodes22(st, tok[1] == 'P') : parse_nodes41(st));
		} else if (tok_is(tok, len, "$Elements")) {
			if (st->have_elements)
				return fv_cursor_error(c, "second $Elements section");
			if (!st->have_nodes)
				return fv_cursor_error(c, "$Elements before $Nodes");
			st->have_elements = 1;
			st->elements_line = line;
			FV_CALL(st->version == 2 ? parse_elements22(st) : parse_elements41(st));
		} else if (tok_is(tok, len, "$MeshFormat")) {
			return fv_cursor_error(c, "second $MeshFormat section");
		} else if (len >= 4 && memcmp(tok, "$End", 4) == 0) {
			return fv_cursor_error(c, "%.*s without its section", shown(len), tok);
		} else if (len > 1 && tok[0] == '$') {
			FV_CALL(skip_section(st, tok, len, line));
		} else {
			return fv_cursor_error(c, "expected a section ($Name), found '%.*s'",
					       shown(len), tok);
		}
	}
	if (!st->have_nodes)
		return fv_cursor_error(c, "no $Nodes section");
	if (!st->have_elements)
		return fv_cursor_error(c, "no $Elements section");
	return finish(st);
}

fv_err_t fv_mesh_parse_gmsh(fv_mesh_t *m, const char *buf, size_t len, const char *name)
{
	gmsh_t st;
	fv_err_t err;
	if (!name)
		name = "(buffer)";
	fv_mesh_init(m);
	snprintf(m->source, sizeof m->source, "%s", name);
	memset(&st, 0, sizeof st);
	st.m = m;
	fv_cursor_init(&st.c, buf ? buf : "", buf ? len : 0, name);
	err = parse(&st);
	gmsh_free(&st);
	if (err != FV_OK)
		fv_mesh_free(m);
	return err;
}
