#!/bin/sh
# SPDX-License-Identifier: MIT
# Restarts carry the physical model (format 3): on TMR's smallest flat-plate
# grid (35 x 25), a restart of an Euler run is refused by an SA run and by a
# laminar run, naming the file, both models and the key that accepts it;
# with output.restart_from_model = euler the SA run starts and says that
# nu~ starts at the free stream; a key naming a third model is refused; an
# SA restart into an Euler run is refused, then accepted saying nu~ is
# dropped; a restart of the run's own model says nothing; a format-2
# restart (no model recorded) is accepted with a line saying so.
. "$top_srcdir/tests/cli/lib.sh"

plate_case
run() { # dir, args...
	d=$1
	shift
	"$fv" run "$tmp/p.cfg" output.dir="$tmp/$d" output.progress_every=0 output.vtu=no numerics.iterations=3 "$@" \
		>/dev/null 2>"$tmp/$d.err"
}
EULER="flow.model=euler bc.wall=wall"
# shellcheck disable=SC2086
run euler $EULER || { cat "$tmp/euler.err"; fail "Euler run"; }
run sa || { cat "$tmp/sa.err"; fail "SA run"; }
E="$tmp/euler/restart.bin"

# refused: NAME MESSAGE ARGS...
refused() {
	name=$1 msg=$2
	shift 2
	if run "$name" "$@"; then
		fail "$name: accepted"
	elif ! grep -qF -- "$msg" "$tmp/$name.err"; then
		cat "$tmp/$name.err"
		fail "$name: no '$msg'"
	fi
}
# accepted: NAME MESSAGE ARGS...
accepted() {
	name=$1 msg=$2
	shift 2
	if ! run "$name" "$@"; then
		cat "$tmp/$name.err"
		fail "$name: refused"
	elif ! grep -qF -- "$msg" "$tmp/$name.err"; then
		cat "$tmp/$name.err"
		fail "$name: no '$msg'"
	fi
	grep -q "continuing from .* at iteration 4" "$tmp/$name.err" || fail "$name: no continuation line"
}

refused e2sa "$E: a restart of another physical model: written by a run of [flow] model = euler, this run's model is sa. To start this sa run from it (the inviscid solution's mean flow is the initial state; nu~ starts at the free-stream value" \
	output.restart="$E"
grep -q "set output.restart_from_model = euler$" "$tmp/e2sa.err" || fail "e2sa: the key is not named"
accepted e2sa-ok "$E is a restart of model euler, this run's model is sa (output.restart_from_model = euler): the inviscid solution's mean flow is the initial state; nu~ starts at the free-stream value 1.2e-07 everywhere" \
	output.restart="$E" output.restart_from_model=euler
refused e2lam "written by a run of [flow] model = euler, this run's model is laminar" \
	output.restart="$E" flow.model=laminar
refused e2lam-key "written by a run of [flow] model = euler, but output.restart_from_model = sa accepts a restart of model sa only" \
	output.restart="$E" flow.model=laminar output.restart_from_model=sa
accepted e2lam-ok "the viscous fluxes and the no-slip walls act from the first iteration" \
	output.restart="$E" flow.model=laminar output.restart_from_model=euler
# shellcheck disable=SC2086
refused sa2e "$tmp/sa/restart.bin: a restart of another physical model: written by a run of [flow] model = sa, this run's model is euler" \
	output.restart="$tmp/sa/restart.bin" $EULER
# shellcheck disable=SC2086
accepted sa2e-ok "its nu~ is dropped (no eddy viscosity); the viscous fluxes are dropped" \
	output.restart="$tmp/sa/restart.bin" $EULER output.restart_from_model=sa
# the run's own model: nothing to say
accepted sa2sa "continuing from" output.restart="$tmp/sa/restart.bin"
grep "^fvstar: .*\(restart of model\|restart_from_model\|physical model\)" "$tmp/sa2sa.err" && fail "sa2sa: a line on the model"

# format 2: bytes 0-103 of the header, the state, a checksum of its own
"$py" - "$tmp/sa/restart.bin" "$tmp/v2.bin" <<'PY' || fail "writing a format-2 restart"
import struct, sys
raw = open(sys.argv[1], "rb").read()
assert raw[8] == 3
head = bytearray(raw[:104])
head[8] = 2
body = bytes(head) + raw[640:-8]
h = 14695981039346656037
for b in body:
    h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
open(sys.argv[2], "wb").write(body + struct.pack("<Q", h))
PY
accepted v2 "$tmp/v2.bin (restart format 2) does not record its physical model: taken as this run's (sa), unchecked; it holds 6 variables per cell" \
	output.restart="$tmp/v2.bin"
# shellcheck disable=SC2086
accepted v2-euler "taken as this run's (euler), unchecked; it holds 6 variables per cell, its nu~ is dropped" \
	output.restart="$tmp/v2.bin" $EULER
finish
