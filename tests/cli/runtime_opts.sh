#!/bin/sh
# SPDX-License-Identifier: MIT
# Runtime options refused before StarPU starts (and before the mesh is
# read), each with a non-zero exit and a message naming the key or the
# variable: an unknown scheduler (runtime.sched, STARPU_SCHED) lists
# StarPU's schedulers; more CPU workers than the machine's cores
# (runtime.ncpu, STARPU_NCPU) names the count, the cores and
# runtime.oversubscribe, which lets such a run start; more CUDA workers
# (runtime.ncuda, STARPU_NCUDA) than GPUs are refused; a count over the
# integer limit names the limit. Run by `make check`.
. "$top_srcdir/tests/cli/lib.sh"
wedge_case
cores=$(getconf _NPROCESSORS_ONLN)
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
refused ncpu "runtime.ncpu = 65536: more CPU workers than the $cores cores of this machine" - runtime.ncpu=65536
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
finish
