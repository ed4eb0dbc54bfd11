#!/bin/sh
# SPDX-License-Identifier: MIT
# Ranks and GPUs (mpirun, no CPU worker): 2 ranks sharing the machine's
# first GPU (local rank l takes GPU l mod n; with one GPU both take it) run
# the wedge in 4 blocks to the state and history of one rank on the GPU (to
# 1e-10: the GPU's atomic sums may add in another order), each rank with
# one CUDA worker, the halo buffers between them in host memory
# (numerics.halo_zero_copy) and copied by StarPU alike. Exit 77 (SKIP)
# without a GPU, mpirun or StarPU-MPI.
. "$top_srcdir/tests/mpi/lib.sh"
[ "$(cuda_workers)" -ge 1 ] || { echo "no GPU: SKIP"; exit 77; }
wedge_case
W="partition.blocks=4 numerics.iterations=30 numerics.residual_drop=0 output.vtu=no output.progress_every=0"
# shellcheck disable=SC2086
STARPU_NCPU=0 STARPU_NCUDA=1 "$fv" run "$tmp/w.cfg" $W output.dir="$tmp/one" >/dev/null 2>"$tmp/one.err" ||
	{ tail -5 "$tmp/one.err"; fail "one rank on the GPU"; }
# shellcheck disable=SC2086
timeout "$FV_MPI_TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np 2 -x STARPU_NCPU=0 -x STARPU_NCUDA=1 -x STARPU_SILENT=1 \
	-x STARPU_HOME "$fv" run "$tmp/w.cfg" $W output.dir="$tmp/two" >/dev/null 2>"$tmp/two.err" ||
	{ tail -5 "$tmp/two.err"; fail "2 ranks sharing the GPU"; }
grep -q "per rank, 0 CPU + 1 CUDA workers" "$tmp/two.err" ||
	fail "2 ranks: not one CUDA worker each: $(grep workers "$tmp/two.err")"
"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/one" "$tmp/two" "1 rank vs 2 ranks sharing the GPU" 1e-10 ||
	fail "1 rank and 2 ranks on the GPU differ"
# the halo buffers between the ranks stayed in host memory (auto), the
# kernels reading and writing them there; without that (no), StarPU's
# copies: the same results
grep -q "halo_zero_copy: [1-9][0-9]* of the [1-9][0-9]* halo buffers rank 0 sends" "$tmp/two.err" ||
	fail "2 ranks on the GPU: halo buffers not in host memory: $(grep fvstar: "$tmp/two.err" | head -3)"
# shellcheck disable=SC2086
timeout "$FV_MPI_TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np 2 -x STARPU_NCPU=0 -x STARPU_NCUDA=1 -x STARPU_SILENT=1 \
	-x STARPU_HOME "$fv" run "$tmp/w.cfg" $W numerics.halo_zero_copy=no output.dir="$tmp/two0" >/dev/null \
	2>"$tmp/two0.err" || { tail -5 "$tmp/two0.err"; fail "2 ranks, halo_zero_copy = no"; }
"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/two0" "$tmp/two" "2 ranks: halo buffers copied vs in host memory" \
	1e-10 || fail "2 ranks on the GPU: halo_zero_copy = no and auto differ"
finish
