#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 24's GPU work of branch implicit10: one lane on one GPU (the one
# CUDA_VISIBLE_DEVICES names, or GPU 0), every run with the implicit
# solver's defaults, stopped at its share of the time (SIGTERM: it ends
# cleanly and its history counts):
#   bump     the TMR bump's finest grid, 1409 x 641 (bench/run_bump_finest.sh,
#            BUMP_SECONDS, default 380): orders, CFL, lin_res every 20
#            iterations, with numerics.aspect_dt = ASPECT (default 3: a
#            stretched cell's step up to 3x its thin side's; 1, the
#            default of the solver, is main's step). Session 20 call 2
#            (H200) with 1000: Roe's sweeps diverged from CFL 10 on, 1.35
#            orders in 164 iterations; session 19 call 1 (H200) with 1:
#            3.65 orders in 123, held at CFL 178 from 60 on
#   m6sa     the M6 SA carried grids (bench/run_m6_sa_family.sh: XCOARSE
#            279k cells then COARSE 1.1M, M6SA_SECONDS "40 320"), with
#            numerics.aspect_dt = ASPECT (default 1); session 20 call 1 on
#            an H100: 95 iterations, 22 s, and 7.18 orders in 119,
#            stopped at 160 s, CD still moving 1.1 % in 50 iterations
# Usage: bench/run_implicit10_gpu.sh FVSTAR OUT LANE [XCOARSE COARSE]
#   XCOARSE, COARSE  devdata/onera_m6_rans_step_xcoarse.fvm.xz, devdata/onera_m6_rans_step_coarse.fvm.xz (lane m6sa)
# On the GPU machine (one GPU, <= 7 minutes a lane):
#   export LD_LIBRARY_PATH=$PWD/device/lib
#   CUDA_VISIBLE_DEVICES=0 ASPECT=3 sh bench/run_implicit10_gpu.sh device/bin/fvstar $OUT/implicit10 bump
#   CUDA_VISIBLE_DEVICES=1 sh bench/run_implicit10_gpu.sh device/bin/fvstar $OUT/implicit10 m6sa \
#     devdata/onera_m6_rans_step_xcoarse.fvm.xz devdata/onera_m6_rans_step_coarse.fvm.xz
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/common.sh"
bench_setup 3 "$@"
lane=$3
export CUDA_VISIBLE_DEVICES="${CUDA_VISIBLE_DEVICES:-0}" STARPU_HOME="$out/starpu-$lane"
echo "$(date -u +%H:%M:%S) lane $lane on GPU $CUDA_VISIBLE_DEVICES; results in $out"
case $lane in
bump)
	a=${ASPECT:-3}
	RUN_SECONDS=${BUMP_SECONDS:-380} SA_ARGS=numerics.aspect_dt=$a sh "$top/bench/run_bump_finest.sh" "$fv" "$out/bump1-aspect$a"
	;;
m6sa)
	[ $# -ge 5 ] || { echo "lane m6sa: XCOARSE and COARSE needed"; exit 2; }
	a=${ASPECT:-1}
	REFINE=0 RUN_SECONDS=${M6SA_SECONDS:-40 320} SA_ARGS=numerics.aspect_dt=$a sh "$top/bench/run_m6_sa_family.sh" "$fv" "$out/m6sa-aspect$a" "$4" "$5"
	;;
*)
	echo "unknown lane $lane (bump, m6sa)"
	exit 2
	;;
esac
rc=$?
echo "$(date -u +%H:%M:%S) lane $lane done (rc $rc)"
exit $rc
