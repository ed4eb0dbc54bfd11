#!/bin/sh
# The halo measurements of 2026-11-26-scaling-projection.md (face-only halos counted), on the
# 2-core CPU machine, build /work/main/build at this commit. Run from the repository root;
# the M6 meshes from cases/onera_m6/make_mesh.sh (MESHDIR, default cases/onera_m6).
set -x
D=bench/results/data/2026-11-26-s10/halos
B=${BUILD:-/work/main/build}
M=${MESHDIR:-cases/onera_m6}
for m in medium fine; do
	[ -f $M/onera_m6_$m.su2 ] || sh cases/onera_m6/make_mesh.sh $m $M/onera_m6_$m.su2
	/usr/bin/time -v bench/measure_halos.sh $B $M/onera_m6_$m.su2 8 2 8 64 200 > $D/halo-m6-$m.csv 2> $D/halo-m6-$m.log
done
for n in 60 120; do
	[ -f /tmp/box$n.su2 ] || $B/fvstar mesh gen box --cells tet -n $n --perturb 0.1 -o /tmp/box$n.su2
	/usr/bin/time -v bench/measure_halos.sh $B /tmp/box$n.su2 8 2 4 8 64 200 > $D/halo-box$n.csv 2> $D/halo-box$n.log
done
