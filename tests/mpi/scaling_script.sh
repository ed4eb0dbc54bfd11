#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/run_gpu_scaling.sh (issue 15's runs) tried on CPU workers
# (SCALING_CPU=1: a CPU worker where a GPU would be): one process with 1
# and 2 blocks and 2 StarPU-MPI ranks on a small box, each run a row of
# scaling.csv with its time per iteration and set-up, and the final states
# of one process and of the ranks compared (identical.txt, to 1e-10).
. "$top_srcdir/tests/mpi/lib.sh"
out=$tmp/scal
SCALING_CPU=1 SCALING_TIMEOUT="$FV_MPI_TIMEOUT" sh "$top_srcdir/bench/run_gpu_scaling.sh" "$fv" "$out" 3 1 \
	proc:1:8:0 proc:2:8:0 mpi:2:8:0 >"$tmp/scal.log" 2>&1 || fail "run_gpu_scaling.sh: $(tail -3 "$tmp/scal.log")"
cat "$out/scaling.csv" "$out/identical.txt" 2>/dev/null
"$py" - "$out/scaling.csv" <<'PY' || fail "scaling.csv: not three complete rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
want = [("proc", "1"), ("proc", "2"), ("mpi", "2")]
ok = [(r["mode"], r["gpus"]) for r in rows] == want
for r in rows:
    ok = ok and r["rc"] == "0" and r["cells"] == str(6 * 8 ** 3) and r["blocks"] == r["gpus"]
    ok = ok and float(r["s_per_iteration"]) > 0 and float(r["setup_s"]) >= 0 and r["iterations"] == "3"
sys.exit(0 if ok else 1)
PY
grep -q "^proc-g2-n8-r0: one process vs a rank per GPU: state max diff" "$out/identical.txt" ||
	fail "identical.txt: no comparison of one process and 2 ranks"
grep -q "DIFFER" "$out/identical.txt" && fail "one process and 2 ranks differ"
finish
