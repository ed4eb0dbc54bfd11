#!/bin/sh
# issue 11 on a GPU machine: the implicit codelets on CUDA against the CPU,
# the explicit GPU tests again, then the M6 medium (979k tets) explicit vs
# implicit on the GPU
set -u
top=$PWD
export LD_LIBRARY_PATH=$top/device/lib
export top_srcdir=$top top_builddir=$top/device/bin
fv=$top/device/bin/fvstar
nvidia-smi -L; date
for t in ${GPU_TESTS-tests/gpu/implicit_gpu.sh tests/gpu/solver_gpu.sh}; do
	timeout 300 sh tests/wrap.sh sh "$t" >"$OUT/$(basename "$t").log" 2>&1
	echo "$t rc=$?"; tail -2 "$OUT/$(basename "$t").log"
done
date
m=/tmp/m6; mkdir -p $m; gunzip -c devdata/onera_m6_medium.su2.gz > $m/onera_m6_medium.su2
sed "s|^file = .*|file = $m/onera_m6_medium.su2|" cases/onera_m6/onera_m6.cfg > $m/m6.cfg
run() { name=$1; shift; /usr/bin/time -f "$name: %e s wall, %M kB" $fv run $m/m6.cfg output.dir=$m/$name output.vtu=no \
	output.restart_every=0 output.progress_every=100 "$@" >/dev/null 2>$m/$name.err; echo "$name rc=$?"; grep -E "^iteration|CL |iterations in|error|wall" $m/$name.err | tail -4; }
[ -n "${NO_EXPLICIT:-}" ] || run explicit numerics.iterations=400 numerics.residual_drop=0
IMP="numerics.time=implicit numerics.cfl=5 numerics.residual_drop=8"
for spec in ${RUNS-point:point:1e4:0 lusgs:lusgs:1e4:0 point-freeze:point:1e4:300 point-cfl1e3:point:1e3:0}; do
	IFS=: read name v cmax fr ramp gr extra <<X
$spec
X
	run $name $IMP numerics.implicit=$v numerics.cfl_max=$cmax numerics.limiter_freeze=$fr numerics.iterations=${ITERS:-1200} \
		numerics.cfl_ramp=${ramp:-residual} numerics.cfl_growth=${gr:-2} $(echo "${extra:-}" | tr ',' ' ')
done
(cd $m && tar czf $OUT/m6-histories.tgz */history.csv */summary.json *.err)
date
