#!/bin/sh
# SPDX-License-Identifier: MIT
# The fields a GPU block alone touches are registered without host memory
# (StarPU allocates them where first used, zeros where first read before
# any write; fv_runtime_vector_lazy). FVSTAR_LAZY_FIELDS=all takes that
# path for CPU blocks too, so that it runs here: the wedge (explicit, 3
# blocks, the reference digest of reference_runs.sh) and the laminar
# plate (implicit sweeps, whose update is read before it is written; the
# split border/interior tasks' face fluxes; the wall data from the
# primitives and gradients fetched home on demand) must give the same
# restart, history and wall.csv to the bit as with every field in host
# memory (none). With all, FVSTAR_GEO_DEVICE=1 also builds the geometry
# blob through the path that puts a GPU block's blob straight into its
# GPU's memory, section by section (fv_geo_build_to, fv_runtime_devbuf_*:
# main memory here, read back for the wall data; on a GPU the default);
# all without it (the blob in host memory, the default on CPU workers as
# with FVSTAR_GEO_HOST=1 on a GPU) gives the same wedge. A bad value of
# FVSTAR_LAZY_FIELDS, FVSTAR_GEO_DEVICE, FVSTAR_GEO_HOST or FVSTAR_PIN (how
# memory a GPU reads is pinned), or the blob asked on the device and on the
# host at once, is an error naming the variable.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
"$fv" mesh gen plate --length 1 --lead 1 --height 2 --nx 33 --ny 21 --y1 4e-3 -o "$tmp/pl.su2" >/dev/null 2>&1 ||
	fail "mesh gen plate"
sed "s|^file = plate_laminar.su2|file = $tmp/pl.su2|" "$top_srcdir/cases/plate_laminar/plate_laminar.cfg" >"$tmp/pl.cfg"

# pair NAME CFG KEY=VALUE...: the case with each FVSTAR_LAZY_FIELDS, compared
pair() {
	name=$1 cfg=$2
	shift 2
	for v in none all; do
		FVSTAR_GEO_DEVICE=$([ $v = all ] && echo 1 || echo 0) FVSTAR_LAZY_FIELDS=$v "$fv" run "$cfg" output.dir="$tmp/$name-$v" numerics.residual_drop=0 \
			output.progress_every=0 output.vtu=no "$@" >/dev/null 2>"$tmp/$name-$v.err" ||
			{ cat "$tmp/$name-$v.err"; fail "$name: FVSTAR_LAZY_FIELDS=$v"; return 1; }
	done
	a=$tmp/$name-none b=$tmp/$name-all
	cmp -s "$a/restart.bin" "$b/restart.bin" || fail "$name: the states differ"
	cut -d, -f1,3- "$a/history.csv" >"$tmp/h.a"
	cut -d, -f1,3- "$b/history.csv" >"$tmp/h.b"
	cmp -s "$tmp/h.a" "$tmp/h.b" || fail "$name: the histories differ"
	[ ! -f "$a/wall.csv" ] || cmp -s "$a/wall.csv" "$b/wall.csv" || fail "$name: wall.csv differs"
	echo "$name: the same with and without host memory for the fields"
}
pair wedge "$tmp/w.cfg" numerics.iterations=25 partition.blocks=3
ref=$(sed -n 's/^wedge-3 //p' "$top_srcdir/tests/data/reference/runs.txt")
got=$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/wedge-all")
[ "$got" = "$ref" ] || fail "wedge: digest $got, reference_runs.sh's wedge-3 $ref"
FVSTAR_LAZY_FIELDS=all "$fv" run "$tmp/w.cfg" output.dir="$tmp/wedge-geohost" \
	numerics.residual_drop=0 output.progress_every=0 output.vtu=no numerics.iterations=25 partition.blocks=3 \
	>/dev/null 2>"$tmp/geohost.err" || { cat "$tmp/geohost.err"; fail "the blob in host memory"; }
cmp -s "$tmp/wedge-all/restart.bin" "$tmp/wedge-geohost/restart.bin" ||
	fail "wedge: the blob in host memory and through FVSTAR_GEO_DEVICE=1 differ"
pair plate "$tmp/pl.cfg" numerics.iterations=10 partition.blocks=3 numerics.overlap=yes
[ -s "$tmp/plate-all/wall.csv" ] || fail "plate: no wall.csv"

FVSTAR_LAZY_FIELDS=host "$fv" run "$tmp/w.cfg" numerics.iterations=1 output.dir="$tmp/bad" >/dev/null 2>"$tmp/bad.err" &&
	fail "FVSTAR_LAZY_FIELDS=host accepted"
grep -q "FVSTAR_LAZY_FIELDS=host: expected gpu, all or none" "$tmp/bad.err" ||
	{ cat "$tmp/bad.err"; fail "FVSTAR_LAZY_FIELDS=host: no clear error"; }
FVSTAR_GEO_DEVICE=yes FVSTAR_LAZY_FIELDS=all "$fv" run "$tmp/w.cfg" numerics.iterations=1 output.dir="$tmp/badgeo" \
	>/dev/null 2>"$tmp/badgeo.err" && fail "FVSTAR_GEO_DEVICE=yes accepted"
grep -q "FVSTAR_GEO_DEVICE=yes: expected 0 or 1" "$tmp/badgeo.err" ||
	{ cat "$tmp/badgeo.err"; fail "FVSTAR_GEO_DEVICE=yes: no clear error"; }
FVSTAR_GEO_HOST=yes FVSTAR_LAZY_FIELDS=all "$fv" run "$tmp/w.cfg" numerics.iterations=1 output.dir="$tmp/badgeo" \
	>/dev/null 2>"$tmp/badgeo.err" && fail "FVSTAR_GEO_HOST=yes accepted"
grep -q "FVSTAR_GEO_HOST=yes: expected 0 or 1" "$tmp/badgeo.err" ||
	{ cat "$tmp/badgeo.err"; fail "FVSTAR_GEO_HOST=yes: no clear error"; }
FVSTAR_GEO_HOST=1 FVSTAR_GEO_DEVICE=1 FVSTAR_LAZY_FIELDS=all "$fv" run "$tmp/w.cfg" numerics.iterations=1 \
	output.dir="$tmp/badgeo" >/dev/null 2>"$tmp/badgeo.err" && fail "FVSTAR_GEO_HOST=1 FVSTAR_GEO_DEVICE=1 accepted"
grep -q "FVSTAR_GEO_HOST=1 and FVSTAR_GEO_DEVICE=1: the geometry cannot be in both places" "$tmp/badgeo.err" ||
	{ cat "$tmp/badgeo.err"; fail "FVSTAR_GEO_HOST=1 FVSTAR_GEO_DEVICE=1: no clear error"; }
FVSTAR_PIN=always "$fv" run "$tmp/w.cfg" numerics.iterations=1 output.dir="$tmp/badpin" >/dev/null 2>"$tmp/badpin.err" &&
	fail "FVSTAR_PIN=always accepted"
grep -q "FVSTAR_PIN=always: expected register, alloc or no" "$tmp/badpin.err" ||
	{ cat "$tmp/badpin.err"; fail "FVSTAR_PIN=always: no clear error"; }
finish
