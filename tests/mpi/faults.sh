#!/bin/sh
# SPDX-License-Identifier: MIT
# A rank that fails stops every rank, with its message naming the rank and
# a non-zero exit, never a hang (each launch under a 60 s limit): on 2
# ranks, a broken mesh file (rank 0 reads it while rank 1 waits for its
# part); rank 1 alone given a partition directory while rank 0 reads the
# mesh (the ranks compare how they get their parts); rank 1 alone given a
# damaged part file; rank 0 unable to write its history (the others would
# wait for it); a divergence (NaN residuals, seen by every rank alike) ends
# with one message, from rank 0, and the last good state in solution.pvtu
# (a piece per rank), as on one rank.
. "$top_srcdir/tests/mpi/lib.sh"
FV_MPI_TIMEOUT=60

wedge_case
echo "this is not a mesh" >"$tmp/bad.su2"
cat >"$tmp/rank1.sh" <<'SH'
#!/bin/sh
# rank 1 runs with one more key=value: $ONE; the others with $ZERO, if set
if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then exec "$@" "$ONE"; fi
if [ -n "$ZERO" ]; then exec "$@" "$ZERO"; fi
exec "$@"
SH
chmod +x "$tmp/rank1.sh"

# one_rank_fails NAME KEY=VALUE MESSAGE [KEY=VALUE]: rank 1 runs with
# KEY=VALUE, the others with the last (if given)
one_rank_fails() {
	start=$(date +%s)
	ONE=$2 ZERO=${4:-} mpi 2 -x ONE -x ZERO "$tmp/rank1.sh" "$fv" run "$tmp/w.cfg" partition.blocks=2 \
		numerics.iterations=50 output.dir="$tmp/$1" output.progress_every=0 >/dev/null 2>"$tmp/$1.err"
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
one_rank_fails badmesh mesh.file="$tmp/bad.su2" "fvstar: error (rank 0 of 2): $tmp/bad.su2:1: " \
	mesh.file="$tmp/bad.su2"
"$fv" mesh partition "$tmp/w.su2" --ranks 2 -o "$tmp/parts" 2>/dev/null || fail "mesh partition"
one_rank_fails partdir mesh.file="$tmp/parts" \
	"error (rank [01] of 2): rank [01]: mesh.file being a partition directory (1) or a mesh (0) is"
cp -r "$tmp/parts" "$tmp/damaged"
printf 'XXXX' | dd of="$tmp/damaged/part.1.bin" bs=1 seek=200 conv=notrunc 2>/dev/null
one_rank_fails damaged mesh.file="$tmp/damaged" "error (rank 1 of 2): $tmp/damaged/part.1.bin: mesh part checksum" \
	mesh.file="$tmp/damaged"

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
	grep -q "solution.pvtu holds the state of iteration" "$tmp/nan.err" || fail "divergence: no good state kept"
	[ -s "$tmp/nan/solution.pvtu" ] && [ -s "$tmp/nan/solution_1.vtu" ] || fail "divergence: no solution.pvtu"
	echo "divergence on 2 ranks: exit status $rc, one message from rank 0, last good state written"
fi
finish
