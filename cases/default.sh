#!/bin/sh
# SPDX-License-Identifier: MIT
# The default job: the ONERA M6 wing (cases/onera_m6), inviscid, Mach 0.8395,
# alpha 3.06 deg, on the coarse Gmsh mesh (about 0.3M tets), implicit
# with the defaults of time = implicit alone (the case file sets none of
# the implicit solver's keys: 20 sweep pairs grown to 68 by lin_res, the
# CFL ramped to 1e4), at most 70 iterations: CL within 0.5% of its
# converged value from iteration 34, within 0.01% over 20 iterations from
# 44, and 8 orders at 64, where the run stops (2026-11-30, 2 cores, 3582
# sweep pairs; with the case's former keys and 40 pairs: 8 orders at 68,
# CL within 0.01% over 20 from 58): CL and CD, the solution,
# the surface Cp at the seven stations of the wind-tunnel test beside the
# measurements, and the convergence plot.
# cases/onera_m6/README.md has the medium and fine meshes' results.
# Usage: cases/default.sh [FVSTAR] [OUTDIR] [ITERATIONS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fvstar=${1:-$here/../build/fvstar}
out=${2:-out/default}
iters=${3:-70}
mkdir -p "$out"
"$here/onera_m6/make_mesh.sh" coarse
"$fvstar" run "$here/onera_m6/onera_m6.cfg" output.dir="$out" numerics.iterations="$iters" \
	output.progress_every=5
"$fvstar" surface "$here/onera_m6/onera_m6.cfg" output.dir="$out" --exp "$here/onera_m6/onera_m6_exp_2308.dat" \
	--out "$out/surface"
# matplotlib may be in Debian's Python only (a pyenv python3 first on PATH
# has none): take the first interpreter that has it
py=
for p in "${PYTHON3:-}" python3 /usr/bin/python3; do
	[ -n "$p" ] && "$p" -c 'import numpy, matplotlib.pyplot' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || { echo "default.sh: no python3 with matplotlib and numpy among ${PYTHON3:-} python3 /usr/bin/python3" \
	"(Debian: apt-get install python3-matplotlib); the run's results are in $out" >&2; exit 1; }
"$py" "$here/../tools/plot_cp.py" "$out/surface" -o "$out/cp.png" --title "ONERA M6, coarse mesh (default job)"
"$py" "$here/../tools/plot_history.py" "$out/history.csv" -o "$out/convergence.png" --title "ONERA M6, coarse mesh (default job)"
"$py" - "$out/summary.json" "$out/history.csv" "$here/../tools" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[3])
import plot_common as pc
s = json.load(open(sys.argv[1]))
f = s["forces"]
print("ONERA M6 (coarse, %d cells, %d blocks): %d iterations, %.3g s per iteration"
      % (s["mesh"]["cells"], s["partition"]["blocks"], s["iterations"], s["seconds_per_iteration"]))
print("  CL %.4f  CD %.4f  CMy %.4f" % (f["CL"], f["CD"], f["CMy"]))
print("  " + pc.verdict(pc.read_history(sys.argv[2]), s)[1])
print("  the medium (1M-tet) mesh to 8 orders: CL 0.2912, CD 0.0128 (cases/onera_m6/README.md)")
PY
echo "default job done, in $out:"
echo "  solution.vtu      open in ParaView: paraview $out/solution.vtu (colour by pressure or mach;"
echo "                    Slice at y = 0.2 .. 1.2 to see the lambda shock on the upper surface)"
echo "  cp.png            surface Cp at the seven stations against Schmitt & Charpin (surface/*.csv)"
echo "  surface/surface.vtu  the wing surface coloured by Cp (paraview $out/surface/surface.vtu)"
echo "  convergence.png   the five residuals, CL and CD against iteration and wall time (history.csv)"
echo "  summary.json      forces, timings, workers"
