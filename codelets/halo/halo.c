/* SPDX-License-Identifier: MIT */
/* Halo exchange tasks: pack a block's owned values for one neighbour into
 * that pair's buffer, unpack a buffer into the neighbour's ghost range;
 * or (numerics.halo_tasks = block) one task per block for all of its
 * neighbours, a buffer each.
 *
 *   block b: [ owned ........ | ghosts from n0 | ghosts from n1 ]
 *                 |  send_cell(b->n1)                ^
 *                 v                                  |
 *              buf(b->n1) --(StarPU moves it)--> unpack in n1
 */
#include "codelets/common.h"

FV_MODEL(pack_model, "fv_pack");
FV_MODEL(unpack_model, "fv_unpack");
FV_MODEL(pack_all_model, "fv_pack_all");
FV_MODEL(unpack_all_model, "fv_unpack_all");
FV_MODEL(fetch_model, "fv_fetch");
static struct starpu_codelet pack_cl =
	FV_CODELET(fv_pack_cpu, (fv_pack_cuda), pack_model, "fv_pack", 3, STARPU_R, STARPU_R, STARPU_W);
static struct starpu_codelet unpack_cl =
	FV_CODELET(fv_unpack_cpu, (fv_unpack_cuda), unpack_model, "fv_unpack", 3, STARPU_R, STARPU_R, STARPU_RW);
/* geo, the field, then one buffer per neighbour (modes per task) */
static struct starpu_codelet pack_all_cl =
	FV_CODELET(fv_pack_all_cpu, (fv_pack_all_cuda), pack_all_model, "fv_pack_all", STARPU_VARIABLE_NBUFFERS, 0);
static struct starpu_codelet unpack_all_cl = FV_CODELET(fv_unpack_all_cpu, (fv_unpack_all_cuda), unpack_all_model,
							"fv_unpack_all", STARPU_VARIABLE_NBUFFERS, 0);
/* the buffers, read */
static struct starpu_codelet fetch_cl =
	FV_CODELET(fv_fetch_cpu, (fv_fetch_cuda), fetch_model, "fv_fetch", STARPU_VARIABLE_NBUFFERS, 0);

/*
 * The same tasks on buffers that cross ranks (a->host_buf, numerics.
 * halo_zero_copy): the buffers stay in host memory, where StarPU-MPI sends
 * and receives them, and a GPU's kernel writes or reads them there
 * (pinned memory is mapped into the GPU's address space). Without it
 * StarPU copies each buffer to the host after the pack and to the GPU
 * before the unpack: two more requests on the critical path of every
 * message. Their own history models (a GPU's kernel on host memory runs
 * at the bus's speed); never in a task chain (the chain's codelet puts
 * every buffer on the worker's node).
 */
FV_MODEL(pack_host_model, "fv_pack_host");
FV_MODEL(unpack_host_model, "fv_unpack_host");
FV_MODEL(pack_all_host_model, "fv_pack_all_host");
FV_MODEL(unpack_all_host_model, "fv_unpack_all_host");
static struct starpu_codelet pack_host_cl =
	FV_CODELET(fv_pack_cpu, (fv_pack_host_cuda), pack_host_model, "fv_pack_host", 3, STARPU_R, STARPU_R, STARPU_W);
static struct starpu_codelet unpack_host_cl = FV_CODELET(fv_unpack_cpu, (fv_unpack_host_cuda), unpack_host_model,
							 "fv_unpack_host", 3, STARPU_R, STARPU_R, STARPU_RW);
static struct starpu_codelet pack_all_host_cl = FV_CODELET(fv_pack_all_cpu, (fv_pack_all_host_cuda),
							   pack_all_host_model, "fv_pack_all_host",
							   STARPU_VARIABLE_NBUFFERS, 0);
static struct starpu_codelet unpack_all_host_cl = FV_CODELET(fv_unpack_all_cpu, (fv_unpack_all_host_cuda),
							     unpack_all_host_model, "fv_unpack_all_host",
							     STARPU_VARIABLE_NBUFFERS, 0);

/*
 * numerics.halo_peer: the pack kernel writes the receiving rank's GPU
 * memory (a CUDA IPC mapping, a->peer) and StarPU-MPI carries only the
 * tokens: the pack's (written, to the receiver: the data are there) and
 * the unpack's ack (to the sender: the buffer may be written again). The
 * tokens stay in host memory, where StarPU-MPI sends and receives them;
 * the unpack's buffer is on its own GPU (its home). Between CPU blocks
 * (halo_peer = yes) the same tasks on memory both ranks map.
 */
FV_MODEL(pack_peer_model, "fv_pack_peer");
FV_MODEL(unpack_peer_model, "fv_unpack_peer");
static struct starpu_codelet pack_peer_cl = {.cpu_funcs = {fv_pack_peer_cpu},
					     .cpu_funcs_name = {"fv_pack_peer_cpu"},
					     FV_CODELET_CUDA((fv_pack_peer_cuda)).nbuffers = 4,
					     .modes = {STARPU_R, STARPU_R, STARPU_W, STARPU_R},
					     .specific_nodes = 1,
					     .nodes = {STARPU_SPECIFIC_NODE_LOCAL, STARPU_SPECIFIC_NODE_LOCAL,
						       STARPU_SPECIFIC_NODE_CPU, STARPU_SPECIFIC_NODE_CPU},
					     .model = &pack_peer_model,
					     .name = "fv_pack_peer"};
/* geo, the buffer, the field (fv_unpack_*'s three), the token, the ack */
static struct starpu_codelet unpack_peer_cl = {.cpu_funcs = {fv_unpack_cpu},
					       .cpu_funcs_name = {"fv_unpack_cpu"},
					       FV_CODELET_CUDA((fv_unpack_cuda)).nbuffers = 5,
					       .modes = {STARPU_R, STARPU_R, STARPU_RW, STARPU_R, STARPU_W},
					       .specific_nodes = 1,
					       .nodes = {STARPU_SPECIFIC_NODE_LOCAL, STARPU_SPECIFIC_NODE_LOCAL,
							 STARPU_SPECIFIC_NODE_LOCAL, STARPU_SPECIFIC_NODE_CPU,
							 STARPU_SPECIFIC_NODE_CPU},
					       .model = &unpack_peer_model,
					       .name = "fv_unpack_peer"};

fv_err_t fv_insert_pack_peer(fv_handle_t geo, fv_handle_t field, fv_handle_t token, fv_handle_t ack,
			     const fv_task_args_t *a)
{
	fv_task_args_t b = *a;
	b.priority = STARPU_MAX_PRIO;
	return fv_task_submit_alone(&pack_peer_cl, "pack", &b, 0.0,
				    (struct starpu_data_descr[]){FV_BUF(geo, STARPU_R), FV_BUF(field, STARPU_R),
								 FV_BUF(token, STARPU_W), FV_BUF(ack, STARPU_R)},
				    4);
}

fv_err_t fv_insert_unpack_peer(fv_handle_t geo, fv_handle_t dev, fv_handle_t field, fv_handle_t token,
			       fv_handle_t ack, const fv_task_args_t *a)
{
	return fv_task_submit_alone(&unpack_peer_cl, "unpack", a, 0.0,
				    (struct starpu_data_descr[]){FV_BUF(geo, STARPU_R), FV_BUF(dev, STARPU_R),
								 FV_BUF(field, STARPU_RW), FV_BUF(token, STARPU_R),
								 FV_BUF(ack, STARPU_W)},
				    5);
}

/* Where each buffer of the host codelets lives: the geometry and the field
 * on the worker's node, the halo buffers in host memory. */
static void host_codelets_init(void)
{
	static int done;
	if (done)
		return;
	struct starpu_codelet *all[] = {&pack_host_cl, &unpack_host_cl, &pack_all_host_cl, &unpack_all_host_cl};
	for (int c = 0; c < 4; c++) {
		all[c]->specific_nodes = 1;
		for (int i = 0; i < STARPU_NMAXBUFS; i++)
			all[c]->nodes[i] = i < 2 ? STARPU_SPECIFIC_NODE_LOCAL : STARPU_SPECIFIC_NODE_CPU;
	}
	/* the pair unpack: geo, the buffer, the field */
	unpack_host_cl.nodes[1] = STARPU_SPECIFIC_NODE_CPU;
	unpack_host_cl.nodes[2] = STARPU_SPECIFIC_NODE_LOCAL;
	done = 1;
}

int fv_halo_host_max_buffers(void)
{
	return STARPU_NMAXBUFS - 2;
}

/* Copies only: no floating-point operation. */
fv_err_t fv_insert_pack(fv_handle_t geo, fv_handle_t field, fv_handle_t buf, const fv_task_args_t *a)
{
	/* several ranks: a buffer that goes to another rank is packed first
	 * (the send StarPU-MPI posts has the task's priority too) */
	fv_task_args_t b = *a;
	b.priority = STARPU_MAX_PRIO;
	if (a->host_buf) {
		host_codelets_init();
		return fv_task_submit_alone(&pack_host_cl, "pack", &b, 0.0,
					    (struct starpu_data_descr[]){FV_BUF(geo, STARPU_R), FV_BUF(field, STARPU_R),
									 FV_BUF(buf, STARPU_W)},
					    3);
	}
	return FV_SUBMIT_HALO(&pack_cl, "pack", &b, FV_CHAIN_ENDS, FV_BUF(geo, STARPU_R), FV_BUF(field, STARPU_R),
			      FV_BUF(buf, STARPU_W));
}

fv_err_t fv_insert_unpack(fv_handle_t geo, fv_handle_t buf, fv_handle_t field, const fv_task_args_t *a)
{
	if (a->host_buf) {
		host_codelets_init();
		return fv_task_submit_alone(&unpack_host_cl, "unpack", a, 0.0,
					    (struct starpu_data_descr[]){FV_BUF(geo, STARPU_R), FV_BUF(buf, STARPU_R),
									 FV_BUF(field, STARPU_RW)},
					    3);
	}
	return FV_SUBMIT_HALO(&unpack_cl, "unpack", a, FV_CHAIN_STARTS, FV_BUF(geo, STARPU_R), FV_BUF(buf, STARPU_R),
			      FV_BUF(field, STARPU_RW));
}

/* geo and field (mode), then the n buffers (mode), as one task's buffers. */
static fv_err_t submit_all(struct starpu_codelet *cl, const char *name, fv_handle_t geo, fv_handle_t field,
			   enum starpu_data_access_mode field_mode, const fv_handle_t *bufs, int n,
			   enum starpu_data_access_mode buf_mode, const fv_task_args_t *a, fv_chain_place_t place)
{
	struct starpu_data_descr *d = NULL;
	fv_err_t err;
	FV_CALL(fv_malloc(&d, (size_t)n + 2, sizeof *d, "halo task buffers"));
	d[0] = (struct starpu_data_descr){FV_SP(geo), STARPU_R};
	d[1] = (struct starpu_data_descr){FV_SP(field), field_mode};
	for (int k = 0; k < n; k++)
		d[2 + k] = (struct starpu_data_descr){FV_SP(bufs[k]), buf_mode};
	err = a->host_buf ? fv_task_submit_alone(cl, name, a, 0.0, d, n + 2)
			  : fv_task_submit_halo(cl, name, a, d, n + 2, place);
	free(d);
	return err;
}

fv_err_t fv_insert_pack_all(fv_handle_t geo, fv_handle_t field, const fv_handle_t *bufs, int n,
			    const fv_task_args_t *a)
{
	fv_task_args_t b = *a;
	b.priority = STARPU_MAX_PRIO;
	FV_CHECK(!a->host_buf || n <= fv_halo_host_max_buffers(), FV_ERR_ARG,
		 "pack task of block %d: %d host buffers, at most %d in one task", a->block, n,
		 fv_halo_host_max_buffers());
	if (a->host_buf)
		host_codelets_init();
	return submit_all(a->host_buf ? &pack_all_host_cl : &pack_all_cl, "pack", geo, field, STARPU_R, bufs, n,
			  STARPU_W, &b, FV_CHAIN_ENDS);
}

fv_err_t fv_insert_unpack_all(fv_handle_t geo, const fv_handle_t *bufs, int n, fv_handle_t field,
			      const fv_task_args_t *a)
{
	FV_CHECK(!a->host_buf || n <= fv_halo_host_max_buffers(), FV_ERR_ARG,
		 "unpack task of block %d: %d host buffers, at most %d in one task", a->block, n,
		 fv_halo_host_max_buffers());
	if (a->host_buf)
		host_codelets_init();
	return submit_all(a->host_buf ? &unpack_all_host_cl : &unpack_all_cl, "unpack", geo, field, STARPU_RW, bufs,
			  n, STARPU_R, a, FV_CHAIN_STARTS);
}

/* No computation: the task's inputs are what it is for. A task pinned to
 * a worker is pushed to it, and its inputs prefetched to its memory, as
 * soon as its dependencies are done; the unpack that follows the tasks
 * between a halo's halves waits for them as well, so its own prefetch
 * would start the copy only after them. */
fv_err_t fv_insert_fetch(const fv_handle_t *bufs, int n, const fv_task_args_t *a)
{
	struct starpu_data_descr *d = NULL;
	fv_err_t err;
	FV_CHECK(a->worker >= 0, FV_ERR_ARG, "fetch task of block %d: the block runs on no given worker", a->block);
	FV_CALL(fv_malloc(&d, (size_t)n, sizeof *d, "fetch task buffers"));
	for (int k = 0; k < n; k++)
		d[k] = (struct starpu_data_descr){FV_SP(bufs[k]), STARPU_R};
	err = fv_task_submit_alone(&fetch_cl, "fetch", a, 0.0, d, n);
	free(d);
	return err;
}
