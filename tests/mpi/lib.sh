# SPDX-License-Identifier: MIT
# Sourced by the tests of several ranks (tests/mpi): tests/cli/lib.sh, then
# mpirun as CI runs it (root on a small machine: --oversubscribe,
# --allow-run-as-root), one CPU worker per rank, every launch under a time
# limit; SKIP (77) where mpirun is missing or fvstar has no StarPU-MPI.
. "$top_srcdir/tests/cli/lib.sh"
command -v mpirun >/dev/null 2>&1 || { echo "no mpirun: SKIP"; exit 77; }
"$fv" runtime info 2>/dev/null | grep -q "^StarPU-MPI: yes" || { echo "fvstar without StarPU-MPI: SKIP"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# no single-copy shared memory (containers forbid the ptrace it needs)
export OMPI_MCA_btl_vader_single_copy_mechanism=none
: "${FV_MPI_TIMEOUT:=120}"

# mpi NP CMD...: CMD on NP ranks, one CPU worker each, under a time limit
mpi() {
	np=$1
	shift
	timeout "$FV_MPI_TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np "$np" -x STARPU_NCPU=1 \
		-x STARPU_SILENT=1 -x STARPU_HOME "$@"
}

# run_np NP DIR CFG KEY=VALUE...: fvstar run on NP ranks (NP = 0: without
# mpirun) into $tmp/DIR; the log in $tmp/DIR.err
run_np() {
	np=$1
	d=$2
	cfg=$3
	shift 3
	if [ "$np" = 0 ]; then
		STARPU_NCPU=1 "$fv" run "$cfg" output.dir="$tmp/$d" output.progress_every=0 numerics.residual_drop=0 \
			"$@" >/dev/null 2>"$tmp/$d.err"
	else
		mpi "$np" "$fv" run "$cfg" output.dir="$tmp/$d" output.progress_every=0 numerics.residual_drop=0 \
			"$@" >/dev/null 2>"$tmp/$d.err"
	fi || { tail -5 "$tmp/$d.err"; return 1; }
}

# same A B NAME: restart.bin byte for byte, and history.csv but for the
# wall time column (residuals, forces, time), of run directories A and B
same() {
	cmp -s "$tmp/$1/restart.bin" "$tmp/$2/restart.bin" || { fail "$3: restart.bin differs"; return 1; }
	cut -d, -f1,3- "$tmp/$1/history.csv" >"$tmp/h1"
	cut -d, -f1,3- "$tmp/$2/history.csv" >"$tmp/h2"
	cmp -s "$tmp/h1" "$tmp/h2" || { fail "$3: history differs"; return 1; }
	[ "$(wc -l <"$tmp/h1")" -gt 2 ] || { fail "$3: history of $(wc -l <"$tmp/h1") lines"; return 1; }
	echo "$3: state and history bit for bit"
}
