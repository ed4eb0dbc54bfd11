#!/bin/sh
# SPDX-License-Identifier: MIT
# The set-up's threads change no result: a mixed box of 30k cells and a
# tet box of 25k (both above FV_PAR_MIN, so every threaded loop runs
# threaded) set up with OMP_NUM_THREADS=1 and 3 (oversubscribed on CI's 2
# cores, which the parts must not notice) give byte-identical part files
# (faces, renumbering, blocks, halos: `fvstar mesh partition`, METIS, the
# hilbert and rcb partitioners, and one block, its RCM also forced level
# by level on all threads, and level by level handed over to one thread
# half-way through every search, as a slow one is; its cells in RCM
# pieces of the Hilbert order, or in that order alone), the same
# `fvstar mesh info` and `fvstar mesh color` reports, the same solver
# state after 3 iterations on 5 blocks, equal to main's before the threads
# (digest recorded 2026-11-27), the same state of an implicit run on one
# block (its geometry blob built by all threads), equal to main's, and the
# same first error
# for a broken mesh.
# These meshes are small: every phase would take one thread of the 3
# (one per FV_CELLS_PER_THREAD cells), so FVSTAR_SETUP_CELLS_PER_THREAD=0
# gives every phase all of them. The cap itself: the run's phases on the
# threads their cells are worth (summary.json's setup_threads_per_phase:
# 1 by default, 2 at 12000 cells a thread, 3 uncapped) with the same
# history and state.
# A build without OpenMP runs the same code on one thread and passes too.
. "$top_srcdir/tests/cli/lib.sh"
export FVSTAR_SETUP_CELLS_PER_THREAD=0

"$fv" mesh gen box --cells mixed -n 20 --perturb 0.2 -o "$tmp/mixed.su2" >/dev/null 2>&1 || fail "mesh gen mixed"
"$fv" mesh gen box --cells tet -n 16 --perturb 0.1 -o "$tmp/tet.su2" >/dev/null 2>&1 || fail "mesh gen tet"
# the solver benchmarks' box case on the mixed mesh (box_case makes none
# where box20.su2 is there)
cp "$tmp/mixed.su2" "$tmp/box20.su2"
. "$top_srcdir/bench/box_case.sh"
box_case "$top_builddir" 20 "$tmp" box

for t in 1 3; do
	export OMP_NUM_THREADS=$t
	for m in mixed tet; do
		"$fv" mesh partition "$tmp/$m.su2" --ranks 2 --blocks 7 -o "$tmp/p$t-$m" >/dev/null 2>&1 ||
			fail "$m: mesh partition with $t threads"
		for g in hilbert rcb; do
			"$fv" mesh partition "$tmp/$m.su2" --ranks 1 --blocks 6 --partitioner $g -o "$tmp/p$t-$m-$g" \
				>/dev/null 2>&1 || fail "$m: mesh partition --partitioner $g with $t threads"
		done
		# one block (one GPU): the block is the mesh, copied by all threads
		"$fv" mesh partition "$tmp/$m.su2" --ranks 1 --blocks 1 -o "$tmp/p$t-$m-whole" >/dev/null 2>&1 ||
			fail "$m: mesh partition into 1 block with $t threads"
		# its RCM level by level on all threads (src/order/renumber.c),
		# which only components of 65536 cells try unless told
		FVSTAR_RCM_THREADS=all "$fv" mesh partition "$tmp/$m.su2" --ranks 1 --blocks 1 -o "$tmp/p$t-$m-rcm" \
			>/dev/null 2>&1 || fail "$m: mesh partition into 1 block, RCM on all $t threads"
		FVSTAR_RCM_THREADS=switch "$fv" mesh partition "$tmp/$m.su2" --ranks 1 --blocks 1 \
			-o "$tmp/p$t-$m-switch" >/dev/null 2>&1 ||
			fail "$m: mesh partition into 1 block, RCM handed over to one thread, $t threads"
		# a large block's way (the default from 2^22 cells): one
		# thread's BFS over the first cells as the trial, then all
		FVSTAR_RCM_THREADS=probe "$fv" mesh partition "$tmp/$m.su2" --ranks 1 --blocks 1 \
			-o "$tmp/p$t-$m-probe" >/dev/null 2>&1 ||
			fail "$m: mesh partition into 1 block, RCM after a short trial, $t threads"
		# the block in pieces of its Hilbert order, RCM in each
		# (FVSTAR_ORDER=chunks; session 17's default for blocks of 2^22
		# cells and more), side by side: 9 or
		# 10 pieces, or 2 (fewer than 3 threads); and the Hilbert order
		# alone
		for o in chunks:3000 chunks:16000 chain:3000 hilbert; do
			FVSTAR_ORDER=$o "$fv" mesh partition "$tmp/$m.su2" --ranks 1 --blocks 1 \
				-o "$tmp/p$t-$m-o$(echo $o | tr : _)" >/dev/null 2>&1 ||
				fail "$m: mesh partition into 1 block, FVSTAR_ORDER=$o, $t threads"
		done
		"$fv" mesh info "$tmp/$m.su2" 2>/dev/null >"$tmp/info$t-$m.txt" || fail "$m: mesh info with $t threads"
		"$fv" mesh color "$tmp/$m.su2" --method both 2>/dev/null | sed 's/, [0-9.]* ms$//' \
			>"$tmp/color$t-$m.txt" || fail "$m: mesh color with $t threads"
	done
	"$fv" run "$tmp/box.cfg" numerics.iterations=3 partition.blocks=5 output.dir="$tmp/run$t" >/dev/null \
		2>"$tmp/err" || { cat "$tmp/err"; fail "run with $t threads"; }
	cut -d, -f1,3- "$tmp/run$t/history.csv" >"$tmp/hist$t.csv" # less the wall clock
	# one block of 30k cells, implicit: the geometry blob's loops (cell
	# colours, Gauss-Seidel neighbours, gradient weights) on all threads
	"$fv" run "$tmp/box.cfg" numerics.iterations=2 partition.blocks=1 numerics.time=implicit \
		output.dir="$tmp/imp$t" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "implicit run with $t threads"; }
done
unset OMP_NUM_THREADS

for m in mixed tet; do
	for f in part.0.bin part.1.bin; do
		cmp -s "$tmp/p1-$m/$f" "$tmp/p3-$m/$f" || fail "$m: $f differs between 1 and 3 threads"
	done
	for g in hilbert rcb whole rcm switch probe ochunks_3000 ochunks_16000 ohilbert; do
		cmp -s "$tmp/p1-$m-$g/part.0.bin" "$tmp/p3-$m-$g/part.0.bin" ||
			fail "$m: the $g part file differs between 1 and 3 threads"
	done
	cmp -s "$tmp/p1-$m-whole/part.0.bin" "$tmp/p3-$m-switch/part.0.bin" ||
		fail "$m: the RCM handed over to one thread half-way is not the serial one"
	cmp -s "$tmp/p1-$m-whole/part.0.bin" "$tmp/p3-$m-probe/part.0.bin" ||
		fail "$m: the RCM after a short trial is not the serial one"
	! cmp -s "$tmp/p1-$m-whole/part.0.bin" "$tmp/p1-$m-ochunks_3000/part.0.bin" ||
		fail "$m: RCM in pieces of 3000 cells gave the whole block's RCM"
	cmp -s "$tmp/info1-$m.txt" "$tmp/info3-$m.txt" || fail "$m: mesh info differs between 1 and 3 threads"
	cmp -s "$tmp/color1-$m.txt" "$tmp/color3-$m.txt" || fail "$m: mesh color differs between 1 and 3 threads"
	grep -q "^faces: " "$tmp/info1-$m.txt" || fail "$m: mesh info printed no faces"
done

# one block of several components (the tet box beside small mixed and tet
# boxes, glued along x): each component's RCM level by level on all
# threads, the same order as on one
"$fv" mesh gen box --cells mixed -n 3 -o "$tmp/c3.su2" >/dev/null 2>&1 || fail "mesh gen c3"
"$fv" mesh gen box --cells tet -n 2 -o "$tmp/c2.su2" >/dev/null 2>&1 || fail "mesh gen c2"
"$py" - "$tmp/glued.su2" "$tmp/c3.su2" "$tmp/tet.su2" "$tmp/c2.su2" "$tmp/c3.su2" "$tmp/c2.su2" <<'PY' ||
import sys
out, ins = sys.argv[1], sys.argv[2:]
elems, nodes, marks = [], [], {}
for k, path in enumerate(ins):
    lines, i, base = open(path).read().split("\n"), 0, len(nodes)
    while i < len(lines):
        l = lines[i].strip()
        n = int(l.split("=")[1].split()[0]) if l.startswith(("NELEM=", "NPOIN=")) else 0
        if l.startswith("NELEM="):
            elems += [[t.split()[0]] + [int(v) + base for v in t.split()[1:-1]] for t in lines[i + 1:i + 1 + n]]
        elif l.startswith("NPOIN="):
            nodes += [[float(t.split()[0]) + 2.0 * k] + t.split()[1:3] for t in lines[i + 1:i + 1 + n]]
        elif l.startswith("MARKER_TAG="):
            n = int(lines[i + 1].split("=")[1]) + 1
            marks.setdefault(l.split("=")[1].strip(), []).extend(
                [t.split()[0]] + [int(v) + base for v in t.split()[1:]] for t in lines[i + 2:i + 1 + n])
        i += n + 1
with open(out, "w") as f:
    f.write("NDIME= 3\nNELEM= %d\n" % len(elems))
    f.writelines(" ".join(map(str, e + [j])) + "\n" for j, e in enumerate(elems))
    f.write("NPOIN= %d\n" % len(nodes))
    f.writelines(" ".join(map(str, p + [j])) + "\n" for j, p in enumerate(nodes))
    f.write("NMARK= %d\n" % len(marks))
    for tag, es in marks.items():
        f.write("MARKER_TAG= %s\nMARKER_ELEMS= %d\n" % (tag, len(es)))
        f.writelines(" ".join(map(str, e)) + "\n" for e in es)
PY
	fail "gluing the boxes"
for t in 1 3; do
	FVSTAR_RCM_THREADS=all OMP_NUM_THREADS=$t "$fv" mesh partition "$tmp/glued.su2" --ranks 1 --blocks 1 \
		-o "$tmp/glued$t" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "glued boxes, 1 block, $t threads"; }
done
cmp -s "$tmp/glued1/part.0.bin" "$tmp/glued3/part.0.bin" ||
	fail "glued boxes (5 components): the 1-block part file differs between 1 and 3 threads"
FVSTAR_RCM_THREADS=switch OMP_NUM_THREADS=3 "$fv" mesh partition "$tmp/glued.su2" --ranks 1 --blocks 1 \
	-o "$tmp/glued-switch" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "glued boxes, RCM handed over"; }
cmp -s "$tmp/glued1/part.0.bin" "$tmp/glued-switch/part.0.bin" ||
	fail "glued boxes (5 components): the RCM handed over to one thread half-way differs"
FVSTAR_RCM_THREADS=some OMP_NUM_THREADS=3 "$fv" mesh partition "$tmp/tet.su2" --ranks 1 --blocks 1 -o "$tmp/bad" \
	>/dev/null 2>"$tmp/err" && fail "FVSTAR_RCM_THREADS=some accepted"
grep -q "FVSTAR_RCM_THREADS=some: expected all, one, switch or probe" "$tmp/err" ||
	{ cat "$tmp/err"; fail "FVSTAR_RCM_THREADS=some: no clear error"; }

cmp -s "$tmp/hist1.csv" "$tmp/hist3.csv" || fail "history differs between 1 and 3 threads"
d1=$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/run1")
d3=$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/run3")
[ "$d1" = "$d3" ] || fail "state digest $d1 with 1 thread, $d3 with 3"
i1=$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/imp1")
i3=$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/imp3")
[ "$i1" = "$i3" ] || fail "implicit, 1 block: state digest $i1 with 1 thread, $i3 with 3"
if [ "$FV_TOL_SCALE" = 1 ]; then
	want=4b8c9297f0c062d23df1fbf68a0a806d03966d5bd9187be3fbd6a68548925d7b
	[ "$d1" = "$want" ] || fail "state digest $d1, main's $want"
	want=92648618897363ed80502729c39d6c5bfc0a60a127cef2f8eabfa78d3bbfd09d # main cc0037c
	[ "$i3" = "$want" ] || fail "implicit, 1 block: state digest $i3, main's $want"
fi

# the threads capped by the cells: 30k cells on 3 threads
cap() {
	FVSTAR_SETUP_CELLS_PER_THREAD=$1 OMP_NUM_THREADS=3 "$fv" run "$tmp/box.cfg" numerics.iterations=3 \
		partition.blocks=5 output.dir="$tmp/cap$1" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "run capped at $1"; }
	"$py" -c 'import json, sys
s = json.load(open(sys.argv[1]))
t = s["setup_threads_per_phase"]
print(s["setup_threads"], s["setup_cells_per_thread"], *(t[k] for k in ("mesh", "starpu", "blocks", "state", "solver")))' \
		"$tmp/cap$1/summary.json"
}
if "$py" -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["setup_threads"] != 3)' "$tmp/run3/summary.json"; then
	got=$(cap 12000)
	[ "$got" = "3 12000 2 2 2 2 2" ] || fail "capped at 12000 cells a thread: $got (threads, cap, mesh starpu blocks state solver)"
	got=$(cap 0)
	[ "$got" = "3 0 3 3 3 3 3" ] || fail "uncapped: $got"
	got=$(FVSTAR_SETUP_CELLS_PER_THREAD= cap "")
	[ "$got" = "3 32768 1 1 1 1 1" ] || fail "the default cap: $got"
	for c in 12000 0 ""; do
		cut -d, -f1,3- "$tmp/cap$c/history.csv" | cmp -s - "$tmp/hist1.csv" || fail "capped at '$c': another history"
		[ "$("$py" "$top_srcdir/tests/cli/state_digest.py" "$tmp/cap$c")" = "$d1" ] || fail "capped at '$c': another state"
	done
else
	echo "no OpenMP (one set-up thread): the cap not tested"
fi

# a cell repeated: its faces have three cells; the first error in cell
# order, whatever the threads
awk 'NR == 2 { n = $2 + 1; print "NELEM= " n; next } { print } NR == 3 { print }' "$tmp/mixed.su2" >"$tmp/bad.su2"
for t in 1 3; do
	OMP_NUM_THREADS=$t "$fv" mesh info "$tmp/bad.su2" >/dev/null 2>"$tmp/err" &&
		fail "a repeated cell accepted with $t threads"
	grep "error:" "$tmp/err" >"$tmp/bad$t.txt"
done
grep -q "shared by more than two cells" "$tmp/bad1.txt" || { cat "$tmp/bad1.txt"; fail "no error for a repeated cell"; }
cmp -s "$tmp/bad1.txt" "$tmp/bad3.txt" || fail "the error differs between 1 and 3 threads: $(cat "$tmp/bad3.txt")"
finish
