#!/bin/sh
# issue 10 checks on a GPU machine, with the installed-layout pack only
set -u
top=$PWD
export LD_LIBRARY_PATH=$top/device/lib
fv=$top/device/bin/fvstar
t=/tmp/g; mkdir -p $t
nvidia-smi -L
echo "== runtime check (packed, installed layout)"; $fv runtime check 2>&1 | tail -4
$fv mesh gen ramp --cells mixed --nx 60 --ny 32 --nz 2 --hi 1.5,1,0.1 --angle 10 -o $t/w.su2 >/dev/null 2>&1
sed "s|^file = wedge.su2|file = $t/w.su2|" cases/wedge/wedge.cfg > $t/w.cfg
for s in default dmda dmdas eager; do
	a=""; [ $s = default ] || a="runtime.sched=$s"
	env -u STARPU_SILENT STARPU_HOME=$t/home-$s $fv run $t/w.cfg numerics.iterations=200 numerics.residual_drop=0 output.progress_every=0 output.dir=$t/r-$s partition.blocks=4 $a >/dev/null 2>$t/err-$s
	echo "== sched $s: rc=$? stderr lines $(wc -l < $t/err-$s), StarPU warnings: $(grep -ci 'warn\|deviation\|not a very smart\|took a very long' $t/err-$s)"
	grep "scheduler" $t/err-$s
done
echo "== CPU+GPU (ncpu=4) default scheduler"
env -u STARPU_SILENT STARPU_HOME=$t/home-mix $fv run $t/w.cfg numerics.iterations=200 numerics.residual_drop=0 output.progress_every=0 output.dir=$t/r-mix partition.blocks=8 runtime.ncpu=4 >/dev/null 2>$t/err-mix
echo "rc=$? stderr lines $(wc -l < $t/err-mix), StarPU warnings: $(grep -ci 'warn\|deviation\|not a very smart\|took a very long' $t/err-mix)"; grep scheduler $t/err-mix
echo "== traced GPU run"
$fv run $t/w.cfg numerics.iterations=5 output.progress_every=0 output.dir=$t/tr output.trace=$t/trace >/dev/null 2>$t/err-tr; echo "rc=$?"; tail -2 $t/err-tr; ls $t/trace | head
echo "== restart: 4 CPU blocks 10 it -> GPU 1 block 10 it vs CPU 20 it"
STARPU_NCUDA=0 $fv run $t/w.cfg numerics.iterations=20 numerics.residual_drop=0 output.progress_every=0 partition.blocks=4 runtime.ncpu=4 output.dir=$t/u20 2>/dev/null >/dev/null
STARPU_NCUDA=0 $fv run $t/w.cfg numerics.iterations=10 numerics.residual_drop=0 output.progress_every=0 partition.blocks=4 runtime.ncpu=4 output.dir=$t/u10 2>/dev/null >/dev/null
$fv run $t/w.cfg numerics.iterations=10 numerics.residual_drop=0 output.progress_every=0 partition.blocks=0 output.dir=$t/g10 output.restart=$t/u10/restart.bin 2>$t/err-g >/dev/null; echo "rc=$?"; grep -i "worker\|continuing" $t/err-g
PYTHONPATH=tests/cli python3 -c "
import compare_runs as c, sys
(a, n), (b, m) = c.state('$t/u20'), c.state('$t/g10')
big = [max(abs(x) for x in a[k]) or 1 for k in range(5)]
print('CPU 4 blocks -> GPU 1 block vs CPU 20 it: cells %d %d, max rel diff %.3g' % (n, m, max(max(abs(x - y) for x, y in zip(a[k], b[k])) / big[k] for k in range(5))))
"
cp $t/err-* $OUT/ 2>/dev/null; true
