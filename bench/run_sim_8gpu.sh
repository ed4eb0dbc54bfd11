#!/bin/sh
# SPDX-License-Identifier: MIT
# The 8-GPU target of issue 27 as one command for the first 8-GPU node
# lent: the projection from 2 GPUs of that node against its measured N GPUs.
# On the node (G GPUs, default all that nvidia-smi lists), through
# bench/run_sim_validate.sh with SIM_HERE=1, GPU only, no task chains (a
# chain's model keys on the calibrated blocks, so the projection's source
# must run without them), in this order while SIM_DEADLINE_S lasts:
#   m6 explicit      2gpu-nochain (the projection's source), Ggpu-nochain
#   box10m explicit  2gpu-nochain, Ggpu-nochain
#   m6 implicit      2gpu-nochain, Ggpu-nochain
#   m6, box10m explicit  Ggpu (chains on: the real run's default)
#   (G > 4) m6, box10m explicit  4gpu-nochain
#   m6, box10m explicit  1gpu (the node's 1, 2, G GPUs all measured)
# each calibrated, then measured (`fvstar run`, `fvstar sim dry`). On a
# 4-GPU node (GPUS=4, session 20: no 8-GPU node lent) the same study with
# G = 4: the 2-GPU calibration projected to the 4 GPUs measured. Then
# bench/run_sim_ranks_here.sh simulates every row: each on its own
# calibration, and rows TAG-Ggpu-proj / -projnv, the 2-GPU calibration
# derived to G GPUs (tools/sim_platform.py derive; -projnv: GPU to GPU
# direct, NVLink) against the G-GPU measured run: the issue's target
# (within 15 %). That needs fvstar-sim in BUILDDIR (a device pack of a
# build configured --with-starpu-simgrid: tar xJf device/simgrid-libs.tar.xz
# -C device/lib first, which this script does when it finds the archive
# beside BUILDDIR);
# without it, the table comes from run_sim_ranks_here.sh back on the
# SimGrid machine (printed at the end).
# Usage: bench/run_sim_8gpu.sh M6_MESH [BUILDDIR] [OUTDIR]
# Environment: GPUS (G), SIM_DEADLINE_S (default 420: the rows; the
# simulations after them need 1 to 2 minutes more where fvstar-sim is), ROWS (in place of the rows above),
# PACK=FILE.tgz (OUTDIR packed, as run_sim_validate.sh), BOX_DIR (the box's
# mesh, default /tmp/simbox: out of OUTDIR).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
m6=${1:?usage: bench/run_sim_8gpu.sh M6_MESH [BUILDDIR] [OUTDIR]}
build=${2:-$top/build}
out=${3:-${BENCH_TMP:-$(mktemp -d)}}
g=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)}
[ "${g:-0}" -ge 4 ] || { echo "run_sim_8gpu: ${g:-no} GPUs here: the projection needs 4 or more (GPUS=N)" >&2; exit 1; }
rows="m6:explicit:2gpu-nochain:20 m6:explicit:${g}gpu-nochain:20 box10m:explicit:2gpu-nochain:10"
rows="$rows box10m:explicit:${g}gpu-nochain:10 m6:implicit:2gpu-nochain:12 m6:implicit:${g}gpu-nochain:12"
rows="$rows m6:explicit:${g}gpu:20 box10m:explicit:${g}gpu:10"
[ "$g" -le 4 ] || rows="$rows m6:explicit:4gpu-nochain:20 box10m:explicit:4gpu-nochain:10"
rows="$rows m6:explicit:1gpu:20 box10m:explicit:1gpu:10"
rows=${ROWS:-$rows}
mkdir -p "$out"
out=$(cd "$out" && pwd)
echo "run_sim_8gpu: $g GPUs; rows: $rows"
PACK='' SIM_HERE=1 SIM_DEADLINE_S=${SIM_DEADLINE_S:-420} BOX_DIR=${BOX_DIR:-/tmp/simbox} SIM_ROWS=$rows \
	"$top/bench/run_sim_validate.sh" "$m6" "$build" 20 "$out/val"
# fvstar-sim of a device pack (BUILDDIR device/bin): SimGrid's libraries
# unpacked once beside the pack's others
pk=$(cd "$build/.." && pwd)
if [ -f "$pk/simgrid-libs.tar.xz" ] && [ -d "$pk/lib" ] && [ ! -e "$pk/lib/.simgrid-unpacked" ]; then
	tar xJf "$pk/simgrid-libs.tar.xz" -C "$pk/lib" && touch "$pk/lib/.simgrid-unpacked"
fi
if [ -x "$build/fvstar-sim" ] && "$build/fvstar-sim" --version >/dev/null 2>&1; then
	M6_MESH=$m6 ONLY='*gpu*' "$top/bench/run_sim_ranks_here.sh" "$out/val" "$build" "$out/here" ||
		echo "run_sim_8gpu: the simulations failed here; run them on the SimGrid machine (below)" >&2
else
	echo "run_sim_8gpu: no working $build/fvstar-sim here: simulate on the SimGrid machine"
fi
if [ -n "${PACK:-}" ]; then
	tar czf "$PACK" --exclude='*.su2' --exclude='*.fvm' --exclude=restart.bin --exclude='*.vtu' \
		--exclude='prof_file*' --exclude='*.data' --exclude='part.*' --exclude=models --exclude=here \
		-C "$out" val && echo "packed: $PACK ($(du -k "$PACK" | cut -f1) kB)"
fi
echo "back on the SimGrid machine: tar xzf PACK -C DIR && M6_MESH=the same M6 mesh" \
	"bench/run_sim_ranks_here.sh DIR/val build DIR/w (rows *-${g}gpu-proj*: the target, within 15 %)"
