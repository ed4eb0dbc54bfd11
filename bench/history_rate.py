#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How fast a run's residual falls, from its history.csv (finished, stopped or
still running): one row every EVERY iterations (and the last) with the
seconds of loop, the density residual's orders below its peak, nu~'s
(where the run has it), CFL, sweep pairs, lin_res, retries and CD, then the
rate over the last WINDOW iterations (orders per iteration and per minute)
and, at that rate, the iterations and seconds still needed to reach TARGET
orders.
Usage: history_rate.py HISTORY_CSV [EVERY [WINDOW [TARGET]]]
(defaults 20, 100, 8); --last prints only the latest row (a progress line)."""
import csv
import math
import sys


def load(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            try:  # a row being written while we read: skip it
                rows.append({k: float(r[k]) for k in ("iteration", "wall_s", "res_rho", "res_nut", "cfl",
                                                      "sweeps", "lin_res", "retries", "CD")})
            except (KeyError, TypeError, ValueError):
                pass
    return rows


def orders(rows, key):
    peak = 0.0
    out = []
    for r in rows:
        peak = max(peak, r[key])
        out.append(math.log10(peak / r[key]) if r[key] > 0 and peak > 0 else float("nan"))
    return out


def line(r, o_rho, o_nut):
    nut = " %6.2f" % o_nut if not math.isnan(o_nut) else "      -"
    return "%6d %8.1f %6.2f%s %9.3g %5d %8.2g %3d %.7f" % (r["iteration"], r["wall_s"], o_rho, nut, r["cfl"],
                                                          r["sweeps"], r["lin_res"], r["retries"], r["CD"])


def main(argv):
    last_only = "--last" in argv
    args = [a for a in argv[1:] if a != "--last"]
    path = args[0]
    every = int(args[1]) if len(args) > 1 else 20
    window = int(args[2]) if len(args) > 2 else 100
    target = float(args[3]) if len(args) > 3 else 8.0
    rows = load(path)
    if not rows:
        print("%s: no rows yet" % path)
        return 0
    o_rho, o_nut = orders(rows, "res_rho"), orders(rows, "res_nut")
    head = "  iter   loop s  orders   nu~       CFL pairs  lin_res ret CD"
    if last_only:
        print(line(rows[-1], o_rho[-1], o_nut[-1]))
        return 0
    print(head)
    for i, r in enumerate(rows):
        if int(r["iteration"]) % every == 0 or i == len(rows) - 1:
            print(line(r, o_rho[i], o_nut[i]))
    # the rate over the window (from the best level before it: a retry's
    # thrown-away iterations are not in the history)
    j = max(0, len(rows) - 1 - window)
    d_it = rows[-1]["iteration"] - rows[j]["iteration"]
    d_s = rows[-1]["wall_s"] - rows[j]["wall_s"]
    d_o = o_rho[-1] - o_rho[j]
    if d_it > 0 and d_s > 0:
        per_it, per_min = d_o / d_it, 60 * d_o / d_s
        need = target - o_rho[-1]
        more = ("%.0f more iterations, %.0f s at this rate" % (need / per_it, need / per_it * d_s / d_it)
                if need > 0 and per_it > 0 else "reached" if need <= 0 else "not at this rate")
        print("rate over iterations %d-%d: %.4f orders per iteration, %.3f per minute (%.2f s an iteration); "
              "to %g orders: %s" % (rows[j]["iteration"], rows[-1]["iteration"], per_it, per_min, d_s / d_it,
                                    target, more))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
