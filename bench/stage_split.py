#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Time per solver stage from a StarPU tasks.rec (FxT trace converted by
starpu_fxt_tool): sums task durations by name and prints ns per cell per RK
stage for each, as Markdown rows.
Usage: stage_split.py tasks.rec CELLS ITERATIONS RK_STAGES"""
import sys
from collections import defaultdict

path, cells, iters, stages = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
tot = defaultdict(float)
cnt = defaultdict(int)
rec = {}
def flush():
    if "Name" in rec and "StartTime" in rec and "EndTime" in rec:
        tot[rec["Name"]] += float(rec["EndTime"]) - float(rec["StartTime"])
        cnt[rec["Name"]] += 1
for line in open(path):
    line = line.strip()
    if not line:
        flush()
        rec = {}
        continue
    k, _, v = line.partition(": ")
    rec[k] = v
flush()
solver = ["pack", "unpack", "prim", "nodes", "gradient", "limiter", "flux", "timestep", "clock", "norms", "update"]
norm = 1e6 / (cells * iters * stages)  # ms -> ns per cell per RK stage
total = sum(tot[n] for n in solver)
print("| stage | tasks | task time ms | ns/cell/RK stage (summed over workers) | share |")
print("|---|---|---|---|---|")
for n in solver:
    if cnt[n]:
        print("| %s | %d | %.1f | %.2f | %.1f%% |" % (n, cnt[n], tot[n], tot[n] * norm, 100 * tot[n] / total))
print("| all solver tasks | %d | %.1f | %.2f | 100%% |" % (sum(cnt[n] for n in solver), total, total * norm))
