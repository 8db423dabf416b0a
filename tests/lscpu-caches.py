#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare the cache levels of 'lscpu -C -J --bytes' (first file) with
those of 'cpm-topo -C --json' (second file): name, size of one instance
and of all, ways, type, level, sets, physical line partition and
coherency line size, level by level.  Prints both and exits 1 when they
differ."""

import json
import sys


def field(v):
    return "" if v is None else str(v)


def rows(caches, keys):
    return [" ".join(field(c.get(k)) for k in keys) for c in caches]


lscpu = rows(json.load(open(sys.argv[1]))["caches"],
             ["name", "one-size", "all-size", "ways", "type", "level",
              "sets", "phy-line", "coherency-size"])
cpm = rows(json.load(open(sys.argv[2]))["caches"],
           ["name", "size", "all_size", "ways", "type", "level", "sets",
            "phy_line", "coherency_size"])
if lscpu != cpm:
    print("lscpu: " + "; ".join(lscpu))
    print("cpm:   " + "; ".join(cpm))
    sys.exit(1)
