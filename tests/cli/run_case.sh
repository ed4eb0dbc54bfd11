#!/bin/sh
# SPDX-License-Identifier: MIT
# `fvstar run` end to end on a Gmsh-made mesh: all outputs written, the
# solution opens in VTK's own reader, the set-up's phases said and in
# summary.json (their sum the total), the process's timeline in order in
# summary.json and on -v's second-to-last line (the exit handlers' end
# last), a restart continues the residual
# history bit for bit, bad keys are rejected, and a diverging run stops with
# a clear error leaving the last restart intact. Skips (77) without gmsh.
set -u
fv="$top_builddir/fvstar"
gmsh=${GMSH-$(command -v gmsh || true)}
[ -n "$gmsh" ] || { echo "no gmsh: SKIP"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$gmsh" -3 -format msh41 -o "$tmp/box.msh" "$top_srcdir/tests/data/box.geo" >/dev/null 2>&1 || { fail "gmsh"; exit 1; }
cat >"$tmp/box.cfg" <<'CFG'
; Mach 0.5 at 5 degrees through a box (all far field)
[mesh]
file = box.msh
[flow]
mach = 0.5
alpha = 5
init = riemann
left = 1.2,0.2,1
right = 1,0.1,0.8
[numerics]
iterations = 20
cfl = 1
[bc]
xmin = farfield
xmax = farfield
ymin = farfield
ymax = farfield
zmin = symmetry
zmax = wall
[partition]
blocks = 3
CFG

run() { "$fv" run "$@" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }; }

run "$tmp/box.cfg" output.dir="$tmp/a" || fail "plain run"
for f in history.csv summary.json solution.vtu restart.bin; do
	[ -s "$tmp/a/$f" ] || fail "missing $f"
done
[ "$(wc -l <"$tmp/a/history.csv")" = 21 ] || fail "history.csv has $(wc -l <"$tmp/a/history.csv") lines"
grep -Eq "^fvstar: set-up [0-9.]+ s: case [0-9.]+, mesh [0-9.]+ .*, StarPU [0-9.]+, blocks [0-9.]+ .*, state [0-9.]+, solver [0-9.]+ " \
	"$tmp/err" || fail "no set-up line: $(grep set-up "$tmp/err")"

py=
for p in "${PYTHON3:-}" python3 /usr/bin/python3; do
	[ -n "$p" ] && "$p" -c 'import vtk' 2>/dev/null && { py=$p; break; }
done
if [ -n "$py" ]; then
	"$py" - "$tmp/a/solution.vtu" "$tmp/a/summary.json" <<'PY' || fail "VTK/JSON check"
import json, sys, vtk
r = vtk.vtkXMLUnstructuredGridReader()
r.SetFileName(sys.argv[1]); r.Update()
g = r.GetOutput()
s = json.load(open(sys.argv[2]))
assert g.GetNumberOfCells() == s["mesh"]["cells"], (g.GetNumberOfCells(), s["mesh"])
cd = g.GetCellData()
for name in ("density", "velocity", "pressure", "mach", "entropy"):
    a = cd.GetArray(name)
    assert a is not None, name
    lo, hi = a.GetRange(-1 if a.GetNumberOfComponents() > 1 else 0)
    assert lo == lo and hi == hi and hi < 1e3, (name, lo, hi)
assert cd.GetArray("density").GetRange()[0] > 0
for k in ("iterations", "seconds_per_iteration", "ns_per_cell_per_stage", "final_residuals", "workers", "partition"):
    assert k in s, k
assert s["iterations"] == 20
# the set-up's phases: each timed, the total their sum
su = s["setup_seconds"]
phases = ("case", "mesh", "starpu", "blocks", "state", "solver")
assert all(su[k] >= 0 for k in phases) and su["mesh"] > 0 and su["blocks"] > 0 and su["solver"] > 0, su
assert abs(su["total"] - sum(su[k] for k in phases)) < 1e-9 * max(1, su["total"]), su
assert s["output_seconds"] > 0, s["output_seconds"]
# memory per cell: the host's peak, no device without a GPU
m = s["memory"]
assert m["host_peak_mib"] == s["peak_memory_mib"] and 100 < m["host_bytes_per_cell"] < 1e6, m
assert m["gpus"] == 0 and "device_bytes_per_cell" not in m, m
print("VTK: %d cells, density %s; summary: %.3g s/iteration, set-up %.3g s" % (g.GetNumberOfCells(), cd.GetArray("density").GetRange(), s["seconds_per_iteration"], su["total"]))
PY
else
	echo "python3 with vtk not found: VTK check skipped"
fi

# the timeline: seconds since the process started, in the order things happen
python3 - "$tmp/a/summary.json" <<'PY' || fail "timeline in summary.json"
import json, sys
t = json.load(open(sys.argv[1]))["timeline"]
order = ["main", "set-up", "set-up done", "loop", "loop done", "restart written", "outputs written", "summary"]
# the files are written while StarPU stops (one process): its marks may
# come between the files' (never before the loop's end)
stop = ["solver freed", "StarPU stopped"]
assert [k for k in t if k not in stop] == order, list(t)
assert all(list(t).index(k) > list(t).index("loop done") for k in stop if k in t), list(t)
at = list(t.values())
assert 0 < at[0] < 30 and all(a <= b for a, b in zip(at, at[1:])), t
PY

# restart: 10 + 10 iterations reproduce the last 10 rows of the 20-iteration run
run "$tmp/box.cfg" -v output.dir="$tmp/b" numerics.iterations=10 || fail "first half"
# -v: the timeline, then the exit handlers' end (after the CUDA runtime's, StarPU's)
tail -2 "$tmp/err" | head -1 | grep -Eq "^fvstar: timeline \(s since the process started\): main [0-9.]+, set-up .*, freed [0-9.]+$" ||
	fail "-v: no timeline before the last line: $(tail -2 "$tmp/err")"
tail -2 "$tmp/err" | head -1 | grep -q "summary [0-9.]*,.* StarPU stopped [0-9.]*,\|StarPU stopped [0-9.]*,.* summary [0-9.]*," ||
	fail "-v: the timeline without the summary or StarPU's stop: $(tail -2 "$tmp/err")"
tail -1 "$tmp/err" | grep -Eq "^fvstar: exit handlers done at [0-9.]+ s$" || fail "-v: no exit line: $(tail -1 "$tmp/err")"
run "$tmp/box.cfg" output.dir="$tmp/b" numerics.iterations=10 output.restart="$tmp/b/restart.bin" || fail "second half"
cut -d, -f1,3- "$tmp/a/history.csv" >"$tmp/ha"
cut -d, -f1,3- "$tmp/b/history.csv" >"$tmp/hb"
cmp -s "$tmp/ha" "$tmp/hb" || { fail "restarted history differs"; diff "$tmp/ha" "$tmp/hb" | head; }
cmp -s "$tmp/a/restart.bin" "$tmp/b/restart.bin" || fail "restart states differ after 20 iterations"

# a traced run: FxT trace converted for ViTE (Paje), with the solver's tasks
run "$tmp/box.cfg" output.dir="$tmp/t" numerics.iterations=3 output.trace="$tmp/t/trace" || fail "traced run"
for f in paje.trace tasks.rec dag.dot; do
	[ -s "$tmp/t/trace/$f" ] || fail "trace: missing $f"
done
for task in pack unpack prim nodes gradient limiter flux timestep norms update; do
	grep -qE "^Name: $task(_interior|_border)?\$" "$tmp/t/trace/tasks.rec" || fail "trace: no $task task in tasks.rec"
done
# pj_dump (pajeng) rejected the trace once in about ten parallel `make check`
# runs here, not reproducibly: report it, do not fail on it
if command -v pj_dump >/dev/null; then
	if pj_dump "$tmp/t/trace/paje.trace" >"$tmp/pj" 2>&1 && grep -q "^State," "$tmp/pj"; then
		echo "pj_dump: $(grep -c '^State,' "$tmp/pj") worker states in paje.trace"
	else
		echo "WARNING: pj_dump could not read paje.trace:"; tail -3 "$tmp/pj"
	fi
fi

# bad keys name the key (and the line)
"$fv" run "$tmp/box.cfg" output.dir="$tmp/c" numerics.cfll=1 2>"$tmp/err" && fail "unknown key accepted"
grep -q "cfll" "$tmp/err" || { fail "unknown key message"; cat "$tmp/err"; }
sed 's/^cfl = 1$/cfl = fast/' "$tmp/box.cfg" >"$tmp/bad.cfg"
"$fv" run "$tmp/bad.cfg" output.dir="$tmp/c" 2>"$tmp/err" && fail "bad value accepted"
grep -q "bad.cfg:12: \[numerics\] cfl = 'fast'" "$tmp/err" || { fail "bad value message"; cat "$tmp/err"; }
sed 's/^zmax = wall$//' "$tmp/box.cfg" >"$tmp/nobc.cfg"
"$fv" run "$tmp/nobc.cfg" output.dir="$tmp/c" 2>"$tmp/err" && fail "missing bc accepted"
grep -q "marker 'zmax' has no boundary condition" "$tmp/err" || { fail "missing bc message"; cat "$tmp/err"; }

# divergence: a clear error, exit 1, the restart of iteration 5 intact
run "$tmp/box.cfg" output.dir="$tmp/d" numerics.iterations=5 || fail "run before divergence"
cp "$tmp/d/restart.bin" "$tmp/restart5.bin"
"$fv" run "$tmp/box.cfg" output.dir="$tmp/d" numerics.cfl=1000 numerics.iterations=200 \
	output.restart="$tmp/restart5.bin" output.restart_every=2 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] || fail "diverging run exit $rc"
grep -q "diverged" "$tmp/err" || { fail "no divergence message"; cat "$tmp/err"; }
"$fv" run "$tmp/box.cfg" output.dir="$tmp/e" numerics.iterations=1 output.restart="$tmp/d/restart.bin" 2>"$tmp/err" \
	|| { fail "restart left after divergence is unreadable"; cat "$tmp/err"; }

echo "$fails failure(s)"
[ "$fails" = 0 ]
