#!/bin/sh
# SPDX-License-Identifier: MIT
# `fvstar mesh walldist`: on a 6^3 hex box of side 1 with the wall ymin, the
# centroid distances run from 1/12 to 11/12 with mean 1/2, read from an SU2
# file or generated; -o writes a VTU with the cell field wall_distance; an
# unknown marker and a missing --wall are errors naming the option.
. "$top_srcdir/tests/cli/lib.sh"

"$fv" mesh gen box -n 6 -o "$tmp/box.su2" >/dev/null 2>&1 || fail "gen"
for src in "$tmp/box.su2" box; do
	"$fv" mesh walldist "$src" -n 6 --wall ymin --threads 2 -o "$tmp/wd.vtu" >"$tmp/out" 2>&1 ||
		{ cat "$tmp/out"; fail "walldist $src"; continue; }
	awk '/^wall distance: min/ {
		ok = ($4 - 1/12)^2 < 1e-16 && ($8 - 11/12)^2 < 1e-16 && ($12 - 0.5)^2 < 1e-16; found = 1 }
		/^wall distance: 216 cells, 36 wall faces \(ymin\), threads 2: .* cells\/s$/ { head = 1 }
		END { exit found && ok && head ? 0 : 1 }' "$tmp/out" || { cat "$tmp/out"; fail "walldist $src range"; }
	grep -aq 'Name="wall_distance"' "$tmp/wd.vtu" || fail "no wall_distance field in the VTU"
	rm -f "$tmp/wd.vtu"
done
if "$fv" mesh walldist "$tmp/box.su2" --wall ymin,nowhere >"$tmp/err" 2>&1; then
	fail "an unknown wall marker was accepted"
else
	grep -q "no marker 'nowhere'" "$tmp/err" || { cat "$tmp/err"; fail "unknown marker message"; }
fi
if "$fv" mesh walldist "$tmp/box.su2" >"$tmp/err" 2>&1; then
	fail "walldist without --wall was accepted"
else
	grep -q "missing --wall" "$tmp/err" || { cat "$tmp/err"; fail "missing --wall message"; }
fi
finish
