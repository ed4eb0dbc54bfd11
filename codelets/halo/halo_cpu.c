/* SPDX-License-Identifier: MIT */
/* CPU pack and unpack of halo buffers (buffer layout: buf[v * count + k]). */
#include "codelets/common.h"

void fv_pack_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *field = FV_PTR(1, const fv_real_t);
	fv_real_t *buf = FV_PTR(2, fv_real_t);
	fv_idx_t b = v.send_off[a.nbr], n = v.send_off[a.nbr + 1] - b;
	for (int q = 0; q < a.nvars; q++)
		for (fv_idx_t k = 0; k < n; k++)
			buf[(size_t)q * n + k] = field[(size_t)q * v.n_cells + v.send_cell[b + k]];
}

void fv_unpack_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *buf = FV_PTR(1, const fv_real_t);
	fv_real_t *field = FV_PTR(2, fv_real_t);
	fv_idx_t g0 = v.n_owned + v.recv_off[a.nbr], n = v.recv_off[a.nbr + 1] - v.recv_off[a.nbr];
	for (int q = 0; q < a.nvars; q++)
		for (fv_idx_t k = 0; k < n; k++)
			field[(size_t)q * v.n_cells + g0 + k] = buf[(size_t)q * n + k];
}
