#!/bin/sh
# SPDX-License-Identifier: MIT
# The 2-rank row of the validation (issue 27, item 4) simulated on the
# SimGrid machine from what bench/run_sim_validate.sh left on the GPU
# machine: the GPU machine has no fvstar-smpi (13.6 MB, left out of the
# pack) and no smpirun, and the simulation needs no GPU. For each
# CASE-2rank folder of DEVICE_OUT (the OUTDIR of run_sim_validate.sh,
# brought back; read-only is fine) with its platform/ (the ranks'
# calibrations, platform/rank<r>, merged again here), sim.args (the case,
# iterations and keys of the run) and the measured run/ and dry/
# summaries, it makes a cluster folder of one node with 2 ranks
# (tools/sim_platform.py cluster) in WORKDIR, runs `fvstar sim run` there
# (smpirun, fvstar-smpi) and prints the row of run_sim_validate.sh: run,
# dry and simulated seconds per iteration and sim/dry - 1.
# The case is DEVICE_OUT/CASE.cfg: the box's mesh is made here again when
# DEVICE_OUT has none (bench/box_case.sh: the same mesh, the same blocks);
# the M6 mesh is M6_MESH (the same file as on the GPU machine: the blocks,
# hence the models' footprints, are its).
# Usage: bench/run_sim_ranks_here.sh DEVICE_OUT [BUILDDIR] [WORKDIR]
# Needs fvstar-smpi in BUILDDIR (configure --with-starpu-smpi, doc/simgrid.md).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dev=${1:?usage: bench/run_sim_ranks_here.sh DEVICE_OUT [BUILDDIR] [WORKDIR]}
build=${2:-$top/build}
work=${3:-${BENCH_TMP:-$(mktemp -d)}}
fv=$build/fvstar
py=${PYTHON3:-python3}
tool=$top/tools/sim_platform.py
[ -r "$build/fvstar-smpi" ] || { echo "run_sim_ranks_here: no $build/fvstar-smpi (configure --with-starpu-smpi)" >&2; exit 1; }
[ -d "$dev" ] || { echo "run_sim_ranks_here: $dev: no such folder" >&2; exit 1; }
dev=$(cd "$dev" && pwd)
mkdir -p "$work"
work=$(cd "$work" && pwd)
unset STARPU_NCPU STARPU_NCUDA STARPU_SCHED STARPU_CALIBRATE STARPU_HOSTNAME STARPU_PERF_MODEL_DIR
. "$top/bench/box_case.sh"
per_iter() {
	"$py" -c 'import json, sys; print("%.6f" % json.load(open(sys.argv[1]))["seconds_per_iteration"])' "$1"
}
printf '%-6s %-8s %12s %12s %12s %8s\n' case config "run s/it" "dry s/it" "sim s/it" "sim/dry"
found=0
for d in "$dev"/*-2rank; do
	[ -f "$d/sim.args" ] && [ -d "$d/platform" ] || continue
	found=1
	name=$(basename "$d")
	case=$(sed -n 1p "$d/sim.args")
	iters=$(sed -n 2p "$d/sim.args")
	keys=$(sed -n '3,$p' "$d/sim.args" | tr '\n' ' ')
	w=$work/$name
	rm -rf "$w"
	mkdir -p "$w"
	# the models as the ranks saved them, merged here (whatever fvstar
	# the GPU machine ran), then the node of 2 ranks
	cp -r "$d/platform" "$w/platform"
	chmod -R u+w "$w/platform"
	if ls -d "$w"/platform/rank* >/dev/null 2>&1; then
		"$py" "$tool" merge "$w/platform" "$w"/platform/rank* --quiet >"$w.merge.log" ||
			{ echo "$case 2rank: merge failed (see $w.merge.log)" >&2; continue; }
	else
		echo "$case 2rank: $d/platform has no rank folders (calibrated by an fvstar before the per-rank" \
			"folders): one rank's models only" >&2
	fi
	"$py" "$tool" cluster "$w/platform" "$w/cluster" --nodes 1 --ranks-per-node 2 >/dev/null
	cp "$dev/$case.cfg" "$work/$case.cfg"
	mesh=
	if [ "$case" = m6 ]; then
		[ -f "${M6_MESH:-}" ] || { echo "$case 2rank: set M6_MESH to the M6 mesh (the GPU machine's)" >&2; continue; }
		mesh="mesh.file=$(cd "$(dirname "$M6_MESH")" && pwd)/$(basename "$M6_MESH")"
	else
		f=$(sed -n 's/^file *= *//p' "$work/$case.cfg" | head -1)
		if [ -f "$dev/$f" ]; then
			mesh="mesh.file=$dev/$f"
		else
			n=$(echo "$f" | sed -n 's/^box\([0-9]*\)\.su2$/\1/p')
			[ -n "$n" ] || { echo "$case 2rank: no mesh $dev/$f" >&2; continue; }
			# the cfg is DEVICE_OUT's; box_case makes the mesh (once)
			box_case "$build" "$n" "$work" "$case-box" && rm -f "$work/$case-box.cfg"
		fi
	fi
	s=-
	# shellcheck disable=SC2086 # $keys, $mesh: key=value words
	if "$fv" sim run "$work/$case.cfg" --platform "$w/cluster" --iterations "$iters" $keys $mesh --out "$w/sim" \
		>"$w.sim.log" 2>&1; then
		s=$(per_iter "$w/sim/summary.json")
	else
		echo "$case 2rank: the simulation failed: $(grep -v '^  ' "$w.sim.log" | tail -1) (see $w.sim.log)" >&2
	fi
	r=$(per_iter "$d/run/summary.json" 2>/dev/null || echo -)
	y=$(per_iter "$d/dry/summary.json" 2>/dev/null || echo -)
	printf '%-6s %-8s %12s %12s %12s %8s\n' "$case" 2rank "$r" "$y" "$s" \
		"$(awk -v a="$s" -v b="$y" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%+.1f%%", 100 * (a / b - 1); else print "-" }')"
done
[ $found = 1 ] || { echo "run_sim_ranks_here: no CASE-2rank folder with sim.args in $dev" >&2; exit 1; }
echo "(run: fvstar run under mpirun, every iteration; dry: fvstar sim dry under mpirun; sim: here, fvstar-smpi;" \
	"iterations 2.. of fvstar sim; logs and summaries in $work)"
