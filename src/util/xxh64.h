/* SPDX-License-Identifier: MIT */
/* XXH64 (Yann Collet's xxHash, 64-bit, seed 0 by default): the section and
 * file checksums of the .fvm mesh format, at memory speed. The same values
 * as `xxhsum -H1` (xxHash's reference), so a file can be checked outside
 * fvstar. Streaming: whole 32-byte stripes through fv_xxh64_stripes, the
 * rest (under 32 bytes) to fv_xxh64_final. */
#ifndef FVSTAR_UTIL_XXH64_H
#define FVSTAR_UTIL_XXH64_H

#include <stddef.h>
#include <stdint.h>

typedef struct fv_xxh64 {
	uint64_t v[4];
	uint64_t seed;
	uint64_t total;    /* bytes taken so far */
} fv_xxh64_t;

void fv_xxh64_init(fv_xxh64_t *s, uint64_t seed);
/* n must be a multiple of 32. */
void fv_xxh64_stripes(fv_xxh64_t *s, const void *p, size_t n);
/* The hash of everything given, the last n (< 32) bytes at p. */
uint64_t fv_xxh64_final(const fv_xxh64_t *s, const void *p, size_t n);
/* The hash of n bytes in one call. */
uint64_t fv_xxh64(const void *p, size_t n, uint64_t seed);

#endif
