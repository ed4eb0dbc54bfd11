#!/bin/sh
# SPDX-License-Identifier: MIT
# The default job: Mach 2 flow over a 10 degree ramp (cases/wedge), from mesh
# generation to the converged solution, then the shock against theory.
# (The ONERA M6 wing replaces it once its geometry and meshes exist.)
# Usage: cases/default.sh [FVSTAR] [OUTDIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fvstar=${1:-$here/../build/fvstar}
out=${2:-out/default}
mkdir -p "$out"
"$here/wedge/make_mesh.sh" "$fvstar"
"$fvstar" run "$here/wedge/wedge.cfg" output.dir="$out" output.progress_every=100
python3 - "$out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print("wedge: %d cells, %d blocks, %d iterations, residual down %.1f orders, %.3g s per iteration"
      % (s["mesh"]["cells"], s["partition"]["blocks"], s["iterations"], s["residual_drop_orders"],
         s["seconds_per_iteration"]))
PY
echo "default job done: $out/solution.vtu (open in ParaView: paraview $out/solution.vtu;"
echo "  colour by pressure to see the oblique shock at 39.3 degrees), $out/history.csv, $out/summary.json"
