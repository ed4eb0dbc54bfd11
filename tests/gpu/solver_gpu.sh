#!/bin/sh
# SPDX-License-Identifier: MIT
# The CUDA codelets against the CPU ones: the wedge (steady, second order,
# Venkatakrishnan) and the Sod tube (unsteady, RK3, global time step), 50
# iterations each, run once on CPU workers only and on the GPU only with each
# flux summation (atomic, gather, auto under dmda); states agree to 1e-10
# relative (the GPU sums in another order than the CPU's face loop),
# residual histories to 1e-8 of each residual's largest value. Exit 77 (SKIP) where there is no CUDA worker.
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
	for w in cpu atomic gather auto; do
		sched=${STARPU_SCHED:-lws}
		[ $w != auto ] || sched=dmda # the perf-model scheduler picks a variant
		if [ $w = cpu ]; then export STARPU_NCPU=2 STARPU_NCUDA=0; else export STARPU_NCPU=0 STARPU_NCUDA=1; fi
		STARPU_SCHED=$sched "$fv" run "$tmp/$c.cfg" output.dir="$tmp/$c-$w" numerics.iterations=50 \
			numerics.residual_drop=0 numerics.flux_sum=$([ $w = cpu ] && echo atomic || echo $w) \
			output.progress_every=0 output.vtu=no 2>"$tmp/$c-$w.err" || { echo "FAIL: $c on $w"; cat "$tmp/$c-$w.err"; fails=$((fails + 1)); }
	done
	for w in atomic gather auto; do
	"$py" - "$tmp/$c-cpu" "$tmp/$c-$w" "$c ($w)" <<'PY' || fails=$((fails + 1))
import sys, numpy as np
a, b, name = sys.argv[1:4]
ra, rb = open(a + "/restart.bin", "rb").read(), open(b + "/restart.bin", "rb").read()
assert len(ra) == len(rb), "restart sizes differ"
# restart.bin: 88-byte header, the state (float64 here), an 8-byte checksum
qa = np.frombuffer(ra[88:-8], dtype=np.float64); qb = np.frombuffer(rb[88:-8], dtype=np.float64)
rel = np.max(np.abs(qa - qb) / np.maximum(np.abs(qa), 1e-3))
ha = np.loadtxt(a + "/history.csv", delimiter=",", skiprows=1); hb = np.loadtxt(b + "/history.csv", delimiter=",", skiprows=1)
cols = [3, 4, 5, 7]  # rho, rhou, rhov, rhoE residuals (rhow is round-off noise in these cases)
# residuals are sums of fluxes that nearly cancel: the GPU's atomic sums
# differ by round-off of the fluxes, so each residual column is compared
# against its largest value, not value by value
hrel = np.max(np.abs(ha[:, cols] - hb[:, cols]) / np.abs(ha[:, cols]).max(axis=0))
print("%s: CPU vs GPU after 50 iterations: state max rel diff %.3g, residual history max rel diff %.3g" % (name, rel, hrel))
sys.exit(0 if rel <= 1e-10 and hrel <= 1e-8 else 1)
PY
	done
done
echo "$fails failure(s)"
[ "$fails" = 0 ]
