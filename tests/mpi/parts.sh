#!/bin/sh
# SPDX-License-Identifier: MIT
# Mesh input at scale. `fvstar mesh partition MESH --ranks R -o DIR` cuts
# the mesh once into one file per rank, and `mpirun -np R fvstar run CASE
# mesh.file=DIR` has each rank read its own part (no rank reads the mesh):
#  - the wedge on 3 ranks from a partition directory, 5 blocks: state and
#    history bit for bit those of the 1-rank run of the mesh file with 5
#    blocks (and of 3 ranks with rank 0 cutting and sending the parts);
#    partition.json lists the parts; summary.json says where the mesh came
#    from; the solution pieces are written from the parts;
#  - a directory cut for 1 rank runs without mpirun, bit for bit too;
#  - Spalart-Allmaras on TMR's plate (the wall distance from every rank's
#    share of the boundary elements, gathered), 2 ranks from a directory
#    against 1 rank, bit for bit, and wall.csv the same;
#  - refused with a clear error and no hang: a directory cut for 3 ranks
#    under 2, a damaged part file (named), a cut for more blocks than asked
#    with [mesh] refine, too few blocks for the ranks.
. "$top_srcdir/tests/mpi/lib.sh"

wedge_case
W="numerics.iterations=10"
"$fv" mesh partition "$tmp/w.su2" --ranks 3 --blocks 5 -o "$tmp/p3" 2>"$tmp/p3.err" || {
	cat "$tmp/p3.err"
	fail "mesh partition --ranks 3"
}
ls "$tmp/p3" | tr '\n' ' ' | grep -q "^part.0.bin part.1.bin part.2.bin partition.json $" ||
	fail "partition directory: $(ls "$tmp/p3" | tr '\n' ' ')"
"$py" -c 'import json, sys; j = json.load(open(sys.argv[1])); assert j["ranks"] == 3 and j["blocks"] == 5 and len(j["parts"]) == 3 and sum(p["cells"] for p in j["parts"]) == j["cells"] and all(p["mib"] > 0 for p in j["parts"])' \
	"$tmp/p3/partition.json" || fail "partition.json"

run_np 0 w1 "$tmp/w.cfg" $W partition.blocks=5 || fail "1 rank"
run_np 3 wd "$tmp/w.cfg" $W mesh.file="$tmp/p3" || fail "3 ranks from the partition directory"
same w1 wd "wedge, 5 blocks, 3 ranks reading their parts"
run_np 3 w0 "$tmp/w.cfg" $W partition.blocks=5 || fail "3 ranks, rank 0 cutting"
same w1 w0 "wedge, 5 blocks, 3 ranks sent their parts by rank 0"
grep -q "mesh parts read by each rank" "$tmp/wd.err" || fail "3 ranks from a directory: no word of the parts"
grep -q '"mesh_from": "partition directory"' "$tmp/wd/summary.json" || fail "summary.json: mesh_from"
ls "$tmp/wd"/solution_*.vtu | wc -l | grep -qx 3 || fail "3 ranks from a directory: $(ls "$tmp/wd" | tr '\n' ' ')"

"$fv" mesh partition "$tmp/w.su2" --ranks 1 --blocks 5 -o "$tmp/p1" 2>/dev/null || fail "mesh partition --ranks 1"
run_np 0 w1d "$tmp/w.cfg" $W mesh.file="$tmp/p1" || fail "1 rank from a partition directory"
same w1 w1d "wedge, 5 blocks, 1 rank reading its part"
cmp -s "$tmp/w1/solution.vtu" "$tmp/w1d/solution.vtu" || fail "1 rank from a directory: solution.vtu differs"

# Spalart-Allmaras: the wall distance of each rank's cells
"$fv" mesh gen plate --level 5 -o "$tmp/plate.su2" >/dev/null 2>&1 || fail "mesh gen plate"
sed "s|^file = plate_tmr.su2|file = $tmp/plate.su2|" "$top_srcdir/cases/plate_tmr/plate_tmr.cfg" >"$tmp/sa.cfg"
"$fv" mesh partition "$tmp/plate.su2" --ranks 2 --blocks 4 -o "$tmp/sa2" 2>/dev/null || fail "mesh partition (plate)"
run_np 0 s1 "$tmp/sa.cfg" numerics.iterations=8 partition.blocks=4 || fail "SA, 1 rank"
run_np 2 s2 "$tmp/sa.cfg" numerics.iterations=8 mesh.file="$tmp/sa2" || fail "SA, 2 ranks from a directory"
same s1 s2 "SA plate, 4 blocks, 2 ranks reading their parts"
cmp -s "$tmp/s1/wall.csv" "$tmp/s2/wall.csv" || fail "SA plate, 2 ranks: wall.csv differs"

# refusals: each names what is wrong, none hangs (the mpi helper's time limit)
refused() {
	name=$1
	pattern=$2
	shift 2
	if "$@" >/dev/null 2>"$tmp/refused.err"; then
		fail "$name: accepted"
	elif ! grep -q "$pattern" "$tmp/refused.err"; then
		fail "$name: $(grep -i error "$tmp/refused.err" | head -2)"
	else
		echo "$name: refused ($(grep -m1 -o "$pattern" "$tmp/refused.err"))"
	fi
}
refused "cut for 3 ranks, run on 2" "partitioned for 3 ranks.*this run has 2.*--ranks 2" \
	mpi 2 "$fv" run "$tmp/w.cfg" output.dir="$tmp/r2" mesh.file="$tmp/p3"
cp -r "$tmp/p3" "$tmp/bad"
printf 'X' | dd of="$tmp/bad/part.1.bin" bs=1 seek=5000 conv=notrunc 2>/dev/null
refused "damaged part" "part.1.bin: mesh part checksum mismatch" \
	mpi 3 "$fv" run "$tmp/w.cfg" output.dir="$tmp/rb" mesh.file="$tmp/bad"
printf 'not a part' >"$tmp/bad/part.0.bin"
refused "not a part" "part.0.bin: not an fvstar mesh part" \
	mpi 3 "$fv" run "$tmp/w.cfg" output.dir="$tmp/rb" mesh.file="$tmp/bad"
refused "refine with a directory" "refine = 1: a partition directory holds the mesh as cut" \
	"$fv" run "$tmp/w.cfg" output.dir="$tmp/rr" mesh.file="$tmp/p1" mesh.refine=1
refused "too few blocks" "2 blocks for 3 ranks" "$fv" mesh partition "$tmp/w.su2" --ranks 3 --blocks 2 -o "$tmp/few"
# a cut for fewer ranks replaces the files of the earlier, larger one
"$fv" mesh partition "$tmp/w.su2" --ranks 2 --blocks 4 -o "$tmp/p3" 2>/dev/null || fail "re-cut for 2 ranks"
[ ! -e "$tmp/p3/part.2.bin" ] || fail "re-cut for 2 ranks: part.2.bin of the 3-rank cut left behind"
finish
