#!/bin/sh
# SPDX-License-Identifier: MIT
# NASA TMR's bump on its finest grid (1409 x 641, 901,120 cells: `fvstar
# mesh gen bump --level 1`) with the implicit solver's defaults
# (cases/bump_tmr/bump_tmr.cfg: time = implicit, its physics and
# discretisation keys, nothing else), on one GPU for RUN_SECONDS, for the
# issue-24 target "the bump's finest grid 8 orders". Stopped by SIGTERM at
# RUN_SECONDS (the run ends cleanly: history, wall.csv, summary), so even an
# unfinished run tells its rate: a progress line every PROGRESS seconds,
# then the history every EVERY iterations, the rate over the last 100
# iterations and what it would need to 8 orders (bench/history_rate.py),
# and CL, CD and Cf(0.75) against CFL3D (cases/bump_tmr/bump_report.py).
# Usage: bench/run_bump_finest.sh FVSTAR OUT
# Environment: RUN_SECONDS (default 420), LEVEL (default 1), EVERY (20),
# PROGRESS (30), SA_ARGS (more keys).
# On the GPU machine (one GPU, ~7.5 minutes):
#   LD_LIBRARY_PATH=$PWD/device/lib CUDA_VISIBLE_DEVICES=0 bench/run_bump_finest.sh device/bin/fvstar $OUT/implicit9/bump1
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/common.sh"
bench_setup 2 "$@"
L=${LEVEL:-1}
echo "fvstar: $fv ($("$fv" --version 2>/dev/null | head -1)); results in $out; $(date -u +%H:%M:%S)"
command -v nvidia-smi >/dev/null && nvidia-smi -L
"$fv" mesh gen bump --level "$L" -o "$out/bump$L.fvm" >"$out/mesh.log" 2>&1 || { echo "mesh gen bump --level $L failed"; cat "$out/mesh.log"; exit 1; }
# shellcheck disable=SC2086
timeout -s TERM -k 30 "${RUN_SECONDS:-420}" "$fv" run "$top/cases/bump_tmr/bump_tmr.cfg" mesh.file="$out/bump$L.fvm" \
	output.dir="$out/run" numerics.iterations=20000 numerics.residual_drop=8 output.vtu=no output.progress_every=0 \
	output.restart_every=0 ${SA_ARGS:-} >"$out/run.out" 2>"$out/run.err" &
pid=$!
echo "progress: time, iteration, seconds of loop, orders (density), nu~ orders, CFL, sweep pairs, lin_res, retries, CD"
while kill -0 "$pid" 2>/dev/null; do
	sleep "${PROGRESS:-30}"
	[ -f "$out/run/history.csv" ] && echo "$(date -u +%H:%M:%S) $(python3 "$top/bench/history_rate.py" "$out/run/history.csv" --last)"
done
wait "$pid"
rc=$?
echo "run: rc $rc ($([ $rc = 124 ] || [ $rc = 143 ] && echo "stopped at ${RUN_SECONDS:-420} s" || echo "ended")); $(date -u +%H:%M:%S)"
grep -E "thrown away|held at|diverged" "$out/run.err" | cut -c1-200 | head -8
[ -f "$out/run/history.csv" ] || { echo "no history"; tail -5 "$out/run.err"; exit 1; }
python3 "$top/bench/history_rate.py" "$out/run/history.csv" "${EVERY:-20}" 100 8 | tee "$out/table.txt"
python3 - "$out/run" "$top/cases/bump_tmr" <<'PY' | tee -a "$out/table.txt"
import sys
sys.path.insert(0, sys.argv[2])
import bump_report
try:
    r = bump_report.read(sys.argv[1])
    print("CL %.6f CD %.7f Cf(0.75) %.7f (CFL3D 1409 x 641: 0.024900 0.0035724 0.0061494)" % (r["CL"], r["CD"], r["cf075"]))
except (OSError, KeyError, ValueError) as e:
    print("no forces (%s)" % e)
PY
