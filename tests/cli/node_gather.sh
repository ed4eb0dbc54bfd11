#!/bin/sh
# SPDX-License-Identifier: MIT
# numerics.node_gather = cells: the primitive kernel also writes each
# cell's values side by side after the field's rows, the node values read
# them there and are themselves stored side by side for the gradient
# (bench/bench_node_gather.cu). The same values added in
# the same order: the state and the residual history are bit for bit those
# of rows, for the wedge on one block and on 4 (with overlap's interior and
# border primitives and node values, chained tasks, 2 CPU workers under
# dmda), the implicit wedge, the SA plate (6 rows before the copy) and the
# atomic node loop (no copy of the primitives; node values side by side),
# and the face-based Green-Gauss gradient (atomic) over them; auto (the
# default) against rows on CPU workers. The GPU's variant:
# tests/gpu/solver_gpu.sh.
. "$top_srcdir/tests/cli/lib.sh"

wedge_case
"$fv" mesh gen plate --level 3 -o "$tmp/ps.su2" >/dev/null 2>&1 || fail "mesh gen plate (SA)"
sed "s|^file = plate_tmr.su2|file = $tmp/ps.su2|" "$top_srcdir/cases/plate_tmr/plate_tmr.cfg" >"$tmp/ps.cfg"

same() { n=$1 c=$2; shift 2; key_pair "$n" "$c" numerics.node_gather "cells rows" 0 "$@"; }

W="numerics.iterations=15"
same wedge "$tmp/w.cfg" $W
same wedge-4 "$tmp/w.cfg" $W partition.blocks=4 numerics.overlap=yes
same wedge-chain "$tmp/w.cfg" $W partition.blocks=4 numerics.chain=yes
same wedge-dmda "$tmp/w.cfg" $W partition.blocks=4 runtime.ncpu=2 runtime.sched=dmda
same wedge-point "$tmp/w.cfg" $W numerics.time=implicit numerics.implicit=point numerics.sweeps=4
same wedge-atomic "$tmp/w.cfg" $W numerics.nodes_sum=atomic
same wedge-grad-atomic "$tmp/w.cfg" $W numerics.gradient_sum=atomic partition.blocks=2
same sa "$tmp/ps.cfg" partition.blocks=3 numerics.iterations=10
# auto, the default: on CPU workers the rows of the primitives, the node
# values side by side
key_pair wedge-auto "$tmp/w.cfg" numerics.node_gather "auto rows" 0 $W partition.blocks=4

# a wrong value names the key
"$fv" run "$tmp/w.cfg" output.dir="$tmp/bad" numerics.node_gather=aos >/dev/null 2>"$tmp/bad.err" &&
	fail "node_gather = aos accepted"
grep -q "node_gather" "$tmp/bad.err" || { cat "$tmp/bad.err"; fail "the error does not name node_gather"; }
finish
