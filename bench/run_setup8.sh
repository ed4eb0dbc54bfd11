#!/bin/sh
# SPDX-License-Identifier: MIT
# Session 19's set-up measurements on a GPU node (issue 25;
# bench/results/2026-12-01-setup8.md), one command, the whole node quiet
# (the threads step takes every core):
#   threads  a tet box of 6 N^3 cells (N_THREADS, default 48: 663,552
#            cells) from .fvm, BLOCKS (16) blocks, CPU workers, one
#            process, set up and one iteration on T cores for T = 1 2 4 8
#            16 32 64 ... up to the node's (taskset -c 0..T-1,
#            OMP_NUM_THREADS = STARPU_NCPU = T): each phase's seconds and
#            threads (summary.json's setup_threads_per_phase: one per
#            FVSTAR_SETUP_CELLS_PER_THREAD cells since session 19) and the
#            largest steps; then on all the cores: FVSTAR_SETUP_CELLS_PER_THREAD=0
#            (every thread in every phase, as before), STARPU_NCPU=16 with
#            all OpenMP threads, OMP_NUM_THREADS=16 with all the workers
#            (which part of the cost on many cores is OpenMP's, which
#            StarPU's); the same on the 5.3M-cell box (N_THREADS_BIG, 96)
#            at 16, 32 and all cores, capped and not
#   ranks    bench/run_setup_ranks.sh R = 1 2 4 on the 663k box and on the
#            10.37M box (N_RANKS_BIG, 120), from the file and from part
#            files, each rank's phases (summary.json setup_seconds_per_rank)
#   big      bench/run_bigmesh.sh at CELLS (10^8): the default ordering
#            (RCM), set-up and BIG_ITERATIONS (10) iterations: T5 (60 s)
#   m6       bench/run_setup7.sh's M6 medium to the answer (T8), given M6
# Each step is skipped once DEADLINE seconds (default 480) have passed.
# Usage: bench/run_setup8.sh FVSTAR OUT_DIR [M6_SU2] [CELLS]
# Environment: STEPS (default "threads ranks big m6"), DEADLINE,
# N_THREADS, N_THREADS_BIG and N_RANKS_BIG (0: that box skipped),
# RANKS_TIMEOUT (the N_RANKS box's limit, default 120 s), SHARE
# (0: no WORKERS=share rows), BLOCKS, BIG_ITERATIONS.
# The lead's calls: /work/notes/setup8_device.txt (session 19).
set -u
[ $# -ge 2 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
steps=${STEPS:-threads ranks big m6}
deadline=${DEADLINE:-480}
nb=${BLOCKS:-16}
export STARPU_SILENT=1
mkdir -p "$2"
out=$(cd "$2" && pwd)
m6=${3:-}
cells=${4:-100000000}
cores=$(nproc)
t0=$(date +%s)
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
left() { [ $(($(date +%s) - t0)) -lt "$deadline" ] || { echo "($1 skipped: DEADLINE=$deadline s passed)"; return 1; }; }
echo "# fvstar $("$fv" --version 2>/dev/null | head -1); $cores cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); $(date -u +%H:%M:%S) UTC; steps: $steps"
command -v nvidia-smi >/dev/null && nvidia-smi -L
echo "load: $(cat /proc/loadavg)"

# box N: a perturbed tet box of 6 N^3 cells as .fvm and a case for it
box() {
	[ -f "$out/box$1.fvm" ] || "$fv" mesh gen box --cells tet -n "$1" --perturb 0.1 -o "$out/box$1.fvm" >/dev/null 2>&1 ||
		{ echo "mesh gen box -n $1 failed"; return 1; }
	{
		printf '[mesh]\nfile = %s\n[flow]\nmach = 0.5\nalpha = 2\n[bc]\n' "$out/box$1.fvm"
		for b in xmin xmax ymin ymax zmin zmax; do echo "$b = farfield"; done
		printf '[output]\nvtu = no\nprogress_every = 0\n'
	} >"$out/box$1.cfg"
}

# one N NAME T ENV...: the box set up on cores 0..T-1, one iteration
one() {
	n=$1 name=$2 t=$3
	shift 3
	d=$out/t$n-$name
	rm -rf "$d"
	s=$(date +%s.%N)
	env OMP_NUM_THREADS="$t" STARPU_NCPU="$t" STARPU_NCUDA=0 "$@" timeout 300 taskset -c "0-$((t - 1))" \
		"$fv" run "$out/box$n.cfg" -v output.dir="$d" partition.blocks="$nb" numerics.iterations=1 \
		numerics.residual_drop=0 >/dev/null 2>"$d.err" || { echo "| $name | failed: $(grep -i error "$d.err" | tail -1) |"; return 1; }
	python3 - "$d/summary.json" "$name" "$(awk -v a="$(date +%s.%N)" -v b="$s" 'BEGIN { print a - b }')" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
su, th = s["setup_seconds"], s.get("setup_threads_per_phase", {})
st = sorted(s.get("setup_steps", {}).items(), key=lambda kv: -kv[1]["seconds"])[:6]
print("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s | %.2f | %s |" % (
    sys.argv[2], su["total"], su["case"], su["mesh"], su["starpu"], su["blocks"], su["state"], su["solver"],
    "/".join(str(th.get(k, "-")) for k in ("mesh", "blocks", "state", "solver")), float(sys.argv[3]),
    ", ".join("%s %.2f" % (k, v["seconds"]) for k, v in st)))
PY
}

head_row() {
	echo
	echo "| run | set-up s | case | mesh | StarPU | blocks | state | solver | threads mesh/blocks/state/solver | wall s | largest steps s |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
}

if has threads && left threads; then
	n=${N_THREADS:-48}
	box "$n" && {
		echo
		echo "## Set-up against the cores: 6 x $n^3 tets, $nb blocks, CPU workers, 1 iteration (T cores: taskset 0..T-1)"
		head_row
		t=1
		while [ "$t" -le "$cores" ]; do
			one "$n" "T=$t" "$t"
			t=$((t * 2))
		done
		[ $((t / 2)) = "$cores" ] || one "$n" "T=$cores" "$cores"
		one "$n" "T=$cores, no cap" "$cores" FVSTAR_SETUP_CELLS_PER_THREAD=0
		if [ "$cores" -ge 32 ]; then
			one "$n" "T=$cores, STARPU_NCPU=16" "$cores" STARPU_NCPU=16
			one "$n" "T=$cores, OMP_NUM_THREADS=16" "$cores" OMP_NUM_THREADS=16
		fi
		one "$n" "T=$cores, OMP_WAIT_POLICY=passive" "$cores" OMP_WAIT_POLICY=passive
		[ "$cores" -ge 16 ] && one "$n" "T=16 again" 16
	}
	nbig=${N_THREADS_BIG:-96}
	if [ "$nbig" -gt 0 ] && left threads-big && box "$nbig"; then
		echo
		echo "## The same at 6 x $nbig^3 tets"
		head_row
		for t in 16 32 "$cores"; do
			[ "$t" -le "$cores" ] || continue
			one "$nbig" "T=$t" "$t"
		done
		one "$nbig" "T=$cores, no cap" "$cores" FVSTAR_SETUP_CELLS_PER_THREAD=0
	fi
fi

# ranks N: run_setup_ranks.sh on box N, then each rank's phases from the file
ranks() {
	box "$1" || return 1
	echo
	echo "## Set-up under mpirun: 6 x $1^3 tets, $nb blocks (run_setup_ranks.sh)"
	RANKS="1 2 4" BLOCKS=$nb timeout "${2:-200}" sh "$top/bench/run_setup_ranks.sh" "$fv" "$out/box$1.fvm" "$out/ranks$1" ||
		echo "(run_setup_ranks.sh stopped: exit $?)"
	for r in 2 4; do
		for way in file parts; do
			f=$out/ranks$1/$way$r/summary.json
			[ -f "$f" ] || continue
			python3 - "$f" "$way" "$r" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
rows = s.get("setup_seconds_per_rank")
if rows:
    print("- %s, R = %s, each rank's phases (s): %s" % (sys.argv[2], sys.argv[3], "; ".join(
        "rank %d: " % i + " ".join("%s %.2f" % (k, r[k]) for k in ("mesh", "starpu", "blocks", "state", "solver"))
        for i, r in enumerate(rows))))
st = s.get("setup_steps", {})
print("  rank 0's steps: " + ", ".join("%s %.2f%s" % (k, v["seconds"], " (%s)" % v["note"] if "note" in v and "thread" in v["note"] else "")
                                       for k, v in sorted(st.items(), key=lambda kv: -kv[1]["seconds"])[:8]))
PY
		done
	done
}

if has ranks && left ranks; then
	ranks "${N_RANKS:-48}" "${RANKS_TIMEOUT:-120}"
	# as session 18 measured it: cores / R CPU workers a rank (StarPU-MPI's
	# thread without a core of its own)
	if [ "${SHARE:-1}" = 1 ] && left ranks-share; then
		echo
		echo "### the same with WORKERS=share (cores / R workers a rank, as in session 18)"
		WORKERS=share RANKS="2 4" BLOCKS=$nb timeout 90 sh "$top/bench/run_setup_ranks.sh" "$fv" \
			"$out/box${N_RANKS:-48}.fvm" "$out/ranks-share" | grep "^| [24] "
	fi
	[ "${N_RANKS_BIG:-120}" -gt 0 ] && left ranks-big && ranks "${N_RANKS_BIG:-120}" "${RANKS_BIG_TIMEOUT:-150}"
	rm -rf "$out"/ranks*/cut*
fi

if has big && left big; then
	echo
	echo "## $cells cells, the default ordering (RCM): T5, set-up within 60 s"
	RUN_TIMEOUT=${RUN_TIMEOUT:-200} STEPS="gen setup" VARIANTS="base" SETUP_ITERATIONS=${BIG_ITERATIONS:-10} \
		sh "$top/bench/run_bigmesh.sh" "$fv" "$out/big" "$cells" | sed -n '/^## setup/,$p'
	grep -h "^fvstar: set-up step renumber" "$out/big"/setup_base*.err 2>/dev/null | head -3
	rm -f "$out/big/box.fvm" "$out/big"/setup_*/restart.bin
fi

if has m6 && left m6; then
	if [ -n "$m6" ] && [ -f "$m6" ]; then
		STEPS=m6 DEADLINE=600 sh "$top/bench/run_setup7.sh" "$fv" "$out/m6" "$m6"
	else
		echo "(m6 skipped: no M6 mesh given)"
	fi
fi
echo
echo "# done in $(($(date +%s) - t0)) s"
