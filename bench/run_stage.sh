#!/bin/sh
# SPDX-License-Identifier: MIT
# A whole RK stage on one GPU, StarPU against the bare driver: for each
# strategy set, `fvstar bench stage` (the solver's kernels in the task
# graph's order on one stream, no runtime) and `fvstar run` (GPU only, one
# CUDA worker, one block) on the same case: a perturbed tet box of 6 N^3
# cells in a Mach 0.5 free stream, second order, Venkatakrishnan, SSP-RK2,
# local time step. StarPU's time per iteration is taken from history.csv
# (wall clock when each iteration's residuals reach the host) over the
# iterations after the warm-up, the driver's from CUDA events over the same
# iterations. Prints one line per set and the driver's stage split. A set
# named auto* has no bare run (auto is the scheduler's choice): the run
# goes under dmda twice, the first calibrating the history models.
# Usage: bench/run_stage.sh BUILDDIR N ITERATIONS WARMUP [SET ...]
#   SET: a name and numerics keys, e.g. "atomic:flux_sum=atomic,nodes_sum=atomic"
#   CASE=FILE.cfg in the environment runs that case instead of the box (N
#   is then ignored; MESH_ARGS adds overrides such as mesh.refine=2).
set -eu
build=${1:?usage: bench/run_stage.sh BUILDDIR N ITERATIONS WARMUP [SET ...]}
n=${2:?N}
iters=${3:?ITERATIONS}
warm=${4:?WARMUP}
shift 4
sets=${*:-default:flux_sum=atomic}
tmp=${BENCH_TMP:-$(mktemp -d)}
mkdir -p "$tmp"
py=${PYTHON3:-python3}
export STARPU_SILENT=1
cfg=${CASE:-$tmp/stage$n.cfg}
common="numerics.iterations=$((iters + warm)) numerics.residual_drop=0 partition.blocks=1 output.vtu=no
output.progress_every=0 ${MESH_ARGS:-}"
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/box_case.sh"
[ -n "${CASE:-}" ] || box_case "$build" "$n" "$tmp" "stage$n"
for set in $sets; do
	name=${set%%:*}
	args="$common $(echo "${set#*:}" | tr ',' '\n' | sed 's/^/numerics./')"
	sched=${STARPU_SCHED:-lws}
	case $name in
	auto*)
		sched=dmda
		rm -f "$tmp/bare-$name.json"
		# shellcheck disable=SC2086
		STARPU_SCHED=$sched STARPU_NCPU=0 STARPU_NCUDA=1 "$build/fvstar" run "$cfg" $args \
			output.dir="$tmp/cal-$name" >/dev/null 2>&1 || true
		;;
	*)
		# shellcheck disable=SC2086
		"$build/fvstar" bench stage "$cfg" $args --iterations "$iters" --warmup "$warm" \
			--json "$tmp/bare-$name.json" >"$tmp/bare-$name.txt"
		;;
	esac
	# shellcheck disable=SC2086
	STARPU_SCHED=$sched STARPU_NCPU=0 STARPU_NCUDA=1 "$build/fvstar" run "$cfg" $args \
		output.dir="$tmp/run-$name" >/dev/null 2>"$tmp/run-$name.err" || { cat "$tmp/run-$name.err"; exit 1; }
	"$py" - "$tmp/bare-$name.json" "$tmp/run-$name/history.csv" "$name" "$warm" "${set#*:}" <<'PY'
import csv, json, os, sys
rows = list(csv.DictReader(open(sys.argv[2])))
warm = int(sys.argv[4])
t = [float(r["wall_s"]) for r in rows]
n = len(t) - warm
starpu = (t[-1] - t[warm - 1]) / n * 1e3 if warm > 0 else t[-1] / n * 1e3
if not os.path.exists(sys.argv[1]):
    print("%-10s %s | StarPU (dmda, calibrated) %.3f ms/it" % (sys.argv[3], sys.argv[5], starpu))
    sys.exit(0)
b = json.load(open(sys.argv[1]))
bare = b["ms_per_iteration"]
ns = lambda ms: ms * 1e6 / (b["cells"] * b["rk_stages"])
print("%-10s %s | %d cells, %s, %s | bare %.3f ms/it (%.3f ns/cell/stage) | StarPU %.3f ms/it (%.3f ns) | StarPU/bare %.3f"
      % (sys.argv[3], sys.argv[5], b["cells"], b["device"], b["precision"], bare, ns(bare), starpu, ns(starpu), starpu / bare))
st = b["stages_ms_per_iteration"]
print("           stages (bare, ns/cell/stage): " + ", ".join("%s %.3f" % (k, ns(v)) for k, v in st.items()))
PY
done
