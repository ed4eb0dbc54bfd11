#!/bin/sh
# session 8, call 2: B's split by stage (FxT trace, 16 CPU workers); D StarPU-MPI on 16 cores, CPU only
set -u
. devdata/lib.sh
export OMPI_MCA_btl_vader_single_copy_mechanism=none STARPU_NCUDA=0
nvidia-smi -L; mpirun --version 2>&1 | head -1; date
mkdir -p /tmp/B /tmp/D
if [ -n "${DOB:-}" ]; then
	for n in 16 15; do
		STARPU_NCPU=$n $fv run $m/m6.cfg numerics.time=steady numerics.cfl=1 numerics.cfl_max=0 numerics.first_order=0 numerics.iterations=100 output.vtu=no output.progress_every=0 output.restart_every=0 output.dir=$m/b$n > /dev/null 2> /tmp/B/b$n.err
		echo "B x$n rc=$? $(grep -E 'iterations in' /tmp/B/b$n.err)"; rate $m/b$n 20
		cp $m/b$n/summary.json /tmp/B/b$n-summary.json; cp $m/b$n/history.csv /tmp/B/b$n-history.csv
	done
fi
echo "== B: split by stage, 16 CPU workers, traced iterations (FxT)"
STARPU_NCPU=16 $fv run $m/m6.cfg numerics.time=steady numerics.cfl=1 numerics.cfl_max=0 numerics.first_order=0 numerics.iterations=8 \
	output.vtu=no output.progress_every=0 output.restart_every=0 output.dir=$m/tr16 output.trace=$m/tr16/trace output.trace_from=4 > /dev/null 2> /tmp/B/tr16.err
echo "trace rc=$?"; tail -22 /tmp/B/tr16.err
nu=$(grep -c "^Name: update" $m/tr16/trace/tasks.rec); nb=$(python3 -c "import json;print(json.load(open('$m/tr16/summary.json'))['partition']['blocks'])")
it=$((nu / nb / 2)); echo "update tasks $nu, blocks $nb: $it traced iterations"
python3 bench/stage_split.py $m/tr16/trace/tasks.rec 978993 $it 2 | tee /tmp/B/split16.md
gzip -c $m/tr16/trace/tasks.rec > /tmp/B/tr16-tasks.rec.gz; rm -rf $m/tr16/trace
echo "elapsed $(el)"
echo "== D: ranks x workers, explicit M6 medium, 40 iterations, s/it from iterations 10-40"
# drun NAME NP ITERS MPIRUN_OPTS ENV(k=v,..) KEYS...
drun() {
	name=$1 np=$2 it=$3 mo=$4 ev=$5; shift 5
	[ $(el) -gt ${DLIM:-500} ] && { echo "D $name: skipped (time)"; return; }
	s=$(date +%s)
	if [ "$np" = 1 ]; then
		env $(echo "$ev" | tr ',' ' ') timeout 120 $fv run $m/explicit.cfg output.dir=$m/$name numerics.iterations=$it numerics.residual_drop=0 \
			output.vtu=no output.progress_every=0 "$@" >/dev/null 2>/tmp/D/$name.err; rc=$?
	else
		xs=; for kv in $(echo "$ev" | tr ',' ' '); do export "$kv"; xs="$xs -x ${kv%%=*}"; done
		timeout 120 mpirun --oversubscribe $mo -np $np -x STARPU_SILENT -x STARPU_NCUDA $xs $fv run $m/explicit.cfg output.dir=$m/$name \
			numerics.iterations=$it numerics.residual_drop=0 output.vtu=no output.progress_every=0 "$@" >/dev/null 2>/tmp/D/$name.err; rc=$?
		for kv in $(echo "$ev" | tr ',' ' '); do unset "${kv%%=*}"; done
	fi
	echo "D $name rc=$rc $(( $(date +%s) - s ))s $(grep -E 'workers' /tmp/D/$name.err | head -1 | cut -c1-160)"
	grep -i "warning" /tmp/D/$name.err | head -2 | cut -c1-200
	[ -f $m/$name/summary.json ] && { rate $m/$name $(( it / 4 )); cp $m/$name/summary.json /tmp/D/$name-summary.json; cp $m/$name/history.csv /tmp/D/$name-history.csv
		python3 -c "import json;s=json.load(open('$m/$name/summary.json'));r=s.get('ranks');print('  ranks:', r and {k:r[k] for k in ('halo_cells_between_ranks','halo_cells_between_blocks')})"; }
	[ "$name" != r1x16 ] && [ -f $m/$name/restart.bin ] && { cmp -s $m/r1x16/restart.bin $m/$name/restart.bin && echo "  state = r1x16's" || echo "  state differs from r1x16's"; }
}
BN="--bind-to none"
drun r1x16 1 40 "" STARPU_NCPU=16 partition.blocks=32
drun r1x15 1 40 "" STARPU_NCPU=15 partition.blocks=32
drun r2x7 2 40 "$BN" "" partition.blocks=32
drun r1x14 1 40 "" STARPU_NCPU=14 partition.blocks=32
drun r4x3 4 40 "$BN" "" partition.blocks=32
drun r1x12 1 40 "" STARPU_NCPU=12 partition.blocks=32
echo "elapsed $(el)"
drun r2x7bind 2 40 "" "" partition.blocks=32
drun r2x6 2 40 "$BN" STARPU_NCPU=6 partition.blocks=32
drun r2x7b28 2 40 "$BN" "" partition.blocks=28
drun r1x14b28 1 40 "" STARPU_NCPU=14 partition.blocks=28
drun r4x3b48 4 40 "$BN" "" partition.blocks=48
drun r1x12b48 1 40 "" STARPU_NCPU=12 partition.blocks=48
drun r2x8 2 8 "$BN" STARPU_NCPU=8 partition.blocks=32
drun r4x3bind 4 40 "" "" partition.blocks=32
DLIM=470 drun r4x4 4 8 "$BN" STARPU_NCPU=4 partition.blocks=32
echo "elapsed $(el)"
cd /tmp && tar czf $OUT/call2.tar.gz B D; echo "elapsed $(el)"
