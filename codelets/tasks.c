/* SPDX-License-Identifier: MIT */
/* What the task insertion of every stage shares: StarPU's submission
 * errors as ours, and the model footprint and names of colour group tasks. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "codelets/common.h"

fv_err_t fv_task_check(int ret, const char *name, int block)
{
	FV_CHECK(ret != -ENODEV, FV_ERR_RUNTIME, "task %s (block %d): no worker can run it", name, block);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "task %s (block %d): submission failed (%d)", name, block, ret);
	return FV_OK;
}

uint32_t fv_group_footprint(struct starpu_task *task)
{
	fv_task_args_t a;
	starpu_codelet_unpack_args(task->cl_arg, &a);
	return starpu_hash_crc32c_be((uint32_t)(a.color_off[a.group + 1] - a.color_off[a.group]), 0);
}

const char *fv_group_name(const char *stage, int group)
{
	/* one table per stage name seen; insertion runs on one thread */
	static struct {
		const char *stage;
		char name[FV_COLOR_MAX][32];
	} tab[8];
	int i = 0;
	while (i < 8 && tab[i].stage && strcmp(tab[i].stage, stage) != 0)
		i++;
	if (i == 8 || group < 0 || group >= FV_COLOR_MAX)
		return stage;
	tab[i].stage = stage;
	if (!tab[i].name[group][0])
		snprintf(tab[i].name[group], sizeof tab[i].name[group], "%s_color%d", stage, group);
	return tab[i].name[group];
}
