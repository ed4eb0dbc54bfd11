#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 27's validation rows for a device call of lanes (session 19): the
# rows out of 10 % or never run, re-calibrated from nothing (no earlier
# device data), through bench/run_sim_validate.sh with SIM_HERE=1 (the
# simulations run back on the SimGrid machine: bench/run_sim_ranks_here.sh).
# Run from the repository root of a device pack (device/bin/fvstar,
# device/lib), inside the lane's GPUs and cores (CUDA_VISIBLE_DEVICES,
# taskset -c: the script takes what it is given, and says so):
#   lane 1  one GPU, 16 cores:
#     box implicit 1 GPU (16: one stalled sample is then 1/33 of a chain's)
#     m6 explicit  16 CPU as 4 ranks (30 iterations, its dry run traced from
#                  iteration 16: StarPU-MPI's messages)
#     m6 implicit  16 CPU as 2 ranks (8)
#     box explicit 16 CPU as 1, 2, 4 ranks (10)
#   lane 2  two GPUs, 32 cores:
#     m6 explicit  2 ranks of a GPU (40, traced from iteration 14)
#     m6 implicit  2 GPUs, one process (20, traced from iteration 14: the
#                  copies between the GPUs as a run sees them)
#     box implicit 2 ranks (8), then GPU + CPU (8)
#   lane 3  two GPUs, 32 cores: the GPU rank rows again, traced (StarPU-MPI's
#           cost per message measured a second time, beside the simulation
#           that uses the first):
#     m6 explicit  2 ranks of a GPU (40, traced from iteration 14)
#     m6 implicit  2 ranks of a GPU (20, traced from iteration 14)
# each calibrated, then measured (fvstar run, fvstar sim dry, and for ranks
# sim dry --norms-apart), while SIM_DEADLINE_S (default 450) lasts; the rows
# not reached are listed. Results: $OUT/simgrid8/laneN.txt (the table and
# every row's messages) and laneN.tgz (the folders, traces gzipped, meshes
# and StarPU's raw files left out).
# Meshes: M6_MESH (default devdata/onera_m6_medium.su2: make_mesh.sh medium,
# the same file the SimGrid machine simulates with); the box 10.37M from
# devdata/box120.su2 when there (bench/box_case.sh, N = 120), else made here
# (about 10 s).
# Session 20's lanes (results in $OUT/simgrid9/laneN.txt, laneN.tgz):
#   lane 4  one GPU, 16 cores: the box explicit on 16 CPU as 1, 2, 4 ranks
#           (6 iterations; calibrated on 4: ~1 s an iteration)
#   lane 5  one GPU, 16 cores: the box implicit on 16 CPU as 1 rank (3
#           iterations, calibrated on 2 with a warm-up of 1: ~15 s an
#           iteration), then the box implicit on 1 GPU (16 iterations, its
#           dry run traced from iteration 6: the stall at iteration 8)
#   lane 6  one GPU, 16 cores: the box implicit on 16 CPU as 2 ranks (3)
#   lane 7  one GPU, 16 cores: the box implicit on 16 CPU as 4 ranks (3)
#   (lanes 8 and 9 of session 20, never run: the box implicit on 1 GPU,
#   measured in lane gpu4 since, and the box on 16 CPU, now below)
# Session 21's lanes (the box on 16 CPU, the issue's 6 rows never run;
# results in $OUT/simgrid10/laneN.txt, laneN.tgz; each lane one GPU that it
# does not use and 16 cores, under 5 minutes with SIM_DEADLINE_S=270; no
# dry run --norms-apart: NO_APART=1, one collective an iteration of 1 to
# 15 s is nothing, and a command less a row of ranks):
#   lane 8  the box explicit on 16 CPU as 1, 2 and 4 ranks (6 iterations,
#           calibrated on 4 with a warm-up of 2: ~1 s an iteration; ~240 s)
#   lane 9  the box implicit on 16 CPU as 1 rank (3 iterations, calibrated
#           on 2 with a warm-up of 1: ~15 s an iteration; ~170 s)
#   lane 10 the box implicit on 16 CPU as 2 ranks (3 : 2 : 1; ~200 s)
#   lane 11 the box implicit on 16 CPU as 4 ranks (3 : 2 : 1; ~200 s)
#   (lanes 4 to 11 measure no `fvstar run`: the validation compares the
#   simulation with the dry run; NO_RUN=0 measures it too)
#   lane gpu4  the whole 4-GPU node alone: bench/run_sim_8gpu.sh with
#           GPUS=4 (1, 2 and 4 GPUs measured and calibrated, the 2-GPU
#           calibration's projection to 4 against the 4 measured), after
#           the box implicit on 1 GPU (16 iterations, the dry run traced
#           from 6: the stall at iteration 8; its calibration keeps no
#           sample 4 times its footprint's mean), no `fvstar run` (NO_RUN=0
#           to measure it too), the dry runs of the M6's 2 and 4 GPUs
#           without chains traced from 14 (copies and workers' gaps),
#           $OUT/simgrid9/lanegpu4.txt, lanegpu4.tgz
# Usage: bench/run_sim8_lanes.sh 1|2|...|11|gpu4   (ROWS, TRACE to change the rows)
set -eu
lane=${1:?usage: bench/run_sim8_lanes.sh 1 to 11, or gpu4}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export LD_LIBRARY_PATH="$top/device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
m6=${M6_MESH:-$top/devdata/onera_m6_medium.su2}
res=${OUT:?OUT: the results folder}/simgrid8
run=validate # run_sim_validate.sh, or run_sim_8gpu.sh (gpu4)
case $lane in
1)
	# a one-process row first: its bus (every core) seeds the others; a
	# rank row's would hold its rank's share of the CPUs
	rows="box10m:implicit:1gpu:16 m6:explicit:cpu16-4rank:30 m6:implicit:cpu16-2rank:8"
	rows="$rows box10m:explicit:cpu16:10 box10m:explicit:cpu16-2rank:10 box10m:explicit:cpu16-4rank:10"
	trace="m6:cpu16-4rank" from=16 want="1 GPU, 16 cores"
	;;
2)
	rows="m6:explicit:2rank:40 m6:implicit:2gpu:20 box10m:implicit:2rank:8 box10m:implicit:gpu+cpu:8"
	trace="m6:2rank m6-impl:2gpu" from=14 want="2 GPUs, 32 cores"
	;;
3)
	rows="m6:explicit:2rank:40 m6:implicit:2rank:20"
	trace="m6:2rank m6-impl:2rank" from=14 want="2 GPUs, 32 cores"
	;;
4)
	rows="box10m:explicit:cpu16:6:4 box10m:explicit:cpu16-2rank:6:4 box10m:explicit:cpu16-4rank:6:4"
	trace="" from=4 want="1 GPU, 16 cores"
	export NO_RUN="${NO_RUN:-1}"
	;;
5 | 6 | 7)
	case $lane in
	# the CPU rows calibrated on 2 iterations, a warm-up of 1 and one
	# recorded (:3:2:1): the CPU implicit's tens of thousands of tasks an
	# iteration give every footprint many samples
	5) rows="box10m:implicit:cpu16:3:2:1 box10m:implicit:1gpu:16" ;;
	6) rows="box10m:implicit:cpu16-2rank:3:2:1" ;;
	7) rows="box10m:implicit:cpu16-4rank:3:2:1" ;;
	esac
	trace="box10m-impl:1gpu" from=6 want="1 GPU, 16 cores"
	export NO_RUN="${NO_RUN:-1}"
	;;
8 | 9 | 10 | 11)
	# a one-process row first where the lane has one: its bus (every
	# core) seeds the rows of ranks
	case $lane in
	8) rows="box10m:explicit:cpu16:6:4:2 box10m:explicit:cpu16-2rank:6:4:2 box10m:explicit:cpu16-4rank:6:4:2" ;;
	9) rows="box10m:implicit:cpu16:3:2:1" ;;
	10) rows="box10m:implicit:cpu16-2rank:3:2:1" ;;
	11) rows="box10m:implicit:cpu16-4rank:3:2:1" ;;
	esac
	trace="" from=4 want="1 GPU (not used), 16 cores"
	export NO_RUN="${NO_RUN:-1}" NO_APART="${NO_APART:-1}"
	;;
gpu4)
	run=8gpu want="4 GPUs, the node alone"
	rows="box10m:implicit:1gpu:16 m6:explicit:2gpu-nochain:20 m6:explicit:4gpu-nochain:20"
	rows="$rows box10m:explicit:2gpu-nochain:10 box10m:explicit:4gpu-nochain:10 m6:implicit:2gpu-nochain:12"
	rows="$rows m6:implicit:4gpu-nochain:12 m6:explicit:4gpu:20 m6:explicit:1gpu:20 box10m:explicit:4gpu:10"
	rows="$rows box10m:explicit:1gpu:10"
	trace="box10m-impl:1gpu m6:2gpu-nochain m6:4gpu-nochain" from=14
	[ -n "${TRACE_FROM:-}" ] || export TRACE_FROM_ROWS="box10m-impl:1gpu=6"
	export NO_RUN="${NO_RUN:-1}"
	;;
*)
	echo "run_sim8_lanes: lane 1 to 11, or gpu4" >&2
	exit 1
	;;
esac
case $lane in [4-7] | gpu4) res=$OUT/simgrid9 ;; 8 | 9 | 1[01]) res=$OUT/simgrid10 ;; esac
# lanes of the box alone need no M6 mesh (run_sim_validate.sh asks for a
# file): an empty one where the pack has none
case $lane in
8 | 9 | 1[01]) [ -f "$m6" ] || { m6=/tmp/simgrid10-no-m6.su2 && : >"$m6"; } ;;
esac
mkdir -p "$res"
# the box's mesh in a folder of this lane (run_sim_validate.sh writes the
# case file beside it: two lanes must not share one)
box=/tmp/simgrid8-box$lane
mkdir -p "$box"
[ ! -f "$top/devdata/box120.su2" ] || ln -sf "$top/devdata/box120.su2" "$box/box120.su2"
work=/tmp/simgrid8-lane$lane
rm -rf "$work"
{
	echo "lane $lane (wanted: $want): $(nproc) cores ($(taskset -pc $$ 2>/dev/null | sed 's/.*: //')," \
		"CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-unset}); $(nvidia-smi -L 2>/dev/null | wc -l) GPUs listed;" \
		"$(git rev-parse --short HEAD 2>/dev/null || echo no-git); $(date -u +%H:%M:%S) UTC; mesh $m6"
	nvidia-smi --query-gpu=index,name,utilization.gpu,memory.used --format=csv,noheader 2>/dev/null || true
	uptime
	if [ "$run" = 8gpu ]; then
		# 1, 2 and 4 GPUs (run_sim_8gpu.sh's rows for GPUS=4); the copies
		# between GPUs of the M6's 2 and 4 GPUs as a run sees them (retime)
		GPUS=4 SIM_DEADLINE_S=${SIM_DEADLINE_S:-390} ROW_TIMEOUT=${ROW_TIMEOUT:-150} BOX_DIR=$box \
			TRACE_ROWS=${TRACE:-$trace} TRACE_FROM=${TRACE_FROM:-$from} ROWS=${ROWS:-$rows} \
			PACK=$res/lane$lane.tgz "$top/bench/run_sim_8gpu.sh" "$m6" "$top/device/bin" "$work" || echo "exit $?"
	else
		SIM_HERE=1 SIM_DEADLINE_S=${SIM_DEADLINE_S:-450} ROW_TIMEOUT=${ROW_TIMEOUT:-150} BOX_DIR=$box \
			TRACE_ROWS=${TRACE:-$trace} TRACE_FROM=${TRACE_FROM:-$from} PACK=$res/lane$lane.tgz \
			SIM_ROWS=${ROWS:-$rows} "$top/bench/run_sim_validate.sh" "$m6" "$top/device/bin" 20 "$work" ||
			echo "exit $?"
	fi
	# the archive must come back (under 12 MB, session 19's limit: call 2's
	# lane 1 packed 19 MB, a 4-rank trace, and came back without it): the
	# traces' raw records go first, then the traces, then the calibrations'
	# per-rank folders
	# (session 21: a few MB a lane, 8 files a call)
	max=${MAX_KB:-11000}
	case $lane in 8 | 9 | 1[01]) max=${MAX_KB:-5000} ;; esac
	excl=
	set -f # the patterns go to tar as they are
	for drop in 'data.rec' 'trace' 'rank[0-9]*'; do
		[ ! -f "$res/lane$lane.tgz" ] || [ "$(du -k "$res/lane$lane.tgz" | cut -f1)" -gt "$max" ] || break
		excl="$excl --exclude=$drop"
		echo "lane $lane: the archive is over $max kB: packed again with$excl"
		# shellcheck disable=SC2086 # $excl: options
		tar czf "$res/lane$lane.tgz" --exclude='*.su2' --exclude='*.fvm' --exclude=restart.bin --exclude='*.vtu' \
			--exclude='prof_file*' --exclude='*.data' --exclude='part.*' --exclude=models $excl \
			-C "$(dirname "$work")" "$(basename "$work")"
	done
	set +f
	du -k "$res/lane$lane.tgz"
	uptime
	date -u +%H:%M:%S
} >"$res/lane$lane.txt" 2>&1
tail -n 30 "$res/lane$lane.txt"
