#!/bin/sh
# SPDX-License-Identifier: MIT
# Gmsh round trip: tests/data/box.geo and mixed.geo meshed by Gmsh as SU2,
# MSH 2.2 and MSH 4.1 give the same cells, markers and volume in `fvstar
# mesh info`. Skips (exit 77) without Gmsh. Run by `make check`.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
# GMSH set but empty (configure found none): skip; unset: look on PATH
[ -n "${GMSH+set}" ] || GMSH=$(command -v gmsh 2>/dev/null) || GMSH=
if [ -z "$GMSH" ] || ! "$GMSH" --version >/dev/null 2>&1; then
	echo "SKIP: no gmsh (set GMSH)"
	exit 77
fi
. "$top_srcdir/tests/cli/lib.sh"
data="$top_srcdir/tests/data"

# roundtrip NAME: mesh NAME.geo three times, compare the summaries
roundtrip() {
	name=$1
	for fmt in su2 msh22 msh41; do
		case $fmt in su2) out="$tmp/$name.su2" ;; *) out="$tmp/$name-$fmt.msh" ;; esac
		if ! "$GMSH" -3 -nt 1 -v 1 "$data/$name.geo" -format "$fmt" -o "$out" >"$tmp/gmsh.log" 2>&1; then
			fail "gmsh $name.geo -format $fmt"
			cat "$tmp/gmsh.log"
			continue
		fi
		if ! mesh_summary "$out" >"$tmp/$name.$fmt.sum"; then
			fail "fvstar mesh info on $name ($fmt)"
			continue
		fi
		echo "ok: $name ($fmt):" $(grep -e '^cells' -e '^markers' -e '^volume' "$tmp/$name.$fmt.sum")
	done
	for fmt in msh22 msh41; do
		[ -s "$tmp/$name.su2.sum" ] && [ -s "$tmp/$name.$fmt.sum" ] || continue
		if ! cmp -s "$tmp/$name.su2.sum" "$tmp/$name.$fmt.sum"; then
			fail "$name: $fmt differs from su2"
			diff "$tmp/$name.su2.sum" "$tmp/$name.$fmt.sum"
		fi
	done
	grep -q 'min-positive 1' "$tmp/$name.msh41.sum" 2>/dev/null ||
		fail "$name: smallest volume not positive"
}

roundtrip box
grep -q '^marker xmin faces [1-9]' "$tmp/box.msh41.sum" 2>/dev/null || fail "box: no xmin faces"
[ "$(grep -c '^marker ' "$tmp/box.msh41.sum" 2>/dev/null)" = 6 ] || fail "box: not 6 markers"

roundtrip mixed
for t in tetrahedron pyramid prism hexahedron; do
	grep -q "^type $t [1-9]" "$tmp/mixed.msh41.sum" 2>/dev/null || fail "mixed: no $t cells"
done

echo "$fails failure(s)"
finish
