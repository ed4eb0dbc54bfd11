#!/bin/sh
# SPDX-License-Identifier: MIT
# Outputs of a run on several ranks. The solution: solution.pvtu with one
# piece per rank (solution_R.vtu, the rank's cells in the file's order with
# their cell_id), which VTK's vtkXMLPUnstructuredGridReader reads back to
# the cells, cell centres and values of the 1-rank solution.vtu, exactly.
# Restarts (the mesh file's cell order, written by rank 0 once the ranks'
# pieces are assembled): 10 iterations on 2 ranks continued for 10 on 3
# ranks give the uninterrupted 1-rank run bit for bit (same 4 blocks), and
# to 1e-12 on 3 ranks and 5 blocks; continued on 1 rank without mpirun, bit
# for bit too; the same for Sod (unsteady: the time goes on from the
# restart's). A traced run of 2 ranks gives one trace of both.
. "$top_srcdir/tests/mpi/lib.sh"

wedge_case
W="numerics.iterations=10"
run_np 0 v1 "$tmp/w.cfg" $W partition.blocks=5 || fail "1 rank"
run_np 3 v3 "$tmp/w.cfg" $W partition.blocks=5 || fail "3 ranks"
[ -f "$tmp/v3/solution.vtu" ] && fail "3 ranks wrote solution.vtu as well"
ls "$tmp/v3"/solution_*.vtu | wc -l | grep -qx 3 || fail "3 ranks: $(ls "$tmp/v3" | tr '\n' ' ')"
vpy=
for c in "${PYTHON3:-}" python3 /usr/bin/python3; do
	if [ -n "$c" ] && "$c" -c 'import vtk' >/dev/null 2>&1; then
		vpy=$c
		break
	fi
done
if [ -z "$vpy" ]; then
	echo "no python3 with vtk (python3-vtk9): the .pvtu is not read back"
else
	"$vpy" - "$tmp/v3/solution.pvtu" "$tmp/v1/solution.vtu" <<'PY' || fail "solution.pvtu of 3 ranks differs from solution.vtu of 1"
import sys
import vtk
from vtk.util.numpy_support import vtk_to_numpy as arr

def read(cls, path):
    r = cls()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()

def centres(g):
    f = vtk.vtkCellCenters()
    f.SetInputData(g)
    f.Update()
    return arr(f.GetOutput().GetPoints().GetData())

p = read(vtk.vtkXMLPUnstructuredGridReader, sys.argv[1])
s = read(vtk.vtkXMLUnstructuredGridReader, sys.argv[2])
n = s.GetNumberOfCells()
ids = arr(p.GetCellData().GetArray("cell_id"))
assert p.GetNumberOfCells() == n and sorted(ids.tolist()) == list(range(n)), "cells"
assert (centres(p) == centres(s)[ids]).all(), "cell centres"
for a in ("density", "velocity", "pressure", "mach", "entropy"):
    x = arr(p.GetCellData().GetArray(a))
    y = arr(s.GetCellData().GetArray(a))[ids]
    assert (x == y).all(), a
print("solution.pvtu of 3 ranks (%d pieces) read by vtkXMLPUnstructuredGridReader: %d cells, centres and values "
      "equal to the 1-rank solution.vtu" % (open(sys.argv[1]).read().count("<Piece "), n))
PY
fi

# a trace of 2 ranks: each rank's FxT file, merged by rank 0 into one
# tasks.rec (the flux tasks of both ranks: 4 blocks x 2 RK stages x 3
# iterations) and paje.trace
run_np 2 tr "$tmp/w.cfg" numerics.iterations=3 partition.blocks=4 output.vtu=no output.trace="$tmp/trace" ||
	fail "traced run on 2 ranks"
for r in 0 1; do
	n=$(awk -v r=$r '/^Name: / { name = $2 } /^MPIRank: / && name == "flux" && $2 == r { n++ } END { print n + 0 }' \
		"$tmp/trace/tasks.rec")
	[ "$n" = 12 ] || fail "trace: $n flux tasks of rank $r, expected 12"
done
[ -s "$tmp/trace/paje.trace" ] || fail "trace: no paje.trace"
# `fvstar trace DIR` afterwards, in one process, converts both ranks' files
# again (it once took the last file alone: one rank's tasks, MPIRank -1)
rm -f "$tmp/trace/tasks.rec"
"$fv" trace "$tmp/trace" --no-plots >"$tmp/retrace.txt" 2>&1 || fail "fvstar trace on the 2-rank trace: $(tail -3 "$tmp/retrace.txt")"
for r in 0 1; do
	n=$(awk -v r=$r '/^Name: / { name = $2 } /^MPIRank: / && name == "flux" && $2 == r { n++ } END { print n + 0 }' \
		"$tmp/trace/tasks.rec")
	[ "$n" = 12 ] || fail "fvstar trace: $n flux tasks of rank $r, expected 12"
done
grep -q "every rank's file merged" "$tmp/tr.err" || fail "trace: no merge message"
# the summary: one row per worker of each rank (StarPU names them R_CPUn),
# none busier than the traced window
awk '/trace summary/ { s = 1; next } s && $1 ~ /^[01]_CPU/ { n++; if ($4 > 100) bad = 1 } END { exit !(n == 2 && !bad) }' \
	"$tmp/tr.err" || fail "trace summary of 2 ranks: $(grep -A4 'trace summary' "$tmp/tr.err" | tr '\n' '|')"
"$py" "$top_srcdir/tools/plot_trace.py" "$tmp/trace" >"$tmp/plot.txt" 2>&1 || fail "plot_trace.py on the 2-rank trace"
grep -q "^rank 1, worker 0: " "$tmp/plot.txt" || fail "plot_trace.py: no row of rank 1: $(cat "$tmp/plot.txt")"
# StarPU-MPI's messages between the ranks (paje.trace's MPIL links), which
# the Gantt chart draws on a row per receiving rank
grep -q "^transfers: [1-9]" "$tmp/plot.txt" || fail "plot_trace.py: no MPI message in the 2-rank trace: $(cat "$tmp/plot.txt")"

# restarts: 2 ranks, then 3
run_np 0 ref "$tmp/w.cfg" numerics.iterations=20 partition.blocks=4 output.vtu=no || fail "uninterrupted run"
run_np 2 half "$tmp/w.cfg" $W partition.blocks=4 output.vtu=no || fail "10 iterations on 2 ranks"
cont() { # NAME NP KEYS...
	name=$1
	np=$2
	shift 2
	cp -r "$tmp/half" "$tmp/$name"
	run_np "$np" "$name" "$tmp/w.cfg" $W output.vtu=no output.restart="$tmp/half/restart.bin" "$@" ||
		{ fail "$name: run"; return 1; }
	grep -q "continuing from .*half/restart.bin at iteration 11" "$tmp/$name.err" || fail "$name: no continuation message"
}
cont c3 3 partition.blocks=4 && same ref c3 "restart of 2 ranks continued on 3 ranks, 4 blocks"
cont c0 0 partition.blocks=4 && same ref c0 "restart of 2 ranks continued on 1 rank, 4 blocks"
cont c35 3 partition.blocks=5 &&
	{ "$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/ref" "$tmp/c35" \
		"restart of 2 ranks (4 blocks) continued on 3 ranks, 5 blocks" 1e-12 1e-10 || fail "continued on 5 blocks"; }
# an unsteady run: the clock continues from the restart's time
"$fv" mesh gen box --cells tet --nx 60 --ny 2 --nz 2 --hi 1,0.02,0.02 -o "$tmp/sod.su2" >/dev/null 2>&1 ||
	fail "mesh gen box (Sod)"
sed "s|^file = sod.su2|file = $tmp/sod.su2|" "$top_srcdir/cases/sod/sod.cfg" >"$tmp/sod.cfg"
run_np 0 sref "$tmp/sod.cfg" numerics.iterations=16 partition.blocks=4 output.vtu=no || fail "Sod, 16 iterations"
run_np 2 shalf "$tmp/sod.cfg" numerics.iterations=8 partition.blocks=4 output.vtu=no || fail "Sod, 8 on 2 ranks"
cp -r "$tmp/shalf" "$tmp/s3"
run_np 3 s3 "$tmp/sod.cfg" numerics.iterations=8 partition.blocks=4 output.vtu=no \
	output.restart="$tmp/shalf/restart.bin" && same sref s3 "Sod: restart of 2 ranks continued on 3 ranks" ||
	fail "Sod continued on 3 ranks"
finish
