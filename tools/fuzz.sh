#!/bin/sh
# SPDX-License-Identifier: MIT
# Fuzzes one target (tests/fuzz/fuzz_TARGET.c) with libFuzzer + ASan + UBSan.
# The corpus starts from tests/fuzz/seeds/TARGET and tests/fuzz/regressions/
# TARGET; crashes, leaks, timeouts and out-of-memory inputs are written to
# tests/fuzz/regressions/TARGET/, which `make check` replays
# (tests/cli/fuzz_regressions.sh), and the script then exits 1. With
# FUZZ_COVERAGE=1 it also reports the line coverage of the target's sources
# reached by the final corpus (llvm-cov).
# Usage: tools/fuzz.sh TARGET|all [SECONDS] [JOBS]   (default 300 s, 1 job)
# A new target is tests/fuzz/fuzz_NAME.c, its seeds in tests/fuzz/seeds/NAME/
# (and a libFuzzer dictionary tests/fuzz/NAME.dict if it has one) and one
# line in sources() below (plus its replay program in tests/Makefile.inc).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
usage() {
	echo "usage: tools/fuzz.sh TARGET|all [SECONDS] [JOBS]; targets:" \
		"$(cd "$top/tests/fuzz" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//' | tr '\n' ' ')" >&2
	exit 2
}
[ $# -ge 1 ] || usage
target=$1
secs=${2:-300}
jobs=${3:-1}
cc=${CLANG:-clang}
out=${FUZZ_DIR:-$top/build/fuzz}

# The mesh readers and the pipeline behind them; CGNS when libcgns is there
# (the config.h of the fuzz builds says which).
mesh_srcs="src/mesh/mesh.c src/mesh/io.c src/mesh/read_su2.c src/mesh/read_gmsh.c src/mesh/read_cgns.c
 src/mesh/read_fvm.c src/util/xxh64.c src/util/alloc.c
 src/mesh/extrude.c src/mesh/faces.c src/mesh/geometry.c src/mesh/check.c src/mesh/fileorder.c"
mkdir -p "$out"
if [ -f /usr/include/cgnslib.h ]; then
	echo '#define FV_HAVE_CGNS 1' >"$out/config.h"
	cgns_libs=-lcgns
else
	: >"$out/config.h"
	cgns_libs=
fi

# The library sources each target needs beyond src/util/{error,parse}.c, and
# its link flags.
sources() {
	case $1 in
	mesh) echo "$mesh_srcs | $cgns_libs -lm" ;;
	cgns) echo "$mesh_srcs | $cgns_libs -lm" ;;
	fvm) echo "$mesh_srcs | $cgns_libs -lm" ;;
	restart) echo "src/mesh/fileorder.c src/io/restart.c src/util/tmpname.c | -lm" ;;
	part) echo "src/partition/parts.c src/partition/blocks.c src/mesh/mesh.c src/mesh/fileorder.c src/util/xxh64.c src/util/alloc.c | -lm" ;;
	case) echo "src/io/case.c src/io/output.c src/mesh/mesh.c src/mesh/fileorder.c src/mesh/write_vtu.c src/util/tmpname.c | -linih -ljansson -lm" ;;
	*) return 1 ;;
	esac
}

if [ "$target" = all ]; then
	rc=0
	for t in $(cd "$top/tests/fuzz" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//'); do
		"$0" "$t" "$secs" "$jobs" || rc=1
	done
	exit $rc
fi
line=$(sources "$target") || usage
[ -f "$top/tests/fuzz/fuzz_$target.c" ] || usage
srcs="src/util/error.c src/util/parse.c ${line%%|*} tests/fuzz/fuzz_$target.c"
libs=${line#*|}
# HAVE_CONFIG_H: read_cgns.c reads FV_HAVE_CGNS from the config.h above
# only then (without it the cgns target fuzzed the "built without CGNS" stub)
flags="-std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L -DHAVE_CONFIG_H -I$out -I$top/include -I$top/src -I$top"
regs=$top/tests/fuzz/regressions/$target
corpus=$out/corpus_$target
mkdir -p "$out" "$corpus" "$regs"
cd "$top"
# shellcheck disable=SC2086
$cc $flags -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $srcs $libs -o "$out/fuzz_$target"
for f in tests/fuzz/seeds/"$target"/* "$regs"/*; do
	[ -f "$f" ] && cp "$f" "$corpus/"
done
before=$(ls "$regs" | wc -l)
echo "fuzz: $target for $secs s, $jobs job(s), corpus $corpus"
# -max_len: seeds are small; larger inputs only slow the search. CGNS files
# (HDF5, ADF) are 12 to 28 kB at least: a 4 kB cut opens nothing.
# The CGNS and HDF5 libraries keep global state and leak on damaged files
# (cgi_malloc): no leak detection there (tests/fuzz/fuzz_cgns.c), neither
# per input nor at exit (where LeakSanitizer would write an empty "crash").
maxlen=4096
leaks=
if [ "$target" = cgns ]; then
	maxlen=32768
	leaks=-detect_leaks=0
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	export ASAN_OPTIONS
fi
# libFuzzer writes fuzz-N.log into its working directory.
dict=
[ -f "tests/fuzz/$target.dict" ] && dict="-dict=$top/tests/fuzz/$target.dict"
# shellcheck disable=SC2086
(cd "$out" && "$out/fuzz_$target" "$corpus" $dict $leaks -max_total_time="$secs" -max_len=$maxlen -timeout=10 \
	-rss_limit_mb=2048 -jobs="$jobs" -workers="$jobs" -artifact_prefix="$regs/" -print_final_stats=1 \
	>"$out/fuzz_$target.log" 2>&1) || true
if [ "$jobs" -gt 1 ]; then cat "$out"/fuzz-*.log >>"$out/fuzz_$target.log" 2>/dev/null || true; fi
grep -E '^#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss|ERROR:' "$out/fuzz_$target.log" | tail -6
if [ "${FUZZ_COVERAGE:-0}" = 1 ]; then
	# shellcheck disable=SC2086
	$cc $flags -fprofile-instr-generate -fcoverage-mapping $srcs tests/fuzz/replay.c $libs -o "$out/cov_$target"
	rm -f "$out"/cov_"$target"*.profraw
	find "$corpus" -type f -print0 | LLVM_PROFILE_FILE="$out/cov_$target-%p.profraw" \
		xargs -0 -n 500 "$out/cov_$target" >/dev/null 2>&1 || true
	llvm-profdata merge -sparse "$out"/cov_"$target"-*.profraw -o "$out/cov_$target.profdata"
	# shellcheck disable=SC2086
	llvm-cov report "$out/cov_$target" -instr-profile="$out/cov_$target.profdata" $srcs \
		| tee "$out/cov_$target.txt"
fi
after=$(ls "$regs" | wc -l)
if [ "$after" -gt "$before" ]; then
	echo "fuzz: $((after - before)) new input(s) in tests/fuzz/regressions/$target (see $out/fuzz_$target.log):"
	ls -t "$regs" | head -n $((after - before))
	exit 1
fi
echo "fuzz: $target: nothing found"
