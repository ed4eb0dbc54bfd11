#!/bin/sh
# SPDX-License-Identifier: MIT
# The implicit solver's cut and retry (numerics.retries) on a case forced to
# fail: the Mach 6 blunt body of tests/data/blunt.geo (about 1400
# triangles), first order, started at CFL 1000 with no ramp: its sweeps
# diverge in the first iterations (lin_res 1e34; before the update kept a
# cell's state where no fraction of it was physical, a NaN within 3):
# - the run recovers: it ends with exit 0, a finite residual below its
#   first, and the history's cfl column shows each cut (a tenth of the CFL
#   that failed) with the retries column counting them; the log names the
#   iterations thrown away;
# - the recovery is the same under eager, lws and dmda, on 3 blocks (state
#   and history bit for bit: decisions only from done iterations);
# - numerics.retries = 0 stops on the divergence, and retries = 1 stops
#   after one retry, saying what it tried (the CFLs that failed and those of
#   the retries, the largest CFL, the failed iteration's lin_res).
. "$top_srcdir/tests/cli/lib.sh"

[ -n "${GMSH+set}" ] || GMSH=$(command -v gmsh 2>/dev/null) || GMSH=
if [ -z "$GMSH" ]; then
	echo "SKIP: no gmsh (set GMSH)"
	exit 77
fi
"$GMSH" -2 -nt 1 -v 1 "$top_srcdir/tests/data/blunt.geo" -format su2 -o "$tmp/blunt.su2" >"$tmp/gmsh.log" 2>&1 ||
	{ cat "$tmp/gmsh.log"; fail "gmsh blunt.geo"; finish; }
blunt_case "$tmp/blunt.su2" "$tmp/b.cfg" time=implicit order=1 cfl=1000 cfl_max=0 iterations=40
printf '[output]\nvtu = no\nprogress_every = 0\n' >>"$tmp/b.cfg"
run() { "$fv" run "$tmp/b.cfg" "$@" >"$tmp/out" 2>"$tmp/err"; }

ref=
for sched in eager lws dmda; do
	run output.dir="$tmp/$sched" partition.blocks=3 runtime.sched=$sched ||
		{ cat "$tmp/err"; fail "$sched: the run did not recover"; continue; }
	d=$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/$sched")
	h=$(cut -d, -f1,3- "$tmp/$sched/history.csv" | md5sum)
	[ -n "$ref" ] || { ref="$d $h"; cp "$tmp/err" "$tmp/err-eager"; }
	[ "$d $h" = "$ref" ] && echo "$sched: recovered, state and history as eager's" ||
		fail "$sched: state or history differ from eager's"
done
grep "thrown away" "$tmp/err-eager"
grep -q "^fvstar: iteration [0-9]*: \(the residual of rho is NaN\|the sweeps diverged (lin_res [0-9.e+]*)\); iterations [0-9]* to [0-9]* thrown away" \
	"$tmp/err-eager" || fail "the log does not name the iterations thrown away"
"$py" - "$tmp/eager/history.csv" <<'PY' || fail "history"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cfl = [float(r["cfl"]) for r in rows]
ret = [int(float(r["retries"])) for r in rows]
res = [float(r["res_rho"]) for r in rows]
it = [int(r["iteration"]) for r in rows]
cuts = [(a, b) for a, b in zip(cfl, cfl[1:]) if b < a]
print("iterations %s; CFL %s; retries %d; residual %.3e -> %.3e" % (
    "..".join(map(str, it[:1] + it[-1:])), " -> ".join("%g" % c for c in sorted(set(cfl), reverse=True)),
    ret[-1], res[0], res[-1]))
assert cfl[0] == 1000, cfl[0]
assert ret[-1] >= 1 and len(cuts) == ret[-1], (ret[-1], cuts)
assert all(abs(b / a - 0.1) < 1e-12 for a, b in cuts), cuts
assert ret == sorted(ret), "retries never decrease"
assert all(math.isfinite(r) for r in res) and res[-1] < res[0], (res[0], res[-1])
assert it[-1] == 40 and len(it) < 40, "the thrown-away iterations are not in the history"
PY

if run output.dir="$tmp/r0" numerics.retries=0; then
	fail "retries = 0: the run did not stop"
else
	grep -q "\(the residual of rho is NaN\|the sweeps diverged (lin_res [0-9.e+]* at CFL 1000)\): the solution diverged" "$tmp/err" &&
		echo "retries = 0: stops on the divergence" ||
		{ cat "$tmp/err"; fail "retries = 0: not the divergence message"; }
fi
if run output.dir="$tmp/r1" numerics.retries=1; then
	fail "retries = 1: the run did not stop"
else
	grep -q "tried 1 cuts of the CFL with a retry from the last good state (numerics.retries = 1)" "$tmp/err" &&
		grep -q "the CFL reached 1e+03 at most, retries (failed CFL -> CFL of the retry): 1e+03 -> 100; lin_res of the failed iteration [0-9.e+]*" "$tmp/err" &&
		echo "retries = 1: stops after one retry, saying so" ||
		{ cat "$tmp/err"; fail "retries = 1: the message does not say what was tried"; }
fi
finish
