#!/bin/sh
# SPDX-License-Identifier: MIT
# The ONERA M6 with numerics.time = implicit alone against the shipped case
# (issue 24), one command for the GPU machine: iterations and seconds of
# loop to CL within 0.5 % of the converged value and to 8 orders below the
# peak density residual, for
#   alone    cases/onera_m6/onera_m6.cfg with every implicit key but
#            time = implicit deleted (the limiter keys kept: they are the
#            discretisation's), as a user switching a case to implicit;
#   fixed    the same with numerics.sweeps_max = 20 (a fixed 20 pairs, the
#            defaults before the sweep pairs grew with lin_res: 4.3 orders
#            in 600 iterations on the medium mesh, one H200);
#   shipped  the case as shipped;
#   tuned    alone with the implicit keys the case carried up to 2026-11-29
#            (60 sweep pairs, 20 first-order iterations, CFL to 1000);
#   old      alone with the sweep pairs' rule of before 2026-11-30 (grown
#            while lin_res > 0.2, up to 3 x 20: sweeps_target = 0.2,
#            sweeps_max = 60), the defaults' former behaviour.
# Usage: bench/run_implicit_defaults.sh FVSTAR M6_MESH [KEY=VALUE ...]
#   FVSTAR   the fvstar binary (device/bin/fvstar of tools/device-pack.sh)
#   M6_MESH  the mesh (devdata/onera_m6_medium.su2.gz, or a .su2)
#   KEY=VALUE  more keys for every run (e.g. partition.blocks=1)
# Environment: M6_ITERATIONS (1000), CASES ("alone shipped fixed"; also
# tuned, old), OUT_DIR (default a temporary one), RUN_SECONDS (each run's
# limit; default none). From a device pack, on the GPU machine:
#   export LD_LIBRARY_PATH=$PWD/device/lib
#   bench/run_implicit_defaults.sh device/bin/fvstar devdata/onera_m6_medium.su2.gz
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
fv=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mesh=$2
shift 2
out=${OUT_DIR:-$(mktemp -d)}
mkdir -p "$out"
export STARPU_SILENT=1
echo "fvstar: $fv ($("$fv" --version 2>/dev/null | head -1)); results in $out"
command -v nvidia-smi >/dev/null && nvidia-smi -L
case $mesh in
*.gz) gunzip -c "$mesh" >"$out/m6.su2" && mesh=$out/m6.su2 ;;
*.xz) xz -dc "$mesh" >"$out/m6.su2" && mesh=$out/m6.su2 ;;
esac
[ -f "$mesh" ] || { echo "no mesh $mesh" >&2; exit 2; }

sed -e "s|^file = .*|file = $mesh|" "$top/cases/onera_m6/onera_m6.cfg" >"$out/shipped.cfg"
sed -e '/^cfl_max\|^cfl_ramp\|^cfl_growth\|^first_order\|^sweeps\|^implicit =\|^cfl =\|^jacobian/d' \
	"$out/shipped.cfg" >"$out/alone.cfg"
sed -e 's/^time = implicit/&\nsweeps_max = 20/' "$out/alone.cfg" >"$out/fixed.cfg"
sed -e 's/^time = implicit/&\nsweeps = 60\ncfl_max = 1000\nfirst_order = 20/' "$out/alone.cfg" >"$out/tuned.cfg"
sed -e 's/^time = implicit/&\nsweeps_target = 0.2\nsweeps_max = 60/' "$out/alone.cfg" >"$out/old.cfg"

rc=0
for c in ${CASES:-alone shipped fixed}; do
	${RUN_SECONDS:+timeout "$RUN_SECONDS"} "$fv" run "$out/$c.cfg" output.dir="$out/$c" numerics.iterations="${M6_ITERATIONS:-1000}" \
		numerics.residual_drop=8 output.vtu=no output.progress_every=0 "$@" >"$out/$c.out" 2>"$out/$c.err" ||
		{ echo "$c: the run failed or was stopped"; tail -3 "$out/$c.err" | cut -c1-400; rc=1
		  [ -s "$out/$c/history.csv" ] || continue; }
	grep "thrown away" "$out/$c.err" | cut -c1-300
	python3 - "$out/$c/history.csv" "$c" <<'PY' || rc=1
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
it = [int(r["iteration"]) for r in rows]
res = [float(r["res_rho"]) for r in rows]
t = [float(r["wall_s"]) for r in rows]
cl = [float(r["CL"]) for r in rows]
cfl = [float(r["cfl"]) for r in rows]
peak = max(res)
hit = [k for k in range(res.index(peak), len(res)) if res[k] <= 1e-8 * peak]
k = len(cl) - 1
while k > 0 and abs(cl[k - 1] - cl[-1]) <= 0.005 * abs(cl[-1]):
    k -= 1
print("%-8s %s; CL %.6f, within 0.5%% from iteration %d (%.2f s); %d iterations, %.2f s of loop; retries %s; "
      "CFL %g at most, %g at the end; lin_res %.2g at the end; %d sweep pairs in all, %s at the end" % (
          sys.argv[2], "8 orders at iteration %d (%.2f s)" % (it[hit[0]], t[hit[0]]) if hit else
          "not 8 orders: %.2f below the peak" % math.log10(peak / res[-1]),
          cl[-1], it[k], t[k], len(rows), t[-1], rows[-1]["retries"], max(cfl), cfl[-1],
          float(rows[-1]["lin_res"]), sum(int(float(r["sweeps"])) for r in rows), rows[-1]["sweeps"]))
# the CFL's course, every 25 iterations: where the ramp and its ceilings put it
print("         CFL by 25 iterations: " + " ".join("%d:%.3g" % (it[j], cfl[j]) for j in range(0, len(rows), 25)))
PY
done
exit $rc
