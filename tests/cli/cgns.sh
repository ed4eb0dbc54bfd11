#!/bin/sh
# SPDX-License-Identifier: MIT
# CGNS meshes from the command line. Gmsh 4.8 cannot write CGNS (Debian
# builds it without), so tests/unit/test_read_cgns writes them through the
# CGNS library from Gmsh's own .msh of tests/data/box.geo and mixed.geo
# (or, without Gmsh, from `fvstar mesh gen`) in several layouts; `fvstar
# mesh info` must give the same cells per type, markers, face counts, areas
# and volume as the .msh, and `fvstar run` the same residuals and forces.
# Broken files exit 1 with a message naming the file and the node, never
# crash. Built without CGNS: reading a .cgns says so. Run by `make check`.
. "$top_srcdir/tests/cli/lib.sh"
writer="$top_builddir/tests/unit/test_read_cgns"

# expect_error PATTERN FILE: mesh info fails with status 1 and PATTERN
expect_error() {
	"$fv" mesh info "$2" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" != 1 ] || ! grep -q -- "$1" "$tmp/err"; then
		fail "mesh info $2 -> exit $rc (want 1), expected '$1' in: $(cat "$tmp/err")"
	else
		echo "ok: $(basename "$2"): $(grep 'error' "$tmp/err" | head -1)"
	fi
}

printf 'not a mesh' >"$tmp/probe.cgns"
"$fv" mesh info "$tmp/probe.cgns" >/dev/null 2>"$tmp/probe.err"
if grep -q "built without CGNS" "$tmp/probe.err"; then
	expect_error "probe.cgns: fvstar was built without CGNS (install libcgns-dev" "$tmp/probe.cgns"
	finish
fi
if [ ! -x "$writer" ]; then
	echo "SKIP: no $writer (cmocka missing)"
	exit 77
fi

# the source meshes: Gmsh's .msh, else fvstar's own
[ -n "${GMSH+set}" ] || GMSH=$(command -v gmsh 2>/dev/null) || GMSH=
sources=
if [ -n "$GMSH" ] && "$GMSH" --version >/dev/null 2>&1; then
	for g in box mixed; do
		if "$GMSH" -3 -nt 1 -v 1 "$top_srcdir/tests/data/$g.geo" -format msh41 -o "$tmp/$g.msh" >"$tmp/gmsh.log" 2>&1; then
			sources="$sources $tmp/$g.msh"
		else
			fail "gmsh $g.geo"
			cat "$tmp/gmsh.log"
		fi
	done
else
	echo "note: no gmsh; the source meshes come from fvstar mesh gen"
	"$fv" mesh gen box --cells tet -n 4 -o "$tmp/box.su2" >/dev/null 2>&1 || fail "mesh gen box"
	"$fv" mesh gen box --cells mixed --nx 6 --ny 4 --nz 4 --hi 2,1,1 -o "$tmp/mixed.su2" >/dev/null 2>&1 ||
		fail "mesh gen mixed"
	sources="$tmp/box.su2 $tmp/mixed.su2"
fi

# layouts: sections per type or MIXED; BCs by element range, element list
# (new and old point-set types), node list, families, none; HDF5 and ADF
layouts="family,bc-range mixed,bnd-mixed,bc-list bnd-first,bc-erange,adf mixed,bc-elist,family
 bnd-none,bc-vertex bc-none"
for src in $sources; do
	name=$(basename "${src%.*}")
	mesh_summary "$src" >"$tmp/$name.ref" || fail "mesh info $src"
	for l in $layouts; do
		out="$tmp/$name-$(echo "$l" | tr , _).cgns"
		# shellcheck disable=SC2046
		if ! "$writer" write "$src" "$out" $(echo "$l" | tr , ' ') 2>"$tmp/err"; then
			fail "write $out: $(cat "$tmp/err")"
			continue
		fi
		if ! mesh_summary "$out" >"$tmp/got"; then
			fail "mesh info $out"
		elif ! cmp -s "$tmp/$name.ref" "$tmp/got"; then
			fail "$name ($l) differs from $(basename "$src")"
			diff "$tmp/$name.ref" "$tmp/got"
		else
			echo "ok: $name ($l):" $(grep -e '^cells' -e '^markers' -e '^volume' "$tmp/got")
		fi
	done
done
grep -q '^type prism [1-9]' "$tmp/mixed.ref" && grep -q '^type pyramid [1-9]' "$tmp/mixed.ref" &&
	grep -q '^type hexahedron [1-9]' "$tmp/mixed.ref" && grep -q '^type tetrahedron [1-9]' "$tmp/mixed.ref" ||
	fail "the mixed mesh lacks a cell type"

# fvstar run: the mixed mesh as .cgns (one MIXED section: the file's cell
# order) and as read from its source, 10 iterations each
src=$(echo $sources | awk '{ print $2 }')
cgns="$tmp/mixed-mixed_bnd-mixed_bc-list.cgns"
markers=$(awk '/^marker /{ print $2 }' "$tmp/mixed.ref")
for mesh in "$src" "$cgns"; do
	tag=$(basename "$mesh" | tr . _)
	{
		printf '[mesh]\nfile = %s\n[flow]\nmach = 0.5\nalpha = 3\n[numerics]\niterations = 10\n[bc]\n' "$mesh"
		first=1
		for mk in $markers; do
			if [ $first = 1 ]; then echo "$mk = farfield"; first=0; else echo "$mk = wall"; fi
		done
		printf '[output]\nvtu = no\nprogress_every = 0\n'
	} >"$tmp/$tag.cfg"
	if ! "$fv" run "$tmp/$tag.cfg" output.dir="$tmp/run_$tag" partition.partitioner=linear partition.blocks=2 \
		>"$tmp/run.log" 2>&1; then
		fail "fvstar run on $mesh"
		tail -5 "$tmp/run.log"
	fi
done
if "$fv" run "$tmp/$(basename "$cgns" | tr . _).cfg" mesh.format=cgns numerics.iterations=1 \
	output.dir="$tmp/run_format" >"$tmp/run.log" 2>&1; then
	echo "ok: [mesh] format = cgns accepted"
else
	fail "fvstar run with mesh.format=cgns"
	tail -3 "$tmp/run.log"
fi
a="$tmp/run_$(basename "$src" | tr . _)/summary.json"
b="$tmp/run_$(basename "$cgns" | tr . _)/summary.json"
if [ -f "$a" ] && [ -f "$b" ]; then
	if "$py" - "$a" "$b" "$(tol 1e-12)" <<'PY'; then
import json, math, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
tol = float(sys.argv[3])
assert a["mesh"]["cells"] == b["mesh"]["cells"], "cell counts differ"
for x, y in zip(a["final_residuals"], b["final_residuals"]):
    assert math.isfinite(y) and abs(x - y) <= tol * max(abs(x), 1e-300), (x, y)
for k in ("CD", "CS", "CL"):
    x, y = a["forces"][k], b["forces"][k]
    assert abs(x - y) <= tol * max(abs(x), 1e-12), (k, x, y)
print("ok: fvstar run on .cgns = run on the source mesh: residuals", b["final_residuals"][0], "CD", b["forces"]["CD"])
PY
		:
	else
		fail "runs on the .cgns and its source differ"
	fi
else
	fail "no summary.json from the runs"
fi

# by contents: HDF5 and ADF files under other names
cp "$tmp/mixed-family_bc-range.cgns" "$tmp/hdf5.mesh"
cp "$tmp/mixed-bnd-first_bc-erange_adf.cgns" "$tmp/adf.mesh"
for f in hdf5.mesh adf.mesh; do
	if mesh_summary "$tmp/$f" >"$tmp/got" && cmp -s "$tmp/mixed.ref" "$tmp/got"; then
		echo "ok: $f read as CGNS"
	else
		fail "$f (a CGNS file without the extension) not read as the mixed mesh"
	fi
done

# broken files: status 1, the file and the node named, no crash
box=$(echo $sources | awk '{ print $1 }')
for bad in bad-ngon bad-tetra10 bad-bc bad-bc-cell structured two-zones two-bases bad-node; do
	"$writer" write "$box" "$tmp/$bad.cgns" $bad 2>"$tmp/err" || fail "write $bad: $(cat "$tmp/err")"
done
expect_error "bad-ngon.cgns: base 1 zone 'blk' section 'Poly': element type NGON_n is not supported" "$tmp/bad-ngon.cgns"
expect_error "bad-tetra10.cgns: base 1 zone 'blk' section 'Quadratic': element type TETRA_10 is not supported" \
	"$tmp/bad-tetra10.cgns"
expect_error "bad-bc.cgns: base 1 zone 'blk' BC 'ghost': element [0-9]* is in no section of the zone" "$tmp/bad-bc.cgns"
expect_error "bad-bc-cell.cgns: base 1 zone 'blk' BC 'ghost': element 1 is a TETRA_4 of section 'Tetras'" \
	"$tmp/bad-bc-cell.cgns"
expect_error "structured.cgns: base 1 zone 'blk': the zone is Structured" "$tmp/structured.cgns"
expect_error "two-zones.cgns: base 1: 2 zones; fvstar reads one unstructured zone" "$tmp/two-zones.cgns"
expect_error "two-bases.cgns: 2 bases" "$tmp/two-bases.cgns"
expect_error "bad-node.cgns: base 1 zone 'blk' section 'Stray': element .*: node .* out of range" "$tmp/bad-node.cgns"
good="$tmp/box-family_bc-range.cgns"
size=$(wc -c <"$good")
head -c $((size / 2)) "$good" >"$tmp/truncated.cgns"
expect_error "truncated.cgns: not a readable CGNS file" "$tmp/truncated.cgns"
# an HDF5 signature on garbage: dispatched to the CGNS reader by contents
{ printf '\211HDF\r\n\032\n'; head -c 2000 /dev/zero; } >"$tmp/fake.mesh"
expect_error "fake.mesh: not a readable CGNS file" "$tmp/fake.mesh"
# an ADF file on which the CGNS library 3.4 itself dies (SIGSEGV in cg_open,
# found by tools/fuzz.sh cgns): a clear error, not a crash
cp "$top_srcdir/tests/fuzz/regressions/cgns/crash-8b561dc546c43f3aab039d5236a688aa209fceca" "$tmp/damaged.cgns"
expect_error "damaged.cgns: the CGNS library crashed reading this file (Segmentation fault): the file is damaged" \
	"$tmp/damaged.cgns"
finish
