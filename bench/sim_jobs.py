#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs independent commands side by side: bench/run_sim_studies.sh's
simulated runs (one process a configuration), bounded by a process count,
a memory budget and a deadline.

  sim_jobs.py JOBS -j N [--mem-mb M] [--deadline EPOCH] [--timeout S] [--log DIR]

JOBS: one job a line, `NAME<TAB>MEM_MB<TAB>COMMAND` (a shell command; lines
starting with # are skipped), started in the file's order (put the longest
first) whenever fewer than N run and their MEM_MB estimates with this one's
stay under M (a job over M alone still runs, alone). A job not started by
the deadline is skipped; a running one is stopped (its process group) at
the deadline or after S seconds. Each job's output goes to DIR/NAME.log and
its outcome to DIR/NAME.status (one line of JSON: status ok / failed /
timeout / skipped, rc, wall_s, maxrss_mb: the peak resident set of the job
and the children it waited for); the summary of all on stdout. Exits 0
(the caller reads the statuses).
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("jobs")
    p.add_argument("-j", type=int, default=os.cpu_count() or 1)
    p.add_argument("--mem-mb", type=float, default=0, help="memory budget (default: 80%% of MemAvailable)")
    p.add_argument("--deadline", type=float, default=0, help="epoch seconds; 0: none")
    p.add_argument("--timeout", type=float, default=0, help="seconds a job; 0: none")
    p.add_argument("--log", default=None, help="folder of NAME.log and NAME.status (default: beside JOBS)")
    a = p.parse_args()
    if a.mem_mb <= 0:
        a.mem_mb = 1e12
        try:
            for line in open("/proc/meminfo"):
                if line.startswith("MemAvailable:"):
                    a.mem_mb = 0.8 * int(line.split()[1]) / 1024
        except OSError:
            pass
    log = a.log or os.path.dirname(os.path.abspath(a.jobs))
    os.makedirs(log, exist_ok=True)
    queue = []
    for line in open(a.jobs):
        if not line.strip() or line.startswith("#"):
            continue
        name, mem, cmd = line.rstrip("\n").split("\t", 2)
        queue.append((name, float(mem), cmd))
    running = {}  # pid -> (name, mem, t0, popen, log file)
    done = []
    t_start = time.time()

    def finish(name, status, rc, wall, rss):
        rec = {"name": name, "status": status, "rc": rc, "wall_s": round(wall, 2), "maxrss_mb": round(rss, 1)}
        with open(os.path.join(log, name + ".status"), "w") as f:
            f.write(json.dumps(rec) + "\n")
        done.append(rec)
        print("sim_jobs: %-36s %-8s %7.1f s %8.0f MB (%d running, %d waiting, %.0f s)"
              % (name, status, wall, rss, len(running), len(queue), time.time() - t_start), flush=True)

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    # stopped (timeout, ^C): the jobs, each in a session of its own, with it
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        loop(a, log, queue, running, finish)
    finally:
        for pid, (name, mem, t0, pr, lf) in list(running.items()):
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            del running[pid]
            finish(name, "stopped", None, time.time() - t0, 0.0)
        for name, mem, cmd in queue:
            finish(name, "skipped", None, 0.0, 0.0)
        del queue[:]
    n = {}
    for r in done:
        n[r["status"]] = n.get(r["status"], 0) + 1
    print("sim_jobs: %d jobs in %.0f s: %s" % (len(done), time.time() - t_start,
                                                ", ".join("%d %s" % (v, k) for k, v in sorted(n.items()))))
    return 0


def loop(a, log, queue, running, finish):
    """Starts, reaps and stops the jobs until none is left."""
    while queue or running:
        now = time.time()
        if a.deadline and now >= a.deadline:
            for name, mem, cmd in queue:
                finish(name, "skipped", None, 0.0, 0.0)
            del queue[:]
        # start what fits, in order (a smaller job may pass one that waits for memory)
        used = sum(r[1] for r in running.values())
        for job in list(queue):
            if len(running) >= a.j:
                break
            name, mem, cmd = job
            if running and used + mem > a.mem_mb:
                continue
            lf = open(os.path.join(log, name + ".log"), "w")
            pr = subprocess.Popen(["sh", "-c", cmd], stdout=lf, stderr=subprocess.STDOUT, start_new_session=True)
            running[pr.pid] = (name, mem, time.time(), pr, lf)
            used += mem
            queue.remove(job)
        # reap
        try:
            pid, ws, ru = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            pid = 0
        if pid in running:
            name, mem, t0, pr, lf = running.pop(pid)
            pr.returncode = os.waitstatus_to_exitcode(ws)
            lf.close()
            rc = pr.returncode
            st = "ok" if rc == 0 else ("timeout" if getattr(pr, "fv_killed", False) else "failed")
            finish(name, st, rc, time.time() - t0, ru.ru_maxrss / 1024)
            continue
        # stop the late
        now = time.time()
        for pid, (name, mem, t0, pr, lf) in list(running.items()):
            late = (a.timeout and now - t0 > a.timeout) or (a.deadline and now >= a.deadline)
            if late and not getattr(pr, "fv_killed", False):
                pr.fv_killed = True
                try:
                    os.killpg(pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                pr.fv_kill_at = now + 5
            elif getattr(pr, "fv_killed", False) and now > pr.fv_kill_at:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        time.sleep(0.2)


if __name__ == "__main__":
    sys.exit(main())
