#!/bin/sh
# SPDX-License-Identifier: MIT
# Bit-for-bit regression of the solver on CPU workers: short runs of the
# wedge (steady, mixed cells, 1 and 3 blocks, every race strategy's CPU
# loop, colour group tasks, least squares, Barth, first order) and of Sod
# (unsteady, global step, SSP-RK3) must give the final state and the
# residual/force history recorded in tests/data/reference/runs.txt (made
# before the runtime layer was moved out of the solver, 2026-11-24), digest
# for digest (tests/cli/state_digest.py: the state as a multiset of cells,
# so the file's cell order does not matter). wedge-3-atomic was recorded
# again on 2026-11-26: the ghosts of each run now come with those sharing
# a face first, and the atomic node sums' cell loop adds the ghosts in
# their local order (the state stays within 1.4e-15 of one block's).
# Double precision only: a single-precision tree skips (77).
# FVSTAR_UPDATE_REFS=1 rewrites the file.
. "$top_srcdir/tests/cli/lib.sh"
[ "$FV_TOL_SCALE" = 1 ] || { echo "single precision: SKIP"; exit 77; }
ref="$top_srcdir/tests/data/reference/runs.txt"

wedge_case
"$fv" mesh gen box --cells tet --nx 60 --ny 2 --nz 2 --hi 1,0.02,0.02 -o "$tmp/sod.su2" >/dev/null 2>&1 ||
	fail "mesh gen box (Sod)"
sed "s|^file = sod.su2|file = $tmp/sod.su2|" "$top_srcdir/cases/sod/sod.cfg" >"$tmp/sod.cfg"

out="$tmp/digests.txt"
: >"$out"
one() {
	name=$1
	cfg=$2
	shift 2
	"$fv" run "$cfg" numerics.residual_drop=0 output.vtu=no output.progress_every=0 output.dir="$tmp/$name" \
		"$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "$name: run"; return; }
	echo "$name $("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/$name")" >>"$out"
}
W="numerics.iterations=25"
one wedge-1 "$tmp/w.cfg" $W partition.blocks=1
one wedge-3 "$tmp/w.cfg" $W partition.blocks=3
one wedge-3-atomic "$tmp/w.cfg" $W partition.blocks=3 numerics.nodes_sum=atomic numerics.gradient_sum=atomic \
	numerics.limiter_sum=atomic numerics.timestep_sum=atomic numerics.limiter_vars=all
one wedge-3-color "$tmp/w.cfg" $W partition.blocks=3 numerics.face_order=color numerics.flux_sum=color \
	numerics.gradient_sum=color numerics.limiter_sum=color numerics.timestep_sum=color numerics.color_tasks=yes
one wedge-2-lsq "$tmp/w.cfg" $W partition.blocks=2 numerics.gradient=least-squares numerics.limiter=barth numerics.rk=3
one wedge-2-first "$tmp/w.cfg" $W partition.blocks=2 numerics.order=1 numerics.rk=1 numerics.limiter_freeze=10
one sod-2 "$tmp/sod.cfg" numerics.iterations=30 partition.blocks=2 numerics.rk=3

if [ "${FVSTAR_UPDATE_REFS:-0}" = 1 ]; then
	cp "$out" "$ref"
	echo "wrote $ref"
	cat "$ref"
	finish
fi
while read -r name digest; do
	want=$(sed -n "s/^$name //p" "$ref")
	if [ "$digest" = "$want" ]; then
		echo "$name: identical to the reference"
	else
		fail "$name: digest $digest, reference ${want:-(none)}"
	fi
done <"$out"
[ "$(wc -l <"$out")" = "$(wc -l <"$ref")" ] || fail "$(wc -l <"$out") runs, $(wc -l <"$ref") references"
finish
