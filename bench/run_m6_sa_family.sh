#!/bin/sh
# SPDX-License-Identifier: MIT
# The ONERA M6 with Spalart-Allmaras (cases/onera_m6/onera_m6_sa.cfg, NASA
# TMR's case) on a family of grids, CL and CD against N^(-2/3) beside TMR's
# (issue 24 item 6), as one command for the GPU machine. Each grid runs with
# numerics.time = implicit and the case's physics and discretisation keys
# (its CFL, ramp, sweeps, Jacobian and first-order keys deleted: the
# defaults), up to M6_ITERATIONS, stopping 8 orders down or at its share of
# the time (RUN_SECONDS: a run stopped by SIGTERM ends cleanly and its
# history counts, marked "stopped"); M6_KEEP=1 keeps the case's own keys.
# The grids: the mesh files given, in order (.fvm, .su2, or either
# xz-compressed: unpacked into OUT first), then the LAST of them refined
# REFINE times (mesh.refine: 8x the cells each, made on the GPU machine;
# default 1; the refined wing keeps the carried grid's facets).
# The carried family (2026-11-27, 17 MiB xz in all; cases/onera_m6/make_mesh.sh,
# then `fvstar mesh convert X.su2 -o X.fvm` and `xz -9`):
#   onera_m6_rans_step_xcoarse.fvm.xz  rans-step-xcoarse, sf 2.1:   279,128 cells, 3.4 MB
#   onera_m6_rans_step_coarse.fvm.xz   rans-step-coarse,  sf 1.05: 1,099,083 cells, 13.6 MB
# and the coarse one refined once on the GPU machine: 8,792,664 cells.
# Writes OUT/m6_sa_family.csv (grid, mesh, refine, cells, N^-2/3,
# iterations, seconds, orders, CL, CD, their changes over the last 50
# iterations in %, stopped) and, where matplotlib is installed,
# OUT/m6_sa_family.png.
# Usage: bench/run_m6_sa_family.sh FVSTAR OUT MESH [MESH...]
# Environment: REFINE (default 1; 0: none), M6_ITERATIONS (default 3000),
# RUN_SECONDS (each run's limit in order, the last one for the rest;
# default "60 150 330": under the device's 10-minute command limit),
# M6_KEEP, SA_ARGS (more keys for every run), CARRIED (default yes; no: the
# carried grids are not run, only the last one refined), PRIOR_CSV (an
# m6_sa_family.csv of an earlier call: its rows join the table and the
# plot, before this call's). Runs with fewer than 6 orders are drawn
# hollow: their forces are no answer yet.
# On the GPU machine, from a device pack with the meshes in devdata/:
#   export LD_LIBRARY_PATH=$PWD/device/lib
#   bench/run_m6_sa_family.sh device/bin/fvstar $OUT/m6sa \
#     devdata/onera_m6_rans_step_xcoarse.fvm.xz devdata/onera_m6_rans_step_coarse.fvm.xz
# The finest grid alone on every GPU of a 4-GPU node, 540 s, beside the
# rows of session 16's call 1 (bench/results/2026-11-28-m6-sa-family.csv):
#   CUDA_VISIBLE_DEVICES=0,1,2,3 CARRIED=no RUN_SECONDS=540 PRIOR_CSV=bench/results/2026-11-28-m6-sa-family.csv \
#     bench/run_m6_sa_family.sh device/bin/fvstar $OUT/m6sa8 devdata/onera_m6_rans_step_coarse.fvm.xz
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
echo "grid,mesh,refine,cells,n_inv23,iterations,seconds,orders,CL,CD,dCL50_pct,dCD50_pct,stopped" >"$out/m6_sa_family.csv"
if [ -n "${PRIOR_CSV:-}" ]; then
	# the earlier call's converged rows (its runs of the grids refined here are this call's to redo)
	tail -n +2 "$PRIOR_CSV" | grep -v "refine[0-9]*," >>"$out/m6_sa_family.csv" || { echo "PRIOR_CSV $PRIOR_CSV: no rows"; }
fi

# mesh_file MESH: the mesh as fvstar reads it (an .xz unpacked into OUT)
mesh_file() {
	case $1 in
	*.xz)
		m="$out/$(basename "${1%.xz}")"
		[ -s "$m" ] || xz -dc "$1" >"$m" || { echo "xz -dc $1 failed" >&2; rm -f "$m"; return 1; }
		echo "$m"
		;;
	*) echo "$1" ;;
	esac
}

# run_seconds K: the limit of run number K (1-based) from RUN_SECONDS
run_seconds() {
	i=0 lim=330
	for x in ${RUN_SECONDS:-60 150 330}; do
		i=$((i + 1))
		lim=$x
		[ "$i" -ge "$1" ] && break
	done
	echo "$lim"
}

n_run=0
# run NAME MESH REFINE
run() {
	n_run=$((n_run + 1))
	lim=$(run_seconds $n_run)
	echo "$1: $2 refined $3 times, at most ${M6_ITERATIONS:-3000} iterations or $lim s"
	# shellcheck disable=SC2086
	timeout -s TERM -k 30 "$lim" "$fv" run "$out/m6sa.cfg" mesh.file="$2" mesh.refine="$3" output.dir="$out/$1" \
		numerics.iterations="${M6_ITERATIONS:-3000}" numerics.residual_drop=8 output.vtu=no output.progress_every=50 \
		output.restart_every=0 ${SA_ARGS:-} >"$out/$1.out" 2>"$out/$1.err"
	rc=$?
	stopped=no
	[ $rc = 124 ] || [ $rc = 143 ] && stopped=yes
	[ $rc = 0 ] || [ $stopped = yes ] || { echo "$1: run failed (rc $rc)"; tail -3 "$out/$1.err"; }
	[ -f "$out/$1/history.csv" ] || { echo "$1: no history (rc $rc: stopped in the set-up?)"; return; }
	python3 - "$out/$1" "$1" "$2" "$3" "$stopped" <<'PY' | tee -a "$out/m6_sa_family.csv"
import csv, json, math, os, re, sys
run, name, mesh, refine, stopped = sys.argv[1:6]
rows = list(csv.DictReader(open(run + "/history.csv")))
res = [float(r["res_rho"]) for r in rows]
cells = json.load(open(run + "/summary.json"))["mesh"]["cells"] if os.path.exists(run + "/summary.json") else 0
for line in open(run + ".err") if not cells else []:
    m = re.search(r": (\d+) cells, \d+ faces", line)
    cells = int(m.group(1)) if m else cells
last = rows[-1]
old = rows[-51] if len(rows) > 50 else rows[0]
d = lambda k: 100 * (float(last[k]) / float(old[k]) - 1)
print("%s,%s,%s,%d,%.6e,%s,%.2f,%.2f,%.6f,%.6f,%.3f,%.3f,%s" % (name, mesh, refine, cells, cells ** (-2.0 / 3) if cells else 0,
      last["iteration"], float(last["wall_s"]), math.log10(max(res) / res[-1]), float(last["CL"]), float(last["CD"]),
      d("CL"), d("CD"), stopped))
PY
}

k=0
for m in "$@"; do
	k=$((k + 1))
	f=$(mesh_file "$m") || continue
	[ "${CARRIED:-yes}" = no ] || run "grid$k" "$f" 0
	finest=$f
done
r=1
while [ "$r" -le "${REFINE:-1}" ]; do
	# CARRIED=no: named after the mesh (grid1 of this call is no grid1 of PRIOR_CSV)
	name="grid$k-refine$r"
	[ "${CARRIED:-yes}" = no ] && name="$(basename "${finest%.*}")-refine$r"
	run "$name" "$finest" "$r"
	r=$((r + 1))
done

python3 "$top/bench/m6_sa_family_plot.py" "$out"
