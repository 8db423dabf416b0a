#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The composition lines of the command-line contract, run as written on
# this machine (its real CPUs, affinity and cgroups), and on a generated
# larger machine where only the topology matters.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"	# expand, to_list

export CPM_STATE=$T_TMP/alloc.state
online=$(cat /sys/devices/system/cpu/online)
last=$(cpm-topo cpus online | tr ',' '\n' | tail -1 | sed 's/.*-//')
cpm-alloc init --reserved 0 >/dev/null 2>"$T_TMP/err" ||
    { not_ok "init with CPU 0 reserved" "$(cat "$T_TMP/err")"; exit 0; }

# cpm-pin "$(cpm-alloc take db 4 --numa-policy single-numa-node)" -- ./db
# (one CPU here: this machine has two, one of them reserved)
run sh -c 'cpm-pin "$(cpm-alloc take db 1 --numa-policy single-numa-node)" -- \
    sh -c "grep ^Cpus_allowed_list: /proc/self/status"'
got=$(printf '%s' "$out" | awk '{ print $2 }')
assert "a command pinned to what cpm-alloc took runs on it" "$got" "$(cpm-alloc show db)"
if [ "$got" = "0" ]; then
	not_ok "cpm-alloc hands out a CPU that is not reserved" "got CPU 0"
else
	ok "cpm-alloc hands out a CPU that is not reserved"
fi

# cpm-topo cpus node:1 --not "$(cpm-alloc reserved)" | cpm-pin - -- ./batch
# (node 0: the only node here)
run sh -c 'cpm-topo cpus node:0 --not "$(cpm-alloc reserved)" | cpm-pin - -- \
    sh -c "grep ^Cpus_allowed_list: /proc/self/status"'
# The node's online CPUs but CPU 0, from sysfs.
want=$({ expand </sys/devices/system/node/node0/cpulist; expand </sys/devices/system/cpu/online; } |
    sort -n | uniq -d | grep -vx 0 | to_list)
assert "a batch job runs on the node's CPUs that are not reserved" \
    "$(printf '%s' "$out" | awk '{ print $2 }')" "$want"

# cpm-alloc take web 8 | cpm-topo nodes -
cpm-alloc release db >/dev/null
run sh -c 'cpm-alloc take web 1 | cpm-topo nodes -'
assert "the nodes of what cpm-alloc took" "$out" "0
"
run sh -c 'cpm-pin --mem bind "$(cpm-alloc show web)" -- cat /proc/self/status' 
assert "--mem bind without --nodes binds to the nodes of the CPUs" \
    "$(printf '%s' "$out" | awk '/^Mems_allowed_list:/ { print $2 }')" "0"

# The same pipeline on a generated two-socket machine.
M=$T_TMP/m
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s4n-smt.spec" "$M"
export CPM_SYSROOT=$M CPM_STATE=$T_TMP/m.state
cpm-alloc init --reserve 2 >/dev/null
check "reserved CPUs are one whole core" 0 "0,16" cpm-alloc reserved
run sh -c 'cpm-alloc take web 8 | cpm-topo nodes -'
# Node 0 holds the reserved core, so the whole free node 1 is taken.
assert "8 CPUs take the one wholly free NUMA node" "$out" "1
"
run sh -c 'cpm-alloc take db 4 --numa-policy single-numa-node | cpm-topo check - --policy local'
assert "a single-numa-node placement passes a local check" "$rc:$out" "0:"
run sh -c 'cpm-topo cpus node:3 --not "$(cpm-alloc reserved)" | cpm-pin --dry-run - -- ./batch'
if [ "$rc" = 0 ] && printf '%s' "$out" | grep -q '12-15,28-31'; then
	ok "cpm-pin plans a batch job on node 3 of the generated machine"
else
	not_ok "cpm-pin plans a batch job on node 3 of the generated machine" "$(show)"
fi
unset CPM_SYSROOT

# cpm-throttle --since FILE --prom-file PATH on a cgroup v2 file tree (not
# the kernel: the live throttling tests are in t-throttle-live.sh).
cg=$T_TMP/cg
mkdir -p "$cg/kubepods/pod1"
echo "cpu cpuset" >"$cg/cgroup.controllers"
echo "50000 100000" >"$cg/kubepods/pod1/cpu.max"
printf 'usage_usec 1000\nnr_periods 100\nnr_throttled 40\nthrottled_usec 5000\n' >"$cg/kubepods/pod1/cpu.stat"
cpm-throttle --cgroup-root "$cg" --since "$T_TMP/snap" --prom-file "$T_TMP/cpm.prom" >/dev/null
printf 'usage_usec 2000\nnr_periods 200\nnr_throttled 140\nthrottled_usec 9000\n' >"$cg/kubepods/pod1/cpu.stat"
run cpm-throttle --cgroup-root "$cg" --since "$T_TMP/snap" --prom-file "$T_TMP/cpm.prom"
if [ "$rc" = 0 ] && [ -z "$out" ] &&
    grep -q '^cpm_cpu_cfs_throttled_periods_total{.*} 140' "$T_TMP/cpm.prom" &&
    grep -Eq '^cpm_cpu_cfs_throttled_ratio\{.*\} 1(\.0+)?$' "$T_TMP/cpm.prom"; then
	ok "a cron run writes the textfile with the window's ratio"
else
	not_ok "a cron run writes the textfile with the window's ratio" "$(show)" "$(cat "$T_TMP/cpm.prom")"
fi
if command -v promtool >/dev/null; then
	run promtool check metrics <"$T_TMP/cpm.prom"
	assert "promtool accepts the textfile" "$rc" 0
fi
