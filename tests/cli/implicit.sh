#!/bin/sh
# SPDX-License-Identifier: MIT
# numerics.time = implicit on CPU workers (the Mach 2 wedge of
# tests/cli/lib.sh, 3580 mixed cells):
# - both variants converge 10 orders (residual_drop = 10) from CFL 5 ramped
#   to 1e5 (the ramp and the per-cell limit those of time = implicit), on 3
#   blocks, within a bound on the iterations (LU-SGS 350, point 100;
#   measured 225 and 47), and so does point-implicit with 5 first-order
#   iterations, and with second order then blended in over 10 (order_ramp),
#   and with Rusanov's face blocks (jacobian = rusanov; bound 300, measured 205),
#   and with the residual ramp (cfl_ramp = residual, bound 100);
# - order_ramp = 1 is bit for bit the plain switch, 4 is not;
# - the same at Mach 0.5 with far-field inlet, outlet and top, 1 block
#   (bounds LU-SGS 700, point 300; measured 491 and 181);
# - their converged states agree with the explicit one (RK2, CFL 1.5, 10
#   orders, the same 3 blocks: restart.bin's cell order follows them) to
#   1e-8 of each quantity's largest value: the steady answer does not
#   depend on the time scheme;
# - the colour group tasks give bit-identical states and histories under
#   the eager, lws and dmda schedulers, for 1 and 3 blocks and both
#   variants (state_digest.py);
# - a trace (when the FxT StarPU is there) holds sweep_color<k> tasks (and
#   tools/plot_trace.py, the Gantt chart, finds the 3 blocks in it), the
#   same number for every group;
# - CFL ramping is refused for an explicit run, naming the key.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
run() { "$fv" run "$tmp/w.cfg" output.vtu=no output.progress_every=0 "$@" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; return 1; }; }
IMP="numerics.time=implicit numerics.cfl=5 numerics.cfl_max=1e5 numerics.sweeps=4"
# iterations a run needed to drop 10 orders ("" when it did not)
dropped10() {
	"$py" - "$1/history.csv" <<'PY'
import csv, math, sys
rows = list(csv.reader(open(sys.argv[1])))[1:]
r0, r1 = float(rows[0][3]), float(rows[-1][3])
print(len(rows) if r1 > 0 and math.log10(r0 / r1) >= 10 else "")
PY
}

# shellcheck disable=SC2086
run output.dir="$tmp/explicit" numerics.residual_drop=10 numerics.iterations=3000 partition.blocks=3 ||
	fail "explicit run"
n=$(dropped10 "$tmp/explicit")
[ -n "$n" ] && echo "explicit: 10 orders in $n iterations" || fail "explicit: not converged 10 orders"
for v in lusgs:350 point:100 point-fo:100 point-ramp:100 point-rusanov:300 point-growth:80 lusgs-growth:350 \
	point-residual:100; do
	name=${v%%:*} bound=${v#*:}
	extra=
	case $name in
	point-fo) extra="numerics.implicit=point numerics.first_order=5" ;;
	# second order blended in over 10 iterations after the first-order ones
	point-ramp) extra="numerics.implicit=point numerics.first_order=5 numerics.order_ramp=10" ;;
	# the face blocks with Rusanov's dissipation in place of Roe's
	point-rusanov) extra="numerics.implicit=point numerics.jacobian=rusanov" ;;
	# the CFL following the residual's ratios of decrease (switched evolution relaxation)
	point-residual) extra="numerics.implicit=point numerics.cfl_ramp=residual" ;;
	# the CFL multiplied by 1.2 every iteration, cut only where the residual blows up
	*-growth) extra="numerics.implicit=${name%-growth} numerics.cfl_ramp=growth numerics.cfl_growth=1.2" ;;
	*) extra="numerics.implicit=$name" ;;
	esac
	# shellcheck disable=SC2086
	run output.dir="$tmp/$name" $IMP $extra numerics.residual_drop=10 numerics.iterations=$bound \
		partition.blocks=3 || { fail "$name: run"; continue; }
	n=$(dropped10 "$tmp/$name")
	if [ -n "$n" ]; then
		echo "$name: 10 orders in $n iterations (bound $bound)"
	else
		fail "$name: not converged 10 orders in $bound iterations"
	fi
	"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/explicit" "$tmp/$name" "$name vs explicit, converged" \
		"$(tol 1e-8)" none || fails=$((fails + 1))
done

# subsonic: Mach 0.5 with far-field conditions on the inlet, outlet and top
# (the far field's Jacobian by differences), 1 block
sed -e 's/^mach = 2/mach = 0.5/' -e 's/= supersonic_inflow/= farfield/' -e 's/= supersonic_outflow/= farfield/' \
	"$tmp/w.cfg" >"$tmp/sub.cfg"
subrun() { "$fv" run "$tmp/sub.cfg" output.vtu=no output.progress_every=0 numerics.residual_drop=10 \
	partition.blocks=1 "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; return 1; }; }
subrun output.dir="$tmp/sub-explicit" numerics.iterations=8000 || fail "subsonic explicit run"
n=$(dropped10 "$tmp/sub-explicit")
[ -n "$n" ] && echo "subsonic explicit: 10 orders in $n iterations" || fail "subsonic explicit: not converged"
for v in lusgs:700 point:300; do
	name=${v%%:*} bound=${v#*:}
	# shellcheck disable=SC2086
	subrun output.dir="$tmp/sub-$name" $IMP numerics.implicit=$name numerics.iterations=$bound ||
		{ fail "subsonic $name: run"; continue; }
	n=$(dropped10 "$tmp/sub-$name")
	if [ -n "$n" ]; then
		echo "subsonic $name: 10 orders in $n iterations (bound $bound)"
	else
		fail "subsonic $name: not converged 10 orders in $bound iterations"
	fi
	"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/sub-explicit" "$tmp/sub-$name" \
		"subsonic $name vs explicit, converged" "$(tol 1e-8)" none || fails=$((fails + 1))
done

# order_ramp: 1 is the plain switch (bit for bit: the blend is exactly 1);
# 4 extrapolates 1/4, 2/4, 3/4 of the gradient after first_order, so the
# state differs
for r in 0 1 4; do
	# shellcheck disable=SC2086
	run output.dir="$tmp/or$r" $IMP numerics.implicit=point numerics.iterations=8 numerics.residual_drop=0 \
		numerics.first_order=3 numerics.order_ramp=$r || fail "order_ramp $r: run"
done
d0=$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/or0")
[ "$d0" = "$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/or1")" ] || fail "order_ramp = 1 differs from 0"
[ "$d0" != "$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/or4")" ] || fail "order_ramp = 4 changed nothing"
echo "order_ramp: 1 bit-identical to the plain switch, 4 not"

# schedulers: bit for bit
for v in lusgs point; do
	for nb in 1 3; do
		ref=
		for sched in eager lws dmda; do
			# shellcheck disable=SC2086
			run output.dir="$tmp/s-$v-$nb-$sched" $IMP numerics.implicit=$v numerics.iterations=15 \
				numerics.residual_drop=0 partition.blocks=$nb runtime.sched=$sched ||
				{ fail "$v, $nb blocks, $sched: run"; continue; }
			d=$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/s-$v-$nb-$sched")
			[ -n "$ref" ] || ref=$d
			[ "$d" = "$ref" ] || fail "$v, $nb blocks: $sched differs from eager"
		done
		echo "$v, $nb blocks: eager, lws and dmda bit-identical"
	done
done

# the sweeps in a trace: 2 iterations x 4 sweeps x 2 directions = 16 tasks
# of each colour group in each block that has it
# shellcheck disable=SC2086
if run output.dir="$tmp/tr" $IMP numerics.implicit=point numerics.iterations=2 numerics.residual_drop=0 \
	partition.blocks=3 output.trace="$tmp/trace"; then
	groups=$(grep "^Name: sweep_color" "$tmp/trace/tasks.rec" | sort | uniq -c |
		awk '$1 % 16 != 0 || $1 > 48 { bad = 1 } END { print (bad ? "bad" : NR) }')
	case $groups in
	bad | 0) fail "trace: sweep_color tasks are not 16 per group and block"
		grep "^Name: sweep" "$tmp/trace/tasks.rec" | sort | uniq -c ;;
	*) echo "trace: $groups colour groups, each as 16 sweep_color tasks per block that has it" ;;
	esac
	# the Gantt tool reads it: three blocks told apart in the sweeps, every
	# sweep task counted, every worker listed
	"$py" "$top_srcdir/tools/plot_trace.py" "$tmp/trace" >"$tmp/gantt.txt" || fail "plot_trace.py"
	cat "$tmp/gantt.txt"
	n=$(grep -c "^Name: sweep_color" "$tmp/trace/tasks.rec")
	grep -q "; 3 blocks in the sweeps" "$tmp/gantt.txt" || fail "plot_trace.py: not 3 blocks"
	grep -q "sweep $n\b" "$tmp/gantt.txt" || fail "plot_trace.py: not the $n sweep tasks of tasks.rec"
	[ "$(grep -c "^worker " "$tmp/gantt.txt")" -ge 1 ] || fail "plot_trace.py: no worker"
elif grep -q "FxT-enabled StarPU" "$tmp/err"; then
	echo "no FxT StarPU: trace part skipped"
else
	fail "traced run"
fi

# the Jacobian's dissipation is a point-implicit choice
if run output.dir="$tmp/badjac" numerics.jacobian=rusanov numerics.iterations=1; then
	fail "jacobian = rusanov accepted with time = steady"
elif grep -q "jacobian" "$tmp/err"; then
	echo "jacobian = rusanov with time = steady: refused ($(head -1 "$tmp/err"))"
else
	cat "$tmp/err"
	fail "jacobian refusal does not name the key"
fi

# CFL ramping is for implicit runs
if run output.dir="$tmp/bad" numerics.cfl_max=100 numerics.iterations=1; then
	fail "cfl_max accepted with time = steady"
elif grep -q "cfl_max" "$tmp/err"; then
	echo "cfl_max with time = steady: refused ($(head -1 "$tmp/err"))"
else
	cat "$tmp/err"
	fail "cfl_max refusal does not name the key"
fi
finish
