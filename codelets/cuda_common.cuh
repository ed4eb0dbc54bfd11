/* SPDX-License-Identifier: MIT */
/* What the CUDA codelets share: the launch geometry and check, and the
 * two loop shapes every stage is written with: a loop over n items (cells,
 * nodes), and a face loop, either over all faces at once with atomic
 * accumulation or one launch per colour group with plain adds. A loop's
 * body is a functor with a __device__ operator()(index[, atomic]). */
#ifndef FVSTAR_CODELETS_CUDA_COMMON_CUH
#define FVSTAR_CODELETS_CUDA_COMMON_CUH

#include "codelets/common.h"
#include "codelets/launch.h"

#define FV_CUDA_THREADS 256

static inline unsigned fv_cuda_blocks(long n)
{
	return (unsigned)((n + FV_CUDA_THREADS - 1) / FV_CUDA_THREADS);
}

/* A failed launch aborts through StarPU with the CUDA error. */
#define FV_CUDA_CHECK_LAUNCH()                                             \
	do {                                                               \
		cudaError_t fv_cuda_err_ = cudaGetLastError();             \
		if (fv_cuda_err_ != cudaSuccess)                           \
			STARPU_CUDA_REPORT_ERROR(fv_cuda_err_);            \
	} while (0)

#define FV_CUDA_STREAM starpu_cuda_get_local_stream()

/* A StarPU CUDA function: unpacks the task's arguments into `a` and runs
 * the statement (a launch on the worker's stream). */
#define FV_CUDA_FUNC(name, ...)                                 \
	extern "C" void name(void *buffers[], void *cl_arg)     \
	{                                                       \
		fv_task_args_t a;                               \
		FV_ARGS_UNPACK(cl_arg, &a);                     \
		__VA_ARGS__;                                    \
	}

template <class Body> static __global__ void fv_items_kernel(Body body, fv_idx_t n)
{
	fv_idx_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		body(i);
}

/* body(i) for i in [0, n), one thread each. */
template <class Body> static void fv_cuda_items(fv_idx_t n, Body body, cudaStream_t st)
{
	if (n > 0)
		fv_items_kernel<<<fv_cuda_blocks(n), FV_CUDA_THREADS, 0, st>>>(body, n);
	FV_CUDA_CHECK_LAUNCH();
}

template <class Body> static __global__ void fv_list_kernel(Body body, const fv_idx_t *list, fv_idx_t n)
{
	fv_idx_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		body(list[i]);
}

/* body(i) over the items of a split task's part (numerics.overlap): the
 * border part over its list of the view (view.h: border_list[k]), where
 * the block keeps one, otherwise over [0, n) like fv_cuda_items (the body
 * checks the part). A border task then costs its few items, not a pass
 * over the whole block: on a rank per H200 the border tasks of a 2.53M-cell
 * box took 150 us per RK stage scanning every node, cell and face. */
template <class Body>
static void fv_cuda_part_items(const fv_view_t &v, int k, int part, fv_idx_t n, Body body, cudaStream_t st)
{
	if (part != FV_SPLIT_BORDER || !v.border_list[k]) {
		fv_cuda_items(n, body, st);
		return;
	}
	if (v.n_border[k] > 0)
		fv_list_kernel<<<fv_cuda_blocks(v.n_border[k]), FV_CUDA_THREADS, 0, st>>>(body, v.border_list[k],
											    v.n_border[k]);
	FV_CUDA_CHECK_LAUNCH();
}

template <class Body>
static __global__ void fv_faces_kernel(Body body, fv_idx_t begin, fv_idx_t end, const fv_idx_t *list, int atomic)
{
	fv_idx_t i = begin + blockIdx.x * blockDim.x + threadIdx.x;
	if (i < end)
		body(list ? list[i] : i, atomic);
}

/* body(f, atomic) over the block's faces: FV_SUM_COLOR, one launch per
 * colour group k0 .. k1-1 in order on the stream (a group starts when the
 * previous one has finished), plain adds; otherwise every face in one
 * launch with atomics. */
template <class Body>
static void fv_cuda_faces(const fv_view_t &v, const fv_task_args_t *a, int sum, int k0, int k1, Body body,
			  cudaStream_t st)
{
	if (sum == FV_SUM_COLOR) {
		for (int k = k0; k < k1; k++) {
			fv_idx_t b = a->color_off[k], e = a->color_off[k + 1];
			if (e > b)
				fv_faces_kernel<<<fv_cuda_blocks(e - b), FV_CUDA_THREADS, 0, st>>>(body, b, e,
												   v.color_face, 0);
		}
	} else if (v.n_faces > 0) {
		fv_faces_kernel<<<fv_cuda_blocks(v.n_faces), FV_CUDA_THREADS, 0, st>>>(body, 0, v.n_faces,
										       (const fv_idx_t *)NULL, 1);
	}
	FV_CUDA_CHECK_LAUNCH();
}

/* All colour groups, or all faces. */
template <class Body>
static void fv_cuda_faces(const fv_view_t &v, const fv_task_args_t *a, int sum, Body body, cudaStream_t st)
{
	fv_cuda_faces(v, a, sum, 0, a->n_colors, body, st);
}

#endif
