#!/bin/sh
# SPDX-License-Identifier: MIT
# numerics.color_tasks: the flux of every block as one task per colour group
# of its faces, ordered by their access to the block's residual. On CPU
# workers the residual history agrees with the one-task flux to 1e-12
# (only the order of each cell's sum may change), for greedy and minimal
# colourings, 1 and 4 blocks; a trace holds flux_color<k> tasks for every
# group, block, RK stage and iteration (when the FxT StarPU is there), and
# so do the gradient, limiter and time step when their strategy is color.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
run() { "$fv" run "$tmp/w.cfg" numerics.iterations=30 numerics.residual_drop=0 output.vtu=no \
	output.progress_every=0 "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; return 1; }; }
for nb in 1 4; do
	run output.dir="$tmp/ref$nb" partition.blocks=$nb || fail "reference run, $nb blocks"
	for col in greedy minimal; do
		run output.dir="$tmp/$col$nb" partition.blocks=$nb numerics.color_tasks=yes numerics.coloring=$col ||
			fail "color_tasks run ($col, $nb blocks)"
		"$py" - "$tmp/ref$nb/history.csv" "$tmp/$col$nb/history.csv" "$col, $nb blocks" "$(tol 1e-12)" <<'PY' || fail "history ($col, $nb blocks)"
import csv, sys
a = list(csv.reader(open(sys.argv[1])))[1:]
b = list(csv.reader(open(sys.argv[2])))[1:]
assert len(a) == len(b) == 30, (len(a), len(b))
worst = max(abs(float(x[k]) - float(y[k])) / abs(float(x[k])) for x, y in zip(a, b) for k in (3, 4, 7))
print("%s: color_tasks vs one flux task, residual history max rel diff %.3g" % (sys.argv[3], worst))
sys.exit(0 if worst <= float(sys.argv[4]) else 1)
PY
	done
done
# the groups in a trace, every colour stage as group tasks: 2 iterations x
# 2 RK stages x 4 blocks of each flux, gradient and limiter group, 2 x 4 of
# each time step group (first RK stage only)
if "$fv" run "$tmp/w.cfg" output.dir="$tmp/tr" partition.blocks=4 numerics.iterations=2 numerics.residual_drop=0 \
	numerics.color_tasks=yes numerics.gradient_sum=color numerics.limiter_sum=color numerics.timestep_sum=color \
	output.vtu=no output.progress_every=0 output.trace="$tmp/trace" >/dev/null 2>"$tmp/err"; then
	for stage in flux:16 gradient:16 limiter:16 timestep:8; do
		name=${stage%:*} want=${stage#*:}
		groups=$(grep "^Name: ${name}_color" "$tmp/trace/tasks.rec" | sort | uniq -c |
			awk -v n="$want" '$1 != n { bad = 1 } END { print (bad ? "bad" : NR) }')
		case $groups in
		bad | 0) fail "trace: ${name}_color tasks are not $want per group"; grep "^Name: $name" "$tmp/trace/tasks.rec" | sort | uniq -c ;;
		*) echo "trace: $groups colour groups, each as $want ${name}_color tasks" ;;
		esac
	done
elif grep -q "FxT-enabled StarPU" "$tmp/err"; then
	echo "no FxT StarPU: trace part skipped"
else
	cat "$tmp/err"; fail "traced run"
fi
finish
