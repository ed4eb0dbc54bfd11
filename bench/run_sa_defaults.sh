#!/bin/sh
# SPDX-License-Identifier: MIT
# Spalart-Allmaras with the implicit solver's defaults (issue 24 item 6):
# NASA TMR's bump in a channel (cases/bump_tmr/bump_tmr.cfg: time =
# implicit, its physics and discretisation keys, nothing else) on TMR's grid
# family made here by `fvstar mesh gen bump --level L` (5: 89 x 41 ... 1:
# 1409 x 641, TMR's finest, 0.9M cells), and the TMR flat plate
# (cases/plate_tmr/plate_tmr.cfg without its CFL and first-order keys) on
# `mesh gen plate --level L`. For each grid: cells, iterations and seconds
# of loop to 8 orders below the peak density residual (or the orders
# reached), nu~'s orders, retries, CL (the bump's: fvstar's CS) and CD, and
# for the bump Cf at x = 0.75 against CFL3D (cases/bump_tmr/bump_report.py).
# One line per grid on stdout and in OUT/summary.txt.
# Usage: bench/run_sa_defaults.sh FVSTAR OUT
#   FVSTAR  the fvstar binary (device/bin/fvstar of tools/device-pack.sh)
#   OUT     the output directory (created)
# Environment: BUMP_LEVELS (default "5 4 3 2 1"), PLATE_LEVELS (default
# "4 3 2 1"; "" for none), MAX_IT (most iterations per grid, default 4000),
# SA_ARGS (more keys for every run, e.g. runtime.ncpu=0), RUN_SECONDS (each
# run's limit: stopped there, its line says how far it got; default none).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)
export STARPU_SILENT=1
echo "fvstar: $fv ($("$fv" --version 2>/dev/null | head -1)); results in $out"
command -v nvidia-smi >/dev/null && nvidia-smi -L
: >"$out/summary.txt"

# report NAME RUN_DIR KIND: one line from the run's history (and wall.csv)
report() {
	python3 - "$1" "$2" "$3" "$top/cases/bump_tmr" <<'PY' | tee -a "$out/summary.txt"
import csv, json, math, sys
name, run, kind = sys.argv[1:4]
rows = list(csv.DictReader(open(run + "/history.csv")))
res = [float(r["res_rho"]) for r in rows]
nut = [float(r["res_nut"]) for r in rows]
peak = max(res)
hit = [r for r, x in list(zip(rows, res))[res.index(peak):] if x <= 1e-8 * peak]
try:
    cells = json.load(open(run + "/summary.json")).get("mesh", {}).get("cells", "?")
except (OSError, ValueError):  # a run stopped before its summary
    cells = "?"
last = rows[-1]
head = ("8 orders in %s iterations, %.2f s" % (hit[0]["iteration"], float(hit[0]["wall_s"])) if hit else
        "%.2f orders in %s iterations, %.2f s" % (math.log10(peak / res[-1]), last["iteration"], float(last["wall_s"])))
line = "%-10s %9s cells  %s; nu~ %.2f orders; retries %s; CFL %g" % (
    name, cells, head, math.log10(max(nut) / nut[-1]) if nut[-1] > 0 else 99, last["retries"], float(last["cfl"]))
if kind == "bump":
    sys.path.insert(0, sys.argv[4])
    import bump_report
    r = bump_report.read(run)
    line += "; CL %.6f CD %.7f Cf(0.75) %.7f (CFL3D 1409 x 641: 0.024900 0.0035724 0.0061494)" % (
        r["CL"], r["CD"], r["cf075"])
else:
    line += "; CD %.7f (CFL3D 545 x 385: 0.0028599)" % float(last["CD"])
print(line)
PY
}

for L in ${BUMP_LEVELS-5 4 3 2 1}; do
	"$fv" mesh gen bump --level "$L" -o "$out/bump$L.fvm" >"$out/bump$L.mesh.log" 2>&1 || { echo "bump $L: mesh gen failed"; continue; }
	# shellcheck disable=SC2086
	${RUN_SECONDS:+timeout "$RUN_SECONDS"} "$fv" run "$top/cases/bump_tmr/bump_tmr.cfg" mesh.file="$out/bump$L.fvm" output.dir="$out/bump$L" \
		numerics.iterations="${MAX_IT:-4000}" numerics.residual_drop=8 output.vtu=no output.progress_every=100 \
		${SA_ARGS:-} >"$out/bump$L.out" 2>"$out/bump$L.err" || { echo "bump $L: run failed (rc $?)"; tail -3 "$out/bump$L.err"; }
	[ -f "$out/bump$L/history.csv" ] && report "bump-L$L" "$out/bump$L" bump
done

sed -e '/^cfl\|^first_order\|^iterations/d' "$top/cases/plate_tmr/plate_tmr.cfg" >"$out/plate.cfg"
for L in ${PLATE_LEVELS-4 3 2 1}; do
	"$fv" mesh gen plate --level "$L" -o "$out/plate$L.fvm" >"$out/plate$L.mesh.log" 2>&1 || { echo "plate $L: mesh gen failed"; continue; }
	# shellcheck disable=SC2086
	${RUN_SECONDS:+timeout "$RUN_SECONDS"} "$fv" run "$out/plate.cfg" mesh.file="$out/plate$L.fvm" output.dir="$out/plate$L" \
		numerics.iterations="${MAX_IT:-4000}" numerics.residual_drop=8 output.vtu=no output.progress_every=100 \
		${SA_ARGS:-} >"$out/plate$L.out" 2>"$out/plate$L.err" || { echo "plate $L: run failed (rc $?)"; tail -3 "$out/plate$L.err"; }
	[ -f "$out/plate$L/history.csv" ] && report "plate-L$L" "$out/plate$L" plate
done
