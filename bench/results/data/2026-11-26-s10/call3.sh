#!/bin/sh
# session 10, call 3 (2 GPUs of one node): issue 15 on this build (face-only, split halos, fetch
# tasks) against the build of the 2026-11-26 scaling runs (369189b); Open MPI's shared memory
# with and without CMA for a rank per GPU; the 2-GPU trace; CPU workers beside 2 GPUs; weak
# scaling at about 10M cells per GPU. Everything lands in $OUT/call3.tar.gz (rebuilt after
# each part: at most 8 files come back).
set -u
. bench/results/data/2026-11-26-s10/lib.sh
R=/tmp/r3; S=$R/scal; mkdir -p $R $S
save() { (cd $R && tar czf $OUT/call3.tar.gz --exclude='*.su2' --exclude='restart.bin' --exclude='prof_file*' .); }
{ nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nvidia-smi topo -m; nproc; lscpu | grep -E "Model name";
  mpirun --version | head -1; date; } > $R/device.txt 2>&1; cat $R/device.txt
# the build of 369189b, with the StarPU of the pack
cat > /tmp/fvstar-old <<W
#!/bin/sh
LD_LIBRARY_PATH=$top/device/lib/fvstar/starpu:$top/device/lib exec $top/devdata/old/fvstar-369189b "\$@"
W
chmod +x /tmp/fvstar-old
echo "== A: GPU tests"
for t in multi_gpu mpi_gpu balance_gpu; do
	s=$(date +%s); timeout 120 sh tests/wrap.sh sh tests/gpu/$t.sh > $R/$t.log 2>&1
	echo "A $t rc=$? $(( $(date +%s) - s ))s | $(tail -1 $R/$t.log | cut -c1-220)"
done
save; echo "elapsed $(el)"
B="sh bench/run_gpu_scaling.sh"
echo "== S: strong, 10.4M box (60 refined once), 30 + 10 iterations"
SCALING_TIMEOUT=150 $B $fv $S 30 10 proc:1:60:1 proc:2:60:1; save; echo "t=$(el)"
SCALING_TIMEOUT=150 SCALING_LABEL=-old $B /tmp/fvstar-old $S 30 10 proc:2:60:1; save; echo "t=$(el)"
SCALING_TIMEOUT=150 $B $fv $S 30 10 mpi:2:60:1; save; echo "t=$(el)"
SCALING_TIMEOUT=150 SCALING_LABEL=-cma OMPI_MCA_btl_vader_single_copy_mechanism=cma $B $fv $S 30 10 mpi:2:60:1; save; echo "t=$(el)"
echo "== T: a traced 2-GPU run, 1.3M box (60), iterations 4-6"
STARPU_NCPU=0 STARPU_NCUDA=2 STARPU_BUS_STATS=1 timeout 90 $fv run $S/runs/box60.cfg numerics.iterations=6 numerics.order=2 output.vtu=no \
	output.progress_every=0 output.snapshot_every=0 partition.blocks=2 output.trace=$R/trace2 output.trace_from=4 \
	output.dir=$R/tr2 > $R/tr2.out 2> $R/tr2.err; echo "T rc=$?"; tail -6 $R/tr2.err
save; echo "elapsed $(el)"
echo "== C: 2 GPUs alone against 2 GPUs + 28 CPU workers, 1.3M box (60), 60 + 20 iterations"
SCALING_TIMEOUT=90 $B $fv $S 60 20 proc:2:60:0; save
SCALING_TIMEOUT=90 SCALING_LABEL=+cpu28 SCALING_NCPU=28 $B $fv $S 60 20 proc:2:60:0; save; echo "t=$(el)"
echo "== W: weak at about 10M cells per GPU: 20.25M box (75 refined once) on 2 GPUs"
[ $(el) -lt 420 ] && { SCALING_TIMEOUT=170 $B $fv $S 20 10 proc:2:75:1; save; }
echo "elapsed $(el)"; cat $S/scaling.csv
