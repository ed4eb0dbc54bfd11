#!/bin/sh
# SPDX-License-Identifier: MIT
# Session 20's set-up measurements (issue 25, T8; bench/results/2026-12-02-setup9.md):
#   m6   the M6 medium (M6_SU2, .su2 or .su2.xz) with the shipped implicit
#        case from .fvm to 8 orders, fvstar run -v, one GPU (about 1.5 min):
#        process start to CL within 0.5 % against the loop to it (T8: <= 2x),
#        and where the rest goes: every timeline mark (exec to main, set-up
#        phases and steps, the iterations drained past the last history row,
#        the restart, the outputs, the summary, the solver freed, StarPU's
#        stop, the frees, the exit handlers: the CUDA runtime's and
#        StarPU's, then the process's end) against the process's wall
#        clock. Runs, interleaved after a throwaway first (bus calibration,
#        page cache): the default (the final files written while StarPU
#        stops), FVSTAR_OUTPUTS_BESIDE_STOP=0 (written first, as before),
#        FVSTAR_RCM_THREADS=probe (the block's ordering on all threads from
#        the start, as above 2^22 cells), FVSTAR_CUDA_WARM_SPARE=1 (the mesh
#        read on one thread fewer while the context is made beside it),
#        FVSTAR_CUDA_WARM=0 (the context
#        made by StarPU, not beside the mesh read), OMP_WAIT_POLICY=passive
#        (the set-up's OpenMP threads asleep as soon as a loop ends; the
#        default, unset, spins about 3 ms first), and once from the .su2
#        text (the reader's cost against .fvm)
#   threads  (the node alone, about 2 min) bench/run_setup8.sh's threads
#        step (6 x 48^3 and 6 x 96^3 tets, 16 blocks, CPU workers, set-up
#        on T = 1 ... all cores), then the 48^3 sweep again with
#        OMP_WAIT_POLICY=passive (T9: never slower on more cores)
#   ranks    (the node alone, about 2 min) bench/run_setup8.sh's ranks step
#        on the 48^3 box (R = 1 2 4, from the file and from part files, each
#        rank's phases), then again with OMP_WAIT_POLICY=passive (T7)
#   ranksbig (the node alone, about 3.5 min) the same on the 10.37M box
#        (6 x 120^3), where the solver's phase (5.3 s on one rank, call 1)
#        is worth dividing; its part files deleted after
#   big  (one GPU, about 2.5 min) T5: bench/run_bigmesh.sh at CELLS, by
#        default 10^8 where every GPU has over 100 GB (H200), else
#        98,300,000 (10^8 did not fit an H100 80GB's free memory in call 1)
# Each run is skipped once DEADLINE seconds (default 300) have passed.
# Usage: bench/run_setup9.sh FVSTAR OUT_DIR M6_SU2
# Environment: STEPS (default "m6"), DEADLINE, REPEAT (default 2: runs of
# the default and of FVSTAR_OUTPUTS_BESIDE_STOP=0 each); CASE and KEYS (the
# case and keys after it: a small case to try the script on a CPU).
# The lead's calls: /work/notes/setup9_device.txt (session 20).
set -u
[ $# -ge 3 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
out=$(cd "$2" && pwd)
m6=$3
steps=${STEPS:-m6}
deadline=${DEADLINE:-300}
repeat=${REPEAT:-2}
case_file=${CASE:-$top/cases/onera_m6/onera_m6.cfg}
keys=${KEYS:-}
export STARPU_SILENT=1
t0=$(date +%s)
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
left() { [ $(($(date +%s) - t0)) -lt "$deadline" ] || { echo "($1 skipped: DEADLINE=$deadline s passed)"; return 1; }; }
echo "# fvstar $("$fv" --version 2>/dev/null | head -1); $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); $(date -u +%H:%M:%S) UTC; steps: $steps"
command -v nvidia-smi >/dev/null && nvidia-smi -L
echo "load: $(cat /proc/loadavg)"

# m6run NAME MESH ENV...: the shipped case to 8 orders, the wall clock around it
m6run() {
	name=$1 mesh=$2
	shift 2
	left "m6 $name" || return 1
	s=$(date +%s.%N)
	# shellcheck disable=SC2086
	env "$@" timeout 150 "$fv" run "$case_file" -v mesh.file="$mesh" output.vtu=no output.progress_every=0 \
		output.dir="$out/m6-$name" $keys >/dev/null 2>"$out/m6-$name.err"
	rc=$?
	awk -v a="$(date +%s.%N)" -v b="$s" 'BEGIN { printf "%.3f", a - b }' >"$out/m6-$name.wall"
	[ $rc = 0 ] || { echo "m6 $name: exit $rc: $(grep -i error "$out/m6-$name.err" | tail -1)"; return 1; }
	ran="$ran $name"
}

if has m6; then
	case $m6 in
	*.xz) xz -dc "$m6" >"$out/m6.su2" && m6=$out/m6.su2 ;;
	*.gz) gunzip -c "$m6" >"$out/m6.su2" && m6=$out/m6.su2 ;;
	esac
	"$fv" mesh convert "$m6" -o "$out/m6.fvm" >/dev/null 2>"$out/m6.convert.err" || echo "m6: convert failed"
	ran=
	m6run first "$out/m6.fvm"
	ran=
	i=1
	while [ "$i" -le "$repeat" ]; do
		m6run "beside$i" "$out/m6.fvm"
		m6run "before$i" "$out/m6.fvm" FVSTAR_OUTPUTS_BESIDE_STOP=0
		m6run "passive$i" "$out/m6.fvm" OMP_WAIT_POLICY=passive
		m6run "spare$i" "$out/m6.fvm" FVSTAR_CUDA_WARM_SPARE=1
		i=$((i + 1))
	done
	m6run probe "$out/m6.fvm" FVSTAR_RCM_THREADS=probe
	m6run cold "$out/m6.fvm" FVSTAR_CUDA_WARM=0
	m6run su2 "$m6"
	echo
	echo "## M6 medium to the answer (T8: process start to CL within 0.5 % <= 2x the loop to it)"
	echo
	echo "beside: this branch's defaults (the final files written while StarPU stops);"
	echo "before: FVSTAR_OUTPUTS_BESIDE_STOP=0; passive: OMP_WAIT_POLICY=passive; probe: FVSTAR_RCM_THREADS=probe;"
	echo "spare: FVSTAR_CUDA_WARM_SPARE=1 (the mesh read on one thread fewer beside the contexts' thread);"
	echo "cold: FVSTAR_CUDA_WARM=0; su2: from the .su2 text. Seconds."
	echo
	echo "| run | iterations (answer at) | exec to main | set-up | loop to the answer | process start to the answer | / loop | drained past the last row | restart | outputs | summary | solver freed | StarPU stopped | freed | exit handlers | process end | wall |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for v in first $ran; do
		PYTHONPATH="$top/bench" python3 - "$out/m6-$v" "$(cat "$out/m6-$v.wall")" "$v" <<'PY' || echo "| $v | (no summary) |"
from m6_answer import from_args
r, wall, name = from_args()
s, h, k, loop_k, after, t, ex = (r[x] for x in ("summary", "history", "answer", "loop_to_answer", "after_answer", "timeline", "exit"))
# the last history row, on the process's clock: the loop's start + its wall_s
last_row = t["loop"] + float(h[-1]["wall_s"]) if "loop" in t else None
f = lambda x: "%.3f" % x if x is not None else "-"
mk = lambda a: f(t[a]) if a in t else "-"
print("| %s | %d (%s) | %s | %.3f | %.3f | %.3f | **%.2fx** | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.3f |" % (
    name, len(h), h[k]["iteration"], mk("main"), s["setup_seconds"]["total"], loop_k, wall - after, (wall - after) / loop_k,
    f(t["loop done"] - last_row) if last_row is not None and "loop done" in t else "-",
    f(s.get("restart_write_seconds")), f(s.get("output_seconds")),
    mk("summary"), mk("solver freed"), mk("StarPU stopped"), mk("freed"), f(ex), f(wall - ex) if ex else "-", wall))
PY
	done
	echo
	echo "Marks in seconds since the process started (summary, solver freed ... exit handlers: when each ended)."
	echo
	for v in first $ran; do
		python3 - "$out/m6-$v" "$v" <<'PY'
import json, sys
d, name = sys.argv[1], sys.argv[2]
s = json.load(open(d + "/summary.json"))
su = s["setup_seconds"]
st = sorted(s.get("setup_steps", {}).items(), key=lambda kv: -kv[1]["seconds"])
print("- %s: set-up %.3f: %s" % (name, su["total"], ", ".join("%s %.3f" % (p, su[p]) for p in ("case", "mesh", "starpu", "blocks", "state", "solver") if p in su)))
print("  steps: " + ", ".join("%s %.3f" % (k, v["seconds"]) for k, v in st[:9]))
for k, v in st:
    if v.get("note") and k in ("renumber: order", "mesh: read", "solver: geometry and colours"):
        print("  %s: %s" % (k, v["note"]))
PY
		grep -E "^fvstar: (timeline|exit handlers)" "$out/m6-$v.err" | sed "s/^/  /"
	done
fi
# the node alone: run_setup8.sh's steps, with this branch's defaults, then
# with the OpenMP threads asleep at once (OMP_WAIT_POLICY=passive)
if has threads && left threads; then
	echo
	echo "# threads: this branch's defaults"
	STEPS=threads DEADLINE=150 sh "$top/bench/run_setup8.sh" "$fv" "$out/s8" | sed -n '/^## /,$p' | grep -v "^# done"
	echo
	echo "# threads: OMP_WAIT_POLICY=passive, 48^3 only"
	OMP_WAIT_POLICY=passive STEPS=threads N_THREADS_BIG=0 DEADLINE=100 sh "$top/bench/run_setup8.sh" "$fv" "$out/s8" |
		sed -n '/^## /,$p' | grep -v "^# done"
fi
if has ranks && left ranks; then
	echo
	echo "# ranks: this branch's defaults"
	STEPS=ranks N_RANKS_BIG=0 DEADLINE=150 sh "$top/bench/run_setup8.sh" "$fv" "$out/s8" | sed -n '/^## /,$p' | grep -v "^# done"
	echo
	echo "# ranks: OMP_WAIT_POLICY=passive"
	OMP_WAIT_POLICY=passive STEPS=ranks N_RANKS_BIG=0 SHARE=0 DEADLINE=100 sh "$top/bench/run_setup8.sh" "$fv" "$out/s8" |
		sed -n '/^## /,$p' | grep -v "^# done"
fi
if has ranksbig && left ranksbig; then
	echo
	echo "# ranksbig: this branch's defaults"
	STEPS=ranks N_RANKS=120 N_RANKS_BIG=0 SHARE=0 RANKS_TIMEOUT=230 DEADLINE=60 sh "$top/bench/run_setup8.sh" "$fv" \
		"$out/s8" | sed -n '/^## /,$p' | grep -v "^# done"
fi
if has big && left big; then
	cells=${CELLS:-}
	if [ -z "$cells" ]; then
		mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits 2>/dev/null | sort -n | head -1)
		cells=$([ "${mib:-0}" -gt 100000 ] && echo 100000000 || echo 98300000)
	fi
	echo
	echo "# big: T5 at $cells cells (GPU memory ${mib:-?} MiB)"
	STEPS=big DEADLINE=60 RUN_TIMEOUT=${RUN_TIMEOUT:-150} sh "$top/bench/run_setup8.sh" "$fv" "$out/s8" "" "$cells" |
		sed -n '/^## /,$p' | grep -v "^# done"
fi
rm -rf "$out/s8" "$out"/m6*/restart.bin "$out/m6.su2"
echo
echo "# done in $(($(date +%s) - t0)) s"
