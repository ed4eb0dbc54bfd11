#!/bin/sh
# SPDX-License-Identifier: MIT
# The generators and `fvstar mesh refine` on threads change no byte: 7
# generated meshes (box of each cell kind, ramp, bump, plate; most above
# FV_PAR_MIN, so the threaded loops run threaded) and 7 refinements (one of
# them two levels with pyramids) written as .fvm with OMP_NUM_THREADS=1, 2
# and 3 (oversubscribed on CI's 2 cores) are the same files, equal to
# those of the serial code before the threads (sha256 recorded 2026-11-27);
# a refined box keeps its volume and has 8 times the cells; a mesh with
# two bad cells gives the same first error whatever the threads.
. "$top_srcdir/tests/cli/lib.sh"
fv=$(cd "$(dirname "$fv")" && pwd)/fvstar # the meshes are made in their own directories

gen() {
	"$fv" mesh gen box --cells tet -n 16 --perturb 0.1 -o g_tet.fvm &&
		"$fv" mesh gen box --cells mixed -n 20 --perturb 0.2 -o g_mixed.fvm &&
		"$fv" mesh gen box --cells prism --nx 24 --ny 24 --nz 20 --perturb 0.1 -o g_prism.fvm &&
		"$fv" mesh gen box --cells hex -n 28 --perturb 0.1 -o g_hex.fvm &&
		"$fv" mesh gen ramp --cells tet --nx 24 --ny 12 --nz 12 -o g_ramp.fvm &&
		"$fv" mesh gen bump --level 5 --cells prism -o g_bump.fvm &&
		"$fv" mesh gen plate --level 4 -o g_plate.fvm || return 1
	for m in tet mixed prism hex ramp bump; do
		"$fv" mesh refine g_$m.fvm -o r_$m.fvm || return 1
	done
	"$fv" mesh gen box --cells mixed --nx 5 --ny 4 --nz 3 --perturb 0.1 --refine 2 -o r2_mixed.fvm
}

for t in 1 2 3; do
	mkdir "$tmp/t$t"
	(cd "$tmp/t$t" && OMP_NUM_THREADS=$t gen) >/dev/null 2>"$tmp/err$t" || { cat "$tmp/err$t"; fail "meshes with $t threads"; }
	(cd "$tmp/t$t" && sha256sum ./*.fvm) >"$tmp/sums$t"
done
cmp -s "$tmp/sums1" "$tmp/sums2" || fail "the meshes differ between 1 and 2 threads: $(diff "$tmp/sums1" "$tmp/sums2")"
cmp -s "$tmp/sums1" "$tmp/sums3" || fail "the meshes differ between 1 and 3 threads: $(diff "$tmp/sums1" "$tmp/sums3")"
cat >"$tmp/serial" <<'SUMS'
3801b34b391028ad3f53f3d5fab3d5301764932bf4ae7bd246b4041d86fc5b34  ./g_bump.fvm
d21efcfa1f721c2aa419204dd3358867145600b66982137d8568e8f028b55213  ./g_hex.fvm
d823a853510906d9198f746e4e892ca95e44ad2e320ebbb35470547d42cf8e36  ./g_mixed.fvm
df150900ee30302bbdc3a19b9a19426e789887dd7458851684e480fc97114603  ./g_plate.fvm
e415ee5e16db57be44972185b86fa1423cc46ff50ba227fe65bb1c98b02c00dc  ./g_prism.fvm
e30d394a4a53d19e1e1973d401b2907794ce66c9317303cf1976c81177aee609  ./g_ramp.fvm
d0188a41f5a716601964ebd22b6c378b0304d6fb39a34309529f50fea235b20c  ./g_tet.fvm
b33b9210e4fc2f044eb3230868879210724c6e8b1778c97b11c92365236f615c  ./r2_mixed.fvm
7ceadc02ee19e8d3544372287ca993845714285f37ad50a676e98b53366e7e67  ./r_bump.fvm
9ac44213f8ed266dbb39b15a0c40f7851e376a6b688ffbf4a6d6d478228d9121  ./r_hex.fvm
1abdbce09f99bbc230dafabc304321ccef158465dd5aea23bf863d567e4dbfc6  ./r_mixed.fvm
d7e1280be7f919248428d2d31717bba42cd5825ea1b76c256a51b3b1f034c4af  ./r_prism.fvm
2bacba885dca488a3a24e3b5f5cac2fabc18cc646327c0e28261f4cd93183be7  ./r_ramp.fvm
c8cf75cb20f9c53e4d67ef48a1c50638b6d8b32c8922615592618dd4de47d161  ./r_tet.fvm
SUMS
cmp -s "$tmp/sums1" "$tmp/serial" || fail "the meshes differ from the serial code's: $(diff "$tmp/serial" "$tmp/sums1")"

# the refined tet box: 8 x 24576 cells, the unit volume, checks passed
"$fv" mesh info "$tmp/t2/r_tet.fvm" 2>/dev/null >"$tmp/info" || fail "mesh info of the refined box"
grep -q "^cells: 196608$" "$tmp/info" || fail "refined box: $(grep '^cells' "$tmp/info"), not 196608"
awk '/^volume: total/ { exit !($3 > 1 - 1e-12 && $3 < 1 + 1e-12) }' "$tmp/info" || fail "refined box: $(grep '^volume' "$tmp/info")"
grep -q "^checks: passed" "$tmp/info" || fail "refined box: checks failed"

# two cells repeat a node (elements 13000 and 20000, in different thread
# parts with 3 threads): the first one named, whatever the threads
"$fv" mesh gen box --cells tet -n 16 -o "$tmp/t16.su2" 2>/dev/null || fail "mesh gen t16.su2"
awk 'NR == 13003 || NR == 20003 { $3 = $2 } { print }' "$tmp/t16.su2" >"$tmp/bad.su2"
for t in 1 2 3; do
	OMP_NUM_THREADS=$t "$fv" mesh refine "$tmp/bad.su2" -o "$tmp/bad.fvm" >/dev/null 2>"$tmp/bad$t" &&
		fail "a repeated node accepted with $t threads"
	grep -q "error: .*bad.su2: element 13000 repeats node" "$tmp/bad$t" || fail "$t threads: $(cat "$tmp/bad$t")"
done
[ -e "$tmp/bad.fvm" ] && fail "bad.fvm written after the error"
finish
