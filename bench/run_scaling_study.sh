#!/bin/sh
# SPDX-License-Identifier: MIT
# The GPU scaling study of issue 23 (item 6) as one command on a node of G
# GPUs (G from nvidia-smi, or GPUS): strong scaling of the 10.37M box (box
# 60 refined once) and of the 41.2M box (95 refined once) on 1, 2, 4 ... G
# GPUs, weak scaling at about 10.4M cells per GPU (box 60 G^(1/3) refined
# once: 60, 76, 95, 120 for 1, 2, 4, 8), each as one process with every GPU
# and as a rank per GPU, each with a trace of its last iterations
# (bench/run_gpu_scaling.sh with SCALING_TRACE). OUT/scaling.csv and
# OUT/traces.csv gather the runs as they end (a study cut short keeps what
# finished); then OUT/strong-10m.png, strong-41m.png (and weak scaling in
# each), where matplotlib is installed.
# Usage: bench/run_scaling_study.sh FVSTAR OUT [PARTS]
#   PARTS: any of "strong10 strong41 weak" (default all three, in that order)
# Environment: GPUS, ITERATIONS (60), WARMUP (20), SCALING_TRACE (5), and
# those of bench/run_gpu_scaling.sh (SCALING_TIMEOUT: 300 s per run);
# SIZE10 (60:1), SIZE41 (95:1), WEAK_N (60) and WEAK_R (1) for other sizes
# (a try on a CPU machine: SCALING_CPU=1 GPUS=2 SIZE10=8:0 SIZE41=10:0
# WEAK_N=8 WEAK_R=0).
set -eu
fv=${1:?usage: bench/run_scaling_study.sh FVSTAR OUT [PARTS]}
out=${2:?usage: bench/run_scaling_study.sh FVSTAR OUT [PARTS]}
parts=${3:-strong10 strong41 weak}
top=$(cd "$(dirname "$0")/.." && pwd)
g=${GPUS:-$(nvidia-smi -L 2>/dev/null | wc -l)}
[ "$g" -ge 1 ] || { echo "run_scaling_study: no GPU found (GPUS=N to say how many)" >&2; exit 2; }
export SCALING_TRACE=${SCALING_TRACE:-5}
counts=
k=1
while [ "$k" -le "$g" ]; do counts="$counts $k"; k=$((k * 2)); done
# runs MODES SIZE...: proc (and mpi from 2 GPUs) runs of each count
runs_of() {
	size=$1
	for k in $counts; do
		printf ' proc:%s:%s' "$k" "$size"
		[ "$k" = 1 ] || printf ' mpi:%s:%s' "$k" "$size"
	done
}
s10=${SIZE10:-60:1} s41=${SIZE41:-95:1} wn=${WEAK_N:-60} wr=${WEAK_R:-1}
weak_n() { awk -v k="$1" -v n="$wn" 'BEGIN { printf "%d", n * k ^ (1 / 3) + 0.5 }'; }
done_runs=
for p in $parts; do
	case $p in
	strong10) list=$(runs_of "$s10") ;;
	strong41) list=$(runs_of "$s41") ;;
	weak)
		list=
		for k in $counts; do
			n=$(weak_n "$k")
			list="$list proc:$k:$n:$wr"
			[ "$k" = 1 ] || list="$list mpi:$k:$n:$wr"
		done
		;;
	*) echo "run_scaling_study: $p: PARTS are strong10, strong41, weak" >&2; exit 2 ;;
	esac
	todo=
	for r in $list; do
		case " $done_runs " in *" $r "*) ;; *) todo="$todo $r" ;; esac
	done
	done_runs="$done_runs $todo"
	[ -z "$todo" ] || sh "$top/bench/run_gpu_scaling.sh" "$fv" "$out" "${ITERATIONS:-60}" "${WARMUP:-20}" $todo
done
weak=
for k in $counts; do weak="$weak,$(weak_n "$k"):$wr"; done
for s in "$s10" "$s41"; do
	name=strong-$([ "$s" = "$s10" ] && echo 10m || echo 41m)
	${PYTHON3:-python3} "$top/bench/plot_gpu_scaling.py" "$out/scaling.csv" "$out/$name.png" --strong "$s" \
		--weak "${weak#,}" --title "$g GPUs: box $s, weak ~10.4M cells per GPU" >"$out/$name.txt" 2>&1 ||
		echo "run_scaling_study: no plot for $s (matplotlib?): $(tail -1 "$out/$name.txt")" >&2
done
echo "run_scaling_study: $out/scaling.csv, $out/traces.csv"
