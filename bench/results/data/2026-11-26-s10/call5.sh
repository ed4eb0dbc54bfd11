#!/bin/sh
# session 10, call 5 (one H100): CPU+GPU again after the fix of the speed-weighted blocks (the CPU
# blocks held one cell each before: METIS's 3% tolerance let the GPU block take their share).
# C M6 medium GPU only against GPU + CPU workers x runtime.gpu_speed; T a trace of GPU + 14 CPU;
# D the 3.07M box; S bench sched, GPU + 15 CPU with blocks sized by speed (M6 coarse).
set -u
. bench/results/data/2026-11-26-s10/lib.sh
R=/tmp/r5; mkdir -p $R/C $R/D
save() { (cd $R && tar czf $OUT/call5.tar.gz .); }
{ nvidia-smi -L; nproc; lscpu | grep -E "Model name"; date; } > $R/device.txt 2>&1
s=$(date +%s); timeout 60 sh tests/wrap.sh sh tests/gpu/balance_gpu.sh > $R/balance_gpu.log 2>&1
echo "A balance_gpu rc=$? $(( $(date +%s) - s ))s | $(tail -1 $R/balance_gpu.log | cut -c1-200)"
run1() { # NAME DIR CFG ITERS KEYS...
	n=$1 d=$2 cfg=$3 it=$4; shift 4
	STARPU_PROFILING=1 timeout 90 $fv run $cfg output.dir=$m/$n numerics.iterations=$it numerics.residual_drop=0 output.vtu=no \
		output.restart_every=0 output.progress_every=0 "$@" >/dev/null 2>$R/$d/$n.err
	echo "$d $n rc=$? | $(grep -E 'edge cut' $R/$d/$n.err | head -1 | cut -c40-140)"
	rate $m/$n $(( it / 5 )); cp $m/$n/summary.json $R/$d/$n-summary.json; cp $m/$n/history.csv $R/$d/$n-history.csv
	python3 -c "import json; s = json.load(open('$m/$n/summary.json')); c = s['partition']['block_cells']; print('  cells', c[:3], '...', 'busy', s['workers'].get('busy_mean'))"
}
echo "== C: M6 medium, 200 iterations"
run1 gpu-a C $m/explicit.cfg 200
for nc in 14 4 1; do for gs in 640 2560 10240; do
	run1 c$nc-s$gs C $m/explicit.cfg 200 runtime.ncpu=$nc runtime.gpu_speed=$gs
done; done
run1 gpu-b C $m/explicit.cfg 200
save; echo "elapsed $(el)"
echo "== T: trace, GPU + 14 CPU (gpu_speed 2560), iterations 4-6"
timeout 90 $fv run $m/explicit.cfg output.dir=$m/t14 numerics.iterations=6 numerics.residual_drop=0 output.vtu=no \
	output.restart_every=0 output.progress_every=0 runtime.ncpu=14 runtime.gpu_speed=2560 output.trace=$R/trace-c14 \
	output.trace_from=4 >/dev/null 2>$R/trace-c14.err
echo "T rc=$?"; tail -4 $R/trace-c14.err; rm -f $R/trace-c14/prof_file*
save; echo "elapsed $(el)"
echo "== D: box 40 refined once (3.07M cells), 100 iterations"
. bench/box_case.sh; box_case $top/device/bin 40 $m box40
for spec in "gpu:" "c14-s640:runtime.ncpu=14 runtime.gpu_speed=640" "c14-s2560:runtime.ncpu=14 runtime.gpu_speed=2560"; do
	n=${spec%%:*} k=${spec#*:}
	run1 box-$n D $m/box40.cfg 100 mesh.refine=1 numerics.order=2 $k
done
save; echo "elapsed $(el)"
echo "== S: bench sched gpu+15, balance speed, M6 coarse"
K="mesh.file=$m/m6c.su2 numerics.time=steady numerics.cfl=1.5 numerics.cfl_max=0 numerics.first_order=0 numerics.limiter_freeze_drop=0"
$fv bench sched cases/onera_m6/onera_m6.cfg $K --workers gpu,gpu+15 --balance speed --blocks-per-worker 1,2 --iterations 30 \
	--warmup 5 --calibrate 15 --timeout 40 -o /tmp/sched > $R/sched.log 2>&1
echo "S rc=$? $(el)"; tail -2 $R/sched.log; cp /tmp/sched/sched.csv /tmp/sched/sched.md $R/ 2>/dev/null
save; echo "elapsed $(el)"
