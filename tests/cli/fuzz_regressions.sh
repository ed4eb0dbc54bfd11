#!/bin/sh
# SPDX-License-Identifier: MIT
# Replays, for every fuzz target (tests/fuzz/seeds/NAME/), its seeds and the
# inputs that once crashed, leaked or hung it (tests/fuzz/regressions/NAME/,
# written by tools/fuzz.sh) through tests/fuzz/replay_NAME, the target
# without libFuzzer: each must return within 20 s without a signal or an
# error exit (a rejected input is a clean FV_ERR, not a failure).
set -u
fails=0; n=0; targets=0
log=${TMPDIR:-/tmp}/fuzzreg.$$
for dir in "$top_srcdir"/tests/fuzz/seeds/*/; do
	t=$(basename "$dir")
	replay="$top_builddir/tests/fuzz/replay_$t"
	targets=$((targets + 1))
	if [ ! -x "$replay" ]; then
		echo "FAIL: no $replay for the seeds in tests/fuzz/seeds/$t (tests/Makefile.inc)"
		fails=$((fails + 1))
		continue
	fi
	m=0
	for f in "$dir"* "$top_srcdir/tests/fuzz/regressions/$t"/*; do
		[ -f "$f" ] || continue
		n=$((n + 1)); m=$((m + 1))
		timeout 20 "$replay" "$f" >/dev/null 2>"$log"
		rc=$?
		if [ "$rc" != 0 ]; then
			echo "FAIL: $t: $f -> exit $rc"; tail -5 "$log"
			fails=$((fails + 1))
		fi
	done
	echo "$t: $m inputs"
	[ "$m" -gt 0 ] || { echo "FAIL: $t: no seed"; fails=$((fails + 1)); }
done
rm -f "$log"
echo "$targets targets, $n inputs replayed, $fails failure(s)"
[ "$targets" -ge 2 ] && [ "$fails" = 0 ]
