#!/bin/sh
# SPDX-License-Identifier: MIT
# numerics.chain: a block's consecutive tasks between halo exchanges run as
# one StarPU task (codelets/chain.c). On CPU workers (chain = yes; auto
# chains only blocks that run on GPUs) the state and the residual history
# are bit for bit those of chain = no, for: the wedge on 1 block (a whole
# RK stage one task) and 4 blocks (halo tasks per block and per pair),
# SSP-RK3, first-order iterations, interior and border tasks
# (overlap = yes), colour group tasks, 2 CPU workers under eager and dmda,
# implicit point sweeps and LU-SGS (colour group tasks chained), the
# laminar and the SA plate on 3 blocks, the unsteady Sod tube (the clock's
# reduction never chained), snapshots and retries (implicit_retry's forced
# failure). With an FxT StarPU, the trace holds the chains under their
# tasks' names joined by '+' (1 block: "prim+nodes+gradient+...+update"),
# and on 2 blocks a halo's unpack starting a chain and its pack ending one
# ("unpack+prim+nodes+gradient+pack"; with numerics.halo_late = yes (auto:
# under mpirun only), two chains a block and RK stage, "unpack+prim+nodes+gradient+limiter+timestep+pack+pack"
# and "unpack+unpack+flux+norms+update+pack"). numerics.halo_late = yes and
# no give the same state and history, chained or not.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
"$fv" mesh gen plate --length 1 --lead 1 --height 2 --nx 33 --ny 21 --y1 4e-3 -o "$tmp/pl.su2" >/dev/null 2>&1 ||
	fail "mesh gen plate (laminar)"
sed "s|^file = plate_laminar.su2|file = $tmp/pl.su2|" "$top_srcdir/cases/plate_laminar/plate_laminar.cfg" >"$tmp/pl.cfg"
"$fv" mesh gen plate --level 3 -o "$tmp/ps.su2" >/dev/null 2>&1 || fail "mesh gen plate (SA)"
sed "s|^file = plate_tmr.su2|file = $tmp/ps.su2|" "$top_srcdir/cases/plate_tmr/plate_tmr.cfg" >"$tmp/ps.cfg"
"$fv" mesh gen box --cells tet --nx 60 --ny 2 --nz 2 --hi 1,0.02,0.02 -o "$tmp/sod.su2" >/dev/null 2>&1 ||
	fail "mesh gen box (Sod)"
sed "s|^file = sod.su2|file = $tmp/sod.su2|" "$top_srcdir/cases/sod/sod.cfg" >"$tmp/sod.cfg"

# same NAME CFG KEY=VALUE...: chain = yes and no, bit for bit (key_pair, lib.sh)
same() { n=$1 c=$2; shift 2; key_pair "$n" "$c" numerics.chain "yes no" 0 "$@"; }

W="partition.blocks=4 numerics.iterations=12"
same wedge1 "$tmp/w.cfg" partition.blocks=1 numerics.iterations=12
same wedge "$tmp/w.cfg" $W
same wedge-rk3 "$tmp/w.cfg" $W numerics.rk=3 numerics.first_order=4
same wedge-pair "$tmp/w.cfg" $W numerics.halo_tasks=pair
same wedge-overlap "$tmp/w.cfg" $W numerics.overlap=yes
same wedge-groups "$tmp/w.cfg" $W numerics.color_tasks=yes numerics.flux_sum=color numerics.face_order=color
same wedge-eager "$tmp/w.cfg" $W runtime.ncpu=2 runtime.sched=eager
same wedge-dmda "$tmp/w.cfg" $W runtime.ncpu=2 runtime.sched=dmda
same wedge-point "$tmp/w.cfg" $W numerics.time=implicit numerics.implicit=point numerics.cfl=5 numerics.cfl_max=50 \
	numerics.sweeps=4
same wedge-lusgs "$tmp/w.cfg" $W numerics.time=implicit numerics.implicit=lusgs numerics.cfl=5 numerics.sweeps=4
# a first step far too large: the retries go back to the snapshots
same wedge-retry "$tmp/w.cfg" partition.blocks=2 numerics.iterations=25 numerics.time=implicit numerics.cfl=1e6 \
	numerics.cfl_max=1e6
same laminar "$tmp/pl.cfg" partition.blocks=3 numerics.iterations=8
same sa "$tmp/ps.cfg" partition.blocks=3 numerics.iterations=8
same sod "$tmp/sod.cfg" partition.blocks=2 numerics.iterations=10
# numerics.halo_late: the gradients' and limiters' halos after the limiter
# and the time step, or as soon as computed, chained or not, with interior
# and border tasks, pair halo tasks and SSP-RK3: bit for bit
late() { n=$1 c=$2; shift 2; key_pair "$n" "$c" numerics.halo_late "yes no" 0 "$@"; }
late late-chain "$tmp/w.cfg" $W numerics.chain=yes
late late-tasks "$tmp/w.cfg" $W numerics.chain=no numerics.rk=3 numerics.first_order=4
late late-overlap "$tmp/w.cfg" $W numerics.chain=yes numerics.overlap=yes numerics.halo_tasks=pair
late late-laminar "$tmp/pl.cfg" partition.blocks=3 numerics.iterations=8 numerics.chain=yes
grep -q "retry\|thrown away" "$tmp/wedge-retry-yes.err" || echo "(the forced failure did not retry: the cut is untested)"

# the chains in a trace (an FxT StarPU only)
if "$fv" run "$tmp/w.cfg" output.dir="$tmp/tr1" numerics.chain=yes partition.blocks=1 numerics.iterations=3 \
	output.progress_every=0 output.vtu=no output.trace="$tmp/tr" >/dev/null 2>"$tmp/tr.err"; then
	grep -q "^Name: prim+nodes+gradient+limiter+timestep+flux+norms+update$" "$tmp/tr/tasks.rec" ||
		{ grep "^Name:" "$tmp/tr/tasks.rec" | sort | uniq -c; fail "no whole RK stage as one chain in the trace"; }
	# numerics.halo_late = yes: two chains a block and RK stage, the
	# gradients' and limiters' packs ending the first
	"$fv" run "$tmp/w.cfg" output.dir="$tmp/tr2" numerics.chain=yes numerics.halo_late=yes partition.blocks=2 \
		numerics.iterations=3 output.progress_every=0 output.vtu=no output.trace="$tmp/trb" >/dev/null 2>"$tmp/trb.err" ||
		{ cat "$tmp/trb.err"; fail "traced run, 2 blocks"; }
	grep -q "^Name: unpack+prim+nodes+gradient+limiter+timestep+pack+pack$" "$tmp/trb/tasks.rec" ||
		{ grep "^Name:" "$tmp/trb/tasks.rec" | sort | uniq -c; fail "no chain from the state's unpack to the limiters' pack"; }
	n_rk=$(grep -c "^Name: unpack+unpack+flux" "$tmp/trb/tasks.rec")
	n_all=$(grep "^Name: " "$tmp/trb/tasks.rec" | grep -vc "^Name: _starpu\|^Name: copy\|^Name: pack$")
	[ "$n_all" -eq $((2 * n_rk)) ] ||
		{ grep "^Name:" "$tmp/trb/tasks.rec" | sort | uniq -c; fail "late halos: $n_all chains for $n_rk RK stages of a block, not 2 each"; }
	# auto in one process: no (a chain from a halo's unpack to the next's pack)
	"$fv" run "$tmp/w.cfg" output.dir="$tmp/tr3" numerics.chain=yes partition.blocks=2 \
		numerics.iterations=3 output.progress_every=0 output.vtu=no output.trace="$tmp/trc" >/dev/null 2>"$tmp/trc.err" ||
		{ cat "$tmp/trc.err"; fail "traced run, 2 blocks, halo_late = auto"; }
	grep -q "^Name: unpack+prim+nodes+gradient+pack$" "$tmp/trc/tasks.rec" ||
		{ grep "^Name:" "$tmp/trc/tasks.rec" | sort | uniq -c; fail "no chain from a halo's unpack to the next's pack"; }
elif grep -q "FxT-enabled StarPU" "$tmp/tr.err"; then
	echo "no FxT StarPU: the trace check is left out"
else
	cat "$tmp/tr.err"
	fail "traced run"
fi
finish
