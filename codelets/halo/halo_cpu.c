/* SPDX-License-Identifier: MIT */
/* CPU pack and unpack of halo buffers (buffer layout: buf[v * count + k]). */
#include "codelets/common.h"

/* The first n cells of the neighbour's run (n from the buffer's size: the
 * whole run, or the cells sharing a face in the halos read across faces). */
static void pack(const fv_view_t *v, int nbr, int nvars, const fv_real_t *field, fv_real_t *buf, size_t n)
{
	fv_idx_t b = v->send_off[nbr];
	for (int q = 0; q < nvars; q++)
		for (size_t k = 0; k < n; k++)
			buf[(size_t)q * n + k] = field[(size_t)q * v->sc + v->send_cell[b + (fv_idx_t)k]];
}

static void unpack(const fv_view_t *v, int nbr, int nvars, const fv_real_t *buf, fv_real_t *field, size_t n)
{
	size_t g0 = (size_t)v->n_owned + (size_t)v->recv_off[nbr];
	for (int q = 0; q < nvars; q++)
		for (size_t k = 0; k < n; k++)
			field[(size_t)q * v->sc + g0 + k] = buf[(size_t)q * n + k];
}

/* cells in buffer i of a task */
#define HALO_N(i, nvars) ((size_t)STARPU_VECTOR_GET_NX(buffers[i]) / (size_t)((nvars) > 0 ? (nvars) : 1))

void fv_pack_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	pack(&v, a.nbr, a.nvars, FV_PTR(1, const fv_real_t), FV_PTR(2, fv_real_t), HALO_N(2, a.nvars));
}

void fv_unpack_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	unpack(&v, a.nbr, a.nvars, FV_PTR(1, const fv_real_t), FV_PTR(2, fv_real_t), HALO_N(1, a.nvars));
}

/* numerics.halo_peer between CPU ranks of one machine: the receiving
 * rank's buffer, in memory both map (a->peer, a->peer_n values); the
 * token and the ack (buffers 2, 3) are StarPU-MPI's alone. */
void fv_pack_peer_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	pack(&v, a.nbr, a.nvars, FV_PTR(1, const fv_real_t), (fv_real_t *)a.peer,
	     (size_t)a.peer_n / (size_t)(a.nvars > 0 ? a.nvars : 1));
}

/* buffers: geo, the field, then neighbour k's buffer at 2 + k */
void fv_pack_all_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	for (int k = 0; k < v.n_nbr; k++)
		pack(&v, k, a.nvars, FV_PTR(1, const fv_real_t), FV_PTR(2 + k, fv_real_t), HALO_N(2 + k, a.nvars));
}

void fv_unpack_all_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	for (int k = 0; k < v.n_nbr; k++)
		unpack(&v, k, a.nvars, FV_PTR(2 + k, const fv_real_t), FV_PTR(1, fv_real_t), HALO_N(2 + k, a.nvars));
}

/* fv_insert_fetch: StarPU brought the buffers here; nothing to compute. */
void fv_fetch_cpu(void *buffers[], void *cl_arg)
{
	(void)buffers;
	(void)cl_arg;
}
