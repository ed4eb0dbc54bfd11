/* SPDX-License-Identifier: MIT */
/* FNV-1a 64, the checksum of fvstar's binary files (restart, mesh parts):
 * h = FV_FNV_OFFSET, then h = fv_fnv1a(h, bytes, n) over the contents. */
#ifndef FVSTAR_UTIL_HASH_H
#define FVSTAR_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define FV_FNV_OFFSET 14695981039346656037ULL
#define FV_FNV_PRIME 1099511628211ULL

static inline uint64_t fv_fnv1a(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = (const uint8_t *)p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= FV_FNV_PRIME;
	}
	return h;
}

#endif
