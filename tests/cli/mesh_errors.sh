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

cat >"$tmp/good.su2" <<'MESH'
NDIME= 3
NELEM= 1
12 0 1 2 3 4 5 6 7
NPOIN= 8
0 0 0
1 0 0
1 1 0
0 1 0
0 0 1
1 0 1
1 1 1
0 1 1
NMARK= 1
MARKER_TAG= all
MARKER_ELEMS= 6
9 0 1 2 3
9 4 5 6 7
9 0 1 5 4
9 1 2 6 5
9 2 3 7 6
9 3 0 4 7
MESH

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

echo "$fails failure(s)"
[ "$fails" = 0 ]
