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

The run's latency of each direction (a copy's duration less its bytes over
the platform's bandwidth: median, mean, mean of the 90 % shortest, 10th
percentile)
against the platform's latency, which StarPU's bus benchmark measured back
to back on idle devices: `tools/sim_platform.py retime` puts the run's into
a platform. StarPU-MPI's messages (a traced run of several ranks) have no
bus: their time from the sender's post (ISEND_SUBMIT_END) to the
receiver seeing it done (IRECV_TERMINATED) is set against a link of
--mpi-link LATENCY_US:GBPS (default 0.5:20, sim_platform.py cluster's
link between ranks of one node), the difference being what the simulated
ranks do not pay per message; and each rank's MPI progression thread's
time by state in the window (Sl sleeping, P progressing, Pl polling, SdS /
RvS posting a send / receive, SdC / RvC completing one, TD testing
detached requests, ...); and each message's way (halo path), matched by
bytes and time: pack task end, copy to the host (GPU ranks), the post,
the receiver seeing it done, copy to the GPU, unpack task start. The
simulation charges the copies and the message; the gaps between them
(a driver posting a copy, StarPU-MPI's callbacks and progression thread)
are what --mpi-send-overhead / --mpi-recv-overhead of sim_platform.py
cluster stand for. --json FILE: the directions, latencies, messages
and thread states as JSON (sim_platform.py retime reads it).

Each worker kind's gaps: the time a worker stood idle between two tasks
although the second was ready (submitted, and every task it depends on
ended) before the first ended, and no transfer to the worker's memory
node was under way meanwhile (those the bus model holds): StarPU's driver
between tasks (popping the task, launching it, seeing the previous one done),
which the calibrated models (a task's start to its end) do not hold and
a simulated worker does not spend: their median, mean, and their sum over
the kind's tasks (per_task: every task's share, what `sim_platform.py gap`
adds to every task of the kind; session 20: 8.1 us a task on the M6
explicit's GPU ranks, 50 tasks an iteration).
"""
import argparse
import glob
import gzip
import json
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


def read_mpi_states(path, t0, t1):
    """{rank: {state: ms}} of StarPU-MPI's progression threads inside
    [t0, t1] (paje SetState 10, PushState 11, PopState 12 on the CtS
    state of a container "<rank>_mpict")."""
    stacks, since, out = {}, {}, {}

    def charge(c, t):
        st = stacks.get(c)
        if st and c in since:
            lo, hi = max(since[c], t0), min(t, t1)
            if hi > lo:
                r = out.setdefault(int(c.split("_")[0]), {})
                r[st[-1]] = r.get(st[-1], 0.0) + hi - lo
        since[c] = t

    with open(path, errors="replace") as f:
        for line in f:
            if line[:2] not in ("10", "11", "12") or "mpict" not in line:
                continue
            p = line.split()
            if len(p) < 4 or p[3] != "CtS" or not p[2].endswith("_mpict") or not p[2].split("_")[0].isdigit():
                continue
            t, c = float(p[1]), p[2]
            charge(c, t)
            st = stacks.setdefault(c, [])
            if p[0] == "10" and len(p) >= 5:
                st[-1:] = [p[4]]
            elif p[0] == "11" and len(p) >= 5:
                st.append(p[4])
            elif p[0] == "12" and st:
                st.pop()
    for c in stacks:
        charge(c, t1)
    return out


def latencies(durs_us, nbytes, bw_mbs):
    """The run's latency of transfers (us): duration less bytes over the
    bandwidth (MB/s: bytes / (MB/s) = us); median, mean, and the mean of
    the 90 % shortest (a stalled copy or two out)."""
    lat = sorted(d - b / bw_mbs for d, b in zip(durs_us, nbytes))
    keep = lat[: max(1, int(0.9 * len(lat) + 0.5))]
    return statistics.median(lat), statistics.fmean(lat), statistics.fmean(keep), lat[len(lat) // 10]


def halo_paths(inside, tasks):
    """StarPU-MPI's messages along their way, each matched by its bytes and
    time: on the sender, the pack task (the last one to end before) and,
    on GPU ranks, the copy to the host (the last of the same bytes to end
    before the post); on the receiver, the copy to the GPU (the first of
    the same bytes to start after it is done) and the unpack task (the
    first to start after). {segment: [us, ...]}, the segments in order;
    the simulation has none but the copies' and the message's own times."""
    import bisect

    def rank(alias):
        head = alias.split("_")[0]
        return int(head) if head.isdigit() else 0

    d2h, h2d, packs, unpacks, segs = {}, {}, {}, {}, {}
    for s, e, kind, src, dst, nbytes in inside:
        if kind == "MPI message":
            continue
        r = rank(src)
        if src.endswith("mm1") and dst.endswith("mm0"):
            d2h.setdefault((r, nbytes), []).append((e, s))
        elif src.endswith("mm0") and dst.endswith("mm1"):
            h2d.setdefault((r, nbytes), []).append((s, e))
    for t in tasks:
        name = t.get("Name", "")
        if name.startswith("pack"):
            packs.setdefault(t["rank"], []).append(t["end"])
        elif name.startswith("unpack"):
            unpacks.setdefault(t["rank"], []).append(t["start"])
    for lst in (d2h, h2d, packs, unpacks):
        for v in lst.values():
            v.sort()

    def add(k, v):
        segs.setdefault(k, []).append(v * 1e3)

    for s, e, kind, src, dst, nbytes in inside:
        if kind != "MPI message":
            continue
        rs, rd = rank(src), rank(dst)
        ready = s  # when the data was on the sender's host
        c = d2h.get((rs, nbytes), [])
        i = bisect.bisect_right(c, (s, float("inf"))) - 1
        if i >= 0 and s - c[i][0] < 5.0:  # a copy within 5 ms before
            ce, cs = c[i]
            ready = cs
            add("copy to host end -> post", s - ce)
            add("copy to host", ce - cs)
        p = packs.get(rs, [])
        j = bisect.bisect_right(p, ready) - 1
        if j >= 0 and ready - p[j] < 5.0:
            add("pack end -> " + ("copy to host start" if ready != s else "post"), ready - p[j])
        add("message (post -> seen done)", e - s)
        done = e
        c = h2d.get((rd, nbytes), [])
        i = bisect.bisect_left(c, (e, float("-inf")))
        if i < len(c) and c[i][0] - e < 5.0:
            add("seen done -> copy to GPU start", c[i][0] - e)
            add("copy to GPU", c[i][1] - c[i][0])
            done = c[i][1]
        u = unpacks.get(rd, [])
        j = bisect.bisect_left(u, done)
        if j < len(u) and u[j] - done < 5.0:
            add(("copy to GPU end" if done != e else "seen done") + " -> unpack start", u[j] - done)
    return segs


def worker_gaps(path, tasks, transfers):
    """{kind: sorted gaps, us}: for each worker, the idle time before each
    task that was ready (submitted, its dependencies ended: tasks.rec's
    DependsOn, StarPU's own tasks included) before the worker's previous
    task ended, where no transfer to the worker's memory node overlapped
    the gap. The kind from the task's memory node (0: CPU; a merged trace
    of ranks names no worker)."""
    into = {}
    for s, e, _, _, dst, _ in transfers:
        into.setdefault(dst, []).append((s, e))
    ends = {}
    for r in plot_trace.read_rec(path):
        try:
            ends[(r.get("MPIRank", "0"), r["JobId"])] = float(r.get("EndTime") or r.get("SubmitTime") or 0)
        except (KeyError, ValueError):
            continue
    by_worker = {}
    for t in tasks:
        by_worker.setdefault(t["worker"], []).append(t)
    gaps = {}
    for w, ts in by_worker.items():
        node = int(ts[0].get("MemoryNode", 0) or 0)
        kind = "cuda" if node > 0 else "cpu"
        rank = int(ts[0].get("MPIRank", -1) or -1)
        xs = into.get(("%d_mm%d" % (rank, node)) if rank >= 0 else "mm%d" % node, [])
        ts.sort(key=lambda t: t["start"])
        for a, b in zip(ts, ts[1:]):
            ready = max([float(b.get("SubmitTime", 0) or 0)] + [
                ends.get((b.get("MPIRank", "0"), j), 0.0) for j in b.get("DependsOn", "").split()])
            if ready > a["end"] or b["start"] < a["end"] or any(s < b["start"] and e > a["end"] for s, e in xs):
                continue
            gaps.setdefault(kind, []).append((b["start"] - a["end"]) * 1e3)
    return {k: sorted(v) for k, v in gaps.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace_dir")
    ap.add_argument("--platform", help="a calibrated platform folder (bus/HOST.bandwidth, bus/HOST.latency)")
    ap.add_argument("--iterations", type=int, default=0, help="traced iterations: busy times per iteration")
    ap.add_argument("--mpi-link", default="0.5:20",
                    help="LATENCY_US:GBPS, the simulated link between ranks (default 0.5:20, one node)")
    ap.add_argument("--json", help="write the directions, latencies, messages and MPI thread states here")
    a = ap.parse_args()
    try:
        mpi_lat, mpi_gbps = (float(x) for x in a.mpi_link.split(":"))
        if mpi_lat < 0 or mpi_gbps <= 0:
            raise ValueError
    except ValueError:
        die(f"--mpi-link {a.mpi_link}: LATENCY_US:GBPS, e.g. 0.5:20")
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
    paje_path = paje
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

    states = read_mpi_states(paje_path, t0, t1)
    if tmp:
        shutil.rmtree(tmp)
    report = {"window_ms": window, "iterations": per, "tasks": len(tasks), "directions": [],
              "mpi_link": {"latency_us": mpi_lat, "gbps": mpi_gbps}}
    bw = lat = None
    if a.platform:
        b = glob.glob(os.path.join(a.platform, "bus", "*.bandwidth"))
        if not b:
            die(f"{a.platform}: no bus/*.bandwidth")
        bw = read_matrix(b[0])  # MB/s
        lat = read_matrix(b[0][: -len(".bandwidth")] + ".latency")  # us

    # the transfers inside the window (the ones before the recording
    # started carry time 0; StarPU's FxT tool matches MPI messages in
    # single-precision milliseconds: 2 us steps 16 to 32 s after StarPU's
    # start, so a message may end when it starts)
    inside = [x for x in transfers if x[1] >= x[0] >= t0 and x[0] <= t1]
    by_dir = {}
    for s, e, kind, src, dst, nbytes in inside:
        by_dir.setdefault((src, dst), []).append((s, e, kind, nbytes))
    print("%-14s %6s %9s %9s %9s %9s %9s %7s %8s %5s %11s %7s" % (
        "direction", "count", "MB", "med us", "p90 us", "MB/trf", "busy ms", "busy %", "GB/s", "conc",
        "model us", "med/mod"))
    run_lat = []
    for (src, dst), xs in sorted(by_dir.items()):
        durs = sorted((e - s) * 1e3 for s, e, _, _ in xs)  # us
        nbytes = sum(x[3] for x in xs)
        busy = union_length([(s, e) for s, e, _, _ in xs])  # ms
        med = statistics.median(durs)
        p90 = durs[min(len(durs) - 1, int(0.9 * len(durs)))]
        per_t = nbytes / len(xs)
        model = ratio = "-"
        i, j = node_index(src, nodes), node_index(dst, nodes)
        label = "%s->%s" % tuple(nodes.get(x, x).replace("memory node ", "n").replace(" (MPI)", "").replace("rank ", "r")
                                 for x in (src, dst))
        entry = {"label": label, "src": i, "dst": j, "count": len(xs), "bytes": nbytes, "median_us": med,
                 "p90_us": p90, "busy_ms": busy, "kind": "mpi" if xs[0][2] == "MPI message" else "copy"}
        # the pairs' order: durations and sizes of the same transfers
        pairs = sorted(((e - s) * 1e3, b) for s, e, _, b in xs)
        link = None  # (latency us, MB/s) the simulation assumes
        if entry["kind"] == "mpi":
            link = (mpi_lat, mpi_gbps * 1e3)
        elif bw and i is not None and j is not None and i < len(bw) and j < len(bw[i]) and bw[i][j] > 0:
            link = (lat[i][j], bw[i][j])
        if link:
            m = link[0] + per_t / link[1]  # us: bytes / (MB/s) = us
            model, ratio = "%.1f" % m, "%.2f" % (med / m)
            lmed, lmean, ltrim, lp10 = latencies([d for d, _ in pairs], [b for _, b in pairs], link[1])
            entry.update(model_us=m, platform_latency_us=link[0], run_latency_median_us=lmed,
                         run_latency_mean_us=lmean, run_latency_mean90_us=ltrim, run_latency_p10_us=lp10)
            run_lat.append((label, lmed, lmean, ltrim, lp10, link[0], entry["kind"]))
        report["directions"].append(entry)
        print("%-14s %6d %9.2f %9.1f %9.1f %9.3f %9.3f %7.1f %8.2f %5.2f %11s %7s" % (
            label, len(xs), nbytes * 1e-6, med, p90, per_t * 1e-6, busy, 100 * busy / window if window else 0,
            nbytes / (busy * 1e-3) * 1e-9 if busy > 0 else 0, sum(durs) * 1e-3 / busy if busy > 0 else 0,
            model, ratio))
    for label, lmed, lmean, ltrim, lp10, plat, kind in run_lat:
        print("run latency %-14s median %8.1f us, mean %8.1f, mean of the shortest 90 %% %8.1f, p10 %8.1f; %s %6.1f us"
              % (label, lmed, lmean, ltrim, lp10, "simulated link" if kind == "mpi" else "platform", plat))
    for r, st in sorted(states.items()):
        tot = sum(st.values())
        print("MPI thread of rank %d: %s" % (r, ", ".join(
            "%s %.3f ms (%.1f %%)" % (k, v, 100 * v / window if window else 0)
            for k, v in sorted(st.items(), key=lambda kv: -kv[1]))) + (" of %.3f ms" % tot))
    report["mpi_thread_ms"] = {str(r): st for r, st in states.items()}
    segs = halo_paths(inside, tasks) if states else {}
    order = ["pack end -> copy to host start", "copy to host", "copy to host end -> post", "pack end -> post",
             "message (post -> seen done)", "seen done -> copy to GPU start", "copy to GPU",
             "copy to GPU end -> unpack start", "seen done -> unpack start"]
    report["halo_path_us"] = {}
    for k in [k for k in order if k in segs]:
        v = sorted(segs[k])
        q = {"count": len(v), "median": statistics.median(v), "mean": statistics.fmean(v),
             "p10": v[len(v) // 10], "p90": v[min(len(v) - 1, 9 * len(v) // 10)]}
        report["halo_path_us"][k] = q
        print("halo path %-34s %5d: median %8.1f us, mean %8.1f, p10 %8.1f, p90 %8.1f" % (
            k, q["count"], q["median"], q["mean"], q["p10"], q["p90"]))
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
    # the workers' gaps between ready tasks (sim_platform.py gap)
    report["worker_gap_us"] = {}
    for kind, g in sorted(worker_gaps(tasks_path, tasks, inside).items()):
        n = sum(1 for t in tasks if (int(t.get("MemoryNode", 0) or 0) > 0) == (kind == "cuda"))
        q = {"count": len(g), "tasks": n, "median": statistics.median(g), "mean": statistics.fmean(g),
             "p90": g[min(len(g) - 1, 9 * len(g) // 10)], "per_task": sum(g) / n}
        report["worker_gap_us"][kind] = q
        print("%s workers' gaps before a ready task: %d of %d tasks, median %.1f us, mean %.1f, p90 %.1f; "
              "%.1f us per task" % (kind.upper() if kind == "cuda" else "CPU", q["count"], n, q["median"], q["mean"],
                                    q["p90"], q["per_task"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
