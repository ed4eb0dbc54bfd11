/* SPDX-License-Identifier: MIT */
/* Internals of the VTK XML writers (mesh and solution .vtu files): raw
 * appended binary blocks, written to a temporary file of a name unique to
 * the writer (util/tmpname.h) and renamed when complete. */
#ifndef FVSTAR_VTU_INTERNAL_H
#define FVSTAR_VTU_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "fvstar/mesh.h"

/* Arrays that need converting go through this many bytes at a time. */
#define FV_VTU_CHUNK ((size_t)1 << 20)

typedef struct fv_vtu_out {
	FILE *f;
	const char *path;
	char *tmp;        /* path.tmp.PID.N, renamed to path once complete */
	void *scratch;    /* FV_VTU_CHUNK bytes */
	int err;          /* errno of the first failure; later writes are skipped */
} fv_vtu_out_t;

/* Opens the temporary file of path for writing (o is set up by this call). */
fv_err_t fv_vtu_open(fv_vtu_out_t *o, const char *path);
/* Closes the file, renames it to path if every write succeeded, removes
 * it otherwise, and frees o's buffers. Safe after a failed fv_vtu_open. */
fv_err_t fv_vtu_close(fv_vtu_out_t *o);

/* Counts, cell types and node ids every mesh writer (SU2, VTU) relies on,
 * with errors naming path. */
fv_err_t fv_writer_check_mesh(const fv_mesh_t *m, const char *path);

/* The XML declaration and the VTKFile element (host byte order, UInt64
 * block headers). */
void fv_vtu_begin(fv_vtu_out_t *o);
/* A name inside an XML comment, made safe ("--", control bytes). */
void fv_vtu_comment_name(FILE *f, const char *s);
/* An appended DataArray tag; advances *off past the block it announces. */
void fv_vtu_array_tag(fv_vtu_out_t *o, const char *type, const char *name, int ncomp, size_t bytes,
		      uint64_t *off);
/* The Points and Cells elements of a piece (tags only). */
void fv_vtu_geometry_tags(fv_vtu_out_t *o, size_t n_points, size_t n_cells, size_t n_conn, uint64_t *off);

void fv_vtu_put(fv_vtu_out_t *o, const void *p, size_t n);
/* Every appended block starts with its size in bytes (header_type). */
void fv_vtu_put_block_size(fv_vtu_out_t *o, size_t bytes);
/* count copies of the elsize-byte value val. */
void fv_vtu_put_const(fv_vtu_out_t *o, const void *val, size_t elsize, size_t count);
/* fv_real_t values as Float64, with the block size. */
void fv_vtu_put_real_block(fv_vtu_out_t *o, const fv_real_t *v, size_t count);
/* The order a piece lists a mesh's cells and points in: the mesh cell and
 * node at each position (NULL: the mesh's own order). */
typedef struct fv_vtu_order {
	fv_idx_t *cell;
	fv_idx_t *node;
} fv_vtu_order_t;

/* The mesh file's order (fv_mesh_file_cells, fv_mesh_file_nodes), so that
 * a renumbered mesh is written as its file lists it. */
fv_err_t fv_vtu_order_file(fv_vtu_order_t *ord, const fv_mesh_t *m);
void fv_vtu_order_free(fv_vtu_order_t *ord);

/* The blocks of fv_vtu_geometry_tags for the mesh's cells: points,
 * connectivity, offsets, types; in order ord (NULL: the mesh's order). */
void fv_vtu_put_cell_geometry(fv_vtu_out_t *o, const fv_mesh_t *m, const fv_vtu_order_t *ord);
/* The points xyz[list[i]], i < count (the points block's data). */
void fv_vtu_put_points_of(fv_vtu_out_t *o, const double *xyz, const fv_idx_t *list, size_t count);
/* Connectivity, offsets and types blocks of nc cells in order cell[] (NULL:
 * 0 .. nc-1), node ids mapped by node_map (NULL: the node's position in
 * the mesh file). */
void fv_vtu_put_cells(fv_vtu_out_t *o, const fv_mesh_t *m, const fv_idx_t *cell, size_t nc, const fv_idx_t *node_map);

#endif
