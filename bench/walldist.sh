#!/bin/sh
# SPDX-License-Identifier: MIT
# Wall distance benchmark: `fvstar mesh walldist` on generated boxes, on 1
# thread and on every core; prints the runs and writes a Markdown table to
# bench/results/DATE-walldist.md (the mesh build is timed apart, on stderr).
# Usage: bench/walldist.sh [BUILDDIR] [N]   (N: hex blocks per side, default
# 200: 8M hexahedra, about 5 GB resident; the tet case uses 6 (N/2)^3 cells)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
n=${2:-200}
make -C "$build" fvstar >/dev/null
cores=$(nproc)
date=$(date +%F)
res="$top/bench/results/$date-walldist.md"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# case: a label, then the mesh and wall arguments of fvstar mesh walldist
run_case() {
	label=$1
	shift
	for t in 1 $cores; do
		echo "fvstar mesh walldist $* --threads $t" >&2
		"$build/fvstar" mesh walldist "$@" --threads "$t" | tee "$tmp"
		# wall distance: C cells, W wall faces (M), threads T: S s, R cells/s
		sed -n 's/^wall distance: \([0-9]*\) cells, \([0-9]*\) wall faces (\([^)]*\)), threads \([0-9]*\): \([0-9.]*\) s, \([0-9.e+]*\) cells\/s$/| '"$label"' | \1 | \2 (\3) | \4 | \5 | \6 |/p' "$tmp" >>"$res"
	done
}

{
	echo "# Wall distance: BVH of the wall triangles, pthreads over cells ($date)"
	echo
	echo "- machine: $(uname -m), nproc $cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
	echo "- memory: $(free -g | awk '/Mem:/ {print $2}') GiB; $(gcc --version | head -1), -O2"
	echo "- command: bench/walldist.sh $build $n (fvstar mesh walldist box ... --threads T)"
	echo "- time: fv_wall_distance alone (wall triangles, tree, all cells); not the mesh"
	echo
	echo "| case | cells | wall faces | threads | seconds | cells/s |"
	echo "|---|---|---|---|---|---|"
} >"$res"
run_case "hex box, wall ymin" box -n "$n" --wall ymin
run_case "hex box, all six walls" box -n "$n" --wall xmin,xmax,ymin,ymax,zmin,zmax
run_case "perturbed tet box, walls ymin,xmin,zmax" box --cells tet -n $((n / 2)) --perturb 0.2 --wall ymin,xmin,zmax
echo "wrote $res" >&2
