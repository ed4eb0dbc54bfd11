#!/bin/sh
# SPDX-License-Identifier: MIT
# The validation's simulations (issue 27, item 4) run on the SimGrid
# machine from what bench/run_sim_validate.sh left on the GPU machine
# (SIM_HERE=1, or its ranks' rows: the GPU machine has no fvstar-smpi, left
# out of the pack, and no smpirun; no simulation needs a GPU). For each
# TAG-CONFIG folder of DEVICE_OUT (the OUTDIR of run_sim_validate.sh,
# brought back; read-only is fine) with its platform/ (the calibration;
# for ranks platform/rank<r>, merged again here), sim.args (the case,
# iterations and keys of the run), ranks (1 when missing: 2 for *-2rank)
# and the measured run/ and dry/ summaries, it simulates in WORKDIR: one
# process with fvstar-sim on the platform, L ranks with fvstar-smpi
# (smpirun) on a cluster folder of one node with L ranks
# (tools/sim_platform.py cluster). It prints one row per folder: run, dry
# (mean and median iteration) and simulated seconds per iteration, sim/dry
# - 1 and sim/median - 1, and the workers' busy
# seconds per iteration of the calibration (o/sim-calibrate/summary.json,
# its last pass, measured) and of the simulation, both summed over ranks,
# and the simulated transfers per iteration and rank (host to GPU and
# back, MB): whether a gap is in the tasks or in waiting. Rows of ranks
# with a dry-apart/ summary (fvstar sim dry --norms-apart: no collective of
# the residual rows per iteration, as the simulated ranks) add its time
# and the simulation against it.
# The case is DEVICE_OUT/CASE.cfg: the box's mesh is made here again when
# DEVICE_OUT has none (bench/box_case.sh: the same mesh, the same blocks);
# BOX_MESH=FILE the box's mesh made once (bench/box_case.sh's, or its .fvm);
# the M6 mesh is M6_MESH (the same file as on the GPU machine: the blocks,
# hence the models' footprints, are its). ONLY (a pattern, e.g. '*-2rank'):
# the folders to simulate. MPI_OVERHEAD (us, default 0): the simulated
# ranks' cost per message on each side (sim_platform.py cluster
# --mpi-overhead; MPI_SEND_OVERHEAD, MPI_RECV_OVERHEAD one side apart;
# SHM_LATENCY, us, the link between the ranks; MPI_FROM=row or JSON files:
# all of them from traced runs, sim_platform.py cluster --mpi-from). SEED_BUS=1: rows of ranks on DEVICE_OUT/bus-seed's bus
# (the first row's, measured alone) rather than their rank 0's.
# RETIME=median|mean|mean90: rows with a traced dry run
# (DEVICE_OUT/TAG-CONFIG.transfers.json, else made here from
# TAG-CONFIG/trace) simulated on their platform with the copy latencies of
# that run (tools/sim_platform.py retime: a copy as a run sees it, not as
# the bus benchmark times it); RETIME_JSON=FILE takes them from FILE
# for every row (another row's trace); RETIME_ONLY="d2d" (h2d, d2h) only
# those directions. GAP=row: rows with a traced dry run simulated with
# every GPU task longer by the gap its GPU workers left between ready
# tasks (bench/sim_transfers.py worker_gap_us per_task, tools/sim_platform.py
# gap: StarPU's driver between tasks); GAP=FILE... (JSON reports) takes it
# from those for every row; GAP_US=X a gap of X us for every row, or
# GAP_US=submit each row's own calibration's submission cost per task
# (PLATFORM/fvstar.sim's submit_us_per_task: with GAP_KIND=cpu, the main
# thread's submission on the workers' cores, for rows of CPU ranks whose
# cores the workers and StarPU-MPI's thread fill); GAP_KIND=cpu: the CPU
# workers' tasks (default cuda).
# Usage: bench/run_sim_ranks_here.sh DEVICE_OUT [BUILDDIR] [WORKDIR]
# Needs fvstar-sim, and fvstar-smpi for ranks, in BUILDDIR (configure
# --with-starpu-simgrid, --with-starpu-smpi; doc/simgrid.md).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dev=${1:?usage: bench/run_sim_ranks_here.sh DEVICE_OUT [BUILDDIR] [WORKDIR]}
build=${2:-$top/build}
work=${3:-${BENCH_TMP:-$(mktemp -d)}}
fv=$build/fvstar
py=${PYTHON3:-python3}
tool=$top/tools/sim_platform.py
[ -x "$build/fvstar-sim" ] || { echo "run_sim_ranks_here: no $build/fvstar-sim (configure --with-starpu-simgrid)" >&2; exit 1; }
[ -d "$dev" ] || { echo "run_sim_ranks_here: $dev: no such folder" >&2; exit 1; }
dev=$(cd "$dev" && pwd)
mkdir -p "$work"
work=$(cd "$work" && pwd)
unset STARPU_NCPU STARPU_NCUDA STARPU_SCHED STARPU_CALIBRATE STARPU_HOSTNAME STARPU_PERF_MODEL_DIR
. "$top/bench/box_case.sh"
# json FILE EXPR: a value of a summary (EXPR over s, the parsed file), or -
json() {
	"$py" -c 'import json, sys
try:
    s = json.load(open(sys.argv[1]))
    print(eval(sys.argv[2]))
except Exception:
    print("-")' "$1" "$2" 2>/dev/null || echo -
}
busy='"%.6f" % (s["profile"]["cuda_busy_seconds_per_iteration"] + s["profile"]["cpu_busy_seconds_per_iteration"])'
# the median iteration after the warm-up: one stalled iteration (27 to 408
# ms in sessions 16 and 17's GPU runs, where the others took 0.7) moves the
# mean, not this. The simulation's median too (smed/dmed): where iterations
# overlap (lookahead) the end of iteration 1 falls later or sooner, which
# moves a short run's mean and not its median (the implicit M6 on 16 CPU
# workers, session 18: simulated 0.63 s for iteration 2 against 1.27
# measured, and within 2 % from iteration 3 on; mean against median -6.0 %,
# median against median +3.0 %). cal median: the calibration's last pass,
# a third measurement of the same graph.
median='"%.6f" % sorted(s["iteration_seconds"][s["warmup"]:])[(len(s["iteration_seconds"]) - s["warmup"]) // 2]'
moved='"%.1f/%.1f" % tuple(s["profile"][k + "_bytes_per_iteration"] / s["ranks"] * 1e-6 for k in ("h2d", "d2h"))'
printf '%-10s %-14s %12s %12s %12s %12s %8s %8s %10s %10s %12s %10s %8s %11s %11s %9s\n' case config "run s/it" \
	"dry s/it" "dry median" "sim s/it" "sim/dry" "sim/med" "busy cal" "busy sim" "sim MB h2d/d2h" "apart s/it" \
	"sim/apart" "cal median" "sim median" "smed/dmed"
# mpi_from ROW_DIR: --mpi-from and --mpi-stat for sim_platform.py cluster
# where MPI_FROM is set: MPI_FROM=row (the row's own traced run, its
# TAG-CONFIG.transfers.json, made here from its trace when missing) or
# files; MPI_STAT (mean, median)
mpi_from() {
	[ -n "${MPI_FROM:-}" ] || return 0
	if [ "$MPI_FROM" = row ]; then
		j=$dev/$(basename "$1").transfers.json
		if [ ! -f "$j" ] || ! grep -q halo_path_us "$j"; then
			j=$work/$(basename "$1").transfers.json
			[ -f "$1/trace/tasks.rec" ] &&
				"$py" "$top/bench/sim_transfers.py" "$1/trace" --platform "$1/platform" --json "$j" >/dev/null 2>&1 ||
				return 0
		fi
		echo "--mpi-from $j --mpi-stat ${MPI_STAT:-mean}"
	else
		echo "--mpi-from $MPI_FROM --mpi-stat ${MPI_STAT:-mean}"
	fi
}
# retime ROW_DIR PLATFORM: RETIME's latencies into PLATFORM (nothing
# without RETIME; rows without a trace are simulated as they are)
retime() {
	[ -n "${RETIME:-}" ] || return 0
	j=${RETIME_JSON:-$dev/$(basename "$1").transfers.json}
	if [ -z "${RETIME_JSON:-}" ] && [ ! -f "$j" ] && [ -f "$1/trace/tasks.rec" ]; then
		j=$work/$(basename "$1").transfers.json
		"$py" "$top/bench/sim_transfers.py" "$1/trace" --platform "$1/platform" --json "$j" >/dev/null 2>&1 ||
			{ echo "$(basename "$1"): sim_transfers.py failed on $1/trace" >&2 && return 1; }
	fi
	[ -f "$j" ] || return 0
	# shellcheck disable=SC2086 # RETIME_ONLY: words
	"$py" "$tool" retime "$2" --transfers "$j" --stat "$RETIME" ${RETIME_ONLY:+--only $RETIME_ONLY} \
		>"$2.retime.log" 2>&1 || { echo "$(basename "$1"): retime failed (see $2.retime.log)" >&2 && return 1; }
	sed "s/^/$(basename "$1"): /" "$2.retime.log" >&2
}
# gap ROW_DIR PLATFORM: GAP's or GAP_US's gap into PLATFORM's GPU models
# (nothing without them; rows without a trace are simulated as they are)
gap() {
	if [ -n "${GAP_US:-}" ]; then
		us=$GAP_US
		if [ "$us" = submit ]; then
			us=$(sed -n 's/^submit_us_per_task *//p' "$2/fvstar.sim" 2>/dev/null | head -1)
			[ -n "$us" ] || { echo "$(basename "$1"): GAP_US=submit: no submit_us_per_task in $2/fvstar.sim" >&2 && return 1; }
		fi
		"$py" "$tool" gap "$2" --us "$us" --kind "${GAP_KIND:-cuda}" >"$2.gap.log" 2>&1 ||
			{ echo "$(basename "$1"): gap failed (see $2.gap.log)" >&2 && return 1; }
	elif [ -n "${GAP:-}" ]; then
		j=$GAP
		if [ "$GAP" = row ]; then
			j=$dev/$(basename "$1").transfers.json
			if ! grep -q worker_gap_us "$j" 2>/dev/null; then
				j=$work/$(basename "$1").transfers.json
				[ -f "$j" ] || [ ! -f "$1/trace/tasks.rec" ] ||
					"$py" "$top/bench/sim_transfers.py" "$1/trace" --platform "$1/platform" --json "$j" >/dev/null 2>&1 ||
					{ echo "$(basename "$1"): sim_transfers.py failed on $1/trace" >&2 && return 1; }
				[ -f "$j" ] || return 0
			fi
		fi
		# shellcheck disable=SC2086 # GAP: one or more files
		"$py" "$tool" gap "$2" --transfers $j --kind "${GAP_KIND:-cuda}" >"$2.gap.log" 2>&1 ||
			{ echo "$(basename "$1"): gap failed (see $2.gap.log)" >&2 && return 1; }
	else
		return 0
	fi
	sed "s/^/$(basename "$1"): /" "$2.gap.log" >&2
}
# projections (issue 27's 8-GPU target): for each TAG-Ngpu-nochain folder
# (N GPUs measured in one process) beside a TAG-2gpu-nochain one, rows
# TAG-Ngpu-proj and TAG-Ngpu-projnv: the N-GPU run and dry run against a
# simulation on the 2-GPU calibration derived to N GPUs (sim_platform.py
# derive; -projnv with --peer-direct: GPU to GPU not through the host
# link, NVLink), the calibration's busy time the N-GPU one's. The N-GPU
# folder's own row simulates its own calibration: the model's error apart
# from the projection's.
proj=$work/proj
rm -rf "$proj"
for n in "$dev"/*-*gpu-nochain; do
	[ -f "$n/sim.args" ] || continue
	base=$(basename "$n" -nochain)
	g=${base##*-}
	g=${g%gpu}
	tag=${base%-*gpu}
	src=$dev/$tag-2gpu-nochain/platform
	case $g in '' | *[!0-9]* | 2) continue ;; esac
	[ -d "$src" ] || continue
	for v in proj projnv; do
		p=$proj/$tag-${g}gpu-$v
		mkdir -p "$p/o/sim-calibrate"
		opt=
		[ $v = proj ] || opt=--peer-direct
		# shellcheck disable=SC2086 # $opt: one word or none
		"$py" "$tool" derive "$src" "$p/platform" --gpus "$g" $opt >"$p.derive.log" 2>&1 ||
			{ echo "$tag-${g}gpu-$v: derive failed (see $p.derive.log)" >&2 && rm -rf "$p" && continue; }
		cp "$n/sim.args" "$p/sim.args"
		echo 1 >"$p/ranks"
		for f in run dry; do
			[ ! -f "$n/$f/summary.json" ] || { mkdir -p "$p/$f" && cp "$n/$f/summary.json" "$p/$f/"; }
		done
		[ ! -f "$n/o/sim-calibrate/summary.json" ] || cp "$n/o/sim-calibrate/summary.json" "$p/o/sim-calibrate/"
	done
done
found=0
for d in "$dev"/*-* "$proj"/*-*; do
	[ -f "$d/sim.args" ] && [ -d "$d/platform" ] || continue
	name=$(basename "$d")
	# shellcheck disable=SC2254 # ONLY: a pattern
	case $name in ${ONLY:-*}) ;; *) continue ;; esac
	found=1
	case=$(sed -n 1p "$d/sim.args")
	iters=$(sed -n 2p "$d/sim.args")
	keys=$(sed -n '3,$p' "$d/sim.args" | tr '\n' ' ')
	ranks=1
	[ -f "$d/ranks" ] && ranks=$(cat "$d/ranks")
	[ -f "$d/ranks" ] || case $name in *-2rank) ranks=2 ;; esac
	tag=$case
	case $name in "$case"-impl-*) tag=$case-impl ;; esac
	config=${name#"$tag"-}
	w=$work/$name
	rm -rf "$w"
	mkdir -p "$w"
	cp -r "$d/platform" "$w/platform"
	chmod -R u+w "$w/platform"
	plat=$w/platform
	if [ "$ranks" -gt 1 ]; then
		# the models as the ranks saved them, merged here (whatever fvstar
		# the GPU machine ran), then the node of L ranks
		if ls -d "$w"/platform/rank* >/dev/null 2>&1; then
			"$py" "$tool" merge "$w/platform" "$w"/platform/rank* --quiet >"$w.merge.log" ||
				{ echo "$name: merge failed (see $w.merge.log)" >&2; continue; }
		else
			echo "$name: $d/platform has no rank folders (calibrated by an fvstar before the per-rank" \
				"folders): one rank's models only" >&2
		fi
		# SEED_BUS=1: the bus the call's first row measured alone
		# (DEVICE_OUT/bus-seed) in place of the one rank 0 measured under
		# mpirun (a rank that sees fewer CPUs than the seed's config says
		# measures again, beside the ranks and whatever else shares the node)
		if [ "${SEED_BUS:-0}" = 1 ] && [ -d "$dev/bus-seed" ]; then
			h=$(basename "$(ls "$w"/platform/bus/*.platform.v4.xml)" .platform.v4.xml)
			for f in "$dev"/bus-seed/*.platform.v4.xml "$dev"/bus-seed/*.bandwidth "$dev"/bus-seed/*.latency; do
				b=$(basename "$f")
				cp "$f" "$w/platform/bus/$h.${b#*.}"
			done
		fi
		retime "$d" "$w/platform" || continue
		gap "$d" "$w/platform" || continue
		# shellcheck disable=SC2046 # mpi_from: option words or none
		"$py" "$tool" cluster "$w/platform" "$w/cluster" --nodes 1 --ranks-per-node "$ranks" \
			--mpi-overhead "${MPI_OVERHEAD:-0}" ${MPI_SEND_OVERHEAD:+--mpi-send-overhead "$MPI_SEND_OVERHEAD"} \
			${MPI_RECV_OVERHEAD:+--mpi-recv-overhead "$MPI_RECV_OVERHEAD"} ${SHM_LATENCY:+--shm-latency "$SHM_LATENCY"} \
			$(mpi_from "$d") >"$w.cluster.log" 2>&1 || { echo "$name: cluster failed (see $w.cluster.log)" >&2 && continue; }
		sed -n "s/^StarPU-MPI/$name: StarPU-MPI/p" "$w.cluster.log" >&2
		plat=$w/cluster
	else
		retime "$d" "$w/platform" || continue
		gap "$d" "$w/platform" || continue
	fi
	cp "$dev/$case.cfg" "$work/$case.cfg"
	mesh=
	if [ "$case" = m6 ]; then
		[ -f "${M6_MESH:-}" ] || { echo "$name: set M6_MESH to the M6 mesh (the GPU machine's)" >&2; continue; }
		mesh="mesh.file=$(cd "$(dirname "$M6_MESH")" && pwd)/$(basename "$M6_MESH")"
	else
		f=$(sed -n 's/^file *= *//p' "$work/$case.cfg" | head -1)
		if [ -n "${BOX_MESH:-}" ]; then
			# the same mesh made once (its .fvm: read 17 times faster, the
			# same blocks: doc/mesh-format.md)
			mesh="mesh.file=$(cd "$(dirname "$BOX_MESH")" && pwd)/$(basename "$BOX_MESH")"
		elif [ -f "$dev/$f" ]; then
			mesh="mesh.file=$dev/$f"
		else
			n=$(echo "$f" | sed -n 's/^box\([0-9]*\)\.su2$/\1/p')
			[ -n "$n" ] || { echo "$name: no mesh $dev/$f" >&2; continue; }
			# the cfg is DEVICE_OUT's; box_case makes the mesh (once)
			box_case "$build" "$n" "$work" "$case-box" && rm -f "$work/$case-box.cfg"
			mesh="mesh.file=$work/$f"
		fi
	fi
	s=-
	# shellcheck disable=SC2086 # $keys, $mesh: key=value words
	if "$fv" sim run "$work/$case.cfg" --platform "$plat" --iterations "$iters" $keys $mesh --out "$w/sim" \
		>"$w.sim.log" 2>&1; then
		s=$(json "$w/sim/summary.json" '"%.6f" % s["seconds_per_iteration"]')
	else
		echo "$name: the simulation failed: $(grep -v '^  ' "$w.sim.log" | tail -1) (see $w.sim.log)" >&2
	fi
	r=$(json "$d/run/summary.json" '"%.6f" % s["seconds_per_iteration"]')
	y=$(json "$d/dry/summary.json" '"%.6f" % s["seconds_per_iteration"]')
	a=$(json "$d/dry-apart/summary.json" '"%.6f" % s["seconds_per_iteration"]')
	m=$(json "$d/dry/summary.json" "$median")
	cm=$(json "$d/o/sim-calibrate/summary.json" "$median")
	sm=$(json "$w/sim/summary.json" "$median")
	printf '%-10s %-14s %12s %12s %12s %12s %8s %8s %10s %10s %12s %10s %8s %11s %11s %9s\n' "$tag" "$config" "$r" \
		"$y" "$m" "$s" \
		"$(awk -v a="$s" -v b="$y" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%+.1f%%", 100 * (a / b - 1); else print "-" }')" \
		"$(awk -v a="$s" -v b="$m" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%+.1f%%", 100 * (a / b - 1); else print "-" }')" \
		"$(json "$d/o/sim-calibrate/summary.json" "$busy")" "$(json "$w/sim/summary.json" "$busy")" \
		"$(json "$w/sim/summary.json" "$moved")" "$a" \
		"$(awk -v a="$s" -v b="$a" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%+.1f%%", 100 * (a / b - 1); else print "-" }')" \
		"$cm" "$sm" \
		"$(awk -v a="$sm" -v b="$m" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%+.1f%%", 100 * (a / b - 1); else print "-" }')"
done
[ $found = 1 ] || { echo "run_sim_ranks_here: no TAG-CONFIG folder with sim.args in $dev" >&2; exit 1; }
echo "(run: fvstar run (under mpirun for ranks), every iteration; dry: fvstar sim dry; sim: here, fvstar-sim or" \
	"fvstar-smpi; iterations 2.. of fvstar sim; busy: workers' task seconds per iteration, all ranks; logs and" \
	"summaries in $work)"
