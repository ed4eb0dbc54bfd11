#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Digest of a run directory for bit-for-bit regression checks: the final
state of restart.bin as the sorted multiset of per-cell value tuples (so
the digest does not depend on the order the file stores the cells in), and
the time, residual and force columns of history.csv (the wall-time column
left out; the first 15 columns, those the digests were recorded with: the
columns added after them, res_rho_ref and orders_below_ref, derive from
res_rho). Usage: state_digest.py RUN_DIR  ->  prints one hex SHA-256."""
import array
import csv
import hashlib
import sys


def main():
    d = sys.argv[1]
    raw = open(d + "/restart.bin", "rb").read()
    # header: bytes 12-15 the size of a value; bytes 16-23 the cell count
    size = int.from_bytes(raw[12:16], "little")
    n = int.from_bytes(raw[16:24], "little")
    q = array.array("f" if size == 4 else "d")
    q.frombytes(raw[-8 - 5 * n * size:-8])
    cells = sorted(tuple(q[k * n + i].hex() for k in range(5)) for i in range(n))
    h = hashlib.sha256()
    for c in cells:
        h.update((" ".join(c) + "\n").encode())
    rows = list(csv.reader(open(d + "/history.csv")))
    for r in rows[1:]:
        h.update((",".join([r[0]] + r[2:15]) + "\n").encode())
    print(h.hexdigest())


if __name__ == "__main__":
    main()
