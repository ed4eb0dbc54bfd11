#!/bin/sh
# SPDX-License-Identifier: MIT
# Simulated runs (fvstar-sim, StarPU's SimGrid mode; doc/simgrid.md) on the
# Mach 2 wedge of tests/cli/lib.sh (3580 mixed cells, 2 blocks), with no GPU
# here: `fvstar sim calibrate` on 2 CPU workers saves the bus and the CPU
# models, tools/sim_platform.py copies each CPU model as a GPU one 20x
# faster (fv_fetch, a GPU-only halo task, as the unpack's) and derives a
# platform of 2 GPUs from it. Then:
# - a simulated run on the 2 GPUs completes with the task graph of the real
#   one: every stage of `fvstar sim dry` (the same case on the 2 CPU
#   workers, for real) with the same count, plus the GPU blocks' fetch
#   tasks (4 per block and iteration: halo(Q), halo(grad) and halo(phi) of
#   2 RK stages, those the other block reads on its GPU), and a simulated
#   time per iteration > 0; the simulated GPUs busy (summary.json's
#   profile) no longer than 2 GPUs x that time, halos moved GPU to GPU;
#   the calibration's profile: its CPU workers' busy time;
# - the calibration records no task of its 2 warm-up iterations, and a
#   snapshot copy every 6 iterations (several samples per pass);
# - a simulation meeting task chains the calibration never ran (fewer
#   iterations) submits them as their tasks and completes; without those
#   tasks' models it stops with an error naming the task;
# - the same simulation twice: the same simulated time per iteration, on
#   the 2 GPUs and on 8 derived ones (8 blocks);
# - fvstar.sim says the bound of the samples the models kept (300 %, or
#   STARPU_HISTORY_MAX_ERROR's);
# - the calibration's submitting-thread time per task (fvstar.sim) is
#   charged per simulated task (2 ms a task: submission-bound), none with
#   FVSTAR_SIM_TASK_US=0; a broken fvstar.sim is refused naming its line;
# - platform folders with an error are refused before StarPU starts (exit
#   1 or 2, no crash), with a message naming the file (and line): a link_ctn naming no link, a file
#   cut short, a GPU without a route, no such folder.
# tools/sim_platform.py check warns of a host to GPU link 15x slower to
# start than its sibling (a bus measured while busy), not of a sane one.
# A cluster folder of 3 nodes x 2 ranks (tools/sim_platform.py cluster)
# has a zone of the node's hosts per rank and a hostfile line per rank.
# Where fvstar-smpi is built (configure --with-starpu-smpi=PREFIX), 2
# simulated ranks (StarPU-MPI under SMPI) on a cluster folder of 2 nodes of
# 1 GPU (tools/sim_platform.py cluster): each rank runs its block's tasks,
# the same per stage on both (1 block each: 2 RK stages x 4 iterations of
# flux_interior, flux_border and update), a simulated time > 0, the same
# twice, and 60 iterations of them in 3 GB of address space (each
# message's actor freed); the ranks from a partition directory run the same
# tasks, which fvstar-sim refuses; a cluster folder without its hostfile is refused naming it, and
# fvstar-sim refuses a cluster folder; 2 nodes of 2 GPUs, 2 blocks per
# rank, run each rank's 2 blocks. The models of the tasks that only
# ranks have (prim_ghosts, the *_border and *_interior splits) are made-up
# copies of the whole-block ones here.
# Skipped (77) where fvstar-sim is not built (configure
# --with-starpu-simgrid=PREFIX).
. "$top_srcdir/tests/cli/lib.sh"
sim="$top_builddir/fvstar-sim"
if [ ! -x "$sim" ]; then
	echo "SKIP: no fvstar-sim in $top_builddir (configure --with-starpu-simgrid=PREFIX; tools/build-starpu.sh --simgrid)"
	exit 77
fi
tool="$top_srcdir/tools/sim_platform.py"
wedge_case
export STARPU_NCPU=2
# the graph, platform and model checks below charge no submitting-thread
# time per task (their 2 fake GPUs would wait on it: a few iterations then
# end before the thread looks); the block on fvstar.sim sets its own
export FVSTAR_SIM_TASK_US=0
unset STARPU_NCUDA STARPU_SCHED STARPU_CALIBRATE STARPU_HISTORY_MAX_ERROR
# shellcheck disable=SC2086 # $args: several words
# numerics.chain = no: chains (GPU blocks, auto) keep a history of their
# own, which a CPU calibration cannot hold (doc/simgrid.md)
args="partition.blocks=2 numerics.chain=no output.progress_every=0"

"$fv" sim calibrate "$tmp/w.cfg" --save "$tmp/cal" --iterations 5 $args output.dir="$tmp/o" \
	>/dev/null 2>"$tmp/cal.err" || fail "calibrate: $(tail -1 "$tmp/cal.err")"
set -- "$tmp"/cal/codelets/45/fv_flux.*
[ -f "$1" ] || fail "calibrate saved no fv_flux model"
ls "$tmp"/cal/bus/*.platform.v4.xml >/dev/null 2>&1 || fail "calibrate saved no platform"
# shellcheck disable=SC2046 # one --alias NEW=OLD per word
"$py" "$tool" fake-gpu-models "$tmp/cal" "$tmp/calg" --speedup 20 $(for a in fv_fetch=fv_unpack_all \
	fv_prim_ghosts=fv_prim fv_nodes_border=fv_nodes fv_gradient_border=fv_gradient fv_flux_border=fv_flux \
	fv_flux_interior=fv_flux fv_flux_interior_direct=fv_flux fv_flux_border_direct=fv_flux; do
	echo --alias "$a"; done) >/dev/null || fail "fake-gpu-models"
"$py" "$tool" derive "$tmp/calg" "$tmp/p2" --gpus 2 --h2d 25 --d2h 25 --d2d 40 --latency 10 --name wedge2 \
	>/dev/null || fail "derive"

"$fv" sim dry "$tmp/w.cfg" --iterations 4 $args --out "$tmp/dry" >"$tmp/dry.out" 2>"$tmp/dry.err" ||
	fail "dry: $(tail -1 "$tmp/dry.err")"
for k in 1 2; do
	env -u STARPU_NCPU "$sim" sim run "$tmp/w.cfg" --platform "$tmp/p2" --iterations 4 $args --out "$tmp/sim$k" \
		>"$tmp/sim$k.out" 2>"$tmp/sim$k.err" || fail "sim run $k: $(grep -v '^  ' "$tmp/sim$k.err" | tail -2)"
done
grep -q "0 CPU + 2 CUDA workers" "$tmp/sim1.err" || fail "sim: not 2 simulated GPUs: $(grep workers "$tmp/sim1.err")"
"$py" - "$tmp/dry/summary.json" "$tmp/sim1/summary.json" "$tmp/sim2/summary.json" <<'PY' || fail "task counts or times"
import json, sys
dry, s1, s2 = (json.load(open(p)) for p in sys.argv[1:])
ok = True
def bad(msg):
    global ok
    print("FAIL:", msg)
    ok = False
if not (s1["simulated"] and not dry["simulated"]):
    bad("simulated flags")
it, nb = s1["iterations"], s1["blocks"]
for st, n in dry["tasks_per_stage"].items():
    if s1["tasks_per_stage"].get(st) != n:
        bad(f"stage {st}: {s1['tasks_per_stage'].get(st)} simulated, {n} in the dry run")
extra = {k: v for k, v in s1["tasks_per_stage"].items() if k not in dry["tasks_per_stage"]}
if extra != {"fetch": 4 * nb * it}:
    bad(f"stages only the GPU run has: {extra}, expected fetch {4 * nb * it}")
if s1["tasks_per_stage"]["flux"] != 2 * nb * it:
    bad(f"flux tasks {s1['tasks_per_stage']['flux']}, expected 2 RK stages x {nb} blocks x {it}")
if not s1["seconds_per_iteration"] > 0:
    bad(f"simulated time per iteration {s1['seconds_per_iteration']}")
if s1["seconds_per_iteration"] != s2["seconds_per_iteration"] or s1["iteration_seconds"] != s2["iteration_seconds"]:
    bad(f"two simulations differ: {s1['iteration_seconds']} vs {s2['iteration_seconds']}")
# the simulated GPUs' busy time (no CPU worker), under the time of the 2
# GPUs; the halos between them move GPU to GPU; a dry run is not profiled
p = s1.get("profile", {})
busy = p.get("cuda_busy_seconds_per_iteration", 0)
if not (0 < busy <= 2 * s1["seconds_per_iteration"] * (1 + 1e-9)) or p.get("cpu_busy_seconds_per_iteration") != 0:
    bad(f"simulated profile {p}")
if not (p.get("d2d_transfers_per_iteration", 0) > 0 and p.get("d2d_bytes_per_iteration", 0) > 0):
    bad(f"no GPU to GPU transfer simulated: {p}")
if "profile" in dry:
    bad("the dry run was profiled")
sys.exit(0 if ok else 1)
PY
"$py" - "$tmp/o/sim-calibrate/summary.json" <<'PY' || fail "the calibration's profile"
import json, sys
s = json.load(open(sys.argv[1]))
p = s.get("profile", {})
busy = p.get("cpu_busy_seconds_per_iteration", 0)
# (tasks running when the warm-up ends count whole: up to an iteration more)
m = s["iterations"] - s["warmup"]
ok = 0 < busy <= 2 * s["seconds_per_iteration"] * (1 + 1 / m) * 1.01 and p.get("cuda_busy_seconds_per_iteration") == 0
print("" if ok else f"FAIL: calibration profile {p}, {s['seconds_per_iteration']} s per iteration")
sys.exit(0 if ok else 1)
PY

# the calibration records no task of its warm-up (its first 2 iterations):
# each block's fv_update footprint holds 2 passes x (5 - 2) iterations x 2
# RK stages, less the first sample StarPU drops = 11 (19 with the warm-up;
# StarPU drops a sample 4x its mean too: a task descheduled on a loaded
# machine, so 6 to 11)
"$py" - "$tmp/cal" "$tool" <<'PY' || fail "the calibration recorded its warm-up"
import glob, importlib.util, sys
d, tool = sys.argv[1:]
spec = importlib.util.spec_from_file_location("sim_platform", tool)
sp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sp)
n = [e[7] for p in glob.glob(f"{d}/codelets/45/fv_update.*") for _, ims in sp.read_model(p) for im in ims
     for e in im["entries"]]
ok = len(n) == 2 and all(6 <= k <= 11 for k in n)
print("" if ok else f"FAIL: fv_update samples per block {n}, expected 11 each (6 to 11)")
sys.exit(0 if ok else 1)
PY

# the snapshot copies: once a run (the state the run starts from) in a
# calibration of 5 iterations, every 6 in one of 14 (iterations 0, 6 and
# 12 of each pass): each block's fv_copy footprint holds 2 passes x 3 less
# the first sample = 5 (3 to 5: under make check -j2 a copy descheduled
# for 10x the mean is dropped too, [5, 3] in session 24's CI), where it
# held 1 (a flushed entry, 0 in session 17, aborted a simulation)
# shellcheck disable=SC2086
STARPU_HISTORY_MAX_ERROR=1000 "$fv" sim calibrate "$tmp/w.cfg" --save "$tmp/calc" --iterations 14 $args \
	output.dir="$tmp/oc" >/dev/null 2>"$tmp/calc.err" || fail "calibrate 14 iterations: $(tail -1 "$tmp/calc.err")"
cp "$tmp/calc/fvstar.sim" "$tmp/calc14.sim"
grep -q "^snapshot_every *= *6" "$tmp/oc/sim-calibrate/case.effective" ||
	fail "calibrate 14 iterations: $(grep snapshot_every "$tmp/oc/sim-calibrate/case.effective")"
"$py" - "$tmp/cal" "$tmp/calc" "$tool" <<'PY' || fail "the calibration's snapshot copies"
import glob, importlib.util, sys
short, long_, tool = sys.argv[1:]
spec = importlib.util.spec_from_file_location("sim_platform", tool)
sp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sp)
def samples(d):
    return [e[7] for p in glob.glob(f"{d}/codelets/45/fv_copy.*") for _, ims in sp.read_model(p) for im in ims
            for e in im["entries"]]
a, b = samples(short), samples(long_)
ok = len(a) == len(b) == 2 and all(k <= 2 for k in a) and all(3 <= k <= 5 for k in b)
print("" if ok else f"FAIL: fv_copy samples per block {a} (5 iterations), {b} (14 iterations, expected 3 to 5)")
sys.exit(0 if ok else 1)
PY

# task chains (numerics.chain = yes on the 2 CPU workers): a calibration
# of 3 iterations records only the last one's chains (and, in its third
# pass, with numerics.chain = no, the tasks alone); 8 simulated iterations
# on 2 GPUs meet chains it never ran (those of the middle iterations):
# they go as their tasks, said once, and the simulation completes (it
# aborted in StarPU: "Codelet fv_chain does not have a perfmodel"). A
# platform without those tasks' own models is refused naming the task.
"$fv" sim calibrate "$tmp/w.cfg" --save "$tmp/calc" --iterations 3 partition.blocks=2 numerics.chain=yes \
	output.progress_every=0 output.dir="$tmp/oc" >/dev/null 2>"$tmp/calc.err" ||
	fail "calibrate with chains: $(tail -1 "$tmp/calc.err")"
grep -q "pass 3 of 3: numerics.chain = no" "$tmp/calc.err" || fail "no unchained calibration pass"
set -- "$tmp"/calc/codelets/45/fv_chain.* "$tmp"/calc/codelets/45/fv_flux.*
[ -f "$1" ] && [ -f "$2" ] || fail "calibrate with chains saved no fv_chain or no fv_flux model"
# shellcheck disable=SC2046
"$py" "$tool" fake-gpu-models "$tmp/calc" "$tmp/calcg" --speedup 20 $(for a in fv_fetch=fv_unpack_all \
	fv_prim_ghosts=fv_prim; do echo --alias "$a"; done) >/dev/null || fail "fake-gpu-models (chains)"
"$py" "$tool" derive "$tmp/calcg" "$tmp/pc" --gpus 2 --h2d 25 --d2h 25 --d2d 40 --latency 10 --name wedge2 \
	>/dev/null || fail "derive (chains)"
env -u STARPU_NCPU "$sim" sim run "$tmp/w.cfg" --platform "$tmp/pc" --iterations 8 partition.blocks=2 \
	output.progress_every=0 --out "$tmp/simc" >"$tmp/simc.out" 2>"$tmp/simc.err" ||
	fail "a simulation with uncalibrated chains: $(grep -v '^  ' "$tmp/simc.err" | tail -2)"
grep -q "task chain .* was never calibrated" "$tmp/simc.err" || fail "no word of the uncalibrated chains"
grep -q "^sim: tasks flux " "$tmp/simc.out" || fail "no flux task on its own: $(grep tasks "$tmp/simc.out")"
cp -r "$tmp/pc" "$tmp/pcbad"
rm "$tmp"/pcbad/codelets/45/fv_flux.*
env -u STARPU_NCPU "$sim" sim run "$tmp/w.cfg" --platform "$tmp/pcbad" --iterations 8 partition.blocks=2 \
	output.progress_every=0 --out "$tmp/simcb" >/dev/null 2>"$tmp/simcb.err"
rc=$?
[ $rc = 1 ] || fail "uncalibrated chains without their tasks' models: exit $rc ($(tail -1 "$tmp/simcb.err"))"
grep -q "nor was its task flux alone (model fv_flux" "$tmp/simcb.err" ||
	fail "uncalibrated chains without their tasks' models: $(tail -1 "$tmp/simcb.err")"

# 8 simulated GPUs, 8 blocks: the same simulated times twice (StarPU orders
# some work by pointers: fvstar-sim runs without address randomisation and
# sets up on one thread, and 8 GPUs differed by 0.4 % from run to run)
"$py" "$tool" derive "$tmp/calg" "$tmp/p8" --gpus 8 --h2d 25 --d2h 25 --d2d 40 --latency 10 --name wedge8 \
	>/dev/null || fail "derive 8 GPUs"
for k in 1 2; do
	env -u STARPU_NCPU "$sim" sim run "$tmp/w.cfg" --platform "$tmp/p8" --iterations 3 partition.blocks=8 \
		numerics.chain=no output.progress_every=0 --out "$tmp/s8-$k" >/dev/null 2>"$tmp/s8-$k.err" ||
		fail "8 GPUs, run $k: $(grep -v '^  ' "$tmp/s8-$k.err" | tail -2)"
done
"$py" - "$tmp/s8-1/summary.json" "$tmp/s8-2/summary.json" <<'PY' || fail "8 GPUs: two simulations differ"
import json, sys
a, b = (json.load(open(p))["iteration_seconds"] for p in sys.argv[1:])
print("" if a == b else f"FAIL: {a} vs {b}")
sys.exit(0 if a == b else 1)
PY

# the submitting thread's time per task: the calibration measures it
# (fvstar.sim, a positive number of microseconds), derive carries it, the
# simulation charges it per task (its summary says so); a cost of 2 ms per
# task makes the simulated iteration last about its tasks x 2 ms (the one
# submitting thread; at least half of it: an iteration's end is seen when
# that thread looks, and the last ones, submitted, are seen at once), 0
# (FVSTAR_SIM_TASK_US) charges none; a broken fvstar.sim is refused naming
# its line
us=$(sed -n 's/^submit_us_per_task //p' "$tmp/cal/fvstar.sim" 2>/dev/null)
# and the bound of the samples the models kept: 300 % (a stall 4x a
# task's mean left out), or STARPU_HISTORY_MAX_ERROR's (1000 for the
# calibration of 14 iterations below)
grep -q "^history_max_error_percent 300$" "$tmp/cal/fvstar.sim" ||
	fail "calibrate: fvstar.sim: $(grep history "$tmp/cal/fvstar.sim")"
grep -q "^history_max_error_percent 1000$" "$tmp/calc14.sim" ||
	fail "calibrate, STARPU_HISTORY_MAX_ERROR=1000: $(grep history "$tmp/calc14.sim")"
awk -v u="$us" 'BEGIN { exit !(u + 0 > 0 && u + 0 < 10000) }' || fail "calibrate: fvstar.sim: '$us'"
cmp -s "$tmp/cal/fvstar.sim" "$tmp/p2/fvstar.sim" || fail "derive did not carry fvstar.sim"
for v in "" 2000 0; do
	FVSTAR_SIM_TASK_US=$v "$sim" sim run "$tmp/w.cfg" --platform "$tmp/p2" --iterations 12 $args \
		--out "$tmp/sub$v" >/dev/null 2>"$tmp/sub$v.err" || fail "FVSTAR_SIM_TASK_US=$v: $(tail -1 "$tmp/sub$v.err")"
done
"$py" - "$tmp" "$us" <<'PY' || fail "the submitting thread's cost"
import json, sys
t, us = sys.argv[1], float(sys.argv[2])
s = {k: json.load(open(f"{t}/sub{k}/summary.json")) for k in ("", "2000", "0")}
cost = {k: v["simulated_submit_seconds_per_task"] for k, v in s.items()}
tasks = sum(s["2000"]["tasks_per_stage"].values()) / s["2000"]["iterations"]
ok = abs(cost[""] - us * 1e-6) < 1e-9 and cost["2000"] == 2e-3 and cost["0"] == 0
ok &= s["2000"]["seconds_per_iteration"] >= 0.5 * tasks * 2e-3 > 4 * s["0"]["seconds_per_iteration"]
print("" if ok else f"FAIL: costs {cost}, {tasks} tasks per iteration, "
      f"{[v['seconds_per_iteration'] for v in s.values()]} s per iteration")
sys.exit(0 if ok else 1)
PY
cp -r "$tmp/p2" "$tmp/badsub"
printf 'submit_us_per_task\n' >"$tmp/badsub/fvstar.sim"
env -u FVSTAR_SIM_TASK_US "$sim" sim run "$tmp/w.cfg" --platform "$tmp/badsub" --iterations 2 $args --out "$tmp/o-badsub" >/dev/null \
	2>"$tmp/badsub.err" && fail "a broken fvstar.sim was read"
grep -q "badsub/fvstar.sim:1: expected" "$tmp/badsub.err" || fail "a broken fvstar.sim: $(tail -1 "$tmp/badsub.err")"

# platforms with an error: refused with the file (and line) named
plat="$tmp/p2/bus/wedge2.platform.v4.xml"
refused() { # name, expected text; the folder $tmp/$name
	"$sim" sim run "$tmp/w.cfg" --platform "$tmp/$1" --iterations 2 $args --out "$tmp/o-$1" >/dev/null 2>"$tmp/$1.err"
	rc=$?
	[ $rc = 1 ] || [ $rc = 2 ] || fail "$1: exit $rc, expected 1 or 2 ($(tail -1 "$tmp/$1.err"))"
	grep -q -- "$2" "$tmp/$1.err" || fail "$1: no '$2' in: $(tail -1 "$tmp/$1.err")"
	grep -q "starpu\]\|Assertion" "$tmp/$1.err" && fail "$1: StarPU or SimGrid got to read it"
}
for b in badlink short noroute; do cp -r "$tmp/p2" "$tmp/$b"; done
sed -i 's|<link_ctn id="RAM-CUDA1"/>|<link_ctn id="RAM-CUDA9"/>|' "$tmp/badlink/bus/wedge2.platform.v4.xml"
line=$(grep -n 'RAM-CUDA9' "$tmp/badlink/bus/wedge2.platform.v4.xml" | head -1 | cut -d: -f1)
refused badlink "badlink/bus/wedge2.platform.v4.xml:$line: link_ctn names link 'RAM-CUDA9'"
head -c 1500 "$plat" >"$tmp/short/bus/wedge2.platform.v4.xml"
refused short "short/bus/wedge2.platform.v4.xml:[0-9]*: "
grep -v 'dst="CUDA1"' "$plat" >"$tmp/noroute/bus/wedge2.platform.v4.xml"
refused noroute "noroute/bus/wedge2.platform.v4.xml: no route from RAM to CUDA1"
refused nosuch "nosuch: no such platform folder"
# a bus measured while busy (host to GPU 0 at 147 us, GPU 1 at 10): check
# names the link; the derived platform has none to name
"$py" "$tool" check "$tmp/p2" >"$tmp/check.out" || fail "check"
grep -q warning "$tmp/check.out" && fail "check warns on the derived platform: $(grep warning "$tmp/check.out")"
cp -r "$tmp/p2" "$tmp/busy"
sed -i 's|<link id="RAM-CUDA0" \([^/]*\)latency="[^"]*"|<link id="RAM-CUDA0" \1latency="0.000147s"|' \
	"$tmp/busy/bus/wedge2.platform.v4.xml"
"$py" "$tool" check "$tmp/busy" | grep -q "warning: RAM-CUDA0: 147.0 us where another host to GPU link has 10.0" ||
	fail "check: no warning on a busy bus: $("$py" "$tool" check "$tmp/busy" | grep RAM-CUDA0)"

# a cluster folder (every build: the generator is Python): 3 nodes of 2
# ranks, each rank a zone of the node's hosts, the hostfile one line per rank
"$py" "$tool" cluster "$tmp/p2" "$tmp/c3" --nodes 3 --ranks-per-node 2 --nic 12.5 --latency 2 >/dev/null ||
	fail "cluster 3 x 2"
"$py" - "$tmp/c3" "$plat" <<'PY' || fail "cluster folder"
import os, sys, xml.etree.ElementTree as ET
d, node = sys.argv[1:]
mine = [h.get("id") for h in ET.parse(node).getroot().iter("host")]
root = ET.parse(os.path.join(d, "smpi", "platform.xml")).getroot()
zones = {z.get("id"): z for z in root.iter("zone")}
hosts = open(os.path.join(d, "smpi", "hostfile")).read().split()
ok = hosts == ["node-0", "node-0", "node-1", "node-1", "node-2", "node-2"]
for r in range(6):
    z = zones.get(f"StarPU-MPI{r}")
    names = sorted(h.get("id") for h in z.iter("host")) if z is not None else []
    ok &= names == sorted(f"StarPU-MPI{r}-{h}" for h in mine) and "CUDA1" in mine
links = {l.get("id"): l.get("bandwidth") for l in zones["cluster"].iter("link")}
ok &= links.get("node-2-out") == "12500000000.000000Bps" and "node-1-shm" in links
ok &= os.path.isdir(os.path.join(d, "codelets", "45")) and os.path.isdir(os.path.join(d, "bus"))
sys.exit(0 if ok else 1)
PY

# two simulated ranks (fvstar-smpi, smpirun)
if [ ! -r "$top_builddir/fvstar-smpi" ]; then
	echo "note: no fvstar-smpi (configure --with-starpu-smpi=PREFIX): simulated ranks not tested"
	finish
fi
"$py" "$tool" derive "$tmp/calg" "$tmp/p1" --gpus 1 --h2d 25 --d2h 25 --d2d 40 --latency 10 --name wedge1 \
	>/dev/null || fail "derive 1 GPU"
"$py" "$tool" cluster "$tmp/p1" "$tmp/c2" --nodes 2 --nic 25 --latency 1.5 >/dev/null || fail "cluster"
for k in 1 2; do
	"$fv" sim run "$tmp/w.cfg" --platform "$tmp/c2" --iterations 4 $args --out "$tmp/mpi$k" \
		>"$tmp/mpi$k.out" 2>"$tmp/mpi$k.err" || fail "2 ranks, run $k: $(grep -v '^  ' "$tmp/mpi$k.err" | tail -2)"
done
"$py" - "$tmp/mpi1/summary.json" "$tmp/mpi2/summary.json" <<'PY' || fail "2 ranks: task counts or times"
import json, sys
s1, s2 = (json.load(open(p)) for p in sys.argv[1:])
ok = True
def bad(msg):
    global ok
    print("FAIL:", msg)
    ok = False
it = s1["iterations"]
if s1["ranks"] != 2 or len(s1.get("per_rank", [])) != 2:
    bad(f"ranks {s1['ranks']}, per_rank {len(s1.get('per_rank', []))}")
else:
    r0, r1 = (r["tasks_per_stage"] for r in s1["per_rank"])
    if r0 != r1:
        bad(f"the ranks' tasks differ: {r0} vs {r1}")
    for st in ("flux_interior", "flux_border", "update"):
        if r0.get(st) != 2 * it:
            bad(f"rank 0: {st} {r0.get(st)}, expected 2 RK stages x {it}")
    if any(s1["tasks_per_stage"][k] != r0[k] + r1[k] for k in r0):
        bad("tasks_per_stage is not the ranks' sum")
if not s1["seconds_per_iteration"] > 0:
    bad(f"simulated time per iteration {s1['seconds_per_iteration']}")
if s1["iteration_seconds"] != s2["iteration_seconds"] or s1["per_rank"] != s2["per_rank"]:
    bad(f"two simulations differ: {s1['iteration_seconds']} vs {s2['iteration_seconds']}")
sys.exit(0 if ok else 1)
PY
# the ranks read a partition directory (fvstar mesh partition: rank 0
# neither reads nor cuts the mesh; bench/run_sim_studies.sh's cluster runs,
# GPU only: CPU workers beside a GPU would have the blocks cut by speed):
# the same tasks per rank as from the mesh; fvstar-sim (one process) refuses one
"$fv" mesh partition "$tmp/w.su2" --ranks 2 --blocks 2 -o "$tmp/wparts" >/dev/null 2>&1 || fail "mesh partition"
for m in mesh parts; do
	k=
	[ $m = mesh ] || k=mesh.file="$tmp/wparts"
	STARPU_NCPU=0 "$fv" sim run "$tmp/w.cfg" --platform "$tmp/c2" --iterations 4 $args $k --out "$tmp/mpi-$m" \
		>"$tmp/mpi-$m.out" 2>"$tmp/mpi-$m.err" || fail "2 GPU ranks from the $m: $(grep -v '^  ' "$tmp/mpi-$m.err" | tail -2)"
done
"$py" - "$tmp/mpi-mesh/summary.json" "$tmp/mpi-parts/summary.json" <<'PY' || fail "2 ranks from parts: task counts"
import json, sys
s1, s2 = (json.load(open(p)) for p in sys.argv[1:])
if [r["tasks_per_stage"] for r in s1["per_rank"]] != [r["tasks_per_stage"] for r in s2["per_rank"]]:
    sys.exit("FAIL: the ranks' tasks differ from parts and from the mesh")
if not s2["seconds_per_iteration"] > 0:
    sys.exit("FAIL: simulated time %s" % s2["seconds_per_iteration"])
PY
env -u STARPU_NCPU "$sim" sim run "$tmp/w.cfg" --platform "$tmp/p1" --iterations 4 $args mesh.file="$tmp/wparts" \
	--out "$tmp/simp" >/dev/null 2>"$tmp/simp.err" && fail "fvstar-sim ran a partition directory"
grep -q "fvstar sim reads a mesh, not a partition directory (one process" "$tmp/simp.err" ||
	fail "fvstar-sim and a partition directory: $(grep -v '^  ' "$tmp/simp.err" | tail -1)"
# StarPU-MPI's actor per message is freed when it ends (fvstar-smpi wraps
# starpu_pthread_create_on, src/runtime/sim.c): 60 iterations of 2 ranks
# peak at 0.3 GB of address space; with every actor's 8 MiB stack kept
# (StarPU 1.3.10 as it is) they need 13 GB and abort under this limit
(
	ulimit -v 3000000
	exec "$fv" sim run "$tmp/w.cfg" --platform "$tmp/c2" --iterations 60 $args --out "$tmp/mpi60" \
		>"$tmp/mpi60.out" 2>"$tmp/mpi60.err"
) || fail "2 ranks, 60 iterations in 3 GB of address space: $(grep -v '^  ' "$tmp/mpi60.err" | tail -2)"
# 2 blocks per simulated rank (2 nodes of 2 GPUs): each rank builds its
# own blocks' geometry (simulated ranks share one thread's OpenMP state: a
# dynamic loop once handed a rank's block to the other, which hung)
"$py" "$tool" cluster "$tmp/p2" "$tmp/c22" --nodes 2 >/dev/null || fail "cluster of 2 nodes of 2 GPUs"
timeout 120 "$fv" sim run "$tmp/w.cfg" --platform "$tmp/c22" --iterations 2 partition.blocks=4 numerics.chain=no \
	output.progress_every=0 --out "$tmp/mpi4" >"$tmp/mpi4.out" 2>"$tmp/mpi4.err" ||
	fail "2 ranks of 2 blocks: $(grep -v '^  ' "$tmp/mpi4.err" | tail -2)"
"$py" - "$tmp/mpi4/summary.json" <<'PY' || fail "2 ranks of 2 blocks: tasks"
import json, sys
s = json.load(open(sys.argv[1]))
up = [r["tasks_per_stage"].get("update") for r in s.get("per_rank", [])]
# 2 RK stages x 2 blocks x 2 iterations on each rank
print("" if up == [8, 8] else f"FAIL: update tasks per rank {up}, expected [8, 8]")
sys.exit(0 if up == [8, 8] else 1)
PY
cp -r "$tmp/c2" "$tmp/c2nohosts"
rm "$tmp/c2nohosts/smpi/hostfile"
"$fv" sim run "$tmp/w.cfg" --platform "$tmp/c2nohosts" --iterations 2 $args --out "$tmp/o-nh" >/dev/null \
	2>"$tmp/nh.err" && fail "a cluster folder without its hostfile ran"
grep -q "c2nohosts/smpi/hostfile: missing" "$tmp/nh.err" || fail "no hostfile: $(tail -1 "$tmp/nh.err")"
"$sim" sim run "$tmp/w.cfg" --platform "$tmp/c2" --iterations 2 $args --out "$tmp/o-sc" >/dev/null \
	2>"$tmp/sc.err" && fail "fvstar-sim ran a cluster folder"
grep -q "a cluster folder: fvstar sim run runs it" "$tmp/sc.err" || fail "fvstar-sim on a cluster: $(tail -1 "$tmp/sc.err")"
finish
