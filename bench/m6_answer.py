# SPDX-License-Identifier: MIT
"""The answer of an M6 run to 8 orders, for bench/run_setup7.sh and
run_setup9.sh (issue 25, T8): the first iteration from which CL stays
within 0.5 % of its last value, the loop's seconds to it and after it, and
the process's timeline (summary.json's marks, those of -v's timeline line
after summary.json was written, and the exit handlers' end)."""
import csv
import json
import re


def load(d):
    """d: the run's output directory (its stderr in d + ".err")."""
    s = json.load(open(d + "/summary.json"))
    h = list(csv.DictReader(open(d + "/history.csv")))
    cl = [float(r["CL"]) for r in h]
    k = len(cl) - 1
    while k > 0 and abs(cl[k - 1] - cl[-1]) <= 0.005 * abs(cl[-1]):
        k -= 1
    t = dict(s.get("timeline", {}))
    exit_at = None
    for line in open(d + ".err"):
        if line.startswith("fvstar: timeline"):
            t.update({m.group(1).strip(): float(m.group(2))
                      for m in re.finditer(r"\s*([^,:]+?) ([0-9.]+)(,|$)", line.split("started):", 1)[1])})
        m = re.match(r"fvstar: exit handlers done at ([0-9.]+) s", line)
        if m:
            exit_at = float(m.group(1))
    loop_k = float(h[k]["wall_s"])
    return {"summary": s, "history": h, "answer": k, "loop_to_answer": loop_k,
            "after_answer": float(h[-1]["wall_s"]) - loop_k, "timeline": t, "exit": exit_at}


def from_args():
    """The run of a script's arguments DIR WALL NAME: (load(DIR), WALL, NAME)."""
    import sys
    return load(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
