#!/bin/sh
# SPDX-License-Identifier: MIT
# Traces (output.trace = DIR, `fvstar trace DIR`) on the Mach 2 wedge of
# tests/cli/lib.sh (3580 mixed cells), CPU workers:
# - an explicit RK2 run on 2 blocks (interior and border tasks: numerics.
#   overlap = yes), 5 iterations, recorded from iteration
#   3 (output.trace_from): StarVZ's input files are there (paje.trace,
#   tasks.rec, data.rec, dag.dot), Debian's pj_dump parses paje.trace
#   (exit 0, no error line), and the tasks of the iterations fill its
#   timeline (at least half of it: the start-up is left out); each
#   iteration and RK stage is marked where it ran by an event at its first
#   task start and one at its last task end (18 events, pj_dump lists them);
# - tasks.rec holds, for every stage, the task count the task graph must
#   contain, computed from the case as the run reports it (summary.json:
#   blocks, RK stages, order, gradient, limiter): blocks x RK stages that run
#   the stage x traced iterations, halo pack and unpack per neighbouring
#   block pair and direction (2 blocks: 2 links) x halos per RK stage; each
#   task marked with its iteration (3..5) and RK stage, and none from
#   before iteration 3;
# - the run prints its summary (a line per worker, busy %, GFlop/s);
#   `fvstar trace DIR` prints it again, a critical path and a makespan per
#   iteration (0 < path <= makespan, work / workers <= makespan) and the
#   time the workers waited on halos (0 <= mean and most <= makespan), that
#   wait over the iterations, a row per worker under StarPU's name holding
#   its tasks, and writes gantt.png, stats.png and stats.json (the same
#   halo waits);
# - tools/plot_trace.py's halo wait on a made-up tasks.rec whose waits are
#   known exactly;
# - an implicit run (point, 4 sweeps, 1 block, 2 iterations): one diagonal
#   and one update task per block and iteration, the sweep tasks marked
#   with their sweep (sub-iterations 1..8), as many in each;
# - tools/plot_trace.py reads data transfers from Paje links (a made-up
#   paje.trace: there are none between CPU workers).
# SKIP without the FxT StarPU; the pj_dump check is left out (said) where
# pajeng is not installed.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
run() { "$fv" run "$tmp/w.cfg" output.vtu=no output.progress_every=0 "$@" >"$tmp/out" 2>"$tmp/err"; }
if ! run output.dir="$tmp/ex" numerics.iterations=5 numerics.residual_drop=0 partition.blocks=2 \
	numerics.overlap=yes output.trace="$tmp/tr" output.trace_from=3; then
	if grep -q "FxT-enabled StarPU" "$tmp/err"; then
		echo "no FxT StarPU: SKIP"
		exit 77
	fi
	cat "$tmp/err"
	fail "traced explicit run"
	finish
fi
cp "$tmp/err" "$tmp/run.log"

for f in paje.trace tasks.rec data.rec dag.dot; do
	[ -s "$tmp/tr/$f" ] && echo "$f: $(wc -c <"$tmp/tr/$f") bytes" || fail "$f missing or empty"
done

# pj_dump: exit 0, nothing on stderr; the iterations fill the timeline
if command -v pj_dump >/dev/null 2>&1; then
	if pj_dump "$tmp/tr/paje.trace" >"$tmp/dump" 2>"$tmp/dump.err" && [ ! -s "$tmp/dump.err" ]; then
		echo "pj_dump: $(wc -l <"$tmp/dump") entities"
		"$py" - "$tmp/dump" "$tmp/tr/tasks.rec" <<'PY' || fail "the iterations do not fill the trace"
import sys
end = max(float(l.split(",")[4]) for l in open(sys.argv[1]) if l.startswith("Container,"))
starts = [float(l.split(": ")[1]) for l in open(sys.argv[2]) if l.startswith("StartTime: ")]
ends = [float(l.split(": ")[1]) for l in open(sys.argv[2]) if l.startswith("EndTime: ")]
first, last = min(s for s in starts if s > 0), max(ends)
print("timeline: %.3f ms, tasks from %.3f to %.3f ms (%.0f %%)" % (end, first, last, 100 * (last - first) / end))
# recorded from StarPU's start, the set-up came first: tasks from 111.7 ms
# of 167.7 (24 %); from the traced iteration, they start within 0.05 ms
# and fill 99 % of a 3 ms timeline, unless the machine stalls (a 2-core CI
# run once started them at 8.6 ms of 15.3): under half the timeline is
# refused only when the tasks start 50 ms or more after the recording
sys.exit(0 if (last - first) >= 0.5 * end or first < 50 else 1)
PY
	else
		head -5 "$tmp/dump.err"
		fail "pj_dump on paje.trace"
	fi
else
	echo "no pj_dump (Debian: pajeng): its check skipped"
fi

# where the iterations and RK stages ran: events "iteration 4 begins",
# "iteration 4 rk 1 ends" (first start and last end of their tasks), two per
# iteration and per stage, in paje.trace; pj_dump lists them (it drops an
# event at the very end of a trace: every "begins" is checked)
n=$(grep -cE "^9	[0-9.]+	fvm	[a-z0-9]+	\"iteration [0-9]+( rk [01])? (begins|ends)\"" "$tmp/tr/paje.trace")
[ "$n" = 18 ] && echo "paje.trace: $n iteration and RK stage marks" || fail "paje.trace: $n marks, not 3 x 3 x 2"
if [ -s "$tmp/dump" ]; then
	for it in 3 4 5; do
		for what in "" " rk 0" " rk 1"; do
			grep -q "fvstar iteration marks, [0-9.]*, iteration $it$what begins$" "$tmp/dump" ||
				fail "pj_dump: no mark 'iteration $it$what begins'"
		done
	done
fi

# task counts per stage: what the task graph must contain
"$py" - "$tmp/ex/summary.json" "$tmp/tr/tasks.rec" 3 5 <<'PY' || fail "task counts per stage"
import json, sys
s = json.load(open(sys.argv[1]))
num, nb, rk = s["case"]["numerics"], s["partition"]["blocks"], s["rk_stages"]
first, last = int(sys.argv[3]), int(sys.argv[4])
assert num["time"] != "implicit" and not num["color_tasks"] and num["limiter_freeze"] == 0, \
    "the counts below are for explicit runs without colour group tasks or limiter freezing"
assert nb <= 2, "halo links counted for 1 or 2 blocks"
links = nb * (nb - 1)  # pack and unpack tasks per halo: each block's neighbours
# numerics.overlap: prim, the node values, the gradient (node loops and
# Green-Gauss gathers) and the second-order flux of a block with
# neighbours run as an interior and a border task each
split = nb > 1 and s["partition"]["overlap_blocks"] == nb
split_nodes = split and num["nodes_sum"] == "gather" and num["gradient_sum"] == "gather"
want = {}
def add(name, n, parts=False):
    for nm in ((name + "_interior", name + "_border") if parts else (name,)):
        want[nm] = want.get(nm, 0) + n
for it in range(first, last + 1):
    order = 1 if it <= num["first_order"] else num["order"]
    limiter = order == 2 and num["limiter"] != "none"
    for k in range(rk):
        halos = 1 + (order == 2) + limiter  # q, gradients, limiter
        for name, runs in (("prim", 1), ("nodes", order == 2 and num["gradient"] == "green-gauss"),
                           ("gradient", order == 2), ("limiter", limiter), ("flux", 1),
                           ("timestep", k == 0), ("norms", k == 0), ("update", 1)):
            if runs:
                add(name, nb, name == "prim" and split or name in ("nodes", "gradient") and split_nodes
                    or name == "flux" and split and order == 2)
        add("pack", links * halos)
        add("unpack", links * halos)
got, marks, bad = {}, {}, []
rec = {}
for line in open(sys.argv[2]).read().split("\n\n"):
    t = dict(l.split(": ", 1) for l in line.strip().split("\n") if ": " in l)
    name = t.get("Name", "")
    if not name or name.startswith("_starpu") or name.startswith("starpu_"):
        continue
    if float(t.get("EndTime", 0)) <= 0:
        continue  # done before the recording started
    got[name] = got.get(name, 0) + 1
    it = t.get("Iteration", "").split()
    if len(it) != 2 or not first <= int(it[0]) <= last or not 0 <= int(it[1]) < rk:
        bad.append("%s (job %s): Iteration %r" % (name, t.get("JobId"), t.get("Iteration")))
print("expected: " + ", ".join("%s %d" % kv for kv in sorted(want.items())))
print("tasks.rec: " + ", ".join("%s %d" % kv for kv in sorted(got.items())))
ok = got == want
if bad:
    print("tasks without their iteration and RK stage: %d, e.g. %s" % (len(bad), bad[0]))
    ok = False
sys.exit(0 if ok else 1)
PY

# numerics.overlap in the task graph (dag.dot's edges are tasks.rec's
# DependsOn): of the halo unpack tasks of its own iteration and RK stage,
# an interior task of the state's stencil (prim, node values, gradient)
# waits for none, and the interior flux for its block's state halo alone,
# the one the border gradient waits for; the border flux waits for more
# (the gradients' and limiters' halos)
"$py" - "$tmp/tr/tasks.rec" <<'PY' || fail "interior tasks wait for halos"
import sys
tasks = {}
for line in open(sys.argv[1]).read().split("\n\n"):
    t = dict(l.split(": ", 1) for l in line.strip().split("\n") if ": " in l)
    if "JobId" in t and "Name" in t:
        tasks[t["JobId"]] = t
def unpacks(job, stage, seen=None):
    """the unpack tasks of iteration and RK stage `stage` that job waits for"""
    seen = set() if seen is None else seen
    out = set()
    for d in tasks[job].get("DependsOn", "").split():
        if d in seen or d not in tasks:
            continue
        seen.add(d)
        t = tasks[d]
        if t.get("Iteration") == stage and t["Name"] == "unpack":
            out.add(d)
        out |= unpacks(d, stage, seen)
    return out
# tasks by name, iteration and block (a flux or gradient task's first
# handle is its block's geometry)
by = {}
for j, t in tasks.items():
    if float(t.get("EndTime", 0)) > 0 and "Iteration" in t:
        by.setdefault((t["Name"], t["Iteration"], t["Handles"].split()[0]), []).append(j)
checked = 0
for (name, stage, w), jobs in sorted(by.items()):
    for j in jobs:
        n = len(unpacks(j, stage))
        if name in ("prim_interior", "nodes_interior", "gradient_interior"):
            assert n == 0, "%s (job %s, iteration %s) waits for %d unpacks" % (name, j, stage, n)
            checked += 1
        if name == "flux_interior":
            gb = [k for k in by.get(("gradient_border", stage, w), [])]
            fb = [k for k in by.get(("flux_border", stage, w), [])]
            assert len(gb) == 1 and len(fb) == 1, (name, stage, w)
            assert unpacks(j, stage) == unpacks(gb[0], stage), "flux_interior waits for more than the state halo"
            assert len(unpacks(fb[0], stage)) > n, "flux_border waits for no more halos than flux_interior"
            checked += 1
print("interior tasks checked against the halos: %d" % checked)
sys.exit(0 if checked >= 4 * 2 * 3 * 2 else 1)
PY

# the run's summary: a line per worker (2 CPU workers here) and the total
grep -A4 "trace summary" "$tmp/run.log"
n=$(grep -cE "^  CPU[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$" "$tmp/run.log")
[ "$n" = "${STARPU_NCPU:-2}" ] || fail "summary: $n worker lines, ${STARPU_NCPU:-2} workers"
grep -q "iterations 3 to 5" "$tmp/run.log" || fail "summary: not iterations 3 to 5"

# fvstar trace DIR: the summary again, the Gantt chart and the statistics
if "$fv" trace "$tmp/tr" --iterations 2 >"$tmp/trace.out" 2>"$tmp/trace.err"; then
	grep -E "^plot_trace: (wrote|[0-9]+ tasks)|^iteration [0-9]+:" "$tmp/trace.out"
	for png in gantt.png stats.png; do
		head -c 8 "$tmp/tr/$png" 2>/dev/null | od -An -c | grep -q "P   N   G" ||
			fail "fvstar trace: no $png"
	done
	grep -q "iterations 3 to 5" "$tmp/trace.out" || fail "fvstar trace: no summary"
	grep -qE "^busy per task name \(all workers, ms per traced iteration over [0-9]+\): .*flux_border [0-9]+ x [0-9.]+" \
		"$tmp/trace.out" || fail "fvstar trace: no busy time per task name"
	# one row per worker, named as StarPU names it (tasks.rec says MPIRank
	# -1 outside mpirun: rows were once "worker -10000"); the work on them
	n=$(grep -cE "^worker [0-9]+ \(CPU[0-9]+\): [1-9][0-9]* tasks" "$tmp/trace.out")
	[ "$n" = "${STARPU_NCPU:-2}" ] || fail "fvstar trace: $n named worker rows with tasks, ${STARPU_NCPU:-2} workers"
	# per iteration: 0 < critical path <= makespan, work / workers <= makespan
	awk '/^iteration [0-9]+: makespan/ { n++; m = $4; c = $8; w = substr($15, 2) + 0
		if (!(c > 0 && c <= m * 1.0001 && w <= m * 1.0001)) { print "bad: " $0; bad = 1 } }
		END { exit (bad || n != 3) }' "$tmp/trace.out" ||
		fail "fvstar trace: critical paths and makespans of iterations 3 to 5"
	# per iteration the time the workers waited on halos: 0 <= the mean
	# per worker <= the makespan, and so the most of one worker; the total
	# over the iterations; stats.json holds the same numbers
	grep -E "^halo wait over" "$tmp/trace.out"
	awk '/^iteration [0-9]+: makespan/ { n++; m = $4
		if (!($20 == "halo" && $21 == "wait" && $23 == "ms" && $24 == "per" && $26 ~ /^\(/)) {
			print "no halo wait: " $0; bad = 1; next }
		x = $22 + 0; most = ($NF == "none)") ? 0 : $(NF - 1) + 0
		if (!($22 ~ /^[0-9.]+$/ && x >= 0 && x <= m * 1.0001 && most >= x * 0.9999 - 0.001 && most <= m * 1.0001)) {
			print "bad halo wait: " $0; bad = 1 } }
		END { exit (bad || n != 3) }' "$tmp/trace.out" ||
		fail "fvstar trace: the halo wait of iterations 3 to 5"
	grep -qE "^halo wait over the 3 traced iterations: [0-9.]+ ms per worker" "$tmp/trace.out" ||
		fail "fvstar trace: no total halo wait"
	"$py" - "$tmp/tr/stats.json" "$tmp/trace.out" <<'PY' || fail "fvstar trace: stats.json"
import json, re, sys
s = json.load(open(sys.argv[1]))
its = s["iterations"]
printed = {int(m.group(1)): float(m.group(2)) for m in
           re.finditer(r"^iteration (\d+): .*halo wait ([0-9.]+) ms per worker", open(sys.argv[2]).read(), re.M)}
print("stats.json: halo wait %.3f ms per worker; per iteration %s" % (
    s["halo_wait_ms_per_worker"], ", ".join("%d: %.3f" % (i["iteration"], i["halo_wait_ms_per_worker"]) for i in its)))
ok = [i["iteration"] for i in its] == [3, 4, 5] == sorted(printed)
for i in its:
    ok = ok and 0 <= i["halo_wait_ms_per_worker"] <= i["halo_wait_ms_most"] + 1e-9 <= i["makespan_ms"] + 1e-9
    ok = ok and abs(i["halo_wait_ms_per_worker"] - printed[i["iteration"]]) <= 0.0005
total = sum(i["halo_wait_ms_per_worker"] for i in its)
ok = ok and abs(total - s["halo_wait_ms_per_worker"]) < 1e-9
ok = ok and len(s["workers"]) == len(set(w["worker"] for w in s["workers"]))
ok = ok and abs(sum(w["halo_wait_ms"] for w in s["workers"]) / len(s["workers"]) - total) < 1e-9
sys.exit(0 if ok else 1)
PY
else
	cat "$tmp/trace.err"
	fail "fvstar trace"
fi
"$fv" trace "$tmp/nowhere" >/dev/null 2>&1 && fail "fvstar trace accepted a missing directory"

# data transfers (none between CPU workers): plot_trace.py reads the
# links StarPU writes for a copy between memory nodes (start: source
# memory manager, end: destination, value: bytes)
"$py" - "$top_srcdir/tools" <<'PY' || fail "plot_trace.py: transfer links"
import os, sys, tempfile
sys.path.insert(0, sys.argv[1])
import plot_trace as pt
d = tempfile.mkdtemp()
with open(os.path.join(d, "paje.trace"), "w") as f:
    f.write("7\t0.0\tmm0\tMm\tmn0\tMEMMANAGER0\n7\t0.0\tmm1\tMm\tmn1\tMEMMANAGER1\n"
            "7\t0.1\tw2\tW\tt9\tCUDA0\n"
            "18\t1.000\tF\tp\t4096\tmm0\tcom_7\n18\t1.200\tPF\tp\t800\tmm1\tcom_8\n"
            "19\t1.500\tF\tp\t4096\tmm1\tcom_7\n19\t1.300\tPF\tp\t800\tmm0\tcom_8\n"
            "18\t2.000\tWSL\tp\t0\tw0\tsteal_0\n19\t2.000\tWSL\tp\t0\tw2\tsteal_0\n")
workers, nodes, transfers = pt.read_paje(os.path.join(d, "paje.trace"))
want = [(1.0, 1.5, "fetch", "mm0", "mm1", 4096.0), (1.2, 1.3, "prefetch", "mm1", "mm0", 800.0)]
print("transfers:", transfers, "workers:", workers)
sys.exit(0 if sorted(transfers) == want and workers == {2: "CUDA0"} and len(nodes) == 2 else 1)
PY

# the halo wait on a made-up trace whose waits are known (times in ms;
# workers 0 and 1 CPUs on memory node 0, worker 2 a GPU on node 1):
#   worker 0: prim_interior 0-1, idle, unpack 3-3.5 released by the pack
#     of worker 1 (1.5-3): wait 2 (1-3); prim_border 3.5-4; idle,
#     flux_border 6-7, released by flux_interior (worker 1, 5-6), its
#     unpack done at 3.5, before the gap: no wait;
#   worker 1: nodes_interior 0-0.5, idle 1 before the pack (no halo): no
#     wait; idle 3-4.5, gradient_border 4.5-5 after the unpack (through one
#     of StarPU's internal tasks): wait 0.5 (3-3.5, the rest is latency);
#     flux_interior 5-6; pack 6.2-6.5 and its unpack 6.6-6.8 on the same
#     worker: no wait (the halo was there at the gap's start);
#   iteration 2 (from 8: worker 1's update 8-9, then a pack 9-9.1):
#     worker 0 idle from 7, unpack 9.5-10 whose buffer no pack of the
#     trace writes (another rank's halo; it waits for a pack of another
#     buffer, done at 6.5): wait 1.5 (8-9.5: iteration 2 only);
#     worker 2: prim_interior 8-8.5, unpack 9.4-9.6 of the pack of worker
#     1, its buffer (4096 bytes) copied to node 1 from 9.1 to 9.3 (a copy
#     of 999 bytes ends at 9.35): wait 0.8 (8.5-9.3).
# Iteration 1: makespan 7, waits 2 and 0.5 of 3 workers: 0.833 per worker
# (11.9 %), the most CPU0 2; iteration 2: makespan 2, waits 1.5 and 0.8:
# 0.767 per worker (38.3 %), the GPU's 0.8 (40 %); total 1.6 per worker,
# 16 % of the 10 ms window.
"$py" - "$top_srcdir/tools/plot_trace.py" "$tmp/made" <<'PY' || fail "plot_trace.py: halo wait of a made-up trace"
import json, os, subprocess, sys
d = sys.argv[2]
os.mkdir(d)
tasks = [  # job, name, worker, start, end, iteration, depends on, buffers (pack: written, unpack: read)
    (2, "prim_interior", 0, 0.0, 1.0, 1, "", ""), (1, "pack", 1, 1.5, 3.0, 1, "", "b1"),
    (3, "unpack", 0, 3.0, 3.5, 1, "1", "b1"), (4, "prim_border", 0, 3.5, 4.0, 1, "3", ""),
    (10, "nodes_interior", 1, 0.0, 0.5, 1, "", ""), (6, "_starpu_sync", 1, 0.0, 0.0, None, "3", ""),
    (5, "gradient_border", 1, 4.5, 5.0, 1, "6", ""), (8, "flux_interior", 1, 5.0, 6.0, 1, "", ""),
    (7, "flux_border", 0, 6.0, 7.0, 1, "3 8", ""), (9, "pack", 1, 6.2, 6.5, 1, "", "b9"),
    (11, "unpack", 1, 6.6, 6.8, 1, "9", "b9"), (20, "update", 1, 8.0, 9.0, 2, "", ""),
    (21, "unpack", 0, 9.5, 10.0, 2, "9", "b21"), (32, "pack", 1, 9.0, 9.1, 2, "20", "b32"),
    (30, "prim_interior", 2, 8.0, 8.5, 2, "", ""), (31, "unpack", 2, 9.4, 9.6, 2, "32", "b32")]
with open(os.path.join(d, "tasks.rec"), "w") as f:
    for j, name, w, s, e, it, dep, buf in tasks:
        # the block's geometry and field, then the buffer
        hm = "Handles: g%d q%d %s\nModes: R %s\nSizes: 100 200 4096\n" % (
            w, w, buf, "R W" if name == "pack" else "RW R") if buf else "Handles: g%d q%d\nModes: R RW\n" % (w, w)
        f.write("Name: %s\nJobId: %d\nSubmitOrder: %d\nDependsOn: %s\nWorkerId: %d\nStartTime: %f\nEndTime: %f\n%s%s\n"
                % (name, j, j, dep, w, s, e, hm, "" if it is None else "Iteration: %d 0\n" % it))
with open(os.path.join(d, "paje.trace"), "w") as f:
    f.write("7\t0.0\tmn0\tMn\tp\tMEMNODE0\n7\t0.0\tmm0\tMm\tmn0\tMEMMANAGER0\n"
            "7\t0.0\tmn1\tMn\tp\tMEMNODE1\n7\t0.0\tmm1\tMm\tmn1\tMEMMANAGER1\n"
            "7\t0.0\tt0\tT\tmn0\tT0\n7\t0.0\tw0\tW\tt0\tCPU0\n7\t0.0\tt1\tT\tmn0\tT1\n7\t0.0\tw1\tW\tt1\tCPU1\n"
            "7\t0.0\tt2\tT\tmn1\tT2\n7\t0.0\tw2\tW\tt2\tCUDA0\n"
            "18\t9.1\tF\tp\t4096\tmm0\tcom_1\n18\t9.0\tPF\tp\t999\tmm0\tcom_2\n"
            "19\t9.3\tF\tp\t4096\tmm1\tcom_1\n19\t9.35\tPF\tp\t999\tmm1\tcom_2\n")
out = subprocess.run([sys.executable, sys.argv[1], d, "--json", os.path.join(d, "s.json")], check=True,
                     stdout=subprocess.PIPE, universal_newlines=True).stdout
print("\n".join(l for l in out.split("\n") if "halo wait" in l))
s = json.load(open(os.path.join(d, "s.json")))
got = [(i["iteration"], i["makespan_ms"], i["halo_wait_ms_per_worker"], i["halo_wait_ms_most"],
        i["halo_wait_most_worker"]) for i in s["iterations"]]
want = [(1, 7.0, 2.5 / 3, 2.0, "CPU0"), (2, 2.0, 2.3 / 3, 1.5, "CPU0")]
ok = all(a[0] == b[0] and a[4] == b[4] and all(abs(x - y) < 1e-9 for x, y in zip(a[1:4], b[1:4]))
         for a, b in zip(got, want)) and len(got) == 2
ok = ok and abs(s["halo_wait_ms_per_worker"] - 1.6) < 1e-9 and abs(s["halo_wait_pct_of_window"] - 16.0) < 1e-9
ok = ok and [round(w["halo_wait_ms"], 9) for w in s["workers"]] == [3.5, 0.5, 0.8]
ok = ok and [round(i["halo_wait_ms_per_gpu"], 9) for i in s["iterations"]] == [0.0, 0.8]
ok = ok and ("halo wait 0.833 ms per worker (11.9 % of the makespan; GPUs 0.000 ms, 0.0 %; "
             "the most: CPU0 2.000 ms)") in out
ok = ok and ("halo wait 0.767 ms per worker (38.3 % of the makespan; GPUs 0.800 ms, 40.0 %; "
             "the most: CPU0 1.500 ms)") in out
ok = ok and "halo wait over the 2 traced iterations: 1.600 ms per worker (16.0 % of the 10.000 ms window" in out
if not ok:
    print("got", got, s["halo_wait_ms_per_worker"], s["workers"])
sys.exit(0 if ok else 1)
PY

# implicit: the diagonal, the sweeps and the update marked
if run output.dir="$tmp/im" numerics.time=implicit numerics.implicit=point numerics.sweeps=4 numerics.cfl=5 numerics.iterations=2 \
	numerics.residual_drop=0 partition.blocks=1 output.trace="$tmp/tri"; then
	"$py" - "$tmp/tri/tasks.rec" 2 4 <<'PY' || fail "implicit marks"
import sys
n_it, sweeps = int(sys.argv[2]), int(sys.argv[3])
per_sub, other = {}, {}
for line in open(sys.argv[1]).read().split("\n\n"):
    t = dict(l.split(": ", 1) for l in line.strip().split("\n") if ": " in l)
    name, it = t.get("Name", ""), t.get("Iteration", "").split()
    if not name or name.startswith("_starpu") or name.startswith("starpu_"):
        continue
    if name.startswith("sweep_color"):
        per_sub[int(it[1])] = per_sub.get(int(it[1]), 0) + 1
    elif name in ("diagonal", "implicit_update"):
        other[(name, it[1])] = other.get((name, it[1]), 0) + 1
print("sweep tasks per sub-iteration:", per_sub, " diagonal/update:", other)
ok = sorted(per_sub) == list(range(1, 2 * sweeps + 1)) and len(set(per_sub.values())) == 1
ok = ok and other == {("diagonal", "0"): n_it, ("implicit_update", str(1 + 2 * sweeps)): n_it}
sys.exit(0 if ok else 1)
PY
	# marks: per iteration itself, the residual, 8 sweeps, the update; x 2 x 2
	n=$(grep -cE "	fvm	.*\"iteration [12]( residual| sweep [0-3] (forward|backward)| update)? (begins|ends)\"" \
		"$tmp/tri/paje.trace")
	[ "$n" = 44 ] && echo "implicit: $n marks" || fail "implicit: $n marks in paje.trace, not 2 x 11 x 2"
else
	cat "$tmp/err"
	fail "traced implicit run"
fi
finish
