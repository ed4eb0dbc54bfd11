#!/bin/sh
# SPDX-License-Identifier: MIT
# The layers of doc/architecture.md hold: tools/check_layers.py prints the
# include graph folder by folder and finds no include that runs back up,
# no <starpu.h> outside src/runtime and codelets, no starpu_ symbol in
# src/solver or src/app; a public header counts at the level of the folder
# it is the interface of. And it does fail: on a scratch tree where a kernel
# header includes the solver, directly and through fvstar/solver.h, a public
# header has no layer, and the solver calls StarPU.
. "$top_srcdir/tests/cli/lib.sh"
"$py" "$top_srcdir/tools/check_layers.py" "$top_srcdir" || fail "the tree breaks its layers"

mkdir -p "$tmp/t/src/kernels" "$tmp/t/src/solver" "$tmp/t/include/fvstar"
printf '#include "solver/geo.h"\n' >"$tmp/t/src/kernels/k.h"
printf '#include "fvstar/types.h"\n#include "fvstar/solver.h"\n' >"$tmp/t/src/kernels/k2.h"
: >"$tmp/t/include/fvstar/solver.h"
: >"$tmp/t/include/fvstar/types.h"
: >"$tmp/t/include/fvstar/unplaced.h"
printf '#include <starpu.h>\nvoid f(void) { starpu_task_wait_for_all(); }\n' >"$tmp/t/src/solver/s.c"
if "$py" "$top_srcdir/tools/check_layers.py" "$tmp/t" >"$tmp/out"; then
	fail "a kernel header including the solver passed"
fi
grep -q "src/kernels/k.h:1: src/kernels (level 1) includes solver/geo.h (level 4)" "$tmp/out" ||
	fail "the upward include is not named"
grep -q "src/solver/s.c:1: includes <starpu.h>" "$tmp/out" || fail "<starpu.h> in the solver is not named"
grep -q "src/solver/s.c:2: names a StarPU symbol" "$tmp/out" || fail "starpu_ in the solver is not named"
grep -q "src/kernels/k2.h:2: src/kernels (level 1) includes fvstar/solver.h (level 4)" "$tmp/out" ||
	fail "the upward include through a public header is not named"
grep -q "include/fvstar/unplaced.h: a public header with no layer" "$tmp/out" ||
	fail "a public header with no layer is not named"
grep -q "5 violations" "$tmp/out" || fail "expected 5 violations: $(tail -1 "$tmp/out")"
finish
