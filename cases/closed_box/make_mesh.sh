#!/bin/sh
# SPDX-License-Identifier: MIT
# A perturbed tet box for closed_box.cfg.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fvstar=${1:-$here/../../build/fvstar}
"$fvstar" mesh gen box --cells tet -n 16 --perturb 0.2 -o "$here/closed_box.su2"
