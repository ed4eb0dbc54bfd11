#!/bin/sh
# SPDX-License-Identifier: MIT
# The Spalart-Allmaras codelets on CUDA against the CPU: NASA TMR's flat
# plate on the 69 x 49 grid (cases/plate_tmr), 1 and 3 blocks, CPU workers
# only against the GPU only, every stage deterministic (flux_sum = gather):
#  - explicit RK2: after 1 and 20 iterations the states (rho nu~ included)
#    agree to 1e-12 and 1e-11 of each quantity's largest value, the
#    x-momentum residual and drag histories to 1e-9;
#  - point-implicit: after 1 iteration to 1e-12; after 600 (residual about
#    5e-13; the single-precision operator's rounding takes another path to
#    it) to 1e-7 (measured on an H100, 2026-11-25: 1.1e-8 with 1 block,
#    1.7e-10 with 3).
# Exit 77 (SKIP) where there is no CUDA worker.
. "$top_srcdir/tests/cli/lib.sh"
[ "$(cuda_workers)" -gt 0 ] || { echo "no CUDA worker: SKIP"; exit 77; }
"$fv" mesh gen plate --level 4 -o "$tmp/plate_tmr.su2" >/dev/null 2>&1 || fail "mesh gen plate"
sed "s|^file = plate_tmr.su2|file = $tmp/plate_tmr.su2|" "$top_srcdir/cases/plate_tmr/plate_tmr.cfg" >"$tmp/p.cfg"
COMMON="numerics.flux_sum=gather output.progress_every=0 output.vtu=no numerics.residual_drop=0 numerics.first_order=0 numerics.cfl_growth=1.2"
for nb in 1 3; do
	rk_cpu_gpu "$tmp/p.cfg" "$nb" SA
	for n in 1 600; do
		cpu_gpu_pair "$tmp/p.cfg" "imp-$nb-$n" partition.blocks=$nb numerics.iterations=$n
		tol=1e-12
		[ "$n" = 600 ] && tol=1e-7
		"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/imp-$nb-$n-cpu" "$tmp/imp-$nb-$n-gpu" \
			"SA implicit, $nb blocks, $n iterations: CPU vs GPU" "$tol" none || fails=$((fails + 1))
	done
done
finish
