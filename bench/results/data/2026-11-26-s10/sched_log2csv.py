#!/usr/bin/env python3
"""Rebuilds sched.csv from the log of `fvstar bench sched` (call 1's sched.csv
did not come back from the device: more than 8 files were left under $OUT).
The log has one line per run: policy, worker set, blocks, balance,
s/iteration, ns/cell/stage and the mean utilisation; the per-worker
utilisation, the GPU share and the run's wall time are not in it and stay
empty. Usage: sched_log2csv.py sched.log OUT.csv"""
import csv
import re
import sys

sys.path.insert(0, __file__.rsplit("/", 5)[0] + "/tools")
from bench_sched import COLUMNS  # noqa: E402

line = re.compile(r"bench_sched: (\S+)\s+(\S+)\s+(\d+) blocks (\S+) (\S+) s/iteration, (\S+) ns/cell/stage, busy (\d+)%")
rows = []
for text in open(sys.argv[1]):
    m = line.match(text)
    if not m:
        continue
    pol, ws, blocks, bal, spi, ns, busy = m.groups()
    ncuda = 1 if ws.startswith("gpu") else 0
    ncpu = int(ws[4:]) if ws.startswith("gpu+") else (int(ws[3:]) if ws.startswith("cpu") else 0)
    nw = ncpu + ncuda
    rows.append({"policy": pol, "workers": ws, "ncpu": ncpu, "ncuda": ncuda, "balance": bal, "blocks": int(blocks),
                 "blocks_per_worker": int(blocks) // nw, "gpu_share_pct": "", "iterations": 30,
                 "s_per_iteration": spi, "ns_per_cell_stage": ns, "busy_mean_pct": busy, "busy": "",
                 "status": "ok", "seconds": ""})
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=COLUMNS)
    w.writeheader()
    w.writerows(rows)
print("%d runs" % len(rows))
