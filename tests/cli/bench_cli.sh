#!/bin/sh
# SPDX-License-Identifier: MIT
# `fvstar bench`: bad use is refused with a clear message and exit status 2
# before any GPU work (unknown bench, auto or color_tasks in the bare
# driver, an unsteady case, bad options; in a build without CUDA, the
# stage bench itself), and `fvstar bench kernels` names the program it needs
# when the build tree has not built it.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
expect() { # STATUS PATTERN ARGS...: exit status and a message matching PATTERN
	want=$1 pat=$2
	shift 2
	"$fv" "$@" >"$tmp/out" 2>&1
	got=$?
	if [ $got -ne "$want" ] || ! grep -q "$pat" "$tmp/out"; then
		cat "$tmp/out"
		fail "fvstar $* (exit $got, want $want and '$pat')"
	fi
}
expect 2 "usage: fvstar bench" bench
expect 2 "unknown bench 'nope'" bench nope
if ! grep -q '^#define FV_HAVE_CUDA 1' "$top_builddir/config.h"; then
	expect 2 "fvstar bench stage needs a CUDA build" bench stage "$tmp/w.cfg"
	finish
fi
expect 2 "usage: fvstar bench stage" bench stage
expect 2 "numerics.flux_sum = auto: the bare driver runs one fixed variant" bench stage "$tmp/w.cfg" numerics.flux_sum=auto
expect 2 "numerics.gradient_sum = auto" bench stage "$tmp/w.cfg" numerics.gradient_sum=auto
expect 2 "color_tasks = yes" bench stage "$tmp/w.cfg" numerics.color_tasks=yes
expect 2 "option --iterations: '0' is not an integer" bench stage "$tmp/w.cfg" --iterations 0
expect 2 "unknown option '--nope'" bench stage "$tmp/w.cfg" --nope 3
expect 2 "option --warmup needs a value" bench stage "$tmp/w.cfg" --warmup
expect 2 "nodes_sum = color" bench stage "$tmp/w.cfg" numerics.nodes_sum=color
"$fv" mesh gen box --cells tet --nx 20 --ny 2 --nz 2 -o "$tmp/sod.su2" >/dev/null 2>&1 || fail "mesh gen box"
sed "s|^file = sod.su2|file = $tmp/sod.su2|" "$top_srcdir/cases/sod/sod.cfg" >"$tmp/sod.cfg"
expect 2 "runs steady cases only" bench stage "$tmp/sod.cfg"
if [ ! -x "$top_builddir/bench/bench_kernels" ]; then
	expect 2 "bench/bench_kernels is not built" bench kernels
fi
finish
