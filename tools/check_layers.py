#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The include graph of fvstar folder by folder, checked against its layers.

Dependencies run one way, downwards (doc/architecture.md):

  app, bench, tests           5  the command, benchmarks, tests
  solver                      4  the method as a task graph (no StarPU)
  runtime, codelets           3  everything that talks to StarPU
  mesh order partition io post 2 meshes, blocks, files
  kernels                     1  loop bodies shared by CPU and CUDA
  physics util                0  header-only physics, helpers

A public header (include/fvstar/X.h) has the level of the folder it is the
interface of (PUBLIC below): an include of fvstar/runtime.h is an include of
src/runtime, wherever it is written, and a public header may include only
public headers of its level or below. A new public header must be given its
folder here. A file may include headers of its own level or below; the
exceptions in EXCEPTIONS are printed with their reason and not counted. Besides, only
src/runtime and codelets/ may include <starpu.h> (or <starpu_mpi.h>; tests
and the StarPU micro-benchmarks of bench/ too), and
no "starpu_" symbol may appear in src/solver or src/app. Prints the graph
(folder -> folders it includes), then every violation; exits 1 on one.
Usage: tools/check_layers.py [TOP]"""
import os
import re
import sys

LEVEL = {
    "src/app": 5, "bench": 5, "tests": 5,
    "src/solver": 4,
    "src/runtime": 3, "codelets": 3,
    "src/mesh": 2, "src/order": 2, "src/partition": 2, "src/io": 2, "src/post": 2,
    "src/kernels": 1,
    "src/physics": 0, "src/util": 0, "config": 0,
}
# include/fvstar/X.h -> the folder whose interface it is
PUBLIC = {
    "error.h": "src/util", "types.h": "src/util", "numerics.h": "src/physics",
    "mesh.h": "src/mesh", "partition.h": "src/partition", "color.h": "src/order",
    "case.h": "src/io", "output.h": "src/io", "post.h": "src/post",
    "runtime.h": "src/runtime", "solver.h": "src/solver",
}
# (file, include) -> why it stands; printed, not counted
EXCEPTIONS = {
    ("src/io/case.c", "fvstar/runtime.h"):
        "the option table's runtime.balance values are the runtime's enum fv_balance_kind "
        "(one definition); to go when the enum moves down to fvstar/case.h",
}
STARPU_OK = ("src/runtime", "codelets", "tests", "bench")
NO_STARPU_SYMBOL = ("src/solver", "src/app")
SOURCES = (".c", ".h", ".cu", ".cuh")


def folder_of_file(rel):
    parts = rel.split("/")
    if parts[0] == "include" and len(parts) == 3 and parts[1] == "fvstar":
        return PUBLIC.get(parts[2], "include")
    if parts[0] in ("src",) and len(parts) > 2:
        return "src/" + parts[1]
    return parts[0]


def folder_of_include(inc):
    """The folder a quoted include names (paths are relative to the top,
    src/ or include/, as AM_CPPFLAGS has them)."""
    if inc == "config.h":
        return "config"
    if inc.startswith("."):
        return None  # relative to the file: its own folder
    head = inc.split("/")[0]
    if head == "fvstar":
        return PUBLIC.get(inc.split("/")[-1], "include")
    if head in ("codelets", "bench", "tests"):
        return head
    if os.path.isdir(os.path.join(TOP, "src", head)):
        return "src/" + head
    return None  # a header next to the file


def main():
    global TOP
    TOP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    graph, bad, excused = {}, [], []
    for base in ("src", "include", "codelets", "bench", "tests"):
        for root, _, files in os.walk(os.path.join(TOP, base)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(root, name)
                rel = os.path.relpath(path, TOP)
                src = folder_of_file(rel)
                if src == "include":
                    bad.append("%s: a public header with no layer: give it its folder in PUBLIC" % rel)
                text = open(path, errors="replace").read()
                for n, line in enumerate(text.splitlines(), 1):
                    m = re.match(r'\s*#\s*include\s*([<"])([^>"]+)[>"]', line)
                    if not m:
                        continue
                    if m.group(1) == "<":
                        if re.match(r"starpu(_mpi)?\.h$", m.group(2)) and not src.startswith(STARPU_OK):
                            bad.append("%s:%d: includes <%s>: only src/runtime and codelets talk to StarPU"
                                       % (rel, n, m.group(2)))
                        continue
                    dst = folder_of_include(m.group(2))
                    if dst is None or dst == src:
                        continue
                    graph.setdefault(src, set()).add(dst)
                    if dst == "include" and not os.path.exists(os.path.join(TOP, "include", m.group(2))):
                        continue  # not a header of this tree (a scratch tree's)
                    if src in LEVEL and dst in LEVEL and LEVEL[dst] > LEVEL[src]:
                        if (rel, m.group(2)) in EXCEPTIONS:
                            excused.append("%s:%d: includes %s: %s" % (rel, n, m.group(2), EXCEPTIONS[(rel, m.group(2))]))
                            continue
                        bad.append("%s:%d: %s (level %d) includes %s (level %d): a dependency that runs back up"
                                   % (rel, n, src, LEVEL[src], m.group(2), LEVEL[dst]))
                if src.startswith(NO_STARPU_SYMBOL):
                    for n, line in enumerate(text.splitlines(), 1):
                        if "starpu_" in line:
                            bad.append("%s:%d: names a StarPU symbol: call fv_runtime_* or fv_insert_* instead"
                                       % (rel, n))
    for src in sorted(graph, key=lambda f: (-LEVEL.get(f, 9), f)):
        print("%-14s -> %s" % (src, " ".join(sorted(graph[src], key=lambda f: (-LEVEL.get(f, 9), f)))))
    for e in excused:
        print("EXCEPTION: " + e)
    for b in bad:
        print("LAYERS: " + b)
    print("%d violation%s" % (len(bad), "" if len(bad) == 1 else "s"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
