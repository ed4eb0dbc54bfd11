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
#   Ngpu, Ngpu-nochain  N GPUs in one process, as 2gpu (an 8-GPU node:
#             bench/run_sim_8gpu.sh)
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
# SCHEME=implicit runs the implicit solver (numerics.time = implicit), else
# explicit (numerics.time = steady: the M6 case file itself is implicit).
# SIM_CASES (default "m6 box10m") and SIM_CONFIGS (default every
# configuration above) choose a part, so that a device call of 10 minutes
# can run it; BOX_N (default 120) the box's size.
# Last, CASE-studies/platform: the 2gpu-nochain folder's bus and models
# merged with the 2rank folder's (the tasks only ranks have among them):
# the PLATFORM of bench/run_sim_studies.sh (copy it back to the SimGrid
# machine).
# MPIRUN (default "mpirun --allow-run-as-root --oversubscribe") starts the
# ranks, with --bind-to none: fvstar gives each local rank its share of
# mpirun's cores (those of a `taskset` around this script included;
# src/runtime/runtime.c, place_rank).
# gpu+cpu gives the CPU workers no cells unless the models say they add
# 25 % (balance = speed; on 2 H200s the 30 CPU workers held none: a GPU-only
# graph under dmdas); gpu+cpu-equal (runtime.balance = equal: equal blocks
# that dmdas places on either kind; not run on a GPU yet) puts work on them.
# More configurations: cpu16 (16 CPU workers, one process), cpu16-2rank
# and cpu16-4rank (the same 16 cores as 2 or 4 ranks of 8 or 4 CPU workers
# under mpirun; one worker fewer per rank where the node has fewer than 32
# cores, that core left to the rank's StarPU-MPI thread); generally cpuC,
# cpuC-Lrank and Lrank (L ranks of one GPU each).
# SIM_ROWS (in place of SIM_CASES x SIM_CONFIGS x SCHEME): rows
# CASE:SCHEME:CONFIG[:ITERATIONS[:CAL_ITERS[:CAL_WARMUP]]], run in that
# order (SCHEME explicit or implicit; ITERATIONS the row's own, else
# ITERATIONS; CAL_ITERS and CAL_WARMUP the row's own, else as below), each into
# OUTDIR/TAG-CONFIG (TAG: CASE, or CASE-impl when implicit).
# SIM_BUDGET_S: no row starts once that many seconds have passed (a device
# call's budget; the rows left are listed). CAL_WARMUP: the calibration's
# warm-up (--warmup; default fvstar's, 2). NO_RUN=1: no `fvstar run` (the
# validation compares with the dry run; "-" in the run column: the rows
# of 10^7 cells on CPUs, 15 s an iteration). CAL_ITERS: the calibration's
# iterations (default the row's, and never more). ROW_TIMEOUT (default 600): seconds per
# command. SIM_HERE=1: nothing simulated here (no fvstar-sim needed: the
# GPU machine); every row leaves TAG-CONFIG/sim.args and ranks, from which
# bench/run_sim_ranks_here.sh simulates them all on the SimGrid machine and
# prints the table. BOX_DIR (default OUTDIR): where the box's mesh is made
# (out of a folder that travels). PACK=FILE.tgz: OUTDIR packed into it at
# the end, meshes, the runs' restart files and StarPU's profiling files left out.
# SIM_DEADLINE_S: every command is cut so that none runs past that many
# seconds from the start (the rows then not run are listed; PACK still
# runs): a device call of fixed length. The first row's calibration measures the bus
# (OUTDIR/bus-seed); the later rows' calibrations start from a copy.
# TRACE_ROWS ("TAG:CONFIG ...", TAG as above, e.g. "m6:gpu+cpu-equal"):
# those rows add a dry run traced from iteration TRACE_FROM (default 4;
# TRACE_FROM_ROWS="TAG:CONFIG=N ..." a row's own) into TAG-CONFIG/trace, and bench/sim_transfers.py's view of its
# transfers against the calibrated bus (TAG-CONFIG.transfers.txt, and on
# stderr; TAG-CONFIG.transfers.json for sim_platform.py retime:
# run_sim_ranks_here.sh RETIME).
# Rows of L ranks also run `fvstar sim dry --norms-apart` (TAG-CONFIG/
# dry-apart: no collective of the residual rows per iteration, which
# simulated ranks do not do either): the "apart" column (NO_APART=1: not
# run, a command less a row of ranks: the box's 10^7 cells on CPUs, where
# one collective an iteration of 1 to 15 s is nothing). fvstar run and sim
# dry read the calibrated models with STARPU_CALIBRATE_MINIMUM=1, as the
# simulation does (dmdas places by a footprint's mean from one sample on,
# not only from 10: gpu+cpu-equal rows).
# Usage: bench/run_sim_validate.sh M6_MESH [BUILDDIR] [ITERATIONS] [OUTDIR]
# Needs fvstar-sim in BUILDDIR (configure --with-starpu-simgrid, doc/simgrid.md)
# unless SIM_HERE=1.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
m6=${1:?usage: bench/run_sim_validate.sh M6_MESH [BUILDDIR] [ITERATIONS] [OUTDIR]}
build=${2:-$top/build}
iters=${3:-20}
out=${4:-${BENCH_TMP:-$(mktemp -d)}}
fv=$build/fvstar
sim=$build/fvstar-sim
py=${PYTHON3:-python3}
here=${SIM_HERE:-0}
[ "$here" = 1 ] || [ -x "$sim" ] ||
	{ echo "run_sim_validate: no $sim (configure --with-starpu-simgrid; or SIM_HERE=1)" >&2; exit 1; }
[ -f "$m6" ] || { echo "run_sim_validate: no mesh $m6" >&2; exit 1; }
m6=$(cd "$(dirname "$m6")" && pwd)/$(basename "$m6")
mkdir -p "$out"
out=$(cd "$out" && pwd)
boxdir=${BOX_DIR:-$out}
mkdir -p "$boxdir"
cores=$(nproc)
budget=${SIM_BUDGET_S:-0}
tmo=${ROW_TIMEOUT:-600}
deadline=${SIM_DEADLINE_S:-0}
started=$(date +%s)
left_s() { # seconds to the deadline (a large number without one)
	if [ "$deadline" -gt 0 ]; then echo $((started + deadline - $(date +%s))); else echo 1000000; fi
}
cmd_tmo() { # the next command's time limit: ROW_TIMEOUT, less near the deadline
	_lt=$(left_s)
	if [ "$_lt" -lt "$tmo" ]; then
		[ "$_lt" -gt 1 ] && echo "$_lt" || echo 1
	else
		echo "$tmo"
	fi
}
unset STARPU_NCPU STARPU_NCUDA STARPU_SCHED STARPU_CALIBRATE STARPU_HOSTNAME STARPU_PERF_MODEL_DIR

. "$top/bench/box_case.sh"
boxn=${BOX_N:-120}
if [ -z "${SIM_ROWS:-}" ]; then
	for case in ${SIM_CASES:-m6 box10m}; do
		for c in ${SIM_CONFIGS:-1gpu gpu+cpu 2gpu cpu 2gpu-nochain 2rank}; do
			SIM_ROWS="${SIM_ROWS:-} $case:${SCHEME:-explicit}:$c"
		done
	done
fi
cp "$top/cases/onera_m6/onera_m6.cfg" "$out/m6.cfg"

nranks() { # the ranks of a configuration (1: one process)
	case $1 in
	*[0-9]rank)
		r=${1%rank}
		echo "${r##*[!0-9]}"
		;;
	*) echo 1 ;;
	esac
}
conf() { # the workers of a configuration
	case $1 in
	1gpu) echo "runtime.ncuda=1 runtime.ncpu=0" ;;
	gpu+cpu) echo "runtime.ncuda=1 runtime.ncpu=$((cores - 2))" ;;
	gpu+cpu-equal) echo "runtime.ncuda=1 runtime.ncpu=$((cores - 2)) runtime.balance=equal" ;;
	[0-9]gpu | [0-9][0-9]gpu) echo "runtime.ncuda=${1%gpu} runtime.ncpu=0" ;;
	[0-9]gpu-nochain | [0-9][0-9]gpu-nochain) echo "runtime.ncuda=${1%gpu-nochain} runtime.ncpu=0 numerics.chain=no" ;;
	cpu) echo "runtime.ncuda=0 runtime.ncpu=$cores" ;;
	cpu[0-9]*-[0-9]*rank)
		n=${1#cpu}
		n=${n%%-*}
		w=$((n / $(nranks "$1")))
		[ "$cores" -ge $((2 * n)) ] || [ "$w" -le 1 ] || w=$((w - 1))
		echo "runtime.ncuda=0 runtime.ncpu=$w"
		;;
	cpu[0-9]*) echo "runtime.ncuda=0 runtime.ncpu=${1#cpu}" ;;
	# halo_zero_copy = no and halo_peer = no: fvstar-smpi has neither the
	# host halo tasks (their buffers are not mapped under SimGrid) nor the
	# GPU-to-GPU ones (no CUDA IPC there), so a calibration with them
	# (auto, between ranks) lacked fv_pack_all's model (session 16)
	[0-9]*rank) echo "${RANK_WORKERS:-runtime.ncuda=1 runtime.ncpu=0} numerics.chain=no numerics.halo_zero_copy=no numerics.halo_peer=no" ;;
	*) return 1 ;;
	esac
}
explicit_keys() { # the M6 case file is implicit: its explicit scheme (cfg's comment)
	case $1 in
	m6) echo "numerics.time=steady numerics.cfl=1.5 numerics.cfl_max=0" ;;
	*) echo "numerics.time=steady" ;;
	esac
}
per_iter() { # seconds_per_iteration of a summary.json (fvstar run's or fvstar sim's)
	"$py" -c 'import json, sys; print("%.6f" % json.load(open(sys.argv[1]))["seconds_per_iteration"])' "$1"
}
mpirun=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe}
row() { # tag config run dry sim [apart]
	printf '%-10s %-14s %12s %12s %12s %8s %12s\n' "$1" "$2" "$3" "$4" "$5" \
		"$(awk -v a="$5" -v b="$4" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%+.1f%%", 100 * (a / b - 1); else print "-" }')" \
		"${6:--}"
}
models() { # DIR/models: a fresh copy of the calibrated folder (StarPU may update what it reads)
	rm -rf "$1/models" && cp -r "$1/platform" "$1/models"
}
# one_row CASE TAG CONFIG SCHEME_KEYS ITERATIONS EXTRA: calibration, fvstar
# run and fvstar sim dry (under mpirun -np L for L ranks), then the
# simulation (here, or sim.args for run_sim_ranks_here.sh). The run and
# the dry run read a copy of the calibrated models (STARPU_PERF_MODEL_DIR),
# as the simulation does: with CPU and GPU workers the blocks' sizes come
# from the models' CPU/GPU ratio and dmdas places tasks by them, and a
# fresh machine's own models (none) would give other blocks and placements
one_row() {
	case=$1 tag=$2 c=$3 scheme=$4 it=$5 extra=$6 cal=$7 warm=$8
	d=$out/$tag-$c
	w=$(conf "$c") || { echo "$tag $c: unknown configuration" >&2 && return 0; }
	l=$(nranks "$c")
	[ -n "$cal" ] || cal=${CAL_ITERS:-$it}
	[ -n "$warm" ] || warm=${CAL_WARMUP:-}
	[ "$cal" -le "$it" ] || cal=$it
	launch=
	passes=1 # one process: two passes in one command
	if [ "$l" -gt 1 ]; then
		# each rank on its share of mpirun's cores (fvstar's placement),
		# not bound to one core by Open MPI
		launch="$mpirun -np $l --bind-to none"
		passes="1 2" # ranks: one pass a command (MPI starts once a process)
	fi
	rm -rf "$d" "$d".*.log
	mkdir -p "$d"
	# the bus the first row measured, for every later row (StarPU reads a
	# bus description it finds rather than measuring again: seconds per
	# row, and one bus for all)
	if [ -d "$out/bus-seed" ]; then
		b=$d/platform/bus
		[ "$l" -gt 1 ] && b=$d/platform/rank0/bus
		mkdir -p "$b" && cp "$out"/bus-seed/* "$b"/
		# StarPU measures the bus again where its config's CPU count is not
		# the one it sees, and a rank sees its share of the cores (fvstar's
		# placement): the seed's config says that share (session 18: rank 0
		# of the box's 2 ranks measured again beside the node's other
		# benchmarks, a GPU to host latency of 390 us where the seed had 10)
		# (place_rank, src/runtime/runtime.c: 2 cores or more a rank). A
		# one-process row keeps the seed as it is: where the seed is a rank
		# row's (its share of the cores), StarPU measures the bus again with
		# every core (session 19: the seed's config set to all the cores kept
		# the rank's platform of 16 CPUs, and a row of 30 CPU workers could
		# not be simulated on it)
		if [ "$l" -gt 1 ] && [ $((cores / l)) -ge 2 ]; then
			for f in "$b"/*.config; do
				sed "s/^[0-9]* # Number of CPUs/$((cores / l)) # Number of CPUs/" "$f" >"$f.new" && mv "$f.new" "$f"
			done
		fi
	fi
	# shellcheck disable=SC2086 # $launch, $extra, $w, $scheme: words
	if ! (
		for _ in $passes; do
			timeout "$(cmd_tmo)" $launch "$fv" sim calibrate "$out/$case.cfg" --save "$d/platform" \
				--iterations "$cal" ${warm:+--warmup "$warm"} $extra $w $scheme output.dir="$d/o" >>"$d.cal.log" \
				2>&1 || exit 1
		done
	) || ! models "$d" || { [ "${NO_RUN:-0}" != 1 ] &&
		! STARPU_PERF_MODEL_DIR=$d/models STARPU_CALIBRATE_MINIMUM=1 timeout "$(cmd_tmo)" $launch "$fv" run \
			"$out/$case.cfg" $extra $w $scheme numerics.iterations="$it" numerics.residual_drop=0 \
			output.dir="$d/run" output.vtu=no output.progress_every=0 >"$d.run.log" 2>&1; } || ! models "$d" ||
		! STARPU_PERF_MODEL_DIR=$d/models STARPU_CALIBRATE_MINIMUM=1 timeout "$(cmd_tmo)" $launch "$fv" sim dry \
			"$out/$case.cfg" --iterations "$it" $extra $w $scheme --out "$d/dry" >"$d.dry.log" 2>&1; then
		if [ "$(left_s)" -le 1 ]; then
			echo "$tag $c: cut at the deadline (SIM_DEADLINE_S=$deadline), see $d.*.log" >&2
		else
			echo "$tag $c: failed, see $d.*.log" >&2
		fi
		return 0
	fi
	apart=-
	# shellcheck disable=SC2086
	if [ "$l" -gt 1 ] && [ "${NO_APART:-0}" != 1 ] && models "$d" && STARPU_PERF_MODEL_DIR=$d/models STARPU_CALIBRATE_MINIMUM=1 \
		timeout "$(cmd_tmo)" $launch "$fv" sim dry "$out/$case.cfg" --iterations "$it" --norms-apart $extra $w \
		$scheme --out "$d/dry-apart" >"$d.dry-apart.log" 2>&1; then
		apart=$(per_iter "$d/dry-apart/summary.json")
	fi
	# TRACE_ROWS: a traced dry run as well (iterations from TRACE_FROM,
	# default 4), its transfers against the calibrated bus
	# (bench/sim_transfers.py: TAG-CONFIG.transfers.txt)
	case " ${TRACE_ROWS:-} " in
	*" $tag:$c "*)
		tf=${TRACE_FROM:-4}
		for o in ${TRACE_FROM_ROWS:-}; do
			[ "${o%=*}" != "$tag:$c" ] || tf=${o#*=}
		done
		# shellcheck disable=SC2086
		if [ "$tf" -lt "$it" ] && models "$d" && STARPU_PERF_MODEL_DIR=$d/models STARPU_CALIBRATE_MINIMUM=1 \
			timeout "$(cmd_tmo)" $launch "$fv" sim dry "$out/$case.cfg" --iterations "$it" $extra $w $scheme \
			--out "$d/dry-traced" output.trace="$d/trace" output.trace_from="$tf" >"$d.trace.log" 2>&1; then
			"$py" "$top/bench/sim_transfers.py" "$d/trace" --platform "$d/platform" --iterations $((it - tf + 1)) \
				--json "$d.transfers.json" >"$d.transfers.txt" 2>&1 || true
			sed "s/^/$tag $c trace: /" "$d.transfers.txt" >&2
			gzip -f "$d/trace/paje.trace" 2>/dev/null || true
			rm -f "$d/trace/trace.rec" "$d/trace/dag.dot"
		else
			echo "$tag $c: the traced dry run failed or was cut, see $d.trace.log" >&2
		fi
		;;
	esac
	rm -rf "$d/models"
	[ -d "$out/bus-seed" ] || cp -r "$d/platform/bus" "$out/bus-seed"
	# the simulation's case, iterations and keys but the mesh's path (the
	# case file's own, or the M6 mesh there): run_sim_ranks_here.sh
	# shellcheck disable=SC2086
	printf '%s\n' "$case" "$it" $w $scheme >"$d/sim.args"
	echo "$l" >"$d/ranks"
	s=-
	if [ "$here" = 1 ]; then
		:
	elif [ "$l" = 1 ]; then
		# shellcheck disable=SC2086
		"$sim" sim run "$out/$case.cfg" --platform "$d/platform" --iterations "$it" $extra $w $scheme \
			--out "$d/sim" >"$d.sim.log" 2>&1 && s=$(per_iter "$d/sim/summary.json")
	else
		"$py" "$top/tools/sim_platform.py" cluster "$d/platform" "$d/cluster" --nodes 1 --ranks-per-node "$l" \
			>/dev/null
		if [ -r "$build/fvstar-smpi" ] && command -v smpirun >/dev/null 2>&1; then
			# shellcheck disable=SC2086
			"$fv" sim run "$out/$case.cfg" --platform "$d/cluster" --iterations "$it" $extra $w $scheme \
				--out "$d/sim" >"$d.sim.log" 2>&1 && s=$(per_iter "$d/sim/summary.json")
		else
			echo "$tag $c: no fvstar-smpi or smpirun here: bring $out back to the SimGrid machine and run" \
				"bench/run_sim_ranks_here.sh OUT [BUILDDIR] [WORKDIR] there (M6_MESH=the M6 mesh there)" >&2
		fi
	fi
	rs=-
	[ ! -f "$d/run/summary.json" ] || rs=$(per_iter "$d/run/summary.json")
	row "$tag" "$c" "$rs" "$(per_iter "$d/dry/summary.json")" "$s" "$apart"
}
printf '%-10s %-14s %12s %12s %12s %8s %12s\n' case config "run s/it" "dry s/it" "sim s/it" "sim/dry" "apart s/it"
left=
for r in $SIM_ROWS; do
	case=${r%%:*} rest=${r#*:}
	scheme=${rest%%:*} rest=${rest#*:}
	c=${rest%%:*} it=$iters calit='' calwarm=''
	[ "$c" = "$rest" ] || it=${rest#*:}
	case $it in *:*:*) calwarm=${it##*:} ;; esac
	case $it in *:*) calit=${it#*:} calit=${calit%%:*} it=${it%%:*} ;; esac
	if { [ "$budget" -gt 0 ] && [ $(($(date +%s) - started)) -ge "$budget" ]; } || [ "$(left_s)" -lt 15 ]; then
		left="$left $r"
		continue
	fi
	tag=$case keys=$(explicit_keys "$case")
	[ "$scheme" = implicit ] && tag=$case-impl keys="numerics.time=implicit"
	case $case in
	m6) extra="mesh.file=$m6" ;;
	box10m)
		if [ ! -f "$out/box10m.cfg" ]; then
			# the mesh as box_case makes it, within the deadline
			[ -f "$boxdir/box$boxn.su2" ] || timeout "$(cmd_tmo)" "$fv" mesh gen box --cells tet -n "$boxn" \
				--perturb 0.1 -o "$boxdir/box$boxn.su2" 2>/dev/null || {
				rm -f "$boxdir/box$boxn.su2"
				echo "$r: the box mesh was not made in time" >&2
				left="$left $r"
				continue
			}
			box_case "$build" "$boxn" "$boxdir" box10m
			[ "$boxdir" = "$out" ] || mv "$boxdir/box10m.cfg" "$out/box10m.cfg"
		fi
		extra="mesh.file=$boxdir/box$boxn.su2"
		;;
	*)
		echo "$r: unknown case $case (m6, box10m)" >&2
		continue
		;;
	esac
	one_row "$case" "$tag" "$c" "$keys" "$it" "$extra" "$calit" "$calwarm"
done
[ -z "$left" ] || echo "not run (SIM_BUDGET_S=$budget, SIM_DEADLINE_S=$deadline):$left"
# projection: the 2-GPU calibration without task chains (whose models
# hold only the calibrated blocks) on 4 and 8 simulated GPUs of the same links
for d in "$out"/*-2gpu-nochain; do
	[ -d "$d/platform" ] && [ "$here" != 1 ] || continue
	tag=$(basename "$d" -2gpu-nochain)
	case=${tag%-impl} extra="mesh.file=$m6"
	scheme=$(explicit_keys "$case")
	[ "$case" = "$tag" ] || scheme="numerics.time=implicit"
	[ "$case" = m6 ] || extra="mesh.file=$boxdir/box$boxn.su2"
	for g in 4 8; do
		rm -rf "$out/$tag-${g}gpu-derived"
		"$py" "$top/tools/sim_platform.py" derive "$d/platform" "$out/$tag-${g}gpu-derived" --gpus $g >/dev/null
		# shellcheck disable=SC2086
		"$sim" sim run "$out/$case.cfg" --platform "$out/$tag-${g}gpu-derived" --iterations "$iters" $extra \
			runtime.ncpu=0 numerics.chain=no $scheme --out "$out/$tag-${g}gpu-sim" >"$out/$tag-${g}gpu-sim.log" 2>&1 &&
			printf '%-10s %-12s %12s %12s %12s %8s\n' "$tag" "${g}gpu" - - \
				"$(per_iter "$out/$tag-${g}gpu-sim/summary.json")" "(derived)"
	done
done
# the studies' platform: one process's models and the rank-only tasks'
for a in "$out"/*-2gpu-nochain; do
	tag=$(basename "$a" -2gpu-nochain)
	[ -d "$a/platform" ] && [ -d "$out/$tag-2rank/platform" ] || continue
	rm -rf "$out/$tag-studies"
	mkdir -p "$out/$tag-studies"
	# the one-process folder's bus and host, both folders' models (the
	# 2-rank one's own: the ranks' merged)
	"$py" "$top/tools/sim_platform.py" merge "$out/$tag-studies/platform" "$a/platform" \
		"$out/$tag-2rank/platform" --quiet >/dev/null
	echo "studies platform: $out/$tag-studies/platform (bench/run_sim_studies.sh PLATFORM)"
done
echo "(run: fvstar run's seconds_per_iteration, every iteration; dry and sim: iterations 2.. of fvstar sim;" \
	"logs and summaries in $out; $(($(date +%s) - started)) s)"
if [ -n "${PACK:-}" ]; then
	# the run's restart file (396 MB at 10^7 cells) and meshes stay
	tar czf "$PACK" --exclude='*.su2' --exclude='*.fvm' --exclude=restart.bin --exclude='*.vtu' \
		--exclude='prof_file*' --exclude='*.data' --exclude='part.*' --exclude=models \
		-C "$(dirname "$out")" "$(basename "$out")" &&
		echo "packed: $PACK ($(du -k "$PACK" | cut -f1) kB)"
fi
