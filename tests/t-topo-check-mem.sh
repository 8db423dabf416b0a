#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-topo check --pid / --cgroup: where a process's or a group's pages
# are against its CPUs and its policy, on a generated three-node machine
# (nodes 0 and 1 with CPUs 0-1 and 2-3, node 2 memory only, its HMAT
# initiator node 0; interleave weights 5 5 2) with hand-written numa_maps,
# status and numa_stat files: this host has one node, where nothing is
# ever far or outside.
. "$(dirname "$0")/lib.sh"

root=$T_TMP/m
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s3n-hmat.spec" "$root"

# proc PID CPUS POLICY "N0=.. N2=.." [STACK]: a process on CPUS whose heap
# has those pages (4 kB each) under POLICY, its stack one page on node 0
# (or as STACK says, "N2=1").
proc() {
	mkdir -p "$root/proc/$1"
	printf 'Name:\tx\nCpus_allowed_list:\t%s\nMems_allowed_list:\t0-2\n' "$2" \
	    >"$root/proc/$1/status"
	printf '%s\n' \
	    "55d0a0000000 $3 anon=1 dirty=1 $4 kernelpagesize_kB=4" \
	    "7ffd00000000 $3 stack anon=1 dirty=1 ${5:-N0=1} kernelpagesize_kB=4" \
	    >"$root/proc/$1/numa_maps"
}

proc 100 0-1 default "N0=16384"
check "clean: memory on the CPUs' node" 0 \
    "process 100: CPUs 0-1, mempolicy default, memory node 0 64.0 MiB (100%)" \
    cpm-topo --sysroot "$root" check --pid 100

# "far" is judged against the nearest initiator: node 2 (CPU-less, HMAT
# access0 initiator node 0) is near socket 0 and far from socket 1.
proc 101 2-3 bind:2 "N2=16384" N2=1
check "bound to a CPU-less node whose initiator is another socket: far" 3 \
"process 101: CPUs 2-3, mempolicy bind 2, memory node 2 64.0 MiB (100%)
warning: process 101 runs on CPUs 2-3 (node 1) but 64.0 MiB of its 64.0 MiB (100%) is on node 2" \
    cpm-topo --sysroot "$root" check --pid 101
proc 109 0-1 bind:2 "N2=16384" N2=1
check "bound to the CPU-less node its own node initiates: not far" 0 \
    "process 109: CPUs 0-1, mempolicy bind 2, memory node 2 64.0 MiB (100%)" \
    cpm-topo --sysroot "$root" check --pid 109
proc 110 0-1 "prefer (many):0,2" "N0=128 N2=4000"
check "preferred-many onto the tier below its own node: not far" 0 \
    "process 110: CPUs 0-1, mempolicy preferred-many 0,2, memory node 0 0.5 MiB (3%), node 2 15.6 MiB (97%)" \
    cpm-topo --sysroot "$root" check --pid 110
proc 111 2-3 "prefer (many):1-2" "N1=128 N2=4000" N1=1
run cpm-topo --sysroot "$root" check --pid 111
case $out in
*"warning: process 111 runs on CPUs 2-3 (node 1) but 15.6 MiB of its 16.1 MiB (97%) is on node 2"*)
	assert "preferred-many onto a node another socket initiates: far" "$rc" 3 ;;
*) not_ok "preferred-many onto a node another socket initiates: far" "$(show)" ;;
esac
proc 112 0-1 "weighted interleave:0,2" "N0=11700 N2=4684"
check "weighted interleave with the tier below: not far, spread" 0 \
    "process 112: CPUs 0-1, mempolicy weighted-interleave 0,2, memory node 0 45.7 MiB (71%), node 2 18.3 MiB (29%)" \
    cpm-topo --sysroot "$root" check --pid 112
proc 113 0-1 default "N2=16384"
run cpm-topo --sysroot "$root" check --pid 113
case $out in
*"warning: process 113 runs on CPUs 0-1 (node 0) but 64.0 MiB"*"is on node 2"*)
	assert "a default policy that did not ask for the CPU-less node: far" "$rc" 3 ;;
*) not_ok "a default policy that did not ask for the CPU-less node: far" "$(show)" ;;
esac
# With no HMAT, the nearest initiator is the CPU node at the smallest
# SLIT distance (node 2: 17 from node 0, 28 from node 1).
cp -R "$root" "$T_TMP/noh"
rm -rf "$T_TMP/noh/sys/devices/system/node/node2/access0" \
    "$T_TMP/noh/sys/devices/system/node/node2/access1"
check "no HMAT: the nearest by distance is near" 0 \
    "process 110: CPUs 0-1, mempolicy preferred-many 0,2, memory node 0 0.5 MiB (3%), node 2 15.6 MiB (97%)" \
    cpm-topo --sysroot "$T_TMP/noh" check --pid 110
run cpm-topo --sysroot "$T_TMP/noh" check --pid 111
assert "no HMAT: a node nearer another socket is far" "$rc" 3

# "outside" judges what the policy places, the process's own data: the
# program's text, pages of a file mapped (often cached) before the
# policy was set, is not the policy's.
proc 114 0-1 bind:0 "N0=16384"
printf '%s\n' "55d09f000000 default file=/usr/bin/x mapped=75 mapmax=3 N1=75 kernelpagesize_kB=4" \
    >>"$root/proc/114/numa_maps"
check "bind: 300 KiB of the program's text on another node is no finding" 0 \
    "process 114: CPUs 0-1, mempolicy bind 0, memory node 0 64.0 MiB (100%), node 1 0.3 MiB (0%)" \
    cpm-topo --sysroot "$root" check --pid 114
printf '%s\n' "7f0000000000 bind:0 anon=64 dirty=64 N1=64 kernelpagesize_kB=4" \
    >>"$root/proc/114/numa_maps"
run cpm-topo --sysroot "$root" check --pid 114
case $out in
*"warning: process 114: 0.2 MiB (0%) is on node 1, outside the bind policy's node 0"*)
	assert "bind: its own data on another node still is" "$rc" 3 ;;
*) not_ok "bind: its own data on another node still is" "$(show)" ;;
esac

proc 102 0-1 default "N0=12288 N1=4096"
check "local policy with a quarter remote" 3 \
"process 102: CPUs 0-1, mempolicy default, memory node 0 48.0 MiB (75%), node 1 16.0 MiB (25%)
warning: process 102 has a default policy but 16.0 MiB (25%) of its memory is on node 1, not on its CPUs' node 0" \
    cpm-topo --sysroot "$root" check --pid 102

proc 103 0-1 bind:0 "N0=14336 N1=2048"
run cpm-topo --sysroot "$root" check --pid 103
case $out in
*"warning: process 103: 8.0 MiB (12%) is on node 1, outside the bind policy's node 0"*)
	[ "$rc" = 3 ] && ok "bind: pages outside its nodes" || not_ok "bind: pages outside its nodes" "$(show)" ;;
*) not_ok "bind: pages outside its nodes" "$(show)" ;;
esac

proc 104 0-3 interleave:0-1 "N0=15564 N1=820"
run cpm-topo --sysroot "$root" check --pid 104
case $out in
*"warning: process 104: interleave over nodes 0-1 is not spread: node 0 60.8 MiB (95%), node 1 3.2 MiB (5%)"*)
	[ "$rc" = 3 ] && ok "interleave not spread" || not_ok "interleave not spread" "$(show)" ;;
*) not_ok "interleave not spread" "$(show)" ;;
esac
proc 105 0-3 interleave:0-1 "N0=8192 N1=8192"
check "interleave spread evenly: clean" 0 \
    "process 105: CPUs 0-3, mempolicy interleave 0-1, memory node 0 32.0 MiB (50%), node 1 32.0 MiB (50%)" \
    cpm-topo --sysroot "$root" check --pid 105

# Weighted interleave 0,2 with the kernel's weights 5 and 2.
proc 106 0-1 "weighted interleave:0,2" "N0=11700 N2=4684"
run cpm-topo --sysroot "$root" check --pid 106
assert "weighted interleave 5:2 as the weights say: clean" "$rc" 0
proc 107 0-1 "weighted interleave:0,2" "N0=8192 N2=8192"
run cpm-topo --sysroot "$root" check --pid 107
case $out in
*"weighted-interleave over nodes 0,2 is not spread"*) not_ok "weighted 1:1 is within half of 5:2's shares" "$(show)" ;;
*) assert "weighted 1:1 is within half of 5:2's shares" "$rc" 0 ;;
esac
proc 108 0-1 "weighted interleave:0,2" "N0=16000 N2=384"
run cpm-topo --sysroot "$root" check --pid 108
case $out in
*"warning: process 108: weighted-interleave over nodes 0,2 is not spread: node 0 62.5 MiB (98%), node 2 1.5 MiB (2%)"*)
	ok "weighted interleave far from 5:2" ;;
*) not_ok "weighted interleave far from 5:2" "$(show)" ;;
esac

run cpm-topo --sysroot "$root" check --pid 101 --json
got=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["pid"], d["cpus"], d["mempolicy"], d["memory"]["total_kb"],
      [(n["node"], n["kb"]) for n in d["memory"]["nodes"]],
      [(f["kind"], f["kb"], f["percent"]) for f in d["findings"]])' 2>&1)
assert "--json: the process, its pages and findings" "$got" \
    "101 2-3 bind 2 65540 [(2, 65540)] [('far', 65540, 100.0)]"
assert "--json: exit 3 with findings" "$rc" 3

check_fail "--pid of no process" 2 "^cpm-topo: no process with pid 999" \
    cpm-topo --sysroot "$root" check --pid 999
check_fail "--pid and a cpulist" 2 "takes no cpulist" \
    cpm-topo --sysroot "$root" check --pid 100 0-1
check_fail "--pid and --cgroup" 2 "cannot be combined" \
    cpm-topo --sysroot "$root" check --pid 100 --cgroup a
check_fail "--pid junk" 2 "invalid --pid 'x'" \
    cpm-topo --sysroot "$root" check --pid x

# cgroup v2: memory.numa_stat in bytes, cpuset.cpus.effective.
v2=$T_TMP/v2
mkdir -p "$v2/job"
echo 'cpuset cpu memory' >"$v2/cgroup.controllers"
echo 0-1 >"$v2/job/cpuset.cpus.effective"
printf '%s\n' "anon N0=4194304 N1=0 N2=62914560" "file N0=1048576 N1=0 N2=0" \
    "kernel_stack N0=16384 N1=0 N2=0" "shmem N0=0 N1=0 N2=0" \
    >"$v2/job/memory.numa_stat"
check "--cgroup (v2): most memory on the CPU-less node" 3 \
"cgroup 'job': CPUs 0-1, memory node 0 5.0 MiB (8%), node 2 60.0 MiB (92%)
warning: cgroup 'job' runs on CPUs 0-1 (node 0) but 60.0 MiB of its 65.0 MiB (92%) is on node 2" \
    cpm-topo --sysroot "$root" check --cgroup job --cgroup-root "$v2"
check_fail "--cgroup: no such group" 2 "" \
    cpm-topo --sysroot "$root" check --cgroup nojob --cgroup-root "$v2"

# cgroup v1: memory.numa_stat in pages, cpuset.effective_cpus.
v1=$T_TMP/v1
mkdir -p "$v1/cpuset/job" "$v1/memory/job" "$v1/cpu"
echo 2-3 >"$v1/cpuset/job/cpuset.effective_cpus"
printf '%s\n' "total=16384 N0=0 N1=16384 N2=0" "file=0 N0=0 N1=0 N2=0" \
    "anon=16384 N0=0 N1=16384 N2=0" "hierarchical_total=16384 N0=0 N1=16384 N2=0" \
    >"$v1/memory/job/memory.numa_stat"
pkb=$(( $(getconf PAGESIZE) / 1024 ))
want_mib=$(awk -v k="$pkb" 'BEGIN { printf "%.1f", 16384 * k / 1024 }')
check "--cgroup (v1): memory on the CPUs' node" 0 \
    "cgroup 'job': CPUs 2-3, memory node 1 $want_mib MiB (100%)" \
    cpm-topo --sysroot "$root" check --cgroup job --cgroup-root "$v1"
