/* SPDX-License-Identifier: MIT */
/* XXH64 after xxHash's specification (doc/xxhash_spec.md of the xxHash
 * repository): four lanes over 32-byte stripes, then the tail, then the
 * avalanche. Little-endian reads, as the specification defines them. */
#include "util/xxh64.h"

#include <string.h>

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static inline uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

/* The specification reads lanes little-endian; memcpy compiles to one load. */
static inline uint64_t rd64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline uint32_t rd32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

static inline uint64_t round64(uint64_t acc, uint64_t in)
{
	acc += in * P2;
	acc = rotl(acc, 31);
	return acc * P1;
}

static inline uint64_t merge(uint64_t acc, uint64_t v)
{
	acc ^= round64(0, v);
	return acc * P1 + P4;
}

void fv_xxh64_init(fv_xxh64_t *s, uint64_t seed)
{
	s->v[0] = seed + P1 + P2;
	s->v[1] = seed + P2;
	s->v[2] = seed;
	s->v[3] = seed - P1;
	s->seed = seed;
	s->total = 0;
}

void fv_xxh64_stripes(fv_xxh64_t *s, const void *p, size_t n)
{
	const unsigned char *b = p, *end = b + (n & ~(size_t)31);
	uint64_t v0 = s->v[0], v1 = s->v[1], v2 = s->v[2], v3 = s->v[3];
	for (; b < end; b += 32) {
		v0 = round64(v0, rd64(b));
		v1 = round64(v1, rd64(b + 8));
		v2 = round64(v2, rd64(b + 16));
		v3 = round64(v3, rd64(b + 24));
	}
	s->v[0] = v0;
	s->v[1] = v1;
	s->v[2] = v2;
	s->v[3] = v3;
	s->total += n & ~(size_t)31;
}

uint64_t fv_xxh64_final(const fv_xxh64_t *s, const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t total = s->total + n, h;
	if (s->total >= 32) {
		h = rotl(s->v[0], 1) + rotl(s->v[1], 7) + rotl(s->v[2], 12) + rotl(s->v[3], 18);
		for (int i = 0; i < 4; i++)
			h = merge(h, s->v[i]);
	} else {
		h = s->seed + P5;
	}
	h += total;
	for (; n >= 8; b += 8, n -= 8) {
		h ^= round64(0, rd64(b));
		h = rotl(h, 27) * P1 + P4;
	}
	if (n >= 4) {
		h ^= (uint64_t)rd32(b) * P1;
		h = rotl(h, 23) * P2 + P3;
		b += 4;
		n -= 4;
	}
	for (; n > 0; b++, n--) {
		h ^= *b * P5;
		h = rotl(h, 11) * P1;
	}
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	h ^= h >> 32;
	return h;
}

uint64_t fv_xxh64(const void *p, size_t n, uint64_t seed)
{
	fv_xxh64_t s;
	size_t whole = n & ~(size_t)31;
	fv_xxh64_init(&s, seed);
	fv_xxh64_stripes(&s, p, whole);
	return fv_xxh64_final(&s, (const unsigned char *)p + whole, n - whole);
}
