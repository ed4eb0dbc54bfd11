#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 24's GPU checks after branch implicit6, as one device command (under
# the 10-minute limit): tests/gpu/implicit_gpu.sh (now with
# numerics.limiter_shock on CUDA against the CPU) on the first GPU, and
# beside it the M6 SA finest grid (the carried 1.1M grid refined once, 8.8M
# cells; one H200 ran 40 iterations of it in 302 s, 0.69 orders) in one
# process on every other GPU of the node, for SA_SECONDS, with session 16
# call 1's converged grids (bench/results/2026-11-28-m6-sa-family.csv)
# in its table and plot.
# Usage: bench/run_implicit6_gpu.sh FVSTAR OUT COARSE_MESH [M6_MEDIUM]
#   FVSTAR       device/bin/fvstar of a device pack (its directory is the
#                test's top_builddir)
#   COARSE_MESH  devdata/onera_m6_rans_step_coarse.fvm.xz
#   M6_MEDIUM    devdata/onera_m6_medium.su2.gz: then, after the test on
#                GPU 0, the inviscid M6 medium mesh with time = implicit
#                alone (bench/run_implicit_defaults.sh, CASES=alone, 600
#                iterations): whether the learnt ceiling fired there (its
#                log's "the CFL is held at"), and its iterations to 8 orders
# Environment: SA_SECONDS (default 500), TEST_SECONDS (default 300).
# On the GPU machine (kind nvidia-h200-x4 or larger; 2 GPUs work, slower):
#   export LD_LIBRARY_PATH=$PWD/device/lib
#   bench/run_implicit6_gpu.sh device/bin/fvstar $OUT/i6 devdata/onera_m6_rans_step_coarse.fvm.xz \
#     devdata/onera_m6_medium.su2.gz
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 3 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2 mesh=$3 medium=${4:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)
ng=$(nvidia-smi -L 2>/dev/null | wc -l)
[ "$ng" -ge 2 ] || { echo "run_implicit6_gpu.sh: $ng GPU(s); needs 2 or more (one for the test, the rest for the SA grid)"; exit 1; }
others=$(seq -s, 1 $((ng - 1)))
echo "$(date -u +%H:%M:%S) $ng GPUs: implicit_gpu.sh on GPU 0, the SA finest grid on GPUs $others"
(
	STARPU_HOME=$out/starpu-test CUDA_VISIBLE_DEVICES=0 top_srcdir=$top top_builddir=$(dirname "$fv") \
		timeout "${TEST_SECONDS:-300}" sh "$top/tests/gpu/implicit_gpu.sh" >"$out/implicit_gpu.log" 2>&1
	echo "implicit_gpu.sh: rc $? ($(date -u +%H:%M:%S))" >>"$out/summary.txt"
	[ -n "$medium" ] || exit 0
	STARPU_HOME=$out/starpu-test CUDA_VISIBLE_DEVICES=0 CASES=alone M6_ITERATIONS=600 OUT_DIR=$out/m6medium \
		timeout 200 sh "$top/bench/run_implicit_defaults.sh" "$fv" "$medium" >"$out/m6medium.txt" 2>&1
	echo "m6 medium alone: rc $? ($(date -u +%H:%M:%S)); the ceiling lowered $(grep -c "the CFL is held at" \
		"$out/m6medium/alone.err" 2>/dev/null) times" >>"$out/summary.txt"
) &
(
	cd "$top" && STARPU_HOME=$out/starpu-sa CUDA_VISIBLE_DEVICES=$others CARRIED=no REFINE=1 \
		RUN_SECONDS="${SA_SECONDS:-500}" PRIOR_CSV=bench/results/2026-11-28-m6-sa-family.csv \
		sh bench/run_m6_sa_family.sh "$fv" "$out/m6sa" "$mesh" >"$out/m6sa.txt" 2>&1
	echo "m6 sa finest grid: rc $? ($(date -u +%H:%M:%S))" >>"$out/summary.txt"
) &
wait
cat "$out/summary.txt"
grep -E "FAIL|limiter_shock|failure" "$out/implicit_gpu.log" | head -8
tail -8 "$out/m6sa.txt" | cut -c1-250
[ -z "$medium" ] || tail -4 "$out/m6medium.txt" | cut -c1-250
