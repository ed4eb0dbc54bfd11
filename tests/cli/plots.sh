#!/bin/sh
# SPDX-License-Identifier: MIT
# The plotting scripts on a small run's output: tools/plot_history.py and
# tools/plot_cp.py write PNGs of a real size with something drawn, the
# convergence verdict of 30 iterations is "not converged", and an
# interpreter without matplotlib stops with a message naming the module and
# the Debian package (exit 1, no PNG). SKIP when no python3 has matplotlib.
. "$top_srcdir/tests/cli/lib.sh"
tools="$top_srcdir/tools"

# no matplotlib: a module path whose matplotlib fails to import (Debian's
# python3 too, should the script re-run itself with it)
mkdir -p "$tmp/fake/matplotlib"
echo 'raise ImportError("no matplotlib here", name="matplotlib")' >"$tmp/fake/matplotlib/__init__.py"
anypy=
for p in "${PYTHON3:-}" python3 /usr/bin/python3; do
	[ -n "$p" ] && "$p" -c 'import sys' 2>/dev/null && { anypy=$p; break; }
done
[ -n "$anypy" ] || { echo "no python3 at all"; exit 77; }
mkdir -p "$tmp/h"
printf 'iteration,wall_s,time,res_rho,res_rhou,res_rhov,res_rhow,res_rhoE,log10_rel_res_rho\n1,0.1,0,1,1,1,1,1,0\n' \
	>"$tmp/h/history.csv"
for s in plot_history.py plot_cp.py; do
	arg="$tmp/h/history.csv"; [ $s = plot_cp.py ] && arg="$tmp/h"
	PYTHONPATH="$tmp/fake" "$anypy" "$tools/$s" "$arg" -o "$tmp/nomod.png" >"$tmp/nomod.out" 2>&1
	rc=$?
	[ "$rc" = 1 ] || fail "$s without matplotlib: exit $rc"
	grep -q "has no module 'matplotlib'" "$tmp/nomod.out" || fail "$s without matplotlib: $(cat "$tmp/nomod.out")"
	grep -q "apt-get install python3-matplotlib" "$tmp/nomod.out" || fail "$s: no Debian package named"
	[ ! -e "$tmp/nomod.png" ] || fail "$s without matplotlib wrote a PNG"
done

py=
for p in "${PYTHON3:-}" python3 /usr/bin/python3; do
	[ -n "$p" ] && "$p" -c 'import numpy, matplotlib.pyplot' 2>/dev/null && { py=$p; break; }
done
if [ -z "$py" ]; then
	echo "no python3 with matplotlib (python3-matplotlib): plots not checked"
	[ "$fails" = 0 ] || exit 1
	exit 77
fi

# a closed box of slip walls started at Mach 0.5: the gas sloshes, the
# residuals of all five equations move, forces act on the walls
uniform_box_case p
cat >>"$tmp/p.cfg" <<'CFG'
[output]
vtu = no
CFG
"$fv" run "$tmp/p.cfg" output.dir="$tmp/run" flow.init=freestream numerics.iterations=30 \
	>/dev/null 2>"$tmp/run.err" || { cat "$tmp/run.err"; exit 1; }
"$fv" surface "$tmp/p.cfg" output.dir="$tmp/run" --stations 0.2,0.44 --span 1.5 \
	--exp "$top_srcdir/cases/onera_m6/onera_m6_exp_2308.dat" --out "$tmp/run/surface" \
	>/dev/null 2>"$tmp/surf.err" || { cat "$tmp/surf.err"; exit 1; }

"$py" "$tools/plot_history.py" "$tmp/run/history.csv" --title "box" >"$tmp/h.out" 2>&1 ||
	fail "plot_history.py: $(cat "$tmp/h.out")"
"$py" "$tools/plot_cp.py" "$tmp/run/surface" -o "$tmp/cp.png" >"$tmp/c.out" 2>&1 ||
	fail "plot_cp.py: $(cat "$tmp/c.out")"
# a pyenv (or other) python3 without matplotlib first on PATH: the scripts
# re-run themselves with Debian's
for p in python3 "${PYTHON3:-}"; do
	[ -n "$p" ] && ! "$p" -c 'import matplotlib' 2>/dev/null && /usr/bin/python3 -c 'import matplotlib' 2>/dev/null || continue
	"$p" "$tools/plot_history.py" "$tmp/run/history.csv" -o "$tmp/reexec.png" >"$tmp/r.out" 2>&1 ||
		fail "plot_history.py with $p: $(cat "$tmp/r.out")"
	grep -q "running with /usr/bin/python3" "$tmp/r.out" || fail "no note of the re-run: $(cat "$tmp/r.out")"
	[ -s "$tmp/reexec.png" ] || fail "$p: no PNG"
	break
done

"$py" - "$tmp/run/convergence.png" "$tmp/cp.png" "$tmp/run/history.csv" "$tmp/run/summary.json" "$tools" <<'PY' ||
import json, os, sys
import matplotlib.image as mpimg
sys.path.insert(0, sys.argv[5])
import plot_common as pc
for path, min_w, min_h in ((sys.argv[1], 900, 900), (sys.argv[2], 900, 400)):
    size = os.path.getsize(path)
    img = mpimg.imread(path)
    h, w = img.shape[:2]
    # something drawn: many distinct colours, not a blank page
    rgb = (img[:, :, :3] * 255).astype("uint8").reshape(-1, 3)
    colours = len({tuple(c) for c in rgb[:: max(1, len(rgb) // 20000)]})
    print("%s: %d bytes, %dx%d, %d colours" % (os.path.basename(path), size, w, h, colours))
    assert size > 20000 and w >= min_w and h >= min_h and colours > 50, (path, size, w, h, colours)
cols = pc.read_history(sys.argv[3])
assert len(cols["iteration"]) == 30 and pc.has_forces(cols), cols.keys()
ok, text = pc.verdict(cols, json.load(open(sys.argv[4])))
print(text)
assert not ok and text.startswith("not converged: CL still changing by"), text
# the residual's drop is said from its reference (the peak unless set)
assert "orders below its peak" in text, text
# a flat CL over the last 10% is converged
cols["CL"] = [0.3] * 30
ok, text = pc.verdict(cols, None)
assert ok and text.startswith("converged: CL changes by 0%"), text
assert "orders below its reference" in text, text
PY
	fail "PNG or verdict check"
finish
