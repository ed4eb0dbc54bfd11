#!/bin/sh
# SPDX-License-Identifier: MIT
# Speed-weighted blocks on CPU and CUDA workers (runtime.balance = speed):
# 1 GPU + 2 CPU workers with runtime.gpu_speed = 10 give one GPU block of
# 10/12 of the cells and two CPU blocks of 1/12 (within METIS's 3%), the
# start line says so, and the results equal those of the CPU workers alone
# to round-off (1e-12 of each quantity's largest value); the default speed
# (models or 640) puts more than 90% on the GPU. Exit 77 (SKIP) where
# there is no CUDA worker.
. "$top_srcdir/tests/cli/lib.sh"
[ "$(cuda_workers)" -gt 0 ] || { echo "no CUDA worker: SKIP"; exit 77; }
wedge_case
run() { # dir, NCPU, NCUDA, args...
	d=$1 nc=$2 ng=$3; shift 3
	STARPU_NCPU=$nc STARPU_NCUDA=$ng "$fv" run "$tmp/w.cfg" output.dir="$tmp/$d" numerics.iterations=30 \
		output.progress_every=0 output.vtu=no numerics.flux_sum=gather "$@" >/dev/null 2>"$tmp/$d.err" ||
		{ fail "$d: $(tail -1 "$tmp/$d.err")"; return 1; }
}
run cpu 2 0 partition.blocks=2
if run mixed 2 1 partition.blocks=0 runtime.gpu_speed=10; then
	grep "CPU+GPU, runtime.balance = speed" "$tmp/mixed.err" || fail "no CPU+GPU start line"
	"$py" - "$tmp/mixed/summary.json" <<'PY' || fail "blocks not 10/12, 1/12, 1/12"
import json, sys
c = json.load(open(sys.argv[1]))["partition"]["block_cells"]
n = sum(c)
print("blocks: " + ", ".join("%.2f%%" % (100.0 * x / n) for x in c))
want = [10 / 12, 1 / 12, 1 / 12]
sys.exit(0 if len(c) == 3 and all(x <= w * n * 1.03 + 1 and x >= w * n * 0.9 for x, w in zip(c, want)) else 1)
PY
	"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/cpu" "$tmp/mixed" "CPU+GPU speed-weighted vs CPU" \
		"$(tol 1e-12)" || fails=$((fails + 1))
fi
if run default 2 1 partition.blocks=0; then
	grep "CPU+GPU, runtime.balance = speed" "$tmp/default.err"
	"$py" -c 'import json, sys; c = json.load(open(sys.argv[1]))["partition"]["block_cells"]; sys.exit(0 if c[0] > 0.9 * sum(c) else 1)' \
		"$tmp/default/summary.json" || fail "default speed: the GPU block holds 90% or less"
fi
finish
