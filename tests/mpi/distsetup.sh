#!/bin/sh
# SPDX-License-Identifier: MIT
# Distributed set-up under mpirun from part files (`fvstar mesh partition
# MESH --ranks R`, each rank reading only its own part.R.bin):
#  - the wedge (mixed cells, 4 blocks) and a tet box (32 blocks) on 2 and 4
#    ranks: every block's set-up (summary.json's block_digests: local mesh,
#    halo lists, file positions) equal to the single-process set-up's, and
#    the state (restart.bin, written chunk by chunk without a whole-mesh
#    array) and history bit for bit; the solution in one piece per rank
#    (solution.pvtu) holding every cell once;
#  - the part files read while MPI and StarPU start (the default) or after
#    them (FVSTAR_PARTS_BESIDE_MPI=0 FVSTAR_STARPU_BESIDE_READ=0): the same run;
#  - the 4 ranks' restart continued on 2 ranks from parts (each reading its
#    own cells, rank 0 alone checking the whole file): as one process, and
#    a damaged one refused;
#  - memory: on R = 4 and 2 ranks from parts, no rank's largest single
#    allocation (summary.json's largest_allocation) is over 1.5 / R times the
#    largest of the whole-mesh set-up (one process reading the mesh file);
#  - a part file truncated, damaged, empty, of another mesh or of another
#    cut of the same mesh: a non-zero exit within the time limit, and an
#    error naming the rank and the file.
. "$top_srcdir/tests/mpi/lib.sh"
FV_MPI_TIMEOUT=90

# json_eq A B KEY: summary.json's KEY the same in run directories A and B
json_eq() {
	"$py" -c 'import json, sys; a, b = (json.load(open(f))[sys.argv[3]] for f in sys.argv[1:3]); sys.exit(a != b or not a)' \
		"$tmp/$1/summary.json" "$tmp/$2/summary.json" "$3" || fail "$1 / $2: $3 differ"
}

# pieces DIR NP CELLS: solution.pvtu of NP pieces holding CELLS cells
pieces() {
	n=$(grep -c "<Piece Source=" "$tmp/$1/solution.pvtu")
	[ "$n" = "$2" ] || fail "$1: solution.pvtu has $n pieces, not $2"
	c=$(cat "$tmp/$1"/solution_*.vtu | grep -a -o 'NumberOfCells="[0-9]*"' | tr -dc '0-9\n' | awk '{ s += $1 } END { print s }')
	[ "$c" = "$3" ] || fail "$1: the pieces hold $c cells, the mesh $3"
}

# case_ranks NAME MESH BLOCKS CFG KEY=VALUE...: 1 process from the mesh file, then 2 and 4
# ranks from their part files, compared
case_ranks() {
	name=$1
	mesh=$2
	nb=$3
	cfg=$4
	shift 4
	run_np 0 "${name}1" "$cfg" "$@" partition.blocks="$nb" || fail "$name: 1 process"
	cells=$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["mesh"]["cells"])' "$tmp/${name}1/summary.json")
	for np in 2 4; do
		"$fv" mesh partition "$mesh" --ranks $np --blocks "$nb" -o "$tmp/${name}p$np" 2>/dev/null ||
			fail "$name: mesh partition --ranks $np"
		run_np $np "${name}$np" "$cfg" "$@" mesh.file="$tmp/${name}p$np" || fail "$name: $np ranks from parts"
		grep -q "mesh parts read by each rank" "$tmp/${name}$np.err" || fail "$name, $np ranks: not from the parts"
		json_eq "${name}1" "${name}$np" block_digests && echo "$name, $np ranks: every block's set-up as in one process"
		same "${name}1" "${name}$np" "$name, $np ranks from parts"
		pieces "${name}$np" $np "$cells"
	done
}

wedge_case
case_ranks wedge "$tmp/w.su2" 4 "$tmp/w.cfg" numerics.iterations=6
# each rank read its part file while MPI and StarPU started (the default),
# and with FVSTAR_PARTS_BESIDE_MPI=0 FVSTAR_STARPU_BESIDE_READ=0 after them:
# the same run
grep -q "part file read (beside MPI's start)" "$tmp/wedge2/summary.json" ||
	fail "wedge, 2 ranks: the part file not read beside MPI's start"
grep -q "StarPU start (beside the reading)" "$tmp/wedge2/summary.json" ||
	fail "wedge, 2 ranks: StarPU not started beside the reading"
mpi 2 -x FVSTAR_PARTS_BESIDE_MPI=0 -x FVSTAR_STARPU_BESIDE_READ=0 "$fv" run "$tmp/w.cfg" output.dir="$tmp/wedge2after" output.progress_every=0 \
	numerics.residual_drop=0 numerics.iterations=6 mesh.file="$tmp/wedgep2" >/dev/null 2>"$tmp/wedge2after.err" ||
	fail "wedge, 2 ranks, FVSTAR_PARTS_BESIDE_MPI=0"
grep -q "part file read\|StarPU start" "$tmp/wedge2after/summary.json" &&
	fail "FVSTAR_PARTS_BESIDE_MPI=0 FVSTAR_STARPU_BESIDE_READ=0: read beside MPI's or StarPU's start"
same wedge2 wedge2after "wedge, 2 ranks, the part file read after MPI's and StarPU's start"

"$fv" mesh gen box --cells tet -n 24 --perturb 0.1 -o "$tmp/box.su2" >/dev/null 2>&1 || fail "mesh gen box"
cat >"$tmp/box.cfg" <<CFG
[mesh]
file = $tmp/box.su2
[flow]
mach = 0.5
alpha = 2
[bc]
xmin = farfield
xmax = farfield
ymin = farfield
ymax = farfield
zmin = farfield
zmax = farfield
CFG
case_ranks box "$tmp/box.su2" 32 "$tmp/box.cfg" numerics.iterations=3

# the 4 ranks' restart continued on 2 ranks from parts (each reading its
# own cells of it): as 6 iterations in one process
run_np 0 box1x6 "$tmp/box.cfg" numerics.iterations=6 partition.blocks=32 || fail "box: 1 process, 6 iterations"
cp -r "$tmp/box4" "$tmp/box2c" # its history goes on
run_np 2 box2c "$tmp/box.cfg" numerics.iterations=3 mesh.file="$tmp/boxp2" output.restart="$tmp/box4/restart.bin" ||
	fail "box: continued on 2 ranks from parts"
grep -q "continuing from .*box4/restart.bin at iteration 4" "$tmp/box2c.err" || fail "box: no continuation message"
same box1x6 box2c "box, the restart of 4 ranks continued on 2 ranks from parts"

# a damaged restart: rank 0 alone reads all of it for its checksum, and
# stops every rank
cp "$tmp/box4/restart.bin" "$tmp/damaged.bin"
printf 'X' | dd of="$tmp/damaged.bin" bs=1 seek=100000 conv=notrunc 2>/dev/null
if mpi 2 "$fv" run "$tmp/box.cfg" output.dir="$tmp/boxd" output.progress_every=0 mesh.file="$tmp/boxp2" \
	output.restart="$tmp/damaged.bin" >/dev/null 2>"$tmp/boxd.err"; then
	fail "damaged restart: accepted"
elif ! grep -q "error (rank 0 of 2): $tmp/damaged.bin: checksum mismatch" "$tmp/boxd.err"; then
	fail "damaged restart: $(grep -i error "$tmp/boxd.err" | head -2)"
else
	echo "damaged restart on 2 ranks from parts: refused by rank 0"
fi

# no rank of the distributed set-up (nor of its restart read and write)
# holds an array of the whole mesh's size
for d in box4 box2c; do
	"$py" - "$tmp/box1/summary.json" "$tmp/$d/summary.json" "$d" <<'PY' || fail "$d: largest allocations"
import json, sys
whole = json.load(open(sys.argv[1]))["largest_allocation"]
dist = json.load(open(sys.argv[2]))["largest_allocation"]
w = whole["bytes"][0]
print("%s: largest allocation, whole mesh on one process %d bytes (%s); each rank from parts %s"
      % (sys.argv[3], w, whole["what"][0], ", ".join("%d (%s)" % x for x in zip(dist["bytes"], dist["what"]))))
# a rank's own arrays (its cells' state for the solution piece) scale
# with 1 / R; an array over the whole mesh does not
R = len(dist["bytes"])
bad = [r for r, b in enumerate(dist["bytes"]) if b > 1.5 * w / R]
if R < 2 or bad:
    print("FAIL: rank(s) %s of %d allocated more than 1.5 / %d of the whole-mesh set-up's largest array" % (bad, R, R))
    sys.exit(1)
PY
done

# bad part files: rank 1's is bad; the run stops with its name, no hang
bad_part() {
	what=$1
	pattern=$2
	start=$(date +%s)
	mpi 2 "$fv" run "$tmp/w.cfg" output.dir="$tmp/bad" output.progress_every=0 mesh.file="$tmp/badp" \
		>/dev/null 2>"$tmp/bad.err"
	rc=$?
	took=$(($(date +%s) - start))
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		fail "$what: the ranks hung (killed after $FV_MPI_TIMEOUT s)"
	elif [ "$rc" = 0 ]; then
		fail "$what: exit status 0"
	elif ! grep -q "error (rank 1 of 2): $tmp/badp/part.1.bin: .*$pattern" "$tmp/bad.err"; then
		fail "$what: $(grep -i error "$tmp/bad.err" | head -2)"
	else
		echo "$what: exit status $rc after $took s: $(grep -m1 "error (rank" "$tmp/bad.err" | cut -c1-150)"
	fi
}
fresh() {
	rm -rf "$tmp/badp"
	cp -r "$tmp/wedgep2" "$tmp/badp"
}
fresh
size=$(wc -c <"$tmp/badp/part.1.bin")
head -c $((size / 2)) "$tmp/wedgep2/part.1.bin" >"$tmp/badp/part.1.bin"
bad_part "truncated part" "mesh part checksum mismatch"
fresh
printf 'X' | dd of="$tmp/badp/part.1.bin" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
bad_part "damaged part" "mesh part checksum mismatch"
fresh
: >"$tmp/badp/part.1.bin"
bad_part "empty part" "not an fvstar mesh part"
fresh
cp "$tmp/boxp2/part.1.bin" "$tmp/badp/part.1.bin"
bad_part "part of another mesh" "rank 1's part is of another mesh"
fresh
"$fv" mesh partition "$tmp/w.su2" --ranks 2 --blocks 3 -o "$tmp/w3" 2>/dev/null || fail "mesh partition --blocks 3"
cp "$tmp/w3/part.1.bin" "$tmp/badp/part.1.bin"
bad_part "part of another cut" "rank 1's part is of another cut of the mesh"
finish
