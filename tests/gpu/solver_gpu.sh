#!/bin/sh
# SPDX-License-Identifier: MIT
# The CUDA codelets against the CPU ones: the wedge (steady, second order,
# Venkatakrishnan) and the Sod tube (unsteady, RK3, global time step), 50
# iterations each, run once on CPU workers only and on the GPU only with
# each race strategy: the flux summation (atomic, gather, color with both
# colourings, color as one task per colour group), the node values (from
# the primitives' rows or their side-by-side copy, node_gather), gradient,
# limiter min/max and time step (atomic and color face loops), everything
# by colour with the faces stored by colour (Alg. 11), every colour stage
# as one task per colour group, everything atomic,
# and every stage auto under dmda. States agree to 1e-12 of each quantity's
# largest value for gather and color, whose sums are deterministic, and
# 1e-10 for atomic and auto; residual and force histories to 1e-8 of each
# column's largest value (tests/cli/compare_runs.py). Exit 77 (SKIP) where
# there is no CUDA worker.
. "$top_srcdir/tests/cli/lib.sh"
[ "$(cuda_workers)" -gt 0 ] || { echo "no CUDA worker: SKIP"; exit 77; }
"$fv" mesh gen ramp --cells tet --nx 40 --ny 24 --nz 2 --hi 1.5,1,0.1 --angle 10 -o "$tmp/wedge.su2" 2>/dev/null
"$fv" mesh gen box --cells tet --nx 100 --ny 2 --nz 2 --hi 1,0.02,0.02 -o "$tmp/sod.su2" 2>/dev/null
# name:strategy options (numerics.*) of each GPU run; the CPU reference
# runs the default (gather loops, face-loop flux)
variants="atomic:flux_sum=atomic gather:flux_sum=gather color:flux_sum=color greedy:flux_sum=color,coloring=greedy
tasks:flux_sum=color,color_tasks=yes auto:flux_sum=auto
nodes-cells:node_gather=cells,flux_sum=gather nodes-rows:node_gather=rows,flux_sum=gather nodes-atomic:nodes_sum=atomic grad-atomic:gradient_sum=atomic grad-color:gradient_sum=color
lim-atomic:limiter_sum=atomic lim-color:limiter_sum=color dt-atomic:timestep_sum=atomic dt-color:timestep_sum=color
all-color-fo:flux_sum=color,gradient_sum=color,limiter_sum=color,timestep_sum=color,face_order=color
all-atomic:flux_sum=atomic,nodes_sum=atomic,gradient_sum=atomic,limiter_sum=atomic,timestep_sum=atomic
all-auto:flux_sum=auto,nodes_sum=auto,gradient_sum=auto,limiter_sum=auto,timestep_sum=auto
all-tasks:color_tasks=yes,gradient_sum=color,limiter_sum=color,timestep_sum=color"
for c in wedge sod; do
	sed "s|^file = $c.su2|file = $tmp/$c.su2|" "$top_srcdir/cases/$c/$c.cfg" >"$tmp/$c.cfg"
	for v in cpu:flux_sum=atomic $variants; do
		w=${v%%:*}
		args=$(echo "${v#*:}" | tr ',' '\n' | sed 's/^/numerics./')
		sched=${STARPU_SCHED:-lws}
		case $w in *auto) sched=dmda ;; esac # the perf-model scheduler picks a variant
		if [ $w = cpu ]; then export STARPU_NCPU=2 STARPU_NCUDA=0; else export STARPU_NCPU=0 STARPU_NCUDA=1; fi
		# shellcheck disable=SC2086
		STARPU_SCHED=$sched "$fv" run "$tmp/$c.cfg" output.dir="$tmp/$c-$w" numerics.iterations=50 \
			numerics.residual_drop=0 $args output.progress_every=0 output.vtu=no 2>"$tmp/$c-$w.err" ||
			{ echo "FAIL: $c on $w"; cat "$tmp/$c-$w.err"; fails=$((fails + 1)); }
	done
	for v in $variants; do
		w=${v%%:*}
		tol=1e-12
		case $w in atomic | *auto | *-atomic) tol=1e-10 ;; esac
		"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/$c-cpu" "$tmp/$c-$w" "$c, CPU vs GPU ($w: ${v#*:})" \
			$tol || fails=$((fails + 1))
	done
done
echo "$fails failure(s)"
[ "$fails" = 0 ]
