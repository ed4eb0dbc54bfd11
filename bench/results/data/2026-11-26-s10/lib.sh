# common set-up of the session-10 device scripts (sourced; run from the repository root)
top=$PWD
rm -rf device; tar xJf devdata/device.tar.xz
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 STARPU_SILENT=1 NCCL_NVLS_ENABLE=0
export LD_LIBRARY_PATH=$top/device/lib
export top_srcdir=$top top_builddir=$top/device/bin
fv=$top/device/bin/fvstar
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
m=/tmp/m6; mkdir -p $m
[ -f $m/m6.su2 ] || gunzip -c devdata/onera_m6_medium.su2.gz > $m/m6.su2
[ -f $m/m6c.su2 ] || gunzip -c devdata/onera_m6_coarse.su2.gz > $m/m6c.su2
# the explicit M6 case of the session-8 measurements (bench/results/2026-11-25-session8-measurements.md)
sed -e "s|^file = .*|file = $m/m6.su2|" -e 's/^time = implicit/time = steady/' -e 's/^cfl = 10/cfl = 1.5/' \
	-e '/^cfl_max\|^cfl_ramp\|^cfl_growth\|^first_order\|^limiter_freeze_drop\|^sweeps\|^implicit =/d' cases/onera_m6/onera_m6.cfg > $m/explicit.cfg
# rate DIR FROM: seconds per iteration from history.csv's wall_s, iterations FROM..last,
# and ns per cell per RK stage (2 stages)
rate() {
	python3 - "$1" "${2:-10}" <<'PY'
import csv, json, sys
d, k = sys.argv[1], int(sys.argv[2])
rows = list(csv.DictReader(open(d + "/history.csv")))
t = {int(r["iteration"]): float(r["wall_s"]) for r in rows}
n = max(t)
s = json.load(open(d + "/summary.json"))
cells = s["mesh"]["cells"]
spi = (t[n] - t[k]) / (n - k)
print("  it %d-%d: %.3f ms/it = %.3f ns/cell/stage | %d blocks, set-up %.1f s"
      % (k, n, spi * 1e3, spi / cells / 2 * 1e9, s["partition"]["blocks"], s.get("setup_seconds", {}).get("total", 0)))
PY
}
