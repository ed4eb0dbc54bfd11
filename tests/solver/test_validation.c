/* SPDX-License-Identifier: MIT */
/* Validation against exact solutions on 3D meshes, CPU workers:
 *  - Sod shock tube (1,0,1 | 0.125,0,0.1, t = 0.2) on tets: L1 density error
 *    against the exact Riemann solution decreases with refinement;
 *  - Mach 2 flow over a 10 degree ramp: shock angle and pressure ratio
 *    against the oblique-shock relations (39.314 deg, 1.70658);
 *  - the isentropic vortex (extruded in z): observed order >= 1.8 for the
 *    node-based Green-Gauss and the least-squares gradients.
 * Run as: tests/solver/test_validation (cmocka); prints the errors and the
 * observed order. */
#include <math.h>

#include "solver_testutil.h"
#include "fvstar/partition.h"
#include "fvstar/solver.h"
#include "physics/bc.h"
#include "physics/exact.h"
#include "physics/gas.h"

typedef struct setup {
	fv_mesh_t m;
	fv_block_t *blocks;
	int nb;
	fv_real_t *q;
	int8_t *bc;
} setup_t;

static void prepare(setup_t *s, fv_mesh_t *m, int nb)
{
	int32_t *part = malloc(sizeof *part * (size_t)m->n_cells);
	fv_idx_t *off = malloc(sizeof *off * (size_t)(nb + 1));
	fv_partition_stats_t ps;
	fv_order_stats_t os;
	s->m = *m;
	FV_ASSERT_OK(fv_mesh_prepare(&s->m));
	FV_ASSERT_OK(fv_partition_cells(&s->m, nb, nb > 1 ? FV_PART_METIS : FV_PART_LINEAR, 1, part, &ps));
	FV_ASSERT_OK(fv_mesh_renumber(&s->m, part, nb, off, 0, &os));
	FV_ASSERT_OK(fv_blocks_build(&s->m, off, nb, &s->blocks));
	s->nb = nb;
	s->q = calloc(5 * (size_t)s->m.n_cells, sizeof *s->q);
	s->bc = calloc((size_t)s->m.n_markers, 1);
	free(part);
	free(off);
}

static void release(setup_t *s)
{
	fv_blocks_free(s->blocks, s->nb);
	fv_mesh_free(&s->m);
	free(s->q);
	free(s->bc);
}

static void set_bc(setup_t *s, const char *marker, int kind)
{
	for (int k = 0; k < s->m.n_markers; k++)
		if (strcmp(s->m.markers[k].name, marker) == 0) {
			s->bc[k] = (int8_t)kind;
			return;
		}
	fail_msg("no marker %s", marker);
}

static void set_prim(setup_t *s, fv_idx_t c, const double w[5])
{
	fv_real_t wr[5], q[5];
	size_t n = (size_t)s->m.n_cells;
	for (int k = 0; k < 5; k++)
		wr[k] = (fv_real_t)w[k];
	fv_prim_to_cons(wr, (fv_real_t)1.4, q);
	for (int k = 0; k < 5; k++)
		s->q[k * n + (size_t)c] = q[k];
}

typedef struct progress {
	double t, res0;
	int iters;
	double drop;
	double stop_drop;
} progress_t;

static int track(const fv_iter_info_t *info, void *ctx)
{
	progress_t *p = (progress_t *)ctx;
	p->t = info->t;
	p->iters = info->iter;
	if (info->iter == 1)
		p->res0 = info->res[0];
	p->drop = log10(p->res0 / info->res[0]);
	return p->stop_drop > 0 && p->drop >= p->stop_drop;
}

static void run(setup_t *s, fv_solver_opts_t *o, int max_iter, progress_t *p)
{
	fv_solver_t *sv;
	int done;
	o->marker_bc = s->bc;
	FV_ASSERT_OK(fv_solver_create(&sv, &s->m, s->blocks, s->nb, o));
	FV_ASSERT_OK(fv_solver_set_state(sv, s->q));
	FV_ASSERT_OK(fv_solver_run(sv, 1, max_iter, 0, track, p, &done));
	FV_ASSERT_OK(fv_solver_get_state(sv, s->q));
	fv_solver_destroy(sv);
}

/* L1 density error of the Sod tube on nx x 2 x 2 blocks of 6 tets. */
static double sod_error(int nx)
{
	setup_t s;
	fv_mesh_t m;
	fv_gen_opts_t g;
	fv_solver_opts_t o;
	progress_t p = {0};
	double err = 0, vol = 0, h = 1.0 / nx;
	size_t n;
	fv_gen_opts_default(&g);
	g.cells = FV_GEN_TET;
	g.nx = nx;
	g.ny = g.nz = 2;
	g.hi[1] = g.hi[2] = 2 * h;
	FV_ASSERT_OK(fv_mesh_gen_box(&m, &g));
	prepare(&s, &m, 4);
	set_bc(&s, "xmin", FV_BC_SUPERSONIC_OUTFLOW);
	set_bc(&s, "xmax", FV_BC_SUPERSONIC_OUTFLOW);
	set_bc(&s, "ymin", FV_BC_SYMMETRY);
	set_bc(&s, "ymax", FV_BC_SYMMETRY);
	set_bc(&s, "zmin", FV_BC_SYMMETRY);
	set_bc(&s, "zmax", FV_BC_SYMMETRY);
	n = (size_t)s.m.n_cells;
	for (fv_idx_t c = 0; c < s.m.n_cells; c++) {
		double left[5] = {1, 0, 0, 0, 1}, right[5] = {0.125, 0, 0, 0, 0.1};
		set_prim(&s, c, s.m.cell_ctr[c] < 0.5 ? left : right);
	}
	fv_solver_opts_default(&o);
	o.num.time_mode = FV_TIME_UNSTEADY;
	o.num.t_end = 0.2;
	o.num.cfl = 0.5;
	o.num.rk = 3;
	o.num.limiter_vars = FV_LIMVARS_ALL;
	run(&s, &o, 100000, &p);
	FV_ASSERT_NEAR(p.t, 0.2, 1e-12);
	for (fv_idx_t c = 0; c < s.m.n_cells; c++) {
		double rho, u, pr, x = s.m.cell_ctr[c];
		fv_exact_riemann(1, 0, 1, 0.125, 0, 0.1, 1.4, (x - 0.5) / 0.2, &rho, &u, &pr);
		err += fabs((double)s.q[c] - rho) * s.m.cell_vol[c];
		vol += s.m.cell_vol[c];
	}
	err /= vol;
	(void)n;
	print_message("Sod nx=%d: %d cells, %d iterations, L1(rho) = %.5f\n", nx, (int)s.m.n_cells, p.iters, err);
	release(&s);
	return err;
}

static void test_sod(void **state)
{
	double e[3];
	int nx[3] = {50, 100, 200};
	(void)state;
	for (int i = 0; i < 3; i++)
		e[i] = sod_error(nx[i]);
	print_message("Sod observed order: %.3f (50->100), %.3f (100->200)\n", log2(e[0] / e[1]), log2(e[1] / e[2]));
	assert_true(e[1] < e[0] && e[2] < e[1]);
	assert_true(e[2] < 0.01);
	/* shocks and contacts limit the L1 order to about 1 or less */
	assert_true(log2(e[1] / e[2]) > 0.5);
}

/* Mach 2 over a 10 degree ramp: the pressure behind the shock and the
 * shock angle, from the wall pressure and where it first rises. */
static void test_wedge(void **state)
{
	setup_t s;
	fv_mesh_t m;
	fv_gen_opts_t g;
	fv_solver_opts_t o;
	progress_t p = {0};
	double beta, p21, M2, winf[5] = {1, 2, 0, 0, 1 / 1.4};
	size_t n;
	double H, x0, sum_p = 0, sum_w = 0;
	(void)state;
	fv_gen_opts_default(&g);
	g.cells = FV_GEN_HEX;
	g.nx = 90;
	g.ny = 60;
	g.nz = 1;
	g.hi[0] = 1.5;
	g.hi[1] = 1.0;
	g.hi[2] = 0.02;
	g.ramp_angle_deg = 10;
	g.ramp_x0 = 0.2;
	FV_ASSERT_OK(fv_mesh_gen_ramp(&m, &g));
	prepare(&s, &m, 4);
	set_bc(&s, "inlet", FV_BC_SUPERSONIC_INFLOW);
	set_bc(&s, "outlet", FV_BC_SUPERSONIC_OUTFLOW);
	set_bc(&s, "wall", FV_BC_SLIP_WALL);
	set_bc(&s, "top", FV_BC_SUPERSONIC_OUTFLOW);
	set_bc(&s, "zmin", FV_BC_SYMMETRY);
	set_bc(&s, "zmax", FV_BC_SYMMETRY);
	for (fv_idx_t c = 0; c < s.m.n_cells; c++)
		set_prim(&s, c, winf);
	fv_solver_opts_default(&o);
	memcpy(o.winf, winf, sizeof winf);
	o.num.cfl = 1.5;
	p.stop_drop = 6;
	run(&s, &o, 3000, &p);
	print_message("wedge: %d iterations, residual drop %.2f orders\n", p.iters, p.drop);
	assert_true(p.drop > 4);
	fv_oblique_shock(2, 10, 1.4, &beta, &p21, &M2);
	/* wall pressure on the ramp away from its start and from where the
	 * shock leaves the domain (top at y = 1: x < x0 + 1/tan(beta)) */
	n = (size_t)s.m.n_cells;
	H = g.hi[1];
	x0 = g.ramp_x0 * g.hi[0];
	for (fv_idx_t c = 0; c < s.m.n_cells; c++) {
		double x = s.m.cell_ctr[c], y = s.m.cell_ctr[n + (size_t)c];
		double yw = (x - x0) * tan(10 * FV_EXACT_PI / 180);
		if (x > x0 + 0.3 && x < x0 + 0.9 && y - yw < 0.03) {
			fv_real_t q[5], w[5];
			for (int k = 0; k < 5; k++)
				q[k] = s.q[k * n + (size_t)c];
			fv_cons_to_prim(q, (fv_real_t)1.4, w);
			sum_p += w[4] * s.m.cell_vol[c];
			sum_w += s.m.cell_vol[c];
		}
	}
	double p2 = sum_p / sum_w / (1 / 1.4);
	/* the shock angle: where the pressure crosses (p1 + p2) / 2 along rows
	 * y = const (linear interpolation between cells), then a least-squares
	 * line x(y) through those points; beta = atan(dy / dx) */
	double sy = 0, sx = 0, syy = 0, sxy = 0;
	int np = 0;
	double hy = H / g.ny;
	for (double yr = 0.15; yr <= 0.65; yr += 0.05) {
		double xa = -1, pa = 0, xcross = NAN;
		/* cells of the row, visited in x order by repeated minimum search */
		for (;;) {
			double xb = INFINITY, pb = 0;
			for (fv_idx_t c = 0; c < s.m.n_cells; c++) {
				double x = s.m.cell_ctr[c], y = s.m.cell_ctr[n + (size_t)c];
				if (fabs(y - yr) < 0.5 * hy && x > xa && x < xb) {
					fv_real_t q[5], w[5];
					for (int k = 0; k < 5; k++)
						q[k] = s.q[k * n + (size_t)c];
					fv_cons_to_prim(q, (fv_real_t)1.4, w);
					xb = x;
					pb = w[4] * 1.4;
				}
			}
			if (!isfinite(xb))
				break;
			if (xa >= 0 && pa < 0.5 * (1 + p21) && pb >= 0.5 * (1 + p21)) {
				xcross = xa + (xb - xa) * (0.5 * (1 + p21) - pa) / (pb - pa);
				break;
			}
			xa = xb;
			pa = pb;
		}
		if (isfinite(xcross)) {
			sy += yr, sx += xcross, syy += yr * yr, sxy += yr * xcross;
			np++;
		}
	}
	assert_true(np >= 5);
	double slope = (np * sxy - sx * sy) / (np * syy - sy * sy); /* dx/dy */
	double beta_num = atan(1 / slope) * 180 / FV_EXACT_PI;
	print_message("wedge: p2/p1 = %.5f (exact %.5f), shock angle %.2f deg (exact %.3f)\n", p2, p21, beta_num, beta);
	(void)H;
	assert_true(fabs(p2 / p21 - 1) < 0.02);
	assert_true(fabs(beta_num - beta) < 0.5);
	release(&s);
}

/* L1 density error of the isentropic vortex (Shu), second order with no
 * limiter, prisms extruded in z, in the inner square where the far field
 * boundary does not reach at t = 1. */
static double vortex_error(int n, int lsq)
{
	setup_t s;
	fv_mesh_t m;
	fv_gen_opts_t g;
	fv_solver_opts_t o;
	fv_vortex_t vx;
	progress_t p = {0};
	double err = 0, vol = 0, winf[5] = {1, 1, 1, 0, 1}, t_end = 1;
	size_t nc;
	fv_vortex_default(&vx);
	vx.x0 = vx.y0 = 4.5;
	fv_gen_opts_default(&g);
	g.cells = FV_GEN_PRISM;
	g.nx = g.ny = n;
	g.nz = 1;
	g.hi[0] = g.hi[1] = 10;
	g.hi[2] = 10.0 / n;
	FV_ASSERT_OK(fv_mesh_gen_box(&m, &g));
	prepare(&s, &m, 4);
	set_bc(&s, "xmin", FV_BC_FARFIELD);
	set_bc(&s, "xmax", FV_BC_FARFIELD);
	set_bc(&s, "ymin", FV_BC_FARFIELD);
	set_bc(&s, "ymax", FV_BC_FARFIELD);
	set_bc(&s, "zmin", FV_BC_SYMMETRY);
	set_bc(&s, "zmax", FV_BC_SYMMETRY);
	nc = (size_t)s.m.n_cells;
	for (fv_idx_t c = 0; c < s.m.n_cells; c++) {
		double w[5];
		fv_isentropic_vortex(s.m.cell_ctr[c], s.m.cell_ctr[nc + (size_t)c], 0, &vx, w);
		set_prim(&s, c, w);
	}
	fv_solver_opts_default(&o);
	memcpy(o.winf, winf, sizeof winf);
	o.num.time_mode = FV_TIME_UNSTEADY;
	o.num.t_end = t_end;
	o.num.cfl = 0.5;
	o.num.rk = 3;
	o.num.limiter = FV_LIMITER_NONE;
	o.num.gradient = lsq ? FV_GRAD_LEAST_SQUARES : FV_GRAD_GREEN_GAUSS;
	run(&s, &o, 100000, &p);
	for (fv_idx_t c = 0; c < s.m.n_cells; c++) {
		double w[5], x = s.m.cell_ctr[c], y = s.m.cell_ctr[nc + (size_t)c];
		if (x < 3 || x > 8 || y < 3 || y > 8)
			continue;
		fv_isentropic_vortex(x, y, t_end, &vx, w);
		err += fabs((double)s.q[c] - w[0]) * s.m.cell_vol[c];
		vol += s.m.cell_vol[c];
	}
	err /= vol;
	print_message("vortex n=%d (%s): %d cells, %d iterations, L1(rho) = %.4e\n", n, lsq ? "least squares" : "Green-Gauss",
		      (int)s.m.n_cells, p.iters, err);
	release(&s);
	return err;
}

static void test_vortex_order(void **state)
{
	(void)state;
	for (int lsq = 0; lsq <= 1; lsq++) {
		double e[3];
		int n[3] = {20, 40, 80};
		for (int i = 0; i < 3; i++)
			e[i] = vortex_error(n[i], lsq);
		print_message("vortex observed order (%s): %.3f, %.3f\n", lsq ? "least squares" : "Green-Gauss",
			      log2(e[0] / e[1]), log2(e[1] / e[2]));
		assert_true(log2(e[1] / e[2]) >= 1.8);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sod),
		cmocka_unit_test(test_wedge),
		cmocka_unit_test(test_vortex_order),
	};
	return cmocka_run_group_tests(tests, solver_tests_start, solver_tests_stop);
}
