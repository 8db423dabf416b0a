#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print hwloc's locality of each PCI device, read from the XML that
lstopo --of xml --whole-io writes: one "BUSID CPULIST NAMES" line per
PCIDev, CPULIST the cpuset of the normal object (Machine, Package,
Group, ...) the device hangs below, NAMES its network, block and
OpenFabrics OS devices, sorted and comma-separated ("-" when none).

Usage: lstopo-no-graphics --of xml --whole-io - | hwloc-pci.py"""

import sys
import xml.etree.ElementTree as ET

IO_TYPES = ("Bridge", "PCIDev", "OSDev")
# hwloc_obj_osdev_type_e: 0 block, 2 network, 3 openfabrics
NAMED_OSDEV = ("0", "2", "3")


def mask_to_list(mask):
    v = 0
    # 32-bit words, most significant first; an empty word is zero
    # ("0x00000001,,,0x0" is bit 96).
    for word in mask.split(","):
        v = v << 32 | int(word or "0", 16)
    cpus = [i for i in range(v.bit_length()) if v >> i & 1]
    out, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(out)


def walk(obj, cpuset):
    if obj.get("type") not in IO_TYPES and obj.get("cpuset"):
        cpuset = obj.get("cpuset")
    if obj.get("type") == "PCIDev":
        names = sorted(o.get("name") for o in obj.iter("object")
                       if o.get("type") == "OSDev" and
                       o.get("osdev_type") in NAMED_OSDEV)
        print(obj.get("pci_busid"), mask_to_list(cpuset),
              ",".join(names) or "-")
    for child in obj.findall("object"):
        walk(child, cpuset)


root = ET.parse(sys.stdin).getroot()
for top in root.findall("object"):
    walk(top, top.get("cpuset"))
