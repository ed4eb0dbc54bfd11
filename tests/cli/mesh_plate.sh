#!/bin/sh
# SPDX-License-Identifier: MIT
# `fvstar mesh gen plate`: TMR's coarsest flat-plate grid (--level 5, 35 x 25
# points) written as SU2 and read back by `fvstar mesh info`: 34 x 24
# hexahedra, checks passed, the seven markers with their face counts (6
# ahead of the plate, 28 on it) and areas, TMR's bounding box, a node at
# x = 0 on y = 0; a laminar variant (--length 1 --lead 0.25 --height 0.5
# --cells prism, --nx --ny in points) gives 2 (nx-1)(ny-1) prisms with its
# own box; 5 iterations of a uniform stream on the TMR grid keep it
# uniform; bad options are errors naming the problem, and the plate's
# options are refused by the other commands. Run by `make check`.
. "$top_srcdir/tests/cli/lib.sh"

"$fv" mesh gen plate --level 5 -o "$tmp/tmr.su2" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "gen plate --level 5"; }
"$fv" mesh info "$tmp/tmr.su2" >"$tmp/info" 2>"$tmp/err" || { cat "$tmp/err"; fail "mesh info tmr.su2"; }
grep -q '^checks: passed' "$tmp/info" || { cat "$tmp/info"; fail "tmr: checks failed"; }
[ "$(awk '$1 == "hexahedron" { print $2 }' "$tmp/info")" = 816 ] || fail "tmr: not 34 x 24 = 816 hexahedra"
grep -q '^bounding box: x \[-0.33333, 2\] y \[0, 1\] z \[0, 0.1\]$' "$tmp/info" ||
	fail "tmr: bounding box $(grep '^bounding box' "$tmp/info")"
# marker:faces:area
check_markers tmr "$tmp/info" inflow:24:0.1 outflow:24:0.1 symmetry_front:6:0.033333 wall:28:0.2 \
	top:34:0.233333 side_zmin:816:2.33333 side_zmax:816:2.33333
# the leading edge (x = 0, y = 0) is a point of the file
awk '/^NPOIN=/ { n = $2; next } n > 0 { if ($1 == 0 && $2 == 0) hit = 1; n-- } END { exit hit ? 0 : 1 }' \
	"$tmp/tmr.su2" || fail "tmr: no point at x = 0, y = 0"

"$fv" mesh gen plate --cells prism --nx 41 --ny 21 --length 1 --lead 0.25 --height 0.5 --span 0.02 --y1 1e-3 \
	--check -o "$tmp/lam.su2" >"$tmp/info" 2>"$tmp/err" || { cat "$tmp/err"; fail "gen plate laminar"; }
[ "$(awk '$1 == "prism" { print $2 }' "$tmp/info")" = 1600 ] || fail "laminar: not 2 x 40 x 20 prisms"
grep -q '^bounding box: x \[-0.25, 1\] y \[0, 0.5\] z \[0, 0.02\]$' "$tmp/info" ||
	fail "laminar: bounding box $(grep '^bounding box' "$tmp/info")"
grep -q '^checks: passed' "$tmp/info" || fail "laminar: checks failed"

bad_gen plate "must be multiples of 64" --level 7
bad_gen plate "both set the wall spacing" --level 5 --y1 1e-5 --re 1e6
bad_gen plate "y1 must be in" --level 5 --y1 2
bad_gen plate "perturb must be 0" --level 5 --perturb 0.1
# the solver keeps a uniform Mach 0.2 stream uniform on the stretched cells
# (aspect ratios up to 1e4): far field around, symmetry ahead, slip wall
cat >"$tmp/plate.cfg" <<EOF
[mesh]
file = $tmp/tmr.su2
[flow]
mach = 0.2
[numerics]
iterations = 5
residual_drop = 0
[bc]
inflow = farfield
outflow = farfield
top = farfield
symmetry_front = symmetry
wall = wall
side_zmin = symmetry
side_zmax = symmetry
EOF
if "$fv" run "$tmp/plate.cfg" output.dir="$tmp/run" output.progress_every=0 >"$tmp/run.log" 2>&1; then
	awk -F, -v tol="$(tol 1e-12)" 'NR > 1 { for (i = 4; i <= 8; i++) if (!($i + 0 < tol)) bad = 1 }
		END { exit NR > 1 && !bad ? 0 : 1 }' "$tmp/run/history.csv" ||
		{ tail -2 "$tmp/run/history.csv"; fail "free stream not kept on the plate mesh"; }
else
	tail -5 "$tmp/run.log"
	fail "fvstar run on the plate mesh"
fi

# the plate's options are not silently ignored elsewhere
"$fv" mesh gen box --level 2 -o "$tmp/box.su2" >"$tmp/err" 2>&1 && fail "gen box accepted --level"
grep -q -- "--level applies to gen plate and bump only" "$tmp/err" || { cat "$tmp/err"; fail "gen box --level: message"; }
echo "ok: $(grep '^volume' "$tmp/info")"
finish
