#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plot the surface pressure at the span stations that `fvstar surface` wrote.

Usage: plot_cp.py DIR [-o OUT.png] [--title TEXT] [--history CSV] [--summary JSON]

DIR holds cp_eta*.csv (computed: x_over_c, z_over_c, cp, surface, x, y, z),
optionally exp_eta*.csv (measured: x_over_c, z_over_c, cp, surface, tap) and
stations.csv. One panel a station: the computed Cp as lines (upper and lower
surface), the measured Cp as points; Cp grows downwards (-Cp up) as is
customary. The title says whether the run converged (tools/plot_common.py:
the change of CL over the last 10% of the iterations, the density residual
drop), from the run's history.csv and summary.json, looked for in DIR and
its parent (as `fvstar surface --out RUN/surface` leaves them) unless given.
Default OUT: DIR/cp_stations.png. Needs matplotlib and numpy (Debian:
python3-matplotlib); draws with the Agg backend.
"""
import argparse
import csv
import glob
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_common as pc  # noqa: E402

pc.require_matplotlib("plot_cp.py")
import matplotlib.pyplot as plt  # noqa: E402


def read_csv(path, need):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if rows and any(k not in rows[0] for k in need):
        sys.exit("%s: expected the columns %s" % (path, ", ".join(need)))
    return rows


def surfaces(rows):
    """{'upper': (x, cp), 'lower': (x, cp)}, each by increasing x/c."""
    out = {}
    for side in ("upper", "lower"):
        pts = sorted((float(r["x_over_c"]), float(r["cp"])) for r in rows if r["surface"] == side)
        pts = [p for p in pts if math.isfinite(p[1])]
        out[side] = ([p[0] for p in pts], [p[1] for p in pts])
    return out


def convergence_line(a):
    """The verdict of tools/plot_common.py on the run whose surface DIR is."""
    dirs = [a.dir, os.path.dirname(os.path.abspath(a.dir))]
    hist = a.history or pc.find_beside(dirs, ["history.csv", "history_every100.csv"])
    if not hist:
        return "convergence unknown: no history.csv in %s or its parent (--history)" % a.dir
    summary = pc.read_summary(a.summary or pc.find_beside([os.path.dirname(os.path.abspath(hist))] + dirs,
                                                           ["summary.json"]))
    cols = pc.read_history(hist)
    it = cols["iteration"]
    return "%d iterations, %s" % (it[-1], pc.verdict(cols, summary)[1])


def main():
    ap = argparse.ArgumentParser(description="Cp at span stations: fvstar surface output against experiment")
    ap.add_argument("dir", help="directory written by fvstar surface")
    ap.add_argument("-o", "--out", help="PNG file (default DIR/cp_stations.png)")
    ap.add_argument("--title", default="", help="first line of the figure title")
    ap.add_argument("--history", help="the run's history.csv (default: in DIR or its parent)")
    ap.add_argument("--summary", help="the run's summary.json (default: in DIR or its parent)")
    a = ap.parse_args()

    files = glob.glob(os.path.join(a.dir, "cp_eta*.csv"))
    if not files:
        sys.exit("plot_cp.py: no cp_eta*.csv in %s (run fvstar surface first)" % a.dir)
    stations = []
    for path in files:
        m = re.search(r"cp_eta([0-9.eE+-]+)\.csv$", path)
        if m:
            stations.append((float(m.group(1)), m.group(1)))
    stations.sort()
    chords = {}
    sfile = os.path.join(a.dir, "stations.csv")
    if os.path.exists(sfile):
        for r in read_csv(sfile, ("eta", "chord")):
            chords[float(r["eta"])] = r

    n = len(stations)
    ncol = min(4, n)
    nrow = (n + ncol - 1) // ncol
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.2 * ncol, 3.4 * nrow), squeeze=False)
    have_exp = False
    for k, (eta, tag) in enumerate(stations):
        ax = axes[k // ncol][k % ncol]
        comp = surfaces(read_csv(os.path.join(a.dir, "cp_eta%s.csv" % tag),
                                 ("x_over_c", "cp", "surface")))
        for side, style in (("upper", "-"), ("lower", "--")):
            ax.plot(comp[side][0], comp[side][1], style, color="C0", lw=1.3,
                    label="computed, %s" % side)
        epath = os.path.join(a.dir, "exp_eta%s.csv" % tag)
        if os.path.exists(epath):
            have_exp = True
            exp = surfaces(read_csv(epath, ("x_over_c", "cp", "surface")))
            ax.plot(exp["upper"][0], exp["upper"][1], "o", color="k", ms=3.5,
                    label="experiment, upper")
            ax.plot(exp["lower"][0], exp["lower"][1], "o", mfc="none", color="k", ms=3.5,
                    label="experiment, lower")
        ax.invert_yaxis()
        ax.set_xlim(-0.02, 1.02)
        ax.grid(True, lw=0.3, alpha=0.6)
        title = "2y/b = %g" % eta
        if eta in chords:
            try:
                title += "  (c = %.4g)" % float(chords[eta]["chord"])
            except ValueError:
                pass
        ax.set_title(title, fontsize=10)
        if k % ncol == 0:
            ax.set_ylabel("Cp")
        if k // ncol == nrow - 1 or k + ncol >= n:
            ax.set_xlabel("x/c")
    # the spare panel (if any) holds the legend
    handles, labels = axes[0][0].get_legend_handles_labels()
    if nrow * ncol > n:
        spare = axes[n // ncol][n % ncol]
        spare.axis("off")
        spare.legend(handles, labels, loc="center", frameon=False)
        for j in range(n + 1, nrow * ncol):
            axes[j // ncol][j % ncol].axis("off")
    else:
        axes[0][0].legend(fontsize=7, loc="lower right")
    title = a.title or "computed Cp" + ("" if have_exp else " (no exp_eta*.csv in %s)" % a.dir)
    fig.suptitle(title + "\n" + convergence_line(a), fontsize=10)
    fig.tight_layout()
    out = a.out or os.path.join(a.dir, "cp_stations.png")
    fig.savefig(out, dpi=130)
    print(out)


if __name__ == "__main__":
    main()
