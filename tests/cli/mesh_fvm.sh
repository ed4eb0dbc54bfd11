#!/bin/sh
# SPDX-License-Identifier: MIT
# fvstar's binary mesh format and CGNS output through `fvstar mesh convert`:
# a mixed mesh (tets, pyramids, prisms, hexahedra), a 2D one (triangles and
# quadrilaterals) and a refined one go SU2 -> .fvm -> SU2 and SU2 -> .cgns
# -> SU2 to the very file they came from (same nodes, elements, markers and
# orders), with the same `mesh info`; a 20-iteration run of the wedge from
# the .fvm file ends in the SU2 run's state and history bit for bit. A
# truncated file, a flipped byte, a wrong version and an empty file are
# each refused with the file's name (and the damaged section), exit 1, no
# signal.
. "$top_srcdir/tests/cli/lib.sh"

cgns=1
"$fv" mesh gen box -n 1 -o "$tmp/one.su2" >/dev/null 2>&1 || fail "gen box"
if ! "$fv" mesh convert "$tmp/one.su2" -o "$tmp/one.cgns" >/dev/null 2>"$tmp/one.err"; then
	grep -q "built without CGNS" "$tmp/one.err" || fail "CGNS output failed: $(cat "$tmp/one.err")"
	[ -e "$tmp/one.cgns" ] && fail "a failed .cgns write left the file"
	cgns=0
fi

# through EXT: SU2 -> NAME.EXT -> SU2 is the same file; mesh info the same
through() {
	name=$1 ext=$2
	"$fv" mesh convert "$tmp/$name.su2" -o "$tmp/$name.$ext" >/dev/null 2>"$tmp/err" ||
		{ fail "$name -> .$ext: $(tail -1 "$tmp/err")"; return; }
	"$fv" mesh convert "$tmp/$name.$ext" -o "$tmp/$name-$ext.su2" >/dev/null 2>"$tmp/err" ||
		{ fail "$name.$ext -> .su2: $(tail -1 "$tmp/err")"; return; }
	cmp -s "$tmp/$name.su2" "$tmp/$name-$ext.su2" || fail "$name: SU2 -> .$ext -> SU2 differs"
	"$fv" mesh info "$tmp/$name.su2" 2>/dev/null | sed 1d >"$tmp/a"
	"$fv" mesh info "$tmp/$name.$ext" 2>/dev/null | sed 1d >"$tmp/b"
	[ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b" || fail "$name: mesh info of .$ext differs"
	echo "ok: $name through .$ext ($(wc -c <"$tmp/$name.su2") bytes SU2, $(wc -c <"$tmp/$name.$ext") .$ext)"
}

"$fv" mesh gen box --cells mixed --nx 4 --ny 3 --nz 3 --perturb 0.2 -o "$tmp/mixed.su2" >/dev/null 2>&1 ||
	fail "gen mixed box"
"$fv" mesh info "$tmp/mixed.su2" 2>/dev/null >"$tmp/info"
for t in tetrahedron pyramid prism hexahedron; do
	grep -q "^  $t  *[1-9]" "$tmp/info" || fail "mixed box: no $t cells"
done
"$fv" mesh refine "$tmp/mixed.su2" -o "$tmp/fine.su2" >/dev/null 2>&1 || fail "refine"
cat >"$tmp/sq2d.su2" <<'SU2'
NDIME= 2
NELEM= 3
9 0 1 4 3 0
5 1 2 5 1
5 1 4 5 2
NPOIN= 6
0 0 0
1 0 1
2 0 2
0 1 3
1 1 4
2 1 5
NMARK= 2
MARKER_TAG= bottom
MARKER_ELEMS= 2
3 0 1
3 1 2
MARKER_TAG= rest
MARKER_ELEMS= 4
3 2 5
3 5 4
3 4 3
3 3 0
SU2
# the 2D file itself is not what comes back (the extruded 3D mesh is):
# compare with its own conversion to SU2
"$fv" mesh convert "$tmp/sq2d.su2" -o "$tmp/sq.su2" >/dev/null 2>&1 || fail "2D -> 3D SU2"
for name in mixed fine sq; do
	through "$name" fvm
	[ "$cgns" = 1 ] && through "$name" cgns
done
# the 2D mesh's .fvm keeps the extrusion: --span applies to it
"$fv" mesh convert "$tmp/sq2d.su2" -o "$tmp/sq2d.fvm" >/dev/null 2>&1 || fail "2D -> .fvm"
"$fv" mesh info "$tmp/sq2d.fvm" --span 0.5 2>/dev/null | grep -q 'z \[0, 0.5\]' || fail "2D .fvm: --span 0.5"

# the solver from either file: the same bits
wedge_case
"$fv" mesh convert "$tmp/w.su2" -o "$tmp/w.fvm" >/dev/null 2>&1 || fail "wedge -> .fvm"
for f in su2 fvm; do
	"$fv" run "$tmp/w.cfg" mesh.file="$tmp/w.$f" mesh.format=$f output.dir="$tmp/run_$f" numerics.iterations=20 \
		numerics.residual_drop=0 output.progress_every=0 output.vtu=no partition.blocks=2 \
		>/dev/null 2>"$tmp/run_$f.err" || { cat "$tmp/run_$f.err"; fail "run from .$f"; }
done
a=$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/run_su2" 2>/dev/null)
b=$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/run_fvm" 2>/dev/null)
[ -n "$a" ] && [ "$a" = "$b" ] || fail "run from .fvm: digest $b, from .su2 $a"
echo "runs from .su2 and .fvm: digest $a"

# damaged files: refused (exit 1, no signal), naming the file and what
refused() { # file, part of the message
	"$fv" mesh info "$1" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" = 1 ] || fail "$1: exit $rc, expected 1"
	grep -q "$1" "$tmp/err" && grep -q "$2" "$tmp/err" || fail "$1: message '$(cat "$tmp/err")' lacks '$2'"
}
f=$tmp/w.fvm
size=$(wc -c <"$f")
head -c $((size / 2)) "$f" >"$tmp/cut.fvm"
refused "$tmp/cut.fvm" "truncated: the header states $size bytes, the file has $((size / 2))"
head -c 60 "$f" >"$tmp/short.fvm"
refused "$tmp/short.fvm" "truncated: 60 bytes"
: >"$tmp/empty.fvm"
refused "$tmp/empty.fvm" "not an fvstar binary mesh"
cp "$f" "$tmp/flip.fvm"
# a byte in the middle of the file: the cell connectivity of this mesh
printf '\377' | dd of="$tmp/flip.fvm" bs=1 seek=$((size * 3 / 5)) conv=notrunc 2>/dev/null
refused "$tmp/flip.fvm" "section [A-Z_]* (offset [0-9]*, [0-9]* bytes): checksum mismatch"
cp "$f" "$tmp/v2.fvm"
printf '\002' | dd of="$tmp/v2.fvm" bs=1 seek=12 conv=notrunc 2>/dev/null
refused "$tmp/v2.fvm" "format version 2; this fvstar reads version 1"
cp "$f" "$tmp/bo.fvm"
printf '\001\002\003\004' | dd of="$tmp/bo.fvm" bs=1 seek=8 conv=notrunc 2>/dev/null
refused "$tmp/bo.fvm" "other byte order"
# a text file named .fvm, and an .fvm under another name (found by contents)
cp "$tmp/w.su2" "$tmp/text.fvm"
refused "$tmp/text.fvm" "not an fvstar binary mesh"
cp "$f" "$tmp/w.mesh"
"$fv" mesh info "$tmp/w.mesh" 2>/dev/null | grep -q '^checks: passed' || fail ".fvm contents under another name"
# unknown output extension: refused before anything is written
"$fv" mesh convert "$tmp/w.su2" -o "$tmp/w.xyz" >/dev/null 2>"$tmp/err" && fail "convert to .xyz accepted"
grep -q "unknown mesh extension '.xyz' (use .su2, .fvm, .cgns or .vtu)" "$tmp/err" || fail ".xyz: $(cat "$tmp/err")"

echo "$fails failure(s)"
finish
