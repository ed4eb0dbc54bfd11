#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 27 on a device node's CPUs (session 22): no GPU is used, every run
# is simulated (fvstar-sim, fvstar-smpi under the pack's smpirun), one
# process a configuration, side by side on the node's cores:
#   studies  bench/run_sim_studies.sh at full size (SCHED_N=55: 1M cells,
#            STRONG_N=120: 10.4M, WEAK_CELLS=160000 a GPU; every policy)
#            on the calibrated platform studies-platform/ of DATA
#            (the box explicit on 2 H100s without chains, s20c3, merged
#            with the M6 explicit's 2 ranks of an H200, s19c1: session 21's)
#   rows     the box implicit on 16 CPU as 1, 2 (and 4) ranks simulated
#            from their calibrations (DATA/laneN.tgz:
#            s21c2 lane 9, s21c3 lane 10, s22c1 lane 11 when there) with
#            bench/run_sim_ranks_here.sh (21 GB and more a process: too
#            large for the 2-core VM beside the other sessions)
# both under SECONDS (default 500) of wall time, every step under timeout
# (STUDIES=none: the rows alone; ROWS=0: the studies alone).
# Results: $OUT/simgrid11/ (studies.tgz: the tables, CSVs, every run's
# summary, status and log tail; rows.txt; device.txt), a few MB.
# DATA: bench/results/data/2026-12-04-simgrid11.
# Usage (repository root of a device pack with fvstar-sim and fvstar-smpi,
# tools/device-pack.sh): sh bench/run_sim11_device.sh [SECONDS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
budget=${1:-500}
t0=$(date +%s)
# LANE=X: results in $OUT/simgrid11-X and work in /tmp/sg11devX (two lanes
# side by side)
res=${OUT:?OUT: the results folder}/simgrid11${LANE:+-$LANE}
mkdir -p "$res"
bin=$top/device/bin
work=/tmp/sg11dev${LANE:-}
rm -rf "$work"
mkdir -p "$work/lib"
exec >"$res/device.txt" 2>&1
echo "run_sim11_device: $(date -u +%H:%M:%S) UTC, $(nproc) cores, $(free -g | awk '/Mem:/ {print $2 " GB, " $7 " GB available"}'), budget $budget s"
uptime
# SimGrid's libraries (the pack keeps them in an archive)
[ ! -f device/simgrid-libs.tar.xz ] || tar xJf device/simgrid-libs.tar.xz -C "$work/lib"
export LD_LIBRARY_PATH="$top/device/lib:$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for f in "$bin/fvstar" "$bin/fvstar-sim" "$bin/fvstar-smpi" "$top/device/libexec/fvstar/smpirun"; do
	[ -e "$f" ] || { echo "run_sim11_device: $f: not in the pack (tools/device-pack.sh of a SimGrid + SMPI build)"; exit 1; }
done
left() { echo $((budget - ($(date +%s) - t0))); }
data=bench/results/data/2026-12-04-simgrid11
cp -R "$data/studies-platform" "$work/"
plat=$work/studies-platform

mkdir -p "$work/studies"
# a smoke test of both simulators (a box of 6 x 8^3 cells, 2 simulated
# ranks): a pack that cannot simulate stops here
smoke=$work/smoke
mkdir -p "$smoke"
. bench/box_case.sh
box_case "$bin" 8 "$smoke" smoke
python3 tools/sim_platform.py derive "$plat" "$smoke/p1" --gpus 1 >/dev/null
python3 tools/sim_platform.py cluster "$smoke/p1" "$smoke/c2" --nodes 2 >/dev/null
for p in p1 c2; do
	if timeout -k 5 120 "$bin/fvstar" sim run "$smoke/smoke.cfg" --platform "$smoke/$p" --iterations 3 --warmup 1 \
		--out "$smoke/r$p" partition.blocks=2 runtime.ncpu=0 numerics.chain=no >"$smoke/$p.log" 2>&1; then
		echo "smoke $p: $(grep 'simulated:' "$smoke/$p.log" | tail -n 1)"
	else
		echo "smoke $p: failed"
		tail -n 20 "$smoke/$p.log"
		exit 1
	fi
done

# the rows: one process each, beside the studies (3 of the cores), on the
# box of their calibrations (bench/box_case.sh's .su2, converted: the same
# blocks; a box written as .fvm by mesh gen directly is not byte for byte
# that file). ROWS=0: no rows (a smoke test of the pack at small sizes)
lanes=
for lane in 9 10 11; do
	[ ! -f "$data/lane$lane.tgz" ] || [ "${ROWS:-1}" = 0 ] || lanes="$lanes $lane"
done
rows=$(echo "$lanes" | wc -w)
if [ "$rows" -gt 0 ]; then
	(
		box_case "$bin" 120 "$work" box >/dev/null 2>&1
		timeout -k 5 150 "$bin/fvstar" mesh convert "$work/box120.su2" -o "$work/box120.fvm" >/dev/null 2>&1
		rm -f "$work/box120.su2"
		for lane in $lanes; do
			mkdir -p "$work/lane$lane"
			tar xzf "$data/lane$lane.tgz" -C "$work/lane$lane"
			(BOX_MESH=$work/box120.fvm ONLY='box10m*' timeout -k 10 "$(($(left) - 40))" \
				sh bench/run_sim_ranks_here.sh "$work/lane$lane/simgrid8-lane$lane" "$bin" "$work/w$lane" \
				>"$work/rows$lane.txt" 2>&1 || echo "exit $? (timeout: 124)" >>"$work/rows$lane.txt") &
		done
		wait
	) &
fi

# the studies on the other cores; memory: what the rows leave (~30 GB each)
avail=$(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)
mem=$((avail * 85 / 100 - rows * 30000))
jobs=$(($(nproc) - rows))
echo "studies: $jobs processes, $mem MB, $(($(left) - 45)) s"
# every policy of StarPU 1.3.10 but modular-heteroprio-heft (bench sched refuses it) and graph_test
pols="modular-eager modular-eager-prefetching modular-eager-prio modular-gemm modular-prio modular-prio-prefetching"
pols="$pols modular-random modular-random-prio modular-random-prefetching modular-random-prio-prefetching"
pols="$pols modular-prandom modular-prandom-prio modular-ws modular-heft modular-heft-prio modular-heft2"
pols="$pols modular-heteroprio modular-pheft eager prio random lws ws dm dmda dmdap dmdar dmdas dmdasd pheft peager heteroprio"
# STUDIES=none: the rows alone (a lane of its own). DATA/studies-done.tgz
# (an earlier call's studies.tgz): its runs are kept, the others run
if [ "${STUDIES:-}" != none ]; then
	[ ! -f "$data/studies-done.tgz" ] || tar xzf "$data/studies-done.tgz" -C "$work"
	# 4 simulated iterations (3 timed): a simulated iteration of 8 ranks of
	# 8 GPUs takes 10 to 30 s of wall time on the VM (0.2 to 1.3 million cells)
	ITERS=${ITERS:-4} POLICIES=${POLICIES:-$pols} SCHED_N=${SCHED_N:-55} STRONG_N=${STRONG_N:-120} WEAK_CELLS=${WEAK_CELLS:-160000} \
		JOBS=$jobs MEM_MB=$mem STUDIES_DEADLINE_S=$(($(left) - 45)) timeout -k 10 "$(($(left) - 20))" \
		sh bench/run_sim_studies.sh "$plat" "$bin" "$work/studies" || echo "run_sim_studies: exit $?"
	# the tables of what ran, whatever stopped it
	[ -f "$work/studies/studies.md" ] || timeout -k 5 30 sh bench/run_sim_studies.sh --collect "$work/studies" ||
		echo "run_sim_studies --collect: exit $?"
	tail -n 3 "$work/studies/jobs.log" 2>/dev/null || true
fi
wait
for lane in 9 10 11; do
	[ ! -f "$work/rows$lane.txt" ] || { echo "== lane $lane"; cat "$work/rows$lane.txt"; } >>"$res/rows.txt"
done
cat "$res/rows.txt" 2>/dev/null || true
# the studies' results without meshes, platforms' models or outputs; logs
# cut to their last 40 lines
s=$work/studies
for l in "$s"/runs/*.log; do
	[ -f "$l" ] || continue
	tail -n 40 "$l" >"$l.tail" && mv "$l.tail" "$l"
done
tar czf "$res/studies.tgz" -C "$work" --exclude='*.fvm' --exclude='*.su2' --exclude='platforms' --exclude='parts' --exclude='o' \
	--exclude='restart.bin' --exclude='*.vtu' studies
for w in "$work"/w*; do
	[ -d "$w" ] || continue
	tar czf "$res/rows-$(basename "$w").tgz" -C "$work" --exclude='*.fvm' --exclude='*.su2' --exclude='codelets' \
		--exclude='platform*' --exclude='restart.bin' "$(basename "$w")"
done
du -k "$res"/*
echo "run_sim11_device: done at $(date -u +%H:%M:%S) UTC, $(($(date +%s) - t0)) s"
uptime
