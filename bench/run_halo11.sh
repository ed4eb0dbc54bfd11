#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 23, session 22: CPU workers beside one GPU. GPU only, + 1 and + 15
# CPU workers (runtime.ncpu; the CPU workers hold no cells when the
# decision says so), under the scheduler the run picks (dmdas with CPU
# workers, lws alone) and under lws forced, on the M6 medium mesh and the
# 10.37M box, explicit and implicit; then one traced run (M6 implicit,
# + 15 CPU workers) whose per-worker task list says what the CPU workers
# ran. Every run under `timeout`; one CSV of bench/run_overlap.sh per part.
# Usage: bench/run_halo11.sh FVSTAR OUT M6_MESH
# Environment: H11_STEPS (default "m6 trace bind box"; also "pipe", "scale", "ranks", "fetch"),
#   H11_PIPE (the deeper CUDA pipeline of "scale", 8), H11_TIMEOUT (s per run, 60),
#   H11_BOX (the box's N, 120: 10.37M cells), H11_CFG (the traced case, the M6's).
set -u
fv=${1:?usage: bench/run_halo11.sh FVSTAR OUT M6_MESH}
out=${2:?OUT}
m6=$(cd "$(dirname "${3:?M6_MESH}")" && pwd)/$(basename "$3")
top=$(cd "$(dirname "$0")/.." && pwd)
lim=${H11_TIMEOUT:-60}
mkdir -p "$out"
# the run's own choice is lws for the GPU alone and dmdas with CPU workers:
# both policies on every configuration
export OVERLAP_TIMEOUT=$lim OVERLAP_KEY=runtime.sched OVERLAP_VALUES="dmdas lws"
for step in ${H11_STEPS:-m6 trace bind box}; do
	case $step in
	m6 | bind)
		# bind: the same with StarPU's main thread on a core of its own
		# (STARPU_MAIN_THREAD_BIND: the submitting thread otherwise shares
		# a core with a CPU worker that polls for tasks)
		if [ $step = bind ]; then export STARPU_MAIN_THREAD_BIND=1; else unset STARPU_MAIN_THREAD_BIND; fi
		for t in steady implicit; do
			if [ $t = steady ]; then it=300 wu=50; else it=40 wu=10; fi
			OVERLAP_ITERS=$it OVERLAP_WARMUP=$wu OVERLAP_KEYS="mesh.file=$m6 numerics.time=$t numerics.cfl=1.5" \
				timeout $((6 * lim + 30)) sh "$top/bench/run_overlap.sh" "$fv" \
				"$out/$step-$t" "gpu:$top/cases/onera_m6/onera_m6.cfg" >"$out/$step-$t.txt" 2>&1
			rm -f "$out/$step-$t"/runs/*/restart.bin
		done
		unset STARPU_MAIN_THREAD_BIND
		;;
	box)
		. "$top/bench/box_case.sh"
		box_case "$(dirname "$fv")" "${H11_BOX:-120}" "$out" box120
		for t in steady implicit; do
			if [ $t = steady ]; then it=80 wu=20; else it=12 wu=4; fi
			OVERLAP_ITERS=$it OVERLAP_WARMUP=$wu OVERLAP_KEYS="numerics.time=$t numerics.order=2" \
				timeout $((6 * lim + 30)) sh "$top/bench/run_overlap.sh" "$fv" \
				"$out/box-$t" "gpu:$out/box120.cfg" >"$out/box-$t.txt" 2>&1
		done
		rm -f "$out/box${H11_BOX:-120}.su2"
		;;
	ranks)
		# 16 cores, CPU only: 1 x 14 against 2 ranks x 7, 1 x 12 against
		# 4 x 3 (bench/run_overlap.sh ranks:), the M6 medium explicit,
		# overlap on and off
		OVERLAP_KEY=numerics.overlap OVERLAP_VALUES="yes no" OVERLAP_ITERS=60 OVERLAP_WARMUP=20 \
			OVERLAP_KEYS="mesh.file=$m6 numerics.time=steady numerics.cfl=1.5" \
			timeout $((8 * lim + 30)) sh "$top/bench/run_overlap.sh" "$fv" "$out/ranks" \
			"ranks:$top/cases/onera_m6/onera_m6.cfg" >"$out/ranks.txt" 2>&1
		rm -f "$out"/ranks/runs/*/restart*.bin "$out"/ranks/runs/*/*/restart*.bin
		;;
	pipe)
		# StarPU's CUDA pipeline (asynchronous tasks queued ahead on the
		# worker's stream; StarPU's default 2) on the 10.37M box, one GPU,
		# one block and two: the launches between kernels against the work
		. "$top/bench/box_case.sh"
		box_case "$(dirname "$fv")" 60 "$out" box60
		csv=$out/pipe.csv
		echo "blocks,pipeline,s_per_iteration,setup_s,rc" >"$csv"
		for nb in 1 2; do
			for pl in default 8 32; do
				d=$out/pipe-b$nb-p$pl
				rc=0
				if [ $pl = default ]; then unset STARPU_CUDA_PIPELINE; else export STARPU_CUDA_PIPELINE=$pl; fi
				STARPU_NCPU=0 STARPU_NCUDA=1 STARPU_SCHED=lws timeout "$lim" "$fv" run "$out/box60.cfg" \
					mesh.refine=1 numerics.order=2 numerics.iterations=80 numerics.residual_drop=0 \
					partition.blocks=$nb output.restart_every=0 output.dir="$d" >"$d.out" 2>&1 || rc=$?
				rm -f "$d/restart.bin"
				unset STARPU_CUDA_PIPELINE
				python3 - "$d" 20 "$nb,$pl" "$rc" >>"$csv" <<'PY'
import csv, json, os, sys
d, warm, head, rc = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
try:
    t = {int(r["iteration"]): float(r["wall_s"]) for r in csv.DictReader(open(os.path.join(d, "history.csv")))}
    s = json.load(open(os.path.join(d, "summary.json")))
    last = max(t)
    print("%s,%.6g,%.2f,%s" % (head, (t[last] - t[warm]) / (last - warm), s["setup_seconds"]["total"], rc))
except (OSError, KeyError, ValueError):
    print("%s,,,%s" % (head, rc))
PY
				tail -1 "$csv"
			done
		done
		rm -f "$out/box60.su2"
		;;
	scale)
		# the node alone: the 10.37M box on 1 and every GPU of the node in
		# one process (and a rank per GPU), StarPU's CUDA pipeline at its
		# default and at H11_PIPE (8); the 2- and 4-GPU runs traced (3 iterations)
		n=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")
		runs="proc:1:60:1"
		[ "$n" -ge 2 ] && runs="$runs proc:2:60:1 mpi:2:60:1"
		[ "$n" -ge 4 ] && runs="$runs proc:4:60:1 mpi:4:60:1"
		SCALING_TIMEOUT=$lim timeout $((8 * lim)) sh "$top/bench/run_gpu_scaling.sh" "$fv" "$out/scale" 60 20 \
			$runs >"$out/scale.txt" 2>&1
		STARPU_CUDA_PIPELINE=${H11_PIPE:-8} SCALING_LABEL=pipe${H11_PIPE:-8} SCALING_TIMEOUT=$lim \
			timeout $((8 * lim)) sh "$top/bench/run_gpu_scaling.sh" "$fv" "$out/scale" 60 20 \
			$(echo $runs | tr ' ' '\n' | grep "^proc") >>"$out/scale.txt" 2>&1
		traced=""
		[ "$n" -ge 2 ] && traced="proc:2:60:1"
		[ "$n" -ge 4 ] && traced="$traced proc:4:60:1"
		[ -n "$traced" ] && SCALING_TRACE=3 SCALING_LABEL=traced SCALING_TIMEOUT=$lim timeout $((3 * lim)) \
			sh "$top/bench/run_gpu_scaling.sh" "$fv" "$out/scale" 60 20 $traced >>"$out/scale.txt" 2>&1
		rm -f "$out"/scale/runs/*/restart.bin "$out"/scale/*.su2 "$out"/scale/runs/*.su2
		find "$out/scale" \( -name "prof_file_*" -o -name paje.trace -o -name "*.rec" -o -name dag.dot \) -delete
		;;
	fetch)
		# the node alone: 2 and 4 GPUs in one process with and without the
		# early fetch tasks of the halo buffers (FVSTAR_HALO_FETCH), the
		# rounds interleaved (H11_ROUNDS, 2)
		n=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")
		runs="proc:2:60:1"
		[ "$n" -ge 4 ] && runs="$runs proc:4:60:1"
		r=0
		while [ $r -lt "${H11_ROUNDS:-2}" ]; do
			r=$((r + 1))
			for f in 1 0; do
				FVSTAR_HALO_FETCH=$f SCALING_LABEL=fetch$f-$r SCALING_TIMEOUT=$lim timeout $((3 * lim)) \
					sh "$top/bench/run_gpu_scaling.sh" "$fv" "$out/fetch" 60 20 $runs >>"$out/fetch.txt" 2>&1
				rm -f "$out"/fetch/runs/*/restart.bin "$out"/fetch/runs/*/restart.bin.tmp*
			done
		done
		rm -f "$out"/fetch/runs/*.su2 "$out"/fetch/*.su2
		;;
	trace)
		d=$out/trace-m6-implicit-15cpu
		mkdir -p "$d"
		STARPU_NCPU=${H11_NCPU:-15} timeout "$lim" "$fv" run "${H11_CFG:-$top/cases/onera_m6/onera_m6.cfg}" mesh.file="$m6" \
			numerics.iterations=14 numerics.residual_drop=0 runtime.ncpu=${H11_NCPU:-15} output.vtu=no \
			output.restart_every=0 output.progress_every=0 output.trace="$d/trace" output.trace_from=10 \
			output.dir="$d" >"$d.out" 2>&1
		timeout "$lim" "$fv" trace "$d/trace" --no-plots >"$d.summary" 2>&1
		# what each worker ran: tasks per (worker, name) from tasks.rec
		awk '/^Name:/{n=$2} /^WorkerId:/{w=$2} /^$/{if(n!=""){c[w" "n]++}; n=""} END{for(k in c) print k, c[k]}' \
			"$d/trace/tasks.rec" 2>/dev/null | sort -k1,1n -k3,3nr >"$d.per_worker"
		gzip -9 "$d/trace/tasks.rec" 2>/dev/null
		rm -f "$d"/trace/prof_file_* "$d"/trace/paje.trace "$d"/trace/dag.dot "$d"/trace/*.rec
		;;
	esac
done
