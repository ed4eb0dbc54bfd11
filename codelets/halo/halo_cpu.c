/* SPDX-License-Identifier: MIT */
/* CPU pack and unpack of halo buffers (buffer layout: buf[v * count + k]). */
#include "codelets/common.h"

static void pack(const fv_view_t *v, int nbr, int nvars, const fv_real_t *field, fv_real_t *buf)
{
	fv_idx_t b = v->send_off[nbr], n = v->send_off[nbr + 1] - b;
	for (int q = 0; q < nvars; q++)
		for (fv_idx_t k = 0; k < n; k++)
			buf[(size_t)q * n + k] = field[(size_t)q * v->n_cells + v->send_cell[b + k]];
}

static void unpack(const fv_view_t *v, int nbr, int nvars, const fv_real_t *buf, fv_real_t *field)
{
	fv_idx_t g0 = v->n_owned + v->recv_off[nbr], n = v->recv_off[nbr + 1] - v->recv_off[nbr];
	for (int q = 0; q < nvars; q++)
		for (fv_idx_t k = 0; k < n; k++)
			field[(size_t)q * v->n_cells + g0 + k] = buf[(size_t)q * n + k];
}

void fv_pack_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	pack(&v, a.nbr, a.nvars, FV_PTR(1, const fv_real_t), FV_PTR(2, fv_real_t));
}

void fv_unpack_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	unpack(&v, a.nbr, a.nvars, FV_PTR(1, const fv_real_t), FV_PTR(2, fv_real_t));
}

/* buffers: geo, the field, then neighbour k's buffer at 2 + k */
void fv_pack_all_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	for (int k = 0; k < v.n_nbr; k++)
		pack(&v, k, a.nvars, FV_PTR(1, const fv_real_t), FV_PTR(2 + k, fv_real_t));
}

void fv_unpack_all_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	for (int k = 0; k < v.n_nbr; k++)
		unpack(&v, k, a.nvars, FV_PTR(2 + k, const fv_real_t), FV_PTR(1, fv_real_t));
}
