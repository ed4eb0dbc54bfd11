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
# numerics.limiter_freeze_drop = 1.5: the run freezes the limiter at the first
# iteration submitted once the residual of the iteration 4 before (known at
# submission) is 1.5 orders down, says so, and its history is bit for bit that
# of limiter_freeze = that iteration - 1, under lws and eager (the decision
# does not depend on timing); summary.json records the iteration
"$fv" run "$tmp/w.cfg" numerics.residual_drop=0 output.vtu=no output.progress_every=100 partition.blocks=4 \
	output.dir="$tmp/drop" numerics.iterations=400 numerics.limiter_freeze_drop=1.5 >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "limiter_freeze_drop run"; }
at=$(sed -n 's/^fvstar: the limiter is frozen from iteration \([0-9]*\) on.*/\1/p' "$tmp/err")
if [ -z "$at" ]; then
	fail "limiter_freeze_drop: no 'frozen from iteration' line"
else
	run output.dir="$tmp/at" numerics.iterations=400 numerics.limiter_freeze=$((at - 1)) runtime.sched=eager ||
		fail "limiter_freeze = $((at - 1)) run"
	"$py" - "$tmp/drop/history.csv" "$tmp/at/history.csv" "$at" "$tmp/drop/summary.json" <<'PY' || fail "limiter_freeze_drop history"
import csv, json, math, sys
a = list(csv.reader(open(sys.argv[1])))[1:]
b = list(csv.reader(open(sys.argv[2])))[1:]
at = int(sys.argv[3])
same = len(a) == len(b) == 400 and all(x[3:8] == y[3:8] for x, y in zip(a, b))
# the residual known when `at` was submitted (iteration at - 4) was 1.5 orders down, the one before it not
known = lambda n: -float(a[n - 1][8])
ok = known(at - 4) >= 1.5 and known(at - 5) < 1.5
frm = json.load(open(sys.argv[4]))["limiter_frozen_from"]
print("limiter_freeze_drop = 1.5: frozen from iteration %d (residual of %d down %.4f orders, of %d %.4f), "
      "history identical to limiter_freeze = %d under eager: %s, summary says %d"
      % (at, at - 4, known(at - 4), at - 5, known(at - 5), at - 1, same, frm))
sys.exit(0 if same and ok and frm == at else 1)
PY
fi
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
