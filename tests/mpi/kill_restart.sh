#!/bin/sh
# SPDX-License-Identifier: MIT
# A restart survives a kill -9 during the run: 2 ranks writing restart.bin
# every iteration (into a temporary file, synced, renamed), rank 0 (the
# writer) killed with SIGKILL a moment after the first restart appears. The
# other rank stops too (no hang); restart.bin is complete (its checksum
# reads) and holds iteration K; continued for 10 iterations on 3 ranks it
# gives the uninterrupted 1-rank run of K + 10 iterations bit for bit.
. "$top_srcdir/tests/mpi/lib.sh"
FV_MPI_TIMEOUT=120

wedge_case
cat >"$tmp/pid.sh" <<'SH'
#!/bin/sh
# records this rank's process id, then becomes fvstar
echo $$ >"$PIDDIR/pid.$OMPI_COMM_WORLD_RANK"
exec "$@"
SH
chmod +x "$tmp/pid.sh"
mkdir -p "$tmp/pids" "$tmp/killed"
PIDDIR="$tmp/pids" mpi 2 -x PIDDIR "$tmp/pid.sh" "$fv" run "$tmp/w.cfg" partition.blocks=4 numerics.iterations=100000 \
	numerics.residual_drop=0 output.restart_every=1 output.vtu=no output.progress_every=0 output.dir="$tmp/killed" \
	>/dev/null 2>"$tmp/killed.err" &
job=$!
n=0
while [ ! -f "$tmp/killed/restart.bin" ] || [ ! -f "$tmp/pids/pid.0" ]; do
	sleep 0.2
	n=$((n + 1))
	[ $n -lt 300 ] || { fail "no restart.bin after 60 s"; kill "$job"; finish; }
done
sleep 1.3
kill -9 "$(cat "$tmp/pids/pid.0")"
wait "$job"
rc=$?
[ "$rc" = 124 ] && fail "after the kill the other rank hung"
[ "$rc" = 0 ] && fail "killed run: exit status 0"
# mpirun kills the other rank as it exits: give it a few seconds to go
n=0
while kill -0 "$(cat "$tmp/pids/pid.1")" 2>/dev/null && [ $n -lt 50 ]; do
	sleep 0.2
	n=$((n + 1))
done
if kill -0 "$(cat "$tmp/pids/pid.1")" 2>/dev/null; then
	fail "rank 1 still runs 10 s after rank 0 was killed: $(ps -o pid,stat,args -p "$(cat "$tmp/pids/pid.1")" | tail -1)"
	kill -9 "$(cat "$tmp/pids/pid.1")"
else
	echo "rank 1 stopped $((n / 5)) s after mpirun"
fi
k=$("$py" -c 'import sys; b = open(sys.argv[1], "rb").read(); print(int.from_bytes(b[32:40], "little"))' \
	"$tmp/killed/restart.bin")
echo "rank 0 killed (mpirun exit status $rc); restart.bin holds iteration $k"
[ "$k" -ge 1 ] 2>/dev/null || fail "restart.bin: iteration '$k'"
cp -r "$tmp/killed" "$tmp/cont"
run_np 3 cont "$tmp/w.cfg" partition.blocks=4 numerics.iterations=10 output.vtu=no \
	output.restart="$tmp/killed/restart.bin" || fail "continuing from the restart of the killed run"
run_np 0 ref "$tmp/w.cfg" partition.blocks=4 numerics.iterations=$((k + 10)) output.vtu=no || fail "uninterrupted run"
same ref cont "killed at iteration $k, continued for 10 on 3 ranks"
finish
