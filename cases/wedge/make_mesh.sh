#!/bin/sh
# SPDX-License-Identifier: MIT
# The ramp channel of wedge.cfg: 90 x 60 hexahedra, one layer in z.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fvstar=${1:-$here/../../build/fvstar}
"$fvstar" mesh gen ramp --cells hex --nx 90 --ny 60 --nz 1 --hi 1.5,1,0.02 --angle 10 --x0 0.2 -o "$here/wedge.su2"
