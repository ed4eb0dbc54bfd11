/* SPDX-License-Identifier: MIT */
/* The heap through set-up: freed memory kept for the next phase rather
 * than handed back to the kernel, then handed back once set-up ends. */
#ifndef FV_UTIL_HEAP_H
#define FV_UTIL_HEAP_H

/* From now on, large blocks come from the heap and freed ones stay in it
 * (glibc; elsewhere nothing changes). */
void fv_heap_keep(void);
/* Hands the free part of the heap back to the kernel, and large blocks
 * go back to being mapped and unmapped one by one. */
void fv_heap_give_back(void);

#endif
