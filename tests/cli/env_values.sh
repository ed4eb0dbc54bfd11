#!/bin/sh
# SPDX-License-Identifier: MIT
# fvstar's own environment variables that the set-up reads refuse a value
# they cannot use: a non-zero exit and a message naming the variable and
# its value (as a bad case key does), never a silent default. The counts
# bad one writes nothing; the others where they are read. Unset or empty
# is the default, and each good value still runs.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
run() { STARPU_NCPU=1 "$fv" run "$tmp/w.cfg" numerics.iterations=1 output.vtu=no "$@"; }

# bad VAR VALUE [EXIT]: refused with the variable and the value named
bad() {
	d=$tmp/bad$((n = ${n:-0} + 1))
	env "$1=$2" STARPU_NCPU=1 "$fv" run "$tmp/w.cfg" numerics.iterations=1 output.vtu=no output.dir="$d" \
		>/dev/null 2>"$d.log"
	rc=$?
	[ $rc != 0 ] || { fail "$1='$2' accepted"; return; }
	[ -z "${3:-}" ] || [ $rc = "$3" ] || fail "$1='$2': exit $rc, not $3"
	grep -qF "error: $1=$2: " "$d.log" || { cat "$d.log"; fail "$1='$2': no message naming it"; }
	grep -q "Segmentation\|Aborted\|core dumped" "$d.log" && fail "$1='$2' crashed"
	[ $1 = FVSTAR_ORDER ] || [ ! -e "$d" ] || fail "$1='$2': $d made before the check"
}

# counts checked before the command: FVSTAR_SETUP_CELLS_PER_THREAD had
# taken its default for any of these (session 19)
for v in abc -5 1e99 99999999999999999999 1000000000001 " 64" 64x 0x40 +8 3.5; do
	bad FVSTAR_SETUP_CELLS_PER_THREAD "$v" 2
done
bad FVSTAR_MPI yes 2     # was: no MPI (atoi)
bad FVSTAR_MPI 2 2
bad FVSTAR_CUDA_WARM no 2 # was: the contexts' thread on
bad FVSTAR_CUDA_WARM off 2
bad FVSTAR_CUDA_WARM_SPARE yes 2
bad FVSTAR_PARTS_BESIDE_MPI yes 2
bad FVSTAR_STARPU_BESIDE_READ on 2
bad FVSTAR_OMP_PASSIVE auto 2
# a count read in the budget (was atof: "abc" gave 0 bytes free)
bad FVSTAR_MEMORY_AVAILABLE abc 2
bad FVSTAR_MEMORY_AVAILABLE 1e9 2
bad FVSTAR_MEMORY_AVAILABLE 0 2
bad FVSTAR_MEMORY_AVAILABLE -1 2
# read on some paths only: the geometry's sections (was atoi), where the
# blob is built (a GPU's blocks), the parallel RCM (large blocks); each
# was ignored on a run that did not take the path
bad FVSTAR_GEO_CHUNK 7k 2
bad FVSTAR_GEO_CHUNK 0 2
bad FVSTAR_GEO_DEVICE 2 2
bad FVSTAR_GEO_HOST yes 2
bad FVSTAR_RCM_THREADS many 2
bad FVSTAR_PIN maybe 2
bad FVSTAR_LAZY_FIELDS some 2
# where the cells are ordered
bad FVSTAR_ORDER rcm2
bad FVSTAR_ORDER chunks:0
bad FVSTAR_ORDER chain:0
bad FVSTAR_ORDER chains

# good values: the same history as the defaults' (the threads and the
# contexts' thread change no result; FVSTAR_GEO_CHUNK=7 the sections only)
run output.dir="$tmp/ref" >/dev/null 2>"$tmp/ref.log" || { cat "$tmp/ref.log"; fail "the default run"; }
for g in FVSTAR_SETUP_CELLS_PER_THREAD=0 FVSTAR_SETUP_CELLS_PER_THREAD=1 FVSTAR_SETUP_CELLS_PER_THREAD= \
	FVSTAR_SETUP_CELLS_PER_THREAD=1000000000000 FVSTAR_MPI=0 FVSTAR_CUDA_WARM=0 FVSTAR_CUDA_WARM=1 FVSTAR_CUDA_WARM_SPARE=1 \
	FVSTAR_PARTS_BESIDE_MPI=0 FVSTAR_MEMORY_AVAILABLE=100000000000 "FVSTAR_GEO_CHUNK=7 FVSTAR_GEO_DEVICE=1"; do
	d=$tmp/good$((k = ${k:-0} + 1))
	env $g STARPU_NCPU=1 "$fv" run "$tmp/w.cfg" numerics.iterations=1 output.vtu=no output.dir="$d" \
		>/dev/null 2>"$d.log" || { cat "$d.log"; fail "$g refused"; continue; }
	cut -d, -f1,3- "$tmp/ref/history.csv" >"$tmp/a.csv"
	cut -d, -f1,3- "$d/history.csv" >"$tmp/b.csv"
	cmp -s "$tmp/a.csv" "$tmp/b.csv" || fail "$g: another history"
done
grep -q "setup_cells_per_thread.: 1000000000000" "$tmp/good4/summary.json" ||
	fail "FVSTAR_SETUP_CELLS_PER_THREAD=1000000000000 not in summary.json"
# the threads asleep between loops: fvstar runs itself again with
# OMP_WAIT_POLICY=passive (FVSTAR_OMP_PASSIVE=1; by default from 32 cores
# on without CUDA workers), never again where a policy is set, and the same
# history either way
for g in "FVSTAR_OMP_PASSIVE=1:passive" "FVSTAR_OMP_PASSIVE=0:default" "FVSTAR_OMP_PASSIVE=1 OMP_WAIT_POLICY=active:active"; do
	d=$tmp/wait$((k = k + 1))
	env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT ${g%%:*} STARPU_NCPU=1 "$fv" run "$tmp/w.cfg" numerics.iterations=1 \
		output.vtu=no output.dir="$d" >/dev/null 2>"$d.log" || { cat "$d.log"; fail "${g%%:*} refused"; continue; }
	grep -q "setup_omp_wait_policy.: .${g#*:}." "$d/summary.json" || fail "${g%%:*}: not ${g#*:} in summary.json"
	cut -d, -f1,3- "$d/history.csv" >"$tmp/b.csv"
	cmp -s "$tmp/a.csv" "$tmp/b.csv" || fail "${g%%:*}: another history"
done

# the final files written while StarPU stops (the default, one process)
# or before it (FVSTAR_OUTPUTS_BESIDE_STOP=0): the same bytes, and the
# same summary but for the times
for v in 0 1; do
	FVSTAR_OUTPUTS_BESIDE_STOP=$v STARPU_NCPU=1 "$fv" run "$tmp/w.cfg" output.dir="$tmp/bs$v" numerics.iterations=6 \
		output.restart_every=4 output.vtu=yes >/dev/null 2>"$tmp/bs$v.log" || { cat "$tmp/bs$v.log"; fail "FVSTAR_OUTPUTS_BESIDE_STOP=$v"; }
done
for f in restart.bin wall.csv solution.vtu; do
	[ -s "$tmp/bs1/$f" ] && cmp -s "$tmp/bs0/$f" "$tmp/bs1/$f" || fail "$f beside StarPU's stop differs (or is missing)"
done
"$py" - "$tmp/bs0/summary.json" "$tmp/bs1/summary.json" <<'PY' || fail "summary.json beside StarPU's stop"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert list(a) == list(b), (list(a), list(b))
timed = {"case", "wall_seconds", "seconds_per_iteration", "ns_per_cell_per_stage", "peak_memory_mib", "memory",
         "largest_allocation", "restart_write_seconds", "output_seconds", "setup_seconds", "setup_steps", "timeline"}
diff = [k for k in a if k not in timed and a[k] != b[k]]
assert not diff, diff
assert b["restart_write_seconds"] > 0 and b["output_seconds"] > 0, b
assert "restart written" in b["timeline"] and "outputs written" in b["timeline"], b["timeline"]
PY
finish
