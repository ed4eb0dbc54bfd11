#!/bin/sh
# Session 9, issue 15 on a node of several GPUs (one call): strong scaling
# of the 10.4M box (box 60 refined once) on 1, 2, 4 GPUs, one process
# against a rank per GPU; a traced 2-GPU run (one process); weak scaling at
# about 2.6M cells per GPU (box 75, box 95, and the 4-GPU strong run); CPU workers beside
# the 4 GPUs. Every step leaves its files under $OUT at once (the call may
# be cut off by the device budget).
top=$PWD
rm -rf device; tar xJf devdata/device.tar.xz
export LD_LIBRARY_PATH=$top/device/lib NCCL_NVLS_ENABLE=0
fv=$top/device/bin/fvstar
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > $OUT/device.txt
nvidia-smi topo -m >> $OUT/device.txt 2>&1; nproc >> $OUT/device.txt; mpirun --version | head -1 >> $OUT/device.txt
S=/tmp/scal; pack() { (cd $S && tar czf $OUT/runs.tgz runs/*.err runs/*/summary.json runs/*/history.csv identical.txt 2>/dev/null); cp $S/scaling.csv $OUT/ 2>/dev/null; }
B="sh bench/run_gpu_scaling.sh $fv $S 30 10"
SCALING_TIMEOUT=150 $B proc:1:60:1 proc:2:60:1 mpi:2:60:1 proc:4:60:1 mpi:4:60:1; pack; echo "strong t=$(el)"
# a traced 2-GPU run, one process (iterations 4-6 recorded), the bus statistics
STARPU_NCPU=0 STARPU_NCUDA=2 STARPU_BUS_STATS=1 $fv run $S/runs/box60.cfg numerics.iterations=6 numerics.order=2 output.vtu=no output.progress_every=0 \
	output.snapshot_every=0 partition.blocks=2 output.trace=$S/trace2 output.trace_from=4 output.dir=$S/tr2 \
	> $S/tr2.out 2> $S/tr2.err; tail -3 $S/tr2.err
(cd $S && tar czf $OUT/trace2.tgz trace2 tr2.err); echo "trace t=$(el)"
SCALING_TIMEOUT=90 $B proc:1:75:0 proc:2:95:0; pack; echo "weak t=$(el)"
# 4 GPUs + CPU workers (dmdas, blocks sized by speed) against 4 GPUs alone (above)
SCALING_LABEL=+cpu56 SCALING_NCPU=56 $B proc:4:60:1 2>&1 | tail -2; echo "cpu+gpu t=$(el)"; pack
