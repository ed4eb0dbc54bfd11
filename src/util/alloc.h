/* SPDX-License-Identifier: MIT */
/* Memory for reading binary files at memory speed: the file mapped from
 * the page cache, and large arrays filled right after allocation on 2 MB
 * pages where the kernel gives them on request, since a fault and a
 * cleared 4 kB page each cost more than the copy into them. */
#ifndef FVSTAR_UTIL_ALLOC_H
#define FVSTAR_UTIL_ALLOC_H

#include <stddef.h>

#include "fvstar/error.h"

/* As fv_malloc (free with free()); arrays of FV_LARGE_MIN bytes and more
 * are 2 MB-aligned and advised as huge pages (MADV_HUGEPAGE: transparent
 * huge pages in madvise or always mode). */
#define FV_LARGE_MIN ((size_t)4 << 20)
fv_err_t fv_malloc_large(void *pptr, size_t count, size_t size, const char *what);

/* A regular file (util/parse.h's fv_open_regular: errors name it) mapped
 * read-only and prefaulted: *map and its *size. *map is NULL for an empty
 * file, or where the file system cannot map it (read it instead). */
fv_err_t fv_map_file(const char *path, const void **map, size_t *size);
void fv_unmap_file(const void *map, size_t size);

/* The largest single allocation of this process so far (every fv_malloc,
 * fv_calloc, fv_realloc, fv_malloc_large and fv_runtime_alloc notes its
 * size): what shows that a rank of a distributed set-up never held an
 * array over the whole mesh. *what (may be NULL) gets its label. */
void fv_alloc_note(size_t bytes, const char *what);
size_t fv_alloc_largest(const char **what);

#endif
