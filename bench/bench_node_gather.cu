/* SPDX-License-Identifier: MIT */
/* What the layout of the primitives costs the node-value kernel and the
 * gradient on a GPU (issue 23, bench/results/2026-12-03-halo10.md). The
 * solver keeps every field as rows, w[q * n_cells + c]
 * (src/kernels/kernels.h), so a node that averages its ~24 cells reads
 * one 32-byte sector for each of the 5 values of each cell: ncu found the
 * node-value kernel at 485 bytes of DRAM a cell against ~64 needed
 * (bench/results/2026-12-02-halo9.md). Here the same gathers on a
 * tetrahedral box (n^3 hexahedra of 6 Kuhn tetrahedra, cells numbered
 * hexahedron by hexahedron like `fvstar mesh gen box`), each timed with
 * CUDA events (best of 10 after 2 warm-up launches):
 *   prim         5 rows of q in, 5 rows of w out (the primitive kernel)
 *   prim+aos     the same, and a copy of w with each cell's 5 values side
 *                by side (stride 5 or 8)
 *   node soa     thread per node, the rows (today's kernel, fv_k_node)
 *   node aos5/8  the same from the side-by-side copy
 *   grad soa     thread per tetrahedron, its 4 node values (5 rows) times
 *                weight vectors into 15 rows (fv_k_gradient's reads)
 *   grad aos     the node values side by side too (the node kernel writing
 *                them so)
 * Every variant's output equals the rows' to the last bit (checked).
 * Build (no StarPU, no fvstar library): `make bench/bench_node_gather` in
 * a CUDA build, or
 *   nvcc -O3 -arch=sm_90 -o bench_node_gather bench/bench_node_gather.cu
 * Usage: bench_node_gather [N ...]   (hexahedra a side; default 60 120:
 * 1.30M and 10.37M cells) */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x)                                                                                      \
	do {                                                                                          \
		cudaError_t e_ = (x);                                                                 \
		if (e_ != cudaSuccess) {                                                              \
			fprintf(stderr, "bench_node_gather: %s: %s\n", #x, cudaGetErrorString(e_));   \
			exit(1);                                                                      \
		}                                                                                     \
	} while (0)

__global__ void prim(int nc, const double *q, double *w, double *wa, int sa)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= nc)
		return;
	double r = q[c], u = q[(size_t)nc + c] / r, v = q[2 * (size_t)nc + c] / r, x = q[3 * (size_t)nc + c] / r;
	double p = 0.4 * (q[4 * (size_t)nc + c] - 0.5 * r * (u * u + v * v + x * x));
	double o[5] = {r, u, v, x, p};
	for (int k = 0; k < 5; k++)
		w[(size_t)k * nc + c] = o[k];
	if (wa)
		for (int k = 0; k < 5; k++)
			wa[(size_t)sa * c + k] = o[k];
}

/* stride 0: the rows (w[k * nc + c]); else cell c's values at w[s * c + k] */
__global__ void node(int nn, int nc, const int *off, const int *cell, const double *w, int s, double *wn, int so)
{
	int n = blockIdx.x * blockDim.x + threadIdx.x;
	if (n >= nn)
		return;
	double a[5] = {0, 0, 0, 0, 0};
	int b = off[n], e = off[n + 1];
	for (int k = b; k < e; k++) {
		int c = cell[k];
		if (s)
			for (int q = 0; q < 5; q++)
				a[q] += w[(size_t)s * c + q];
		else
			for (int q = 0; q < 5; q++)
				a[q] += w[(size_t)q * nc + c];
	}
	for (int q = 0; q < 5; q++)
		if (so)
			wn[(size_t)so * n + q] = a[q] / (double)(e - b);
		else
			wn[(size_t)q * nn + n] = a[q] / (double)(e - b);
}

__global__ void grad(int nc, int nn, const int *cn, const double *gw, const double *wn, int s, double *g)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= nc)
		return;
	double a[5][3] = {};
	for (int k = 0; k < 4; k++) {
		size_t i = (size_t)4 * c + k;
		int n = cn[i];
		double gx = gw[i], gy = gw[(size_t)4 * nc + i], gz = gw[(size_t)8 * nc + i];
		for (int q = 0; q < 5; q++) {
			double x = s ? wn[(size_t)s * n + q] : wn[(size_t)q * nn + n];
			a[q][0] += x * gx;
			a[q][1] += x * gy;
			a[q][2] += x * gz;
		}
	}
	for (int q = 0; q < 5; q++)
		for (int d = 0; d < 3; d++)
			g[(size_t)(q * 3 + d) * nc + c] = a[q][d];
}

template <class F> static float best(F f)
{
	cudaEvent_t a, b;
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	float t = 1e30f;
	for (int r = 0; r < 12; r++) {
		CHECK(cudaEventRecord(a));
		f();
		CHECK(cudaEventRecord(b));
		CHECK(cudaEventSynchronize(b));
		float ms;
		CHECK(cudaEventElapsedTime(&ms, a, b));
		if (r >= 2 && ms < t)
			t = ms;
	}
	CHECK(cudaGetLastError());
	cudaEventDestroy(a);
	cudaEventDestroy(b);
	return t * 1000.0f;
}

static double *dev(size_t n)
{
	double *p;
	CHECK(cudaMalloc(&p, n * sizeof *p));
	return p;
}

/* The largest difference between the rows r (nr rows of m) and x laid out
 * with stride s (0: rows too). */
static double diff(const double *r, const double *x, size_t m, int nr, int s)
{
	std::vector<double> h(m * nr), y(m * (s ? s : nr));
	CHECK(cudaMemcpy(h.data(), r, h.size() * sizeof(double), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(y.data(), x, y.size() * sizeof(double), cudaMemcpyDeviceToHost));
	double d = 0;
	for (size_t i = 0; i < m; i++)
		for (int q = 0; q < nr; q++) {
			double v = s ? y[(size_t)s * i + q] : y[(size_t)q * m + i];
			double e = v > h[(size_t)q * m + i] ? v - h[(size_t)q * m + i] : h[(size_t)q * m + i] - v;
			d = e > d ? e : d;
		}
	return d;
}

static void run(int n)
{
	const int n1 = n + 1;
	const size_t nh = (size_t)n * n * n, nc = 6 * nh, nn = (size_t)n1 * n1 * n1;
	static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	std::vector<int> cn(4 * nc), cnt(nn + 1, 0);
	for (size_t h = 0; h < nh; h++) {
		int i = (int)(h % n), j = (int)(h / n % n), k = (int)(h / n / n);
		for (int t = 0; t < 6; t++) {
			int p[3] = {i, j, k};
			size_t c = 6 * h + t;
			cn[4 * c] = (k * n1 + j) * n1 + i;
			for (int s = 0; s < 3; s++) {
				p[perm[t][s]]++;
				cn[4 * c + s + 1] = (p[2] * n1 + p[1]) * n1 + p[0];
			}
		}
	}
	for (size_t i = 0; i < 4 * nc; i++)
		cnt[cn[i] + 1]++;
	for (size_t i = 0; i < nn; i++)
		cnt[i + 1] += cnt[i];
	std::vector<int> nce(4 * nc), fill(cnt.begin(), cnt.end() - 1);
	for (size_t c = 0; c < nc; c++)
		for (int k = 0; k < 4; k++)
			nce[fill[cn[4 * c + k]]++] = (int)c;
	std::vector<double> hq(5 * nc), hg(12 * nc);
	for (size_t c = 0; c < nc; c++) {
		double x = (double)(c % 977) / 977.0;
		hq[c] = 1 + 0.1 * x;
		hq[nc + c] = 0.5 + x;
		hq[2 * nc + c] = 0.1 * x;
		hq[3 * nc + c] = -0.2 * x;
		hq[4 * nc + c] = 2.5 + x;
	}
	for (size_t i = 0; i < 12 * nc; i++)
		hg[i] = (double)(i % 13) - 6;
	int *doff, *dcell, *dcn;
	CHECK(cudaMalloc(&doff, (nn + 1) * sizeof(int)));
	CHECK(cudaMalloc(&dcell, 4 * nc * sizeof(int)));
	CHECK(cudaMalloc(&dcn, 4 * nc * sizeof(int)));
	CHECK(cudaMemcpy(doff, cnt.data(), (nn + 1) * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dcell, nce.data(), 4 * nc * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dcn, cn.data(), 4 * nc * sizeof(int), cudaMemcpyHostToDevice));
	double *q = dev(5 * nc), *w = dev(5 * nc), *wa5 = dev(5 * nc), *wa8 = dev(8 * nc), *gw = dev(12 * nc);
	double *wn = dev(5 * nn), *wn5 = dev(5 * nn), *wn8 = dev(5 * nn), *g = dev(15 * nc), *g5 = dev(15 * nc);
	CHECK(cudaMemcpy(q, hq.data(), 5 * nc * sizeof(double), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(gw, hg.data(), 12 * nc * sizeof(double), cudaMemcpyHostToDevice));
	const int T = 256;
	const int bc = (int)((nc + T - 1) / T), bn = (int)((nn + T - 1) / T);
	const int inc = (int)nc, inn = (int)nn;
	float tp = best([&] { prim<<<bc, T>>>(inc, q, w, nullptr, 0); });
	float tp5 = best([&] { prim<<<bc, T>>>(inc, q, w, wa5, 5); });
	float tp8 = best([&] { prim<<<bc, T>>>(inc, q, w, wa8, 8); });
	float ts = best([&] { node<<<bn, T>>>(inn, inc, doff, dcell, w, 0, wn, 0); });
	float t5 = best([&] { node<<<bn, T>>>(inn, inc, doff, dcell, wa5, 5, wn5, 0); });
	float t8 = best([&] { node<<<bn, T>>>(inn, inc, doff, dcell, wa8, 8, wn8, 0); });
	double d5 = diff(wn, wn5, nn, 5, 0), d8 = diff(wn, wn8, nn, 5, 0);
	float t5o = best([&] { node<<<bn, T>>>(inn, inc, doff, dcell, wa5, 5, wn5, 5); });
	double d5o = diff(wn, wn5, nn, 5, 5);
	float tgs = best([&] { grad<<<bc, T>>>(inc, inn, dcn, gw, wn, 0, g); });
	float tg5 = best([&] { grad<<<bc, T>>>(inc, inn, dcn, gw, wn5, 5, g5); });
	double dg = diff(g, g5, nc, 15, 0);
	double mb = 1e-6 * (double)nc, nb = 1e-6 * (double)nn;
	printf("## box %d^3 x 6 tets: %zu cells, %zu nodes, %.2f cells a node\n", n, nc, nn, 4.0 * nc / nn);
	printf("| kernel | us | ns/cell | minimal bytes | GB/s of them |\n|---|---|---|---|---|\n");
	/* minimal bytes: every value read or written once, indices once */
	double bp = 80 * mb, bp5 = 120 * mb, bp8 = 144 * mb;
	double bnode = 40 * mb + (4 + 4) * nb + 16 * mb + 40 * nb; /* w, offsets, cell lists, wn */
	double bgrad = (16 + 96) * mb + 40 * nb + 120 * mb;       /* lists, weights, wn, gradient */
	struct {
		const char *name;
		float us;
		double mbytes;
	} r[] = {{"prim (rows)", tp, bp},
		 {"prim + side-by-side copy, stride 5", tp5, bp5},
		 {"prim + side-by-side copy, stride 8", tp8, bp8},
		 {"node from rows (today)", ts, bnode},
		 {"node from the stride-5 copy", t5, bnode},
		 {"node from the stride-8 copy", t8, bnode},
		 {"node from the stride-5 copy, node values side by side", t5o, bnode},
		 {"gradient from node rows (today)", tgs, bgrad},
		 {"gradient from node values side by side", tg5, bgrad}};
	for (auto &x : r)
		printf("| %s | %.1f | %.3f | %.0f MB | %.0f |\n", x.name, x.us, 1e3 * x.us / (double)nc,
		       x.mbytes, x.mbytes / x.us * 1e3);
	printf("checks (largest difference against the rows): node stride 5 %.3g, stride 8 %.3g, "
	       "node values side by side %.3g, gradient %.3g\n",
	       d5, d8, d5o, dg);
	printf("today (prim + node + gradient) %.1f us; side by side (prim + copy 5, node, gradient) %.1f us: %+.1f %%\n",
	       tp + ts + tgs, tp5 + t5o + tg5, 100.0 * ((tp5 + t5o + tg5) / (tp + ts + tgs) - 1));
	cudaFree(doff);
	cudaFree(dcell);
	cudaFree(dcn);
	for (double *p : {q, w, wa5, wa8, gw, wn, wn5, wn8, g, g5})
		cudaFree(p);
}

int main(int argc, char **argv)
{
	cudaDeviceProp p;
	CHECK(cudaGetDeviceProperties(&p, 0));
	printf("# %s, bench_node_gather (double precision)\n", p.name);
	if (argc < 2) {
		run(60);
		run(120);
	}
	for (int i = 1; i < argc; i++) {
		int n = atoi(argv[i]);
		if (n < 2 || n > 160) {
			fprintf(stderr, "bench_node_gather: N (%s) must be 2 to 160\n", argv[i]);
			return 2;
		}
		run(n);
	}
	return 0;
}
