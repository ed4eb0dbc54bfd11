#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The M6 SA grid family's table and plot (issue 24 item 6): the rows of
OUT/m6_sa_family.csv (bench/run_m6_sa_family.sh) printed beside TMR's
CFL3D and FUN3D values, the finest converged grid's CD against CFL3D's, and
CL and CD against N^(-2/3) in OUT/m6_sa_family.png where matplotlib is
installed. Rows with fewer than 6 orders are drawn hollow.
Usage: m6_sa_family_plot.py OUT"""
import csv, sys
out = sys.argv[1]
# coarse to fine (rows of several lanes or calls come in any order)
rows = sorted(csv.DictReader(open(out + "/m6_sa_family.csv")), key=lambda r: int(r["cells"]))
# TMR's M6 SA values (https://turbmodels.larc.nasa.gov/onerawingnumerics_val_sa.html)
tmr = [("CFL3D 69M cells", 69e6, 0.26932, 0.016956), ("FUN3D 0.96M nodes", 0.96e6, 0.26585, 0.017227)]
for r in rows:
    print("%-16s %10s cells  N^-2/3 %.3e  CL %s  CD %s  (%s iterations, %s s, %s orders, last 50: CL %s%%, CD %s%%%s)" % (
        r["grid"], r["cells"], float(r["n_inv23"]), r["CL"], r["CD"], r["iterations"], r["seconds"], r["orders"],
        r["dCL50_pct"], r["dCD50_pct"], ", stopped by RUN_SECONDS" if r["stopped"] == "yes" else ""))
for name, n, cl, cd in tmr:
    print("TMR %-18s CL %.5f  CD %.6f" % (name, cl, cd))
for what, pick in (("finest grid", rows), ("finest grid with 6 orders or more", [r for r in rows if float(r["orders"]) >= 6])):
    if pick:
        f = pick[-1]
        print("%s (%s, %s cells, %s orders): CD %+.2f%% against CFL3D's 0.016956 (target: within 3%%), CL %+.2f%%" % (
            what, f["grid"], f["cells"], f["orders"], 100 * (float(f["CD"]) / 0.016956 - 1),
            100 * (float(f["CL"]) / 0.26932 - 1)))
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit(0)
fig, ax = plt.subplots(1, 2, figsize=(10, 4))
x = [float(r["n_inv23"]) for r in rows]
done = [float(r["orders"]) >= 6 for r in rows]
for a, key, k in ((ax[0], "CL", 2), (ax[1], "CD", 3)):
    y = [float(r[key]) for r in rows]
    a.plot([v for v, d in zip(x, done) if d], [v for v, d in zip(y, done) if d], "o-", label="fvstar")
    if not all(done):
        a.plot([v for v, d in zip(x, done) if not d], [v for v, d in zip(y, done) if not d], "o", mfc="none",
               color="C0", label="fvstar, < 6 orders (not converged)")
    a.axhline(tmr[0][k], color="k", ls="--", label="TMR CFL3D 69M")
    a.plot([tmr[1][1] ** (-2.0 / 3)], [tmr[1][k]], "s", label="TMR FUN3D (N = its 0.96M nodes)")
    a.set_xlabel("N^(-2/3) (N cells)")
    a.set_ylabel(key)
    a.set_xlim(left=0)
    a.legend(fontsize=7)
fig.suptitle("ONERA M6, SA: grid convergence")
fig.tight_layout()
fig.savefig(out + "/m6_sa_family.png", dpi=120)
