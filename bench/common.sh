# SPDX-License-Identifier: MIT
# shellcheck shell=sh disable=SC2034
# Sourced by benchmark scripts (after setting top, the tree's root):
# bench_setup N "$@" checks that the script got at least N arguments (else
# prints its "# Usage:" line and exits 2), and sets fv to the first one,
# the fvstar binary, as an absolute path, and out to the second, the
# output directory, created and absolute; STARPU_SILENT is exported.
bench_setup() {
	bs_need=$1
	shift
	[ $# -ge "$bs_need" ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
	fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	mkdir -p "$2"
	out=$(cd "$2" && pwd)
	export STARPU_SILENT=1
}
