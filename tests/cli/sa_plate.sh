#!/bin/sh
# SPDX-License-Identifier: MIT
# Spalart-Allmaras on NASA TMR's flat plate (cases/plate_tmr) on the 69 x 49
# grid of TMR's family (level 4), point-implicit:
#  - 600 iterations: CD and Cf at x = 0.97008 within 4% of TMR's 545 x 385
#    CFL3D values 0.0028599 and 0.0027056 (measured on this grid, 2026-11-25:
#    CD +1.7%, Cf +1.5%; TMR's own coarse grids lie above the fine one too),
#    the residual of the last iterations falling (no limit cycle) or
#    converged to round-off (10 orders below its peak: the line sweeps of
#    session 13 reach it, 11.3 orders down, by iteration 200), y+ of the
#    first cells below 1;
#  - explicit RK2: a restart written at 10 and continued to 20 equals the
#    20-iteration run bit for bit, states and histories (rho nu~ is the
#    restart's sixth variable); a laminar run's restart continues as an SA
#    run (nu~ from the free stream) with output.restart_from_model = laminar;
#  - explicit RK2, 1 block against 3 blocks, 20 iterations: to 1e-13;
#  - implicit: a run writing restart files every 5 iterations equals one
#    writing none, bit for bit (the CFL ramp lives through the segments);
#  - solution.vtu carries nu_tilde and eddy_viscosity_ratio;
#  - a model = sa run without a no-slip wall is an error.
. "$top_srcdir/tests/cli/lib.sh"

"$fv" mesh gen plate --level 4 -o "$tmp/plate_tmr.su2" >/dev/null 2>&1 || fail "mesh gen plate"
sed "s|^file = plate_tmr.su2|file = $tmp/plate_tmr.su2|" "$top_srcdir/cases/plate_tmr/plate_tmr.cfg" >"$tmp/p.cfg"
run() { "$fv" run "$tmp/p.cfg" output.progress_every=0 "$@" >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; return 1; }; }

run output.dir="$tmp/conv" numerics.iterations=600 || fail "600 iterations"
"$py" - "$tmp/conv/wall.csv" "$tmp/conv/summary.json" "$tmp/conv/history.csv" <<'PY' || fail "TMR plate"
import csv, json, sys
rows = sorted((float(r["x"]), float(r["cf"]), float(r["yplus"])) for r in csv.DictReader(open(sys.argv[1]))
              if r["marker"] == "wall")
x0 = 0.97008
a, b = [(x, c) for x, c, _ in rows if x <= x0][-1], [(x, c) for x, c, _ in rows if x > x0][0]
cf = a[1] + (b[1] - a[1]) * (x0 - a[0]) / (b[0] - a[0])
cd = json.load(open(sys.argv[2]))["forces"]["CD"]
h = list(csv.DictReader(open(sys.argv[3])))
res = [float(r["res_rho"]) for r in h]
falling = res[-1] < res[-100] < res[-200] or max(res[-200:]) < 1e-10 * max(res)
yplus = max(y for x, _, y in rows if x > 0.05)
print("Cf(0.97008) %.6f (%+.2f%% of 0.0027056), CD %.6f (%+.2f%% of 0.0028599), residual %.2e falling or at round-off: %s, y+ <= %.2f"
      % (cf, 100 * (cf / 0.0027056 - 1), cd, 100 * (cd / 0.0028599 - 1), float(h[-1]["res_rho"]), falling, yplus))
ok = abs(cf / 0.0027056 - 1) < 0.04 and abs(cd / 0.0028599 - 1) < 0.04 and falling and yplus < 1
sys.exit(0 if ok else 1)
PY

# restarts: 10 + 10 = 20 iterations, bit for bit (explicit: an implicit
# run's CFL ramp starts again from cfl in a continued run)
EXP="numerics.time=steady numerics.cfl=0.5 numerics.cfl_max=0"
# shellcheck disable=SC2086
run output.dir="$tmp/r20" numerics.iterations=20 $EXP || fail "20 iterations"
for a in nu_tilde eddy_viscosity_ratio; do
	grep -q "Name=\"$a\"" "$tmp/r20/solution.vtu" || fail "solution.vtu has no $a array"
done
# shellcheck disable=SC2086
run output.dir="$tmp/r10" numerics.iterations=10 $EXP || fail "10 iterations"
# shellcheck disable=SC2086
run output.dir="$tmp/r10b" numerics.iterations=10 $EXP output.restart="$tmp/r10/restart.bin" || fail "continued to 20"
"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/r20" "$tmp/r10b" "SA restart at 10 continued to 20 against 20" 0 none ||
	fail "restart states"
tail -n 10 "$tmp/r20/history.csv" | cut -d, -f1,4- >"$tmp/h20"
tail -n 10 "$tmp/r10b/history.csv" | cut -d, -f1,4- >"$tmp/h10"
cmp -s "$tmp/h20" "$tmp/h10" || fail "restart: the histories of iterations 11-20 differ"
# implicit, one process: restart files every 5 iterations change nothing
# (the CFL ramp keeps its residuals across the segments between them)
run output.dir="$tmp/s0" numerics.iterations=16 || fail "16 implicit iterations"
run output.dir="$tmp/s5" numerics.iterations=16 output.restart_every=5 || fail "16 with restart_every = 5"
"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/s0" "$tmp/s5" "implicit, restart_every 5 against none" 0 0 ||
	fail "restart_every changes an implicit run"
run output.dir="$tmp/lam" numerics.iterations=20 flow.model=laminar || fail "laminar run"
run output.dir="$tmp/lam2sa" numerics.iterations=40 output.restart="$tmp/lam/restart.bin" \
	output.restart_from_model=laminar || fail "SA from a laminar restart"
grep -q "nu~ starts at the free-stream value" "$tmp/err" || fail "SA from a laminar restart: no line saying what it does"

# shellcheck disable=SC2086
run output.dir="$tmp/b1" partition.blocks=1 numerics.iterations=20 $EXP || fail "1 block"
# shellcheck disable=SC2086
run output.dir="$tmp/b3" partition.blocks=3 numerics.iterations=20 $EXP || fail "3 blocks"
cmp -s "$tmp/b1/restart.bin" "$tmp/b3/restart.bin" || "$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/b1" \
	"$tmp/b3" "SA explicit, 1 vs 3 blocks" 1e-13 none || fail "SA explicit 1 vs 3 blocks"

"$fv" run "$tmp/p.cfg" bc.wall=wall output.dir="$tmp/bad" >/dev/null 2>"$tmp/err" && fail "SA without a no-slip wall accepted"
grep -q "model = sa needs a no-slip wall" "$tmp/err" || { cat "$tmp/err"; fail "SA without a wall: message"; }
finish
