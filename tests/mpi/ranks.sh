#!/bin/sh
# SPDX-License-Identifier: MIT
# The same run on 1 to 4 ranks (mpirun, StarPU-MPI, blocks owned by ranks):
# the wedge (steady, mixed cells, forces), Sod (unsteady: the global step
# exchanged between the ranks' clocks, SSP-RK3) and a 3D box with a
# Riemann problem (wall forces on every face), each with several block
# counts, plus the wedge with colour group tasks and implicit sweeps (CFL
# ramped from the assembled residuals, limiter frozen after 4), and the
# halo exchanged by a task per pair of blocks instead of per block, the
# Krylov linear solve (numerics.linear = gmres), the per-cell step
# (numerics.cell_cfl), and
# the tasks of each block chained (numerics.chain = yes): the final state (restart.bin) and the residual, force and time history are
# bit for bit those of the run on one rank without mpirun (and of mpirun
# -np 1). Outputs come from rank 0 alone: one history, one summary. Rank
# 0 reads and cuts the mesh on all of mpirun's cores.
. "$top_srcdir/tests/mpi/lib.sh"

wedge_case
"$fv" mesh gen box --cells tet --nx 60 --ny 2 --nz 2 --hi 1,0.02,0.02 -o "$tmp/sod.su2" >/dev/null 2>&1 ||
	fail "mesh gen box (Sod)"
sed "s|^file = sod.su2|file = $tmp/sod.su2|" "$top_srcdir/cases/sod/sod.cfg" >"$tmp/sod.cfg"
uniform_box_case box
sed -i -e 's/^right = 1,0,2$/right = 0.5,0,1/' -e 's/^iterations = 3$/iterations = 8/' "$tmp/box.cfg"
sed -i "s|^file = box.su2|file = $tmp/box.su2|" "$tmp/box.cfg"

# case NAME CFG BLOCKS "RANKS" KEYS...: the 1-rank run, then one per rank count
case_ranks() {
	name=$1
	cfg=$2
	nb=$3
	ranks=$4
	shift 4
	run_np 0 "$name-r0" "$cfg" partition.blocks="$nb" output.vtu=no "$@" || { fail "$name: 1 rank"; return; }
	for np in $ranks; do
		run_np "$np" "$name-r$np" "$cfg" partition.blocks="$nb" output.vtu=no "$@" || { fail "$name: $np ranks"; continue; }
		same "$name-r0" "$name-r$np" "$name, $nb blocks, $np ranks"
	done
}
W="numerics.iterations=12"
case_ranks wedge4 "$tmp/w.cfg" 4 "1 2 3 4" $W
# rank 0 reads and cuts the mesh on every core mpirun was given (the
# other ranks wait asleep), not on the one it bound rank 0 to, the cut on
# as many of them as the cells are worth (one per 32768: this small mesh
# one); it reads beside MPI's start
if [ "$(nproc)" -ge 2 ]; then
	"$py" - "$tmp/wedge4-r2/summary.json" "$(nproc)" <<'PY' || fail "wedge, 2 ranks: rank 0 not widened"
import json, sys
s, n = json.load(open(sys.argv[1])), sys.argv[2]
st = s["setup_steps"]
read = st["mesh: faces, geometry, checks"].get("note", "")
cut = st["blocks: partition"].get("note", "")
assert read.startswith("rank 0 read the mesh on %s threads beside MPI's start" % n), read
want = 1 if s["mesh"]["cells"] < 32768 else None
assert cut.startswith("rank 0 cut the mesh on %s of %s threads" % (want, n)) if want else " of %s threads" % n in cut, cut
assert "mesh: MPI start (beside the reading)" in st, list(st)
assert len(s["setup_seconds_per_rank"]) == 2, s.get("setup_seconds_per_rank")
PY
fi
case_ranks wedge7 "$tmp/w.cfg" 7 "2 3" $W
case_ranks wedge2 "$tmp/w.cfg" 2 "2" $W
# interior and border tasks on every block (numerics.overlap = yes: auto
# splits GPU blocks only)
case_ranks wedge4ov "$tmp/w.cfg" 4 "2 3" $W numerics.overlap=yes
case_ranks sod4 "$tmp/sod.cfg" 4 "2 3 4" numerics.iterations=12 numerics.rk=3
case_ranks sod5 "$tmp/sod.cfg" 5 "3" numerics.iterations=12
case_ranks box3 "$tmp/box.cfg" 3 "2 3" numerics.iterations=8
case_ranks box6 "$tmp/box.cfg" 6 "4"
case_ranks color5 "$tmp/w.cfg" 5 "3" numerics.iterations=8 numerics.face_order=color numerics.flux_sum=color \
	numerics.gradient_sum=color numerics.limiter_sum=color numerics.timestep_sum=color numerics.color_tasks=yes
case_ranks implicit3 "$tmp/w.cfg" 3 "2" numerics.iterations=8 numerics.time=implicit numerics.cfl=5 \
	numerics.cfl_max=1e5 numerics.limiter_freeze=4
# the Krylov solve (numerics.linear = gmres): each rank sums every
# block's dot row in block order into its own copy of the coefficients
case_ranks gmres3 "$tmp/w.cfg" 3 "2 3" numerics.iterations=8 numerics.time=implicit numerics.cfl=5 \
	numerics.cfl_max=1e5 numerics.linear=gmres numerics.krylov_dim=4 numerics.krylov_cycles=2
# the per-cell step (numerics.cell_cfl): each cell's factor is a row of
# its rank's state, written to the restart through rank 0's feed
case_ranks cellcfl3 "$tmp/w.cfg" 3 "2 3" numerics.iterations=8 numerics.time=implicit numerics.cfl=5 \
	numerics.cfl_max=1e5 numerics.cell_cfl=1e-3
# halo tasks per pair of blocks instead of per block: the same copies
case_ranks pair4 "$tmp/w.cfg" 4 "3" $W numerics.halo_tasks=pair
same wedge4-r0 pair4-r0 "wedge, 4 blocks: halo tasks per pair against per block"
run_np 2 implicit3p "$tmp/w.cfg" partition.blocks=3 output.vtu=no numerics.iterations=8 numerics.time=implicit \
	numerics.cfl=5 numerics.cfl_max=1e5 numerics.limiter_freeze=4 numerics.halo_tasks=pair || fail "implicit, pairs"
same implicit3-r2 implicit3p "implicit wedge, 3 blocks, 2 ranks: halo tasks per pair against per block"

# halo buffers between ranks in host memory (numerics.halo_zero_copy =
# yes; auto takes it for GPUs): a block task over all its buffers where
# every neighbour is on another rank (4 blocks, 4 ranks), a task per pair
# where some are not (7 blocks, 3 ranks), per pair, with the split, and
# through the implicit sweeps: the same state
Z=numerics.halo_zero_copy=yes
run_np 4 wedge4z "$tmp/w.cfg" partition.blocks=4 output.vtu=no $W $Z || fail "zero copy, 4 ranks"
same wedge4-r0 wedge4z "wedge, 4 blocks, 4 ranks: halo buffers in host memory against StarPU's copies"
grep -q "halo_zero_copy: [1-9][0-9]* of the [1-9][0-9]* halo buffers rank 0 sends" "$tmp/wedge4z.err" ||
	fail "zero copy: no start line: $(grep fvstar: "$tmp/wedge4z.err" | head -3)"
run_np 3 wedge7z "$tmp/w.cfg" partition.blocks=7 output.vtu=no $W $Z numerics.chain=yes || fail "zero copy, 7 blocks"
same wedge7-r0 wedge7z "wedge, 7 blocks, 3 ranks: halo buffers in host memory, mixed neighbours, chains"
run_np 3 wedge4zp "$tmp/w.cfg" partition.blocks=4 output.vtu=no $W $Z numerics.halo_tasks=pair numerics.overlap=yes ||
	fail "zero copy, pairs"
same wedge4-r0 wedge4zp "wedge, 4 blocks, 3 ranks: halo buffers in host memory, per pair, split"
run_np 2 implicit3z "$tmp/w.cfg" partition.blocks=3 output.vtu=no numerics.iterations=8 numerics.time=implicit \
	numerics.cfl=5 numerics.cfl_max=1e5 numerics.limiter_freeze=4 $Z || fail "implicit, zero copy"
same implicit3-r2 implicit3z "implicit wedge, 3 blocks, 2 ranks: halo buffers in host memory"

# task chains on every block (numerics.chain = yes: auto chains GPU blocks
# only), with the split, and through the implicit sweeps: the same state
case_ranks wedge4ch "$tmp/w.cfg" 4 "2" $W numerics.overlap=yes numerics.chain=yes
same wedge4ov-r0 wedge4ch-r2 "wedge, 4 blocks, 2 ranks: chained tasks against one task each"
run_np 2 implicit3ch "$tmp/w.cfg" partition.blocks=3 output.vtu=no numerics.iterations=8 numerics.time=implicit \
	numerics.cfl=5 numerics.cfl_max=1e5 numerics.limiter_freeze=4 numerics.chain=yes || fail "implicit, chains"
same implicit3-r2 implicit3ch "implicit wedge, 3 blocks, 2 ranks: chained tasks against one task each"

# the box has wall forces on every face: the history holds non-zero ones
awk -F, 'NR > 1 && ($10 != 0 || $12 != 0) { f = 1 } END { exit !f }' "$tmp/box3-r0/history.csv" ||
	fail "box: no force in the history"
# rank 0 alone writes: one header, one row per iteration
[ "$(grep -c '^iteration' "$tmp/wedge4-r4/history.csv")" = 1 ] || fail "history written by several ranks"
grep -q '"blocks": 4' "$tmp/wedge4-r4/summary.json" || fail "summary.json of 4 ranks"
"$py" -c 'import json, sys; r = json.load(open(sys.argv[1]))["ranks"]; assert r["count"] == 4 and len(r["peak_memory_mib"]) == 4 and min(r["peak_memory_mib"]) > 0' \
	"$tmp/wedge4-r4/summary.json" || fail "summary.json of 4 ranks: no peak memory per rank"
# halo buffers written straight into the receiving rank's memory
# (numerics.halo_peer = yes; auto takes GPU blocks alone: tests/gpu/
# mpi_gpu.sh): shared memory between CPU ranks, the pack writing it and
# StarPU-MPI carrying tokens and acks; a task per pair, with mixed
# neighbours and chains, with the split, through the implicit sweeps
P=numerics.halo_peer=yes
run_np 2 wedge4p "$tmp/w.cfg" partition.blocks=4 output.vtu=no $W $P || fail "halo_peer, 2 ranks"
same wedge4-r0 wedge4p "wedge, 4 blocks, 2 ranks: halo buffers into the other rank's memory"
grep -q "halo_peer: \([1-9][0-9]*\) of the \1 halo buffers rank 0 sends to other ranks go straight into" \
	"$tmp/wedge4p.err" || fail "halo_peer: no start line: $(grep fvstar: "$tmp/wedge4p.err" | head -3)"
run_np 3 wedge7p "$tmp/w.cfg" partition.blocks=7 output.vtu=no $W $P numerics.chain=yes numerics.overlap=yes ||
	fail "halo_peer, 7 blocks"
same wedge7-r0 wedge7p "wedge, 7 blocks, 3 ranks: halo buffers into the other rank's memory, chains, split"
run_np 2 implicit3p2 "$tmp/w.cfg" partition.blocks=3 output.vtu=no numerics.iterations=8 numerics.time=implicit \
	numerics.cfl=5 numerics.cfl_max=1e5 numerics.limiter_freeze=4 $P || fail "implicit, halo_peer"
same implicit3-r2 implicit3p2 "implicit wedge, 3 blocks, 2 ranks: halo buffers into the other rank's memory"
! grep -q "halo_peer:" "$tmp/wedge4z.err" || fail "CPU ranks, halo_peer = auto: a halo_peer start line"
# ranks on two machines (FVSTAR_NODE tells them apart): yes refuses,
# naming the pair; auto goes through StarPU-MPI, the same results
cat >"$tmp/node.sh" <<'EOF2'
#!/bin/sh
FVSTAR_NODE=machine$OMPI_COMM_WORLD_RANK exec "$@"
EOF2
chmod +x "$tmp/node.sh"
if mpi 2 "$tmp/node.sh" "$fv" run "$tmp/w.cfg" partition.blocks=4 output.vtu=no $W $P output.dir="$tmp/peer2m" \
	>/dev/null 2>"$tmp/peer2m.err"; then
	fail "halo_peer = yes accepted between two machines"
elif ! grep -q "halo_peer = yes: 0 of the [1-9][0-9]* pairs.*blocks [0-9] (rank [01]) and [0-9] (rank [01]): on two machines" \
	"$tmp/peer2m.err"; then
	fail "halo_peer = yes between two machines: $(grep error "$tmp/peer2m.err" | head -2)"
fi

# mpirun's default binding (one core a rank for 2 ranks or fewer): the
# rank's set-up threads get its share of the launcher's cores all the same
cores=$(nproc)
if [ "$cores" -ge 2 ]; then
	mpi 1 --bind-to core "$fv" run "$tmp/w.cfg" output.dir="$tmp/bound" numerics.iterations=2 >/dev/null \
		2>"$tmp/bound.err" || fail "mpirun --bind-to core: $(grep error "$tmp/bound.err" | head -2)"
	n=$("$py" -c "import json, sys; print(json.load(open(sys.argv[1]))['setup_threads'])" "$tmp/bound/summary.json")
	[ "$n" = "$cores" ] && echo "mpirun --bind-to core: the set-up on $n threads" ||
		fail "mpirun --bind-to core: the set-up on $n threads, not the launcher's $cores cores"
fi

# too few blocks for the ranks: refused, naming the key
if mpi 3 "$fv" run "$tmp/w.cfg" partition.blocks=2 output.dir="$tmp/few" >/dev/null 2>"$tmp/few.err"; then
	fail "2 blocks on 3 ranks accepted"
elif ! grep -q "2 blocks for 3 ranks.*partition.blocks >= 3" "$tmp/few.err"; then
	fail "2 blocks on 3 ranks: $(grep error "$tmp/few.err" | head -2)"
fi
finish
