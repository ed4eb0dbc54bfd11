/* SPDX-License-Identifier: MIT */
/* Registered arrays, host acquisitions and the reduction ring (data.h). */
#include "runtime/data.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <starpu.h>

#define SP(h) ((starpu_data_handle_t)(void *)(h))

fv_err_t fv_runtime_alloc(void *mem, size_t bytes, const char *what)
{
	void *p = NULL;
	int ret = starpu_malloc(&p, bytes ? bytes : 8);
	FV_CHECK(ret == 0 && p, FV_ERR_MEM, "starpu_malloc of %zu bytes for %s failed (%d)", bytes, what, ret);
	memset(p, 0, bytes ? bytes : 8);
	*(void **)mem = p;
	return FV_OK;
}

void fv_runtime_free(void *mem)
{
	if (mem)
		starpu_free(mem);
}

fv_err_t fv_runtime_register(fv_handle_t *h, void *mem, size_t n, size_t elem, const char *what)
{
	starpu_data_handle_t sh = NULL;
	FV_CHECK(n < UINT32_MAX, FV_ERR_MEM, "%s: %zu elements of %zu bytes exceed a StarPU vector", what, n, elem);
	/* an empty array still gets a handle (one element), so every task has
	 * the same buffers whatever the block */
	starpu_vector_data_register(&sh, STARPU_MAIN_RAM, (uintptr_t)mem, (uint32_t)(n ? n : 1), elem);
	FV_CHECK(sh, FV_ERR_RUNTIME, "%s: StarPU did not register %zu elements", what, n);
	*h = (fv_handle_t)(void *)sh;
	return FV_OK;
}

fv_err_t fv_runtime_vector(fv_handle_t *h, void *mem, size_t n, size_t elem, const char *what)
{
	FV_CHECK(n < UINT32_MAX, FV_ERR_MEM, "%s: %zu values exceed a StarPU vector", what, n);
	FV_CALL(fv_runtime_alloc(mem, n * elem, what));
	return fv_runtime_register(h, *(void **)mem, n, elem, what);
}

void fv_runtime_drop(fv_handle_t *h, void *mem)
{
	if (*h) {
		starpu_data_unregister_no_coherency(SP(*h));
		*h = NULL;
	}
	fv_runtime_free(mem);
}

fv_err_t fv_runtime_acquire(fv_handle_t h, int write, const char *what)
{
	int ret = starpu_data_acquire(SP(h), write ? STARPU_W : STARPU_R);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "acquiring %s for the host failed (%d)", what, ret);
	return FV_OK;
}

void fv_runtime_release(fv_handle_t h)
{
	starpu_data_release(SP(h));
}

void fv_runtime_wait_all(void)
{
	starpu_task_wait_for_all();
}

/* ------------------------------------------------------------------ ring */

typedef struct ring_slot {
	int pending;            /* acquisitions not yet called back */
	int ready;
} ring_slot_t;

typedef struct row_ctx {
	fv_ring_t *r;
	int slot, row;
} row_ctx_t;

struct fv_ring {
	int n_slots, n_rows, row_len;
	double **mem;                  /* [n_slots][n_rows * row_len] */
	starpu_data_handle_t **h;      /* [n_slots][n_rows] */
	row_ctx_t **ctx;               /* [n_slots][n_rows] */
	ring_slot_t *slot;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

fv_err_t fv_ring_create(fv_ring_t **rp, int n_slots, int n_rows, int row_len)
{
	fv_ring_t *r;
	FV_CALL(fv_calloc(&r, 1, sizeof *r, "reduction ring"));
	*rp = r;
	r->n_slots = n_slots;
	r->n_rows = n_rows;
	r->row_len = row_len;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	FV_CALL(fv_calloc(&r->mem, (size_t)n_slots, sizeof *r->mem, "reduction ring"));
	FV_CALL(fv_calloc(&r->h, (size_t)n_slots, sizeof *r->h, "reduction ring"));
	FV_CALL(fv_calloc(&r->ctx, (size_t)n_slots, sizeof *r->ctx, "reduction ring"));
	FV_CALL(fv_calloc(&r->slot, (size_t)n_slots, sizeof *r->slot, "reduction ring"));
	for (int s = 0; s < n_slots; s++) {
		FV_CALL(fv_runtime_alloc(&r->mem[s], (size_t)n_rows * row_len * sizeof(double), "reduction rows"));
		FV_CALL(fv_calloc(&r->h[s], (size_t)n_rows, sizeof(starpu_data_handle_t), "reduction rows"));
		FV_CALL(fv_calloc(&r->ctx[s], (size_t)n_rows, sizeof(row_ctx_t), "reduction rows"));
		for (int j = 0; j < n_rows; j++) {
			starpu_vector_data_register(&r->h[s][j], STARPU_MAIN_RAM,
						    (uintptr_t)(r->mem[s] + (size_t)j * row_len), (uint32_t)row_len,
						    sizeof(double));
			r->ctx[s][j] = (row_ctx_t){r, s, j};
		}
	}
	return FV_OK;
}

fv_handle_t fv_ring_row(const fv_ring_t *r, int slot, int row)
{
	return (fv_handle_t)(void *)r->h[slot][row];
}

/* Runs in a StarPU thread once a row is written. */
static void row_ready(void *arg)
{
	row_ctx_t *c = (row_ctx_t *)arg;
	fv_ring_t *r = c->r;
	starpu_data_release(r->h[c->slot][c->row]);
	pthread_mutex_lock(&r->lock);
	if (--r->slot[c->slot].pending == 0) {
		r->slot[c->slot].ready = 1;
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
}

fv_err_t fv_ring_post(fv_ring_t *r, int slot, int n_rows, int tag)
{
	pthread_mutex_lock(&r->lock);
	r->slot[slot].ready = 0;
	r->slot[slot].pending = n_rows;
	pthread_mutex_unlock(&r->lock);
	for (int j = 0; j < n_rows; j++) {
		int ret = starpu_data_acquire_cb(r->h[slot][j], STARPU_R, row_ready, &r->ctx[slot][j]);
		FV_CHECK(ret == 0, FV_ERR_RUNTIME, "iteration %d: reading back row %d of the residual norms failed (%d)",
			 tag, j, ret);
	}
	return FV_OK;
}

const double *fv_ring_wait(fv_ring_t *r, int slot)
{
	pthread_mutex_lock(&r->lock);
	while (!r->slot[slot].ready)
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
	return r->mem[slot];
}

void fv_ring_destroy(fv_ring_t *r)
{
	if (!r)
		return;
	for (int s = 0; s < r->n_slots; s++) {
		for (int j = 0; r->h && r->h[s] && j < r->n_rows; j++)
			if (r->h[s][j])
				starpu_data_unregister_no_coherency(r->h[s][j]);
		if (r->h)
			free(r->h[s]);
		if (r->ctx)
			free(r->ctx[s]);
		if (r->mem)
			fv_runtime_free(r->mem[s]);
	}
	free(r->h);
	free(r->ctx);
	free(r->mem);
	free(r->slot);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	free(r);
}
