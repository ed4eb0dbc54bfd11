#!/bin/sh
# SPDX-License-Identifier: MIT
# Set-up time under mpirun on one node against the rank count R, two ways:
#   file   every run reads MESH: rank 0 reads it, cuts it and sends each
#          rank its part (R = 1: one process, no mpirun)
#   parts  `fvstar mesh partition MESH --ranks R` once (timed apart), then
#          each rank reads only its own part file
# For each R: summary.json's set-up seconds (each phase's slowest rank,
# summed, as before session 19; and the slowest rank's own sum of phases,
# the set-up's real length), the phases, the command's wall time, the
# largest single allocation of any rank and the peak memory of the largest
# rank; the two ways must end in the same restart.bin, bit for bit (and
# every R too: the same blocks). The target: set-up falls with R from parts.
# Usage: bench/run_setup_ranks.sh FVSTAR MESH OUTDIR
#   RANKS="1 2 4 8", BLOCKS=32 (every run's block count: a multiple of every R
#   keeps the blocks the same), ITERATIONS=1, CASE=a case file for MESH (else
#   one is written with every marker of MESH far field, Mach 0.5),
#   WORKERS=CPU workers and OpenMP threads per rank (default: cores with one
#   rank; fvstar's own placement with several: cores / R set-up threads and
#   cores / R - 1 workers; WORKERS=share: cores / R of both, as before
#   session 19),
#   GPU=1 to let StarPU use the GPUs (default: CPU workers only, so the
#   set-up is not CUDA's context creation).
# The lead's command on the 16-core GPU host, e.g. from a device pack:
#   bench/run_setup_ranks.sh build/fvstar box96.fvm /tmp/sr
set -eu
[ $# -eq 3 ] || { sed -n 's/^# Usage: /usage: /p' "$0"; exit 2; }
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mesh=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
out=$3
ranks=${RANKS:-1 2 4 8}
nb=${BLOCKS:-32}
iters=${ITERATIONS:-1}
cores=$(nproc)
mkdir -p "$out"
out=$(cd "$out" && pwd)
export STARPU_SILENT=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ "${GPU:-0}" = 1 ] || export STARPU_NCUDA=0

cfg=${CASE:-$out/setup_ranks.cfg}
if [ -z "${CASE:-}" ]; then
	{
		printf '[mesh]\nfile = %s\n[flow]\nmach = 0.5\nalpha = 2\n[bc]\n' "$mesh"
		"$fv" mesh info "$mesh" 2>/dev/null | awk '/^markers:/ { on = 1; next } on && /^  [^ ]/ { print $1 " = farfield"; next } { on = 0 }'
		printf '[output]\nvtu = no\nprogress_every = 0\n'
	} >"$cfg"
	grep -q "= farfield" "$cfg" || { echo "no markers in $mesh (fvstar mesh info)"; exit 1; }
fi

# run R WAY DIR MESHFILE: fvstar run on R ranks; the wall time in DIR.wall
run() {
	r=$1
	d=$out/$2$1
	w=${WORKERS:-share}
	[ "$w" = share ] && w=$((cores / r > 0 ? cores / r : 1))
	rm -rf "$d"
	t0=$(date +%s.%N)
	if [ "$r" = 1 ]; then
		OMP_NUM_THREADS=$w STARPU_NCPU=$w "$fv" run "$cfg" output.dir="$d" mesh.file="$3" partition.blocks="$nb" \
			numerics.iterations="$iters" numerics.residual_drop=0 >/dev/null 2>"$d.err"
	elif [ -n "${WORKERS:-}" ]; then
		mpirun --oversubscribe --bind-to none -np "$r" -x OMP_NUM_THREADS="$w" -x STARPU_NCPU="$w" -x STARPU_SILENT \
			${STARPU_NCUDA:+-x STARPU_NCUDA} "$fv" run "$cfg" output.dir="$d" mesh.file="$3" partition.blocks="$nb" \
			numerics.iterations="$iters" numerics.residual_drop=0 >/dev/null 2>"$d.err"
	else
		# fvstar's placement: each rank its share c of the cores, c set-up
		# threads and c - 1 CPU workers (the last core StarPU-MPI's
		# thread: workers on every core of a rank starve it; before
		# session 19 this script asked for c workers)
		mpirun --oversubscribe --bind-to none -np "$r" -x STARPU_SILENT ${STARPU_NCUDA:+-x STARPU_NCUDA} "$fv" run \
			"$cfg" output.dir="$d" mesh.file="$3" partition.blocks="$nb" numerics.iterations="$iters" \
			numerics.residual_drop=0 >/dev/null 2>"$d.err"
	fi || { echo "$2, $r ranks failed:"; tail -3 "$d.err"; exit 1; }
	awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { print a - b }' >"$d.wall"
}

echo "# $cores cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); $(basename "$mesh"), $nb blocks, $iters iteration(s); $("$fv" --version 2>/dev/null | head -1)"
echo
echo "| R | way | partition s | set-up s (each phase's slowest rank) | slowest rank's set-up s | mesh | blocks | state | solver | wall s | largest alloc MiB | peak MiB (largest rank) | restart |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
first=
for r in $ranks; do
	run "$r" file "$mesh"
	t0=$(date +%s.%N)
	rm -rf "$out/cut$r"
	OMP_NUM_THREADS=$cores "$fv" mesh partition "$mesh" --ranks "$r" --blocks "$nb" -o "$out/cut$r" \
		>/dev/null 2>"$out/cut$r.err" || { tail -3 "$out/cut$r.err"; exit 1; }
	pt=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')
	run "$r" parts "$out/cut$r"
	[ -n "$first" ] || first=$out/file$r/restart.bin
	for way in file parts; do
		d=$out/$way$r
		same=same
		cmp -s "$first" "$d/restart.bin" || same=DIFFERS
		python3 - "$d/summary.json" "$r" "$way" "$([ "$way" = parts ] && echo "$pt" || echo -)" "$(cat "$d.wall")" "$same" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
su = s.get("setup_seconds_max_over_ranks", s["setup_seconds"])
# the slowest rank's own sum (since session 19: summary.json's
# setup_seconds_per_rank), not the sum of each phase's slowest rank
own = max((sum(v for k, v in r.items() if k != "total") for r in s.get("setup_seconds_per_rank", [])),
          default=s["setup_seconds"]["total"])
peak = max(s["ranks"]["peak_memory_mib"]) if "ranks" in s else s.get("peak_memory_mib", 0)
big = max(s["largest_allocation"]["bytes"]) / 2**20
print("| %s | %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.0f | %s |" % (
    sys.argv[2], sys.argv[3], sys.argv[4], su["total"], own, su["mesh"], su["blocks"], su["state"], su["solver"],
    float(sys.argv[5]), big, peak, sys.argv[6]))
PY
	done
done
# rank 0's cut from the mesh file: on how many threads (every core of the
# node since session 18, its share before)
for r in $ranks; do
	python3 -c 'import json, sys
n = json.load(open(sys.argv[1])).get("setup_steps", {}).get("blocks: partition", {}).get("note")
n and print("- file, %s ranks: %s" % (sys.argv[2], n))' "$out/file$r/summary.json" "$r"
done
