#!/bin/sh
# SPDX-License-Identifier: MIT
# The tube of sod.cfg: 200 x 2 x 2 blocks of 6 tetrahedra over [0,1] x [0,0.01]^2.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fvstar=${1:-$here/../../build/fvstar}
"$fvstar" mesh gen box --cells tet --nx 200 --ny 2 --nz 2 --hi 1,0.01,0.01 -o "$here/sod.su2"
