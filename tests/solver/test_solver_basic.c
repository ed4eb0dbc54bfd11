/* SPDX-License-Identifier: MIT */
/* The task graph on CPU workers: free-stream preservation on a perturbed
 * mixed mesh, exact conservation in a closed box (mass and energy; momentum
 * against the wall pressure impulse), and the same solution for
 * 1, 3 and 8 blocks. Run as: tests/solver/test_solver_basic (cmocka). */
#include <math.h>

#include "solver_testutil.h"
#include "fvstar/partition.h"
#include "fvstar/solver.h"
#include "physics/bc.h"
#include "physics/gas.h"

typedef struct run {
	fv_mesh_t m;
	fv_block_t *blocks;
	int nb;
	fv_real_t *q;           /* global conservative SoA */
	int8_t *bc;
} run_t;

static void setup_run(run_t *r, fv_gen_cells_t cells, int n, double perturb, int nb, int bc_kind)
{
	fv_gen_opts_t o;
	int32_t *part;
	fv_idx_t *off;
	fv_partition_stats_t ps;
	fv_order_stats_t os;
	memset(r, 0, sizeof *r);
	fv_gen_opts_default(&o);
	o.cells = cells;
	o.nx = o.ny = o.nz = n;
	o.perturb = perturb;
	o.seed = 7;
	FV_ASSERT_OK(fv_mesh_gen_box(&r->m, &o));
	FV_ASSERT_OK(fv_mesh_prepare(&r->m));
	part = malloc(sizeof *part * (size_t)r->m.n_cells);
	off = malloc(sizeof *off * (size_t)(nb + 1));
	FV_ASSERT_OK(fv_partition_cells(&r->m, nb, nb > 1 ? FV_PART_METIS : FV_PART_LINEAR, 1, part, &ps));
	FV_ASSERT_OK(fv_mesh_renumber(&r->m, part, nb, off, 0, &os));
	FV_ASSERT_OK(fv_blocks_build(&r->m, off, nb, &r->blocks));
	r->nb = nb;
	free(part);
	free(off);
	r->q = calloc(5 * (size_t)r->m.n_cells, sizeof *r->q);
	r->bc = malloc((size_t)r->m.n_markers);
	for (int k = 0; k < r->m.n_markers; k++)
		r->bc[k] = (int8_t)bc_kind;
}

static void free_run(run_t *r)
{
	fv_blocks_free(r->blocks, r->nb);
	fv_mesh_free(&r->m);
	free(r->q);
	free(r->bc);
}

static void set_prim(run_t *r, fv_idx_t c, const double w[5])
{
	fv_real_t wr[5], q[5];
	size_t n = (size_t)r->m.n_cells;
	for (int k = 0; k < 5; k++)
		wr[k] = (fv_real_t)w[k];
	fv_prim_to_cons(wr, (fv_real_t)1.4, q);
	for (int k = 0; k < 5; k++)
		r->q[k * n + (size_t)c] = q[k];
}

typedef struct last_res {
	double res[5];
	int iters;
} last_res_t;

static int record(const fv_iter_info_t *info, void *ctx)
{
	last_res_t *l = (last_res_t *)ctx;
	memcpy(l->res, info->res, sizeof l->res);
	l->iters++;
	return 0;
}

static void solve(run_t *r, fv_solver_opts_t *o, int iters, last_res_t *l)
{
	fv_solver_t *s;
	int done;
	o->marker_bc = r->bc;
	memset(l, 0, sizeof *l);
	FV_ASSERT_OK(fv_solver_create(&s, &r->m, r->blocks, r->nb, o));
	FV_ASSERT_OK(fv_solver_set_state(s, r->q));
	FV_ASSERT_OK(fv_solver_run(s, 1, iters, 0, record, l, &done));
	assert_int_equal(done, iters);
	FV_ASSERT_OK(fv_solver_get_state(s, r->q));
	fv_solver_destroy(s);
}

static void test_freestream(void **state)
{
	run_t r;
	fv_solver_opts_t o;
	last_res_t l;
	double winf[5] = {1, 0.5 * cos(0.1), 0.1, 0.5 * sin(0.1), 1 / 1.4};
	(void)state;
	for (int nb = 1; nb <= 4; nb += 3) {
		setup_run(&r, FV_GEN_MIXED, 6, 0.2, nb, FV_BC_FARFIELD);
		for (fv_idx_t c = 0; c < r.m.n_cells; c++)
			set_prim(&r, c, winf);
		fv_solver_opts_default(&o);
		memcpy(o.winf, winf, sizeof winf);
		solve(&r, &o, 100, &l);
		print_message("free stream, %d blocks: residuals %.3g %.3g %.3g %.3g %.3g after %d iterations\n", nb,
			      l.res[0], l.res[1], l.res[2], l.res[3], l.res[4], l.iters);
		for (int k = 0; k < 5; k++)
			assert_true(l.res[k] <= FV_TOL(1e-12));
		free_run(&r);
	}
}

/* A smooth disturbance in a box: the final states for different block
 * counts agree to round-off. */
static void disturbed(run_t *r)
{
	size_t n = (size_t)r->m.n_cells;
	for (fv_idx_t c = 0; c < r->m.n_cells; c++) {
		double x = r->m.cell_ctr[c], y = r->m.cell_ctr[n + (size_t)c], z = r->m.cell_ctr[2 * n + (size_t)c];
		double d = exp(-20 * ((x - 0.5) * (x - 0.5) + (y - 0.4) * (y - 0.4) + (z - 0.6) * (z - 0.6)));
		double w[5] = {1 + 0.2 * d, 0.3 + 0.1 * d, 0.05 * d, -0.02, (1 + 0.5 * d) / 1.4};
		set_prim(r, c, w);
	}
}

static double total(const run_t *r, int k)
{
	double s = 0;
	size_t n = (size_t)r->m.n_cells;
	for (fv_idx_t c = 0; c < r->m.n_cells; c++)
		s += (double)r->q[k * n + (size_t)c] * r->m.cell_vol[c];
	return s;
}

static void test_conservation_closed_box(void **state)
{
	run_t r;
	fv_solver_opts_t o;
	last_res_t l;
	double before[5], after[5];
	(void)state;
	setup_run(&r, FV_GEN_TET, 5, 0.15, 3, FV_BC_SLIP_WALL);
	disturbed(&r);
	for (int k = 0; k < 5; k++)
		before[k] = total(&r, k);
	fv_solver_opts_default(&o);
	o.num.time_mode = FV_TIME_UNSTEADY;
	o.num.t_end = 1e9;
	o.num.cfl = 0.5;
	solve(&r, &o, 30, &l);
	for (int k = 0; k < 5; k++)
		after[k] = total(&r, k);
	print_message("closed box: mass %.17g -> %.17g, energy %.17g -> %.17g\n", before[0], after[0], before[4],
		      after[4]);
	FV_ASSERT_NEAR(after[0], before[0], FV_TOL(1e-13));
	FV_ASSERT_NEAR(after[4], before[4], FV_TOL(1e-13));
	free_run(&r);
}

/* The momentum of a closed box changes only by the wall pressure: with
 * forward Euler (one stage, global step dt_n) P^N - P^0 = -sum_n dt_n F_n,
 * F_n the pressure force (p - p_inf) S on the walls at the state of
 * iteration n's start, as the solver reports it (the p_inf S terms cancel
 * on a closed surface). */
typedef struct impulse {
	double sum[3];          /* sum of dt_n F_n */
	double fmax;
	int iters;
} impulse_t;

static int add_impulse(const fv_iter_info_t *info, void *ctx)
{
	impulse_t *im = (impulse_t *)ctx;
	for (int d = 0; d < 3; d++) {
		im->sum[d] += info->dt * info->force[d];
		if (fabs(info->force[d]) > im->fmax)
			im->fmax = fabs(info->force[d]);
	}
	im->iters++;
	return 0;
}

static void test_momentum_closed_box(void **state)
{
	run_t r;
	fv_solver_opts_t o;
	fv_solver_t *s;
	impulse_t im;
	uint8_t *walls;
	double before[3], after[3];
	int done;
	(void)state;
	for (int nb = 1; nb <= 3; nb += 2) {
		setup_run(&r, FV_GEN_MIXED, 5, 0.15, nb, FV_BC_SLIP_WALL);
		disturbed(&r);
		walls = malloc((size_t)r.m.n_markers);
		memset(walls, 1, (size_t)r.m.n_markers);
		for (int d = 0; d < 3; d++)
			before[d] = total(&r, 1 + d);
		fv_solver_opts_default(&o);
		o.num.time_mode = FV_TIME_UNSTEADY;
		o.num.t_end = 1e9;
		o.num.cfl = 0.4;
		o.num.rk = 1;
		o.marker_bc = r.bc;
		o.marker_force = walls;
		memset(&im, 0, sizeof im);
		FV_ASSERT_OK(fv_solver_create(&s, &r.m, r.blocks, r.nb, &o));
		FV_ASSERT_OK(fv_solver_set_state(s, r.q));
		FV_ASSERT_OK(fv_solver_run(s, 1, 20, 0, add_impulse, &im, &done));
		FV_ASSERT_OK(fv_solver_get_state(s, r.q));
		fv_solver_destroy(s);
		assert_int_equal(im.iters, 20);
		assert_true(im.fmax > 1e-3); /* the walls do push */
		for (int d = 0; d < 3; d++) {
			after[d] = total(&r, 1 + d);
			print_message("closed box, %d block(s): momentum %d: %.17g -> %.17g, -sum dt F %.17g\n", nb, d,
				      before[d], after[d], -im.sum[d]);
			FV_ASSERT_NEAR(after[d] - before[d], -im.sum[d], FV_TOL(1e-13));
		}
		free(walls);
		free_run(&r);
	}
}

static void test_block_independence(void **state)
{
	run_t r[3];
	int nbs[3] = {1, 3, 8};
	fv_real_t *ref = NULL;
	(void)state;
	for (int i = 0; i < 3; i++) {
		fv_solver_opts_t o;
		last_res_t l;
		fv_mesh_t *m;
		fv_real_t *qn;
		size_t n;
		setup_run(&r[i], FV_GEN_MIXED, 5, 0.2, nbs[i], FV_BC_FARFIELD);
		disturbed(&r[i]);
		fv_solver_opts_default(&o);
		o.winf[1] = 0.3;
		solve(&r[i], &o, 20, &l);
		/* the renumbering differs with the block count: compare cells
		 * matched by centroid (the same geometry code, exact to round-off) */
		m = &r[i].m;
		n = (size_t)m->n_cells;
		qn = malloc(5 * n * sizeof *qn);
		memcpy(qn, r[i].q, 5 * n * sizeof *qn);
		if (i == 0) {
			ref = qn;
		} else {
			double maxrel = 0;
			for (size_t c = 0; c < n; c++) {
				size_t best = 0;
				double bd = INFINITY;
				for (size_t d = 0; d < n; d++) {
					double dx = m->cell_ctr[c] - r[0].m.cell_ctr[d];
					double dy = m->cell_ctr[n + c] - r[0].m.cell_ctr[n + d];
					double dz = m->cell_ctr[2 * n + c] - r[0].m.cell_ctr[2 * n + d];
					double dd = dx * dx + dy * dy + dz * dz;
					if (dd < bd) {
						bd = dd;
						best = d;
					}
				}
				for (int k = 0; k < 5; k++) {
					double a = qn[k * n + c], b = ref[k * n + best];
					double rel = fabs(a - b) / fmax(fabs(b), 1e-3);
					if (rel > maxrel)
						maxrel = rel;
				}
			}
			print_message("%d blocks vs 1: max relative difference %.3g\n", nbs[i], maxrel);
			assert_true(maxrel < FV_TOL(1e-12));
			free(qn);
		}
	}
	free(ref);
	for (int i = 0; i < 3; i++)
		free_run(&r[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_freestream),
		cmocka_unit_test(test_conservation_closed_box),
		cmocka_unit_test(test_momentum_closed_box),
		cmocka_unit_test(test_block_independence),
	};
	return cmocka_run_group_tests(tests, solver_tests_start, solver_tests_stop);
}
