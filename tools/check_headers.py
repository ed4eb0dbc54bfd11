#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The headers against the build's lists (Makefile.am and its includes).

1. Every header under src/, include/ and codelets/ is in a *_SOURCES or
   EXTRA_DIST list, so that `make dist` carries it.
2. NVCC_DEPS names every header a CUDA object includes, directly or
   through other headers (the .cu suffix rule tracks no dependencies: a
   header left out leaves stale CUDA objects when it changes).
3. A public header (include/fvstar/*.h) includes only standard headers and
   other public headers, so that a user of the library needs no third-party
   or private header to read it.

Prints every miss and exits 1 on one.
Usage: tools/check_headers.py [TOP]"""
import os
import re
import sys

MAKEFILES = ("Makefile.am", "tests/Makefile.inc", "bench/Makefile.inc")
# the C and POSIX headers a public header may name
STANDARD = {"assert.h", "float.h", "inttypes.h", "limits.h", "math.h", "signal.h", "stdarg.h",
            "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", "sys/types.h",
            "time.h"}


def make_vars(top):
    """{variable: [words]} of the makefiles, += appended, $(VAR) expanded."""
    raw = {}
    for mf in MAKEFILES:
        path = os.path.join(top, mf)
        if not os.path.exists(path):
            continue
        text = open(path).read().replace("\\\n", " ")
        for line in text.splitlines():
            m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(\+?=)\s*(.*)$", line)
            if not m:
                continue
            words = m.group(3).split("#")[0].split()
            if m.group(2) == "=":
                raw[m.group(1)] = words
            else:
                raw.setdefault(m.group(1), []).extend(words)

    def expand(name, seen=()):
        out = []
        for w in raw.get(name, []):
            r = re.match(r"^\$\(([A-Za-z0-9_]+)(?::[^)]*)?\)$", w)
            if r and ":" not in w and r.group(1) not in seen:
                out += expand(r.group(1), seen + (name,))
            else:
                out.append(w)
        return out
    return {k: expand(k) for k in raw}


def quoted_includes(path):
    for n, line in enumerate(open(path, errors="replace"), 1):
        m = re.match(r'\s*#\s*include\s*([<"])([^>"]+)[>"]', line)
        if m:
            yield n, m.group(1), m.group(2)


def resolve(top, here, inc):
    for base in (os.path.dirname(here), os.path.join(top, "include"), os.path.join(top, "src"), top):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.isfile(p):
            return os.path.relpath(p, top)
    return None


def main():
    top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    v = make_vars(top)
    bad = []

    listed = set()
    for name, words in v.items():
        if name.endswith("_SOURCES") or name == "EXTRA_DIST":
            listed.update(words)
    headers = []
    for base in ("src", "include", "codelets"):
        for root, _, files in os.walk(os.path.join(top, base)):
            headers += [os.path.relpath(os.path.join(root, f), top) for f in files if f.endswith((".h", ".cuh"))]
    for h in sorted(headers):
        if h not in listed:
            bad.append("%s: in no *_SOURCES or EXTRA_DIST list of %s" % (h, ", ".join(MAKEFILES)))

    deps = set(v.get("NVCC_DEPS", []))
    cu = [w for w in v.get("CUDA_SOURCES", []) if w.endswith(".cu")]
    cu += [w for name, ws in v.items() if name.endswith("_SOURCES") for w in ws if w.endswith(".cu")]
    todo, seen, why = [c for c in sorted(set(cu)) if os.path.exists(os.path.join(top, c))], set(), {}
    while todo:
        f = todo.pop()
        for n, kind, inc in quoted_includes(os.path.join(top, f)):
            if kind == "<":
                continue
            if inc == "config.h":
                if "config.h" not in deps:
                    bad.append("%s:%d: includes config.h, which NVCC_DEPS lacks" % (f, n))
                continue
            r = resolve(top, os.path.join(top, f), inc)
            if r is None or r in seen:
                continue
            seen.add(r)
            why[r] = "%s:%d" % (f, n)
            todo.append(r)
    for h in sorted(seen):
        if h not in deps:
            bad.append("%s: a CUDA object includes it (%s) but NVCC_DEPS lacks it" % (h, why[h]))

    pub = os.path.join(top, "include", "fvstar")
    for name in sorted(os.listdir(pub)) if os.path.isdir(pub) else []:
        path = os.path.join(pub, name)
        for n, kind, inc in quoted_includes(path):
            ok = inc in STANDARD if kind == "<" else (inc.startswith("fvstar/") and
                                                       os.path.isfile(os.path.join(top, "include", inc)))
            if not ok:
                bad.append("include/fvstar/%s:%d: includes %s%s%s: a public header names only standard "
                           "and fvstar/ headers" % (name, n, kind, inc, ">" if kind == "<" else '"'))

    for b in bad:
        print("HEADERS: " + b)
    print("%d header%s checked, %d CUDA dependencies, %d problem%s"
          % (len(headers), "" if len(headers) == 1 else "s", len(seen), len(bad), "" if len(bad) == 1 else "s"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
