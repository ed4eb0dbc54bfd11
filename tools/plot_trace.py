#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Gantt chart of a traced fvstar run, one row per worker, from the
tasks.rec that starpu_fxt_tool writes into the trace directory
(`fvstar run ... output.trace=DIR`; a run on several ranks: one row per
rank and worker, from the ranks' merged files).

Each task is a bar from its start to its end on the worker that ran it,
coloured by stage; the tasks of an implicit sweep (`sweep_color<k>`) are
coloured by block instead and labelled with their colour group, so that the
picture shows whether the groups of several blocks interleave. Blocks are
told apart by the geometry handle (the first buffer of a sweep task).

Prints, per worker, the busy time and the share of the window it was idle,
the task count per stage, and for the sweeps how many times a worker went
from one block's group to another block's group ("block switches": 0 means
the blocks ran one after the other).

Usage: plot_trace.py TRACE_DIR [-o OUT.png] [--last-ms T] [--title TEXT]
  --last-ms T: only the last T milliseconds of the trace.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_common as pc  # noqa: E402


def read_tasks(path):
    tasks, rec = [], {}
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if not line:
            if rec:
                tasks.append(rec)
            rec = {}
            continue
        key, _, value = line.partition(": ")
        rec[key] = value
    if rec:
        tasks.append(rec)
    return [t for t in tasks if "StartTime" in t and "EndTime" in t and "WorkerId" in t]


def stage_of(name):
    for prefix, stage in (("sweep", "sweep"), ("diagonal", "diagonal"), ("implicit_update", "update"),
                          ("flux", "flux"), ("gradient", "gradient"), ("limiter", "limiter"),
                          ("nodes", "nodes"), ("pack", "halo"), ("unpack", "halo"), ("prim", "prim"),
                          ("timestep", "timestep"), ("norms", "norms"), ("update", "update"), ("copy", "copy")):
        if name.startswith(prefix):
            return stage
    return "other"


STAGE_COLOURS = {"flux": "#4c72b0", "gradient": "#55a868", "limiter": "#c44e52", "nodes": "#8172b2",
                 "halo": "#cccccc", "prim": "#937860", "timestep": "#da8bc3", "norms": "#8c8c8c",
                 "update": "#ccb974", "diagonal": "#64b5cd", "copy": "#eeeeee", "other": "#dddddd"}
BLOCK_COLOURS = ["#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00", "#a65628", "#f781bf", "#999999"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace")
    ap.add_argument("-o", "--out", default=None)
    ap.add_argument("--last-ms", type=float, default=0)
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    if a.out:
        pc.require_matplotlib("plot_trace.py")  # may run the script again with Debian's Python
    path = os.path.join(a.trace, "tasks.rec")
    if not os.path.exists(path):
        sys.exit("plot_trace: %s: no tasks.rec (run fvstar with output.trace=DIR)" % a.trace)
    tasks = [t for t in read_tasks(path) if not t["Name"].startswith("_starpu")]
    if not tasks:
        sys.exit("plot_trace: %s holds no task with a start and an end" % path)
    for t in tasks:
        t["start"], t["end"] = float(t["StartTime"]), float(t["EndTime"])
        # several ranks: a row per rank and worker (MPIRank of the merged trace)
        t["worker"] = (int(t.get("MPIRank", 0) or 0), int(t["WorkerId"]))
        t["stage"] = stage_of(t["Name"])
    t1 = max(t["end"] for t in tasks)
    t0 = min(t["start"] for t in tasks)
    if a.last_ms > 0:
        t0 = max(t0, t1 - a.last_ms)
        tasks = [t for t in tasks if t["end"] >= t0]
    # blocks: the geometry handle of the sweep tasks, in submission order
    blocks = {}
    for t in sorted((t for t in tasks if t["stage"] == "sweep"), key=lambda t: int(t.get("SubmitOrder", 0))):
        geo = (t["worker"][0], t.get("Handles", "").split(" ")[0])
        blocks.setdefault(geo, len(blocks))
    workers = sorted({t["worker"] for t in tasks})
    ranks = sorted({w[0] for w in workers})
    row = {w: i for i, w in enumerate(workers)}

    def label(w):
        return "rank %d, worker %d" % w if len(ranks) > 1 else "worker %d" % w[1]
    span = t1 - t0
    print("plot_trace: %d tasks on %d workers over %.3f ms; %d blocks in the sweeps" % (len(tasks), len(workers),
                                                                                          span, len(blocks)))
    for w in workers:
        mine = sorted((t for t in tasks if t["worker"] == w), key=lambda t: t["start"])
        busy = sum(min(t["end"], t1) - max(t["start"], t0) for t in mine)
        switches, last = 0, None
        for t in mine:
            if t["stage"] != "sweep":
                continue
            b = blocks.get((w[0], t.get("Handles", "").split(" ")[0]))
            if last is not None and b != last:
                switches += 1
            last = b
        print("%s: %d tasks, busy %.3f ms, idle %.1f %%, sweep block switches %d" %
              (label(w), len(mine), busy, 100 * (1 - busy / span) if span > 0 else 0, switches))
    counts = {}
    for t in tasks:
        counts[t["stage"]] = counts.get(t["stage"], 0) + 1
    print("tasks per stage: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    if not a.out:
        return
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(14, 1.2 + 0.6 * len(workers)))
    for t in tasks:
        x, wdt = t["start"] - t0, t["end"] - t["start"]
        if t["stage"] == "sweep":
            b = blocks.get((t["worker"][0], t.get("Handles", "").split(" ")[0]), 0)
            colour = BLOCK_COLOURS[b % len(BLOCK_COLOURS)]
        else:
            colour = STAGE_COLOURS[t["stage"]]
        y = row[t["worker"]]
        ax.broken_barh([(x, wdt)], (y - 0.4, 0.8), facecolors=colour, edgecolors="black", linewidth=0.2)
        if t["stage"] == "sweep" and wdt > span / 150:
            ax.text(x + wdt / 2, y, t["Name"].replace("sweep_color", "c"), ha="center", va="center",
                    fontsize=6)
    handles = [plt.Rectangle((0, 0), 1, 1, color=BLOCK_COLOURS[b % len(BLOCK_COLOURS)]) for b in range(len(blocks))]
    labels = ["sweep, block %d" % b for b in range(len(blocks))]
    for s in sorted(counts):
        if s != "sweep":
            handles.append(plt.Rectangle((0, 0), 1, 1, color=STAGE_COLOURS[s]))
            labels.append(s)
    ax.legend(handles, labels, fontsize=7, ncol=min(len(labels), 8), loc="upper center",
              bbox_to_anchor=(0.5, -0.5 if len(workers) < 4 else -0.2))
    ax.set_yticks(range(len(workers)))
    ax.set_yticklabels([label(w) for w in workers])
    ax.set_xlabel("ms")
    ax.set_xlim(0, span)
    ax.set_title(a.title or "fvstar tasks per worker (%s)" % os.path.basename(os.path.abspath(a.trace)))
    fig.tight_layout()
    fig.savefig(a.out, dpi=130)
    print("plot_trace: wrote %s" % a.out)


if __name__ == "__main__":
    main()
