#!/bin/sh
# SPDX-License-Identifier: MIT
# Meshes of the ONERA M6 wing, written as SU2 with the markers wing, symmetry
# and farfield (see README.md): tetrahedral for Euler, prism layers on the
# wing and tetrahedra outside them for RANS.
#
# Usage: make_mesh.sh LEVEL [OUT]
#   LEVEL  coarse | medium | fine         onera_m6.geo (original M6, root chord 0.8059 m)
#          step-coarse | step-medium      onera_m6_step.geo (sharp-TE M6 STEP, root chord 1)
#          rans-coarse | rans-medium      onera_m6.geo's surface meshes (sf of coarse /
#                                         medium), prism layers extruded from the wing by
#                                         make_bl_mesh.py, tets outside (python3 needed)
#          rans-step-xcoarse | rans-step-coarse | rans-step-medium  the same from
#                                         onera_m6_step.geo (sf 2.1 | 1.05 | 0.70: TMR's
#                                         STEP wing with its rounded tip), scaled to a
#                                         root chord of 0.8059 m
#   OUT    default: cases/onera_m6/onera_m6_LEVEL.su2
# Environment:
#   GMSH        the gmsh command (default gmsh; 4.8 or newer, with OpenCASCADE)
#   MESH_ALGO   delaunay (default: one thread, the same mesh on every run) or
#               hxt (3-4x faster, all cores, a slightly different mesh each run)
#   FVSTAR      fvstar binary used to check the mesh (default ../../build/fvstar;
#               the check is skipped if it is not there)
#   ONERA_M6_STEP  the STEP file (default onera-m6-sharp-te.stp here, the
#                  UGAWG sharp-trailing-edge M6 solid)
#   BL_H1, BL_GROWTH, BL_LAYERS  rans-*: first layer height in m (default 1e-6),
#                  growth ratio (1.25) and number of prism layers (35)
#
# Skips the work when OUT exists and is newer than the .geo (and the STEP file)
# and this script. The mesh is written to a temporary file and kept only if
# gmsh succeeded without errors, it has the three markers and (if fvstar is
# there) it passes `fvstar mesh info`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
self="$here/$(basename "$0")"
gmsh=${GMSH:-gmsh}
fvstar=${FVSTAR:-$here/../../build/fvstar}
step_file=${ONERA_M6_STEP:-$here/onera-m6-sharp-te.stp}

usage() {
    echo "usage: $0 coarse|medium|fine|step-coarse|step-medium|rans-coarse|rans-medium|rans-step-xcoarse|rans-step-coarse|rans-step-medium [OUT]" >&2
    exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
level=$1
# sf: the size factor of the .geo (all sizes scale with it; tets ~ sf^-3).
case $level in
    coarse)      geo=$here/onera_m6.geo;      sf=1.05 ;;
    medium)      geo=$here/onera_m6.geo;      sf=0.70 ;;
    fine)        geo=$here/onera_m6.geo;      sf=0.48 ;;
    step-coarse) geo=$here/onera_m6_step.geo; sf=1.05 ;;
    step-medium) geo=$here/onera_m6_step.geo; sf=0.70 ;;
    rans-coarse) geo=$here/onera_m6.geo;      sf=1.05 ;;
    rans-medium) geo=$here/onera_m6.geo;      sf=0.70 ;;
    rans-step-xcoarse) geo=$here/onera_m6_step.geo; sf=2.1 ;;
    rans-step-coarse) geo=$here/onera_m6_step.geo; sf=1.05 ;;
    rans-step-medium) geo=$here/onera_m6_step.geo; sf=0.70 ;;
    *) usage ;;
esac
# rans-LEVEL writes onera_m6_rans_LEVEL.su2 (rans-step-LEVEL onera_m6_rans_step_LEVEL.su2).
out=${2:-$here/onera_m6_$(echo "$level" | sed -e "s/^rans-step-/rans_step_/" -e "s/^rans-/rans_/").su2}

fail() {
    echo "make_mesh.sh: $level: $*" >&2
    exit 1
}

[ -f "$geo" ] || fail "$geo is missing"
deps="$geo $self"
extra=""
case $level in
    step-* | rans-step-*)
        [ -f "$step_file" ] || fail "STEP file $step_file is missing (set ONERA_M6_STEP)"
        deps="$deps $step_file"
        extra="-setstring step_file $step_file"
        ;;
esac
planform=m6
case $level in
    rans-step-*) planform=step; bl_step="--step-file $step_file" ;;
esac
case $level in
    rans-*) deps="$deps $here/make_bl_mesh.py" ;;
esac

uptodate=yes
if [ -f "$out" ]; then
    for d in $deps; do
        [ -n "$(find "$out" -newer "$d")" ] || uptodate=no
    done
else
    uptodate=no
fi
if [ $uptodate = yes ]; then
    echo "$out is up to date ($(awk '/^NELEM=/ { print $2; exit }' "$out") cells); delete it to remake it"
    exit 0
fi

command -v "$gmsh" >/dev/null 2>&1 ||
    fail "gmsh not found (install it: apt-get install gmsh; version 4.8 or newer with OpenCASCADE, or set GMSH)"

case ${MESH_ALGO:-delaunay} in
    delaunay) algo=1;  threads=1 ;;
    hxt)      algo=10; threads=$(nproc 2>/dev/null || echo 1) ;;
    *) fail "MESH_ALGO must be delaunay or hxt" ;;
esac

mkdir -p "$(dirname "$out")"
tmp="${out%.su2}.tmp$$.su2"
log="${out%.su2}.tmp$$.log"
work="${out%.su2}.tmp$$.d"
trap 'rm -rf "$tmp" "$log" "$work"' EXIT
trap 'exit 1' INT TERM

t0=$(date +%s.%N)
case $level in
    rans-*)
        # The prism layers are made by make_bl_mesh.py (one gmsh thread: the
        # same mesh on every run); MESH_ALGO does not apply.
        h1=${BL_H1:-1e-6}; growth=${BL_GROWTH:-1.25}; layers=${BL_LAYERS:-35}
        echo "meshing $level: $(basename "$geo") surfaces, size factor $sf, $layers prism layers from $h1 m, growth $growth -> $out"
        # shellcheck disable=SC2086
        if ! python3 "$here/make_bl_mesh.py" --gmsh "$gmsh" --geo "$geo" --sf "$sf" \
                --planform "$planform" ${bl_step:-} --h1 "$h1" --growth "$growth" --layers "$layers" --work "$work" \
                --out "$tmp" >"$log" 2>&1; then
            tail -n 20 "$log" >&2
            fail "make_bl_mesh.py failed (log above)"
        fi
        cat "$log"
        cat "$work/gmsh.log" >>"$log"
        ;;
    *)
        echo "meshing $level: $(basename "$geo"), size factor $sf, ${MESH_ALGO:-delaunay}, $threads thread(s) -> $out"
        # shellcheck disable=SC2086
        if ! "$gmsh" -3 -nt "$threads" -setnumber sf "$sf" -setnumber algo3d "$algo" $extra \
                -format su2 "$geo" -o "$tmp" >"$log" 2>&1; then
            tail -n 20 "$log" >&2
            fail "gmsh failed (log above)"
        fi
        ;;
esac
t1=$(date +%s.%N)
if grep -q -e '^Error' -e 'ill-shaped tets are still in the mesh' "$log"; then
    grep -e '^Error' -e 'ill-shaped tets are still' "$log" | head -n 20 >&2
    fail "gmsh reported errors or left flat tetrahedra (above); the mesh is not kept"
fi
[ -s "$tmp" ] || fail "gmsh wrote no mesh"
cells=$(awk '/^NELEM=/ { print $2; exit }' "$tmp")
nodes=$(awk '/^NPOIN=/ { print $2; exit }' "$tmp")
[ -n "$cells" ] && [ "$cells" -gt 0 ] || fail "the mesh has no cells"
for m in wing symmetry farfield; do
    grep -q "^MARKER_TAG= $m\$" "$tmp" || fail "the mesh has no marker $m"
done
if [ -x "$fvstar" ]; then
    if ! "$fvstar" mesh info "$tmp" >"$log" 2>&1 || ! grep -q '^checks: passed' "$log"; then
        grep -v '^fvstar: [a-z]*: [0-9.]* s' "$log" | tail -n 5 >&2
        hint=""
        [ "$algo" = 10 ] && hint=" (hxt: running again may help)"
        fail "the mesh fails fvstar mesh info (above); not kept$hint"
    fi
    checked="checked by fvstar mesh info"
else
    checked="not checked: no $fvstar"
fi
mv "$tmp" "$out"
t2=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v e="$t2" -v c="$cells" -v n="$nodes" -v o="$out" -v k="$checked" \
    'BEGIN { printf "%s: %d cells, %d nodes; wall time mesh %.1f s, total %.1f s; %s\n", o, c, n, b - a, e - a, k }'
