#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-topo memory: tiers, HMAT access attributes, memory-side caches and
# interleave weights, on generated trees (expected values from the spec)
# and against hwloc's memory attributes on every tree with HMAT files.
. "$(dirname "$0")/lib.sh"

spec=$CPM_TOP/tests/topologies/2s3n-hmat.spec
root=$T_TMP/hmat
python3 "$CPM_TOP/tests/gen-sysfs" "$spec" "$root" ||
    { not_ok "gen-sysfs writes the HMAT tree"; exit 0; }

check "memory: one row per node, values from the tree" 0 \
"NODE CPUS TIER MEMORY  FREE READ_BW WRITE_BW READ_LAT WRITE_LAT INITIATORS CACHE WEIGHT
   0 0-1     4   8192  6144   20480    20480       80        90 0          -          5
   1 2-3     4   8192  8192   19456    18432       85        95 1          L1:1G      5
   2 -      22  32768 32768    8192     6144      250       300 0          -          2" \
    cpm-topo --sysroot "$root" memory
check "memory -o picks columns, --raw --noheadings" 0 \
"2 22 8192 250 0" \
    cpm-topo --sysroot "$root" memory -o node,tier,read_bw,read_lat,initiators --raw --noheadings cpuless
check "memory --list cpuless" 0 2 cpm-topo --sysroot "$root" memory --list cpuless
check "memory --list cpus" 0 0-1 cpm-topo --sysroot "$root" memory --list cpus
check "memory --list tier:4" 0 0-1 cpm-topo --sysroot "$root" memory --list tier:4
check "memory --list tier:22" 0 2 cpm-topo --sysroot "$root" memory --list tier:22
check "memory --list near:2-3 is node 1" 0 1 cpm-topo --sysroot "$root" memory --list near:2-3
check "memory --list near:0-3: smallest worst distance (21, not 28)" 0 0-1 \
    cpm-topo --sysroot "$root" memory --list near:0-3
check "memory --list near:0" 0 0 cpm-topo --sysroot "$root" memory --list near:0
check "memory --list: union of selectors" 0 1-2 \
    cpm-topo --sysroot "$root" memory --list node:1 cpuless
check "memory --list all" 0 0-2 cpm-topo --sysroot "$root" memory --list
check_fail "memory tier:9: no such tier" 2 "^cpm-topo: no memory tier 9" \
    cpm-topo --sysroot "$root" memory tier:9
check_fail "memory near: a CPU that does not exist" 2 "^cpm-topo: invalid near:9" \
    cpm-topo --sysroot "$root" memory near:9
check_fail "memory node:7 does not exist" 2 "^cpm-topo: node 7 does not exist" \
    cpm-topo --sysroot "$root" memory node:7
check_fail "memory: unknown selector" 2 "^cpm-topo: unknown node selector 'fast'" \
    cpm-topo --sysroot "$root" memory fast
check_fail "memory -o: unknown column" 2 "^cpm-topo: unknown column 'bogus'" \
    cpm-topo --sysroot "$root" memory -o bogus
check_fail "memory --list with --json" 2 "^cpm-topo: --list prints a nodelist" \
    cpm-topo --sysroot "$root" memory --list --json

run cpm-topo --sysroot "$root"
want="Memory tiers:         4 (nodes 0-1), 22 (nodes 2), fastest first
Memory node 0:        CPUs, tier 4, from nodes 0: read 20480 MB/s 80 ns, write 20480 MB/s 90 ns
Memory node 1:        CPUs, tier 4, from nodes 1: read 19456 MB/s 85 ns, write 18432 MB/s 95 ns, cache L1 1G write-back
Memory node 2:        no CPUs, tier 22, from nodes 0: read 8192 MB/s 250 ns, write 6144 MB/s 300 ns
Interleave weights:   0:5,1:5,2:2 (set by hand)"
got=$(printf '%s' "$out" | sed -n '/^Memory tiers:/,$p')
assert "summary: tiers, access, caches, weights" "$got" "$want"

run cpm-topo --sysroot "$root" --json
printf '%s' "$out" >"$T_TMP/j"
got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["memory"]
n2 = d["nodes"][2]
print(d["tiers"], d["weights_auto"], n2["has_cpus"], n2["tier"],
      n2["access0"]["initiators"], n2["access1"]["read_latency_ns"],
      d["nodes"][1]["access0"], d["nodes"][1]["memory_side_caches"][0]["write_policy"],
      [n["weight"] for n in d["nodes"]])' "$T_TMP/j" 2>&1)
assert "--json: the memory object" "$got" \
"[{'tier': 4, 'nodes': '0-1'}, {'tier': 22, 'nodes': '2'}] False False 22 0 250 None write-back [5, 5, 2]"

run cpm-topo --sysroot "$root" memory --json cpuless
got=$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print([n["node"] for n in d["nodes"]])' 2>&1)
assert "memory --json: the selected nodes" "$got" "[2]"

# A dump keeps the initiator links (as directories) and replays the view.
cpm-topo --sysroot "$root" dump "$T_TMP/dump" >/dev/null 2>&1
run cpm-topo --sysroot "$T_TMP/dump" memory
want=$(cpm-topo --sysroot "$root" memory)
assert "dump: the memory view replays" "$out" "$want
"

# A tree without any of the files: unknown everywhere, no summary lines.
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/1s-offline-cxl.spec" "$T_TMP/plain"
check "memory: a tree without HMAT files" 0 \
"NODE CPUS    TIER MEMORY  FREE READ_BW WRITE_BW READ_LAT WRITE_LAT INITIATORS CACHE WEIGHT
   0 0-4,6-7    -  16384 12288       -        -        -         - -          -          -
   1 -          -  65536 65536       -        -        -         - -          -          -" \
    cpm-topo --sysroot "$T_TMP/plain" memory
run cpm-topo --sysroot "$T_TMP/plain"
assert "summary: no memory lines without the files" \
    "$(printf '%s' "$out" | grep -c '^Memory\|^Interleave')" 0

# hwloc as the oracle: every tree with HMAT files.
if ! command -v lstopo-no-graphics >/dev/null; then
	skip "hwloc memory attributes" "no lstopo-no-graphics"
	exit 0
fi
hwloc_compare() {
	HWLOC_FSROOT=$2 lstopo-no-graphics -p --memattrs >"$T_TMP/ma" 2>/dev/null &&
	    HWLOC_FSROOT=$2 lstopo-no-graphics -p --of xml >"$T_TMP/mx" 2>/dev/null ||
	    { skip "$1: hwloc memattrs" "lstopo failed"; return; }
	cpm-topo --sysroot "$2" --json >"$T_TMP/mj"
	if res=$(python3 "$CPM_TOP/tests/hwloc-memattrs.py" "$T_TMP/ma" "$T_TMP/mx" "$T_TMP/mj"); then
		case $res in
		"0 values, 0 caches") not_ok "$1: hwloc memattrs" "nothing compared" ;;
		*) ok "$1: hwloc memattrs agree ($res)" ;;
		esac
	else
		not_ok "$1: hwloc memattrs" "$res"
	fi
}
hwloc_compare generated "$root"
for name in fakeheteromemtiers fakememinitiators-1np2c+1npp+gi memorysidecaches; do
	froot=$(fixture_tree "$name") || { skip "$name" "no fixture"; continue; }
	hwloc_compare "$name" "$froot"
done
