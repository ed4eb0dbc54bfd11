#!/bin/sh
# SPDX-License-Identifier: MIT
# The default job: the ONERA M6 wing (cases/onera_m6), inviscid, Mach 0.8395,
# alpha 3.06 deg, on the coarse Gmsh mesh (about 0.3M tets), for a short
# fixed number of iterations (a couple of minutes on two cores): CL and CD,
# the solution, the surface Cp at the seven stations of the wind-tunnel test
# beside the measurements, and the convergence plot. It is not converged:
# cases/onera_m6/README.md says how to converge it (and the recorded result).
# Usage: cases/default.sh [FVSTAR] [OUTDIR] [ITERATIONS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fvstar=${1:-$here/../build/fvstar}
out=${2:-out/default}
iters=${3:-600}
mkdir -p "$out"
"$here/onera_m6/make_mesh.sh" coarse
"$fvstar" run "$here/onera_m6/onera_m6.cfg" output.dir="$out" numerics.iterations="$iters" \
	numerics.residual_drop=0 output.progress_every=10
"$fvstar" surface "$here/onera_m6/onera_m6.cfg" output.dir="$out" --exp "$here/onera_m6/onera_m6_exp_2308.dat" \
	--out "$out/surface"
py=
for p in "${PYTHON3:-}" python3 /usr/bin/python3; do
	[ -n "$p" ] && "$p" -c 'import matplotlib' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || { echo "default.sh: no python3 with matplotlib (apt-get install python3-matplotlib)" >&2; exit 1; }
"$py" "$here/../tools/plot_cp.py" "$out/surface" -o "$out/cp.png" --title "ONERA M6, coarse mesh, $iters iterations (not converged)"
"$py" "$here/../tools/plot_history.py" "$out/history.csv" -o "$out/convergence.png" --title "ONERA M6, coarse mesh"
"$py" - "$out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
f = s["forces"]
print("ONERA M6 (coarse, %d cells, %d blocks): %d iterations, density residual down %.1f orders, %.3g s per iteration"
      % (s["mesh"]["cells"], s["partition"]["blocks"], s["iterations"], s["residual_drop_orders"],
         s["seconds_per_iteration"]))
print("  CL %.4f  CD %.4f  CMy %.4f (not converged; converged on the 1M mesh: cases/onera_m6/README.md)"
      % (f["CL"], f["CD"], f["CMy"]))
PY
echo "default job done, in $out:"
echo "  solution.vtu      open in ParaView: paraview $out/solution.vtu (colour by pressure or mach;"
echo "                    Slice at y = 0.2 .. 1.2 to see the lambda shock on the upper surface)"
echo "  cp.png            surface Cp at the seven stations against Schmitt & Charpin (surface/*.csv)"
echo "  surface/surface.vtu  the wing surface coloured by Cp (paraview $out/surface/surface.vtu)"
echo "  convergence.png   density residual and CL against iteration (history.csv)"
echo "  summary.json      forces, timings, workers"
