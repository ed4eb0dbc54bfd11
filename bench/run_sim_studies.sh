#!/bin/sh
# SPDX-License-Identifier: MIT
# Simulated studies (issue 27, item 5) from one calibrated platform folder,
# on the machine that has SimGrid (no GPU needed: every run is simulated):
#   sched    fvstar bench sched on simulated 4- and 8-GPU nodes and on
#            SCHED_NODES (default 2 4) nodes of 8 GPUs (every policy, GPU
#            only, 1 and 2 blocks per GPU): sched-4gpu/, sched-8gpu/,
#            sched-2x8gpu/, .. (sched.md, sched.csv, sched.png)
#   strong   the box of 6 STRONG_N^3 cells on 1, 2, 4, 8 GPUs of one node
#            (one process), then 2, 4, 8 nodes of 8 GPUs (16, 32, 64 GPUs;
#            one rank per node, StarPU-MPI under SMPI, HDR InfiniBand)
#   weak     WEAK_CELLS cells per GPU on the same machines
#   whatif   32 GPUs (4 nodes of 8) and one 8-GPU node: GPU to GPU through
#            the host's PCIe (the calibrated links) or NVLink (direct,
#            NVLINK_GBPS), and the nodes joined by InfiniBand EDR, HDR, NDR
#            (12.5, 25, 50 GB/s per NIC, IB_LATENCY us) or 100 Gb/s
#            Ethernet (12.5 GB/s, 10 us)
# into OUTDIR: strong.csv, weak.csv, whatif.csv, scaling.png and studies.md
# (the tables, the platform folder and the command), every run's summary
# and log under runs/.
#
# Usage: bench/run_sim_studies.sh PLATFORM [BUILDDIR] [OUTDIR]
# PLATFORM: a platform folder calibrated on a GPU machine, GPU only and
# numerics.chain = no (chains keep models of the calibrated blocks only),
# one process with 2 GPUs and, for the tasks only ranks have, 2 ranks of 1
# GPU into the same folder; run_sim_validate.sh makes it (box10m-studies/
# platform; doc/simgrid.md). Simulated times mean something only with such
# models: tools/sim_platform.py fake-gpu-models makes test models, whose
# numbers are no result.
# Environment: STUDIES (default "sched strong weak whatif"), SCHED_N (box
# of the sched study, default 55: 1M cells), STRONG_N (120: 10.4M cells),
# WEAK_CELLS (160000 per GPU), ITERS (simulated iterations, 6; the first
# left out), POLICIES (bench sched --policies, default all; commas or
# spaces between the names), NVLINK_GBPS
# (300), IB_LATENCY (1.5). Needs fvstar-sim and fvstar-smpi in BUILDDIR
# (configure --with-starpu-simgrid and --with-starpu-smpi).
set -eu
cmdline="$*"
top=$(cd "$(dirname "$0")/.." && pwd)
plat=${1:?usage: bench/run_sim_studies.sh PLATFORM [BUILDDIR] [OUTDIR]}
build=${2:-$top/build}
out=${3:-${BENCH_TMP:-$(mktemp -d)}}
fv=$build/fvstar
py=${PYTHON3:-python3}
tool=$top/tools/sim_platform.py
studies=${STUDIES:-sched strong weak whatif}
iters=${ITERS:-6}
nvlink=${NVLINK_GBPS:-300}
iblat=${IB_LATENCY:-1.5}
sn=${STRONG_N:-120}
for b in fvstar-sim fvstar-smpi; do
	[ -r "$build/$b" ] || { echo "run_sim_studies: no $build/$b (doc/simgrid.md)" >&2; exit 1; }
done
[ -d "$plat/bus" ] || { echo "run_sim_studies: $plat: not a platform folder" >&2; exit 1; }
plat=$(cd "$plat" && pwd)
mkdir -p "$out/runs" "$out/platforms"
out=$(cd "$out" && pwd)
unset STARPU_NCPU STARPU_NCUDA STARPU_SCHED STARPU_CALIBRATE STARPU_HOSTNAME STARPU_PERF_MODEL_DIR
. "$top/bench/box_case.sh"

# node NAME GPUS [derive options]: a derived node folder (once)
node() {
	n=$1 g=$2
	shift 2
	[ -d "$out/platforms/$n" ] || "$py" "$tool" derive "$plat" "$out/platforms/$n" --gpus "$g" --name "$n" "$@" \
		>>"$out/platforms.log"
	echo "$out/platforms/$n"
}
# cluster NAME NODE NODES NIC_GBPS LATENCY_US: a cluster folder (once)
cluster() {
	[ -d "$out/platforms/$1" ] || "$py" "$tool" cluster "$2" "$out/platforms/$1" --nodes "$3" --nic "$4" \
		--latency "$5" >>"$out/platforms.log"
	echo "$out/platforms/$1"
}
# sim NAME CFG PLATFORM BLOCKS: one simulated run; its s/iteration on stdout
sim() {
	d=$out/runs/$1
	rm -rf "$d"
	if "$fv" sim run "$2" --platform "$3" --iterations "$iters" --warmup 1 --out "$d" partition.blocks="$4" \
		runtime.ncpu=0 numerics.chain=no output.dir="$d/o" >"$d.log" 2>&1; then
		"$py" -c 'import json, sys; print("%.9g" % json.load(open(sys.argv[1]))["seconds_per_iteration"])' \
			"$d/summary.json"
	else
		echo "run_sim_studies: $1 failed: $(grep -v '^  ' "$d.log" | tail -1)" >&2
		echo nan
	fi
}
# the machines of the scaling curves: "GPUS NODES PLATFORM"
machines() { # NIC_GBPS LATENCY_US [node options]
	nic=$1 lat=$2
	shift 2
	for g in 1 2 4 8; do echo "$g 1 $(node "gpu$g" "$g" "$@")"; done
	for n in 2 4 8; do echo "$((8 * n)) $n $(cluster "c$n-$nic-$lat" "$(node gpu8 8 "$@")" "$n" "$nic" "$lat")"; done
}

# the platform's links and models read once, loudly (the derived folders
# below are made in command substitutions, which would only print)
node gpu1 1 >/dev/null || { echo "run_sim_studies: $plat: cannot derive nodes from it (see above)" >&2; exit 1; }

case " $studies " in *" sched "*)
	box_case "$build" "${SCHED_N:-55}" "$out" sched
	for m in 4gpu 8gpu ${SCHED_NODES:-2 4}; do
		case $m in
		*gpu) p=$(node "gpu${m%gpu}" "${m%gpu}") ;;
		*) p=$(cluster "c$m-25-$iblat" "$(node gpu8 8)" "$m" 25 "$iblat") m=${m}x8gpu ;;
		esac
		"$fv" bench sched "$out/sched.cfg" numerics.chain=no --platform "$p" --workers gpu --blocks-per-worker 1,2 \
			--iterations "$iters" --warmup 1 --policies "$(echo ${POLICIES:-all} | tr ' ' ',')" -o "$out/sched-$m" \
			>"$out/sched-$m.log" 2>&1 || echo "run_sim_studies: sched on $m failed (see $out/sched-$m.log)" >&2
	done
	;;
esac

case " $studies " in *" strong "*)
	box_case "$build" "$sn" "$out" strong
	echo "gpus,nodes,cells,s_per_iteration" >"$out/strong.csv"
	machines 25 "$iblat" | while read -r g n p; do
		echo "$g,$n,$((6 * sn * sn * sn)),$(sim "strong-$g" "$out/strong.cfg" "$p" "$g")" >>"$out/strong.csv"
	done
	;;
esac

case " $studies " in *" weak "*)
	echo "gpus,nodes,cells,s_per_iteration" >"$out/weak.csv"
	machines 25 "$iblat" | while read -r g n p; do
		# the box of about WEAK_CELLS cells per GPU: 6 N^3 ~ g WEAK_CELLS
		N=$("$py" -c "print(max(2, round(($g * ${WEAK_CELLS:-160000} / 6) ** (1 / 3))))")
		box_case "$build" "$N" "$out" "weak$g"
		echo "$g,$n,$((6 * N * N * N)),$(sim "weak-$g" "$out/weak$g.cfg" "$p" "$g")" >>"$out/weak.csv"
	done
	;;
esac

case " $studies " in *" whatif "*)
	box_case "$build" "$sn" "$out" strong
	echo "gpus,nodes,gpu_link,network,s_per_iteration" >"$out/whatif.csv"
	for link in pcie nvlink; do
		opts=
		[ $link = nvlink ] && opts="--peer-direct --d2d $nvlink --d2d-latency 2"
		# shellcheck disable=SC2086
		p8=$(node "gpu8-$link" 8 $opts)
		echo "8,1,$link,-,$(sim "whatif-8-$link" "$out/strong.cfg" "$p8" 8)" >>"$out/whatif.csv"
		for net in "EDR 12.5 $iblat" "HDR 25 $iblat" "NDR 50 $iblat" "Ethernet-100G 12.5 10"; do
			# shellcheck disable=SC2086 # name, GB/s, us
			set -- $net
			c=$(cluster "c4-$1-$link" "$p8" 4 "$2" "$3")
			echo "32,4,$link,$1,$(sim "whatif-32-$link-$1" "$out/strong.cfg" "$c" 32)" >>"$out/whatif.csv"
		done
	done
	;;
esac

"$py" - "$out" "$plat" "$cmdline" <<'PY'
import csv, os, sys
out, plat, args = sys.argv[1:]
md = [f"# Simulated studies (bench/run_sim_studies.sh)\n\n- platform folder (models, links): `{plat}`\n"
      f"- command: `bench/run_sim_studies.sh {args}`\n- times are simulated (StarPU's SimGrid mode); they mean "
      "something only with models calibrated on a GPU machine\n"]
curves = {}
for name in ("strong", "weak"):
    p = os.path.join(out, name + ".csv")
    if not os.path.exists(p):
        continue
    rows = [r for r in csv.DictReader(open(p)) if r["s_per_iteration"] != "nan"]
    if not rows:
        continue
    t1 = float(rows[0]["s_per_iteration"])
    md.append(f"\n## {name} scaling\n\n| GPUs | nodes | cells | s/iteration | speed-up | efficiency |\n"
              "|---:|---:|---:|---:|---:|---:|\n")
    xs, eff = [], []
    for r in rows:
        g, t = int(r["gpus"]), float(r["s_per_iteration"])
        sp = t1 / t if name == "strong" else t1 / t * g
        md.append(f"| {g} | {r['nodes']} | {int(r['cells']):,} | {t:.4g} | {sp:.2f} | {100 * sp / g:.0f}% |\n")
        xs.append(g)
        eff.append(100 * sp / g)
    curves[name] = (xs, eff)
p = os.path.join(out, "whatif.csv")
if os.path.exists(p):
    md.append("\n## what-if: links\n\n| GPUs | nodes | GPU to GPU | network | s/iteration |\n|---:|---:|---|---|---:|\n")
    for r in csv.DictReader(open(p)):
        md.append(f"| {r['gpus']} | {r['nodes']} | {r['gpu_link']} | {r['network']} | {r['s_per_iteration']} |\n")
for d in sorted(x for x in os.listdir(out) if x.startswith("sched-") and os.path.isdir(os.path.join(out, x))):
    p = os.path.join(out, d, "sched.md")
    if os.path.exists(p):
        md.append(f"\n## schedulers on {d[6:]} (simulated)\n\n" + open(p).read().split("\n", 1)[1])
open(os.path.join(out, "studies.md"), "w").write("".join(md))
print(f"run_sim_studies: {os.path.join(out, 'studies.md')}")
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit(0)
if curves:
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, (xs, eff) in curves.items():
        ax.plot(xs, eff, "o-", label=name)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("GPUs (simulated)")
    ax.set_ylabel("parallel efficiency %")
    ax.set_ylim(0, 110)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "scaling.png"), dpi=110)
PY
echo "run_sim_studies: outputs in $out"
