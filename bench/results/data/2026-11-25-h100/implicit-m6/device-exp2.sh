#!/bin/sh
# issue 11 on the GPU machine: implicit GPU test, the M6 medium (GPU) with
# the case file's settings and its surface, the coarse M6 on CPU workers
set -u
top=$PWD
[ -d device ] || tar xJf devdata/device.tar.xz
export LD_LIBRARY_PATH=$top/device/lib
fv=$top/device/bin/fvstar
nvidia-smi -L; nproc; date
export top_srcdir=$top top_builddir=$top/device/bin
for t in ${GPU_TESTS:-}; do
	timeout 300 sh tests/wrap.sh sh "$t" >"$OUT/$(basename "$t").log" 2>&1
	echo "$t rc=$?"; tail -3 "$OUT/$(basename "$t").log"
done
m=/tmp/m6; mkdir -p $m
for lv in ${LEVELS:-medium}; do
	[ -f devdata/onera_m6_$lv.su2.gz ] && gunzip -c devdata/onera_m6_$lv.su2.gz > $m/onera_m6_$lv.su2
	[ -f devdata/onera_m6_$lv.su2.xz ] && xz -dc devdata/onera_m6_$lv.su2.xz > $m/onera_m6_$lv.su2
	sed "s|^file = .*|file = $m/onera_m6_$lv.su2|" cases/onera_m6/onera_m6.cfg > $m/$lv.cfg
done
run() { lv=$1 name=$2; shift 2; /usr/bin/time -f "$name: %e s wall, %M kB" $fv run $m/$lv.cfg output.dir=$m/$name \
	output.progress_every=50 "$@" >$m/$name.out 2>$m/$name.err; echo "$name rc=$?"; grep -E "iterations in|error|wall|frozen|workers" $m/$name.err | tail -4;
	awk -F, 'NR>1 {printf "%d %.2f %.5f %.2f| ", $1, $9, $12, $2}' $m/$name/history.csv | tr '|' '\n' | awk 'NR%25==0' | tr '\n' ' '; echo; }
eval "${RUNCMDS:-}"
(cd $m && tar czf $OUT/histories.tgz */history.csv */summary.json *.err $(ls -d */surface 2>/dev/null))
date
