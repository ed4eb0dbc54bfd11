#!/bin/sh
# SPDX-License-Identifier: MIT
# Several GPUs, no CPU worker (runtime.pin_blocks = yes, the default): the
# wedge in 2 blocks on 2 GPUs gives the state of 2 blocks on one GPU (to
# 1e-10, atomic flux sums), and both GPUs receive a block's data (StarPU's
# bus statistics: host to CUDA 1 is not empty). Exit 77 (SKIP) with fewer
# than 2 GPUs.
. "$top_srcdir/tests/cli/lib.sh"
[ "$(cuda_workers)" -ge 2 ] || { echo "fewer than 2 GPUs: SKIP"; exit 77; }
wedge_case
run() { "$fv" run "$tmp/w.cfg" partition.blocks=2 numerics.iterations=50 numerics.residual_drop=0 output.vtu=no \
	output.progress_every=0 "$@"; }
STARPU_NCPU=0 STARPU_NCUDA=1 run output.dir="$tmp/one" >/dev/null 2>"$tmp/err1" || { cat "$tmp/err1"; fail "one GPU"; }
STARPU_NCPU=0 STARPU_NCUDA=2 STARPU_BUS_STATS=1 run output.dir="$tmp/two" >/dev/null 2>"$tmp/err2" ||
	{ cat "$tmp/err2"; fail "two GPUs"; }
"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/one" "$tmp/two" "2 blocks on 1 GPU vs on 2 GPUs" 1e-10 ||
	fail "states differ"
grep -E "NUMA 0 -> CUDA [01]" "$tmp/err2"
n=$(sed -n 's/.*NUMA 0 -> CUDA 1.*(transfers : \([0-9]*\).*/\1/p' "$tmp/err2")
[ "${n:-0}" -gt 0 ] || fail "no data went to the second GPU (bus statistics: ${n:-none})"
finish
