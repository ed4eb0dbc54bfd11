#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares two fvstar run directories: the states of restart.bin (cell by
cell, in the mesh file's order, so runs of any block count compare) and the
residual and force histories. Usage:

  compare_runs.py A B NAME STATE_TOL [HIST_TOL]

The state differences are taken relative to each quantity's largest
magnitude over the mesh: density and energy by themselves, the three
momentum components against the largest momentum component (a component
that is zero up to round-off, such as rho w in a 2D case, is not compared
with its own noise). The time (unsteady runs), the residual columns (rho,
rhou, rhov, rhoE) and the force
coefficients are compared relative to each column's largest value. Exit 0
when the state is within STATE_TOL and the histories within HIST_TOL
(default 1e-8), both multiplied by FV_TOL_SCALE from the environment (1e8
in a single-precision tree, tests/cli/lib.sh); HIST_TOL "none" compares
the states alone (runs that reach one steady state by different paths).
Plain Python, no numpy."""
import array
import csv
import os
import sys


def state(d):
    raw = open(d + "/restart.bin", "rb").read()
    # header (bytes 12-15: the size of a value, 16-23: the cell count), the
    # state in the mesh file's cell order, an 8-byte checksum
    size = int.from_bytes(raw[12:16], "little")
    n = int.from_bytes(raw[16:24], "little")
    q = array.array("f" if size == 4 else "d")
    q.frombytes(raw[len(raw) - 8 - 5 * n * size:-8])
    return [q[k * n:(k + 1) * n] for k in range(5)], n


def history(d):
    rows = list(csv.reader(open(d + "/history.csv")))
    return [[float(x) if x else 0.0 for x in r] for r in rows[1:]]


def main():
    scale = float(os.environ.get("FV_TOL_SCALE", "1"))
    a, b, name, tol = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]) * scale
    no_hist = len(sys.argv) > 5 and sys.argv[5] == "none"
    htol = (float(sys.argv[5]) if len(sys.argv) > 5 and not no_hist else 1e-8) * scale
    (qa, na), (qb, nb) = state(a), state(b)
    if na != nb:
        print("%s: states of %d and %d cells" % (name, na, nb))
        return 1
    big = [max(abs(x) for x in qa[k]) or 1e-300 for k in range(5)]
    mom = max(big[1:4])
    scale = [big[0], mom, mom, mom, big[4]]
    rel = max(max(abs(x - y) for x, y in zip(qa[k], qb[k])) / scale[k] for k in range(5))
    if no_hist:
        ok = rel <= tol
        print("%s: state max diff %.3g of the largest value (tol %g)%s" % (name, rel, tol, "" if ok else ": FAIL"))
        return 0 if ok else 1
    ha, hb = history(a), history(b)
    if len(ha) != len(hb):
        print("%s: histories of %d and %d iterations" % (name, len(ha), len(hb)))
        return 1
    hrel = 0.0
    for col in [2, 3, 4, 5, 7] + list(range(9, 15)):  # time (unsteady), residuals, forces
        top = max(abs(r[col]) for r in ha)
        if top > 0:
            hrel = max(hrel, max(abs(x[col] - y[col]) for x, y in zip(ha, hb)) / top)
    ok = rel <= tol and hrel <= htol
    print("%s: state max diff %.3g of the largest value (tol %g), residual and force histories %.3g (tol %g)%s"
          % (name, rel, tol, hrel, htol, "" if ok else ": FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
