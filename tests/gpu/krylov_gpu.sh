#!/bin/sh
# SPDX-License-Identifier: MIT
# The Krylov solve's codelets (numerics.linear = gmres, codelets/krylov) on
# CUDA against the CPU: the TMR bump's 45 x 21 grid (mesh gen bump --level
# 6) with the long side's step (aspect_dt 1e6, where the sweeps alone
# diverge: tests/cli/krylov.sh), 1 and 3 blocks, CPU workers only against
# the GPU only (the reduce task then runs on the GPU too):
#  - after 1 iteration the states agree to 1e-10 of each quantity's
#    largest value (the dot products' partial sums differ: a GPU's 64
#    thread blocks' against a CPU task's one sum);
#  - after 20 (CFL 4400, with restarts: krylov_cycles 2) to 1e-4: the
#    path's own sensitivity sets this bound, not the codelets. An H200
#    against the CPU: 9.42e-6 (1 block) and 9.83e-7 (3 blocks) with these
#    keys (session 23 call 4), 2.8e-12 and 9.67e-6 with 10 directions of 2
#    pairs (call 3); on the CPU alone, the dot products summed in reverse
#    cell order move the state 8.5e-12 and 9.67e-6: GMRES's restarts and
#    the CFL ramp amplify a rounding-level change this far in 20 steps;
#  - converged (8 orders), the GPU's state equals the CPU's to 1e-9
#    (1.38e-11 on an H200, session 23 call 5: the answer does not depend
#    on the path);
#  - the GPU run converges 8 orders in at most 100 iterations, as the CPU's
#    67 (tests/cli/krylov.sh; an H200: 65, calls 3-5,
#    as the CPU with one block).
# Exit 77 (SKIP) where there is no CUDA worker.
. "$top_srcdir/tests/cli/lib.sh"
[ "$(cuda_workers)" -gt 0 ] || { echo "no CUDA worker: SKIP"; exit 77; }
bump_case 6 b
COMMON="numerics.flux_sum=gather output.progress_every=0 output.vtu=no numerics.linear=gmres numerics.aspect_dt=1e6
numerics.retries=0 numerics.krylov_dim=20 numerics.krylov_sweeps=1"
for nb in 1 3; do
	for n in 1 20; do
		cpu_gpu_pair "$tmp/b.cfg" "kry-$nb-$n" partition.blocks=$nb numerics.iterations=$n numerics.krylov_cycles=2 \
			numerics.residual_drop=0
		tol=1e-10
		[ "$n" = 20 ] && tol=1e-4
		"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/kry-$nb-$n-cpu" "$tmp/kry-$nb-$n-gpu" \
			"gmres, $nb blocks, $n iterations: CPU vs GPU" "$tol" none || fails=$((fails + 1))
	done
done
# the converged states, GPU and CPU (cpu_gpu_pair: the run ends at 8 orders)
cpu_gpu_pair "$tmp/b.cfg" conv partition.blocks=1 numerics.residual_drop=8 numerics.iterations=150
"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/conv-cpu" "$tmp/conv-gpu" "gmres converged: CPU vs GPU" 1e-9 none ||
	fails=$((fails + 1))
"$py" - "$tmp/conv-gpu/history.csv" <<'PY' || fail "gmres on the GPU: 8 orders"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
res = [float(r["res_rho"]) for r in rows]
assert all(math.isfinite(x) for x in res), "a residual is not finite"
o = math.log10(max(res) / res[-1])
print("gmres on the GPU: %.2f orders in %d iterations, lin_res at most %.3g" %
      (o, len(rows), max(float(r["lin_res"]) for r in rows)))
assert o >= 8 and len(rows) <= 100, "%.2f orders in %d iterations" % (o, len(rows))
PY
finish
