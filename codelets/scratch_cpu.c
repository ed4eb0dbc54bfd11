/* SPDX-License-Identifier: MIT */
/* Scratch buffers of the CPU worker threads, kept between tasks. */
#include <stdlib.h>

#include "codelets/common.h"

static _Thread_local void *scratch_buf[FV_NSCRATCH];
static _Thread_local size_t scratch_cap[FV_NSCRATCH];

void *fv_cpu_scratch(int slot, size_t bytes)
{
	if (bytes > scratch_cap[slot]) {
		free(scratch_buf[slot]);
		bytes = (bytes + 63) / 64 * 64;
		scratch_buf[slot] = aligned_alloc(64, bytes);
		scratch_cap[slot] = scratch_buf[slot] ? bytes : 0;
	}
	return scratch_buf[slot];
}
