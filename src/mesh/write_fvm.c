/* SPDX-License-Identifier: MIT */
/* Writer of fvstar's binary mesh format (.fvm, fvm_internal.h): the mesh
 * arrays as they lie in memory, each with its checksum, written to a
 * temporary file and renamed (the VTU writer's output, vtu_internal.h). */
#include "fvstar/mesh.h"

#include <stdlib.h>
#include <string.h>

#include "mesh/fvm_internal.h"
#include "mesh/vtu_internal.h"
#include "util/xxh64.h"

#define FVM_MAX_SECTIONS (FVM_SEC_END - 1)

typedef struct fvm_plan {
	fvm_header_t h;
	fvm_section_t sec[FVM_MAX_SECTIONS];
	const void *data[FVM_MAX_SECTIONS];
} fvm_plan_t;

static void add_section(fvm_plan_t *p, uint32_t id, uint32_t item_bytes, size_t count, const void *data)
{
	uint32_t k = p->h.n_sections++;
	p->sec[k] = (fvm_section_t){.id = id, .item_bytes = item_bytes, .count = count};
	p->data[k] = data;
}

/* How tags are stored: none, i + base, or as they are. */
static uint8_t tag_mode(const int64_t *tag, size_t n, int64_t *base)
{
	*base = 0;
	if (!tag)
		return FVM_TAGS_NONE;
	if (n == 0)
		return FVM_TAGS_AFFINE;
	*base = tag[0];
	if (*base > INT64_MAX - (int64_t)n)
		return FVM_TAGS_SECTION; /* base + i would overflow */
	for (size_t i = 1; i < n; i++)
		if (tag[i] != *base + (int64_t)i)
			return FVM_TAGS_SECTION;
	return FVM_TAGS_AFFINE;
}

/* The header and directory of m, offsets and checksums filled in. */
static void plan_file(fvm_plan_t *p, const fv_mesh_t *m, const fv_marker_t *names)
{
	size_t nc = (size_t)m->n_cells, nn = (size_t)m->n_nodes, nb = (size_t)m->n_belems;
	fvm_header_t *h = &p->h;
	memset(p, 0, sizeof *p);
	memcpy(h->magic, FVM_MAGIC, 8);
	h->byte_order = FVM_BYTE_ORDER;
	h->version = FVM_VERSION;
	h->header_bytes = sizeof *h;
	h->section_bytes = sizeof(fvm_section_t);
	h->flags = m->extruded_2d ? FVM_FLAG_EXTRUDED_2D : 0;
	h->n_nodes = m->n_nodes;
	h->n_cells = m->n_cells;
	h->n_cell_nodes = m->n_cells ? m->cell_node_off[m->n_cells] : 0;
	h->n_belems = m->n_belems;
	h->n_belem_nodes = m->n_belems ? m->belem_node_off[m->n_belems] : 0;
	h->n_markers = m->n_markers;
	h->refine_levels = m->refine_levels;
	h->extrude_span = m->extruded_2d ? m->extrude_span : 0;
	h->extrude_marker[0] = m->extruded_2d ? m->extrude_marker[0] : -1;
	h->extrude_marker[1] = m->extruded_2d ? m->extrude_marker[1] : -1;
	h->cell_tags = tag_mode(m->cell_tag, nc, &h->cell_tag_base);
	h->node_tags = tag_mode(m->node_tag, nn, &h->node_tag_base);

	add_section(p, FVM_SEC_NODES, 24, nn, m->xyz);
	add_section(p, FVM_SEC_CELL_TYPES, 1, nc, m->cell_type);
	add_section(p, FVM_SEC_CELL_NODES, 4, (size_t)h->n_cell_nodes, m->cell_node);
	add_section(p, FVM_SEC_BELEM_TYPES, 1, nb, m->belem_type);
	add_section(p, FVM_SEC_BELEM_NODES, 4, (size_t)h->n_belem_nodes, m->belem_node);
	add_section(p, FVM_SEC_BELEM_MARKERS, 4, nb, m->belem_marker);
	add_section(p, FVM_SEC_MARKER_NAMES, sizeof *names, (size_t)m->n_markers, names);
	if (h->cell_tags == FVM_TAGS_SECTION)
		add_section(p, FVM_SEC_CELL_TAGS, 8, nc, m->cell_tag);
	if (h->node_tags == FVM_TAGS_SECTION)
		add_section(p, FVM_SEC_NODE_TAGS, 8, nn, m->node_tag);
	if (m->cell_orig)
		add_section(p, FVM_SEC_CELL_ORIG, 4, nc, m->cell_orig);
	if (m->node_orig)
		add_section(p, FVM_SEC_NODE_ORIG, 4, nn, m->node_orig);

	uint64_t off = sizeof *h + (uint64_t)h->n_sections * sizeof(fvm_section_t);
	for (uint32_t k = 0; k < h->n_sections; k++) {
		fvm_section_t *s = &p->sec[k];
		size_t bytes = (size_t)s->count * s->item_bytes;
		s->offset = off;
		s->checksum = fv_xxh64(p->data[k], bytes, 0);
		off = (off + bytes + 7) & ~(uint64_t)7;
	}
	h->file_bytes = off;
	fv_xxh64_t st;
	size_t head = offsetof(fvm_header_t, checksum);
	/* 128 bytes of header, then the directory: whole stripes of 32 */
	fv_xxh64_init(&st, 0);
	fv_xxh64_stripes(&st, h, head);
	size_t dir = (size_t)h->n_sections * sizeof(fvm_section_t);
	fv_xxh64_stripes(&st, p->sec, dir);
	h->checksum = fv_xxh64_final(&st, NULL, 0);
}

fv_err_t fv_mesh_write_fvm(const fv_mesh_t *m, const char *path)
{
	static const char zeros[8] = {0};
	fv_marker_t *names = NULL;
	fvm_plan_t p;
	fv_vtu_out_t o;
	fv_err_t err;

	FV_CALL(fv_writer_check_mesh(m, path));
	FV_CHECK(m->n_cells > 0 && m->xyz && m->cell_type && m->cell_node_off && m->cell_node, FV_ERR_ARG,
		 "%s: the mesh has no cells", path);
	/* names NUL-padded: no byte of the file depends on what memory held */
	FV_CALL(fv_calloc(&names, (size_t)m->n_markers + 1, sizeof *names, "marker names"));
	for (int k = 0; k < m->n_markers; k++)
		memcpy(names[k].name, m->markers[k].name, strnlen(m->markers[k].name, sizeof names[k].name - 1));
	plan_file(&p, m, names);

	err = fv_vtu_open(&o, path);
	if (err == FV_OK) {
		uint64_t at = sizeof p.h + (uint64_t)p.h.n_sections * sizeof(fvm_section_t);
		fv_vtu_put(&o, &p.h, sizeof p.h);
		fv_vtu_put(&o, p.sec, (size_t)p.h.n_sections * sizeof(fvm_section_t));
		for (uint32_t k = 0; k < p.h.n_sections; k++) {
			size_t bytes = (size_t)p.sec[k].count * p.sec[k].item_bytes;
			fv_vtu_put(&o, zeros, (size_t)(p.sec[k].offset - at));
			fv_vtu_put(&o, p.data[k], bytes);
			at = p.sec[k].offset + bytes;
		}
		fv_vtu_put(&o, zeros, (size_t)(p.h.file_bytes - at));
		err = fv_vtu_close(&o);
	}
	free(names);
	return err == FV_OK ? FV_OK : fv_error_trace(err, __FILE__, __LINE__);
}
