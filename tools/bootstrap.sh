#!/bin/sh
# SPDX-License-Identifier: MIT
# Sets up a fresh Debian 12 machine and builds fvstar, then runs one job:
#   tools/bootstrap.sh run     build, then the default job (cases/default.sh)
#   tools/bootstrap.sh check   build, then `make check`
#   tools/bootstrap.sh build   build only
# Steps: Debian packages (apt, as root or through sudo), StarPU 1.3.10 with
# CUDA (when nvcc exists) + FxT + MPI into deps/ (tools/build-starpu.sh,
# skipped when up to date), autoreconf, configure into build/, make.
# FVSTAR_SIMGRID=1 adds StarPU with SimGrid and fvstar-sim, and StarPU-MPI
# over SimGrid's SMPI and fvstar-smpi (simulated ranks); also built when
# libsimgrid-dev is installed; FVSTAR_SIMGRID=0: never.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
job=${1:-build}
case $job in run|check|build) ;; *) echo "usage: tools/bootstrap.sh run|check|build" >&2; exit 2 ;; esac
jobs=$(nproc 2>/dev/null || echo 2)

packages="build-essential autoconf automake libtool pkg-config dpkg-dev patch
 libfxt-dev libopenmpi-dev openmpi-bin libhwloc-dev libmetis-dev libscotch-dev
 libcmocka-dev libinih-dev libjansson-dev libcgns-dev gmsh python3 python3-vtk9
 python3-matplotlib clang pajeng patchelf"

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "bootstrap: installing Debian packages:$missing"
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
	# shellcheck disable=SC2086
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi

# nvcc from a CUDA toolkit outside PATH still counts
[ -n "$(command -v nvcc || true)" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || PATH=$PATH:/usr/local/cuda/bin

# two builds: FxT costs ~15% per task even with tracing off, so untraced
# runs load the plain one (bench/results/2026-11-22-starpu-builds.md);
# side by side, as StarPU's configure runs on one core for a minute or two
# (bench/results/2026-12-06-ci14.md)
"$top/tools/build-starpu.sh" --fxt --prefix "$top/deps/starpu-1.3.10-fxt" &
fxt_pid=$!
plain=0
"$top/tools/build-starpu.sh" --no-fxt --prefix "$top/deps/starpu-1.3.10" || plain=$?
fxt=0
wait "$fxt_pid" || fxt=$?
[ "$plain" = 0 ] && [ "$fxt" = 0 ] || { echo "bootstrap: StarPU build failed (FxT: $fxt, plain: $plain)" >&2; exit 1; }
# a third, with SimGrid, for fvstar-sim (simulated machines, doc/simgrid.md):
# only when asked (FVSTAR_SIMGRID=1 installs libsimgrid-dev) or when
# libsimgrid-dev is there already; FVSTAR_SIMGRID=0 never
simgrid=
case ${FVSTAR_SIMGRID:-auto} in
1 | yes)
	if ! dpkg-query -W -f='${Status}' libsimgrid-dev 2>/dev/null | grep -q "install ok installed"; then
		sudo=
		[ "$(id -u)" = 0 ] || sudo=sudo
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libsimgrid-dev
	fi
	simgrid=yes ;;
auto) dpkg-query -W -f='${Status}' libsimgrid-dev 2>/dev/null | grep -q "install ok installed" && simgrid=yes ;;
esac
if [ -n "$simgrid" ]; then
	"$top/tools/build-starpu.sh" --simgrid --prefix "$top/deps/starpu-1.3.10-simgrid"
	simgrid="--with-starpu-simgrid=$top/deps/starpu-1.3.10-simgrid"
	# and a fourth, static, with StarPU-MPI over SMPI for simulated ranks
	# (fvstar-smpi); smpicc and smpirun come with libsimgrid-dev
	if command -v smpicc >/dev/null 2>&1 && command -v smpirun >/dev/null 2>&1; then
		"$top/tools/build-starpu.sh" --simgrid --smpi --prefix "$top/deps/starpu-1.3.10-simgrid-smpi"
		simgrid="$simgrid --with-starpu-smpi=$top/deps/starpu-1.3.10-simgrid-smpi"
	fi
fi

cd "$top"
[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi
mkdir -p build
cd build
# shellcheck disable=SC2086 # $simgrid: options
set -- --with-starpu="$top/deps/starpu-1.3.10-fxt" --with-starpu-notrace="$top/deps/starpu-1.3.10" $simgrid
# the tests' python3: Debian's, which has the packages installed above
# (python3-vtk9, python3-matplotlib), rather than the first on PATH: a
# pyenv shim costs 0.7 s a start (bench/results/2026-12-06-ci14.md)
[ ! -x /usr/bin/python3 ] || set -- "$@" PYTHON3=/usr/bin/python3
# configured again when configure is newer or an option changed (a StarPU
# with SimGrid built since)
if [ ! -f Makefile ] || [ ../configure -nt config.status ] ||
	[ "$(./config.status --config | tr -d "'")" != "$*" ]; then
	../configure "$@"
fi
make -j"$jobs"

case $job in
run) exec "$top/cases/default.sh" "$top/build/fvstar" "$top/out/default" ;;
check) exec make -j"$jobs" check ;;
esac
