#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 24's GPU work of branch implicit12: the TMR bump's finest grid
# (1409 x 641, 901,120 cells: bench/run_bump_finest.sh) with the
# line-implicit sweeps, two runs side by side on one GPU (the one
# CUDA_VISIBLE_DEVICES names, or GPU 0; nproc / 2 - 1 CPU workers each),
# each the implicit solver's defaults plus its keys, stopped at
# BUMP_SECONDS (default 200; SIGTERM: the run ends cleanly and its history
# counts), the whole script bounded by timeout (SCRIPT_SECONDS, default
# 260): orders, CFL, sweep pairs, lin_res, retries, CD per 5 iterations.
#   A (KEYS_A): numerics.line_cells = 1024: each wall-normal chain one line
#   B (KEYS_B): the defaults (lines of at most 64 cells: the grid's
#               640-cell columns cut into ten lines)
# On this branch a line's block Thomas factors are made once per
# iteration and stored (no per-line scratch in a GPU thread), so lines of
# any length run; on the finest grid the sweeps' lin_res sat at 0.4-0.75
# for iterations 15-35 (session 21 call 3) where the CPU grids, whose
# columns are one or two lines, reach 0.05-0.15.
# Usage: bench/run_implicit12_gpu.sh FVSTAR OUT
# On the GPU machine (one GPU + 16 cores, about 4.5 minutes):
#   export LD_LIBRARY_PATH=$PWD/device/lib
#   CUDA_VISIBLE_DEVICES=0 sh bench/run_implicit12_gpu.sh device/bin/fvstar $OUT/implicit12
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/common.sh"
bench_setup 2 "$@"
export CUDA_VISIBLE_DEVICES="${CUDA_VISIBLE_DEVICES:-0}"
a=${KEYS_A:-numerics.line_cells=1024}
b=${KEYS_B:-}
secs=${BUMP_SECONDS:-200}
ncpu=$(($(nproc) / 2 - 1))
[ "$ncpu" -ge 1 ] || ncpu=1
echo "$(date -u +%H:%M:%S) implicit12: the bump finest on GPU $CUDA_VISIBLE_DEVICES, two runs side by side, $ncpu CPU workers each; results in $out"
echo "A: $a"
echo "B: ${b:-(the defaults)}"
lane() { # NAME KEYS
	STARPU_HOME="$out/starpu-$1" STARPU_NCPU=$ncpu RUN_SECONDS=$secs SA_ARGS=$2 PROGRESS=30 EVERY=5 \
		timeout -k 10 "${SCRIPT_SECONDS:-260}" sh "$top/bench/run_bump_finest.sh" "$fv" "$out/$1" >"$out/$1.txt" 2>&1
}
lane A "$a" &
pa=$!
sleep 5
lane B "$b" &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
echo "== A ($a): rc $ra"
cat "$out/A.txt"
echo "== B (${b:-the defaults}): rc $rb"
cat "$out/B.txt"
# the meshes and restarts are large: leave the histories and tables
find "$out" \( -name '*.fvm' -o -name '*.bin' \) -exec rm -f {} +
echo "$(date -u +%H:%M:%S) implicit12 done"
