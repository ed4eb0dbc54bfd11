/* SPDX-License-Identifier: MIT */
/* Registered arrays, host acquisitions and the reduction ring (data.h). */
#include "runtime/data.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <starpu.h>

#include "config.h"
#include "fvstar/runtime.h"
#include "runtime/ranks.h"
#include "util/alloc.h"
#include "util/threads.h"

#ifdef FV_HAVE_MPI
#include <starpu_mpi.h>
#endif

#define SP(h) ((starpu_data_handle_t)(void *)(h))

/* StarPU-MPI names data by a tag that every rank gives the same handle:
 * handles are registered in the same order on every rank (the solver
 * registers its own blocks' data and stand-ins for the others' in block
 * order), so a counter is that name. */
static int64_t next_tag;

/* Under StarPU-MPI: h is owner's data, named by the next tag. */
static void mpi_register(starpu_data_handle_t h, int owner)
{
#ifdef FV_HAVE_MPI
	if (fv_ranks_up())
		starpu_mpi_data_register(h, next_tag++, owner);
#else
	(void)h;
	(void)owner;
#endif
}

fv_err_t fv_runtime_check_names(void)
{
	/* a rank that registered one handle more or less than another would
	 * give every later handle another name there: halos crossed, or a hang */
	return fv_runtime_agree(next_tag, "the number of handles registered with StarPU-MPI (their tags)");
}

int fv_runtime_alloc_any_thread(void)
{
#ifdef STARPU_SIMGRID
	return 0;
#else
	return 1;
#endif
}

/* starpu_malloc_flags with or without pinning; starpu_free_flags must be
 * given the same flags */
static fv_err_t alloc_flags(void *mem, size_t bytes, int flags, const char *what)
{
	void *p = NULL;
	int ret;
	fv_alloc_note(bytes, what);
	ret = starpu_malloc_flags(&p, bytes ? bytes : 8, flags);
	FV_CHECK(ret == 0 && p, FV_ERR_MEM, "starpu_malloc of %zu bytes for %s failed (%d)", bytes, what, ret);
	/* by all threads (the workers sleep while the solver is built): the
	 * kernel zeroes the fresh pages as they are first touched */
	fv_par_memset(p, 0, bytes ? bytes : 8);
	*(void **)mem = p;
	return FV_OK;
}

/* How memory a GPU reads is pinned, FVSTAR_PIN: alloc (starpu_malloc:
 * cudaHostAlloc, which maps, zeroes and pins the pages on one thread:
 * about 1.2 GB/s on an H200 host, 28 s for the geometry of 10^8 cells),
 * register (the default: the pages zeroed by all threads, then pinned by
 * cudaHostRegister, through starpu_memory_pin) or no (not pinned: StarPU
 * copies it to a GPU from pageable memory). */
typedef enum { PIN_ALLOC, PIN_REGISTER, PIN_NO } pin_mode_t;
static fv_err_t pin_mode(pin_mode_t *m)
{
	const char *e = getenv("FVSTAR_PIN");
#ifdef STARPU_SIMGRID
	/* simulated: starpu_malloc charges the simulated cudaHostAlloc */
	*m = PIN_ALLOC;
	(void)e;
	return FV_OK;
#endif
	*m = PIN_REGISTER;
	if (!e || !*e || strcmp(e, "register") == 0)
		return FV_OK;
	FV_CHECK(strcmp(e, "alloc") == 0 || strcmp(e, "no") == 0, FV_ERR_ARG,
		 "FVSTAR_PIN=%s: expected register, alloc or no", e);
	*m = strcmp(e, "alloc") == 0 ? PIN_ALLOC : PIN_NO;
	return FV_OK;
}

static int cuda_workers(void)
{
	int ncpu, ncuda;
	fv_runtime_workers(&ncpu, &ncuda);
	return ncuda;
}

fv_err_t fv_runtime_alloc(void *mem, size_t bytes, const char *what)
{
	pin_mode_t m;
	FV_CALL(pin_mode(&m));
	if (m == PIN_ALLOC)
		return alloc_flags(mem, bytes, STARPU_MALLOC_PINNED, what);
	FV_CALL(alloc_flags(mem, bytes, 0, what));
	/* a failure leaves the memory pageable: slower copies, same results */
	if (m == PIN_REGISTER && cuda_workers() > 0)
		(void)starpu_memory_pin(*(void **)mem, bytes ? bytes : 8);
	return FV_OK;
}

fv_err_t fv_runtime_alloc_unpinned(void *mem, size_t bytes, const char *what)
{
	return alloc_flags(mem, bytes, 0, what);
}

void fv_runtime_free(void *mem)
{
	pin_mode_t m;
	if (!mem)
		return;
	if (pin_mode(&m) != FV_OK || m == PIN_ALLOC) {
		starpu_free(mem);
		return;
	}
	if (m == PIN_REGISTER && cuda_workers() > 0)
		(void)starpu_memory_unpin(mem, 0); /* cudaHostUnregister: the address alone */
	starpu_free_flags(mem, 0, 0);
}

void fv_runtime_free_unpinned(void *mem)
{
	if (mem)
		starpu_free_flags(mem, 0, 0);
}

int fv_runtime_worker_cpu_only(int worker)
{
	int ncpu, ncuda;
	fv_runtime_workers(&ncpu, &ncuda);
	if (worker >= 0)
		return starpu_worker_get_type(worker) == STARPU_CPU_WORKER;
	return ncuda == 0;
}

fv_err_t fv_runtime_register(fv_handle_t *h, void *mem, size_t n, size_t elem, const char *what)
{
	starpu_data_handle_t sh = NULL;
	FV_CHECK(n < UINT32_MAX, FV_ERR_MEM, "%s: %zu elements of %zu bytes exceed a StarPU vector", what, n, elem);
	/* an empty array still gets a handle (one element), so every task has
	 * the same buffers whatever the block */
	starpu_vector_data_register(&sh, STARPU_MAIN_RAM, (uintptr_t)mem, (uint32_t)(n ? n : 1), elem);
	FV_CHECK(sh, FV_ERR_RUNTIME, "%s: StarPU did not register %zu elements", what, n);
	mpi_register(sh, fv_runtime_rank());
	*h = (fv_handle_t)(void *)sh;
	return FV_OK;
}

fv_err_t fv_runtime_register_remote(fv_handle_t *h, size_t n, size_t elem, int owner, const char *what)
{
	starpu_data_handle_t sh = NULL;
	FV_CHECK(n < UINT32_MAX, FV_ERR_MEM, "%s: %zu elements of %zu bytes exceed a StarPU vector", what, n, elem);
	/* no home memory: StarPU allocates a copy when a message brings one */
	starpu_vector_data_register(&sh, -1, 0, (uint32_t)(n ? n : 1), elem);
	FV_CHECK(sh, FV_ERR_RUNTIME, "%s: StarPU did not register %zu elements", what, n);
	mpi_register(sh, owner);
	*h = (fv_handle_t)(void *)sh;
	return FV_OK;
}

fv_err_t fv_runtime_vector_device(fv_handle_t *h, int worker, void *dptr, size_t n, size_t elem, const char *what)
{
	starpu_data_handle_t sh = NULL;
	FV_CHECK(dptr, FV_ERR_ARG, "%s: no memory to register", what);
	FV_CHECK(n < UINT32_MAX, FV_ERR_MEM, "%s: %zu values exceed a StarPU vector", what, n);
	/* home on the GPU: StarPU never moves it while the tasks that read it
	 * run there (numerics.halo_peer's unpacks) */
	int node = worker >= 0 ? (int)starpu_worker_get_memory_node(worker) : STARPU_MAIN_RAM;
	starpu_vector_data_register(&sh, node, (uintptr_t)dptr,
				    (uint32_t)(n ? n : 1), elem);
	FV_CHECK(sh, FV_ERR_RUNTIME, "%s: StarPU did not register %zu elements", what, n);
	mpi_register(sh, fv_runtime_rank());
	*h = (fv_handle_t)(void *)sh;
	return FV_OK;
}

fv_err_t fv_runtime_vector_lazy(fv_handle_t *h, void *mem, size_t n, size_t elem, const char *what)
{
#ifdef STARPU_SIMGRID
	/* fvstar-sim is data-free, and StarPU would run the zero fill's
	 * simulated CUDA stand-in for real */
	return fv_runtime_vector(h, mem, n, elem, what);
#else
	starpu_data_handle_t sh = NULL;
	FV_CHECK(n < UINT32_MAX, FV_ERR_MEM, "%s: %zu values exceed a StarPU vector", what, n);
	*(void **)mem = NULL;
	starpu_vector_data_register(&sh, -1, 0, (uint32_t)(n ? n : 1), elem);
	FV_CHECK(sh, FV_ERR_RUNTIME, "%s: StarPU did not register %zu elements", what, n);
	mpi_register(sh, fv_runtime_rank());
	*h = (fv_handle_t)(void *)sh;
	return FV_OK;
#endif
}

struct fv_devbuf {
	unsigned node;
	uintptr_t ptr;
	size_t bytes;
};

/* The one memory node the tasks of a block on worker (-1: the scheduler
 * picks) run from, or -1. */
static int block_node(int worker)
{
	int ncpu, ncuda, id;
	fv_runtime_workers(&ncpu, &ncuda);
	if (worker >= 0)
		return (int)starpu_worker_get_memory_node((unsigned)worker);
	if (ncuda == 0)
		return STARPU_MAIN_RAM;
	if (ncpu == 0 && ncuda == 1 && starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, &id, 1) == 1)
		return (int)starpu_worker_get_memory_node((unsigned)id);
	return -1;
}

fv_err_t fv_runtime_devbuf_usable(int worker, int *usable)
{
	const char *e = getenv("FVSTAR_GEO_DEVICE"), *h = getenv("FVSTAR_GEO_HOST");
	*usable = 0;
	FV_CHECK(!e || !*e || strcmp(e, "0") == 0 || strcmp(e, "1") == 0, FV_ERR_ARG,
		 "FVSTAR_GEO_DEVICE=%s: expected 0 or 1", e);
	FV_CHECK(!h || !*h || strcmp(h, "0") == 0 || strcmp(h, "1") == 0, FV_ERR_ARG,
		 "FVSTAR_GEO_HOST=%s: expected 0 or 1", h);
	FV_CHECK(!(h && strcmp(h, "1") == 0 && e && strcmp(e, "1") == 0), FV_ERR_ARG,
		 "FVSTAR_GEO_HOST=1 and FVSTAR_GEO_DEVICE=1: the geometry cannot be in both places");
#ifdef STARPU_SIMGRID
	/* data-free: a simulated GPU's addresses hold nothing */
	(void)worker;
	return FV_OK;
#else
	int node = block_node(worker), forced = e && strcmp(e, "1") == 0;
	if ((h && strcmp(h, "1") == 0) || (e && strcmp(e, "0") == 0) || node < 0)
		return FV_OK;
	*usable = forced || starpu_node_get_kind((unsigned)node) == STARPU_CUDA_RAM;
	return FV_OK;
#endif
}

fv_err_t fv_runtime_devbuf_open(fv_devbuf_t **b, int worker, size_t bytes, const char *what)
{
	int node = block_node(worker);
	*b = NULL;
	FV_CHECK(node >= 0, FV_ERR_ARG, "%s: no one memory node for the tasks of worker %d", what, worker);
	fv_devbuf_t *d;
	FV_CALL(fv_calloc(&d, 1, sizeof *d, what));
	d->node = (unsigned)node;
	d->bytes = bytes ? bytes : 64;
	fv_alloc_note(d->bytes, what);
	/* counted: StarPU's free-memory figures (the run's device report, its
	 * eviction) see it */
	d->ptr = starpu_malloc_on_node_flags(d->node, d->bytes, STARPU_MALLOC_COUNT);
	if (!d->ptr) {
		free(d);
		return FV_ERROR(FV_ERR_MEM, "%s: %zu bytes do not fit the free memory of %s (memory node %d)", what,
				bytes, starpu_node_get_kind((unsigned)node) == STARPU_CUDA_RAM ? "its GPU" : "the host",
				node);
	}
	*b = d;
	return FV_OK;
}

fv_err_t fv_runtime_devbuf_put(fv_devbuf_t *b, size_t off, const void *src, size_t bytes)
{
	if (!bytes)
		return FV_OK;
	FV_CHECK(off + bytes <= b->bytes, FV_ERR_ARG, "bytes %zu to %zu past a buffer of %zu", off, off + bytes,
		 b->bytes);
	/* no channel: a synchronous copy, from any thread */
	int ret = starpu_interface_copy((uintptr_t)src, 0, STARPU_MAIN_RAM, b->ptr, off, b->node, bytes, NULL);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "copying %zu bytes to memory node %u failed (%d)", bytes, b->node, ret);
	return FV_OK;
}

fv_err_t fv_runtime_devbuf_get(const fv_devbuf_t *b, size_t off, void *dst, size_t bytes)
{
	if (!bytes)
		return FV_OK;
	FV_CHECK(off + bytes <= b->bytes, FV_ERR_ARG, "bytes %zu to %zu past a buffer of %zu", off, off + bytes,
		 b->bytes);
	int ret = starpu_interface_copy(b->ptr, off, b->node, (uintptr_t)dst, 0, STARPU_MAIN_RAM, bytes, NULL);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "copying %zu bytes from memory node %u failed (%d)", bytes, b->node, ret);
	return FV_OK;
}

fv_err_t fv_runtime_devbuf_register(fv_devbuf_t *b, fv_handle_t *h, size_t n, size_t elem, const char *what)
{
	starpu_data_handle_t sh = NULL;
	FV_CHECK(n < UINT32_MAX && n * elem <= b->bytes, FV_ERR_MEM, "%s: %zu elements of %zu bytes in %zu", what,
		 n, elem, b->bytes);
	starpu_vector_data_register(&sh, (int)b->node, b->ptr, (uint32_t)(n ? n : 1), elem);
	FV_CHECK(sh, FV_ERR_RUNTIME, "%s: StarPU did not register %zu elements", what, n);
	mpi_register(sh, fv_runtime_rank());
	*h = (fv_handle_t)(void *)sh;
	return FV_OK;
}

void fv_runtime_devbuf_drop(fv_handle_t *h, fv_devbuf_t *b)
{
	if (h && *h) {
		starpu_data_unregister_no_coherency(SP(*h));
		*h = NULL;
	}
	if (!b)
		return;
	starpu_free_on_node_flags(b->node, b->ptr, b->bytes, STARPU_MALLOC_COUNT);
	free(b);
}

fv_err_t fv_runtime_lazy_fields(int worker, int *lazy)
{
	const char *e = getenv("FVSTAR_LAZY_FIELDS");
	int all = 0, none = 0;
	if (e && *e && strcmp(e, "gpu") != 0) {
		all = strcmp(e, "all") == 0;
		none = strcmp(e, "none") == 0;
		FV_CHECK(all || none, FV_ERR_ARG, "FVSTAR_LAZY_FIELDS=%s: expected gpu, all or none", e);
	}
	*lazy = all || (!none && fv_runtime_worker_gpu_only(worker));
#ifdef STARPU_SIMGRID
	*lazy = 0; /* fv_runtime_vector_lazy allocates there */
#endif
	return FV_OK;
}

void *fv_runtime_host_ptr(fv_handle_t h)
{
	return starpu_data_get_local_ptr(SP(h));
}

fv_err_t fv_runtime_vector(fv_handle_t *h, void *mem, size_t n, size_t elem, const char *what)
{
	FV_CHECK(n < UINT32_MAX, FV_ERR_MEM, "%s: %zu values exceed a StarPU vector", what, n);
	FV_CALL(fv_runtime_alloc(mem, n * elem, what));
	return fv_runtime_register(h, *(void **)mem, n, elem, what);
}

fv_err_t fv_runtime_vector_unpinned(fv_handle_t *h, void *mem, size_t n, size_t elem, const char *what)
{
	FV_CHECK(n < UINT32_MAX, FV_ERR_MEM, "%s: %zu values exceed a StarPU vector", what, n);
	FV_CALL(fv_runtime_alloc_unpinned(mem, n * elem, what));
	return fv_runtime_register(h, *(void **)mem, n, elem, what);
}

static void unregister(fv_handle_t *h)
{
	if (*h) {
		starpu_data_unregister_no_coherency(SP(*h));
		*h = NULL;
	}
}

void fv_runtime_drop(fv_handle_t *h, void *mem)
{
	unregister(h);
	fv_runtime_free(mem);
}

fv_err_t fv_runtime_vector_mapped(fv_handle_t *h, void *mem, size_t n, size_t elem, const char *what)
{
	FV_CHECK(n < UINT32_MAX, FV_ERR_MEM, "%s: %zu values exceed a StarPU vector", what, n);
	FV_CALL(alloc_flags(mem, n * elem, STARPU_MALLOC_PINNED, what));
	return fv_runtime_register(h, *(void **)mem, n, elem, what);
}

void fv_runtime_drop_mapped(fv_handle_t *h, void *mem)
{
	unregister(h);
	if (mem)
		starpu_free(mem);
}

void fv_runtime_drop_unpinned(fv_handle_t *h, void *mem)
{
	unregister(h);
	fv_runtime_free_unpinned(mem);
}

fv_err_t fv_runtime_acquire(fv_handle_t h, int write, const char *what)
{
	/* in main memory whatever the handle's home: starpu_data_acquire
	 * takes the home node, a GPU's for a blob built there
	 * (fv_runtime_devbuf_register), where the host cannot read it */
	int ret = starpu_data_acquire_on_node(SP(h), STARPU_MAIN_RAM, write ? STARPU_W : STARPU_R);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "acquiring %s for the host failed (%d)", what, ret);
	return FV_OK;
}

void fv_runtime_release(fv_handle_t h)
{
	starpu_data_release_on_node(SP(h), STARPU_MAIN_RAM);
}

void fv_runtime_wait_all(void)
{
	if (fv_ranks_up())
		fv_ranks_wait_all();
	else
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
	char *local;                   /* [n_rows] this rank writes the row */
	double *all;                   /* several ranks: every rank's rows */
	/* StarPU's: in fvstar-sim the waiting thread yields to the simulation */
	starpu_pthread_mutex_t lock;
	starpu_pthread_cond_t cond;
};

fv_err_t fv_ring_create(fv_ring_t **rp, int n_slots, int n_rows, int row_len, const int *row_owner)
{
	fv_ring_t *r;
	int me = fv_runtime_rank();
	FV_CALL(fv_calloc(&r, 1, sizeof *r, "reduction ring"));
	*rp = r;
	r->n_slots = n_slots;
	r->n_rows = n_rows;
	r->row_len = row_len;
	starpu_pthread_mutex_init(&r->lock, NULL);
	starpu_pthread_cond_init(&r->cond, NULL);
	FV_CALL(fv_calloc(&r->mem, (size_t)n_slots, sizeof *r->mem, "reduction ring"));
	FV_CALL(fv_calloc(&r->h, (size_t)n_slots, sizeof *r->h, "reduction ring"));
	FV_CALL(fv_calloc(&r->ctx, (size_t)n_slots, sizeof *r->ctx, "reduction ring"));
	FV_CALL(fv_calloc(&r->slot, (size_t)n_slots, sizeof *r->slot, "reduction ring"));
	FV_CALL(fv_calloc(&r->local, (size_t)n_rows + 1, 1, "reduction ring"));
	FV_CALL(fv_calloc(&r->all, (size_t)n_rows * row_len + 1, sizeof(double), "reduction ring"));
	for (int j = 0; j < n_rows; j++)
		r->local[j] = !row_owner || row_owner[j] == me;
	for (int s = 0; s < n_slots; s++) {
		FV_CALL(fv_runtime_alloc(&r->mem[s], (size_t)n_rows * row_len * sizeof(double), "reduction rows"));
		FV_CALL(fv_calloc(&r->h[s], (size_t)n_rows, sizeof(starpu_data_handle_t), "reduction rows"));
		FV_CALL(fv_calloc(&r->ctx[s], (size_t)n_rows, sizeof(row_ctx_t), "reduction rows"));
		for (int j = 0; j < n_rows; j++) {
			if (r->local[j]) {
				starpu_vector_data_register(&r->h[s][j], STARPU_MAIN_RAM,
							    (uintptr_t)(r->mem[s] + (size_t)j * row_len), (uint32_t)row_len,
							    sizeof(double));
				mpi_register(r->h[s][j], me);
			} else {
				/* another rank's row: a stand-in, for the tasks
				 * this rank submits on its behalf (none write it
				 * here); its values come by fv_runtime_combine */
				starpu_vector_data_register(&r->h[s][j], -1, 0, (uint32_t)row_len, sizeof(double));
				mpi_register(r->h[s][j], row_owner[j]);
			}
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
	starpu_pthread_mutex_lock(&r->lock);
	if (--r->slot[c->slot].pending == 0) {
		r->slot[c->slot].ready = 1;
		starpu_pthread_cond_broadcast(&r->cond);
	}
	starpu_pthread_mutex_unlock(&r->lock);
}

fv_err_t fv_ring_post(fv_ring_t *r, int slot, int n_rows, int tag)
{
	int n_local = 0;
	for (int j = 0; j < n_rows; j++)
		n_local += r->local[j];
	starpu_pthread_mutex_lock(&r->lock);
	r->slot[slot].ready = n_local == 0;
	r->slot[slot].pending = n_local;
	starpu_pthread_mutex_unlock(&r->lock);
	for (int j = 0; j < n_rows; j++) {
		if (!r->local[j])
			continue;
		int ret = starpu_data_acquire_cb(r->h[slot][j], STARPU_R, row_ready, &r->ctx[slot][j]);
		FV_CHECK(ret == 0, FV_ERR_RUNTIME, "iteration %d: reading back row %d of the residual norms failed (%d)",
			 tag, j, ret);
	}
	return FV_OK;
}

/* fv_runtime_norms_apart */
static int rows_apart;

void fv_runtime_norms_apart(int on)
{
	rows_apart = on;
}

const double *fv_ring_wait(fv_ring_t *r, int slot)
{
	const double *rows;
	fv_ranks_watch_wait();
	starpu_pthread_mutex_lock(&r->lock);
	while (!r->slot[slot].ready)
		starpu_pthread_cond_wait(&r->cond, &r->lock);
	starpu_pthread_mutex_unlock(&r->lock);
	if (fv_runtime_nranks() == 1) {
		fv_ranks_watch_done();
		return r->mem[slot];
	}
#ifdef FV_SMPI
	/* simulated ranks run data-free (nothing reads the rows), and
	 * StarPU-MPI 1.3.10 under SMPI hangs on fvstar's own messages while
	 * halos are under way (doc/simgrid.md): each rank keeps its rows */
	rows_apart = 1;
#endif
	if (rows_apart) {
		fv_ranks_watch_done();
		return r->mem[slot];
	}
	/* every rank's rows, in row order: the sums the driver takes over them
	 * are those of a run on one rank */
	size_t len = (size_t)r->row_len;
	memset(r->all, 0, (size_t)r->n_rows * len * sizeof(double));
	for (int j = 0; j < r->n_rows; j++)
		if (r->local[j])
			memcpy(r->all + j * len, r->mem[slot] + j * len, len * sizeof(double));
	if (fv_runtime_combine(r->all, (size_t)r->n_rows * len * sizeof(double), "the residual rows") != FV_OK)
		fv_runtime_fail(fv_errmsg());
	rows = r->all;
	fv_ranks_watch_done();
	return rows;
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
	free(r->local);
	free(r->all);
	starpu_pthread_mutex_destroy(&r->lock);
	starpu_pthread_cond_destroy(&r->cond);
	free(r);
}
