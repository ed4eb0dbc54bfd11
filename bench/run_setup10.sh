#!/bin/sh
# SPDX-License-Identifier: MIT
# Session 21's set-up measurements (issue 25, T5; bench/results/2026-12-03-setup10.md):
#   order  (one GPU, about 1.5 min) the 10.37M tet box (6 x 120^3) set up
#          and iterated ITERATIONS_10M (default 40) times under each cell
#          ordering of ORDERS_10M (default "auto rcm chain18 chunks"):
#          auto (this branch's default: Cuthill-McKee in pieces of 2^20
#          cells of the centroids' Hilbert order, chained from piece to
#          piece, for blocks of 2^22 cells and more), rcm (RCM of the whole
#          block on all threads after a trial, the default before),
#          chain18 (chained pieces of 2^18 cells), chunks (independent RCM
#          pieces of 2^18 cells, session 17's);
#          the table of bench/run_bigmesh.sh's setup step: every set-up
#          step's seconds and the steady ms per iteration (the GPU loop's
#          cost of each order)
#   big    (one GPU, about 2.5 min) T5: bench/run_bigmesh.sh at CELLS, by
#          default 10^8 where every GPU has over 100 GB (H200), else
#          98,300,000 (10^8 does not fit an H100 80GB), this branch's
#          default order, 10 iterations (set-up seconds by step, ms per
#          iteration); BIG_VARIANTS (default base: bench/run_bigmesh.sh's
#          variants, e.g. "base rcm+rcmall" for the GPU loop of the chained
#          order against whole-block RCM on all threads at 10^8 cells) and
#          BIG_ITERATIONS (default 10) change it
# Usage: bench/run_setup10.sh FVSTAR OUT_DIR
# Environment: STEPS (default "order big"), CELLS, CELLS_10M (the order
# step's box, default 10368000; small to try the script on a CPU), RUN_TIMEOUT (a run's
# limit, default 170 s).
# The lane of call 2 (one GPU + 16 cores, under 5 minutes):
#   mkdir -p "$OUT/setup10" && CUDA_VISIBLE_DEVICES=N sh bench/run_setup10.sh device/bin/fvstar /tmp/s10lane > "$OUT/setup10/lane.txt" 2>&1
set -u
[ $# -ge 2 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)
steps=${STEPS:-order big}
t0=$(date +%s)
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
echo "# fvstar $("$fv" --version 2>/dev/null | head -1); $(nproc) cores; $(date -u +%H:%M:%S) UTC; steps: $steps"
command -v nvidia-smi >/dev/null && nvidia-smi -L
echo "load: $(cat /proc/loadavg)"
if has order; then
	echo
	echo "# order: the 10.37M box under each ordering (${ORDERS_10M:-auto rcm chain18 chunks})"
	STEPS="gen setup" VARIANTS="${ORDERS_10M:-auto rcm chain18 chunks}" SETUP_ITERATIONS=${ITERATIONS_10M:-40} \
		RUN_TIMEOUT=${RUN_TIMEOUT:-170} sh "$top/bench/run_bigmesh.sh" "$fv" "$out/m10" "${CELLS_10M:-10368000}" |
		sed -n '/^## setup/,$p'
	grep -h "^fvstar: set-up step renumber: order" "$out/m10"/setup_*.err 2>/dev/null
	rm -rf "$out/m10/box.fvm" "$out/m10"/setup_*/restart.bin
	echo "# order done at $(($(date +%s) - t0)) s"
fi
if has big; then
	cells=${CELLS:-}
	mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits 2>/dev/null | sort -n | head -1)
	[ -n "$cells" ] || cells=$([ "${mib:-0}" -gt 100000 ] && echo 100000000 || echo 98300000)
	echo
	echo "# big: T5 at $cells cells (GPU memory ${mib:-?} MiB), this branch's default order"
	STEPS="gen setup" VARIANTS="${BIG_VARIANTS:-base}" SETUP_ITERATIONS=${BIG_ITERATIONS:-10} RUN_TIMEOUT=${RUN_TIMEOUT:-170} \
		sh "$top/bench/run_bigmesh.sh" "$fv" "$out/big" "$cells" | sed -n '/^## setup/,$p'
	grep -h "^fvstar: set-up step renumber: order" "$out/big"/setup_*.err 2>/dev/null
	rm -rf "$out/big/box.fvm" "$out/big"/setup_*/restart.bin
fi
echo
echo "# done in $(($(date +%s) - t0)) s"
