#!/bin/sh
# The halo measurements of 2026-11-25-scaling-projection.md, in order, on the
# 2-core CPU machine (build d43c45b, /work/main/build). Run from the repository root.
set -x
D=bench/results/data/2026-11-25-scaling
B=${BUILD:-/work/main/build}
for m in medium fine; do
	/usr/bin/time -v bench/measure_halos.sh $B cases/onera_m6/onera_m6_$m.su2 8 2 8 64 200 > $D/halo-m6-$m.csv 2> $D/halo-m6-$m.log
done
for n in 60 120; do
	$B/fvstar mesh gen box --cells tet -n $n --perturb 0.1 -o /tmp/box$n.su2
	/usr/bin/time -v bench/measure_halos.sh $B /tmp/box$n.su2 8 2 8 64 200 > $D/halo-box$n.csv 2> $D/halo-box$n.log
done
