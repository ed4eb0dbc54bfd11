#!/bin/sh
# session 8, call 3: B scaling 1..16 CPU workers and a 1-worker split by stage;
# D traces (task time against idle) of 1x14 / 2x7 / 1x12 / 4x3, repeats, mpirun -np 1
set -u
. devdata/lib.sh
export OMPI_MCA_btl_vader_single_copy_mechanism=none STARPU_NCUDA=0
mkdir -p /tmp/B /tmp/D /tmp/T
K="numerics.time=steady numerics.cfl=1 numerics.cfl_max=0 numerics.first_order=0 output.vtu=no output.progress_every=0 output.restart_every=0"
echo "== B: scaling (final4.sh's command, default blocks)"
for spec in 1:12:4 4:30:10 8:40:10 16:100:20; do
	n=${spec%%:*}; r=${spec#*:}; it=${r%%:*}; from=${r#*:}
	STARPU_NCPU=$n $fv run $m/m6.cfg $K numerics.iterations=$it output.dir=$m/s$n > /dev/null 2> /tmp/B/s$n.err
	echo "B x$n rc=$?"; rate $m/s$n $from; cp $m/s$n/summary.json /tmp/B/s$n-summary.json; cp $m/s$n/history.csv /tmp/B/s$n-history.csv
done
echo "== B: split by stage, 1 CPU worker (4 iterations traced)"
STARPU_NCPU=1 $fv run $m/m6.cfg $K numerics.iterations=4 output.dir=$m/tr1 output.trace=$m/tr1/trace > /dev/null 2> /tmp/B/tr1.err
echo "trace rc=$?"; tail -4 /tmp/B/tr1.err
nu=$(grep -c "^Name: update" $m/tr1/trace/tasks.rec); nb=$(python3 -c "import json;print(json.load(open('$m/tr1/summary.json'))['partition']['blocks'])")
python3 bench/stage_split.py $m/tr1/trace/tasks.rec 978993 $((nu / nb / 2)) 2 | tee /tmp/B/split1.md; rm -rf $m/tr1/trace
echo "elapsed $(el)"
echo "== D: traces, 8 iterations, 32 blocks"
for spec in 1x14 2x7 1x12 4x3; do
	r=${spec%x*}; w=${spec#*x}; d=$m/t$spec
	if [ $r = 1 ]; then
		STARPU_NCPU=$w $fv run $m/explicit.cfg output.dir=$d partition.blocks=32 numerics.iterations=8 numerics.residual_drop=0 output.vtu=no output.progress_every=0 output.trace=$d/trace output.trace_from=4 >/dev/null 2>/tmp/T/$spec.err
	else
		timeout 120 mpirun --oversubscribe --bind-to none -np $r -x STARPU_SILENT -x STARPU_NCUDA $fv run $m/explicit.cfg output.dir=$d partition.blocks=32 numerics.iterations=8 numerics.residual_drop=0 output.vtu=no output.progress_every=0 output.trace=$d/trace output.trace_from=4 >/dev/null 2>/tmp/T/$spec.err
	fi
	echo "T $spec rc=$?"; grep -E "trace summary|  all " /tmp/T/$spec.err; ls $d/trace | tr '\n' ' '; echo
	if [ -f $d/trace/tasks.rec ]; then
		nu=$(grep -c "^Name: update" $d/trace/tasks.rec); echo "update tasks $nu"
		python3 bench/stage_split.py $d/trace/tasks.rec 978993 $((nu / 64)) 2 | tee /tmp/T/split$spec.md
	fi
	rm -rf $d/trace
done
echo "elapsed $(el)"
echo "== D: repeats, 40 iterations, 32 blocks, s/it from iterations 10-40"
one() { # NAME NP NCPU
	if [ $2 = 1 ]; then STARPU_NCPU=$3 $fv run $m/explicit.cfg output.dir=$m/$1 partition.blocks=32 numerics.iterations=40 numerics.residual_drop=0 output.vtu=no output.progress_every=0 >/dev/null 2>/tmp/D/$1.err
	else timeout 120 mpirun --oversubscribe --bind-to none -np ${2%mpi} -x STARPU_SILENT -x STARPU_NCUDA ${3:+-x STARPU_NCPU=$3} $fv run $m/explicit.cfg output.dir=$m/$1 partition.blocks=32 numerics.iterations=40 numerics.residual_drop=0 output.vtu=no output.progress_every=0 >/dev/null 2>/tmp/D/$1.err; fi
	echo "D $1 rc=$? $(grep workers /tmp/D/$1.err | head -1 | cut -c1-60)"; rate $m/$1 10; cp $m/$1/summary.json /tmp/D/$1-summary.json; cp $m/$1/history.csv /tmp/D/$1-history.csv
}
for k in 2 3; do
	[ $(el) -gt 500 ] && break
	one r1x15-$k 1 15; one r1x14-$k 1 14; one r2x7-$k 2 ""; one r1x12-$k 1 12; one r4x3-$k 4 ""
done
[ $(el) -lt 520 ] && one r1mpi15 1mpi 15
echo "elapsed $(el)"
cd /tmp && tar czf $OUT/call3.tar.gz B D T; echo "elapsed $(el)"
