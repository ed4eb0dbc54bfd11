#!/bin/sh
# SPDX-License-Identifier: MIT
# What StarPU-MPI costs on one node: the same run (a perturbed tet box of
# 6 N^3 cells, or CASE.cfg, in B blocks) as R ranks x W CPU workers for each
# RxW given, against 1 rank x W workers without mpirun; prints seconds per
# iteration, the overhead over the first configuration, and checks that
# every configuration ends in the same state (restart.bin) bit for bit.
# GPU=1: no CPU worker, every rank on the GPU(s) (local rank l on GPU l mod
# n: 2 ranks share a single GPU), configurations R only (e.g. "1 2").
# mpirun runs with --bind-to none: fvstar places each local rank's workers
# on cores of its own (doc/commands.md, Running on several ranks).
# Usage: bench/run_ranks.sh [BUILDDIR] [N|CASE.cfg] [B] [ITERATIONS] [RxW ...]
#   e.g. bench/run_ranks.sh build 55 32 20 1x16 2x8 4x4      (1M cells)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
n=${2:-55}
nb=${3:-32}
iters=${4:-20}
shift 4 2>/dev/null || shift $#
configs=${*:-1x2 2x1}
tmp=${BENCH_TMP:-$(mktemp -d)}
mkdir -p "$tmp"
case $n in
*.cfg) cfg=$n ;;
*)
	. "$top/bench/box_case.sh"
	box_case "$build" "$n" "$tmp" bench
	cfg=$tmp/bench.cfg
	;;
esac
export STARPU_SILENT=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
first=
for c in $configs; do
	r=${c%x*}
	w=${c#*x}
	[ "${GPU:-0}" = 1 ] && w=0
	d="$tmp/r$c"
	if [ "$r" = 1 ]; then
		STARPU_NCPU=$w "$build/fvstar" run "$cfg" output.dir="$d" partition.blocks="$nb" numerics.iterations="$iters" \
			numerics.residual_drop=0 >/dev/null 2>"$d.err" || { tail -3 "$d.err"; exit 1; }
	else
		mpirun --oversubscribe --bind-to none -np "$r" -x STARPU_NCPU="$w" -x STARPU_SILENT "$build/fvstar" run "$cfg" \
			output.dir="$d" partition.blocks="$nb" numerics.iterations="$iters" numerics.residual_drop=0 \
			>/dev/null 2>"$d.err" || { tail -3 "$d.err"; exit 1; }
	fi
	python3 - "$d/summary.json" "$c" "${first:+$tmp/r$first/summary.json}" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
line = "%s: %d cells, %d blocks, %.4f s/iteration, %.1f ns/cell/RK stage" % (
    sys.argv[2], s["mesh"]["cells"], s["partition"]["blocks"], s["seconds_per_iteration"], s["ns_per_cell_per_stage"])
if "ranks" in s:
    line += ", %d of %d halo cells cross ranks, peak memory per rank %s MiB" % (
        s["ranks"]["halo_cells_between_ranks"], s["ranks"]["halo_cells_between_blocks"],
        "/".join("%.0f" % m for m in s["ranks"]["peak_memory_mib"]))
if len(sys.argv) > 3 and sys.argv[3]:
    base = json.load(open(sys.argv[3]))["seconds_per_iteration"]
    line += ", %+.1f %% over the first" % (100 * (s["seconds_per_iteration"] / base - 1))
print(line)
PY
	if [ -n "$first" ]; then
		cmp -s "$tmp/r$first/restart.bin" "$d/restart.bin" || echo "$c: the state differs from $first's"
	else
		first=$c
	fi
done
