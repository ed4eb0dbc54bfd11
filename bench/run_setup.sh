#!/bin/sh
# SPDX-License-Identifier: MIT
# Set-up time per phase against the thread count, one markdown table. For
# each thread count T (OMP_NUM_THREADS):
#   bench_mesh setup MESH B P: the phases before the solver, each timed
#   alone (read, faces, node cells, geometry, checks, partitioner P into B
#   blocks, renumbering, blocks' local meshes, rank 0's part);
#   `fvstar run CASE` for 1 iteration: summary.json's setup_seconds (mesh,
#   StarPU, blocks, state, solver, total),
# with us per cell after each of the two.
# Usage: bench/run_setup.sh [BUILDDIR] [N | MESH] [BLOCKS]
#   N      a perturbed tet box of 6 N^3 cells (SU2, made once), run with
#          bench/box_case.sh's case (default 64)
#   MESH   a mesh file (.su2, .fvm, .msh, .cgns), run with CASE
#   BLOCKS partition.blocks of the run (default 16); 0: the run's own count
#          (one block per GPU when only GPUs work), bench_mesh then cuts 1
# Environment:
#   THREADS="1 2 4 8 16"  REPEAT=1 (best of, by the run's total)
#   CASE        the case for MESH (its mesh.file replaced on the command line)
#   RUN_ENV     the workers of the run (default STARPU_NCUDA=0; GPUs alone:
#               STARPU_NCPU=0)
#   PARTITIONER metis (default), scotch, linear, hilbert or rcb: both sides
#   KEYS        more key=value for the run
#   FVSTAR, BENCH_MESH  other builds' programs (a baseline)
# On the GPU host, the M6 medium from .fvm and SU2 with 1 and 16 threads
# (the lead's device pack; m6.su2 unpacked there):
#   for f in m6.fvm m6.su2; do THREADS="1 16" REPEAT=2 RUN_ENV=STARPU_NCPU=0 \
#     CASE=cases/onera_m6/onera_m6.cfg bench/run_setup.sh build $f 0; done
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
arg=${2:-64}
nb=${3:-16}
threads=${THREADS:-1 2 4 8 16}
repeat=${REPEAT:-1}
fv=${FVSTAR:-$build/fvstar}
bm=${BENCH_MESH:-$build/bench/bench_mesh}
run_env=${RUN_ENV:-STARPU_NCUDA=0}
pt=${PARTITIONER:-metis}
[ -x "$bm" ] || make -C "$build" bench/bench_mesh >/dev/null
tmp=${TMPDIR:-/tmp}/fvstar-setup-$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
if [ -f "$arg" ]; then
	mesh=$(cd "$(dirname "$arg")" && pwd)/$(basename "$arg")
	[ -n "${CASE:-}" ] || { echo "run_setup.sh: MESH $arg needs CASE=case.cfg" >&2; exit 2; }
	cfg=$tmp/case.cfg
	cp "$CASE" "$cfg"
	what="$(basename "$mesh")"
else
	. "$top/bench/box_case.sh"
	box_case "$(dirname "$fv")" "$arg" "$tmp" box
	mesh=$tmp/box$arg.su2
	cfg=$tmp/box.cfg
	what="tet box, $((6 * arg * arg * arg)) cells"
fi
bnb=$nb
[ "$nb" -gt 0 ] || bnb=1
blocks_key=
[ "$nb" -eq 0 ] || blocks_key=partition.blocks=$nb
echo "# $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); mesh: $what; blocks: $nb (bench_mesh $bnb), partitioner $pt, $run_env; best of $repeat"
echo
echo "| threads | read | faces | node cells | geometry | checks | $pt | renumber | blocks | part | sum | us/cell | peak B/cell | run: mesh | StarPU | blocks | state | solver | set-up | us/cell |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for t in $threads; do
	best=
	bestrun=
	i=0
	while [ $i -lt "$repeat" ]; do
		row=$(OMP_NUM_THREADS=$t "$bm" setup "$mesh" "$bnb" "$pt" | tail -1)
		tot=$(echo "$row" | cut -d, -f12)
		if [ -z "$best" ] || awk -v a="$tot" -v b="$(echo "$best" | cut -d, -f12)" 'BEGIN { exit !(a < b) }'; then
			best=$row
		fi
		rm -rf "$tmp/out"
		# shellcheck disable=SC2086
		env OMP_NUM_THREADS="$t" $run_env "$fv" run "$cfg" mesh.file="$mesh" numerics.iterations=1 \
			output.vtu=no output.restart_every=0 partition.partitioner="$pt" $blocks_key output.dir="$tmp/out" \
			${KEYS:-} >"$tmp/run.log" 2>&1 || { tail -5 "$tmp/run.log" >&2; exit 1; }
		su=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["setup_seconds"]["total"])' \
			"$tmp/out/summary.json")
		if [ -z "$bestrun" ] || awk -v a="$su" -v b="$bestsu" 'BEGIN { exit !(a < b) }'; then
			bestrun=$(cat "$tmp/out/summary.json")
			bestsu=$su
		fi
		i=$((i + 1))
	done
	echo "$bestrun" | python3 -c '
import json, sys
row = sys.argv[1].split(",")
s = json.load(sys.stdin)
ph, n = s["setup_seconds"], s["mesh"]["cells"]
run = [ph[k] for k in ("mesh", "starpu", "blocks", "state", "solver", "total")]
print("| %s | %s | %s | %.2f | %s | %s | %.2f |" % (row[0], " | ".join(row[2:11]), row[11], float(row[12]), row[13],
      " | ".join("%.2f" % v for v in run), 1e6 * ph["total"] / n))
' "$best"
done
