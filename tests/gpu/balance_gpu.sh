#!/bin/sh
# SPDX-License-Identifier: MIT
# Speed-weighted blocks on CPU and CUDA workers (runtime.balance = speed):
# 1 GPU + 2 CPU workers with runtime.gpu_speed = 4 give one GPU block of
# 4/6 of the cells and two CPU blocks of 1/6 (within 6%: METIS's 3% at
# each of the two cuts, GPU/CPU region then CPU blocks), the
# start line says so, and the results equal those of the CPU workers alone
# to round-off (1e-12 of each quantity's largest value). CPU workers worth
# less than a quarter of the GPU (FV_CPU_JOIN_SHARE) would hold no cells
# and are not started (idle, they poll a core each): at gpu_speed 10 the
# start line says "0 CPU + 1 CUDA workers" and why, one block, the results
# those of the CPU run to round-off; with runtime.balance = equal they
# start and hold cells; with the default speed (the history models, else
# 640) the GPU block holds speed / (speed + 2) of the cells where 2 / speed
# reaches a quarter, else the CPU workers are not started. Without runtime.ncpu or
# STARPU_NCPU a run is GPU only at 640, and takes the cores at
# runtime.gpu_speed = 2. Exit 77 (SKIP) where there is no CUDA worker.
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
if run mixed 2 1 partition.blocks=0 runtime.gpu_speed=4; then
	grep "CPU+GPU, runtime.balance = speed" "$tmp/mixed.err" || fail "no CPU+GPU start line"
	"$py" - "$tmp/mixed/summary.json" <<'PY' || fail "blocks not 4/6, 1/6, 1/6"
import json, sys
c = json.load(open(sys.argv[1]))["partition"]["block_cells"]
n = sum(c)
print("blocks: " + ", ".join("%.2f%%" % (100.0 * x / n) for x in c))
want = [4 / 6, 1 / 6, 1 / 6]
sys.exit(0 if len(c) == 3 and all(x <= w * n * 1.06 + 1 and x >= w * n * 0.9 for x, w in zip(c, want)) else 1)
PY
	"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/cpu" "$tmp/mixed" "CPU+GPU speed-weighted vs CPU" \
		"$(tol 1e-12)" || fails=$((fails + 1))
fi
if run idle 2 1 partition.blocks=0 runtime.gpu_speed=10; then
	grep "fvstar: 0 CPU + 1 CUDA workers (GPU only: the 2 CPU workers asked for are worth 20.0% of the GPU" \
		"$tmp/idle.err" || fail "gpu_speed 10: the 2 CPU workers were started (or no line says why not)"
	"$py" - "$tmp/idle/summary.json" <<'PY' || fail "gpu_speed 10: not one block"
import json, sys
c = json.load(open(sys.argv[1]))["partition"]["block_cells"]
sys.exit(0 if len(c) == 1 else 1)
PY
	"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/cpu" "$tmp/idle" "GPU beside idle CPU workers vs CPU" \
		"$(tol 1e-12)" || fails=$((fails + 1))
fi
if run equal 2 1 partition.blocks=3 runtime.gpu_speed=10 runtime.balance=equal; then
	grep -q "fvstar: 2 CPU + 1 CUDA workers" "$tmp/equal.err" || fail "balance = equal: the CPU workers were not started"
	"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/cpu" "$tmp/equal" "CPU+GPU equal blocks vs CPU" \
		"$(tol 1e-12)" || fails=$((fails + 1))
fi
if run default 2 1 partition.blocks=0; then
	# the speed the start line names (the models of this STARPU_HOME, or
	# 640): the GPU block holds speed / (speed + 2) of the cells, or all of
	# them where 2 CPU workers are worth less than a quarter of it (and are
	# then not started)
	line=$(grep -E "CPU\+GPU, runtime.balance = speed|CPU workers asked for are worth" "$tmp/default.err") ||
		fail "default: no line on the CPU workers"
	echo "$line"
	speed=$(echo "$line" | sed -n 's/.*one GPU \(=\|being worth\) \([0-9.e+]*\) CPU workers.*/\2/p')
	"$py" - "$tmp/default/summary.json" "${speed:-0}" <<'PY' || fail "default speed: the GPU block is not speed / (speed + 2)"
import json, sys
c = json.load(open(sys.argv[1]))["partition"]["block_cells"]
s = float(sys.argv[2])
idle = s > 0 and 2 / s < 0.25
want = (1 if idle else s / (s + 2)) * sum(c)
print("GPU block %d cells of %d, %.0f wanted (one GPU = %g CPU workers)" % (c[0], sum(c), want, s))
sys.exit(0 if s > 0 and len(c) == (1 if idle else 3) and abs(c[0] - want) <= 0.03 * want + 2 else 1)
PY
fi
# neither runtime.ncpu nor STARPU_NCPU: GPU only, unless the other cores
# could add a quarter of the GPU's speed (one GPU worth 640 CPU workers:
# no; worth 2: yes, and StarPU starts again with the cores)
cfgrun() { # dir, args...
	d=$1; shift
	env -u STARPU_NCPU STARPU_NCUDA=1 "$fv" run "$tmp/w.cfg" output.dir="$tmp/$d" numerics.iterations=3 \
		output.progress_every=0 output.vtu=no "$@" >/dev/null 2>"$tmp/$d.err" ||
		{ fail "$d: $(tail -1 "$tmp/$d.err")"; return 1; }
}
if cfgrun alone runtime.gpu_speed=640; then
	grep -q "fvstar: 0 CPU + 1 CUDA workers (GPU only: " "$tmp/alone.err" || fail "gpu_speed 640: not GPU only"
fi
if [ "$(nproc)" -ge 2 ] && cfgrun join runtime.gpu_speed=2 partition.blocks=0; then
	grep "CUDA workers" "$tmp/join.err" | cut -c1-200
	grep -Eq "fvstar: [1-9][0-9]* CPU \+ 1 CUDA workers \(CPU\+GPU: the cores could add" "$tmp/join.err" ||
		fail "gpu_speed 2: the cores did not join"
	grep -q "CPU+GPU, runtime.balance = speed" "$tmp/join.err" || fail "gpu_speed 2: no speed-weighted blocks"
fi
finish
