#!/bin/sh
# session 10, call 1 (one H100): A every tests/gpu/*.sh on this build (face halos, split halos,
# fetch tasks: never run on a GPU before); C M6 medium explicit GPU only against GPU + CPU
# workers, and a traced CPU+GPU run; S fvstar bench sched on the H100 node (M6 coarse).
set -u
. bench/results/data/2026-11-26-s10/lib.sh
{ nvidia-smi -L; nvidia-smi | sed -n 3p; nproc; lscpu | grep -E "Model name"; date; } > $OUT/device.txt 2>&1
cat $OUT/device.txt
echo "== A: GPU tests"
mkdir -p $OUT/A
for t in tests/gpu/*.sh; do
	b=$(basename $t .sh); s=$(date +%s)
	timeout 150 sh tests/wrap.sh sh "$t" >$OUT/A/$b.log 2>&1; rc=$?
	echo "A $b rc=$rc $(( $(date +%s) - s ))s | $(tail -1 $OUT/A/$b.log | cut -c1-200)"
done
echo "elapsed $(el)"
echo "== C: M6 medium explicit, 200 iterations"
mkdir -p $OUT/C
for spec in "gpu" "gpu14:runtime.ncpu=14" "gpu1:runtime.ncpu=1" "gpu14eager:runtime.ncpu=14,runtime.sched=eager"; do
	name=${spec%%:*}; extra=$(echo "${spec#*:}" | tr ',' ' '); [ "$name" = "$spec" ] && extra=
	STARPU_PROFILING=1 timeout 60 $fv run $m/explicit.cfg output.dir=$m/$name numerics.iterations=200 numerics.residual_drop=0 output.vtu=no \
		output.restart_every=0 output.progress_every=0 $extra >/dev/null 2>$OUT/C/$name.err
	echo "C $name rc=$?"; grep -E "workers|blocks" $OUT/C/$name.err | cut -c1-300
	rate $m/$name 40; cp $m/$name/summary.json $OUT/C/$name-summary.json; cp $m/$name/history.csv $OUT/C/$name-history.csv
done
echo "C trace: GPU + 14 CPU, iterations 4-6"
timeout 90 $fv run $m/explicit.cfg output.dir=$m/tr numerics.iterations=6 numerics.residual_drop=0 output.vtu=no output.restart_every=0 \
	output.progress_every=0 runtime.ncpu=14 output.trace=$m/trace14 output.trace_from=4 >/dev/null 2>$OUT/C/tr.err
echo "trace rc=$?"; tail -4 $OUT/C/tr.err
(cd $m && rm -f trace14/prof_file* && tar cJf $OUT/C/trace14.tar.xz trace14); ls -la $OUT/C/trace14.tar.xz
echo "elapsed $(el)"
echo "== S: bench sched, M6 coarse"
K="mesh.file=$m/m6c.su2 numerics.time=steady numerics.cfl=1.5 numerics.cfl_max=0 numerics.first_order=0 numerics.limiter_freeze_drop=0"
$fv bench sched cases/onera_m6/onera_m6.cfg $K --workers gpu,cpu,gpu+15 --blocks-per-worker 1,2 --iterations 30 --warmup 5 \
	--calibrate 15 --timeout 40 -o $OUT/sched > $OUT/sched.log 2>&1
echo "S rc=$? $(el)"; tail -3 $OUT/sched.log
