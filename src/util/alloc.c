/* SPDX-License-Identifier: MIT */
/* fv_malloc_large and fv_map_file (alloc.h): posix_memalign to 2 MB then
 * madvise, and mmap with MAP_POPULATE, Linux's where it has them. */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE, MAP_POPULATE */
#include "util/alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/parse.h"

#define HUGE_PAGE ((size_t)2 << 20)

fv_err_t fv_malloc_large(void *pptr, size_t count, size_t size, const char *what)
{
	void *p = NULL;
	FV_CHECK(size == 0 || count <= SIZE_MAX / size, FV_ERR_MEM, "%s: %zu x %zu bytes overflow", what, count,
		 size);
	size_t bytes = count * size;
	if (bytes < FV_LARGE_MIN)
		return fv_malloc(pptr, count, size, what);
	fv_alloc_note(bytes, what);
	FV_CHECK(posix_memalign(&p, HUGE_PAGE, bytes) == 0, FV_ERR_MEM, "out of memory allocating %zu bytes for %s",
		 bytes, what);
#ifdef MADV_HUGEPAGE
	(void)madvise(p, bytes, MADV_HUGEPAGE); /* advice only: 4 kB pages where refused */
#endif
	*(void **)pptr = p;
	return FV_OK;
}

fv_err_t fv_map_file(const char *path, const void **map, size_t *size)
{
	long long n;
	int fd, flags = MAP_PRIVATE;
	void *p;
	*map = NULL;
	*size = 0;
	FV_CALL(fv_open_regular(path, &fd, &n));
	*size = (size_t)n;
#ifdef MAP_POPULATE
	flags |= MAP_POPULATE; /* one pass over the page tables, not a fault per page */
#endif
	p = n > 0 ? mmap(NULL, (size_t)n, PROT_READ, flags, fd, 0) : MAP_FAILED;
	close(fd);
	if (p != MAP_FAILED)
		*map = p;
	return FV_OK;
}

void fv_unmap_file(const void *map, size_t size)
{
	if (map)
		munmap((void *)map, size);
}

static size_t largest;
static char largest_what[64];
static int largest_lock;

void fv_alloc_note(size_t bytes, const char *what)
{
	/* a new largest is rare after the first few: the lock is taken then only */
	if (bytes <= __atomic_load_n(&largest, __ATOMIC_RELAXED))
		return;
	while (__atomic_exchange_n(&largest_lock, 1, __ATOMIC_ACQUIRE))
		;
	if (bytes > largest) {
		snprintf(largest_what, sizeof largest_what, "%s", what ? what : "?");
		__atomic_store_n(&largest, bytes, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&largest_lock, 0, __ATOMIC_RELEASE);
}

size_t fv_alloc_largest(const char **what)
{
	if (what)
		*what = largest_what;
	return __atomic_load_n(&largest, __ATOMIC_RELAXED);
}
