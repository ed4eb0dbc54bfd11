#!/bin/sh
# SPDX-License-Identifier: MIT
# `fvstar mesh` on bad input: one clear message naming file, line, option
# or cell, a non-zero exit, no crash, and no partial output file.
# Run by `make check` (needs $top_builddir).
set -u
fv="$top_builddir/fvstar"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# expect CODE PATTERN -- command...
expect() {
	code=$1 pattern=$2
	shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" != "$code" ] || ! grep -q -- "$pattern" "$tmp/err"; then
		echo "FAIL: $* -> exit $rc (want $code), stderr:"; cat "$tmp/err"
		echo "      expected: $pattern"
		fails=$((fails + 1))
	else
		echo "ok: $* -> $(head -1 "$tmp/err")"
	fi
}

cp "$top_srcdir/tests/data/hex1.su2" "$tmp/good.su2"   # one hexahedron, one marker

sed 's/^1 1 1$/1 nan 1/' "$tmp/good.su2" >"$tmp/nan.su2"
sed 's/^12 0 1 2 3 4 5 6 7$/12 4 5 6 7 0 1 2 3/' "$tmp/good.su2" >"$tmp/inverted.su2"
sed '/^9 4 5 6 7$/d; s/MARKER_ELEMS= 6/MARKER_ELEMS= 5/' "$tmp/good.su2" >"$tmp/unmarked.su2"
sed 's/^12 0 1 2 3 4 5 6 7$/12 0 1 2 3 4 5 6 17/' "$tmp/good.su2" >"$tmp/range.su2"
sed 's/^12 0 1/15 0 1/' "$tmp/good.su2" >"$tmp/type.su2"
head -c 150 "$tmp/good.su2" >"$tmp/truncated.su2"
printf '$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 1000000 1 1000000\n' >"$tmp/truncated.msh"
printf 'hello\n' >"$tmp/junk.txt"

expect 0 "" -- "$fv" mesh info "$tmp/good.su2"
expect 1 "nan.su2:11: point coordinate is not finite" -- "$fv" mesh info "$tmp/nan.su2"
expect 1 "inverted.su2: element 0 (hexahedron.*inverted" -- "$fv" mesh info "$tmp/inverted.su2"
expect 1 "unmarked.su2: boundary face (nodes 4 5 6 7) of element 0 is under no marker" -- "$fv" mesh info "$tmp/unmarked.su2"
expect 1 "range.su2:3: hexahedron: node id 17 out of range" -- "$fv" mesh info "$tmp/range.su2"
expect 1 "type.su2:3: unknown element type 15" -- "$fv" mesh info "$tmp/type.su2"
expect 1 "truncated.su2:15: truncated: MARKER_ELEMS= 6 records need at least 48 bytes, but the file ends at line 17" -- "$fv" mesh info "$tmp/truncated.su2"
expect 1 "truncated.msh:" -- "$fv" mesh info "$tmp/truncated.msh"
expect 1 "junk.txt: unknown mesh format" -- "$fv" mesh info "$tmp/junk.txt"
expect 1 "missing.su2: cannot open" -- "$fv" mesh info "$tmp/missing.su2"
expect 2 "unknown command 'mseh'" -- "$fv" mseh info x
expect 2 "unknown mesh sub-command 'inf'" -- "$fv" mesh inf x
expect 2 "unknown option '--bogus'" -- "$fv" mesh info --bogus "$tmp/good.su2"
expect 2 "option --nx: 'x' is not an integer" -- "$fv" mesh gen box --nx x -o "$tmp/a.su2"
expect 2 "option --cells: 'cube' is not hex, tet, prism or mixed" -- "$fv" mesh gen box --cells cube -o "$tmp/a.su2"
expect 2 "option --perturb: '0.9' is not a number in" -- "$fv" mesh gen box --perturb 0.9 -o "$tmp/a.su2"
expect 2 "unknown kind 'sphere'" -- "$fv" mesh gen sphere -o "$tmp/a.su2"
expect 2 "missing -o OUT" -- "$fv" mesh convert "$tmp/good.su2"
expect 2 "unknown mesh extension" -- "$fv" mesh convert "$tmp/good.su2" -o "$tmp/good.stl"
expect 1 "$tmp/nodir/out.su2" -- "$fv" mesh convert "$tmp/good.su2" -o "$tmp/nodir/out.su2"

# a failed conversion leaves no output behind, a good one writes it
expect 1 "inverted" -- "$fv" mesh convert "$tmp/inverted.su2" -o "$tmp/inverted-out.su2"
[ ! -e "$tmp/inverted-out.su2" ] || { echo "FAIL: output written for an invalid mesh"; fails=$((fails + 1)); }
expect 0 "" -- "$fv" mesh convert "$tmp/good.su2" -o "$tmp/good-out.su2"
[ -s "$tmp/good-out.su2" ] || { echo "FAIL: no output for a valid mesh"; fails=$((fails + 1)); }
ls "$tmp" | grep -q '\.tmp' && { echo "FAIL: temporary files left: $(ls "$tmp")"; fails=$((fails + 1)); }

# Issue 28: what a hostile or damaged file used to get through silently or
# with the wrong reason. Each one refused, naming the file, the line(s)
# and the cause.
awk '/^NMARK= 1$/ { print "NMARK= 2"; next }
     /^MARKER_ELEMS= 6$/ { print "MARKER_ELEMS= 3"; n = 0; next }
     /^9 / && ++n == 4 { print "MARKER_TAG= all"; print "MARKER_ELEMS= 3" }
     { print }' "$tmp/good.su2" >"$tmp/dup.su2"
grep -c "MARKER_TAG= all" "$tmp/dup.su2" | grep -qx 2 || { echo "FAIL: dup.su2 not made"; fails=$((fails + 1)); }
expect 1 "dup.su2:19: marker name 'all' comes twice: MARKER_TAG= all at line 14 and at line 19" -- \
	"$fv" mesh info "$tmp/dup.su2"
sed 's/^NPOIN= 8$/NPOIN= 1000000000000/' "$tmp/good.su2" >"$tmp/npoin_big.su2"
expect 1 "npoin_big.su2:4: NPOIN= 1000000000000 is beyond the limit of 2147483646" -- "$fv" mesh info "$tmp/npoin_big.su2"
sed 's/^NPOIN= 8$/NPOIN= -5/' "$tmp/good.su2" >"$tmp/npoin_neg.su2"
expect 1 "npoin_neg.su2:4: NPOIN= -5 is negative" -- "$fv" mesh info "$tmp/npoin_neg.su2"
sed 's/^NELEM= 1$/NELEM= 99999999999999999999/' "$tmp/good.su2" >"$tmp/nelem_huge.su2"
expect 1 "nelem_huge.su2:2: NELEM= 99999999999999999999 is beyond the limit of a 64-bit integer" -- \
	"$fv" mesh info "$tmp/nelem_huge.su2"
sed 's/^MARKER_ELEMS= 6$/MARKER_ELEMS= -1/' "$tmp/good.su2" >"$tmp/belem_neg.su2"
expect 1 "belem_neg.su2:15: MARKER_ELEMS= -1 is negative" -- "$fv" mesh info "$tmp/belem_neg.su2"
# cut in the element section, before NPOIN=: truncated, not "no NPOIN="
printf 'NDIME= 3\nNELEM= 2\n12 0 1 2 3 4 5 6 7\n12 0 1 2\n' >"$tmp/cut_elem.su2"
expect 1 "cut_elem.su2:4: truncated: the file ends at line 4, before hexahedron" -- "$fv" mesh info "$tmp/cut_elem.su2"
printf 'NDIME= 3\nNELEM= 2\n12 0 1 2 3 4 5 6 7\n' >"$tmp/cut_elem2.su2"
expect 1 "cut_elem2.su2:3: truncated: the file ends at line 3, before element 2 of NELEM= 2" -- \
	"$fv" mesh info "$tmp/cut_elem2.su2"
printf 'NDIME= 3\nNELEM= 1\n12 0 1 2 3 4 5 6 7\n' >"$tmp/cut_after.su2"
expect 1 "cut_after.su2: missing NPOIN= section: the file ends at line 3 without one (truncated" -- \
	"$fv" mesh info "$tmp/cut_after.su2"
# a corrupt count is a wrong count when the next section follows
sed 's/^NELEM= 1$/NELEM= 500/' "$tmp/good.su2" >"$tmp/nelem_wrong.su2"
expect 1 "nelem_wrong.su2:2: NELEM= 500 is more records than the file holds before the next section (NPOIN= at line 4): the count is wrong" -- \
	"$fv" mesh info "$tmp/nelem_wrong.su2"
sed 's/^1 1 1$/1 1e308 1/' "$tmp/good.su2" >"$tmp/coord_big.su2"
expect 1 "coord_big.su2:11: point coordinate 1e+308 is beyond the limit of 1e+12 in absolute value" -- \
	"$fv" mesh info "$tmp/coord_big.su2"
sed 's/^1 1 1$/1 inf 1/' "$tmp/good.su2" >"$tmp/coord_inf.su2"
expect 1 "coord_inf.su2:11: point coordinate is not finite ('inf')" -- "$fv" mesh info "$tmp/coord_inf.su2"

# Gmsh: two physical surfaces of one name; a tag count beyond its line;
# a parametric block without its parametric coordinates
gmsh_nodes='$Nodes
1 8 1 8
3 1 0 8
1
2
3
4
5
6
7
8
0 0 0
1 0 0
1 1 0
0 1 0
0 0 1
1 0 1
1 1 1
0 1 1
$EndNodes'
cat >"$tmp/dup.msh" <<MSH
\$MeshFormat
4.1 0 8
\$EndMeshFormat
\$PhysicalNames
2
2 1 "wall"
2 2 "wall"
\$EndPhysicalNames
\$Entities
0 0 2 1
1 0 0 0 1 1 0 1 1 0
2 0 0 1 1 1 1 1 2 0
1 0 0 0 1 1 1 0 0
\$EndEntities
$gmsh_nodes
\$Elements
3 7 1 7
2 1 3 1
1 1 2 3 4
2 2 3 5
2 5 6 7 8
3 1 2 6 5
4 2 3 7 6
5 3 4 8 7
6 4 1 5 8
3 1 5 1
7 1 2 3 4 5 6 7 8
\$EndElements
MSH
expect 1 "dup.msh:7: marker name 'wall' comes twice: physical surface 1 \"wall\" (line 6) and physical surface 2 \"wall\" (line 7)" -- \
	"$fv" mesh info "$tmp/dup.msh"
printf '$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n$Elements\n2\n1 15 2000000 1 1 1\n2 15 2 1 1 1\n$EndElements\n' \
	>"$tmp/tags.msh"
expect 1 "tags.msh:10: element 1: 2000000 tags, more than the rest of its line holds" -- "$fv" mesh info "$tmp/tags.msh"
sed 's/^3 1 0 8$/3 1 1 8/' "$tmp/dup.msh" >"$tmp/param.msh"
expect 1 "param.msh:26: parametric node: the line ends before its parametric coordinate u (the block at line 17 is parametric, of dimension 3" -- \
	"$fv" mesh info "$tmp/param.msh"

# Not regular files: refused at once, never waited on (a FIFO with no
# writer would block open() forever)
mkfifo "$tmp/fifo.su2" "$tmp/fifo.cgns" "$tmp/fifo.cfg"
expect 1 "fifo.su2: is a named pipe (FIFO), not a regular file" -- timeout 10 "$fv" mesh info "$tmp/fifo.su2"
expect 1 "fifo.cgns: is a named pipe (FIFO), not a regular file" -- timeout 10 "$fv" mesh info "$tmp/fifo.cgns"
expect 1 "/dev/null: is a character device, not a regular file" -- timeout 10 "$fv" mesh info /dev/null
expect 1 "fifo.cfg: is a named pipe (FIFO), not a regular file" -- timeout 10 "$fv" run "$tmp/fifo.cfg"
printf '[mesh]\nfile = %s\n' "$tmp/fifo.su2" >"$tmp/fifo_mesh.cfg"
expect 1 "fifo.su2: is a named pipe (FIFO), not a regular file" -- timeout 10 "$fv" run "$tmp/fifo_mesh.cfg" output.dir="$tmp/run_out"
# a restart that is a named pipe: refused, not waited on
mkfifo "$tmp/fifo.bin"
"$fv" mesh gen ramp --cells tet --nx 6 --ny 4 --nz 1 --angle 10 -o "$tmp/w.su2" >/dev/null 2>&1
sed "s|^file = wedge.su2|file = $tmp/w.su2|" "$top_srcdir/cases/wedge/wedge.cfg" >"$tmp/w.cfg"
expect 1 "fifo.bin: is a named pipe (FIFO), not a regular file" -- timeout 10 "$fv" run "$tmp/w.cfg" \
	output.dir="$tmp/run_fifo" output.restart="$tmp/fifo.bin"

echo "$fails failure(s)"
[ "$fails" = 0 ]
