#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds StarPU 1.3.10 from Debian's source package into a prefix, with CUDA
# (when nvcc is found), FxT traces, StarPU-MPI, 128 CPUs and wide codelets.
#
# Usage: tools/build-starpu.sh [--prefix DIR] [--fxt|--no-fxt]
#                              [--cuda|--no-cuda] [--simgrid [--smpi]]
#                              [--jobs N]
#
# --simgrid builds the SimGrid flavour (deps/starpu-1.3.10-simgrid) that
# fvstar-sim links: CUDA workers simulated (no toolkit needed), no FxT, no
# MPI, 16 CUDA devices. --simgrid --smpi adds StarPU-MPI over SimGrid's SMPI
# (deps/starpu-1.3.10-simgrid-smpi), static only: SMPI runs every simulated
# rank in one process and privatises only the executable's globals, so
# StarPU must be linked into it (StarPU's configure refuses shared builds).
# It needs libsimgrid-dev (Debian 12: SimGrid 3.32) and xsltproc.
#
# Debian's libstarpu-dev has no CUDA, no FxT and STARPU_MAXCPUS 4, hence this
# script. A second run with the same options and patches does nothing: the
# prefix holds a stamp of what built it.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
version=1.3.10
debver=1.3.10+dfsg-2
prefix=
fxt=yes
cuda=auto
jobs=$(nproc 2>/dev/null || echo 2)
maxcpus=128
maxbuffers=32
# CUDA devices a process may drive: StarPU's default of 4 left an 8-GPU
# node with 4 CUDA workers
maxcudadev=8
simgrid=no
smpi=no
mpi=yes
nvcc=${NVCC:-}

die() { echo "build-starpu: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
	case $1 in
	--prefix) prefix=$2; shift 2 ;;
	--prefix=*) prefix=${1#--prefix=}; shift ;;
	--fxt) fxt=yes; shift ;;
	--no-fxt) fxt=no; shift ;;
	--cuda) cuda=yes; shift ;;
	--no-cuda) cuda=no; shift ;;
	--simgrid) simgrid=yes; shift ;;
	--smpi) smpi=yes; shift ;;
	--jobs) jobs=$2; shift 2 ;;
	-h|--help) sed -n '3,21p' "$0"; exit 0 ;;
	*) die "unknown option '$1' (try --help)" ;;
	esac
done

if [ "$simgrid" = yes ]; then
	fxt=no cuda=no mpi=no maxcudadev=16
	pkg-config --exists simgrid 2>/dev/null ||
		die "--simgrid needs SimGrid (apt-get install libsimgrid-dev)"
fi
if [ "$smpi" = yes ]; then
	[ "$simgrid" = yes ] || die "--smpi goes with --simgrid"
	command -v smpicc >/dev/null || die "--smpi needs smpicc (libsimgrid-dev)"
	mpi=yes
fi
if [ -z "$nvcc" ]; then
	nvcc=$(command -v nvcc || true)
	[ -n "$nvcc" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || nvcc=/usr/local/cuda/bin/nvcc
fi
case $cuda in
auto) if [ -n "$nvcc" ]; then cuda=yes; else cuda=no; fi ;;
yes) [ -n "$nvcc" ] || die "--cuda given but no nvcc found (set NVCC or PATH)" ;;
esac

variant=starpu-$version
[ "$fxt" = yes ] && variant=$variant-fxt
[ "$simgrid" = yes ] && variant=$variant-simgrid
[ "$smpi" = yes ] && variant=$variant-smpi
[ -n "$prefix" ] || prefix=$(cd "$here/.." && pwd)/deps/$variant

patches=$(ls "$here"/patches/starpu-$version-*.patch 2>/dev/null | sort)
extra=" maxcudadev=$maxcudadev"
[ "$simgrid" = no ] || extra=" simgrid=yes$extra"
[ "$smpi" = no ] || extra=" smpi=yes$extra"
stamp="version=$debver fxt=$fxt cuda=$cuda maxcpus=$maxcpus maxbuffers=$maxbuffers$extra patches=$(cat $patches /dev/null | cksum | cut -d' ' -f1)"
if [ -f "$prefix/.fvstar-stamp" ] && [ "$(cat "$prefix/.fvstar-stamp")" = "$stamp" ]; then
	echo "build-starpu: $prefix is up to date ($stamp)"
	exit 0
fi

work=${TMPDIR:-/tmp}/fvstar-starpu-build.$$
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cd "$work"

# The source package: from a deb-src line if one is configured, otherwise
# from a deb-src line for the running suite added for this download only.
fetch_source() {
	apt-get source --download-only "starpu=$debver" >/dev/null 2>&1 && return 0
	suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
	mkdir -p apt/lists/partial apt/sources.list.d
	echo "deb-src http://deb.debian.org/debian $suite main" >apt/sources.list
	o="-o Dir::Etc::sourcelist=$work/apt/sources.list -o Dir::Etc::sourceparts=$work/apt/sources.list.d -o Dir::State::Lists=$work/apt/lists"
	# shellcheck disable=SC2086
	apt-get $o update >/dev/null || die "apt-get update for deb-src failed"
	# shellcheck disable=SC2086
	apt-get $o source --download-only "starpu=$debver" >/dev/null ||
		die "apt-get source starpu=$debver failed"
}
echo "build-starpu: fetching starpu $debver source"
fetch_source
dpkg-source -x "starpu_$debver.dsc" src >/dev/null
cd src
for p in $patches; do
	echo "build-starpu: applying $(basename "$p")"
	patch -p1 -s <"$p" || die "patch $p does not apply"
done

if [ "$smpi" = yes ]; then link="--enable-static --disable-shared"; else link="--disable-static --enable-shared"; fi
# shellcheck disable=SC2086
set -- --prefix="$prefix" $link \
	--enable-maxcpus=$maxcpus --enable-maxbuffers=$maxbuffers \
	--disable-build-doc --disable-build-examples --disable-build-tests \
	--disable-opencl --disable-socl --disable-starpufft --disable-fortran \
	--disable-openmp --disable-starpurm --disable-mlr --disable-hdf5 \
	--disable-glpk --disable-opengl-render \
	--enable-maxcudadev=$maxcudadev
if [ "$mpi" = yes ]; then set -- "$@" --enable-mpi; else set -- "$@" --disable-mpi; fi
[ "$simgrid" = no ] || set -- "$@" --enable-simgrid
if [ "$fxt" = yes ]; then set -- "$@" --with-fxt; else set -- "$@" --without-fxt; fi
if [ "$cuda" = yes ]; then
	# the toolkit root as nvcc reports it (nvcc may be a wrapper script)
	cudadir=$("$nvcc" --dryrun -x cu -c /dev/null 2>&1 | sed -n 's/^#\$ TOP=//p' | head -1)
	[ -n "$cudadir" ] || cudadir=$(dirname "$(dirname "$nvcc")")
	cudadir=$(cd "$cudadir" && pwd -P)
	set -- "$@" --enable-cuda --with-cuda-dir="$cudadir"
	export NVCCFLAGS="${NVCCFLAGS:--arch=sm_90}"
else
	set -- "$@" --disable-cuda
fi
echo "build-starpu: configure $*"
./configure "$@" >"$work/configure.log" 2>&1 || { tail -40 "$work/configure.log"; die "configure failed"; }
grep -q "CUDA *enabled: *yes" "$work/configure.log" || [ "$cuda" = no ] ||
	{ grep -i cuda "$work/configure.log" | tail -20; die "configure did not enable CUDA"; }
echo "build-starpu: make -j$jobs"
make -j"$jobs" >"$work/make.log" 2>&1 || { grep -B5 -A5 -i "error" "$work/make.log" | tail -60; die "make failed"; }
make install >"$work/install.log" 2>&1 || { tail -40 "$work/install.log"; die "make install failed"; }
echo "$stamp" >"$prefix/.fvstar-stamp"
echo "build-starpu: installed in $prefix ($stamp)"
