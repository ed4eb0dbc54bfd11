# SPDX-License-Identifier: MIT
"""What plot_history.py and plot_cp.py share: finding a Python with
matplotlib, reading history.csv and summary.json, and the convergence
verdict both print.

The verdict: a run is converged when its lift coefficient changes by less
than CL_TOL (relative) over the last 10% of its iterations, or, without
forces, when the density residual fell by the case's residual_drop (or by
3 orders when none was set) below its peak (the run's reference; the first
iteration for runs of an older fvstar). The sentence gives the numbers and
the reference either way.
"""
import csv
import json
import math
import os
import subprocess
import sys

CL_TOL = 1e-4          # relative change of CL over the window
WINDOW = 0.10          # the last 10% of the iterations
DEBIAN_PYTHON = "/usr/bin/python3"
PACKAGES = {"matplotlib": "python3-matplotlib", "numpy": "python3-numpy"}


def require_matplotlib(prog):
    """Imports matplotlib (Agg) and numpy, or re-runs the script with
    Debian's Python when that one has them, or exits 1 naming the missing
    module and the Debian package."""
    missing = []
    for mod in ("matplotlib", "numpy"):
        try:
            __import__(mod)
        except ImportError as e:
            missing.append(getattr(e, "name", None) or mod)
    if not missing:
        import matplotlib
        matplotlib.use("Agg")
        return
    here = os.path.realpath(sys.executable or "")
    if (not os.environ.get("FVSTAR_PLOT_REEXEC") and os.access(DEBIAN_PYTHON, os.X_OK)
            and here != os.path.realpath(DEBIAN_PYTHON)
            and subprocess.call([DEBIAN_PYTHON, "-c", "import numpy, matplotlib.pyplot"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0):
        print("%s: %s has no module %s; running with %s"
              % (prog, sys.executable, ", ".join("'%s'" % m for m in missing), DEBIAN_PYTHON),
              file=sys.stderr)
        os.environ["FVSTAR_PLOT_REEXEC"] = "1"
        os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON] + sys.argv)
    # Debian's python3-matplotlib brings numpy along
    pkgs = sorted({PACKAGES.get(m.split(".")[0], "python3-" + m.split(".")[0]) for m in missing})
    if "python3-matplotlib" in pkgs:
        pkgs = ["python3-matplotlib"]
    sys.exit("%s: this Python (%s %s) has no module %s.\n"
             "  On Debian: apt-get install %s, then run the script with %s"
             % (prog, sys.executable, sys.version.split()[0], ", ".join("'%s'" % m for m in missing),
                " ".join(pkgs), DEBIAN_PYTHON))

def read_history(path):
    """{column: [float]} of a history.csv; exits naming file:line on a bad value."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        names = reader.fieldnames or []
        rows = list(reader)
    if "iteration" not in names:
        sys.exit("%s: no iteration column (columns: %s)" % (path, ", ".join(names)))
    if not rows:
        sys.exit("%s: no rows" % path)
    cols = {n: [] for n in names}
    for line, r in enumerate(rows, 2):
        for n in names:
            try:
                cols[n].append(float(r[n]))
            except (TypeError, ValueError):
                sys.exit("%s:%d: %s = %r is not a number" % (path, line, n, r[n]))
    return cols


def has_forces(cols):
    return all(k in cols for k in ("CL", "CD")) and any(v != 0 for v in cols["CL"] + cols["CD"])


def read_summary(path):
    if not path or not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def find_beside(dirs, names):
    """The first existing DIR/NAME over dirs x names, else None."""
    for d in dirs:
        for n in names:
            p = os.path.join(d, n)
            if os.path.exists(p):
                return p
    return None


def window(cols):
    """Indices of the rows in the last WINDOW of the iterations, and the
    number of iterations it spans."""
    it = cols["iteration"]
    first, last = it[0], it[-1]
    start = last - WINDOW * (last - first + 1)
    idx = [i for i, v in enumerate(it) if v >= start]
    return idx, int(round(last - it[idx[0]]))


def cl_change(cols):
    """(absolute, relative) change (max - min) of CL over the window, and the window's iterations."""
    idx, span = window(cols)
    vals = [cols["CL"][i] for i in idx]
    d = max(vals) - min(vals)
    ref = abs(cols["CL"][-1])
    return d, (d / ref if ref > 0 else math.inf), span


def density_drop(cols, summary):
    """(orders the density residual fell, from what): from its peak so far
    (or numerics.residual_ref) where the run says so, else (older runs)
    from the first iteration; (None, "") without a residual history."""
    ref = "its first iteration"
    if summary and "residual_reference" in summary:
        ref = "its peak" if summary["residual_reference"] == "peak" else "numerics.residual_ref"
    if summary and "residual_drop_orders" in summary:
        return float(summary["residual_drop_orders"]), ref
    if "orders_below_ref" in cols:
        return cols["orders_below_ref"][-1], "its reference"
    if "log10_rel_res_rho" in cols:
        return -cols["log10_rel_res_rho"][-1], "its first iteration"
    return None, ""


def percent(rel):
    """A relative change as a readable percentage: 220%, 5.2%, 0.0016%."""
    p = 100 * rel
    if not math.isfinite(p):
        return "inf%"
    return "%.0f%%" % p if p >= 10 else "%.2g%%" % p


def verdict(cols, summary, cl_tol=CL_TOL):
    """(converged, sentence)."""
    drop, ref = density_drop(cols, summary)
    target = 0.0
    if summary:
        target = float(summary.get("case", {}).get("numerics", {}).get("residual_drop") or 0)
    if drop is None:
        drop_txt = "no residual history"
    elif drop >= 0:
        drop_txt = "density residual %.1f orders below %s" % (drop, ref)
    else:
        drop_txt = "density residual %.1f orders above %s" % (-drop, ref)
    if has_forces(cols):
        d, rel, span = cl_change(cols)
        ok = rel < cl_tol
        if ok:
            return True, "converged: CL changes by %s (%.2g) over the last %d iterations, %s" % (
                percent(rel), d, span, drop_txt)
        return False, "not converged: CL still changing by %s over the last %d iterations, %s" % (
            percent(rel), span, drop_txt)
    need = target if target > 0 else 3.0
    if drop is not None and drop >= need:
        return True, "converged: %s (%g asked)" % (drop_txt, need)
    return False, "not converged: %s of %g" % (drop_txt, need)
