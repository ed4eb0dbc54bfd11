#!/bin/sh
# SPDX-License-Identifier: MIT
# `fvstar surface` end to end: a gas at rest at uniform pressure p = 2 in a
# closed box of slip walls stays uniform, so after a run every wall point of
# every station has Cp = (p - 1/gamma) / (M^2 / 2) = 10.285714... exactly
# (M = 0.5); the cut of the box at y = eta * span is its x-z rectangle
# (chord 2, one closed curve); --exp writes the measured sections; the
# default output directory is OUT/surface; errors: no restart, bad
# stations, a station off the wall.
. "$top_srcdir/tests/cli/lib.sh"

uniform_box_case s
cat >>"$tmp/s.cfg" <<'CFG'
[partition]
blocks = 3
[output]
vtu = no
CFG
"$fv" run "$tmp/s.cfg" output.dir="$tmp/out" >/dev/null 2>"$tmp/run.err" || { cat "$tmp/run.err"; exit 1; }

exp="$top_srcdir/cases/onera_m6/onera_m6_exp_2308.dat"
"$fv" surface "$tmp/s.cfg" output.dir="$tmp/out" --stations 0.2,0.44 --span 1.5 --exp "$exp" --out "$tmp/s" \
	>"$tmp/out.txt" 2>"$tmp/err.txt" || { cat "$tmp/err.txt"; fail "surface"; }
for f in cp_eta0.20.csv cp_eta0.44.csv exp_eta0.20.csv exp_eta0.44.csv stations.csv surface.vtu; do
	[ -s "$tmp/s/$f" ] || fail "missing $f"
done
# surface.vtu in VTK's own reader: the box's 6 walls, Cp at every point and face
vpy=
for p in "${PYTHON3:-}" python3 /usr/bin/python3; do
	[ -n "$p" ] && "$p" -c 'import vtk' 2>/dev/null && { vpy=$p; break; }
done
if [ -n "$vpy" ]; then
	"$vpy" - "$tmp/s/surface.vtu" "$("$fv" mesh info "$tmp/box.su2" 2>/dev/null | sed -n 's/^faces: .*(boundary \([0-9]*\).*/\1/p')" <<'PY' ||
import os, sys, vtk
t = 1e-12 * float(os.environ.get("FV_TOL_SCALE", "1"))
r = vtk.vtkXMLUnstructuredGridReader()
r.SetFileName(sys.argv[1])
r.Update()
g = r.GetOutput()
assert g.GetNumberOfCells() == int(sys.argv[2]), (g.GetNumberOfCells(), sys.argv[2])
for a in (g.GetPointData().GetArray("cp"), g.GetCellData().GetArray("cp")):
    lo, hi = a.GetRange()
    assert abs(lo - 10.285714285714286) < t and abs(hi - 10.285714285714286) < t, (lo, hi)
types = {g.GetCellType(i) for i in range(g.GetNumberOfCells())}
assert types <= {5, 9} and types, types
print("surface.vtu: %d points, %d faces, Cp 10.2857 everywhere" % (g.GetNumberOfPoints(), g.GetNumberOfCells()))
PY
		fail "surface.vtu in VTK"
else
	echo "no python3 with vtk: surface.vtu not read back"
fi
for e in 0.20:0.3 0.44:0.66; do
	f="$tmp/s/cp_eta${e%:*}.csv"
	awk -F, -v y="${e#*:}" -v t="$(tol 1e-12)" '
		NR == 1 { ok = $0 == "x_over_c,z_over_c,cp,surface,x,y,z"; next }
		{ n++; d = $3 - 10.285714285714286; if (d < 0) d = -d; if (d > t) bad++
		  dy = $6 - y; if (dy < 0) dy = -dy; if (dy > t) bad++
		  if ($1 < -t || $1 > 1 + t || ($4 != "upper" && $4 != "lower")) bad++ }
		END { exit !(ok && n > 20 && !bad) }' "$f" || fail "$f: Cp, y or columns wrong"
done
awk -F, -v t="$(tol 1e-12)" 'NR > 1 { if ($3 != 1 || $10 < 2 - t || $10 > 2 + t || $6 != 0 || $8 != 2) bad++; n++ }
	END { exit !(n == 2 && !bad) }' "$tmp/s/stations.csv" || fail "stations.csv: $(cat "$tmp/s/stations.csv")"
[ "$(wc -l <"$tmp/s/exp_eta0.20.csv")" = 35 ] || fail "exp_eta0.20.csv: $(wc -l <"$tmp/s/exp_eta0.20.csv") lines"
[ "$(grep -c ',upper,' "$tmp/s/exp_eta0.44.csv")" = 22 ] || fail "exp_eta0.44.csv: upper taps"

# the default: the seven M6 stations in OUT/surface
"$fv" surface "$tmp/s.cfg" output.dir="$tmp/out" --span 1.5 >/dev/null 2>"$tmp/err.txt" || { cat "$tmp/err.txt"; fail "default"; }
[ "$(ls "$tmp/out/surface" | grep -c '^cp_eta')" = 7 ] || fail "default stations: $(ls "$tmp/out/surface")"

expect() { # code, message part, args...
	code=$1 part=$2; shift 2
	"$fv" surface "$@" >/dev/null 2>"$tmp/e.txt"
	rc=$?
	[ $rc = "$code" ] && grep -q -- "$part" "$tmp/e.txt" || fail "surface $*: exit $rc, $(cat "$tmp/e.txt")"
}
expect 1 "nowhere/restart.bin: cannot open" "$tmp/s.cfg" output.dir="$tmp/nowhere"
expect 2 "option --stations" "$tmp/s.cfg" output.dir="$tmp/out" --stations 0.2,0
expect 2 "the cut of the surface is empty" "$tmp/s.cfg" output.dir="$tmp/out" --stations 0.5 --span 4
expect 1 "x.dat: cannot open" "$tmp/s.cfg" output.dir="$tmp/out" --exp "$tmp/x.dat"
expect 2 "usage: fvstar surface" --span 2

[ $fails = 0 ] && echo "surface: all checks passed"
exit $((fails > 0))
