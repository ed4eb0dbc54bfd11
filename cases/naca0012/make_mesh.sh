#!/bin/sh
# SPDX-License-Identifier: MIT
# 2D meshes of the NACA 0012 airfoil (naca0012.geo), written by Gmsh as SU2
# NDIME= 2 with the markers airfoil and farfield; fvstar extrudes them one
# layer in z when it reads them (doc/commands.md).
#
# Usage: make_mesh.sh LEVEL [OUT]
#   LEVEL  coarse | medium | fine          triangles (~5k / 20k / 80k)
#          coarse-quad | medium-quad       recombined into quadrilaterals
#   OUT    default: cases/naca0012/naca0012_LEVEL.su2
# Environment: GMSH (default gmsh), FVSTAR (default ../../build/fvstar: the
# mesh is checked with `fvstar mesh info` when it is there).
# Skips the work when OUT is newer than the .geo and this script.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
gmsh=${GMSH:-gmsh}
fvstar=${FVSTAR:-$here/../../build/fvstar}
usage() {
	echo "usage: $0 coarse|medium|fine|coarse-quad|medium-quad [OUT]" >&2
	exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
level=$1
case $level in
	coarse) sf=1 quads=0 ;;
	medium) sf=0.5 quads=0 ;;
	fine) sf=0.25 quads=0 ;;
	coarse-quad) sf=1 quads=1 ;;
	medium-quad) sf=0.5 quads=1 ;;
	*) usage ;;
esac
out=${2:-$here/naca0012_$level.su2}
geo=$here/naca0012.geo
fail() {
	echo "make_mesh.sh: $level: $*" >&2
	exit 1
}
if [ -f "$out" ] && [ -n "$(find "$out" -newer "$geo")" ] && [ -n "$(find "$out" -newer "$0")" ]; then
	echo "$out is up to date; delete it to remake it"
	exit 0
fi
command -v "$gmsh" >/dev/null 2>&1 || fail "gmsh not found (apt-get install gmsh, or set GMSH)"
tmp="${out%.su2}.tmp$$.su2"
log="${out%.su2}.tmp$$.log"
trap 'rm -f "$tmp" "$log"' EXIT
trap 'exit 1' INT TERM
if ! "$gmsh" -2 -nt 1 -setnumber sf "$sf" -setnumber quads "$quads" -format su2 "$geo" -o "$tmp" >"$log" 2>&1 ||
	grep -q '^Error' "$log"; then
	grep '^Error' "$log" >&2 || tail -n 20 "$log" >&2
	fail "gmsh failed"
fi
[ "$(head -1 "$tmp")" = "NDIME= 2" ] || fail "gmsh did not write a 2D mesh"
for m in airfoil farfield; do
	grep -q "^MARKER_TAG= $m\$" "$tmp" || fail "the mesh has no marker $m"
done
if [ -x "$fvstar" ]; then
	"$fvstar" mesh info "$tmp" >"$log" 2>&1 && grep -q '^checks: passed' "$log" || {
		tail -n 5 "$log" >&2
		fail "the mesh fails fvstar mesh info; not kept"
	}
fi
mv "$tmp" "$out"
echo "$out: $(awk '/^NELEM=/ { print $2; exit }' "$out") elements, $(awk '/^NPOIN=/ { print $2; exit }' "$out") points"
