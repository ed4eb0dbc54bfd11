/* SPDX-License-Identifier: MIT */
/* Proves the header-only physics is valid CUDA: every FV_HD function is
 * called from a kernel, and the GPU results are compared with the same
 * functions run on the host (exit 0 pass, 1 fail, 77 no GPU = SKIP).
 * Build: nvcc -std=c++17 -arch=sm_90 -x cu -Iinclude -Isrc [-DFV_SINGLE]
 *        tests/gpu/physics_compile.cu -o physics_compile
 * (with -c only, it is the compile check alone). */
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "physics/bc.h"
#include "physics/exact.h"
#include "physics/gas.h"
#include "physics/limiter.h"
#include "physics/roe.h"

/* inputs of one case: wl, wr, s, limiter data */
#define NIN 18
/* outputs: cons/prim 10, 6 scalars, euler 5, harten 1, roe 5, limiters 3,
 * 6 boundary states 30, wall flux 5 */
#define NOUT 65

static __host__ __device__ void physics_case(const fv_real_t *in, fv_real_t *out)
{
	const fv_real_t g = (fv_real_t)1.4;
	const fv_real_t *wl = in, *wr = in + 5, *s = in + 10;
	fv_real_t q[5], w[5], n[3], a = FV_SQRT(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
	int o = 0;
	for (int k = 0; k < 3; k++)
		n[k] = s[k] / a;
	fv_prim_to_cons(wl, g, q);
	fv_cons_to_prim(q, g, w);
	for (int k = 0; k < 5; k++)
		out[o++] = q[k];
	for (int k = 0; k < 5; k++)
		out[o++] = w[k];
	out[o++] = fv_sound_speed(wl, g);
	out[o++] = fv_mach(wl, g);
	out[o++] = fv_entropy(wl, g);
	out[o++] = fv_enthalpy(wl, g);
	out[o++] = fv_spectral_radius(wl, s, g);
	out[o++] = fv_venkat_eps2(in[16], in[17]);
	fv_euler_flux(wl, s, g, out + o);
	o += 5;
	out[o++] = fv_harten_abs(wl[1] - wr[1], in[16]);
	fv_roe_flux(wl, wr, s, g, (fv_real_t)0.1, out + o);
	o += 5;
	out[o++] = fv_venkat(in[13], in[14], in[15], (fv_real_t)0.01);
	out[o++] = fv_barth(in[13], in[14], in[15]);
	out[o++] = fv_venkat(in[13], in[14], (fv_real_t)0, (fv_real_t)0);
	for (int kind = 0; kind < FV_BC_NKINDS; kind++) {
		fv_bc_state(kind, wl, n, wr, wr[4], g, out + o);
		o += 5;
	}
	fv_state_copy(wl, w);
	fv_wall_flux(w, s, out + o);
}

static __global__ void physics_kernel(int ncase, const fv_real_t *in, fv_real_t *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < ncase)
		physics_case(in + (size_t)i * NIN, out + (size_t)i * NOUT);
}

/* Host-only exact.h, so the header is also checked as C++. */
static int exact_smoke(void)
{
	double ps, us, rho, u, p, beta, pr, m2, w[5];
	fv_vortex_t v;
	int bad = fv_exact_riemann_star(1, 0, 1, 0.125, 0, 0.1, 1.4, &ps, &us);
	bad |= fv_exact_riemann(1, 0, 1, 0.125, 0, 0.1, 1.4, 0.5, &rho, &u, &p);
	bad |= fv_oblique_shock(2, 10, 1.4, &beta, &pr, &m2);
	fv_vortex_default(&v);
	fv_isentropic_vortex(5, 5, 0, &v, w);
	return bad || std::fabs(ps - 0.30313) > 1e-5 || std::fabs(beta - 39.314) > 1e-3;
}

static double urand(unsigned long long *st, double a, double b)
{
	*st = *st * 6364136223846793005ull + 1442695040888963407ull;
	return a + (b - a) * (double)(*st >> 11) * (1.0 / 9007199254740992.0);
}

int main(void)
{
	const int ncase = 4096;
	int ndev = 0;
	if (exact_smoke()) {
		printf("exact.h smoke test failed\n");
		return 1;
	}
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
		printf("no CUDA device: SKIP\n");
		return 77;
	}
	fv_real_t *in = (fv_real_t *)malloc(sizeof(fv_real_t) * NIN * ncase);
	fv_real_t *out = (fv_real_t *)malloc(sizeof(fv_real_t) * NOUT * ncase);
	fv_real_t *ref = (fv_real_t *)malloc(sizeof(fv_real_t) * NOUT * ncase);
	unsigned long long st = 12345;
	for (int i = 0; i < ncase; i++) {
		fv_real_t *c = in + (size_t)i * NIN;
		for (int side = 0; side < 2; side++) {
			c[5 * side] = (fv_real_t)urand(&st, 0.1, 2);
			for (int k = 1; k < 4; k++)
				c[5 * side + k] = (fv_real_t)urand(&st, -3, 3);
			c[5 * side + 4] = (fv_real_t)urand(&st, 0.1, 3);
		}
		for (int k = 10; k < 13; k++)
			c[k] = (fv_real_t)urand(&st, -1, 1);
		c[13] = (fv_real_t)urand(&st, 0, 1);
		c[14] = (fv_real_t)-urand(&st, 0, 1);
		c[15] = (fv_real_t)urand(&st, -2, 2);
		c[16] = (fv_real_t)urand(&st, 0, 1);
		c[17] = (fv_real_t)urand(&st, 0.001, 1);
		physics_case(c, ref + (size_t)i * NOUT);
	}
	fv_real_t *din, *dout;
	cudaMalloc(&din, sizeof(fv_real_t) * NIN * ncase);
	cudaMalloc(&dout, sizeof(fv_real_t) * NOUT * ncase);
	cudaMemcpy(din, in, sizeof(fv_real_t) * NIN * ncase, cudaMemcpyHostToDevice);
	physics_kernel<<<(ncase + 127) / 128, 128>>>(ncase, din, dout);
	cudaError_t err = cudaMemcpy(out, dout, sizeof(fv_real_t) * NOUT * ncase, cudaMemcpyDeviceToHost);
	if (err != cudaSuccess) {
		printf("CUDA error: %s\n", cudaGetErrorString(err));
		return 1;
	}
	/* The GPU contracts to FMA and has its own math library: agreement to
	 * round-off, scaled by the size of the values, not bit for bit. */
	double tol = 1000 * (double)FV_REAL_EPS, worst = 0;
	int nbad = 0;
	for (int i = 0; i < ncase * NOUT; i++) {
		double a = (double)out[i], b = (double)ref[i];
		double e = std::fabs(a - b) / (1 + std::fabs(b));
		worst = e > worst ? e : worst;
		if (!(e <= tol) && nbad++ < 10)
			printf("case %d out %d: gpu %.17g host %.17g\n", i / NOUT, i % NOUT, a, b);
	}
	printf("%s precision: %d cases x %d outputs, worst relative difference %.3g (tol %.3g): %s\n",
	       FV_REAL_NAME, ncase, NOUT, worst, tol, nbad ? "FAIL" : "PASS");
	cudaFree(din);
	cudaFree(dout);
	free(in);
	free(out);
	free(ref);
	return nbad ? 1 : 0;
}
