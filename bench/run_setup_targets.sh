#!/bin/sh
# SPDX-License-Identifier: MIT
# Every set-up target of issue 25 in one command on one GPU node (16-32
# cores, one GPU: CUDA_VISIBLE_DEVICES=0), about 4 minutes:
#   box16  a tet box of 1,572,864 cells (`mesh gen box --cells tet -n 64`:
#          the issue's 1.6M; the M6 medium is 978,993 tets), set up from
#          .fvm and from SU2 (the text format within 2x of the compact one)
#   m6     the M6 medium (M6_SU2, e.g. /tmp/m6.su2) with the shipped
#          implicit case from .fvm, run to 8 orders: process start to CL
#          within 0.5 % of its last value against the loop alone (target
#          2x), and its set-up from SU2
#   box41  a tet box of 41,154,000 cells (n = 190) from .fvm
#   big    a tet box of 99,488,250 cells (n = 255) from .fvm: set-up within
#          60 s, host peak within 500 B/cell
#   ranks  box16 under mpirun on R = 1, 2, 4 ranks, from the file (rank 0
#          cuts) and from part files (bench/run_setup_ranks.sh, CPU
#          workers, cores / R each): set-up falling with R
# Each set-up runs with no iteration (no restart written) on the node's
# default workers (the GPU takes the one block of a 1-GPU node), `fvstar
# run -v`; the table gives set-up seconds, us per cell, host bytes per
# cell at the peak, the memory budget's estimate against the peak, and
# the step that reached the peak; then every step note (the RCM's
# choice). Meshes are made on the node (3 s for 10^8 cells).
# Usage: bench/run_setup_targets.sh FVSTAR OUT_DIR [M6_SU2]
# Environment: STEPS (default "box16 m6 box41 big ranks"), RUN_TIMEOUT
# (seconds a run may take, default 150), N16 N41 NBIG (the boxes' n: 64,
# 190, 255; smaller to try the script on a small machine).
# The lead's command (a device pack of this branch, one H200 node):
#   CUDA_VISIBLE_DEVICES=0 bench/run_setup_targets.sh device/bin/fvstar /tmp/st /tmp/m6.su2
set -u
[ $# -ge 2 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
m6=${3:-}
steps=${STEPS:-box16 m6 box41 big ranks}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export STARPU_SILENT=1
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
echo "# fvstar $("$fv" --version 2>/dev/null | head -1); $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); $(grep MemTotal /proc/meminfo)"
command -v nvidia-smi >/dev/null && nvidia-smi -L
echo "# $(date -u +%H:%M:%S) UTC, steps: $steps"

rows=$out/rows.md
notes=$out/notes.md
: >"$rows"
: >"$notes"
# gen NAME N: the tet box of 6 N^3 cells as NAME.fvm
gen() {
	[ -f "$out/$1.fvm" ] && return 0
	"$fv" mesh gen box --cells tet -n "$2" --perturb 0.1 -o "$out/$1.fvm" >/dev/null 2>"$out/$1.gen.err" ||
		{ echo "gen $1 failed: $(tail -1 "$out/$1.gen.err")"; return 1; }
}
box_cfg() {
	printf '[mesh]\nfile = %s\n[flow]\nmach = 0.5\nalpha = 2\n[bc]\n' "$2" >"$1"
	for s in xmin xmax ymin ymax zmin zmax; do echo "$s = farfield"; done >>"$1"
}
# setup NAME CFG ARGS...: one set-up, no iteration; a row of the table
setup() {
	name=$1 cfg=$2
	shift 2
	t0=$(date +%s.%N)
	timeout "${RUN_TIMEOUT:-150}" /usr/bin/time -v "$fv" run -v "$cfg" numerics.iterations=0 output.vtu=no \
		output.progress_every=0 output.dir="$out/$name" "$@" >"$out/$name.out" 2>"$out/$name.err"
	rc=$?
	wall=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')
	if [ $rc != 0 ] || [ ! -f "$out/$name/summary.json" ]; then
		echo "| $name | FAILED (exit $rc$([ $rc = 124 ] && echo ", stopped after ${RUN_TIMEOUT:-150} s")): $(grep -E "error|set-up steps" "$out/$name.err" | tail -1 | cut -c1-300) |" >>"$rows"
		return 1
	fi
	python3 - "$out/$name/summary.json" "$name" "$wall" "$rows" "$notes" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
name, wall, rows, notes = sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5]
cells = s["mesh"]["cells"]
su, m = s["setup_seconds"], s["memory"]
steps = s.get("setup_steps", {})
top = max((e.get("peak_rss_bytes", 0) for e in steps.values()), default=0)
at = next((k for k, e in steps.items() if top and e.get("peak_rss_bytes", 0) >= 0.99 * top), "-")
slow = sorted(steps.items(), key=lambda kv: -kv[1]["seconds"])[:3]
with open(rows, "a") as f:
    f.write("| %s | %d | **%.2f** | **%.3f** | %.2f | %.2f | %.2f | %.2f | %.2f | **%.0f** | %.1f / %.1f | %s | %s | %.1f |\n" % (
        name, cells, su["total"], 1e6 * su["total"] / cells, su["mesh"], su["blocks"], su["state"], su["solver"],
        su.get("starpu", 0), m["host_bytes_per_cell"], m["rank0_estimate_mib"] / 1024, m["rank0_peak_mib"] / 1024, at,
        ", ".join("%s %.2f" % (k, e["seconds"]) for k, e in slow), wall))
with open(notes, "a") as f:
    for k, e in steps.items():
        if e.get("note"):
            f.write("- %s, %s: %s\n" % (name, k, e["note"]))
PY
}

if has box16 || has ranks; then
	gen box16 "${N16:-64}" || true
fi
if has box16 && [ -f "$out/box16.fvm" ]; then
	box_cfg "$out/box16.cfg" "$out/box16.fvm"
	setup box16-fvm "$out/box16.cfg"
	"$fv" mesh convert "$out/box16.fvm" -o "$out/box16.su2" >/dev/null 2>&1 || echo "box16: convert to SU2 failed"
	[ -f "$out/box16.su2" ] && setup box16-su2 "$out/box16.cfg" mesh.file="$out/box16.su2"
fi

if has m6 && [ -n "$m6" ] && [ -f "$m6" ]; then
	case $m6 in
	*.gz) gunzip -c "$m6" >"$out/m6.su2" && m6=$out/m6.su2 ;;
	esac
	"$fv" mesh convert "$m6" -o "$out/m6.fvm" >/dev/null 2>"$out/m6.convert.err" || echo "m6: convert failed"
	cfg=$top/cases/onera_m6/onera_m6.cfg
	setup m6-su2 "$cfg" mesh.file="$m6"
	# to the answer: the shipped case from .fvm, timed from the process's start
	t0=$(date +%s.%N)
	timeout "${RUN_TIMEOUT:-150}" "$fv" run "$cfg" mesh.file="$out/m6.fvm" output.vtu=no output.progress_every=0 \
		output.dir="$out/m6-answer" >/dev/null 2>"$out/m6-answer.err"
	rc=$?
	wall=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')
	if [ $rc = 0 ] && [ -f "$out/m6-answer/summary.json" ]; then
		python3 - "$out/m6-answer" "$wall" >"$out/m6-answer.md" <<'PY'
import csv, json, sys
d, wall = sys.argv[1], float(sys.argv[2])
s = json.load(open(d + "/summary.json"))
h = list(csv.DictReader(open(d + "/history.csv")))
cl = [float(r["CL"]) for r in h]
last = cl[-1]
k = len(cl) - 1
while k > 0 and abs(cl[k - 1] - last) <= 0.005 * abs(last):
    k -= 1
loop_k = float(h[k]["wall_s"])
setup = s["setup_seconds"]["total"]
after = float(h[-1]["wall_s"]) - loop_k
print("M6 medium from .fvm, shipped implicit case: %d iterations, %s; CL %.6f (CD %s) last, within 0.5 %% from iteration %s" % (
    len(h), "%.2f orders" % float(h[-1]["orders_below_ref"]) if h[-1].get("orders_below_ref") else "", last,
    h[-1]["CD"], h[k]["iteration"]))
print()
print("| set-up s | loop to the answer s | set-up + loop s | / loop | process start to the answer s (wall less the loop after it) | / loop | whole loop s |")
print("|---|---|---|---|---|---|---|")
print("| %.2f | %.2f | %.2f | **%.2fx** | %.2f | **%.2fx** | %.2f |" % (setup, loop_k, setup + loop_k, (setup + loop_k) / loop_k,
      wall - after, (wall - after) / loop_k, float(h[-1]["wall_s"])))
PY
	else
		echo "m6: the run to the answer failed (exit $rc): $(grep error "$out/m6-answer.err" | tail -1)" >"$out/m6-answer.md"
	fi
fi

if has box41; then
	gen box41 "${N41:-190}" && box_cfg "$out/box41.cfg" "$out/box41.fvm" && setup box41-fvm "$out/box41.cfg"
	rm -f "$out/box41.fvm"
fi
if has big; then
	gen big "${NBIG:-255}" && box_cfg "$out/big.cfg" "$out/big.fvm" && setup big-fvm "$out/big.cfg"
	rm -f "$out/big.fvm"
fi

echo
echo "## Set-up (no iteration; target: <= 1 us/cell at 1.6M and 41M from .fvm, SU2 within 2x; 10^8 within 60 s; <= 500 B/cell)"
echo
echo "| run | cells | set-up s | us/cell | mesh | blocks | state | solver | StarPU | host B/cell (peak) | budget estimate / peak GiB | peak reached by | slowest steps s | process wall s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
cat "$rows"
if [ -s "$notes" ]; then
	echo
	cat "$notes"
fi
if [ -f "$out/m6-answer.md" ]; then
	echo
	echo "## Time to the answer (target: process start to CL within 0.5 % <= 2x the loop alone)"
	echo
	cat "$out/m6-answer.md"
fi

if has ranks && [ -f "$out/box16.fvm" ]; then
	echo
	echo "## Set-up under mpirun (target: falls with R)"
	echo
	RANKS="1 2 4" BLOCKS=16 timeout 200 "$top/bench/run_setup_ranks.sh" "$fv" "$out/box16.fvm" "$out/ranks" ||
		echo "(run_setup_ranks.sh stopped: exit $?)"
fi
echo
echo "# $(date -u +%H:%M:%S) UTC, done"
