#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the seeds of the restart fuzzer (tests/fuzz/fuzz_restart.c) into
tests/fuzz/seeds/restart: small valid restart files of format 3 (0, 1, 3
and 17 cells, double and single precision, Euler and Spalart-Allmaras, with
and without solver state), two of format 2 (still read), and a few broken
ones (format 1, truncated, bad magic). Usage: make_restart_seeds.py [DIR]"""
import os
import struct
import sys


def fnv1a(data):
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


STATE_MAX = 64


def restart(n, real="d", iteration=10, version=3, nodes=None, mesh_hash=0x1234ABCD5678EF90, model=0, state=()):
    size = struct.calcsize(real)
    nv = 6 if model == 2 else 5
    head = b"FVSTARRS" + struct.pack("<IIQIIqd5d", version, size, n, nv, 4, iteration, 0.25,
                                     1.0, 0.5, 0.25, 1e-300, 3.0)
    if version >= 2:
        head += struct.pack("<QQ", nodes if nodes is not None else 2 * n + 3, mesh_hash)
    if version >= 3:
        # model (0 euler, 1 laminar, 2 sa), the solver state's count, the
        # peak residual and its iteration, the state's 64 slots (unused ones zero)
        slots = list(state) + [0.0] * (STATE_MAX - len(state))
        head += struct.pack("<IIdq%dd" % STATE_MAX, model, len(state), 2.0, min(iteration, 3), *slots)
    q = b"".join(struct.pack("<" + real, 1.0 + 0.1 * v + 0.01 * i) for v in range(nv) for i in range(n))
    body = head + q
    return body + struct.pack("<Q", fnv1a(body))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "seeds", "restart")
    os.makedirs(out, exist_ok=True)
    seeds = {
        "empty-mesh.bin": restart(0),
        "one-cell.bin": restart(1),
        "three-cells.bin": restart(3, iteration=0),
        "seventeen-cells.bin": restart(17, iteration=123456),
        "single-precision.bin": restart(3, real="f"),
        "sa-solver-state.bin": restart(4, model=2, state=(2.5, 1e-300, -0.0, 12.0)),
        "full-solver-state.bin": restart(2, model=1, state=[k * 0.5 for k in range(STATE_MAX)]),
        "format2.bin": restart(3, version=2, iteration=0),
        "format2-single.bin": restart(3, version=2, real="f"),
        "format1.bin": restart(3, version=1),
        "truncated.bin": restart(3)[:150],
        "truncated-state.bin": restart(3)[:700],
        "bad-magic.bin": b"FVSTARRX" + restart(1)[8:],
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print("%d seeds in %s" % (len(seeds), out))


if __name__ == "__main__":
    main()
