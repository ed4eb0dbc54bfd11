#!/bin/sh
# SPDX-License-Identifier: MIT
# An output directory belongs to one run at a time (.fvstar.lock, issue 28):
#  - a run in progress holds it: a second run into the same directory is
#    refused, naming the first one's pid and host, and writes nothing;
#  - of two runs started together into one directory (restart_every = 10)
#    one runs and one is refused;
#  - a lock that names a live process of this host (here: the test's own
#    shell) is refused too, one of another host as well (fvstar cannot
#    tell whether it runs);
#  - a stale lock (its process gone) is taken over, and said;
#  - the lock goes when the run ends, also when it ends in an error;
#  - continuing from a restart after a run stopped in the middle of a
#    history row cuts that row off and says so: the history holds whole
#    rows, iterations in order.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
R="numerics.residual_drop=0 output.progress_every=0 output.vtu=no"
host=$(uname -n)
lock() { printf 'pid %s\nhost %s\nstarted 2026-01-01T00:00:00Z\n' "$1" "$2" >"$tmp/$3/.fvstar.lock"; }

# a run in progress holds the directory
# shellcheck disable=SC2086
"$fv" run "$tmp/w.cfg" output.dir="$tmp/busy" numerics.iterations=1000000 $R >/dev/null 2>"$tmp/bg.err" &
bg=$!
n=0
until grep -q "^pid $bg\$" "$tmp/busy/.fvstar.lock" 2>/dev/null; do
	sleep 0.1
	n=$((n + 1))
	[ $n -lt 300 ] || { fail "no lock of pid $bg after 30 s: $(cat "$tmp/bg.err")"; break; }
done
# the other run is given time to write its first rows
until [ -s "$tmp/busy/history.csv" ] || [ $n -ge 300 ]; do sleep 0.1; n=$((n + 1)); done
rows=$(wc -l <"$tmp/busy/history.csv")
# shellcheck disable=SC2086
if "$fv" run "$tmp/w.cfg" output.dir="$tmp/busy" numerics.iterations=5 $R >/dev/null 2>"$tmp/second.err"; then
	fail "a second run into a directory in use was accepted"
fi
grep -q "output directory $tmp/busy is in use by another run: pid $bg on host $host, started " "$tmp/second.err" ||
	{ cat "$tmp/second.err"; fail "the refusal does not name the other run"; }
grep -q "give this run another output.dir" "$tmp/second.err" || fail "the refusal does not say what to do"
kill -0 $bg 2>/dev/null || fail "the first run stopped"
# its history is its own: iterations 1, 2, 3, ... one row each
kill $bg
wait $bg 2>/dev/null
awk -F, 'NR > 1 && $1 != NR - 1 { bad = 1 } END { exit bad || NR < 2 }' "$tmp/busy/history.csv" ||
	fail "the first run's history is mixed: $(head -5 "$tmp/busy/history.csv")"
echo "a run in progress ($rows history rows) kept its directory from a second run"

# two runs started together (the issue's case): one runs, the other is
# refused at once; the first then stops on SIGTERM with a history of its own
# shellcheck disable=SC2086
"$fv" run "$tmp/w.cfg" output.dir="$tmp/both" numerics.iterations=1000000 output.restart_every=10 $R >/dev/null \
	2>"$tmp/both1.err" &
p1=$!
# shellcheck disable=SC2086
"$fv" run "$tmp/w.cfg" output.dir="$tmp/both" numerics.iterations=1000000 output.restart_every=10 $R >/dev/null \
	2>"$tmp/both2.err" &
p2=$!
n=0
while kill -0 $p1 2>/dev/null && kill -0 $p2 2>/dev/null && [ $n -lt 600 ]; do
	sleep 0.05
	n=$((n + 1))
done
if kill -0 $p1 2>/dev/null; then run=$p1 lost=$p2 err=both2; else run=$p2 lost=$p1 err=both1; fi
wait $lost && fail "two runs started together: neither was refused"
grep -q "output directory $tmp/both is in use by another run: pid $run on host $host" "$tmp/$err.err" ||
	{ cat "$tmp/$err.err"; fail "two runs started together: the refusal does not name the other"; }
until [ -f "$tmp/both/history.csv" ] && [ "$(wc -l <"$tmp/both/history.csv")" -gt 15 ]; do
	sleep 0.05
	n=$((n + 1))
	[ $n -lt 1200 ] || { fail "two runs started together: no rows"; break; }
done
kill -TERM $run
wait $run
[ $? = 143 ] || fail "two runs started together: the running one did not stop on SIGTERM with 143"
awk -F, 'NR == 1 { nf = NF } NR > 1 && ($1 != NR - 1 || NF != nf) { bad = 1 } END { exit bad || NR < 16 }' "$tmp/both/history.csv" ||
	fail "two runs started together: history $(head -3 "$tmp/both/history.csv")"
[ -e "$tmp/both/.fvstar.lock" ] && fail "two runs started together: the lock outlived the run"
echo "two runs started together: pid $lost refused, pid $run ran and stopped on SIGTERM"

# a lock naming a live process of this host (this shell), or another host
mkdir -p "$tmp/held" "$tmp/far"
lock $$ "$host" held
# shellcheck disable=SC2086
"$fv" run "$tmp/w.cfg" output.dir="$tmp/held" numerics.iterations=2 $R >/dev/null 2>"$tmp/held.err" &&
	fail "a lock of a live pid was ignored"
grep -q "is in use by another run: pid $$ on host $host, started 2026-01-01T00:00:00Z (lock file $tmp/held/.fvstar.lock; that process lives)" \
	"$tmp/held.err" || { cat "$tmp/held.err"; fail "live lock: message"; }
[ -f "$tmp/held/history.csv" ] && fail "a refused run wrote its history"
grep -q "^pid $$\$" "$tmp/held/.fvstar.lock" || fail "a refused run changed the lock"
lock 4242 elsewhere.example.org far
# shellcheck disable=SC2086
"$fv" run "$tmp/w.cfg" output.dir="$tmp/far" numerics.iterations=2 $R >/dev/null 2>"$tmp/far.err" &&
	fail "a lock of another host was ignored"
grep -q "pid 4242 on host elsewhere.example.org.*fvstar cannot tell from this host whether it still runs.*remove $tmp/far/.fvstar.lock" \
	"$tmp/far.err" || { cat "$tmp/far.err"; fail "other host: message"; }

# a stale lock: a pid that has ended
sh -c 'exit 0' &
dead=$!
wait $dead
kill -0 $dead 2>/dev/null && dead=999999999
mkdir -p "$tmp/stale"
lock $dead "$host" stale
# shellcheck disable=SC2086
"$fv" run "$tmp/w.cfg" output.dir="$tmp/stale" numerics.iterations=3 output.restart_every=2 $R >/dev/null \
	2>"$tmp/stale.err" || { cat "$tmp/stale.err"; fail "a stale lock was not taken over"; }
grep -q "$tmp/stale/.fvstar.lock: took over the stale lock of pid $dead on host $host, started 2026-01-01T00:00:00Z: that process is gone" \
	"$tmp/stale.err" || { cat "$tmp/stale.err"; fail "stale lock: message"; }
[ -e "$tmp/stale/.fvstar.lock" ] && fail "the lock outlived its run"
ls "$tmp/stale" | grep -q '\.tmp' && fail "temporary files left: $(ls "$tmp/stale")"

# an error after the lock was taken releases it too (a restart of another mesh)
"$fv" mesh gen ramp --cells mixed --nx 20 --ny 16 --nz 2 --hi 1.5,1,0.1 --angle 10 -o "$tmp/w20.su2" >/dev/null 2>&1
# shellcheck disable=SC2086
"$fv" run "$tmp/w.cfg" output.dir="$tmp/err" mesh.file="$tmp/w20.su2" output.restart="$tmp/stale/restart.bin" \
	numerics.iterations=2 $R >/dev/null 2>"$tmp/err.err" && fail "a restart of another mesh was accepted"
grep -q "cell count differs" "$tmp/err.err" || { cat "$tmp/err.err"; fail "wrong error"; }
[ -e "$tmp/err/.fvstar.lock" ] && fail "the lock outlived a run that failed"

# a history whose last row was cut (a run stopped while writing it): the
# continued run cuts it off and says so
printf '4,0.0123,0,1.2' >>"$tmp/stale/history.csv"
# shellcheck disable=SC2086
"$fv" run "$tmp/w.cfg" output.dir="$tmp/stale" numerics.iterations=2 output.restart="$tmp/stale/restart.bin" $R \
	>/dev/null 2>"$tmp/cont.err" || { cat "$tmp/cont.err"; fail "continuing"; }
grep -q "history.csv: its last row was incomplete (14 bytes without an end of line: a run stopped while writing it) and is cut off" \
	"$tmp/cont.err" || { cat "$tmp/cont.err"; fail "partial row: message"; }
awk -F, 'NR == 1 { nf = NF } NR > 1 && ($1 != NR - 1 || NF != nf) { bad = 1 } END { exit bad || NR != 6 }' "$tmp/stale/history.csv" ||
	fail "history after the cut: $(cat "$tmp/stale/history.csv")"
finish
