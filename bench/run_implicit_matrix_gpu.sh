#!/bin/sh
# SPDX-License-Identifier: MIT
# The implicit solver with numerics.time = implicit alone on the GPU machine
# (issue 24), one command: the robustness matrix of
# tests/cli/implicit_matrix.sh with every mesh refined MATRIX_REFINE times
# (each level: 8x the cells; bounds 4x), then the ONERA M6 medium mesh (the
# shipped case with every implicit key but time = implicit deleted, the
# limiter keys kept, as bench/results/2026-11-26-implicit-defaults.md). For
# each: iterations to 8 orders (or the orders reached), seconds of loop,
# retries, the CFL at the end.
# Usage: bench/run_implicit_matrix_gpu.sh M6_MESH [FVSTAR]
#   M6_MESH  the M6 medium (devdata/onera_m6_medium.su2.gz or the .su2)
#   FVSTAR   the fvstar binary (default build/fvstar; device/bin/fvstar of
#            tools/device-pack.sh)
# Environment: MATRIX_REFINE (default 1; "no": the M6 alone), M6_ITERATIONS
# (600), GMSH (the Gmsh cases are left out without it), OUT_DIR (default a
# temporary one).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
mesh=$1
fv=$(cd "$(dirname "${2:-$top/build/fvstar}")" && pwd)/$(basename "${2:-fvstar}")
out=${OUT_DIR:-$(mktemp -d)}
mkdir -p "$out"
export STARPU_SILENT=1
echo "fvstar: $fv ($("$fv" --version 2>/dev/null | head -1)); results in $out"
command -v nvidia-smi >/dev/null && nvidia-smi -L

t0=$(date +%s)
if [ "${MATRIX_REFINE:-1}" != no ]; then
	echo "== matrix, mesh.refine=${MATRIX_REFINE:-1}"
	top_srcdir=$top top_builddir=$(dirname "$fv") MATRIX_REFINE=${MATRIX_REFINE:-1} MATRIX_BOUND=4 \
		sh "$top/tests/cli/implicit_matrix.sh" 2>&1 | grep -v "thrown away"
	echo "matrix: $(($(date +%s) - t0)) s"
fi

echo "== ONERA M6 medium, time = implicit alone"
case $mesh in
*.gz) gunzip -c "$mesh" >"$out/m6.su2" && mesh=$out/m6.su2 ;;
esac
sed -e "s|^file = .*|file = $mesh|" \
	-e '/^cfl_max\|^cfl_ramp\|^cfl_growth\|^first_order\|^sweeps\|^implicit =\|^cfl =\|^jacobian/d' \
	"$top/cases/onera_m6/onera_m6.cfg" >"$out/m6.cfg"
"$fv" run "$out/m6.cfg" output.dir="$out/m6" numerics.iterations="${M6_ITERATIONS:-600}" numerics.residual_drop=8 \
	output.vtu=no output.progress_every=0 >"$out/m6.out" 2>"$out/m6.err"
echo "rc $?"
grep "thrown away\|error" "$out/m6.err" | cut -c1-300
python3 - "$out/m6/history.csv" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
res = [float(r["res_rho"]) for r in rows]
t = [float(r["wall_s"]) for r in rows]
cl = [float(r["CL"]) for r in rows]
k = len(cl) - 1
while k > 0 and abs(cl[k - 1] - cl[-1]) <= 0.005 * abs(cl[-1]):
    k -= 1
print("m6-medium %d iterations, %.2f s of loop, %.2f orders below the peak; %s retries; CFL %g at the end; "
      "lin_res %.2g; CL %.6f, within 0.5%% from iteration %s (%.2f s)" % (
          len(rows), t[-1], math.log10(max(res) / res[-1]), rows[-1]["retries"], float(rows[-1]["cfl"]),
          float(rows[-1]["lin_res"]), cl[-1], rows[k]["iteration"], t[k]))
PY
echo "all: $(($(date +%s) - t0)) s"
