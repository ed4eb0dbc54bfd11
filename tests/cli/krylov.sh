#!/bin/sh
# SPDX-License-Identifier: MIT
# The Krylov linear solve (numerics.linear = gmres; issue 24): restarted
# GMRES on the stored first-order operator, right-preconditioned by the
# line sweeps. On the TMR bump's 45 x 21 grid (mesh gen bump --level 6,
# cases/bump_tmr/bump_tmr.cfg) with the long side's step (aspect_dt 1e6)
# and no retries, the sweeps alone diverge at the second iteration (lin_res
# 2.6e8 at CFL 10 on the 2-core machine, 2026-11-28: the run stops),
# while GMRES(20), each direction preconditioned by 1 sweep pair (the
# defaults), goes 8 orders below the peak in 67 iterations with lin_res
# at most 0.03; the
# converged state of one block equals that of four (the linear solve
# changes the path, not the answer); with 30 directions of 2 pairs GMRES
# solves the linear system the sweeps leave at lin_res 0.0015-0.07 (mean
# 0.04) to 5e-4 or less (mean 6e-5); and a GMRES run is bit for bit the
# same on one CPU worker and on two (four blocks both: the dot products
# are summed in block order by one task), and with its tasks in chains
# (numerics.chain = yes) or not.
. "$top_srcdir/tests/cli/lib.sh"

bump_case 6 bump

# run NAME ITERATIONS [keys]: bump_run, its exit status in $tmp/NAME.rc
run() {
	bump_run "$@"
	echo $? >"$tmp/$1.rc"
}
long="numerics.aspect_dt=1e6 numerics.retries=0"
# shellcheck disable=SC2086
run sweeps 20 $long numerics.linear=sweeps
# shellcheck disable=SC2086
run gmres 150 $long numerics.linear=gmres
# shellcheck disable=SC2086
blocks=1 run gmres1 150 $long numerics.linear=gmres
[ "$(cat "$tmp/gmres.rc")" = 0 ] || { tail -3 "$tmp/gmres.err"; fail "gmres: the run"; }
[ "$(cat "$tmp/gmres1.rc")" = 0 ] || { tail -3 "$tmp/gmres1.err"; fail "gmres, one block: the run"; }
[ "$(cat "$tmp/sweeps.rc")" != 0 ] && grep -q "the sweeps diverged" "$tmp/sweeps.err" ||
	fail "sweeps: the run did not stop with the sweeps' divergence (rc $(cat "$tmp/sweeps.rc"))"
"$py" - "$tmp/gmres/history.csv" <<'PY' || fail "gmres with the long step"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
res = [float(r["res_rho"]) for r in rows]
assert all(math.isfinite(x) for x in res), "a residual is not finite"
orders = math.log10(max(res) / res[-1])
lin = [float(r["lin_res"]) for r in rows]
retries = int(float(rows[-1]["retries"]))
print("gmres: %.2f orders in %d iterations, lin_res at most %.3g, %d retries" % (orders, len(rows), max(lin), retries))
assert orders >= 8 and len(rows) <= 100, "%.2f orders in %d iterations" % (orders, len(rows))
assert max(lin) < 0.1, "lin_res up to %.3g" % max(lin)
PY
"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/gmres" "$tmp/gmres1" "gmres 4 blocks / 1 block" 1e-6 none ||
	fail "gmres: the converged states of four blocks and one differ"
# the linear solve at the top of the ramp: 30 directions against the
# sweeps' 20 pairs (the defaults before gmres, with lines of 64 and the
# thin side's step), the same 30 iterations of the path
old="numerics.line_cells=64 numerics.aspect_dt=1"
# shellcheck disable=SC2086
run lin_sweeps 30 $old numerics.linear=sweeps
# shellcheck disable=SC2086
run lin_gmres 30 $old numerics.linear=gmres numerics.krylov_dim=30 numerics.krylov_sweeps=2
"$py" - "$tmp/lin_sweeps/history.csv" "$tmp/lin_gmres/history.csv" <<'PY' || fail "gmres against the sweeps' linear residual"
import csv, sys
def lin(p):
    rows = list(csv.DictReader(open(p)))
    return [float(r["lin_res"]) for r in rows if float(r["cfl"]) >= 1000]
s, g = lin(sys.argv[1]), lin(sys.argv[2])
ms, mg = sum(s) / len(s), sum(g) / len(g)
print("lin_res at CFL >= 1000: sweeps %.3g .. %.3g (mean %.3g), gmres(30) %.3g .. %.3g (mean %.3g)" %
      (min(s), max(s), ms, min(g), max(g), mg))
assert len(s) >= 5 and len(g) >= 5, "fewer than 5 iterations at CFL >= 1000"
assert max(g) < 1e-3 and mg < 0.01 * ms, "gmres left lin_res up to %.3g (mean %.3g)" % (max(g), mg)
PY
KP_ENV="" key_pair workers "$tmp/bump.cfg" runtime.ncpu "1 2" 0 numerics.iterations=25 partition.blocks=4 \
	numerics.linear=gmres numerics.krylov_cycles=2 numerics.krylov_dim=4
# the Krylov tasks in task chains (numerics.chain = yes: a block's tasks
# between halos and reductions as one task), bit for bit
KP_ENV="" key_pair chain "$tmp/bump.cfg" numerics.chain "no yes" 0 numerics.iterations=25 partition.blocks=4 \
	runtime.ncpu=2 numerics.linear=gmres numerics.krylov_cycles=2 numerics.krylov_dim=4
finish
