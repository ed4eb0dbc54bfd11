#!/bin/sh
# SPDX-License-Identifier: MIT
# Session 22's set-up measurements (issue 25, T7 and T9;
# bench/results/2026-12-04-setup11.md). CPU workers only (STARPU_NCUDA=0):
# a lane of 1 GPU + 16 cores is enough, the GPU is not used.
#   ranks    T7: the 10.37M box (6 x N_RANKS^3 tets, default 120) as .fvm,
#            BLOCKS (16) blocks, one iteration, under mpirun (--bind-to
#            none: fvstar's placement) with R = 1 2 4 from the file, then
#            `fvstar mesh partition --ranks R` (timed) and R = 4 2 1 from the
#            part files (PARTS_RANKS); each rank's phases (summary.json
#            setup_seconds_per_rank), rank 0's largest steps, its timeline
#            (exec to main, set-up done) and the command's wall time
#   file     only the R = 1 2 4 rows from the file (ranks' first half)
#   parts    only the part files' rows (ranks' second half; restarts
#            compared with R = 1 file's only where that ran in OUT_DIR)
#   threads  T9: the 663k box (6 x 48^3) in one process on T = 1 2 4 8 ...
#            nproc cores (taskset), the defaults; then on all with
#            OMP_WAIT_POLICY=passive, FVSTAR_OMP_PASSIVE=0 (threads spinning),
#            FVSTAR_OMP_PASSIVE=0 HWLOC_COMPONENTS= (main's: spinning, hwloc's
#            GPU plugins in StarPU's start), the defaults again
#   m6       T8: the M6 medium (M6_MESH) with the shipped case, M6_RUNS (3)
#            times on the lane's GPU: summary.json's forces.cl_settled
#            (process start to CL within 0.5 % against the loop to it)
#   starpu   StarPU's start alone: `fvstar runtime info` timed (CPU workers
#            only) with every core, with 1 worker, with the hwloc GPU
#            plugins off, 3 times each (what the set-up's "starpu" phase of
#            0.3-0.7 s is)
# Each run is under `timeout`; each step skipped once DEADLINE (default
# 250) seconds have passed. Everything big stays in OUT_DIR; the script
# deletes the meshes, part files and restarts at the end.
# Usage: bench/run_setup11.sh FVSTAR OUT_DIR
# Environment: STEPS (default "starpu threads ranks"), DEADLINE, N_RANKS,
# N_THREADS, BLOCKS, RUN_TIMEOUT (one run's limit, default 90 s), EXTRA_ENV
# (variables given to every run, e.g. "FVSTAR_X=1"), B_ENV (variables of a
# second row "R=r WAY, B" after each T7 row of R > 1 or from part files:
# an A/B of the default against them).
set -u
[ $# -ge 2 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
out=$(cd "$2" && pwd)
steps=${STEPS:-starpu threads ranks}
deadline=${DEADLINE:-250}
nb=${BLOCKS:-16}
rto=${RUN_TIMEOUT:-90}
extra=${EXTRA_ENV:-}
B=${B_ENV:-}
cores=$(nproc)
export STARPU_SILENT=1 STARPU_NCUDA=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
t0=$(date +%s)
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
left() { [ $(($(date +%s) - t0)) -lt "$deadline" ] || { echo "($1 skipped: DEADLINE=$deadline s passed)"; return 1; }; }
now() { date +%s.%N; }
since() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.2f", a - b }'; }
echo "# fvstar $("$fv" --version 2>/dev/null | head -1); $cores cores ($(taskset -pc $$ 2>/dev/null | sed 's/.*: //')), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); $(date -u +%H:%M:%S) UTC; steps: $steps; EXTRA_ENV: ${extra:-none}; B_ENV: ${B:-none}"
echo "load: $(cat /proc/loadavg)"

# box N: a perturbed tet box of 6 N^3 cells as .fvm and a case for it
box() {
	[ -f "$out/box$1.fvm" ] || timeout 120 "$fv" mesh gen box --cells tet -n "$1" --perturb 0.1 -o "$out/box$1.fvm" \
		>/dev/null 2>&1 || { echo "mesh gen box -n $1 failed"; return 1; }
	{
		printf '[mesh]\nfile = %s\n[flow]\nmach = 0.5\nalpha = 2\n[bc]\n' "$out/box$1.fvm"
		for b in xmin xmax ymin ymax zmin zmax; do echo "$b = farfield"; done
		printf '[output]\nvtu = no\nprogress_every = 0\n'
	} >"$out/box$1.cfg"
}

# summary DIR NAME WALL: one table row from DIR/summary.json and DIR.err
summary() {
	python3 - "$1/summary.json" "$2" "$3" "$1.err" <<'PY'
import json, re, sys
s = json.load(open(sys.argv[1]))
name, wall, err = sys.argv[2], float(sys.argv[3]), open(sys.argv[4]).read()
su, th = s["setup_seconds"], s.get("setup_threads_per_phase", {})
per = s.get("setup_seconds_per_rank") or [{k: v for k, v in su.items() if k != "total"}]
own = max(sum(v for k, v in r.items() if k != "total") for r in per)
tl = dict((k.strip(), float(v)) for k, v in re.findall(r"([a-zA-Z -]+?) ([0-9.]+)(?:,|$)", (re.findall(r"timeline \(s since the process started\): (.*)", err) or [""])[-1]))
st = sorted(s.get("setup_steps", {}).items(), key=lambda kv: -kv[1]["seconds"])[:8]
ph = ("mesh", "starpu", "blocks", "state", "solver")
print("| %s | %.2f | %s | %s | %s | %s | %.2f | %s |" % (
    name, own, " / ".join("%.2f" % max(r.get(p, 0) for r in per) for p in ph),
    "/".join(str(th.get(k, "-")) for k in ("mesh", "blocks", "state", "solver")),
    "%.2f" % tl["main"] if "main" in tl else "-", "%.2f" % tl["set-up done"] if "set-up done" in tl else "-", wall,
    ", ".join("%s %.2f" % (k, v["seconds"]) for k, v in st)))
if len(per) > 1:
    print("|  | each rank: " + "; ".join("r%d %s" % (i, " ".join("%s %.2f" % (p[:2], r.get(p, 0)) for p in ph)) for i, r in enumerate(per)) + " |||||||")
for k, v in s.get("setup_steps", {}).items():
    if v.get("note"):
        print("|  | %s: %s |||||||" % (k, v["note"]))
PY
}

head_row() {
	echo
	echo "| run | set-up s (slowest rank's own) | mesh / starpu / blocks / state / solver (slowest rank) | threads mesh/blocks/state/solver | main at | set-up done at | wall s | rank 0's largest steps s |"
	echo "|---|---|---|---|---|---|---|---|"
}

# one N NAME T ENV...: the box set up in one process on cores 0..T-1 of this lane, one iteration
one() {
	n=$1 name=$2 t=$3
	shift 3
	d=$out/t$n-$(echo "$name" | tr -c 'a-zA-Z0-9=\n' _)
	rm -rf "$d"
	cl=$(taskset -pc $$ | sed 's/.*: //' | python3 -c "
import sys
c = []
for p in sys.stdin.read().strip().split(','):
    a, _, b = p.partition('-'); c += range(int(a), int(b or a) + 1)
print(','.join(map(str, c[:$t])))")
	s=$(now)
	# shellcheck disable=SC2086
	env OMP_NUM_THREADS="$t" STARPU_NCPU="$t" $extra "$@" timeout "$rto" taskset -c "$cl" "$fv" run "$out/box$n.cfg" -v \
		output.dir="$d" partition.blocks="$nb" numerics.iterations=1 numerics.residual_drop=0 >/dev/null 2>"$d.err" ||
		{ echo "| $name | failed: $(grep -i error "$d.err" | tail -1) |"; return 1; }
	summary "$d" "$name" "$(since "$s")"
}

if has starpu && left starpu; then
	echo
	echo "## StarPU's start alone: fvstar runtime info (CPU workers only), wall s"
	echo
	for v in "all:STARPU_NCPU=$cores" "one:STARPU_NCPU=1" "hwloc:STARPU_NCPU=$cores HWLOC_COMPONENTS=-cuda,-nvml,-opencl,-gl,-rsmi,-levelzero" \
		"passive:STARPU_NCPU=$cores OMP_WAIT_POLICY=passive"; do
		name=${v%%:*}
		row="| $name |"
		for i in 1 2 3; do
			s=$(now)
			# shellcheck disable=SC2086
			env ${v#*:} $extra timeout 30 "$fv" runtime info >"$out/rt-$name.txt" 2>&1 || row="$row failed"
			row="$row $(since "$s")"
		done
		echo "$row |"
	done
	grep -i "worker\|sched" "$out/rt-all.txt" | head -3
fi

if has threads && left threads; then
	n=${N_THREADS:-48}
	if box "$n"; then
		echo
		echo "## T9: 6 x $n^3 tets in one process on T cores, $nb blocks, CPU workers, 1 iteration"
		head_row
		t=1
		while [ "$t" -le "$cores" ] && left "T=$t"; do
			one "$n" "T=$t" "$t"
			t=$((t * 2))
		done
		[ $((t / 2)) = "$cores" ] || { left "T=$cores" && one "$n" "T=$cores" "$cores"; }
		left passive && one "$n" "T=$cores, OMP_WAIT_POLICY=passive" "$cores" OMP_WAIT_POLICY=passive
		left spin && one "$n" "T=$cores, FVSTAR_OMP_PASSIVE=0" "$cores" FVSTAR_OMP_PASSIVE=0
		left main && one "$n" "T=$cores, FVSTAR_OMP_PASSIVE=0 HWLOC_COMPONENTS= (main's)" "$cores" FVSTAR_OMP_PASSIVE=0 HWLOC_COMPONENTS=
		left reexec && one "$n" "T=$((cores / 2)), FVSTAR_OMP_PASSIVE=1" "$((cores / 2))" FVSTAR_OMP_PASSIVE=1
		left half && one "$n" "T=$((cores / 2)) again" "$((cores / 2))"
		left again && one "$n" "T=$cores again" "$cores"
		left main2 && one "$n" "T=$cores, main's again" "$cores" FVSTAR_OMP_PASSIVE=0 HWLOC_COMPONENTS=
	fi
fi

# rrun R WAY MESH [ENV...]: fvstar run under mpirun (R > 1) or alone, -v
# (ENV: this row's variables besides EXTRA_ENV; the row named "WAY, B")
rrun() {
	r=$1 way=$2 mesh=$3
	shift 3
	ab="$*"
	d=$out/r$way$r${ab:+b}
	rm -rf "$d"
	s=$(now)
	if [ "$r" = 1 ]; then
		# shellcheck disable=SC2086
		env $extra "$@" timeout "$rto" "$fv" run "$out/box$nr.cfg" -v output.dir="$d" mesh.file="$mesh" partition.blocks="$nb" \
			numerics.iterations=1 numerics.residual_drop=0 >/dev/null 2>"$d.err"
	else
		# shellcheck disable=SC2086
		timeout "$rto" mpirun --oversubscribe --bind-to none -np "$r" -x STARPU_SILENT -x STARPU_NCUDA \
			$(for e in $extra $ab; do printf -- '-x %s ' "$e"; done) "$fv" run "$out/box$nr.cfg" -v output.dir="$d" \
			mesh.file="$mesh" partition.blocks="$nb" numerics.iterations=1 numerics.residual_drop=0 >/dev/null 2>"$d.err"
	fi || { echo "| R=$r $way${ab:+, B} | failed (exit $?): $(grep -i error "$d.err" | tail -1) |"; return 1; }
	summary "$d" "R=$r $way${ab:+, B}" "$(since "$s")"
	[ ! -f "$out/rfile1/restart.bin" ] || cmp -s "$out/rfile1/restart.bin" "$d/restart.bin" || echo "|  | restart.bin differs from R=1 file's |||||||"
}

nr=${N_RANKS:-120}
if { has ranks || has file || has parts; } && left ranks; then
	s=$(now)
	if box "$nr"; then
		echo
		echo "## T7: 6 x $nr^3 tets under mpirun, $nb blocks, CPU workers, 1 iteration (mesh generated in $(since "$s") s)"
		head_row
		for r in 1 2 4; do
			{ has ranks || has file; } && left "R=$r file" && rrun "$r" file "$out/box$nr.fvm"
			[ -z "$B" ] || [ "$r" = 1 ] || { { has ranks || has file; } && left "R=$r file, B" &&
				rrun "$r" file "$out/box$nr.fvm" $B; }
		done
		for r in ${PARTS_RANKS:-4 2 1}; do
			{ has ranks || has parts; } && left "R=$r parts" || continue
			s=$(now)
			# shellcheck disable=SC2086
			env $extra timeout "$rto" "$fv" mesh partition "$out/box$nr.fvm" --ranks "$r" --blocks "$nb" -o "$out/cut$r" \
				>/dev/null 2>"$out/cut$r.err" || { echo "| partition R=$r failed: $(tail -1 "$out/cut$r.err") |"; continue; }
			echo "|  | fvstar mesh partition --ranks $r: $(since "$s") s |||||||"
			left "R=$r parts" && rrun "$r" parts "$out/cut$r"
			[ -z "$B" ] || [ "$r" = 1 ] || { left "R=$r parts, B" && rrun "$r" parts "$out/cut$r" $B; }
			rm -rf "$out/cut$r"
		done
	fi
fi
# T8: the M6 medium (M6_MESH: .su2, .su2.xz or .fvm) with the shipped case to
# its residual target, M6_RUNS times on one GPU (the lane's): summary.json's
# forces.cl_settled (the first iteration from which CL stays within 0.5 %
# of the last, with the loop's and the process's seconds there) and where
# the rest of the process goes (timeline)
if has m6 && left m6; then
	m6=${M6_MESH:-}
	case $m6 in
	*.xz) xz -dc "$m6" >"$out/m6.su2" && m6=$out/m6.su2 ;;
	esac
	timeout 120 "$fv" mesh convert "$m6" -o "$out/m6.fvm" >/dev/null 2>&1 || echo "m6: convert failed"
	echo
	echo "## T8: M6 medium, shipped case, one GPU: CL within 0.5 % (summary.json forces.cl_settled)"
	echo
	echo "| run | iterations | set-up s | CL 0.5 % at | loop s there | process s there | process / loop | CL 0.1 % at | process / loop | loop done | exit handlers | wall s |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
	i=1
	while [ "$i" -le "${M6_RUNS:-3}" ] && left "m6 $i"; do
		d=$out/m6-$i
		s=$(now)
		# shellcheck disable=SC2086
		env -u STARPU_NCUDA $extra timeout 150 "$fv" run "$(dirname "$0")/../cases/onera_m6/onera_m6.cfg" -v \
			mesh.file="$out/m6.fvm" output.vtu=no output.progress_every=0 output.dir="$d" >/dev/null 2>"$d.err" ||
			{ echo "| $i | failed: $(grep -i error "$d.err" | tail -1) |"; i=$((i + 1)); continue; }
		python3 - "$d" "$i" "$(since "$s")" <<'PY'
import json, re, sys
d, name, wall = sys.argv[1], sys.argv[2], float(sys.argv[3])
s = json.load(open(d + "/summary.json"))
cs = s["forces"].get("cl_settled", [])
err = open(d + ".err").read()
ex = re.findall(r"exit handlers done at ([0-9.]+)", err)
def g(k, key, f):
    return (f % cs[k][key]) if len(cs) > k else "-"
print("| %s | %d | %.2f | %s | %s | %s | **%s** | %s | %s | %s | %s | %.2f |" % (
    name, s["iterations"], s["setup_seconds"]["total"], g(0, "iteration", "%d"), g(0, "loop_seconds", "%.2f"),
    g(0, "process_seconds", "%.2f"), g(0, "process_over_loop", "%.2fx"), g(1, "iteration", "%d"),
    g(1, "process_over_loop", "%.2fx"), "%.2f" % s["timeline"].get("loop done", 0), ex[-1] if ex else "-", wall))
PY
		i=$((i + 1))
	done
fi
rm -rf "$out"/*.fvm "$out"/*.su2 "$out"/cut* "$out"/*/restart.bin
echo
echo "# done in $(($(date +%s) - t0)) s"
