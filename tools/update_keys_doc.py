#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Rewrites the key reference of cases/README.md (between its markers)
from `fvstar keys`, the case file's key table; tests/unit/test_case_io
fails until this is run after a key changes.
Usage: tools/update_keys_doc.py [FVSTAR]   (default: build/fvstar)"""
import os
import subprocess
import sys

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
fvstar = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "build", "fvstar")
doc = subprocess.run([fvstar, "keys"], check=True, capture_output=True, text=True).stdout
path = os.path.join(top, "cases", "README.md")
text = open(path).read()
begin, end = "<!-- keys: begin (generated) -->\n\n", "<!-- keys: end -->"
i, j = text.index(begin) + len(begin), text.index(end)
open(path, "w").write(text[:i] + doc + text[j:])
print("%s: key reference rewritten from %s keys" % (path, fvstar))
