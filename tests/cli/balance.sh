#!/bin/sh
# SPDX-License-Identifier: MIT
# Speed-weighted blocks (runtime.balance = speed) on CPU workers: speeds
# 1:3 of the two workers give blocks of 25% and 75% of the cells within
# the partitioner's 3% imbalance (METIS, Scotch), one block per worker or
# two, and the results equal those of equal blocks to round-off; equal
# balance ignores the speeds, bit for bit, and so do block counts that are
# no multiple of the workers (saying so); bad speed lists are refused with
# the key named.
. "$top_srcdir/tests/cli/lib.sh"
wedge_case
export STARPU_NCPU=2
runw() { # dir, extra args...
	d=$1; shift
	"$fv" run "$tmp/w.cfg" output.dir="$tmp/$d" numerics.iterations=20 output.progress_every=0 output.vtu=no \
		"$@" >/dev/null 2>"$tmp/$d.err" || { fail "$d: $(tail -1 "$tmp/$d.err")"; return 1; }
}
# shares of the blocks in summary.json against the weights: "w1,w2,..."
shares() { # dir, weights
	"$py" - "$tmp/$1/summary.json" "$2" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["partition"]
w = [float(x) for x in sys.argv[2].split(",")]
cells = p["block_cells"]
n = sum(cells)
ok = p["balance"] == "speed" and len(cells) % len(w) == 0
per = len(cells) // len(w) if ok else 1
for b, c in enumerate(cells):
    want = w[b // per] / sum(w) / per if ok else 0
    print("block %d: %5.2f%% of the cells (target %5.2f%%)" % (b, 100.0 * c / n, 100 * want))
    ok = ok and c <= want * n * 1.03 + 1 and c >= want * n * 0.97 - 1
sys.exit(0 if ok else 1)
PY
}

runw eq partition.blocks=2 runtime.balance=equal
for part in metis scotch; do
	runw "s13-$part" partition.blocks=2 runtime.worker_speeds=1,3 partition.partitioner=$part || continue
	grep -q "blocks sized by runtime.worker_speeds = 1,3" "$tmp/s13-$part.err" || fail "$part: no start line on the speeds"
	shares "s13-$part" 1,3 || fail "$part: speeds 1:3 do not give blocks of 25% and 75%"
	"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/eq" "$tmp/s13-$part" "1:3 $part vs equal" "$(tol 1e-12)" \
		"$(tol 1e-12)" || fail "$part: speed-weighted blocks change the results"
done
# two blocks per worker (partition.blocks = 4): 12.5% twice and 37.5% twice
runw s13x2 partition.blocks=4 runtime.worker_speeds=1,3 &&
	{ shares s13x2 1,3 || fail "4 blocks: not 12.5/12.5/37.5/37.5%"; }
# one kind of worker and no speeds: the equal blocks of before, bit for bit
runw sp partition.blocks=2
cmp -s "$tmp/eq/restart.bin" "$tmp/sp/restart.bin" || fail "balance = speed on equal workers changes the state"
runw eqs partition.blocks=2 runtime.balance=equal runtime.worker_speeds=1,3
cmp -s "$tmp/eq/restart.bin" "$tmp/eqs/restart.bin" || fail "balance = equal does not ignore worker_speeds"
# refusals
if "$fv" run "$tmp/w.cfg" output.dir="$tmp/x" runtime.worker_speeds=1,3,2 >/dev/null 2>"$tmp/x.err"; then
	fail "3 speeds for 2 workers accepted"
else
	grep -q "worker_speeds = 1,3,2: 3 speeds for 2 workers" "$tmp/x.err" || fail "3 speeds: $(tail -1 "$tmp/x.err")"
fi
runw b3 partition.blocks=3 runtime.worker_speeds=1,3 &&
	{ grep -q "3 equal blocks, placed by the scheduler: runtime.balance = speed needs one block per worker" \
		"$tmp/b3.err" || fail "3 blocks on 2 workers: no equal blocks said"; }
if "$fv" run "$tmp/w.cfg" output.dir="$tmp/x" runtime.worker_speeds=1,-3 >/dev/null 2>"$tmp/x.err"; then
	fail "a negative speed accepted"
else
	grep -q "worker_speeds = 1,-3: not a comma-separated list of positive numbers" "$tmp/x.err" ||
		fail "negative speed: $(tail -1 "$tmp/x.err")"
fi
finish
