#!/bin/sh
# SPDX-License-Identifier: MIT
# `fvstar sim calibrate` under mpirun (2 ranks of 1 CPU worker, the wedge
# cut in 2 blocks, two commands: one pass each): every rank saves its
# models into SAVE/rank<r> (one folder would keep only the last writer's
# blocks and device), and rank 0 merges them into SAVE
# (tools/sim_platform.py merge). Checks:
# - rank 0 alone measures the bus (the first command), the other ranks
#   copy it; SAVE/rank0 and SAVE/rank1 hold each rank's models, SAVE/bus
#   rank 0's platform;
# - SAVE holds every model of either rank, each with one combination per
#   kind of device, and the footprints (blocks) of both ranks, their
#   samples those of the ranks (summed where both measured one);
# - sim dry --norms-apart runs the ranks' tasks as sim dry does;
# - sim calibrate and sim dry run numerics.halo_peer = no and
#   halo_zero_copy = no whatever the case says (the graph simulated ranks
#   have), where fvstar run runs the peer halos;
# - merging a folder with itself doubles every sample count, keeps every
#   mean; a model file cut short is refused naming it and its line;
# - where fvstar-smpi is built: 2 simulated ranks (a cluster folder of one
#   node with 2 ranks, from SAVE) run the blocks both ranks calibrated,
#   each rank its own block's tasks, with a simulated time > 0.
. "$top_srcdir/tests/mpi/lib.sh"
tool="$top_srcdir/tools/sim_platform.py"
wedge_case
args="partition.blocks=2 numerics.chain=no output.progress_every=0"
for k in 1 2; do
	# shellcheck disable=SC2086
	mpi 2 "$fv" sim calibrate "$tmp/w.cfg" --save "$tmp/cal" --iterations 4 $args output.dir="$tmp/o" \
		>"$tmp/cal$k.out" 2>"$tmp/cal$k.err" || fail "calibrate $k: $(grep -v '^  ' "$tmp/cal$k.err" | tail -2)"
done
# the bus: measured by rank 0 alone in the first command (ranks measuring
# at once on one node slowed each other's transfers), rank 1's a copy, and
# not measured again by the second
grep -q "rank 0 measured the bus alone" "$tmp/cal1.err" || fail "rank 0 did not measure the bus alone"
grep -q "rank 0 measured the bus alone" "$tmp/cal2.err" && fail "the second command measured the bus again"
for f in "$tmp"/cal/rank0/bus/*; do
	cmp -s "$f" "$tmp/cal/rank1/bus/$(basename "$f")" || fail "rank 1's $(basename "$f") is not rank 0's"
done
grep -q "models of 2 folders merged" "$tmp/cal2.out" ||
	fail "rank 0 did not merge the ranks' folders: $(tail -2 "$tmp/cal2.out")"
for r in 0 1; do
	ls "$tmp"/cal/rank$r/codelets/45/fv_flux.* >/dev/null 2>&1 || fail "no fv_flux model in rank $r's folder"
done
ls "$tmp"/cal/bus/*.platform.v4.xml >/dev/null 2>&1 || fail "no platform in the merged folder"
"$py" - "$tmp/cal" "$tool" <<'PY' || fail "the merged models"
import glob, importlib.util, os, sys
d, tool = sys.argv[1:]
spec = importlib.util.spec_from_file_location("sim_platform", tool)
sp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sp)
ok = True
def bad(msg):
    global ok
    print("FAIL:", msg)
    ok = False
def models(folder):
    return {os.path.basename(p).split(".")[0]: sp.read_model(p) for p in glob.glob(f"{folder}/codelets/45/*")}
r0, r1, m = models(f"{d}/rank0"), models(f"{d}/rank1"), models(d)
if set(m) != set(r0) | set(r1) or not m:
    bad(f"merged models {sorted(m)}, ranks' {sorted(set(r0) | set(r1))}")
def entries(combs):
    out = {}
    for devs, impls in combs:
        for k, im in enumerate(impls):
            for e in im["entries"]:
                key = (tuple(sorted((t, c) for t, _, c in devs)), k, e[0])
                n, s = out.get(key, (0, 0.0))
                out[key] = (n + e[7], s + e[5])
    return out
both = 0
for sym, combs in m.items():
    kinds = [tuple(sorted((t, c) for t, _, c in devs)) for devs, _ in combs]
    if len(kinds) != len(set(kinds)):
        bad(f"{sym}: {len(kinds)} combinations for {len(set(kinds))} kinds of device")
    want = {}
    for src in (r0, r1):
        for key, (n, s) in entries(src.get(sym, [])).items():
            a = want.get(key, (0, 0.0))
            want[key] = (a[0] + n, a[1] + s)
    got = entries(combs)
    if set(got) != set(want) or any(got[k][0] != want[k][0] or abs(got[k][1] - want[k][1]) > 1e-6 * want[k][1]
                                    for k in want):
        bad(f"{sym}: merged footprints {got}, the ranks' {want}")
    e0 = {k[2] for k in entries(r0.get(sym, []))}
    e1 = {k[2] for k in entries(r1.get(sym, []))}
    both += bool(e0 - e1) and bool(e1 - e0)
# the ranks' blocks differ: some model has footprints of each rank alone
if both == 0:
    bad("no model holds footprints of both ranks' blocks")
sys.exit(0 if ok else 1)
PY

# sim dry under mpirun with and without --norms-apart (each rank keeps
# its own residual rows, no collective per iteration, as simulated ranks):
# the same tasks on each rank
# shellcheck disable=SC2086
mpi 2 "$fv" sim dry "$tmp/w.cfg" --iterations 4 $args --out "$tmp/dry" >/dev/null 2>"$tmp/dry.err" ||
	fail "dry: $(grep -v '^  ' "$tmp/dry.err" | tail -2)"
# shellcheck disable=SC2086
mpi 2 "$fv" sim dry "$tmp/w.cfg" --iterations 4 --norms-apart $args --out "$tmp/dryapart" >/dev/null \
	2>"$tmp/dryapart.err" || fail "dry --norms-apart: $(grep -v '^  ' "$tmp/dryapart.err" | tail -2)"
"$py" - "$tmp/dry/summary.json" "$tmp/dryapart/summary.json" <<'PY' || fail "dry --norms-apart: its tasks"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
ok = a["ranks"] == b["ranks"] == 2 and b["seconds_per_iteration"] > 0
ok &= [r["tasks_per_stage"] for r in a["per_rank"]] == [r["tasks_per_stage"] for r in b["per_rank"]]
print("" if ok else f"FAIL: {a['per_rank']} vs {b['per_rank']}")
sys.exit(0 if ok else 1)
PY

# halo_peer and halo_zero_copy asked for (on CPU ranks only yes makes
# their tasks; on GPU ranks auto does): fvstar run runs the ranks' peer
# tasks, while sim calibrate and sim dry run the graph simulated ranks
# have (StarPU's copies through host memory): the same tasks per rank as
# without the keys, no model of a peer or host halo task, and a note
PZ="numerics.halo_peer=yes numerics.halo_zero_copy=yes"
# shellcheck disable=SC2086
mpi 2 "$fv" run "$tmp/w.cfg" numerics.iterations=2 $args $PZ output.dir="$tmp/runpz" output.vtu=no \
	>/dev/null 2>"$tmp/runpz.err" || fail "run, halo_peer = yes: $(grep -v '^  ' "$tmp/runpz.err" | tail -2)"
grep -q "halo_peer: [1-9][0-9]* of the" "$tmp/runpz.err" || fail "run, halo_peer = yes: the peer halos not on"
# shellcheck disable=SC2086
mpi 2 "$fv" sim calibrate "$tmp/w.cfg" --save "$tmp/calpz" --iterations 4 $args $PZ output.dir="$tmp/opz" \
	>/dev/null 2>"$tmp/calpz.err" || fail "calibrate, halo_peer = yes: $(grep -v '^  ' "$tmp/calpz.err" | tail -2)"
# shellcheck disable=SC2086
mpi 2 "$fv" sim dry "$tmp/w.cfg" --iterations 4 $args $PZ --out "$tmp/drypz" >/dev/null 2>"$tmp/drypz.err" ||
	fail "dry, halo_peer = yes: $(grep -v '^  ' "$tmp/drypz.err" | tail -2)"
for k in calpz drypz; do
	grep -q "sim [a-z]*, 2 ranks: numerics.halo_peer = no and numerics.halo_zero_copy = no (were yes and yes)" \
		"$tmp/$k.err" || fail "$k: no note on the halo keys: $(grep fvstar: "$tmp/$k.err" | head -3)"
	! grep -q "halo_peer: \|halo_zero_copy: " "$tmp/$k.err" || fail "$k: peer or host halos ran"
done
grep -q "^halo_peer *= *no" "$tmp/opz/sim-calibrate/case.effective" ||
	fail "calibrate: case.effective: $(grep halo_peer "$tmp/opz/sim-calibrate/case.effective")"
for r in 0 1; do
	ls "$tmp"/calpz/rank$r/codelets/45/fv_pack_all.* >/dev/null 2>&1 || fail "rank $r: no fv_pack_all model"
	! ls "$tmp"/calpz/rank$r/codelets/45/ | grep -q "_peer\.\|_host\." ||
		fail "rank $r: models of peer or host halo tasks: $(ls "$tmp/calpz/rank$r/codelets/45/")"
done
"$py" - "$tmp/dry/summary.json" "$tmp/drypz/summary.json" <<'PY' || fail "dry, halo_peer = yes: its tasks"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
ok = [r["tasks_per_stage"] for r in a["per_rank"]] == [r["tasks_per_stage"] for r in b["per_rank"]]
print("" if ok else f"FAIL: {a['per_rank']} vs {b['per_rank']}")
sys.exit(0 if ok else 1)
PY

# a folder merged with itself: every count doubled, every mean kept
"$py" "$tool" merge "$tmp/twice" "$tmp/cal/rank0" "$tmp/cal/rank0" --quiet >/dev/null || fail "merge twice"
set -- "$tmp"/cal/rank0/codelets/45/fv_flux.*
"$py" - "$1" "$tmp/twice/codelets/45/$(basename "$1")" "$tool" <<'PY' || fail "a folder merged with itself"
import importlib.util, sys
a, b, tool = sys.argv[1:]
spec = importlib.util.spec_from_file_location("sim_platform", tool)
sp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sp)
ea = [e for _, ims in sp.read_model(a) for im in ims for e in im["entries"]]
eb = [e for _, ims in sp.read_model(b) for im in ims for e in im["entries"]]
ok = len(ea) == len(eb) > 0 and all(x[0] == y[0] and y[7] == 2 * x[7] and abs(y[3] - x[3]) <= 1e-6 * x[3]
                                    for x, y in zip(ea, eb))
print("" if ok else f"FAIL: {ea} then {eb}")
sys.exit(0 if ok else 1)
PY
# a model cut short: refused, naming the file and its line
cp -r "$tmp/cal/rank1" "$tmp/cut"
set -- "$tmp"/cut/codelets/45/fv_flux.*
sed -i -E 's/^([0-9a-f]{8})\t([^\t]*)\t([^\t]*)\t([^\t]*)\t.*$/\1\t\2\t\3\t\4/' "$1"
"$py" "$tool" merge "$tmp/bad" "$tmp/cal/rank0" "$tmp/cut" >/dev/null 2>"$tmp/cut.err" && fail "a cut model merged"
grep -q "cut/codelets/45/fv_flux\.[^:]*:[0-9]*: a history entry of 4 fields" "$tmp/cut.err" ||
	fail "a cut model: $(cat "$tmp/cut.err")"

# 2 simulated ranks from the merged folder (fvstar-smpi, smpirun)
if [ ! -r "$top_builddir/fvstar-smpi" ]; then
	echo "note: no fvstar-smpi (configure --with-starpu-smpi=PREFIX): the merged folder not simulated"
	finish
fi
"$py" "$tool" cluster "$tmp/cal" "$tmp/c2" --nodes 1 --ranks-per-node 2 >/dev/null || fail "cluster"
# shellcheck disable=SC2086
# FVSTAR_SIM_TASK_US: the submitting thread's simulated cost per task
# fixed, not the calibration's (on a loaded machine it measured 322 us a
# task: the simulated submitting thread then bounded the run and every
# iteration after the first ended at once, 0 s; session 19)
FVSTAR_SIM_TASK_US=1 STARPU_NCPU=1 timeout "$FV_MPI_TIMEOUT" "$fv" sim run "$tmp/w.cfg" --platform "$tmp/c2" \
	--iterations 4 $args --out "$tmp/sim" >"$tmp/sim.out" 2>"$tmp/sim.err" || fail "2 simulated ranks: $(grep -v '^  ' "$tmp/sim.err" | tail -2)"
"$py" - "$tmp/sim/summary.json" "$tmp/o/sim-calibrate/summary.json" <<'PY' || fail "2 simulated ranks: tasks or time"
import json, sys
s, cal = (json.load(open(p)) for p in sys.argv[1:])
ok = s["ranks"] == 2 and s["simulated"] and s["seconds_per_iteration"] > 0
ok &= all(r["seconds_per_iteration"] > 0 for r in s.get("per_rank", []))
# the same graph as the calibration's, per rank
ok &= [r["tasks_per_stage"] for r in s["per_rank"]] == [r["tasks_per_stage"] for r in cal["per_rank"]]
print("" if ok else f"FAIL: {s}")
sys.exit(0 if ok else 1)
PY
finish
