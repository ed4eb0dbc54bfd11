#!/bin/sh
# SPDX-License-Identifier: MIT
# SIGTERM and SIGINT stop a run cleanly (issue 28): the iterations in
# flight end, the restart is written, the log says the iteration reached
# and the command that continues the run, the exit status is 128 + the
# signal (143, 130). Running that command gives the uninterrupted run's
# history (iterations, residual and force columns bit for bit) and final
# state. The wedge, restart_every = 7, a signal after 10 history rows.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
N=300
R="numerics.residual_drop=0 output.progress_every=0 output.vtu=no output.restart_every=7"
# shellcheck disable=SC2086
"$fv" run "$tmp/w.cfg" output.dir="$tmp/ref" numerics.iterations=$N $R >/dev/null 2>"$tmp/ref.err" ||
	{ cat "$tmp/ref.err"; fail "uninterrupted run"; }

# stopped: DIR SIGNAL; sets $stopped_at and $cmd
stop_run() {
	d=$1 sig=$2
	# shellcheck disable=SC2086
	"$fv" run "$tmp/w.cfg" output.dir="$tmp/$d" numerics.iterations=$N $R >/dev/null 2>"$tmp/$d.err" &
	pid=$!
	n=0
	until [ -f "$tmp/$d/history.csv" ] && [ "$(wc -l <"$tmp/$d/history.csv")" -gt 10 ]; do
		sleep 0.05
		n=$((n + 1))
		[ $n -lt 600 ] || { fail "$d: no 10 rows after 30 s"; break; }
	done
	kill -"$sig" $pid
	wait $pid
	rc=$?
	stopped_at=$(sed -n "s/^fvstar: stopped by SIG$sig at iteration \([0-9]*\) of $N; .*restart.bin holds iteration \1\$/\1/p" \
		"$tmp/$d.err")
	cmd=$(sed -n 's/^fvstar: to continue: fvstar //p' "$tmp/$d.err")
	echo "SIG$sig: exit status $rc, stopped at iteration ${stopped_at:-?} of $N"
	[ -n "$stopped_at" ] || { cat "$tmp/$d.err"; fail "$d: no line with the iteration reached"; stopped_at=0; }
	[ "$stopped_at" -lt $N ] 2>/dev/null || fail "$d: the run ended before the signal ($stopped_at)"
	grep -q "^fvstar: SIG$sig received: the run stops after the iterations in flight, with a restart" "$tmp/$d.err" || fail "$d: no acknowledgement"
	k=$("$py" -c 'import sys; b = open(sys.argv[1], "rb").read(); print(int.from_bytes(b[32:40], "little"))' \
		"$tmp/$d/restart.bin")
	[ "$k" = "$stopped_at" ] || fail "$d: restart.bin holds iteration $k, the log says $stopped_at"
	rows=$(($(wc -l <"$tmp/$d/history.csv") - 1))
	[ "$rows" = "$stopped_at" ] || fail "$d: $rows history rows for iteration $stopped_at"
	echo "$cmd" | grep -q "output.restart=$tmp/$d/restart.bin numerics.iterations=$((N - stopped_at))\$" ||
		fail "$d: continue command '$cmd'"
	ls "$tmp/$d" | grep -q '\.tmp\|\.fvstar\.lock' && fail "$d: left behind: $(ls -a "$tmp/$d")"
	return $rc
}

stop_run term TERM
[ $? = 143 ] || fail "SIGTERM: exit status is not 143"
# continued with the command it printed
eval "\"\$fv\" $cmd" >/dev/null 2>"$tmp/cont.err" || { cat "$tmp/cont.err"; fail "the continue command failed"; }
cut -d, -f1,3- "$tmp/ref/history.csv" >"$tmp/h.ref"
cut -d, -f1,3- "$tmp/term/history.csv" >"$tmp/h.term"
cmp -s "$tmp/h.ref" "$tmp/h.term" || fail "continued after SIGTERM: the history differs from the uninterrupted run's"
cmp -s "$tmp/ref/restart.bin" "$tmp/term/restart.bin" || fail "continued after SIGTERM: restart.bin differs"

stop_run int INT
[ $? = 130 ] || fail "SIGINT: exit status is not 130"
finish
