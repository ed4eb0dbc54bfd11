#!/bin/sh
# SPDX-License-Identifier: MIT
# Runtime options refused before StarPU starts (and before the mesh is
# read), each with a non-zero exit and a message naming the key or the
# variable: an unknown scheduler (runtime.sched, STARPU_SCHED) lists
# StarPU's schedulers; more CPU workers than the machine's cores
# (runtime.ncpu, STARPU_NCPU) names the count, the cores and
# runtime.oversubscribe, which lets such a run start; more CUDA workers
# (runtime.ncuda, STARPU_NCUDA) than GPUs are refused; a count over the
# integer limit names the limit. A process mask (taskset) is honoured:
# the worker count follows it, more workers than it holds are refused, and
# every thread of a run stays on its cores (StarPU 1.3 binds its workers to
# the machine's first cores unless told STARPU_WORKERS_GETBIND). Run by
# `make check`.
. "$top_srcdir/tests/cli/lib.sh"
wedge_case
cores=$(nproc)
over=$((cores + 1))

# refused NAME MESSAGE ENV KEY=VALUE...: exit status != 0, the message in
# the log, and no StarPU start (no worker line); ENV: VAR=VALUE or - for none
refused() {
	name=$1 msg=$2 e=$3
	shift 3
	[ "$e" = - ] && e=FVSTAR_TEST_NONE=1
	env "$e" "$fv" run "$tmp/w.cfg" output.dir="$tmp/$name" output.progress_every=0 "$@" \
		>/dev/null 2>"$tmp/$name.err"
	rc=$?
	if [ "$rc" = 0 ]; then
		fail "$name: exit status 0"
	elif ! grep -qF -- "$msg" "$tmp/$name.err"; then
		fail "$name: no message '$msg': $(grep -i error "$tmp/$name.err" | head -2)"
	elif grep -qE "CPU \+ [0-9]+ CUDA workers" "$tmp/$name.err"; then
		fail "$name: StarPU started before the refusal"
	else
		echo "ok: $name: $(grep -m1 -F -- "$msg" "$tmp/$name.err" | cut -c1-150)"
	fi
}
list="modular-eager, modular-eager-prefetching"
refused sched "fvstar: error: runtime.sched = nosuchsched: StarPU has no scheduler 'nosuchsched'; the schedulers of StarPU" \
	- runtime.sched=nosuchsched
refused sched_list "$list" - runtime.sched=nosuchsched
grep -q ", lws, .*dmdas" "$tmp/sched_list.err" || fail "sched: lws and dmdas not listed"
refused env_sched "STARPU_SCHED=bogus (environment): StarPU has no scheduler 'bogus'" STARPU_SCHED=bogus
refused ncpu "runtime.ncpu = 65536: more CPU workers than the $cores cores this process may use" - runtime.ncpu=65536
refused ncpu_key "set runtime.oversubscribe = yes to force it" - runtime.ncpu=$over
refused env_ncpu "STARPU_NCPU=$over (environment): more CPU workers than the $cores cores" STARPU_NCPU=$over
refused env_ncpu_bad "STARPU_NCPU=two (environment): expected a worker count >= 0" STARPU_NCPU=two
# CUDA workers beyond the GPUs found (none here, or a build without CUDA)
gpus=$(cuda_workers)
refused ncuda "runtime.ncuda = $((gpus + 1)): " - runtime.ncuda=$((gpus + 1))
refused env_ncuda "STARPU_NCUDA=$((gpus + 1)) (environment): " STARPU_NCUDA=$((gpus + 1))
refused maxcpus "(STARPU_MAXCPUS)" - runtime.ncpu=65536 runtime.oversubscribe=yes
refused iterations "[numerics] iterations = '99999999999': expected an integer >= 0 (at most 2147483647, the integer limit)" \
	- numerics.iterations=99999999999

# forced: one worker more than the cores starts, and says so (StarPU
# takes STARPU_NCPU, which make check sets, over runtime.ncpu)
env -u STARPU_NCPU "$fv" run "$tmp/w.cfg" output.dir="$tmp/forced" numerics.iterations=2 output.progress_every=0 runtime.ncpu=$over \
	runtime.oversubscribe=yes >/dev/null 2>"$tmp/forced.err" || fail "oversubscribe = yes: $(tail -1 "$tmp/forced.err")"
grep -q "fvstar: $over CPU + 0 CUDA workers" "$tmp/forced.err" || fail "oversubscribe = yes: not $over workers: $(grep -i "workers\|error" "$tmp/forced.err")"
# a valid scheduler still runs, from the key and from the environment
"$fv" run "$tmp/w.cfg" output.dir="$tmp/eager" numerics.iterations=2 output.progress_every=0 runtime.sched=eager \
	>/dev/null 2>"$tmp/eager.err" || fail "runtime.sched = eager: $(tail -1 "$tmp/eager.err")"
grep -q "scheduler eager (asked for in runtime.sched)" "$tmp/eager.err" || fail "runtime.sched = eager not used"
STARPU_SCHED=dmda "$fv" run "$tmp/w.cfg" output.dir="$tmp/dmda" numerics.iterations=2 output.progress_every=0 \
	>/dev/null 2>"$tmp/dmda.err" || fail "STARPU_SCHED=dmda: $(tail -1 "$tmp/dmda.err")"

if [ "$cores" -ge 2 ] && command -v taskset >/dev/null 2>&1; then
	last=$((cores - 1))
	n=$(env -u STARPU_NCPU taskset -c "$last" "$fv" runtime info 2>/dev/null |
		sed -n 's/^workers: .*(\([0-9]*\) CPU, .*/\1/p')
	[ "$n" = 1 ] && echo "ok: taskset -c $last: 1 CPU worker" || fail "taskset -c $last: '$n' CPU workers, not 1"
	env -u STARPU_NCPU taskset -c "$last" "$fv" run "$tmp/w.cfg" output.dir="$tmp/mask_ncpu" runtime.ncpu=2 \
		>/dev/null 2>"$tmp/mask_ncpu.err" && fail "taskset -c $last, runtime.ncpu = 2: exit status 0"
	grep -q "runtime.ncpu = 2: more CPU workers than the 1 cores this process may use" "$tmp/mask_ncpu.err" ||
		fail "taskset -c $last, runtime.ncpu = 2: $(grep error "$tmp/mask_ncpu.err")"
	# a long run: every thread's mask read while it iterates
	env -u STARPU_NCPU taskset -c "$last" "$fv" run "$tmp/w.cfg" output.dir="$tmp/mask" numerics.iterations=1000000 \
		numerics.residual_drop=0 output.progress_every=0 output.vtu=no >/dev/null 2>"$tmp/mask.err" &
	pid=$!
	i=0
	while [ $i -lt 600 ] && ! grep -q "CPU + 0 CUDA workers" "$tmp/mask.err" && kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 1
	masks=$(cat /proc/$pid/task/*/status 2>/dev/null | sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' | sort | uniq -c)
	threads=$(ls /proc/$pid/task 2>/dev/null | wc -l)
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	if [ "$threads" -lt 2 ]; then
		fail "taskset -c $last: the run had $threads threads when read: $(tail -2 "$tmp/mask.err")"
	elif [ "$(echo "$masks" | wc -l)" = 1 ] && echo "$masks" | grep -qE "^ *[0-9]+ $last\$"; then
		echo "ok: taskset -c $last: all $threads threads on core $last"
	else
		fail "taskset -c $last: threads on other cores: $(echo "$masks" | tr '\n' ';')"
	fi
fi
finish
