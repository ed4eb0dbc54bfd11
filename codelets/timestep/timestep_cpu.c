/* SPDX-License-Identifier: MIT */
/* CPU: local time step per owned cell (cell loop, or for timestep_sum =
 * atomic or color a face loop adding each side's spectral radius); the
 * clock update of unsteady runs. */
#include <math.h>
#include <string.h>

#include "codelets/common.h"

/* The area of every face of the block, or NULL without memory; one
 * square root per face (in SIMD lanes) instead of one per face and cell. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
static const fv_real_t *face_areas(const fv_view_t *v)
{
	fv_idx_t nf = v->n_faces;
	fv_real_t *restrict a = fv_cpu_scratch(FV_SCRATCH_FACES, (size_t)nf * sizeof *a);
	const fv_real_t *sx = v->face_area, *sy = sx + nf, *sz = sy + nf;
	for (fv_idx_t f = 0; a && f < nf; f++) {
		fv_real_t s[3] = {sx[f], sy[f], sz[f]};
		a[f] = fv_area(s);
	}
	return a;
}

/* fv_k_spectral of an inviscid run with the sound speed of the cell found
 * once and the faces' areas from face_areas: the same operations. */
static fv_real_t spectral_inviscid(const fv_view_t *v, const fv_params_t *P, const fv_real_t *w,
				   const fv_real_t *area, fv_idx_t c)
{
	fv_real_t wc[FV_NVAR], lam = 0;
	fv_k_load(w, v->sc, c, wc);
	fv_real_t cs = fv_sound_speed(wc, P->gamma);
	for (fv_idx_t k = v->cell_face_off[c]; k < v->cell_face_off[c + 1]; k++) {
		fv_idx_t f = v->cell_face[k];
		fv_real_t s[3];
		fv_k_face_vec(v->face_area, v->n_faces, f, s);
		lam += fv_spectral_radius_ca(wc, s, cs, area[f]);
	}
	return lam;
}

void fv_timestep_cpu(void *buffers[], void *cl_arg)
{
	fv_task_args_t a;
	FV_ARGS_UNPACK(cl_arg, &a);
	fv_view_t v = fv_view_make(FV_PTR(0, void), &a.L);
	const fv_real_t *w = FV_PTR(1, const fv_real_t);
	fv_real_t *dt = FV_PTR(2, fv_real_t);
	double dmin = INFINITY;
	int gather = a.P.dt_sum == FV_SUM_GATHER || a.P.dt_sum == FV_SUM_AUTO, k0, k1, start, finish;
	fv_task_groups(&a, &k0, &k1, &start, &finish);
	if (!gather) {
		if (start)
			memset(dt, 0, (size_t)v.n_owned * sizeof *dt);
		FV_CPU_FACES(&v, &a, a.P.dt_sum, k0, k1, f, fv_k_face_spectral_add(&v, &a.P, w, dt, f, 0));
		if (!finish)
			return;
	}
	const fv_real_t *area = gather && !fv_k_viscous(&a.P) ? face_areas(&v) : NULL;
	for (fv_idx_t c = 0; c < v.n_owned; c++) {
		fv_real_t lam = area ? spectral_inviscid(&v, &a.P, w, area, c)
			      : gather ? fv_k_spectral(&v, &a.P, w, c) : dt[c];
		dt[c] = fv_k_dt(&v, &a.P, lam, c);
		if (dt[c] < dmin)
			dmin = dt[c];
	}
	fv_clock_t *k = fv_timestep_clock(buffers, &a);
	if (k && dmin < k->dt_min)
		k->dt_min = dmin;
}

void fv_clock_cpu(void *buffers[], void *cl_arg)
{
	fv_clock_t *k = FV_PTR(0, fv_clock_t);
	(void)cl_arg;
	k->dt = k->t_end - k->t < k->dt_min ? k->t_end - k->t : k->dt_min;
	if (k->dt < 0)
		k->dt = 0;
	k->t += k->dt;
	k->dt_min = INFINITY;
	double *norms = FV_PTR(1, double);
	norms[FV_NORM_T] = k->t;
	norms[FV_NORM_DT] = k->dt;
}
