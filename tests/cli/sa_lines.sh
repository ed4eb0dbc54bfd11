#!/bin/sh
# SPDX-License-Identifier: MIT
# The line-implicit sweeps (numerics.lines; issue 24) on the TMR bump's
# 45 x 21 grid (mesh gen bump --level 6, cases/bump_tmr/bump_tmr.cfg, the
# implicit defaults): with lines (auto: a viscous run) the density residual
# goes 8 orders below its peak in fewer iterations than with point sweeps
# (lines = no), the sweeps' linear residual reduction (lin_res) is smaller
# on average, and a run with lines is bit for bit the same on one CPU
# worker and on two (four blocks both: a line is solved inside one task);
# on the 89 x 41 grid whole lines with the long side's step converge where
# the defaults do not within 100 iterations (below).
# On the 2-core machine (2026-11-28): lines 259-260 iterations (mean lin_res
# 0.010), point sweeps not 8 orders in 600 (mean lin_res 0.063).
. "$top_srcdir/tests/cli/lib.sh"

bump_case 6 bump

# run NAME BOUND [keys] (bump_run)
run() {
	bump_run "$@" || { tail -3 "$tmp/$1.err"; fail "$1: the run"; }
}
run lines 350
run point 600 numerics.lines=no
"$py" - "$tmp/lines/history.csv" "$tmp/point/history.csv" <<'PY' || fail "lines against point sweeps"
import csv, math, sys
def read(p):
    rows = list(csv.DictReader(open(p)))
    res = [float(r["res_rho"]) for r in rows]
    assert all(math.isfinite(x) for x in res), "%s: a residual is not finite" % p
    peak = max(res)
    hit = [i + 1 for i, x in enumerate(res) if i >= res.index(peak) and x <= 1e-8 * peak]
    lin = [float(r["lin_res"]) for r in rows]
    return (hit[0] if hit else None), sum(lin) / len(lin), len(rows)
(nl, ll, rl), (np_, lp, rp) = read(sys.argv[1]), read(sys.argv[2])
print("lines: %s iterations to 8 orders, mean lin_res %.3g; point sweeps: %s (of %d), mean lin_res %.3g" %
      (nl, ll, np_, rp, lp))
assert nl is not None, "lines: not 8 orders in %d iterations" % rl
assert np_ is None or nl < np_, "lines: %d iterations, point sweeps %d" % (nl, np_)
assert ll < lp, "lines: mean lin_res %.3g, point sweeps %.3g" % (ll, lp)
PY
# The 89 x 41 grid (level 5): whole lines with the long side's step
# (line_cells 1024, aspect_dt 1e6; off by default) reach 8 orders in 68
# iterations, where the defaults (lines of 64, the thin side's step) take
# about 500 (bench/results/2026-12-04-implicit12.md): the thin cells of the
# wake and the plate's ends move a fraction of a cell per iteration.
bump_case 5 bump5
for k in whole:"numerics.line_cells=1024 numerics.aspect_dt=1e6 numerics.linear=sweeps" \
	short:"numerics.line_cells=64 numerics.aspect_dt=1 numerics.linear=sweeps"; do
	# shellcheck disable=SC2086
	"$fv" run "$tmp/bump5.cfg" output.dir="$tmp/${k%%:*}" output.vtu=no output.progress_every=0 \
		numerics.iterations=100 numerics.residual_drop=8 partition.blocks=4 runtime.ncpu=1 ${k#*:} \
		>/dev/null 2>"$tmp/${k%%:*}.err" || { tail -3 "$tmp/${k%%:*}.err"; fail "${k%%:*}: the run"; }
done
"$py" - "$tmp/whole/history.csv" "$tmp/short/history.csv" <<'PY' || fail "whole lines with the long step"
import csv, math, sys
def orders(p):
    res = [float(r["res_rho"]) for r in csv.DictReader(open(p))]
    assert all(math.isfinite(x) for x in res), "%s: a residual is not finite" % p
    return math.log10(max(res) / res[-1]), len(res)
(ow, nw), (os_, ns) = orders(sys.argv[1]), orders(sys.argv[2])
print("89 x 41: whole lines + aspect_dt 1e6 %.2f orders in %d iterations; the defaults %.2f in %d" % (ow, nw, os_, ns))
assert ow >= 8 and nw <= 100, "whole lines: %.2f orders in %d iterations" % (ow, nw)
assert os_ < 8, "the defaults reached 8 orders in %d iterations" % ns
PY
KP_ENV="" key_pair workers "$tmp/bump.cfg" runtime.ncpu "1 2" 0 numerics.iterations=40 partition.blocks=4
finish
