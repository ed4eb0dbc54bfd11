/* SPDX-License-Identifier: MIT */
/* Halo buffers between ranks of one machine that the sending rank's pack
 * writes straight into the receiving rank's memory (numerics.halo_peer):
 * GPU memory exported by CUDA IPC, or for CPU blocks host memory both map
 * (POSIX shared memory) (data.h). */
#include "runtime/data.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <starpu.h>

#include "config.h"
#include "fvstar/runtime.h"
#include <errno.h>
#include "util/alloc.h"

#if defined(FV_HAVE_CUDA) && !defined(STARPU_SIMGRID)
#include <cuda_runtime_api.h>
#define PEER_CUDA 1
#endif

fv_err_t fv_runtime_peer_nodes(int *node_of)
{
	int nr = fv_runtime_nranks(), me = fv_runtime_rank();
	char(*key)[FV_PEER_KEY];
	FV_CALL(fv_calloc(&key, (size_t)nr, sizeof *key, "node names"));
	/* the host's name and its boot's id: two machines of one name (a
	 * container image's default) still differ */
	char host[64] = "", boot[40] = "";
	(void)gethostname(host, sizeof host - 1);
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (f) {
		if (!fgets(boot, sizeof boot, f))
			boot[0] = 0;
		fclose(f);
	}
	/* FVSTAR_NODE names the machine instead (tests: ranks of one machine
	 * told apart, as if on two) */
	const char *given = getenv("FVSTAR_NODE");
	if (given && *given)
		snprintf(key[me], FV_PEER_KEY, "node %.100s", given);
	else
		snprintf(key[me], FV_PEER_KEY, "%.63s|%.36s", host, boot);
	fv_err_t err = fv_runtime_combine(key, (size_t)nr * FV_PEER_KEY, "the ranks' node names");
	for (int r = 0; err == FV_OK && r < nr; r++) {
		node_of[r] = r;
		for (int q = 0; q < r; q++)
			if (memcmp(key[q], key[r], FV_PEER_KEY) == 0) {
				node_of[r] = node_of[q];
				break;
			}
	}
	free(key);
	return err;
}

#ifdef PEER_CUDA
/* Runs what follows on worker's GPU (the calling thread's current device),
 * returning the one it had. */
static int use_device(int worker, int *old)
{
	if (worker < 0 || starpu_worker_get_type(worker) != STARPU_CUDA_WORKER)
		return 0;
	if (cudaGetDevice(old) != cudaSuccess)
		*old = -1;
	if (cudaSetDevice(starpu_worker_get_devid(worker)) != cudaSuccess) {
		(void)cudaGetLastError();
		return 0;
	}
	return 1;
}

static void back_to(int old)
{
	if (old >= 0)
		(void)cudaSetDevice(old);
}
#endif

/* worker's GPU made this thread's current device (1; the one it had in
 * *old), or 0 with why filled */
static int gpu_or_why(int worker, int *old, char *why, size_t n_why)
{
#ifdef PEER_CUDA
	if (use_device(worker, old))
		return 1;
	snprintf(why, n_why, "worker %d is not a GPU", worker);
#else
	(void)worker;
	*old = -1;
	snprintf(why, n_why, "a build without CUDA");
#endif
	return 0;
}

int fv_runtime_peer_kind(int worker, int *gpu_worker)
{
	int ncpu, ncuda;
	*gpu_worker = -1;
	if (worker >= 0 && starpu_worker_get_type(worker) == STARPU_CUDA_WORKER) {
		*gpu_worker = worker;
		return FV_PEER_GPU;
	}
	if (fv_runtime_worker_cpu_only(worker))
		return FV_PEER_HOST;
	/* a block left to the scheduler runs on the rank's one worker */
	fv_runtime_workers(&ncpu, &ncuda);
	if (ncpu != 0 || ncuda != 1)
		return 0;
	for (int w = 0; w < (int)starpu_worker_get_count(); w++)
		if (starpu_worker_get_type(w) == STARPU_CUDA_WORKER) {
			*gpu_worker = w;
			return FV_PEER_GPU;
		}
	return 0;
}

/* Shared memory of a name unique on the machine: the process and a count. */
static int host_alloc(size_t bytes, void **ptr, unsigned char key[FV_PEER_HANDLE], char *why, size_t n_why)
{
	static unsigned count;
	char name[FV_PEER_HANDLE];
	snprintf(name, sizeof name, "/fvstar-halo-%ld-%u", (long)getpid(), count++);
	int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	void *p = MAP_FAILED;
	if (fd >= 0 && ftruncate(fd, (off_t)bytes) == 0)
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd >= 0)
		close(fd);
	if (p == MAP_FAILED) {
		snprintf(why, n_why, "shared memory %s of %zu bytes: %s", name, bytes, strerror(errno));
		if (fd >= 0)
			shm_unlink(name);
		return 0;
	}
	memset(key, 0, FV_PEER_HANDLE);
	memcpy(key, name, strlen(name));
	*ptr = p;
	return 1;
}

static int host_open(size_t bytes, const unsigned char key[FV_PEER_HANDLE], void **ptr, char *why, size_t n_why)
{
	char name[FV_PEER_HANDLE + 1];
	memcpy(name, key, FV_PEER_HANDLE);
	name[FV_PEER_HANDLE] = 0;
	int fd = shm_open(name, O_RDWR, 0600);
	void *p = fd >= 0 ? mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
	if (fd >= 0)
		close(fd);
	if (p == MAP_FAILED) {
		snprintf(why, n_why, "shared memory %s: %s", name, strerror(errno));
		return 0;
	}
	*ptr = p;
	return 1;
}

int fv_runtime_peer_alloc(int kind, int worker, size_t bytes, void **dptr, unsigned char key[FV_PEER_HANDLE],
			  char *why, size_t n_why)
{
	*dptr = NULL;
	if (kind == FV_PEER_HOST)
		return host_alloc(bytes ? bytes : 8, dptr, key, why, n_why);
	int old;
	if (!gpu_or_why(worker, &old, why, n_why))
		return 0;
#ifdef PEER_CUDA
	cudaIpcMemHandle_t ipc;
	cudaError_t e = cudaMalloc(dptr, bytes ? bytes : 8);
	if (e == cudaSuccess)
		e = cudaMemset(*dptr, 0, bytes ? bytes : 8);
	if (e == cudaSuccess)
		e = cudaIpcGetMemHandle(&ipc, *dptr);
	if (e != cudaSuccess) {
		snprintf(why, n_why, "receiving buffer of %zu bytes on GPU %d: %s", bytes,
			 starpu_worker_get_devid(worker), cudaGetErrorString(e));
		(void)cudaGetLastError();
		if (*dptr)
			(void)cudaFree(*dptr);
		*dptr = NULL;
		back_to(old);
		return 0;
	}
	memcpy(key, &ipc, sizeof ipc < FV_PEER_HANDLE ? sizeof ipc : FV_PEER_HANDLE);
	back_to(old);
	return 1;
#endif
	(void)key;
	return 0;
}

int fv_runtime_peer_open(int kind, int worker, size_t bytes, const unsigned char key[FV_PEER_HANDLE], void **ptr,
			 char *why, size_t n_why)
{
	*ptr = NULL;
	if (kind == FV_PEER_HOST)
		return host_open(bytes ? bytes : 8, key, ptr, why, n_why);
	int old;
	if (!gpu_or_why(worker, &old, why, n_why))
		return 0;
#ifdef PEER_CUDA
	cudaIpcMemHandle_t ipc;
	memset(&ipc, 0, sizeof ipc);
	memcpy(&ipc, key, sizeof ipc < FV_PEER_HANDLE ? sizeof ipc : FV_PEER_HANDLE);
	/* the same GPU in two processes needs no peer access; two GPUs need
	 * it (NVLink, or PCIe where the platform allows) */
	cudaError_t e = cudaIpcOpenMemHandle(ptr, ipc, cudaIpcMemLazyEnablePeerAccess);
	back_to(old);
	if (e != cudaSuccess) {
		snprintf(why, n_why, "GPU %d cannot map the other rank's buffer: %s", starpu_worker_get_devid(worker),
			 cudaGetErrorString(e));
		(void)cudaGetLastError();
		*ptr = NULL;
		return 0;
	}
	return 1;
#endif
	(void)key;
	return 0;
}

void fv_runtime_peer_opened(int kind, const unsigned char key[FV_PEER_HANDLE])
{
	char name[FV_PEER_HANDLE + 1];
	if (kind != FV_PEER_HOST)
		return;
	memcpy(name, key, FV_PEER_HANDLE);
	name[FV_PEER_HANDLE] = 0;
	/* mapped where needed: the name goes, the memory stays until unmapped */
	if (name[0])
		shm_unlink(name);
}

/* A mapping (close) or an allocation (free) let go of. */
static void release(int kind, int worker, void *ptr, size_t bytes, int close)
{
	if (!ptr)
		return;
	if (kind == FV_PEER_HOST) {
		munmap(ptr, bytes ? bytes : 8);
		return;
	}
#ifdef PEER_CUDA
	int old;
	if (use_device(worker, &old)) {
		(void)(close ? cudaIpcCloseMemHandle(ptr) : cudaFree(ptr));
		back_to(old);
	}
#else
	(void)worker;
	(void)close;
#endif
}

void fv_runtime_peer_close(int kind, int worker, void *ptr, size_t bytes)
{
	release(kind, worker, ptr, bytes, 1);
}

void fv_runtime_peer_free(int kind, int worker, void *dptr, size_t bytes)
{
	release(kind, worker, dptr, bytes, 0);
}
