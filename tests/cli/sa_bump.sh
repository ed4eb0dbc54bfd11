#!/bin/sh
# SPDX-License-Identifier: MIT
# Spalart-Allmaras on NASA TMR's bump in a channel (cases/bump_tmr) on the
# 89 x 41 grid of TMR's family (level 5), the case's keys (time = implicit
# and the defaults), 400 iterations: the residual of the last 200
# iterations falling and 6 orders below the peak (measured 2026-11-27: 6.5
# at 344, 8 near 520; 4.6 in 400 before the line-implicit sweeps); Cf at x
# = 0.75 within 4% of CFL3D's on TMR's 89 x 41 grid, 0.0057348, CL
# (fvstar's CS) within 8% of its 0.023497, CD within 20% of its 0.0046981
# (measured 2026-11-25: -1.6%, +4.4%, +15.6%; FUN3D's CD on that grid is
# itself 10% below CFL3D's); the flow attached (cf > 0 on the whole wall),
# the lowest cp near the crest (0.65 < x < 0.85), y+ of the first cells
# below 1.5. cases/bump_tmr/bump_report.py reads the run. Run by `make
# check`.
. "$top_srcdir/tests/cli/lib.sh"

"$fv" mesh gen bump --level 5 -o "$tmp/bump_tmr.su2" >/dev/null 2>&1 || fail "mesh gen bump"
"$fv" run "$top_srcdir/cases/bump_tmr/bump_tmr.cfg" mesh.file="$tmp/bump_tmr.su2" output.dir="$tmp/run" \
	output.progress_every=0 output.vtu=no numerics.iterations=400 numerics.residual_drop=0 >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "400 iterations"; }
"$py" - "$top_srcdir/cases/bump_tmr" "$tmp/run" <<'PY' || fail "TMR bump"
import csv, sys
sys.path.insert(0, sys.argv[1])
import bump_report
run = sys.argv[2]
r = bump_report.read(run)
ref = bump_report.reference("CFL3D", 3520)
h = list(csv.DictReader(open(run + "/history.csv")))
res = [float(h[k]["res_rho"]) for k in (-200, -100, -1)]
falling = res[2] < res[1] < res[0] and float(h[-1]["orders_below_ref"]) > 6
wall = sorted((float(w["x"]), float(w["cp"]), float(w["yplus"])) for w in csv.DictReader(open(run + "/wall.csv"))
              if w["marker"] == "wall")
x_cp_min = min(wall, key=lambda w: w[1])[0]
yplus = max(w[2] for w in wall)
dev = {k: r[k] / ref[k] - 1 for k in ("cf075", "CL", "CD")}
print("Cf(0.75) %.6f (%+.2f%% of CFL3D's 0.0057348 on 89 x 41), CL %.6f (%+.2f%%), CD %.6f (%+.2f%%); "
      "residual %.2e, %.2f orders down, falling: %s; cf >= %.2e, cp lowest at x = %.3f, y+ <= %.2f"
      % (r["cf075"], 100 * dev["cf075"], r["CL"], 100 * dev["CL"], r["CD"], 100 * dev["CD"], res[2],
         float(h[-1]["orders_below_ref"]), falling, r["cf_min"], x_cp_min, yplus))
ok = abs(dev["cf075"]) < 0.04 and abs(dev["CL"]) < 0.08 and abs(dev["CD"]) < 0.2 and falling and \
    r["cf_min"] > 0 and 0.65 < x_cp_min < 0.85 and yplus < 1.5
sys.exit(0 if ok else 1)
PY
finish
