#!/bin/sh
# session 8, call 4: GPU tests on the new run path (mesh parts, per-block state);
# CPU-only ranks with the restart write out of the timing; memory per rank
. bench/results/data/2026-11-25-session8/lib.sh
export OMPI_MCA_btl_vader_single_copy_mechanism=none
mkdir -p $OUT/A $OUT/D
for t in tests/gpu/*.sh; do
	n=$(basename $t .sh)
	timeout 200 sh tests/wrap.sh sh $t > $OUT/A/$n.log 2>&1
	echo "A $n rc=$? $(tail -1 $OUT/A/$n.log | cut -c1-150) t=$(el)"
done
K="numerics.iterations=40 numerics.residual_drop=0 output.vtu=no output.progress_every=0 partition.blocks=32"
run1() { STARPU_NCUDA=0 STARPU_NCPU=$1 $fv run $m/explicit.cfg $K output.dir=$OUT/D/$2 2>$OUT/D/$2.err; }
runR() { mpirun --oversubscribe --bind-to none -np $1 -x STARPU_SILENT -x STARPU_NCUDA=0 -x STARPU_NCPU=$2 -x OMPI_MCA_btl_vader_single_copy_mechanism $fv run $m/explicit.cfg $K output.dir=$OUT/D/$3 $4 2>$OUT/D/$3.err; }
for rep in 1 2; do
	run1 15 r1x15_$rep; echo "D 1x15 $rep: $(rate $OUT/D/r1x15_$rep 10)"
	run1 14 r1x14_$rep; echo "D 1x14 $rep: $(rate $OUT/D/r1x14_$rep 10)"
	runR 2 7 r2x7_$rep; echo "D 2x7 $rep: $(rate $OUT/D/r2x7_$rep 10) | $(grep 'peak memory' $OUT/D/r2x7_$rep.err)"
	run1 12 r1x12_$rep; echo "D 1x12 $rep: $(rate $OUT/D/r1x12_$rep 10)"
	runR 4 3 r4x3_$rep; echo "D 4x3 $rep: $(rate $OUT/D/r4x3_$rep 10) | $(grep 'peak memory' $OUT/D/r4x3_$rep.err)"
	echo "t=$(el)"
done
$fv mesh partition $m/m6.su2 --ranks 4 --blocks 32 -o $m/p4 2>$OUT/D/p4.err; tail -1 $OUT/D/p4.err
runR 4 3 d4x3 mesh.file=$m/p4; echo "D 4x3 dir: $(rate $OUT/D/d4x3 10) | $(grep 'peak memory' $OUT/D/d4x3.err)"
grep -h "restart_write_seconds" $OUT/D/*/summary.json | sort | uniq -c | head
cmp $OUT/D/r1x15_1/restart.bin $OUT/D/r4x3_1/restart.bin && cmp $OUT/D/r1x15_1/restart.bin $OUT/D/d4x3/restart.bin && echo "restart.bin identical 1x15 / 4x3 / 4x3 dir"
cd $OUT && tar czf D.tgz D/*.err D/*/summary.json D/*/history.csv && rm -rf D && tar czf A.tgz A && rm -rf A
echo "done t=$(el)"
