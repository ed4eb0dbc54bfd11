#!/bin/sh
# SPDX-License-Identifier: MIT
# Set-up time per phase against the thread count: a perturbed tet box of
# 6 N^3 cells (made once, SU2), then for each thread count T
#   bench_mesh setup (read, faces, node cells, geometry, checks, METIS,
#   renumbering, blocks, rank 0's part), and `fvstar run` for 1 iteration on
#   CPU workers (its set-up line: mesh, StarPU, blocks, state, solver),
# printed as one markdown table, µs per cell at the end of each row.
# Usage: bench/run_setup.sh [BUILDDIR] [N] [BLOCKS]   (defaults: build 64 16)
#   THREADS="1 2 4 8 16" (OMP_NUM_THREADS of each row), REPEAT=1 (best of),
#   FVSTAR=path to another fvstar and BENCH_MESH to another bench_mesh
#   (a baseline build).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
n=${2:-64}
nb=${3:-16}
threads=${THREADS:-1 2 4 8 16}
repeat=${REPEAT:-1}
fv=${FVSTAR:-$build/fvstar}
bm=${BENCH_MESH:-$build/bench/bench_mesh}
[ -x "$bm" ] || make -C "$build" bench/bench_mesh >/dev/null
tmp=${TMPDIR:-/tmp}/fvstar-setup-$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
mesh=$tmp/box$n.su2
. "$(dirname "$0")/box_case.sh"
box_case "$(dirname "$fv")" "$n" "$tmp" box
echo "restart_every = 0" >>"$tmp/box.cfg"
echo "# $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); mesh: tet box, $(( 6 * n * n * n )) cells, $nb blocks; best of $repeat"
echo
echo "| threads | read | faces | node cells | geometry | checks | METIS | renumber | blocks | part | sum | us/cell | peak B/cell | run: mesh | blocks | state | solver | set-up | us/cell |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for t in $threads; do
	best=
	bestrun=
	i=0
	while [ $i -lt "$repeat" ]; do
		row=$(OMP_NUM_THREADS=$t "$bm" setup "$mesh" "$nb" | tail -1)
		tot=$(echo "$row" | cut -d, -f12)
		if [ -z "$best" ] || awk -v a="$tot" -v b="$(echo "$best" | cut -d, -f12)" 'BEGIN { exit !(a < b) }'; then
			best=$row
		fi
		line=$(OMP_NUM_THREADS=$t STARPU_NCUDA=0 "$fv" run "$tmp/box.cfg" numerics.iterations=1 \
			partition.blocks="$nb" output.dir="$tmp/out" 2>&1 | grep 'set-up [0-9.]* s:' || true)
		su=$(echo "$line" | sed -n 's/.*set-up \([0-9.]*\) s.*/\1/p')
		if [ -n "$su" ] && { [ -z "$bestrun" ] || awk -v a="$su" -v b="$(echo "$bestrun" | sed -n 's/.*set-up \([0-9.]*\) s.*/\1/p')" 'BEGIN { exit !(a < b) }'; }; then
			bestrun=$line
		fi
		i=$((i + 1))
	done
	echo "$best" | awk -F, -v run="$bestrun" -v cells=$(( 6 * n * n * n )) '{
		split("", r)
		if (match(run, /set-up [0-9.]+/)) r["su"] = substr(run, RSTART + 7, RLENGTH - 7)
		if (match(run, /mesh [0-9.]+/)) r["mesh"] = substr(run, RSTART + 5, RLENGTH - 5)
		if (match(run, /blocks [0-9.]+/)) r["blocks"] = substr(run, RSTART + 7, RLENGTH - 7)
		if (match(run, /state [0-9.]+/)) r["state"] = substr(run, RSTART + 6, RLENGTH - 6)
		if (match(run, /solver [0-9.]+/)) r["solver"] = substr(run, RSTART + 7, RLENGTH - 7)
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2f |\n",
			$1, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
			r["mesh"], r["blocks"], r["state"], r["solver"], r["su"], 1e6 * r["su"] / cells }'
done
