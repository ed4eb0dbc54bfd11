#!/bin/sh
# SPDX-License-Identifier: MIT
# The layers of doc/architecture.md hold: tools/check_layers.py prints the
# include graph folder by folder and finds no include that runs back up,
# no <starpu.h> outside src/runtime and codelets, no starpu_ symbol in
# src/solver or src/app. And it does fail: on a scratch tree where a kernel
# header includes the solver and the solver calls StarPU.
. "$top_srcdir/tests/cli/lib.sh"
"$py" "$top_srcdir/tools/check_layers.py" "$top_srcdir" || fail "the tree breaks its layers"

mkdir -p "$tmp/t/src/kernels" "$tmp/t/src/solver" "$tmp/t/include"
printf '#include "solver/geo.h"\n' >"$tmp/t/src/kernels/k.h"
printf '#include <starpu.h>\nvoid f(void) { starpu_task_wait_for_all(); }\n' >"$tmp/t/src/solver/s.c"
if "$py" "$top_srcdir/tools/check_layers.py" "$tmp/t" >"$tmp/out"; then
	fail "a kernel header including the solver passed"
fi
grep -q "src/kernels/k.h:1: src/kernels (level 1) includes solver/geo.h (level 4)" "$tmp/out" ||
	fail "the upward include is not named"
grep -q "src/solver/s.c:1: includes <starpu.h>" "$tmp/out" || fail "<starpu.h> in the solver is not named"
grep -q "src/solver/s.c:2: names a StarPU symbol" "$tmp/out" || fail "starpu_ in the solver is not named"
grep -q "3 violations" "$tmp/out" || fail "expected 3 violations: $(tail -1 "$tmp/out")"
finish
