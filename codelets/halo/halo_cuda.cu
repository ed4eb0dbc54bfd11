/* SPDX-License-Identifier: MIT */
/* CUDA pack and unpack of halo buffers (Alg. 12/13 of the FGCS paper: the
 * exchange data are gathered and scattered on the GPU, so only the small
 * buffers move between memory nodes). */
#include <cstdio>
#include <cstdlib>

#include "codelets/cuda_common.cuh"

/* the first n cells of the neighbour's run (n from the buffer's size) */
static __global__ void pack_kernel(fv_view_t v, int nbr, int nvars, const fv_real_t *field, fv_real_t *buf, fv_idx_t n)
{
	fv_idx_t b = v.send_off[nbr];
	fv_idx_t k = blockIdx.x * blockDim.x + threadIdx.x;
	if (k >= n)
		return;
	fv_idx_t c = v.send_cell[b + k];
	for (int q = 0; q < nvars; q++)
		buf[(size_t)q * n + k] = field[(size_t)q * v.sc + c];
}

static __global__ void unpack_kernel(fv_view_t v, int nbr, int nvars, const fv_real_t *buf, fv_real_t *field,
				     fv_idx_t n)
{
	fv_idx_t g0 = v.n_owned + v.recv_off[nbr];
	fv_idx_t k = blockIdx.x * blockDim.x + threadIdx.x;
	if (k >= n)
		return;
	for (int q = 0; q < nvars; q++)
		field[(size_t)q * v.sc + g0 + k] = buf[(size_t)q * n + k];
}

/* The cells of a buffer (its values / nvars: the whole run, or the cells
 * sharing a face in the halos read across faces), packed for neighbour k
 * from the field, or unpacked into its ghosts from k. */
static long halo_cells(void *buffer, int nvars)
{
	return (long)STARPU_VECTOR_GET_NX(buffer) / (nvars > 0 ? nvars : 1);
}

/* The pointer a kernel uses for a buffer: its own, or for a buffer that
 * stays in host memory (host: numerics.halo_zero_copy) the device's
 * mapping of it. Pinned memory StarPU allocates (cudaHostAlloc) is mapped
 * into every GPU's address space; the solver gives these buffers such
 * memory, so anything else here is a bug. */
static fv_real_t *buffer_ptr(void *buffer, int host, const char *task)
{
	fv_real_t *p = (fv_real_t *)STARPU_VECTOR_GET_PTR(buffer);
	void *dp = NULL;
	if (!host)
		return p;
	if (cudaHostGetDevicePointer(&dp, p, 0) != cudaSuccess || !dp) {
		(void)cudaGetLastError();
		fprintf(stderr,
			"fvstar: %s task: halo buffer %p is not host memory mapped for the GPU "
			"(numerics.halo_zero_copy = no avoids it)\n",
			task, (void *)p);
		abort();
	}
	return (fv_real_t *)dp;
}

static void launch_pack(const fv_view_t &v, int k, int nvars, const fv_real_t *field, void *buffer, int host)
{
	long n = halo_cells(buffer, nvars);
	if (n == 0)
		return;
	pack_kernel<<<fv_cuda_blocks(n), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
		v, k, nvars, field, buffer_ptr(buffer, host, "pack"), (fv_idx_t)n);
	FV_CUDA_CHECK_LAUNCH();
}

static void launch_unpack(const fv_view_t &v, int k, int nvars, void *buffer, fv_real_t *field, int host)
{
	long n = halo_cells(buffer, nvars);
	if (n == 0)
		return;
	unpack_kernel<<<fv_cuda_blocks(n), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
		v, k, nvars, buffer_ptr(buffer, host, "unpack"), field, (fv_idx_t)n);
	FV_CUDA_CHECK_LAUNCH();
}

/* numerics.halo_peer: the pack into the receiving rank's GPU memory
 * (a->peer, mapped here by CUDA IPC: NVLink or PCIe peer writes); buffers
 * geo, the field, then the token and the ack in host memory, which no
 * kernel touches. The task ends when the kernel has (STARPU_CUDA_ASYNC:
 * StarPU waits for the stream), so its writes are done before StarPU-MPI
 * sends the token. */
extern "C" void fv_pack_peer_cuda(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	long n = a.peer_n / (a.nvars > 0 ? a.nvars : 1);
	if (n == 0)
		return;
	pack_kernel<<<fv_cuda_blocks(n), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(
		v, a.nbr, a.nvars, FV_PTR(1, const fv_real_t), (fv_real_t *)a.peer, (fv_idx_t)n);
	FV_CUDA_CHECK_LAUNCH();
}

/* buffers: geo, the field, the buffer (pack) or geo, the buffer, the
 * field (unpack) */
static void pack(void *buffers[], void *cl_arg, int host)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	launch_pack(v, a.nbr, a.nvars, FV_PTR(1, const fv_real_t), buffers[2], host);
}

static void unpack(void *buffers[], void *cl_arg, int host)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	launch_unpack(v, a.nbr, a.nvars, buffers[1], FV_PTR(2, fv_real_t), host);
}

/*
 * A block's halo for all of its neighbours in one kernel (numerics.
 * halo_tasks = block): thread t takes cell t of the concatenated runs; its
 * neighbour is the last k with start[k] <= t. Launch overhead, not bytes,
 * is what the halo kernels cost (a neighbour's run is 1-3 % of a block):
 * one launch per neighbour was 120 launches an iteration on 4 blocks of
 * one GPU (Nsight Compute, bench/results/2026-12-05-halo12.md). Blocks
 * with more neighbours than one launch carries take several.
 */
#define FV_HALO_LAUNCH_NBR 32
struct halo_runs {
	int n;					 /* neighbours in this launch */
	int k0;					 /* the first one's index */
	fv_idx_t start[FV_HALO_LAUNCH_NBR + 1]; /* prefix of the cells */
	fv_real_t *buf[FV_HALO_LAUNCH_NBR];
};

static __device__ int halo_run_of(const halo_runs &r, fv_idx_t t)
{
	int lo = 0, hi = r.n - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (r.start[mid] <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static __global__ void pack_runs_kernel(fv_view_t v, halo_runs r, int nvars, const fv_real_t *field)
{
	fv_idx_t t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= r.start[r.n])
		return;
	int i = halo_run_of(r, t);
	fv_idx_t n = r.start[i + 1] - r.start[i], k = t - r.start[i];
	fv_idx_t c = v.send_cell[v.send_off[r.k0 + i] + k];
	for (int q = 0; q < nvars; q++)
		r.buf[i][(size_t)q * n + k] = field[(size_t)q * v.sc + c];
}

static __global__ void unpack_runs_kernel(fv_view_t v, halo_runs r, int nvars, fv_real_t *field)
{
	fv_idx_t t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= r.start[r.n])
		return;
	int i = halo_run_of(r, t);
	fv_idx_t n = r.start[i + 1] - r.start[i], k = t - r.start[i];
	fv_idx_t g = v.n_owned + v.recv_off[r.k0 + i] + k;
	for (int q = 0; q < nvars; q++)
		field[(size_t)q * v.sc + g] = r.buf[i][(size_t)q * n + k];
}

/* geo, the field, then neighbour k's buffer at 2 + k: one launch per
 * FV_HALO_LAUNCH_NBR neighbours, in the task's stream */
static void runs_all(void *buffers[], void *cl_arg, int host, int unpack)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	fv_real_t *field = FV_PTR(1, fv_real_t);
	for (int k0 = 0; k0 < v.n_nbr; k0 += FV_HALO_LAUNCH_NBR) {
		halo_runs r;
		r.n = v.n_nbr - k0 < FV_HALO_LAUNCH_NBR ? v.n_nbr - k0 : FV_HALO_LAUNCH_NBR;
		r.k0 = k0;
		r.start[0] = 0;
		for (int i = 0; i < r.n; i++) {
			void *b = buffers[2 + k0 + i];
			r.start[i + 1] = r.start[i] + (fv_idx_t)halo_cells(b, a.nvars);
			r.buf[i] = r.start[i + 1] > r.start[i] ? buffer_ptr(b, host, unpack ? "unpack" : "pack") : NULL;
		}
		long n = r.start[r.n];
		if (n == 0)
			continue;
		if (unpack)
			unpack_runs_kernel<<<fv_cuda_blocks(n), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(v, r, a.nvars, field);
		else
			pack_runs_kernel<<<fv_cuda_blocks(n), FV_CUDA_THREADS, 0, FV_CUDA_STREAM>>>(v, r, a.nvars, field);
		FV_CUDA_CHECK_LAUNCH();
	}
}

static void pack_all(void *buffers[], void *cl_arg, int host)
{
	runs_all(buffers, cl_arg, host, 0);
}

static void unpack_all(void *buffers[], void *cl_arg, int host)
{
	runs_all(buffers, cl_arg, host, 1);
}

extern "C" void fv_pack_cuda(void *buffers[], void *cl_arg)
{
	pack(buffers, cl_arg, 0);
}

extern "C" void fv_unpack_cuda(void *buffers[], void *cl_arg)
{
	unpack(buffers, cl_arg, 0);
}

extern "C" void fv_pack_all_cuda(void *buffers[], void *cl_arg)
{
	pack_all(buffers, cl_arg, 0);
}

extern "C" void fv_unpack_all_cuda(void *buffers[], void *cl_arg)
{
	unpack_all(buffers, cl_arg, 0);
}

/* fv_insert_fetch: StarPU brought the buffers to this GPU; no kernel. */
extern "C" void fv_fetch_cuda(void *buffers[], void *cl_arg)
{
	(void)buffers;
	(void)cl_arg;
}

/* The host-buffer variants (numerics.halo_zero_copy): the same kernels on
 * the buffers StarPU keeps in host memory. */
extern "C" void fv_pack_host_cuda(void *buffers[], void *cl_arg)
{
	pack(buffers, cl_arg, 1);
}

extern "C" void fv_unpack_host_cuda(void *buffers[], void *cl_arg)
{
	unpack(buffers, cl_arg, 1);
}

extern "C" void fv_pack_all_host_cuda(void *buffers[], void *cl_arg)
{
	pack_all(buffers, cl_arg, 1);
}

extern "C" void fv_unpack_all_host_cuda(void *buffers[], void *cl_arg)
{
	unpack_all(buffers, cl_arg, 1);
}
