#!/bin/sh
# SPDX-License-Identifier: MIT
# The TMR bump-in-channel mesh of level LEVEL (default 5: 89 x 41 points; 1
# is TMR's finest, 1409 x 641), bump_tmr.su2 next to this script. FVSTAR
# names the binary (default: fvstar on the PATH, else the build tree's).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fv=${FVSTAR:-$(command -v fvstar || echo "$here/../../build/fvstar")}
"$fv" mesh gen bump --level "${1:-5}" -o "$here/bump_tmr.su2"
