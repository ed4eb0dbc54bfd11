#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 23, session 23: where the second GPU's time goes. On the 10.37M
# box (bench/box_case.sh, N = 60 refined once, explicit, second order,
# GPU only, lws):
#   profile - every kernel's own time, 1 block against 2 on one GPU
#           (bench/run_kernel_profile.sh 60:1, 3 iterations after 1):
#           where the halves' extra computing time is now
#   order - session 23's A/B of the time step in the gradients' chain
#           (FVSTAR_TIMESTEP_EARLY=1, a9673bc) against after the limiter's
#           pack (=0), 2 GPUs in one process, rounds interleaved
#           (H12_ROUNDS, 3), and 1 GPU. The change was measured 0.4 %
#           slower and reverted (1eddbd9): on a build without it both arms
#           run the same code (the spread of identical runs)
# Usage: bench/run_halo12.sh FVSTAR OUT
# Environment: H12_STEPS ("profile order"), H12_TIMEOUT (s per run, 60),
#   NCU (the profiler, as bench/run_kernel_profile.sh finds it).
set -u
fv=$(cd "$(dirname "${1:?usage: bench/run_halo12.sh FVSTAR OUT}")" && pwd)/$(basename "$1")
out=${2:?OUT}
top=$(cd "$(dirname "$0")/.." && pwd)
lim=${H12_TIMEOUT:-60}
mkdir -p "$out"
export STARPU_SILENT=1 STARPU_SCHED=${STARPU_SCHED:-lws} FVSTAR_OMP_PASSIVE=0
. "$top/bench/box_case.sh"
. "$top/bench/common.sh"
box_case "$(dirname "$fv")" 60 "$out" box60
keys="mesh.refine=1 numerics.order=2 numerics.residual_drop=0 output.restart_every=0 output.vtu=no
 output.progress_every=0 output.snapshot_every=0"
for step in ${H12_STEPS:-profile order}; do
	case $step in
	profile)
		PROFILE_TIMEOUT=$((2 * lim)) timeout $((5 * lim)) sh "$top/bench/run_kernel_profile.sh" "$fv" "$out/profile" \
			60:1 3 1 b1:1 b2:2 >"$out/profile.txt" 2>&1
		gzip -9 "$out"/profile/*.ncu.csv 2>/dev/null
		rm -f "$out"/profile/*.su2
		find "$out/profile" -name "restart.bin*" -delete
		;;
	order)
		csv=$out/order.csv
		echo "label,gpus,round,s_per_iteration,rc" >"$csv"
		r=0
		while [ $r -lt "${H12_ROUNDS:-3}" ]; do
			r=$((r + 1))
			for run in early:2:1 late:2:0 early:1:1; do
				IFS=: read -r lab g e <<RUN
$run
RUN
				d=$out/order-$lab-g$g-$r
				rc=0
				# shellcheck disable=SC2086
				FVSTAR_TIMESTEP_EARLY=$e STARPU_NCPU=0 STARPU_NCUDA=$g timeout "$lim" "$fv" run "$out/box60.cfg" \
					$keys numerics.iterations=80 partition.blocks=$g output.dir="$d" >"$d.out" 2>&1 || rc=$?
				echo "$lab,$g,$r,$(iter_time "$d" 20 | cut -d, -f1),$rc" >>"$csv"
				tail -1 "$csv"
				rm -f "$d"/restart.bin*
			done
		done
		;;
	esac
done
rm -f "$out/box60.su2"
