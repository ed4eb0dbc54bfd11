#!/bin/sh
# SPDX-License-Identifier: MIT
# Interior and border tasks (numerics.overlap, issue 23): each configuration
# run with overlap = yes and no side by side in one call, so the ratios
# compare runs on the same machine. Time per iteration from history.csv's
# wall clock after WARMUP iterations (set-up and the restart write left
# out); ns per cell per RK stage from it. One CSV row per run, appended as
# soon as it ends (a run cut short keeps what finished):
#   OUT/overlap.csv: part,config,overlap,ranks,cuda,cpu,cells,blocks,
#                    s_per_iteration,ns_per_cell_stage,setup_s,rc
# Parts (each a word on the command line):
#   gpu:CFG        one GPU alone, + 1 CPU worker, + 15 CPU workers (blocks
#                  sized by speed, runtime.ncpu), CFG's case
#   ranks:CFG      CPU only: 1 process x 14 workers, 2 ranks x 7 (14 blocks),
#                  1 process x 12 workers, 4 ranks x 3 (12 blocks): each rank
#                  count against one process with as many workers
#   gpus:N:R       box N (6 N^3 tets, bench/box_case.sh) refined R times:
#                  1 GPU, then 2, 4 and 8 GPUs where the node has them, in
#                  one process and as a rank per GPU (OVERLAP_RANKS=0: one
#                  process only), a block per GPU
# Environment: OVERLAP_ITERS (iterations, 100), OVERLAP_WARMUP (20),
#   OVERLAP_TIMEOUT (seconds per run, 240), OVERLAP_KEYS (more case keys),
#   OVERLAP_KEY and OVERLAP_VALUES (the key compared and its two values:
#   numerics.overlap, "yes no"; e.g. numerics.chain, "auto no": the CSV's
#   overlap column then holds that key's value), OVERLAP_REPEAT (1: each
#   configuration run that many times, the rounds interleaved, so a drift
#   of the machine falls on every configuration; the ratios then use the
#   median and print the spread, min-max, beside it: runs of one
#   configuration on the H200 node differed by 16 % in session 17, more
#   than the effects sought).
# Usage: bench/run_overlap.sh FVSTAR OUT PART...
set -u
fv=${1:?usage: bench/run_overlap.sh FVSTAR OUT PART...}
out=${2:?OUT}
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON3:-python3}
iters=${OVERLAP_ITERS:-100}
key=${OVERLAP_KEY:-numerics.overlap}
values=${OVERLAP_VALUES:-yes no}
v1=${values%% *}
v2=${values##* }
warm=${OVERLAP_WARMUP:-20}
lim=${OVERLAP_TIMEOUT:-240}
repeat=${OVERLAP_REPEAT:-1}
export STARPU_SILENT=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI's shared-memory single copy: its own choice unless set (the
# OMPI_MCA_* variables reach every rank)
gpus=${OVERLAP_GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")}
mkdir -p "$out/runs"
csv=$out/overlap.csv
[ -f "$csv" ] || echo "part,config,overlap,ranks,cuda,cpu,cells,blocks,s_per_iteration,ns_per_cell_stage,setup_s,rc,round" >"$csv"
. "$top/bench/box_case.sh"

# one PART CONFIG OVERLAP RANKS CUDA CPU CFG KEY=VALUE...: one run, one row
one() {
	part=$1 conf=$2 ov=$3 np=$4 ncuda=$5 ncpu=$6 cfg=$7
	shift 7
	d=$out/runs/$part-$conf-${key#*.}$ov-$round
	keys="numerics.iterations=$iters numerics.residual_drop=0 $key=$ov output.vtu=no output.progress_every=0
 output.restart_every=0 output.snapshot_every=0 ${OVERLAP_KEYS:-}"
	rc=0
	if [ "$np" = 1 ]; then
		# shellcheck disable=SC2086
		STARPU_NCPU=$ncpu STARPU_NCUDA=$ncuda timeout "$lim" "$fv" run "$cfg" $keys "$@" output.dir="$d" \
			>"$d.out" 2>"$d.err" || rc=$?
	else
		# shellcheck disable=SC2086
		timeout "$lim" mpirun --oversubscribe --allow-run-as-root --bind-to none -np "$np" -x STARPU_NCPU="$ncpu" \
			-x STARPU_NCUDA="$ncuda" -x STARPU_SILENT -x LD_LIBRARY_PATH \
			"$fv" run "$cfg" $keys "$@" output.dir="$d" \
			>"$d.out" 2>"$d.err" || rc=$?
	fi
	"$py" - "$d" "$warm" "$part,$conf,$ov,$np,$ncuda,$ncpu" "$rc,$round" >>"$csv" <<'PY'
import csv, json, os, sys
d, warm, head, rc = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
try:
    t = {int(r["iteration"]): float(r["wall_s"]) for r in csv.DictReader(open(os.path.join(d, "history.csv")))}
    s = json.load(open(os.path.join(d, "summary.json")))
    last = max(t)
    spi = (t[last] - t[warm]) / (last - warm)
    cells = s["mesh"]["cells"]
    print("%s,%d,%d,%.6g,%.4f,%.1f,%s" % (head, cells, s["partition"]["blocks"], spi,
                                         spi / cells / s["rk_stages"] * 1e9, s["setup_seconds"]["total"], rc))
except (OSError, KeyError, ValueError) as e:
    print("%s,,,,,,%s" % (head, rc))
PY
	tail -1 "$csv"
	[ "$rc" = 0 ] || tail -3 "$d.err" >&2
}

round=0
while [ $round -lt "$repeat" ]; do
round=$((round + 1))
for p in "$@"; do
	case $p in
	gpu:*)
		cfg=${p#gpu:}
		for ov in $values; do
			one gpu gpu-only $ov 1 1 0 "$cfg"
			one gpu gpu+1cpu $ov 1 1 1 "$cfg" runtime.ncpu=1
			one gpu gpu+15cpu $ov 1 1 15 "$cfg" runtime.ncpu=15
		done
		;;
	ranks:*)
		cfg=${p#ranks:}
		for ov in $values; do
			one ranks 1x14 $ov 1 0 14 "$cfg" partition.blocks=14
			one ranks 2x7 $ov 2 0 7 "$cfg" partition.blocks=14
			one ranks 1x12 $ov 1 0 12 "$cfg" partition.blocks=12
			one ranks 4x3 $ov 4 0 3 "$cfg" partition.blocks=12
		done
		;;
	gpus:*)
		IFS=: read -r _ n r <<X
$p
X
		box_case "$(dirname "$fv")" "$n" "$out/runs" "box$n"
		bx="$out/runs/box$n.cfg mesh.refine=$r numerics.order=2"
		# one GPU, one block: nothing to split (one run)
		# shellcheck disable=SC2086
		one "box$n-r$r" 1gpu "$v1" 1 1 0 $bx partition.blocks=1
		for g in 2 4 8; do
			[ "$g" -le "$gpus" ] || continue
			for ov in $values; do
				# shellcheck disable=SC2086
				one "box$n-r$r" ${g}gpu $ov 1 "$g" 0 $bx partition.blocks="$g"
				[ "${OVERLAP_RANKS:-1}" = 0 ] ||
					one "box$n-r$r" ${g}rank $ov "$g" 1 0 $bx partition.blocks="$g"
			done
		done
		;;
	*) echo "run_overlap: $p: a part is gpu:CFG, ranks:CFG or gpus:N:R" >&2; exit 2 ;;
	esac
done
done
# the ratios: each configuration's time (the median of its rounds) over
# its part's first (overlap = yes), and overlap = yes over no
"$py" - "$csv" "$v1" "$v2" <<'PY'
import csv, statistics, sys
Y, N = sys.argv[2], sys.argv[3]
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["s_per_iteration"]]
runs = {}
for r in rows:
    runs.setdefault((r["part"], r["config"], r["overlap"]), []).append(float(r["s_per_iteration"]))
by = {k: statistics.median(v) for k, v in runs.items()}
def spread(k):
    v = runs.get(k, [])
    return " (%d runs %.3f-%.3f)" % (len(v), 1e3 * min(v), 1e3 * max(v)) if len(v) > 1 else ""
parts = []
for r in rows:
    if r["part"] not in parts:
        parts.append(r["part"])
for p in parts:
    confs = [c for (q, c, o) in by if q == p and o == Y]
    confs = sorted(set(confs), key=lambda c: [k[1] for k in by].index(c))
    if not confs:
        continue
    base = {"yes": by.get((p, confs[0], Y))}
    base["no"] = by.get((p, confs[0], N), base.get("yes"))  # one block: nothing split
    for c in confs:
        y, n = by.get((p, c, Y)), by.get((p, c, N))
        line = "%-12s %-10s %s %8.3f ms%s" % (p, c, Y, 1e3 * y, spread((p, c, Y)))
        if n and N != Y:
            line += "  %s %8.3f ms%s  %s/%s %.3f" % (N, 1e3 * n, spread((p, c, N)), Y, N, y / n)
        if base.get("yes"):
            line += "  speed-up over %s: %s %.2fx" % (confs[0], Y, base["yes"] / y)
            if n and N != Y and base.get("no"):
                line += ", %s %.2fx" % (N, base["no"] / n)
        print(line)
PY
