#!/bin/sh
# SPDX-License-Identifier: MIT
# The implicit CFL ramp lives through a restart file (format 3's solver
# state, fv_solver_get_ramp_state / fv_solver_set_ramp_state): on the
# subsonic wedge (far-field boundaries, 3 blocks, the defaults of time =
# implicit: CFL 10 grown 1.5x per iteration), 10 iterations, then 10 more
# from the restart in another process, equal 20 in one run bit for bit
# (restart.bin byte for byte, and history.csv but for the wall time) while
# the CFL is still growing at the restart; without the ramp's state (a
# restart whose solver state is dropped, as a format 2 file has none) the
# continued run starts its ramp again, and differs. With sweeps_max the
# sweep count lin_res raised lives through the restart too; without it
# (0) the count grows to 6 x sweeps at most. The ceiling the outer
# iteration teaches (ceiling_osc in src/solver/solver.c, the layout 24.4)
# too: on the Mach 6 blunt body at second order (tests/data/blunt.geo, where
# Gmsh is) 262 + 38 = 300 byte for byte, the ceiling lowered before the
# restart and again after it (with the sweeps' rule of before 2026-11-30,
# sweeps_target 0.2 up to 60 pairs: the path this test was built on; the
# default 0.1 takes the blunt body elsewhere, no ceiling lowered by 300); a
# restart of the layout before (24.3, no learnt ceiling) still reads, and
# continues otherwise.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
sed -e 's/^mach = 2/mach = 0.5/' -e 's/= supersonic_inflow/= farfield/' -e 's/= supersonic_outflow/= farfield/' \
	-e '/^cfl/d' "$tmp/w.cfg" >"$tmp/sub.cfg"
run() { "$fv" run "$tmp/sub.cfg" output.vtu=no output.progress_every=0 numerics.time=implicit numerics.residual_drop=0 \
	partition.blocks=3 "$@" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }; }
hist() { cut -d, -f1,3- "$1/history.csv"; }

run output.dir="$tmp/a" numerics.iterations=20 || fail "20 iterations"
run output.dir="$tmp/b" numerics.iterations=10 || fail "10 iterations"
cp -r "$tmp/b" "$tmp/c"
run output.dir="$tmp/b" numerics.iterations=10 output.restart="$tmp/b/restart.bin" || fail "10 + 10 iterations"
grep -q "continuing from .* at iteration 11" "$tmp/err" || fail "the continued run does not say it continues"
cmp "$tmp/a/restart.bin" "$tmp/b/restart.bin" && echo "10 + 10 = 20: restart.bin byte for byte" ||
	fail "10 + 10: restart.bin differs from 20's"
if [ "$(hist "$tmp/a")" = "$(hist "$tmp/b")" ]; then
	echo "10 + 10 = 20: history.csv but for the wall time"
else
	fail "10 + 10: history differs from 20's"
fi
"$py" - "$tmp/a/history.csv" <<'PY' || fail "the CFL was not growing at iteration 10"
import csv, sys
cfl = {int(r["iteration"]): float(r["cfl"]) for r in csv.DictReader(open(sys.argv[1]))}
print("CFL at iterations 9, 10, 11, 12: %g %g %g %g" % (cfl[9], cfl[10], cfl[11], cfl[12]))
sys.exit(0 if cfl[9] < cfl[10] < cfl[11] < cfl[12] else 1)
PY

# the restart's solver state dropped: n_solver_state (bytes 108-111) = 0,
# the state zeroed, the checksum (the last 8 bytes) redone
"$py" - "$tmp/c/restart.bin" <<'PY' || fail "restart without the solver state"
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
n = struct.unpack_from("<I", b, 108)[0]
assert 0 < n <= 64, n
struct.pack_into("<I", b, 108, 0)
b[128:128 + 8 * 64] = bytes(8 * 64)
h = 0xcbf29ce484222325
for x in b[:-8]:
    h = ((h ^ x) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
struct.pack_into("<Q", b, len(b) - 8, h)
open(p, "wb").write(bytes(b))
print("the restart's %d values of solver state dropped" % n)
PY
run output.dir="$tmp/c" numerics.iterations=10 output.restart="$tmp/c/restart.bin" || fail "continued without the ramp"
"$py" - "$tmp/a/history.csv" "$tmp/c/history.csv" <<'PY' || fail "without the ramp's state: not a new ramp"
import csv, sys
a = {int(r["iteration"]): float(r["cfl"]) for r in csv.DictReader(open(sys.argv[1]))}
c = {int(r["iteration"]): float(r["cfl"]) for r in csv.DictReader(open(sys.argv[2]))}
print("without the ramp's state: CFL at iteration 11 %g (uninterrupted: %g)" % (c[11], a[11]))
sys.exit(0 if c[11] == 10 and a[11] > 10 else 1)
PY

# the sweep count that follows lin_res (numerics.sweeps_max) goes on from
# where it was too: 14 + 6 = 20, the count raised before iteration 14 and
# again after the restart (from 2 pairs: lin_res passes the target that
# raises them; with the default 20 this wedge stays below it)
run output.dir="$tmp/s20" numerics.iterations=20 numerics.sweeps=2 numerics.sweeps_max=60 || fail "20 iterations, sweeps_max"
run output.dir="$tmp/s14" numerics.iterations=14 numerics.sweeps=2 numerics.sweeps_max=60 || fail "14 iterations, sweeps_max"
run output.dir="$tmp/s14" numerics.iterations=6 numerics.sweeps=2 numerics.sweeps_max=60 output.restart="$tmp/s14/restart.bin" ||
	fail "14 + 6 iterations, sweeps_max"
[ "$(hist "$tmp/s20")" = "$(hist "$tmp/s14")" ] && cmp -s "$tmp/s20/restart.bin" "$tmp/s14/restart.bin" ||
	fail "sweeps_max: 14 + 6 differs from 20"
"$py" - "$tmp/s20/history.csv" <<'PY' || fail "sweeps_max: the sweeps did not grow before iteration 14 and after it"
import csv, sys
k = {int(r["iteration"]): int(float(r["sweeps"])) for r in csv.DictReader(open(sys.argv[1]))}
print("sweeps 2, sweeps_max 60: sweep pairs at iterations 1, 14, 20: %d %d %d" % (k[1], k[14], k[20]))
sys.exit(0 if k[1] == 2 < k[14] < k[20] <= 60 else 1)
PY
# without sweeps_max (0) they grow too, to 6 x sweeps at most
run output.dir="$tmp/sd" numerics.iterations=20 numerics.sweeps=2 || fail "20 iterations, sweeps 2"
"$py" - "$tmp/sd/history.csv" <<'PY' || fail "sweeps_max 0: the sweeps did not grow to 6 x sweeps at most"
import csv, sys
k = [int(float(r["sweeps"])) for r in csv.DictReader(open(sys.argv[1]))]
print("sweeps 2, sweeps_max 0: sweep pairs %d at iteration 1, %d at most" % (k[0], max(k)))
sys.exit(0 if k[0] == 2 < max(k) <= 12 else 1)
PY

[ -n "${GMSH+set}" ] || GMSH=$(command -v gmsh 2>/dev/null) || GMSH=
if [ -z "$GMSH" ]; then
	echo "no gmsh (set GMSH): the blunt body's learnt ceiling left out"
	finish
fi
"$GMSH" -2 -nt 1 -v 1 -format su2 "$top_srcdir/tests/data/blunt.geo" -o "$tmp/blunt.su2" >"$tmp/gmsh.log" 2>&1 ||
	{ cat "$tmp/gmsh.log"; fail "gmsh blunt.geo"; finish; }
blunt_case "$tmp/blunt.su2" "$tmp/blunt.cfg" limiter_shock=0.03
brun() { "$fv" run "$tmp/blunt.cfg" output.vtu=no output.progress_every=0 numerics.time=implicit \
	numerics.residual_drop=0 partition.blocks=5 numerics.sweeps_target=0.2 numerics.sweeps_max=60 "$@" \
	>"$tmp/out" 2>>"$tmp/berr" || { cat "$tmp/berr"; return 1; }; }
held() { grep -c "the CFL is held at" "$tmp/berr"; }
: >"$tmp/berr"
brun output.dir="$tmp/b300" numerics.iterations=300 || fail "blunt: 300 iterations"
whole=$(held)
: >"$tmp/berr"
brun output.dir="$tmp/b262" numerics.iterations=262 || fail "blunt: 262 iterations"
before=$(held)
cp -r "$tmp/b262" "$tmp/b262v3"
: >"$tmp/berr"
brun output.dir="$tmp/b262" numerics.iterations=38 output.restart="$tmp/b262/restart.bin" || fail "blunt: 262 + 38"
after=$(held)
echo "blunt: the ceiling lowered $whole times in 300 iterations; $before in 262, $after in the 38 after"
[ "$before" -ge 1 ] && [ "$after" -ge 1 ] || fail "blunt: the ceiling not lowered both before and after iteration 262"
cmp "$tmp/b300/restart.bin" "$tmp/b262/restart.bin" && [ "$(hist "$tmp/b300")" = "$(hist "$tmp/b262")" ] &&
	echo "blunt: 262 + 38 = 300, restart.bin byte for byte and the history" || fail "blunt: 262 + 38 differs from 300"
# the layout before: tag 24.3, the first 21 values, then the window
"$py" - "$tmp/b262v3/restart.bin" <<'PY' || fail "blunt: a restart of the layout 24.3"
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
n = struct.unpack_from("<I", b, 108)[0]
v = list(struct.unpack_from("<%dd" % n, b, 128))
assert v[0] == 24.4, v[0]
v = [24.3] + v[1:21] + v[27:]
struct.pack_into("<I", b, 108, len(v))
b[128:128 + 8 * n] = bytes(8 * n)
struct.pack_into("<%dd" % len(v), b, 128, *v)
h = 0xcbf29ce484222325
for x in b[:-8]:
    h = ((h ^ x) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
struct.pack_into("<Q", b, len(b) - 8, h)
open(p, "wb").write(bytes(b))
print("blunt: the restart's ramp state rewritten as the layout 24.3 (%d values)" % len(v))
PY
: >"$tmp/berr"
brun output.dir="$tmp/b262v3" numerics.iterations=38 output.restart="$tmp/b262v3/restart.bin" ||
	fail "blunt: 262 + 38 from the layout 24.3"
cmp -s "$tmp/b300/restart.bin" "$tmp/b262v3/restart.bin" && fail "blunt: the layout 24.3 continued as 24.4 did"
finish
