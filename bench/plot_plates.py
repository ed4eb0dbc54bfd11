#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plots the flat-plate validations of bench/results/2026-11-25-navier-stokes-sa.md
from wall.csv files: the laminar plate's cf sqrt(Re_x) / 0.664 against
Blasius on three grids, and the TMR SA plate's cf against x on two grids
with TMR's CFL3D value at x = 0.97008. Usage: plot_plates.py DATA_DIR OUT_PREFIX"""
import csv
import math
import os
import sys

if "matplotlib" not in sys.modules and os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3":
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def wall(path):
    rows = [r for r in csv.DictReader(open(path)) if r["marker"] == "wall"]
    return sorted((float(r["x"]), float(r["cf"])) for r in rows)


def main():
    data, out = sys.argv[1], sys.argv[2]
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    for name, label in (("laminar-l65-wall.csv", "64 x 40"), ("laminar-l129-wall.csv", "128 x 80"),
                        ("laminar-l257-wall.csv", "256 x 160")):
        p = os.path.join(data, name)
        if os.path.exists(p):
            xs = [(x, c * math.sqrt(1e4 * x) / 0.664) for x, c in wall(p) if 0.02 < x < 1]
            ax[0].plot([x for x, _ in xs], [r for _, r in xs], label=label)
    ax[0].axhline(1, color="k", lw=0.8, label="Blasius")
    ax[0].axhspan(0.98, 1.02, color="0.9", label="2%")
    ax[0].axvspan(0.1, 0.9, color="0.95", zorder=-2)
    ax[0].set_xlabel("x / L")
    ax[0].set_ylabel("cf sqrt(Re_x) / 0.664")
    ax[0].set_ylim(0.95, 1.1)
    ax[0].set_title("Laminar plate, M 0.2, Re_L 1e4")
    ax[0].legend()
    for name, label in (("tmr-69x49-wall.csv", "69 x 49"), ("tmr-137x97-wall.csv", "137 x 97"),
                        ("tmr-545x385-wall.csv", "545 x 385")):
        p = os.path.join(data, name)
        if os.path.exists(p):
            xs = [(x, c) for x, c in wall(p) if 0.01 < x < 2]
            ax[1].plot([x for x, _ in xs], [c for _, c in xs], label="fvstar SA " + label)
    ax[1].plot([0.97008], [0.0027056], "k*", ms=10, label="TMR CFL3D 545 x 385")
    ax[1].set_xlabel("x")
    ax[1].set_ylabel("cf")
    ax[1].set_ylim(0.002, 0.006)
    inset = ax[1].inset_axes([0.5, 0.55, 0.46, 0.33])
    for name in ("tmr-69x49-wall.csv", "tmr-137x97-wall.csv", "tmr-545x385-wall.csv"):
        p = os.path.join(data, name)
        if os.path.exists(p):
            xs = [(x, c) for x, c in wall(p) if 0.8 < x < 1.15]
            inset.plot([x for x, _ in xs], [c for _, c in xs])
    inset.plot([0.97008], [0.0027056], "k*", ms=8)
    inset.axhspan(0.0027056 * 0.99, 0.0027056 * 1.01, color="0.9")
    inset.set_title("x = 0.97: TMR +/- 1%", fontsize=8)
    inset.tick_params(labelsize=7)
    ax[1].set_title("TMR flat plate, SA, M 0.2, Re 5e6")
    ax[1].legend(loc="lower left")
    fig.tight_layout()
    fig.savefig(out + "-plates.png", dpi=110)


if __name__ == "__main__":
    main()
