#!/bin/sh
# SPDX-License-Identifier: MIT
# Mesh pipeline benchmark for ~1M and ~10M tets (generated, written as SU2,
# read back): prints CSV and writes bench/results/DATE-mesh-pipeline.md.
# Usage: bench/run_mesh_bench.sh [BUILDDIR] [N ...]   (N: blocks per side)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
[ $# -gt 0 ] && shift
sizes=${*:-55 119}
make -C "$build" bench/bench_mesh >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
date=$(date +%F)
res="$top/bench/results/$date-mesh-pipeline.md"
{
	echo "# Mesh pipeline: read, connectivity, geometry, checks ($date)"
	echo
	echo "- machine: $(uname -m), $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
	echo "- memory: $(free -g | awk '/Mem:/ {print $2}') GiB; one core, $(gcc --version | head -1), -O2"
	echo "- command: bench/run_mesh_bench.sh (bench_mesh gen N, then bench_mesh load in a new process)"
	echo "- mesh: tet box, 6 N^3 cells, interior nodes perturbed by 0.1 spacing, written as SU2 ASCII"
	echo
	echo "| cells | faces | SU2 size | read s | faces s | node-cells s | geometry s | checks s | connectivity+geometry us/cell | RSS after read B/cell | RSS final B/cell | peak RSS B/cell |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$res"
for n in $sizes; do
	"$build/bench/bench_mesh" gen "$n" "$tmp/box.su2"
	size=$(du -h "$tmp/box.su2" | cut -f1)
	"$build/bench/bench_mesh" load "$tmp/box.su2" | tee "$tmp/out.csv"
	tail -1 "$tmp/out.csv" | awk -F, -v s="$size" '{printf "| %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, s, $4, $5, $6, $7, $8, $9, $10, $11, $12}' >>"$res"
	rm -f "$tmp/box.su2"
done
echo "wrote $res"
