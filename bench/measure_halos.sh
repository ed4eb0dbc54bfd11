#!/bin/sh
# Halo sizes of fvstar's own partition for P blocks, one block per GPU: the
# METIS cut (src/partition/partition.c), the renumbering and the per-block
# local meshes with their ghost cells and send/receive lists
# (src/partition/blocks.c), as `fvstar run` builds them. Blocks b go to
# nodes of G GPUs as node = b / G.
#
#   bench/measure_halos.sh BUILD MESH G P [P ...] > out.csv
#
# For each P, two cuts: "flat" (METIS k-way into P blocks, run's default)
# and "nodes" (P > G and G | P: METIS into P/G node groups first, then each
# group into its G blocks: fv_partition_cells_weighted with groups, the
# two-level cut a node-aware rank placement would use).
# Compiles a small C driver against BUILD/libfvstar.a into /tmp.
# CSV columns: mesh,cells,cut,G,P,block,owned,ghost,sent,nbrs,
#   ghost_intra,ghost_inter,nbrs_intra,nbrs_inter,edge_cut,imbalance,
#   face_ghost,face_ghost_intra,face_ghost_inter
# (ghost = cells received per exchange of the Q halo; face_ghost = those
# sharing a face with an owned cell, which the gradient's, the limiter's
# and the implicit update's halos carry (fv_block_face_prefix); *_intra:
# from blocks of the same node, *_inter: from other nodes).
set -eu
BUILD=${1:?BUILD}; MESH=${2:?MESH}; G=${3:?G}; shift 3
SRC=$(cd "$(dirname "$0")/.." && pwd)
EXE=/tmp/fv_halo_sizes2
if [ ! -x "$EXE" ] || [ "$BUILD/libfvstar.a" -nt "$EXE" ] || [ "$0" -nt "$EXE" ]; then
	cat > /tmp/fv_halo_sizes2.c <<'CEOF'
#include <stdio.h>
#include <stdlib.h>
#include "fvstar/mesh.h"
#include "fvstar/partition.h"
static int one(const char *path, int G, int nb, int grouped)
{
	fv_mesh_t m;
	fv_mesh_init(&m);
	if (fv_mesh_read(&m, path) != FV_OK || fv_mesh_prepare(&m) != FV_OK)
		return 1;
	int32_t *part = malloc((size_t)m.n_cells * sizeof *part);
	fv_idx_t *off = malloc(((size_t)nb + 1) * sizeof *off);
	int *groups = malloc((size_t)nb * sizeof *groups);
	for (int b = 0; b < nb; b++)
		groups[b] = b / G;
	fv_partition_stats_t ps;
	fv_order_stats_t os;
	fv_block_t *bl = NULL;
	if (fv_partition_cells_weighted(&m, nb, FV_PART_METIS, 0, NULL, grouped ? groups : NULL, part, &ps) != FV_OK ||
	    fv_mesh_renumber(&m, part, nb, off, 0, &os) != FV_OK || fv_blocks_build(&m, off, nb, &bl) != FV_OK)
		return 1;
	for (int i = 0; i < nb; i++) {
		const fv_block_t *b = &bl[i];
		long long gi = 0, ge = 0, fi = 0, fe = 0;
		int ni = 0, ne = 0;
		fv_idx_t *fs = malloc(((size_t)b->n_nbr + 1) * sizeof *fs), *fr = malloc(((size_t)b->n_nbr + 1) * sizeof *fr);
		if (!fs || !fr || fv_block_face_prefix(b, fs, fr) != FV_OK)
			return 1;
		for (int k = 0; k < b->n_nbr; k++) {
			long long n = b->recv_off[k + 1] - b->recv_off[k];
			if (b->nbr[k] / G == i / G)
				gi += n, fi += fr[k], ni++;
			else
				ge += n, fe += fr[k], ne++;
		}
		free(fs);
		free(fr);
		printf("%s,%lld,%s,%d,%d,%d,%lld,%lld,%lld,%d,%lld,%lld,%d,%d,%lld,%.4f,%lld,%lld,%lld\n", path,
		       (long long)m.n_cells, grouped ? "nodes" : "flat", G, nb, i, (long long)b->n_owned,
		       (long long)b->n_ghost, (long long)b->send_off[b->n_nbr], b->n_nbr, gi, ge, ni, ne,
		       (long long)ps.edge_cut, ps.imbalance, fi + fe, fi, fe);
	}
	fflush(stdout);
	fv_blocks_free(bl, nb);
	free(part);
	free(off);
	free(groups);
	fv_mesh_free(&m);
	return 0;
}
int main(int argc, char **argv)
{
	int G = atoi(argv[2]);
	for (int a = 3; a < argc; a++) {
		int nb = atoi(argv[a]);
		if (one(argv[1], G, nb, 0))
			return 1;
		if (nb > G && nb % G == 0 && one(argv[1], G, nb, 1))
			return 1;
	}
	return 0;
}
CEOF
	LIBS=$(sed -n 's/^\(STARPU_LIBS\|MPI_LIBS\|CUDA_LIBS\|INIH_LIBS\|JANSSON_LIBS\|METIS_LIBS\|SCOTCH_LIBS\|CGNS_LIBS\) = //p' "$BUILD/Makefile" | tr '\n' ' ')
	cc -O2 -std=c11 -I"$SRC/include" /tmp/fv_halo_sizes2.c -o "$EXE" "$BUILD/libfvstar.a" $LIBS -lm
fi
echo "mesh,cells,cut,G,P,block,owned,ghost,sent,nbrs,ghost_intra,ghost_inter,nbrs_intra,nbrs_inter,edge_cut,imbalance,face_ghost,face_ghost_intra,face_ghost_inter"
"$EXE" "$MESH" "$G" "$@"
