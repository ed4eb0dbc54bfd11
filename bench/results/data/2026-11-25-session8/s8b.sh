#!/bin/sh
# session 8: fvstar bench sched on the H200 node, M6 coarse explicit; $1 = worker sets, $2 = --append or nothing
. bench/results/data/2026-11-25-session8/lib.sh
c=/tmp/m6c; mkdir -p $c
[ -f $c/m6c.su2 ] || gunzip -c devdata/onera_m6_coarse.su2.gz > $c/m6c.su2
K="mesh.file=$c/m6c.su2 numerics.time=steady numerics.cfl=1.5 numerics.cfl_max=0 numerics.first_order=0 numerics.limiter_freeze_drop=0"
mkdir -p /tmp/sched
[ -f $OUT/../sched.csv ] || true
cp bench/results/data/2026-11-25-session8/sched.csv /tmp/sched/ 2>/dev/null || true
$fv bench sched cases/onera_m6/onera_m6.cfg $K --workers $1 --blocks-per-worker 1,2 --iterations 30 --warmup 5 \
	--calibrate 15 --timeout 60 $2 -o /tmp/sched > $OUT/bench_$(echo $1 | tr ",+" "__").log 2>&1
echo "rc=$? t=$(el)"
tail -5 $OUT/bench_$(echo $1 | tr ",+" "__").log
cp /tmp/sched/sched.csv $OUT/sched.csv
