/* SPDX-License-Identifier: MIT */
/* Hilbert order of cell centroids inside blocks: the ordering of large
 * blocks, computed by all threads (renumber.c chooses it per block). */
#ifndef FV_ORDER_SFC_H
#define FV_ORDER_SFC_H

#include "fvstar/mesh.h"

/* The cells of every block b with use[b] set, sorted by (Hilbert key of
 * the centroid in the bounding cube of those cells, 2^21 steps a side,
 * cell id), written to perm[block_off[b] ..] and new_of_old (NULL: not
 * written); other blocks' positions are left alone. block NULL: the whole
 * mesh is one block (n_blocks 1, use unread). A stable radix sort of keys
 * that do not depend on threads: the same order for any thread count.
 * Needs the mesh's geometry (cell_ctr). seconds (may be NULL): the keys'
 * time and the sort's. */
fv_err_t fv_order_hilbert(const fv_mesh_t *m, const int32_t *block, int n_blocks, const fv_idx_t *block_off,
			  const uint8_t *use, fv_idx_t *perm, fv_idx_t *new_of_old, double seconds[2]);

/* The 3D Hilbert index (3 * bits bits) of the point x[0..2] < 2^bits
 * (Skilling's transpose algorithm), for tests. */
uint64_t fv_hilbert_key(const uint32_t x[3], int bits);

#endif
