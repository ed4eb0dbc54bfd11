#!/bin/sh
# SPDX-License-Identifier: MIT
# `fvstar mesh gen bump`: TMR's bump-in-channel grid family. The coarsest
# grid (--level 5, 89 x 41 points) written as SU2 and read back by `fvstar
# mesh info`: 88 x 40 hexahedra, checks passed, the eight markers with their
# face counts (24 ahead of the wall, 40 on it, 24 behind) and areas, TMR's
# bounding box; in the file, every wall node on y = 0.05 sin^4(pi x / 0.9 -
# pi / 3) (0 outside 0.3 <= x <= 1.2) to 1e-12, a node at the crest (0.75,
# 0.05) and at the wall's ends (0, 0) and (1.5, 0), the top flat at y = 5;
# levels 2-4 have TMR's 705 x 321, 353 x 161, 177 x 81 points and nest (the
# nodes of each level are nodes of the next finer one, bit for bit); --cells
# mixed passes the checks with all four cell types; bad options are errors
# naming the problem. Run by `make check`.
. "$top_srcdir/tests/cli/lib.sh"

gen() {
	out=$1
	shift
	"$fv" mesh gen bump "$@" -o "$out" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "gen bump $*"; }
}

gen "$tmp/l5.su2" --level 5
"$fv" mesh info "$tmp/l5.su2" >"$tmp/info" 2>"$tmp/err" || { cat "$tmp/err"; fail "mesh info l5.su2"; }
grep -q '^checks: passed' "$tmp/info" || { cat "$tmp/info"; fail "level 5: checks failed"; }
[ "$(awk '$1 == "hexahedron" { print $2 }' "$tmp/info")" = 3520 ] || fail "level 5: not 88 x 40 = 3520 hexahedra"
grep -q '^bounding box: x \[-25, 26.5\] y \[0, 5\] z \[0, 0.1\]$' "$tmp/info" ||
	fail "level 5: bounding box $(grep '^bounding box' "$tmp/info")"
# marker:faces:area (the wall's is its length along the bump times the span)
check_markers "level 5" "$tmp/info" inflow:40:0.5 outflow:40:0.5 symmetry_front:24:2.5 wall:40:0.1508314605 \
	symmetry_back:24:2.5 top:88:5.15 side_zmin:3520:257.483155 side_zmax:3520:257.483155

# the nodes: the wall on TMR's bump, the crest and the wall's ends, a flat top
"$py" - "$tmp/l5.su2" <<'PY' || fail "level 5: node positions"
import math, sys
lines = open(sys.argv[1]).read().split("\n")
i = next(k for k, l in enumerate(lines) if l.startswith("NPOIN="))
pts = [tuple(map(float, l.split()[:2])) for l in lines[i + 1:i + 1 + int(lines[i].split()[1])]]
bump = lambda x: 0.05 * math.sin(math.pi * x / 0.9 - math.pi / 3) ** 4 if 0.3 <= x <= 1.2 else 0.0
floor = [(x, y) for x, y in pts if y < 0.06 and abs(y - bump(x)) < 1e-12]
wall = [(x, y) for x, y in floor if 0 <= x <= 1.5]
err = max(abs(y - bump(x)) for x, y in wall)
crest = [p for p in wall if abs(p[0] - 0.75) < 1e-12 and abs(p[1] - 0.05) < 1e-12]
ends = [p for p in wall if p == (0.0, 0.0) or p == (1.5, 0.0)]
top = [y for x, y in pts if y > 4]
print("level 5: %d floor nodes (2 x 89), %d wall nodes (2 x 41), max |y - bump(x)| %.1e, crest %s, ends %s, "
      "%d nodes at y = 5 (2 x 89)" % (len(floor), len(wall), err, crest[:1], sorted(set(ends)), top.count(5.0)))
ok = len(floor) == 2 * 89 and len(wall) == 2 * 41 and len(crest) == 2 and len(ends) == 4 and \
    top.count(5.0) == 2 * 89
sys.exit(0 if ok else 1)
PY

# TMR's family: sizes and nesting
for spec in 4:177:81 3:353:161 2:705:321; do
	l=${spec%%:*} rest=${spec#*:}
	gen "$tmp/l$l.su2" --level "$l"
	nx=${rest%:*} ny=${rest#*:}
	[ "$(sed -n 's/^NPOIN= *\([0-9]*\).*/\1/p' "$tmp/l$l.su2")" = $((2 * nx * ny)) ] ||
		fail "level $l: not 2 x $nx x $ny nodes"
	[ "$(sed -n 's/^NELEM= *\([0-9]*\).*/\1/p' "$tmp/l$l.su2" | head -1)" = $(((nx - 1) * (ny - 1))) ] ||
		fail "level $l: not $((nx - 1)) x $((ny - 1)) cells"
done
"$py" - "$tmp" <<'PY' || fail "levels 2-5 do not nest"
import sys
def nodes(level):
    lines = open("%s/l%d.su2" % (sys.argv[1], level)).read().split("\n")
    i = next(k for k, l in enumerate(lines) if l.startswith("NPOIN="))
    return set(tuple(l.split()[:3]) for l in lines[i + 1:i + 1 + int(lines[i].split()[1])])
finer = nodes(2)
for level in (3, 4, 5):
    coarse = nodes(level)
    missing = len(coarse - finer)
    print("level %d: %d nodes, %d not in level %d" % (level, len(coarse), missing, level - 1))
    if missing:
        sys.exit(1)
    finer = coarse
PY

"$fv" mesh gen bump --level 5 --cells mixed --check -o "$tmp/mixed.su2" >"$tmp/info" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "gen bump --cells mixed"; }
grep -q '^checks: passed' "$tmp/info" || fail "mixed: checks failed"
for t in tetrahedron pyramid prism hexahedron; do
	awk -v t="$t" '$1 == t { n = $2 } END { exit n > 0 ? 0 : 1 }' "$tmp/info" || fail "mixed: no $t"
done

bad_gen bump "must be multiples of 256" --level 9
bad_gen bump "each part needs a multiple of 4" --nx 21 --ny 9 --level 3
bad_gen bump "y1 must be in" --level 5 --y1 6
bad_gen bump "perturb must be 0" --level 5 --perturb 0.1
bad_gen bump "--nlead applies to gen plate only" --level 5 --nlead 8
bad_gen bump "--re applies to gen plate only" --level 5 --re 3e6
echo "ok: $(grep '^volume' "$tmp/info")"
finish
