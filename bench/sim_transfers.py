#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The data transfers of a traced run against what a simulation's bus
assumes (issue 27: a simulated time far from the measured one, where the
tasks' models hold: the GPU + CPU rows with equal blocks).

  bench/sim_transfers.py TRACE_DIR [--platform DIR] [--iterations N]

TRACE_DIR: a traced run's folder (`fvstar run|sim dry ... output.trace=DIR`:
paje.trace and tasks.rec, as tools/plot_trace.py reads them). For each
direction between memory nodes (node 0 the host, node i + 1 GPU i) it
prints the transfers of the traced window: their count and MB, their
durations (median, 90th percentile: from StarPU's start of the copy to the
driver seeing it done), the time the direction had at least one transfer
under way (its busy time, and its share of the window), the bytes over
that busy time (GB/s), and how many were under way at once on average
(the sum of durations over the busy time). With --platform (a calibrated
folder: bus/HOST.bandwidth, .latency, the numbers the simulation and the
scheduler use) it adds each direction's modelled time per transfer
(latency + size / bandwidth, one at a time, as StarPU's SimGrid mode runs
transfers of one direction) and the measured median over it. Per worker
kind: tasks, busy time and share of the window (tasks.rec); the submitting
thread's pace (the window's tasks over their submission times) and how
soon a task started once submitted (median). --iterations
N: the window's time per iteration is its length over N (the traced
iterations), to set the busy times beside a run's seconds per iteration.
"""
import argparse
import glob
import gzip
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import plot_trace  # noqa: E402  (tools/: the trace readers)


def die(msg):
    print("sim_transfers: " + msg, file=sys.stderr)
    sys.exit(1)


def union_length(spans):
    """Total length of the union of [start, end] spans."""
    total, cur_s, cur_e = 0.0, None, None
    for s, e in sorted(spans):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    if cur_e is not None:
        total += cur_e - cur_s
    return total


def read_matrix(path):
    """StarPU's bus matrix (rows: from node i; columns: to node j)."""
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            rows.append([float(x) for x in line.split()])
    return rows


def node_index(alias, names):
    """Memory node number of a paje alias (mm<N>, "memory node N")."""
    name = names.get(alias, alias)
    for tok in (name.split()[-1], alias[2:] if alias.startswith("mm") else ""):
        if tok.isdigit():
            return int(tok)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace_dir")
    ap.add_argument("--platform", help="a calibrated platform folder (bus/HOST.bandwidth, bus/HOST.latency)")
    ap.add_argument("--iterations", type=int, default=0, help="traced iterations: busy times per iteration")
    a = ap.parse_args()
    d = a.trace_dir
    paje = os.path.join(d, "paje.trace")
    tmp = None
    if not os.path.exists(paje) and os.path.exists(paje + ".gz"):
        tmp = tempfile.mkdtemp()
        with gzip.open(paje + ".gz", "rb") as src, open(os.path.join(tmp, "paje.trace"), "wb") as dst:
            shutil.copyfileobj(src, dst)
        paje = os.path.join(tmp, "paje.trace")
    if not os.path.exists(paje):
        die(f"{d}: no paje.trace (a traced run's folder: output.trace=DIR)")
    names, nodes, transfers = plot_trace.read_paje(paje)
    if tmp:
        shutil.rmtree(tmp)
    tasks_path = os.path.join(d, "tasks.rec")
    if not os.path.exists(tasks_path):
        die(f"{d}: no tasks.rec")
    tasks = plot_trace.read_tasks(tasks_path)
    if not tasks:
        die(f"{tasks_path}: no task of fvstar's")
    t0 = min(t["start"] for t in tasks)
    t1 = max(t["end"] for t in tasks)
    window = t1 - t0  # ms (FxT's clock)
    per = a.iterations if a.iterations > 0 else 0
    print(f"window: {window:.3f} ms, {len(tasks)} tasks"
          + (f", {per} iterations: {window / per:.3f} ms per iteration" if per else ""))

    bw = lat = None
    if a.platform:
        b = glob.glob(os.path.join(a.platform, "bus", "*.bandwidth"))
        if not b:
            die(f"{a.platform}: no bus/*.bandwidth")
        bw = read_matrix(b[0])  # MB/s
        lat = read_matrix(b[0][: -len(".bandwidth")] + ".latency")  # us

    # the transfers inside the window (the ones before the recording
    # started carry time 0)
    inside = [x for x in transfers if x[1] > x[0] >= t0 and x[0] <= t1]
    by_dir = {}
    for s, e, kind, src, dst, nbytes in inside:
        by_dir.setdefault((src, dst), []).append((s, e, kind, nbytes))
    print("%-14s %6s %9s %9s %9s %9s %9s %7s %8s %5s %11s %7s" % (
        "direction", "count", "MB", "med us", "p90 us", "MB/trf", "busy ms", "busy %", "GB/s", "conc",
        "model us", "med/mod"))
    for (src, dst), xs in sorted(by_dir.items()):
        durs = sorted((e - s) * 1e3 for s, e, _, _ in xs)  # us
        nbytes = sum(x[3] for x in xs)
        busy = union_length([(s, e) for s, e, _, _ in xs])  # ms
        med = statistics.median(durs)
        p90 = durs[min(len(durs) - 1, int(0.9 * len(durs)))]
        per_t = nbytes / len(xs)
        model = ratio = "-"
        i, j = node_index(src, nodes), node_index(dst, nodes)
        if bw and i is not None and j is not None and i < len(bw) and j < len(bw[i]) and bw[i][j] > 0:
            m = lat[i][j] + per_t / bw[i][j]  # us: bytes / (MB/s) = us
            model, ratio = "%.1f" % m, "%.2f" % (med / m)
        label = "%s->%s" % (nodes.get(src, src).replace("memory node ", "n"), nodes.get(dst, dst).replace("memory node ", "n"))
        print("%-14s %6d %9.2f %9.1f %9.1f %9.3f %9.3f %7.1f %8.2f %5.2f %11s %7s" % (
            label, len(xs), nbytes * 1e-6, med, p90, per_t * 1e-6, busy, 100 * busy / window if window else 0,
            nbytes / (busy * 1e-3) * 1e-9 if busy > 0 else 0, sum(durs) * 1e-3 / busy if busy > 0 else 0,
            model, ratio))
    # the submitting thread: how fast it submitted the window's tasks, and
    # how soon after its submission a task started (a graph it cannot
    # submit fast enough starts its tasks as soon as they are submitted)
    subs = sorted((float(t["SubmitTime"]), t["start"]) for t in tasks if float(t.get("SubmitTime", 0) or 0) > 0)
    if len(subs) > 1:
        span = subs[-1][0] - subs[0][0]
        lead = statistics.median((st - sb) * 1e3 for sb, st in subs)
        print("submission: %d tasks in %.3f ms, %.2f us per task; start - submission: median %.1f us" % (
            len(subs), span, span * 1e3 / (len(subs) - 1), lead))
    kinds = {}
    for t in tasks:
        k = names.get(t["worker"], "worker")
        kind = "CUDA" if k.startswith("CUDA") else "CPU"
        n, busy, ws = kinds.get(kind, (0, 0.0, set()))
        ws.add(t["worker"])
        kinds[kind] = (n + 1, busy + t["end"] - t["start"], ws)
    for kind, (n, busy, ws) in sorted(kinds.items()):
        print("%s workers: %d, %d tasks, busy %.3f ms (%.1f %% of the window per worker)%s" % (
            kind, len(ws), n, busy, 100 * busy / (window * len(ws)) if window else 0,
            ", %.3f ms per iteration" % (busy / per) if per else ""))


if __name__ == "__main__":
    main()
