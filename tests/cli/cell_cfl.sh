#!/bin/sh
# SPDX-License-Identifier: MIT
# The per-cell step (numerics.cell_cfl; issue 24 item 1): each cell's
# factor of its local step, cut where the update's limit (max_update, the
# positivity check) scales the cell's update down and doubled back up to 1
# where not, kept as the state's last row (snapshots, restarts). On the
# TMR bump's 45 x 21 grid (mesh gen bump --level 6) with GMRES, whole
# lines and the long side's step (implicit13's keys), where the limit
# clips cells in the first 30 iterations:
# - 8 orders in at most 100 iterations (68 on the 2-core machine,
#   2026-11-28; 67 without the factor), and some cells clipped;
# - after 10 iterations the restart holds the factor as a seventh row, in
#   [cell_cfl, 1], below 1 somewhere;
# - 10 + 10 iterations equal 20 bit for bit (restart.bin, and history.csv
#   but for the wall time): the factor lives through the restart;
# - a restart with the factor continues a run without it (the row
#   dropped), and one without continues a run with it (factors from 1);
# - one CPU worker and two, bit for bit; one block and four, the same
#   converged state to 1e-6 (the sweeps couple the blocks through their
#   halos: another path, the same answer, as without the factor).
. "$top_srcdir/tests/cli/lib.sh"

bump_case 6 bump
keys="numerics.linear=gmres numerics.line_cells=1024 numerics.aspect_dt=1e6 numerics.cell_cfl=1e-3"
# run NAME ITERATIONS [keys]: bump_run with the keys, its exit status checked
run() {
	# shellcheck disable=SC2086
	bump_run "$@" $keys || { tail -3 "$tmp/$1.err"; fail "$1: the run"; }
}
run conv 150
blocks=1 run conv1 150
"$py" - "$tmp/conv/history.csv" <<'PY' || fail "the per-cell step: convergence"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
res = [float(r["res_rho"]) for r in rows]
assert all(math.isfinite(x) for x in res), "a residual is not finite"
orders = math.log10(max(res) / res[-1])
clipped = [int(float(r["clipped"])) for r in rows]
print("cell_cfl: %.2f orders in %d iterations, %d cells clipped in all (at most %d in one iteration)" %
      (orders, len(rows), sum(clipped), max(clipped)))
assert orders >= 8 and len(rows) <= 100, "%.2f orders in %d iterations" % (orders, len(rows))
assert sum(clipped) > 0, "no cell clipped: the factor never acts"
PY
"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/conv" "$tmp/conv1" "cell_cfl 4 blocks / 1 block" 1e-6 none ||
	fail "the converged states of four blocks and one differ"

# 10, 10 + 10, 20
run r20 20
run r10 10
cp "$tmp/r10/restart.bin" "$tmp/r10.bin"
run r10 10 output.restart="$tmp/r10.bin"
grep -q "continuing from .* at iteration 11" "$tmp/r10.err" || fail "the continued run does not say it continues"
cmp "$tmp/r20/restart.bin" "$tmp/r10/restart.bin" && echo "10 + 10 = 20: restart.bin byte for byte" ||
	fail "10 + 10: restart.bin differs from 20's"
[ -s "$tmp/r20/history.csv" ] && [ "$(cut -d, -f1,3- "$tmp/r20/history.csv")" = "$(cut -d, -f1,3- "$tmp/r10/history.csv")" ] &&
	echo "10 + 10 = 20: history.csv but for the wall time" || fail "10 + 10: history differs from 20's"
"$py" - "$tmp/r10.bin" <<'PY' || fail "the factor's row in the restart"
import struct, sys
b = open(sys.argv[1], "rb").read()
n_cells, n_vars, model = struct.unpack_from("<Q", b, 16)[0], struct.unpack_from("<I", b, 24)[0], struct.unpack_from("<I", b, 104)[0]
assert model == 2 and n_vars == 7, "model %d with %d rows (sa and 7 expected)" % (model, n_vars)
f = struct.unpack_from("<%dd" % n_cells, b, len(b) - 8 - 8 * n_cells)
print("restart after 10 iterations: %d rows; the factor %.3g .. %.3g, below 1 in %d of %d cells" %
      (n_vars, min(f), max(f), sum(x < 1 for x in f), n_cells))
assert min(f) >= 1e-3 and max(f) <= 1 and min(f) < 1
PY
# across the key: the restart read both ways
keys=${keys% numerics.cell_cfl=1e-3}
run off 5 output.restart="$tmp/r10.bin"
"$py" -c "import struct, sys; sys.exit(struct.unpack_from('<I', open(sys.argv[1], 'rb').read(), 24)[0] != 6)" \
	"$tmp/off/restart.bin" || fail "a run without cell_cfl wrote the factor's row"
keys="$keys numerics.cell_cfl=1e-3"
run on 5 output.restart="$tmp/off/restart.bin"
# shellcheck disable=SC2086
KP_ENV="" key_pair workers "$tmp/bump.cfg" runtime.ncpu "1 2" 0 numerics.iterations=25 partition.blocks=4 $keys
finish
