/* SPDX-License-Identifier: MIT */
/* Partition into blocks, renumbering (RCM, Alg. 2 faces), and the per-block
 * local meshes with ghost cells and halo send/receive lists. */
#ifndef FVSTAR_PARTITION_H
#define FVSTAR_PARTITION_H

#include "fvstar/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fv_partitioner {
	FV_PART_METIS = 0,  /* METIS k-way on the cell dual graph (default) */
	FV_PART_SCOTCH = 1, /* Scotch graph partitioning */
	FV_PART_LINEAR = 2, /* contiguous ranges of the current numbering */
	FV_PART_HILBERT = 3, /* contiguous ranges of a Hilbert curve through the cell centroids */
	FV_PART_RCB = 4      /* recursive coordinate bisection of the cell centroids */
} fv_partitioner_t;

typedef struct fv_partition_stats {
	int n_blocks;
	int64_t edge_cut;          /* interior faces between different blocks */
	double imbalance;          /* max over blocks of size / target size (mean, or the weight's share) */
	fv_idx_t min_cells, max_cells;
} fv_partition_stats_t;

/* "metis", "scotch", "linear", "hilbert" or "rcb". */
const char *fv_partitioner_name(fv_partitioner_t method);

/* block_of_cell[c] in [0, n_blocks) for every cell; n_blocks == 1 gives
 * all zeros; errors when the partitioner was not built in. */
fv_err_t fv_partition_cells(const fv_mesh_t *m, int n_blocks, fv_partitioner_t method, unsigned seed,
			    int32_t *block_of_cell, fv_partition_stats_t *stats);
/* The same with block b holding about weights[b] / sum(weights) of the
 * cells (METIS and Scotch target part weights, within their 3% imbalance;
 * linear and hilbert: cumulative shares of their order). With groups (block b in
 * group groups[b], 0, 1, ...), METIS and Scotch first split the cells into
 * the groups, then each group's cells into its blocks, so that two groups
 * meet along one cut (the GPU block(s) and the CPU blocks). weights and
 * groups NULL is fv_partition_cells bit for bit. */
fv_err_t fv_partition_cells_weighted(const fv_mesh_t *m, int n_blocks, fv_partitioner_t method, unsigned seed,
				     const double *weights, const int *groups, int32_t *block_of_cell,
				     fv_partition_stats_t *stats);

/* Over the interior faces whose two cells are in the same block (all faces
 * for one block): what the blocks' local numberings see. */
typedef struct fv_order_stats {
	int64_t bandwidth_before;  /* max |c - neighbour| */
	int64_t bandwidth_after;
	double mean_jump_before;   /* mean |c - neighbour| */
	double mean_jump_after;
} fv_order_stats_t;

/* Renumbers the mesh in place: cells block by block (block 0 first), RCM
 * inside each block (a block of chain_min cells and more, 0: 2^22, in
 * chained Cuthill-McKee pieces of 2^20 cells of its centroids' Hilbert
 * order; FVSTAR_ORDER chooses otherwise, src/order/renumber.c); nodes by first use in the new
 * cell order; then
 * rebuilds faces (boundary first by marker, interior faces by Alg. 2 of the
 * FGCS paper), node cells and geometry (fv_mesh_prepare). block_off
 * [n_blocks + 1] receives the cell range of each block. The file order and
 * numbers (cell_orig, node_orig, cell_tag, node_tag) move with the cells
 * and nodes, so outputs and messages keep the file's terms. */
fv_err_t fv_mesh_renumber(fv_mesh_t *m, const int32_t *block_of_cell, int n_blocks, fv_idx_t *block_off,
			  fv_idx_t chain_min, fv_order_stats_t *stats);
/* chain_min for explicit runs: every block of one piece's cells and more
 * is chained (faster on GPUs); implicit runs keep the default (0: 2^22),
 * whose RCM blocks below it took fewer iterations in the one case measured
 * (bench/results/2026-12-06-halo13.md) */
#define FV_ORDER_CHAIN_MIN_EXPLICIT ((fv_idx_t)1 << 20)

/*
 * A block's local mesh. Cells are [owned | ghosts]:
 *
 *   local cell:  0 ........ n_owned-1 | n_owned ........... n_cells-1
 *                owned: global cells    ghosts, grouped by source block:
 *                cell0 .. cell0+n_owned-1  [from nbr 0][from nbr 1]...
 *
 * Ghosts are every cell outside the block that shares a node with an owned
 * cell, so node values, gradients and fluxes of owned cells are computed
 * from local data. Ghosts from neighbour k occupy the contiguous range
 * recv_off[k] .. recv_off[k+1] (offsets into the ghost part: local index
 * n_owned + recv_off[k] ...), in increasing global id; the neighbour's
 * send list for this block lists the same cells in the same order, as its
 * own local (owned) indices. A halo exchange of a field is then: pack
 * send_cell values into a buffer, copy, unpack into one contiguous range.
 *
 * Faces are those with at least one owned cell: boundary faces of owned
 * cells first (grouped by marker, marker_face_off), then interior faces in
 * the global (Alg. 2) order; face_cell holds local cell indices (owner
 * first as in the global mesh, so a neighbour may be a ghost, or the
 * owner may be a ghost when the neighbour is owned). Nodes are the nodes
 * of owned cells; node_cell lists local cells (ghosts included) around
 * each local node, complete for every local node. Geometry arrays are SoA
 * over local faces / local cells. cell_face covers owned cells only.
 */
typedef struct fv_block {
	int id;
	fv_idx_t cell0;            /* global id of local cell 0 */
	fv_idx_t n_owned, n_ghost, n_cells;   /* n_cells = n_owned + n_ghost */
	fv_idx_t *cell_global;     /* [n_cells] */

	fv_idx_t n_faces, n_bfaces;
	fv_idx_t *face_global;     /* [n_faces] */
	fv_idx_t *face_cell;       /* [2 * n_faces] local; neighbour -1 on boundary */
	int32_t *face_marker;      /* [n_bfaces] */
	fv_idx_t *marker_face_off; /* [n_markers + 1] */
	fv_idx_t *face_node_off;   /* [n_faces + 1] */
	fv_idx_t *face_node;       /* local node ids */
	fv_real_t *face_area;      /* [3 * n_faces] SoA */
	fv_real_t *face_ctr;       /* [3 * n_faces] SoA */

	fv_idx_t *cell_face_off;   /* [n_owned + 1] */
	fv_idx_t *cell_face;       /* local face ids */
	int8_t *cell_face_sign;
	fv_real_t *cell_vol;       /* [n_cells] */
	fv_real_t *cell_ctr;       /* [3 * n_cells] SoA */

	fv_idx_t n_nodes;
	fv_idx_t *node_global;     /* [n_nodes] */
	fv_idx_t *node_cell_off;   /* [n_nodes + 1] */
	fv_idx_t *node_cell;       /* local cells */

	int n_nbr;                 /* neighbouring blocks (send and receive) */
	int *nbr;                  /* [n_nbr] block ids, increasing */
	fv_idx_t *recv_off;        /* [n_nbr + 1] into the ghost range */
	fv_idx_t *send_off;        /* [n_nbr + 1] */
	fv_idx_t *send_cell;       /* local owned cells to send, per neighbour */
} fv_block_t;

/* Builds the local meshes of blocks [block_off[b], block_off[b+1]) of a
 * renumbered, prepared mesh. blocks receives an array of n_blocks. */
fv_err_t fv_blocks_build(const fv_mesh_t *m, const fv_idx_t *block_off, int n_blocks, fv_block_t **blocks);
/* The same blocks; one block takes the mesh's face and cell geometry,
 * cells' faces and nodes' cells instead of copying them (the mesh keeps
 * its cells, nodes and centres: what fv_part_build reads). */
fv_err_t fv_blocks_build_take(fv_mesh_t *m, const fv_idx_t *block_off, int n_blocks, fv_block_t **blocks);
void fv_blocks_free(fv_block_t *blocks, int n_blocks);
/* Frees what a run no longer reads once the solver holds the blocks' data
 * (its own copies): the faces' nodes and areas, the cells' faces, volumes
 * and centroids, the nodes. Kept: counts, cell and face ids, face_cell,
 * the boundary markers and face_ctr (wall.csv), the halo lists. */
void fv_blocks_trim(fv_block_t *blocks, int n_blocks);
/* The halos of values read across faces alone (the gradient, the limiter,
 * the implicit update) carry the first recv[k] ghosts of b's run from its
 * neighbour k: the shortest prefix holding every ghost that shares a face
 * with an owned cell; and send[k], likewise, of what b sends to neighbour
 * k (its cells sharing a face with k's owned cells, the same list as k's
 * recv, found from b's side alone, so that ranks agree without asking).
 * fv_blocks_build puts those ghosts first in each run: the prefixes hold
 * them alone. send and recv: [n_nbr]. */
fv_err_t fv_block_face_prefix(const fv_block_t *b, fv_idx_t *send, fv_idx_t *recv);
/* The block of renumbered cell c: the last b with block_off[b] <= c
 * (which steps over empty blocks). */
int fv_block_of_cell(const fv_idx_t *block_off, int n_blocks, fv_idx_t c);

/* Blocks to n_ranks ranks (runs on several ranks), rank_of[b]: rank r gets
 * (r + 1) nb / R - r nb / R blocks, either the contiguous range of ids from
 * r nb / R, or, where that cuts fewer halo cells between ranks, the group
 * grown through the block graph from the front of the earlier ones (*grown
 * = 1). *cut: the halo cells sent between ranks per exchange. The same on
 * every rank (no randomness). */
fv_err_t fv_blocks_to_ranks(const fv_block_t *blocks, int nb, int n_ranks, int *rank_of, long long *cut,
			    int *grown);

/*
 * One rank's share of a partitioned mesh: everything a run on n_ranks
 * ranks needs on rank `rank`, without the rest of the mesh. Built once from
 * the whole (renumbered, prepared) mesh and its blocks, by rank 0 of a run
 * (which sends each rank its part) or by `fvstar mesh partition` (one file
 * per rank, each read by its own rank), so that no other rank ever holds
 * the whole mesh.
 *
 *   blocks     all n_blocks: this rank's complete (fv_block_t); the other
 *              ranks' hold only id, counts, nbr, recv_off and send_off
 *              (what a rank registers halo buffers and ranks from)
 *   cell_file  this rank's blocks: the file position (mesh file order) of
 *              each local cell, ghosts included (restart files, the
 *              initial state of ghosts)
 *   piece      this rank's owned cells as a mesh in the file's order: cell
 *              types, nodes (this rank's, in the file's order), markers,
 *              source name, the whole mesh's file positions and numbers
 *              (cell_orig, node_orig, cell_tag, node_tag; NULL where the
 *              piece is the whole mesh in file order) and cell centroids;
 *              no faces. piece_cell: the renumbered global id of each.
 *   boundary   the whole mesh's boundary elements [bel0, bel0 + n_bel), a
 *              contiguous share of them, as read: type, marker and their
 *              nodes' coordinates (4 slots of 3; a triangle leaves the
 *              fourth zero). The ranks' shares together are all of them,
 *              in file order (the wall distance gathers them).
 */
typedef struct fv_part {
	int rank, n_ranks, n_blocks;
	fv_mesh_id_t mesh_id;          /* the whole mesh's (restart files) */
	int64_t n_cells, n_faces, n_nodes, n_bfaces, n_belems; /* the whole mesh's */
	fv_partition_stats_t ps;
	fv_order_stats_t os;
	long long cut, halo;           /* halo cells sent between ranks, between blocks */
	int grown;                     /* fv_blocks_to_ranks' choice */
	fv_idx_t *block_off;           /* [n_blocks + 1] renumbered cell ranges */
	int *rank_of;                  /* [n_blocks] */
	fv_block_t *blocks;            /* [n_blocks] */
	fv_idx_t **cell_file;          /* [n_blocks]: this rank's [n_cells of the block], NULL others */
	fv_mesh_t piece;
	fv_idx_t *piece_cell;          /* [piece.n_cells] */
	fv_idx_t bel0, n_bel;
	uint8_t *bel_type;             /* [n_bel] FV_TRI or FV_QUAD */
	int32_t *bel_marker;           /* [n_bel] */
	double *bel_xyz;               /* [12 n_bel] */
} fv_part_t;

#define FV_PART_MAGIC "FVSTARPT"
/* 2: the checksum is XXH64 (util/xxh64.h), at memory speed; version 1's
 * FNV-1a took most of a part's read (3 s of 447 MB at 1M cells). */
#define FV_PART_VERSION 2

/* Rank r's part of n_ranks from the whole mesh m (renumbered by
 * fv_mesh_renumber into the blocks block_off, prepared), its blocks
 * (fv_blocks_build, all of them) and the blocks' ranks. ps, os: the
 * partition's statistics, kept for the run's summary. take: rank r's
 * blocks are moved into the part, their arrays left empty in blocks (the
 * last part made from blocks), rather than copied. */
fv_err_t fv_part_build(const fv_mesh_t *m, fv_block_t *blocks, const fv_idx_t *block_off, int n_blocks,
		       const int *rank_of, int n_ranks, int rank, const fv_partition_stats_t *ps,
		       const fv_order_stats_t *os, fv_part_t *p, int take);
void fv_part_free(fv_part_t *p);
/* A part as bytes (malloc'ed, *bytes long; little-endian hosts, as the
 * file says): FV_PART_MAGIC, version, sizes, the arrays, XXH64 of it all. fv_part_unpack refuses, naming name: another magic or version, a
 * size that does not add up, a truncation or a checksum that differs. */
fv_err_t fv_part_pack(const fv_part_t *p, uint8_t **buf, size_t *bytes);
fv_err_t fv_part_unpack(const uint8_t *buf, size_t bytes, const char *name, fv_part_t *p);
/* One file: written to path.tmp, synced, renamed over path; read back
 * by mapping it (errors name the file), its large arrays on 2 MB pages. */
fv_err_t fv_part_write(const char *path, const fv_part_t *p);
fv_err_t fv_part_read(const char *path, fv_part_t *p);
/* DIR/part.R.bin, the file of rank R of a partition directory. */
void fv_part_path(const char *dir, int rank, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
