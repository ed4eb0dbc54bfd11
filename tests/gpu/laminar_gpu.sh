#!/bin/sh
# SPDX-License-Identifier: MIT
# The laminar Navier-Stokes codelets on CUDA against the CPU: the flat
# plate of cases/plate_laminar (64 x 40 hexes, no-slip adiabatic wall,
# least-squares gradients), explicit RK2 and point-implicit, 1 and 3
# blocks, CPU workers only against the GPU only, every stage run
# deterministically (flux_sum = gather): after one iteration the states
# agree to 1e-12 of each quantity's largest value, after 20 to 1e-11
# (explicit) and 1e-8 (point-implicit: its operator is single precision;
# see implicit_gpu.sh), histories to 1e-8; then an isothermal wall the same
# way. Exit 77 (SKIP) where there is no CUDA worker.
. "$top_srcdir/tests/cli/lib.sh"
[ "$(cuda_workers)" -gt 0 ] || { echo "no CUDA worker: SKIP"; exit 77; }
"$fv" mesh gen plate --length 1 --lead 1 --height 2 --nx 65 --ny 41 --y1 2e-3 -o "$tmp/plate_laminar.su2" \
	>/dev/null 2>&1 || fail "mesh gen plate"
sed "s|^file = plate_laminar.su2|file = $tmp/plate_laminar.su2|" "$top_srcdir/cases/plate_laminar/plate_laminar.cfg" \
	>"$tmp/p.cfg"
COMMON="numerics.flux_sum=gather output.progress_every=0 output.vtu=no numerics.residual_drop=0"
for mode in steady implicit isothermal; do
	case $mode in
	steady) extra="numerics.time=steady numerics.cfl=0.5" ;;
	implicit) extra="numerics.time=implicit" ;;
	isothermal) extra="numerics.time=implicit bc.wall=isothermal bc.wall_temperature=350" ;;
	esac
	for nb in 1 3; do
		for n in 1 20; do
			for w in cpu gpu; do
				case $w in
				cpu) export STARPU_NCPU=2 STARPU_NCUDA=0 ;;
				gpu) export STARPU_NCPU=0 STARPU_NCUDA=1 ;;
				esac
				# shellcheck disable=SC2086
				"$fv" run "$tmp/p.cfg" output.dir="$tmp/$mode-$nb-$n-$w" partition.blocks=$nb \
					numerics.iterations=$n $COMMON $extra 2>"$tmp/err" ||
					{ cat "$tmp/err"; fail "$mode, $nb blocks, $n iterations on $w"; }
			done
			tol=1e-12 htol=1e-8
			[ "$n" = 20 ] && tol=1e-11
			[ "$n" = 20 ] && [ $mode != steady ] && tol=1e-8
			[ "$n" = 1 ] && htol=none
			"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/$mode-$nb-$n-cpu" "$tmp/$mode-$nb-$n-gpu" \
				"laminar $mode, $nb blocks, $n iterations: CPU vs GPU" "$tol" "$htol" || fails=$((fails + 1))
		done
	done
done
finish
