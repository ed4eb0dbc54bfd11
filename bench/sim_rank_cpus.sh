#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs one rank of an mpirun (bench/run_sim_validate.sh's rank rows) on its
# share of the cores this process may use (its affinity mask: `taskset -c
# 32-63 mpirun ...` on half a node), in local-rank order: STARPU_WORKERS_CPUID
# and the affinity set to those cores. fvstar's own placement divides every
# core of the machine (sysconf) among the ranks and ignores the mask: on
# half of a shared node (session 17, call 1) rank 0 of 2 went to cores 0-31,
# where other benchmarks ran, and Open MPI's binding to one core per rank
# (its default for 2 ranks) had made fvstar widen it there. Start it with
# `mpirun --bind-to none ... bench/sim_rank_cpus.sh fvstar ...`. Left
# alone: a STARPU_WORKERS_CPUID already set, or fewer than 2 cores a rank.
set -eu
l=${OMPI_COMM_WORLD_LOCAL_RANK:-0}
n=${OMPI_COMM_WORLD_LOCAL_SIZE:-1}
cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | tr ',' '\n' |
	while IFS=- read -r a b; do seq "$a" "${b:-$a}"; done)
total=$(echo "$cpus" | wc -l)
c=$((total / n))
if [ -z "${STARPU_WORKERS_CPUID:-}" ] && [ "$c" -ge 2 ] && [ "$l" -lt "$n" ]; then
	share=$(echo "$cpus" | sed -n "$((l * c + 1)),$((l * c + c))p")
	STARPU_WORKERS_CPUID=$(echo "$share" | tr '\n' ' ' | sed 's/ $//')
	export STARPU_WORKERS_CPUID
	[ "$l" != 0 ] || echo "sim_rank_cpus: $n ranks on $total cores of this process's mask, $c each" \
		"(rank 0: $(echo "$share" | head -1)-$(echo "$share" | tail -1))" >&2
	exec taskset -c "$(echo "$share" | tr '\n' ',' | sed 's/,$//')" "$@"
fi
exec "$@"
