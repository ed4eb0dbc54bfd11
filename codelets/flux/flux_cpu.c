/* SPDX-License-Identifier: MIT */
/* CPU: face loop with summation into owner and neighbour (SF-F), in face
 * order or colour group by colour group; one thread per block, so no race.
 * The Roe fluxes of the interior faces are computed FV_BATCH faces at a
 * time across SIMD lanes (their divisions and square roots are most of
 * the face's time), the rest one face at a time, and the sums run in face
 * order, so the residual is bit for bit that of a face-by-face loop
 * (the viscous and nu~ fluxes added face by face after the Roe flux, as
 * the shared kernel does). */
#include <string.h>

#include "codelets/common.h"

#define FV_BATCH 8

/*
 * What the reconstruction reads of a cell, packed into one record per
 * local cell for second-order runs with one limiter for all variables
 * (the default):
 *
 *   rec[c] = w[0..5) grad[0..15) lim cell_ctr[0..3)   (24 values, 3 lines)
 *
 * The fields are SoA over the block for the GPU; a face reading them
 * directly touches 24 cache lines per cell, two cells per face, in a
 * scattered order. The records are filled by one sequential pass, in a
 * scratch buffer of the worker thread (fv_cpu_scratch).
 */
#define REC 24

/* The records of all local cells, or NULL where the shared kernel's path
 * runs (first order, a limiter per variable, no memory). */
static const fv_real_t *rec_fill(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w,
				 const fv_real_t *grad, const fv_real_t *phi)
{
	fv_idx_t nc = v->n_cells, sc = v->sc;
	if (P->order < 2 || (P->limiter && P->limiter_all))
		return NULL;
	fv_real_t *r = fv_cpu_scratch(FV_SCRATCH_CELLS, (size_t)nc * REC * sizeof *r);
	if (!r)
		return NULL;
	for (fv_idx_t c = 0; c < nc; c++) {
		fv_real_t *x = r + (size_t)REC * c;
		fv_k_load(w, sc, c, x);
		fv_k_load_n(grad, sc, c, x + FV_NVAR, 3 * FV_NVAR);
		x[20] = P->limiter ? P->blend * phi[(size_t)4 * sc + c] : P->blend;
		fv_k_load_n(v->cell_ctr, nc, c, x + 21, 3);
	}
	return r;
}

/* fv_k_reconstruct from cell c's record: the same operations. */
static inline void rec_reconstruct(const fv_view_t *v, const fv_real_t *rec, fv_idx_t c, fv_idx_t f,
				   fv_real_t out[FV_NVAR])
{
	const fv_real_t *x = rec + (size_t)REC * c;
	fv_real_t dx[3], r[FV_NVAR], lim = x[20];
	for (int d = 0; d < 3; d++)
		dx[d] = v->face_ctr[(size_t)d * v->n_faces + f] - x[21 + d];
	for (int q = 0; q < FV_NVAR; q++) {
		const fv_real_t *g = x + FV_NVAR + 3 * q;
		out[q] = x[q];
		r[q] = x[q] + lim * (g[0] * dx[0] + g[1] * dx[1] + g[2] * dx[2]);
	}
	if (r[0] > 0 && r[4] > 0)
		for (int q = 0; q < FV_NVAR; q++)
			out[q] = r[q];
}

/* The reconstructed states and area vectors of a batch's faces, one row
 * per component, so that lane i of every row is face i. */
typedef struct flux_batch {
	fv_real_t wl[FV_NVAR][FV_BATCH], wr[FV_NVAR][FV_BATCH], s[3][FV_BATCH];
	fv_real_t F[FV_NFLUX][FV_BATCH]; /* the fluxes found one face at a time */
} flux_batch_t;

/* Roe fluxes of a batch's faces, lane by lane: the same expression as
 * fv_roe_flux per face (vector lanes round as the scalar unit does; C11
 * mode keeps the compiler from contracting into FMAs). All FV_BATCH lanes
 * always (a fixed trip count, separate restrict rows: what GCC needs to
 * vectorise the loop); one clone per vector width, picked at load time by
 * the CPU it runs on. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((flatten, target_clones("avx2", "default")))
#endif
static void roe_batch(const fv_real_t (*restrict WL)[FV_BATCH], const fv_real_t (*restrict WR)[FV_BATCH],
		      const fv_real_t (*restrict S)[FV_BATCH], fv_real_t gamma, fv_real_t entropy_fix,
		      fv_real_t (*restrict FF)[FV_BATCH])
{
	for (int i = 0; i < FV_BATCH; i++) {
		fv_real_t wl[FV_NVAR], wr[FV_NVAR], s[3], F[FV_NVAR];
		for (int q = 0; q < FV_NVAR; q++) {
			wl[q] = WL[q][i];
			wr[q] = WR[q][i];
		}
		for (int d = 0; d < 3; d++)
			s[d] = S[d][i];
		fv_roe_flux(wl, wr, s, gamma, entropy_fix, F);
		for (int q = 0; q < FV_NVAR; q++)
			FF[q][i] = F[q];
	}
}

/* Lane i of the batch: an interior face's reconstructed states, or for a
 * boundary face its whole flux now and a valid dummy state for the lane,
 * whose Roe flux is dropped. Returns whether the lane's Roe flux is still
 * to be computed. */
static int batch_face(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
		      const fv_real_t *phi, const fv_real_t *rec, fv_idx_t f, flux_batch_t *b, int i)
{
	fv_idx_t o = v->face_cell[2 * (size_t)f], nb = v->face_cell[2 * (size_t)f + 1];
	fv_real_t wl[FV_NVAR], wr[FV_NVAR], s[3];
	fv_k_face_vec(v->face_area, v->n_faces, f, s);
	int roe = nb >= 0;
	if (roe && rec) {
		rec_reconstruct(v, rec, o, f, wl);
		rec_reconstruct(v, rec, nb, f, wr);
	} else if (roe) {
		fv_k_reconstruct(v, P, w, grad, phi, o, f, wl);
		fv_k_reconstruct(v, P, w, grad, phi, nb, f, wr);
	} else {
		fv_real_t F[FV_NFLUX];
		fv_k_face_flux(v, P, w, grad, phi, f, F);
		fv_k_load(w, v->sc, o, wl);
		memcpy(wr, wl, sizeof wr);
		for (int q = 0; q < FV_NFLUX; q++)
			b->F[q][i] = F[q];
	}
	for (int q = 0; q < FV_NVAR; q++) {
		b->wl[q][i] = wl[q];
		b->wr[q][i] = wr[q];
	}
	for (int d = 0; d < 3; d++)
		b->s[d][i] = s[d];
	return roe;
}

/* The batch's n faces (list[0 .. n)): fluxes, then the sums in order
 * (ff: into the face store instead, numerics.overlap). */
static void batch_run(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w, const fv_real_t *grad,
		      const fv_real_t *phi, const fv_real_t *rec, fv_real_t *res, fv_real_t *ff, const fv_idx_t *list,
		      int n)
{
	flux_batch_t b;
	int roe[FV_BATCH];
	fv_real_t Froe[FV_NVAR][FV_BATCH];
	for (int i = 0; i < n; i++)
		roe[i] = batch_face(v, P, w, grad, phi, rec, list[i], &b, i);
	/* a short batch's idle lanes repeat its first face */
	for (int i = n; i < FV_BATCH; i++) {
		for (int q = 0; q < FV_NVAR; q++)
			b.wl[q][i] = b.wl[q][0], b.wr[q][i] = b.wr[q][0];
		for (int d = 0; d < 3; d++)
			b.s[d][i] = b.s[d][0];
	}
	roe_batch(b.wl, b.wr, b.s, P->gamma, P->entropy_fix, Froe);
	for (int i = 0; i < n; i++) {
		fv_real_t F[FV_NFLUX];
		fv_idx_t f = list[i];
		for (int q = 0; q < FV_NFLUX; q++)
			F[q] = roe[i] && q < FV_NVAR ? Froe[q][i] : roe[i] ? (fv_real_t)0 : b.F[q][i];
		if (roe[i])
			fv_k_face_rest(v, P, w, grad, f, F);
		if (ff)
			fv_k_fflux_store(P, ff, v->n_faces, f, F);
		else
			fv_k_face_add(P, res, v->n_owned, v->so, v->face_cell[2 * (size_t)f], v->face_cell[2 * (size_t)f + 1],
				      F, 0);
	}
}

/* The fluxes of the task's faces (colour groups k0 .. k1-1 with
 * flux_sum = color, or all) added into the owned cells' residual, zeroed
 * first when the task opens the stage; part FV_SPLIT_INTERIOR: the fluxes
 * of the faces that read no ghost into the face store ff only;
 * FV_SPLIT_BORDER: those of the others into ff, then every face's from ff
 * into the residual, in the one-task order (kernels.h). */
static void flux_faces(void *buffers[], const fv_task_args_t *a, int sum, int k0, int k1, int zero, int part)
{
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a->L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	const fv_real_t *grad = FV_PTR(2, const fv_real_t);
	const fv_real_t *phi = FV_PTR(3, const fv_real_t);
	fv_real_t *ff = part == FV_SPLIT_WHOLE ? NULL : FV_PTR(4, fv_real_t);
	fv_real_t *res = part == FV_SPLIT_INTERIOR ? NULL : FV_PTR(part == FV_SPLIT_WHOLE ? 4 : 5, fv_real_t);
	/* (the interior part names the residual too, untouched here: the
	 * direct form of a GPU-only block writes it) */
	fv_idx_t list[FV_BATCH];
	int n = 0, border = part == FV_SPLIT_BORDER;
	/* the border's few faces read the fields directly (the same
	 * operations): records for the whole block would cost more than them */
	const fv_real_t *rec = border ? NULL : rec_fill(&v, &a->P, w, grad, phi);
	fv_idx_t no = v.n_owned;
	if (res && zero)
		memset(res, 0, (size_t)a->P.nvar * v.so * sizeof *res);
	FV_CPU_FACES(&v, a, sum, k0, k1, f, {
		fv_idx_t o, nb;
		if (ff && (!fv_k_face_owned(&v, f, &o, &nb) || fv_k_face_border(&v, f) != border))
			continue;
		list[n++] = f;
		if (n == FV_BATCH) {
			batch_run(&v, &a->P, w, grad, phi, rec, res, ff, list, n);
			n = 0;
		}
	});
	if (n)
		batch_run(&v, &a->P, w, grad, phi, rec, res, ff, list, n);
	if (part == FV_SPLIT_INTERIOR)
		return;
	if (ff)
		FV_CPU_FACES(&v, a, sum, k0, k1, f, fv_k_face_add_stored(&v, &a->P, ff, res, f, 0));
	/* the turbulence model's source once the last faces are in */
	if (fv_k_sa(&a->P) && (sum != FV_SUM_COLOR || k1 == a->n_colors || !a->grouped))
		for (fv_idx_t c = 0; c < no; c++)
			fv_k_sa_source_add(&v, &a->P, w, grad, res, c);
}

/* Every face in the block's order (the summation order the CPU has always
 * used, whatever the GPU strategy). */
void fv_flux_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	flux_faces(buffers, &a, FV_SUM_ATOMIC, 0, 0, 1, FV_SPLIT_WHOLE);
}

/* numerics.overlap: the faces that read no ghost, into the face store. */
void fv_flux_interior_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	flux_faces(buffers, &a, FV_SUM_ATOMIC, 0, 0, 0, FV_SPLIT_INTERIOR);
}

/* numerics.overlap: the faces beside ghosts, then the sums. */
void fv_flux_border_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	flux_faces(buffers, &a, FV_SUM_ATOMIC, 0, 0, 1, FV_SPLIT_BORDER);
}

/* One colour group (color_tasks): the group's faces in order. */
void fv_flux_group_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	flux_faces(buffers, &a, FV_SUM_COLOR, a.group, a.group + 1, a.group == 0, FV_SPLIT_WHOLE);
}
