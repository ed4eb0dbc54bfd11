/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the binary mesh reader (.fvm) and the pipeline
 * behind it. Each input is parsed as it is, which mostly exercises the
 * header and checksum checks; then, when it is long enough to hold a
 * header, once more with the header's and every in-bounds section's
 * checksums made right, so that the checks behind them (counts, types,
 * indices, names, orders) see the fuzzer's bytes too. Built and run by
 * tools/fuzz.sh fvm. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fvstar/mesh.h"
#include "mesh/fvm_internal.h"
#include "util/xxh64.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void parse(const uint8_t *b, size_t n)
{
	fv_mesh_t m;
	if (fv_mesh_parse_fvm(&m, b, n, "fuzz.fvm") == FV_OK) {
		(void)fv_mesh_prepare(&m);
		fv_mesh_free(&m);
	}
}

/* Checksums recomputed wherever the directory lets them be. */
static void reseal(uint8_t *b, size_t n)
{
	fvm_header_t h;
	memcpy(&h, b, sizeof h);
	if (h.n_sections > 64 || sizeof h + (size_t)h.n_sections * sizeof(fvm_section_t) > n)
		return;
	for (uint32_t k = 0; k < h.n_sections; k++) {
		fvm_section_t s;
		uint8_t *at = b + sizeof h + k * sizeof s;
		memcpy(&s, at, sizeof s);
		if (s.item_bytes == 0 || s.offset > n || s.count > (n - s.offset) / s.item_bytes)
			continue;
		s.checksum = fv_xxh64(b + s.offset, (size_t)(s.count * s.item_bytes), 0);
		memcpy(at, &s, sizeof s);
	}
	fv_xxh64_t st;
	fv_xxh64_init(&st, 0);
	fv_xxh64_stripes(&st, b, offsetof(fvm_header_t, checksum));
	fv_xxh64_stripes(&st, b + sizeof h, (size_t)h.n_sections * sizeof(fvm_section_t));
	h.checksum = fv_xxh64_final(&st, NULL, 0);
	memcpy(b, &h, sizeof h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse(data, size);
	if (size >= sizeof(fvm_header_t)) {
		uint8_t *b = malloc(size);
		if (!b)
			return 0;
		memcpy(b, data, size);
		reseal(b, size);
		parse(b, size);
		free(b);
	}
	return 0;
}
