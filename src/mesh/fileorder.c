/* SPDX-License-Identifier: MIT */
/* The mesh file's cell and node order kept through renumbering: file
 * numbers for messages, the inverse orders that outputs are written
 * through, and the mesh checksum that restart files record. */
#include "fvstar/mesh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/threads.h"

const char *fv_mesh_cell_name(const fv_mesh_t *m, fv_idx_t c, char *buf, size_t size)
{
	if (m->refine_levels > 0)
		snprintf(buf, size, "cell %lld (refined from element %lld)", (long long)fv_mesh_cell_orig(m, c) + 1,
			 (long long)fv_mesh_cell_tag(m, c));
	else
		snprintf(buf, size, "element %lld", (long long)fv_mesh_cell_tag(m, c));
	return buf;
}

const char *fv_mesh_node_list(const fv_mesh_t *m, const fv_idx_t *nodes, int n, char *buf, size_t size)
{
	size_t o = 0;
	if (size)
		buf[0] = '\0';
	for (int i = 0; i < n && o < size; i++) {
		fv_idx_t v = nodes[i];
		/* a node id the checks have not validated yet is shown as stored */
		long long t = v >= 0 && v < m->n_nodes ? (long long)fv_mesh_node_tag(m, v) : (long long)v;
		o += (size_t)snprintf(buf + o, size - o, i ? " %lld" : "%lld", t);
	}
	return buf;
}

static fv_err_t invert(const fv_idx_t *orig, fv_idx_t n, const char *what, const char *source, fv_idx_t **of_file)
{
	fv_idx_t *inv;
	*of_file = NULL;
	if (!orig)
		return FV_OK;
	FV_CALL(fv_malloc(&inv, (size_t)n + 1, sizeof *inv, "file order"));
	for (fv_idx_t i = 0; i < n; i++)
		inv[i] = -1;
	for (fv_idx_t i = 0; i < n; i++) {
		fv_idx_t o = orig[i];
		if (o < 0 || o >= n || inv[o] >= 0) {
			free(inv);
			return FV_ERROR(FV_ERR_MESH, "%s: the file order of the %s is not a permutation (%s %d at %d)",
					source, what, what, (int)o, (int)i);
		}
		inv[o] = i;
	}
	*of_file = inv;
	return FV_OK;
}

fv_err_t fv_mesh_file_cells(const fv_mesh_t *m, fv_idx_t **of_file)
{
	return invert(m->cell_orig, m->n_cells, "cells", m->source, of_file);
}

fv_err_t fv_mesh_file_nodes(const fv_mesh_t *m, fv_idx_t **of_file)
{
	return invert(m->node_orig, m->n_nodes, "nodes", m->source, of_file);
}

/* The hash of one cell or node: its words folded in order, then a full
 * avalanche (the MurmurHash3 finaliser), so that summing the items is a
 * good hash of the set whatever order they are summed in. */
static uint64_t fold(uint64_t h, uint64_t w)
{
	h ^= w;
	h = (h << 27) | (h >> 37);
	return h * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
}

static uint64_t avalanche(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

fv_err_t fv_mesh_identity(const fv_mesh_t *m, fv_mesh_id_t *id)
{
	uint64_t sum_cells = 0, sum_nodes = 0;
	int bad = 0;
	FV_CHECK(m && id, FV_ERR_ARG, "fv_mesh_identity: null argument");
	FV_CHECK(m->n_cells >= 0 && m->n_nodes >= 0 && (m->n_cells == 0 || (m->cell_type && m->cell_node_off)) &&
			 (m->n_nodes == 0 || m->xyz),
		 FV_ERR_ARG, "%s: the mesh has no cells or nodes to identify", m->source);
	/* sums of per-item hashes: any order and thread count, the same */
	FV_OMP(parallel for schedule(static) reduction(+ : sum_cells) reduction(|| : bad) if (m->n_cells > FV_PAR_MIN))
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		uint64_t h = fold(0x43454c4cULL, (uint64_t)(uint32_t)fv_mesh_cell_orig(m, c));
		h = fold(h, m->cell_type[c]);
		for (fv_idx_t k = m->cell_node_off[c]; k < m->cell_node_off[c + 1]; k++) {
			fv_idx_t v = m->cell_node[k];
			if (v < 0 || v >= m->n_nodes) {
				bad = 1;
				break;
			}
			h = fold(h, (uint64_t)(uint32_t)fv_mesh_node_orig(m, v));
		}
		sum_cells += avalanche(h);
	}
	for (size_t k = 0; bad && k < (size_t)m->cell_node_off[m->n_cells]; k++) /* the first bad one */
		FV_CHECK(m->cell_node[k] >= 0 && m->cell_node[k] < m->n_nodes, FV_ERR_MESH,
			 "%s: cell node id %d out of range [0, %d)", m->source, (int)m->cell_node[k], (int)m->n_nodes);
	FV_OMP(parallel for schedule(static) reduction(+ : sum_nodes) if (m->n_nodes > FV_PAR_MIN))
	for (fv_idx_t v = 0; v < m->n_nodes; v++) {
		uint64_t h = fold(0x4e4f4445ULL, (uint64_t)(uint32_t)fv_mesh_node_orig(m, v)), bits;
		for (int d = 0; d < 3; d++) {
			memcpy(&bits, &m->xyz[3 * (size_t)v + d], sizeof bits);
			h = fold(h, bits);
		}
		sum_nodes += avalanche(h);
	}
	id->n_cells = m->n_cells;
	id->n_nodes = m->n_nodes;
	id->hash = avalanche(fold(fold(fold(sum_cells, sum_nodes), (uint64_t)m->n_cells), (uint64_t)m->n_nodes));
	return FV_OK;
}
