#!/bin/sh
# SPDX-License-Identifier: MIT
# The ONERA M6 with Spalart-Allmaras (cases/onera_m6/onera_m6_sa.cfg, NASA
# TMR's case) on a family of grids, CL and CD against N^(-2/3) beside TMR's
# (issue 24 item 6). Each grid runs with numerics.time = implicit and the
# case's physics and discretisation keys (its CFL, ramp, sweeps, Jacobian and
# first-order keys deleted: the defaults), up to M6_ITERATIONS, stopping 8
# orders down; M6_KEEP=1 keeps the case's own keys. The grids: the mesh
# files given (the Gmsh prism-layer family of make_mesh.sh: rans-step-coarse,
# sf 1.05, 1.10M cells; rans-step-medium, sf 0.70; carried as .fvm, see
# `fvstar mesh convert`), then the first of them refined REFINE times
# (mesh.refine: 8x the cells each, made on the GPU machine; default 1).
# Writes OUT/m6_sa_family.csv (grid, cells, N^-2/3, iterations, seconds,
# orders, CL, CD, and TMR's CFL3D 69M-cell and FUN3D 0.96M-node values) and,
# where matplotlib is installed, OUT/m6_sa_family.png.
# Usage: bench/run_m6_sa_family.sh FVSTAR OUT MESH [MESH...]
# Environment: REFINE (default 1; 0: none), M6_ITERATIONS (default 2000),
# M6_KEEP, SA_ARGS (more keys for every run).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 3 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
export STARPU_SILENT=1
echo "fvstar: $fv ($("$fv" --version 2>/dev/null | head -1)); results in $out"
command -v nvidia-smi >/dev/null && nvidia-smi -L
if [ "${M6_KEEP:-0}" = 1 ]; then
	cp "$top/cases/onera_m6/onera_m6_sa.cfg" "$out/m6sa.cfg"
else
	sed -e '/^cfl\|^cfl_max\|^cfl_growth\|^cfl_ramp\|^first_order\|^order_ramp\|^sweeps\|^jacobian\|^implicit =\|^iterations/d' \
		"$top/cases/onera_m6/onera_m6_sa.cfg" >"$out/m6sa.cfg"
fi
echo "grid,mesh,refine,cells,n_inv23,iterations,seconds,orders,CL,CD" >"$out/m6_sa_family.csv"

# run NAME MESH REFINE
run() {
	# shellcheck disable=SC2086
	"$fv" run "$out/m6sa.cfg" mesh.file="$2" mesh.refine="$3" output.dir="$out/$1" \
		numerics.iterations="${M6_ITERATIONS:-2000}" numerics.residual_drop=8 output.vtu=no output.progress_every=50 \
		output.restart_every=0 ${SA_ARGS:-} >"$out/$1.out" 2>"$out/$1.err" || { echo "$1: run failed (rc $?)"; tail -3 "$out/$1.err"; }
	[ -f "$out/$1/history.csv" ] || return
	python3 - "$out/$1" "$1" "$2" "$3" <<'PY' | tee -a "$out/m6_sa_family.csv"
import csv, json, math, sys
run, name, mesh, refine = sys.argv[1:5]
rows = list(csv.DictReader(open(run + "/history.csv")))
res = [float(r["res_rho"]) for r in rows]
cells = json.load(open(run + "/summary.json"))["mesh"]["cells"]
last = rows[-1]
print("%s,%s,%s,%d,%.6e,%s,%.2f,%.2f,%.6f,%.6f" % (name, mesh, refine, cells, cells ** (-2.0 / 3), last["iteration"],
      float(last["wall_s"]), math.log10(max(res) / res[-1]), float(last["CL"]), float(last["CD"])))
PY
}

k=0
for m in "$@"; do
	k=$((k + 1))
	run "grid$k" "$m" 0
done
r=1
while [ "$r" -le "${REFINE:-1}" ]; do
	run "grid1-refine$r" "$1" "$r"
	r=$((r + 1))
done

python3 - "$out" <<'PY'
import csv, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(out + "/m6_sa_family.csv")))
# TMR's M6 SA values (https://turbmodels.larc.nasa.gov/onerawingnumerics_val_sa.html)
tmr = [("CFL3D 69M cells", 69e6, 0.26932, 0.016956), ("FUN3D 0.96M nodes", 0.96e6, 0.26585, 0.017227)]
for r in rows:
    print("%-16s %10s cells  N^-2/3 %.3e  CL %s  CD %s  (%s iterations, %s s, %s orders)" % (
        r["grid"], r["cells"], float(r["n_inv23"]), r["CL"], r["CD"], r["iterations"], r["seconds"], r["orders"]))
for name, n, cl, cd in tmr:
    print("TMR %-18s CL %.5f  CD %.6f" % (name, cl, cd))
if rows:
    cd_f = float(rows[-1]["CD"])
    print("finest grid's CD against CFL3D's 0.016956: %+.2f%% (target: within 3%%)" % (100 * (cd_f / 0.016956 - 1)))
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit(0)
fig, ax = plt.subplots(1, 2, figsize=(10, 4))
x = [float(r["n_inv23"]) for r in rows]
for a, key, k in ((ax[0], "CL", 2), (ax[1], "CD", 3)):
    a.plot(x, [float(r[key]) for r in rows], "o-", label="fvstar")
    a.axhline(tmr[0][k], color="k", ls="--", label="TMR CFL3D 69M")
    a.plot([tmr[1][1] ** (-2.0 / 3)], [tmr[1][k]], "s", label="TMR FUN3D (N = its 0.96M nodes)")
    a.set_xlabel("N^(-2/3) (N cells)")
    a.set_ylabel(key)
    a.set_xlim(left=0)
    a.legend(fontsize=7)
fig.suptitle("ONERA M6, SA: grid convergence")
fig.tight_layout()
fig.savefig(out + "/m6_sa_family.png", dpi=120)
PY
