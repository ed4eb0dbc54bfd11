/* SPDX-License-Identifier: MIT */
/* Hilbert order of cell centroids: a BFS-free ordering of a large block,
 * a key per cell and a stable radix sort, both on all threads. */
#include "order/sfc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/threads.h"
#include "util/timer.h"

/* Bits per axis: 2^63 boxes, so cells share a key only in meshes far
 * finer than their bounding cube's 2^-21 (the id then orders them). */
#define SFC_BITS 21
/* Radix digits of 11 bits: 6 passes over 63 bits, histograms of 2048
 * counters per thread that stay in cache. */
#define DIGIT_BITS 11
#define RADIX (1 << DIGIT_BITS)

/* The 21 low bits of x at every third bit (bit b at 3 b). */
static uint64_t spread3(uint32_t x)
{
	uint64_t v = x & 0x1fffffu;
	v = (v | v << 32) & 0x1f00000000ffffull;
	v = (v | v << 16) & 0x1f0000ff0000ffull;
	v = (v | v << 8) & 0x100f00f00f00f00full;
	v = (v | v << 4) & 0x10c30c30c30c30c3ull;
	v = (v | v << 2) & 0x1249249249249249ull;
	return v;
}

uint64_t fv_hilbert_key(const uint32_t x_in[3], int bits)
{
	uint32_t x[3] = {x_in[0], x_in[1], x_in[2]}, t;
	/* inverse undo of the curve's rotations and reflections: where bit q
	 * of x[i] is set, invert x[0]'s lower bits, else exchange them with
	 * x[i]'s; without branches, whose outcome is a coin toss per cell (a
	 * third of the sort's time went to them) */
	for (int b = bits - 1; b > 0; b--) {
		uint32_t p = (1u << b) - 1;
		for (int i = 0; i < 3; i++) {
			uint32_t set = 0u - ((x[i] >> b) & 1u);
			t = (x[0] ^ x[i]) & p & ~set;
			x[0] ^= t ^ (p & set);
			x[i] ^= t;
		}
	}
	/* Gray encoding */
	x[1] ^= x[0];
	x[2] ^= x[1];
	t = 0;
	for (int b = bits - 1; b > 0; b--)
		t ^= ((1u << b) - 1) & (0u - ((x[2] >> b) & 1u));
	for (int i = 0; i < 3; i++)
		x[i] ^= t;
	/* the transposed index: bit b of x[i] at 3 b + 2 - i */
	return spread3(x[0]) << 2 | spread3(x[1]) << 1 | spread3(x[2]);
}

/* Items per piece of a radix pass: pieces are counted and scattered by
 * whichever thread is free (a core busy elsewhere slows one piece, not a
 * thread's whole static share), each with its own counts. */
#define SORT_PIECE ((size_t)1 << 16)

static inline size_t digit(const uint64_t *k, const fv_idx_t *v, size_t i, int shift, const int32_t *block)
{
	return shift < 0 ? (size_t)block[v[i]] : (size_t)((k[i] >> shift) & (RADIX - 1));
}

/* One stable counting pass from (k, v) to (k2, v2) by the digit of shift
 * (or, with shift < 0, by the block of the cell v, nb buckets). Bucket d
 * of piece p starts after bucket d of the pieces before p: the stable
 * order, whatever the threads. hist holds nbk counts per piece and one
 * row more. Returns 0
 * where every item had the same digit (nothing moved). */
static int radix_pass(const uint64_t *k, const fv_idx_t *v, uint64_t *k2, fv_idx_t *v2, size_t n, int shift,
		      const int32_t *block, int nb, size_t *hist)
{
	size_t nbk = shift < 0 ? (size_t)nb : RADIX, np = (n + SORT_PIECE - 1) / SORT_PIECE, sum = 0;
	size_t *base = hist + np * nbk; /* per bucket: the items before it, then the next free place */
	int moved = 1;
	FV_OMP(parallel for schedule(dynamic, 1) if (np > 1))
	for (size_t p = 0; p < np; p++) {
		size_t *h = hist + p * nbk, hi = (p + 1) * SORT_PIECE < n ? (p + 1) * SORT_PIECE : n;
		memset(h, 0, nbk * sizeof *h);
		for (size_t i = p * SORT_PIECE; i < hi; i++)
			h[digit(k, v, i, shift, block)]++;
	}
	/* the counts row by row (sequential in memory), then each piece's
	 * starts */
	memset(base, 0, nbk * sizeof *base);
	for (size_t p = 0; p < np; p++)
		for (size_t d = 0; d < nbk; d++)
			base[d] += hist[p * nbk + d];
	for (size_t d = 0; d < nbk; d++) {
		size_t c = base[d];
		moved = moved && c != n;
		base[d] = sum;
		sum += c;
	}
	for (size_t p = 0; p < np && moved; p++)
		for (size_t d = 0; d < nbk; d++) {
			size_t c = hist[p * nbk + d];
			hist[p * nbk + d] = base[d];
			base[d] += c;
		}
	if (!moved)
		return 0;
	FV_OMP(parallel for schedule(dynamic, 1) if (np > 1))
	for (size_t p = 0; p < np; p++) {
		size_t *h = hist + p * nbk, hi = (p + 1) * SORT_PIECE < n ? (p + 1) * SORT_PIECE : n;
		for (size_t i = p * SORT_PIECE; i < hi; i++) {
			size_t at = h[digit(k, v, i, shift, block)]++;
			k2[at] = k[i];
			v2[at] = v[i];
		}
	}
	return 1;
}

/* The mesh's bounding box of cell centroids (of the blocks used). */
static void centroid_box(const fv_mesh_t *m, const int32_t *block, const uint8_t *use, double lo[3], double hi[3])
{
	fv_idx_t nc = m->n_cells;
	double x0 = INFINITY, y0 = INFINITY, z0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, z1 = -INFINITY;
	FV_OMP(parallel for schedule(static) reduction(min : x0, y0, z0) reduction(max : x1, y1, z1) if (nc > FV_PAR_MIN))
	for (fv_idx_t c = 0; c < nc; c++) {
		if (block && !use[block[c]])
			continue;
		double x = m->cell_ctr[c], y = m->cell_ctr[nc + c], z = m->cell_ctr[2 * (size_t)nc + c];
		x0 = x < x0 ? x : x0;
		y0 = y < y0 ? y : y0;
		z0 = z < z0 ? z : z0;
		x1 = x > x1 ? x : x1;
		y1 = y > y1 ? y : y1;
		z1 = z > z1 ? z : z1;
	}
	lo[0] = x0, lo[1] = y0, lo[2] = z0;
	hi[0] = x1, hi[1] = y1, hi[2] = z1;
}

/* Where x falls among 2^SFC_BITS boxes of the cube from lo, scale boxes
 * per unit length (the hilbert partitioner's expression since 2026-11-26,
 * so its blocks did not move). */
static inline uint32_t grid(double x, double lo, double scale)
{
	double g = (x - lo) * scale;
	return g <= 0 ? 0u : g >= (double)((1u << SFC_BITS) - 1) ? (1u << SFC_BITS) - 1 : (uint32_t)g;
}

/* fv_hilbert_key of the centroids of cells v[lo, hi), LANES cells in
 * lockstep: one cell's key is a chain of 60 dependent steps (100 ns on
 * the build machine), and lanes side by side fill the vector units
 * (AVX2 where the CPU has it: 4-6x). */
#define LANES 16
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(__CUDACC__)
__attribute__((target_clones("avx2", "default")))
#endif
static void hilbert_keys(const fv_mesh_t *m, const fv_idx_t *v, size_t lo_i, size_t hi_i, const double lo[3],
			 double scale, uint64_t *key)
{
	size_t nc = (size_t)m->n_cells;
	const fv_real_t *ctr = m->cell_ctr;
	for (size_t i0 = lo_i; i0 < hi_i; i0 += LANES) {
		uint32_t x0[LANES], x1[LANES], x2[LANES];
		int nl = hi_i - i0 < LANES ? (int)(hi_i - i0) : LANES;
		for (int l = 0; l < LANES; l++) {
			size_t c = (size_t)v[i0 + (l < nl ? (size_t)l : 0)];
			x0[l] = grid(ctr[c], lo[0], scale);
			x1[l] = grid(ctr[nc + c], lo[1], scale);
			x2[l] = grid(ctr[2 * nc + c], lo[2], scale);
		}
		/* fv_hilbert_key's steps, x[0..2] as x0, x1, x2 of each lane */
		for (int b = SFC_BITS - 1; b > 0; b--) {
			uint32_t p = (1u << b) - 1;
			for (int l = 0; l < LANES; l++) {
				uint32_t a = x0[l], y = x1[l], z = x2[l], set, t;
				set = 0u - ((a >> b) & 1u);
				a ^= p & set;
				set = 0u - ((y >> b) & 1u);
				t = (a ^ y) & p & ~set;
				a ^= t ^ (p & set);
				y ^= t;
				set = 0u - ((z >> b) & 1u);
				t = (a ^ z) & p & ~set;
				a ^= t ^ (p & set);
				z ^= t;
				x0[l] = a, x1[l] = y, x2[l] = z;
			}
		}
		for (int l = 0; l < nl; l++) {
			uint32_t a = x0[l], y = x1[l] ^ a, z = x2[l] ^ y, t = 0;
			for (int b = SFC_BITS - 1; b > 0; b--)
				t ^= ((1u << b) - 1) & (0u - ((z >> b) & 1u));
			key[i0 + (size_t)l] = spread3(a ^ t) << 2 | spread3(y ^ t) << 1 | spread3(z ^ t);
		}
	}
}

fv_err_t fv_order_hilbert(const fv_mesh_t *m, const int32_t *block, int n_blocks, const fv_idx_t *block_off,
			  const uint8_t *use, fv_idx_t *perm, fv_idx_t *new_of_old, double seconds[2])
{
	fv_idx_t nc = m->n_cells;
	size_t n = 0;
	uint64_t *k = NULL, *k2 = NULL;
	fv_idx_t *v = NULL, *v2 = NULL;
	size_t *hist = NULL;
	size_t nbk = n_blocks > RADIX ? (size_t)n_blocks : RADIX;
	double lo[3], hi[3], side = 0, scale;
	fv_err_t err = FV_OK;

	FV_CHECK(m->cell_ctr, FV_ERR_ARG, "%s: the Hilbert order needs the cells' centroids (fv_mesh_prepare)",
		 m->source);
	for (int b = 0; b < n_blocks; b++)
		n += !block || use[b] ? (size_t)(block_off[b + 1] - block_off[b]) : 0;
	if (n == 0)
		return FV_OK;
	FV_CALL_GOTO(err, done, fv_malloc(&k, n, sizeof *k, "Hilbert keys"));
	FV_CALL_GOTO(err, done, fv_malloc(&k2, n, sizeof *k2, "Hilbert keys, sorted"));
	FV_CALL_GOTO(err, done, fv_malloc(&v, n, sizeof *v, "Hilbert cells"));
	FV_CALL_GOTO(err, done, fv_malloc(&v2, n, sizeof *v2, "Hilbert cells, sorted"));
	FV_CALL_GOTO(err, done,
		     fv_malloc(&hist, ((n + SORT_PIECE - 1) / SORT_PIECE + 1) * nbk, sizeof *hist, "radix counts"));

	double t0 = fv_now(), t1;
	centroid_box(m, block, use, lo, hi);
	for (int d = 0; d < 3; d++)
		side = hi[d] - lo[d] > side ? hi[d] - lo[d] : side;
	scale = side > 0 ? ((double)(1u << SFC_BITS) - 1) / side : 0;
	/* the used cells in id order: their position is the count of used
	 * cells before them (one stable pass by "used", here by hand) */
	if (n == (size_t)nc) {
		FV_OMP(parallel for schedule(static) if (nc > FV_PAR_MIN))
		for (fv_idx_t c = 0; c < nc; c++)
			v[c] = c;
	} else {
		size_t at = 0;
		for (fv_idx_t c = 0; c < nc; c++)
			if (use[block[c]])
				v[at++] = c;
	}
	FV_OMP(parallel for schedule(dynamic, 1) if (n > SORT_PIECE))
	for (size_t p = 0; p < n; p += SORT_PIECE)
		hilbert_keys(m, v, p, p + SORT_PIECE < n ? p + SORT_PIECE : n, lo, scale, k);
	t1 = fv_now();
	/* least significant digit first, then the block: (block, key, id) */
	for (int shift = 0; shift < 3 * SFC_BITS; shift += DIGIT_BITS)
		if (radix_pass(k, v, k2, v2, n, shift, block, n_blocks, hist)) {
			uint64_t *tk = k;
			fv_idx_t *tv = v;
			k = k2, k2 = tk;
			v = v2, v2 = tv;
		}
	if (block && radix_pass(k, v, k2, v2, n, -1, block, n_blocks, hist)) {
		fv_idx_t *tv = v;
		v = v2, v2 = tv;
	}
	/* the used blocks' ranges, in block order, are v's consecutive parts */
	{
		size_t at = 0;
		for (int b = 0; b < n_blocks; b++) {
			fv_idx_t lo_b = block_off[b], nb_b = block_off[b + 1] - block_off[b];
			if (block && !use[b])
				continue;
			FV_OMP(parallel for schedule(static) if (nb_b > FV_PAR_MIN))
			for (fv_idx_t i = 0; i < nb_b; i++) {
				perm[lo_b + i] = v[at + (size_t)i];
				if (new_of_old)
					new_of_old[v[at + (size_t)i]] = lo_b + i;
			}
			at += (size_t)nb_b;
		}
	}
	if (seconds)
		seconds[0] = t1 - t0, seconds[1] = fv_now() - t1;
done:
	free(k);
	free(k2);
	free(v);
	free(v2);
	free(hist);
	return err;
}
