#!/bin/sh
# SPDX-License-Identifier: MIT
# A rank that fails stops every rank, with its message naming the rank and
# a non-zero exit, never a hang (each launch under a 60 s limit): on 2
# ranks, rank 1 alone given a broken mesh file; rank 1 alone given another
# mesh (the ranks compare cell counts); rank 0 unable to write its history
# (the others would wait for it); a divergence (NaN residuals, seen by every
# rank alike) ends with one message, from rank 0, and the last good state
# in solution.vtu, as on one rank.
. "$top_srcdir/tests/mpi/lib.sh"
FV_MPI_TIMEOUT=60

wedge_case
echo "this is not a mesh" >"$tmp/bad.su2"
"$fv" mesh gen ramp --cells mixed --nx 20 --ny 16 --nz 2 --hi 1.5,1,0.1 --angle 10 -o "$tmp/w20.su2" >/dev/null 2>&1
cat >"$tmp/rank1.sh" <<'SH'
#!/bin/sh
# rank 1 runs with one more key=value: $ONE
if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then exec "$@" "$ONE"; fi
exec "$@"
SH
chmod +x "$tmp/rank1.sh"

# one_rank_fails NAME KEY=VALUE MESSAGE: rank 1 runs with KEY=VALUE
one_rank_fails() {
	start=$(date +%s)
	ONE=$2 mpi 2 -x ONE "$tmp/rank1.sh" "$fv" run "$tmp/w.cfg" partition.blocks=2 numerics.iterations=50 \
		output.dir="$tmp/$1" output.progress_every=0 >/dev/null 2>"$tmp/$1.err"
	rc=$?
	took=$(($(date +%s) - start))
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		fail "$1: the ranks hung (killed after ${FV_MPI_TIMEOUT} s)"
	elif [ "$rc" = 0 ]; then
		fail "$1: exit status 0"
	elif ! grep -q "$3" "$tmp/$1.err"; then
		fail "$1: no message '$3': $(grep -i error "$tmp/$1.err" | head -3)"
	else
		echo "$1: exit status $rc after $took s: $(grep -m1 "$3" "$tmp/$1.err" | cut -c1-160)"
	fi
}
one_rank_fails badmesh mesh.file="$tmp/bad.su2" "fvstar: error (rank 1 of 2): $tmp/bad.su2:1: "
one_rank_fails othermesh mesh.file="$tmp/w20.su2" "error (rank [01] of 2): rank [01]: the mesh's cell count is"

# rank 0 alone writes the history: a failed write (history.csv -> /dev/full)
# stops every rank
if [ -w /dev/full ]; then
	mkdir -p "$tmp/full"
	ln -s /dev/full "$tmp/full/history.csv"
	mpi 2 "$fv" run "$tmp/w.cfg" partition.blocks=2 numerics.iterations=300 output.dir="$tmp/full" \
		output.progress_every=0 >/dev/null 2>"$tmp/full.err"
	rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ] || [ "$rc" = 0 ]; then
		fail "history write failure on rank 0: exit status $rc"
	else
		grep -q "error (rank 0 of 2): $tmp/full/history.csv: write failed" "$tmp/full.err" ||
			fail "history write failure: $(grep error "$tmp/full.err" | head -2)"
		echo "history.csv unwritable on rank 0: exit status $rc, $(grep -m1 'error (rank' "$tmp/full.err" | cut -c1-120)"
	fi
fi

# a divergence: every rank sees it; one message, from rank 0
mpi 2 "$fv" run "$tmp/w.cfg" partition.blocks=3 numerics.iterations=100 numerics.cfl=20 output.dir="$tmp/nan" \
	output.progress_every=0 >/dev/null 2>"$tmp/nan.err"
rc=$?
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	fail "divergence: the ranks hung"
elif [ "$rc" = 0 ]; then
	fail "divergence: exit status 0"
else
	n=$(grep -c "error (rank 0 of 2): iteration [0-9]*: the residual of .* the solution diverged" "$tmp/nan.err")
	[ "$n" = 1 ] || fail "divergence: $n messages from rank 0: $(grep error "$tmp/nan.err" | cut -c1-200)"
	grep -q "error (rank 1" "$tmp/nan.err" && fail "divergence: rank 1 reported it too"
	grep -q "solution.vtu holds the state of iteration" "$tmp/nan.err" || fail "divergence: no good state kept"
	[ -s "$tmp/nan/solution.vtu" ] || fail "divergence: no solution.vtu"
	echo "divergence on 2 ranks: exit status $rc, one message from rank 0, last good state written"
fi
finish
