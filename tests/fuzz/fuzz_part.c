/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the mesh part reader (fv_part_unpack): each input
 * is parsed as it is, then again with its checksum made valid, so that
 * the size and index checks behind the checksum are reached. Built and run
 * by tools/fuzz.sh; tests/fuzz/replay.c replays the seeds
 * (tests/fuzz/seeds/part: parts of a small mixed mesh on 1 and 3 ranks)
 * and crashers (tests/fuzz/regressions/part) in `make check`. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fvstar/partition.h"
#include "util/xxh64.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Touches the arrays a run indexes with, so that a short allocation shows
 * in ASan. */
static void parse(const uint8_t *data, size_t size)
{
	fv_part_t p;
	if (fv_part_unpack(data, size, "fuzz.bin", &p) != FV_OK)
		return;
	volatile double sum = 0;
	for (int b = 0; b < p.n_blocks; b++) {
		const fv_block_t *bk = &p.blocks[b];
		sum += bk->send_off[bk->n_nbr];
		if (p.rank_of[b] != p.rank)
			continue;
		for (fv_idx_t f = 0; f < bk->n_faces; f++)
			sum += bk->face_cell[2 * (size_t)f] + (double)bk->cell_vol[bk->face_cell[2 * (size_t)f]];
		for (fv_idx_t i = 0; i < bk->send_off[bk->n_nbr]; i++)
			sum += (double)bk->cell_vol[bk->send_cell[i]];
	}
	for (fv_idx_t i = 0; i < p.piece.n_cells; i++)
		for (fv_idx_t a = p.piece.cell_node_off[i]; a < p.piece.cell_node_off[i + 1]; a++)
			sum += p.piece.xyz[3 * (size_t)p.piece.cell_node[a]];
	(void)sum;
	fv_part_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *fixed;
	uint64_t h;
	parse(data, size);
	if (size < 24)
		return 0;
	fixed = malloc(size);
	if (!fixed)
		return 0;
	memcpy(fixed, data, size);
	h = fv_xxh64(fixed, size - 8, 0);
	memcpy(fixed + size - 8, &h, 8);
	parse(fixed, size);
	free(fixed);
	return 0;
}
