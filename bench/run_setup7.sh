#!/bin/sh
# SPDX-License-Identifier: MIT
# Session 18's set-up changes on one GPU and 16 cores, one command, about
# 4 minutes (issue 25; bench/results/2026-11-30-setup7.md):
#   m6     the M6 medium (M6_SU2) with the shipped implicit case from .fvm,
#          to 8 orders, run -v: set-up, loop to CL within 0.5 %, process
#          start to the answer (target 2x the loop), and the process's
#          timeline (summary.json's marks and the last line: main, set-up,
#          loop, the restart, the outputs, StarPU's stop, the end) against
#          the process's wall clock; first a throwaway run (StarPU's bus
#          calibration on a fresh machine, the page cache), then the
#          default (the GPU's context made while the mesh is read; the
#          wall data without the whole blob brought home) and
#          FVSTAR_CUDA_WARM=0 (contexts made by StarPU, as before)
#   ranks  bench/run_setup_ranks.sh on a tet box of 6 N^3 cells (N_RANKS,
#          default 48: 663,552 cells) from the file and from part files,
#          R = 1, 2, 4 (CPU workers): set-up falling with R; rank 0's cut
#          on all the cores
#   big    bench/run_bigmesh.sh at CELLS (default 10^8) cells: the default
#          ordering (since session 18 RCM on all threads after a short
#          trial, above 2^22 cells) against FVSTAR_ORDER=rcm (the whole
#          serial BFS as the trial: the same order, so the same block
#          digests, compared) and, where BIG_VARIANTS says so, chunks
#          (session 17's Hilbert pieces); set-up and BIG_ITERATIONS (40)
#          iterations each: the first iteration and the steady ones'
#          median from history.csv, the restart's seconds
#   stage  (not in the default STEPS: about a minute more) `fvstar bench
#          stage` on a tet box of 6 N^3 cells (N_STAGE, default 128:
#          12.6M), the solver's kernels without StarPU timed stage by
#          stage with CUDA events, its cells in RCM, Hilbert pieces (chunks)
#          and Hilbert order: which kernels the ordering slows
# Each step is skipped once DEADLINE seconds (default 230) have passed.
# Usage: bench/run_setup7.sh FVSTAR OUT_DIR M6_SU2 [CELLS]
# Environment: STEPS (default "m6 ranks big"), DEADLINE, N_RANKS,
# BIG_ITERATIONS, BIG_VARIANTS (default "base rcm"), RUN_TIMEOUT (one
# 10^8 run's limit, default 150), N_STAGE.
# The lead's call (a pack of this branch; CUDA_VISIBLE_DEVICES one GPU):
#   CUDA_VISIBLE_DEVICES=0 sh bench/run_setup7.sh device/bin/fvstar /tmp/s7 /tmp/m6.su2 >$OUT/setup7.txt 2>&1
set -u
[ $# -ge 3 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
m6=$3
cells=${4:-100000000}
steps=${STEPS:-m6 ranks big}
deadline=${DEADLINE:-230}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export STARPU_SILENT=1
t0=$(date +%s)
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
left() { [ $(($(date +%s) - t0)) -lt "$deadline" ] || { echo "($1 skipped: DEADLINE=$deadline s passed)"; return 1; }; }
echo "# fvstar $("$fv" --version 2>/dev/null | head -1); $(nproc) cores; $(date -u +%H:%M:%S) UTC; steps: $steps"
command -v nvidia-smi >/dev/null && nvidia-smi -L

# m6run NAME ENV...: the shipped case to the answer, wall clock around it
m6run() {
	name=$1
	shift
	s=$(date +%s.%N)
	env "$@" timeout 120 "$fv" run "$top/cases/onera_m6/onera_m6.cfg" -v mesh.file="$out/m6.fvm" output.vtu=no \
		output.progress_every=0 output.dir="$out/m6-$name" >/dev/null 2>"$out/m6-$name.err"
	rc=$?
	awk -v a="$(date +%s.%N)" -v b="$s" 'BEGIN { printf "%.3f", a - b }' >"$out/m6-$name.wall"
	[ $rc = 0 ] || { echo "m6 $name: exit $rc: $(grep -i error "$out/m6-$name.err" | tail -1)"; return 1; }
}
if has m6 && left m6; then
	case $m6 in
	*.xz) xz -dc "$m6" >"$out/m6.su2" && m6=$out/m6.su2 ;;
	*.gz) gunzip -c "$m6" >"$out/m6.su2" && m6=$out/m6.su2 ;;
	esac
	"$fv" mesh convert "$m6" -o "$out/m6.fvm" >/dev/null 2>"$out/m6.convert.err" || echo "m6: convert failed"
	m6run first FVSTAR_CUDA_WARM=1
	ran=
	for v in warm cold; do
		if [ $v = warm ]; then m6run $v FVSTAR_CUDA_WARM=1 && ran="$ran $v"; else m6run $v FVSTAR_CUDA_WARM=0 && ran="$ran $v"; fi
	done
	echo
	echo "## M6 medium to the answer (target: process start to CL within 0.5 % <= 2x the loop)"
	echo
	echo "| run | iterations | set-up s | loop to the answer s | process start to the answer s | / loop | StarPU s | restart s | outputs s | process wall s | exec to main | set-up end to loop | loop end to summary | summary to freed | freed to exit |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for v in first $ran; do
		PYTHONPATH="$top/bench" python3 - "$out/m6-$v" "$(cat "$out/m6-$v.wall")" "$v" <<'PY' || echo "| $v | (no summary) |"
from m6_answer import from_args
r, wall, name = from_args()
s, h, k, loop_k, after, t = r["summary"], r["history"], r["answer"], r["loop_to_answer"], r["after_answer"], r["timeline"]
g = lambda a, b: "%.3f" % (t[b] - t[a]) if a in t and b in t else "-"
print("| %s | %d (answer at %s) | %.2f | %.2f | %.2f | **%.2fx** | %.2f | %.2f | %.2f | %.2f | %s | %s | %s | %s | %.3f |" % (
    name, len(h), h[k]["iteration"], s["setup_seconds"]["total"], loop_k, wall - after, (wall - after) / loop_k,
    s["setup_seconds"]["starpu"], s.get("restart_write_seconds", 0), s.get("output_seconds", 0), wall,
    "%.3f" % t["main"] if "main" in t else "-", g("set-up done", "loop"), g("loop done", "summary"),
    g("summary", "freed"), wall - t.get("freed", wall)))
PY
	done
	for v in first $ran; do
		grep -E "^fvstar: (set-up [0-9]|timeline)" "$out/m6-$v.err" | sed "s/^/- $v: /"
	done
fi

if has ranks && left ranks; then
	echo
	echo "## Set-up under mpirun (target: falls with R; rank 0 cuts on all the cores)"
	echo
	"$fv" mesh gen box --cells tet -n "${N_RANKS:-48}" --perturb 0.1 -o "$out/rbox.fvm" >/dev/null 2>&1 ||
		echo "ranks: mesh gen failed"
	RANKS="1 2 4" BLOCKS=16 timeout 90 sh "$top/bench/run_setup_ranks.sh" "$fv" "$out/rbox.fvm" "$out/ranks" ||
		echo "(run_setup_ranks.sh stopped: exit $?)"
fi

if has big && left big; then
	echo
	echo "## $cells cells: the default ordering against RCM, ${BIG_ITERATIONS:-40} iterations"
	RUN_TIMEOUT=${RUN_TIMEOUT:-150} STEPS="gen setup" VARIANTS="${BIG_VARIANTS:-base rcm}" \
		SETUP_ITERATIONS=${BIG_ITERATIONS:-40} sh "$top/bench/run_bigmesh.sh" "$fv" "$out/big" "$cells" |
		sed -n '/^## setup/,$p'
	# the same order: the same block (summary.json's block digests); the
	# states differ in round-off (the GPU's atomic flux sums)
	python3 - "$out/big" <<'PY'
import json, os, sys
d = [os.path.join(sys.argv[1], "setup_%s" % v, "summary.json") for v in ("base", "rcm")]
if all(os.path.exists(p) for p in d):
    a, b = (json.load(open(p)).get("block_digests") for p in d)
    print("- base and rcm: %s" % ("the same block (the same order)" if a == b else "different blocks: %s against %s" % (a, b)))
PY
	rm -f "$out/big/box.fvm" "$out/big"/setup_*/restart.bin
fi
if has stage && left stage; then
	echo
	echo "## bench stage: the kernels by ordering (6 x ${N_STAGE:-128}^3 tets)"
	"$fv" mesh gen box --cells tet -n "${N_STAGE:-128}" --perturb 0.1 -o "$out/sbox.fvm" >/dev/null 2>&1 ||
		echo "stage: mesh gen failed"
	printf '[mesh]\nfile = %s\n[flow]\nmach = 0.5\nalpha = 2\n[bc]\n' "$out/sbox.fvm" >"$out/sbox.cfg"
	for b in xmin xmax ymin ymax zmin zmax; do echo "$b = farfield"; done >>"$out/sbox.cfg"
	for o in rcm chunks hilbert; do
		FVSTAR_ORDER=$o timeout 120 "$fv" bench stage "$out/sbox.cfg" --iterations 20 --warmup 3 \
			--json "$out/stage-$o.json" >"$out/stage-$o.txt" 2>&1 || echo "stage $o: exit $?: $(tail -1 "$out/stage-$o.txt")"
	done
	python3 - "$out" <<'PY'
import json, os, sys
d = sys.argv[1]
runs = {o: json.load(open(os.path.join(d, "stage-%s.json" % o))) for o in ("rcm", "chunks", "hilbert")
        if os.path.exists(os.path.join(d, "stage-%s.json" % o))}
if runs:
    names = list(next(iter(runs.values()))["stages_ms_per_iteration"])
    print("| stage | " + " | ".join("%s ms" % o for o in runs) + " |")
    print("|---" * (1 + len(runs)) + "|")
    for k in names + ["total"]:
        row = [r["ms_per_iteration"] if k == "total" else r["stages_ms_per_iteration"][k] for r in runs.values()]
        print("| %s | %s |" % (k, " | ".join("%.3f" % x for x in row)))
PY
fi
echo
echo "# done in $(($(date +%s) - t0)) s"
