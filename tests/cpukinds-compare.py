#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare hwloc's CPU kinds with cpm's core types on one tree.

Usage: cpukinds-compare.py LSTOPO_CPUKINDS_OUTPUT CPM_TOPO_JSON

hwloc splits kinds on any difference of capacity or frequency; cpm joins
those within its 10% rule.  So every hwloc kind must lie inside one cpm
type (cpm may join kinds, never split one), and a kind hwloc ranks more
efficient may not be of a type cpm ranks faster than a less efficient
kind's.  Prints "ok", "skip REASON" (hwloc knows nothing to form kinds
from) or one "bad ..." line per disagreement."""

import json
import re
import sys


def mask_cpus(mask):
    v = int(mask.replace("0x", "").replace(",", ""), 16)
    return {i for i in range(v.bit_length()) if v >> i & 1}


def main():
    kinds = []  # (efficiency, cpus, infos)
    for line in open(sys.argv[1]):
        m = re.match(r"CPU kind #\d+ efficiency (-?\d+) cpuset (\S+)", line)
        if m:
            kinds.append([int(m.group(1)), mask_cpus(m.group(2)), 0])
        elif kinds and re.match(r"\s+(LinuxCapacity|Frequency\w*|CoreType)"
                                r"\s*=", line):
            kinds[-1][2] += 1
    d = json.load(open(sys.argv[2]))
    order = [t["core_type"] for t in d.get("core_types", [])]
    rank = {}
    for c in d["cpus"]:
        t = c.get("core_type")
        rank[c["cpu"]] = order.index(t) if t in order else (0 if not order
                                                             else None)
    if not kinds or all(k[2] == 0 for k in kinds):
        if len(order) > 1:
            print("skip hwloc tells no capacity, frequency or core type here")
        else:
            print("skip hwloc forms no kinds here, cpm no types")
        return
    bad = []
    ranked = []
    for eff, cpus, _ in kinds:
        types = {rank.get(c) for c in cpus if c in rank}
        if None in types or len(types) != 1:
            bad.append("bad hwloc kind of efficiency %d (CPUs %s) is split "
                       "across cpm types %s" % (eff, sorted(cpus),
                                                sorted(order[t] if t is not None
                                                       else "-" for t in types)))
            continue
        ranked.append((eff, types.pop()))
    for e1, t1 in ranked:
        for e2, t2 in ranked:
            if e1 > e2 and t1 > t2:
                bad.append("bad hwloc ranks efficiency %d above %d, cpm ranks "
                           "%s below %s" % (e1, e2, order[t1], order[t2]))
    print("\n".join(bad) if bad else "ok")


main()
