#!/bin/sh
# SPDX-License-Identifier: MIT
# The headers against the build (issue 26): tools/check_headers.py finds
# every header of src/, include/ and codelets/ in Makefile.am's lists and
# every header a CUDA object includes in NVCC_DEPS, and the public headers
# naming only standard and fvstar/ headers; each public header compiles
# alone with nothing but include/ on the path. And the check does fail: on
# a scratch tree with an unlisted header, a CUDA include missing from
# NVCC_DEPS and a public header that includes a private one.
. "$top_srcdir/tests/cli/lib.sh"
cc=${CC:-cc}
"$py" "$top_srcdir/tools/check_headers.py" "$top_srcdir" || fail "the headers and Makefile.am disagree"

n=0
for h in "$top_srcdir"/include/fvstar/*.h; do
	name=${h##*/}
	printf '#include "fvstar/%s"\n#include "fvstar/%s"\nint fv_headers_test;\n' "$name" "$name" >"$tmp/one.c"
	$cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$top_srcdir/include" "$tmp/one.c" 2>"$tmp/err" ||
		fail "include/fvstar/$name does not compile alone (twice, -I include only): $(head -3 "$tmp/err")"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n public headers found"

mkdir -p "$tmp/t/src/util" "$tmp/t/include/fvstar" "$tmp/t/codelets/k"
printf 'noinst_LIBRARIES = libx.a\nlibx_a_SOURCES = src/util/a.h include/fvstar/p.h\nCUDA_SOURCES = codelets/k/k_cuda.cu\nNVCC_DEPS = config.h\n' \
	>"$tmp/t/Makefile.am"
printf '#include "util/a.h"\n' >"$tmp/t/codelets/k/k_cuda.cu"
: >"$tmp/t/src/util/a.h"
: >"$tmp/t/src/util/b.h"
printf '#include "util/a.h"\n#include <jansson.h>\n' >"$tmp/t/include/fvstar/p.h"
if "$py" "$top_srcdir/tools/check_headers.py" "$tmp/t" >"$tmp/out"; then
	fail "a scratch tree with three faults passed"
fi
grep -q "src/util/b.h: in no \*_SOURCES or EXTRA_DIST list" "$tmp/out" || fail "the unlisted header is not named"
grep -q "src/util/a.h: a CUDA object includes it (codelets/k/k_cuda.cu:1) but NVCC_DEPS lacks it" "$tmp/out" ||
	fail "the CUDA dependency is not named"
grep -q 'include/fvstar/p.h:1: includes "util/a.h"' "$tmp/out" || fail "the private include is not named"
grep -q "include/fvstar/p.h:2: includes <jansson.h>" "$tmp/out" || fail "the third-party include is not named"
grep -q "4 problems" "$tmp/out" || fail "expected 4 problems: $(tail -1 "$tmp/out")"
finish
