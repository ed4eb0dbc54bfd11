#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Pictures and numbers of a traced fvstar run, from the files
starpu_fxt_tool writes into the trace directory (`fvstar run ...
output.trace=DIR`; `fvstar trace DIR` runs this script): tasks.rec (tasks,
workers, times, flops, iteration marks), dag.dot (dependencies) and
paje.trace (worker names, data transfers).

The Gantt chart (-o): one row per worker, each task a bar from its start to
its end coloured by stage; halo tasks (pack, unpack, fetch) in warm colours
of their own, the border part of a split stage hatched and its interior
part plain; the tasks of an implicit sweep (`sweep_color<k>`) are coloured
by block instead and labelled with their colour group, so that the picture
shows whether the groups of several blocks interleave (blocks are told
apart by the geometry handle, the first buffer of a sweep task). Two rows
on top mark the iterations and their steps (RK stages; implicit: the
residual, each sweep, the update) from the first start to the last end of
their tasks (the iteration marks fvstar gives its tasks: tasks.rec
"Iteration: N S"); data transfers between memory nodes (paje.trace links:
fetch, prefetch, idle fetch, MPI messages) are bars on a row per
destination node, and on the row of a worker alone on that node (a GPU) as
a strip under its tasks. Overlap shows as: a line along the top of the
rows from the end of each pack to the start of the task that receives its
halo (what runs under the line runs while the halo travels), and a red
cross-hatched band over the time a worker waited on a halo (halo_waits).

The statistics (--stats): idle share per worker, time per stage, and per
iteration its critical path (the longest chain of task durations through
the dependencies of dag.dot among the iteration's tasks) and the time a
worker waited on halos, against its makespan (first start to last end) and
against its work spread over the workers.

Printed: per worker the tasks, busy time and idle share of the window, and
for the sweeps how many times a worker went from one block's group to
another block's group ("block switches": 0 means the blocks ran one after
the other); the task count per stage; per iteration the makespan, critical
path, work and the halo wait (the mean over the workers of the time each
waited on halos in the iteration, its share of the makespan, with CPU
workers beside GPUs the GPUs' mean, and the worker that waited most;
halo_waits defines it), and the halo wait over all the
traced iterations (share of the traced window: iterations may overlap).
--json FILE writes the same numbers: per worker, per iteration and the
total.

StarPU's own tasks (data acquisitions, synchronisation, unregistration) and
tasks done before the recording started (end at 0) are left out.

Usage: plot_trace.py TRACE_DIR [-o GANTT.png] [--stats STATS.png] [--json FILE]
                     [--iterations K | --last-ms T] [--title TEXT]
  --iterations K: the Gantt chart shows the last K iterations;
  --last-ms T: the last T milliseconds.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_common as pc  # noqa: E402


def read_rec(path):
    """Records of a .rec file (blank-line separated "Key: value" lines)."""
    recs, rec = [], {}
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if rec:
                    recs.append(rec)
                rec = {}
                continue
            key, _, value = line.partition(": ")
            rec[key] = value
    if rec:
        recs.append(rec)
    return recs


# several ranks (the merged files of a StarPU-MPI run): worker keys are
# rank * RANK_STRIDE + WorkerId, one row per rank and worker
RANK_STRIDE = 10000


def worker_label(w, names, multi):
    if multi:
        return "rank %d, worker %d" % (w // RANK_STRIDE, w % RANK_STRIDE)
    return "%s" % names.get(w, "worker %d" % w)


def read_tasks(path):
    """fvstar's tasks that ran after the recording started."""
    tasks = []
    for t in read_rec(path):
        if not all(k in t for k in ("StartTime", "EndTime", "WorkerId", "Name")):
            continue
        if t["Name"].startswith("_starpu") or t["Name"].startswith("starpu_"):
            continue
        t["start"], t["end"] = float(t["StartTime"]), float(t["EndTime"])
        if t["end"] <= 0:
            continue
        # StarPU's FxT tool writes MPIRank: -1 for a process that is not
        # one of StarPU-MPI's ranks (a run without mpirun)
        t["rank"] = max(0, int(t.get("MPIRank", 0) or 0))
        t["worker"] = t["rank"] * RANK_STRIDE + int(t["WorkerId"])
        t["stage"] = stage_of(t["Name"])
        t["gflop"] = float(t.get("GFlop", 0) or 0)
        it = t.get("Iteration", "").split()
        t["iter"] = int(it[0]) if it else None
        t["sub"] = int(it[1]) if len(it) > 1 else None
        tasks.append(t)
    return tasks


def stage_of(name):
    # a chain: its first task that is not a halo's
    work = [m for m in name.split("+") if m.split("_")[0] not in HALO_TASKS]
    name = work[0] if work else name.split("+")[0]
    for prefix, stage in (("sweep", "sweep"), ("diagonal", "diagonal"), ("implicit_update", "update"),
                          ("flux", "flux"), ("gradient", "gradient"), ("limiter", "limiter"),
                          ("nodes", "nodes"), ("pack", "halo"), ("unpack", "halo"), ("fetch", "halo"), ("prim", "prim"),
                          ("timestep", "timestep"), ("clock", "timestep"), ("norms", "norms"),
                          ("update", "update"), ("copy", "copy")):
        if name.startswith(prefix):
            return stage
    return "other"


def read_paje(path):
    """Worker names {id: name}, memory node names {alias: name}, and the
    data transfers [(start, end, type, src alias, dst alias, bytes)]."""
    workers, nodes, starts, transfers = {}, {}, {}, []
    if not os.path.exists(path):
        return workers, nodes, transfers
    # StarPU's data transfers between memory nodes, and StarPU-MPI's
    # messages between ranks (several ranks: the merged trace)
    link_types = {"F": "fetch", "PF": "prefetch", "IF": "idle fetch", "MPIL": "MPI message"}
    with open(path, errors="replace") as f:
        for line in f:
            if not line or line[0] == "%":
                continue
            p = line.split()
            if len(p) >= 6 and p[0] == "7":  # PajeCreateContainer: time alias type parent name
                if p[3] == "W" and p[2].startswith("w") and p[2][1:].isdigit():
                    workers[int(p[2][1:])] = p[5].strip('"')
                elif p[3] == "Mm":
                    nodes[p[2]] = p[5].strip('"').replace("MEMMANAGER", "memory node ")
                elif p[3] == "MPICt" and p[2].split("_")[0].isdigit():
                    nodes[p[2]] = "rank %s (MPI)" % p[2].split("_")[0]
            elif len(p) >= 7 and p[0] in ("18", "23") and p[2] in link_types:
                starts[p[6]] = (float(p[1]), p[2], p[5], p[4])
            elif len(p) >= 7 and p[0] in ("19", "24") and p[2] in link_types and p[6] in starts:
                t0, kind, src, size = starts.pop(p[6])
                try:
                    nbytes = float(size)
                except ValueError:
                    nbytes = 0
                transfers.append((t0, float(p[1]), link_types[kind], src, p[5], nbytes))
    return workers, nodes, transfers


def read_worker_nodes(path):
    """{worker id: memory manager alias} of a one-rank paje.trace (a worker
    container's parent is its thread, the thread's its memory node, where
    the memory manager that receives the transfers lives)."""
    parent, manager, out = {}, {}, {}
    if not os.path.exists(path):
        return out
    with open(path, errors="replace") as f:
        for line in f:
            p = line.split()
            if len(p) >= 6 and p[0] == "7":
                parent[p[2]] = p[4]
                if p[3] == "Mm":
                    manager[p[4]] = p[2]
                elif p[3] == "W" and p[2].startswith("w") and p[2][1:].isdigit():
                    out[int(p[2][1:])] = p[4]
    return {w: manager[parent[t]] for w, t in out.items() if parent.get(t) in manager}


def read_edges(trace_dir):
    """Dependencies (job id before, job id after): dag.dot's edges, else
    tasks.rec's DependsOn."""
    edges = []
    path = os.path.join(trace_dir, "dag.dot")
    if os.path.exists(path):
        pat = re.compile(r'"task_(\w+)"\s*->\s*"task_(\w+)"')
        with open(path, errors="replace") as f:
            for line in f:
                m = pat.search(line)
                if m:
                    edges.append((m.group(1), m.group(2)))
    else:
        # all records: StarPU's internal tasks pass dependencies on
        for t in read_rec(os.path.join(trace_dir, "tasks.rec")):
            for d in t.get("DependsOn", "").split():
                if "JobId" in t:
                    edges.append((d, t["JobId"]))
    return edges


def critical_paths(tasks, edges):
    """{iteration: (makespan, critical path, work)} in ms. The critical
    path runs through the iteration's own tasks; StarPU's internal tasks
    between them (synchronisation of halo buffers) pass dependencies on at
    no cost."""
    by_job = {t["JobId"]: t for t in tasks}
    succ = {}
    for a, b in edges:
        succ.setdefault(a, []).append(b)
    by_iter = {}
    for t in tasks:
        if t["iter"] is not None:
            by_iter.setdefault(t["iter"], []).append(t)
    out = {}
    for it in sorted(by_iter):
        mine = by_iter[it]
        ids = {t["JobId"] for t in mine}
        # successors among the iteration's tasks, through tasks not in the
        # trace (StarPU's internal ones) at no cost
        def next_of(j, seen):
            for s in succ.get(j, ()):
                if s in ids:
                    yield s
                elif s not in by_job and s not in seen:
                    seen.add(s)
                    yield from next_of(s, seen)
        order = sorted(mine, key=lambda t: int(t.get("SubmitOrder", 0) or 0))
        longest = {t["JobId"]: t["end"] - t["start"] for t in order}
        # submission order is a topological order of the task graph
        for t in order:
            for s in next_of(t["JobId"], set()):
                d = by_job[s]["end"] - by_job[s]["start"]
                if longest[t["JobId"]] + d > longest[s]:
                    longest[s] = longest[t["JobId"]] + d
        span = max(t["end"] for t in mine) - min(t["start"] for t in mine)
        work = sum(t["end"] - t["start"] for t in mine)
        out[it] = (span, max(longest.values()), work)
    return out


# halo tasks: pack (sender side), unpack and fetch (receiver side: they wait
# for the halo to arrive, fetch moving the buffers to the worker's memory);
# a task chain (numerics.chain: its tasks' names joined by "+") is a sender
# when it ends with a pack and a receiver when it starts with an unpack
HALO_TASKS = ("pack", "unpack", "fetch")
HALO_RECEIVE = ("unpack", "fetch")


def halo_task(t, kinds=HALO_TASKS):
    m = t["Name"].split("+")
    if len(m) == 1:
        return m[0].split("_")[0] in kinds
    return ("unpack" in kinds and m[0] == "unpack") or ("pack" in kinds and m[-1] == "pack")


def halo_kind(t):
    """"pack", "unpack" or "fetch" for a halo task alone, None otherwise
    (a chain keeps its stage's colour)."""
    k = t["Name"].split("_")[0]
    return k if "+" not in t["Name"] and k in HALO_TASKS else None


def part_of(t):
    """"interior", "border" or None: the half of a split stencil stage."""
    for part in ("interior", "border"):
        if t["Name"].endswith("_" + part):
            return part
    return None


class Deps:
    """The tasks of the trace a task waits for: its StarPU dependencies,
    followed through StarPU's internal tasks (not in the trace)."""

    def __init__(self, tasks, edges):
        self.by_job = {t["JobId"]: t for t in tasks}
        self.pred = {}
        for a, b in edges:
            self.pred.setdefault(b, []).append(a)

    def of(self, job):
        out, stack, seen = [], list(self.pred.get(job, ())), set()
        while stack:
            d = stack.pop()
            if d in seen:
                continue
            seen.add(d)
            t = self.by_job.get(d)
            if t is None:
                stack.extend(self.pred.get(d, ()))
            else:
                out.append(t)
        return out


def handles(t, read_only=False):
    """The handles of task t, as (rank, handle): those it reads only, or all."""
    return {(t["rank"], h) for h, m in zip(t.get("Handles", "").split(), t.get("Modes", "").split())
            if not read_only or "W" not in m}


def halo_buffers(tasks):
    """The halo buffers: handles that senders (packs) only write (W) and
    receivers (unpacks, fetches) only read, and no other task touches
    (geometry and fields are read or written by the computing tasks, or by
    the chains that hold a halo task as well); one side may be missing (a
    halo to or from another rank)."""
    ok, bad = {}, set()
    for t in tasks:
        send, recv = halo_task(t, ("pack",)), halo_task(t, HALO_RECEIVE)
        for h, m in zip(t.get("Handles", "").split(), t.get("Modes", "").split()):
            key = (t["rank"], h)
            if send and m == "W":
                ok.setdefault(key, set()).add("W")
            elif recv and m == "R":
                ok.setdefault(key, set()).add("R")
            else:
                bad.add(key)
    return {h for h in ok if h not in bad}


def halo_sources(t, deps, bufs):
    """(packs, remote) of receive task t: packs, those of its dependencies
    that write a halo buffer t reads; remote, whether one of those buffers
    is written by none of them (its halo came from another rank, where
    StarPU-MPI registers the buffer apart)."""
    mine = handles(t, read_only=True) & bufs
    packs = [p for p in deps if halo_task(p, ("pack",)) and handles(p) & mine]
    return packs, any(not any(h in handles(p) for p in packs) for h in mine)


def halo_flights(tasks, edges):
    """(pack, unpack or fetch) pairs: a halo from its packing to the task
    that receives it (through StarPU's internal tasks between them); on one
    memory node the halo "travels" while the receiver waits for it."""
    deps, bufs = Deps(tasks, edges), halo_buffers(tasks)
    return [(p, t) for t in tasks if halo_task(t, HALO_RECEIVE)
            for p in halo_sources(t, deps.of(t["JobId"]), bufs)[0]]


def buffer_sizes(t, bufs):
    """The byte sizes of the halo buffers task t reads (tasks.rec Sizes)."""
    return {float(n) for h, m, n in zip(t.get("Handles", "").split(), t.get("Modes", "").split(),
                                        t.get("Sizes", "").split())
            if "W" not in m and (t["rank"], h) in bufs}


def halo_waits(tasks, edges, transfers=(), worker_nodes=None):
    """Time the workers waited on halos: ({iteration: {worker: ms}},
    [(worker, wait start, wait end)]). transfers: read_paje's;
    worker_nodes: {worker: memory manager} (read_worker_nodes).

    A worker's idle gap is the time between the end of a task of it (or
    the start of the iteration, whichever is later: a gap counts for the
    iteration of the task that ends it, and only from that iteration's
    first task start on, so that it never exceeds the iteration's makespan)
    and the start of its next task T. T's releaser is the last of its StarPU
    dependencies (dag.dot, tasks.rec DependsOn; followed through StarPU's
    internal tasks, which are not in the trace) to end, when that one ended
    within the gap; otherwise T was ready when the gap began, or released
    by what the trace does not hold as a task. A halo that T receives
    (unpack, fetch) arrives within the gap when a data transfer into the
    memory node of T's worker (paje.trace), from the memory node where the
    halo's pack ran, of the size of one of T's halo buffers (tasks.rec
    Sizes) ends within the gap: the copy of a halo to another GPU or to
    the host. The gap is a halo wait when
    - T receives halos, and a halo arrived within the gap after its
      releaser ended, or its releaser is the pack of one of its halos
      (halo_sources: the halo was in flight), or it has no releaser, no
      halo arrived within the gap and the pack of one of its halos is not
      in the trace (that one came from another rank: StarPU-MPI's receive
      held T back), or
    - T's releaser receives a halo: a border task, or a task of a stage
      that is not split, started when its halo arrived.
    The wait is the gap up to the release (the end of the releaser or of
    the halo's transfer, whichever came last; with neither, the whole
    gap): what follows the release is the latency of the scheduler and the
    worker, not the halo's. A gap before an interior task or a pack, or
    before a border task released by its interior part, does not count:
    the worker waited for computation, not for a halo."""
    deps, bufs = Deps(tasks, edges), halo_buffers(tasks)
    worker_nodes = worker_nodes or {}
    into = {}
    for s, e, _kind, src, dst, nbytes in transfers:
        into.setdefault(dst, []).append((e, nbytes, src))
    begin = {}
    for t in tasks:
        if t["iter"] is not None:
            begin[t["iter"]] = min(begin.get(t["iter"], t["start"]), t["start"])
    waits, gaps, last = {}, [], {}
    for t in sorted(tasks, key=lambda t: (t["worker"], t["start"])):
        w = t["worker"]
        prev = last.get(w)
        last[w] = t["end"] if prev is None else max(prev, t["end"])
        if t["iter"] is None:
            continue
        g0 = begin[t["iter"]] if prev is None else max(prev, begin[t["iter"]])
        g1 = t["start"]
        if g1 <= g0:
            continue
        mine = deps.of(t["JobId"])
        dep = max(mine, key=lambda u: u["end"], default=None)
        releaser = dep if dep is not None and dep["end"] > g0 else None
        release = releaser["end"] if releaser is not None else None
        if not halo_task(t, HALO_RECEIVE):
            wait = releaser is not None and halo_task(releaser, HALO_RECEIVE)
        else:
            packs, remote = halo_sources(t, mine, bufs)
            sizes = buffer_sizes(t, bufs)
            # from where its packs ran (anywhere: packs not in the trace)
            srcs = {worker_nodes.get(p["worker"]) for p in packs}
            arrived = max((e for e, n, src in into.get(worker_nodes.get(w), ())
                           if g0 < e <= g1 and n in sizes and (not packs or src in srcs)), default=None)
            if arrived is not None and (release is None or arrived >= release):
                wait, release = True, arrived
            elif releaser is not None:
                wait = any(p is releaser for p in packs)
            else:
                wait = remote
        if wait:
            g1 = min(g1, release) if release is not None else g1
            per = waits.setdefault(t["iter"], {})
            per[w] = per.get(w, 0.0) + g1 - g0
            gaps.append((w, g0, g1))
    return waits, gaps


STAGE_COLOURS = {"flux": "#4c72b0", "gradient": "#55a868", "limiter": "#c44e52", "nodes": "#8172b2",
                 "halo": "#e6550d", "prim": "#937860", "timestep": "#da8bc3", "norms": "#8c8c8c",
                 "update": "#ccb974", "diagonal": "#64b5cd", "sweep": "#e41a1c", "copy": "#eeeeee",
                 "other": "#dddddd"}
BLOCK_COLOURS = ["#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00", "#a65628", "#f781bf", "#999999"]
# halo tasks stand out from the computing stages (whose colours are
# muted): warm and saturated, the receiving side darker
HALO_COLOURS = {"pack": "#fd8d3c", "unpack": "#d94801", "fetch": "#fdd0a2"}
WAIT_COLOUR = "#e31a1c"
FLIGHT_COLOUR = "#a63603"
TRANSFER_COLOURS = {"fetch": "#d62728", "prefetch": "#2ca02c", "idle fetch": "#9467bd", "MPI message": "#17becf"}


def step_name(sub, implicit, sweeps):
    if not implicit:
        return "rk%d" % sub
    if sub == 0:
        return "res"
    if sub == 1 + 2 * sweeps:
        return "upd"
    return "s%d%s" % ((sub - 1) // 2, "f" if (sub - 1) % 2 == 0 else "b")


def gantt(a, tasks, workers, names, nodes, transfers, blocks, t0, t1, counts, halo, worker_nodes):
    """halo: (the halo wait gaps [(worker, start, end)], the halo flights
    [(pack, receiving task)]); worker_nodes: {worker: memory manager}."""
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection
    span = t1 - t0
    # rows: iterations, steps, one per worker, one per memory node receiving data
    dst_nodes = sorted({tr[4] for tr in transfers if tr[1] >= t0 and tr[0] <= t1})
    multi = any(w >= RANK_STRIDE for w in workers)
    rows = ["iterations", "steps"] + [worker_label(w, names, multi) for w in workers] + \
           ["to %s" % nodes.get(n, n) for n in dst_nodes]
    y_of_worker = {w: 2 + i for i, w in enumerate(workers)}
    y_of_node = {n: 2 + len(workers) + i for i, n in enumerate(dst_nodes)}
    # a worker alone on its memory node (a GPU) shows the transfers into
    # that memory in a strip at the bottom of its row, under its tasks
    per_node = {}
    for w in workers:
        if w in worker_nodes:
            per_node.setdefault(worker_nodes[w], []).append(w)
    strip = {w: n for n, ws in per_node.items() if len(ws) == 1 and n in y_of_node for w in ws}
    fig, ax = plt.subplots(figsize=(14, 1.6 + 0.45 * len(rows)))
    for t in tasks:
        x, wdt = t["start"], t["end"] - t["start"]
        if t["stage"] == "sweep" and blocks:
            b = blocks.get(t.get("Handles", "").split(" ")[0], 0)
            colour = BLOCK_COLOURS[b % len(BLOCK_COLOURS)]
        elif halo_kind(t):
            colour = HALO_COLOURS[halo_kind(t)]
        else:
            colour = STAGE_COLOURS[t["stage"]]
        y = y_of_worker[t["worker"]]
        h = 0.68 if t["worker"] in strip else 0.8
        # border tasks hatched, interior tasks plain: the interior work
        # that runs while the halos travel shows at a glance
        ax.broken_barh([(x, wdt)], (y - 0.4, h), facecolors=colour, edgecolors="black", linewidth=0.2,
                       hatch="////" if part_of(t) == "border" else None)
        if t["stage"] == "sweep" and wdt > span / 150:
            ax.text(x + wdt / 2, y, t["Name"].replace("sweep_color", "c"), ha="center", va="center", fontsize=6)
    # idle time waiting on a halo (halo_waits): a red cross-hatched band
    # over the gap (no fill: no task colour is mistaken for it)
    waits, flights = halo
    for w, s, e in waits:
        if w in y_of_worker and e >= t0:
            ax.broken_barh([(s, e - s)], (y_of_worker[w] - 0.2, 0.4), facecolors="none", edgecolors=WAIT_COLOUR,
                           hatch="xxxx", linewidth=0.6)
    # each halo from the end of its pack to the start of the task that
    # receives it, along the top of the rows: what ran under the line ran
    # while the halo was in flight
    segs = [((p["end"], y_of_worker[p["worker"]] - 0.42), (r["start"], y_of_worker[r["worker"]] - 0.42))
            for p, r in flights if r["start"] >= t0 and p["worker"] in y_of_worker and r["worker"] in y_of_worker]
    if segs:
        ax.add_collection(LineCollection(segs, colors=FLIGHT_COLOUR, linewidths=0.8, alpha=0.7))
        ax.plot([q[1][0] for q in segs], [q[1][1] for q in segs], linestyle="none", marker="v", markersize=2.5,
                color=FLIGHT_COLOUR, alpha=0.8)
    # iterations and their steps: from the first start to the last end of their tasks
    implicit = any(t["stage"] == "sweep" for t in tasks)
    subs = [t["sub"] for t in tasks if t["sub"] is not None]
    sweeps = (max(subs) - 1) // 2 if implicit and subs else 0
    spans = {}
    for t in tasks:
        if t["iter"] is None:
            continue
        for key in ((t["iter"],), (t["iter"], t["sub"])):
            s, e = spans.get(key, (t["start"], t["end"]))
            spans[key] = (min(s, t["start"]), max(e, t["end"]))
    # consecutive iterations (and steps) alternate between the two halves
    # of their row, so that the overlap of pipelined iterations shows
    n_step = {}
    for key, (s, e) in sorted(spans.items()):
        y = 0 if len(key) == 1 else 1
        k = key[0] if y == 0 else n_step.setdefault(key, len(n_step))
        shade = ["#4c72b0", "#9ecae1"] if y == 0 else ["#fdae6b", "#fdd0a2"]
        yc = y - 0.2 if k % 2 == 0 else y + 0.2
        ax.broken_barh([(s, e - s)], (yc - 0.19, 0.38), facecolors=shade[k % 2], edgecolors="black",
                       linewidth=0.3)
        label = "it %d" % key[0] if y == 0 else step_name(key[1], implicit, sweeps)
        if e - s > span / 60:
            ax.text((max(s, t0) + min(e, t1)) / 2, yc, label, ha="center", va="center", fontsize=6)
        if y == 0:
            ax.axvline(s, color="#4c72b0", linewidth=0.6, linestyle=":", zorder=0)
    for tr in transfers:
        s, e, kind, _src, dst, _n = tr
        if dst in y_of_node and e >= t0 and s <= t1:
            wdt = max(e - s, span / 2000)
            ax.broken_barh([(s, wdt)], (y_of_node[dst] - 0.3, 0.6), facecolors=TRANSFER_COLOURS[kind],
                           edgecolors="none")
            for w in (w for w, n in strip.items() if n == dst):
                ax.broken_barh([(s, wdt)], (y_of_worker[w] + 0.3, 0.12), facecolors=TRANSFER_COLOURS[kind],
                               edgecolors="none")
    handles = [plt.Rectangle((0, 0), 1, 1, color=BLOCK_COLOURS[b % len(BLOCK_COLOURS)]) for b in range(len(blocks))]
    labels = ["sweep, block %d" % b for b in range(len(blocks))]
    for s in sorted(counts):
        if s != "halo" and (s != "sweep" or not blocks):
            handles.append(plt.Rectangle((0, 0), 1, 1, color=STAGE_COLOURS[s]))
            labels.append(s)
    for kind in HALO_TASKS:
        if any(halo_kind(t) == kind for t in tasks):
            handles.append(plt.Rectangle((0, 0), 1, 1, color=HALO_COLOURS[kind]))
            labels.append("halo: " + kind)
    if any(part_of(t) for t in tasks):
        handles += [plt.Rectangle((0, 0), 1, 1, facecolor="white", edgecolor="black", linewidth=0.5),
                    plt.Rectangle((0, 0), 1, 1, facecolor="white", edgecolor="black", linewidth=0.5, hatch="////")]
        labels += ["interior part (plain)", "border part (hatched)"]
    if waits:
        handles.append(plt.Rectangle((0, 0), 1, 1, facecolor="none", edgecolor=WAIT_COLOUR, hatch="xxxx",
                                     linewidth=0.6))
        labels.append("idle: waiting on a halo")
    if segs:
        handles.append(plt.Line2D([0], [0], color=FLIGHT_COLOUR, linewidth=0.8, marker="v", markersize=3))
        labels.append("halo in flight: pack end to receive")
    for kind in sorted({tr[2] for tr in transfers}):
        handles.append(plt.Rectangle((0, 0), 1, 1, color=TRANSFER_COLOURS[kind]))
        labels.append("transfer: " + kind)
    ax.legend(handles, labels, fontsize=7, ncol=min(len(labels), 7), loc="upper center",
              bbox_to_anchor=(0.5, -0.12 if len(rows) > 6 else -0.3))
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("ms from the recording start")
    ax.set_xlim(t0, t1)
    ax.set_title(a.title or "fvstar tasks per worker (%s)" % os.path.basename(os.path.abspath(a.trace)))
    fig.tight_layout()
    fig.savefig(a.out, dpi=130)
    plt.close(fig)
    print("plot_trace: wrote %s" % a.out)


def stats(a, tasks, workers, names, busy, window, cps, waits):
    import matplotlib.pyplot as plt
    fig, axs = plt.subplots(1, 3, figsize=(15, 4.2))
    labels = [worker_label(w, names, any(w >= RANK_STRIDE for w in workers)) for w in workers]
    idle = [100 * (1 - busy[w] / window) if window > 0 else 0 for w in workers]
    axs[0].barh(range(len(workers)), idle, color="#c44e52")
    axs[0].set_yticks(range(len(workers)))
    axs[0].set_yticklabels(labels, fontsize=8)
    axs[0].invert_yaxis()
    axs[0].set_xlim(0, 100)
    axs[0].set_xlabel("idle %% of the traced window (%.2f ms)" % window)
    axs[0].set_title("idle share per worker")
    per_stage = {}
    for t in tasks:
        per_stage[t["stage"]] = per_stage.get(t["stage"], 0) + t["end"] - t["start"]
    stages = sorted(per_stage, key=lambda s: -per_stage[s])
    n_it = len({t["iter"] for t in tasks if t["iter"] is not None}) or 1
    axs[1].bar(range(len(stages)), [per_stage[s] / n_it for s in stages],
               color=[STAGE_COLOURS[s] for s in stages])
    axs[1].set_xticks(range(len(stages)))
    axs[1].set_xticklabels(stages, rotation=45, ha="right", fontsize=8)
    axs[1].set_ylabel("task time per iteration (ms, all workers)")
    axs[1].set_title("time per stage (%d iterations)" % n_it)
    its = sorted(cps)
    if its:
        x = list(range(len(its)))
        w = 0.2
        axs[2].bar([i - 1.5 * w for i in x], [cps[i][0] for i in its], w, label="makespan", color="#4c72b0")
        axs[2].bar([i - 0.5 * w for i in x], [cps[i][1] for i in its], w, label="critical path", color="#c44e52")
        axs[2].bar([i + 0.5 * w for i in x], [cps[i][2] / max(len(workers), 1) for i in its], w,
                   label="work / %d workers" % len(workers), color="#55a868")
        axs[2].bar([i + 1.5 * w for i in x], [sum(waits.get(i, {}).values()) / max(len(workers), 1) for i in its],
                   w, label="halo wait per worker", color=HALO_COLOURS["unpack"])
        step = max(1, len(its) // 12)
        axs[2].set_xticks(x[::step])
        axs[2].set_xticklabels([str(i) for i in its][::step], fontsize=8)
        axs[2].set_xlabel("iteration")
        axs[2].set_ylabel("ms")
        axs[2].legend(fontsize=7)
    axs[2].set_title("critical path and halo wait against makespan")
    fig.suptitle(a.title or "fvstar trace statistics (%s)" % os.path.basename(os.path.abspath(a.trace)))
    fig.tight_layout()
    fig.savefig(a.stats, dpi=110)
    plt.close(fig)
    print("plot_trace: wrote %s" % a.stats)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace")
    ap.add_argument("-o", "--out", default=None)
    ap.add_argument("--stats", default=None)
    ap.add_argument("--iterations", type=int, default=0)
    ap.add_argument("--last-ms", type=float, default=0)
    ap.add_argument("--title", default=None)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    if a.out or a.stats:
        pc.require_matplotlib("plot_trace.py")  # may run the script again with Debian's Python
    path = os.path.join(a.trace, "tasks.rec")
    if not os.path.exists(path):
        sys.exit("plot_trace: %s: no tasks.rec (run fvstar with output.trace=DIR)" % a.trace)
    tasks = read_tasks(path)
    if not tasks:
        sys.exit("plot_trace: %s holds no task with a start and an end" % path)
    names, nodes, transfers = read_paje(os.path.join(a.trace, "paje.trace"))
    t1 = max(t["end"] for t in tasks)
    t0 = min(t["start"] for t in tasks)
    window = t1 - t0
    # blocks: the geometry handle of the sweep tasks, in submission order
    blocks = {}
    for t in sorted((t for t in tasks if t["stage"] == "sweep"), key=lambda t: int(t.get("SubmitOrder", 0))):
        geo = (t["rank"], t.get("Handles", "").split(" ")[0])
        blocks.setdefault(geo, len(blocks))
    # every worker of paje.trace, those that ran no task too
    # every worker of paje.trace, those that ran no task too (one rank)
    multi = any(t["rank"] > 0 for t in tasks)
    workers = sorted({t["worker"] for t in tasks} | (set() if multi else set(names)))
    print("plot_trace: %d tasks on %d workers over %.3f ms; %d blocks in the sweeps" % (len(tasks), len(workers),
                                                                                          window, len(blocks)))
    busy = {}
    for w in workers:
        mine = sorted((t for t in tasks if t["worker"] == w), key=lambda t: t["start"])
        busy[w] = sum(t["end"] - t["start"] for t in mine)
        gflop = sum(t["gflop"] for t in mine)
        switches, last = 0, None
        for t in mine:
            if t["stage"] != "sweep":
                continue
            b = blocks.get((t["rank"], t.get("Handles", "").split(" ")[0]))
            if last is not None and b != last:
                switches += 1
            last = b
        lab = worker_label(w, names, True) if multi else "worker %d (%s)" % (w, names.get(w, "?"))
        print("%s: %d tasks, busy %.3f ms, idle %.1f %%, %.3f GFlop/s, sweep block switches %d" %
              (lab, len(mine), busy[w], 100 * (1 - busy[w] / window) if window > 0 else 0,
               gflop / (busy[w] * 1e-3) if busy[w] > 0 else 0, switches))
    counts = {}
    for t in tasks:
        counts[t["stage"]] = counts.get(t["stage"], 0) + 1
    print("tasks per stage: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    # each task name's time (a chain is one name): where a worker's busy
    # time goes, to set one run's kernels against another's
    per_name = {}
    for t in tasks:
        n, ms = per_name.get(t["Name"], (0, 0.0))
        per_name[t["Name"]] = (n + 1, ms + t["end"] - t["start"])
    n_it = len({t["iter"] for t in tasks if t["iter"] is not None}) or 1
    print("busy per task name (all workers, ms per traced iteration over %d): " % n_it +
          ", ".join("%s %d x %.3f" % (k, v[0], v[1] / n_it)
                    for k, v in sorted(per_name.items(), key=lambda kv: -kv[1][1])))
    if transfers:
        print("transfers: %d, %.3f MB" % (len(transfers), sum(tr[5] for tr in transfers) / 1e6))
    edges = read_edges(a.trace)
    cps = critical_paths(tasks, edges)
    worker_nodes = {} if multi else read_worker_nodes(os.path.join(a.trace, "paje.trace"))
    waits, wait_gaps = halo_waits(tasks, edges, transfers, worker_nodes)
    n_w = max(len(workers), 1)

    def multi_label(w):
        return worker_label(w, names, multi)

    # beside CPU workers, the GPUs' own mean: the devices' wait
    gpus = [w for w in workers if names.get(w, "").startswith("CUDA")]
    mixed = 0 < len(gpus) < len(workers)
    rows = []
    for it in sorted(cps):
        span, cp, work = cps[it]
        per = waits.get(it, {})
        mean = sum(per.values()) / n_w
        gpu = sum(per.get(w, 0.0) for w in gpus) / len(gpus) if gpus else None
        most = max(per, key=lambda w: (per[w], -w)) if per else None
        rows.append({"iteration": it, "makespan_ms": span, "critical_path_ms": cp, "work_ms": work,
                     "workers": len(workers), "halo_wait_ms_per_worker": mean,
                     "halo_wait_pct_of_makespan": 100 * mean / span if span > 0 else 0,
                     "halo_wait_ms_per_gpu": gpu,
                     "halo_wait_ms_most": per[most] if per else 0.0,
                     "halo_wait_most_worker": multi_label(most) if per else None})
        print("iteration %d: makespan %.3f ms, critical path %.3f ms (%.0f %%), work %.3f ms (%.3f ms on %d workers), "
              "halo wait %.3f ms per worker (%.1f %% of the makespan; %sthe most: %s)"
              % (it, span, cp, 100 * cp / span if span > 0 else 0, work, work / n_w, len(workers), mean,
                 rows[-1]["halo_wait_pct_of_makespan"],
                 "GPUs %.3f ms, %.1f %%; " % (gpu, 100 * gpu / span if span > 0 else 0) if mixed else "",
                 "%s %.3f ms" % (multi_label(most), per[most]) if per else "none"))
    # the total over the traced iterations: per worker, against the traced
    # window (iterations may overlap: their makespans do not add up)
    per_worker = {w: sum(waits.get(it, {}).get(w, 0.0) for it in cps) for w in workers}
    total = sum(per_worker.values()) / n_w
    if cps:
        most = max(workers, key=lambda w: (per_worker[w], -w))
        print("halo wait over the %d traced iterations: %.3f ms per worker (%.1f %% of the %.3f ms window; "
              "the most: %s); halo wait: a worker idle until a halo released its next task (an unpack or "
              "fetch after its pack, copy or MPI message; a task after its unpack)"
              % (len(cps), total, 100 * total / window if window > 0 else 0, window,
                 "%s %.3f ms" % (multi_label(most), per_worker[most]) if per_worker[most] > 0 else "none"))
    if cps and not os.path.exists(os.path.join(a.trace, "paje.trace")):
        print("halo wait: %s has no paje.trace: the copies of halos between memory nodes (GPUs) are not seen, "
              "the waits for them not counted" % a.trace)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"window_ms": window, "workers": [
                {"worker": multi_label(w), "tasks": sum(1 for t in tasks if t["worker"] == w),
                 "busy_ms": busy[w], "halo_wait_ms": per_worker[w]} for w in workers],
                "halo_wait_ms_per_worker": total,
                "halo_wait_pct_of_window": 100 * total / window if window > 0 else 0,
                "iterations": rows}, f, indent=1)
            f.write("\n")
        print("plot_trace: wrote %s" % a.json)
    if a.stats:
        stats(a, tasks, workers, names, busy, window, cps, waits)
    if not a.out:
        return
    # the window of the Gantt chart: the last K iterations, or T ms
    g0 = t0
    if a.iterations > 0:
        its = sorted({t["iter"] for t in tasks if t["iter"] is not None})
        keep = set(its[-a.iterations:])
        if keep:
            g0 = min(t["start"] for t in tasks if t["iter"] in keep)
    elif a.last_ms > 0:
        g0 = max(t0, t1 - a.last_ms)
    shown = [t for t in tasks if t["end"] >= g0]
    halo = ([g for g in wait_gaps if g[2] >= g0], halo_flights(shown, edges))
    gantt(a, shown, workers, names, nodes, transfers, blocks, g0, t1, counts, halo, worker_nodes)


if __name__ == "__main__":
    main()
