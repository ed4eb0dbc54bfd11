#!/bin/sh
# SPDX-License-Identifier: MIT
# fvstar bench sched on the small wedge with CPU workers: 2 policies (and
# modular-heteroprio-heft, refused without a run) x CPU worker sets of 1
# and 2 workers (the GPU sets skipped without a GPU) x 1 block per worker:
# sched.csv has its columns and one row per policy and set, each run ok
# with s/iteration, ns/cell/stage and utilisation sane (times are not
# compared: the machine is shared); sched.png is a PNG, sched.md a table;
# --append adds runs to those of an earlier bench; --plot-only redraws.
. "$top_srcdir/tests/cli/lib.sh"
wedge_case
out="$tmp/bench"
if ! "$fv" bench sched "$tmp/w.cfg" --policies eager,lws,modular-heteroprio-heft --workers gpu,cpu1,cpu2 \
	--blocks-per-worker 1 --iterations 6 --warmup 2 --calibrate 3 --timeout 120 -o "$out" >"$tmp/b.out" 2>"$tmp/b.err"; then
	cat "$tmp/b.out" "$tmp/b.err"
	fail "fvstar bench sched failed"
	finish
fi
cat "$tmp/b.out"
if [ "$(cuda_workers)" = 0 ]; then
	grep -q "gpu: no GPU here, skipped" "$tmp/b.out" || fail "the GPU set is not skipped without a GPU"
fi
"$py" - "$out/sched.csv" <<'PY' || fail "sched.csv"
import csv, sys
cols = ["policy", "workers", "ncpu", "ncuda", "balance", "blocks", "blocks_per_worker", "gpu_share_pct",
        "iterations", "s_per_iteration", "ns_per_cell_stage", "busy_mean_pct", "busy", "status", "seconds"]
rows = list(csv.DictReader(open(sys.argv[1])))
ok = True
def bad(msg):
    global ok
    print("sched.csv: " + msg)
    ok = False
if list(rows[0].keys()) != cols:
    bad("columns %s" % list(rows[0].keys()))
cpu_rows = [r for r in rows if r["ncuda"] == "0"]
if sorted((r["policy"], r["workers"]) for r in cpu_rows) != sorted(
        (p, w) for p in ("eager", "lws", "modular-heteroprio-heft") for w in ("cpu1", "cpu2")):
    bad("rows %s" % [(r["policy"], r["workers"]) for r in cpu_rows])
for r in cpu_rows:
    if r["policy"] == "modular-heteroprio-heft":
        if not r["status"].startswith("refused"):
            bad("modular-heteroprio-heft: %s" % r["status"])
        continue
    n = int(r["ncpu"])
    busy = r["busy"].split()
    if r["status"] != "ok":
        bad("%s %s: %s" % (r["policy"], r["workers"], r["status"]))
    elif not (float(r["s_per_iteration"]) > 0 and float(r["ns_per_cell_stage"]) > 0
              and 0 <= float(r["busy_mean_pct"]) <= 100 and len(busy) == n
              and int(r["blocks"]) == n and r["iterations"] == "6"):
        bad("%s %s: %s" % (r["policy"], r["workers"], r))
    else:
        # ns/cell/stage = s/iteration / (cells x 2 RK stages)
        ns = float(r["s_per_iteration"]) * 1e9 / (3580 * 2)
        if abs(ns - float(r["ns_per_cell_stage"])) > 1e-3 * ns:
            bad("ns/cell/stage %s, expected %g" % (r["ns_per_cell_stage"], ns))
sys.exit(0 if ok else 1)
PY
head -c 8 "$out/sched.png" 2>/dev/null | od -An -c | grep -q "P   N   G" || fail "no sched.png"
grep -q "^| policy | workers | balance | blocks |" "$out/sched.md" || fail "sched.md: no table"
[ "$(grep -c "^| \(eager\|lws\) | cpu" "$out/sched.md")" = 4 ] || fail "sched.md: not 4 rows of runs"
# --append: the earlier rows stay, the new run joins them
"$fv" bench sched "$tmp/w.cfg" --policies eager --workers cpu1 --blocks-per-worker 2 --iterations 4 --warmup 1 \
	--calibrate 0 --append -o "$out" >"$tmp/a.out" 2>&1 || { cat "$tmp/a.out"; fail "--append failed"; }
[ "$(tail -n +2 "$out/sched.csv" | wc -l)" = 7 ] || fail "--append: $(tail -n +2 "$out/sched.csv" | wc -l) rows, not 7"
grep -q "^| eager | cpu1 | equal | 2 |" "$out/sched.md" || fail "--append: the new run is not in sched.md"
# --plot-only: the plot and the table again from sched.csv, no run
rm -f "$out/sched.png" "$out/sched.md"
"$fv" bench sched --plot-only -o "$out" >"$tmp/p.out" 2>&1 || { cat "$tmp/p.out"; fail "--plot-only failed"; }
head -c 8 "$out/sched.png" 2>/dev/null | od -An -c | grep -q "P   N   G" || fail "--plot-only: no sched.png"
grep -q "^| eager | cpu1 | equal | 2 |" "$out/sched.md" || fail "--plot-only: no table"
grep -q "s/iteration\|calibration" "$tmp/p.out" && fail "--plot-only ran something"
# a bad option names itself
if "$fv" bench sched "$tmp/w.cfg" --workers tpu -o "$tmp/x" >/dev/null 2>"$tmp/x.err"; then
	fail "--workers tpu accepted"
else
	grep -q "tpu: not gpu, gpu+N, cpu or cpuN" "$tmp/x.err" || fail "--workers tpu: $(tail -1 "$tmp/x.err")"
fi
finish
