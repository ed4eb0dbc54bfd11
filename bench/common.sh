# SPDX-License-Identifier: MIT
# shellcheck shell=sh disable=SC2034
# Sourced by benchmark scripts (after setting top, the tree's root):
# bench_setup N "$@" checks that the script got at least N arguments (else
# prints its "# Usage:" line and exits 2), and sets fv to the first one,
# the fvstar binary, as an absolute path, and out to the second, the
# output directory, created and absolute; STARPU_SILENT is exported.
bench_setup() {
	bs_need=$1
	shift
	[ $# -ge "$bs_need" ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
	fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	mkdir -p "$2"
	out=$(cd "$2" && pwd)
	export STARPU_SILENT=1
}

# iter_time DIR WARMUP: a run's seconds per iteration after the warm-up
# (history.csv's wall clock) and its set-up seconds (summary.json), as
# "S_PER_ITERATION,SETUP_S"; empty fields for what the run did not write.
iter_time() {
	python3 - "$1" "$2" <<'PY'
import csv, json, os, sys
d, warm = sys.argv[1], int(sys.argv[2])
spi = setup = ""
try:
    t = {int(r["iteration"]): float(r["wall_s"]) for r in csv.DictReader(open(os.path.join(d, "history.csv")))}
    last = max(t)
    spi = "%.6g" % ((t[last] - t[warm]) / (last - warm))
except (OSError, KeyError, ValueError, ZeroDivisionError):
    pass
try:
    s = json.load(open(os.path.join(d, "summary.json"))).get("setup_seconds", "")
    setup = "%.2f" % (s["total"] if isinstance(s, dict) else s)
except (OSError, ValueError, KeyError, TypeError):
    pass
print("%s,%s" % (spi, setup))
PY
}

# bump_lanes A_KEYS A_NCPU B_KEYS B_NCPU: the TMR bump's finest grid
# (bench/run_bump_finest.sh) twice side by side on the GPU the caller
# chose, runs A and B with those keys and CPU workers, each stopped at
# $secs seconds and bounded at SCRIPT_SECONDS (default 260), results in
# $out/A and $out/B; then their tables, and the large files removed.
bump_lanes() {
	echo "A: $1 ($2 CPU workers)"
	echo "B: $3 ($4 CPU workers)"
	bl_lane() { # NAME KEYS NCPU
		STARPU_HOME="$out/starpu-$1" STARPU_NCPU=$3 RUN_SECONDS=$secs SA_ARGS=$2 PROGRESS=30 EVERY=5 \
			timeout -k 10 "${SCRIPT_SECONDS:-260}" sh "$top/bench/run_bump_finest.sh" "$fv" "$out/$1" \
			>"$out/$1.txt" 2>&1
	}
	bl_lane A "$1" "$2" &
	bl_pids=$!
	sleep 5
	bl_lane B "$3" "$4" &
	bl_pids="$bl_pids $!"
	for p in $bl_pids; do wait "$p" || echo "a lane ended with rc $?"; done
	for r in A B; do
		echo "== $r"
		cat "$out/$r.txt"
	done
	# the meshes and restarts are large: leave the histories and tables
	find "$out" \( -name '*.fvm' -o -name '*.bin' \) -exec rm -f {} +
}
