#!/bin/sh
# SPDX-License-Identifier: MIT
# A traced `fvstar sim dry` (output.trace: the simulated graph run for
# real, recorded) and bench/sim_transfers.py, which sets a trace's data
# transfers beside the bus a simulation assumes (issue 27's GPU + CPU
# rows), on the Mach 2 wedge of tests/cli/lib.sh, 2 blocks, 2 CPU workers:
# - sim dry re-executes itself with the FxT StarPU as the command was given
#   (it lost "dry" and its options once: "unknown sub-command"), records
#   iterations 3..6 (output.trace_from = 3): tasks.rec holds 2 blocks x the
#   RK stages x 4 iterations update tasks, none of an earlier iteration, and
#   its summary.json is a dry run's of 6 iterations;
# - sim calibrate with output.trace is refused (its passes would write one
#   trace over another), naming the key;
# - sim_transfers.py on that trace: 2 CPU workers, their busy time; on a
#   made-up trace of known transfers (2 host to GPU copies of 1 MB,
#   overlapping, then one alone; one back) each direction's count, MB,
#   busy time (their union), concurrency, GB/s, and against a made-up bus
#   (10 us + 1 MB at 10 GB/s: 110 us) the median over the model; the
#   submitting thread's pace (2 tasks submitted 2 ms apart) and the median
#   time from a task's submission to its start; the run's latency per
#   direction (a copy's duration less its bytes over the bus's bandwidth);
#   3 StarPU-MPI messages of 0.1 MB (10, 30, 130 us) against the simulated
#   link between ranks (0.5 us, 20 GB/s: 5.5 us; the run's latency median
#   25 us, mean 51.7), the MPI thread of rank 0 by state (pushed and popped
#   states inside a set one), the messages' way (no copy or task of their
#   bytes here: the message alone);
# - sim_platform.py retime: the run's median latencies into a platform
#   (the XML's RAM-CUDA0 and CUDA0-RAM and bus/HOST.latency), --only d2d
#   on a report without GPU-to-GPU copies refused; cluster --mpi-from: the
#   messages' time beyond the link's on the link between the ranks;
# - the GPU worker's gaps before ready tasks (a made-up trace of 5 tasks:
#   10 and 50 us before tasks ready in time; none counted before a task
#   whose dependency ended later, nor across a copy to the GPU): median
#   30 us, 12 us per task; sim_platform.py gap adds those 12 us to the
#   CUDA entries of a model, not to its CPU ones (--us 5 --kind cpu: 5 us
#   to those).
# SKIP without the FxT StarPU.
. "$top_srcdir/tests/cli/lib.sh"
wedge_case
tool="$top_srcdir/bench/sim_transfers.py"
args="partition.blocks=2 numerics.chain=no output.progress_every=0"
# shellcheck disable=SC2086
if ! STARPU_NCPU=2 "$fv" sim dry "$tmp/w.cfg" --iterations 6 $args output.trace="$tmp/tr" output.trace_from=3 \
	--out "$tmp/dry" >"$tmp/dry.out" 2>"$tmp/dry.err"; then
	if grep -q "FxT-enabled StarPU" "$tmp/dry.err"; then
		echo "no FxT StarPU: SKIP"
		exit 77
	fi
	fail "traced sim dry: $(grep -v '^  ' "$tmp/dry.err" | tail -2)"
	finish
fi
[ -s "$tmp/tr/tasks.rec" ] && [ -s "$tmp/tr/paje.trace" ] || fail "traced sim dry: no tasks.rec or paje.trace in $tmp/tr"
"$py" - "$tmp/tr/tasks.rec" "$tmp/dry/summary.json" <<'PY' || fail "traced sim dry: its tasks"
import json, sys
recs, rec = [], {}
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line:
        if rec:
            recs.append(rec)
        rec = {}
    elif ": " in line:
        k, v = line.split(": ", 1)
        rec[k] = v
if rec:
    recs.append(rec)
# (tasks before the recording are listed with times 0)
ours = [r for r in recs if r.get("Name", "").startswith(("update", "flux", "prim")) and float(r.get("EndTime", 0)) > 0]
its = sorted({int(r["Iteration"].split()[0]) for r in ours if r.get("Iteration")})
upd = sum(r["Name"] == "update" for r in ours)
s = json.load(open(sys.argv[2]))
want = 2 * s["rk_stages"] * 4
ok = its == [3, 4, 5, 6] and upd == want and s["mode"] == "dry" and s["iterations"] == 6
print("" if ok else f"FAIL: iterations {its}, update tasks {upd} (expected {want}), summary {s['mode']} {s['iterations']}")
sys.exit(0 if ok else 1)
PY
"$py" "$tool" "$tmp/tr" --iterations 4 >"$tmp/st.out" 2>&1 || fail "sim_transfers.py on the trace: $(tail -1 "$tmp/st.out")"
grep -q "^CPU workers: 2, [1-9][0-9]* tasks, busy [0-9.]* ms" "$tmp/st.out" ||
	fail "sim_transfers.py: no CPU worker line: $(cat "$tmp/st.out")"
grep -q "^window: [0-9.]* ms, [1-9][0-9]* tasks, 4 iterations" "$tmp/st.out" ||
	fail "sim_transfers.py: no window line: $(head -1 "$tmp/st.out")"

# shellcheck disable=SC2086
STARPU_NCPU=2 "$fv" sim calibrate "$tmp/w.cfg" --save "$tmp/cal" --iterations 3 $args output.trace="$tmp/trc" \
	output.dir="$tmp/o" >/dev/null 2>"$tmp/cal.err" && fail "a traced calibration ran"
grep -q "output.trace: fvstar sim calibrate records no trace" "$tmp/cal.err" ||
	fail "a traced calibration: $(grep -v '^  ' "$tmp/cal.err" | tail -1)"

# known transfers (times in ms): host to GPU 1 MB at 1.00-1.20 and
# 1.10-1.30, then 2.00-2.10 alone (busy 0.40 ms, 3 MB: 7.5 GB/s; 0.50 /
# 0.40 = 1.25 under way); GPU to host 0.5 MB at 1.50-1.60; the tasks span
# 0.5-4 ms, submitted at 0.2 and 2.2
mkdir -p "$tmp/fake/bus"
"$py" - "$tmp/fake" <<'PY' || fail "the made-up trace"
import os, sys
d = sys.argv[1]
with open(os.path.join(d, "paje.trace"), "w") as f:
    f.write("7\t0.0\tmm0\tMm\tmn0\tMEMMANAGER0\n7\t0.0\tmm1\tMm\tmn1\tMEMMANAGER1\n7\t0.1\tw0\tW\tt9\tCUDA0_0\n"
            "18\t1.000\tF\tp\t1000000\tmm0\tcom_1\n19\t1.200\tF\tp\t1000000\tmm1\tcom_1\n"
            "18\t1.100\tPF\tp\t1000000\tmm0\tcom_2\n19\t1.300\tPF\tp\t1000000\tmm1\tcom_2\n"
            "18\t2.000\tF\tp\t1000000\tmm0\tcom_3\n19\t2.100\tF\tp\t1000000\tmm1\tcom_3\n"
            "18\t1.500\tF\tp\t500000\tmm1\tcom_4\n19\t1.600\tF\tp\t500000\tmm0\tcom_4\n"
            # StarPU-MPI: two ranks' threads, 3 messages, rank 0's states
            "7\t0.0\t0_mpict\tMPICt\t0_p\t0_mpict\n7\t0.0\t1_mpict\tMPICt\t1_p\t1_mpict\n"
            "23\t1.000\tMPIL\tMPIroot\t100000\t0_mpict\tmpicom_1\t5\n19\t1.010\tMPIL\tMPIroot\t100000\t1_mpict\tmpicom_1\n"
            "23\t2.000\tMPIL\tMPIroot\t100000\t0_mpict\tmpicom_2\t6\n19\t2.030\tMPIL\tMPIroot\t100000\t1_mpict\tmpicom_2\n"
            "23\t3.000\tMPIL\tMPIroot\t100000\t0_mpict\tmpicom_3\t7\n19\t3.130\tMPIL\tMPIroot\t100000\t1_mpict\tmpicom_3\n"
            "10\t0.5\t0_mpict\tCtS \tSl\n10\t1.0\t0_mpict\tCtS \tP\n11\t1.2\t0_mpict\tCtS \tSdS\n"
            "12\t1.3\t0_mpict\tCtS\n10\t3.0\t0_mpict\tCtS \tSl\n")
with open(os.path.join(d, "tasks.rec"), "w") as f:
    for b, s, e in ((0.2, 0.5, 1.0), (2.2, 3.0, 4.0)):
        f.write(f"Name: flux\nWorkerId: 0\nSubmitTime: {b}\nStartTime: {s}\nEndTime: {e}\nIteration: 1 1\n\n")
# MB/s and us between node 0 (host) and node 1 (GPU 0)
with open(os.path.join(d, "bus", "fake.bandwidth"), "w") as f:
    f.write("# to 0\tto 1\n0\t10000\n10000\t0\n")
with open(os.path.join(d, "bus", "fake.latency"), "w") as f:
    f.write("# to 0\tto 1\n0\t10\n10\t0\n")
PY
"$py" "$tool" "$tmp/fake" --platform "$tmp/fake" --iterations 2 --json "$tmp/fk.json" >"$tmp/fk.out" 2>&1 ||
	fail "sim_transfers.py on the made-up trace: $(tail -1 "$tmp/fk.out")"
cat "$tmp/fk.out"
# direction count MB med p90 MB/trf busy busy% GB/s conc model med/mod
grep -q "^n0->n1  *3  *3\.00  *200\.0  *200\.0  *1\.000  *0\.400  *11\.4  *7\.50  *1\.25  *110\.0  *1\.82$" "$tmp/fk.out" ||
	fail "sim_transfers.py: host to GPU"
grep -q "^n1->n0  *1  *0\.50  *100\.0  *100\.0  *0\.500  *0\.100  *2\.9  *5\.00  *1\.00  *60\.0  *1\.67$" "$tmp/fk.out" ||
	fail "sim_transfers.py: GPU to host"
grep -q "^window: 3\.500 ms, 2 tasks, 2 iterations: 1\.750 ms per iteration" "$tmp/fk.out" ||
	fail "sim_transfers.py: the made-up window"
grep -q "^submission: 2 tasks in 2\.000 ms, 2000\.00 us per task; start - submission: median 550\.0 us" "$tmp/fk.out" ||
	fail "sim_transfers.py: the submission line"
grep -q "^r0->r1  *3  *0\.30  *30\.0  *130\.0  *0\.100 .* 5\.5  *5\.45$" "$tmp/fk.out" ||
	fail "sim_transfers.py: the MPI messages"
grep -q "^run latency r0->r1  *median  *25\.0 us, mean  *51\.7, .*, p10  *5\.0; simulated link  *0\.5 us$" "$tmp/fk.out" ||
	fail "sim_transfers.py: the MPI messages' latency"
grep -q "^run latency n0->n1  *median  *100\.0 us, mean  *66\.7, .* platform  *10\.0 us$" "$tmp/fk.out" ||
	fail "sim_transfers.py: the host to GPU copies' latency"
grep -q "^halo path message (post -> seen done)  *3: median  *30\.0 us, mean  *56\.7, p10  *10\.0, p90  *130\.0$" \
	"$tmp/fk.out" || fail "sim_transfers.py: the messages' way"
grep -q "^MPI thread of rank 0: P 1\.900 ms (54\.3 %), Sl 1\.500 ms (42\.9 %), SdS 0\.100 ms (2\.9 %) of 3\.500 ms$" \
	"$tmp/fk.out" || fail "sim_transfers.py: the MPI thread's states"

# the run's latencies into a platform of one GPU (10 us each way)
plat=$tmp/rt
mkdir -p "$plat/bus"
cat >"$plat/bus/h.platform.v4.xml" <<'XML'
<?xml version='1.0'?>
<platform version="4.1">
<AS id="AS0" routing="Full">
 <host id="MAIN" speed="1f"/>
 <host id="CUDA0" speed="2000000000f"/>
 <host id="RAM" speed="1f"/>
 <link id="Host" bandwidth="50000000000.000000Bps" latency="0.000000s"/>
 <link id="RAM-CUDA0" bandwidth="10000000000.000000Bps" latency="0.000010s"/>
 <link id="CUDA0-RAM" bandwidth="10000000000.000000Bps" latency="0.000010s"/>
 <route src="RAM" dst="CUDA0" symmetrical="NO"><link_ctn id="RAM-CUDA0"/><link_ctn id="Host"/></route>
 <route src="CUDA0" dst="RAM" symmetrical="NO"><link_ctn id="CUDA0-RAM"/><link_ctn id="Host"/></route>
</AS>
</platform>
XML
cp "$tmp/fake/bus/fake.latency" "$plat/bus/h.latency"
"$py" "$top_srcdir/tools/sim_platform.py" retime "$plat" --transfers "$tmp/fk.json" --only d2d >"$tmp/rt.out" 2>&1 &&
	fail "retime of GPU-to-GPU copies from a trace without any"
"$py" "$top_srcdir/tools/sim_platform.py" retime "$plat" --transfers "$tmp/fk.json" --stat median >"$tmp/rt.out" 2>&1 ||
	fail "retime: $(cat "$tmp/rt.out")"
grep -q '<link id="RAM-CUDA0" bandwidth="10000000000.000000Bps" latency="0.000100000s"/>' "$plat/bus/h.platform.v4.xml" &&
	grep -q '<link id="CUDA0-RAM" bandwidth="10000000000.000000Bps" latency="0.000050000s"/>' \
		"$plat/bus/h.platform.v4.xml" || fail "retime: the XML's links: $(grep CUDA0 "$plat/bus/h.platform.v4.xml")"
"$py" - "$plat/bus/h.latency" <<'PY' || fail "retime: bus/h.latency"
import sys
rows = [[float(x) for x in l.split()] for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
sys.exit(0 if abs(rows[0][1] - 100) < 1e-6 and abs(rows[1][0] - 50) < 1e-6 and rows[0][0] == 0 else 1)
PY
# StarPU-MPI's costs from the made-up messages (no copy or task: the
# message's time alone): 56.7 us on average against 5.5 us of link, half
# of the 51.17 over each of a message's two (envelope, data): 26.08 us on
# the link between the ranks, no per-message overhead
"$py" "$top_srcdir/tools/sim_platform.py" cluster "$plat" "$tmp/cl" --nodes 1 --ranks-per-node 2 \
	--mpi-from "$tmp/fk.json" >"$tmp/cl.out" 2>&1 || fail "cluster --mpi-from: $(cat "$tmp/cl.out")"
grep -q "^StarPU-MPI's costs (mean of 1 traced run(s)): 0\.0 us a send (smpi/ois, os), 0\.0 us a receive (smpi/or), the link between ranks 26\.1 us (20 GB/s)$" \
	"$tmp/cl.out" || fail "cluster --mpi-from: $(head -1 "$tmp/cl.out")"
grep -q 'link id="node-0-shm" bandwidth="20000000000.000000Bps" latency="0.000026083s"' "$tmp/cl/smpi/platform.xml" ||
	fail "cluster --mpi-from: the link between the ranks"
grep -q "smpi/o" "$tmp/cl/smpi/platform.xml" && fail "cluster --mpi-from: an overhead of 0 written"

# the workers' gaps (times in ms): a 0.5-1.0, b ready at 1.0 starts 1.010
# (10 us), c waits on a StarPU task ending 1.5 (not ready in time), d
# starts 30 us after c but a copy to the GPU ran meanwhile, e 50 us after d
mkdir -p "$tmp/gp"
"$py" - "$tmp/gp" "$top_srcdir/tools/sim_platform.py" <<'PY' || fail "the made-up gaps"
import importlib.util, os, sys
d, tool = sys.argv[1:]
with open(os.path.join(d, "paje.trace"), "w") as f:
    f.write("7\t0.0\tmm0\tMm\tmn0\tMEMMANAGER0\n7\t0.0\tmm1\tMm\tmn1\tMEMMANAGER1\n"
            "18\t1.510\tF\tp\t1000\tmm0\tcom_1\n19\t1.520\tF\tp\t1000\tmm1\tcom_1\n")
rows = (("a", "", 0.5, 1.0), ("b", "1", 1.010, 1.2), ("c", "9", 1.5, 1.5 + 1e-6), ("d", "3", 1.530, 1.6),
        ("e", "4", 1.650, 1.7))
with open(os.path.join(d, "tasks.rec"), "w") as f:
    for k, (name, dep, st, en) in enumerate(rows, 1):
        f.write(f"Name: {name}\nJobId: {k}\nDependsOn: {dep}\nWorkerId: 0\nMemoryNode: 1\nSubmitTime: 0.1\n"
                f"StartTime: {st}\nEndTime: {en}\nMPIRank: -1\n\n")
    f.write("Name: _starpu_data_acquire_cb_release\nJobId: 9\nSubmitTime: 0.1\nEndTime: 1.5\nMPIRank: -1\n\n")
spec = importlib.util.spec_from_file_location("sp", tool)
sp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sp)
os.makedirs(os.path.join(d, "p", "codelets", "45"))
ent = lambda m: {"reg": [0.0] * 6 + [0, 0, 0], "abc": [float("nan")] * 3, "mr": "0",
                 "entries": [["abcd1234", 1000, 0.0, m, 0.0, 4 * m, 4 * m * m, 4]]}
sp.write_model(os.path.join(d, "p", "codelets", "45", "fv_flux.h"),
               [(((1, 0, 1),), [ent(100.0)]), (((0, 0, 2),), [ent(300.0)])])
PY
"$py" "$tool" "$tmp/gp" --json "$tmp/gp.json" >"$tmp/gp.out" 2>&1 || fail "sim_transfers.py on the gaps: $(tail -1 "$tmp/gp.out")"
grep -q "^CUDA workers' gaps before a ready task: 2 of 5 tasks, median 30\.0 us, mean 30\.0, p90 50\.0; 12\.0 us per task$" \
	"$tmp/gp.out" || fail "sim_transfers.py: the gaps: $(grep gaps "$tmp/gp.out")"
"$py" "$top_srcdir/tools/sim_platform.py" gap "$tmp/gp/p" --transfers "$tmp/gp.json" >"$tmp/gpp.out" 2>&1 &&
	"$py" "$top_srcdir/tools/sim_platform.py" gap "$tmp/gp/p" --us 5 --kind cpu >>"$tmp/gpp.out" 2>&1 ||
	fail "sim_platform.py gap: $(cat "$tmp/gpp.out")"
"$py" - "$tmp/gp/p/codelets/45/fv_flux.h" "$top_srcdir/tools/sim_platform.py" <<'PY' || fail "sim_platform.py gap: the means"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("sp", sys.argv[2])
sp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sp)
m = {devs[0][0]: ims[0]["entries"][0] for devs, ims in sp.read_model(sys.argv[1])}
ok = abs(m[1][3] - 112) < 1e-6 and abs(m[1][5] - 448) < 1e-6 and abs(m[0][3] - 305) < 1e-6 and m[1][7] == 4
print("" if ok else f"FAIL: entries {m}")
sys.exit(0 if ok else 1)
PY
finish
