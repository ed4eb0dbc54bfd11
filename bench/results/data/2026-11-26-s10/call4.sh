#!/bin/sh
# session 10, call 4 (2 GPUs of one node): a rank per GPU with the build of 369189b (the A/B of
# call 3's rank-per-GPU run); strong scaling at 41.5M cells (box 95 refined once) on 1 and 2 GPUs.
set -u
. bench/results/data/2026-11-26-s10/lib.sh
R=/tmp/r4; S=$R/scal; mkdir -p $R $S
save() { (cd $R && tar czf $OUT/call4.tar.gz --exclude='*.su2' --exclude='restart.bin' --exclude='prof_file*' .); }
{ nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc; date; } > $R/device.txt 2>&1; cat $R/device.txt
cat > /tmp/fvstar-old <<W
#!/bin/sh
LD_LIBRARY_PATH=$top/device/lib/fvstar/starpu:$top/device/lib exec $top/devdata/old/fvstar-369189b "\$@"
W
chmod +x /tmp/fvstar-old
B="sh bench/run_gpu_scaling.sh"
. bench/box_case.sh; mkdir -p $S/runs; box_case $top/device/bin 60 $S/runs box60; box_case $top/device/bin 95 $S/runs box95
SCALING_TIMEOUT=150 SCALING_LABEL=-old $B /tmp/fvstar-old $S 30 10 mpi:2:60:1; save; echo "t=$(el)"
( while sleep 5; do nvidia-smi --query-gpu=index,memory.used --format=csv,noheader >> $R/gpumem.txt; done ) & mon=$!
SCALING_TIMEOUT=240 $B $fv $S 30 10 proc:2:95:1; save; echo "t=$(el)"
SCALING_TIMEOUT=240 $B $fv $S 30 10 proc:1:95:1; save; echo "t=$(el)"
kill $mon; sort -t, -k2 -n $R/gpumem.txt | tail -2; save
cat $S/scaling.csv
