#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plot the convergence of a run from its history.csv.

Usage: plot_history.py HISTORY.csv [-o OUT.png] [--title TEXT] [--summary SUMMARY.json]

Top panel: the residuals of the five equations (rho, rho u, rho v, rho w,
rho E), each divided by its largest value over the first five iterations
(as Fluent scales them: an equation whose first residual is round-off, such
as rho v of a flow without sideslip, then still starts near 1), on a log
scale with every decade labelled; the top axis gives the wall time. When the
run has forces, CL and CD panels follow, their y range set by the iterations
after the first 10% (the start-up transient may leave the panel). The title
ends with the convergence verdict (tools/plot_common.py): the change of CL
over the last 10% of the iterations and the density residual drop, read
from summary.json beside the CSV when there is one.
Default OUT: convergence.png beside the CSV. Needs matplotlib and numpy
(Debian: python3-matplotlib); draws with the Agg backend.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_common as pc  # noqa: E402

pc.require_matplotlib("plot_history.py")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker as mticker  # noqa: E402
import numpy as np  # noqa: E402

EQUATIONS = (("res_rho", r"$\rho$"), ("res_rhou", r"$\rho u$"), ("res_rhov", r"$\rho v$"),
             ("res_rhow", r"$\rho w$"), ("res_rhoE", r"$\rho E$"))


def decade_label(v, _pos):
    if v <= 0:
        return ""
    e = math.log10(v)
    return "1e%d" % round(e) if abs(e - round(e)) < 1e-6 else ""


def scaled(vals):
    """vals over the largest of the first five positive values; None when none is positive."""
    head = [v for v in vals[:5] if math.isfinite(v) and v > 0]
    if not head:
        return None
    ref = max(head)
    return np.array([v / ref if math.isfinite(v) and v > 0 else np.nan for v in vals])


def coefficient_panel(ax, it, vals, name, cols):
    ax.plot(it, vals, color="C0", lw=1.1)
    idx, span = pc.window(cols)
    # the y range from the iterations after the first 10%
    start = it[0] + 0.1 * (it[-1] - it[0])
    tail = [v for i, v in zip(it, vals) if i >= start] or list(vals)
    lo, hi = min(tail), max(tail)
    pad = 0.08 * (hi - lo) if hi > lo else max(abs(hi) * 0.01, 1e-6)
    ax.set_ylim(lo - pad, hi + pad)
    wvals = [vals[i] for i in idx]
    d = max(wvals) - min(wvals)
    rel = d / abs(vals[-1]) if vals[-1] != 0 else math.inf
    ax.axvspan(it[idx[0]], it[-1], color="0.85", lw=0, zorder=0)
    ax.set_ylabel(name)
    ax.set_title("%s = %.5f; over the last %d iterations (shaded) it changes by %.2g (%s)"
                 % (name, vals[-1], span, d, pc.percent(rel)), fontsize=8.5)
    ax.grid(True, lw=0.3, alpha=0.6)
    ax.yaxis.set_major_formatter(mticker.FormatStrFormatter("%.4g"))


def main():
    ap = argparse.ArgumentParser(description="residuals, CL and CD against iteration from history.csv")
    ap.add_argument("history", help="history.csv of fvstar run")
    ap.add_argument("-o", "--out", help="PNG file (default: convergence.png beside the CSV)")
    ap.add_argument("--title", default="", help="first line of the figure title")
    ap.add_argument("--summary", help="summary.json of the run (default: beside the CSV)")
    a = ap.parse_args()

    cols = pc.read_history(a.history)
    missing = [c for c, _ in EQUATIONS if c not in cols]
    if missing:
        sys.exit("%s: no %s column (columns: %s)" % (a.history, ", ".join(missing), ", ".join(cols)))
    here = os.path.dirname(os.path.abspath(a.history))
    summary = pc.read_summary(a.summary or pc.find_beside([here], ["summary.json"]))
    it = np.array(cols["iteration"])
    forces = pc.has_forces(cols)
    npanel = 3 if forces else 1
    fig, axes = plt.subplots(npanel, 1, figsize=(8, 8.5 if forces else 4.6), sharex=True, squeeze=False,
                             gridspec_kw={"height_ratios": [2, 1, 1] if forces else [1]})
    ax = axes[0][0]
    lo = math.inf
    for (col, label), color in zip(EQUATIONS, ("C0", "C1", "C2", "C3", "C4")):
        r = scaled(cols[col])
        if r is None:
            continue
        ax.semilogy(it, r, color=color, lw=1, label=label)
        # the lower limit leaves out the first five rows, where a
        # round-off residual (rho v at iteration 1) would stretch the axis
        if np.isfinite(r[5:]).any():
            lo = min(lo, np.nanmin(r[5:]))
    ax.set_ylabel("residual / max of iterations 1-5")
    ax.yaxis.set_major_locator(mticker.LogLocator(base=10, subs=(1.0,), numticks=100))
    ax.yaxis.set_minor_locator(mticker.LogLocator(base=10, subs=np.arange(2, 10) * 0.1, numticks=100))
    ax.yaxis.set_major_formatter(mticker.FuncFormatter(decade_label))
    ax.yaxis.set_minor_formatter(mticker.NullFormatter())
    if math.isfinite(lo):
        ax.set_ylim(10 ** math.floor(math.log10(lo)), max(ax.get_ylim()[1], 2.0))
    ax.grid(True, which="major", lw=0.5, alpha=0.7)
    ax.grid(True, which="minor", lw=0.2, alpha=0.4)
    ax.legend(loc="upper right", fontsize=8, ncol=5, framealpha=0.9)
    # wall time on the top axis: a monotone map from the iteration
    if "wall_s" in cols and len(it) > 1:
        wall = np.maximum.accumulate(np.array(cols["wall_s"]))
        if wall[-1] > wall[0]:
            top = ax.secondary_xaxis("top", functions=(lambda x: np.interp(x, it, wall),
                                                       lambda w: np.interp(w, wall, it)))
            top.set_xlabel("wall time [s]")
    if forces:
        coefficient_panel(axes[1][0], it, cols["CL"], "CL", cols)
        coefficient_panel(axes[2][0], it, cols["CD"], "CD", cols)
    axes[-1][0].set_xlabel("iteration")
    axes[-1][0].set_xlim(it[0], it[-1])
    _, text = pc.verdict(cols, summary)
    fig.suptitle((a.title + "\n" if a.title else "") + text, fontsize=10)
    fig.tight_layout()
    out = a.out or os.path.join(here, "convergence.png")
    fig.savefig(out, dpi=130)
    print(out)


if __name__ == "__main__":
    main()
