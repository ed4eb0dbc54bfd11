#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Skin friction at TMR's three stations (x = 0.6321975, 0.75, 0.8678025), lift
and drag of fvstar runs of cases/bump_tmr against NASA TMR's SA results for
the 2D bump in a channel (CFL3D and FUN3D on TMR's five grids).

Usage: bump_report.py RUN_DIR [RUN_DIR ...]
Each RUN_DIR holds a run's wall.csv and summary.json. cf is the magnitude of
the wall shear over q_inf (TMR's and SU2's definition; cf in wall.csv is its
projection on the stream) at each station, linear between the two wall
faces around it; the lift is fvstar's CS (the force along y), the drag CD,
both on ref_area = 1.5 x span. Importable: read(RUN_DIR) returns a dict."""
import csv
import json
import math
import os
import sys

STATIONS = (0.6321975, 0.75, 0.8678025)
KEYS = ("CL", "CD", "cf063", "cf075", "cf087")
GRIDS = {901120: "1409 x 641", 225280: "705 x 321", 56320: "353 x 161", 14080: "177 x 81", 3520: "89 x 41"}
# TMR's SA results (https://turbmodels.larc.nasa.gov/bump_sa.html) for CFL3D
# and FUN3D on TMR's five grids, as SU2's V&V repository copies them
# (rans/bump_in_channel_2d/plot_data/cfl3d_gridconv_sa.csv,
# fun3d_gridconv_sa.csv): {(code, cells): {key: value}}.
TMR = {(r["code"], int(r["cells"])): {k: float(r[k]) for k in KEYS}
       for r in csv.DictReader(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "tmr_sa.csv")))}


def reference(code, cells):
    """TMR's values of code (CFL3D, FUN3D) on the grid of this many cells
    (None if it is not one of TMR's)."""
    return TMR.get((code, cells))


def wall_cf(path):
    """(x, signed |cf|) of the wall faces, sorted by x."""
    rows = []
    for r in csv.DictReader(open(path)):
        if r["marker"] == "wall":
            cx, cy, cz = float(r["cfx"]), float(r["cfy"]), float(r["cfz"])
            rows.append((float(r["x"]), math.copysign(math.sqrt(cx * cx + cy * cy + cz * cz), cx)))
    return sorted(rows)


def at(rows, x0):
    a = [r for r in rows if r[0] <= x0][-1]
    b = [r for r in rows if r[0] > x0][0]
    return a[1] + (b[1] - a[1]) * (x0 - a[0]) / (b[0] - a[0])


def read(run):
    s = json.load(open(os.path.join(run, "summary.json")))
    rows = wall_cf(os.path.join(run, "wall.csv"))
    r = {"cells": s["mesh"]["cells"], "iterations": s["iterations"], "drop": s["residual_drop_orders"],
         "seconds": s["wall_seconds"], "CL": s["forces"]["CS"], "CD": s["forces"]["CD"],
         "cf_min": min(c for _, c in rows)}
    for key, x0 in zip(KEYS[2:], STATIONS):
        r[key] = at(rows, x0)
    return r


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    fine = (reference("CFL3D", 901120), reference("FUN3D", 901120))
    print("%-10s %6s %6s %7s  %-9s %-9s %-9s %-9s %-9s" % ("grid", "iters", "drop", "s", *KEYS))
    for name, ref in (("CFL3D fine", fine[0]), ("FUN3D fine", fine[1])):
        print("%-10s %6s %6s %7s  " % (name, "", "", "") + " ".join("%.7f" % ref[k] for k in KEYS))
    for run in sys.argv[1:]:
        r = read(run)
        grid = GRIDS.get(r["cells"], "%d cells" % r["cells"])
        print("%-10s %6d %6.2f %7.1f  " % (grid, r["iterations"], r["drop"], r["seconds"]) +
              " ".join("%.7f" % r[k] for k in KEYS) + "   (%s)" % run)
        vs = [("CFL3D fine", fine[0])]
        if r["cells"] in GRIDS:
            vs += [(code + " " + grid, reference(code, r["cells"])) for code in ("CFL3D", "FUN3D")]
        for name, ref in vs:
            print("  vs %-18s " % name + " ".join("%+8.2f%%" % (100 * (r[k] / ref[k] - 1)) for k in KEYS))


if __name__ == "__main__":
    main()
