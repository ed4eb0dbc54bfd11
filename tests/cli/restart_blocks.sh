#!/bin/sh
# SPDX-License-Identifier: MIT
# Restarts hold the mesh file's cell order: a 4-block run of the wedge
# (mixed mesh) stopped at iteration 10 and continued to 20 on 1, 3 and 8
# blocks, on other schedulers (eager, lws, dmda) and on 2 CPU workers ends
# in the state of the uninterrupted 4-block run to 1e-12 of the largest
# value, cell by cell in file order, with the same residual and force
# history (20 rows, iterations 1..20 in order); on 4 blocks and the same
# scheduler, bit for bit; the same on a refined mesh. solution.vtu of 1 and
# 4 blocks lists the same points and cells (the file's order and
# connectivity) with the same values to round-off, and `fvstar surface`
# reads the restarts of 1 and 4 blocks to the same wall Cp. A restart for
# another mesh (other cell count, same counts with a moved node, a
# refinement level) and one of the old format are refused with messages
# that name both files.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
R="numerics.residual_drop=0 output.progress_every=0"
run() { # dir, args...
	d=$1
	shift
	# shellcheck disable=SC2086
	"$fv" run "$tmp/w.cfg" output.dir="$tmp/$d" $R "$@" >/dev/null 2>"$tmp/$d.err" ||
		{ cat "$tmp/$d.err"; return 1; }
}
cmp_runs() { "$py" "$top_srcdir/tests/cli/compare_runs.py" "$@"; }

run ref numerics.iterations=20 partition.blocks=4 || fail "uninterrupted 4-block run"
run half numerics.iterations=10 partition.blocks=4 || fail "first 10 iterations on 4 blocks"

# continue: NAME, then the keys of the second half
cont() {
	name=$1
	shift
	rm -rf "${tmp:?}/$name"
	cp -r "$tmp/half" "$tmp/$name"
	run "$name" numerics.iterations=10 output.restart="$tmp/half/restart.bin" "$@" || { fail "$name: run"; return 1; }
	grep -q "continuing from .*half/restart.bin at iteration 11" "$tmp/$name.err" || fail "$name: no continuation message"
	# the history: the header and iterations 1..20, once each, in order
	awk -F, 'NR > 1 { if ($1 != NR - 1) bad = 1 } END { exit !(NR == 21 && !bad) }' "$tmp/$name/history.csv" ||
		fail "$name: history rows $(cut -d, -f1 "$tmp/$name/history.csv" | tr '\n' ' ')"
}
for nb in 1 3 8; do
	cont "b$nb" partition.blocks=$nb &&
		{ cmp_runs "$tmp/ref" "$tmp/b$nb" "4 blocks, restart at 10, continued on $nb" 1e-12 1e-10 ||
			fail "continued on $nb blocks"; }
done
for s in eager lws dmda; do
	cont "s-$s" partition.blocks=3 runtime.sched=$s runtime.ncpu=2 &&
		{ cmp_runs "$tmp/ref" "$tmp/s-$s" "4 blocks, restart at 10, continued on 3 blocks, $s, 2 CPU workers" \
			1e-12 1e-10 || fail "continued with $s"; }
done
# the same blocks and scheduler: bit for bit, history included
cont same partition.blocks=4 &&
	{ cmp -s "$tmp/ref/restart.bin" "$tmp/same/restart.bin" || fail "4 -> 4 blocks: restart.bin differs"; }
cut -d, -f1,3- "$tmp/ref/history.csv" >"$tmp/h.ref"
cut -d, -f1,3- "$tmp/same/history.csv" >"$tmp/h.same"
cmp -s "$tmp/h.ref" "$tmp/h.same" || fail "4 -> 4 blocks: history differs"

# solution.vtu of 1 and 4 blocks: the same points, connectivity, offsets
# and types byte for byte, the same density to round-off
"$py" - "$tmp/ref/solution.vtu" "$tmp/b1/solution.vtu" "$(tol 1e-12)" <<'PY' || fail "solution.vtu of 1 and 4 blocks differ"
import array, re, sys

def blocks(path):
    raw = open(path, "rb").read()
    head, data = raw.split(b"<AppendedData encoding=\"raw\">", 1)
    data = data[data.index(b"_") + 1:]
    out = {}
    for m in re.finditer(rb'<DataArray type="(\w+)" Name="(\w+)"[^>]*offset="(\d+)"', head):
        off = int(m.group(3))
        n = int.from_bytes(data[off:off + 8], "little")
        out[m.group(2).decode()] = (m.group(1).decode(), data[off + 8:off + 8 + n])
    return out

a, b = blocks(sys.argv[1]), blocks(sys.argv[2])
for k in ("Points", "connectivity", "offsets", "types"):
    assert a[k] == b[k], k
da, db = array.array("d", a["density"][1]), array.array("d", b["density"][1])
d = max(abs(x - y) for x, y in zip(da, db)) / max(abs(x) for x in da)
assert len(da) == len(db) and d <= float(sys.argv[3]), d
print("solution.vtu, 1 and 4 blocks: %d cells, same points and connectivity, density within %.2g" % (len(da), d))
PY

# a refined mesh ([mesh] refine): its own order, continued on other blocks
run rref numerics.iterations=6 partition.blocks=2 mesh.refine=1 || fail "refined, 6 iterations"
run rhalf numerics.iterations=3 partition.blocks=2 mesh.refine=1 || fail "refined, 3 iterations"
cp -r "$tmp/rhalf" "$tmp/r5"
run r5 numerics.iterations=3 partition.blocks=5 mesh.refine=1 output.restart="$tmp/rhalf/restart.bin" &&
	{ cmp_runs "$tmp/rref" "$tmp/r5" "refined mesh: 2 blocks, restart at 3, continued on 5" 1e-12 1e-10 ||
		fail "refined mesh continued on 5 blocks"; }

# fvstar surface reads a restart in file order, without partitioning: a
# box with a Riemann problem inside gives the same wall Cp from 1 and 4 blocks
uniform_box_case s
sed -i 's/^right = 1,0,2$/right = 0.5,0,1/' "$tmp/s.cfg"
for nb in 1 4; do
	"$fv" run "$tmp/s.cfg" output.dir="$tmp/sb$nb" partition.blocks=$nb output.vtu=no >/dev/null 2>"$tmp/s.err" &&
		"$fv" surface "$tmp/s.cfg" output.dir="$tmp/sb$nb" --stations 0.2,0.44 --span 1.5 --out "$tmp/sb$nb/cp" \
			>/dev/null 2>>"$tmp/s.err" || { cat "$tmp/s.err"; fail "surface of the $nb-block box"; }
done
for e in 0.20 0.44; do
	paste -d, "$tmp/sb1/cp/cp_eta$e.csv" "$tmp/sb4/cp/cp_eta$e.csv" | awk -F, -v t="$(tol 1e-12)" '
		NR > 1 { n++; d = $3 - $10; if (d < 0) d = -d; if (d > m) m = d; if ($3 < lo || n == 1) lo = $3; if ($3 > hi || n == 1) hi = $3 }
		END { printf "surface Cp at 2y/b = %s, 1 and 4 blocks: %d points, Cp %.3f..%.3f, max difference %.2g\n", e, n, lo, hi, m
		      exit !(n > 10 && hi - lo > 1 && m <= t * (hi - lo)) }' e=$e || fail "surface Cp at $e of 1 and 4 blocks"
done

# refused: another mesh or the old format, naming the restart, the mesh and
# what differs
refused() { # message, args...
	msg=$1
	shift
	if "$fv" run "$@" numerics.iterations=2 output.dir="$tmp/x" $R >/dev/null 2>"$tmp/x.err"; then
		fail "accepted: $*"
	elif ! grep -q -- "$msg" "$tmp/x.err"; then
		fail "message for $*: $(cat "$tmp/x.err"), expected $msg"
	fi
}
restart="output.restart=$tmp/half/restart.bin"
cells=$(sed -n 's/.*"cells": \([0-9]*\).*/\1/p' "$tmp/ref/summary.json" | head -1)
"$fv" mesh gen ramp --cells mixed --nx 31 --ny 16 --nz 2 --hi 1.5,1,0.1 --angle 10 -o "$tmp/w31.su2" >/dev/null 2>&1
refused "half/restart.bin: cell count differs: the restart holds $cells cells, $tmp/w31.su2 has" \
	"$tmp/w.cfg" mesh.file="$tmp/w31.su2" "$restart"
"$fv" mesh gen ramp --cells mixed --nx 30 --ny 16 --nz 2 --hi 1.5,1,0.1 --angle 10 --perturb 0.1 -o "$tmp/wp.su2" \
	>/dev/null 2>&1
refused "half/restart.bin: mesh checksum differs: the restart was written for another mesh than $tmp/wp.su2" \
	"$tmp/w.cfg" mesh.file="$tmp/wp.su2" "$restart"
refused "half/restart.bin: cell count differs" "$tmp/w.cfg" mesh.refine=1 "$restart"
# the old format: version 1 at byte 8
cp "$tmp/half/restart.bin" "$tmp/v1.bin"
printf '\001' | dd of="$tmp/v1.bin" bs=1 seek=8 conv=notrunc 2>/dev/null
refused "v1.bin: restart format version 1, written by an older fvstar" "$tmp/w.cfg" output.restart="$tmp/v1.bin"
finish
