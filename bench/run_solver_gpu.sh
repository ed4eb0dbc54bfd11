#!/bin/sh
# SPDX-License-Identifier: MIT
# GPU path of the solver: ns per cell per RK stage on perturbed tet boxes of
# 6 N^3 cells (same case as bench/run_solver_cpu.sh), GPU-only
# (STARPU_NCPU=0, one CUDA worker), double precision, for each flux
# summation in FLUX_SUMS (default: atomic gather).
# Usage: bench/run_solver_gpu.sh [BUILDDIR] [ITERATIONS] [N ...]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
iters=${2:-20}
shift 2 2>/dev/null || shift $#
sizes=${*:-55 119}
tmp=${BENCH_TMP:-$(mktemp -d)}
mkdir -p "$tmp"
export STARPU_SILENT=1 STARPU_NCPU=0 STARPU_NCUDA=1
. "$top/bench/box_case.sh"
for n in $sizes; do
	box_case "$build" "$n" "$tmp" "gpu$n"
	for sum in ${FLUX_SUMS:-atomic gather}; do
		"$build/fvstar" run "$tmp/gpu$n.cfg" output.dir="$tmp/gpu$n-$sum" numerics.flux_sum=$sum \
			numerics.iterations="$iters" partition.blocks=2 2>&1 | tail -1
		python3 - "$tmp/gpu$n-$sum/summary.json" "$sum" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print("GPU (%s): %d cells, %d blocks, %d iterations, %.5f s/iteration, %.2f ns/cell/RK stage (wall, incl. the first iteration's transfers)"
      % (sys.argv[2], s["mesh"]["cells"], s["partition"]["blocks"], s["iterations"], s["seconds_per_iteration"], s["ns_per_cell_per_stage"]))
PY
	done
	rm -f "$tmp/box$n.su2"
done
