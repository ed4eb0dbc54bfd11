/* SPDX-License-Identifier: MIT */
/* Task chains (numerics.chain): the consecutive tasks of one block that
 * run on one kind of worker, gathered into one StarPU task whose function
 * runs theirs in order on the same worker (the same CUDA stream). */
#include <stdlib.h>
#include <string.h>

#include "codelets/common.h"
#include "fvstar/numerics.h"
#include "fvstar/runtime.h"

/*
 * Why: a CUDA worker leaves 10-17 us between two dependent tasks (the
 * task's end seen, its successors released, the next one's buffers
 * checked and its kernels launched), about 20 tasks a Runge-Kutta stage:
 * on two H200s the GPUs idled 29-33 % of a 1.3M-cell iteration, 60 % of it
 * in those gaps (bench/results/2026-11-26-halo-wait.md). A chain pays one
 * gap for the tasks of a block between two halo exchanges (one GPU, one
 * block: the whole Runge-Kutta stage).
 *
 * How: the solver opens a window around an iteration's submission
 * (fv_insert_chain_open). Inside it, a task of block b goes into b's open
 * chain instead of StarPU when it can (chainable()); the chain's buffers
 * are the union of its tasks' (a buffer first written is W, first read
 * and later written RW), its function calls each task's CPU or CUDA
 * function on that task's buffers, in submission order. Every result is
 * bit for bit that of the separate tasks: the same functions, in the same
 * order, on the same stream. Order against everything else holds because
 *   - two open chains never touch one buffer where either writes it (a
 *     task that would make them do so submits the other chain first);
 *   - a task that cannot join (a reduction, another rank's data, an
 *     interior or border task of numerics.overlap) submits every open
 *     chain first;
 *   - a halo's pack ends its block's chain (the chain goes to StarPU with
 *     the block's next task that is not a pack, so the buffers travel as
 *     soon as it ends; the packs of two halos one after the other,
 *     numerics.halo_late, share it) and its unpack starts one (the work
 *     before it does not wait for the buffers; unpacks one after the
 *     other share it);
 *   - the solver closes the window (every chain submitted) before anything
 *     waits for the tasks, and flushes at each Runge-Kutta stage, so that
 *     the trace marks of a stage name its tasks.
 */

#define CHAIN_TASKS 128  /* tasks of one chain at most (then a new chain) */
#define CHAIN_BUFS 64    /* distinct buffers of one chain at most */
#define CHAIN_OPEN 32    /* chains open at once at most (blocks of this rank) */
#define CHAIN_NAME 96

typedef void (*chain_func_t)(void *buffers[], void *cl_arg);

/* One task of a chain as its function runs it: which of the chain's
 * buffers are its buffers, and its packed arguments. */
typedef struct chain_sub {
	chain_func_t cpu, cuda;
	const char *cl_name; /* the codelet's (its history model's key) */
	int n;
	unsigned char idx[STARPU_NMAXBUFS];
	size_t arg_off, arg_size;
	/* the task as it would go alone (fvstar-sim: a chain never
	 * calibrated goes as its tasks) */
	struct starpu_codelet *cl;
	const char *name;
	unsigned char mode[STARPU_NMAXBUFS];
	double flops;
} chain_sub_t;

/* The chain task's argument: a header, the subs, then their arguments. */
typedef struct chain_blob {
	int n;
	chain_sub_t sub[];
} chain_blob_t;

typedef struct chain {
	int block, worker, priority, n_tasks, n_bufs;
	int unpacks_only; /* every task so far a halo's unpack */
	int ended;        /* its last task a halo's pack: only another pack joins it */
	double flops;
	struct starpu_data_descr buf[CHAIN_BUFS];
	chain_sub_t sub[CHAIN_TASKS];
	char *args;
	size_t args_len, args_cap;
	char name[CHAIN_NAME];
	/* a chain of one task goes to StarPU as that task, under its own
	 * codelet, name and history model */
	const char *first_name;
	struct starpu_codelet *first_cl;
	struct starpu_data_descr first_d[STARPU_NMAXBUFS];
} chain_t;

static struct {
	int mode; /* fv_chain_t of the open window; FV_CHAIN_NO: closed */
	int n;
	chain_t *c[CHAIN_OPEN];
} win;

static void chain_run(void *buffers[], void *cl_arg, int cuda)
{
	const chain_blob_t *c = cl_arg;
	const char *args = (const char *)(c->sub + c->n);
	for (int t = 0; t < c->n; t++) {
		const chain_sub_t *s = &c->sub[t];
		void *b[STARPU_NMAXBUFS];
		for (int i = 0; i < s->n; i++)
			b[i] = buffers[s->idx[i]];
		(cuda ? s->cuda : s->cpu)(b, (void *)(args + s->arg_off));
	}
}

static void chain_cpu(void *buffers[], void *cl_arg)
{
	chain_run(buffers, cl_arg, 0);
}

#ifdef FV_HAVE_CUDA
static void chain_cuda(void *buffers[], void *cl_arg)
{
	chain_run(buffers, cl_arg, 1);
}
#endif

/* A chain's history model keys on what it runs: its tasks' codelets in
 * order and its buffers' sizes. */
static uint32_t chain_footprint(struct starpu_task *task)
{
	const chain_blob_t *c = task->cl_arg;
	uint32_t h = starpu_task_data_footprint(task);
	for (int t = 0; t < c->n; t++) {
		h = starpu_hash_crc32c_string(c->sub[t].cl_name, h);
	}
	return h;
}

static struct starpu_perfmodel chain_model = {
	.type = STARPU_HISTORY_BASED, .symbol = "fv_chain", .footprint = chain_footprint};
static struct starpu_codelet chain_cl =
	FV_CODELET(chain_cpu, (chain_cuda), chain_model, "fv_chain", STARPU_VARIABLE_NBUFFERS, 0);

/* A chain's name in traces: its tasks' names joined by '+' ("prim+nodes+
 * gradient"), kept for the run (StarPU keeps the pointer). */
static const char *chain_name(const chain_t *c)
{
	static char *names[256];
	static int n_names;
	int i = 0;
	if (c->n_tasks == 1)
		return c->first_name;
	while (i < n_names && strcmp(names[i], c->name) != 0)
		i++;
	if (i < n_names)
		return names[i];
	if (n_names == (int)(sizeof names / sizeof *names) || !(names[n_names] = strdup(c->name)))
		return "chain";
	return names[n_names++];
}

#ifdef FV_SIMGRID
/*
 * fvstar-sim: a chain lasts its history model's mean for its footprint
 * (its tasks' codelets and buffers), and a footprint no calibration
 * measured made StarPU abort the simulation ("Codelet fv_chain does not
 * have a perfmodel"): a graph that changed since the calibration, or a
 * chain that only later iterations than the calibration's have (a
 * snapshot's copy every 6 iterations joins its block's chain). Such a
 * chain goes as its tasks, one by one on the chain's worker, each lasting
 * its own model (fvstar sim calibrate records the tasks alone too, in a
 * pass with numerics.chain = no): the tasks of a chain run back to back
 * on one stream, so their models' sum is the chain's time, less the gaps
 * between tasks that the simulation does not add (STARPU_SIMGRID_CUDA_
 * QUEUE_COST = 0, runtime/sim.c).
 */

/* The footprints of fv_chain's calibrated entries, per combination of
 * devices (read once from the platform's model; a copy, not StarPU's) */
#define CHAIN_KNOWN 1024
static struct {
	int loaded, n;
	struct {
		int comb;
		uint32_t footprint;
	} e[CHAIN_KNOWN];
} calibrated;

/* Whether model symbol has an entry of at least one sample on the
 * combination comb (any footprint: fvstar-sim reads per-block models as
 * their fit over sizes); each model's file read once. */
static int model_has(const char *symbol, int comb)
{
	static struct {
		const char *symbol;
		int comb, found;
	} seen[64];
	static int n_seen;
	struct starpu_perfmodel m;
	int found = 0;
	for (int k = 0; k < n_seen; k++)
		if (seen[k].symbol == symbol && seen[k].comb == comb)
			return seen[k].found;
	memset(&m, 0, sizeof m);
	if (starpu_perfmodel_load_symbol(symbol, &m) == 0) {
		struct starpu_perfmodel_arch *arch = starpu_perfmodel_arch_comb_fetch(comb);
		struct starpu_perfmodel_per_arch *pa = arch ? starpu_perfmodel_get_model_per_arch(&m, arch, 0) : NULL;
		for (struct starpu_perfmodel_history_list *l = pa ? pa->list : NULL; l && !found; l = l->next)
			found = l->entry && l->entry->nsample > 0;
		starpu_perfmodel_unload_model(&m);
	} else if (!m.is_init)
		free((char *)m.symbol);
	if (n_seen < (int)(sizeof seen / sizeof *seen)) {
		seen[n_seen].symbol = symbol;
		seen[n_seen].comb = comb;
		seen[n_seen++].found = found;
	}
	return found;
}

static void load_calibrated(void)
{
	struct starpu_perfmodel m;
	calibrated.loaded = 1;
	memset(&m, 0, sizeof m);
	if (starpu_perfmodel_load_symbol("fv_chain", &m) != 0) {
		if (!m.is_init)
			free((char *)m.symbol);
		return;
	}
	for (int comb = 0; comb < starpu_perfmodel_get_narch_combs(); comb++) {
		struct starpu_perfmodel_arch *arch = starpu_perfmodel_arch_comb_fetch(comb);
		struct starpu_perfmodel_per_arch *pa = arch ? starpu_perfmodel_get_model_per_arch(&m, arch, 0) : NULL;
		for (struct starpu_perfmodel_history_list *l = pa ? pa->list : NULL; l; l = l->next) {
			if (!l->entry || l->entry->nsample == 0 || calibrated.n == CHAIN_KNOWN)
				continue;
			calibrated.e[calibrated.n].comb = comb;
			calibrated.e[calibrated.n++].footprint = l->entry->footprint;
		}
	}
	starpu_perfmodel_unload_model(&m);
}

static uint32_t chain_footprint(struct starpu_task *task);
static struct starpu_codelet chain_cl;

/* Whether chain c (its task's argument blob) was calibrated on its
 * worker's kind of device; a chain the scheduler places (no worker) is
 * left to StarPU's model. */
static int chain_calibrated(const chain_t *c, chain_blob_t *blob, int *comb)
{
	struct starpu_task t;
	starpu_data_handle_t h[CHAIN_BUFS];
	if (c->worker < 0)
		return 1;
	if (!calibrated.loaded)
		load_calibrated();
	starpu_task_init(&t);
	t.cl = &chain_cl;
	t.cl_arg = blob;
	t.nbuffers = c->n_bufs;
	t.dyn_handles = h;
	for (int i = 0; i < c->n_bufs; i++)
		h[i] = c->buf[i].handle;
	uint32_t fp = chain_footprint(&t);
	t.dyn_handles = NULL;
	struct starpu_perfmodel_arch *arch = starpu_worker_get_perf_archtype(c->worker, STARPU_NMAX_SCHED_CTXS);
	*comb = arch ? starpu_perfmodel_arch_comb_get(arch->ndevices, arch->devices) : -1;
	for (int i = 0; i < calibrated.n; i++)
		if (calibrated.e[i].comb == *comb && calibrated.e[i].footprint == fp)
			return 1;
	return 0;
}

/* Chain c's tasks to StarPU one by one, as without chains. */
static fv_err_t submit_apart(const chain_t *c, int comb)
{
	static char said[16][CHAIN_NAME];
	static int n_said;
	int known = 0;
	for (int k = 0; k < n_said && !known; k++)
		known = strcmp(said[k], c->name) == 0;
	if (!known && n_said < 16) {
		snprintf(said[n_said++], CHAIN_NAME, "%s", c->name);
		fprintf(stderr, "fvstar-sim: task chain %s (block %d) was never calibrated (fv_chain has no entry for "
				"it: a calibration of fewer iterations or of another graph): its %d tasks are simulated "
				"one by one, each from its own model\n",
			c->name, c->block, c->n_tasks);
	}
	for (int t = 0; t < c->n_tasks; t++) {
		const chain_sub_t *s = &c->sub[t];
		struct starpu_data_descr d[STARPU_NMAXBUFS];
		const char *sym = s->cl->model ? s->cl->model->symbol : NULL, *dir = getenv("STARPU_PERF_MODEL_DIR");
		FV_CHECK(!sym || comb < 0 || model_has(sym, comb), FV_ERR_RUNTIME,
			 "task chain %s (block %d) was never calibrated, nor was its task %s alone (model "
			 "%s has no entry for that device in %s): calibrate again (fvstar sim calibrate records a "
			 "chain's tasks alone too), or calibrate and simulate with numerics.chain = no",
			 c->name, c->block, s->name, sym, dir ? dir : "~/.starpu");
		for (int i = 0; i < s->n; i++) {
			d[i].handle = c->buf[s->idx[i]].handle;
			d[i].mode = (enum starpu_data_access_mode)s->mode[i];
		}
		char *arg = malloc(s->arg_size ? s->arg_size : 1);
		FV_CHECK(arg, FV_ERR_MEM, "task %s (block %d): out of memory for its arguments", s->name, c->block);
		memcpy(arg, c->args + s->arg_off, s->arg_size);
		FV_CALL(fv_task_submit_blob(s->cl, s->name, c->block, c->worker, c->priority, s->flops, d, s->n, arg,
					    s->arg_size));
	}
	return FV_OK;
}
#endif

/* Submits chain k and drops it from the window. */
static fv_err_t submit_chain(int k)
{
	chain_t *c = win.c[k];
	fv_err_t err = FV_OK;
	win.c[k] = win.c[--win.n];
	if (c->n_tasks > 0) {
		size_t head = sizeof(chain_blob_t) + (size_t)c->n_tasks * sizeof(chain_sub_t);
		chain_blob_t *blob = c->n_tasks == 1 ? NULL : malloc(head + c->args_len);
		if (c->n_tasks == 1) {
			/* the task alone, its packed arguments handed over */
			err = fv_task_submit_blob(c->first_cl, c->first_name, c->block, c->worker, c->priority, c->flops,
						  c->first_d, c->sub[0].n, c->args, c->args_len);
			c->args = NULL;
		} else if (!blob)
			err = FV_ERROR(FV_ERR_MEM, "task chain of block %d (%s): out of memory", c->block, c->name);
		else {
			blob->n = c->n_tasks;
			memcpy(blob->sub, c->sub, (size_t)c->n_tasks * sizeof(chain_sub_t));
			memcpy((char *)blob + head, c->args, c->args_len);
#ifdef FV_SIMGRID
			int comb;
			if (!chain_calibrated(c, blob, &comb)) {
				free(blob);
				err = submit_apart(c, comb);
			} else
#endif
				/* StarPU frees the blob with the task */
				err = fv_task_submit_blob(&chain_cl, chain_name(c), c->block, c->worker, c->priority,
							  c->flops, c->buf, c->n_bufs, blob, head + c->args_len);
		}
	}
	free(c->args);
	free(c);
	return err;
}

fv_err_t fv_insert_chain_flush(void)
{
	fv_err_t err = FV_OK;
	while (win.n > 0) {
		fv_err_t e = submit_chain(0);
		if (err == FV_OK)
			err = e;
	}
	return err;
}

void fv_insert_chain_open(int mode)
{
	win.mode = mode;
}

fv_err_t fv_insert_chain_close(void)
{
	win.mode = FV_CHAIN_NO;
	return fv_insert_chain_flush();
}

/* Whether a task of codelet cl on a->worker may join a chain: a window
 * open for its kind of worker, one function per kind (what the chain
 * calls), a fixed buffer count, plain reads and writes of this rank's
 * data. */
static int chainable(const struct starpu_codelet *cl, const fv_task_args_t *a, const struct starpu_data_descr *d,
		     int n, fv_chain_place_t place)
{
	/* (the interior and border tasks of numerics.overlap stay apart: the
	 * split lets a border task and its halo's send run before the rest of
	 * the interior; a chain of interior tasks held them back, 6 % slower
	 * on 2 ranks of an H200 each) */
	/* (a codelet of variable buffers joins only as a halo task, whose
	 * functions count their buffers from the block's neighbours) */
	if (win.mode == FV_CHAIN_NO || a->block < 0 || a->part != FV_SPLIT_WHOLE ||
	    (cl->nbuffers == STARPU_VARIABLE_NBUFFERS && place == FV_CHAIN_ANYWHERE) || n > STARPU_NMAXBUFS ||
	    !cl->cpu_funcs[0] || cl->cpu_funcs[1])
		return 0;
#ifdef FV_HAVE_CUDA
	if (!cl->cuda_funcs[0] || cl->cuda_funcs[1])
		return 0;
#endif
	/* auto: blocks on GPUs. Under StarPU-MPI the chains first cost more
	 * than they saved (halo tasks apart: 2 ranks on a GPU each, 2.53M-cell
	 * box, 3.84 against 3.68 ms on 2 H100s); with the halo tasks in them
	 * they gain there too: 3.114 against 3.173 ms, and 9.272 against
	 * 9.429 ms at 10.37M cells, on 2 H200s (session 13) */
	if (win.mode == FV_CHAIN_AUTO && !fv_runtime_worker_gpu_only(a->worker))
		return 0;
	for (int i = 0; i < n; i++) {
		int m = (int)d[i].mode;
		if (m != STARPU_R && m != STARPU_W && m != STARPU_RW)
			return 0;
		if (!fv_task_data_mine(d[i].handle))
			return 0;
	}
	return 1;
}

/* Index of handle h among chain c's buffers, or -1. */
static int find_buf(const chain_t *c, starpu_data_handle_t h)
{
	for (int i = 0; i < c->n_bufs; i++)
		if (c->buf[i].handle == h)
			return i;
	return -1;
}

/* Whether the task's buffers d and chain c touch one buffer where either
 * writes it. */
static int conflicts(const chain_t *c, const struct starpu_data_descr *d, int n)
{
	for (int i = 0; i < n; i++) {
		int j = find_buf(c, d[i].handle);
		if (j >= 0 && ((d[i].mode & STARPU_W) || (c->buf[j].mode & STARPU_W)))
			return 1;
	}
	return 0;
}

/* Block b's open chain, a new one if it has none (NULL without memory). */
static chain_t *block_chain(int b, int worker)
{
	for (int k = 0; k < win.n; k++)
		if (win.c[k]->block == b)
			return win.c[k];
	if (win.n == CHAIN_OPEN && submit_chain(0) != FV_OK)
		return NULL;
	chain_t *c = calloc(1, sizeof *c);
	if (c) {
		c->block = b;
		c->worker = worker;
		win.c[win.n++] = c;
	}
	return c;
}

/* Whether task (codelet cl, name, buffers d) fits in chain c as it is. */
static int fits(const chain_t *c, const struct starpu_data_descr *d, int n)
{
	int extra = 0;
	if (c->n_tasks == CHAIN_TASKS)
		return 0;
	for (int i = 0; i < n; i++)
		extra += find_buf(c, d[i].handle) < 0;
	return c->n_bufs + extra <= CHAIN_BUFS;
}

/* Submits block b's open chain, if it has one (keep_unpacks: not if it
 * holds only unpacks, which the next unpack joins: the gradients' and the
 * limiters' halos are received one after the other). */
static fv_err_t submit_block_chain(int b, int keep_unpacks)
{
	for (int k = 0; k < win.n; k++)
		if (win.c[k]->block == b)
			return keep_unpacks && win.c[k]->unpacks_only ? FV_OK : submit_chain(k);
	return FV_OK;
}

/* Submits block b's open chain if a pack ended it. */
static fv_err_t submit_ended_chain(int b)
{
	for (int k = 0; k < win.n; k++)
		if (win.c[k]->block == b)
			return win.c[k]->ended ? submit_chain(k) : FV_OK;
	return FV_OK;
}

fv_err_t fv_chain_add(struct starpu_codelet *cl, const char *name, const fv_task_args_t *a, double flops,
		      struct starpu_data_descr *d, int n, fv_chain_place_t place, int *taken)
{
	*taken = 0;
	if (!chainable(cl, a, d, n, place))
		return win.n ? fv_insert_chain_flush() : FV_OK;
	if (place == FV_CHAIN_STARTS)
		FV_CALL(submit_block_chain(a->block, 1));
	else if (place != FV_CHAIN_ENDS)
		FV_CALL(submit_ended_chain(a->block));
	/* other blocks' chains that share a written buffer with the task go
	 * first; so does this block's if the task runs elsewhere */
	for (int k = 0; k < win.n;)
		if ((win.c[k]->block != a->block && conflicts(win.c[k], d, n)) ||
		    (win.c[k]->block == a->block && win.c[k]->worker != a->worker))
			FV_CALL(submit_chain(k));
		else
			k++;
	chain_t *c = block_chain(a->block, a->worker);
	FV_CHECK(c, FV_ERR_MEM, "task chain of block %d: out of memory", a->block);
	if (!fits(c, d, n)) {
		for (int k = 0; k < win.n; k++)
			if (win.c[k] == c)
				FV_CALL(submit_chain(k));
		c = block_chain(a->block, a->worker);
		FV_CHECK(c, FV_ERR_MEM, "task chain of block %d: out of memory", a->block);
	}
	void *packed = NULL;
	size_t size = 0;
	starpu_codelet_pack_args(&packed, &size, STARPU_VALUE, a, sizeof *a, 0);
	FV_CHECK(packed, FV_ERR_MEM, "task %s (block %d): out of memory for its arguments", name, a->block);
	if (c->args_len + size > c->args_cap) {
		size_t cap = 2 * (c->args_len + size);
		char *p = realloc(c->args, cap);
		if (!p) {
			free(packed);
			return FV_ERROR(FV_ERR_MEM, "task chain of block %d: out of memory", a->block);
		}
		c->args = p;
		c->args_cap = cap;
	}
	chain_sub_t *s = &c->sub[c->n_tasks];
	s->cpu = cl->cpu_funcs[0];
	s->cl_name = cl->name ? cl->name : "";
#ifdef FV_HAVE_CUDA
	s->cuda = cl->cuda_funcs[0];
#else
	s->cuda = NULL;
#endif
	s->n = n;
	s->arg_off = c->args_len;
	s->arg_size = size;
	s->cl = cl;
	s->name = name;
	s->flops = flops;
	for (int i = 0; i < n; i++)
		s->mode[i] = (unsigned char)d[i].mode;
	memcpy(c->args + c->args_len, packed, size);
	c->args_len += size;
	free(packed);
	for (int i = 0; i < n; i++) {
		int j = find_buf(c, d[i].handle);
		if (j < 0) {
			j = c->n_bufs++;
			c->buf[j] = d[i]; /* first access: R, W or RW as the task's */
		} else if (c->buf[j].mode == STARPU_R && (d[i].mode & STARPU_W))
			c->buf[j].mode = STARPU_RW; /* read, then written */
		s->idx[i] = (unsigned char)j;
	}
	c->flops += flops;
	c->priority = c->n_tasks == 0 || a->priority > c->priority ? a->priority : c->priority;
	c->unpacks_only = (c->n_tasks == 0 || c->unpacks_only) && place == FV_CHAIN_STARTS;
	if (c->n_tasks == 0) {
		c->first_name = name;
		c->first_cl = cl;
		memcpy(c->first_d, d, (size_t)n * sizeof *d);
		snprintf(c->name, sizeof c->name, "%s", name);
	} else if (strlen(c->name) + strlen(name) + 2 < sizeof c->name)
		strcat(strcat(c->name, "+"), name);
	c->n_tasks++;
	c->ended = place == FV_CHAIN_ENDS;
	*taken = 1;
	return FV_OK;
}
