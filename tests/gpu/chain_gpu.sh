#!/bin/sh
# SPDX-License-Identifier: MIT
# numerics.chain on GPUs (auto, the default: every block that runs only on
# GPUs chains its tasks between halo exchanges) against chain = no, GPU
# only, 30 iterations:
# - the wedge on 1 block and on 4 blocks, flux_sum = gather: the state bit
#   for bit, the histories to 1e-12 (the norms sum thread blocks with
#   atomicAdd, as restart.bin's peak residual); with the default atomic
#   sums: to 1e-10;
# - implicit point sweeps (colour group tasks chained), gather, and the SA
#   plate (implicit), 3 blocks: to 1e-8 (the GPU sums each residual norm's
#   thread blocks with atomicAdd, and the implicit CFL follows the
#   residual's ratio: two implicit GPU runs differ at round-off, whatever
#   the chains);
# - 2 GPUs in one process (where there are 2), 2 blocks, gather: the state
#   bit for bit;
# - with an FxT StarPU, the 1-block trace holds a whole RK stage as one
#   task ("prim+nodes+...+update") and no task named "prim" alone.
# Exit 77 (SKIP) without a GPU.
. "$top_srcdir/tests/cli/lib.sh"
[ "$(cuda_workers)" -ge 1 ] || { echo "no GPU: SKIP"; exit 77; }
wedge_case
"$fv" mesh gen plate --level 3 -o "$tmp/ps.su2" >/dev/null 2>&1 || fail "mesh gen plate (SA)"
sed "s|^file = plate_tmr.su2|file = $tmp/ps.su2|" "$top_srcdir/cases/plate_tmr/plate_tmr.cfg" >"$tmp/ps.cfg"
G="numerics.flux_sum=gather numerics.nodes_sum=gather numerics.gradient_sum=gather numerics.limiter_sum=gather
 numerics.timestep_sum=gather"

# pair NAME CFG TOL KEY=VALUE...: chain = auto and no; TOL 0: bit for bit
pair() {
	name=$1 cfg=$2 t=$3
	shift 3
	KP_ENV="STARPU_NCPU=0 STARPU_NCUDA=${NCUDA:-1}" key_pair "$name" "$cfg" numerics.chain "auto no" "$t" "$@"
}
W="numerics.iterations=30"
# shellcheck disable=SC2086
pair wedge1 "$tmp/w.cfg" "0 $(tol 1e-12)" $W partition.blocks=1 $G
# shellcheck disable=SC2086
pair wedge4 "$tmp/w.cfg" "0 $(tol 1e-12)" $W partition.blocks=4 $G
pair atomic "$tmp/w.cfg" "$(tol 1e-10)" $W partition.blocks=4
# shellcheck disable=SC2086
pair implicit "$tmp/w.cfg" "$(tol 1e-8)" $W partition.blocks=2 $G numerics.time=implicit numerics.implicit=point \
	numerics.cfl=5 numerics.cfl_max=50 numerics.sweeps=4
# shellcheck disable=SC2086
pair sa "$tmp/ps.cfg" "$(tol 1e-8)" partition.blocks=3 numerics.iterations=10 $G
if [ "$(cuda_workers)" -ge 2 ]; then
	# shellcheck disable=SC2086
	NCUDA=2 pair gpus2 "$tmp/w.cfg" "0 $(tol 1e-12)" $W partition.blocks=2 $G
fi
if STARPU_NCPU=0 STARPU_NCUDA=1 "$fv" run "$tmp/w.cfg" output.dir="$tmp/tr1" partition.blocks=1 numerics.iterations=3 \
	output.progress_every=0 output.vtu=no output.trace="$tmp/tr" >/dev/null 2>"$tmp/tr.err"; then
	grep -q "^Name: prim+nodes+gradient+limiter+timestep+flux+norms+update$" "$tmp/tr/tasks.rec" &&
		! grep -q "^Name: prim$" "$tmp/tr/tasks.rec" ||
		{ grep "^Name:" "$tmp/tr/tasks.rec" | sort | uniq -c; fail "the trace holds no chained RK stage"; }
elif ! grep -q "FxT-enabled StarPU" "$tmp/tr.err"; then
	cat "$tmp/tr.err"
	fail "traced run"
fi
finish
