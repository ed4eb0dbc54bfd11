#!/bin/sh
# SPDX-License-Identifier: MIT
# Packs this build for a GPU machine that has CUDA but no StarPU, METIS,
# Scotch, FxT, inih, jansson or cmocka, into device/ (ignored by git):
#   device/bin/fvstar, device/lib/fvstar/starpu{,-fxt}/, device/libexec/fvstar/
#     `make install prefix=device`: the installed fvstar finds both StarPU
#     builds and starpu_fxt_tool from its own directory ($ORIGIN);
#   device/lib/   every other shared library the build's programs need
#     (glibc, the C++ runtime and CUDA come from the GPU machine's image).
# The StarPU copies lose their debug sections (12 MB -> 1.4 MB each), so the
# pack stays far below the 64 MiB a device run can carry. It ends by checking
# that nothing the packed programs load comes from deps/: ldd with the
# build's StarPU hidden (a private mount namespace, when unshare works).
# There (from the repository root):
#   export LD_LIBRARY_PATH=$PWD/device/lib
#   device/bin/fvstar ...          # StarPU and traces found by itself
# and for the build tree's own programs (build/fvstar, tests, benches):
#   export LD_LIBRARY_PATH=$PWD/device/lib/fvstar/starpu:$PWD/device/lib
#   export FVSTAR_STARPU_TRACE_LIBDIR=$PWD/device/lib/fvstar/starpu-fxt
#   export FVSTAR_STARPU_FXT_TOOL=$PWD/device/libexec/fvstar/starpu_fxt_tool
# Usage: tools/device-pack.sh [BUILDDIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
mode=pack
# fvstar-sim (configure --with-starpu-simgrid): packed with its StarPU
# (device/lib/fvstar/starpu-simgrid) and SimGrid's libraries in device/lib
sim=
case ${1:-} in --check | --check-visible) mode=$1; shift ;; esac
build=${1:-$top/build}
dev=$top/device
dest=$dev/lib
[ ! -x "$build/fvstar-sim" ] || sim=$dev/bin/fvstar-sim
# fvstar-smpi (configure --with-starpu-smpi): packed with a copy of SimGrid's
# smpirun and smpimain in device/libexec/fvstar, where `fvstar sim run` on a
# cluster folder looks first (their libraries: SimGrid's, below)
smpi=
[ ! -f "$build/fvstar-smpi" ] || smpi="$dev/bin/fvstar-smpi $dev/libexec/fvstar/smpimain"
starpu_dirs=$(for v in FV_STARPU_RUNDIR FV_STARPU_LIBDIR FV_STARPU_BINDIR STARPU_SIM_LIBDIR; do
	sed -n "s/^$v = //p" "$build/Makefile"; done)

# --check: every library of the packed programs resolved with
# LD_LIBRARY_PATH=device/lib alone, libstarpu from device/, nothing from the
# build's StarPU (hidden behind empty directories when run in a private
# mount namespace: `unshare -m tools/device-pack.sh --check BUILDDIR`)
if [ "$mode" != pack ]; then
	fail=0
	if [ "$mode" = --check ]; then
		mkdir -p /tmp/fvstar-device-pack.empty
		for d in $starpu_dirs; do
			[ -d "$d" ] && { mount --bind /tmp/fvstar-device-pack.empty "$d" || exit 1; }
		done
	fi
	for b in "$dev/bin/fvstar" "$dev/libexec/fvstar/starpu_fxt_tool" $sim $smpi; do
		out=$(LD_LIBRARY_PATH="$dest" ldd "$b")
		if echo "$out" | grep -q 'not found'; then
			echo "device-pack: $b: $(echo "$out" | grep 'not found')" >&2; fail=1
		fi
		for d in $starpu_dirs; do
			if echo "$out" | grep -q "$d"; then echo "device-pack: $b loads from $d" >&2; fail=1; fi
		done
		case $b in */fvstar-smpi | */smpimain) continue ;; esac # StarPU linked in, or none
		if ! echo "$out" | grep -q "$dev/.*libstarpu-1.3.so"; then
			echo "device-pack: $b: no libstarpu from device/" >&2; fail=1
		fi
	done
	exit $fail
fi

rm -rf "$dev"
mkdir -p "$dest"
(unset MAKEFLAGS MFLAGS MAKELEVEL; ${MAKE:-make} -s -C "$build" install prefix="$dev" >/dev/null)
for f in "$dev"/lib/fvstar/starpu*/lib*.so.*.* "$dev/libexec/fvstar/starpu_fxt_tool"; do
	[ -L "$f" ] || strip --strip-debug "$f"
done
if [ -n "$smpi" ]; then
	# its StarPU is linked in with debug sections (14 MB -> 2.6 MB)
	strip --strip-debug "$dev/bin/fvstar-smpi"
	smpirun=$(sed -n 's/^SMPIRUN = //p' "$build/Makefile")
	main=$(sed -n 's|^\${WRAPPER} "\([^"]*/smpimain\)".*|\1|p' "$smpirun")
	[ -x "$main" ] || { echo "device-pack: $smpirun: no smpimain found in it" >&2; exit 1; }
	cp "$main" "$dev/libexec/fvstar/smpimain"
	# its libraries from device/lib, its smpimain the copy beside it
	# shellcheck disable=SC2016 # $0 and $LD_LIBRARY_PATH: the copy's own
	sed -e '1a here=$(cd "$(dirname "$0")" \&\& pwd)' \
		-e 's|^export LD_LIBRARY_PATH=.*|export LD_LIBRARY_PATH="$here/../../lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"|' \
		-e "s|\"$main\"|\"\$here/smpimain\"|" "$smpirun" >"$dev/libexec/fvstar/smpirun"
	chmod +x "$dev/libexec/fvstar/smpirun"
	grep -q 'here/smpimain' "$dev/libexec/fvstar/smpirun" || { echo "device-pack: smpirun not adapted" >&2; exit 1; }
fi
bins="$(find "$build" -maxdepth 3 -type f -perm -u+x \( -name fvstar -o -name fvstar-sim -o -name 'test_*' -o -name 'bench_*' \) )
 $dev/bin/fvstar $sim $smpi $dev/libexec/fvstar/starpu_fxt_tool $(ls "$dev"/lib/fvstar/starpu*/libstarpu-1.3.so)"
# glibc, the C++ runtime and CUDA come from the GPU machine's own image;
# libstarpu comes from device/lib/fvstar
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libpthread|libdl\.|librt\.|libstdc\+\+|libgcc_s|libcu|libnvidia|libnvJitLink|libstarpu)'
for b in $bins; do
	ldd "$b" | awk '$3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
	echo "$name" | grep -Eq "$skip" && continue
	cp -L "$path" "$dest/$name"
done

hidden=no
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	if unshare -m "$0" --check "$build"; then hidden=yes; else exit 1; fi
else
	"$0" --check-visible "$build" || exit 1
fi
# SimGrid's libraries, which only fvstar-sim's StarPU loads (ns-3 alone is
# 26 MB), go into device/simgrid-libs.tar.xz (~10 MB): the pack stays under
# 60 MiB. There: tar xJf device/simgrid-libs.tar.xz -C device/lib
if [ -n "$sim" ]; then
	simstarpu=$(ls "$dev"/lib/fvstar/starpu-simgrid/libstarpu-1.3.so)
	others=$(for b in $bins; do
		case $b in "$sim" | "$simstarpu" | */fvstar-sim | */fvstar-smpi | */smpimain) continue ;; esac
		ldd "$b" | awk '$3 ~ /^\// {print $1}'
	done | sort -u)
	simlibs=$(ldd "$simstarpu" | awk '$3 ~ /^\// {print $1}' | grep -Ev "$skip" | while read -r name; do
		echo "$others" | grep -qx "$name" || echo "$name"
	done)
	# shellcheck disable=SC2086 # a list of file names without spaces
	(cd "$dest" && tar cf - $simlibs | xz -6 -T2 >"$dev/simgrid-libs.tar.xz" && rm -f $simlibs)
	echo "device-pack: $(echo "$simlibs" | wc -w) libraries of SimGrid in device/simgrid-libs.tar.xz ($(du -h "$dev/simgrid-libs.tar.xz" | cut -f1))"
fi
du -sh "$dev"
echo "device-pack: $(ls "$dest"/*.so* | wc -l) libraries in device/lib, StarPU in device/lib/fvstar; ldd clean (build's StarPU hidden: $hidden)"
cat <<MSG
there, from the repository root:
  export LD_LIBRARY_PATH=\$PWD/device/lib; device/bin/fvstar ...
or, for the build tree's programs (build/fvstar, tests, benches):
  export LD_LIBRARY_PATH=\$PWD/device/lib/fvstar/starpu:\$PWD/device/lib
  export FVSTAR_STARPU_TRACE_LIBDIR=\$PWD/device/lib/fvstar/starpu-fxt
  export FVSTAR_STARPU_FXT_TOOL=\$PWD/device/libexec/fvstar/starpu_fxt_tool
fvstar-sim, after tar xJf device/simgrid-libs.tar.xz -C device/lib (once);
build/fvstar-sim with LD_LIBRARY_PATH=\$PWD/device/lib/fvstar/starpu-simgrid:\$PWD/device/lib
(device/bin/fvstar-sim finds its StarPU by itself)
MSG
