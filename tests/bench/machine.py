#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print a tests/gen-sysfs spec for a generated machine of N CPUs: 2 to 16
sockets (one per 512 CPUs, at least 2), 2 NUMA nodes per socket, 2 threads
per core, 2 L3 caches per node, and /proc/cpuinfo as an x86 kernel writes
it (lscpu counts sockets, cores and caches only from CPUs it finds there
with a vendor and model).  Usage: machine.py N"""
import sys

n = int(sys.argv[1])
thr = 2
sockets = max(2, n // 512)
nps = 2
cores = n // thr // (sockets * nps)
per_thread = sockets * nps * cores
nodes = sockets * nps
for i in range(nodes):
    d = ",".join("10" if i == j else ("12" if i // nps == j // nps else "21")
                 for j in range(nodes))
    print("node %d mem_kb=8388608 free_kb=4194304 distance=%s" % (i, d))
print("cpuinfo x86")
half = max(1, cores // 2)
for t in range(thr):
    for s in range(sockets):
        for k in range(nps):
            node = s * nps + k
            for c in range(cores):
                cpu = t * per_thread + node * cores + c
                print("cpu %d core=%d socket=%d node=%d l3=%d"
                      % (cpu, k * cores + c, s, node, node * 2 + c // half))
