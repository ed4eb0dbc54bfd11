#!/bin/sh
# SPDX-License-Identifier: MIT
# Collects the shared libraries a GPU machine without StarPU, METIS, Scotch,
# FxT, inih, jansson or cmocka needs to run this build, into device/lib.
# There: export LD_LIBRARY_PATH=$PWD/deps/starpu-1.3.10-fxt/lib:$PWD/device/lib
# Usage: tools/device-pack.sh [BUILDDIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
dest=$top/device/lib
rm -rf "$dest"
mkdir -p "$dest"
bins="$(find "$build" -maxdepth 3 -type f -perm -u+x \( -name fvstar -o -name 'test_*' -o -name 'bench_*' \) ) $(ls "$top"/deps/*/lib/libstarpu*.so 2>/dev/null)"
# glibc, the C++ runtime and CUDA come from the GPU machine's own image
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libpthread|libdl\.|librt\.|libstdc\+\+|libgcc_s|libcu|libnvidia|libnvJitLink)'
for b in $bins; do
	ldd "$b" | awk '$3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
	echo "$name" | grep -Eq "$skip" && continue
	case $path in "$top"/*) continue ;; esac
	cp -L "$path" "$dest/$name"
done
du -sh "$dest"
ls "$dest"
