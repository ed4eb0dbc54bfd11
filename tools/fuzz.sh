#!/bin/sh
# SPDX-License-Identifier: MIT
# Fuzzes the SU2 and Gmsh readers (and faces/geometry/checks behind them)
# with libFuzzer + AddressSanitizer + UBSan, SECONDS per reader (default 300).
# New crashers are copied to tests/fuzz/regressions/, which
# tests/cli/fuzz_regressions.sh replays in `make check`.
# Usage: tools/fuzz.sh [SECONDS] [JOBS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-300}
jobs=${2:-1}
cc=${CLANG:-clang}
out=${FUZZ_DIR:-$top/build/fuzz}
mkdir -p "$out"
srcs="src/util/error.c src/util/parse.c src/mesh/mesh.c src/mesh/io.c src/mesh/read_su2.c src/mesh/read_gmsh.c
 src/mesh/read_cgns.c src/mesh/extrude.c
 src/mesh/faces.c src/mesh/geometry.c src/mesh/check.c tests/fuzz/fuzz_mesh.c"
flags="-std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L -I$top/include -I$top/src
 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
cd "$top"
# shellcheck disable=SC2086
$cc $flags $srcs -lm -o "$out/fuzz_su2"
# shellcheck disable=SC2086
$cc $flags -DFUZZ_GMSH $srcs -lm -o "$out/fuzz_gmsh"
for fmt in su2 gmsh; do
	corpus="$out/corpus_$fmt"
	mkdir -p "$corpus" "$out/crash_$fmt"
	case $fmt in su2) ext=su2 ;; gmsh) ext=msh ;; esac
	cp tests/fuzz/seeds/*.$ext "$corpus/" 2>/dev/null || true
	echo "fuzz: $fmt for $secs s"
	# -max_len: seeds are small; larger inputs only slow the search
	# libFuzzer writes fuzz-N.log into the working directory
	(cd "$out" && "$out/fuzz_$fmt" "$corpus" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
		-jobs="$jobs" -workers="$jobs" -artifact_prefix="$out/crash_$fmt/" -print_final_stats=1 \
		>"$out/fuzz_$fmt.log" 2>&1) || true
	tail -15 "$out/fuzz_$fmt.log"
	for f in "$out/crash_$fmt"/*; do
		[ -f "$f" ] || continue
		cp "$f" "tests/fuzz/regressions/$fmt-$(basename "$f").$ext"
		echo "fuzz: new crasher tests/fuzz/regressions/$fmt-$(basename "$f").$ext"
	done
done
