/* SPDX-License-Identifier: MIT */
/* The layout of fvstar's binary mesh files (.fvm), shared by the reader and
 * the writer; doc/mesh-format.md describes it for other programs. */
#ifndef FVSTAR_FVM_INTERNAL_H
#define FVSTAR_FVM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "fvstar/mesh.h"

/*
 *  offset 0    header (fvm_header_t, 136 bytes)
 *         136  directory: n_sections entries (fvm_section_t, 32 bytes)
 *         ...  sections, each at an offset that is a multiple of 8, in
 *              directory order, zero bytes between them
 *
 * Every number is in the byte order of the machine that wrote the file,
 * which byte_order states (it reads 0x01020304 there); a reader on the
 * other byte order refuses the file. Section data are the mesh arrays
 * (fv_mesh_t) as they lie in memory, so reading is a copy.
 */
#define FVM_MAGIC "\211FVM\r\n\032\n" /* as PNG's: text-mode transfers show */
#define FVM_BYTE_ORDER 0x01020304u
#define FVM_VERSION 1u

enum {
	FVM_FLAG_EXTRUDED_2D = 1u
};

/* How a mesh's cell_tag (node_tag) is stored: absent (NULL), as
 * tag[i] = i + base (SU2 numbers elements and points from 0), or as a
 * section of its own. */
enum {
	FVM_TAGS_NONE = 0,
	FVM_TAGS_AFFINE = 1,
	FVM_TAGS_SECTION = 2
};

typedef struct fvm_header {
	char magic[8];
	uint32_t byte_order;      /* FVM_BYTE_ORDER */
	uint32_t version;         /* FVM_VERSION */
	uint32_t header_bytes;    /* sizeof(fvm_header_t) */
	uint32_t section_bytes;   /* sizeof(fvm_section_t) */
	uint32_t n_sections;
	uint32_t flags;           /* FVM_FLAG_* */
	uint64_t file_bytes;      /* the whole file */
	int64_t n_nodes, n_cells, n_cell_nodes, n_belems, n_belem_nodes;
	int32_t n_markers;
	int32_t refine_levels;
	double extrude_span;
	int32_t extrude_marker[2];
	int64_t cell_tag_base, node_tag_base;
	uint8_t cell_tags, node_tags; /* FVM_TAGS_* */
	uint8_t reserved[6];      /* zero */
	uint64_t checksum;        /* XXH64 of the header before this field,
	                             then of the directory */
} fvm_header_t;

typedef struct fvm_section {
	uint32_t id;              /* FVM_SEC_* */
	uint32_t item_bytes;      /* size of one item: 1, 4, 8, 24 or 64 */
	uint64_t offset;          /* from the start of the file, multiple of 8 */
	uint64_t count;           /* items */
	uint64_t checksum;        /* XXH64 of its count * item_bytes bytes */
} fvm_section_t;

_Static_assert(sizeof(fvm_header_t) == 136, "fvm header layout");
_Static_assert(offsetof(fvm_header_t, checksum) == 128, "fvm header layout");
_Static_assert(sizeof(fvm_section_t) == 32, "fvm section layout");
_Static_assert(sizeof(fv_marker_t) == 64, "fvm marker names");

/* Sections, in the order a file holds them; the optional ones last. */
enum {
	FVM_SEC_NODES = 1,        /* double[3 n_nodes]: x y z of each node */
	FVM_SEC_CELL_TYPES,       /* uint8[n_cells]: fv_cell_type_t */
	FVM_SEC_CELL_NODES,       /* int32[n_cell_nodes]: each cell's nodes */
	FVM_SEC_BELEM_TYPES,      /* uint8[n_belems]: 3 triangle, 4 quad */
	FVM_SEC_BELEM_NODES,      /* int32[n_belem_nodes] */
	FVM_SEC_BELEM_MARKERS,    /* int32[n_belems]: index of the marker */
	FVM_SEC_MARKER_NAMES,     /* char[64][n_markers], NUL-padded */
	FVM_SEC_CELL_TAGS,        /* int64[n_cells], when cell_tags says */
	FVM_SEC_NODE_TAGS,        /* int64[n_nodes], when node_tags says */
	FVM_SEC_CELL_ORIG,        /* int32[n_cells]: optional fv_mesh_t order */
	FVM_SEC_NODE_ORIG,        /* int32[n_nodes]: the same for nodes */
	FVM_SEC_END
};

/* "NODES", "CELL_TYPES"... for messages; "unknown" outside the range. */
const char *fvm_section_name(uint32_t id);

#endif
