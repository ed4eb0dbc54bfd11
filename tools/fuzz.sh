#!/bin/sh
# SPDX-License-Identifier: MIT
# Fuzzes the SU2 and Gmsh readers (and faces/geometry/checks behind them)
# and the restart reader with libFuzzer + AddressSanitizer + UBSan, SECONDS
# per target (default 300). New mesh crashers are copied to
# tests/fuzz/regressions/, which tests/cli/fuzz_regressions.sh replays in
# `make check`; restart crashers to tests/fuzz/regressions/restart/, which
# tests/fuzz/replay_restart replays with the seeds of tests/fuzz/seeds-restart.
# Usage: tools/fuzz.sh [SECONDS] [JOBS] [TARGETS]   (TARGETS: "su2 gmsh restart")
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-300}
jobs=${2:-1}
targets=${3:-su2 gmsh restart}
cc=${CLANG:-clang}
out=${FUZZ_DIR:-$top/build/fuzz}
mkdir -p "$out"
srcs="src/util/error.c src/util/parse.c src/mesh/mesh.c src/mesh/io.c src/mesh/read_su2.c src/mesh/read_gmsh.c
 src/mesh/faces.c src/mesh/geometry.c src/mesh/check.c src/mesh/fileorder.c tests/fuzz/fuzz_mesh.c"
flags="-std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L -I$top/include -I$top/src
 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
cd "$top"
# shellcheck disable=SC2086
$cc $flags $srcs -lm -o "$out/fuzz_su2"
# shellcheck disable=SC2086
$cc $flags -DFUZZ_GMSH $srcs -lm -o "$out/fuzz_gmsh"
# shellcheck disable=SC2086
$cc $flags src/util/error.c src/mesh/fileorder.c src/io/restart.c tests/fuzz/fuzz_restart.c -lm -o "$out/fuzz_restart"
for fmt in $targets; do
	corpus="$out/corpus_$fmt"
	mkdir -p "$corpus" "$out/crash_$fmt"
	case $fmt in
	su2) ext=su2 seeds="tests/fuzz/seeds/*.su2" crashers=tests/fuzz/regressions len=4096 ;;
	gmsh) ext=msh seeds="tests/fuzz/seeds/*.msh" crashers=tests/fuzz/regressions len=4096 ;;
	restart) ext=bin seeds="tests/fuzz/seeds-restart/*" crashers=tests/fuzz/regressions/restart len=8192 ;;
	*) echo "fuzz: unknown target $fmt"; exit 2 ;;
	esac
	# shellcheck disable=SC2086
	cp $seeds "$corpus/" 2>/dev/null || true
	echo "fuzz: $fmt for $secs s"
	# -max_len: seeds are small; larger inputs only slow the search
	# libFuzzer writes fuzz-N.log into the working directory
	(cd "$out" && "$out/fuzz_$fmt" "$corpus" -max_total_time="$secs" -max_len="$len" -timeout=10 -rss_limit_mb=2048 \
		-jobs="$jobs" -workers="$jobs" -artifact_prefix="$out/crash_$fmt/" -print_final_stats=1 \
		>"$out/fuzz_$fmt.log" 2>&1) || true
	tail -15 "$out/fuzz_$fmt.log"
	for f in "$out/crash_$fmt"/*; do
		[ -f "$f" ] || continue
		mkdir -p "$crashers"
		cp "$f" "$crashers/$fmt-$(basename "$f").$ext"
		echo "fuzz: new crasher $crashers/$fmt-$(basename "$f").$ext"
	done
done
