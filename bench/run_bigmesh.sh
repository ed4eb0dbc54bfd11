#!/bin/sh
# SPDX-License-Identifier: MIT
# 10^8 cells on one GPU node (issue 25, items 4 and 5), one command on the
# GPU host: meshes made there by the threaded generators and refinement,
# written as .fvm, then set up and iterated.
#   gen    `fvstar mesh gen box` of about CELLS cells (tet: 6 n^3) to .fvm
#   refine the same box from a coarser one (n/2) refined once: refinement
#          at the scale of the target
#   m6     M6_MESH (the M6 medium, .su2/.fvm/.gz) refined twice (1M -> 64M)
#   run    the box: free stream, far field everywhere, ITERATIONS (20)
#          iterations; set-up seconds per phase and per step inside the
#          phases (summary.json's setup_steps, with the resident memory
#          after each), host and device bytes per cell, the memory
#          budget's lines, ms per iteration
#   runnopin  the same run with STARPU_DISABLE_PINNING=1: starpu_malloc
#          not pinned (cudaHostAlloc, one thread, against pages first
#          touched by all threads), to weigh pinning's share of set-up
#   m6run  the refined M6 with cases/onera_m6/onera_m6.cfg, the same
#   setup  the box set up and no iteration (no restart written), once per
#          variant of VARIANTS (default "base"), then one table: each
#          set-up step's seconds in a column per variant, and the host
#          peak; at 10^8 cells about 140 s a variant on an H200 node
#          (mesh made by gen first, 3 s): two variants fit a 300 s call.
#          A variant is names joined by "+": base (as is), nopin
#          (STARPU_DISABLE_PINNING=1), rcmall and rcmone
#          (FVSTAR_RCM_THREADS=all / one: the RCM level by level on all
#          threads, or the serial queue; the default tries both and
#          hands a level search slower than the serial one over to it,
#          its choices printed below the table), t1 (OMP_NUM_THREADS=1), and
#          hostfields (FVSTAR_LAZY_FIELDS=none: every field with host
#          memory, as before the GPU blocks' fields lost theirs), pinalloc
#          and pinno (FVSTAR_PIN=alloc: starpu_malloc's cudaHostAlloc, as
#          before; no: nothing pinned; the default, register, zeroes on
#          all threads and then cudaHostRegisters), geodevice
#          (FVSTAR_GEO_DEVICE=1: a GPU block's geometry blob built
#          straight into the GPU's memory; the default since session 17),
#          geohost (FVSTAR_GEO_HOST=1: the blob in host memory, copied by
#          StarPU, the default before), rcm and hilbert (FVSTAR_ORDER: the
#          cells of each block in RCM order, a large block tried on one
#          thread first, or in Hilbert order of their centroids; the
#          default, auto, takes the same RCM order on all threads for
#          blocks of 2^22 cells and more since session 18, RCM inside
#          pieces of 2^18 cells of the Hilbert order in session 17),
#          chunks (pieces of 2^18 cells) and chunks20 (of 2^20), chain
#          and chain18 (Cuthill-McKee in pieces of 2^20 or 2^18 cells
#          chained from piece to piece: the default from 2^22 cells since
#          session 21, of 2^20), auto (the default spelled out); builds
#          before these variables ignore them.
#          SETUP_ITERATIONS (default 0) iterations after each set-up give
#          ms per iteration in the table too (an ordering's effect on the
#          loop; the restart file is then written: 4 GB at 10^8 cells),
#          with the first iteration's ms and the steady ones' median
#          (min-max) from the third on, from history.csv
# Each mesh step prints wall and CPU seconds, cells per second and the
# peak RSS in bytes per output cell; each run the numbers of summary.json.
# Usage: bench/run_bigmesh.sh FVSTAR OUT_DIR [CELLS] [M6_MESH]
#   FVSTAR   the fvstar binary (device/bin/fvstar of tools/device-pack.sh)
#   OUT_DIR  where meshes and runs go (kept: about 30 bytes per cell per mesh)
#   CELLS    target cells (default 100000000)
# Environment: STEPS (default "gen refine m6 run m6run": any subset, in
# that order, so that one device call of 10 minutes can run a part),
# KIND (tet or hex, default tet), ITERATIONS (20), OMP_NUM_THREADS (all
# cores), RUN_ARGS (more key=value for both runs, e.g. partition.blocks=16),
# RUN_TIMEOUT (seconds a run may take, default 420: a run stopped prints
# the set-up lines it reached), VARIANTS (the setup step's, above).
# The lead's set-up comparison at 10^8 cells, one call each:
#   CUDA_VISIBLE_DEVICES=0 STEPS="gen setup" VARIANTS="base nopin" bench/run_bigmesh.sh device/bin/fvstar /tmp/big
#   CUDA_VISIBLE_DEVICES=0 STEPS="gen setup" VARIANTS="rcmall rcmone" bench/run_bigmesh.sh device/bin/fvstar /tmp/big
# Session 17's orderings (the default, RCM in pieces of 2^18 cells of the
# Hilbert order at this size, pieces of 2^20, RCM whole; set-up and 10
# iterations each, about 4 minutes on an H200 node):
#   CUDA_VISIBLE_DEVICES=0 RUN_TIMEOUT=150 STEPS="gen setup" VARIANTS="base chunks20 rcm" SETUP_ITERATIONS=10 bench/run_bigmesh.sh device/bin/fvstar /tmp/big
set -u
[ $# -ge 2 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
cells=${3:-100000000}
m6=${4:-${M6_MESH:-}}
steps=${STEPS:-gen refine m6 run m6run}
variants=${VARIANTS:-base}
kind=${KIND:-tet}
iters=${ITERATIONS:-20}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export STARPU_SILENT=1
per=6
[ "$kind" = hex ] && per=1
n=$(awk -v c="$cells" -v p="$per" 'BEGIN { printf "%d", (c / p) ^ (1 / 3) + 0.5 }')
half=$(( (n + 1) / 2 ))
echo "# fvstar $("$fv" --version 2>/dev/null | head -1); $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); OMP_NUM_THREADS=${OMP_NUM_THREADS:-all}"
command -v nvidia-smi >/dev/null && nvidia-smi -L
echo "# $kind box: n = $n ($((per * n * n * n)) cells), refined from n = $half; $(grep MemTotal /proc/meminfo)"
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }

# mesh_step NAME ARGS...: one `fvstar mesh` command, a table row per step
# line it prints (generate, refine, write), bytes per cell of its file
echo
echo "| step | what | cells | wall s | CPU s | Mcells/s (wall) | peak RSS MB | peak B/cell | file B/cell |"
echo "|---|---|---|---|---|---|---|---|---|"
mesh_step() {
	name=$1
	shift
	file=$(eval "echo \${$#}")
	if ! "$fv" mesh "$@" >"$out/$name.out" 2>"$out/$name.err"; then
		echo "| $name | FAILED: $(grep error "$out/$name.err" | head -1) |"
		return 1
	fi
	bytes=$(stat -c %s "$file" 2>/dev/null || echo 0)
	sed -n 's/^fvstar: \([a-z]*\): \([0-9.]*\) s (\([0-9]*\) cells, [0-9]* nodes, peak RSS \([0-9.]*\) MB, \([0-9.]*\) s of CPU)$/\1 \2 \3 \4 \5/p' \
		"$out/$name.err" | awk -v s="$name" -v b="$bytes" '{
		printf "| %s | %s | %d | %.2f | %.2f | %.1f | %.0f | %.0f | %s |\n",
			s, $1, $3, $2, $5, $3 / ($2 > 0 ? $2 : 1) / 1e6, $4, 1e6 * $4 / $3,
			$1 == "write" ? sprintf("%.1f", b / $3) : "-" }'
}
has gen && mesh_step gen gen box --cells "$kind" -n "$n" --perturb 0.1 -o "$out/box.fvm"
has refine && mesh_step refine gen box --cells "$kind" -n "$half" --perturb 0.1 --refine 1 -o "$out/box_r1.fvm"
if has m6 && [ -n "$m6" ]; then
	case $m6 in
	*.gz) gunzip -c "$m6" >"$out/m6.su2" && m6=$out/m6.su2 ;;
	esac
	mesh_step m6 refine "$m6" --levels 2 -o "$out/m6_r2.fvm"
fi

# run NAME CFG ARGS...: set-up, ITERATIONS iterations, the numbers
run() {
	name=$1 cfg=$2
	shift 2
	# shellcheck disable=SC2086
	timeout "${RUN_TIMEOUT:-420}" /usr/bin/time -v "$fv" run "$cfg" numerics.iterations="$iters" \
		numerics.residual_drop=0 output.vtu=no output.progress_every=0 output.dir="$out/$name" "$@" \
		${RUN_ARGS:-} >"$out/$name.out" 2>"$out/$name.err"
	rc=$?
	echo
	echo "## run $name (exit $rc$([ $rc = 124 ] && echo ": stopped after RUN_TIMEOUT=${RUN_TIMEOUT:-420} s"))"
	grep -E "^fvstar: (memory budget|set-up|host memory|device memory|[0-9]+ iterations|timeline)|error|Maximum resident|Elapsed" \
		"$out/$name.err" | sed 's/^/    /'
	[ -f "$out/$name/summary.json" ] || return 1
	python3 - "$out/$name/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
m, su = s["memory"], s["setup_seconds"]
cells = s["mesh"]["cells"]
print("| cells | set-up s | " + " | ".join(k for k in su if k != "total") + " | us/cell | host B/cell | device B/cell | ms/iteration | restart write s |")
print("|---" * (6 + len(su)) + "|")
print("| %d | %.1f | %s | %.2f | %.0f | %s | %.1f | %.1f |" % (
    cells, su["total"], " | ".join("%.1f" % v for k, v in su.items() if k != "total"), 1e6 * su["total"] / cells,
    m["host_bytes_per_cell"], "%.0f" % m["device_bytes_per_cell"] if "device_bytes_per_cell" in m else "-",
    1e3 * s["seconds_per_iteration"], s.get("restart_write_seconds", 0)))
steps = s.get("setup_steps", {})
if steps:
    print()
    print("| set-up step | s | us/cell | GB resident after |")
    print("|---|---|---|---|")
    for k, v in steps.items():
        print("| %s | %.2f | %.3f | %.1f |" % (k, v["seconds"], 1e6 * v["seconds"] / cells, v["rss_bytes"] / 1e9))
PY
}
# the box's case: free stream, far field everywhere
box_cfg() {
	cat >"$out/box.cfg" <<CFG
[mesh]
file = box.fvm
[flow]
mach = 0.5
alpha = 2
[bc]
xmin = farfield
xmax = farfield
ymin = farfield
ymax = farfield
zmin = farfield
zmax = farfield
CFG
}
if { has run || has runnopin; } && [ -f "$out/box.fvm" ]; then
	box_cfg
	has run && run box "$out/box.cfg"
	if has runnopin; then
		export STARPU_DISABLE_PINNING=1
		run box_nopin "$out/box.cfg"
		unset STARPU_DISABLE_PINNING
	fi
fi
# variant_env NAME: the environment of a setup variant, as env(1) arguments
variant_env() {
	for v in $(echo "$1" | tr + ' '); do
		case $v in
		base) ;;
		nopin) echo STARPU_DISABLE_PINNING=1 ;;
		rcmall) echo FVSTAR_RCM_THREADS=all ;;
		rcmone) echo FVSTAR_RCM_THREADS=one ;;
		t1) echo OMP_NUM_THREADS=1 ;;
		hostfields) echo FVSTAR_LAZY_FIELDS=none ;;
		pinalloc) echo FVSTAR_PIN=alloc ;;
		pinno) echo FVSTAR_PIN=no ;;
		geodevice) echo FVSTAR_GEO_DEVICE=1 ;;
		geohost) echo FVSTAR_GEO_HOST=1 ;;
		rcm) echo FVSTAR_ORDER=rcm ;;
		hilbert) echo FVSTAR_ORDER=hilbert ;;
		chunks) echo FVSTAR_ORDER=chunks ;;
		chunks20) echo FVSTAR_ORDER=chunks:1048576 ;;
		chain) echo FVSTAR_ORDER=chain ;;
		chain18) echo FVSTAR_ORDER=chain:262144 ;;
		auto) echo FVSTAR_ORDER=auto ;;
		*) echo "run_bigmesh.sh: unknown variant '$v' (base nopin rcmall rcmone t1 hostfields pinalloc pinno geodevice geohost rcm hilbert chunks chunks20 chain chain18 auto)" >&2; return 1 ;;
		esac
	done
}
if has setup && [ -f "$out/box.fvm" ]; then
	box_cfg
	done_v=
	for v in $variants; do
		envs=$(variant_env "$v" | tr "\n" " ") && variant_env "$v" >/dev/null || exit 2
		# shellcheck disable=SC2086
		env $envs timeout "${RUN_TIMEOUT:-420}" /usr/bin/time -v "$fv" run -v "$out/box.cfg" numerics.iterations="${SETUP_ITERATIONS:-0}" \
			output.vtu=no output.progress_every=0 output.dir="$out/setup_$v" ${RUN_ARGS:-} \
			>"$out/setup_$v.out" 2>"$out/setup_$v.err"
		rc=$?
		echo
		echo "## setup $v ($envs; exit $rc$([ $rc = 124 ] && echo ": stopped after RUN_TIMEOUT=${RUN_TIMEOUT:-420} s"))"
		grep -E "^fvstar: (memory budget|set-up|host memory|device memory|[0-9]+ iterations|timeline)|error|Maximum resident|Elapsed" \
			"$out/setup_$v.err" | sed 's/^/    /'
		done_v="$done_v $v"
	done
	# one column per variant: summary.json's steps, or the -v line of a
	# run stopped after its set-up
	python3 - "$out" $done_v <<'PY'
import json, os, re, sys
out, names = sys.argv[1], sys.argv[2:]
cols, order = {}, []
for v in names:
    steps = {}
    js = os.path.join(out, "setup_" + v, "summary.json")
    if os.path.exists(js):
        s = json.load(open(js))
        steps = {k: (e["seconds"], e["rss_bytes"] / 1e9) for k, e in s.get("setup_steps", {}).items()}
        steps["set-up total"] = (s["setup_seconds"]["total"], s["memory"]["host_bytes_per_cell"])
        steps["budget estimate / peak"] = (s["memory"]["rank0_estimate_mib"] / 1024, s["memory"]["rank0_peak_mib"] / 1024)
        # where the peak was reached: the first step whose peak so far is the run's
        top = max((e.get("peak_rss_bytes", 0) for e in s.get("setup_steps", {}).values()), default=0)
        at = [k for k, e in s.get("setup_steps", {}).items() if top and e.get("peak_rss_bytes", 0) >= 0.99 * top]
        if at:
            steps["peak reached by"] = (at[0], top / 1e9)
        steps["cells"] = (s["mesh"]["cells"], 0)
        if s.get("iterations", 0) > 0:
            steps["ms per iteration"] = (1e3 * s["seconds_per_iteration"], s["iterations"])
            # the first iteration (fields allocated, the state's first
            # transfer) apart from the steady ones: history.csv's wall
            # clock between rows, the median from the third row on
            hp = os.path.join(out, "setup_" + v, "history.csv")
            if os.path.exists(hp):
                import csv
                w = [float(r["wall_s"]) for r in csv.DictReader(open(hp))]
                d = sorted(b - a for a, b in zip(w[1:], w[2:]))
                if w:
                    steps["first iteration ms"] = (1e3 * w[0], 1)
                if d:
                    steps["steady ms per iteration (median, min, max)"] = (1e3 * d[len(d) // 2], 1e3 * d[0], 1e3 * d[-1], len(d))
    else:
        for line in open(os.path.join(out, "setup_" + v + ".err"), errors="replace"):
            if line.startswith("fvstar: set-up steps"):
                for m in re.finditer(r"\s*(.+?) ([0-9.]+) \(([0-9]+)\),?", line.split("after):", 1)[1]):
                    steps[m.group(1).strip()] = (float(m.group(2)), float(m.group(3)) / 1e3)
    cols[v] = steps
    order += [k for k in steps if k not in order]
print()
print("| set-up step | " + " | ".join("%s s (GB after)" % v for v in names) + " |")
print("|---" * (1 + len(names)) + "|")
for k in order:
    if k == "cells":
        continue
    row = []
    for v in names:
        e = cols[v].get(k)
        if e is None:
            row.append("-")
        elif k == "set-up total":
            row.append("**%.1f** (host peak %.0f B/cell)" % e)
        elif k == "budget estimate / peak":
            row.append("%.1f / %.1f GiB" % e)
        elif k == "peak reached by":
            row.append("%s (%.1f GB)" % e)
        elif k == "ms per iteration":
            row.append("**%.1f** (%d iterations)" % e)
        elif k == "first iteration ms":
            row.append("%.1f" % e[0])
        elif k.startswith("steady ms"):
            row.append("**%.1f** (%.1f-%.1f, %d iterations)" % e)
        else:
            row.append("%.2f (%.1f)" % e)
    print("| %s | %s |" % (k, " | ".join(row)))
# what the steps chose (the RCM's threads: its trial, handovers, levels)
for v in names:
    js = os.path.join(out, "setup_" + v, "summary.json")
    if os.path.exists(js):
        for k, e in json.load(open(js)).get("setup_steps", {}).items():
            if e.get("note"):
                print("- %s, %s: %s" % (v, k, e["note"]))
PY
fi
if has m6run && [ -f "$out/m6_r2.fvm" ]; then
	run m6 "$top/cases/onera_m6/onera_m6.cfg" mesh.file="$out/m6_r2.fvm"
fi
