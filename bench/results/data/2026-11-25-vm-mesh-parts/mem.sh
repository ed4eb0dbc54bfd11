#!/bin/sh
# peak memory per rank: M6 medium, 1 iteration; 1 rank, R ranks with rank 0 cutting, R ranks from a partition dir
set -u
fv=/work/main/build/fvstar
cfg=/work/main/cases/onera_m6/onera_m6.cfg
mesh=/work/main/cases/onera_m6/onera_m6_medium.su2
out=/tmp/memrun; rm -rf $out; mkdir -p $out
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
K="numerics.iterations=2 output.vtu=no output.progress_every=0 partition.blocks=8 numerics.residual_drop=0"
/usr/bin/time -v env STARPU_NCPU=1 $fv run $cfg $K mesh.file=$mesh output.dir=$out/r1 2>$out/r1.err; grep "Maximum resident" $out/r1.err
for R in 2 4; do
  mpirun --oversubscribe --allow-run-as-root -np $R -x STARPU_NCPU=1 $fv run $cfg $K mesh.file=$mesh output.dir=$out/r$R 2>$out/r$R.err
  grep "peak memory per rank" $out/r$R.err
  /usr/bin/time -v $fv mesh partition $mesh --ranks $R --blocks 8 -o $out/p$R 2>$out/p$R.err; grep "Maximum resident\|parts of" $out/p$R.err
  mpirun --oversubscribe --allow-run-as-root -np $R -x STARPU_NCPU=1 $fv run $cfg $K mesh.file=$out/p$R output.dir=$out/d$R 2>$out/d$R.err
  grep "peak memory per rank" $out/d$R.err
  cmp $out/r1/restart.bin $out/r$R/restart.bin && cmp $out/r1/restart.bin $out/d$R/restart.bin && echo "R=$R restart identical"
done
