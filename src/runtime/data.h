/* SPDX-License-Identifier: MIT */
/* The solver's data as the runtime holds it: registered arrays (vectors of
 * values in main memory that StarPU copies to the workers that need them),
 * their acquisition by the host, and the residual/force ring read back
 * without waiting. The solver sees opaque handles; only src/runtime and
 * codelets/ know they are StarPU handles. */
#ifndef FVSTAR_RUNTIME_DATA_H
#define FVSTAR_RUNTIME_DATA_H

#include <stddef.h>

#include "fvstar/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A registered array (a starpu_data_handle_t). */
typedef struct fv_handle *fv_handle_t;

/* n elements of elem bytes in pinned main memory, zeroed, registered:
 * *(void **)mem receives the memory, *h the handle; what names it in
 * errors (a count over StarPU's 32-bit vector size is refused). */
fv_err_t fv_runtime_vector(fv_handle_t *h, void *mem, size_t n, size_t elem, const char *what);
/* Allocation alone (pinned, zeroed, at least 8 bytes) into *(void **)mem,
 * and its release; then the registration of such memory as n elements of
 * elem bytes. */
fv_err_t fv_runtime_alloc(void *mem, size_t bytes, const char *what);
/* The same unpinned (memory no GPU reads: a CPU block's fields), freed by
 * fv_runtime_free_unpinned, dropped by fv_runtime_drop_unpinned; pinning
 * costs a cudaHostAlloc on one thread. */
fv_err_t fv_runtime_alloc_unpinned(void *mem, size_t bytes, const char *what);
void fv_runtime_free_unpinned(void *mem);
fv_err_t fv_runtime_vector_unpinned(fv_handle_t *h, void *mem, size_t n, size_t elem, const char *what);
void fv_runtime_drop_unpinned(fv_handle_t *h, void *mem);
/* The same in memory every GPU can address (cudaHostAlloc, whatever
 * FVSTAR_PIN says): the halo buffers a rank sends to another, which a
 * GPU's kernel may write there (numerics.halo_zero_copy); dropped by
 * fv_runtime_drop_mapped. */
fv_err_t fv_runtime_vector_mapped(fv_handle_t *h, void *mem, size_t n, size_t elem, const char *what);
void fv_runtime_drop_mapped(fv_handle_t *h, void *mem);
/* Halo buffers between ranks of one machine that the sending rank's pack
 * writes straight into the receiving rank's memory (numerics.halo_peer,
 * src/runtime/peer.c): GPU memory (FV_PEER_GPU, CUDA IPC) or host memory
 * (FV_PEER_HOST, POSIX shared memory, for CPU blocks). node_of[r]: the
 * lowest rank on rank r's machine (collective). kind: what a block on
 * worker (-1: the scheduler picks) can use, and *gpu_worker its GPU's
 * worker (0: neither). The receiving rank allocates a pair's buffers and
 * exports them (key); the sending rank maps them (ptr); then the receiver
 * drops the name (fv_runtime_peer_opened). Each returns 1, or 0 with why
 * filled (the pair then goes through StarPU-MPI as before). The receiver
 * registers the buffer (fv_runtime_vector_device: the GPU its home; the
 * other ranks a stand-in, as for any data of another rank), and frees it
 * only after every sender closed its mapping. */
#define FV_PEER_KEY 128
#define FV_PEER_HANDLE 64
#define FV_PEER_HOST 1
#define FV_PEER_GPU 2
fv_err_t fv_runtime_peer_nodes(int *node_of);
int fv_runtime_peer_kind(int worker, int *gpu_worker);
int fv_runtime_peer_alloc(int kind, int worker, size_t bytes, void **ptr, unsigned char key[FV_PEER_HANDLE],
			  char *why, size_t n_why);
int fv_runtime_peer_open(int kind, int worker, size_t bytes, const unsigned char key[FV_PEER_HANDLE], void **ptr,
			 char *why, size_t n_why);
void fv_runtime_peer_opened(int kind, const unsigned char key[FV_PEER_HANDLE]);
void fv_runtime_peer_close(int kind, int worker, void *ptr, size_t bytes);
void fv_runtime_peer_free(int kind, int worker, void *ptr, size_t bytes);
/* n elements at dptr registered with worker's memory (a GPU's, or main
 * memory for a CPU worker or -1) as home. */
fv_err_t fv_runtime_vector_device(fv_handle_t *h, int worker, void *dptr, size_t n, size_t elem, const char *what);
/* Whether the tasks of a block on worker (-1: the scheduler picks) run on
 * CPU cores alone. */
int fv_runtime_worker_cpu_only(int worker);
/* Whether fv_runtime_alloc may be called from several threads at once:
 * not under SimGrid, where StarPU's calls belong to its simulated actors. */
int fv_runtime_alloc_any_thread(void);
void fv_runtime_free(void *mem);
fv_err_t fv_runtime_register(fv_handle_t *h, void *mem, size_t n, size_t elem, const char *what);
/* The handle, on this rank, of n elements of elem bytes that rank owner
 * owns (several ranks): no memory here; StarPU-MPI brings a copy when a
 * task here reads it, and sends it when a task of its owner needs this
 * rank's data. With one rank, never called. */
fv_err_t fv_runtime_register_remote(fv_handle_t *h, size_t n, size_t elem, int owner, const char *what);
/* n elements of elem bytes registered with no memory: StarPU allocates a
 * copy where a task first uses it (on a GPU block's GPU: no host copy, no
 * pinned allocation at set-up); never written, it reads as zeros once the
 * solver gave it fv_set_zero_init. The host reaches it only through
 * fv_runtime_acquire and fv_runtime_host_ptr. Under SimGrid, as
 * fv_runtime_vector (with *mem receiving NULL otherwise). */
fv_err_t fv_runtime_vector_lazy(fv_handle_t *h, void *mem, size_t n, size_t elem, const char *what);
/* Read-only data built in place in the memory of the block's worker (a
 * GPU: no host copy of it at any time, the host holding only the piece
 * being copied; the geometry blob), by default where that memory is one
 * GPU's (since session 17, after s17c1's GPU tests and M6 passed with
 * it); FVSTAR_GEO_HOST=1 (or FVSTAR_GEO_DEVICE=0, its older name) keeps
 * host memory as before, FVSTAR_GEO_DEVICE=1 takes this path where the
 * memory is main memory too (the CPU tests of the path); another value,
 * or both asking for opposite places, is an error.
 * fv_runtime_devbuf_open allocates bytes there (an error names what does
 * not fit). fv_runtime_devbuf_usable says first whether the variables allow
 * it and there is one such place: not where tasks may run on CPU
 * cores and on a GPU, or several GPUs share the block, nor under SimGrid;
 * the caller then uses host memory as before. Each byte is written once
 * by fv_runtime_devbuf_put (a synchronous copy from host memory); the
 * registration makes that memory the handle's home (StarPU copies it
 * where else a task needs it, and fv_runtime_acquire brings it to the
 * host). fv_runtime_devbuf_get copies bytes back from it (synchronous:
 * a few sections rather than the whole blob brought home).
 * fv_runtime_devbuf_drop unregisters the handle (if any) and frees it. The solver asks for blocks without host fields
 * (fv_runtime_lazy_fields) alone; on CPU workers (FVSTAR_LAZY_FIELDS=all
 * with FVSTAR_GEO_DEVICE=1, the CPU tests of this path) the place is main
 * memory. */
typedef struct fv_devbuf fv_devbuf_t;
fv_err_t fv_runtime_devbuf_usable(int worker, int *usable);
fv_err_t fv_runtime_devbuf_open(fv_devbuf_t **b, int worker, size_t bytes, const char *what);
fv_err_t fv_runtime_devbuf_put(fv_devbuf_t *b, size_t off, const void *src, size_t bytes);
fv_err_t fv_runtime_devbuf_get(const fv_devbuf_t *b, size_t off, void *dst, size_t bytes);
fv_err_t fv_runtime_devbuf_register(fv_devbuf_t *b, fv_handle_t *h, size_t n, size_t elem, const char *what);
void fv_runtime_devbuf_drop(fv_handle_t *h, fv_devbuf_t *b);
/* Whether the fields of a block whose tasks run on worker (-1: the
 * scheduler picks) go without host memory: where they run only on GPUs.
 * FVSTAR_LAZY_FIELDS=all (every block, e.g. CPU tests of the path),
 * none (no block) or gpu (the default) overrides it; another value is an
 * error naming the variable. */
fv_err_t fv_runtime_lazy_fields(int worker, int *lazy);
/* The host's pointer to h's values, between fv_runtime_acquire and
 * fv_runtime_release on the calling (application) thread. */
void *fv_runtime_host_ptr(fv_handle_t h);
/* Several ranks: FV_ERR_ARG unless every rank registered as many handles
 * (collective), since a handle's StarPU-MPI name is its registration's
 * rank in order. */
fv_err_t fv_runtime_check_names(void);
/* Drops the handle without writing a device copy back (the caller has read
 * what it needs), then frees mem (may be NULL). Safe on a NULL handle. */
void fv_runtime_drop(fv_handle_t *h, void *mem);

/* The host's own access to a handle's data in main memory, waiting for
 * the tasks before it: read, or write (the tasks after it see the host's
 * values). */
fv_err_t fv_runtime_acquire(fv_handle_t h, int write, const char *what);
void fv_runtime_release(fv_handle_t h);
/* Waits for every submitted task (several ranks: every rank's tasks and
 * messages; collective). */
void fv_runtime_wait_all(void);

/*
 * The ring of reductions read back without waiting: n_slots slots of
 * n_rows rows of row_len doubles, one handle per row. A slot serves one
 * iteration: tasks write its rows (one per block, plus extra rows such as
 * the clock's), fv_ring_post asks for all of them asynchronously, and
 * fv_ring_wait returns the slot's rows once every one has been written,
 * in row order, whichever worker wrote them and in whatever order.
 */
typedef struct fv_ring fv_ring_t;
/* row_owner[row]: the rank whose tasks write the row (NULL: this one);
 * with several ranks, fv_ring_wait is collective and returns every
 * rank's rows. */
fv_err_t fv_ring_create(fv_ring_t **r, int n_slots, int n_rows, int row_len, const int *row_owner);
fv_handle_t fv_ring_row(const fv_ring_t *r, int slot, int row);
/* Reads rows 0 .. n_rows-1 of the slot back as soon as they are written;
 * tag (the iteration) names it in errors. */
fv_err_t fv_ring_post(fv_ring_t *r, int slot, int n_rows, int tag);
/* The rows of the slot, [n_rows * row_len], once all have been read. */
const double *fv_ring_wait(fv_ring_t *r, int slot);
void fv_ring_destroy(fv_ring_t *r);

#ifdef __cplusplus
}
#endif
#endif
