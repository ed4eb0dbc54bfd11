#!/bin/sh
# SPDX-License-Identifier: MIT
# numerics.overlap: a block with neighbours runs the stages that read
# ghosts as interior tasks (what reads no ghost: prim of the owned cells,
# the node values and Green-Gauss gradients away from ghosts while the
# state's halo travels; the flux of the faces between owned cells while
# the gradients' and limiters' halos travel) and border tasks (the rest;
# the flux sums every face's stored flux in the one-task order). The state
# and the residual history are bit for bit those of overlap = no on the
# same blocks, for: the wedge on 4 blocks (explicit RK2, SSP-RK3, faces
# stored by colour, least squares, atomic node and gradient loops (not
# split), halo tasks per pair, first-order iterations first, implicit
# point and LU-SGS, 2 CPU workers under eager and dmda), the laminar plate
# and the SA plate on 3 blocks; summary.json and the log say where the
# split runs, and the default (auto) splits no CPU block. (tests/cli/trace.sh checks in the task graph that interior
# tasks wait for no halo; tests/mpi/ranks.sh, with overlap on, that 1 and
# N ranks agree bit for bit.)
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
"$fv" mesh gen plate --length 1 --lead 1 --height 2 --nx 33 --ny 21 --y1 4e-3 -o "$tmp/pl.su2" >/dev/null 2>&1 ||
	fail "mesh gen plate (laminar)"
sed "s|^file = plate_laminar.su2|file = $tmp/pl.su2|" "$top_srcdir/cases/plate_laminar/plate_laminar.cfg" >"$tmp/pl.cfg"
"$fv" mesh gen plate --level 3 -o "$tmp/ps.su2" >/dev/null 2>&1 || fail "mesh gen plate (SA)"
sed "s|^file = plate_tmr.su2|file = $tmp/ps.su2|" "$top_srcdir/cases/plate_tmr/plate_tmr.cfg" >"$tmp/ps.cfg"

# same NAME CFG KEY=VALUE...: overlap = yes and no, bit for bit (key_pair, lib.sh)
same() { n=$1 c=$2; shift 2; key_pair "$n" "$c" numerics.overlap "yes no" 0 "$@"; }

W="partition.blocks=4 numerics.iterations=15"
same wedge "$tmp/w.cfg" $W
same wedge-rk3 "$tmp/w.cfg" $W numerics.rk=3
same wedge-color "$tmp/w.cfg" $W numerics.face_order=color numerics.flux_sum=color
same wedge-lsq "$tmp/w.cfg" $W numerics.gradient=least-squares
same wedge-atomic "$tmp/w.cfg" $W numerics.nodes_sum=atomic numerics.gradient_sum=atomic
same wedge-pair "$tmp/w.cfg" $W numerics.halo_tasks=pair
same wedge-first "$tmp/w.cfg" $W numerics.first_order=5
same wedge-eager "$tmp/w.cfg" $W runtime.ncpu=2 runtime.sched=eager
same wedge-dmda "$tmp/w.cfg" $W runtime.ncpu=2 runtime.sched=dmda
same wedge-point "$tmp/w.cfg" $W numerics.time=implicit numerics.implicit=point numerics.cfl=5 numerics.cfl_max=50 \
	numerics.sweeps=4
same wedge-lusgs "$tmp/w.cfg" $W numerics.time=implicit numerics.implicit=lusgs numerics.cfl=5 numerics.sweeps=4
same laminar "$tmp/pl.cfg" partition.blocks=3 numerics.iterations=10
same sa "$tmp/ps.cfg" partition.blocks=3 numerics.iterations=10

# the split ran where asked (summary.json: the blocks split, their share
# of border faces), and not with overlap = no
"$py" - "$tmp/wedge-yes/summary.json" "$tmp/wedge-no/summary.json" <<'PY' || fail "overlap in summary.json"
import json, sys
yes, no = (json.load(open(p))["partition"] for p in sys.argv[1:3])
assert yes["overlap_blocks"] == 4 and 0 < yes["overlap_border_faces"] < 0.5, yes
assert no["overlap_blocks"] == 0, no
PY
"$fv" run "$tmp/w.cfg" output.dir="$tmp/auto" partition.blocks=4 numerics.iterations=2 output.progress_every=0 \
	output.vtu=no >/dev/null 2>"$tmp/auto.err" || fail "overlap = auto"
grep -q '"overlap_blocks": 0' "$tmp/auto/summary.json" || fail "overlap = auto split a CPU block"
grep -q "overlap: the flux of 4 blocks in an interior and a border task" "$tmp/wedge-yes.err" || fail "no overlap line"
finish
