#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 23, session 24: the halo kernels of a block in one launch per
# exchange (codelets/halo/halo_cuda.cu, numerics.halo_tasks = block) against
# the build before it (one launch per neighbour), on the 10.37M box
# (bench/box_case.sh, N = 60 refined once, explicit, second order, GPU
# only, lws):
#   profile - every kernel's own time (bench/run_kernel_profile.sh), 4 blocks
#           on one GPU with each build and 1 block with the new one; then
#           the DRAM bytes of 1 and 4 blocks (the new build, H13_METRICS):
#           whether the quarters' node values (+30 % in session 23) move
#           more bytes
#   scale - 1 and 2 GPUs (4 where the node has them) in one process and a
#           rank per GPU, each build, rounds interleaved (H13_ROUNDS, 2),
#           on the 10.37M and the 2.53M box (H13_SIZES, "60:1 75:0")
# Usage: bench/run_halo13.sh FVSTAR FVSTAR_BEFORE OUT
# Environment: H13_STEPS ("profile scale"), H13_TIMEOUT (s per run, 60),
#   H13_METRICS (dram__bytes_read.sum,dram__bytes_write.sum), NCU.
set -u
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
fv=$(abs "${1:?usage: bench/run_halo13.sh FVSTAR FVSTAR_BEFORE OUT}")
fv0=$(abs "${2:?FVSTAR_BEFORE}")
out=${3:?OUT}
top=$(cd "$(dirname "$0")/.." && pwd)
lim=${H13_TIMEOUT:-60}
mkdir -p "$out"
export STARPU_SILENT=1 STARPU_SCHED=${STARPU_SCHED:-lws} FVSTAR_OMP_PASSIVE=0
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")
for step in ${H13_STEPS:-profile scale}; do
	case $step in
	profile)
		# the timings on GPU 0, the bytes on GPU 1 (when there is one)
		p() { PROFILE_TIMEOUT=$((2 * lim)) timeout $((5 * lim)) sh "$top/bench/run_kernel_profile.sh" "$@"; }
		(
			export CUDA_VISIBLE_DEVICES=0
			p "$fv" "$out/profile" 60:1 3 1 b1:1 b4:4 >"$out/profile.txt" 2>&1
			p "$fv0" "$out/profile0" 60:1 3 1 b4-before:4 >"$out/profile0.txt" 2>&1
		) &
		[ "$ngpu" -ge 2 ] && export CUDA_VISIBLE_DEVICES=1
		METRICS=${H13_METRICS:-dram__bytes_read.sum,dram__bytes_write.sum} p "$fv" "$out/bytes" 60:1 2 1 b1:1 b4:4 \
			>"$out/bytes.txt" 2>&1
		unset CUDA_VISIBLE_DEVICES
		wait
		gzip -9 "$out"/profile*/*.ncu.csv "$out"/bytes/*.ncu.csv 2>/dev/null
		rm -f "$out"/profile*/*.su2 "$out"/bytes/*.su2
		find "$out" -name "restart.bin*" -delete
		;;
	scale)
		r=0
		while [ $r -lt "${H13_ROUNDS:-2}" ]; do
			r=$((r + 1))
			for b in new before; do
				f=$fv
				[ $b = new ] || f=$fv0
				runs=""
				for z in ${H13_SIZES:-60:1 75:0}; do
					[ $r = 1 ] && runs="$runs proc:1:$z"
					runs="$runs proc:2:$z mpi:2:$z"
					[ "$ngpu" -ge 4 ] && runs="$runs proc:4:$z mpi:4:$z"
				done
				# shellcheck disable=SC2086
				SCALING_LABEL=$b-$r SCALING_TIMEOUT=$lim timeout $((12 * lim)) \
					sh "$top/bench/run_gpu_scaling.sh" "$f" "$out/scale" 100 30 $runs >>"$out/scale.txt" 2>&1
				rm -f "$out"/scale/runs/*/restart.bin*
			done
		done
		rm -f "$out"/scale/*.su2 "$out"/scale/runs/*.su2
		;;
	esac
done
