#!/bin/sh
# SPDX-License-Identifier: MIT
# The bare CUDA driver (fvstar bench stage) runs what a GPU-only run does:
# 50 iterations of the wedge as one block, its residual history against
# that of `fvstar run` on one CUDA worker, within 2e-9 of each column's
# largest value (both histories hold 10 significant digits) with gather
# loops everywhere, every stage by colour with the faces stored by colour,
# and every stage atomic; it also reports a time for every stage. Exit 77
# (SKIP) without a CUDA worker.
. "$top_srcdir/tests/cli/lib.sh"
[ "$(cuda_workers)" -gt 0 ] || { echo "no CUDA worker: SKIP"; exit 77; }
wedge_case
for v in "gather:flux_sum=gather" "color:flux_sum=color gradient_sum=color limiter_sum=color timestep_sum=color face_order=color" \
	"atomic:flux_sum=atomic nodes_sum=atomic gradient_sum=atomic limiter_sum=atomic timestep_sum=atomic"; do
	w=${v%%:*}
	args=$(for kv in ${v#*:}; do printf 'numerics.%s ' "$kv"; done)
	tol=2e-9
	# shellcheck disable=SC2086
	"$fv" bench stage "$tmp/w.cfg" partition.blocks=1 $args --iterations 45 --warmup 5 --history "$tmp/bare-$w.csv" \
		>"$tmp/bare-$w.out" 2>&1 || { cat "$tmp/bare-$w.out"; fail "bench stage ($w)"; continue; }
	cat "$tmp/bare-$w.out"
	# shellcheck disable=SC2086
	STARPU_NCPU=0 STARPU_NCUDA=1 "$fv" run "$tmp/w.cfg" partition.blocks=1 $args numerics.iterations=50 \
		numerics.residual_drop=0 output.dir="$tmp/run-$w" output.vtu=no output.progress_every=0 2>"$tmp/err" ||
		{ cat "$tmp/err"; fail "run ($w)"; continue; }
	"$py" - "$tmp/run-$w/history.csv" "$tmp/bare-$w.csv" "$w" "$tol" <<'PY' || fail "histories ($w)"
import csv, sys
run = {r["iteration"]: r for r in csv.DictReader(open(sys.argv[1]))}
bare = list(csv.DictReader(open(sys.argv[2])))
assert len(bare) == len(run) == 50, (len(bare), len(run))
worst = 0.0
for col in ("res_rho", "res_rhou", "res_rhov", "res_rhoE"):
    top = max(abs(float(r[col])) for r in bare)
    worst = max(worst, max(abs(float(r[col]) - float(run[r["iteration"]][col])) for r in bare) / top)
print("%s: bare driver vs fvstar run, residual histories max diff %.3g of the largest (tol %s)" % (sys.argv[3], worst, sys.argv[4]))
sys.exit(0 if worst <= float(sys.argv[4]) else 1)
PY
done
finish
