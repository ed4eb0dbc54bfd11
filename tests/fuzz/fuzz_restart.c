/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the restart reader (fv_restart_parse): each input
 * is parsed as it is, then again with its checksum made valid, so that
 * the checks behind the checksum (mesh identity, iteration, time,
 * residuals, model, solver state count) are reached too, with a matching and a differing mesh.
 * Built and run by tools/fuzz.sh; tests/fuzz/replay.c replays the seeds
 * (tests/fuzz/seeds/restart) and crashers (tests/fuzz/regressions/restart)
 * in `make check`. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fvstar/output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t get_le(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Touches every value read, so that a short allocation shows in ASan. */
static void parse(const uint8_t *data, size_t size, const fv_mesh_id_t *expect)
{
	fv_restart_t r;
	if (fv_restart_parse(data, size, "fuzz.bin", &r, expect, "fuzz.su2") == FV_OK) {
		volatile fv_real_t sum = 0;
		for (size_t i = 0; i < (size_t)r.n_vars * (size_t)r.n_cells; i++)
			sum += r.q[i];
		for (int k = 0; k < r.n_solver_state; k++)
			sum += (fv_real_t)r.solver_state[k];
		(void)sum;
		fv_restart_free(&r);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *fixed;
	uint64_t h = 14695981039346656037ULL;
	parse(data, size, NULL);
	if (size < 8)
		return 0;
	fixed = malloc(size);
	if (!fixed)
		return 0;
	memcpy(fixed, data, size);
	for (size_t i = 0; i + 8 < size; i++) {
		h ^= fixed[i];
		h *= 1099511628211ULL;
	}
	for (int i = 0; i < 8; i++)
		fixed[size - 8 + i] = (uint8_t)(h >> (8 * i));
	parse(fixed, size, NULL);
	if (size >= 104) {
		/* the mesh the header names, then another node count, then
		 * another checksum (flipped bits: any value may come in) */
		fv_mesh_id_t id = {(int64_t)get_le(fixed + 16), (int64_t)get_le(fixed + 88), get_le(fixed + 96)};
		parse(fixed, size, &id);
		id.n_nodes ^= 1;
		parse(fixed, size, &id);
		id.n_nodes ^= 1;
		id.hash ^= 1;
		parse(fixed, size, &id);
	}
	free(fixed);
	return 0;
}
