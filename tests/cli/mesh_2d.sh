#!/bin/sh
# SPDX-License-Identifier: MIT
# 2D SU2 meshes: cases/naca0012/naca0012.geo meshed by Gmsh as SU2 NDIME= 2
# (triangles, then recombined into quadrilaterals), extruded by fvstar:
# prisms = triangles, hexahedra = quadrilaterals, checks passed (positive
# volumes, closed cells), markers airfoil farfield symmetry_zmin
# symmetry_zmax, the 2D line of mesh info; then 40 iterations of the
# Mach 0.5 case at 2 degrees: finite residuals, no z-momentum (residual
# and z force ~0: the symmetry planes hold), lift (CL) towards +y. Skips (77)
# without Gmsh. Run by `make check`.
. "$top_srcdir/tests/cli/lib.sh"
[ -n "${GMSH+set}" ] || GMSH=$(command -v gmsh 2>/dev/null) || GMSH=
if [ -z "$GMSH" ] || ! "$GMSH" --version >/dev/null 2>&1; then
	echo "SKIP: no gmsh (set GMSH)"
	exit 77
fi
case_dir="$top_srcdir/cases/naca0012"

for quads in 0 1; do
	m="$tmp/naca_q$quads.su2"
	if ! "$GMSH" -2 -nt 1 -v 1 -setnumber sf 2 -setnumber quads $quads "$case_dir/naca0012.geo" -format su2 \
		-o "$m" >"$tmp/gmsh.log" 2>&1; then
		fail "gmsh naca0012.geo quads=$quads"
		cat "$tmp/gmsh.log"
		continue
	fi
	[ "$(head -1 "$m")" = "NDIME= 2" ] || fail "gmsh wrote $(head -1 "$m"), not NDIME= 2"
	tri=$(awk '/^NELEM=/ { n = $2; next } n > 0 { if ($1 == 5) c++; n-- } END { print c + 0 }' "$m")
	quad=$(awk '/^NELEM=/ { n = $2; next } n > 0 { if ($1 == 9) c++; n-- } END { print c + 0 }' "$m")
	"$fv" mesh info "$m" >"$tmp/info" 2>"$tmp/err" || { fail "mesh info $m: $(cat "$tmp/err")"; continue; }
	prisms=$(awk '$1 == "prism" { print $2 }' "$tmp/info")
	hexes=$(awk '$1 == "hexahedron" { print $2 }' "$tmp/info")
	others=$(awk '$1 == "tetrahedron" || $1 == "pyramid" { s += $2 } END { print s + 0 }' "$tmp/info")
	[ "$prisms" = "$tri" ] && [ "$hexes" = "$quad" ] && [ "$others" = 0 ] ||
		fail "quads=$quads: $tri triangles, $quad quadrilaterals -> $prisms prisms, $hexes hexahedra, $others others"
	[ "$quads" = 0 ] || [ "$quad" -gt "$tri" ] || fail "quads=1: only $quad quadrilaterals"
	grep -q '^checks: passed' "$tmp/info" || fail "quads=$quads: checks failed"
	grep -q '^2D mesh: extruded in z over a span of 1, symmetry markers symmetry_zmin symmetry_zmax$' "$tmp/info" ||
		fail "quads=$quads: no 2D line in mesh info"
	for mk in airfoil farfield symmetry_zmin symmetry_zmax; do
		grep -q "^  $mk " "$tmp/info" || fail "quads=$quads: no marker $mk"
	done
	# the symmetry planes: one face per cell each, area = the 2D area
	n=$((tri + quad))
	awk -v n="$n" '$1 ~ /^symmetry_z/ && $3 != n { bad = 1 } END { exit bad }' "$tmp/info" ||
		fail "quads=$quads: symmetry markers do not have $n faces"
	echo "ok: quads=$quads: $tri triangles + $quad quadrilaterals -> $prisms prisms + $hexes hexahedra," \
		"$(grep '^volume' "$tmp/info")"
done
"$fv" mesh info "$tmp/naca_q0.su2" --span 0.5 2>/dev/null | grep -q '^bounding box: .* z \[0, 0.5\]' ||
	fail "--span 0.5 not applied"

# 40 iterations of the case on the triangle mesh
"$fv" run "$case_dir/naca0012.cfg" mesh.file="$tmp/naca_q0.su2" numerics.iterations=40 numerics.residual_drop=0 \
	output.dir="$tmp/run" output.progress_every=0 >"$tmp/run.log" 2>&1 || {
	fail "fvstar run naca0012.cfg"
	tail -5 "$tmp/run.log"
}
if [ -f "$tmp/run/summary.json" ]; then
	"$py" - "$tmp/run/summary.json" <<'PY' || fail "NACA 0012 run: see above"
import json, math, sys
s = json.load(open(sys.argv[1]))
r, f = s["final_residuals"], s["forces"]
assert s["iterations"] == 40, s["iterations"]
assert all(math.isfinite(x) for x in r) and all(math.isfinite(f[k]) for k in ("CD", "CS", "CL")), (r, f)
# z momentum: residual and force at roundoff against the other components
assert abs(r[3]) <= 1e-12 * max(abs(r[1]), abs(r[2])), ("z-momentum residual", r)
assert abs(f["CS"]) <= 1e-12, ("z force", f["CS"])
# lift along y (a 2D mesh: alpha = 2 deg turns the flow in the x-y plane)
assert f["CL"] > 0, ("lift", f["CL"])
assert f["axes"].startswith("lift along y, drag along x (2D mesh"), f["axes"]
print("ok: 40 iterations: residuals", ["%.3g" % x for x in r], "CL %.4f CD %.4f CS %.1e" % (f["CL"], f["CD"], f["CS"]))
PY
fi
finish
