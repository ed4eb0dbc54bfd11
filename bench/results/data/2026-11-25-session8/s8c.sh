#!/bin/sh
# session 8: the GPU-only scheduler: lws (today's default) against dmda and dmdar, M6 medium and the 10M box
. bench/results/data/2026-11-25-session8/lib.sh
export STARPU_HOME=/tmp/sh_fresh; rm -rf $STARPU_HOME; mkdir -p $STARPU_HOME
K="numerics.residual_drop=0 output.vtu=no output.progress_every=0 output.restart_every=0"
for rep in 1 2; do
for p in lws dmda dmdar eager; do
	$fv run $m/explicit.cfg $K numerics.iterations=300 runtime.sched=$p output.dir=/tmp/s_$p$rep 2>/tmp/s_$p$rep.err
	echo "m6 medium $p $rep: $(rate /tmp/s_$p$rep 50)"
done; done
echo "t=$(el)"
$fv mesh gen box --cells tet -n 119 --perturb 0.1 -o /tmp/box.su2 >/dev/null 2>&1; echo "box t=$(el)"
sed "s|^file = .*|file = /tmp/box.su2|" cases/freestream/freestream.cfg > /tmp/box.cfg
for p in lws dmda; do
	$fv run /tmp/box.cfg $K numerics.iterations=100 numerics.order=2 runtime.sched=$p output.dir=/tmp/b_$p 2>/tmp/b_$p.err || tail -3 /tmp/b_$p.err
	echo "box 10M $p: $(rate /tmp/b_$p 20) t=$(el)"
done
