#!/bin/sh
# SPDX-License-Identifier: MIT
# `fvstar mesh color`: on generated boxes the minimal colouring reaches the
# lower bound, the largest face count of a cell (4 for tets, 5 for prisms,
# 6 for hexes and the mixed mesh), greedy never uses fewer colours, every
# face is in one group; a bad method is an error naming the option.
. "$top_srcdir/tests/cli/lib.sh"

for spec in tet:4 prism:5 hex:6 mixed:6; do
	cells=${spec%:*} bound=${spec#*:}
	"$fv" mesh gen box --cells "$cells" -n 6 --perturb 0.1 -o "$tmp/$cells.su2" >/dev/null 2>&1 || { fail "gen $cells"; continue; }
	"$fv" mesh color "$tmp/$cells.su2" >"$tmp/$cells.out" 2>&1 || { cat "$tmp/$cells.out"; fail "color $cells"; continue; }
	faces=$("$fv" mesh info "$tmp/$cells.su2" 2>/dev/null | sed -n 's/^faces: \([0-9]*\).*/\1/p')
	awk -v want="$bound" -v faces="$faces" -v name="$cells" '
		/^(greedy|minimal): / { m = $1; sub(":", "", m); n[m] = $2; lb[m] = $6 }
		/^  (interior|boundary)/ { for (i = 2; i <= NF; i++) sum[m] += $i }
		END {
			ok = n["minimal"] == want && lb["minimal"] == want && n["greedy"] >= n["minimal"] &&
			     sum["greedy"] == faces && sum["minimal"] == faces
			printf "%s: greedy %d, minimal %d colours (bound %d), %d faces\n", name, n["greedy"], n["minimal"], want, faces
			exit ok ? 0 : 1
		}' "$tmp/$cells.out" || { cat "$tmp/$cells.out"; fail "$cells colouring"; }
done
if "$fv" mesh color "$tmp/tet.su2" --method bogus >"$tmp/err" 2>&1; then
	fail "a bad --method was accepted"
else
	grep -q "option --method: 'bogus'" "$tmp/err" || { cat "$tmp/err"; fail "bad --method message"; }
fi
finish
