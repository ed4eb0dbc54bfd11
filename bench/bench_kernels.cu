/* SPDX-License-Identifier: MIT */
/* The papers' kernel experiments on one GPU, without StarPU: node values
 * (NV-F/C/N), node-based Green-Gauss gradient (GQ-F/C/N), flux summation
 * (SF: atomic, gather, colour groups, colour + face-data reordering,
 * renumbered; with and without the Roe flux) and local min/max (LM), each
 * timed with CUDA events and checked against a CPU reference.
 *
 *   bench_kernels MESH|gen:tet:N [--precision double|single|both] [--reps R]
 *                 [--markdown OUT.md [--notes]] [--color greedy|minimal]
 *                 [--only NAME,PREFIX*,...] [--no-flush] [--launch-log FILE]
 *                 [--dry-run]
 *
 * Every kernel's result is compared with a CPU reference (the same FV_HD
 * loop bodies run serially); --only runs a subset; --launch-log writes one
 * line per launch (variant, run, kernel) for matching Nsight Compute rows;
 * --dry-run needs no GPU: it prepares everything, checks the colour plans
 * and runs the colour variants serially on the host against the reference.
 *
 * Precision: the kernels call the solver's FV_HD loop bodies and physics,
 * which are written in fv_real_t, fixed at configure time; so a build runs
 * one precision (--enable-single for float) and bench/run_kernels.sh runs
 * a double and a single build tree.
 *
 * Exit status: 0 every result matches its reference, 1 a mismatch or a
 * CUDA error, 2 usage or mesh error, 77 no GPU (automake's SKIP).
 */
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "fvstar/color.h"
#include "fvstar/mesh.h"
#include "kernels/kernels.h"
extern "C" {
#include "util/timer.h" /* a C header without its own extern "C" */
}

typedef fv_real_t real;

#define THREADS 256

#define CK(call)                                                                                        \
	do {                                                                                            \
		cudaError_t ck_err_ = (call);                                                           \
		if (ck_err_ != cudaSuccess) {                                                           \
			fprintf(stderr, "bench_kernels: %s:%d: %s: %s\n", __FILE__, __LINE__, #call,      \
				cudaGetErrorString(ck_err_));                                           \
			exit(1);                                                                        \
		}                                                                                       \
	} while (0)

static __device__ __forceinline__ fv_idx_t tid(void)
{
	return (fv_idx_t)(blockIdx.x * blockDim.x + threadIdx.x);
}

/* Colour-group launches cover up to two index ranges (a colour's boundary
 * block and its interior block in a face order from fv_color_face_order):
 * thread t takes position b0 + t, or b1 + t - n0 past the first range; the
 * face is list[position] (IND) or the position itself (contiguous data). */
template <bool IND>
static __host__ __device__ __forceinline__ fv_idx_t group_face(const fv_idx_t *list, fv_idx_t b0, fv_idx_t n0,
							       fv_idx_t b1, fv_idx_t t)
{
	fv_idx_t i = t < n0 ? b0 + t : b1 + (t - n0);
	return IND ? list[i] : i;
}

/* ---- NV: node values, average of the surrounding cells --------------- */

/* NV-F (loop-modes paper Alg. 2): each face adds its owner's and its
 * neighbour's values to each of its nodes, one contribution counted each;
 * the node value is the incidence-weighted average (each cell counted once
 * per face of it through the node: 3 times for every node of a tet, hex or
 * prism, so the plain average there; pyramid apexes differ). */
static __global__ void k_nv_face(fv_idx_t nf, const fv_idx_t *fc, const fv_idx_t *fno, const fv_idx_t *fn,
				 fv_idx_t nc, fv_idx_t nn, const real *w, real *acc, int *cnt)
{
	fv_idx_t f = tid();
	if (f >= nf)
		return;
	fv_idx_t o = fc[2 * (size_t)f], nb = fc[2 * (size_t)f + 1];
	for (fv_idx_t j = fno[f]; j < fno[f + 1]; j++) {
		fv_idx_t n = fn[j];
		for (int q = 0; q < FV_NVAR; q++)
			atomicAdd(&acc[(size_t)q * nn + n], w[(size_t)q * nc + o]);
		atomicAdd(&cnt[n], 1);
		if (nb < 0)
			continue;
		for (int q = 0; q < FV_NVAR; q++)
			atomicAdd(&acc[(size_t)q * nn + n], w[(size_t)q * nc + nb]);
		atomicAdd(&cnt[n], 1);
	}
}

/* NV-C (Alg. 3): each cell adds its values to its nodes. */
static __global__ void k_nv_cell(fv_idx_t nc, const fv_idx_t *cno, const fv_idx_t *cn, fv_idx_t nn, const real *w,
				 real *acc, int *cnt)
{
	fv_idx_t c = tid();
	if (c >= nc)
		return;
	for (fv_idx_t j = cno[c]; j < cno[c + 1]; j++) {
		fv_idx_t n = cn[j];
		for (int q = 0; q < FV_NVAR; q++)
			atomicAdd(&acc[(size_t)q * nn + n], w[(size_t)q * nc + c]);
		atomicAdd(&cnt[n], 1);
	}
}

static __global__ void k_nv_divide(fv_idx_t nn, real *acc, const int *cnt)
{
	fv_idx_t n = tid();
	if (n >= nn)
		return;
	for (int q = 0; q < FV_NVAR; q++)
		acc[(size_t)q * nn + n] = cnt[n] > 0 ? acc[(size_t)q * nn + n] / (real)cnt[n] : (real)0;
}

/* NV-N (Alg. 4): the solver's node loop over the node->cell CSR. */
static __global__ void k_nv_node(fv_view_t v, const real *w, real *wn)
{
	fv_idx_t n = tid();
	if (n < v.n_nodes)
		fv_k_node(&v, w, NULL, wn, n);
}

/* ---- GQ: node-based Green-Gauss gradient of NV variables --------------- */

/* GQ-F (Alg. 5): face value = mean of its node values; +S to the owner,
 * -S to the neighbour, by atomicAdd; then a division by the volume. */
template <int NV>
static __global__ void k_gq_face(fv_idx_t nf, const fv_idx_t *fc, const fv_idx_t *fno, const fv_idx_t *fn,
				 const real *area, fv_idx_t nn, fv_idx_t nc, const real *wn, real *g)
{
	fv_idx_t f = tid();
	if (f >= nf)
		return;
	fv_idx_t o = fc[2 * (size_t)f], nb = fc[2 * (size_t)f + 1], b = fno[f], e = fno[f + 1];
	real s[3];
	fv_k_face_vec(area, nf, f, s);
	for (int q = 0; q < NV; q++) {
		real sum = 0;
		for (fv_idx_t j = b; j < e; j++)
			sum += wn[(size_t)q * nn + fn[j]];
		sum /= (real)(e - b);
		for (int d = 0; d < 3; d++) {
			atomicAdd(&g[(size_t)(q * 3 + d) * nc + o], sum * s[d]);
			if (nb >= 0)
				atomicAdd(&g[(size_t)(q * 3 + d) * nc + nb], -sum * s[d]);
		}
	}
}

/* GQ-N (Alg. 7): each node adds its share (value / nodes of the face) of
 * every face through it to the face's two cells, by atomicAdd. */
template <int NV>
static __global__ void k_gq_node(fv_idx_t nn, const fv_idx_t *nfo, const fv_idx_t *nfa, const fv_idx_t *fno,
				 const fv_idx_t *fc, const real *area, fv_idx_t nf, fv_idx_t nc, const real *wn, real *g)
{
	fv_idx_t n = tid();
	if (n >= nn)
		return;
	real x[NV];
	for (int q = 0; q < NV; q++)
		x[q] = wn[(size_t)q * nn + n];
	for (fv_idx_t k = nfo[n]; k < nfo[n + 1]; k++) {
		fv_idx_t f = nfa[k], o = fc[2 * (size_t)f], nb = fc[2 * (size_t)f + 1];
		real s[3], inv = (real)1 / (real)(fno[f + 1] - fno[f]);
		fv_k_face_vec(area, nf, f, s);
		for (int q = 0; q < NV; q++)
			for (int d = 0; d < 3; d++) {
				real val = x[q] * inv * s[d];
				atomicAdd(&g[(size_t)(q * 3 + d) * nc + o], val);
				if (nb >= 0)
					atomicAdd(&g[(size_t)(q * 3 + d) * nc + nb], -val);
			}
	}
}

template <int NV>
static __global__ void k_gq_divide(fv_idx_t nc, const real *vol, real *g)
{
	fv_idx_t c = tid();
	if (c >= nc)
		return;
	for (int k = 0; k < 3 * NV; k++)
		g[(size_t)k * nc + c] /= vol[c];
}

/* GQ-C (Alg. 6), all five variables: a cell loop over its faces with the
 * solver's face term (the solver's own gather gradient regroups this sum
 * by node with precomputed weights, src/solver/geo.c). */
FV_HD void gq_cell_faces(const fv_view_t *v, const real *wn, real *g, fv_idx_t c)
{
	real acc[FV_NVAR][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		real gf[FV_NVAR][3];
		fv_k_face_gg(v, wn, v->cell_face[k], gf);
		for (int q = 0; q < FV_NVAR; q++)
			for (int d = 0; d < 3; d++)
				acc[q][d] += v->cell_face_sign[k] > 0 ? gf[q][d] : -gf[q][d];
	}
	for (int q = 0; q < FV_NVAR; q++)
		for (int d = 0; d < 3; d++)
			g[(size_t)(q * 3 + d) * v->n_cells + c] = acc[q][d] / v->cell_vol[c];
}

static __global__ void k_gq_cell(fv_view_t v, const real *wn, real *g)
{
	fv_idx_t c = tid();
	if (c < v.n_cells)
		gq_cell_faces(&v, wn, g, c);
}

/* GQ-C for one variable (the papers' kernels do one per launch): the loop
 * of gq_cell_faces restricted to that variable. */
static __global__ void k_gq_cell1(fv_view_t v, const real *wn, real *g)
{
	fv_idx_t c = tid();
	if (c >= v.n_cells)
		return;
	real acc[3] = {0, 0, 0};
	for (fv_idx_t k = v.cell_face_off[c]; k < v.cell_face_off[c + 1]; k++) {
		fv_idx_t f = v.cell_face[k], b = v.face_node_off[f], e = v.face_node_off[f + 1];
		real s[3], sum = 0, sg = (real)v.cell_face_sign[k] / (real)(e - b);
		fv_k_face_vec(v.face_area, v.n_faces, f, s);
		for (fv_idx_t j = b; j < e; j++)
			sum += wn[v.face_node[j]];
		for (int d = 0; d < 3; d++)
			acc[d] += sg * sum * s[d];
	}
	for (int d = 0; d < 3; d++)
		g[(size_t)d * v.n_cells + c] = acc[d] / v.cell_vol[c];
}

/* ---- SF: summation of a face flux array (the papers' SF kernels) ------- */

/* SF-F (Alg. 8): +flux to the owner, -flux to the neighbour, atomicAdd. */
template <int NV>
static __global__ void k_sf_face(fv_idx_t nf, const fv_idx_t *fc, const real *flux, fv_idx_t nc, real *res)
{
	fv_idx_t f = tid();
	if (f >= nf)
		return;
	fv_idx_t o = fc[2 * (size_t)f], nb = fc[2 * (size_t)f + 1];
	for (int q = 0; q < NV; q++) {
		real x = flux[(size_t)q * nf + f];
		atomicAdd(&res[(size_t)q * nc + o], x);
		if (nb >= 0)
			atomicAdd(&res[(size_t)q * nc + nb], -x);
	}
}

/* SF-C (Alg. 9): each cell sums its faces' fluxes with their signs. */
template <int NV>
static __global__ void k_sf_cell(fv_idx_t nc, const fv_idx_t *cfo, const fv_idx_t *cf, const int8_t *cfs,
				 const real *flux, fv_idx_t nf, real *res)
{
	fv_idx_t c = tid();
	if (c >= nc)
		return;
	real r[NV];
	for (int q = 0; q < NV; q++)
		r[q] = 0;
	for (fv_idx_t k = cfo[c]; k < cfo[c + 1]; k++) {
		fv_idx_t f = cf[k];
		for (int q = 0; q < NV; q++) {
			real x = flux[(size_t)q * nf + f];
			r[q] += cfs[k] > 0 ? x : -x;
		}
	}
	for (int q = 0; q < NV; q++)
		res[(size_t)q * nc + c] = r[q];
}

/* SF colour (colouring paper Alg. 5 / 9 / 11): one colour group, no two
 * faces of which share a cell, so plain read-modify-write is race-free. */
template <int NV, bool IND>
static __global__ void k_sf_group(const fv_idx_t *list, fv_idx_t b0, fv_idx_t n0, fv_idx_t b1, fv_idx_t n1,
				  const fv_idx_t *fc, const real *flux, fv_idx_t nf, fv_idx_t nc, real *res)
{
	fv_idx_t t = tid();
	if (t >= n0 + n1)
		return;
	fv_idx_t f = group_face<IND>(list, b0, n0, b1, t);
	fv_idx_t o = fc[2 * (size_t)f], nb = fc[2 * (size_t)f + 1];
	for (int q = 0; q < NV; q++) {
		real x = flux[(size_t)q * nf + f];
		res[(size_t)q * nc + o] += x;
		if (nb >= 0)
			res[(size_t)q * nc + nb] -= x;
	}
}

/* ---- RF: the solver's Roe flux (second order, limited) + summation ----- */

/* RF-F: the solver's flux_kernel (codelets/flux/flux_cuda.cu), all owned. */
static __global__ void k_rf_face(fv_view_t v, fv_params_t P, const real *w, const real *grad, const real *phi,
				 real *res)
{
	fv_idx_t f = tid();
	if (f >= v.n_faces)
		return;
	real F[FV_NFLUX];
	fv_idx_t o = v.face_cell[2 * (size_t)f], nb = v.face_cell[2 * (size_t)f + 1];
	fv_k_face_flux(&v, &P, w, grad, phi, f, F);
	for (int q = 0; q < FV_NVAR; q++) {
		atomicAdd(&res[(size_t)q * v.n_cells + o], F[q]);
		if (nb >= 0)
			atomicAdd(&res[(size_t)q * v.n_cells + nb], -F[q]);
	}
}

/* RF-C: the solver's gather (every interior face computed twice). */
static __global__ void k_rf_cell(fv_view_t v, fv_params_t P, const real *w, const real *grad, const real *phi,
				 real *res)
{
	fv_idx_t c = tid();
	if (c < v.n_cells)
		fv_k_cell_flux_gather(&v, &P, w, grad, phi, res, c);
}

template <bool IND>
static __global__ void k_rf_group(fv_view_t v, fv_params_t P, const real *w, const real *grad, const real *phi,
				  const fv_idx_t *list, fv_idx_t b0, fv_idx_t n0, fv_idx_t b1, fv_idx_t n1, real *res)
{
	fv_idx_t t = tid();
	if (t >= n0 + n1)
		return;
	fv_idx_t f = group_face<IND>(list, b0, n0, b1, t);
	fv_idx_t o = v.face_cell[2 * (size_t)f], nb = v.face_cell[2 * (size_t)f + 1];
	real F[FV_NFLUX];
	fv_k_face_flux(&v, &P, w, grad, phi, f, F);
	for (int q = 0; q < FV_NVAR; q++) {
		res[(size_t)q * v.n_cells + o] += F[q];
		if (nb >= 0)
			res[(size_t)q * v.n_cells + nb] -= F[q];
	}
}

/* ---- LM: local min / max of the pressure over the face neighbours ------ */

/* LM-F (Alg. 10): min / max start at the cell's own pressure (a copy),
 * then each interior face offers each cell its neighbour's, atomically. */
static __global__ void k_lm_face(fv_idx_t nf, const fv_idx_t *fc, const real *p, real *pmin, real *pmax)
{
	fv_idx_t f = tid();
	if (f >= nf)
		return;
	fv_idx_t o = fc[2 * (size_t)f], nb = fc[2 * (size_t)f + 1];
	if (nb < 0)
		return;
	real po = p[o], pn = p[nb];
	fv_k_minmax(&pmin[o], pn, 0, 1);
	fv_k_minmax(&pmax[o], pn, 1, 1);
	fv_k_minmax(&pmin[nb], po, 0, 1);
	fv_k_minmax(&pmax[nb], po, 1, 1);
}

/* LM-C (Alg. 11, without its needless atomics): each cell scans its faces. */
static __global__ void k_lm_cell(fv_idx_t nc, const fv_idx_t *cfo, const fv_idx_t *cf, const fv_idx_t *fc,
				 const real *p, real *pmin, real *pmax)
{
	fv_idx_t c = tid();
	if (c >= nc)
		return;
	real lo = p[c], hi = lo;
	for (fv_idx_t k = cfo[c]; k < cfo[c + 1]; k++) {
		fv_idx_t f = cf[k], o = fc[2 * (size_t)f], nb = fc[2 * (size_t)f + 1];
		fv_idx_t other = o == c ? nb : o;
		if (other < 0)
			continue;
		real x = p[other];
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	pmin[c] = lo;
	pmax[c] = hi;
}

/* LM colour (colouring paper Alg. 6 / 10, with the minimum as well). */
template <bool IND>
static __global__ void k_lm_group(const fv_idx_t *list, fv_idx_t b0, fv_idx_t n0, fv_idx_t b1, fv_idx_t n1,
				  const fv_idx_t *fc, const real *p, real *pmin, real *pmax)
{
	fv_idx_t t = tid();
	if (t >= n0 + n1)
		return;
	fv_idx_t f = group_face<IND>(list, b0, n0, b1, t);
	fv_idx_t o = fc[2 * (size_t)f], nb = fc[2 * (size_t)f + 1];
	if (nb < 0)
		return;
	real po = p[o], pn = p[nb];
	pmin[o] = pn < pmin[o] ? pn : pmin[o];
	pmax[o] = pn > pmax[o] ? pn : pmax[o];
	pmin[nb] = po < pmin[nb] ? po : pmin[nb];
	pmax[nb] = po > pmax[nb] ? po : pmax[nb];
}

/* ========================================================================
 * Host side
 * ====================================================================== */

static std::vector<void *> g_dev;      /* every device allocation */
static size_t g_dev_bytes;
static FILE *g_log;                    /* --launch-log: one line per launch */
static const char *g_variant = "";
static int g_run;
static cudaEvent_t g_ev0, g_ev1;
static void *g_flush;                  /* written between reps: evicts L2 */
static size_t g_flush_bytes;

template <typename T>
static T *dnew(size_t n)
{
	T *p = NULL;
	CK(cudaMalloc((void **)&p, (n ? n : 1) * sizeof(T)));
	g_dev.push_back(p);
	g_dev_bytes += (n ? n : 1) * sizeof(T);
	return p;
}

template <typename T>
static T *dput(const T *h, size_t n)
{
	T *p = dnew<T>(n);
	if (n)
		CK(cudaMemcpy(p, h, n * sizeof(T), cudaMemcpyHostToDevice));
	return p;
}

template <typename T>
static T *dput(const std::vector<T> &h)
{
	return dput(h.data(), h.size());
}

template <typename T>
static std::vector<T> dget(const T *d, size_t n)
{
	std::vector<T> h(n);
	if (n)
		CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
	return h;
}

/* Launches k over n threads on the default stream and checks the launch. */
template <typename... P, typename... A>
static void launch(const char *name, void (*k)(P...), long n, A... a)
{
	if (n <= 0)
		return;
	k<<<(unsigned)((n + THREADS - 1) / THREADS), THREADS>>>(a...);
	CK(cudaGetLastError());
	if (g_log)
		fprintf(g_log, "%s\t%d\t%s\n", g_variant, g_run, name);
}

static void zero(void *p, size_t bytes)
{
	CK(cudaMemsetAsync(p, 0, bytes));
}

/* Median time in ms of reps runs of op after one warm-up run; with the
 * flush buffer, L2 is overwritten before each timed run. */
template <typename Op>
static double time_op(Op op, int reps)
{
	std::vector<float> t;
	g_run = 0;
	op();
	CK(cudaDeviceSynchronize());
	for (int r = 0; r < reps; r++) {
		float ms;
		g_run = r + 1;
		if (g_flush)
			CK(cudaMemsetAsync(g_flush, r & 0xff, g_flush_bytes));
		CK(cudaEventRecord(g_ev0));
		op();
		CK(cudaEventRecord(g_ev1));
		CK(cudaEventSynchronize(g_ev1));
		CK(cudaGetLastError());
		CK(cudaEventElapsedTime(&ms, g_ev0, g_ev1));
		t.push_back(ms);
	}
	std::sort(t.begin(), t.end());
	size_t n = t.size();
	return n % 2 ? t[n / 2] : 0.5 * ((double)t[n / 2 - 1] + (double)t[n / 2]);
}

/* Max over variables q and entries i of |gpu - ref| / scale[q]; gpu entry
 * i is ref entry perm[i] (renumbered cells) or i. A NaN on one side only
 * is an infinite error. */
static double rel_err(const std::vector<real> &gpu, const real *ref, const double *scale, int nvar, size_t n,
		      const fv_idx_t *perm)
{
	double worst = 0;
	for (int q = 0; q < nvar; q++) {
		double s = scale[q] > 0 ? scale[q] : 1;
		for (size_t i = 0; i < n; i++) {
			double g = gpu[(size_t)q * n + i], r = ref[(size_t)q * n + (perm ? (size_t)perm[i] : i)];
			if (std::isnan(g) || std::isnan(r)) {
				if (!(std::isnan(g) && std::isnan(r)))
					return INFINITY;
				continue;
			}
			worst = std::max(worst, std::fabs(g - r) / s);
		}
	}
	return worst;
}

/* ---- the papers' V100 numbers ----------------------------------------- */

typedef struct paper_table {
	const char *name;      /* where the numbers come from */
	double cells[5];       /* cells of the paper's five meshes */
	double ms_per_unit;    /* table unit -> ms per kernel call */
} paper_table_t;

/* zhang-mesh-loop-modes-gpu.txt: Table 4 meshes (ONERA M6), Table 5 times
 * in s for 100 calls, V100 (double: PHengLEI's GPU port). */
static const paper_table_t LOOP_T5 = {"loop-modes Tab. 5", {1.05e6, 2.26e6, 3.97e6, 6.30e6, 8.78e6}, 10.0};
/* zhang2022-graph-coloring-fv-gpu.txt: Tab. 2 meshes, Tab. 4 (double) and
 * Tab. 5 (single) times in s for 1000 calls, V100. */
static const paper_table_t COL_T4 = {"colouring Tab. 4", {0.46e6, 0.89e6, 1.96e6, 3.92e6, 9.76e6}, 1.0};
static const paper_table_t COL_T5 = {"colouring Tab. 5", {0.46e6, 0.89e6, 1.96e6, 3.92e6, 9.76e6}, 1.0};

typedef struct paper_entry {
	const char *ours, *theirs;
	const paper_table_t *td, *ts; /* double, single (NULL: double only) */
	double vd[5], vs[5];
} paper_entry_t;

static const paper_entry_t PAPER[] = {
	{"NV-F", "NV-F", &LOOP_T5, NULL, {0.460, 1.307, 3.048, 5.758, 16.940}, {0}},
	{"NV-C", "NV-C", &LOOP_T5, NULL, {0.122, 0.480, 1.243, 2.462, 6.613}, {0}},
	{"NV-N", "NV-N", &LOOP_T5, NULL, {0.393, 0.976, 1.867, 3.005, 5.047}, {0}},
	{"GQ1-F", "GQ-F", &LOOP_T5, NULL, {0.061, 0.154, 0.308, 0.537, 1.209}, {0}},
	{"GQ1-C", "GQ-C", &LOOP_T5, NULL, {0.134, 0.326, 0.639, 1.102, 2.198}, {0}},
	{"GQ1-N", "GQ-N", &LOOP_T5, NULL, {1.361, 3.354, 6.812, 10.579, 19.151}, {0}},
	{"SF-F", "SF-F", &LOOP_T5, NULL, {0.099, 0.252, 0.513, 0.898, 1.983}, {0}},
	{"SF-C", "SF-C", &LOOP_T5, NULL, {0.149, 0.343, 0.638, 1.057, 1.856}, {0}},
	{"LM-F", "LM-F", &LOOP_T5, NULL, {0.050, 0.116, 0.229, 0.389, 0.834}, {0}},
	{"LM-C", "LM-C", &LOOP_T5, NULL, {0.020, 0.048, 0.094, 0.170, 0.362}, {0}},
	{"SF1-col", "Alg. 5", &COL_T4, &COL_T5, {0.222, 0.412, 1.071, 2.440, 5.991}, {0.159, 0.279, 0.673, 1.519, 3.927}},
	{"SF1-col-rn", "Alg. 9", &COL_T4, &COL_T5, {0.229, 0.438, 1.233, 3.039, 7.285},
	 {0.167, 0.293, 0.724, 1.856, 4.906}},
	{"SF1-col-fr", "Alg. 11", &COL_T4, &COL_T5, {0.172, 0.303, 0.786, 1.856, 4.691},
	 {0.133, 0.232, 0.550, 1.251, 3.350}},
	{"LM-col", "Alg. 6", &COL_T4, &COL_T5, {0.198, 0.378, 1.067, 2.564, 6.310}, {0.151, 0.263, 0.727, 1.736, 4.452}},
	{"LM-col-rn", "Alg. 10", &COL_T4, &COL_T5, {0.203, 0.406, 1.424, 3.778, 8.750},
	 {0.157, 0.292, 0.849, 2.485, 6.375}},
};

typedef struct paper_ref {
	bool has;
	char src[96];
	double cells, ms;
} paper_ref_t;

/* The paper's time for our kernel on its mesh closest in cell count. */
static paper_ref_t paper_lookup(const char *name, double cells, bool single)
{
	paper_ref_t r;
	memset(&r, 0, sizeof r);
	for (const paper_entry_t &e : PAPER) {
		if (strcmp(e.ours, name) != 0)
			continue;
		const paper_table_t *t = single && e.ts ? e.ts : e.td;
		const double *v = single && e.ts ? e.vs : e.vd;
		int best = 0;
		for (int k = 1; k < 5; k++)
			if (std::fabs(std::log(t->cells[k] / cells)) < std::fabs(std::log(t->cells[best] / cells)))
				best = k;
		r.has = true;
		r.cells = t->cells[best];
		r.ms = v[best] * t->ms_per_unit;
		snprintf(r.src, sizeof r.src, "%s %s, mesh %d (%.2fM)%s", t->name, e.theirs, best + 1, r.cells / 1e6,
			 single && !e.ts ? ", double" : "");
	}
	return r;
}

/* ---- results ------------------------------------------------------------ */

typedef struct row {
	std::string name, what;
	double ms, bytes, err, tol;
	bool ok;
} row_t;

static std::vector<row_t> g_rows;
static std::vector<std::string> g_only;

static bool wanted(const char *name)
{
	if (g_only.empty())
		return true;
	for (const std::string &p : g_only) {
		if (!p.empty() && p.back() == '*') {
			if (strncmp(name, p.c_str(), p.size() - 1) == 0)
				return true;
		} else if (p == name) {
			return true;
		}
	}
	return false;
}

static void record(const char *name, const char *what, double ms, double bytes, double err, double tol)
{
	row_t r;
	r.name = name;
	r.what = what;
	r.ms = ms;
	r.bytes = bytes;
	r.err = err;
	r.tol = tol;
	r.ok = err <= tol;
	g_rows.push_back(r);
	printf("%-14s %10.4f ms  %s  err %.2e (tol %.0e)\n", name, ms, r.ok ? "ok      " : "MISMATCH", err, tol);
	fflush(stdout);
}

/* ---- input data --------------------------------------------------------- */

static uint64_t g_rng = 0x9e3779b97f4a7c15ULL;

static double urand(void)
{
	g_rng ^= g_rng >> 12;
	g_rng ^= g_rng << 25;
	g_rng ^= g_rng >> 27;
	return (double)((g_rng * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

/* A smooth primitive field: each variable is a base value plus three
 * random plane waves of one to three periods across the box; rho and p
 * stay within 20% of 1 and 1/gamma. */
static void make_field(const fv_mesh_t *m, real gamma, std::vector<real> &w)
{
	const double base[FV_NVAR] = {1, 0.5, 0.1, -0.2, 1 / (double)gamma};
	const double amp[FV_NVAR] = {0.2, 0.2, 0.2, 0.2, 0.2 / (double)gamma};
	double lo[3], hi[3], k[FV_NVAR][3][3], ph[FV_NVAR][3];
	fv_idx_t nc = m->n_cells;
	for (int d = 0; d < 3; d++) {
		lo[d] = INFINITY;
		hi[d] = -INFINITY;
		for (fv_idx_t c = 0; c < nc; c++) {
			lo[d] = std::min(lo[d], (double)m->cell_ctr[(size_t)d * nc + c]);
			hi[d] = std::max(hi[d], (double)m->cell_ctr[(size_t)d * nc + c]);
		}
	}
	for (int q = 0; q < FV_NVAR; q++)
		for (int j = 0; j < 3; j++) {
			for (int d = 0; d < 3; d++)
				k[q][j][d] = 2 * M_PI * (1 + std::floor(3 * urand())) * (urand() < 0.5 ? -1 : 1) /
					     std::max(hi[d] - lo[d], 1e-30);
			ph[q][j] = 2 * M_PI * urand();
		}
	w.resize((size_t)FV_NVAR * nc);
	for (fv_idx_t c = 0; c < nc; c++) {
		double x[3];
		for (int d = 0; d < 3; d++)
			x[d] = m->cell_ctr[(size_t)d * nc + c] - lo[d];
		for (int q = 0; q < FV_NVAR; q++) {
			double s = 0;
			for (int j = 0; j < 3; j++)
				s += std::sin(k[q][j][0] * x[0] + k[q][j][1] * x[1] + k[q][j][2] * x[2] + ph[q][j]);
			w[(size_t)q * nc + c] = (real)(base[q] + amp[q] * s / 3);
		}
	}
}

/* A generated box: slip walls at zmin and zmax, symmetry on its sides. A
 * mesh file: slip walls on markers named like a body, symmetry on symmetry
 * planes, far field elsewhere. (The far-field state switches sides where
 * the boundary normal velocity crosses zero: on a face that close to the
 * switch the GPU's FMA rounding may pick the other side than the CPU; in
 * double no face comes close enough, in single one rarely may, so the
 * boxes keep to continuous conditions.) */
static int8_t bc_of_marker(const char *name, bool generated)
{
	if (generated)
		return strcmp(name, "zmin") == 0 || strcmp(name, "zmax") == 0 ? FV_BC_SLIP_WALL : FV_BC_SYMMETRY;
	if (strstr(name, "wall") || strstr(name, "wing") || strstr(name, "body"))
		return FV_BC_SLIP_WALL;
	if (strstr(name, "symm"))
		return FV_BC_SYMMETRY;
	return FV_BC_FARFIELD;
}

template <typename T>
static std::vector<T> permute(const T *src, int ncomp, size_t n, const fv_idx_t *order)
{
	std::vector<T> dst((size_t)ncomp * n);
	for (int k = 0; k < ncomp; k++)
		for (size_t i = 0; i < n; i++)
			dst[(size_t)k * n + i] = src[(size_t)k * n + order[i]];
	return dst;
}

static fv_view_t view_empty(fv_idx_t nc, fv_idx_t nf, fv_idx_t nbf, fv_idx_t nn)
{
	fv_view_t v;
	memset(&v, 0, sizeof v);
	v.n_owned = v.n_cells = nc;
	v.so = v.sc = nc; /* this bench's own fields: rows nc apart */
	v.n_faces = nf;
	v.n_bfaces = nbf;
	v.n_nodes = nn;
	v.sn = nn;
	return v;
}

/* A colour-group launch: positions [b0, b0 + n0) then [b1, b1 + n1). */
typedef struct group_launch {
	fv_idx_t b0, n0, b1, n1;
} group_launch_t;

typedef struct plan {
	const fv_idx_t *hlist, *dlist; /* face list on host and device, or NULL
					  for data stored in colour order */
	std::vector<group_launch_t> g;
} plan_t;

/* One launch per colour from a face order's blocks (K = 1 boundary key):
 * boundary block k and interior block n_colors + k. */
static plan_t plan_of_blocks(const std::vector<fv_idx_t> &bo, int nk)
{
	plan_t p;
	p.hlist = p.dlist = NULL;
	for (int k = 0; k < nk; k++) {
		group_launch_t g = {bo[k], bo[k + 1] - bo[k], bo[nk + k], bo[nk + k + 1] - bo[nk + k]};
		p.g.push_back(g);
	}
	return p;
}

/* Each face exactly once over the plan, and no cell (through fc) twice in
 * one launch: the property that makes the colour kernels race-free. */
static bool plan_ok(const char *name, const plan_t &pl, const fv_idx_t *fc, fv_idx_t nf, fv_idx_t nc)
{
	std::vector<int> seen(nf, 0), stamp(nc, -1);
	for (size_t k = 0; k < pl.g.size(); k++) {
		const group_launch_t &g = pl.g[k];
		for (fv_idx_t t = 0; t < g.n0 + g.n1; t++) {
			fv_idx_t f = pl.hlist ? group_face<true>(pl.hlist, g.b0, g.n0, g.b1, t)
					      : group_face<false>(NULL, g.b0, g.n0, g.b1, t);
			if (f < 0 || f >= nf || seen[f]++) {
				fprintf(stderr, "bench_kernels: plan %s: face %d out of range or twice\n", name, (int)f);
				return false;
			}
			for (int s = 0; s < 2; s++) {
				fv_idx_t c = fc[2 * (size_t)f + s];
				if (c < 0)
					continue;
				if (c >= nc || stamp[c] == (int)k) {
					fprintf(stderr, "bench_kernels: plan %s: cell %d twice in launch %zu\n", name,
						(int)c, k);
					return false;
				}
				stamp[c] = (int)k;
			}
		}
	}
	for (fv_idx_t f = 0; f < nf; f++)
		if (!seen[f]) {
			fprintf(stderr, "bench_kernels: plan %s: face %d missing\n", name, (int)f);
			return false;
		}
	return true;
}

static const char NOTES[] =
	"Notes (bench/bench_kernels.cu):\n\n"
	"- Times: median of the timed runs after one warm-up, CUDA events around the whole operation "
	"(including the memset of an accumulated output and, for NV-F/NV-C/GQ-F/GQ-N, the division "
	"pass; LM-F/LM-col include copying p into min and max). L2 is overwritten before each run "
	"unless --no-flush.\n"
	"- min MB: each array the kernel reads or writes counted once (indices 4 B, reals "
	"sizeof(fv_real_t)); GB/s = min MB / time: a lower bound on the DRAM traffic, since "
	"indirect gathers and atomics move more. Nsight Compute's dram__bytes (bench/run_kernels.sh, "
	"NCU=1) gives the real traffic.\n"
	"- Kernels: NV = node value (5 variables + count), GQ = node-based Green-Gauss gradient (5 "
	"variables; GQ1 = pressure only, as the papers' kernels take one equation per launch), SF = "
	"summation of a precomputed face flux (5 variables; SF1 = one, as the colouring paper's "
	"flux[faceID]), RF = the solver's second-order limited Roe flux computed and summed, LM = "
	"local min and max of p over face neighbours (the colouring paper's Alg. 6/10 compute only "
	"the max). -F face loop with atomics, -C cell loop (gather, no atomics), -N node loop, -col "
	"one launch per colour group (greedy colouring, fv_color_faces), -fr face data permuted so "
	"each colour group is contiguous (Alg. 11), -rn cells renumbered from the largest interior "
	"group (Alg. 9/10, fv_color_cell_order) with each group's faces in increasing new owner, "
	"-rn-fr both.\n"
	"- Check: max over variables and entries of |GPU - CPU| / S, S the variable's largest sum of "
	"absolute terms (values for NV, |face value x S_d| / volume for GQ, |flux| for SF/RF); CPU "
	"reference = the same FV_HD loop bodies run serially on the host. Tolerance: double 1e-10 for "
	"atomic kernels, 1e-12 for deterministic ones; single 1e-4; LM exact.\n"
	"- Paper columns: the V100 time of the same kernel on the paper's mesh closest in cells "
	"(loop-modes = zhang-mesh-loop-modes-gpu.txt Table 5, s per 100 calls; colouring = "
	"zhang2022-graph-coloring-fv-gpu.txt Table 4 double / Table 5 single, s per 1000 calls; "
	"converted to ms per call), V100 ns/cell on that mesh, and that time scaled by DRAM "
	"bandwidth to H100 (x 900/3350) and H200 (x 900/4800). The papers' meshes are ONERA M6 "
	"(tet + prism, mesher numbering); ours are generated tet boxes in lexicographic order, "
	"which favours locality.\n\n";

static void usage(void)
{
	fprintf(stderr,
		"usage: bench_kernels MESH|gen:tet:N [--precision double|single|both] [--reps R]\n"
		"                     [--markdown OUT.md [--notes]] [--color greedy|minimal]\n"
		"                     [--only NAME,PREFIX*,...] [--no-flush] [--launch-log FILE] [--dry-run]\n");
}

int main(int argc, char **argv)
{
	const char *mesh_arg = NULL, *md_path = NULL, *prec = "both", *log_path = NULL;
	int reps = 20, notes = 0, flush = 1, dry_run = 0;
	fv_color_method_t method = FV_COLOR_GREEDY;
	const bool single = strcmp(FV_REAL_NAME, "single") == 0;

	setvbuf(stdout, NULL, _IOLBF, 0); /* progress reaches a log as it happens */

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--precision") == 0 && val) {
			prec = val, i++;
		} else if (strcmp(a, "--reps") == 0 && val) {
			reps = atoi(val), i++;
		} else if (strcmp(a, "--markdown") == 0 && val) {
			md_path = val, i++;
		} else if (strcmp(a, "--notes") == 0) {
			notes = 1;
		} else if (strcmp(a, "--dry-run") == 0) {
			dry_run = 1;
		} else if (strcmp(a, "--no-flush") == 0) {
			flush = 0;
		} else if (strcmp(a, "--launch-log") == 0 && val) {
			log_path = val, i++;
		} else if (strcmp(a, "--color") == 0 && val) {
			if (strcmp(val, "greedy") == 0)
				method = FV_COLOR_GREEDY;
			else if (strcmp(val, "minimal") == 0)
				method = FV_COLOR_MINIMAL;
			else
				return usage(), 2;
			i++;
		} else if (strcmp(a, "--only") == 0 && val) {
			std::string s = val;
			size_t b = 0;
			while (b <= s.size()) {
				size_t e = s.find(',', b);
				if (e == std::string::npos)
					e = s.size();
				if (e > b)
					g_only.push_back(s.substr(b, e - b));
				b = e + 1;
			}
			i++;
		} else if (a[0] != '-' && !mesh_arg) {
			mesh_arg = a;
		} else {
			return usage(), 2;
		}
	}
	if (!mesh_arg || reps < 1 ||
	    (strcmp(prec, "double") != 0 && strcmp(prec, "single") != 0 && strcmp(prec, "both") != 0))
		return usage(), 2;
	if (strcmp(prec, "both") != 0 && strcmp(prec, FV_REAL_NAME) != 0) {
		fprintf(stderr,
			"bench_kernels: this build is %s precision; %s needs a tree configured %s --enable-single "
			"(bench/run_kernels.sh runs both)\n",
			FV_REAL_NAME, prec, single ? "without" : "with");
		return 2;
	}

	/* no GPU: skip, before any work (a dry run needs none) */
	cudaDeviceProp prop;
	int l2 = 0;
	memset(&prop, 0, sizeof prop);
	if (!dry_run) {
		int ndev = 0;
		cudaError_t derr = cudaGetDeviceCount(&ndev);
		if (derr != cudaSuccess || ndev == 0) {
			fprintf(stderr, "bench_kernels: no CUDA device (%s): skipped\n",
				derr != cudaSuccess ? cudaGetErrorString(derr) : "0 devices");
			return 77;
		}
		CK(cudaSetDevice(0));
		CK(cudaGetDeviceProperties(&prop, 0));
		CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
	}
	if (strcmp(prec, "both") == 0)
		printf("bench_kernels: %s build; the other precision runs from a tree configured %s --enable-single\n",
		       FV_REAL_NAME, single ? "without" : "with");

	/* ---- mesh ---- */
	fv_mesh_t m;
	fv_mesh_init(&m);
	double t0 = fv_now();
	const bool generated = strncmp(mesh_arg, "gen:tet:", 8) == 0;
	if (generated) {
		double want = atof(mesh_arg + 8);
		fv_gen_opts_t o;
		fv_gen_opts_default(&o);
		o.cells = FV_GEN_TET;
		o.nx = o.ny = o.nz = std::max(1, (int)std::lround(std::cbrt(want / 6)));
		o.perturb = 0.1;
		if (want < 1 || fv_mesh_gen_box(&m, &o) != FV_OK || fv_mesh_prepare(&m) != FV_OK) {
			fprintf(stderr, "bench_kernels: %s: %s\n", mesh_arg, want < 1 ? "bad cell count" : fv_errmsg());
			return 2;
		}
	} else if (fv_mesh_read(&m, mesh_arg) != FV_OK || fv_mesh_prepare(&m) != FV_OK) {
		fprintf(stderr, "bench_kernels: %s\n", fv_errmsg());
		return 2;
	}
	const fv_idx_t nc = m.n_cells, nf = m.n_faces, nbf = m.n_bfaces, nn = m.n_nodes;
	const fv_idx_t Lfn = m.face_node_off[nf], Lcf = m.cell_face_off[nc], Lnc = m.node_cell_off[nn],
		       Lcn = m.cell_node_off[nc];
	printf("mesh %s: %d cells, %d faces (%d boundary), %d nodes; prepared in %.1f s\n", m.source, (int)nc,
	       (int)nf, (int)nbf, (int)nn, fv_now() - t0);
	if (!dry_run)
		printf("device %s, %d SMs, %.1f GiB, L2 %.0f MiB; %s precision, %d timed runs\n", prop.name,
		       prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0, l2 / 1048576.0, FV_REAL_NAME,
		       reps);

	/* ---- inputs ---- */
	fv_params_t P;
	memset(&P, 0, sizeof P);
	P.gamma = (real)1.4;
	P.entropy_fix = (real)0.1;
	P.limiter_k = 5;
	P.order = 2;
	P.blend = 1;
	P.limiter = 1;
	P.limiter_all = 1;
	P.steady = 1;
	P.winf[0] = 1, P.winf[1] = (real)0.5, P.winf[2] = (real)0.1, P.winf[3] = (real)-0.2;
	P.winf[4] = (real)1 / P.gamma;
	P.p_out = P.winf[4];

	std::vector<real> w;
	make_field(&m, P.gamma, w);
	std::vector<int8_t> bc(nbf > 0 ? nbf : 1);
	for (fv_idx_t f = 0; f < nbf; f++)
		bc[f] = bc_of_marker(m.markers[m.face_marker[f]].name, generated);

	/* node -> face CSR (GQ-N) */
	std::vector<fv_idx_t> nfo((size_t)nn + 1, 0), nfa((size_t)Lfn);
	for (fv_idx_t j = 0; j < Lfn; j++)
		nfo[m.face_node[j] + 1]++;
	for (fv_idx_t n = 0; n < nn; n++)
		nfo[n + 1] += nfo[n];
	{
		std::vector<fv_idx_t> pos(nfo.begin(), nfo.end() - 1);
		for (fv_idx_t f = 0; f < nf; f++)
			for (fv_idx_t j = m.face_node_off[f]; j < m.face_node_off[f + 1]; j++)
				nfa[pos[m.face_node[j]]++] = f;
	}
	const fv_idx_t Lnf = nfo[nn];

	/* ---- colouring, face orders, cell renumbering ---- */
	fv_coloring_t col;
	fv_coloring_init(&col);
	t0 = fv_now();
	if (fv_color_faces(nc, nf, m.face_cell, method, &col) != FV_OK ||
	    fv_color_check(nc, nf, m.face_cell, &col) != FV_OK) {
		fprintf(stderr, "bench_kernels: colouring: %s\n", fv_errmsg());
		return 1;
	}
	const int nk = col.n_colors;
	std::vector<fv_idx_t> fo_fr(nf), bo_fr((size_t)2 * nk + 1), fo_rn(nf), bo_rn((size_t)2 * nk + 1);
	std::vector<fv_idx_t> cell_order(nc), cell_new(nc);
	int picked = -1;
	if (fv_color_face_order(nc, m.face_cell, &col, NULL, 0, NULL, fo_fr.data(), bo_fr.data()) != FV_OK ||
	    fv_color_cell_order(nc, nf, m.face_cell, &col, -1, cell_order.data(), cell_new.data(), &picked) != FV_OK ||
	    fv_color_face_order(nc, m.face_cell, &col, NULL, 0, cell_new.data(), fo_rn.data(), bo_rn.data()) !=
		    FV_OK) {
		fprintf(stderr, "bench_kernels: colour orders: %s\n", fv_errmsg());
		return 1;
	}
	for (fv_idx_t i = 0; i < nbf; i++)
		if (fo_fr[i] >= nbf || fo_rn[i] >= nbf) {
			fprintf(stderr, "bench_kernels: colour face order does not keep boundary faces first\n");
			return 1;
		}
	std::string groups;
	for (int k = 0; k < nk; k++)
		groups += (k ? " " : "") + std::to_string((long)col.group_size[k]);
	printf("colouring (%s): %d colours [%s], renumbered from colour %d; %.1f s\n",
	       method == FV_COLOR_GREEDY ? "greedy" : "minimal", nk, groups.c_str(), picked, fv_now() - t0);

	/* ---- CPU references ---- */
	t0 = fv_now();
	fv_view_t hv = view_empty(nc, nf, nbf, nn);
	hv.face_cell = m.face_cell;
	hv.face_area = m.face_area;
	hv.face_ctr = m.face_ctr;
	hv.face_node_off = m.face_node_off;
	hv.face_node = m.face_node;
	hv.bface_bc = bc.data();
	hv.cell_face_off = m.cell_face_off;
	hv.cell_face = m.cell_face;
	hv.cell_face_sign = m.cell_face_sign;
	hv.cell_vol = m.cell_vol;
	hv.cell_ctr = m.cell_ctr;
	hv.node_cell_off = m.node_cell_off;
	hv.node_cell = m.node_cell;

	/* NV: plain average (NV-C, NV-N) and face-incidence average (NV-F) */
	std::vector<real> wn_ref((size_t)FV_NVAR * nn), wnf_ref((size_t)FV_NVAR * nn, 0);
	double nv_scale[FV_NVAR], nvf_scale[FV_NVAR];
	for (fv_idx_t n = 0; n < nn; n++)
		fv_k_node(&hv, w.data(), NULL, wn_ref.data(), n);
	{
		std::vector<int> cnt(nn, 0);
		for (fv_idx_t f = 0; f < nf; f++) {
			fv_idx_t o = m.face_cell[2 * (size_t)f], nb = m.face_cell[2 * (size_t)f + 1];
			for (fv_idx_t j = m.face_node_off[f]; j < m.face_node_off[f + 1]; j++) {
				fv_idx_t n = m.face_node[j];
				for (int q = 0; q < FV_NVAR; q++)
					wnf_ref[(size_t)q * nn + n] += w[(size_t)q * nc + o];
				cnt[n]++;
				if (nb < 0)
					continue;
				for (int q = 0; q < FV_NVAR; q++)
					wnf_ref[(size_t)q * nn + n] += w[(size_t)q * nc + nb];
				cnt[n]++;
			}
		}
		for (fv_idx_t n = 0; n < nn; n++)
			for (int q = 0; q < FV_NVAR; q++)
				wnf_ref[(size_t)q * nn + n] =
					cnt[n] > 0 ? wnf_ref[(size_t)q * nn + n] / (real)cnt[n] : (real)0;
	}
	for (int q = 0; q < FV_NVAR; q++) {
		nv_scale[q] = nvf_scale[q] = 0;
		for (fv_idx_t n = 0; n < nn; n++) {
			nv_scale[q] = std::max(nv_scale[q], std::fabs((double)wn_ref[(size_t)q * nn + n]));
			nvf_scale[q] = std::max(nvf_scale[q], std::fabs((double)wnf_ref[(size_t)q * nn + n]));
		}
	}

	/* GQ from wn_ref; its scale: sum over faces of |face value x S_d| / vol */
	std::vector<real> grad_ref((size_t)3 * FV_NVAR * nc);
	double gq_scale[3 * FV_NVAR] = {0};
	for (fv_idx_t c = 0; c < nc; c++) {
		double a[3 * FV_NVAR] = {0};
		gq_cell_faces(&hv, wn_ref.data(), grad_ref.data(), c);
		for (fv_idx_t k = m.cell_face_off[c]; k < m.cell_face_off[c + 1]; k++) {
			fv_idx_t f = m.cell_face[k], b = m.face_node_off[f], e = m.face_node_off[f + 1];
			for (int q = 0; q < FV_NVAR; q++) {
				double sum = 0;
				for (fv_idx_t j = b; j < e; j++)
					sum += wn_ref[(size_t)q * nn + m.face_node[j]];
				for (int d = 0; d < 3; d++)
					a[q * 3 + d] += std::fabs(sum / (e - b) * m.face_area[(size_t)d * nf + f]);
			}
		}
		for (int k = 0; k < 3 * FV_NVAR; k++)
			gq_scale[k] = std::max(gq_scale[k], a[k] / m.cell_vol[c]);
	}

	/* limiter (input of the Roe flux), face fluxes, residual, its scale */
	std::vector<real> phi((size_t)FV_NVAR * nc), flux((size_t)FV_NVAR * nf), res_ref((size_t)FV_NVAR * nc, 0);
	std::vector<double> sabs((size_t)FV_NVAR * nc, 0);
	double sf_scale[FV_NVAR] = {0};
	for (fv_idx_t c = 0; c < nc; c++)
		fv_k_limiter(&hv, &P, w.data(), grad_ref.data(), phi.data(), c);
	for (fv_idx_t f = 0; f < nf; f++) {
		real F[FV_NFLUX];
		fv_idx_t o = m.face_cell[2 * (size_t)f], nb = m.face_cell[2 * (size_t)f + 1];
		fv_k_face_flux(&hv, &P, w.data(), grad_ref.data(), phi.data(), f, F);
		for (int q = 0; q < FV_NVAR; q++) {
			flux[(size_t)q * nf + f] = F[q];
			res_ref[(size_t)q * nc + o] += F[q];
			sabs[(size_t)q * nc + o] += std::fabs((double)F[q]);
			if (nb >= 0) {
				res_ref[(size_t)q * nc + nb] -= F[q];
				sabs[(size_t)q * nc + nb] += std::fabs((double)F[q]);
			}
		}
	}
	for (int q = 0; q < FV_NVAR; q++)
		for (fv_idx_t c = 0; c < nc; c++)
			sf_scale[q] = std::max(sf_scale[q], sabs[(size_t)q * nc + c]);
	sabs.clear();
	sabs.shrink_to_fit();

	/* LM */
	const real *p = w.data() + (size_t)4 * nc;
	std::vector<real> lm_ref((size_t)2 * nc);
	double lm_scale[2] = {0, 0};
	for (fv_idx_t c = 0; c < nc; c++) {
		real lo = p[c], hi = lo;
		for (fv_idx_t k = m.cell_face_off[c]; k < m.cell_face_off[c + 1]; k++) {
			fv_idx_t other = m.cell_cell[k];
			if (other < 0)
				continue;
			lo = std::min(lo, p[other]);
			hi = std::max(hi, p[other]);
		}
		lm_ref[c] = lo;
		lm_ref[(size_t)nc + c] = hi;
		lm_scale[0] = lm_scale[1] = std::max(lm_scale[0], std::fabs((double)p[c]));
	}
	printf("CPU references in %.1f s\n", fv_now() - t0);

	/* ---- permuted copies for the colour variants (host) ----
	 * fr: faces in colour-block order (fo_fr), cells as they are;
	 * rn: cells renumbered (cell_order), faces as they are;
	 * rnfr: cells renumbered, faces in colour-block order by new owner (fo_rn). */
	const fv_idx_t *fc = m.face_cell;
	std::vector<fv_idx_t> fc_fr((size_t)2 * nf), fc_rn((size_t)2 * nf), fc_rnfr((size_t)2 * nf);
	for (fv_idx_t f = 0; f < nf; f++) {
		fv_idx_t o = fc[2 * (size_t)f], nb = fc[2 * (size_t)f + 1];
		fc_rn[2 * (size_t)f] = cell_new[o];
		fc_rn[2 * (size_t)f + 1] = nb >= 0 ? cell_new[nb] : -1;
	}
	for (fv_idx_t i = 0; i < nf; i++)
		for (int s = 0; s < 2; s++) {
			fc_fr[2 * (size_t)i + s] = fc[2 * (size_t)fo_fr[i] + s];
			fc_rnfr[2 * (size_t)i + s] = fc_rn[2 * (size_t)fo_rn[i] + s];
		}
	std::vector<int8_t> bc_fr(bc.size()), bc_rnfr(bc.size());
	for (fv_idx_t i = 0; i < nbf; i++) {
		bc_fr[i] = bc[fo_fr[i]];
		bc_rnfr[i] = bc[fo_rn[i]];
	}
	const std::vector<real> flux_fr = permute(flux.data(), FV_NVAR, nf, fo_fr.data()),
				flux_rnfr = permute(flux.data(), FV_NVAR, nf, fo_rn.data()),
				area_fr = permute(m.face_area, 3, nf, fo_fr.data()),
				area_rnfr = permute(m.face_area, 3, nf, fo_rn.data()),
				fctr_fr = permute(m.face_ctr, 3, nf, fo_fr.data()),
				fctr_rnfr = permute(m.face_ctr, 3, nf, fo_rn.data()),
				w_rn = permute(w.data(), FV_NVAR, nc, cell_order.data()),
				grad_rn = permute(grad_ref.data(), 3 * FV_NVAR, nc, cell_order.data()),
				phi_rn = permute(phi.data(), FV_NVAR, nc, cell_order.data()),
				cctr_rn = permute(m.cell_ctr, 3, nc, cell_order.data());

	/* host views for the face flux (it reads face_cell, face_area, face_ctr,
	 * bface_bc and cell_ctr only: other pointers stay NULL in permuted views) */
	fv_view_t hv_fr = view_empty(nc, nf, nbf, nn), hv_rn = hv_fr, hv_rnfr = hv_fr;
	hv_fr.face_cell = fc_fr.data(), hv_fr.face_area = area_fr.data(), hv_fr.face_ctr = fctr_fr.data();
	hv_fr.bface_bc = bc_fr.data(), hv_fr.cell_ctr = m.cell_ctr;
	hv_rn.face_cell = fc_rn.data(), hv_rn.face_area = m.face_area, hv_rn.face_ctr = m.face_ctr;
	hv_rn.bface_bc = bc.data(), hv_rn.cell_ctr = cctr_rn.data();
	hv_rnfr.face_cell = fc_rnfr.data(), hv_rnfr.face_area = area_rnfr.data(), hv_rnfr.face_ctr = fctr_rnfr.data();
	hv_rnfr.bface_bc = bc_rnfr.data(), hv_rnfr.cell_ctr = cctr_rn.data();

	/* launch plans: Alg. 5 groups (face lists by colour), contiguous blocks,
	 * blocks through the by-new-owner list, contiguous renumbered blocks */
	plan_t pl_col, pl_fr = plan_of_blocks(bo_fr, nk), pl_rn = plan_of_blocks(bo_rn, nk), pl_rnfr = pl_rn;
	pl_col.hlist = col.group_face;
	pl_col.dlist = NULL;
	for (int k = 0; k < nk; k++) {
		group_launch_t g = {col.group_off[k], col.group_off[k + 1] - col.group_off[k], 0, 0};
		pl_col.g.push_back(g);
	}
	pl_rn.hlist = fo_rn.data();
	/* every plan, with the face_cell its kernels read: each face once, no
	 * cell twice in one launch (what makes the plain updates race-free) */
	if (!plan_ok("col", pl_col, fc, nf, nc) || !plan_ok("fr", pl_fr, fc_fr.data(), nf, nc) ||
	    !plan_ok("rn", pl_rn, fc_rn.data(), nf, nc) || !plan_ok("rnfr", pl_rnfr, fc_rnfr.data(), nf, nc))
		return 1;

	const double tol_at = single ? 1e-4 : 1e-10, tol_det = single ? 1e-4 : 1e-12;
	const fv_idx_t *perm = cell_order.data();
	if (dry_run) {
		/* the colour variants' data and plans, run on the host (what the
		 * GPU kernels do, serially): checks the set-up without a GPU */
		t0 = fv_now();
		struct {
			const char *name;
			const plan_t *pl;
			const fv_idx_t *fc;
			const real *flux;
			const fv_view_t *v;
			const real *w, *grad, *phi;
			bool renum;
		} dv[4] = {
			{"col", &pl_col, fc, flux.data(), &hv, w.data(), grad_ref.data(), phi.data(), false},
			{"col-fr", &pl_fr, fc_fr.data(), flux_fr.data(), &hv_fr, w.data(), grad_ref.data(), phi.data(),
			 false},
			{"col-rn", &pl_rn, fc_rn.data(), flux.data(), &hv_rn, w_rn.data(), grad_rn.data(), phi_rn.data(),
			 true},
			{"col-rn-fr", &pl_rnfr, fc_rnfr.data(), flux_rnfr.data(), &hv_rnfr, w_rn.data(), grad_rn.data(),
			 phi_rn.data(), true},
		};
		int bad = 0;
		for (int v = 0; v < 4; v++) {
			std::vector<real> sf((size_t)FV_NVAR * nc, 0), rf((size_t)FV_NVAR * nc, 0);
			std::vector<real> lm((size_t)2 * nc);
			const real *pv = dv[v].renum ? w_rn.data() + (size_t)4 * nc : p;
			std::copy(pv, pv + nc, lm.begin());
			std::copy(pv, pv + nc, lm.begin() + nc);
			for (const group_launch_t &g : dv[v].pl->g)
				for (fv_idx_t t = 0; t < g.n0 + g.n1; t++) {
					fv_idx_t f = dv[v].pl->hlist ? group_face<true>(dv[v].pl->hlist, g.b0, g.n0, g.b1, t)
								     : group_face<false>(NULL, g.b0, g.n0, g.b1, t);
					fv_idx_t o = dv[v].fc[2 * (size_t)f], nb = dv[v].fc[2 * (size_t)f + 1];
					real F[FV_NFLUX];
					fv_k_face_flux(dv[v].v, &P, dv[v].w, dv[v].grad, dv[v].phi, f, F);
					for (int q = 0; q < FV_NVAR; q++) {
						sf[(size_t)q * nc + o] += dv[v].flux[(size_t)q * nf + f];
						rf[(size_t)q * nc + o] += F[q];
						if (nb >= 0) {
							sf[(size_t)q * nc + nb] -= dv[v].flux[(size_t)q * nf + f];
							rf[(size_t)q * nc + nb] -= F[q];
						}
					}
					if (nb >= 0) {
						lm[o] = std::min(lm[o], pv[nb]);
						lm[(size_t)nc + o] = std::max(lm[(size_t)nc + o], pv[nb]);
						lm[nb] = std::min(lm[nb], pv[o]);
						lm[(size_t)nc + nb] = std::max(lm[(size_t)nc + nb], pv[o]);
					}
				}
			const fv_idx_t *pm = dv[v].renum ? perm : NULL;
			double e_sf = rel_err(sf, res_ref.data(), sf_scale, FV_NVAR, nc, pm);
			double e_rf = rel_err(rf, res_ref.data(), sf_scale, FV_NVAR, nc, pm);
			double e_lm = rel_err(lm, lm_ref.data(), lm_scale, 2, nc, pm);
			printf("host dry run %-10s SF %.2e  RF %.2e  LM %.2e\n", dv[v].name, e_sf, e_rf, e_lm);
			bad += !(e_sf <= tol_det && e_rf <= tol_det && e_lm == 0);
		}
		printf("host dry run in %.1f s: %s\n", fv_now() - t0, bad ? "MISMATCH" : "ok");
		fv_coloring_free(&col);
		fv_mesh_free(&m);
		return bad ? 1 : 0;
	}

	/* ---- device data ---- */
	t0 = fv_now();
	CK(cudaEventCreate(&g_ev0));
	CK(cudaEventCreate(&g_ev1));
	if (flush && l2 > 0) {
		g_flush_bytes = (size_t)2 * l2;
		CK(cudaMalloc(&g_flush, g_flush_bytes));
	}
	if (log_path && !(g_log = fopen(log_path, "w"))) {
		fprintf(stderr, "bench_kernels: cannot write %s\n", log_path);
		return 2;
	}
	const fv_idx_t *d_fc = dput(fc, (size_t)2 * nf), *d_fno = dput(m.face_node_off, (size_t)nf + 1),
		       *d_fn = dput(m.face_node, (size_t)Lfn), *d_cfo = dput(m.cell_face_off, (size_t)nc + 1),
		       *d_cf = dput(m.cell_face, (size_t)Lcf), *d_nco = dput(m.node_cell_off, (size_t)nn + 1),
		       *d_ncl = dput(m.node_cell, (size_t)Lnc), *d_cno = dput(m.cell_node_off, (size_t)nc + 1),
		       *d_cn = dput(m.cell_node, (size_t)Lcn), *d_nfo = dput(nfo), *d_nfa = dput(nfa);
	const int8_t *d_cfs = dput(m.cell_face_sign, (size_t)Lcf), *d_bc = dput(bc);
	const real *d_area = dput(m.face_area, (size_t)3 * nf), *d_fctr = dput(m.face_ctr, (size_t)3 * nf),
		   *d_vol = dput(m.cell_vol, (size_t)nc), *d_cctr = dput(m.cell_ctr, (size_t)3 * nc);
	const real *d_w = dput(w), *d_wn = dput(wn_ref), *d_grad = dput(grad_ref), *d_phi = dput(phi),
		   *d_flux = dput(flux);
	const real *d_p = d_w + (size_t)4 * nc;
	/* colour data */
	pl_col.dlist = dput(col.group_face, (size_t)nf);
	pl_rn.dlist = dput(fo_rn);
	const fv_idx_t *d_fc_fr = dput(fc_fr), *d_fc_rn = dput(fc_rn), *d_fc_rnfr = dput(fc_rnfr);
	const int8_t *d_bc_fr = dput(bc_fr), *d_bc_rnfr = dput(bc_rnfr);
	const real *d_flux_fr = dput(flux_fr), *d_flux_rnfr = dput(flux_rnfr), *d_area_fr = dput(area_fr),
		   *d_area_rnfr = dput(area_rnfr), *d_fctr_fr = dput(fctr_fr), *d_fctr_rnfr = dput(fctr_rnfr),
		   *d_w_rn = dput(w_rn), *d_grad_rn = dput(grad_rn), *d_phi_rn = dput(phi_rn), *d_cctr_rn = dput(cctr_rn);
	const real *d_p_rn = d_w_rn + (size_t)4 * nc;
	/* outputs */
	real *d_acc = dnew<real>((size_t)FV_NVAR * nn), *d_g = dnew<real>((size_t)3 * FV_NVAR * nc),
	     *d_res = dnew<real>((size_t)FV_NVAR * nc), *d_lm = dnew<real>((size_t)2 * nc);
	int *d_cnt = dnew<int>((size_t)nn);
	real *d_pmin = d_lm, *d_pmax = d_lm + nc;
	printf("device data: %.2f GiB, uploaded in %.1f s\n\n", g_dev_bytes / 1073741824.0, fv_now() - t0);

	/* device views: original, faces in colour order, cells renumbered, both */
	fv_view_t dv = view_empty(nc, nf, nbf, nn);
	dv.face_cell = d_fc;
	dv.face_area = d_area;
	dv.face_ctr = d_fctr;
	dv.face_node_off = d_fno;
	dv.face_node = d_fn;
	dv.bface_bc = d_bc;
	dv.cell_face_off = d_cfo;
	dv.cell_face = d_cf;
	dv.cell_face_sign = d_cfs;
	dv.cell_vol = d_vol;
	dv.cell_ctr = d_cctr;
	dv.node_cell_off = d_nco;
	dv.node_cell = d_ncl;
	fv_view_t dv_fr = view_empty(nc, nf, nbf, nn), dv_rn = dv_fr, dv_rnfr = dv_fr;
	dv_fr.face_cell = d_fc_fr, dv_fr.face_area = d_area_fr, dv_fr.face_ctr = d_fctr_fr;
	dv_fr.bface_bc = d_bc_fr, dv_fr.cell_ctr = d_cctr;
	dv_rn.face_cell = d_fc_rn, dv_rn.face_area = d_area, dv_rn.face_ctr = d_fctr;
	dv_rn.bface_bc = d_bc, dv_rn.cell_ctr = d_cctr_rn;
	dv_rnfr.face_cell = d_fc_rnfr, dv_rnfr.face_area = d_area_rnfr, dv_rnfr.face_ctr = d_fctr_rnfr;
	dv_rnfr.bface_bc = d_bc_rnfr, dv_rnfr.cell_ctr = d_cctr_rn;

	/* ---- byte model: each array once ---- */
	const double I = sizeof(fv_idx_t), R = sizeof(real);
	const double B_fc = 2.0 * nf * I, B_fn = (nf + 1.0 + Lfn) * I, B_cf = (nc + 1.0) * I + Lcf * (I + 1),
		     B_list = nf * I;
	printf("%-14s %13s\n", "kernel", "median");

	/* ---- NV ---- */
	{
		const double out = 5.0 * nn * R, in_w = 5.0 * nc * R;
		if (wanted("NV-F")) {
			g_variant = "NV-F";
			double ms = time_op([&] {
				zero(d_acc, (size_t)FV_NVAR * nn * sizeof(real));
				zero(d_cnt, (size_t)nn * sizeof(int));
				launch("k_nv_face", k_nv_face, nf, nf, d_fc, d_fno, d_fn, nc, nn, d_w, d_acc, d_cnt);
				launch("k_nv_divide", k_nv_divide, nn, nn, d_acc, (const int *)d_cnt);
			}, reps);
			record("NV-F", "node values, face loop, atomics", ms, B_fc + B_fn + in_w + out + nn * 4.0,
			       rel_err(dget(d_acc, (size_t)FV_NVAR * nn), wnf_ref.data(), nvf_scale, FV_NVAR, nn, NULL),
			       tol_at);
		}
		if (wanted("NV-C")) {
			g_variant = "NV-C";
			double ms = time_op([&] {
				zero(d_acc, (size_t)FV_NVAR * nn * sizeof(real));
				zero(d_cnt, (size_t)nn * sizeof(int));
				launch("k_nv_cell", k_nv_cell, nc, nc, d_cno, d_cn, nn, d_w, d_acc, d_cnt);
				launch("k_nv_divide", k_nv_divide, nn, nn, d_acc, (const int *)d_cnt);
			}, reps);
			record("NV-C", "node values, cell loop, atomics", ms, (nc + 1.0 + Lcn) * I + in_w + out + nn * 4.0,
			       rel_err(dget(d_acc, (size_t)FV_NVAR * nn), wn_ref.data(), nv_scale, FV_NVAR, nn, NULL),
			       tol_at);
		}
		if (wanted("NV-N")) {
			g_variant = "NV-N";
			double ms = time_op([&] { launch("k_nv_node", k_nv_node, nn, dv, d_w, d_acc); }, reps);
			record("NV-N", "node values, node loop (solver)", ms, (nn + 1.0 + Lnc) * I + in_w + out,
			       rel_err(dget(d_acc, (size_t)FV_NVAR * nn), wn_ref.data(), nv_scale, FV_NVAR, nn, NULL),
			       tol_det);
		}
	}

	/* ---- GQ: 5 variables, then pressure only ---- */
	{
		const double B_geo = 3.0 * nf * R + nc * R; /* area, volume */
		for (int one = 0; one < 2; one++) {
			const int nv = one ? 1 : FV_NVAR;
			const real *wn_in = one ? d_wn + (size_t)4 * nn : d_wn;
			const real *ref = one ? grad_ref.data() + (size_t)12 * nc : grad_ref.data();
			const double *scale = one ? gq_scale + 12 : gq_scale;
			const double io = nv * (nn * R + 3.0 * nc * R);
			const size_t gsz = (size_t)3 * nv * nc;
			std::string nF = one ? "GQ1-F" : "GQ-F", nC = one ? "GQ1-C" : "GQ-C", nN = one ? "GQ1-N" : "GQ-N";
			if (wanted(nF.c_str())) {
				g_variant = nF.c_str();
				double ms = time_op([&] {
					zero(d_g, gsz * sizeof(real));
					if (one) {
						launch("k_gq_face", k_gq_face<1>, nf, nf, d_fc, d_fno, d_fn, d_area, nn, nc,
						       wn_in, d_g);
						launch("k_gq_divide", k_gq_divide<1>, nc, nc, d_vol, d_g);
					} else {
						launch("k_gq_face", k_gq_face<FV_NVAR>, nf, nf, d_fc, d_fno, d_fn, d_area, nn,
						       nc, wn_in, d_g);
						launch("k_gq_divide", k_gq_divide<FV_NVAR>, nc, nc, d_vol, d_g);
					}
				}, reps);
				record(nF.c_str(), "gradient, face loop, atomics", ms, B_fc + B_fn + B_geo + io,
				       rel_err(dget(d_g, gsz), ref, scale, 3 * nv, nc, NULL), tol_at);
			}
			if (wanted(nC.c_str())) {
				g_variant = nC.c_str();
				double ms = time_op([&] {
					if (one)
						launch("k_gq_cell1", k_gq_cell1, nc, dv, wn_in, d_g);
					else
						launch("k_gq_cell", k_gq_cell, nc, dv, wn_in, d_g);
				}, reps);
				record(nC.c_str(), one ? "gradient, cell loop" : "gradient, cell loop over its faces (Alg. 6)", ms,
				       B_cf + B_fn + B_geo + io, rel_err(dget(d_g, gsz), ref, scale, 3 * nv, nc, NULL),
				       tol_det);
			}
			if (wanted(nN.c_str())) {
				g_variant = nN.c_str();
				double ms = time_op([&] {
					zero(d_g, gsz * sizeof(real));
					if (one) {
						launch("k_gq_node", k_gq_node<1>, nn, nn, d_nfo, d_nfa, d_fno, d_fc, d_area, nf,
						       nc, wn_in, d_g);
						launch("k_gq_divide", k_gq_divide<1>, nc, nc, d_vol, d_g);
					} else {
						launch("k_gq_node", k_gq_node<FV_NVAR>, nn, nn, d_nfo, d_nfa, d_fno, d_fc,
						       d_area, nf, nc, wn_in, d_g);
						launch("k_gq_divide", k_gq_divide<FV_NVAR>, nc, nc, d_vol, d_g);
					}
				}, reps);
				record(nN.c_str(), "gradient, node loop, atomics", ms,
				       (nn + 1.0 + Lnf) * I + (nf + 1.0) * I + B_fc + B_geo + io,
				       rel_err(dget(d_g, gsz), ref, scale, 3 * nv, nc, NULL), tol_at);
			}
		}
	}

	/* ---- SF: summation of the precomputed flux, 5 variables then 1 ---- */
	{
		for (int one = 0; one < 2; one++) {
			const int nv = one ? 1 : FV_NVAR;
			const size_t rsz = (size_t)nv * nc;
			const double io = nv * (nf * R + nc * R);
			const std::string pre = one ? "SF1" : "SF";
			std::string name;
			/* face loop, atomics */
			name = pre + "-F";
			if (wanted(name.c_str())) {
				g_variant = name.c_str();
				double ms = time_op([&] {
					zero(d_res, rsz * sizeof(real));
					if (one)
						launch("k_sf_face", k_sf_face<1>, nf, nf, d_fc, d_flux, nc, d_res);
					else
						launch("k_sf_face", k_sf_face<FV_NVAR>, nf, nf, d_fc, d_flux, nc, d_res);
				}, reps);
				record(name.c_str(), "flux sum, face loop, atomics", ms, B_fc + io,
				       rel_err(dget(d_res, rsz), res_ref.data(), sf_scale, nv, nc, NULL), tol_at);
			}
			name = pre + "-C";
			if (wanted(name.c_str())) {
				g_variant = name.c_str();
				double ms = time_op([&] {
					if (one)
						launch("k_sf_cell", k_sf_cell<1>, nc, nc, d_cfo, d_cf, d_cfs, d_flux, nf, d_res);
					else
						launch("k_sf_cell", k_sf_cell<FV_NVAR>, nc, nc, d_cfo, d_cf, d_cfs, d_flux, nf,
						       d_res);
				}, reps);
				record(name.c_str(), "flux sum, cell loop", ms, B_cf + io,
				       rel_err(dget(d_res, rsz), res_ref.data(), sf_scale, nv, nc, NULL), tol_det);
			}
			/* colour groups: original data; faces permuted; cells renumbered; both */
			struct {
				const char *suffix, *what;
				const plan_t *pl;
				const fv_idx_t *fc;
				const real *flux;
				bool renum;
			} cv[4] = {
				{"-col", "flux sum, colour groups (Alg. 5)", &pl_col, d_fc, d_flux, false},
				{"-col-fr", "flux sum, colour + face data order (Alg. 11)", &pl_fr, d_fc_fr, d_flux_fr,
				 false},
				{"-col-rn", "flux sum, colour + renumbered cells (Alg. 9)", &pl_rn, d_fc_rn, d_flux, true},
				{"-col-rn-fr", "flux sum, colour + renumbered + face order", &pl_rnfr, d_fc_rnfr,
				 d_flux_rnfr, true},
			};
			for (int v = 0; v < 4; v++) {
				name = pre + cv[v].suffix;
				if (!wanted(name.c_str()))
					continue;
				g_variant = name.c_str();
				const plan_t &pl = *cv[v].pl;
				const fv_idx_t *vfc = cv[v].fc;
				const real *vflux = cv[v].flux;
				double ms = time_op([&] {
					zero(d_res, rsz * sizeof(real));
					for (const group_launch_t &g : pl.g) {
						long n = (long)g.n0 + g.n1;
						if (one && pl.dlist)
							launch("k_sf_group", k_sf_group<1, true>, n, pl.dlist, g.b0, g.n0, g.b1,
							       g.n1, vfc, vflux, nf, nc, d_res);
						else if (one)
							launch("k_sf_group", k_sf_group<1, false>, n, pl.dlist, g.b0, g.n0, g.b1,
							       g.n1, vfc, vflux, nf, nc, d_res);
						else if (pl.dlist)
							launch("k_sf_group", k_sf_group<FV_NVAR, true>, n, pl.dlist, g.b0, g.n0,
							       g.b1, g.n1, vfc, vflux, nf, nc, d_res);
						else
							launch("k_sf_group", k_sf_group<FV_NVAR, false>, n, pl.dlist, g.b0, g.n0,
							       g.b1, g.n1, vfc, vflux, nf, nc, d_res);
					}
				}, reps);
				record(name.c_str(), cv[v].what, ms, B_fc + io + (pl.dlist ? B_list : 0),
				       rel_err(dget(d_res, rsz), res_ref.data(), sf_scale, nv, nc, cv[v].renum ? perm : NULL),
				       tol_det);
			}
		}
	}

	/* ---- RF: the solver's Roe flux and summation ---- */
	{
		const size_t rsz = (size_t)FV_NVAR * nc;
		const double in = B_fc + 6.0 * nf * R + nbf + (5.0 + 15.0 + 5.0 + 3.0) * nc * R, out = 5.0 * nc * R;
		if (wanted("RF-F")) {
			g_variant = "RF-F";
			double ms = time_op([&] {
				zero(d_res, rsz * sizeof(real));
				launch("k_rf_face", k_rf_face, nf, dv, P, d_w, d_grad, d_phi, d_res);
			}, reps);
			record("RF-F", "Roe flux + sum, face loop, atomics (solver)", ms, in + out,
			       rel_err(dget(d_res, rsz), res_ref.data(), sf_scale, FV_NVAR, nc, NULL), tol_at);
		}
		if (wanted("RF-C")) {
			g_variant = "RF-C";
			double ms = time_op([&] { launch("k_rf_cell", k_rf_cell, nc, dv, P, d_w, d_grad, d_phi, d_res); },
					    reps);
			record("RF-C", "Roe flux + sum, cell loop, 2x flux (solver)", ms, in + B_cf + out,
			       rel_err(dget(d_res, rsz), res_ref.data(), sf_scale, FV_NVAR, nc, NULL), tol_det);
		}
		struct {
			const char *name, *what;
			const plan_t *pl;
			const fv_view_t *v;
			const real *w, *grad, *phi;
			bool renum;
		} cv[4] = {
			{"RF-col", "Roe flux + sum, colour groups", &pl_col, &dv, d_w, d_grad, d_phi, false},
			{"RF-col-fr", "Roe flux + sum, colour + face data order", &pl_fr, &dv_fr, d_w, d_grad, d_phi, false},
			{"RF-col-rn", "Roe flux + sum, colour + renumbered cells", &pl_rn, &dv_rn, d_w_rn, d_grad_rn,
			 d_phi_rn, true},
			{"RF-col-rn-fr", "Roe flux + sum, colour + renumbered + face order", &pl_rnfr, &dv_rnfr, d_w_rn,
			 d_grad_rn, d_phi_rn, true},
		};
		for (int v = 0; v < 4; v++) {
			if (!wanted(cv[v].name))
				continue;
			g_variant = cv[v].name;
			const plan_t &pl = *cv[v].pl;
			const fv_view_t vv = *cv[v].v;
			const real *vw = cv[v].w, *vg = cv[v].grad, *vp = cv[v].phi;
			double ms = time_op([&] {
				zero(d_res, rsz * sizeof(real));
				for (const group_launch_t &g : pl.g) {
					long n = (long)g.n0 + g.n1;
					if (pl.dlist)
						launch("k_rf_group", k_rf_group<true>, n, vv, P, vw, vg, vp, pl.dlist, g.b0,
						       g.n0, g.b1, g.n1, d_res);
					else
						launch("k_rf_group", k_rf_group<false>, n, vv, P, vw, vg, vp, pl.dlist, g.b0,
						       g.n0, g.b1, g.n1, d_res);
				}
			}, reps);
			record(cv[v].name, cv[v].what, ms, in + out + (pl.dlist ? B_list : 0),
			       rel_err(dget(d_res, rsz), res_ref.data(), sf_scale, FV_NVAR, nc, cv[v].renum ? perm : NULL),
			       tol_det);
		}
	}

	/* ---- LM ---- */
	{
		const size_t lsz = (size_t)2 * nc;
		const double io = 3.0 * nc * R;
		if (wanted("LM-F")) {
			g_variant = "LM-F";
			double ms = time_op([&] {
				CK(cudaMemcpyAsync(d_pmin, d_p, nc * sizeof(real), cudaMemcpyDeviceToDevice));
				CK(cudaMemcpyAsync(d_pmax, d_p, nc * sizeof(real), cudaMemcpyDeviceToDevice));
				launch("k_lm_face", k_lm_face, nf, nf, d_fc, d_p, d_pmin, d_pmax);
			}, reps);
			record("LM-F", "local min/max p, face loop, atomics", ms, B_fc + io,
			       rel_err(dget(d_lm, lsz), lm_ref.data(), lm_scale, 2, nc, NULL), 0);
		}
		if (wanted("LM-C")) {
			g_variant = "LM-C";
			double ms = time_op([&] {
				launch("k_lm_cell", k_lm_cell, nc, nc, d_cfo, d_cf, d_fc, d_p, d_pmin, d_pmax);
			}, reps);
			record("LM-C", "local min/max p, cell loop", ms, (nc + 1.0 + Lcf) * I + B_fc + io,
			       rel_err(dget(d_lm, lsz), lm_ref.data(), lm_scale, 2, nc, NULL), 0);
		}
		struct {
			const char *name, *what;
			const plan_t *pl;
			const fv_idx_t *fc;
			const real *p;
			bool renum;
		} cv[2] = {
			{"LM-col", "local min/max p, colour groups (Alg. 6)", &pl_col, d_fc, d_p, false},
			{"LM-col-rn", "local min/max p, colour + renumbered (Alg. 10)", &pl_rn, d_fc_rn, d_p_rn, true},
		};
		for (int v = 0; v < 2; v++) {
			if (!wanted(cv[v].name))
				continue;
			g_variant = cv[v].name;
			const plan_t &pl = *cv[v].pl;
			const fv_idx_t *vfc = cv[v].fc;
			const real *vp = cv[v].p;
			double ms = time_op([&] {
				CK(cudaMemcpyAsync(d_pmin, vp, nc * sizeof(real), cudaMemcpyDeviceToDevice));
				CK(cudaMemcpyAsync(d_pmax, vp, nc * sizeof(real), cudaMemcpyDeviceToDevice));
				for (const group_launch_t &g : pl.g)
					launch("k_lm_group", k_lm_group<true>, (long)g.n0 + g.n1, pl.dlist, g.b0, g.n0, g.b1,
					       g.n1, vfc, vp, d_pmin, d_pmax);
			}, reps);
			record(cv[v].name, cv[v].what, ms, B_fc + io + B_list,
			       rel_err(dget(d_lm, lsz), lm_ref.data(), lm_scale, 2, nc, cv[v].renum ? perm : NULL), 0);
		}
	}
	if (g_log)
		fclose(g_log);

	/* ---- report ---- */
	int bad = 0;
	printf("\n%-14s %10s %9s %9s %9s %10s %7s  %s\n", "kernel", "ms", "ns/cell", "min MB", "GB/s", "error", "", "what");
	for (const row_t &r : g_rows) {
		printf("%-14s %10.4f %9.3f %9.1f %9.1f %10.2e %7s  %s\n", r.name.c_str(), r.ms, 1e6 * r.ms / nc,
		       r.bytes / 1e6, r.bytes / (r.ms * 1e6), r.err, r.ok ? "ok" : "FAIL", r.what.c_str());
		bad += !r.ok;
	}
	if (md_path) {
		FILE *md = fopen(md_path, "w");
		if (!md) {
			fprintf(stderr, "bench_kernels: cannot write %s\n", md_path);
			return 2;
		}
		fprintf(md, "## %s: %d cells, %d faces, %d nodes, %s precision\n\n", m.source, (int)nc, (int)nf, (int)nn,
			FV_REAL_NAME);
		fprintf(md, "%s (%d SMs, L2 %.0f MiB); %d timed runs, median; L2 %s; colouring %s: %d colours [%s], "
			    "renumbered from colour %d.\n\n",
			prop.name, prop.multiProcessorCount, l2 / 1048576.0, reps, g_flush ? "flushed" : "not flushed",
			method == FV_COLOR_GREEDY ? "greedy" : "minimal", nk, groups.c_str(), picked);
		fprintf(md, "| kernel | what | ms | ns/cell | min MB | GB/s | check | paper (V100) | V100 ms | "
			    "V100 ns/cell | x900/3350 ms (H100) | x900/3350 ns/cell | x900/4800 ms (H200) |\n");
		fprintf(md, "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
		for (const row_t &r : g_rows) {
			paper_ref_t pr = paper_lookup(r.name.c_str(), nc, single);
			char check[64];
			snprintf(check, sizeof check, "%s %.1e", r.ok ? "ok" : "**FAIL**", r.err);
			fprintf(md, "| %s | %s | %.4f | %.3f | %.1f | %.0f | %s |", r.name.c_str(), r.what.c_str(), r.ms,
				1e6 * r.ms / nc, r.bytes / 1e6, r.bytes / (r.ms * 1e6), check);
			if (pr.has)
				fprintf(md, " %s | %.3f | %.3f | %.4f | %.3f | %.4f |\n", pr.src, pr.ms, 1e6 * pr.ms / pr.cells,
					pr.ms * 900 / 3350, 1e6 * pr.ms / pr.cells * 900 / 3350, pr.ms * 900 / 4800);
			else
				fprintf(md, " | | | | | |\n");
		}
		fprintf(md, "\n");
		if (notes)
			fputs(NOTES, md);
		fclose(md);
	}

	for (void *ptr : g_dev)
		CK(cudaFree(ptr));
	if (g_flush)
		CK(cudaFree(g_flush));
	CK(cudaEventDestroy(g_ev0));
	CK(cudaEventDestroy(g_ev1));
	fv_coloring_free(&col);
	fv_mesh_free(&m);
	if (bad) {
		fprintf(stderr, "bench_kernels: %d kernel(s) disagree with the CPU reference\n", bad);
		return 1;
	}
	printf("\nall %zu kernels match the CPU reference\n", g_rows.size());
	return 0;
}
