/* SPDX-License-Identifier: MIT */
/* What the task insertion of every stage shares: the one submission
 * helper, and the model footprint and names of colour group tasks. */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "codelets/common.h"
#include "fvstar/runtime.h"

#ifdef FV_HAVE_MPI
#include <starpu_mpi.h>

/*
 * Several ranks: every rank runs the same submission loop, and a task goes
 * to StarPU-MPI on the ranks that own one of its buffers (the others would
 * do nothing with it: StarPU-MPI's advice, and it saves them the decoding
 * of every other rank's tasks). It runs on the rank owning the data it
 * writes, which receives the buffers of other ranks it reads (a halo
 * buffer: owned by the packing block's rank); the owners of those send
 * them. Every task of fvstar writes the data of one block (or one rank's
 * clock), so the writer's rank is one rank; a task that writes two ranks'
 * data is refused, naming both.
 */
static fv_err_t submit_mpi(struct starpu_codelet *cl, const char *name, int block, int worker, int priority,
			   double flops, struct starpu_data_descr *d, int n, void *arg, size_t arg_size, int blob,
			   int *done)
{
	int me = fv_runtime_rank(), mine = 0, any = 0, writer = -1;
	*done = 0;
	for (int i = 0; i < n; i++) {
		int owner = starpu_mpi_data_get_rank(d[i].handle);
		if (owner < 0)
			continue; /* not known to StarPU-MPI: this rank's alone */
		any = 1;
		mine |= owner == me;
		if (d[i].mode & (STARPU_W | STARPU_REDUX)) {
			FV_CHECK(writer < 0 || writer == owner, FV_ERR_RUNTIME,
				 "task %s (block %d): writes data of ranks %d and %d", name, block, writer, owner);
			writer = owner;
		}
	}
	if (!any)
		return FV_OK; /* plain StarPU */
	*done = 1;
	if (!mine)
		return FV_OK;
	if (writer == me || writer < 0)
		fv_runtime_task_submitted(name); /* it runs here */
	int ret = starpu_mpi_task_insert(MPI_COMM_WORLD, cl, STARPU_DATA_MODE_ARRAY, d, n, blob ? STARPU_CL_ARGS : STARPU_VALUE,
					 arg, arg_size, STARPU_EXECUTE_ON_WORKER, writer == me ? worker : -1, STARPU_NAME,
					 name, STARPU_FLOPS, flops, STARPU_PRIORITY, priority, 0);
	FV_CHECK(ret != -ENODEV, FV_ERR_RUNTIME, "task %s (block %d, rank %d): no worker can run it", name, block, me);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "task %s (block %d, rank %d): submission failed (%d)", name, block, me, ret);
	return FV_OK;
}
#endif

#ifdef FV_SIMGRID
/* fvstar-sim's CUDA functions (codelets/common.h): never called */
void fv_sim_cuda(void *buffers[], void *cl_arg)
{
	(void)buffers;
	(void)cl_arg;
}
#endif

int fv_task_data_mine(void *handle)
{
#ifdef FV_HAVE_MPI
	if (fv_runtime_nranks() > 1) {
		int owner = starpu_mpi_data_get_rank((starpu_data_handle_t)handle);
		return owner < 0 || owner == fv_runtime_rank();
	}
#endif
	(void)handle;
	return 1;
}

/* The codelet a task goes to StarPU with: its own, or during a
 * calibration's warm-up (fv_runtime_models_from) a copy without a model,
 * so that StarPU records none of the warm-up's cold tasks and no model-based
 * scheduler forces a calibration for them (copies made on the one
 * submitting thread, kept for the process) */
static struct starpu_codelet *model_cl(struct starpu_codelet *cl)
{
	static struct {
		struct starpu_codelet *cl, bare;
	} tab[128];
	static int n;
	if (!cl->model || fv_runtime_models_record())
		return cl;
	for (int i = 0; i < n; i++)
		if (tab[i].cl == cl)
			return &tab[i].bare;
	if (n == (int)(sizeof tab / sizeof *tab))
		return cl; /* never: fewer codelets than that */
	tab[n].cl = cl;
	tab[n].bare = *cl;
	tab[n].bare.model = NULL;
	return &tab[n++].bare;
}

/* One task to StarPU (or StarPU-MPI): arg is the task's fv_task_args_t
 * (blob 0), or arguments packed by starpu_codelet_pack_args that StarPU
 * frees with the task (blob 1). */
static fv_err_t submit(struct starpu_codelet *cl, const char *name, int block, int worker, int priority,
		       double flops, struct starpu_data_descr *d, int n, void *arg, size_t arg_size, int blob)
{
	cl = model_cl(cl);
#ifdef FV_HAVE_MPI
	if (fv_runtime_nranks() > 1) {
		int done;
		fv_err_t err = submit_mpi(cl, name, block, worker, priority, flops, d, n, arg, arg_size, blob, &done);
		if (err != FV_OK || done) {
			if (blob && (err != FV_OK || !done))
				free(arg);
			return err;
		}
	}
#endif
	/* `fvstar sim`'s counts per stage: the tasks this rank runs */
	fv_runtime_task_submitted(name);
	(void)priority;
	int ret = starpu_task_insert(cl, STARPU_DATA_MODE_ARRAY, d, n, blob ? STARPU_CL_ARGS : STARPU_VALUE, arg,
				     arg_size, STARPU_EXECUTE_ON_WORKER, worker, STARPU_NAME, name, STARPU_FLOPS, flops, 0);
	FV_CHECK(ret != -ENODEV, FV_ERR_RUNTIME, "task %s (block %d): no worker can run it", name, block);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "task %s (block %d): submission failed (%d)", name, block, ret);
	return FV_OK;
}

fv_err_t fv_task_submit_blob(struct starpu_codelet *cl, const char *name, int block, int worker, int priority,
			     double flops, struct starpu_data_descr *d, int n, void *blob, size_t size)
{
	return submit(cl, name, block, worker, priority, flops, d, n, blob, size, 1);
}

static fv_err_t submit_placed(struct starpu_codelet *cl, const char *name, const fv_task_args_t *a, double flops,
			      struct starpu_data_descr *d, int n, fv_chain_place_t place)
{
	int taken;
	FV_CALL(fv_chain_add(cl, name, a, flops, d, n, place, &taken));
	if (taken)
		return FV_OK;
	return submit(cl, name, a->block, a->worker, a->priority, flops, d, n, (void *)a, sizeof *a, 0);
}

fv_err_t fv_task_submit(struct starpu_codelet *cl, const char *name, const fv_task_args_t *a, double flops,
			struct starpu_data_descr *d, int n)
{
	return submit_placed(cl, name, a, flops, d, n, FV_CHAIN_ANYWHERE);
}

fv_err_t fv_task_submit_halo(struct starpu_codelet *cl, const char *name, const fv_task_args_t *a,
			     struct starpu_data_descr *d, int n, fv_chain_place_t place)
{
	return submit_placed(cl, name, a, 0.0, d, n, place);
}

fv_err_t fv_task_submit_alone(struct starpu_codelet *cl, const char *name, const fv_task_args_t *a, double flops,
			      struct starpu_data_descr *d, int n)
{
	FV_CALL(fv_insert_chain_flush());
	return submit(cl, name, a->block, a->worker, a->priority, flops, d, n, (void *)a, sizeof *a, 0);
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
