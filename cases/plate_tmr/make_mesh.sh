#!/bin/sh
# SPDX-License-Identifier: MIT
# The TMR flat plate's mesh of level LEVEL (default 4: 69 x 49 points; 1 is
# TMR's finest, 545 x 385), plate_tmr.su2 next to this script. FVSTAR names
# the binary (default: fvstar on the PATH, else the build tree's).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fv=${FVSTAR:-$(command -v fvstar || echo "$here/../../build/fvstar")}
"$fv" mesh gen plate --level "${1:-4}" -o "$here/plate_tmr.su2"
