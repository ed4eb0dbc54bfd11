#!/bin/sh
# SPDX-License-Identifier: MIT
# The race strategies of every scatter stage (numerics.*_sum) and the face
# order by colour (numerics.face_order = color) on CPU workers: the CPU
# codelets run the face-loop forms (in face or colour order) that the
# GPU's atomic and colour variants run, from the same loop bodies, so after
# 30 iterations of the wedge (mixed mesh) each state agrees with the gather
# loops to 1e-12 of the largest value (only the order of sums changes), for 1
# and 3 blocks and both limiter modes. Bad combinations are refused naming
# the key. color_tasks = yes turns every colour stage into one task per
# colour group: the same states, and for Sod (unsteady) the same clock.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
run() { "$fv" run "$tmp/w.cfg" numerics.iterations=30 numerics.residual_drop=0 output.vtu=no \
	output.progress_every=0 "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; return 1; }; }
for nb in 1 3; do
	for lv in pressure all; do
		ref="$tmp/ref-$nb-$lv"
		run output.dir="$ref" partition.blocks=$nb numerics.limiter_vars=$lv || fail "reference, $nb blocks"
		for v in nodes_sum=atomic nodes_sum=auto gradient_sum=atomic gradient_sum=color limiter_sum=atomic \
			limiter_sum=color timestep_sum=atomic timestep_sum=color face_order=color \
			"face_order=color flux_sum=color gradient_sum=color limiter_sum=color timestep_sum=color" \
			"face_order=color color_tasks=yes coloring=greedy" \
			"color_tasks=yes gradient_sum=color limiter_sum=color timestep_sum=color"; do
			name=$(echo "$v" | tr ' =' '+-')
			args=$(for kv in $v; do printf 'numerics.%s ' "$kv"; done)
			# shellcheck disable=SC2086
			run output.dir="$tmp/$name" partition.blocks=$nb numerics.limiter_vars=$lv $args ||
				{ fail "$v, $nb blocks"; continue; }
			"$py" "$top_srcdir/tests/cli/compare_runs.py" "$ref" "$tmp/$name" "$v ($nb blocks, limiter on $lv)" \
				1e-12 1e-10 || fail "$v, $nb blocks, limiter on $lv"
		done
	done
done

# unsteady (Sod, global step): the time step's colour group tasks, the
# last of which takes the clock's reduction, keep the same clock
"$fv" mesh gen box --cells tet --nx 100 --ny 2 --nz 2 --hi 1,0.02,0.02 -o "$tmp/sod.su2" >/dev/null 2>&1 ||
	fail "mesh gen box (Sod)"
sed "s|^file = sod.su2|file = $tmp/sod.su2|" "$top_srcdir/cases/sod/sod.cfg" >"$tmp/sod.cfg"
for nb in 1 3; do
	srun() { "$fv" run "$tmp/sod.cfg" numerics.iterations=40 output.vtu=no output.progress_every=0 partition.blocks=$nb \
		"$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; return 1; }; }
	srun output.dir="$tmp/sod-ref$nb" || fail "Sod reference, $nb blocks"
	srun output.dir="$tmp/sod-ct$nb" numerics.color_tasks=yes numerics.gradient_sum=color numerics.limiter_sum=color \
		numerics.timestep_sum=color || fail "Sod with colour group tasks, $nb blocks"
	"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/sod-ref$nb" "$tmp/sod-ct$nb" \
		"Sod, colour group tasks for every stage ($nb blocks)" 1e-12 1e-12 || fail "Sod colour group tasks, $nb blocks"
done

# refused: a colour variant of node values, face loops for least squares
if run output.dir="$tmp/bad1" numerics.nodes_sum=color; then
	fail "nodes_sum = color accepted"
elif ! grep -q "nodes_sum" "$tmp/err"; then
	fail "nodes_sum = color: the error does not name the key"
fi
printf 'gradient = least-squares\ngradient_sum = atomic\n' >"$tmp/lsq.txt"
sed "/^\[numerics\]/r $tmp/lsq.txt" "$tmp/w.cfg" >"$tmp/lsq.cfg"
if "$fv" run "$tmp/lsq.cfg" output.dir="$tmp/bad2" >/dev/null 2>"$tmp/err"; then
	fail "least squares with gradient_sum = atomic accepted"
elif ! grep -q "lsq.cfg:[0-9]*:.*gradient_sum = atomic needs gradient = green-gauss" "$tmp/err"; then
	cat "$tmp/err"
	fail "least squares with gradient_sum = atomic: the error does not name file, line and key"
fi
finish
