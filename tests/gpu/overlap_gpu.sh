#!/bin/sh
# SPDX-License-Identifier: MIT
# numerics.overlap on a GPU: the wedge in 4 blocks, GPU only (no CPU
# worker: the split flux of each block sums straight into the residual,
# kernels.h), 30 iterations, overlap = yes against no:
# - flux_sum = gather (deterministic sums): the state bit for bit, the
#   histories to 1e-12 (the norms sum thread blocks with atomicAdd);
# - flux_sum = color with faces by colour (the face store on the GPU): the
#   same;
# - flux_sum = atomic (the default): to 1e-10 (atomic sums);
# - implicit point, gather, and the SA plate (implicit), 3 blocks: to 1e-8
#   (the GPU's residual norms sum thread blocks with atomicAdd and the
#   implicit CFL follows the residual's ratio: two implicit GPU runs differ
#   at round-off);
# and with 2 CPU workers beside the GPU (3 blocks sized by speed and
# pinned, the face store on every worker): to 1e-10 of overlap = no.
# Exit 77 (SKIP) without a GPU.
. "$top_srcdir/tests/cli/lib.sh"
[ "$(cuda_workers)" -ge 1 ] || { echo "no GPU: SKIP"; exit 77; }
wedge_case
"$fv" mesh gen plate --level 3 -o "$tmp/ps.su2" >/dev/null 2>&1 || fail "mesh gen plate (SA)"
sed "s|^file = plate_tmr.su2|file = $tmp/ps.su2|" "$top_srcdir/cases/plate_tmr/plate_tmr.cfg" >"$tmp/ps.cfg"

# pair NAME CFG TOL KEY=VALUE...: overlap = yes and no; TOL 0: bit for bit
pair() {
	name=$1 cfg=$2 t=$3
	shift 3
	KP_ENV="STARPU_NCPU=${NCPU:-0}" key_pair "$name" "$cfg" numerics.overlap "yes no" "$t" "$@" || return
	grep -q "overlap: the flux of" "$tmp/$name-yes.err" || fail "$name: no split"
}
W="partition.blocks=4 numerics.iterations=30"
pair gather "$tmp/w.cfg" "0 $(tol 1e-12)" $W numerics.flux_sum=gather
pair color "$tmp/w.cfg" "0 $(tol 1e-12)" $W numerics.flux_sum=color numerics.face_order=color
pair atomic "$tmp/w.cfg" "$(tol 1e-10)" $W
pair implicit "$tmp/w.cfg" "$(tol 1e-8)" $W numerics.flux_sum=gather numerics.time=implicit numerics.implicit=point \
	numerics.cfl=5 numerics.cfl_max=50 numerics.sweeps=4
pair sa "$tmp/ps.cfg" "$(tol 1e-8)" partition.blocks=3 numerics.iterations=10 numerics.flux_sum=gather
NCPU=2 pair cpugpu "$tmp/w.cfg" "$(tol 1e-10)" partition.blocks=3 numerics.iterations=30 runtime.ncpu=2 \
	runtime.gpu_speed=4
finish
