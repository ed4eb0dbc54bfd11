#!/bin/sh
# session 10, call 6 (one H200): issue 13's targets on the H200 node, after the fix of the
# speed-weighted blocks. C M6 medium GPU only against GPU + 1 and + 14 CPU workers;
# B CPU only, 16 workers, 32 against 64 blocks; X the 10.4M box (60 refined once), GPU only
# against GPU + 1 and + 14 CPU workers.
set -u
. bench/results/data/2026-11-26-s10/lib.sh
R=/tmp/r6; mkdir -p $R/C $R/B $R/X
save() { (cd $R && tar czf $OUT/call6.tar.gz .); }
{ nvidia-smi -L; nproc; lscpu | grep -E "Model name"; date; } > $R/device.txt 2>&1; cat $R/device.txt
run1() { # NAME DIR CFG ITERS KEYS...
	n=$1 d=$2 cfg=$3 it=$4; shift 4
	STARPU_PROFILING=1 timeout 120 $fv run $cfg output.dir=$m/$n numerics.iterations=$it numerics.residual_drop=0 output.vtu=no \
		output.restart_every=0 output.progress_every=0 "$@" >/dev/null 2>$R/$d/$n.err
	echo "$d $n rc=$? | $(grep -E 'edge cut' $R/$d/$n.err | head -1 | cut -c40-140)"
	rate $m/$n $(( it / 5 )); cp $m/$n/summary.json $R/$d/$n-summary.json; cp $m/$n/history.csv $R/$d/$n-history.csv
	python3 -c "import json; s = json.load(open('$m/$n/summary.json')); c = s['partition']['block_cells']; print('  cells', c[:3])"
}
echo "== C: M6 medium, 200 iterations"
run1 gpu-a C $m/explicit.cfg 200
run1 c1 C $m/explicit.cfg 200 runtime.ncpu=1
run1 c14 C $m/explicit.cfg 200 runtime.ncpu=14
run1 gpu-b C $m/explicit.cfg 200
save; echo "elapsed $(el)"
echo "== B: CPU only, 16 workers, M6 medium, 100 iterations"
STARPU_NCUDA=0 STARPU_NCPU=16 run1 cpu16b32 B $m/explicit.cfg 100 partition.blocks=32
STARPU_NCUDA=0 STARPU_NCPU=16 run1 cpu16auto B $m/explicit.cfg 100
save; echo "elapsed $(el)"
echo "== X: box 60 refined once (10.4M cells), 60 iterations"
. bench/box_case.sh; box_case $top/device/bin 60 $m box60
for spec in "gpu:" "c1:runtime.ncpu=1" "c14:runtime.ncpu=14"; do
	n=${spec%%:*} k=${spec#*:}
	[ $(el) -gt 420 ] && { echo "X $n skipped (time)"; continue; }
	run1 box-$n X $m/box60.cfg 60 mesh.refine=1 numerics.order=2 $k
	save
done
echo "elapsed $(el)"
