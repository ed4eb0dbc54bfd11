#!/bin/sh
# SPDX-License-Identifier: MIT
# The default job: generate a perturbed mixed-element box, refine it once,
# check it and write it for ParaView. (The flow solver's default case
# replaces this once `fvstar run` exists.)
# Usage: cases/default.sh [FVSTAR] [OUTDIR]
set -eu
fvstar=${1:-build/fvstar}
out=${2:-out/default}
mkdir -p "$out"
"$fvstar" mesh gen box --cells mixed -n 24 --perturb 0.2 -o "$out/box.su2"
"$fvstar" mesh refine "$out/box.su2" -o "$out/box-fine.su2"
"$fvstar" mesh convert "$out/box-fine.su2" -o "$out/box-fine.vtu" | tee "$out/box-fine.info"
echo
echo "default job done: $out/box-fine.su2 (SU2), $out/box-fine.vtu (open in ParaView:"
echo "  paraview $out/box-fine.vtu), report in $out/box-fine.info"
