#!/bin/sh
# SPDX-License-Identifier: MIT
# The square of vortex.cfg: [0,10]^2, 80 x 80 blocks of 2 prisms, one layer.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fvstar=${1:-$here/../../build/fvstar}
"$fvstar" mesh gen box --cells prism --nx 80 --ny 80 --nz 1 --hi 10,10,0.125 -o "$here/vortex.su2"
