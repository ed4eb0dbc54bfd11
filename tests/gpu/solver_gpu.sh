#!/bin/sh
# SPDX-License-Identifier: MIT
# The CUDA codelets against the CPU ones: the wedge (steady, second order,
# Venkatakrishnan) and the Sod tube (unsteady, RK3, global time step), 50
# iterations each, run once on CPU workers only and on the GPU only with each
# flux summation (atomic, gather, color with both colourings, color as one
# task per colour group, auto under dmda); states agree to 1e-12 of each conserved variable's largest value
# for gather and color, whose sums are deterministic, and 1e-10 for atomic
# and auto; residual and force histories to 1e-8 of each column's largest
# value. Exit 77 (SKIP) where there is no
# CUDA worker.
set -u
fv="$top_builddir/fvstar"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ncuda=$(env -u STARPU_NCUDA STARPU_NCPU=0 "$fv" runtime info 2>/dev/null | sed -n 's/^workers: .*(\([0-9]*\) CPU, \([0-9]*\) CUDA).*/\2/p')
[ "${ncuda:-0}" -gt 0 ] || { echo "no CUDA worker: SKIP"; exit 77; }
py=
for p in "${PYTHON3:-}" python3 /usr/bin/python3; do
	[ -n "$p" ] && "$p" -c 'import numpy' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || { echo "no python3 with numpy: SKIP"; exit 77; }
fails=0
"$fv" mesh gen ramp --cells tet --nx 40 --ny 24 --nz 2 --hi 1.5,1,0.1 --angle 10 -o "$tmp/wedge.su2" 2>/dev/null
"$fv" mesh gen box --cells tet --nx 100 --ny 2 --nz 2 --hi 1,0.02,0.02 -o "$tmp/sod.su2" 2>/dev/null
for c in wedge sod; do
	sed "s|^file = $c.su2|file = $tmp/$c.su2|" "$top_srcdir/cases/$c/$c.cfg" >"$tmp/$c.cfg"
	for w in cpu atomic gather color greedy tasks auto; do
		sched=${STARPU_SCHED:-lws}
		[ $w != auto ] || sched=dmda # the perf-model scheduler picks a variant
		if [ $w = cpu ]; then export STARPU_NCPU=2 STARPU_NCUDA=0; else export STARPU_NCPU=0 STARPU_NCUDA=1; fi
		sum=$w coloring=minimal tasks=no
		case $w in cpu) sum=atomic ;; greedy) sum=color coloring=greedy ;; tasks) sum=color tasks=yes ;; esac
		STARPU_SCHED=$sched "$fv" run "$tmp/$c.cfg" output.dir="$tmp/$c-$w" numerics.iterations=50 \
			numerics.residual_drop=0 numerics.flux_sum=$sum numerics.coloring=$coloring numerics.color_tasks=$tasks \
			output.progress_every=0 output.vtu=no 2>"$tmp/$c-$w.err" || { echo "FAIL: $c on $w"; cat "$tmp/$c-$w.err"; fails=$((fails + 1)); }
	done
	for w in atomic gather color greedy tasks auto; do
	tol=1e-12
	case $w in atomic | auto) tol=1e-10 ;; esac
	"$py" - "$tmp/$c-cpu" "$tmp/$c-$w" "$c ($w)" $tol <<'PY' || fails=$((fails + 1))
import sys, numpy as np
a, b, name, tol = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
ra, rb = open(a + "/restart.bin", "rb").read(), open(b + "/restart.bin", "rb").read()
assert len(ra) == len(rb), "restart sizes differ"
# restart.bin: 88-byte header, the state (float64 here), an 8-byte checksum
qa = np.frombuffer(ra[88:-8], dtype=np.float64); qb = np.frombuffer(rb[88:-8], dtype=np.float64)
# relative to each conserved variable's largest magnitude (the state is
# SoA, 5 x n_cells); the cell-wise ratio is printed too
qa, qb = qa.reshape(5, -1), qb.reshape(5, -1)
rel = np.max(np.abs(qa - qb).max(axis=1) / np.maximum(np.abs(qa).max(axis=1), 1e-300))
cellwise = np.max(np.abs(qa - qb) / np.maximum(np.abs(qa), 1e-3))
ha = np.loadtxt(a + "/history.csv", delimiter=",", skiprows=1); hb = np.loadtxt(b + "/history.csv", delimiter=",", skiprows=1)
cols = [3, 4, 5, 7]  # rho, rhou, rhov, rhoE residuals (rhow is round-off noise in these cases)
# residuals are sums of fluxes that nearly cancel: the GPU's atomic sums
# differ by round-off of the fluxes, so each residual column is compared
# against its largest value, not value by value
hrel = np.max(np.abs(ha[:, cols] - hb[:, cols]) / np.abs(ha[:, cols]).max(axis=0))
# force coefficients CD, CS, CL, CMx, CMy, CMz (columns 9-14; zero without walls)
fa, fb = ha[:, 9:15], hb[:, 9:15]
frel = np.max(np.abs(fa - fb) / np.maximum(np.abs(fa).max(axis=0), 1e-300))
print("%s: CPU vs GPU after 50 iterations: state max diff %.3g of each variable's largest value (tol %g; "
      "cell by cell %.3g), residual history %.3g, forces %.3g" % (name, rel, tol, cellwise, hrel, frel))
sys.exit(0 if rel <= tol and hrel <= 1e-8 and frel <= 1e-8 else 1)
PY
	done
done
echo "$fails failure(s)"
[ "$fails" = 0 ]
