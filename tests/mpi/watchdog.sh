#!/bin/sh
# SPDX-License-Identifier: MIT
# A stalled rank is detected: 2 ranks with runtime.watchdog = 3 s, one of
# them stopped (SIGSTOP) once the run has ended 20 iterations. Rank 1
# stopped: rank 0 stops every rank within the watchdog time and a few
# heartbeats (bound: 20 s), exit status != 0, with a message naming rank 1;
# rank 0 stopped: rank 1 names rank 0. Never a hang (each launch under a
# 60 s limit). A run that nobody stops ends normally with the same short
# watchdog, over more than its 3 s (no false alarm).
. "$top_srcdir/tests/mpi/lib.sh"
FV_MPI_TIMEOUT=60

wedge_case
cat >"$tmp/pid.sh" <<'SH'
#!/bin/sh
# records this rank's process id, then becomes fvstar
echo $$ >"$PIDDIR/pid.$OMPI_COMM_WORLD_RANK"
exec "$@"
SH
chmod +x "$tmp/pid.sh"

# stalled NAME RANK MESSAGE: rank RANK stopped after 20 iterations
stalled() {
	d=$tmp/$1
	mkdir -p "$d/pids"
	PIDDIR="$d/pids" mpi 2 -x PIDDIR "$tmp/pid.sh" "$fv" run "$tmp/w.cfg" partition.blocks=4 \
		numerics.iterations=100000 numerics.residual_drop=0 output.vtu=no output.progress_every=0 \
		output.dir="$d/out" runtime.watchdog=3 >/dev/null 2>"$d.err" &
	job=$!
	n=0
	until [ -f "$d/pids/pid.$2" ] && [ -f "$d/out/history.csv" ] && [ "$(wc -l <"$d/out/history.csv")" -gt 20 ]; do
		sleep 0.2
		n=$((n + 1))
		[ $n -lt 200 ] || { fail "$1: not 20 iterations after 40 s"; kill "$job"; wait "$job"; return; }
	done
	pid=$(cat "$d/pids/pid.$2")
	kill -STOP "$pid"
	start=$(date +%s)
	wait "$job"
	rc=$?
	took=$(($(date +%s) - start))
	# the stopped process, if anything left it behind
	kill -CONT "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		fail "$1: the ranks hung (killed after ${FV_MPI_TIMEOUT} s)"
	elif [ "$rc" = 0 ]; then
		fail "$1: exit status 0"
	elif ! grep -q "$3" "$d.err"; then
		fail "$1: no message '$3': $(grep -i error "$d.err" | head -3)"
	elif [ "$took" -gt 20 ]; then
		fail "$1: stopped $took s after the SIGSTOP (watchdog 3 s)"
	else
		echo "$1: exit status $rc $took s after the SIGSTOP: $(grep -m1 "$3" "$d.err" | cut -c1-200)"
	fi
}
stalled rank1 1 "fvstar: error (rank 0 of 2): watchdog: rank 1 silent for [0-9.]* s (no heartbeat: stopped"
stalled rank0 0 "fvstar: error (rank 1 of 2): watchdog: rank 0 silent for [0-9.]* s"

# no false alarm: a whole run with the same watchdog
run_np 2 calm "$tmp/w.cfg" partition.blocks=4 numerics.iterations=100 output.vtu=no runtime.watchdog=3 ||
	fail "a run with runtime.watchdog = 3 and no stalled rank"
grep -q watchdog: "$tmp/calm.err" && fail "false alarm: $(grep watchdog: "$tmp/calm.err")"
finish
