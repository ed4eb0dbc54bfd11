#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 23, session 21 (bench/results/2026-12-03-halo10.md): what the
# primitives' side-by-side copy (numerics.node_gather = cells) gives, on a
# GPU node alone:
#   1. bench_node_gather (bench/bench_node_gather.cu) on the 1.30M and the
#      10.37M tet box: the gathers alone, rows against side by side;
#   2. the explicit 10.37M box (bench/box_case.sh, 60 refined once), GPU
#      only, lws, rows then cells, on 1 GPU and on 2 in one process
#      (bench/run_gpu_scaling.sh, ITERS (30) iterations after WARM (10)), twice;
#   3. with METRICS set: each kernel's time and DRAM bytes per iteration on
#      the 5.3M box (48 refined once), one block and two, rows and cells
#      (bench/run_kernel_profile.sh, ncu).
# Usage: bench/run_halo10.sh FVSTAR BENCH_NODE_GATHER OUT
# Each step bounded by STEP_TIMEOUT (s, 150).
set -u
fv=${1:?usage: bench/run_halo10.sh FVSTAR BENCH_NODE_GATHER OUT}
bng=${2:?BENCH_NODE_GATHER}
out=${3:?OUT}
top=$(cd "$(dirname "$0")/.." && pwd)
lim=${STEP_TIMEOUT:-150}
mkdir -p "$out"
echo "## 1. bench_node_gather ($(date -u +%H:%M:%S))"
CUDA_VISIBLE_DEVICES=0 timeout -k 5 "$lim" "$bng" 60 120 | tee "$out/bench_node_gather.txt"
echo "## 2. the 10.37M box, rows against cells ($(date -u +%H:%M:%S))"
for k in 1 2; do
	for g in rows cells; do
		SCALING_TIMEOUT=60 SCALING_LABEL=$g$k SCALING_KEYS=numerics.node_gather=$g timeout -k 5 "$lim" \
			sh "$top/bench/run_gpu_scaling.sh" "$fv" "$out/scaling" ${ITERS:-30} ${WARM:-10} proc:1:60:1 proc:2:60:1 >/dev/null 2>&1
	done
done
cat "$out/scaling/scaling.csv"
if [ -n "${METRICS:-}" ]; then
	echo "## 3. kernels and bytes, 5.3M box ($(date -u +%H:%M:%S))"
	CUDA_VISIBLE_DEVICES=0 PROFILE_TIMEOUT=100 timeout -k 5 "$lim" sh "$top/bench/run_kernel_profile.sh" "$fv" \
		"$out/profile" 48:1 2 1 b1:1 c1:1:numerics.node_gather=cells b2:2 c2:2:numerics.node_gather=cells
fi
find "$out" \( -name '*.su2' -o -name '*.fvm' -o -name '*.bin' -o -name '*.vtu' -o -name '*.ncu-rep' \) -delete
echo "# done ($(date -u +%H:%M:%S))"
