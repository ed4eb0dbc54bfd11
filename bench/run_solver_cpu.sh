#!/bin/sh
# SPDX-License-Identifier: MIT
# CPU path of the solver: ns per cell per RK stage on a ~1M-cell perturbed
# tet box (free stream at Mach 0.5, all far field, second order, SSP-RK2,
# double), for each CPU worker count given; one untraced run for the wall
# time, one traced run (FxT) for the split by stage.
# Usage: bench/run_solver_cpu.sh [BUILDDIR] [N] [ITERATIONS] [NCPU ...]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
n=${2:-55}
iters=${3:-10}
shift 3 2>/dev/null || shift $#
ncpus=${*:-1 2}
tmp=${BENCH_TMP:-$(mktemp -d)}
mkdir -p "$tmp"
. "$top/bench/box_case.sh"
box_case "$build" "$n" "$tmp" bench
export STARPU_SILENT=1 STARPU_NCUDA=0
for p in $ncpus; do
	export STARPU_NCPU=$p
	"$build/fvstar" run "$tmp/bench.cfg" output.dir="$tmp/run$p" partition.blocks=$((4 * p)) \
		numerics.iterations="$iters" 2>&1 | tail -1
	"$build/fvstar" run "$tmp/bench.cfg" output.dir="$tmp/trace$p" partition.blocks=$((4 * p)) \
		output.trace="$tmp/trace$p/trace" numerics.iterations=3 >/dev/null 2>&1
	python3 - "$tmp/run$p/summary.json" "$p" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print("NCPU=%s: %d cells, %d blocks, %.4f s/iteration, %.1f ns/cell/RK stage (wall)"
      % (sys.argv[2], s["mesh"]["cells"], s["partition"]["blocks"], s["seconds_per_iteration"], s["ns_per_cell_per_stage"]))
PY
	cells=$(python3 -c "import json;print(json.load(open('$tmp/run$p/summary.json'))['mesh']['cells'])")
	python3 "$top/bench/stage_split.py" "$tmp/trace$p/trace/tasks.rec" "$cells" 3 2
done
