#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 24's GPU work of branch implicit9, as lanes of one GPU each (run in
# parallel on a node of 4 GPUs; lanes share a GPU in turn where there are
# fewer, and then take longer than one call): every run with the implicit
# solver's defaults, stopped at its share of the time (SIGTERM: it ends
# cleanly and its history counts).
#   bump     the TMR bump's finest grid, 1409 x 641 (bench/run_bump_finest.sh,
#            BUMP_SECONDS, default 420): orders against iterations and
#            seconds every 20 iterations
#   bumprus  the same with numerics.jacobian = rusanov (session 19 call
#            1: Roe's blocks' sweeps diverged at CFL 2920 and 356, 3 retries,
#            the residual held 3.6 orders down from iteration 60 to 123)
#   m6sa     the M6 SA carried grids (bench/run_m6_sa_family.sh on
#            XCOARSE then COARSE: 279k and 1.1M cells; 60 + 200 s; one
#            H200 took 22 and 144 s on 2026-11-28), then COARSE again with
#            numerics.jacobian = rusanov for M6SARUS_SECONDS (150, 0: not
#            run; lane m6sarus below, its row printed apart from the
#            family); M6SA_SECONDS: the two runs' caps ("60 200")
#   m6sa2    XCOARSE refined once on the GPU machine (mesh.refine: 2.23M
#            cells, the xcoarse wing's facets; M6SA2_SECONDS, default 420)
#   m6sarus  COARSE with the defaults and numerics.jacobian = rusanov (the
#            one implicit key cases/onera_m6/onera_m6_sa.cfg keeps: on a
#            20k-cell CPU mesh Roe's blocks' sweeps diverged down to CFL 36;
#            is it slower than Roe's on the shipped grid?),
#            M6SARUS_SECONDS (default 420)
#   plate    the TMR flat plate's finest grid (545 x 385) with the defaults
#            (cases/plate_tmr/plate_tmr.cfg, whose CFL and first-order keys
#            went on this branch; bench/run_sa_defaults.sh, 200 s), then,
#            where M6_MEDIUM names the inviscid M6 medium mesh (.su2, .gz or
#            .xz), its time = implicit alone (bench/run_implicit_defaults.sh,
#            120 s: the sweep pairs' rule of this branch against session 18
#            call 3's 83 iterations, 4.80 s on an H200)
# then the family's table (both M6 lanes, coarse to fine, beside TMR's) and
# plot (OUT/m6sa/m6_sa_family.png where matplotlib is installed).
# Usage: bench/run_implicit9_gpu.sh FVSTAR OUT XCOARSE COARSE
#   XCOARSE, COARSE  devdata/onera_m6_rans_step_xcoarse.fvm.xz, devdata/onera_m6_rans_step_coarse.fvm.xz
# Environment: LANES (default "bump m6sa m6sa2 plate"), BUMP_SECONDS,
# M6SA2_SECONDS, M6SARUS_SECONDS, M6_MEDIUM.
# On the GPU machine (4 GPUs, ~8 minutes):
#   export LD_LIBRARY_PATH=$PWD/device/lib
#   bench/run_implicit9_gpu.sh device/bin/fvstar $OUT/implicit9 devdata/onera_m6_rans_step_xcoarse.fvm.xz \
#     devdata/onera_m6_rans_step_coarse.fvm.xz
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/common.sh"
bench_setup 4 "$@"
xcoarse=$3 coarse=$4
ng=$(nvidia-smi -L 2>/dev/null | wc -l)
[ "$ng" -ge 1 ] || ng=1
echo "$(date -u +%H:%M:%S) $ng GPU(s); lanes: ${LANES:-bump m6sa m6sa2 plate}; results in $out"

# lane NAME: one lane's runs (on the GPU its caller set)
lane() {
	case $1 in
	bump) RUN_SECONDS=${BUMP_SECONDS:-420} sh "$top/bench/run_bump_finest.sh" "$fv" "$out/bump1" ;;
	bumprus) RUN_SECONDS=${BUMP_SECONDS:-420} SA_ARGS=numerics.jacobian=rusanov sh "$top/bench/run_bump_finest.sh" "$fv" "$out/bump1rus" ;;
	m6sa)
		REFINE=0 RUN_SECONDS=${M6SA_SECONDS:-60 200} sh "$top/bench/run_m6_sa_family.sh" "$fv" "$out/m6sa-carried" "$xcoarse" "$coarse"
		M6SARUS_SECONDS=${M6SARUS_SECONDS:-150}
		[ "$M6SARUS_SECONDS" -gt 0 ] && lane m6sarus
		;;
	m6sa2) CARRIED=no REFINE=1 RUN_SECONDS=${M6SA2_SECONDS:-420} sh "$top/bench/run_m6_sa_family.sh" "$fv" "$out/m6sa-refined" "$xcoarse" ;;
	m6sarus) REFINE=0 RUN_SECONDS=${M6SARUS_SECONDS:-420} SA_ARGS=numerics.jacobian=rusanov sh "$top/bench/run_m6_sa_family.sh" "$fv" "$out/m6sa-rus" "$coarse" ;;
	plate)
		BUMP_LEVELS='' PLATE_LEVELS=1 RUN_SECONDS=200 MAX_IT=20000 sh "$top/bench/run_sa_defaults.sh" "$fv" "$out/plate"
		[ -z "${M6_MEDIUM:-}" ] || CASES=alone RUN_SECONDS=120 M6_ITERATIONS=600 OUT_DIR=$out/m6medium \
			sh "$top/bench/run_implicit_defaults.sh" "$fv" "$M6_MEDIUM"
		;;
	*) echo "unknown lane $1" ;;
	esac
}

g=0
for name in ${LANES:-bump m6sa m6sa2 plate}; do
	eval "q$g=\"\${q$g:-} $name\""
	g=$(((g + 1) % ng))
done
g=0
while [ "$g" -lt "$ng" ]; do
	eval "names=\${q$g:-}"
	if [ -n "$names" ]; then
		(
			export CUDA_VISIBLE_DEVICES="$g" STARPU_HOME="$out/starpu-$g"
			for name in $names; do
				echo "$(date -u +%H:%M:%S) GPU $g: $name"
				lane "$name" >"$out/$name.txt" 2>&1
				echo "$(date -u +%H:%M:%S) GPU $g: $name done (rc $?)"
			done
		) &
	fi
	g=$((g + 1))
done
wait

echo "== bump, 1409 x 641"
tail -n 25 "$out/bump.txt" 2>/dev/null | cut -c1-200
echo "== bump, 1409 x 641, jacobian = rusanov"
tail -n 25 "$out/bumprus.txt" 2>/dev/null | cut -c1-200
echo "== TMR plate, 545 x 385, defaults"
cut -c1-250 "$out/plate/summary.txt" 2>/dev/null
echo "== M6 medium, time = implicit alone"
tail -n 3 "$out/plate.txt" 2>/dev/null | cut -c1-250
echo "== M6 SA family"
mkdir -p "$out/m6sa"
echo "grid,mesh,refine,cells,n_inv23,iterations,seconds,orders,CL,CD,dCL50_pct,dCD50_pct,stopped" >"$out/m6sa/m6_sa_family.csv"
for d in m6sa-carried m6sa-refined; do
	[ -f "$out/$d/m6_sa_family.csv" ] && tail -n +2 "$out/$d/m6_sa_family.csv" >>"$out/m6sa/m6_sa_family.csv"
done
python3 "$top/bench/m6_sa_family_plot.py" "$out/m6sa" | cut -c1-220
echo "== M6 SA, COARSE, the defaults with jacobian = rusanov"
tail -n +2 "$out/m6sa-rus/m6_sa_family.csv" 2>/dev/null
