/* SPDX-License-Identifier: MIT */
/* VTK XML unstructured-grid writer (.vtu, raw appended binary): the cells
 * as one piece and the marked boundary faces as a second one; the cells
 * with one named cell field (fv_mesh_write_vtu_field); the shared
 * appended-data internals of vtu_internal.h live here too. */
#include "fvstar/mesh.h"
#include "mesh/vtu_internal.h"
#include "util/tmpname.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	VTK_TRIANGLE = 5,
	VTK_QUAD = 9,
	VTU_FACE_CELL_TYPE = 255, /* cell_type of the boundary piece */
	VTU_CELL_MARKER = -1      /* marker of the volume piece */
};

/* ------------------------------------------------ shared (vtu_internal.h) */

void fv_vtu_put(fv_vtu_out_t *o, const void *p, size_t n)
{
	if (o->err || n == 0)
		return;
	errno = 0;
	if (fwrite(p, 1, n, o->f) != n)
		o->err = errno ? errno : EIO;
}

void fv_vtu_put_block_size(fv_vtu_out_t *o, size_t bytes)
{
	uint64_t n = bytes;
	fv_vtu_put(o, &n, sizeof n);
}

void fv_vtu_put_const(fv_vtu_out_t *o, const void *val, size_t elsize, size_t count)
{
	size_t per = FV_VTU_CHUNK / elsize;
	char *s = o->scratch;
	for (size_t i = 0; i < per && i < count; i++)
		memcpy(s + i * elsize, val, elsize);
	for (size_t done = 0; done < count && !o->err; done += per)
		fv_vtu_put(o, s, (count - done < per ? count - done : per) * elsize);
}

/* Writes map[src[i]] as bytes. */
static void put_mapped_u8(fv_vtu_out_t *o, const uint8_t *src, size_t count, const uint8_t map[256])
{
	uint8_t *s = o->scratch;
	for (size_t done = 0; done < count && !o->err; done += FV_VTU_CHUNK) {
		size_t n = count - done < FV_VTU_CHUNK ? count - done : FV_VTU_CHUNK;
		for (size_t i = 0; i < n; i++)
			s[i] = map[src[done + i]];
		fv_vtu_put(o, s, n);
	}
}

/* Writes map[src[i]] as Int32. */
static void put_mapped_idx(fv_vtu_out_t *o, const fv_idx_t *src, size_t count, const fv_idx_t *map)
{
	size_t per = FV_VTU_CHUNK / sizeof(int32_t);
	int32_t *s = o->scratch;
	for (size_t done = 0; done < count && !o->err; done += per) {
		size_t n = count - done < per ? count - done : per;
		for (size_t i = 0; i < n; i++)
			s[i] = map[src[done + i]];
		fv_vtu_put(o, s, n * sizeof *s);
	}
}

/* Writes the coordinates of nodes list[0..count) as Float64 triples. */
void fv_vtu_put_points_of(fv_vtu_out_t *o, const double *xyz, const fv_idx_t *list, size_t count)
{
	size_t per = FV_VTU_CHUNK / (3 * sizeof(double));
	double *s = o->scratch;
	for (size_t done = 0; done < count && !o->err; done += per) {
		size_t n = count - done < per ? count - done : per;
		for (size_t i = 0; i < n; i++)
			memcpy(s + 3 * i, xyz + 3 * (size_t)list[done + i], 3 * sizeof(double));
		fv_vtu_put(o, s, n * 3 * sizeof(double));
	}
}

void fv_vtu_put_real_block(fv_vtu_out_t *o, const fv_real_t *v, size_t count)
{
	fv_vtu_put_block_size(o, count * sizeof(double));
	if (sizeof(fv_real_t) == sizeof(double)) {
		fv_vtu_put(o, v, count * sizeof(double));
		return;
	}
	size_t per = FV_VTU_CHUNK / sizeof(double);
	double *s = o->scratch;
	for (size_t done = 0; done < count && !o->err; done += per) {
		size_t n = count - done < per ? count - done : per;
		for (size_t i = 0; i < n; i++)
			s[i] = (double)v[done + i];
		fv_vtu_put(o, s, n * sizeof *s);
	}
}

void fv_vtu_array_tag(fv_vtu_out_t *o, const char *type, const char *name, int ncomp, size_t bytes,
		      uint64_t *off)
{
	fprintf(o->f, "        <DataArray type=\"%s\" Name=\"%s\"", type, name);
	if (ncomp > 1)
		fprintf(o->f, " NumberOfComponents=\"%d\"", ncomp);
	fprintf(o->f, " format=\"appended\" offset=\"%llu\"/>\n", (unsigned long long)*off);
	*off += sizeof(uint64_t) + bytes;
}

void fv_vtu_geometry_tags(fv_vtu_out_t *o, size_t n_points, size_t n_cells, size_t n_conn, uint64_t *off)
{
	fprintf(o->f, "      <Points>\n");
	fv_vtu_array_tag(o, "Float64", "Points", 3, n_points * 3 * sizeof(double), off);
	fprintf(o->f, "      </Points>\n      <Cells>\n");
	fv_vtu_array_tag(o, "Int32", "connectivity", 1, n_conn * sizeof(int32_t), off);
	fv_vtu_array_tag(o, "Int32", "offsets", 1, n_cells * sizeof(int32_t), off);
	fv_vtu_array_tag(o, "UInt8", "types", 1, n_cells, off);
	fprintf(o->f, "      </Cells>\n");
}

fv_err_t fv_vtu_order_file(fv_vtu_order_t *ord, const fv_mesh_t *m)
{
	memset(ord, 0, sizeof *ord);
	FV_CALL(fv_mesh_file_cells(m, &ord->cell));
	if (fv_mesh_file_nodes(m, &ord->node) != FV_OK) {
		fv_vtu_order_free(ord);
		return fv_error_trace(FV_ERR_MESH, __FILE__, __LINE__);
	}
	return FV_OK;
}

void fv_vtu_order_free(fv_vtu_order_t *ord)
{
	FV_FREE(ord->cell);
	FV_FREE(ord->node);
}

void fv_vtu_put_cells(fv_vtu_out_t *o, const fv_mesh_t *m, const fv_idx_t *cell, size_t nc, const fv_idx_t *node_map)
{
	size_t n_conn = 0, per = FV_VTU_CHUNK / sizeof(int32_t), k = 0;
	int32_t *s = o->scratch, end = 0;
	uint8_t *t = o->scratch, cell_vtk[256] = {0};
	for (int ty = 0; ty < FV_NCELLTYPES; ty++)
		cell_vtk[ty] = (uint8_t)fv_cell_shapes[ty].su2_id;
	for (size_t i = 0; i < nc; i++) {
		fv_idx_t c = cell ? cell[i] : (fv_idx_t)i;
		n_conn += (size_t)(m->cell_node_off[c + 1] - m->cell_node_off[c]);
	}
	fv_vtu_put_block_size(o, n_conn * sizeof(int32_t));
	for (size_t i = 0; i < nc && !o->err; i++) {
		fv_idx_t c = cell ? cell[i] : (fv_idx_t)i;
		if (k + FV_MAX_CELL_NODES > per) {
			fv_vtu_put(o, s, k * sizeof *s);
			k = 0;
		}
		for (fv_idx_t a = m->cell_node_off[c]; a < m->cell_node_off[c + 1]; a++)
			s[k++] = node_map ? node_map[m->cell_node[a]] : fv_mesh_node_orig(m, m->cell_node[a]);
	}
	fv_vtu_put(o, s, k * sizeof *s);
	fv_vtu_put_block_size(o, nc * sizeof(int32_t));
	k = 0;
	for (size_t i = 0; i < nc && !o->err; i++) {
		fv_idx_t c = cell ? cell[i] : (fv_idx_t)i;
		end += m->cell_node_off[c + 1] - m->cell_node_off[c];
		s[k++] = end;
		if (k == per || i + 1 == nc) {
			fv_vtu_put(o, s, k * sizeof *s);
			k = 0;
		}
	}
	fv_vtu_put_block_size(o, nc);
	for (size_t i = 0; i < nc && !o->err; i++) {
		t[k++] = cell_vtk[m->cell_type[cell ? cell[i] : (fv_idx_t)i]];
		if (k == FV_VTU_CHUNK || i + 1 == nc) {
			fv_vtu_put(o, t, k);
			k = 0;
		}
	}
}

void fv_vtu_put_cell_geometry(fv_vtu_out_t *o, const fv_mesh_t *m, const fv_vtu_order_t *ord)
{
	size_t n_points = (size_t)m->n_nodes, n_cells = (size_t)m->n_cells;
	size_t n_conn = m->n_cells ? (size_t)m->cell_node_off[m->n_cells] : 0;
	uint8_t cell_vtk[256] = {0};
	for (int t = 0; t < FV_NCELLTYPES; t++)
		cell_vtk[t] = (uint8_t)fv_cell_shapes[t].su2_id;
	if (ord && (ord->cell || ord->node)) {
		fv_vtu_put_block_size(o, n_points * 3 * sizeof(double));
		if (ord->node)
			fv_vtu_put_points_of(o, m->xyz, ord->node, n_points);
		else
			fv_vtu_put(o, m->xyz, n_points * 3 * sizeof(double));
		fv_vtu_put_cells(o, m, ord->cell, n_cells, NULL);
		return;
	}
	fv_vtu_put_block_size(o, n_points * 3 * sizeof(double));
	fv_vtu_put(o, m->xyz, n_points * 3 * sizeof(double));
	/* fv_idx_t is int32_t and the nodes are in VTK order: no conversion */
	fv_vtu_put_block_size(o, n_conn * sizeof(int32_t));
	fv_vtu_put(o, m->cell_node, n_conn * sizeof(int32_t));
	fv_vtu_put_block_size(o, n_cells * sizeof(int32_t));
	if (n_cells)
		fv_vtu_put(o, m->cell_node_off + 1, n_cells * sizeof(int32_t));
	fv_vtu_put_block_size(o, n_cells);
	put_mapped_u8(o, m->cell_type, n_cells, cell_vtk);
}

/* A name inside an XML comment: no "--", no trailing '-', no bytes that
 * would make the file invalid UTF-8. */
void fv_vtu_comment_name(FILE *f, const char *s)
{
	char prev = 0;
	for (; *s; s++) {
		char ch = *s;
		if ((unsigned char)ch < ' ' || (unsigned char)ch >= 0x7f || (ch == '-' && (prev == '-' || !s[1])))
			ch = '_';
		fputc(ch, f);
		prev = ch;
	}
}

void fv_vtu_begin(fv_vtu_out_t *o)
{
	const uint16_t one = 1;
	const int little = *(const uint8_t *)&one == 1;
	/* the host's byte order, which VTK swaps where needed, saves a pass */
	fprintf(o->f, "<?xml version=\"1.0\"?>\n"
		      "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"%s\" "
		      "header_type=\"UInt64\">\n",
		little ? "LittleEndian" : "BigEndian");
}

fv_err_t fv_writer_check_mesh(const fv_mesh_t *m, const char *path)
{
	FV_CHECK(m->n_nodes >= 0 && m->n_cells >= 0 && m->n_belems >= 0 && m->n_markers >= 0,
		 FV_ERR_ARG, "%s: negative mesh counts", path);
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		int t = m->cell_type[c];
		FV_CHECK(t < FV_NCELLTYPES, FV_ERR_MESH, "%s: cell %d has an unknown type %d", path, (int)c, t);
		FV_CHECK(m->cell_node_off[c + 1] - m->cell_node_off[c] == fv_cell_shapes[t].n_nodes,
			 FV_ERR_MESH, "%s: cell %d (%s) does not have %d nodes", path, (int)c,
			 fv_cell_shapes[t].name, fv_cell_shapes[t].n_nodes);
	}
	for (fv_idx_t i = 0; i < (m->n_cells ? m->cell_node_off[m->n_cells] : 0); i++)
		FV_CHECK(m->cell_node[i] >= 0 && m->cell_node[i] < m->n_nodes, FV_ERR_MESH,
			 "%s: cell node id %d out of range [0, %d)", path, (int)m->cell_node[i], (int)m->n_nodes);
	for (fv_idx_t b = 0; b < m->n_belems; b++) {
		int t = m->belem_type[b];
		FV_CHECK((t == FV_TRI || t == FV_QUAD) && m->belem_node_off[b + 1] - m->belem_node_off[b] == t,
			 FV_ERR_MESH, "%s: boundary element %d is not a triangle or a quadrilateral", path, (int)b);
		FV_CHECK(m->belem_marker[b] >= 0 && m->belem_marker[b] < m->n_markers, FV_ERR_MESH,
			 "%s: boundary element %d has marker %d of %d", path, (int)b, (int)m->belem_marker[b],
			 m->n_markers);
		for (fv_idx_t i = m->belem_node_off[b]; i < m->belem_node_off[b + 1]; i++)
			FV_CHECK(m->belem_node[i] >= 0 && m->belem_node[i] < m->n_nodes, FV_ERR_MESH,
				 "%s: boundary element %d: node id %d out of range [0, %d)", path, (int)b,
				 (int)m->belem_node[i], (int)m->n_nodes);
	}
	return FV_OK;
}

fv_err_t fv_vtu_open(fv_vtu_out_t *o, const char *path)
{
	fv_err_t err;
	memset(o, 0, sizeof *o);
	o->path = path;
	FV_CALL(fv_malloc(&o->scratch, FV_VTU_CHUNK, 1, "output buffer"));
	err = fv_tmp_open(path, "wb", &o->tmp, &o->f);
	if (err != FV_OK)
		FV_FREE(o->scratch);
	return err;
}

fv_err_t fv_vtu_close(fv_vtu_out_t *o)
{
	fv_err_t err = FV_OK;
	if (o->f) {
		errno = 0;
		if (!o->err && (fflush(o->f) != 0 || ferror(o->f)))
			o->err = errno ? errno : EIO;
		if (o->err)
			err = FV_ERROR(FV_ERR_IO, "%s: write failed: %s", o->path, strerror(o->err));
		err = fv_tmp_close(o->f, o->tmp, o->path, err);
		o->f = NULL;
		o->tmp = NULL;
	}
	FV_FREE(o->tmp);
	FV_FREE(o->scratch);
	return err;
}

/* ---------------------------------------------------------- mesh writer */

typedef struct vtu_piece {
	size_t n_points, n_cells, n_conn;
} vtu_piece_t;

/* Both pieces carry the same arrays in the same order, as VTK requires;
 * write_file must follow this order. */
static void piece_tags(fv_vtu_out_t *o, const vtu_piece_t *pc, int with_volume, uint64_t *off)
{
	fprintf(o->f, "    <Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n", pc->n_points, pc->n_cells);
	fprintf(o->f, "      <CellData Scalars=\"cell_type\">\n");
	fv_vtu_array_tag(o, "UInt8", "cell_type", 1, pc->n_cells, off);
	if (with_volume)
		fv_vtu_array_tag(o, "Float64", "volume", 1, pc->n_cells * sizeof(double), off);
	fv_vtu_array_tag(o, "Int32", "marker", 1, pc->n_cells * sizeof(int32_t), off);
	fprintf(o->f, "      </CellData>\n");
	fv_vtu_geometry_tags(o, pc->n_points, pc->n_cells, pc->n_conn, off);
	fprintf(o->f, "    </Piece>\n");
}

static void write_file(fv_vtu_out_t *o, const fv_mesh_t *m, const fv_idx_t *bmap, const fv_idx_t *bnodes,
		       size_t n_bnodes)
{
	const int with_volume = m->cell_vol != NULL;
	const vtu_piece_t cells = {(size_t)m->n_nodes, (size_t)m->n_cells,
				   m->n_cells ? (size_t)m->cell_node_off[m->n_cells] : 0};
	const vtu_piece_t faces = {n_bnodes, (size_t)m->n_belems,
				   m->n_belems ? (size_t)m->belem_node_off[m->n_belems] : 0};
	uint8_t face_vtk[256] = {0};
	const int32_t no_marker = VTU_CELL_MARKER;
	const uint8_t face_cell_type = VTU_FACE_CELL_TYPE;
	const double zero = 0;
	uint64_t off = 0;

	face_vtk[FV_TRI] = VTK_TRIANGLE;
	face_vtk[FV_QUAD] = VTK_QUAD;

	fv_vtu_begin(o);
	fprintf(o->f, "  <!-- fvstar mesh from ");
	fv_vtu_comment_name(o->f, m->source[0] ? m->source : "memory");
	fprintf(o->f, " -->\n  <!-- piece 0: cells; piece 1: marked boundary faces -->\n"
		      "  <!-- cell_type: 0 tetrahedron, 1 pyramid, 2 prism, 3 hexahedron, %d boundary face -->\n"
		      "  <!-- marker: index below, %d for cells -->\n",
		VTU_FACE_CELL_TYPE, VTU_CELL_MARKER);
	for (int k = 0; k < m->n_markers; k++) {
		fprintf(o->f, "  <!-- marker %d: ", k);
		fv_vtu_comment_name(o->f, m->markers[k].name);
		fprintf(o->f, " -->\n");
	}
	fprintf(o->f, "  <UnstructuredGrid>\n");
	piece_tags(o, &cells, with_volume, &off);
	piece_tags(o, &faces, with_volume, &off);
	fprintf(o->f, "  </UnstructuredGrid>\n  <AppendedData encoding=\"raw\">\n   _");

	/* piece 0: cells */
	fv_vtu_put_block_size(o, cells.n_cells);
	fv_vtu_put(o, m->cell_type, cells.n_cells);
	if (with_volume)
		fv_vtu_put_real_block(o, m->cell_vol, cells.n_cells);
	fv_vtu_put_block_size(o, cells.n_cells * sizeof(int32_t));
	fv_vtu_put_const(o, &no_marker, sizeof no_marker, cells.n_cells);
	fv_vtu_put_cell_geometry(o, m, NULL);

	/* piece 1: boundary faces on their own, renumbered points */
	fv_vtu_put_block_size(o, faces.n_cells);
	fv_vtu_put_const(o, &face_cell_type, 1, faces.n_cells);
	if (with_volume) {
		fv_vtu_put_block_size(o, faces.n_cells * sizeof(double));
		fv_vtu_put_const(o, &zero, sizeof zero, faces.n_cells);
	}
	fv_vtu_put_block_size(o, faces.n_cells * sizeof(int32_t));
	fv_vtu_put(o, m->belem_marker, faces.n_cells * sizeof(int32_t));
	fv_vtu_put_block_size(o, faces.n_points * 3 * sizeof(double));
	fv_vtu_put_points_of(o, m->xyz, bnodes, faces.n_points);
	fv_vtu_put_block_size(o, faces.n_conn * sizeof(int32_t));
	put_mapped_idx(o, m->belem_node, faces.n_conn, bmap);
	fv_vtu_put_block_size(o, faces.n_cells * sizeof(int32_t));
	if (faces.n_cells)
		fv_vtu_put(o, m->belem_node_off + 1, faces.n_cells * sizeof(int32_t));
	fv_vtu_put_block_size(o, faces.n_cells);
	put_mapped_u8(o, m->belem_type, faces.n_cells, face_vtk);

	fprintf(o->f, "\n  </AppendedData>\n</VTKFile>\n");
}

fv_err_t fv_mesh_write_vtu(const fv_mesh_t *m, const char *path)
{
	fv_vtu_out_t o = {0};
	fv_idx_t *bmap = NULL, *bnodes = NULL;
	size_t n_bnodes = 0;
	fv_err_t err;

	FV_CALL(fv_writer_check_mesh(m, path));
	/* the boundary piece holds only the nodes of its faces */
	FV_CALL_GOTO(err, done, fv_malloc(&bmap, (size_t)m->n_nodes, sizeof *bmap, "boundary node map"));
	FV_CALL_GOTO(err, done, fv_malloc(&bnodes, (size_t)m->n_nodes, sizeof *bnodes, "boundary nodes"));
	memset(bmap, 0xff, (size_t)m->n_nodes * sizeof *bmap);
	for (fv_idx_t i = 0; i < (m->n_belems ? m->belem_node_off[m->n_belems] : 0); i++) {
		fv_idx_t v = m->belem_node[i];
		if (bmap[v] < 0) {
			bmap[v] = (fv_idx_t)n_bnodes;
			bnodes[n_bnodes++] = v;
		}
	}

	err = fv_vtu_open(&o, path);
	if (err == FV_OK)
		write_file(&o, m, bmap, bnodes, n_bnodes);
	if (fv_vtu_close(&o) != FV_OK && err == FV_OK)
		err = FV_ERR_IO;
done:
	free(bmap);
	free(bnodes);
	return err;
}

/* ------------------------------------------------ one cell field */

/* values[cell[i]] (cell NULL: values[i]) as a Float64 block. */
static void put_field_block(fv_vtu_out_t *o, const double *values, const fv_idx_t *cell, size_t nc)
{
	size_t per = FV_VTU_CHUNK / sizeof(double);
	double *s = o->scratch;
	fv_vtu_put_block_size(o, nc * sizeof(double));
	if (!cell) {
		fv_vtu_put(o, values, nc * sizeof(double));
		return;
	}
	for (size_t done = 0; done < nc && !o->err; done += per) {
		size_t n = nc - done < per ? nc - done : per;
		for (size_t i = 0; i < n; i++)
			s[i] = values[cell[done + i]];
		fv_vtu_put(o, s, n * sizeof *s);
	}
}

static void write_field(fv_vtu_out_t *o, const fv_mesh_t *m, const fv_vtu_order_t *ord, const char *name,
			const double *values)
{
	const size_t nc = (size_t)m->n_cells, np = (size_t)m->n_nodes;
	const size_t nconn = nc ? (size_t)m->cell_node_off[nc] : 0;
	uint64_t off = 0;

	fv_vtu_begin(o);
	fprintf(o->f, "  <!-- fvstar cell field on ");
	fv_vtu_comment_name(o->f, m->source[0] ? m->source : "memory");
	fprintf(o->f, " -->\n  <UnstructuredGrid>\n    <Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n"
		      "      <CellData Scalars=\"%s\">\n", np, nc, name);
	fv_vtu_array_tag(o, "Float64", name, 1, nc * sizeof(double), &off);
	fprintf(o->f, "      </CellData>\n");
	fv_vtu_geometry_tags(o, np, nc, nconn, &off);
	fprintf(o->f, "    </Piece>\n  </UnstructuredGrid>\n  <AppendedData encoding=\"raw\">\n   _");
	put_field_block(o, values, ord->cell, nc);
	fv_vtu_put_cell_geometry(o, m, ord);
	fprintf(o->f, "\n  </AppendedData>\n</VTKFile>\n");
}

fv_err_t fv_mesh_write_vtu_field(const fv_mesh_t *m, const char *path, const char *name, const double *values)
{
	fv_vtu_out_t o;
	fv_vtu_order_t ord;
	fv_err_t err;
	FV_CHECK(values && name, FV_ERR_ARG, "%s: no cell field to write", path);
	for (const char *s = name; *s; s++)
		FV_CHECK(*s > ' ' && *s < 0x7f && *s != '"' && *s != '<' && *s != '&', FV_ERR_ARG,
			 "%s: field name '%s' is not a plain XML attribute", path, name);
	FV_CALL(fv_writer_check_mesh(m, path));
	FV_CALL(fv_vtu_order_file(&ord, m));
	err = fv_vtu_open(&o, path);
	if (err == FV_OK)
		write_field(&o, m, &ord, name, values);
	if (fv_vtu_close(&o) != FV_OK && err == FV_OK)
		err = FV_ERR_IO;
	fv_vtu_order_free(&ord);
	return err;
}
