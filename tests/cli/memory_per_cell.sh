#!/bin/sh
# SPDX-License-Identifier: MIT
# Host memory per cell does not creep up: the solver benchmarks' tet box
# at 24576 and 196608 cells (2 CPU workers, 2 threads, 2 iterations), and
# the growth of the peak (summary.json's memory.host_peak_mib) per added
# cell, which leaves out what a run holds whatever its size (libraries,
# StarPU): 1141 bytes measured (2026-11-27, double precision; 1524 before
# the heap was given back and the blocks trimmed once the solver holds
# their data, 1213 before they were trimmed ahead of the solver's
# fields), bound 1250. Below 300 would mean the peak missed the
# solver's data.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/bench/box_case.sh"

for n in 16 32; do
	box_case "$top_builddir" "$n" "$tmp" "box$n"
	sed -i "s/^file = .*/file = box$n.su2/" "$tmp/box$n.cfg"
	OMP_NUM_THREADS=2 STARPU_NCPU=2 STARPU_NCUDA=0 "$fv" run "$tmp/box$n.cfg" numerics.iterations=2 \
		output.dir="$tmp/out$n" >/dev/null 2>"$tmp/err$n" || { cat "$tmp/err$n"; fail "box $n"; }
done
"$py" - "$tmp/out16/summary.json" "$tmp/out32/summary.json" <<'PY' || fail "host memory per cell"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
cells = b["mesh"]["cells"] - a["mesh"]["cells"]
slope = (b["memory"]["host_peak_mib"] - a["memory"]["host_peak_mib"]) * 2**20 / cells
print("host peak per added cell: %.0f bytes (%d -> %d cells)" % (slope, a["mesh"]["cells"], b["mesh"]["cells"]))
assert cells == 196608 - 24576, cells
assert 300 < slope < 1250, slope
PY
finish
