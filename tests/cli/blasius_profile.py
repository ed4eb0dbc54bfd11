#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The velocity profile of a laminar flat-plate run against Blasius.

Usage: blasius_profile.py SOLUTION.vtu RE MACH X1[,X2...] [--tol T] [--csv OUT]

Reads fvstar's solution.vtu (raw appended data, UInt64 headers; Python's
standard library only), takes the column of cells whose centres are nearest
each station x (the plate starts at x = 0, the wall is y = 0, RE is the
Reynolds number per unit length, MACH the free stream's: fvstar's
velocities are in units of the free stream's speed of sound, so U_inf =
MACH) and compares u / U_e with Blasius', U_e the column's largest u (the
edge of the layer; the layer's displacement makes it about 1% more than
U_inf in a domain of finite height, which is printed)
f'(eta), eta = y sqrt(RE / x), for the cells with eta < 8. f comes from
f''' + f f'' / 2 = 0, f(0) = f'(0) = 0, f'(inf) = 1, integrated here by
fourth-order Runge-Kutta with f''(0) found by bisection (0.33206).
Prints the largest difference per station; exits 1 if one exceeds --tol
(default 0.03 of U_inf). --csv writes x, y, eta, u/U_e, f'(eta) rows.
"""
import argparse
import re
import struct
import sys


def read_vtu(path):
    raw = open(path, 'rb').read()
    i = raw.index(b'<AppendedData')
    base = raw.index(b'_', i) + 1
    head = raw[:i].decode('latin1')
    arrays = {}
    sizes = {'Float64': ('d', 8), 'Float32': ('f', 4), 'Int32': ('i', 4), 'Int64': ('q', 8),
             'UInt8': ('B', 1), 'UInt64': ('Q', 8)}
    for tag in re.findall(r'<DataArray ([^>]*)>', head):
        a = dict(re.findall(r'(\w+)="([^"]*)"', tag))
        if 'offset' not in a:
            continue
        off = base + int(a['offset'])
        nbytes = struct.unpack_from('<Q', raw, off)[0]
        code, size = sizes[a['type']]
        arrays[a.get('Name', '?')] = (struct.unpack_from('<%d%s' % (nbytes // size, code), raw, off + 8),
                                      int(a.get('NumberOfComponents', 1)))
    return arrays


def centres(arrays):
    pts, _ = arrays['Points']
    conn, _ = arrays['connectivity']
    offs, _ = arrays['offsets']
    out, start = [], 0
    for end in offs:
        ids = conn[start:end]
        n = len(ids)
        out.append(tuple(sum(pts[3 * v + k] for v in ids) / n for k in range(3)))
        start = end
    return out


def blasius(eta_max=10.0, h=1e-3):
    """Table of (eta, f'(eta)) and f''(0) by shooting."""
    def shoot(s, table=None):
        y = [0.0, 0.0, s]
        eta = 0.0
        rhs = lambda y: (y[1], y[2], -0.5 * y[0] * y[2])
        while eta < eta_max:
            if table is not None:
                table.append((eta, y[1]))
            k1 = rhs(y)
            k2 = rhs([y[i] + h / 2 * k1[i] for i in range(3)])
            k3 = rhs([y[i] + h / 2 * k2[i] for i in range(3)])
            k4 = rhs([y[i] + h * k3[i] for i in range(3)])
            y = [y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) for i in range(3)]
            eta += h
        return y[1]
    lo, hi = 0.2, 0.5
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if shoot(mid) > 1:
            hi = mid
        else:
            lo = mid
    table = []
    shoot(0.5 * (lo + hi), table)
    return table, 0.5 * (lo + hi)


def fprime(table, eta):
    h = table[1][0] - table[0][0]
    i = min(int(eta / h), len(table) - 2)
    t = (eta - table[i][0]) / h
    return table[i][1] * (1 - t) + table[i + 1][1] * t


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('vtu')
    p.add_argument('re', type=float)
    p.add_argument('mach', type=float)
    p.add_argument('stations')
    p.add_argument('--tol', type=float, default=0.03)
    p.add_argument('--csv')
    a = p.parse_args()
    arrays = read_vtu(a.vtu)
    vel, _ = arrays['velocity']
    ctr = centres(arrays)
    u_inf = a.mach
    table, fpp0 = blasius()
    rows, ok = [], True
    for xs in (float(v) for v in a.stations.split(',')):
        # the column of cell centres nearest xs
        xc = min((abs(c[0] - xs), c[0]) for c in ctr)[1]
        col = [i for i, c in enumerate(ctr) if abs(c[0] - xc) < 1e-9 * max(1.0, abs(xc))]
        worst, n = 0.0, 0
        u_e = max(vel[3 * i] for i in col)
        for i in col:
            eta = ctr[i][1] * (a.re / xc) ** 0.5
            if eta >= 8:
                continue
            u, f = vel[3 * i] / u_e, fprime(table, eta)
            worst = max(worst, abs(u - f))
            n += 1
            rows.append((xc, ctr[i][1], eta, u, f))
        print("x = %.4f: %d cells with eta < 8, largest |u/U_e - f'(eta)| %.4f (U_e / U_inf %.4f; f''(0) = %.5f)"
              % (xc, n, worst, u_e / u_inf, fpp0))
        ok = ok and n >= 5 and worst <= a.tol
    if a.csv:
        with open(a.csv, 'w') as f:
            f.write('x,y,eta,u_over_Ue,blasius\n')
            f.writelines('%.6g,%.6g,%.6g,%.6g,%.6g\n' % r for r in rows)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
