#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 24's independent ONERA M6 meshes on one GPU: tests/data/m6_box.geo
# (a box far field 15 mean chords out, a flat tip cap, Threshold sizes,
# markers Wing / Sym / FarBox) at the issue's sizes, each run with
#   alone     cases/onera_m6/onera_m6.cfg with every implicit key deleted but
#             time = implicit (the limiter keys kept: the discretisation's),
#             the markers renamed: what a user switching to implicit runs;
#   shipped   the case's numerics as shipped (60 sweep pairs, CFL 10 -> 1000
#             x1.5, 20 first-order iterations), the markers renamed: the
#             issue's failing run (NaN at iteration 30-31 on its 1.6M mesh);
#   tuned     alone with the implicit keys the shipped case carried up to
#             2026-11-29 (60 sweep pairs, CFL to 1000, 20 first-order
#             iterations), for when the shipped case carries none;
#   old       alone with the sweep pairs' rule of before 2026-11-30
#             (sweeps_target = 0.2, sweeps_max = 60);
# and the explicit scheme (time = steady, cfl = 1.5, the same limiter keys)
# on one mesh as the reference CL. Per run: iterations and seconds of loop to
# CL within 0.5 % of the reference (and staying there), to 8 orders below the
# peak density residual, retries, the set-up time; the table at the end,
# then each implicit run's course (CFL, sweep pairs, orders, clipped cells
# every 20 iterations). OUT keeps the logs and histories, not the meshes.
# Usage: bench/run_m6_independent.sh FVSTAR OUT MESH [MESH ...]
#   FVSTAR  device/bin/fvstar of a device pack
#   OUT     a directory for the runs (created)
#   MESH    .su2 or .su2.xz of tests/data/m6_box.geo (gmsh -3 -setnumber h H;
#           gmsh is not on the GPU machine, so they travel in devdata/):
#             m6_box_h0.62.su2.xz  h 0.62  1,660,109 tets (the issue's 1.6M)
#             m6_box_h0.9.su2.xz   h 0.9     556,593 tets
#             m6_box_h1.15.su2.xz  h 1.15    273,479 tets
#           in the order given (the most telling first: a deadline may cut
#           the last ones)
# Environment: CASES ("alone shipped"; also tuned, old), M6_ITERATIONS (800), RUN_SECONDS (120,
# each implicit run), EXPLICIT_MESH (1-based index of the mesh for the
# explicit reference, 1; 0: none), EXPLICIT_SECONDS (200), DEADLINE (seconds
# for the whole script, 560: a run is given what is left, the explicit one
# runs last), GPU (CUDA_VISIBLE_DEVICES, 0), KEYS (more keys for every run).
# On the GPU machine, from a device pack with the meshes in devdata/:
#   export LD_LIBRARY_PATH=$PWD/device/lib
#   bench/run_m6_independent.sh device/bin/fvstar $OUT/m6i devdata/m6_box_h0.62.su2.xz \
#     devdata/m6_box_h0.9.su2.xz devdata/m6_box_h1.15.su2.xz
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 3 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2" || exit 2
out=$(cd "$2" && pwd)
shift 2
export STARPU_SILENT=1 CUDA_VISIBLE_DEVICES="${GPU:-0}"
# the meshes unpacked beside, not under OUT (1.6M tets: 81 MB of SU2, which
# an archive of OUT should not carry), removed at the end
mdir=$(mktemp -d "${TMPDIR:-/tmp}/m6i.XXXXXX") || exit 2
trap 'rm -rf "$mdir"' EXIT
t0=$(date +%s)
left() { echo $((${DEADLINE:-560} - ($(date +%s) - t0))); }
echo "fvstar: $fv ($("$fv" --version 2>/dev/null | head -1)); results in $out"
command -v nvidia-smi >/dev/null && nvidia-smi -L

# the shipped case with the independent mesh's markers
cfg_of() { # MESH NAME: writes $out/NAME.{shipped,alone,explicit}.cfg
	sed -e "s|^file = .*|file = $1|" -e 's/^wing = wall/Wing = wall/' -e 's/^symmetry = symmetry/Sym = symmetry/' \
		-e 's/^farfield = farfield/FarBox = farfield/' -e 's/^markers = wing/markers = Wing/' \
		"$top/cases/onera_m6/onera_m6.cfg" >"$out/$2.shipped.cfg"
	sed -e '/^cfl_max\|^cfl_ramp\|^cfl_growth\|^first_order\|^sweeps\|^implicit =\|^cfl =\|^jacobian/d' \
		"$out/$2.shipped.cfg" >"$out/$2.alone.cfg"
	sed -e 's/^time = implicit/time = steady\ncfl = 1.5/' "$out/$2.alone.cfg" >"$out/$2.explicit.cfg"
	sed -e 's/^time = implicit/&\nsweeps = 60\ncfl_max = 1000\nfirst_order = 20/' "$out/$2.alone.cfg" \
		>"$out/$2.tuned.cfg"
	sed -e 's/^time = implicit/&\nsweeps_target = 0.2\nsweeps_max = 60/' "$out/$2.alone.cfg" >"$out/$2.old.cfg"
}

# one NAME CASE ITERATIONS SECONDS: a run, its log in $out/NAME.CASE.{out,err}
one() {
	s=$4
	[ "$(left)" -lt "$s" ] && s=$(left)
	[ "$s" -ge 10 ] || { echo "$1 $2: not run (the deadline)"; return; }
	# shellcheck disable=SC2086
	timeout "$s" "$fv" run "$out/$1.$2.cfg" output.dir="$out/$1.$2" numerics.iterations="$3" \
		numerics.residual_drop=8 output.vtu=no output.progress_every=0 output.restart_every=0 ${KEYS:-} \
		>"$out/$1.$2.out" 2>"$out/$1.$2.err"
	rc=$?
	echo "$1 $2: rc $rc ($(($(date +%s) - t0)) s)"
	grep "set-up\|workers\|thrown away\|diverg\|error" "$out/$1.$2.err" | head -4 | cut -c1-300
}

i=0 names=
for m in "$@"; do
	i=$((i + 1))
	name=$(basename "$m")
	name=${name%.xz}
	name=${name%.su2}
	case $m in
	*.xz) xz -dc "$m" >"$mdir/$name.su2" || { echo "xz -dc $m failed"; continue; } ;;
	*) ln -s "$(cd "$(dirname "$m")" && pwd)/$(basename "$m")" "$mdir/$name.su2" ;;
	esac
	sed -n 's/^NELEM= *//p' "$mdir/$name.su2" | head -1 >"$out/$name.cells"
	names="$names $name"
	cfg_of "$mdir/$name.su2" "$name"
	[ "$i" = "${EXPLICIT_MESH:-1}" ] && echo "$name" >"$out/explicit_mesh"
	for c in ${CASES:-alone shipped}; do
		one "$name" "$c" "${M6_ITERATIONS:-800}" "${RUN_SECONDS:-120}"
	done
done
[ -s "$out/explicit_mesh" ] && one "$(cat "$out/explicit_mesh")" explicit 100000 "${EXPLICIT_SECONDS:-200}"

# the table: the reference CL is the explicit run's where it ran on that
# mesh (and went 6 orders down), else the mesh's first implicit run that
# went 8 orders down (the same discretisation: the same steady state)
# shellcheck disable=SC2086
python3 - "$out" $names <<'PY'
import csv, json, math, os, re, sys
out, names = sys.argv[1], sys.argv[2:]
def hist(path):
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError:
        return None
    return rows or None
def orders(rows):
    res = [float(r["res_rho"]) for r in rows]
    if not all(math.isfinite(x) for x in res):
        return res, None, float("nan")
    peak = max(res)
    hit = [k for k in range(res.index(peak), len(res)) if res[k] <= 1e-8 * peak]
    return res, (hit[0] if hit else None), math.log10(peak / res[-1]) if res[-1] > 0 else 99
def setup_s(err):
    try:
        m = re.search(r"set-up ([0-9.]+) s", open(err).read())
        return float(m.group(1)) if m else float("nan")
    except OSError:
        return float("nan")
print("\n| mesh | cells | run | CL within 0.5 % from (it, s of loop) | 8 orders at (it, s) | iterations, s of loop, orders | sweep pairs (to 8 orders) | retries | CL at the end | set-up s | reference CL |")
print("|---|---:|---|---|---|---|---:|---:|---:|---:|---|")
for n in names:
    try:
        cells = open(os.path.join(out, n + ".cells")).read().strip()
    except OSError:
        cells = ""
    runs = {}
    for c in ("alone", "shipped", "tuned", "old", "explicit"):
        h = hist(os.path.join(out, "%s.%s" % (n, c), "history.csv"))
        if h:
            runs[c] = h
    ref, refsrc = None, "none"
    if "explicit" in runs:
        res, hit, od = orders(runs["explicit"])
        if od >= 6:
            ref, refsrc = float(runs["explicit"][-1]["CL"]), "explicit, %.1f orders" % od
    if ref is None:
        for c in ("alone", "shipped", "tuned", "old"):
            if c in runs and orders(runs[c])[1] is not None:
                ref, refsrc = float(runs[c][-1]["CL"]), c + " at 8 orders"
                break
    for c, rows in runs.items():
        it = [int(r["iteration"]) for r in rows]
        t = [float(r["wall_s"]) for r in rows]
        cl = [float(r["CL"]) for r in rows]
        res, hit, od = orders(rows)
        within = "-"
        if ref is not None and all(math.isfinite(x) for x in cl) and abs(cl[-1] - ref) <= 0.005 * abs(ref):
            k = len(cl) - 1
            while k > 0 and abs(cl[k - 1] - ref) <= 0.005 * abs(ref):
                k -= 1
            within = "%d, %.2f" % (it[k], t[k])
        eight = "%d, %.2f" % (it[hit], t[hit]) if hit is not None else "-"
        pairs = sum(int(float(r.get("sweeps") or 0)) for r in rows[:(hit if hit is not None else len(rows) - 1) + 1])
        print("| %s | %s | %s | %s | %s | %d, %.2f, %.2f | %d | %s | %.6f | %.2f | %s |" % (
            n, cells, c, within, eight, it[-1], t[-1], od, pairs, rows[-1].get("retries", "?"), cl[-1],
            setup_s(os.path.join(out, "%s.%s.err" % (n, c))), "%.6f (%s)" % (ref, refsrc) if ref else refsrc))
# where the iterations go: every 20th iteration's CFL, sweep pairs, orders
# below the peak so far and cells clipped
for n in names:
    for c in ("alone", "shipped", "tuned", "old"):
        rows = hist(os.path.join(out, "%s.%s" % (n, c), "history.csv"))
        if not rows:
            continue
        res = [float(r["res_rho"]) for r in rows]
        line = []
        for j in range(0, len(rows), 20):
            pk = max(res[:j + 1])
            line.append("%s:%.3g/%s/%.1f/%s" % (rows[j]["iteration"], float(rows[j]["cfl"]), rows[j]["sweeps"],
                                                math.log10(pk / res[j]) if res[j] > 0 else 0, rows[j]["clipped"]))
        print("%s %s (iteration:CFL/pairs/orders/clipped): %s" % (n, c, " ".join(line)))
PY
echo "done at $(($(date +%s) - t0)) s"
