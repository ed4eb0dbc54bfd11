#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The include graph of fvstar folder by folder, checked against its layers.

Dependencies run one way, downwards (doc/architecture.md):

  app, bench, tests           5  the command, benchmarks, tests
  solver                      4  the method as a task graph (no StarPU)
  runtime, codelets           3  everything that talks to StarPU
  mesh order partition io post 2 meshes, blocks, files
  kernels                     1  loop bodies shared by CPU and CUDA
  physics util include        0  header-only physics, helpers, public headers

A file may include headers of its own level or below. Besides, only
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
    "src/physics": 0, "src/util": 0, "include": 0, "config": 0,
}
STARPU_OK = ("src/runtime", "codelets", "tests", "bench")
NO_STARPU_SYMBOL = ("src/solver", "src/app")
SOURCES = (".c", ".h", ".cu", ".cuh")


def folder_of_file(rel):
    parts = rel.split("/")
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
        return "include"
    if head in ("codelets", "bench", "tests"):
        return head
    if os.path.isdir(os.path.join(TOP, "src", head)):
        return "src/" + head
    return None  # a header next to the file


def main():
    global TOP
    TOP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    graph, bad = {}, []
    for base in ("src", "include", "codelets", "bench", "tests"):
        for root, _, files in os.walk(os.path.join(TOP, base)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(root, name)
                rel = os.path.relpath(path, TOP)
                src = folder_of_file(rel)
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
                    if src in LEVEL and dst in LEVEL and LEVEL[dst] > LEVEL[src]:
                        bad.append("%s:%d: %s (level %d) includes %s (level %d): a dependency that runs back up"
                                   % (rel, n, src, LEVEL[src], m.group(2), LEVEL[dst]))
                if src.startswith(NO_STARPU_SYMBOL):
                    for n, line in enumerate(text.splitlines(), 1):
                        if "starpu_" in line:
                            bad.append("%s:%d: names a StarPU symbol: call fv_runtime_* or fv_insert_* instead"
                                       % (rel, n))
    for src in sorted(graph, key=lambda f: (-LEVEL.get(f, 9), f)):
        print("%-14s -> %s" % (src, " ".join(sorted(graph[src], key=lambda f: (-LEVEL.get(f, 9), f)))))
    for b in bad:
        print("LAYERS: " + b)
    print("%d violation%s" % (len(bad), "" if len(bad) == 1 else "s"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
