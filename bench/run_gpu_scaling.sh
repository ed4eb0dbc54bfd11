#!/bin/sh
# SPDX-License-Identifier: MIT
# Several GPUs of one node (issue 15): strong and weak scaling of the
# explicit solver, one process with all GPUs (blocks pinned, block b on
# GPU b) against one StarPU-MPI rank per GPU (local rank l on GPU l), GPU
# only, one block per GPU. The case is the box of bench/box_case.sh (a
# perturbed tet box of 6 N^3 cells, Mach 0.5 free stream, second order,
# Venkatakrishnan, SSP-RK2, local time step); a size N:R is box N refined R
# times (8^R N^3 x 6 cells), so that the large meshes are made in memory
# from a small file. Time per iteration from history.csv's wall clock over
# the iterations after the warm-up (set-up and the last restart write
# excluded); set-up time from summary.json's setup_seconds (older builds:
# the run's wall time minus the iterations' and the restart write).
# Each run appends a line to OUT/scaling.csv as soon as it ends, so a run
# cut short keeps what finished; the logs and summaries go to OUT/runs/.
# The final states of the 1-process and the R-rank run of one size and GPU
# count are compared (to 1e-10: atomic sums on the GPU).
#
# Usage: bench/run_gpu_scaling.sh FVSTAR OUT ITERATIONS WARMUP RUN...
#   RUN = MODE:GPUS:N:R   MODE = proc (one process) | mpi (a rank per GPU)
#   e.g. proc:1:75:1 proc:2:75:1 mpi:2:75:1 proc:4:75:1 mpi:4:75:1
# Environment: SCALING_TIMEOUT (seconds per run, 300), STARPU_SCHED (lws),
#   SCALING_KEYS (more case keys for every run), SCALING_LABEL (added to
#   MODE in the names and the CSV, for runs with other keys),
#   SCALING_NCPU (CPU workers beside the GPUs of a 1-process run, 0; the
#   blocks are then sized by speed, one per worker),
#   OMPI_MCA_btl_vader_single_copy_mechanism (unset: Open MPI's own choice,
#   what a user's mpirun gets; none, the bounce buffer, where a container
#   forbids process_vm_readv, as the tests' containers do),
#   SCALING_CPU=1 (a CPU worker where a GPU would be: tries the script on
#   a machine without GPUs), SCALING_TRACE=K (K > 0: each run also traces
#   its last K iterations, `fvstar trace` summarises them into
#   OUT/runs/NAME.trace.txt and the Gantt chart OUT/runs/NAME.trace/gantt.png,
#   and OUT/traces.csv gets the halo wait per worker and its share of the
#   traced window; the time per iteration is then taken before the traced
#   iterations, whose start waits for every task).
set -eu
fv=${1:?usage: bench/run_gpu_scaling.sh FVSTAR OUT ITERATIONS WARMUP RUN...}
out=${2:?OUT}
iters=${3:?ITERATIONS}
warm=${4:?WARMUP}
shift 4
top=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON3:-python3}
lim=${SCALING_TIMEOUT:-300}
export STARPU_SILENT=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export STARPU_SCHED=${STARPU_SCHED:-lws}
mkdir -p "$out/runs"
csv=$out/scaling.csv
[ -f "$csv" ] || echo "mode,gpus,box_n,refine,cells,blocks,iterations,s_per_iteration,ns_per_cell_per_stage,setup_s,wall_s,rc" >"$csv"
. "$top/bench/box_case.sh"
bindir=$(dirname "$fv")
keys="numerics.iterations=$((iters + warm)) numerics.residual_drop=0 numerics.order=2 output.vtu=no
 output.progress_every=0 output.snapshot_every=0 ${SCALING_KEYS:-}"
ntrace=${SCALING_TRACE:-0}
[ "$ntrace" -lt "$iters" ] || { echo "run_gpu_scaling: SCALING_TRACE=$ntrace must be under ITERATIONS=$iters" >&2; exit 2; }
tcsv=$out/traces.csv
[ "$ntrace" = 0 ] || [ -f "$tcsv" ] || echo "mode,gpus,box_n,refine,traced_iterations,window_ms,halo_wait_ms_per_worker,halo_wait_pct" >"$tcsv"

for r in "$@"; do
	IFS=: read -r mode g n ref <<EOF
$r
EOF
	name=$mode${SCALING_LABEL:-}-g$g-n$n-r$ref
	ncpu=${SCALING_NCPU:-0} ncuda=$g ncuda1=1
	[ "${SCALING_CPU:-0}" = 0 ] || { ncpu=$g ncuda=0 ncuda1=0; [ "$mode" = proc ] || ncpu=1; }
	# CPU workers beside the GPUs: blocks sized by speed, one per worker
	# (runtime.balance = speed needs partition.blocks = 0 or k x workers)
	blocks=$g
	[ "${SCALING_CPU:-0}" != 0 ] || [ "${SCALING_NCPU:-0}" = 0 ] || blocks=0
	box_case "$bindir" "$n" "$out/runs" "box$n"
	d=$out/runs/$name
	tkeys= last=$((iters + warm))
	[ "$ntrace" = 0 ] || { last=$((iters + warm - ntrace)); tkeys="output.trace=$d.trace output.trace_from=$((last + 1))"; }
	t0=$(date +%s.%N)
	rc=0
	case $mode in
	proc)
		# shellcheck disable=SC2086
		STARPU_NCPU=$ncpu STARPU_NCUDA=$ncuda timeout "$lim" "$fv" run "$out/runs/box$n.cfg" $keys $tkeys mesh.refine="$ref" \
			partition.blocks="$blocks" output.dir="$d" >"$d.out" 2>"$d.err" || rc=$?
		;;
	mpi)
		# shellcheck disable=SC2086
		timeout "$lim" mpirun --oversubscribe --allow-run-as-root -np "$g" -x STARPU_NCPU="$ncpu" -x STARPU_NCUDA="$ncuda1" \
			-x STARPU_SILENT -x STARPU_SCHED -x LD_LIBRARY_PATH \
			"$fv" run "$out/runs/box$n.cfg" $keys $tkeys mesh.refine="$ref" partition.blocks="$g" output.dir="$d" \
			>"$d.out" 2>"$d.err" || rc=$?
		;;
	*) echo "run_gpu_scaling: $r: MODE is proc or mpi" >&2; exit 2 ;;
	esac
	t1=$(date +%s.%N)
	"$py" - "$d" "$warm" "$mode${SCALING_LABEL:-},$g,$n,$ref" "$t0" "$t1" "$rc" "$last" >>"$csv" <<'PY' || true
import csv, json, os, sys
d, warm, head, t0, t1, rc = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
wall = t1 - t0
try:
    rows = list(csv.DictReader(open(os.path.join(d, "history.csv"))))
    s = json.load(open(os.path.join(d, "summary.json")))
    t = {int(r["iteration"]): float(r["wall_s"]) for r in rows}
    last = min(max(t), int(sys.argv[7]))
    spi = (t[last] - t[warm]) / (last - warm)
    cells = s["mesh"]["cells"]
    # fvstar's own set-up clock where it has one (summary.json's
    # setup_seconds), else the wall time around the iterations
    setup = s["setup_seconds"]["total"] if "setup_seconds" in s else wall - t[last] - s.get("restart_write_seconds", 0.0)
    print("%s,%d,%d,%d,%.6g,%.4f,%.1f,%.1f,%s" % (head, cells, s["partition"]["blocks"], last - warm, spi,
                                                 spi / cells / 2 * 1e9, setup, wall, rc))
except (OSError, KeyError, ValueError) as e:
    print("%s,,,,,,,%.1f,%s" % (head, wall, rc))
    print("run_gpu_scaling: %s: %s" % (d, e), file=sys.stderr)
PY
	tail -1 "$csv"
	[ "$rc" = 0 ] || tail -3 "$d.err" >&2
	if [ "$ntrace" != 0 ] && [ -d "$d.trace" ]; then
		# every rank's FxT file, merged (the run merged them too; this
		# also draws the Gantt chart of the traced iterations)
		timeout "$lim" "$fv" trace "$d.trace" --iterations "$ntrace" >"$d.trace.txt" 2>&1 ||
			echo "run_gpu_scaling: fvstar trace $d.trace failed: $(tail -1 "$d.trace.txt")" >&2
		sed -n 's/^halo wait over the \([0-9]*\) traced iterations: \([0-9.]*\) ms per worker (\([0-9.]*\) % of the \([0-9.]*\) ms window.*/\1,\4,\2,\3/p' \
			"$d.trace.txt" | sed "s/^/$mode${SCALING_LABEL:-},$g,$n,$ref,/" >>"$tcsv"
		rm -f "$d.trace"/prof_file_* "$d.trace"/*.data
		tail -1 "$tcsv"
	fi
done

# one process against a rank per GPU, same size and GPUs: the final states
# to 1e-10 (tests/cli/compare_runs.py, as tests/gpu/mpi_gpu.sh: the GPU's
# atomic flux sums add in any order, so GPU runs are not bit for bit; the
# free stream's residual history is round-off noise, so only the state is
# compared)
for p in "$out"/runs/proc*-g*; do
	[ -d "$p" ] || continue
	m=$out/runs/mpi${p##*/proc}  # the same SCALING_LABEL
	[ -f "$m/restart.bin" ] && [ -f "$p/restart.bin" ] || continue
	"$py" "$top/tests/cli/compare_runs.py" "$p" "$m" "${p##*/}: one process vs a rank per GPU" 1e-10 none ||
		echo "${p##*/}: one process and a rank per GPU: states DIFFER"
done | tee "$out/identical.txt"
