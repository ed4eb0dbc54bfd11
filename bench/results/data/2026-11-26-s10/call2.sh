#!/bin/sh
# session 10, call 2 (one H100): issue 13. B CPU only, 16 workers, M6 medium; C CPU+GPU against
# GPU only on the M6 medium, CPU workers x runtime.gpu_speed (smaller CPU blocks than the speed
# share leave them slack for the halo round trips); T traces of GPU only and GPU + 4 CPU;
# D the 3.07M box (box 40 refined once), GPU only against GPU + 14 CPU.
# Everything lands in $OUT/call2.tar.gz (at most 8 files come back), rebuilt after each part.
set -u
. bench/results/data/2026-11-26-s10/lib.sh
R=/tmp/r2; mkdir -p $R/B $R/C $R/D
save() { (cd $R && tar czf $OUT/call2.tar.gz .); }
{ nvidia-smi -L; nproc; lscpu | grep -E "Model name"; date; } > $R/device.txt 2>&1
run1() { # NAME DIR CFG ITERS KEYS... (env before)
	n=$1 d=$2 cfg=$3 it=$4; shift 4
	STARPU_PROFILING=1 timeout 90 $fv run $cfg output.dir=$m/$n numerics.iterations=$it numerics.residual_drop=0 output.vtu=no \
		output.restart_every=0 output.progress_every=0 "$@" >/dev/null 2>$R/$d/$n.err
	echo "$d $n rc=$? | $(grep -E 'workers' $R/$d/$n.err | head -1 | cut -c1-160)"
	rate $m/$n $(( it / 5 )); cp $m/$n/summary.json $R/$d/$n-summary.json; cp $m/$n/history.csv $R/$d/$n-history.csv
}
echo "== B: CPU only, M6 medium, 100 iterations"
STARPU_NCUDA=0 STARPU_NCPU=16 run1 cpu16 B $m/explicit.cfg 100
STARPU_NCUDA=0 STARPU_NCPU=16 run1 cpu16b16 B $m/explicit.cfg 100 partition.blocks=16
STARPU_NCUDA=0 STARPU_NCPU=16 run1 cpu16b64 B $m/explicit.cfg 100 partition.blocks=64
save; echo "elapsed $(el)"
echo "== C: M6 medium, 200 iterations"
run1 gpu-a C $m/explicit.cfg 200
for nc in 14 4 1; do for gs in 640 2560 10240; do
	run1 c$nc-s$gs C $m/explicit.cfg 200 runtime.ncpu=$nc runtime.gpu_speed=$gs
done; done
run1 c14-s2560-halopair C $m/explicit.cfg 200 runtime.ncpu=14 runtime.gpu_speed=2560 numerics.halo_tasks=pair
run1 gpu-b C $m/explicit.cfg 200
save; echo "elapsed $(el)"
echo "== T: traces, iterations 4-6"
for spec in "gpu:" "c4:runtime.ncpu=4" "c14:runtime.ncpu=14"; do
	n=${spec%%:*} k=${spec#*:}
	timeout 90 $fv run $m/explicit.cfg output.dir=$m/t$n numerics.iterations=6 numerics.residual_drop=0 output.vtu=no \
		output.restart_every=0 output.progress_every=0 $k output.trace=$R/trace-$n output.trace_from=4 >/dev/null 2>$R/trace-$n.err
	echo "T $n rc=$?"; tail -3 $R/trace-$n.err; rm -f $R/trace-$n/prof_file*
done
save; echo "elapsed $(el)"
echo "== D: box 40 refined once (3.07M cells), 100 iterations"
. bench/box_case.sh; box_case $top/device/bin 40 $m box40
for spec in "gpu:" "c14-s640:runtime.ncpu=14 runtime.gpu_speed=640" "c14-s2560:runtime.ncpu=14 runtime.gpu_speed=2560" "c4-s2560:runtime.ncpu=4 runtime.gpu_speed=2560"; do
	n=${spec%%:*} k=${spec#*:}
	[ $(el) -gt 540 ] && { echo "D $n skipped (time)"; continue; }
	run1 box-$n D $m/box40.cfg 100 mesh.refine=1 numerics.order=2 $k
done
save; echo "elapsed $(el)"
