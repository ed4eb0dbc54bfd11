#!/bin/sh
# session 8, call 1: A every tests/gpu/*.sh; C M6 medium GPU only against GPU + 15 CPU (balance speed)
set -u
. devdata/lib.sh
nvidia-smi -L; nvidia-smi | sed -n 3p; nproc; lscpu | grep -E "Model name"; $fv runtime info 2>&1 | head -8; date
echo "== A: GPU tests"
mkdir -p /tmp/A
for t in tests/gpu/*.sh; do
	b=$(basename $t .sh); s=$(date +%s)
	timeout 200 sh tests/wrap.sh sh "$t" >/tmp/A/$b.log 2>&1; rc=$?
	echo "A $b rc=$rc $(( $(date +%s) - s ))s | $(tail -1 /tmp/A/$b.log | cut -c1-200)"
done
echo "elapsed $(el)"
echo "== C: M6 medium explicit, 300 iterations, GPU only vs GPU + 15 CPU"
mkdir -p /tmp/C
for spec in "gpu" "gpu15:runtime.ncpu=15" ${CEQ:+"gpu15eq:runtime.ncpu=15,runtime.balance=equal"}; do
	name=${spec%%:*}; extra=$(echo "${spec#*:}" | tr ',' ' '); [ "$name" = "$spec" ] && extra=
	for k in 1 2; do
		[ $(el) -gt 520 ] && { echo "C $name $k: skipped (time)"; continue; }
		$fv run $m/explicit.cfg output.dir=$m/$name$k numerics.iterations=300 numerics.residual_drop=0 output.vtu=no \
			output.restart_every=0 output.progress_every=0 $extra >/dev/null 2>/tmp/C/$name$k.err
		echo "C $name run $k rc=$?"; grep -E "workers|blocks" /tmp/C/$name$k.err | cut -c1-400
		rate $m/$name$k 50; cp $m/$name$k/summary.json /tmp/C/$name$k-summary.json; cp $m/$name$k/history.csv /tmp/C/$name$k-history.csv
	done
done
echo "elapsed $(el)"
if [ -n "${DOB:-}" ] && [ $(el) -lt 480 ]; then
	echo "== B: CPU only, default blocks, 100 iterations (devdata/final4.sh's command)"
	mkdir -p /tmp/B
	for n in 16 15; do
		STARPU_NCUDA=0 STARPU_NCPU=$n $fv run $m/m6.cfg numerics.time=steady numerics.cfl=1 numerics.cfl_max=0 numerics.first_order=0 numerics.iterations=100 output.vtu=no output.progress_every=0 output.restart_every=0 output.dir=$m/b$n > /dev/null 2> /tmp/B/b$n.err
		echo "B x$n rc=$? $(grep -E 'iterations in' /tmp/B/b$n.err)"; rate $m/b$n 20
		cp $m/b$n/summary.json /tmp/B/b$n-summary.json; cp $m/b$n/history.csv /tmp/B/b$n-history.csv
	done
fi
cd /tmp && tar czf $OUT/call1.tar.gz A C $( [ -d B ] && echo B ); echo "elapsed $(el)"
