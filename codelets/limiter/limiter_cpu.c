/* SPDX-License-Identifier: MIT */
/* CPU limiter: cell loop (LM-C); for limiter_sum = atomic or color the
 * local min/max from a face loop (LM-F) in face or colour order first. */
#include <stdint.h>
#include <string.h>

#include "codelets/common.h"

#ifdef FV_SINGLE
typedef uint32_t bits_t;
#else
typedef uint64_t bits_t;
#endif

/* a where take is set, else b, through the bits: no branch. The sign of
 * d2 picks the bound of each face at random, so the branch the compiler
 * makes of a plain ?: mispredicts about every other face (a third of the
 * limiter's time on a tet mesh). */
static inline fv_real_t pick(int take, fv_real_t a, fv_real_t b)
{
	bits_t ua, ub, m = (bits_t)0 - (bits_t)(take != 0);
	fv_real_t r;
	memcpy(&ua, &a, sizeof a);
	memcpy(&ub, &b, sizeof b);
	ua = (ua & m) | (ub & ~m);
	memcpy(&r, &ua, sizeof r);
	return r;
}

/* fv_venkat, the same operations in the same order, without branches:
 * fmin(one, fmax(zero, x)) is written as the selects it equals here (x is
 * never NaN where den > 0; fmax(+0, -0) is +0 either way), which compile
 * to maxsd / minsd instead of calls into libm. */
static inline fv_real_t venkat_cpu(fv_real_t dmax, fv_real_t dmin, fv_real_t d2, fv_real_t eps2)
{
	const fv_real_t zero = (fv_real_t)0, one = (fv_real_t)1;
	fv_real_t d = pick(d2 > zero, dmax, dmin);
	fv_real_t dd = d * d + eps2;
	fv_real_t num = dd + (fv_real_t)2 * d2 * d;
	fv_real_t den = dd + (fv_real_t)2 * d2 * d2 + d * d2;
	den = pick(den > zero, den, one);
	fv_real_t x = num / den;
	x = x > zero ? x : zero;
	x = x < one ? x : one;
	return pick(d2 == zero, one, x);
}

/* Cells of a tile: their faces' limiter values are found together. */
#define TILE 64

/* venkat_cpu of n face entries, in SIMD lanes (the divisions were most of
 * the limiter's time, one after the other in a cell's face loop). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
static void venkat_lanes(fv_idx_t n, const fv_real_t *restrict dmax, const fv_real_t *restrict dmin,
			 const fv_real_t *restrict d2, const fv_real_t *restrict eps2, fv_real_t *restrict out)
{
	for (fv_idx_t i = 0; i < n; i++)
		out[i] = venkat_cpu(dmax[i], dmin[i], d2[i], eps2[i]);
}

/* fv_k_limiter for Venkatakrishnan's limiter from the pressure alone (the
 * default): one variable, so its values and gradient are read once per
 * cell, and the face loop has no branch on the data. A tile of cells at a
 * time: the arguments of each face's limiter value, then those values in
 * SIMD lanes, then each cell's minimum over its faces in face order. Bit
 * for bit the shared kernel's result (tests/cli/reference_runs.sh).
 * Returns 0 without memory for its scratch. */
static int limiter_pressure_venkat(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w,
				   const fv_real_t *grad, fv_real_t *phi)
{
	fv_idx_t nc = v->n_cells, sc = v->sc, nf = v->n_faces;
	const fv_real_t *p = w + (size_t)4 * sc, *gx = grad + (size_t)12 * sc, *gy = gx + sc, *gz = gy + sc;
	const fv_real_t *fx = v->face_ctr, *fy = fx + nf, *fz = fy + nf;
	const fv_real_t *cx = v->cell_ctr, *cy = cx + nc, *cz = cy + nc;
	size_t m = (size_t)TILE * (size_t)v->max_faces;
	fv_real_t *dmax = fv_cpu_scratch(FV_SCRATCH_LIMITER, 5 * m * sizeof *dmax);
	if (!dmax)
		return 0;
	fv_real_t *dmin = dmax + m, *d2 = dmin + m, *eps2 = d2 + m, *out = eps2 + m;
	fv_real_t sw[TILE];
	for (fv_idx_t c0 = 0; c0 < v->n_owned; c0 += TILE) {
		fv_idx_t c1 = v->n_owned - c0 < TILE ? v->n_owned : c0 + TILE, kb = v->cell_face_off[c0];
		for (fv_idx_t c = c0; c < c1; c++) {
			fv_idx_t k0 = v->cell_face_off[c], k1 = v->cell_face_off[c + 1];
			fv_real_t pc = p[c], pmin = pc, pmax = pc;
			for (fv_idx_t k = k0; k < k1; k++) {
				fv_idx_t f = v->cell_face[k];
				fv_idx_t o = v->face_cell[2 * (size_t)f], nb = v->face_cell[2 * (size_t)f + 1];
				fv_idx_t other = o == c ? nb : o;
				fv_real_t x = p[other < 0 ? c : other];
				pmin = FV_MIN(pmin, x);
				pmax = FV_MAX(pmax, x);
			}
			fv_real_t e = fv_venkat_eps2(P->limiter_k, v->cell_vol[c]);
			fv_real_t g0 = gx[c], g1 = gy[c], g2 = gz[c], x0 = cx[c], x1 = cy[c], x2 = cz[c], dp_max = 0;
			for (fv_idx_t k = k0; k < k1; k++) {
				fv_idx_t f = v->cell_face[k];
				size_t i = (size_t)(k - kb);
				d2[i] = g0 * (fx[f] - x0) + g1 * (fy[f] - x1) + g2 * (fz[f] - x2);
				dmax[i] = pmax - pc;
				dmin[i] = pmin - pc;
				eps2[i] = e;
				dp_max = FV_MAX(dp_max, FV_FABS(d2[i]));
			}
			sw[c - c0] = fv_shock_switch(pmin, pmax, pc, dp_max, P->limiter_shock);
		}
		venkat_lanes(v->cell_face_off[c1] - kb, dmax, dmin, d2, eps2, out);
		for (fv_idx_t c = c0; c < c1; c++) {
			fv_real_t lim = sw[c - c0];
			for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++)
				lim = FV_MIN(lim, out[k - kb]);
			phi[(size_t)4 * sc + c] = lim;
		}
	}
	return 1;
}

void fv_limiter_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	const fv_real_t *grad = FV_PTR(2, const fv_real_t);
	fv_real_t *phi = FV_PTR(3, fv_real_t);
	fv_real_t *mm = FV_PTR(4, fv_real_t);
	if (a.P.lim_sum == FV_SUM_GATHER || a.P.lim_sum == FV_SUM_AUTO) {
		if (a.P.limiter == FV_LIMITER_VENKATAKRISHNAN && !a.P.limiter_all &&
		    limiter_pressure_venkat(&v, &a.P, w, grad, phi))
			return;
		for (fv_idx_t c = 0; c < v.n_owned; c++)
			fv_k_limiter(&v, &a.P, w, grad, phi, c);
		return;
	}
	int k0, k1, start, finish;
	fv_task_groups(&a, &k0, &k1, &start, &finish);
	for (fv_idx_t c = 0; start && c < v.n_owned; c++)
		fv_k_minmax_start(&v, w, mm, c);
	FV_CPU_FACES(&v, &a, a.P.lim_sum, k0, k1, f, fv_k_face_minmax(&v, &a.P, w, mm, f, 0));
	for (fv_idx_t c = 0; finish && c < v.n_owned; c++)
		fv_k_limiter_mm(&v, &a.P, w, grad, mm, phi, c);
}
