/* SPDX-License-Identifier: MIT */
/* What the row alignment of a block's SoA fields costs on a GPU: the
 * fields are [row][cell] with the rows n_cells (or n_owned) values apart
 * (src/kernels/kernels.h), so row k starts k * n * 8 bytes into the
 * buffer, aligned to 128 bytes only when n is a multiple of 16. Two
 * kernels with the solver's access pattern, timed with CUDA events (best
 * of 18 after 2 warm-up launches) for pairs (n_owned, n_cells):
 *   update  the SSP Runge-Kutta update (fv_k_update: q with stride
 *           n_cells, q0 and the residual with stride n_owned, volume and
 *           time step; 168 bytes a cell counted),
 *   prim    the primitive variables (5 rows of q in, 5 of w out).
 * Found (issue 23, bench/results/2026-12-01-halo8.md): on an H200 the
 * update runs at 4.0-4.1 TB/s with aligned rows and 3.3-3.4 TB/s without,
 * 20-22 % longer, from 0.98M to 10.4M cells: one block of the 10.37M box
 * (6 x 120^3 cells, aligned) against two (unaligned).
 * Build (no StarPU, no fvstar library): `make bench` in a CUDA build, or
 *   nvcc -O3 -arch=sm_90 -o bench_row_align bench/bench_row_align.cu
 * Usage: bench_row_align [NO:NC ...]   (default: the sizes of the report) */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                                                      \
	do {                                                                                          \
		cudaError_t e_ = (x);                                                                 \
		if (e_ != cudaSuccess) {                                                              \
			fprintf(stderr, "bench_row_align: %s: %s\n", #x, cudaGetErrorString(e_));     \
			exit(1);                                                                      \
		}                                                                                     \
	} while (0)

__global__ void update(int no, int nc, int first, const double *vol, const double *dt, const double *res, double *q0,
		       double *q, double a, double b)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= no)
		return;
	double r = dt[c] / vol[c];
	for (int k = 0; k < 5; k++) {
		size_t i = (size_t)k * nc + c, j = (size_t)k * no + c;
		if (first)
			q0[j] = q[i];
		q[i] = a * q0[j] + b * (q[i] - r * res[j]);
	}
}

__global__ void prim(int nc, const double *q, double *w)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= nc)
		return;
	size_t n = (size_t)nc;
	double rho = q[c], u = q[n + c] / rho, v = q[2 * n + c] / rho, x = q[3 * n + c] / rho;
	w[c] = rho, w[n + c] = u, w[2 * n + c] = v, w[3 * n + c] = x;
	w[4 * n + c] = 0.4 * (q[4 * n + c] - 0.5 * rho * (u * u + v * v + x * x));
}

int main(int argc, char **argv)
{
	static const int defaults[][2] = {{10368000, 10368000}, {10367993, 10367993}, {10367984, 10367984},
					  {10367996, 10367996}, {5184000, 5184000},   {5182342, 5197775},
					  {5182336, 5197760},   {978993, 978993},     {978976, 978976}};
	int npairs = argc > 1 ? argc - 1 : (int)(sizeof defaults / sizeof defaults[0]);
	int(*pairs)[2] = (int(*)[2])calloc((size_t)npairs, sizeof *pairs);
	size_t maxn = 1;
	for (int i = 0; i < npairs; i++) {
		if (argc > 1) {
			if (sscanf(argv[i + 1], "%d:%d", &pairs[i][0], &pairs[i][1]) != 2 || pairs[i][0] < 1 ||
			    pairs[i][1] < pairs[i][0]) {
				fprintf(stderr, "bench_row_align: '%s': expected NO:NC with 1 <= NO <= NC\n", argv[i + 1]);
				return 2;
			}
		} else {
			pairs[i][0] = defaults[i][0], pairs[i][1] = defaults[i][1];
		}
		if ((size_t)pairs[i][1] > maxn)
			maxn = (size_t)pairs[i][1];
	}
	double *vol, *dt, *res, *q0, *q, *w;
	CHECK(cudaMalloc(&vol, maxn * 8));
	CHECK(cudaMalloc(&dt, maxn * 8));
	CHECK(cudaMalloc(&res, 5 * maxn * 8));
	CHECK(cudaMalloc(&q0, 5 * maxn * 8));
	CHECK(cudaMalloc(&q, 5 * maxn * 8));
	CHECK(cudaMalloc(&w, 5 * maxn * 8));
	CHECK(cudaMemset(vol, 0, maxn * 8));
	CHECK(cudaMemset(dt, 0, maxn * 8));
	CHECK(cudaMemset(res, 0, 5 * maxn * 8));
	CHECK(cudaMemset(q0, 0, 5 * maxn * 8));
	CHECK(cudaMemset(q, 0, 5 * maxn * 8));
	cudaEvent_t e0, e1;
	CHECK(cudaEventCreate(&e0));
	CHECK(cudaEventCreate(&e1));
	printf("%10s %10s %9s %11s %9s %8s %11s %9s\n", "n_owned", "n_cells", "rows 128B", "update us", "ns/cell", "GB/s",
	       "prim us", "ns/cell");
	for (int i = 0; i < npairs; i++) {
		int no = pairs[i][0], nc = pairs[i][1];
		float best_u = 1e30f, best_p = 1e30f, ms;
		for (int rep = 0; rep < 20; rep++) {
			CHECK(cudaEventRecord(e0));
			update<<<(no + 255) / 256, 256>>>(no, nc, rep & 1, vol, dt, res, q0, q, 0.5, 0.5);
			CHECK(cudaEventRecord(e1));
			CHECK(cudaEventSynchronize(e1));
			CHECK(cudaEventElapsedTime(&ms, e0, e1));
			if (rep > 1 && ms < best_u)
				best_u = ms;
			CHECK(cudaEventRecord(e0));
			prim<<<(nc + 255) / 256, 256>>>(nc, q, w);
			CHECK(cudaEventRecord(e1));
			CHECK(cudaEventSynchronize(e1));
			CHECK(cudaEventElapsedTime(&ms, e0, e1));
			if (rep > 1 && ms < best_p)
				best_p = ms;
		}
		CHECK(cudaGetLastError());
		printf("%10d %10d %9s %11.1f %9.4f %8.0f %11.1f %9.4f\n", no, nc,
		       no % 16 == 0 && nc % 16 == 0 ? "yes" : "no", best_u * 1e3, best_u * 1e6 / no,
		       no * 168.0 / (best_u * 1e-3) / 1e9, best_p * 1e3, best_p * 1e6 / nc);
	}
	free(pairs);
	return 0;
}
