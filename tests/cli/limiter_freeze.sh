#!/bin/sh
# SPDX-License-Identifier: MIT
# numerics.limiter_freeze = N: the history is bit for bit the unfrozen one
# up to iteration N and departs from it after; the Mach 2 wedge then still
# converges (10 orders); a trace has the limiter tasks of the first N
# iterations only (blocks x RK stages x N), when the FxT StarPU is there.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
run() { "$fv" run "$tmp/w.cfg" numerics.residual_drop=0 output.vtu=no output.progress_every=0 partition.blocks=4 "$@" \
	>/dev/null 2>"$tmp/err" || { cat "$tmp/err"; return 1; }; }
run output.dir="$tmp/free" numerics.iterations=1200 || fail "unfrozen run"
run output.dir="$tmp/frozen" numerics.iterations=1200 numerics.limiter_freeze=100 || fail "frozen run"
"$py" - "$tmp/free/history.csv" "$tmp/frozen/history.csv" <<'PY' || fail "histories"
import csv, math, os, sys
a = list(csv.reader(open(sys.argv[1])))[1:]
b = list(csv.reader(open(sys.argv[2])))[1:]
assert len(a) == len(b) == 1200, (len(a), len(b))
same = all(x[3:8] == y[3:8] for x, y in zip(a[:100], b[:100]))
after = a[100][3] != b[100][3]
drop = -float(b[-1][8])
print("identical up to 100: %s, differs at 101: %s, frozen run down %.1f orders" % (same, after, drop))
# single precision: the residual of a converged float state stops near 5 orders down
need = 10 if float(os.environ.get("FV_TOL_SCALE", "1")) == 1 else 4
sys.exit(0 if same and after and drop >= need and math.isfinite(drop) else 1)
PY
if "$fv" run "$tmp/w.cfg" output.dir="$tmp/tr" partition.blocks=4 numerics.iterations=5 numerics.residual_drop=0 \
	numerics.limiter_freeze=3 output.vtu=no output.progress_every=0 output.trace="$tmp/trace" >/dev/null 2>"$tmp/err"; then
	n=$(grep -c '^Name: limiter$' "$tmp/trace/tasks.rec")
	[ "$n" = 24 ] || fail "trace: $n limiter tasks, expected 24 (4 blocks x 2 stages x 3 iterations)"
	echo "trace: $n limiter tasks for 3 of 5 iterations"
elif grep -q "FxT-enabled StarPU" "$tmp/err"; then
	echo "no FxT StarPU: trace part skipped"
else
	cat "$tmp/err"; fail "traced run"
fi
finish
