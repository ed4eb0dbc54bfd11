#!/bin/sh
# SPDX-License-Identifier: MIT
# Simulated studies (issue 27, item 5) from one calibrated platform folder,
# on the machine that has SimGrid (no GPU needed: every run is simulated):
#   sched    bench sched's table on simulated 4- and 8-GPU nodes and on
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
# (the tables, the platform folder and the command), every run's summary,
# log and status under runs/. Runs done in an earlier call into the same
# OUTDIR (status ok, summary.json there) are kept, not run again.
#
# Every configuration is one process (`fvstar sim run`; the sched study's
# are the commands fvstar bench sched --platform runs one after the other),
# run JOBS at a time by bench/sim_jobs.py, the largest first, within a
# memory budget (MEM_MB, default 80 % of the available memory; each job's
# estimate from its cells) and STUDIES_DEADLINE_S (jobs not started by then
# are skipped, those running stopped; JOB_TIMEOUT bounds each). The meshes
# (fvstar's binary format, read 17 times faster than .su2) are made once,
# side by side, before the runs, and every run of a box reads the same
# file. The simulated set-up (mesh, blocks, colouring: real) is what costs:
# a 10^7-cell run takes 2 to 3 minutes of one core and ~12 GB.
#
# Usage: bench/run_sim_studies.sh PLATFORM [BUILDDIR] [OUTDIR]
#        bench/run_sim_studies.sh --collect OUTDIR   (the tables and plots
#        again from OUTDIR/runs, e.g. on a machine with matplotlib)
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
# left out), SCHED_ITERS (the sched study's, default ITERS), POLICIES
# (bench sched --policies, default all; commas or spaces between the
# names), NVLINK_GBPS (300), IB_LATENCY (1.5), JOBS (processes side by
# side, default 1), MEM_MB, STUDIES_DEADLINE_S, JOB_TIMEOUT. The runs go in
# this order: the scaling studies and the what-if (the largest first),
# bench sched on one node, then on clusters (a deadline cuts the last). Needs fvstar-sim and fvstar-smpi in BUILDDIR (configure
# --with-starpu-simgrid and --with-starpu-smpi).
set -eu
cmdline="$*"
top=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON3:-python3}
if [ "${1:-}" = --collect ]; then
	out=$(cd "${2:?usage: bench/run_sim_studies.sh --collect OUTDIR}" && pwd)
	plat=$(cat "$out/platform.txt" 2>/dev/null || echo "?")
	cmdline=$(cat "$out/command.txt" 2>/dev/null || echo "?")
else
	plat=${1:?usage: bench/run_sim_studies.sh PLATFORM [BUILDDIR] [OUTDIR]}
	build=$(cd "${2:-$top/build}" && pwd)
	out=${3:-${BENCH_TMP:-$(mktemp -d)}}
	fv=$build/fvstar
	tool=$top/tools/sim_platform.py
	studies=${STUDIES:-sched strong weak whatif}
	iters=${ITERS:-6}
	nvlink=${NVLINK_GBPS:-300}
	iblat=${IB_LATENCY:-1.5}
	sn=${STRONG_N:-120}
	wc=${WEAK_CELLS:-160000}
	jobs=${JOBS:-1}
	# the deadline counts from here (the platforms and meshes come first)
	end=0
	[ "${STUDIES_DEADLINE_S:-0}" -le 0 ] || end=$(($(date +%s) + STUDIES_DEADLINE_S))
	for b in fvstar-sim fvstar-smpi; do
		[ -r "$build/$b" ] || { echo "run_sim_studies: no $build/$b (doc/simgrid.md)" >&2; exit 1; }
	done
	[ -d "$plat/bus" ] || { echo "run_sim_studies: $plat: not a platform folder" >&2; exit 1; }
	plat=$(cd "$plat" && pwd)
	mkdir -p "$out/runs" "$out/platforms"
	out=$(cd "$out" && pwd)
	echo "$plat" >"$out/platform.txt"
	echo "$cmdline" >"$out/command.txt"
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
	# box N NAME: NAME.cfg (bench/box_case.sh's case) on the box of 6 N^3
	# cells in fvstar's binary format (made by the first phase, once)
	box() {
		# (box_case makes no .su2: its fvstar is not there)
		box_case /nonexistent "$1" "$out" "$2" || true
		sed "s|^file = box$1.su2|file = box$1.fvm|" "$out/$2.cfg" >"$out/$2.cfg.tmp"
		mv "$out/$2.cfg.tmp" "$out/$2.cfg"
		grep -qx "$1" "$out/meshes.n" 2>/dev/null || echo "$1" >>"$out/meshes.n"
	}
	# job NAME CFG PLATFORM BLOCKS RANKS CELLS [key=value ..]: one simulated
	# run, a line of the jobs file with its rank (prio: the scaling studies
	# and the what-if 1, bench sched on one node 2, on clusters 3) and its
	# memory estimate: 1.2 kB a cell and 300 MB in one process (1.14 kB at
	# 1.3 million cells on 8 GPUs), 15 % more and 150 MB a rank under SMPI
	# (8 ranks reading the mesh: 1.3 GB at 0.2 million cells, 2.6 GB at 1.3
	# million; from part files rank 0 holds no whole mesh)
	job() {
		name=$1 cfg=$2 p=$3 b=$4 r=$5 c=$6
		shift 6
		# done in an earlier call into the same OUTDIR: kept
		! grep -q '"status": "ok"' "$out/runs/$name.status" 2>/dev/null || [ ! -f "$out/runs/$name/summary.json" ] ||
			return 0
		mem=$("$py" -c "print(int(300 + $c * 1.2e-3 * (1.15 if $r > 1 else 1) + ($r - 1) * 150))")
		pre='' mesh=''
		if [ "$r" -gt 1 ]; then
			# ranks read the parts of one cut (fvstar mesh partition, a job
			# of its own, made once for every run of this mesh, ranks and
			# blocks): rank 0 neither reads the mesh nor cuts and sends it
			n=$(sed -n 's/^file = box\(.*\)\.fvm$/\1/p' "$cfg")
			pd=$out/parts/box$n-r$r-b$b
			grep -qx "$n $r $b" "$out/parts.n" 2>/dev/null || echo "$n $r $b" >>"$out/parts.n"
			pre="while [ ! -f '$pd/partition.json' ] && [ ! -f '$pd.failed' ]; do sleep 1; done; "
			mesh="mesh.file=$pd"
		fi
		printf '%s\t%s\t%s\t%s"%s" sim run "%s" --platform "%s" --iterations %s --warmup 1 --out "%s" %s\n' \
			"$prio" "$name" "$mem" "$pre" "$fv" "$cfg" "$p" "${it:-$iters}" "$out/runs/$name" \
			"$mesh partition.blocks=$b runtime.ncpu=0 numerics.chain=no output.dir=$out/runs/$name/o $*" \
			>>"$out/jobs.txt"
	}
	prio=1
	# the machines of the scaling curves: "GPUS NODES PLATFORM" (HDR)
	machines() {
		for g in 1 2 4 8; do echo "$g 1 $(node "gpu$g" "$g")"; done
		for n in 2 4 8; do echo "$((8 * n)) $n $(cluster "c$n-25-$iblat" "$(node gpu8 8)" "$n" 25 "$iblat")"; done
	}
	weak_n() { "$py" -c "print(max(2, round(($1 * $wc / 6) ** (1 / 3))))"; }

	# the platform's links and models read once, loudly (the derived folders
	# below are made in command substitutions, which would only print)
	node gpu1 1 >/dev/null || { echo "run_sim_studies: $plat: cannot derive nodes from it (see above)" >&2; exit 1; }
	machines >"$out/machines.txt"
	: >"$out/jobs.txt"
	: >"$out/meshes.n"
	: >"$out/parts.n"
	sc=$((6 * sn * sn * sn))
	case " $studies " in *" strong "*)
		box "$sn" strong
		while read -r g n p; do job "strong-$g" "$out/strong.cfg" "$p" "$g" "$n" "$sc"; done <"$out/machines.txt"
		;;
	esac
	case " $studies " in *" whatif "*)
		box "$sn" strong
		for link in pcie nvlink; do
			# PCIe: the calibrated links (the scaling studies' node)
			p8=$(node gpu8 8)
			[ $link = pcie ] || p8=$(node "gpu8-$link" 8 --peer-direct --d2d "$nvlink" --d2d-latency 2)
			# PCIe on one node and 4 nodes of HDR: the strong study's runs
			# (the same platforms) where it runs
			case $link@$studies in pcie@*strong*) ;; *) job "whatif-8-$link" "$out/strong.cfg" "$p8" 8 1 "$sc" ;; esac
			for net in "EDR 12.5 $iblat" "HDR 25 $iblat" "NDR 50 $iblat" "Ethernet-100G 12.5 10"; do
				# shellcheck disable=SC2086 # name, GB/s, us
				set -- $net
				case $link-$1@$studies in pcie-HDR@*strong*) continue ;; esac
				job "whatif-32-$link-$1" "$out/strong.cfg" "$(cluster "c4-$1-$link" "$p8" 4 "$2" "$3")" 32 4 "$sc"
			done
		done
		;;
	esac
	case " $studies " in *" weak "*)
		while read -r g n p; do
			N=$(weak_n "$g")
			box "$N" "weak$g"
			job "weak-$g" "$out/weak$g.cfg" "$p" "$g" "$n" "$((6 * N * N * N))"
		done <"$out/machines.txt"
		;;
	esac
	case " $studies " in *" sched "*)
		n=${SCHED_N:-55}
		box "$n" sched
		pols=$(echo "${POLICIES:-all}" | tr ',' ' ')
		# every policy of this StarPU but those bench sched refuses
		# (tools/bench_sched.py: REFUSED) and StarPU's test policy
		[ "$pols" != all ] || pols=$(STARPU_SCHED=help "$fv" runtime info 2>&1 | awk '/->/ {print $1}' |
			grep -Ev '^(modular-heteroprio-heft|graph_test)$')
		it=${SCHED_ITERS:-$iters}
		for m in 4gpu 8gpu ${SCHED_NODES:-2 4}; do
			case $m in
			*gpu) p=$(node "gpu${m%gpu}" "${m%gpu}") r=1 g=${m%gpu} prio=2 ;;
			*) p=$(cluster "c$m-25-$iblat" "$(node gpu8 8)" "$m" 25 "$iblat") r=$m g=$((8 * m)) m=${m}x8gpu prio=3 ;;
			esac
			for bpw in 1 2; do
				for pol in $pols; do
					job "sched-$m-$((bpw * g))-$pol" "$out/sched.cfg" "$p" $((bpw * g)) "$r" $((6 * n * n * n)) \
						runtime.sched="$pol" runtime.balance=equal
				done
			done
		done
		;;
	esac

	# the meshes first (side by side), then the runs, largest first
	: >"$out/meshes.txt"
	while read -r n; do
		[ -f "$out/box$n.fvm" ] ||
			printf 'mesh-%s\t%s\t"%s" mesh gen box --cells tet -n %s --perturb 0.1 -o "%s"\n' "$n" \
				"$("$py" -c "print(int(300 + 6 * $n ** 3 * 0.5e-3))")" "$fv" "$n" "$out/box$n.fvm" >>"$out/meshes.txt"
	done <"$out/meshes.n"
	# the cuts first (rank 0: 1.3 kB a cell; 4 threads each), their runs
	# wait for them
	mkdir -p "$out/parts"
	while read -r n r b; do
		pd=$out/parts/box$n-r$r-b$b
		[ -f "$pd/partition.json" ] || printf '0\tparts-%s-%s-%s\t%s\t%s\n' "$n" "$r" "$b" \
			"$("$py" -c "print(int(300 + 6 * $n ** 3 * 1.3e-3))")" "rm -rf '$pd' '$pd.failed' '$pd.tmp'; \
OMP_NUM_THREADS=4 \"$fv\" mesh partition '$out/box$n.fvm' --ranks $r --blocks $b -o '$pd.tmp' \
&& mv '$pd.tmp' '$pd' || { touch '$pd.failed'; exit 1; }" >>"$out/jobs.txt"
	done <"$out/parts.n"
	# by rank, then the largest first; the rank's column dropped
	sort -t "$(printf '\t')" -k1,1n -k3,3nr -s "$out/jobs.txt" | cut -f 2- >"$out/jobs.sorted"
	for f in meshes.txt jobs.sorted; do
		"$py" "$top/bench/sim_jobs.py" "$out/$f" -j "$jobs" ${MEM_MB:+--mem-mb "$MEM_MB"} --deadline "$end" \
			${JOB_TIMEOUT:+--timeout "$JOB_TIMEOUT"} --log "$out/runs" >>"$out/jobs.log" 2>&1
		tail -n 1 "$out/jobs.log"
	done
fi

"$py" - "$out" "$plat" "$cmdline" "$top/tools" <<'PY'
import csv, glob, json, os, subprocess, sys, time
out, plat, args, tools = sys.argv[1:]
runs = os.path.join(out, "runs")


# the what-if's runs that are the strong study's (the same platform and case)
ALIAS = {"whatif-8-pcie": "strong-8", "whatif-32-pcie-HDR": "strong-32"}


def result(name):
    """(s/iteration or None, the run's status)"""
    if not os.path.exists(os.path.join(runs, name + ".status")) and name in ALIAS:
        name = ALIAS[name]
    st = {}
    if os.path.exists(os.path.join(runs, name + ".status")):
        st = json.load(open(os.path.join(runs, name + ".status")))
    try:
        return json.load(open(os.path.join(runs, name, "summary.json")))["seconds_per_iteration"], st
    except (OSError, ValueError, KeyError):
        return None, st


def fmt(t):
    return "%.9g" % t if t is not None else "nan"


machines = [l.split()[:2] for l in open(os.path.join(out, "machines.txt"))] if os.path.exists(
    os.path.join(out, "machines.txt")) else []
statuses = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(runs, "*.status")))]
# the CSVs of the scaling studies and the what-if
for name in ("strong", "weak"):
    if not any(s["name"].startswith(name + "-") for s in statuses):
        continue
    with open(os.path.join(out, name + ".csv"), "w") as f:
        f.write("gpus,nodes,cells,s_per_iteration\n")
        for g, n in machines:
            t, _ = result("%s-%s" % (name, g))
            cells = ""
            try:
                cells = json.load(open(os.path.join(runs, "%s-%s" % (name, g), "summary.json")))["cells"]
            except (OSError, ValueError, KeyError):
                pass
            f.write("%s,%s,%s,%s\n" % (g, n, cells, fmt(t)))
if any(s["name"].startswith("whatif-") for s in statuses):
    with open(os.path.join(out, "whatif.csv"), "w") as f:
        f.write("gpus,nodes,gpu_link,network,s_per_iteration\n")
        for link in ("pcie", "nvlink"):
            f.write("8,1,%s,-,%s\n" % (link, fmt(result("whatif-8-%s" % link)[0])))
            for net in ("EDR", "HDR", "NDR", "Ethernet-100G"):
                f.write("32,4,%s,%s,%s\n" % (link, net, fmt(result("whatif-32-%s-%s" % (link, net))[0])))
# the sched study: bench sched's sched.csv per machine, its sched.md and plot
# (tools/bench_sched.py --plot-only)
sys.path.insert(0, tools)
sched = {}
for s in statuses:
    if s["name"].startswith("sched-"):
        m, blocks, pol = s["name"][6:].split("-", 2)
        sched.setdefault(m, []).append((pol, int(blocks), s))
COLS = ["policy", "workers", "ncpu", "ncuda", "balance", "blocks", "blocks_per_worker", "gpu_share_pct",
        "iterations", "s_per_iteration", "ns_per_cell_stage", "busy_mean_pct", "busy", "status", "seconds"]
for m, rows in sched.items():
    d = os.path.join(out, "sched-" + m)
    os.makedirs(d, exist_ok=True)
    gpus = int(m[:-3]) if "x" not in m else int(m.split("x")[0]) * int(m.split("x")[1][:-3])
    mesh, iters = "", 0
    with open(os.path.join(d, "sched.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLS)
        for pol, blocks, st in sorted(rows, key=lambda r: (r[1], r[0])):
            name = "sched-%s-%d-%s" % (m, blocks, pol)
            t, _ = result(name)
            ns, status = "", st.get("status", "?")
            if t is not None:
                sm = json.load(open(os.path.join(runs, name, "summary.json")))
                ns = "%.6g" % (t * 1e9 / (sm["cells"] * sm.get("rk_stages", 1)))
                mesh, iters = "%s, %d cells" % (os.path.basename(sm["case"]), sm["cells"]), sm["iterations"]
                status = "ok"
            elif status == "ok":
                status = "failed: no summary"
            elif status == "failed":
                log = open(os.path.join(runs, name + ".log"), errors="replace").read().strip().splitlines()
                last = [l for l in log if not l.startswith("  ")]
                status = "failed: " + (last[-1][:160].replace(",", ";") if last else "exit %s" % st.get("rc"))
            w.writerow([pol, "gpu", 0, gpus, "equal", blocks, blocks // gpus, "", iters, fmt(t) if t else "", ns, "",
                        "", status, st.get("wall_s", "")])
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(max(
        os.path.getmtime(os.path.join(runs, "sched-%s-%d-%s.status" % (m, b, p))) for p, b, _ in rows)))
    meta = {"case": "sched.cfg", "date": date, "host": os.uname().nodename, "platform": plat,
            "device": "simulated: %s (%d GPUs)" % (m, gpus), "mesh": mesh,
            "command": "bench/run_sim_studies.sh " + args,
            "timing": "simulated s/iteration (fvstar sim run, StarPU's SimGrid mode) after 1 warm-up iteration, "
                      "of %d; models and links from the platform folder; one process a run" % iters}
    json.dump(meta, open(os.path.join(d, "sched.json"), "w"), indent=1)
    r = subprocess.run([sys.executable, os.path.join(tools, "bench_sched.py"), "--plot-only", "-o", d],
                       capture_output=True, text=True)
    if not os.path.exists(os.path.join(d, "sched.md")):
        print("run_sim_studies: sched-%s: no sched.md (%s)" % (m, (r.stderr or r.stdout).strip()[-200:]))

md = [f"# Simulated studies (bench/run_sim_studies.sh)\n\n- platform folder (models, links): `{plat}`\n"
      f"- command: `bench/run_sim_studies.sh {args}`\n- times are simulated (StarPU's SimGrid mode); they mean "
      "something only with models calibrated on a GPU machine\n"]
n = {}
for s in statuses:
    n[s["status"]] = n.get(s["status"], 0) + 1
if statuses:
    md.append("- runs: %d (%s); wall of the longest %.0f s, peak memory of the largest %.1f GB\n" % (
        len(statuses), ", ".join("%d %s" % (v, k) for k, v in sorted(n.items())),
        max(s["wall_s"] for s in statuses), max(s["maxrss_mb"] for s in statuses) / 1024))
curves = {}
for name in ("strong", "weak"):
    p = os.path.join(out, name + ".csv")
    if not os.path.exists(p):
        continue
    rows = [r for r in csv.DictReader(open(p)) if r["s_per_iteration"] != "nan"]
    if not rows:
        continue
    t1, g1 = float(rows[0]["s_per_iteration"]), int(rows[0]["gpus"])
    md.append(f"\n## {name} scaling\n\n| GPUs | nodes | cells | s/iteration | speed-up | efficiency |\n"
              "|---:|---:|---:|---:|---:|---:|\n")
    xs, eff = [], []
    for r in rows:
        g, t = int(r["gpus"]), float(r["s_per_iteration"])
        # against the first GPU count that ran, taken as ideal
        sp = t1 / t * g1 if name == "strong" else t1 / t * g
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
