#!/bin/sh
# SPDX-License-Identifier: MIT
# The papers' kernel experiments (bench/bench_kernels.cu) on perturbed tet
# boxes of about 0.5, 1, 2, 4 and 10 M cells, in each precision built (a
# double tree and, where it exists, a tree configured --enable-single), the
# Markdown of every run gathered into one file; then, when Nsight Compute is
# found, one mesh under ncu for the DRAM bytes and time of each kernel.
#
# Usage: bench/run_kernels.sh [DOUBLE_BUILD [SINGLE_BUILD]]
#   (defaults build-bench and build-bench-single; a tree without
#   bench/bench_kernels is left out)
# Environment:
#   SIZES     cell counts (default "500000 1000000 2000000 4000000 10000000")
#   REPS      timed runs per kernel (default 20)
#   ONLY      bench_kernels --only list (default: every kernel)
#   NCU       auto (default: when ncu is found), 1 or 0
#   NCU_SIZE  cells of the profiled mesh (default 1000000)
#   NCU_PREC  build profiled: double (default) or single
#   OUT       when set, results go there (kernels.md, kernels.log, ncu.csv,
#             ncu.md); else bench/results/kernels-DATE.md and .log
# Exit status: 0; 1 when a run failed or disagreed with its CPU reference;
# 77 when there is no GPU.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dbuild=${1:-$top/build-bench}
sbuild=${2:-$top/build-bench-single}
sizes=${SIZES:-500000 1000000 2000000 4000000 10000000}
reps=${REPS:-20}
only=${ONLY:-}
if [ -n "${OUT:-}" ]; then
	dest=$OUT
	md=$dest/kernels.md
	log=$dest/kernels.log
else
	dest=$top/bench/results
	md=$dest/kernels-$(date +%Y-%m-%d).md
	log=$dest/kernels-$(date +%Y-%m-%d).log
fi
mkdir -p "$dest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

builds=
for b in "$dbuild" "$sbuild"; do
	[ -x "$b/bench/bench_kernels" ] && builds="$builds $b"
done
if [ -z "$builds" ]; then
	echo "run_kernels.sh: no bench/bench_kernels in $dbuild or $sbuild (make bench/bench_kernels there)" >&2
	exit 1
fi

gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 || true)
{
	echo "# Kernel experiments of the papers on one GPU ($(date +%Y-%m-%d))"
	echo
	echo "\`bench/run_kernels.sh\`: bench_kernels on gen:tet boxes (perturbed 0.1), sizes $sizes, $reps timed runs;"
	echo "host $(hostname), $(nproc) cores; GPU: ${gpu:-unknown}."
	echo
} >"$md"
: >"$log"

status=0
notes=--notes
for b in $builds; do
	for n in $sizes; do
		echo "== $b gen:tet:$n" | tee -a "$log"
		rm -f "$tmp/part.md"
		rc=0
		# shellcheck disable=SC2086
		"$b/bench/bench_kernels" "gen:tet:$n" --reps "$reps" --markdown "$tmp/part.md" $notes \
			${only:+--only "$only"} >"$tmp/run.log" 2>&1 || rc=$?
		cat "$tmp/run.log" >>"$log"
		tail -n 3 "$tmp/run.log"
		if [ "$rc" -eq 77 ]; then
			echo "run_kernels.sh: no GPU: skipped" >&2
			exit 77
		fi
		if [ -f "$tmp/part.md" ]; then
			cat "$tmp/part.md" >>"$md"
			notes=
		fi
		if [ "$rc" -ne 0 ]; then
			echo "**bench_kernels exited $rc on gen:tet:$n ($b): see the log.**" >>"$md"
			echo >>"$md"
			status=1
		fi
	done
done

# Nsight Compute: DRAM bytes and duration of every launch, one mesh, one
# timed run after the warm-up; launches are matched to kernels through the
# program's --launch-log (same order).
ncu_bin=$(command -v ncu 2>/dev/null || true)
[ -z "$ncu_bin" ] && [ -x /usr/local/cuda/bin/ncu ] && ncu_bin=/usr/local/cuda/bin/ncu
want_ncu=${NCU:-auto}
if [ "$want_ncu" = 1 ] && [ -z "$ncu_bin" ]; then
	echo "run_kernels.sh: NCU=1 but ncu not found" >&2
	status=1
elif [ "$want_ncu" != 0 ] && [ -n "$ncu_bin" ]; then
	nb=$dbuild
	[ "${NCU_PREC:-double}" = single ] && nb=$sbuild
	nsize=${NCU_SIZE:-1000000}
	csv=$dest/ncu.csv
	echo "== ncu $nb gen:tet:$nsize" | tee -a "$log"
	rc=0
	# shellcheck disable=SC2086
	"$ncu_bin" --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
		--csv --page raw --print-units base \
		"$nb/bench/bench_kernels" "gen:tet:$nsize" --reps 1 --no-flush --launch-log "$tmp/launches.tsv" \
		${only:+--only "$only"} >"$tmp/ncu.out" 2>>"$log" || rc=$?
	# the program's own lines come first; the CSV starts at its header
	sed -n '/^"ID"/,$p' "$tmp/ncu.out" >"$csv"
	sed '/^"ID"/,$d' "$tmp/ncu.out" >>"$log"
	if [ "$rc" -ne 0 ]; then
		echo "run_kernels.sh: ncu run exited $rc" >&2
		status=1
	fi
	if command -v python3 >/dev/null 2>&1 && [ -s "$csv" ]; then
		python3 - "$csv" "$tmp/launches.tsv" "$nb" "$nsize" >"$dest/ncu.md" <<'PY' || status=1
import csv, sys
from collections import OrderedDict
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
col = {name: i for i, name in enumerate(head)}
metrics = ["dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum"]
for mname in metrics + ["ID", "Kernel Name"]:
    if mname not in col:
        sys.exit("ncu CSV without column %s" % mname)
def num(s):
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return None
launches = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if l.strip()]
data = [r for r in rows[1:] if len(r) == len(head) and num(r[col["ID"]]) is not None]
data.sort(key=lambda r: num(r[col["ID"]]))
agg = OrderedDict()
j = 0
for r in data:
    name = r[col["Kernel Name"]]
    base = name[5:] if name.startswith("void ") else name
    if not base.startswith("k_"):
        continue  # not one of ours
    if j >= len(launches) or not base.startswith(launches[j][2]):
        sys.exit("ncu launch %s (%s) does not match the launch log entry %d %s" %
                 (r[col["ID"]], base, j, launches[j] if j < len(launches) else "(none)"))
    variant, run = launches[j][0], launches[j][1]
    j += 1
    a = agg.setdefault(variant, {})
    s = a.setdefault(run, [0.0, 0.0, 0.0, 0])
    for k, mname in enumerate(metrics):
        s[k] += num(r[col[mname]]) or 0.0
    s[3] += 1
if j != len(launches):
    sys.exit("ncu profiled %d of our launches, the log has %d" % (j, len(launches)))
print("## Nsight Compute: %s gen:tet:%s\n" % (sys.argv[3], sys.argv[4]))
print("Per kernel (all its launches, memsets excluded), mean over the warm-up and the timed run; ncu flushes")
print("the caches before each launch and locks the clocks to base, so its times are above the event times.\n")
print("| kernel | launches | DRAM read MB | DRAM write MB | kernel ms | DRAM GB/s |")
print("|---|---|---|---|---|---|")
for v, runs in agg.items():
    n = len(runs)
    rd = sum(s[0] for s in runs.values()) / n
    wr = sum(s[1] for s in runs.values()) / n
    ns = sum(s[2] for s in runs.values()) / n
    la = sum(s[3] for s in runs.values()) / n
    print("| %s | %g | %.1f | %.1f | %.4f | %.0f |" % (v, la, rd / 1e6, wr / 1e6, ns / 1e6,
                                                     (rd + wr) / ns if ns > 0 else 0))
print()
PY
		cat "$dest/ncu.md" >>"$md"
	fi
else
	echo "(ncu not run: NCU=$want_ncu, ncu ${ncu_bin:-not found})" | tee -a "$log"
fi
echo "run_kernels.sh: $md"
exit $status
