#!/bin/sh
# SPDX-License-Identifier: MIT
# What a new user meets first: every command's --help (exit 0), the
# effective case in OUTDIR/case.effective (on the screen with -v), progress lines with the
# iteration count and the residual drop, an unwritable home (StarPU's
# directory falls back, said once) and an unwritable output directory
# (refused before any iteration), and a diverging run: the variable, the
# iteration and the first bad cell of the mesh file named, the last good
# state in solution.vtu (byte-identical to a run stopped there), the
# restart intact.
. "$top_srcdir/tests/cli/lib.sh"

for cmd in run bench runtime keys mesh surface; do
	"$fv" $cmd --help >"$tmp/help" 2>&1 || fail "fvstar $cmd --help: exit $?"
	grep -q "usage" "$tmp/help" || fail "fvstar $cmd --help prints no usage"
done
"$fv" keys numerics | grep -q '^| `cfl` |' || fail "fvstar keys numerics has no cfl row"

wedge_case
run() { "$fv" run "$tmp/w.cfg" numerics.residual_drop=0 "$@"; }
run numerics.iterations=30 output.dir="$tmp/a" output.progress_every=10 >/dev/null 2>"$tmp/log" ||
	{ cat "$tmp/log"; fail "30 iterations"; }
grep -q "^cfl = 1.5  ; .*w.cfg:" "$tmp/a/case.effective" || fail "the effective case does not say where cfl came from"
grep -q "^iterations = 30  ; command line" "$tmp/a/case.effective" || fail "the effective case does not name the command line"
# on the screen one line names the file, and -v prints the case there too
grep -q "^fvstar: the effective case in $tmp/a/case.effective " "$tmp/log" || fail "no line naming case.effective"
grep -q "^iterations = " "$tmp/log" && fail "the effective case on the screen without -v"
grep -q "^iteration 30/30  res(rho) .* [0-9.]* orders below the peak at iteration [0-9]*  .*ETA 0 s" "$tmp/log" || {
	grep "^iteration" "$tmp/log"
	fail "progress line"
}
run -v numerics.iterations=1 output.dir="$tmp/v" >/dev/null 2>"$tmp/log" || { cat "$tmp/log"; fail "-v"; }
grep -q "^iterations = 1  ; command line" "$tmp/log" || fail "-v does not print the effective case"
sed -n '/^fvstar: the effective case (fvstar keys/,/^fvstar: /p' "$tmp/log" | sed '1d;$d' >"$tmp/screen"
cmp -s "$tmp/screen" "$tmp/v/case.effective" || fail "-v: the screen's case differs from case.effective"

# [mesh] format names the reader: gmsh on an SU2 file is an error, su2 reads it
run numerics.iterations=1 mesh.format=gmsh output.dir="$tmp/f" >/dev/null 2>"$tmp/log" &&
	fail "an SU2 file read as Gmsh"
grep -q "w.su2" "$tmp/log" || { cat "$tmp/log"; fail "the format error does not name the file"; }
run numerics.iterations=1 mesh.format=su2 output.dir="$tmp/f" >/dev/null 2>"$tmp/log" ||
	{ cat "$tmp/log"; fail "mesh.format=su2"; }

# a home where nothing can be written (a file): StarPU's directory falls back
: >"$tmp/home"
env -u STARPU_HOME HOME="$tmp/home" TMPDIR="$tmp" "$fv" run "$tmp/w.cfg" numerics.iterations=2 \
	output.dir="$tmp/h" >/dev/null 2>"$tmp/log" || { cat "$tmp/log"; fail "run with an unwritable home"; }
grep -q "is not writable: StarPU's performance models go to $tmp/fvstar-starpu-" "$tmp/log" ||
	fail "the fallback of StarPU's directory is not said"

# an output directory that exists but takes no file: refused at once
if [ "$(id -u)" = 0 ]; then ro=/proc/1; else mkdir "$tmp/ro" && chmod 555 "$tmp/ro" && ro=$tmp/ro; fi
if run numerics.iterations=2 output.dir="$ro" >/dev/null 2>"$tmp/log"; then
	fail "unwritable output directory accepted"
fi
grep -q "\[output\] dir = $ro: cannot write there" "$tmp/log" || { cat "$tmp/log"; fail "unwritable output message"; }
grep -q "^iteration [0-9]" "$tmp/log" && fail "iterations ran before the output directory was checked"

# divergence: from the restart of iteration 30 at CFL 3.2 the wedge blows
# up near iteration 70; the state of iteration 60 is kept and written
run numerics.iterations=200 numerics.cfl=3.2 output.restart="$tmp/a/restart.bin" output.snapshot_every=10 \
	output.restart_every=20 output.dir="$tmp/d" output.progress_every=0 >/dev/null 2>"$tmp/log"
rc=$?
[ "$rc" = 1 ] || fail "diverging run: exit $rc"
msg=$(tail -1 "$tmp/log")
echo "$msg"
echo "$msg" | grep -q "iteration [0-9]*: the residual of rho is NaN: the solution diverged" || fail "variable and iteration"
echo "$msg" | grep -q "the first element [0-9]* of $tmp/w.su2 at (" || fail "the first bad cell is not named"
echo "$msg" | grep -q "numerics.cfl = 3.2 now" || fail "no remedy"
good=$(echo "$msg" | sed -n 's/.*holds the state of iteration \([0-9]*\), the last good one kept.*/\1/p')
bad=$(echo "$msg" | sed -n 's/.*iteration \([0-9]*\): the residual.*/\1/p')
[ -n "$good" ] && [ "$good" -le $((bad - 2)) ] || fail "good state $good for a divergence at $bad"
echo "$msg" | grep -q "restart.bin of iteration [0-9]* is intact" || fail "the restart is not said intact"
run numerics.iterations=$((good - 30)) numerics.cfl=3.2 output.restart="$tmp/a/restart.bin" output.dir="$tmp/g" \
	output.progress_every=0 >/dev/null 2>&1 || fail "run to iteration $good"
cmp -s "$tmp/d/solution.vtu" "$tmp/g/solution.vtu" || fail "solution.vtu is not the state of iteration $good"
# the restart of iteration 70 reads (its state is the one that blows up at 71)
echo "$msg" | grep -q "restart.bin of iteration 70 is intact (but its state already leads to the divergence)" ||
	fail "the restart written just before the divergence is not flagged"
run numerics.iterations=1 output.restart="$tmp/d/restart.bin" output.dir="$tmp/e" >/dev/null 2>"$tmp/log"
grep -q "continuing from $tmp/d/restart.bin at iteration 71" "$tmp/log" ||
	{ cat "$tmp/log"; fail "the restart left by the diverged run does not read"; }
finish
