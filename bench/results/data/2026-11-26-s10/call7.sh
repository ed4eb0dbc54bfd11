#!/bin/sh
# session 10, call 7 (one H100): tests/gpu/balance_gpu.sh with the cores joining a GPU run when
# the models say they could add a quarter (runtime.gpu_speed = 2) and not at 640.
set -u
top=$PWD
rm -rf device; tar xJf devdata/device.tar.xz
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 STARPU_SILENT=1
export LD_LIBRARY_PATH=$top/device/lib top_srcdir=$top top_builddir=$top/device/bin
nvidia-smi -L; nproc
timeout 120 sh tests/wrap.sh sh tests/gpu/balance_gpu.sh > $OUT/balance_gpu.log 2>&1; echo "balance_gpu rc=$?"
tail -12 $OUT/balance_gpu.log
