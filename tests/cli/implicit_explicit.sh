#!/bin/sh
# SPDX-License-Identifier: MIT
# The implicit solver's safeguards change the path, not the answer (issue
# 24): on the Mach 2 wedge (3580 mixed cells), the explicit scheme (RK2,
# CFL 1.5, about 850 iterations) and time = implicit alone (about 55) both
# run 11 orders down, and their converged states agree within a tolerance
# tied to the residual: 1e5 times the larger last density residual of the
# two, relative to each quantity's largest value (compare_runs.py). The
# factor: the explicit scheme's own state moves 8.5e3 times its residual
# between 7, 8, 9 and 11 orders down (7.9e-8 at 9.3e-12). An implicit
# ceiling of 1e7 instead of 1e4 cycled 8.5 orders down and left the state
# 6e-8 away: this test fails then. Double precision only (round-off).
. "$top_srcdir/tests/cli/lib.sh"

if [ "$FV_TOL_SCALE" != 1 ]; then
	echo "SKIP: single precision cannot converge 11 orders"
	exit 77
fi
wedge_case
for mode in steady implicit; do
	"$fv" run "$tmp/w.cfg" output.dir="$tmp/$mode" output.vtu=no output.progress_every=0 numerics.time=$mode \
		numerics.iterations=2000 numerics.residual_drop=11 >"$tmp/$mode.out" 2>"$tmp/$mode.err" ||
		{ tail -3 "$tmp/$mode.err"; fail "$mode: the run"; }
done
tol=$("$py" - "$tmp/steady/history.csv" "$tmp/implicit/history.csv" <<'PY'
import csv, math, sys
last = []
for path in sys.argv[1:]:
    rows = list(csv.DictReader(open(path)))
    res = [float(r["res_rho"]) for r in rows]
    drop = math.log10(max(res) / res[-1])
    sys.stderr.write("%s: %d iterations, %.2f orders below the peak, residual %.3g\n" % (
        path.split("/")[-2], len(rows), drop, res[-1]))
    if drop < 10.5:
        sys.exit(1)
    last.append(res[-1])
print("%.3g" % (1e5 * max(last)))
PY
) || fail "a run did not converge 11 orders"
[ -n "$tol" ] && { "$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/steady" "$tmp/implicit" "implicit vs explicit" \
	"$tol" none || fail "the converged states differ"; }
finish
