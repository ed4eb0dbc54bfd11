#!/bin/sh
# SPDX-License-Identifier: MIT
# Is the FxT-enabled StarPU slower with tracing off? Builds
# bench_task_overhead against deps/starpu-1.3.10-fxt and deps/starpu-1.3.10
# and runs them alternately (CSV on stdout).
# Usage: bench/run_fxt_overhead.sh [NTASKS] [REPEATS] [ROUNDS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${BENCH_OUT:-$top/build/bench}
mkdir -p "$out"
for v in starpu-1.3.10-fxt starpu-1.3.10; do
	p=$top/deps/$v
	[ -x "$out/overhead-$v" ] || PKG_CONFIG_PATH=$p/lib/pkgconfig sh -c \
		"gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L \$(pkg-config --cflags starpu-1.3) $top/bench/bench_task_overhead.c \
		 \$(pkg-config --libs starpu-1.3) -Wl,-rpath,$p/lib -o $out/overhead-$v"
done
export STARPU_SILENT=1 STARPU_NCUDA=0 STARPU_FXT_TRACE=0
export STARPU_HOME="$out/starpu-home"
for r in $(seq "${3:-3}"); do
	for v in starpu-1.3.10-fxt starpu-1.3.10; do
		LD_LIBRARY_PATH=$top/deps/$v/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$out/overhead-$v" "${1:-20000}" "${2:-3}" | tail -n +2
	done
done
