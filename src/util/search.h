/* SPDX-License-Identifier: MIT */
/* Binary search over a sorted sequence, written once for every sorted table
 * of the code (the readers' tag maps, a block's neighbours and offsets, a
 * cut's point keys): each caller says only how element i's key is read. */
#ifndef FVSTAR_UTIL_SEARCH_H
#define FVSTAR_UTIL_SEARCH_H

#include <stddef.h>
#include <stdint.h>

/* The key of element i of the sequence a; keys do not decrease with i. */
typedef int64_t (*fv_key_fn)(const void *a, size_t i);

/* The first i in [0, n) whose key is >= k; n when there is none. Inline so
 * that a hot search (a reader's node tags) gets its key function inlined. */
static inline size_t fv_lower_bound(const void *a, size_t n, int64_t k, fv_key_fn key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key(a, mid) < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first i in [0, n) whose key is k; -1 when there is none. */
static inline ptrdiff_t fv_search(const void *a, size_t n, int64_t k, fv_key_fn key)
{
	size_t i = fv_lower_bound(a, n, k, key);
	return i < n && key(a, i) == k ? (ptrdiff_t)i : -1;
}

/* The first i in [1, n) whose key equals the one before (a sorted table
 * with a repeated key); -1 when every key is distinct. */
static inline ptrdiff_t fv_first_repeat(const void *a, size_t n, fv_key_fn key)
{
	for (size_t i = 1; i < n; i++)
		if (key(a, i) == key(a, i - 1))
			return (ptrdiff_t)i;
	return -1;
}

/* Keys of plain arrays. */
static inline int64_t fv_key_int(const void *a, size_t i)
{
	return ((const int *)a)[i];
}
static inline int64_t fv_key_i32(const void *a, size_t i)
{
	return ((const int32_t *)a)[i];
}
static inline int64_t fv_key_i64(const void *a, size_t i)
{
	return ((const int64_t *)a)[i];
}
/* uint64_t keys below 2^63 (an edge's two node ids, 31 bits each) */
static inline int64_t fv_key_u63(const void *a, size_t i)
{
	return (int64_t)((const uint64_t *)a)[i];
}

#endif
