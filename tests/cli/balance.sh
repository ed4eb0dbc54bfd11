#!/bin/sh
# SPDX-License-Identifier: MIT
# Speed-weighted blocks (runtime.balance = speed) on CPU workers: speeds
# 1:3 of the two workers give blocks of 25% and 75% of the cells within
# the partitioner's 3% imbalance (METIS, Scotch), one block per worker or
# two, and 40:1 a block of 2.4%; the results equal those of equal blocks
# to round-off; equal
# balance ignores the speeds, bit for bit, and so do block counts that are
# no multiple of the workers (saying so); pinned speed-weighted blocks
# (fetch tasks moving the halo buffers early) give the state of the same
# blocks unpinned; bad speed lists are refused with the key named.
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
# a small share (one GPU beside 15 cores is 640:15): speeds 40:1 give the
# slow worker 2.4% of the cells (87 of 3,580), a region grown to its
# share, and the results of equal blocks (METIS's 3% tolerance alone let
# the fast block take all but one cell)
runw s401 partition.blocks=2 runtime.worker_speeds=40,1 && {
	shares s401 40,1 || fail "speeds 40:1 do not give blocks of 97.6% and 2.4%"
	"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/eq" "$tmp/s401" "40:1 vs equal" "$(tol 1e-12)" \
		"$(tol 1e-12)" || fail "40:1 blocks change the results"
}
# one kind of worker and no speeds: the equal blocks of before, bit for bit
runw sp partition.blocks=2
cmp -s "$tmp/eq/restart.bin" "$tmp/sp/restart.bin" || fail "balance = speed on equal workers changes the state"
runw eqs partition.blocks=2 runtime.balance=equal runtime.worker_speeds=1,3
cmp -s "$tmp/eq/restart.bin" "$tmp/eqs/restart.bin" || fail "balance = equal does not ignore worker_speeds"
# speed-weighted blocks run pinned to their workers, with a fetch task
# per block between the halves of the gradient's and the limiter's halos
# (the buffers moved to the worker while the limiter and the time step
# run): the state of the same blocks unpinned (no fetch task), bit for
# bit; traced (FxT StarPU), 2 fetch tasks per block and RK stage
runw s13np partition.blocks=2 runtime.worker_speeds=1,3 runtime.pin_blocks=no &&
	{ cmp -s "$tmp/s13-metis/restart.bin" "$tmp/s13np/restart.bin" ||
		fail "pinned blocks with fetch tasks and unpinned blocks differ"; }
if "$fv" run "$tmp/w.cfg" output.dir="$tmp/s13tr" numerics.iterations=20 output.progress_every=0 output.vtu=no \
	partition.blocks=2 runtime.worker_speeds=1,3 output.trace="$tmp/tr13" output.trace_from=18 \
	>/dev/null 2>"$tmp/s13tr.err"; then
	# tasks.rec holds the tasks before the recording too (marked with
	# their iteration): those of iterations 18-20
	n=$(awk '/^Name: / { name = $2 } /^Iteration: / { if (name == "fetch" && $2 >= 18) n++ }
		/^$/ { name = "" } END { print n + 0 }' "$tmp/tr13/tasks.rec")
	# 2 blocks x 2 RK stages x iterations 18-20 x (gradient, limiter)
	[ "$n" = 24 ] && echo "fetch tasks: $n" || fail "fetch tasks: $n in the trace, not 24"
elif grep -q "FxT-enabled StarPU" "$tmp/s13tr.err"; then
	echo "no FxT StarPU: the fetch task count not checked"
else
	fail "traced speed-weighted run: $(tail -1 "$tmp/s13tr.err")"
fi
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
