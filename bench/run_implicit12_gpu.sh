#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 24's GPU work of branch implicit12: the TMR bump's finest grid
# (1409 x 641, 901,120 cells: bench/run_bump_finest.sh) with whole
# wall-normal lines and the long side's step, two runs side by side on one
# GPU (the one CUDA_VISIBLE_DEVICES names, or GPU 0), each the implicit
# solver's defaults plus its keys, stopped at BUMP_SECONDS (default 200;
# SIGTERM: the run ends cleanly and its history counts), each bounded by
# timeout (SCRIPT_SECONDS, default 260): orders, CFL, sweep pairs, lin_res,
# retries, CD per 5 iterations.
#   A (KEYS_A, NCPU_A CPU workers, default 0: the GPU alone, one block, no
#     line cut by a block's border): numerics.line_cells = 1024 (each
#     wall-normal chain one line), numerics.aspect_dt = 1e6 (a line
#     cell's step that of its long side) and numerics.cfl_max = 1000 (the
#     353 x 161 grid's sweeps diverged three times at CFL 1e3-1e4 without
#     it, and with it went 8 orders in 108 iterations with none)
#   B (KEYS_B, NCPU_B, default nproc / 2 - 1 CPU workers: blocks on the CPU
#     workers too, their borders cut lines): the same keys
# On the CPU (this branch, 2026-12-04 report) the two keys together took
# the 177 x 81 grid to 8 orders in 73 iterations, where the defaults, whole
# lines alone and the long step with lines of 64 all stall at 4.3-4.9
# orders (nu~ drifting in the wake's cells of aspect ratio 1e5-1e6, whose
# thin side's step moves the flow 1e-5 of a cell an iteration).
# On this branch a line's block Thomas factors are made once per
# iteration and stored (no per-line scratch in a GPU thread), so lines of
# any length run.
# Usage: bench/run_implicit12_gpu.sh FVSTAR OUT
# On the GPU machine (one GPU + 16 cores, about 4.5 minutes):
#   export LD_LIBRARY_PATH=$PWD/device/lib
#   CUDA_VISIBLE_DEVICES=0 sh bench/run_implicit12_gpu.sh device/bin/fvstar $OUT/implicit12
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/common.sh"
bench_setup 2 "$@"
keys="numerics.line_cells=1024 numerics.aspect_dt=1e6 numerics.cfl_max=1000"
a=${KEYS_A:-$keys}
b=${KEYS_B:-$keys}
export CUDA_VISIBLE_DEVICES="${CUDA_VISIBLE_DEVICES:-0}"
secs=${BUMP_SECONDS:-200}
ncpu=$(($(nproc) / 2 - 1))
[ "$ncpu" -ge 1 ] || ncpu=1
na=${NCPU_A:-0}
nb=${NCPU_B:-$ncpu}
echo "$(date -u +%H:%M:%S) implicit12: the bump finest on GPU $CUDA_VISIBLE_DEVICES, two runs side by side; results in $out"
bump_lanes "$a" "$na" "$b" "$nb"
echo "$(date -u +%H:%M:%S) implicit12 done"
