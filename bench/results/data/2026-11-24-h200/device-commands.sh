#!/bin/sh
# device run: GPU tests of the new build, then run_stage before/after
set -u
top=$PWD
export LD_LIBRARY_PATH=$top/deps/starpu-1.3.10/lib:$top/device/lib
nvidia-smi -L
date
export top_srcdir=$top
for t in ${TESTS_GPU:-tests/gpu/solver_gpu.sh tests/gpu/bench_stage.sh}; do
	[ -f "$t" ] || continue
	top_builddir=$top/device/new sh tests/wrap.sh sh "$t" >"$OUT/$(basename "$t").log" 2>&1
	echo "$t rc=$?"; tail -3 "$OUT/$(basename "$t").log"
done
date
mkdir -p /tmp/b
device/new/fvstar mesh gen box --cells tet -n 60 --perturb 0.1 -o /tmp/b/box60.su2 2>&1 | tail -1
cat >/tmp/b/c.cfg <<CFG
[mesh]
file = box60.su2
[flow]
mach = 0.5
alpha = 2
[bc]
xmin = farfield
xmax = farfield
ymin = farfield
ymax = farfield
zmin = farfield
zmax = farfield
[output]
vtu = no
progress_every = 0
CFG
for i in 1 2 3; do for v in old new; do
	echo "== $v round $i"
	CASE=/tmp/b/c.cfg MESH_ARGS=mesh.refine=1 BENCH_TMP=/tmp/b/$v$i bench/run_stage.sh device/$v 0 100 10 default:flux_sum=atomic 2>&1
done; done | tee "$OUT/stage.txt"
date
