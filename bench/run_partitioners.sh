#!/bin/sh
# SPDX-License-Identifier: MIT
# The partitioners against each other on one mesh, one markdown table:
# for each partitioner P, bench_mesh cut (P's wall and CPU seconds, edge
# cut, ghost cells of all blocks and of the largest block's halo) and
# `fvstar run CASE` with partition.partitioner = P, explicit (time =
# steady), ITERS iterations: seconds per iteration from summary.json (best
# of REPEAT) and the run's set-up.
# Usage: bench/run_partitioners.sh [BUILDDIR] MESH CASE [BLOCKS]   (blocks: 2)
# Environment: PARTITIONERS="metis rcb hilbert", ITERS=20, REPEAT=2,
#   RUN_ENV (default STARPU_NCUDA=0 STARPU_NCPU=2: two CPU workers; two
#   GPUs: STARPU_NCPU=0 on a 2-GPU host), KEYS (more key=value), FVSTAR,
#   BENCH_MESH.
# On a 2-GPU host, the M6 medium (the lead's device pack):
#   RUN_ENV=STARPU_NCPU=0 bench/run_partitioners.sh build m6.fvm cases/onera_m6/onera_m6.cfg 2
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
mesh=$2
case_file=$3
nb=${4:-2}
fv=${FVSTAR:-$build/fvstar}
bm=${BENCH_MESH:-$build/bench/bench_mesh}
run_env=${RUN_ENV:-STARPU_NCUDA=0 STARPU_NCPU=2}
iters=${ITERS:-20}
repeat=${REPEAT:-2}
[ -x "$bm" ] || make -C "$build" bench/bench_mesh >/dev/null
tmp=${TMPDIR:-/tmp}/fvstar-partitioners-$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
mesh=$(cd "$(dirname "$mesh")" && pwd)/$(basename "$mesh")
# the case made explicit: the implicit scheme's keys out (time and cfl
# come from the command line)
sed -e '/^time *=\|^cfl *=\|^cfl_max\|^cfl_ramp\|^cfl_growth\|^first_order\|^limiter_freeze_drop\|^sweeps\|^implicit *=/d' \
	"$case_file" >"$tmp/case.cfg"
echo "# $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); mesh $(basename "$mesh"), $nb blocks, $run_env, explicit, $iters iterations, best of $repeat"
echo
echo "| partitioner | cut s (wall) | cut s (CPU) | edge cut | ghost cells | largest block's ghosts | s/iteration | set-up s |"
echo "|---|---|---|---|---|---|---|---|"
for p in ${PARTITIONERS:-metis rcb hilbert}; do
	cut=$("$bm" cut "$mesh" "$nb" "$p" | tail -1)
	best=
	i=0
	while [ $i -lt "$repeat" ]; do
		rm -rf "$tmp/out"
		# shellcheck disable=SC2086
		env $run_env "$fv" run "$tmp/case.cfg" mesh.file="$mesh" numerics.time=steady numerics.cfl=1.5 \
			numerics.iterations="$iters" output.vtu=no output.restart_every=0 partition.blocks="$nb" \
			partition.partitioner="$p" output.dir="$tmp/out" ${KEYS:-} >"$tmp/run.log" 2>&1 ||
			{ tail -5 "$tmp/run.log" >&2; exit 1; }
		row=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))
print("%.4f %.2f" % (s["seconds_per_iteration"], s["setup_seconds"]["total"]))' "$tmp/out/summary.json")
		if [ -z "$best" ] || awk -v a="${row% *}" -v b="${best% *}" 'BEGIN { exit !(a < b) }'; then
			best=$row
		fi
		i=$((i + 1))
	done
	echo "$cut" | awk -F, -v run="$best" '{ split(run, r, " ");
		printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $4, $5, $6, $8, $9, r[1], r[2] }'
done
