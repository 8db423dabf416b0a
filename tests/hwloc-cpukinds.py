#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print hwloc's CPU kinds for each of its test machines given, as a line
"== NAME SOURCE" (the .test's name and its tarball's name) followed by
the kinds, fastest first, as "CPULIST CORES" lines (CORES is "-" when the output does not say), from
the .console ("CPU kind #N efficiency E cpuset MASK", "Core ... cpukind=N")
or .xml (<cpukind cpuset=MASK [forced_]efficiency=E>) target named in the
.test file.  Machines whose output lists no kinds, or where hwloc was told
how to form them (HWLOC_CPUKINDS in the test's environment), are left out.

Usage: hwloc-cpukinds.py FIXTURE.test..."""

import os
import re
import sys


def mask_to_list(mask):
    v = int(mask.replace("0x", "").replace(",", ""), 16)
    cpus = [i for i in range(v.bit_length()) if v >> i & 1]
    out, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(out)


def kinds_of(test):
    text = open(test).read()
    if "HWLOC_CPUKINDS" in text:
        return
    m = re.search(r"^target:\s*(\S+)", text, re.M)
    src = re.search(r"^source:\s*(\S+)\.tar\.bz2\s*$", text, re.M)
    if not m or not src:
        return
    target = os.path.join(os.path.dirname(test), m.group(1))
    if not os.path.exists(target):
        return
    body = open(target).read()
    kinds = []  # (efficiency, mask, cores)
    if target.endswith(".console"):
        for k in re.finditer(r"^CPU kind #(\d+) efficiency (-?\d+) cpuset (\S+)",
                             body, re.M):
            cores = len(re.findall(r"^\s*Core L#\d+ \([^)]*cpukind=%s\)" %
                                   k.group(1), body, re.M))
            kinds.append((int(k.group(2)), k.group(3), str(cores or "-")))
    else:
        for k in re.finditer(r'<cpukind cpuset="([^"]+)"(?: (?:forced_)?'
                             r'efficiency="(-?\d+)")?', body):
            kinds.append((int(k.group(2) or -1), k.group(1), "-"))
    if len(kinds) == 0:
        return
    print("==", os.path.basename(test)[:-5], src.group(1))
    for eff, mask, cores in sorted(kinds, key=lambda k: -k[0]):
        print(mask_to_list(mask), cores)


for t in sys.argv[1:]:
    kinds_of(t)
