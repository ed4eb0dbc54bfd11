#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 24's GPU work of branch implicit13: the Krylov linear solve
# (numerics.linear = gmres: GMRES(krylov_dim) on the stored first-order
# operator, right-preconditioned by krylov_sweeps sweep pairs, the system
# scaled by its block diagonal; codelets/krylov) on one GPU.
#  0. tests/gpu/krylov_gpu.sh (the CUDA codelets against the CPU on the
#     45 x 21 bump; about 30 s, bounded at 80 s) with this fvstar;
#  1. the TMR bump's finest grid (1409 x 641, 901,120 cells:
#     bench/run_bump_finest.sh), two runs side by side on the same GPU,
#     stopped at BUMP_SECONDS (default 170; SIGTERM: the run ends cleanly
#     and its history counts), each bounded by timeout (SCRIPT_SECONDS,
#     default 200):
#       A (KEYS_A, NCPU_A CPU workers, default 0: the GPU alone, one
#         block): gmres (its defaults: 20 directions of 1 sweep pair) with
#         whole lines and the long side's step (line_cells 1024, aspect_dt
#         1e6), the CFL up to the default 1e4;
#       B (KEYS_B, NCPU_B, default 0): the same with 10 directions of 2
#         pairs (as many pairs an iteration, half the products).
# Session 22 call 3b ran the sweeps with the same two keys and cfl_max
# 1000 on this grid: 83 iterations in 195 s, the sweeps diverged twice and
# the CFL was held at 9.6-29 (3.52 nu~ orders); on the CPU A's keys took
# the 177 x 81 grid to 8 orders in 73 iterations and the 353 x 161 in 128
# (B's: 74 and 137), the CFL at 1e4, no divergence, no retry
# (bench/results/2026-12-05-implicit13.md).
# Usage: bench/run_implicit13_gpu.sh FVSTAR OUT
# On the GPU machine (one GPU + 16 cores, at most 4.8 minutes):
#   export LD_LIBRARY_PATH=$PWD/device/lib
#   CUDA_VISIBLE_DEVICES=0 sh bench/run_implicit13_gpu.sh device/bin/fvstar $OUT/implicit13
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/common.sh"
bench_setup 2 "$@"
keys="numerics.linear=gmres numerics.line_cells=1024 numerics.aspect_dt=1e6"
a=${KEYS_A:-$keys}
b=${KEYS_B:-$keys numerics.krylov_dim=10 numerics.krylov_sweeps=2}
export CUDA_VISIBLE_DEVICES="${CUDA_VISIBLE_DEVICES:-0}"
secs=${BUMP_SECONDS:-170}
SCRIPT_SECONDS=${SCRIPT_SECONDS:-200}
na=${NCPU_A:-0}
nb=${NCPU_B:-0}
echo "$(date -u +%H:%M:%S) implicit13 on GPU $CUDA_VISIBLE_DEVICES; results in $out"
# 0. the GPU test, with this binary as the build's fvstar
mkdir -p "$out/test/bin"
ln -sf "$fv" "$out/test/bin/fvstar"
(export top_srcdir="$top" top_builddir="$out/test/bin" STARPU_HOME="$out/starpu-test"
	timeout -k 5 80 sh "$top/tests/gpu/krylov_gpu.sh") >"$out/krylov_gpu.txt" 2>&1
echo "krylov_gpu.sh: rc $? ($(date -u +%H:%M:%S))"
cat "$out/krylov_gpu.txt"
rm -rf "$out/test"
# 1. the finest grid
bump_lanes "$a" "$na" "$b" "$nb"
echo "$(date -u +%H:%M:%S) implicit13 done"
