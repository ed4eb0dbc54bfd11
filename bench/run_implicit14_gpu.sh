#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 24's GPU work of branch implicit14, one lane (one GPU + its cores,
# at most 5 minutes, every run under timeout):
#   m6   (session 24 call 1): cases/onera_m6/onera_m6_sa.cfg as shipped
#        (S: `jacobian = rusanov`) against the same file without that key
#        (R: Roe's blocks, the default), on the carried 279k grid (side by
#        side, each stopped at M6_SMALL_SECONDS, default 50), then on the
#        1.1M grid (side by side, M6_LARGE_SECONDS, default 190); each 8
#        orders down or stopped (SIGTERM: the run ends cleanly and its
#        history counts). Session 21 call 1 ran R's keys alone: 279k 8.26
#        orders in 95 iterations (18.9 s), 1.1M 8.11 in 105 (128.5 s).
#        Needs the two meshes (XCOARSE COARSE, .fvm.xz).
#   bump (session 24 call 2): the TMR bump's finest grid (1409 x 641,
#        bench/run_bump_finest.sh) two runs side by side on the GPU, the
#        GPU alone (no CPU worker), one block, stopped at BUMP_SECONDS
#        (default 170): A (KEYS_A) GMRES with whole lines and the long
#        side's step (implicit13's keys, the Krylov keys' defaults: 20
#        directions of 1 pair) and the per-cell step (numerics.cell_cfl
#        1e-3); B (KEYS_B) the same without the per-cell step. Session 23
#        call 3 ran those keys with 10 directions of 2 pairs: no divergence,
#        1.0-1.8 orders in 116 iterations, 19,000-40,000 cells clipped an
#        iteration (bench/results/2026-12-05-implicit13.md).
# Prints a table per part; results (histories, logs) under OUT, the large
# files removed.
# Usage: bench/run_implicit14_gpu.sh FVSTAR OUT m6|bump [XCOARSE COARSE]
# On the GPU machine:
#   export LD_LIBRARY_PATH=$PWD/device/lib
#   CUDA_VISIBLE_DEVICES=0 timeout 300 sh bench/run_implicit14_gpu.sh device/bin/fvstar $OUT/implicit14 m6 \
#     devdata/onera_m6_rans_step_xcoarse.fvm.xz devdata/onera_m6_rans_step_coarse.fvm.xz
#   CUDA_VISIBLE_DEVICES=0 timeout 300 sh bench/run_implicit14_gpu.sh device/bin/fvstar $OUT/implicit14 bump
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/common.sh"
bench_setup 3 "$@"
part=$3
export CUDA_VISIBLE_DEVICES="${CUDA_VISIBLE_DEVICES:-0}"
echo "$(date -u +%H:%M:%S) implicit14 $part on GPU $CUDA_VISIBLE_DEVICES; fvstar $("$fv" --version 2>/dev/null | head -1); results in $out"
command -v nvidia-smi >/dev/null && nvidia-smi -L

# m6_run NAME CFG MESH SECONDS: one run of the M6 SA, in the background
# (StarPU's calibration in a folder per arm, S or R, kept for grid 2)
m6_run() {
	STARPU_HOME="$out/starpu-$(echo "$1" | cut -c1)" timeout -s TERM -k 20 "$4" "$fv" run "$2" mesh.file="$3" output.dir="$out/$1" \
		numerics.iterations=2000 numerics.residual_drop=8 output.vtu=no output.progress_every=0 \
		output.restart_every=0 >"$out/$1.out" 2>"$out/$1.err" &
}

# m6_table NAME...: iterations, seconds of loop, density orders below the
# peak, nu~'s, the largest lin_res from iteration 20 on, retries, the CFL at
# the end, CL and CD (TMR's CFL3D: 0.26932, 0.016956)
m6_table() {
	python3 - "$out" "$@" <<'PY'
import csv, math, sys
out = sys.argv[1]
print("%-8s %5s %8s %6s %6s %8s %3s %8s %9s %9s" % ("run", "it", "loop s", "rho o", "nut o", "lin max", "ret", "cfl", "CL", "CD"))
for n in sys.argv[2:]:
    try:
        rows = list(csv.DictReader(open("%s/%s/history.csv" % (out, n))))
    except OSError:
        print("%-8s no history" % n)
        continue
    if not rows:
        print("%-8s empty history" % n)
        continue
    f = lambda r, k: float(r[k])
    o = lambda k: math.log10(max(f(r, k) for r in rows) / f(rows[-1], k)) if f(rows[-1], k) > 0 else float("nan")
    lin = max([f(r, "lin_res") for r in rows[19:]] or [0])
    last = rows[-1]
    print("%-8s %5d %8.1f %6.2f %6.2f %8.3g %3d %8.3g %9.6f %9.6f" % (n, f(last, "iteration"), f(last, "wall_s"), o("res_rho"),
          o("res_nut"), lin, f(last, "retries"), f(last, "cfl"), f(last, "CL"), f(last, "CD")))
print("TMR CFL3D 69M cells: CL 0.26932 CD 0.016956")
PY
}

case $part in
m6)
	[ $# -ge 5 ] || { echo "m6 needs XCOARSE and COARSE"; exit 2; }
	cp "$top/cases/onera_m6/onera_m6_sa.cfg" "$out/shipped.cfg"
	sed -e '/^jacobian/d' "$top/cases/onera_m6/onera_m6_sa.cfg" >"$out/roe.cfg"
	grep -n "^jacobian" "$out/shipped.cfg" "$out/roe.cfg"
	k=0
	for m in "$4" "$5"; do
		k=$((k + 1))
		g="$out/grid$k.fvm"
		timeout 60 xz -dc "$m" >"$g" || { echo "xz -dc $m failed"; exit 1; }
		secs=${M6_SMALL_SECONDS:-50}
		[ $k = 2 ] && secs=${M6_LARGE_SECONDS:-190}
		echo "$(date -u +%H:%M:%S) grid$k ($m): S (shipped) and R (no jacobian key) side by side, at most $secs s each"
		m6_run "S$k" "$out/shipped.cfg" "$g" "$secs"
		p1=$!
		sleep 3
		m6_run "R$k" "$out/roe.cfg" "$g" "$secs"
		p2=$!
		wait "$p1"
		echo "S$k: rc $?"
		wait "$p2"
		echo "R$k: rc $?"
		grep -h -E "thrown away|held at|diverged" "$out/S$k.err" "$out/R$k.err" | cut -c1-200 | head -6
		m6_table "S$k" "R$k"
		rm -f "$g"
	done
	;;
bump)
	keys="numerics.linear=gmres numerics.line_cells=1024 numerics.aspect_dt=1e6"
	a=${KEYS_A:-$keys numerics.cell_cfl=1e-3}
	b=${KEYS_B:-$keys}
	secs=${BUMP_SECONDS:-170}
	SCRIPT_SECONDS=${SCRIPT_SECONDS:-220}
	bump_lanes "$a" "${NCPU_A:-0}" "$b" "${NCPU_B:-0}"
	;;
*)
	echo "unknown part $part (m6 or bump)"
	exit 2
	;;
esac
find "$out" \( -name '*.fvm' -o -name '*.bin' \) -exec rm -f {} +
echo "$(date -u +%H:%M:%S) implicit14 $part done"
