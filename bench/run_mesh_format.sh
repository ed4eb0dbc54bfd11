#!/bin/sh
# SPDX-License-Identifier: MIT
# Mesh file formats at about 1M cells: a hex box (100^3) and a tet box
# (6 x 55^3), nodes perturbed (full-length coordinates), written as SU2 and
# converted to .fvm and .cgns by `fvstar mesh convert`; then each file read
# R times by bench_mesh read (best and median time, us per cell) beside a
# copy of as many bytes into fresh memory. Prints a Markdown table.
# Usage: bench/run_mesh_format.sh [BUILDDIR] [R]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
reps=${2:-5}
make -C "$build" fvstar bench/bench_mesh >/dev/null
fv=$build/fvstar
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$fv" mesh gen box --cells hex -n 100 --perturb 0.1 -o "$tmp/hex.su2" >/dev/null 2>&1
"$fv" mesh gen box --cells tet -n 55 --perturb 0.1 -o "$tmp/tet.su2" >/dev/null 2>&1
echo "| mesh | format | bytes | bytes/cell | read best s | read median s | us/cell | GB/s | fresh copy of the bytes s | convert (write) s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for m in hex tet; do
	for ext in su2 fvm cgns; do
		w=-
		if [ "$ext" != su2 ]; then
			"$fv" mesh convert "$tmp/$m.su2" -o "$tmp/$m.$ext" 2>"$tmp/err" >/dev/null || { cat "$tmp/err"; continue; }
			w=$(sed -n 's/^fvstar: write: \([0-9.]*\) s.*/\1/p' "$tmp/err")
		fi
		"$build/bench/bench_mesh" read "$tmp/$m.$ext" "$reps" | tail -1 |
			awk -F, -v m="$m" -v e="$ext" -v w="$w" '{ printf "| %s | .%s | %d | %.1f | %.4f | %.4f | %.3f | %.2f | %.4f | %s |\n",
				m, e, $2, $2 / $3, $4, $5, $6, $7, $8, w }'
	done
done
