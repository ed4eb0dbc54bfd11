#!/bin/sh
# SPDX-License-Identifier: MIT
# Simulated against measured time per iteration (issue 27, item 4), on a GPU
# machine, one process: for the ONERA M6 medium mesh (its path the first
# argument; cases/onera_m6/onera_m6.cfg) and the 10.37M-cell box
# (bench/box_case.sh, N = 120), in each configuration
#   1gpu      one GPU (runtime.ncuda = 1, runtime.ncpu = 0)
#   gpu+cpu   one GPU and the other cores (runtime.ncuda = 1, ncpu = cores-2)
#   2gpu      two GPUs in one process (runtime.ncuda = 2, ncpu = 0)
#   cpu       CPU workers only (runtime.ncuda = 0, ncpu = cores)
#   2gpu-nochain  the same with numerics.chain = no (the projection's source)
#   2rank     two GPUs as two ranks (mpirun -np 2, one GPU each): calibrated
#             under mpirun (two commands: one pass each; each rank into
#             platform/rank<r>, merged into platform/), measured with
#             mpirun; simulated by fvstar-smpi on a cluster folder of one node
#             with 2 ranks (tools/sim_platform.py cluster) where fvstar-smpi
#             and smpirun are; else (the GPU machine) CASE-2rank/sim.args
#             keeps the simulation's arguments, and on the SimGrid machine
#             bench/run_sim_ranks_here.sh OUTDIR runs it from the folder
#             brought back (RANK_WORKERS, default "runtime.ncuda=1
#             runtime.ncpu=0", the workers of each rank)
# it calibrates a platform folder (fvstar sim calibrate: the bus and every
# model, two passes, then their fits: tools/sim_platform.py fit), measures
# `fvstar run` and `fvstar sim dry` (the simulated graph, for real), runs
# fvstar-sim on the folder, and prints measured against simulated seconds
# per iteration (after the first: --warmup 1) and their difference. Then, from
# the 2-GPU folder without chains, 4 and 8 simulated GPUs (tools/sim_platform.py derive):
# the projection the next 8-GPU machine will check.
# SCHEME=implicit runs the implicit solver (numerics.time = implicit).
# SIM_CASES (default "m6 box10m") and SIM_CONFIGS (default every
# configuration above) choose a part, so that a device call of 10 minutes
# can run it; BOX_N (default 120) the box's size.
# Last, CASE-studies/platform: the 2gpu-nochain folder's bus and models
# merged with the 2rank folder's (the tasks only ranks have among them):
# the PLATFORM of bench/run_sim_studies.sh (copy it back to the SimGrid
# machine).
# MPIRUN (default "mpirun --allow-run-as-root --oversubscribe") starts the
# ranks.
# Usage: bench/run_sim_validate.sh M6_MESH [BUILDDIR] [ITERATIONS] [OUTDIR]
# Needs fvstar-sim in BUILDDIR (configure --with-starpu-simgrid, doc/simgrid.md).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
m6=${1:?usage: bench/run_sim_validate.sh M6_MESH [BUILDDIR] [ITERATIONS] [OUTDIR]}
build=${2:-$top/build}
iters=${3:-20}
out=${4:-${BENCH_TMP:-$(mktemp -d)}}
fv=$build/fvstar
sim=$build/fvstar-sim
py=${PYTHON3:-python3}
[ -x "$sim" ] || { echo "run_sim_validate: no $sim (configure --with-starpu-simgrid)" >&2; exit 1; }
[ -f "$m6" ] || { echo "run_sim_validate: no mesh $m6" >&2; exit 1; }
m6=$(cd "$(dirname "$m6")" && pwd)/$(basename "$m6")
mkdir -p "$out"
cores=$(nproc)
scheme=
[ "${SCHEME:-explicit}" = implicit ] && scheme="numerics.time=implicit"
unset STARPU_NCPU STARPU_NCUDA STARPU_SCHED STARPU_CALIBRATE STARPU_HOSTNAME STARPU_PERF_MODEL_DIR

. "$top/bench/box_case.sh"
cases=${SIM_CASES:-m6 box10m}
configs=${SIM_CONFIGS:-1gpu gpu+cpu 2gpu cpu 2gpu-nochain 2rank}
case " $cases " in *" box10m "*) box_case "$build" "${BOX_N:-120}" "$out" box10m ;; esac
cp "$top/cases/onera_m6/onera_m6.cfg" "$out/m6.cfg"

conf() { # the workers of a configuration
	case $1 in
	1gpu) echo "runtime.ncuda=1 runtime.ncpu=0" ;;
	gpu+cpu) echo "runtime.ncuda=1 runtime.ncpu=$((cores - 2))" ;;
	2gpu) echo "runtime.ncuda=2 runtime.ncpu=0" ;;
	2gpu-nochain) echo "runtime.ncuda=2 runtime.ncpu=0 numerics.chain=no" ;;
	2rank) echo "${RANK_WORKERS:-runtime.ncuda=1 runtime.ncpu=0} numerics.chain=no" ;;
	cpu) echo "runtime.ncuda=0 runtime.ncpu=$cores" ;;
	esac
}
per_iter() { # seconds_per_iteration of a summary.json (fvstar run's or fvstar sim's)
	"$py" -c 'import json, sys; print("%.6f" % json.load(open(sys.argv[1]))["seconds_per_iteration"])' "$1"
}
mpirun=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe}
row() { # case config run dry sim
	printf '%-6s %-8s %12s %12s %12s %8s\n' "$1" "$2" "$3" "$4" "$5" \
		"$(awk -v a="$5" -v b="$4" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%+.1f%%", 100 * (a / b - 1); else print "-" }')"
}
# rank_config CASE DIR WORKERS EXTRA: 2 GPUs as 2 ranks
rank_config() {
	d=$2
	# shellcheck disable=SC2086
	{
		$mpirun -np 2 "$fv" sim calibrate "$out/$1.cfg" --save "$d/platform" --iterations "$iters" $4 $3 $scheme \
			output.dir="$d/o" >"$d.cal.log" 2>&1 &&
			$mpirun -np 2 "$fv" sim calibrate "$out/$1.cfg" --save "$d/platform" --iterations "$iters" $4 $3 $scheme \
				output.dir="$d/o" >>"$d.cal.log" 2>&1 &&
			$mpirun -np 2 "$fv" run "$out/$1.cfg" $4 $3 $scheme numerics.iterations="$iters" numerics.residual_drop=0 \
				output.dir="$d/run" output.vtu=no output.progress_every=0 >"$d.run.log" 2>&1 &&
			$mpirun -np 2 "$fv" sim dry "$out/$1.cfg" --iterations "$iters" $4 $3 $scheme --out "$d/dry" >"$d.dry.log" 2>&1
	} || { echo "$1 2rank: failed, see $d.*.log" >&2; return 0; }
	# the simulation's case, iterations and keys but the mesh's path (the
	# case file's own, or the M6 mesh there): run_sim_ranks_here.sh
	# shellcheck disable=SC2086
	printf '%s\n' "$1" "$iters" $3 $scheme >"$d/sim.args"
	rm -rf "$d/cluster"
	"$py" "$top/tools/sim_platform.py" cluster "$d/platform" "$d/cluster" --nodes 1 --ranks-per-node 2 >/dev/null
	s=-
	if [ -r "$build/fvstar-smpi" ] && command -v smpirun >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		"$fv" sim run "$out/$1.cfg" --platform "$d/cluster" --iterations "$iters" $4 $3 $scheme --out "$d/sim" \
			>"$d.sim.log" 2>&1 && s=$(per_iter "$d/sim/summary.json")
	else
		echo "$1 2rank: no fvstar-smpi or smpirun here: bring $out back to the SimGrid machine and run" \
			"bench/run_sim_ranks_here.sh OUT [BUILDDIR] [WORKDIR] there (M6_MESH=the M6 mesh there)" >&2
	fi
	row "$1" 2rank "$(per_iter "$d/run/summary.json")" "$(per_iter "$d/dry/summary.json")" "$s"
}
printf '%-6s %-8s %12s %12s %12s %8s\n' case config "run s/it" "dry s/it" "sim s/it" "sim/dry"
for case in $cases; do
	extra=
	[ $case = m6 ] && extra="mesh.file=$m6"
	for c in $configs; do
		d=$out/$case-$c
		w=$(conf $c)
		if [ $c = 2rank ]; then
			rank_config "$case" "$d" "$w" "$extra"
			continue
		fi
		# shellcheck disable=SC2086
		{
			"$fv" sim calibrate "$out/$case.cfg" --save "$d/platform" --iterations "$iters" $extra $w $scheme \
				output.dir="$d/o" >"$d.cal.log" 2>&1 &&
				"$fv" run "$out/$case.cfg" $extra $w $scheme numerics.iterations="$iters" numerics.residual_drop=0 \
					output.dir="$d/run" output.vtu=no output.progress_every=0 >"$d.run.log" 2>&1 &&
				"$fv" sim dry "$out/$case.cfg" --iterations "$iters" $extra $w $scheme --out "$d/dry" >"$d.dry.log" 2>&1 &&
				"$sim" sim run "$out/$case.cfg" --platform "$d/platform" --iterations "$iters" $extra $w $scheme \
					--out "$d/sim" >"$d.sim.log" 2>&1
		} || { echo "$case $c: failed, see $d.*.log" >&2; continue; }
		r=$(per_iter "$d/run/summary.json")
		y=$(per_iter "$d/dry/summary.json")
		s=$(per_iter "$d/sim/summary.json")
		printf '%-6s %-8s %12s %12s %12s %8s\n' $case $c "$r" "$y" "$s" "$(awk -v a="$s" -v b="$y" 'BEGIN { printf "%+.1f%%", 100 * (a / b - 1) }')"
	done
	# projection: the 2-GPU calibration without task chains (whose models
	# hold only the calibrated blocks) on 4 and 8 simulated GPUs of the same links
	for g in 4 8; do
		d=$out/$case-2gpu-nochain
		[ -d "$d/platform" ] || continue
		rm -rf "$out/$case-${g}gpu-derived"
		"$py" "$top/tools/sim_platform.py" derive "$d/platform" "$out/$case-${g}gpu-derived" --gpus $g >/dev/null
		# shellcheck disable=SC2086
		"$sim" sim run "$out/$case.cfg" --platform "$out/$case-${g}gpu-derived" --iterations "$iters" $extra \
			runtime.ncpu=0 numerics.chain=no $scheme --out "$out/$case-${g}gpu-sim" >"$out/$case-${g}gpu-sim.log" 2>&1 &&
			printf '%-6s %-8s %12s %12s %12s %8s\n' $case "${g}gpu" - - "$(per_iter "$out/$case-${g}gpu-sim/summary.json")" \
				"(derived)"
	done
done
# the studies' platform: one process's models and the rank-only tasks'
for case in $cases; do
	a=$out/$case-2gpu-nochain/platform b=$out/$case-2rank/platform
	[ -d "$a" ] && [ -d "$b" ] || continue
	rm -rf "$out/$case-studies"
	mkdir -p "$out/$case-studies"
	# the one-process folder's bus and host, both folders' models (the
	# 2-rank one's own: the ranks' merged)
	"$py" "$top/tools/sim_platform.py" merge "$out/$case-studies/platform" "$a" "$b" --quiet >/dev/null
	echo "studies platform: $out/$case-studies/platform (bench/run_sim_studies.sh PLATFORM)"
done
echo "(run: fvstar run's seconds_per_iteration, every iteration; dry and sim: iterations 2.. of fvstar sim; logs and summaries in $out)"
