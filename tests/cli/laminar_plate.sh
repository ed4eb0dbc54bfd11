#!/bin/sh
# SPDX-License-Identifier: MIT
# Laminar Navier-Stokes on the flat plate of cases/plate_laminar (Mach 0.2,
# Re 10,000, 64 x 40 stretched hexes; point-implicit, 300 iterations):
#  - the skin friction against Blasius, cf sqrt(Re_x) = 0.664, within 4%
#    over 0.1 < x < 0.9 (measured -3.2% .. +1.5% on this coarse grid, the
#    low end near x = 0.1 where the layer has few cells), and CD = 1.328 /
#    sqrt(Re) within 4% (measured +2.8%): the wall shear of the forces and
#    of wall.csv agree;
#  - y+ of the first cells below 2 (first cell 2e-3 at Re 1e4);
#  - the velocity profiles at x = 0.2, 0.5, 0.8 against Blasius' f'(eta)
#    (blasius_profile.py: u over the edge velocity): within 0.02 (measured
#    0.0073, 0.0024, 0.0018);
#  - explicit RK2, 1 block against 3 blocks, 40 iterations: histories to
#    1e-10 relative (the ghost gradients of the viscous fluxes come through
#    the halo);
#  - a viscous wall in an Euler run is an error naming the line.
. "$top_srcdir/tests/cli/lib.sh"

"$fv" mesh gen plate --length 1 --lead 1 --height 2 --nx 65 --ny 41 --y1 2e-3 -o "$tmp/plate_laminar.su2" \
	>/dev/null 2>&1 || fail "mesh gen plate"
sed "s|^file = plate_laminar.su2|file = $tmp/plate_laminar.su2|" "$top_srcdir/cases/plate_laminar/plate_laminar.cfg" \
	>"$tmp/p.cfg"
run() { "$fv" run "$tmp/p.cfg" output.progress_every=0 "$@" >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; return 1; }; }

run output.dir="$tmp/conv" partition.blocks=1 || fail "300 iterations"
"$py" "$top_srcdir/tests/cli/blasius_profile.py" "$tmp/conv/solution.vtu" 1e4 0.2 0.2,0.5,0.8 --tol 0.02 ||
	fail "velocity profiles against Blasius"
"$py" - "$tmp/conv/wall.csv" "$tmp/conv/summary.json" <<'PY' || fail "Blasius"
import csv, json, math, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["marker"] == "wall"]
re = 1e4
ratio = [float(r["cf"]) * math.sqrt(re * float(r["x"])) / 0.664 for r in rows if 0.1 < float(r["x"]) < 0.9]
yplus = max(float(r["yplus"]) for r in rows if float(r["x"]) > 0.05)
cd = json.load(open(sys.argv[2]))["forces"]["CD"]
cd_ratio = cd / (1.328 / math.sqrt(re))
print("cf sqrt(Re_x) / 0.664 over 0.1 < x < 0.9: %.4f .. %.4f (%d faces); CD / Blasius %.4f; y+ <= %.2f"
      % (min(ratio), max(ratio), len(ratio), cd_ratio, yplus))
ok = len(ratio) > 10 and all(abs(r - 1) < 0.04 for r in ratio) and abs(cd_ratio - 1) < 0.04 and yplus < 2
sys.exit(0 if ok else 1)
PY

# explicit RK2 (the implicit sweeps are block Jacobi between blocks: their
# histories depend on the blocks by design; the converged answer does not)
EXP="numerics.time=steady numerics.cfl=0.5 numerics.cfl_max=0 numerics.iterations=40 output.vtu=no"
# shellcheck disable=SC2086
run output.dir="$tmp/b1" partition.blocks=1 $EXP || fail "1 block"
# shellcheck disable=SC2086
run output.dir="$tmp/b3" partition.blocks=3 $EXP || fail "3 blocks"
"$py" - "$tmp/b1/history.csv" "$tmp/b3/history.csv" <<'PY' || fail "1 vs 3 blocks"
import csv, sys
a = list(csv.DictReader(open(sys.argv[1])))
b = list(csv.DictReader(open(sys.argv[2])))
# the x and y momentum residuals and the drag; the others start at round-off
# (a uniform stream: no mass or energy imbalance, no spanwise flow)
keys = ["res_rhou", "res_rhov", "CD"]
worst = 0.0
for x, y in zip(a, b):
    for k in keys:
        u, v = float(x[k]), float(y[k])
        worst = max(worst, abs(u - v) / max(abs(u), 1e-300))
print("explicit, 1 vs 3 blocks, %d iterations: largest relative difference %.2e over %s" % (len(a), worst, ",".join(keys)))
sys.exit(0 if len(a) == len(b) == 40 and worst < 1e-10 else 1)
PY

"$fv" run "$tmp/p.cfg" flow.model=euler output.dir="$tmp/bad" >/dev/null 2>"$tmp/err" && fail "noslip in an Euler run accepted"
grep -q "p.cfg:.*\[bc\] wall = noslip: a viscous wall needs \[flow\] model = laminar or sa" "$tmp/err" ||
	{ cat "$tmp/err"; fail "noslip in an Euler run: message"; }
finish
