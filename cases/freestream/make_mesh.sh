#!/bin/sh
# SPDX-License-Identifier: MIT
# A perturbed mixed-element box for freestream.cfg.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fvstar=${1:-$here/../../build/fvstar}
"$fvstar" mesh gen box --cells mixed -n 12 --perturb 0.25 -o "$here/freestream.su2"
