#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare cpm-topo's memory view with hwloc's memory attributes.

Usage: hwloc-memattrs.py MEMATTRS XML CPM_JSON

MEMATTRS is `lstopo-no-graphics -p --memattrs` of a tree, XML its
`lstopo-no-graphics -p --of xml`, CPM_JSON `cpm-topo --json` of the same
tree.  hwloc reports, per node, the bandwidths and latencies the kernel
gives from the node's CPU initiators (access1, or access0 when the node
has no access1) with the CPUs of those initiators, and memory-side caches
as MemCache objects above the node (level, size, line size, and
direct-mapped or not: hwloc's associativity 1 or 0).  Every value of one must be the
other's: the script prints the differences and exits 1 when there are
any, 0 with a count of the values compared.
"""

import json
import re
import sys
import xml.etree.ElementTree as ET

ATTRS = {"ReadBandwidth": "read_bandwidth_mbps",
         "WriteBandwidth": "write_bandwidth_mbps",
         "ReadLatency": "read_latency_ns",
         "WriteLatency": "write_latency_ns"}


def mask_to_set(text):
    v = int(text.replace(",0x", "").replace("0x", ""), 16)
    return {i for i in range(v.bit_length()) if v >> i & 1}


def list_to_set(text):
    out = set()
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def main():
    hw = {}
    attr = None
    with open(sys.argv[1]) as f:
        for line in f:
            m = re.match(r"Memory attribute #\d+ name `(\w+)'", line)
            if m:
                attr = m.group(1)
                continue
            m = re.match(r"\s+NUMANode P#(\d+) = (\d+)(?: from cpuset (\S+))?",
                         line)
            if m and attr in ATTRS:
                hw[(int(m.group(1)), ATTRS[attr])] = (
                    int(m.group(2)), mask_to_set(m.group(3) or "0x0"))
    hwcache = {}
    for obj in ET.parse(sys.argv[2]).iter("object"):
        if obj.get("type") != "MemCache":
            continue
        for child in obj.iter("object"):
            if child.get("type") == "NUMANode":
                hwcache.setdefault(int(child.get("os_index")), []).append(
                    (int(obj.get("depth")), int(obj.get("cache_size")),
                     int(obj.get("cache_linesize")),
                     obj.get("cache_associativity") == "1"))
    with open(sys.argv[3]) as f:
        doc = json.load(f)
    node_cpus = {n["node"]: list_to_set(n["cpus"]) for n in doc["nodes"]}
    cpm = {}
    cpmcache = {}
    for n in doc["memory"]["nodes"]:
        a = n["access1"] or n["access0"]
        if a:
            cpus = set()
            for i in list_to_set(a["initiators"]):
                cpus |= node_cpus.get(i, set())
            for k in ATTRS.values():
                if a[k] is not None:
                    cpm[(n["node"], k)] = (a[k], cpus)
        if n["memory_side_caches"]:
            cpmcache[n["node"]] = sorted(
                (c["level"], c["size_bytes"], c["line_size"],
                 c["indexing"] == "direct-mapped")
                for c in n["memory_side_caches"])
    bad = 0
    for key in sorted(set(hw) | set(cpm)):
        if hw.get(key) != cpm.get(key):
            print("node %d %s: hwloc %s, cpm %s" % (key + (hw.get(key),
                                                        cpm.get(key))))
            bad += 1
    for node in sorted(set(hwcache) | set(cpmcache)):
        if sorted(hwcache.get(node, [])) != cpmcache.get(node, []):
            print("node %d caches (level, size, line, direct-mapped): "
                  "hwloc %s, cpm %s" %
                  (node, hwcache.get(node), cpmcache.get(node)))
            bad += 1
    if bad:
        sys.exit(1)
    print("%d values, %d caches" % (len(hw), len(hwcache)))


if __name__ == "__main__":
    main()
