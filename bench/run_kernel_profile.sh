#!/bin/sh
# SPDX-License-Identifier: MIT
# Each CUDA kernel's own time in a run, from Nsight Compute (ncu): every
# launch timed alone (gpu__time_duration, kernels serialised, no counters
# but the clock), summed per kernel body over the iterations after the
# warm-up, per iteration. It tells what the GPU computes apart from what
# the runtime adds (task starts, stream waits, halos): a run of one block
# against two on one GPU (issue 23: two blocks cost 6 % more busy time)
# compares the kernels, not the tasks.
#
# Usage: bench/run_kernel_profile.sh FVSTAR OUT N:R ITERATIONS WARMUP RUN...
#   the box of bench/box_case.sh (6 N^3 tets refined R times), every run
#   on one GPU, GPU only;
#   RUN = LABEL:BLOCKS[:KEY=VALUE,...]  e.g. b1:1 b2:2 b2-early:2:numerics.halo_late=no
# Writes OUT/LABEL.ncu.csv (ncu's raw rows), OUT/LABEL.out/err, and
# OUT/kernels.csv: label,kernel,launches_per_iteration,us_per_iteration,
# then prints a table (us per iteration, per kernel, per run side by side).
# Environment: NCU (ncu, or /usr/local/cuda/bin/ncu), PROFILE_TIMEOUT (s, 300),
#   METRICS (more ncu metrics, comma-separated, each summed per kernel and
#   iteration like the time, into OUT/kernels.csv's later columns and a
#   table each; e.g. dram__bytes_read.sum,dram__bytes_write.sum,
#   lts__t_sectors_srcunit_tex_op_read.sum: where two blocks cost more,
#   whether they move more bytes. Every metric beyond the clock makes ncu
#   replay each launch.)
set -eu
fv=${1:?usage: bench/run_kernel_profile.sh FVSTAR OUT N:R ITERATIONS WARMUP RUN...}
out=${2:?OUT}
size=${3:?N:R}
iters=${4:?ITERATIONS}
warm=${5:?WARMUP}
shift 5
top=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON3:-python3}
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
[ -x "$ncu" ] || { echo "run_kernel_profile: no ncu ($ncu)" >&2; exit 2; }
export STARPU_SILENT=1 STARPU_NCPU=0 STARPU_NCUDA=1
mkdir -p "$out"
n=${size%%:*} ref=${size#*:}
. "$top/bench/box_case.sh"
box_case "$(dirname "$fv")" "$n" "$out" box
for r in "$@"; do
	label=${r%%:*} rest=${r#*:}
	blocks=${rest%%:*} keys=
	[ "$rest" = "$blocks" ] || keys=$(echo "${rest#*:}" | tr , ' ')
	# the launches of the set-up and the warm-up are skipped by number:
	# a first run of the warm-up alone counts them
	for k in "$warm" "$((warm + iters))"; do
		# shellcheck disable=SC2086
		timeout "${PROFILE_TIMEOUT:-300}" "$ncu" --clock-control none --metrics "gpu__time_duration.sum${METRICS:+,$METRICS}" --csv \
			--page raw --print-units base --print-kernel-base demangled --log-file "$out/$label.$k.ncu.csv" \
			"$fv" run "$out/box.cfg" mesh.refine="$ref" partition.blocks="$blocks" numerics.iterations="$k" \
			numerics.residual_drop=0 output.dir="$out/$label.$k" $keys >"$out/$label.$k.out" 2>"$out/$label.$k.err" ||
			{ echo "run_kernel_profile: $label ($k iterations) failed: $(tail -2 "$out/$label.$k.err")" >&2; continue; }
	done
done
"$py" - "$out" "$iters" "$warm" "${METRICS:-}" "$@" <<'PY'
import csv, collections, os, re, sys
out, iters, warm, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[5:]
extra = [m for m in sys.argv[4].split(",") if m]

def kernels(path):
    """per kernel body: [launches, ns, metric...] over the run; ncu's raw
    page has a units row after the header"""
    agg = collections.defaultdict(lambda: [0, 0.0] + [0.0] * len(extra))
    rows = [l for l in open(path) if l.startswith('"')]
    for row in csv.DictReader(rows):
        name = row.get("Kernel Name", "")
        try:
            v = [float(row.get(c, "").replace(",", "")) for c in ["gpu__time_duration.sum"] + extra]
        except ValueError:
            continue  # the units row
        # fv_items_kernel<update_body>(...) -> update_body
        m = re.search(r"<\(anonymous namespace\)::([A-Za-z0-9_]+)|<([A-Za-z0-9_]+)", name)
        key = (m.group(1) or m.group(2)) if m else name.split("(")[0]
        agg[key][0] += 1
        for i, x in enumerate(v):
            agg[key][1 + i] += x
    return agg

table = {}
with open(os.path.join(out, "kernels.csv"), "w") as f:
    f.write("label,kernel,launches_per_iteration,us_per_iteration%s\n" % "".join("," + m for m in extra))
    for r in runs:
        label = r.split(":")[0]
        try:
            a = kernels(os.path.join(out, "%s.%d.ncu.csv" % (label, warm)))
            b = kernels(os.path.join(out, "%s.%d.ncu.csv" % (label, warm + iters)))
        except OSError as e:
            print("run_kernel_profile: %s: %s" % (label, e), file=sys.stderr)
            continue
        t = {}
        for k in b:
            z = a.get(k, [0] * len(b[k]))
            d = [(x - y) / iters for x, y in zip(b[k], z)]
            n, us, more = d[0], d[1] / 1e3, d[2:]  # ncu: ns
            if n > 0:
                t[k] = (n, us) + tuple(more)
                f.write("%s,%s,%.2f,%.1f%s\n" % (label, k, n, us, "".join(",%.6g" % x for x in more)))
        table[label] = t
labels = list(table)
names = sorted({k for t in table.values() for k in t}, key=lambda k: -max(t.get(k, (0, 0))[1] for t in table.values()))
print("us per iteration (launches per iteration)")
print("%-32s" % "kernel" + "".join("%22s" % l for l in labels))
for k in names:
    print("%-32s" % k[:32] + "".join("%14.1f (%5.1f)" % table[l][k][1::-1] if k in table[l] else "%22s" % "-" for l in labels))
print("%-32s" % "all" + "".join("%22.1f" % sum(v[1] for v in table[l].values()) for l in labels))
for i, m in enumerate(extra):
    print("\n%s per iteration, in millions" % m)
    print("%-32s" % "kernel" + "".join("%22s" % l for l in labels))
    for k in names:
        print("%-32s" % k[:32] + "".join("%22.2f" % (table[l][k][2 + i] / 1e6) if k in table[l] else "%22s" % "-" for l in labels))
    print("%-32s" % "all" + "".join("%22.2f" % (sum(v[2 + i] for v in table[l].values()) / 1e6) for l in labels))
PY
