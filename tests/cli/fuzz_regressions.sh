#!/bin/sh
# SPDX-License-Identifier: MIT
# Replays the inputs that once crashed or hung the readers (found by
# tools/fuzz.sh) and the fuzzing seeds: each must end with exit 0 or a
# clean error (exit 1) within 20 s, never a signal.
set -u
fv="$top_builddir/fvstar"
fails=0; n=0
for f in "$top_srcdir"/tests/fuzz/regressions/* "$top_srcdir"/tests/fuzz/seeds/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	timeout 20 "$fv" mesh info "$f" >/dev/null 2>"${TMPDIR:-/tmp}/fuzzreg.$$"
	rc=$?
	if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
		echo "FAIL: $(basename "$f") -> exit $rc"; cat "${TMPDIR:-/tmp}/fuzzreg.$$"
		fails=$((fails + 1))
	fi
done
rm -f "${TMPDIR:-/tmp}/fuzzreg.$$"
echo "$n inputs replayed, $fails failure(s)"
[ "$n" -gt 0 ] && [ "$fails" = 0 ]
