#!/bin/sh
# SPDX-License-Identifier: MIT
# Every scheduling policy of this StarPU runs the wedge case and gives the
# same residual history, bit for bit (tasks compute the same values on any
# worker, and residual rows are added in block order); 1, 8 and 32 blocks
# give the same history to 1e-12 relative (residuals that are zero up to
# round-off, like the z momentum of this 2D flow, are not compared).
set -u
fv="$top_builddir/fvstar"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
"$fv" mesh gen ramp --cells hex --nx 32 --ny 20 --nz 2 --hi 1.5,1,0.1 --angle 10 -o "$tmp/ramp.su2" 2>/dev/null
sed "s|^file = wedge.su2|file = $tmp/ramp.su2|" "$top_srcdir/cases/wedge/wedge.cfg" >"$tmp/w.cfg"
runw() { # dir, extra args...
	d=$1; shift
	"$fv" run "$tmp/w.cfg" output.dir="$tmp/$d" numerics.iterations=10 output.progress_every=0 output.vtu=no \
		"$@" >/dev/null 2>"$tmp/$d.err"
}

policies=$(STARPU_SCHED=help "$fv" runtime info 2>&1 | awk '/->/ {print $1}')
[ -n "$policies" ] || { echo "FAIL: no policy list from STARPU_SCHED=help"; exit 1; }
ref=
n=0
for p in $policies; do
	n=$((n + 1))
	if ! STARPU_SCHED=$p runw "s-$p"; then
		echo "FAIL: scheduler $p: $(tail -1 "$tmp/s-$p.err")"; fails=$((fails + 1)); continue
	fi
	h=$(cut -d, -f1,3- "$tmp/s-$p/history.csv" | md5sum | cut -d' ' -f1)
	[ -n "$ref" ] || ref=$h
	if [ "$h" != "$ref" ]; then
		echo "FAIL: scheduler $p gives another history"; fails=$((fails + 1))
	else
		echo "ok: $p"
	fi
done
echo "$n policies"

for b in 1 8 32; do
	runw "b$b" partition.blocks=$b || { echo "FAIL: $b blocks: $(tail -1 "$tmp/b$b.err")"; fails=$((fails + 1)); }
done
for b in 8 32; do
	if ! awk -F, 'NR == FNR { for (i = 4; i <= 8; i++) a[FNR, i] = $i; next }
		FNR > 1 { for (i = 4; i <= 8; i++) { x = a[FNR, i]; y = $i; d = x - y; if (d < 0) d = -d;
			s = x < 0 ? -x : x; if (s < 1e-14 && d < 1e-14) continue; # round-off noise of a zero residual
			if (d / s > m) m = d / s } }
		END { printf "blocks: max relative difference %.3g\n", m; exit !(m <= 1e-12) }' \
		"$tmp/b1/history.csv" "$tmp/b$b/history.csv"; then
		echo "FAIL: $b blocks differ from 1 block"; fails=$((fails + 1))
	fi
done
echo "$fails failure(s)"
[ "$fails" = 0 ]
