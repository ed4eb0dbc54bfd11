#!/bin/sh
# SPDX-License-Identifier: MIT
# The memory budget (runtime.memory_check, src/app/budget.c) with the
# node's available memory forced small (FVSTAR_MEMORY_AVAILABLE, bytes):
# yes refuses before the blocks are cut, saying by how much it is short
# and what would fit; an implicit run's message also names the explicit
# one; warn runs on with a warning; no skips the check. A run with room
# reports its budget, and summary.json its memory per cell.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
run() { STARPU_NCPU=1 "$fv" run "$tmp/w.cfg" numerics.iterations=2 output.vtu=no "$@"; }

FVSTAR_MEMORY_AVAILABLE=1000000 run output.dir="$tmp/a" >/dev/null 2>"$tmp/log" && fail "a budget of 1 MB accepted"
grep -q "error: rank 0: the blocks, state and solver of its 3580 cells (of 3580) need about [0-9]* MiB more host memory ([0-9]* bytes per cell), but 1 MiB are available (FVSTAR_MEMORY_AVAILABLE): short by [0-9]* MiB; what would fit: about [0-9]* cells per rank" "$tmp/log" ||
	{ cat "$tmp/log"; fail "no clear budget error"; }
grep -q "runtime.memory_check = warn or no" "$tmp/log" || fail "the error does not name runtime.memory_check"
grep -q "edge cut" "$tmp/log" && fail "the blocks were cut before the budget's error"
[ -e "$tmp/a/history.csv" ] && fail "history.csv written after the budget's error"

FVSTAR_MEMORY_AVAILABLE=1000000 run output.dir="$tmp/i" numerics.time=implicit >/dev/null 2>"$tmp/log" &&
	fail "an implicit run over budget accepted"
grep -q "an explicit run (numerics.time = steady) needs [0-9]* MiB, LU-SGS (numerics.implicit = lusgs) [0-9]* MiB" "$tmp/log" ||
	{ cat "$tmp/log"; fail "the implicit run's error does not suggest the explicit one"; }

FVSTAR_MEMORY_AVAILABLE=1000000 run output.dir="$tmp/w" runtime.memory_check=warn >/dev/null 2>"$tmp/log" ||
	{ cat "$tmp/log"; fail "memory_check = warn stopped the run"; }
grep -q "warning (runtime.memory_check = warn): rank 0: .* short by" "$tmp/log" || fail "no warning with warn"
FVSTAR_MEMORY_AVAILABLE=1000000 run output.dir="$tmp/n" runtime.memory_check=no >/dev/null 2>"$tmp/log" ||
	{ cat "$tmp/log"; fail "memory_check = no stopped the run"; }
grep -q "memory budget\|short by" "$tmp/log" && fail "memory_check = no still checked"
run runtime.memory_check=maybe output.dir="$tmp/x" >/dev/null 2>"$tmp/log" && fail "memory_check = maybe accepted"

# room enough: the budget's line, and the memory per cell at the end
run output.dir="$tmp/ok" >/dev/null 2>"$tmp/log" || { cat "$tmp/log"; fail "a plain run"; }
grep -q "^fvstar: memory budget: rank 0 holds [0-9]* MiB and will add about [0-9]* MiB" "$tmp/log" || fail "no budget line"
grep -q "^fvstar: host memory at the peak [0-9]* MiB, [0-9]* bytes per cell" "$tmp/log" || fail "no memory line"
grep -q "^fvstar: device memory: none (no GPU worker)" "$tmp/log" || fail "no device memory line"
"$py" - "$tmp/ok/summary.json" <<'PY' || fail "summary.json's memory"
import json, sys
s = json.load(open(sys.argv[1]))
m = s["memory"]
assert m["host_peak_mib"] == s["peak_memory_mib"] > 0, m
assert abs(m["host_bytes_per_cell"] - m["host_peak_mib"] * 2**20 / s["mesh"]["cells"]) < 1e-6 * m["host_bytes_per_cell"], m
# the estimate of the peak within a factor 2 of the measured one
assert 0.5 < m["rank0_estimate_mib"] / m["rank0_peak_mib"] < 2, m
assert m["gpus"] == 0 and "device_mib" not in m, m
PY
finish
