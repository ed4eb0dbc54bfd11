#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fvstar bench sched: StarPU scheduling policies x worker sets x blocks per
worker (x block balance where the workers differ), each run by `fvstar run`
after a calibration run of its worker set and blocks, under a time limit.
Writes into DIR:

  sched.csv   one row per run: policy, workers, ncpu, ncuda, balance,
              blocks, blocks_per_worker, gpu_share_pct, iterations,
              s_per_iteration, ns_per_cell_stage, busy_mean_pct, busy
              (per worker "name:%"), status, seconds (wall of the run)
  sched.png   time per iteration by policy (a bar per worker set, blocks
              and balance), and the workers' mean utilisation
  sched.md    the same as a Markdown table, fastest first, with each run's
              speed against the fastest GPU-only run (or the fastest run)
  runs/       each run's output directory and stderr

Usually started as `fvstar bench sched CASE [key=value ...] [options] -o DIR`
(which passes --fvstar); `fvstar help bench` lists the options.

--platform PDIR: the same table and plot on a simulated machine (StarPU's
SimGrid mode, doc/simgrid.md): every run is `fvstar sim run CASE --platform
PDIR` (a node folder, or a cluster folder: blocks per worker x workers per
rank x ranks), its time the
simulated seconds per iteration after the warm-up; no calibration run (the
folder's models are the calibration: `fvstar sim calibrate` on the real
machine), no utilisation; the worker counts are the platform's (gpu: its
GPUs, cpu: its CPUs).

s/iteration: the wall time between the end of iteration --warmup and the
last one (history.csv), over the iterations between; ns/cell/stage: that
divided by cells x RK stages. Utilisation: StarPU's profiling
(STARPU_PROFILING=1) from the first iteration to the end, warm-up included:
the share of its time each worker spent executing tasks.
"""
import argparse
import csv
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_common as pc  # noqa: E402

# the policies of StarPU 1.3.10 that run fvstar's tasks, as the issue names them
DEFAULT_POLICIES = ("eager,random,ws,lws,prio,dm,dmda,dmdar,dmdas,dmdasd,heteroprio,peager,pheft")
REFUSED = {"modular-heteroprio-heft": "StarPU 1.3.10 runs none of fvstar's tasks under it (the run hangs)"}
COLUMNS = ["policy", "workers", "ncpu", "ncuda", "balance", "blocks", "blocks_per_worker", "gpu_share_pct",
           "iterations", "s_per_iteration", "ns_per_cell_stage", "busy_mean_pct", "busy", "status", "seconds"]


def child_env(extra=None):
    """The environment of a run: the worker counts and the scheduler come
    from the command line (STARPU_NCPU, STARPU_NCUDA and STARPU_SCHED would
    win over them), StarPU quiet."""
    env = dict(os.environ)
    for k in ("STARPU_NCPU", "STARPU_NCUDA", "STARPU_SCHED", "STARPU_CALIBRATE", "STARPU_PROFILING",
              "STARPU_FXT_TRACE"):
        env.pop(k, None)
    env.setdefault("STARPU_SILENT", "1")
    env.update(extra or {})
    return env


def runtime_info(fv, ncpu, ncuda):
    """(CPU workers, CUDA workers, text) of `fvstar runtime info` with these counts."""
    env = child_env({"STARPU_NCPU": str(ncpu), "STARPU_NCUDA": str(ncuda)})
    if ncpu < 0:
        env.pop("STARPU_NCPU")
    if ncuda < 0:
        env.pop("STARPU_NCUDA")
    try:
        out = subprocess.run([fv, "runtime", "info"], env=env, capture_output=True, text=True, timeout=300).stdout
    except (OSError, subprocess.TimeoutExpired):
        return 0, 0, ""
    m = re.search(r"^workers: \d+ \((\d+) CPU, (\d+) CUDA\)", out, re.M)
    return (int(m.group(1)), int(m.group(2)), out) if m else (0, 0, out)


def all_policies(fv):
    out = subprocess.run([fv, "runtime", "info"], env=child_env({"STARPU_SCHED": "help"}), capture_output=True,
                         text=True, timeout=300)
    return [l.split()[0] for l in (out.stdout + out.stderr).splitlines() if "->" in l and l.split()]


def worker_sets(spec, ncores, ngpus):
    """[(name, ncpu, ncuda)] of --workers: gpu, gpu+N, cpu, cpuN."""
    sets = []
    for w in spec.split(","):
        w = w.strip()
        if w == "gpu":
            sets.append((w, 0, ngpus))
        elif re.fullmatch(r"gpu\+\d+", w):
            sets.append((w, int(w[4:]), ngpus))
        elif w == "cpu":
            sets.append(("cpu%d" % ncores, ncores, 0))
        elif re.fullmatch(r"cpu\d+", w):
            sets.append((w, int(w[3:]), 0))
        else:
            sys.exit("bench_sched: --workers %s: not gpu, gpu+N, cpu or cpuN" % w)
    return sets


def seconds_per_iteration(hist, warmup):
    """(s/iteration after warm-up, iterations timed) from history.csv."""
    with open(hist, newline="") as f:
        rows = [(int(float(r["iteration"])), float(r["wall_s"])) for r in csv.DictReader(f)]
    if len(rows) < 2:
        return None, 0
    k = min(warmup, len(rows) - 2)
    (i0, w0), (i1, w1) = rows[k], rows[-1]
    return (w1 - w0) / (i1 - i0), i1 - i0


def platform_ranks(a):
    """Ranks of --platform: a cluster folder's hostfile lines, else 1."""
    hosts = os.path.join(a.platform, "smpi", "hostfile")
    if not os.path.exists(hosts):
        return 1
    return sum(1 for l in open(hosts) if l.strip() and not l.startswith("#"))


def platform_workers(a):
    """(CPUs, GPUs) of --platform's node (tools/sim_platform.py check)."""
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sim_platform.py")
    out = subprocess.run([sys.executable, tool, "check", a.platform], capture_output=True, text=True)
    m = re.search(r"(\d+) CPUs, (\d+) GPUs", out.stdout)
    if out.returncode != 0 or not m:
        sys.exit("bench_sched: --platform %s: %s" % (a.platform, (out.stderr or out.stdout).strip()))
    return int(m.group(1)), int(m.group(2))


def run_one(a, out, name, policy, ncpu, ncuda, blocks, balance, iterations, extra_env):
    """Runs fvstar once; returns (status, summary dict or None, wall s)."""
    d = os.path.join(out, "runs", name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    cmd = [a.fvstar, "run", a.case] + a.keys + [
        "output.dir=" + d, "numerics.iterations=%d" % iterations, "numerics.residual_drop=0",
        "output.progress_every=0", "output.vtu=no", "output.trace=", "runtime.ncpu=%d" % ncpu,
        "runtime.ncuda=%d" % ncuda, "partition.blocks=%d" % blocks, "runtime.balance=" + balance]
    if a.platform:
        # simulated: the graph of fvstar run, its time StarPU's simulated clock
        cmd = [a.fvstar, "sim", "run", a.case, "--platform", a.platform, "--iterations", str(iterations),
               "--warmup", str(a.warmup), "--out", d] + a.keys + [
            "output.dir=" + d, "output.progress_every=0", "runtime.ncpu=%d" % ncpu,
            "runtime.ncuda=%d" % ncuda, "partition.blocks=%d" % blocks, "runtime.balance=" + balance]
    if policy:
        cmd.append("runtime.sched=" + policy)
    t0 = time.time()
    with open(d + ".err", "w") as err:
        try:
            rc = subprocess.run(cmd, env=child_env(extra_env), stdout=subprocess.DEVNULL, stderr=err,
                                timeout=a.timeout).returncode
        except subprocess.TimeoutExpired:
            return "timeout after %d s" % a.timeout, None, time.time() - t0
    wall = time.time() - t0
    if rc != 0:
        last = open(d + ".err").read().strip().splitlines()
        return "failed: " + (last[-1][:200] if last else "exit %d" % rc), None, wall
    with open(os.path.join(d, "summary.json")) as f:
        return "ok", json.load(f), wall


def gpu_share(summary, ncuda, balance):
    cells = summary.get("partition", {}).get("block_cells") or []
    n = sum(cells)
    if not n or ncuda == 0:
        return 0.0
    if summary.get("partition", {}).get("balance") == "speed":
        # GPU blocks come first: blocks per worker x CUDA workers
        per = len(cells) // (summary["workers"]["cpu"] + summary["workers"]["cuda"])
        return 100.0 * sum(cells[:per * ncuda]) / n
    return float("nan")  # equal blocks: the scheduler decides


def fmt(x, spec):
    return "" if x is None or x != x else spec % x


def write_csv(a, rows):
    """sched.csv with the rows so far (rewritten after every run, so that a
    bench stopped half-way keeps what it measured)."""
    path = os.path.join(a.out, "sched.csv")
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow({k: (fmt(r[k], "%.6g") if isinstance(r[k], float) else r[k]) for k in COLUMNS})
    os.replace(path + ".tmp", path)
    return path


def read_csv(path):
    """The rows of an earlier sched.csv (--append), numbers as numbers."""
    if not os.path.exists(path):
        return []
    ints = ("ncpu", "ncuda", "blocks", "blocks_per_worker", "iterations")
    reals = ("gpu_share_pct", "s_per_iteration", "ns_per_cell_stage", "busy_mean_pct", "seconds")
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            for k in ints:
                r[k] = int(r[k])
            for k in reals:
                r[k] = float(r[k]) if r[k] not in ("", "nan") else None
            rows.append(r)
    print("bench_sched: %d earlier runs from %s" % (len(rows), path))
    return rows


def write_outputs(a, rows, meta):
    with open(os.path.join(a.out, "sched.json"), "w") as f:
        json.dump(meta, f, indent=1)
    path = write_csv(a, rows)
    print("bench_sched: wrote %s (%d runs)" % (path, len(rows)))
    ok = [r for r in rows if r["status"] == "ok"]
    gpu = [r for r in ok if r["ncpu"] == 0]
    ref = min(gpu or ok, key=lambda r: r["s_per_iteration"]) if ok else None
    md = os.path.join(a.out, "sched.md")
    with open(md, "w") as f:
        f.write("# fvstar bench sched: %s\n\n" % meta["case"])
        for k in ("date", "host", "device", "mesh", "command"):
            f.write("- %s: %s\n" % (k, "`%s`" % meta[k] if k == "command" and meta[k] else meta.get(k, "")))
        if meta.get("timing"):
            f.write("- timing: %s\n" % meta["timing"])
        if ref:
            f.write("- speed: against the fastest %srun (%s, %s, %d blocks, %s): higher is faster\n"
                    % ("GPU-only " if gpu else "", ref["policy"], ref["workers"], ref["blocks"], ref["balance"]))
        f.write("\n| policy | workers | balance | blocks | GPU share | s/iteration | ns/cell/stage | speed | "
                "busy (mean) | status |\n|---|---|---|---:|---:|---:|---:|---:|---:|---|\n")
        for r in sorted(rows, key=lambda r: (r["status"] != "ok", r["s_per_iteration"] or 0)):
            sp = ref["s_per_iteration"] / r["s_per_iteration"] if ref and r["status"] == "ok" else None
            f.write("| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s |\n"
                    % (r["policy"], r["workers"], r["balance"], r["blocks"],
                       fmt(r["gpu_share_pct"], "%.1f%%") if r["ncuda"] else "", fmt(r["s_per_iteration"], "%.4g"),
                       fmt(r["ns_per_cell_stage"], "%.3g"), fmt(sp, "%.3fx"), fmt(r["busy_mean_pct"], "%.0f%%"),
                       r["status"]))
    print("bench_sched: wrote %s" % md)
    if not ok:
        print("bench_sched: no run succeeded: no plot", file=sys.stderr)
        return 1
    import matplotlib.pyplot as plt
    configs = []
    for r in sorted(ok, key=lambda r: (r["ncuda"] == 0, r["ncpu"], r["blocks"], r["balance"])):
        c = "%s %db%s" % (r["workers"], r["blocks"], " " + r["balance"] if r["ncpu"] and r["ncuda"] else "")
        if c not in configs:
            configs.append(c)
    policies = []
    for r in ok:
        if r["policy"] not in policies:
            policies.append(r["policy"])
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(min(16, max(7, 0.35 * len(policies) * len(configs) ** 0.5 + 3)), 8),
                                   sharex=True)
    width = 0.8 / len(configs)
    for k, c in enumerate(configs):
        xs, ts, bs = [], [], []
        for i, p in enumerate(policies):
            m = [r for r in ok if r["policy"] == p and
                 "%s %db%s" % (r["workers"], r["blocks"], " " + r["balance"] if r["ncpu"] and r["ncuda"] else "") == c]
            if m:
                xs.append(i - 0.4 + width * (k + 0.5))
                ts.append(1e3 * m[0]["s_per_iteration"])
                bs.append(m[0]["busy_mean_pct"] if m[0]["busy_mean_pct"] is not None else 0)
        ax1.bar(xs, ts, width, label=c)
        ax2.bar(xs, bs, width, label=c)
    ax1.set_ylabel("ms per iteration")
    ax1.set_title("%s: %s (%s)" % (os.path.basename(meta["case"]), meta["mesh"], meta["device"]))
    ax1.legend(fontsize="small", ncol=2)
    ax2.set_ylabel("workers busy, mean %")
    ax2.set_ylim(0, 100)
    ax2.set_xticks(range(len(policies)))
    ax2.set_xticklabels(policies, rotation=45, ha="right")
    fig.tight_layout()
    png = os.path.join(a.out, "sched.png")
    fig.savefig(png, dpi=110)
    print("bench_sched: wrote %s" % png)
    return 0


def main():
    p = argparse.ArgumentParser(prog="fvstar bench sched", description=__doc__.split("\n\n")[0])
    p.add_argument("case", nargs="?")
    p.add_argument("keys", nargs="*", help="section.key=value for every run")
    p.add_argument("--fvstar", default="fvstar")
    p.add_argument("--policies", default=DEFAULT_POLICIES, help="comma-separated, or all (default: %(default)s)")
    p.add_argument("--workers", default="gpu,gpu+15,cpu", help="gpu, gpu+N, cpu, cpuN (default: %(default)s)")
    p.add_argument("--blocks-per-worker", default="1,2", help="(default: %(default)s)")
    p.add_argument("--balance", default="speed,equal",
                   help="for worker sets of CPU and CUDA workers (default: %(default)s); others run equal")
    p.add_argument("--iterations", type=int, default=50, help="timed runs' iterations (default: %(default)s)")
    p.add_argument("--warmup", type=int, default=5, help="iterations left out of the timing (default: %(default)s)")
    p.add_argument("--calibrate", type=int, default=30,
                   help="iterations of the calibration run per worker set and blocks; 0: none (default: %(default)s)")
    p.add_argument("--timeout", type=int, default=600, help="seconds per run (default: %(default)s)")
    p.add_argument("--append", action="store_true",
                   help="keep the rows of DIR/sched.csv and add these runs (a long bench in several commands)")
    p.add_argument("--plot-only", action="store_true",
                   help="no run: redraw DIR/sched.png and DIR/sched.md from DIR/sched.csv")
    p.add_argument("--platform", help="simulate on this platform folder (fvstar sim run; doc/simgrid.md)")
    p.add_argument("-o", dest="out", required=True)
    a = p.parse_args()
    if not a.case and not a.plot_only:
        p.error("the case file is missing")
    # before the runs: it may run this script again with Debian's Python
    pc.require_matplotlib("bench_sched.py")
    if a.iterations < 2:
        p.error("--iterations must be at least 2")
    a.warmup = min(a.warmup, a.iterations - 2)
    for k in a.keys:
        if "=" not in k:
            p.error("%s: not section.key=value" % k)
    os.makedirs(os.path.join(a.out, "runs"), exist_ok=True)
    old_meta = {}
    if (a.append or a.plot_only) and os.path.exists(os.path.join(a.out, "sched.json")):
        with open(os.path.join(a.out, "sched.json")) as f:
            old_meta = json.load(f)
    if a.plot_only:
        rows = read_csv(os.path.join(a.out, "sched.csv"))
        if not rows:
            sys.exit("bench_sched: --plot-only: no runs in %s/sched.csv" % a.out)
        return write_outputs(a, rows, old_meta or {k: "" for k in ("case", "date", "host", "device", "mesh",
                                                                   "command")})

    if a.platform:
        ncores, ngpus = platform_workers(a)
        info = ""
        a.calibrate = 0  # the platform's models are the calibration
    else:
        ncores, _, _ = runtime_info(a.fvstar, -1, 0)
        _, ngpus, info = runtime_info(a.fvstar, 0, -1)
    known = all_policies(a.fvstar)
    pols = [x for x in known if x not in REFUSED] if a.policies == "all" else a.policies.split(",")
    for x in pols:
        if x not in known:
            sys.exit("bench_sched: policy %s: this StarPU has %s" % (x, ", ".join(known)))
    sets = worker_sets(a.workers, ncores, ngpus)
    bpws = [int(x) for x in a.blocks_per_worker.split(",")]
    device = ", ".join(sorted(set(re.findall(r"^  worker \d+: (.*) \(memory node", info, re.M)))) or "none"
    meta = {"case": a.case, "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "host": "%s, %d cores" % (os.uname().nodename, os.cpu_count() or 0),
            "device": "%d CUDA (%s)" % (ngpus, device) if ngpus else "no GPU",
            "platform": a.platform or "",
            "mesh": "", "command": "fvstar bench sched " + " ".join(sys.argv[1:] if a.fvstar == "fvstar" else
                                                                  [x for x in sys.argv[1:] if x != a.fvstar and x != "--fvstar"])}
    meta["timing"] = ("s/iteration from history.csv after %d warm-up iterations, of %d; each worker set and block "
                      "count calibrated first (%d iterations, STARPU_CALIBRATE=1, dmda); utilisation: StarPU "
                      "profiling, warm-up included" % (a.warmup, a.iterations, a.calibrate))
    if a.platform:
        meta["device"] = "simulated: %s (%d rank(s) of %d CPUs, %d GPUs)" % (a.platform, platform_ranks(a), ncores,
                                                                          ngpus)
        meta["timing"] = ("simulated s/iteration (fvstar sim run, StarPU's SimGrid mode) after %d warm-up "
                          "iterations, of %d; models and links from the platform folder" % (a.warmup, a.iterations))
    rows = read_csv(os.path.join(a.out, "sched.csv")) if a.append else []
    if old_meta:
        # the first command's date and command, then this one's
        meta["date"] = old_meta.get("date", "") + ", " + meta["date"]
        meta["command"] = old_meta.get("command", "") + "`; `" + meta["command"]
        meta["mesh"] = old_meta.get("mesh", "")
    for wname, ncpu, ncuda in sets:
        if ncuda == 0 and wname.startswith("gpu"):
            print("bench_sched: %s: no GPU here, skipped" % wname)
            continue
        nw = ncpu + ncuda
        for bpw in bpws:
            for bal in (a.balance.split(",") if ncpu and ncuda else ["equal"]):
                blocks = bpw * nw * (platform_ranks(a) if a.platform else 1)
                tag = "%s-%db-%s" % (wname, blocks, bal)
                if a.calibrate > 0:
                    st, _, wall = run_one(a, a.out, "calibrate-" + tag, "dmda", ncpu, ncuda, blocks, bal,
                                          a.calibrate, {"STARPU_CALIBRATE": "1"})
                    print("bench_sched: calibration %s: %s (%.1f s)" % (tag, st, wall), flush=True)
                for pol in pols:
                    if pol in REFUSED:
                        st, s, wall = "refused: " + REFUSED[pol], None, 0.0
                    else:
                        st, s, wall = run_one(a, a.out, "%s-%s" % (pol, tag), pol, ncpu, ncuda, blocks, bal,
                                              a.iterations, {"STARPU_PROFILING": "1"})
                    r = dict(policy=pol, workers=wname, ncpu=ncpu, ncuda=ncuda, balance=bal, blocks=blocks,
                             blocks_per_worker=bpw, gpu_share_pct=None, iterations=a.iterations,
                             s_per_iteration=None, ns_per_cell_stage=None, busy_mean_pct=None, busy="",
                             status=st, seconds=round(wall, 2))
                    if s and a.platform:
                        spi, cells = s["seconds_per_iteration"], s["cells"]
                        stages = s.get("rk_stages", 1)
                        meta["mesh"] = "%s, %d cells" % (os.path.basename(s["case"]), cells)
                        r.update(s_per_iteration=spi, ns_per_cell_stage=spi * 1e9 / (cells * stages) if spi else None)
                    elif s:
                        spi, n = seconds_per_iteration(os.path.join(a.out, "runs", "%s-%s" % (pol, tag),
                                                                    "history.csv"), a.warmup)
                        cells, stages = s["mesh"]["cells"], s.get("rk_stages", 1)
                        meta["mesh"] = "%s, %d cells" % (os.path.basename(s["mesh"]["file"]), cells)
                        r.update(s_per_iteration=spi, gpu_share_pct=gpu_share(s, ncuda, bal),
                                 ns_per_cell_stage=spi * 1e9 / (cells * stages) if spi else None,
                                 busy=s["workers"].get("busy", ""))
                        if "busy_mean" in s["workers"]:
                            r["busy_mean_pct"] = 100.0 * s["workers"]["busy_mean"]
                        if spi is None:
                            r["status"] = "no timing (fewer than 2 history rows)"
                    print("bench_sched: %-12s %-9s %3d blocks %-5s %s" % (
                        pol, wname, blocks, bal, "%.4g s/iteration, %s ns/cell/stage, busy %s%%" % (
                            r["s_per_iteration"], fmt(r["ns_per_cell_stage"], "%.3g"),
                            fmt(r["busy_mean_pct"], "%.0f")) if r["status"] == "ok" else r["status"]), flush=True)
                    rows.append(r)
                    write_csv(a, rows)
    if not rows:
        sys.exit("bench_sched: no run (no worker set runs here)")
    return write_outputs(a, rows, meta)


if __name__ == "__main__":
    sys.exit(main())
