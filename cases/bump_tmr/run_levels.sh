#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs bump_tmr.cfg on TMR's grid levels LEVELS (default "1 2 3": 1409 x 641,
# 705 x 321, 353 x 161) and prints Cf at x = 0.75, CL and CD of each against
# TMR's CFL3D and FUN3D (bump_report.py). Arguments are passed on to every
# `fvstar run` (e.g. numerics.iterations=30000). Meshes and runs go to OUT
# (default out/bump_tmr); FVSTAR names the binary (default: fvstar on the
# PATH, else the build tree's), PYTHON3 the interpreter.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fv=${FVSTAR:-$(command -v fvstar || echo "$here/../../build/fvstar")}
out=${OUT:-out/bump_tmr}
mkdir -p "$out"
runs=
for l in ${LEVELS:-1 2 3}; do
	"$fv" mesh gen bump --level "$l" -o "$out/bump-l$l.su2"
	"$fv" run "$here/bump_tmr.cfg" mesh.file="$out/bump-l$l.su2" output.dir="$out/l$l" output.vtu=no "$@"
	runs="$runs $out/l$l"
done
# shellcheck disable=SC2086
"${PYTHON3:-python3}" "$here/bump_report.py" $runs
