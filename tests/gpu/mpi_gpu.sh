#!/bin/sh
# SPDX-License-Identifier: MIT
# Ranks and GPUs (mpirun, no CPU worker): 2 ranks sharing the machine's
# first GPU (local rank l takes GPU l mod n; with one GPU both take it) run
# the wedge in 4 blocks to the state and history of one rank on the GPU (to
# 1e-10: the GPU's atomic sums may add in another order), each rank with
# one CUDA worker, the halo buffers between them GPU to GPU (numerics.
# halo_peer, the default: CUDA IPC, on one GPU or two), in host memory
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
# every halo buffer between the ranks went GPU to GPU (halo_peer = auto:
# the pack kernel writing the other rank's GPU memory)
grep -q "halo_peer: \([1-9][0-9]*\) of the \1 halo buffers rank 0 sends to other ranks go straight into.*blocks)$" \
	"$tmp/two.err" ||
	fail "2 ranks on the GPU: halo buffers not GPU to GPU: $(grep fvstar: "$tmp/two.err" | head -4)"
# two2 (halo_peer = no): in host memory (halo_zero_copy = auto), the
# kernels reading and writing them there; two0 (both no): StarPU's copies;
# the same results
for v in "2 numerics.halo_peer=no" "0 numerics.halo_peer=no numerics.halo_zero_copy=no"; do
	d=two${v%% *}
	# shellcheck disable=SC2086
	timeout "$FV_MPI_TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np 2 -x STARPU_NCPU=0 -x STARPU_NCUDA=1 \
		-x STARPU_SILENT=1 -x STARPU_HOME "$fv" run "$tmp/w.cfg" $W ${v#* } output.dir="$tmp/$d" >/dev/null \
		2>"$tmp/$d.err" || { tail -5 "$tmp/$d.err"; fail "2 ranks, ${v#* }"; }
	"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/$d" "$tmp/two" "2 ranks: ${v#* } vs GPU to GPU" 1e-10 ||
		fail "2 ranks on the GPU: ${v#* } and the defaults differ"
done
grep -q "halo_zero_copy: [1-9][0-9]* of the [1-9][0-9]* halo buffers rank 0 sends" "$tmp/two2.err" ||
	fail "2 ranks on the GPU, halo_peer = no: halo buffers not in host memory: $(grep fvstar: "$tmp/two2.err" | head -3)"
! grep -q "halo_peer:" "$tmp/two2.err" || fail "halo_peer = no: a halo_peer start line"
# the implicit sweeps' update halo too, against one rank
I="partition.blocks=3 numerics.iterations=8 numerics.time=implicit numerics.cfl=5 numerics.residual_drop=0 output.vtu=no output.progress_every=0"
# shellcheck disable=SC2086
STARPU_NCPU=0 STARPU_NCUDA=1 "$fv" run "$tmp/w.cfg" $I output.dir="$tmp/imp1" >/dev/null 2>"$tmp/imp1.err" ||
	{ tail -5 "$tmp/imp1.err"; fail "implicit, one rank on the GPU"; }
# shellcheck disable=SC2086
timeout "$FV_MPI_TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np 2 -x STARPU_NCPU=0 -x STARPU_NCUDA=1 -x STARPU_SILENT=1 \
	-x STARPU_HOME "$fv" run "$tmp/w.cfg" $I output.dir="$tmp/imp2" >/dev/null 2>"$tmp/imp2.err" ||
	{ tail -5 "$tmp/imp2.err"; fail "implicit, 2 ranks on the GPU"; }
grep -q "halo_peer: [1-9][0-9]* of the" "$tmp/imp2.err" || fail "implicit, 2 ranks: not GPU to GPU"
"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/imp1" "$tmp/imp2" "implicit: 1 rank vs 2 ranks GPU to GPU" 1e-10 ||
	fail "implicit on the GPU: 1 rank and 2 ranks GPU to GPU differ"
finish
