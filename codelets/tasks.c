/* SPDX-License-Identifier: MIT */
/* What the task insertion of every stage shares: the one submission
 * helper, and the model footprint and names of colour group tasks. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "codelets/common.h"

fv_err_t fv_task_submit(struct starpu_codelet *cl, const char *name, const fv_task_args_t *a, double flops,
			struct starpu_data_descr *d, int n)
{
	int ret = starpu_task_insert(cl, STARPU_DATA_MODE_ARRAY, d, n, STARPU_VALUE, a, sizeof *a,
				     STARPU_EXECUTE_ON_WORKER, a->worker, STARPU_NAME, name, STARPU_FLOPS, flops, 0);
	FV_CHECK(ret != -ENODEV, FV_ERR_RUNTIME, "task %s (block %d): no worker can run it", name, a->block);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "task %s (block %d): submission failed (%d)", name, a->block, ret);
	return FV_OK;
}

fv_err_t fv_group_check(const fv_task_args_t *a, const char *stage)
{
	FV_CHECK(a->group >= 0 && a->group < a->n_colors, FV_ERR_ARG, "task %s (block %d): colour group %d of %d",
		 stage, a->block, a->group, a->n_colors);
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
