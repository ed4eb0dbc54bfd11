/* SPDX-License-Identifier: MIT */
/* Set-up frees what each phase no longer needs and the next phase
 * allocates about as much again: by default glibc unmaps every large
 * block on free and the kernel zeroes fresh pages on the next phase's
 * first touch (a quarter to a third of set-up). Kept in the heap, the
 * pages are reused as they are; the peak stays the same. */
#include "util/heap.h"

#include <stdlib.h> /* defines __GLIBC__ where glibc is the C library */

#ifdef __GLIBC__
#include <malloc.h>
#endif

void fv_heap_keep(void)
{
#ifdef __GLIBC__
	/* blocks up to 1 GiB from the heap (larger ones mapped, as before);
	 * the top of the heap never trimmed until fv_heap_give_back */
	(void)mallopt(M_MMAP_THRESHOLD, 1 << 30);
	(void)mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

void fv_heap_give_back(void)
{
#ifdef __GLIBC__
	(void)malloc_trim(0);
	/* and glibc's defaults again (128 KiB each) for what the run
	 * allocates and frees later */
	(void)mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	(void)mallopt(M_TRIM_THRESHOLD, 128 * 1024);
#endif
}
