/* SPDX-License-Identifier: MIT */
/* Mesh storage: cell shapes, allocation, markers. */
#include "fvstar/mesh.h"

#include <stdlib.h>
#include <string.h>

/* Outward local faces in VTK node numbering (see mesh.h). */
const fv_cell_shape_t fv_cell_shapes[FV_NCELLTYPES] = {
	[FV_TET] = {"tetrahedron", 4, 4, {3, 3, 3, 3},
		    {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}}, 10, 4},
	[FV_PYRAMID] = {"pyramid", 5, 5, {4, 3, 3, 3, 3},
			{{0, 3, 2, 1}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}}, 14, 7},
	[FV_PRISM] = {"prism", 6, 5, {3, 3, 4, 4, 4},
		      {{0, 1, 2}, {3, 5, 4}, {0, 3, 4, 1}, {1, 4, 5, 2}, {2, 5, 3, 0}}, 13, 6},
	[FV_HEX] = {"hexahedron", 8, 6, {4, 4, 4, 4, 4, 4},
		    {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}, 12, 5},
};

void fv_mesh_init(fv_mesh_t *m)
{
	memset(m, 0, sizeof *m);
	m->extrude_marker[0] = m->extrude_marker[1] = -1;
}

void fv_mesh_free_derived(fv_mesh_t *m)
{
	FV_FREE(m->face_cell);
	FV_FREE(m->face_node_off);
	FV_FREE(m->face_node);
	FV_FREE(m->face_marker);
	FV_FREE(m->marker_face_off);
	FV_FREE(m->cell_face_off);
	FV_FREE(m->cell_face);
	FV_FREE(m->cell_face_sign);
	FV_FREE(m->cell_cell);
	FV_FREE(m->node_cell_off);
	FV_FREE(m->node_cell);
	FV_FREE(m->cell_vol);
	FV_FREE(m->cell_ctr);
	FV_FREE(m->face_area);
	FV_FREE(m->face_ctr);
	m->n_faces = m->n_bfaces = 0;
}

void fv_mesh_free(fv_mesh_t *m)
{
	fv_mesh_free_derived(m);
	free(m->xyz);
	free(m->cell_type);
	free(m->cell_node_off);
	free(m->cell_node);
	free(m->markers);
	free(m->belem_type);
	free(m->belem_node_off);
	free(m->belem_node);
	free(m->belem_marker);
	free(m->cell_orig);
	free(m->node_orig);
	free(m->cell_tag);
	free(m->node_tag);
	fv_mesh_init(m);
}

fv_err_t fv_mesh_alloc(fv_mesh_t *m, size_t n_nodes, size_t n_cells,
		       size_t n_cell_nodes, size_t n_belems, size_t n_belem_nodes)
{
	FV_CHECK(n_nodes <= FV_IDX_MAX && n_cells < FV_IDX_MAX && n_cell_nodes <= FV_IDX_MAX &&
			 n_belems < FV_IDX_MAX && n_belem_nodes <= FV_IDX_MAX,
		 FV_ERR_MEM, "%s: mesh too large for 32-bit indices (%zu nodes, %zu cells)",
		 m->source, n_nodes, n_cells);
	m->n_nodes = (fv_idx_t)n_nodes;
	m->n_cells = (fv_idx_t)n_cells;
	m->n_belems = (fv_idx_t)n_belems;
	FV_CALL(fv_malloc(&m->xyz, 3 * n_nodes, sizeof *m->xyz, "node coordinates"));
	FV_CALL(fv_malloc(&m->cell_type, n_cells, sizeof *m->cell_type, "cell types"));
	FV_CALL(fv_malloc(&m->cell_node_off, n_cells + 1, sizeof *m->cell_node_off, "cell offsets"));
	FV_CALL(fv_malloc(&m->cell_node, n_cell_nodes, sizeof *m->cell_node, "cell nodes"));
	FV_CALL(fv_malloc(&m->belem_type, n_belems, sizeof *m->belem_type, "boundary element types"));
	FV_CALL(fv_malloc(&m->belem_node_off, n_belems + 1, sizeof *m->belem_node_off, "boundary offsets"));
	FV_CALL(fv_malloc(&m->belem_node, n_belem_nodes, sizeof *m->belem_node, "boundary nodes"));
	FV_CALL(fv_malloc(&m->belem_marker, n_belems, sizeof *m->belem_marker, "boundary markers"));
	m->cell_node_off[0] = 0;
	m->belem_node_off[0] = 0;
	return FV_OK;
}

fv_err_t fv_mesh_marker(fv_mesh_t *m, const char *name, int *index)
{
	size_t n = strlen(name);
	FV_CHECK(n > 0 && n < FV_MARKER_NAME_MAX, FV_ERR_FORMAT,
		 "%s: marker name '%.80s' is empty or longer than %d characters",
		 m->source, name, FV_MARKER_NAME_MAX - 1);
	for (int k = 0; k < m->n_markers; k++)
		if (strcmp(m->markers[k].name, name) == 0) {
			*index = k;
			return FV_OK;
		}
	FV_CALL(fv_realloc(&m->markers, (size_t)m->n_markers + 1, sizeof *m->markers, "markers"));
	/* the whole name zeroed: it is written to part files as it is */
	memset(m->markers[m->n_markers].name, 0, FV_MARKER_NAME_MAX);
	memcpy(m->markers[m->n_markers].name, name, n + 1);
	*index = m->n_markers++;
	return FV_OK;
}
