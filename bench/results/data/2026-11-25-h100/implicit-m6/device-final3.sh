#!/bin/sh
set -u
top=$PWD
[ -d device ] || tar xJf devdata/device.tar.xz
export LD_LIBRARY_PATH=$top/device/lib
export top_srcdir=$top top_builddir=$top/device/bin
fv=$top/device/bin/fvstar
nvidia-smi -L; date
timeout 240 sh tests/wrap.sh sh tests/gpu/implicit_gpu.sh > $OUT/implicit_gpu.log 2>&1; echo "implicit_gpu rc=$?"; tail -1 $OUT/implicit_gpu.log
m=/tmp/m6; mkdir -p $m
gunzip -c devdata/onera_m6_medium.su2.gz > $m/onera_m6_medium.su2
sed "s|^file = .*|file = $m/onera_m6_medium.su2|" cases/onera_m6/onera_m6.cfg > $m/medium.cfg
for sw in 60 40; do
	$fv run $m/medium.cfg output.dir=$m/s$sw numerics.sweeps=$sw output.vtu=no output.restart_every=0 output.progress_every=0 > /dev/null 2> $m/s$sw.err
	echo "sweeps $sw rc=$? $(grep 'iterations in' $m/s$sw.err)"
	cp $m/s$sw/history.csv $OUT/medium-s$sw-history.csv
done
date
