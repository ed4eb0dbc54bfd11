#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 23, session 24: the halo kernels of a block in one launch per
# exchange (codelets/halo/halo_cuda.cu, numerics.halo_tasks = block) against
# the build before it (one launch per neighbour), on the 10.37M box
# (bench/box_case.sh, N = 60 refined once, explicit, second order, GPU
# only, lws):
#   profile - every kernel's own time (bench/run_kernel_profile.sh), 4 blocks
#           on one GPU with each build and 1 block with the new one; then
#           the DRAM bytes of 1 and 4 blocks (the new build, H13_METRICS):
#           whether the quarters' node values (+30 % in session 23) move
#           more bytes
#   scale - 1 and 2 GPUs (4 where the node has them) in one process and a
#           rank per GPU, each build, rounds interleaved (H13_ROUNDS, 2),
#           on the 10.37M and the 2.53M box (H13_SIZES, "60:1 75:0")
#   order - the cells' order inside a block (FVSTAR_ORDER, src/order/
#           renumber.c: by default RCM of whole blocks below 2^22 cells,
#           chained Cuthill-McKee pieces of 2^20 from there): 1 block and 4
#           blocks on one GPU, 2 blocks on 2 GPUs, each with the default and
#           the other order (rcm or chain), rounds interleaved (H13_ROUNDS):
#           whether the quarters' slower kernels (node values +30 %) are
#           their order, not their size (H13_ORDER_RUNS: ORDER:GPUS:BLOCKS
#           ..., ORDER as FVSTAR_ORDER with = for its colon, e.g.
#           chain=262144:1:1; H13_BOX: the box's N:R, 60:1)
#   sa    - the M6 SA (cases/onera_m6/onera_m6_sa.cfg with Roe's blocks,
#           the mesh H13_SA_MESH) to 8 orders on one GPU, the default order
#           against FVSTAR_ORDER=rcm: whether the order of a block of 1-4M
#           cells changes the implicit solver's iterations
# Usage: bench/run_halo13.sh FVSTAR FVSTAR_BEFORE OUT
# Environment: H13_STEPS ("profile scale"), H13_TIMEOUT (s per run, 60),
#   H13_METRICS (dram__bytes_read.sum,dram__bytes_write.sum), NCU.
set -u
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
fv=$(abs "${1:?usage: bench/run_halo13.sh FVSTAR FVSTAR_BEFORE OUT}")
fv0=$(abs "${2:?FVSTAR_BEFORE}")
out=${3:?OUT}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/common.sh"
lim=${H13_TIMEOUT:-60}
mkdir -p "$out"
export STARPU_SILENT=1 STARPU_SCHED=${STARPU_SCHED:-lws} FVSTAR_OMP_PASSIVE=0
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")
for step in ${H13_STEPS:-profile scale}; do
	case $step in
	profile)
		# the timings on GPU 0, the bytes on GPU 1 (when there is one)
		p() { PROFILE_TIMEOUT=$((2 * lim)) timeout $((5 * lim)) sh "$top/bench/run_kernel_profile.sh" "$@"; }
		(
			export CUDA_VISIBLE_DEVICES=0
			p "$fv" "$out/profile" 60:1 3 1 b1:1 b4:4 >"$out/profile.txt" 2>&1
			p "$fv0" "$out/profile0" 60:1 3 1 b4-before:4 >"$out/profile0.txt" 2>&1
		) &
		[ "$ngpu" -ge 2 ] && export CUDA_VISIBLE_DEVICES=1
		METRICS=${H13_METRICS:-dram__bytes_read.sum,dram__bytes_write.sum} p "$fv" "$out/bytes" 60:1 2 1 b1:1 b4:4 \
			>"$out/bytes.txt" 2>&1
		unset CUDA_VISIBLE_DEVICES
		wait
		gzip -9 "$out"/profile*/*.ncu.csv "$out"/bytes/*.ncu.csv 2>/dev/null
		rm -f "$out"/profile*/*.su2 "$out"/bytes/*.su2
		find "$out" -name "restart.bin*" -delete
		;;
	scale)
		r=0
		while [ $r -lt "${H13_ROUNDS:-2}" ]; do
			r=$((r + 1))
			for b in new before; do
				f=$fv
				[ $b = new ] || f=$fv0
				runs=""
				for z in ${H13_SIZES:-60:1 75:0}; do
					[ $r = 1 ] && runs="$runs proc:1:$z"
					runs="$runs proc:2:$z mpi:2:$z"
					[ "$ngpu" -ge 4 ] && runs="$runs proc:4:$z mpi:4:$z"
				done
				# shellcheck disable=SC2086
				SCALING_LABEL=$b-$r SCALING_TIMEOUT=$lim timeout $((12 * lim)) \
					sh "$top/bench/run_gpu_scaling.sh" "$f" "$out/scale" 100 30 $runs >>"$out/scale.txt" 2>&1
				rm -f "$out"/scale/runs/*/restart.bin*
			done
		done
		rm -f "$out"/scale/*.su2 "$out"/scale/runs/*.su2
		;;
	order)
		. "$top/bench/box_case.sh"
		bn=${H13_BOX:-60:1}
		box_case "$(dirname "$fv")" "${bn%%:*}" "$out" box
		csv=$out/order.csv
		[ -f "$csv" ] || echo "order,gpus,blocks,box,round,s_per_iteration,setup_s,rc" >"$csv"
		runs="auto:1:1 rcm:1:1 auto:1:4 chain:1:4"
		[ "$ngpu" -ge 2 ] && runs="$runs auto:2:2 rcm:2:2"
		runs=${H13_ORDER_RUNS:-$runs}
		r=0
		while [ $r -lt "${H13_ROUNDS:-1}" ]; do
			r=$((r + 1))
			for run in $runs; do
				IFS=: read -r o g nb <<RUN
$run
RUN
				d=$out/order-$o-g$g-b$nb-n$(echo "$bn" | tr : r)-$r
				rc=0
				FVSTAR_ORDER=$(echo "$o" | tr = :) STARPU_NCPU=0 STARPU_NCUDA=$g timeout "$lim" "$fv" run "$out/box.cfg" mesh.refine="${bn#*:}" \
					numerics.order=2 numerics.residual_drop=0 numerics.iterations=100 partition.blocks="$nb" \
					output.restart_every=0 output.snapshot_every=0 output.dir="$d" >"$d.out" 2>&1 || rc=$?
				echo "$o,$g,$nb,$bn,$r,$(iter_time "$d" 30),$rc" >>"$csv"
				tail -1 "$csv"
				rm -f "$d"/restart.bin*
			done
		done
		rm -f "$out"/box*.su2
		;;
	sa)
		csv=$out/sa.csv
		[ -f "$csv" ] || echo "order,iterations,loop_s,res_rho_orders,CL,CD,rc" >"$csv"
		sed -e '/^jacobian/d' "$top/cases/onera_m6/onera_m6_sa.cfg" >"$out/sa.cfg"
		mesh=${H13_SA_MESH:?H13_SA_MESH}
		case $mesh in *.xz)
			xz -dc "$mesh" >"$out/sa-mesh.$(basename "${mesh%.xz}" | sed 's/.*\.//')"
			mesh=$out/sa-mesh.$(basename "${mesh%.xz}" | sed 's/.*\.//') ;;
		esac
		for o in auto rcm; do
			d=$out/sa-$o
			rc=0
			FVSTAR_ORDER=$o STARPU_NCPU=0 STARPU_NCUDA=1 timeout -s TERM -k 20 "${H13_SA_TIMEOUT:-150}" "$fv" run \
				"$out/sa.cfg" mesh.file="$mesh" numerics.iterations=400 \
				numerics.residual_drop=8 output.vtu=no output.progress_every=0 output.restart_every=0 \
				output.dir="$d" >"$d.out" 2>"$d.err" || rc=$?
			python3 - "$d" "$o" "$rc" >>"$csv" <<'PY'
import csv, math, sys
d, o, rc = sys.argv[1:4]
try:
    rows = list(csv.DictReader(open(d + "/history.csv")))
    last = rows[-1]
    peak = max(float(r["res_rho"]) for r in rows)
    print("%s,%s,%s,%.2f,%s,%s,%s" % (o, last["iteration"], last["wall_s"], math.log10(peak / float(last["res_rho"])),
          last["CL"], last["CD"], rc))
except (OSError, KeyError, ValueError, IndexError):
    print("%s,,,,,,%s" % (o, rc))
PY
			tail -1 "$csv"
			rm -f "$d"/restart.bin*
		done
		rm -f "$out"/sa-mesh.*
		;;
	esac
done
