/* SPDX-License-Identifier: MIT */
/* Reader for unstructured CGNS meshes through the CGNS mid-level library:
 * the linear cells of one zone, and markers from its boundary conditions. */
#ifdef HAVE_CONFIG_H /* not in tools/fuzz.sh's build: the stub below */
#include "config.h"
#endif
#include "fvstar/mesh.h"

#ifndef FV_HAVE_CGNS

int fv_mesh_have_cgns(void)
{
	return 0;
}

fv_err_t fv_mesh_read_cgns(fv_mesh_t *m, const char *path)
{
	fv_mesh_init(m);
	return FV_ERROR(FV_ERR_FORMAT,
			"%s: fvstar was built without CGNS (install libcgns-dev, then configure again "
			"with --with-cgns), or convert the mesh to SU2 or Gmsh",
			path);
}

#else

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cgnslib.h>

#include "mesh/mesh_internal.h"
#include "util/parse.h"
#include "util/search.h"

/*
 * What this reader takes from a file, and how:
 *
 * - One base of cell dimension 3 with one Unstructured zone; other layouts
 *   are refused with the reason. Coordinates CoordinateX/Y/Z.
 * - Sections of TETRA_4, PYRA_5, PENTA_6, HEXA_8 and MIXED hold the cells,
 *   in section order; TRI_3 and QUAD_4 (alone or in MIXED) are boundary
 *   candidates; NODE and BAR_n are skipped; anything else (higher order,
 *   NGON_n, NFACE_n) is refused naming the section.
 * - Markers come from the BCs of ZoneBC, each named after its FamilyName
 *   when it has one (BCs of one family become one marker), else after the
 *   BC. A BC lists element numbers (PointRange / PointList at a FaceCenter
 *   location, or the older ElementRange / ElementList): those triangles and
 *   quadrilaterals are its faces. A BC at Vertex lists nodes: its faces are
 *   the boundary faces of the cells whose nodes all are in the list (the
 *   first such BC wins where two lists share a face). A BC with no points
 *   takes the 2D section named after it or its family.
 * - Without any BC, every 2D section is a marker named after the section.
 * - CGNS numbers a prism's nodes with its first triangle facing the second
 *   (like Gmsh); fvstar's VTK order has it facing away. Tets, pyramids and
 *   hexahedra number alike (CGNS SIDS 3.3, mesh.h).
 */

#define CG_NAME 33 /* CGNS names: 32 characters and the NUL */

typedef struct face2d {
	cgsize_t id;       /* element number in the zone */
	fv_idx_t node[4];
	int8_t nn;
	int32_t section;   /* 0-based */
	int32_t marker;    /* -1 until a BC takes the face */
	int32_t bc;        /* that BC (1-based), for messages */
} face2d_t;

typedef struct section {
	char name[CG_NAME];
	CGNS_ENUMT(ElementType_t) type;
	cgsize_t start, end;
} section_t;

/* A boundary face of the cells, for BCs given by node lists. */
typedef struct bface {
	fv_idx_t key[4];   /* sorted nodes; a triangle's fourth is FV_IDX_MAX */
	fv_idx_t node[4];  /* in the cell's order */
	int8_t nn;
} bface_t;

typedef struct vbc {
	int bc;
	int32_t marker;
	cgsize_t *pts;
	cgsize_t n;
	int range;
} vbc_t;

typedef struct rd {
	fv_mesh_t *m;
	const char *path;
	int fn, B, Z;
	char zone[CG_NAME];
	cgsize_t nvert;

	uint8_t *ctype;
	fv_idx_t *cnode;
	size_t nc, cap_c, ncn, cap_cn;

	face2d_t *faces;
	size_t nf, cap_f;

	section_t *secs;
	int nsec;

	vbc_t *vbcs;
	int nvbc;

	bface_t *bf;       /* boundary faces of the cells (vertex BCs only) */
	size_t nbf;
	int32_t *bf_marker;

	char base[CG_NAME];
	/* what named marker k: its first BC (1-based) and whether through
	 * its family (BCs of one family share it, as meant); or a section */
	int *mk_bc, *mk_fam;
	int n_mk;
} rd_t;

/* Names and library messages of a damaged file may hold any bytes. */
static void printable(char *p)
{
	for (; *p; p++)
		if ((unsigned char)*p < 32 || (unsigned char)*p > 126)
			*p = '?';
}

/* The library's last message, printable. */
static const char *lib_msg(void)
{
	static char buf[256];
	snprintf(buf, sizeof buf, "%s", cg_get_error());
	printable(buf);
	return buf;
}

/* "file.cgns: base 1 zone 'blk' section 'X': message[: CGNS: why]" */
static fv_err_t rd_error(const rd_t *r, fv_err_t code, int line, const char *where, int lib, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static fv_err_t rd_error(const rd_t *r, fv_err_t code, int line, const char *where, int lib, const char *fmt, ...)
{
	char msg[512], all[1024], zone[CG_NAME + 32] = "";
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (r->Z > 0)
		snprintf(zone, sizeof zone, " zone '%s'", r->zone);
	snprintf(all, sizeof all, "base %d%s%s: %s%s%s", r->B, zone, where ? where : "", msg, lib ? ": CGNS: " : "",
		 lib ? cg_get_error() : "");
	printable(all);
	return fv_error(code, __FILE__, line, "%s: %s", r->path, all);
}

#define RD_ERR(r, where, ...) rd_error((r), FV_ERR_FORMAT, __LINE__, (where), 0, __VA_ARGS__)
#define RD_LIB(r, where, ...) rd_error((r), FV_ERR_FORMAT, __LINE__, (where), 1, __VA_ARGS__)

static void rd_free(rd_t *r)
{
	free(r->ctype);
	free(r->cnode);
	free(r->faces);
	free(r->secs);
	for (int k = 0; k < r->nvbc; k++)
		free(r->vbcs[k].pts);
	free(r->vbcs);
	free(r->bf);
	free(r->bf_marker);
	free(r->mk_bc);
	free(r->mk_fam);
}

static const char *type_name(CGNS_ENUMT(ElementType_t) t)
{
	return t >= 0 && t < NofValidElementTypes ? ElementTypeName[t] : "(invalid)";
}

static fv_err_t grow(void *pp, size_t *cap, size_t need, size_t size, const char *what)
{
	if (need <= *cap)
		return FV_OK;
	size_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	FV_CALL(fv_realloc(pp, c, size, what));
	*cap = c;
	return FV_OK;
}

/* Node numbers are 1-based in the file. */
static fv_err_t map_nodes(const rd_t *r, const char *where, cgsize_t id, const cgsize_t *v, int n, fv_idx_t *out)
{
	for (int i = 0; i < n; i++) {
		if (v[i] < 1 || v[i] > r->nvert)
			return RD_ERR(r, where, "element %ld: node %ld out of range [1, %ld]", (long)id, (long)v[i],
				      (long)r->nvert);
		out[i] = (fv_idx_t)(v[i] - 1);
	}
	return FV_OK;
}

static fv_err_t add_cell(rd_t *r, const char *where, cgsize_t id, fv_cell_type_t t, const cgsize_t *v)
{
	int n = fv_cell_shapes[t].n_nodes;
	FV_CHECK(r->nc + 1 < (size_t)FV_IDX_MAX, FV_ERR_MEM, "%s: more than 2^31 cells", r->path);
	FV_CALL(grow(&r->ctype, &r->cap_c, r->nc + 1, 1, "cell types"));
	FV_CALL(grow(&r->cnode, &r->cap_cn, r->ncn + (size_t)n, sizeof(fv_idx_t), "cell nodes"));
	fv_idx_t *dst = r->cnode + r->ncn;
	FV_CALL(map_nodes(r, where, id, v, n, dst));
	if (t == FV_PRISM)
		fv_prism_flip(dst);
	r->ctype[r->nc++] = (uint8_t)t;
	r->ncn += (size_t)n;
	return FV_OK;
}

static fv_err_t add_face(rd_t *r, const char *where, int S, cgsize_t id, const cgsize_t *v, int n)
{
	FV_CALL(grow(&r->faces, &r->cap_f, r->nf + 1, sizeof *r->faces, "2D elements"));
	face2d_t *f = &r->faces[r->nf];
	FV_CALL(map_nodes(r, where, id, v, n, f->node));
	f->id = id;
	f->nn = (int8_t)n;
	f->section = S - 1;
	f->marker = -1;
	f->bc = 0;
	r->nf++;
	return FV_OK;
}

/* One element of a section (or of a MIXED one): a cell, a boundary
 * candidate, skipped, or refused. */
static fv_err_t add_element(rd_t *r, const char *where, int S, cgsize_t id, CGNS_ENUMT(ElementType_t) t,
			    const cgsize_t *v)
{
	switch (t) {
	case CGNS_ENUMV(TETRA_4): return add_cell(r, where, id, FV_TET, v);
	case CGNS_ENUMV(PYRA_5): return add_cell(r, where, id, FV_PYRAMID, v);
	case CGNS_ENUMV(PENTA_6): return add_cell(r, where, id, FV_PRISM, v);
	case CGNS_ENUMV(HEXA_8): return add_cell(r, where, id, FV_HEX, v);
	case CGNS_ENUMV(TRI_3): return add_face(r, where, S, id, v, 3);
	case CGNS_ENUMV(QUAD_4): return add_face(r, where, S, id, v, 4);
	case CGNS_ENUMV(NODE):
	case CGNS_ENUMV(BAR_2):
	case CGNS_ENUMV(BAR_3):
	case CGNS_ENUMV(BAR_4):
	case CGNS_ENUMV(BAR_5):
		return FV_OK;
	case CGNS_ENUMV(NGON_n):
	case CGNS_ENUMV(NFACE_n):
		return RD_ERR(r, where, "element type %s is not supported (polyhedral sections; fvstar reads "
					"tetrahedra, pyramids, prisms and hexahedra)", type_name(t));
	default:
		return RD_ERR(r, where, "element type %s is not supported (fvstar reads linear elements: "
					"TETRA_4, PYRA_5, PENTA_6, HEXA_8, and TRI_3, QUAD_4 for boundaries)", type_name(t));
	}
}

static int skipped_type(CGNS_ENUMT(ElementType_t) t)
{
	return t == CGNS_ENUMV(NODE) || t == CGNS_ENUMV(BAR_2) || t == CGNS_ENUMV(BAR_3) || t == CGNS_ENUMV(BAR_4) ||
	       t == CGNS_ENUMV(BAR_5);
}

static fv_err_t read_section(rd_t *r, int S)
{
	section_t *sec = &r->secs[S - 1];
	char where[CG_NAME + 16];
	cgsize_t size, *elems = NULL, *offs = NULL;
	int nbndry, parent_flag, npe = 0;
	fv_err_t err = FV_OK;

	snprintf(where, sizeof where, " section %d", S);
	if (cg_section_read(r->fn, r->B, r->Z, S, sec->name, &sec->type, &sec->start, &sec->end, &nbndry,
			    &parent_flag))
		return RD_LIB(r, where, "cannot read the section");
	printable(sec->name); /* it may name a marker */
	snprintf(where, sizeof where, " section '%s'", sec->name);
	/* cgsize_t may be int: differences of values from the file in long long */
	long long n = (long long)sec->end - sec->start + 1;
	if (sec->start < 1 || n < 1)
		return RD_ERR(r, where, "element range %ld..%ld is empty or starts below 1", (long)sec->start,
			      (long)sec->end);
	if (n > FV_IDX_MAX)
		return RD_ERR(r, where, "element range %ld..%ld: %lld elements, beyond the limit of %d (fvstar's "
			      "32-bit indices)", (long)sec->start, (long)sec->end, n, FV_IDX_MAX);
	if (skipped_type(sec->type))
		return FV_OK;
	if (sec->type != CGNS_ENUMV(MIXED)) {
		/* a type add_element refuses is refused before its data is read */
		if (sec->type != CGNS_ENUMV(TETRA_4) && sec->type != CGNS_ENUMV(PYRA_5) &&
		    sec->type != CGNS_ENUMV(PENTA_6) && sec->type != CGNS_ENUMV(HEXA_8) &&
		    sec->type != CGNS_ENUMV(TRI_3) && sec->type != CGNS_ENUMV(QUAD_4))
			return add_element(r, where, S, sec->start, sec->type, NULL);
		if (cg_npe(sec->type, &npe) || npe <= 0)
			return RD_LIB(r, where, "no node count for %s", type_name(sec->type));
	}
	if (cg_ElementDataSize(r->fn, r->B, r->Z, S, &size))
		return RD_LIB(r, where, "cannot read the size of the connectivity");
	/* at most 1 + 125 values an element (MIXED type code, HEXA_125) */
	if (size < n || (npe > 0 && size != n * npe) || (long long)size > n * 126)
		return RD_ERR(r, where, "connectivity of %ld values for %ld elements of %s", (long)size, (long)n,
			      type_name(sec->type));
	FV_CALL_GOTO(err, done, fv_malloc(&elems, (size_t)size, sizeof *elems, "section connectivity"));
	if (sec->type == CGNS_ENUMV(MIXED)) {
		FV_CALL_GOTO(err, done, fv_malloc(&offs, (size_t)n + 1, sizeof *offs, "section offsets"));
		if (cg_poly_elements_read(r->fn, r->B, r->Z, S, elems, offs, NULL)) {
			err = RD_LIB(r, where, "cannot read the elements");
			goto done;
		}
		for (long long e = 0; e < n; e++) {
			cgsize_t id = (cgsize_t)(sec->start + e);
			long long o = offs[e], len = (long long)offs[e + 1] - o;
			CGNS_ENUMT(ElementType_t) t;
			if (o < 0 || len < 1 || offs[e + 1] > size) {
				err = RD_ERR(r, where, "element %ld: offsets %ld..%ld outside the %ld values", (long)id,
					     (long)o, (long)offs[e + 1], (long)size);
				goto done;
			}
			t = (CGNS_ENUMT(ElementType_t))elems[o];
			if (t == CGNS_ENUMV(NGON_n) || t == CGNS_ENUMV(NFACE_n))
				npe = (int)len - 1; /* refused just below */
			else if (elems[o] < 0 || elems[o] >= NofValidElementTypes || t == CGNS_ENUMV(MIXED) ||
				 cg_npe(t, &npe) || npe <= 0 || len != npe + 1) {
				err = RD_ERR(r, where, "element %ld: type %ld with %ld node values is not a valid "
						       "MIXED entry", (long)id, (long)elems[o], (long)(len - 1));
				goto done;
			}
			FV_CALL_GOTO(err, done, add_element(r, where, S, id, t, elems + o + 1));
		}
	} else {
		if (cg_elements_read(r->fn, r->B, r->Z, S, elems, NULL)) {
			err = RD_LIB(r, where, "cannot read the elements");
			goto done;
		}
		for (long long e = 0; e < n; e++)
			FV_CALL_GOTO(err, done,
				     add_element(r, where, S, (cgsize_t)(sec->start + e), sec->type, elems + e * npe));
	}
done:
	free(elems);
	free(offs);
	return err;
}

static int cmp_face_id(const void *a, const void *b)
{
	cgsize_t x = ((const face2d_t *)a)->id, y = ((const face2d_t *)b)->id;
	return (x > y) - (x < y);
}

static int64_t face_id(const void *a, size_t i)
{
	return ((const face2d_t *)a)[i].id;
}

static face2d_t *find_face(const rd_t *r, cgsize_t id)
{
	ptrdiff_t i = fv_search(r->faces, r->nf, id, face_id);
	return i >= 0 ? &r->faces[i] : NULL;
}

static const section_t *section_of(const rd_t *r, cgsize_t id)
{
	for (int s = 0; s < r->nsec; s++)
		if (id >= r->secs[s].start && id <= r->secs[s].end)
			return &r->secs[s];
	return NULL;
}

/* Element id of a BC becomes one of its faces. */
static fv_err_t take_element(rd_t *r, const char *where, int bc, int32_t marker, cgsize_t id)
{
	face2d_t *f = find_face(r, id);
	if (!f) {
		const section_t *s = section_of(r, id);
		if (s)
			return RD_ERR(r, where, "element %ld is a %s of section '%s', not a triangle or "
						"quadrilateral", (long)id, type_name(s->type), s->name);
		return RD_ERR(r, where, "element %ld is in no section of the zone", (long)id);
	}
	if (f->marker >= 0 && f->marker != marker) {
		char other[CG_NAME] = "?";
		CGNS_ENUMT(BCType_t) bt;
		CGNS_ENUMT(PointSetType_t) pt;
		cgsize_t np, nls;
		int ni[3], nd;
		CGNS_ENUMT(DataType_t) dt;
		(void)cg_boco_info(r->fn, r->B, r->Z, f->bc, other, &bt, &pt, &np, ni, &nls, &dt, &nd);
		return RD_ERR(r, where, "element %ld is also in BC '%s' under another marker", (long)id, other);
	}
	f->marker = marker;
	f->bc = bc;
	return FV_OK;
}

/* The family of BC bc, or "" where it has none. */
static void bc_family(const rd_t *r, int bc, char *fam)
{
	if (cg_goto(r->fn, r->B, "Zone_t", r->Z, "ZoneBC_t", 1, "BC_t", bc, "end") != CG_OK ||
	    cg_famname_read(fam) != CG_OK)
		fam[0] = '\0';
}

/* The node path of BC bc, with its family: "/Base/blk/ZoneBC/wall
 * (FamilyName wing)". */
static void bc_path(const rd_t *r, int bc, char *buf, size_t size)
{
	char name[CG_NAME] = "?", fam[CG_NAME + 1];
	CGNS_ENUMT(BCType_t) bt;
	CGNS_ENUMT(PointSetType_t) pt;
	CGNS_ENUMT(DataType_t) dt;
	cgsize_t np, nls;
	int ni[3], nd;
	(void)cg_boco_info(r->fn, r->B, r->Z, bc, name, &bt, &pt, &np, ni, &nls, &dt, &nd);
	bc_family(r, bc, fam);
	printable(name);
	printable(fam);
	if (fam[0])
		snprintf(buf, size, "/%s/%s/ZoneBC/%s (FamilyName %s)", r->base, r->zone, name, fam);
	else
		snprintf(buf, size, "/%s/%s/ZoneBC/%s", r->base, r->zone, name);
}

/* The marker of BC bc, named mname (its family's name when by_family).
 * A name is one marker only when all its BCs are of that one family: a
 * BC named like another BC's family (or two names made alike by
 * printable()) would merge two boundaries under one condition. */
static fv_err_t bc_marker(rd_t *r, int bc, const char *mname, int by_family, const char *where, int *k)
{
	int n_before = r->m->n_markers;
	FV_CALL(fv_mesh_marker(r->m, mname, k));
	if (*k >= n_before) {
		FV_CALL(fv_realloc(&r->mk_bc, (size_t)*k + 1, sizeof *r->mk_bc, "marker sources"));
		FV_CALL(fv_realloc(&r->mk_fam, (size_t)*k + 1, sizeof *r->mk_fam, "marker sources"));
		r->mk_bc[*k] = bc;
		r->mk_fam[*k] = by_family;
		r->n_mk = *k + 1;
		return FV_OK;
	}
	if (*k < r->n_mk && by_family && r->mk_fam[*k])
		return FV_OK;
	char first[3 * CG_NAME + 48] = "", second[3 * CG_NAME + 48];
	if (*k < r->n_mk)
		bc_path(r, r->mk_bc[*k], first, sizeof first);
	bc_path(r, bc, second, sizeof second);
	return RD_ERR(r, where, "marker name '%s' comes twice: %s and %s; each marker needs its own name, since "
		      "boundary conditions are set by name: rename one, or give both the same FamilyName", mname,
		      first, second);
}

static fv_err_t read_bc(rd_t *r, int bc)
{
	char name[CG_NAME], fam[CG_NAME + 1], where[2 * CG_NAME + 32];
	CGNS_ENUMT(BCType_t) bctype;
	CGNS_ENUMT(PointSetType_t) pt;
	CGNS_ENUMT(GridLocation_t) loc = CGNS_ENUMV(Vertex);
	CGNS_ENUMT(DataType_t) ndt;
	cgsize_t npnts, nls, *pts = NULL;
	int nidx[3], ndataset, k;
	fv_err_t err = FV_OK;

	snprintf(where, sizeof where, " BC %d", bc);
	if (cg_boco_info(r->fn, r->B, r->Z, bc, name, &bctype, &pt, &npnts, nidx, &nls, &ndt, &ndataset))
		return RD_LIB(r, where, "cannot read the boundary condition");
	if (cg_boco_gridlocation_read(r->fn, r->B, r->Z, bc, &loc))
		loc = CGNS_ENUMV(Vertex);
	bc_family(r, bc, fam);
	printable(name);
	printable(fam);
	const char *mname = fam[0] ? fam : name;
	if (fam[0])
		snprintf(where, sizeof where, " BC '%s' (family '%s')", name, fam);
	else
		snprintf(where, sizeof where, " BC '%s'", name);
	FV_CALL(bc_marker(r, bc, mname, fam[0] != 0, where, &k));

	int range = pt == CGNS_ENUMV(PointRange) || pt == CGNS_ENUMV(ElementRange);
	int list = pt == CGNS_ENUMV(PointList) || pt == CGNS_ENUMV(ElementList);
	if (npnts <= 0 || pt == CGNS_ENUMV(PointSetTypeNull)) {
		/* no points: the 2D section of that name */
		int found = 0;
		for (size_t i = 0; i < r->nf; i++) {
			const char *sn = r->secs[r->faces[i].section].name;
			if (strcmp(sn, name) == 0 || (fam[0] && strcmp(sn, fam) == 0)) {
				FV_CALL(take_element(r, where, bc, k, r->faces[i].id));
				found = 1;
			}
		}
		if (!found)
			return RD_ERR(r, where, "no points, and no triangle or quadrilateral section is named '%s'",
				      mname);
		return FV_OK;
	}
	if (!range && !list)
		return RD_ERR(r, where, "point set type %s is not supported (PointRange, PointList, ElementRange, "
					"ElementList)",
			      pt >= 0 && pt < NofValidPointSetTypes ? PointSetTypeName[pt] : "(invalid)");
	if (range && npnts != 2)
		return RD_ERR(r, where, "a range of %ld values (expected 2)", (long)npnts);
	if (npnts > FV_IDX_MAX)
		return RD_ERR(r, where, "%ld points, beyond the limit of %d (fvstar's 32-bit indices)", (long)npnts,
			      FV_IDX_MAX);
	FV_CALL(fv_malloc(&pts, (size_t)npnts, sizeof *pts, "boundary condition points"));
	if (cg_boco_read(r->fn, r->B, r->Z, bc, pts, NULL)) {
		err = RD_LIB(r, where, "cannot read the points");
		goto done;
	}
	if (range && pts[0] > pts[1]) {
		err = RD_ERR(r, where, "range %ld..%ld is reversed", (long)pts[0], (long)pts[1]);
		goto done;
	}
	int by_elem = pt == CGNS_ENUMV(ElementRange) || pt == CGNS_ENUMV(ElementList) || loc != CGNS_ENUMV(Vertex);
	if (!by_elem) {
		/* nodes: matched against the cells' boundary faces later */
		for (cgsize_t i = 0; i < npnts; i++)
			if (pts[i] < 1 || pts[i] > r->nvert) {
				err = RD_ERR(r, where, "node %ld out of range [1, %ld]", (long)pts[i], (long)r->nvert);
				goto done;
			}
		FV_CALL_GOTO(err, done, fv_realloc(&r->vbcs, (size_t)r->nvbc + 1, sizeof *r->vbcs, "vertex BCs"));
		r->vbcs[r->nvbc++] = (vbc_t){.bc = bc, .marker = k, .pts = pts, .n = npnts, .range = range};
		return FV_OK;
	}
	if (range) {
		if ((long long)pts[1] - pts[0] >= (long long)r->nf) {
			err = RD_ERR(r, where, "elements %ld..%ld: more than the %zu triangles and quadrilaterals of the "
					       "zone", (long)pts[0], (long)pts[1], r->nf);
			goto done;
		}
		for (long long id = pts[0]; id <= pts[1]; id++)
			FV_CALL_GOTO(err, done, take_element(r, where, bc, k, (cgsize_t)id));
	} else {
		for (cgsize_t i = 0; i < npnts; i++)
			FV_CALL_GOTO(err, done, take_element(r, where, bc, k, pts[i]));
	}
done:
	free(pts);
	return err;
}

static int cmp_key(const void *a, const void *b)
{
	const fv_idx_t *x = a, *y = b;
	for (int i = 0; i < 4; i++)
		if (x[i] != y[i])
			return (x[i] > y[i]) - (x[i] < y[i]);
	return 0;
}

static void sort_key(const fv_idx_t *v, int n, fv_idx_t *key)
{
	for (int i = 0; i < 4; i++)
		key[i] = i < n ? v[i] : FV_IDX_MAX;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && key[j - 1] > key[j]; j--) {
			fv_idx_t t = key[j];
			key[j] = key[j - 1];
			key[j - 1] = t;
		}
}

/* The faces of the cells that only one cell has, less those already
 * under a marker through an element-based BC. */
static fv_err_t boundary_faces(rd_t *r)
{
	size_t total = 0, k = 0;
	for (size_t c = 0; c < r->nc; c++)
		total += (size_t)fv_cell_shapes[r->ctype[c]].n_faces;
	FV_CALL(fv_malloc(&r->bf, total + 1, sizeof *r->bf, "cell faces"));
	size_t off = 0;
	for (size_t c = 0; c < r->nc; c++) {
		const fv_cell_shape_t *sh = &fv_cell_shapes[r->ctype[c]];
		const fv_idx_t *cn = r->cnode + off;
		for (int f = 0; f < sh->n_faces; f++) {
			bface_t *b = &r->bf[k++];
			b->nn = (int8_t)sh->face_n_nodes[f];
			for (int i = 0; i < b->nn; i++)
				b->node[i] = cn[sh->face_node[f][i]];
			sort_key(b->node, b->nn, b->key);
		}
		off += (size_t)sh->n_nodes;
	}
	qsort(r->bf, total, sizeof *r->bf, cmp_key);

	/* keys of the faces element-based BCs already marked */
	fv_idx_t(*marked)[4] = NULL;
	size_t nm = 0;
	for (size_t i = 0; i < r->nf; i++)
		nm += r->faces[i].marker >= 0;
	FV_CALL(fv_malloc(&marked, nm + 1, sizeof *marked, "marked faces"));
	nm = 0;
	for (size_t i = 0; i < r->nf; i++)
		if (r->faces[i].marker >= 0)
			sort_key(r->faces[i].node, r->faces[i].nn, marked[nm++]);
	qsort(marked, nm, sizeof *marked, cmp_key);

	size_t out = 0;
	for (size_t i = 0; i < total;) {
		size_t j = i + 1;
		while (j < total && cmp_key(r->bf[j].key, r->bf[i].key) == 0)
			j++;
		if (j == i + 1 && !bsearch(r->bf[i].key, marked, nm, sizeof *marked, cmp_key))
			r->bf[out++] = r->bf[i];
		i = j;
	}
	free(marked);
	r->nbf = out;
	return fv_malloc(&r->bf_marker, out + 1, sizeof *r->bf_marker, "boundary face markers");
}

/* BCs given by nodes: a boundary face whose nodes are all in the list. */
static fv_err_t match_vertex_bcs(rd_t *r)
{
	uint8_t *in = NULL;
	FV_CALL(boundary_faces(r));
	for (size_t i = 0; i < r->nbf; i++)
		r->bf_marker[i] = -1;
	FV_CALL(fv_calloc(&in, (size_t)r->nvert + 1, 1, "node flags"));
	for (int b = 0; b < r->nvbc; b++) {
		const vbc_t *v = &r->vbcs[b];
		if (v->range)
			memset(in + v->pts[0] - 1, 1, (size_t)(v->pts[1] - v->pts[0] + 1));
		else
			for (cgsize_t i = 0; i < v->n; i++)
				in[v->pts[i] - 1] = 1;
		for (size_t i = 0; i < r->nbf; i++) {
			int all = r->bf_marker[i] < 0;
			for (int j = 0; all && j < r->bf[i].nn; j++)
				all = in[r->bf[i].node[j]];
			if (all)
				r->bf_marker[i] = v->marker;
		}
		memset(in, 0, (size_t)r->nvert);
	}
	free(in);
	return FV_OK;
}

static fv_err_t read_coords(rd_t *r)
{
	static const char *names[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
	double *tmp = NULL;
	cgsize_t lo = 1, hi = r->nvert;
	fv_err_t err = FV_OK;
	FV_CALL(fv_malloc(&tmp, (size_t)r->nvert, sizeof *tmp, "coordinates"));
	for (int d = 0; d < 3; d++) {
		if (cg_coord_read(r->fn, r->B, r->Z, names[d], CGNS_ENUMV(RealDouble), &lo, &hi, tmp)) {
			err = RD_LIB(r, " GridCoordinates", "cannot read %s (fvstar reads Cartesian coordinates)",
				     names[d]);
			break;
		}
		for (cgsize_t i = 0; i < r->nvert; i++) {
			/* as the text readers (util/parse.h): finite, no absurd size */
			if (!(fabs(tmp[i]) <= FV_COORD_MAX)) {
				char where[2 * CG_NAME + 48];
				snprintf(where, sizeof where, " /%s/%s/GridCoordinates/%s", r->base, r->zone, names[d]);
				if (isfinite(tmp[i]))
					err = RD_ERR(r, where, "node %ld: %g is beyond the limit of %g in absolute value "
						     "(areas and volumes computed from it would overflow or lose every "
						     "digit; scale the mesh)", (long)i + 1, tmp[i], FV_COORD_MAX);
				else
					err = RD_ERR(r, where, "node %ld: %g is not finite", (long)i + 1, tmp[i]);
				free(tmp);
				return err;
			}
			r->m->xyz[3 * i + d] = tmp[i];
		}
	}
	free(tmp);
	return err;
}

/* The zone into r; the mesh arrays at the end. */
static fv_err_t read_zone(rd_t *r)
{
	fv_mesh_t *m = r->m;
	int nbases, nzones, cell_dim, phys_dim, nbocos;
	char base[CG_NAME];
	cgsize_t size[9];
	CGNS_ENUMT(ZoneType_t) zt;

	if (cg_nbases(r->fn, &nbases))
		return fv_error(FV_ERR_FORMAT, __FILE__, __LINE__, "%s: cannot read the bases: CGNS: %s", r->path,
				lib_msg());
	FV_CHECK(nbases == 1, FV_ERR_FORMAT, "%s: %d bases (CGNSBase_t); fvstar reads files with one", r->path,
		 nbases);
	r->B = 1;
	if (cg_base_read(r->fn, r->B, base, &cell_dim, &phys_dim))
		return RD_LIB(r, NULL, "cannot read the base");
	snprintf(r->base, sizeof r->base, "%s", base);
	printable(r->base);
	if (cell_dim != 3 || phys_dim != 3)
		return RD_ERR(r, NULL, "'%s' has cell dimension %d and physical dimension %d; fvstar reads 3D meshes",
			      base, cell_dim, phys_dim);
	if (cg_nzones(r->fn, r->B, &nzones))
		return RD_LIB(r, NULL, "cannot read the zones");
	if (nzones != 1)
		return RD_ERR(r, NULL, "%d zones; fvstar reads one unstructured zone (merge the zones into one first)",
			      nzones);
	r->Z = 1;
	if (cg_zone_read(r->fn, r->B, r->Z, r->zone, size))
		return RD_LIB(r, NULL, "cannot read zone 1");
	if (cg_zone_type(r->fn, r->B, r->Z, &zt))
		return RD_LIB(r, NULL, "cannot read the zone type");
	if (zt != CGNS_ENUMV(Unstructured))
		return RD_ERR(r, NULL, "the zone is %s; fvstar reads unstructured zones only",
			      zt >= 0 && zt < NofValidZoneTypes ? ZoneTypeName[zt] : "(invalid)");
	r->nvert = size[0];
	if (r->nvert < 1 || r->nvert > FV_IDX_MAX)
		return RD_ERR(r, NULL, "%ld vertices: out of range [1, %d]", (long)r->nvert, FV_IDX_MAX);
	FV_CALL(fv_malloc(&m->xyz, 3 * (size_t)r->nvert, sizeof *m->xyz, "node coordinates"));
	m->n_nodes = (fv_idx_t)r->nvert;
	FV_CALL(read_coords(r));

	if (cg_nsections(r->fn, r->B, r->Z, &r->nsec))
		return RD_LIB(r, NULL, "cannot read the sections");
	if (r->nsec < 1)
		return RD_ERR(r, NULL, "no element sections");
	FV_CALL(fv_calloc(&r->secs, (size_t)r->nsec, sizeof *r->secs, "sections"));
	for (int S = 1; S <= r->nsec; S++)
		FV_CALL(read_section(r, S));
	if (r->nc == 0)
		return RD_ERR(r, NULL, "no volume cells (TETRA_4, PYRA_5, PENTA_6, HEXA_8) in any section");
	if (r->nf > 0)
		qsort(r->faces, r->nf, sizeof *r->faces, cmp_face_id);
	for (size_t i = 1; i < r->nf; i++)
		if (r->faces[i].id == r->faces[i - 1].id)
			return RD_ERR(r, NULL, "element number %ld is in sections '%s' and '%s'", (long)r->faces[i].id,
				      r->secs[r->faces[i - 1].section].name, r->secs[r->faces[i].section].name);

	if (cg_nbocos(r->fn, r->B, r->Z, &nbocos))
		nbocos = 0; /* no ZoneBC_t */
	for (int bc = 1; bc <= nbocos; bc++)
		FV_CALL(read_bc(r, bc));
	if (nbocos == 0)
		for (size_t i = 0; i < r->nf; i++) {
			int k, n_before = m->n_markers, S = r->faces[i].section;
			FV_CALL(fv_mesh_marker(m, r->secs[S].name, &k));
			if (k >= n_before) {
				FV_CALL(fv_realloc(&r->mk_bc, (size_t)k + 1, sizeof *r->mk_bc, "marker sources"));
				r->mk_bc[k] = S;
			} else if (r->mk_bc[k] != S) {
				/* names that printable() made alike */
				return RD_ERR(r, NULL, "marker name '%s' comes twice: sections /%s/%s/%s and /%s/%s/%s",
					      r->secs[S].name, r->base, r->zone, r->secs[r->mk_bc[k]].name, r->base,
					      r->zone, r->secs[S].name);
			}
			r->faces[i].marker = k;
		}
	if (r->nvbc > 0)
		FV_CALL(match_vertex_bcs(r));

	/* the mesh: cells in section order, boundary elements by element
	 * number, then those of vertex BCs */
	size_t nb = 0, nbn = 0;
	for (size_t i = 0; i < r->nf; i++)
		if (r->faces[i].marker >= 0) {
			nb++;
			nbn += (size_t)r->faces[i].nn;
		}
	for (size_t i = 0; i < r->nbf; i++)
		if (r->bf_marker[i] >= 0) {
			nb++;
			nbn += (size_t)r->bf[i].nn;
		}
	FV_CHECK(r->ncn <= FV_IDX_MAX && nb < FV_IDX_MAX && nbn <= FV_IDX_MAX, FV_ERR_MEM,
		 "%s: mesh too large for 32-bit indices", r->path);
	m->n_cells = (fv_idx_t)r->nc;
	m->cell_type = r->ctype;
	m->cell_node = r->cnode;
	r->ctype = NULL;
	r->cnode = NULL;
	FV_CALL(fv_malloc(&m->cell_node_off, r->nc + 1, sizeof *m->cell_node_off, "cell offsets"));
	m->cell_node_off[0] = 0;
	for (size_t c = 0; c < r->nc; c++)
		m->cell_node_off[c + 1] = m->cell_node_off[c] + fv_cell_shapes[m->cell_type[c]].n_nodes;
	FV_CALL(fv_malloc(&m->belem_type, nb + 1, 1, "boundary types"));
	FV_CALL(fv_malloc(&m->belem_marker, nb + 1, sizeof *m->belem_marker, "boundary markers"));
	FV_CALL(fv_malloc(&m->belem_node_off, nb + 1, sizeof *m->belem_node_off, "boundary offsets"));
	FV_CALL(fv_malloc(&m->belem_node, nbn + 1, sizeof *m->belem_node, "boundary nodes"));
	m->belem_node_off[0] = 0;
	for (int pass = 0; pass < 2; pass++) {
		size_t n = pass ? r->nbf : r->nf;
		for (size_t i = 0; i < n; i++) {
			int32_t mk = pass ? r->bf_marker[i] : r->faces[i].marker;
			const fv_idx_t *v = pass ? r->bf[i].node : r->faces[i].node;
			int nn = pass ? r->bf[i].nn : r->faces[i].nn;
			if (mk < 0)
				continue;
			fv_idx_t e = m->n_belems++;
			m->belem_type[e] = (uint8_t)nn;
			m->belem_marker[e] = mk;
			memcpy(m->belem_node + m->belem_node_off[e], v, (size_t)nn * sizeof *v);
			m->belem_node_off[e + 1] = m->belem_node_off[e] + nn;
		}
	}
	return FV_OK;
}

int fv_mesh_have_cgns(void)
{
	return 1;
}

/* The file read into m (already initialised), the library closed. */
static fv_err_t read_file(fv_mesh_t *m, const char *path)
{
	rd_t r = {.m = m, .path = path};
	fv_err_t err;
	if (cg_open(path, CG_MODE_READ, &r.fn))
		return fv_error(FV_ERR_FORMAT, __FILE__, __LINE__, "%s: not a readable CGNS file: CGNS: %s", path,
				lib_msg());
	err = read_zone(&r);
	cg_close(r.fn);
	rd_free(&r);
	return err;
}

/* The CGNS library (3.4) dies by a signal on some damaged files: a
 * SIGSEGV in cg_open's walk of an ADF tree, found by fuzzing
 * (tests/fuzz/regressions/cgns). So the file is read once in a child
 * process, where such a crash becomes a clear error here; the child's
 * result is thrown away and the file read again, which costs one more
 * read of the mesh. FV_OK when the child read it or when no child can be
 * made (the read then goes on unguarded). fvstar reads its mesh before
 * StarPU or any other thread starts, so the child holds no lock taken by
 * a thread it did not inherit; it calls no MPI and ends with _exit. */
static fv_err_t read_in_child(const char *path)
{
	int status;
	pid_t pid;
	fflush(NULL); /* nothing buffered is written twice */
	pid = fork();
	if (pid < 0)
		return FV_OK;
	if (pid == 0) {
		/* die by the signal itself, past any sanitizer or fuzzer handler
		 * (the parent reports it), and never return into the caller */
		static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
		fv_mesh_t m;
		for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
			signal(sigs[i], SIG_DFL);
		fv_mesh_init(&m);
		_exit(read_file(&m, path) == FV_OK ? 0 : 3);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return FV_OK;
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3))
		return FV_OK; /* read, or refused: the read below says why */
	if (WIFSIGNALED(status))
		return FV_ERROR(FV_ERR_FORMAT, "%s: the CGNS library crashed reading this file (%s): the file is "
				"damaged; check it with cgnscheck, or write it again", path, strsignal(WTERMSIG(status)));
	return FV_ERROR(FV_ERR_FORMAT, "%s: the CGNS library failed reading this file (exit status %d): the file is "
			"damaged; check it with cgnscheck, or write it again", path,
			WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

fv_err_t fv_mesh_read_cgns(fv_mesh_t *m, const char *path)
{
	fv_err_t err;
	int fd;

	fv_mesh_init(m);
	snprintf(m->source, sizeof m->source, "%s", path);
	/* the library's message for a missing file is less direct, and it
	 * would wait forever on a named pipe */
	FV_CALL(fv_open_regular(path, &fd, NULL));
	close(fd);
	FV_CALL(read_in_child(path));
	err = read_file(m, path);
	if (err != FV_OK) {
		fv_mesh_free(m);
		return fv_error_trace(err, __FILE__, __LINE__);
	}
	return FV_OK;
}

#endif
