#!/bin/sh
# issue 11: M6 medium implicit sweeps study on the GPU
set -u
top=$PWD
export LD_LIBRARY_PATH=$top/device/lib
fv=$top/device/bin/fvstar
nvidia-smi -L; date
export top_srcdir=$top top_builddir=$top/device/bin
for t in ${GPU_TESTS:-}; do
	timeout 300 sh tests/wrap.sh sh "$t" >"$OUT/$(basename "$t").log" 2>&1
	echo "$t rc=$?"; tail -3 "$OUT/$(basename "$t").log"
done
m=/tmp/m6; mkdir -p $m
gunzip -c devdata/onera_m6_medium.su2.gz > $m/onera_m6_medium.su2
sed "s|^file = .*|file = $m/onera_m6_medium.su2|" cases/onera_m6/onera_m6.cfg > $m/m6.cfg
run() { name=$1; shift; /usr/bin/time -f "$name: %e s wall, %M kB" $fv run $m/m6.cfg output.dir=$m/$name output.vtu=no \
	output.restart_every=0 output.snapshot_every=0 output.progress_every=50 "$@" >$m/$name.out 2>$m/$name.err; echo "$name rc=$?"; grep -E "iterations in|error|wall" $m/$name.err | tail -3;
	awk -F, 'NR>1 {printf "%d %.2f %.5f %.2f| ", $1, $9, $12, $2}' $m/$name/history.csv | tr '|' '\n' | awk 'NR%25==0' | tr '\n' ' '; echo; }
IMP="numerics.time=implicit numerics.cfl=10 numerics.residual_drop=8 numerics.cfl_ramp=growth numerics.cfl_growth=1.5"
for spec in ${RUNS}; do
	IFS=: read name v sw cmax fo it extra <<X
$spec
X
	run $name $IMP numerics.implicit=$v numerics.sweeps=$sw numerics.cfl_max=$cmax numerics.first_order=$fo numerics.iterations=$it $(echo "${extra:-}" | tr ',' ' ')
done
(cd $m && tar czf $OUT/m6-histories.tgz */history.csv */summary.json *.err)
date
