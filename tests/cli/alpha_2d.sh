#!/bin/sh
# SPDX-License-Identifier: MIT
# A 2D mesh takes the angle of attack in its own plane: a small 2D SU2 mesh
# (a channel-like box of quadrilaterals over a wall with a bump, written
# here) run with alpha = 2 gives its lift along y (CL) equal, bit for bit,
# to the same mesh written as 3D (`fvstar mesh convert`) run with today's
# stand-in, beta = 2 (lift in CS): same CD, CL = CS and the whole history
# but for the swapped columns; the z force is 0 and the axes are said in
# the log and summary.json. A 3D mesh keeps alpha in the x-z plane (lift
# along z); beta on a 2D mesh is refused, naming alpha. Run by `make check`.
. "$top_srcdir/tests/cli/lib.sh"

"$py" - "$tmp/m2d.su2" <<'PY' || { echo "FAIL: writing the 2D mesh"; exit 1; }
import math, sys
nx, ny = 24, 8
def y_of(i, j):
    x = 4.0 * i / nx
    b = 0.1 * math.sin(math.pi * (x - 1.5)) ** 2 if 1.5 <= x <= 2.5 else 0.0
    return x, b + (2.0 - b) * j / ny
with open(sys.argv[1], "w") as f:
    f.write("NDIME= 2\nNELEM= %d\n" % (nx * ny))
    n = lambda i, j: j * (nx + 1) + i
    for j in range(ny):
        for i in range(nx):
            f.write("9 %d %d %d %d %d\n" % (n(i, j), n(i + 1, j), n(i + 1, j + 1), n(i, j + 1), j * nx + i))
    f.write("NPOIN= %d\n" % ((nx + 1) * (ny + 1)))
    for j in range(ny + 1):
        for i in range(nx + 1):
            x, y = y_of(i, j)
            f.write("%.17g %.17g %d\n" % (x, y, n(i, j)))
    f.write("NMARK= 2\nMARKER_TAG= wall\nMARKER_ELEMS= %d\n" % nx)
    for i in range(nx):
        f.write("3 %d %d\n" % (n(i, 0), n(i + 1, 0)))
    edges = [(n(i + 1, ny), n(i, ny)) for i in range(nx)]
    edges += [(n(0, j + 1), n(0, j)) for j in range(ny)] + [(n(nx, j), n(nx, j + 1)) for j in range(ny)]
    f.write("MARKER_TAG= farfield\nMARKER_ELEMS= %d\n" % len(edges))
    for a, b in edges:
        f.write("3 %d %d\n" % (a, b))
PY
"$fv" mesh convert "$tmp/m2d.su2" -o "$tmp/m3d.su2" >/dev/null 2>"$tmp/convert.err" ||
	{ echo "FAIL: mesh convert: $(tail -1 "$tmp/convert.err")"; exit 1; }
[ "$(head -1 "$tmp/m3d.su2")" = "NDIME= 3" ] || fail "mesh convert wrote $(head -1 "$tmp/m3d.su2")"
cat >"$tmp/c.cfg" <<'CFG'
[flow]
mach = 0.5
[numerics]
iterations = 30
residual_drop = 0
[bc]
wall = wall
farfield = farfield
symmetry_zmin = symmetry
symmetry_zmax = symmetry
[forces]
markers = wall
[partition]
blocks = 2
[output]
progress_every = 0
CFG
# run NAME MESH KEY=VALUE...
run() {
	name=$1 mesh=$2
	shift 2
	"$fv" run "$tmp/c.cfg" mesh.file="$tmp/$mesh" output.dir="$tmp/$name" "$@" >/dev/null 2>"$tmp/$name.err"
}
run a2d m2d.su2 flow.alpha=2 || fail "2D, alpha = 2: $(tail -1 "$tmp/a2d.err")"
run b3d m3d.su2 flow.beta=2 || fail "3D, beta = 2: $(tail -1 "$tmp/b3d.err")"
run a3d m3d.su2 flow.alpha=2 || fail "3D, alpha = 2: $(tail -1 "$tmp/a3d.err")"
grep -q "^fvstar: axes: lift along y, drag along x (2D mesh" "$tmp/a2d.err" || fail "2D: no axes line in the log"
grep -q "^fvstar: axes: lift along z, drag along x, side force along y (3D mesh" "$tmp/a3d.err" ||
	fail "3D: no axes line in the log"
"$py" - "$tmp" <<'PY' || fail "2D alpha against 3D beta: see above"
import csv, json, sys
t = sys.argv[1]
s = {k: json.load(open("%s/%s/summary.json" % (t, k))) for k in ("a2d", "b3d", "a3d")}
a, b, c = (s[k]["forces"] for k in ("a2d", "b3d", "a3d"))
assert a["axes"].startswith("lift along y, drag along x (2D mesh"), a["axes"]
assert s["a2d"]["case"]["flow"]["axes"] == a["axes"], s["a2d"]["case"]["flow"]
assert c["axes"].startswith("lift along z, drag along x, side force along y (3D mesh"), c["axes"]
# bit for bit: the 2D lift is the stand-in's side force, the drag the same
assert a["CL"] == b["CS"] and a["CD"] == b["CD"], (a, b)
assert abs(a["CL"]) > 1e-3, ("no lift", a)
assert abs(a["CS"]) <= 1e-12 and abs(b["CL"]) <= 1e-12, ("z force", a["CS"], b["CL"])
# the 3D convention is kept: alpha turns the flow towards +z there
assert c["CL"] != a["CL"], (c, a)
def rows(k):
    return list(csv.DictReader(open("%s/%s/history.csv" % (t, k))))
ha, hb = rows("a2d"), rows("b3d")
assert len(ha) == len(hb) == 30, (len(ha), len(hb))
for ra, rb in zip(ha, hb):
    rb["CL"], rb["CS"] = rb["CS"], rb["CL"]
    for k in ra:
        if k != "wall_s":
            assert ra[k] == rb[k], (ra["iteration"], k, ra[k], rb[k])
print("ok: 2D alpha = 2: CL %r CD %r, the 3D beta = 2 stand-in's CS %r CD %r; 3D alpha = 2: CL %r"
      % (a["CL"], a["CD"], b["CS"], b["CD"], c["CL"]))
PY
# beta on a 2D mesh: refused, naming alpha
if run beta2d m2d.su2 flow.beta=2; then
	fail "2D, beta = 2: exit status 0"
else
	grep -q "\[flow\] beta = 2 on a 2D mesh .*set alpha = 2 and beta = 0" "$tmp/beta2d.err" ||
		fail "2D, beta = 2: $(tail -1 "$tmp/beta2d.err")"
fi
finish
