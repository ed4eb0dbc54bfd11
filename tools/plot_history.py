#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plot the convergence of a run from its history.csv.

Usage: plot_history.py HISTORY.csv [-o OUT.png] [--title TEXT]

Top panel: the density residual res_rho (log scale) against the iteration.
Bottom panel, when the file has a CL column: the lift coefficient against
the iteration. Default OUT: history.png beside the CSV. Needs matplotlib
(Debian: apt-get install python3-matplotlib); draws with the Agg backend.
"""
import argparse
import csv
import math
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot_history.py: matplotlib is missing (apt-get install python3-matplotlib; "
             "then run it with /usr/bin/python3)")


def column(rows, name, path):
    out = []
    for n, r in enumerate(rows, 2):
        try:
            out.append(float(r[name]))
        except (TypeError, ValueError):
            sys.exit("%s:%d: %s = %r is not a number" % (path, n, name, r[name]))
    return out


def main():
    ap = argparse.ArgumentParser(description="residual and CL against iteration from history.csv")
    ap.add_argument("history", help="history.csv of fvstar run")
    ap.add_argument("-o", "--out", help="PNG file (default: history.png beside the CSV)")
    ap.add_argument("--title", default="", help="figure title")
    a = ap.parse_args()

    with open(a.history, newline="") as f:
        reader = csv.DictReader(f)
        names = reader.fieldnames or []
        rows = list(reader)
    for need in ("iteration", "res_rho"):
        if need not in names:
            sys.exit("%s: no %s column (columns: %s)" % (a.history, need, ", ".join(names)))
    if not rows:
        sys.exit("%s: no rows" % a.history)
    it = column(rows, "iteration", a.history)
    res = column(rows, "res_rho", a.history)
    has_cl = "CL" in names

    fig, axes = plt.subplots(2 if has_cl else 1, 1, figsize=(7, 6.5 if has_cl else 4), sharex=True,
                             squeeze=False)
    ax = axes[0][0]
    pos = [(i, r) for i, r in zip(it, res) if math.isfinite(r) and r > 0]
    ax.semilogy([p[0] for p in pos], [p[1] for p in pos], color="C0", lw=1)
    ax.set_ylabel("density residual")
    ax.grid(True, which="both", lw=0.3, alpha=0.6)
    if has_cl:
        cl = column(rows, "CL", a.history)
        ax2 = axes[1][0]
        ax2.plot(it, cl, color="C1", lw=1)
        ax2.set_ylabel("CL")
        ax2.grid(True, lw=0.3, alpha=0.6)
        ax2.set_title("final CL = %.5f" % cl[-1], fontsize=9)
    axes[-1][0].set_xlabel("iteration")
    if a.title:
        fig.suptitle(a.title)
    fig.tight_layout()
    out = a.out or os.path.join(os.path.dirname(os.path.abspath(a.history)), "history.png")
    fig.savefig(out, dpi=130)
    print(out)


if __name__ == "__main__":
    main()
