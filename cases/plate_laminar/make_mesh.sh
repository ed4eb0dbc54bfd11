#!/bin/sh
# SPDX-License-Identifier: MIT
# The laminar plate's mesh: 64 x 40 hexes (TMR-like stretching, first cell
# 2e-3 at the wall), plate_laminar.su2 next to this script. FVSTAR names the
# binary (default: fvstar on the PATH, else the build tree's).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fv=${FVSTAR:-$(command -v fvstar || echo "$here/../../build/fvstar")}
nx=${1:-65}
ny=${2:-41}
y1=${3:-2e-3}
"$fv" mesh gen plate --length 1 --lead 1 --height 2 --nx "$nx" --ny "$ny" --y1 "$y1" -o "$here/plate_laminar.su2"
