#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 24's GPU work of branch implicit11: the TMR bump's finest grid
# (1409 x 641, bench/run_bump_finest.sh) on one GPU (the one
# CUDA_VISIBLE_DEVICES names, or GPU 0), two runs side by side on it (8
# cores each, nproc / 2 - 1 CPU workers), each with the implicit solver's defaults plus its keys,
# stopped at BUMP_SECONDS (default 230; SIGTERM: the run ends cleanly and
# its history counts): orders, CFL, sweep pairs, lin_res, retries and the
# sweeps' divergences, CL, CD and Cf(0.75) against CFL3D.
#   A (KEYS_A): aspect_dt 10 with the per-cell CFL limit numerics.dominance 10
#   B (KEYS_B): aspect_dt 10 alone (the reference: never run on this grid)
# numerics.dominance (new on this branch, off by default) halves a cell's
# local step until its row of the block Jacobi iteration (D^-1 O summed
# over its faces) is below the factor: where the sweeps would diverge, the
# cells' step is cut, the rest keep the ramp's CFL and the stretched cells
# aspect_dt's larger step. On the CPU (89 x 41) the limit with 10 is idle
# (aspect_dt 10's 88 iterations bit for bit; with 3 it cut too many
# cells: 1.07 orders in 127): what it does is on the finest grid, whose
# sweeps diverged with aspect_dt 3 (2.12 orders in 165 iterations, 5
# divergences, CFL held at 57.6; session 21 call 1, H200) and 1000 (1.35
# in 164). Main's defaults there: 3.65 orders in 123.
# Usage: bench/run_implicit11_gpu.sh FVSTAR OUT
# On the GPU machine (one GPU + 16 cores, about 4.5 minutes):
#   export LD_LIBRARY_PATH=$PWD/device/lib
#   CUDA_VISIBLE_DEVICES=0 sh bench/run_implicit11_gpu.sh device/bin/fvstar $OUT/implicit11
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/common.sh"
bench_setup 2 "$@"
export CUDA_VISIBLE_DEVICES="${CUDA_VISIBLE_DEVICES:-0}"
a=${KEYS_A:-numerics.aspect_dt=10 numerics.dominance=10}
b=${KEYS_B:-numerics.aspect_dt=10}
cores=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //')
# CPU workers: half of this process's cores each, less one (the GPU's worker)
ncpu=$(($(nproc) / 2 - 1))
[ "$ncpu" -ge 1 ] || ncpu=1
echo "$(date -u +%H:%M:%S) implicit11: the bump finest on GPU $CUDA_VISIBLE_DEVICES (cores $cores), two runs side by side; results in $out"
echo "A: $a"
echo "B: $b"
# shellcheck disable=SC2086
STARPU_HOME="$out/starpu-a" STARPU_NCPU=$ncpu RUN_SECONDS=${BUMP_SECONDS:-230} SA_ARGS=$a PROGRESS=60 \
	sh "$top/bench/run_bump_finest.sh" "$fv" "$out/A" >"$out/A.txt" 2>&1 &
pa=$!
sleep 5
STARPU_HOME="$out/starpu-b" STARPU_NCPU=$ncpu RUN_SECONDS=${BUMP_SECONDS:-230} SA_ARGS=$b PROGRESS=60 \
	sh "$top/bench/run_bump_finest.sh" "$fv" "$out/B" >"$out/B.txt" 2>&1 &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
echo "== A ($a): rc $ra"
cat "$out/A.txt"
echo "== B ($b): rc $rb"
cat "$out/B.txt"
# the meshes and restarts are large: leave the histories and tables
find "$out" \( -name '*.fvm' -o -name '*.bin' \) -exec rm -f {} +
echo "$(date -u +%H:%M:%S) implicit11 done"
