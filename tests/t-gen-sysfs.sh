#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/gen-sysfs writes trees the way the kernel lays them out: checked
# file by file against the kernel's formats, and as a whole by hwloc,
# which reads the generated tree as if it were a live machine.
. "$(dirname "$0")/lib.sh"

gen=$CPM_TOP/tests/gen-sysfs
if ! command -v python3 >/dev/null 2>&1; then
	skip "gen-sysfs writes trees" "python3 is missing"
	exit 0
fi

a=$T_TMP/2s4n
b=$T_TMP/offline
c=$T_TMP/80
run python3 "$gen" "$CPM_TOP/tests/topologies/2s4n-smt.spec" "$a"
assert "gen-sysfs writes the 2-socket 4-node machine" "$rc" 0
run python3 "$gen" "$CPM_TOP/tests/topologies/1s-offline-cxl.spec" "$b"
assert "gen-sysfs writes the machine with an offline CPU" "$rc" 0
run python3 "$gen" "$CPM_TOP/tests/kubelet/topoDualSocketMultiNumaPerSocketHT.spec" "$c"
assert "gen-sysfs writes the 80-CPU machine" "$rc" 0

cpu=sys/devices/system/cpu
node=sys/devices/system/node
check "cpu lists hold every CPU" 0 "0-31" cat "$a/$cpu/online"
check "masks are 32-bit words, the first only as wide as nr_cpu_ids" 0 \
    "0000,00000100,00000001" cat "$c/$cpu/cpu0/topology/core_cpus"
check "a node's cpumap has the same width" 0 "0000,0ffc0000,000ffc00" \
    cat "$c/$node/node1/cpumap"
check "siblings share socket and core id" 0 "1,17" \
    cat "$a/$cpu/cpu17/topology/thread_siblings_list"
check "package lists hold the package's online CPUs" 0 "0-7,16-23" \
    cat "$a/$cpu/cpu3/topology/package_cpus_list"
check "the L3 is shared by its group" 0 "4-7,20-23" \
    cat "$a/$cpu/cpu5/cache/index3/shared_cpu_list"
check "the L3 size is the spec's" 0 "16384K" cat "$a/$cpu/cpu5/cache/index3/size"
check "L1d is per core" 0 "2,18" cat "$a/$cpu/cpu18/cache/index0/shared_cpu_list"
check "distances are in node order" 0 "12 10 21 21" cat "$a/$node/node1/distance"
check "cpus link to their node" 0 "../../node/node2" readlink "$a/$cpu/cpu9/node2"
check "node meminfo uses the kernel's layout" 0 \
    "Node 2 MemTotal:        8388608 kB" sed -n 1p "$a/$node/node2/meminfo"

check "cpu0 has no online file" 1 "" test -e "$b/$cpu/cpu0/online"
check "an offline CPU says so" 0 "0" cat "$b/$cpu/cpu5/online"
check "an offline CPU has no topology directory" 1 "" \
    test -e "$b/$cpu/cpu5/topology"
check "an offline CPU is listed as offline" 0 "5" cat "$b/$cpu/offline"
check "an offline sibling leaves its core with one thread" 0 "1" \
    cat "$b/$cpu/cpu1/topology/thread_siblings_list"
check "x86: an offline CPU leaves its node's list" 0 "0-4,6-7" \
    cat "$b/$node/node0/cpulist"
{ echo "arch arm64"; cat "$CPM_TOP/tests/topologies/1s-offline-cxl.spec"; } |
    python3 "$CPM_TOP/tests/gen-sysfs" - "$T_TMP/offline-arm" ||
    not_ok "gen-sysfs arch arm64"
check "arm64: an offline CPU stays in its node's list" 0 "0-7" \
    cat "$T_TMP/offline-arm/sys/devices/system/node/node0/cpulist"
check "isolated CPUs are listed" 0 "7" cat "$b/$cpu/isolated"
check "a memory-only node has no CPUs" 0 "" cat "$b/$node/node1/cpulist"
check "a memory-only node is not in has_cpu" 0 "0" cat "$b/$node/has_cpu"
check "a memory-only node is in has_memory" 0 "0-1" cat "$b/$node/has_memory"
check "cpuinfo lists online CPUs" 0 "7" grep -c '^processor' "$b/proc/cpuinfo"

# "cpuinfo x86": the records an x86 kernel writes, so that lscpu, which
# counts sockets, cores and caches only for CPUs it finds a vendor and
# model for in cpuinfo, reads the tree as a whole machine.
x=$T_TMP/x86
{ cat "$CPM_TOP/tests/topologies/2s4n-smt.spec"; echo "cpuinfo x86"; } >"$T_TMP/x86.spec"
run python3 "$gen" "$T_TMP/x86.spec" "$x"
assert "gen-sysfs writes x86 cpuinfo records" "$rc" 0
check "each x86 record has a vendor" 0 "32" grep -c '^vendor_id' "$x/proc/cpuinfo"
check "each x86 record has its apicid" 0 "apicid		: 17" \
    sed -n '/^processor	: 17$/,/^$/{/^apicid/p}' "$x/proc/cpuinfo"
grep -v '^cpuinfo' "$CPM_TOP/tests/topologies/2s4n-smt.spec" >"$T_TMP/plain.spec"
run python3 "$gen" "$T_TMP/plain.spec" "$T_TMP/plain"
check "the default cpuinfo has no vendor" 1 "" grep -q '^vendor_id' "$T_TMP/plain/proc/cpuinfo"
if command -v lscpu >/dev/null 2>&1; then
	for f in "Socket(s):2" "Core(s) per socket:8" "Thread(s) per core:2" \
	    "L3 cache:64 MiB (4 instances)"; do
		check "lscpu reads the x86 tree: ${f%%:*} ${f#*:}" 0 "${f#*:}" \
		    sh -c 'lscpu --sysroot "$1" | sed -n "s/^$2: *//p"' - "$x" "${f%%:*}"
	done
else
	skip "lscpu reads the x86 tree" "lscpu is missing"
fi
# The machines the tests ship imitate x86 ones (all but those with
# part= or "arch arm64"): lscpu -C lists their caches as on such a host.
if command -v lscpu >/dev/null 2>&1; then
	for spec in "$CPM_TOP"/tests/topologies/*.spec; do
		grep -q -e 'part=' -e '^arch arm64' "$spec" && continue
		n=${spec##*/}
		rm -rf "$T_TMP/shipped"
		run python3 "$gen" "$spec" "$T_TMP/shipped"
		run lscpu --sysroot "$T_TMP/shipped" -C
		case $out in
		*L3*) ok "lscpu -C lists the caches of $n" ;;
		*) not_ok "lscpu -C lists the caches of $n" "$(show)" ;;
		esac
	done
fi

T_IN='cpu 0 core=0 socket=0'
check_fail "a cpu line without node= is refused" 2 "lacks node=" \
    python3 "$gen" - "$T_TMP/bad"
T_IN='cpu 0 core=0 socket=0 node=0 colour=blue'
check_fail "an unknown key is refused" 2 "unknown key 'colour'" \
    python3 "$gen" - "$T_TMP/bad"
T_IN=

if command -v hwloc-calc >/dev/null 2>&1; then
	for what in pu:32 core:16 numa:4 package:2 l3:4; do
		check "hwloc counts ${what#*:} ${what%:*} objects in the generated tree" \
		    0 "${what#*:}" hwloc-calc --input "$a" -N "${what%:*}" all
	done
	run hwloc-calc --input "$a" --physical-output --intersect pu numa:1
	got=$(printf '%s' "$out" | tr ',' '\n' | sort -n | tr '\n' ' ')
	assert "hwloc puts CPUs 4-7 and 20-23 in NUMA node 1" "$got" \
	    "4 5 6 7 20 21 22 23 "
	check "hwloc sees the online CPUs of the offline machine" 0 7 \
	    hwloc-calc --input "$b" -N pu all
else
	skip "hwloc reads the generated tree" "hwloc-calc is missing"
fi
