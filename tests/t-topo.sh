#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-topo's command line on generated machines (tests/topologies/*.spec,
# whose expected answers follow from the spec) and on this live machine.
. "$(dirname "$0")/lib.sh"

M=$T_TMP/2s4n
O=$T_TMP/offline
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s4n-smt.spec" "$M" ||
    { not_ok "generate 2s4n-smt"; exit 1; }
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/1s-offline-cxl.spec" "$O" ||
    { not_ok "generate 1s-offline-cxl"; exit 1; }
export CPM_SYSROOT=$M

# --- selectors on 2 sockets x 2 nodes x 4 cores x 2 threads ---
check "node:0 is its first four cores and their siblings" 0 "0-3,16-19" cpm-topo cpus node:0
check "several selectors give their union" 0 "0-3,8-11,16-19,24-27" cpm-topo cpus node:0 node:2
check "socket:1 is nodes 2 and 3" 0 "8-15,24-31" cpm-topo cpus socket:1
check "die:1.0 is all of socket 1" 0 "8-15,24-31" cpm-topo cpus die:1.0
check "l3:1 is node 1's cache" 0 "4-7,20-23" cpm-topo cpus l3:1
check "siblings:5 is CPU 5 and its thread 21" 0 "5,21" cpm-topo cpus siblings:5
check "thread:0 is the first thread of every core" 0 "0-15" cpm-topo cpus thread:0
check "thread:1 --count counts the second threads" 0 "16" cpm-topo cpus thread:1 --count
check "--and and --not apply in order" 0 "4-15" cpm-topo cpus all --not node:0 --and thread:0
# JSON for every view that prints data.
check "cpus --json gives the list and its count" 0 '{"cpus":"0-3,16-19","count":8}' \
    cpm-topo cpus node:0 --json
check "nodes --json gives the CPUs asked about and their nodes" 0 '{"cpus":"0,4","nodes":"0-1"}' \
    cpm-topo nodes 0,4 --json
run cpm-topo check 0,4 --json
assert "check --json gives each finding its level and message, exit 3" "$rc:$out" \
    '3:{"cpus":"0,4","findings":[{"level":"warning","message":"CPUs span 2 NUMA nodes (0-1) where 1 would hold them; memory access will cross nodes"},{"level":"warning","message":"CPUs span 2 L3 caches where one would hold them"},{"level":"warning","message":"core 0 is half used: CPU 0 in the list shares it with sibling 16 outside it"},{"level":"warning","message":"core 4 is half used: CPU 4 in the list shares it with sibling 20 outside it"}]}
'
check "check --json of a good placement has no findings" 0 '{"cpus":"0-3,16-19","findings":[]}' \
    cpm-topo check 0-3,16-19 --json
check "a cpulist selector with strides" 0 "0,2,4,6" cpm-topo cpus 0-7:1/2
check "all is the possible CPUs" 0 "0-31" cpm-topo cpus all
check "isolated is empty here" 0 "" cpm-topo cpus isolated
check "allowed is every online CPU of a replayed tree" 0 "0-31" cpm-topo cpus allowed
T_IN="0-3
" check "'-' reads the cpulist from stdin" 0 "0-3" cpm-topo cpus -
T_IN="16-19" check "--not - reads from stdin" 0 "0-3" cpm-topo cpus node:0 --not -
check "nodes of CPUs on three nodes" 0 "0-1,3" cpm-topo nodes 3,20,30
check "nodes of an empty list is an empty line" 0 "" cpm-topo nodes ""
run sh -c 'cpm-topo cpus node:0 --not 0 | cpm-topo nodes -'
assert "cpus | nodes - composes through a pipe" "$out" "0
"
check "--sysroot after the command wins over the environment" 0 "0-4,6-7" \
    cpm-topo cpus node:0 --sysroot "$O"

# --- lists longer than the loader's 8 KiB buffer are read whole ---
L=$T_TMP/long
cp -R "$M" "$L"
rep() { awk -v s="$1" -v n="$2" 'BEGIN { for (i = 1; i <= n; i++) printf "%s%s", s, (i < n ? "," : "\n") }'; }
rep 0-31 2000 >"$L/sys/devices/system/cpu/online"
rep 0-3,16-19 1000 >"$L/sys/devices/system/node/node0/cpulist"
rep 0,16 2000 >"$L/sys/devices/system/cpu/cpu0/topology/thread_siblings_list"
check "a 10 KB online list is read whole" 0 "0-31" cpm-topo cpus online --sysroot "$L"
check "a 10 KB node list is read whole" 0 "0-3,16-19" cpm-topo cpus node:0 --sysroot "$L"
check "a 10 KB sibling list is read whole" 0 "0,16" cpm-topo cpus siblings:0 --sysroot "$L"

# --- allowed: the process's cpuset, under each name the kernel has used ---
# C is a replayed tree whose proc/mounts and proc/self/cgroup point into
# cgroup files written here; each case names its cpuset file differently.
C=$T_TMP/cg
cp -R "$M" "$C"
mkdir -p "$C/proc/self" "$C/sys/fs/cgroup/cpuset/job" "$C/sys/fs/cgroup/unified/job"
echo "0::/job" >"$C/proc/self/cgroup"
echo "cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0" >"$C/proc/mounts"
echo 2-5 >"$C/sys/fs/cgroup/unified/job/cpuset.cpus.effective"
check "allowed follows a v2 group's cpuset.cpus.effective" 0 "2-5" \
    cpm-topo cpus allowed --sysroot "$C"
echo "4:cpuset:/job" >"$C/proc/self/cgroup"
echo "cgroup /sys/fs/cgroup/cpuset cgroup rw,cpuset 0 0" >"$C/proc/mounts"
echo 6-7 >"$C/sys/fs/cgroup/cpuset/job/cpuset.effective_cpus"
echo 6-9 >"$C/sys/fs/cgroup/cpuset/job/cpuset.cpus"
check "allowed follows a v1 group's cpuset.effective_cpus" 0 "6-7" \
    cpm-topo cpus allowed --sysroot "$C"
rm "$C/sys/fs/cgroup/cpuset/job/cpuset.effective_cpus"
check "without effective_cpus (before 4.4), cpuset.cpus" 0 "6-9" \
    cpm-topo cpus allowed --sysroot "$C"
echo "cgroup /sys/fs/cgroup/cpuset cgroup rw,cpuset,noprefix 0 0" >"$C/proc/mounts"
echo 8-9 >"$C/sys/fs/cgroup/cpuset/job/cpus"
check "a noprefix v1 mount names it cpus" 0 "8-9" \
    cpm-topo cpus allowed --sysroot "$C"

# --- bad input: one line, exit 2 ---
check_fail "a node that does not exist" 2 "no NUMA node 9" cpm-topo cpus node:9
check_fail "a CPU beyond the machine" 2 "CPU 40 does not exist" cpm-topo cpus 0,40
check_fail "CPUs beyond the machine are all named" 2 "CPUs 32-33,40 do not exist" cpm-topo cpus 30-33,40
check_fail "a bad --nodes list is a nodelist, not a CPU list" 2 \
    "^cpm-topo: invalid nodelist 'x': not a number or range\$" cpm-topo check 0 --nodes x
check_fail "a reversed range names itself" 2 "'10-1'" cpm-topo cpus 10-1
check_fail "junk in a cpulist names itself" 2 "'3x'" cpm-topo cpus 1,3x
check_fail "an unknown selector" 2 "unknown selector 'bogus'" cpm-topo cpus bogus
check_fail "a selector with a bad number" 2 "'node:x'" cpm-topo cpus node:x
check_fail "a thread beyond the cores' threads" 2 "at most 2 threads" cpm-topo cpus thread:2
check_fail "a socket that does not exist" 2 "no socket 2" cpm-topo cpus socket:2
check_fail "a die without a dot" 2 "die:SOCKET.DIE" cpm-topo cpus die:1
check_fail "cpus without a selector" 2 "at least one selector" cpm-topo cpus
check_fail "--and without an argument" 2 "option '--and' requires an argument" cpm-topo cpus all --and
check_fail "an unknown option" 2 "unrecognized option '--frob'" cpm-topo --frob
check_fail "an unknown command" 2 "unknown command 'frob'" cpm-topo frob
check_fail "nodes without a cpulist" 2 "needs a cpulist" cpm-topo nodes
check_fail "--sysroot that does not exist" 2 "cannot open sysroot" cpm-topo --sysroot "$T_TMP/nope"
mkdir "$T_TMP/empty"
check_fail "--sysroot without CPU information" 2 "no CPU information" cpm-topo --sysroot "$T_TMP/empty"
cp -r "$M" "$T_TMP/bad"
echo "0-31x" >"$T_TMP/bad/sys/devices/system/cpu/online"
check_fail "a malformed sysfs file is named" 2 "malformed sys/devices/system/cpu/online" \
    cpm-topo --sysroot "$T_TMP/bad" cpus online
run cpm-topo --help
if [ "$rc" = 0 ] && [ -z "$err" ] && printf '%s' "$out" | grep -q '^Usage: cpm-topo'; then
	ok "--help prints usage on stdout"
else not_ok "--help prints usage on stdout" "$(show)"; fi
check "--version" 0 "cpm-topo 0.1.0" cpm-topo --version

# --- -e and --json ---
run cpm-topo -e
assert "-e header" "$(printf '%s' "$out" | head -1)" "CPU NODE SOCKET DIE CORE L3 ONLINE"
assert "-e row of a second thread" "$(printf '%s' "$out" | awk '$1 == 21')" \
    "$(printf '%3d %4d %6d %3d %4d %2d %6s' 21 1 0 0 5 1 yes)"
assert "-e has a row per possible CPU" "$(printf '%s' "$out" | wc -l)" 33

# --- column selection: -o/--output/--columns, --raw, --noheadings ---
check "-o picks columns in its order, in any case, and implies -e" 0 "NODE CPU
   1  21" sh -c 'cpm-topo -o node,CPU | awk "NR == 1 || \$2 == 21"'
check "--columns with --raw --noheadings: bare rows" 0 "5 5,21" \
    sh -c 'cpm-topo --columns cpu,siblings --raw --noheadings | sed -n 6p'
check "--output with -e is the same table" 0 "$(cpm-topo -o cpu,online)" \
    cpm-topo -e --output CPU,ONLINE
check "--noheadings sizes the default columns to their cells" 0 \
    "21 1 0 0  5 1 yes" sh -c 'cpm-topo --noheadings | sed -n 22p'
run cpm-topo --json -o cpu,SIBLINGS
case $out in
*'"cpus":[{"cpu":0,"siblings":"0,16"},{"cpu":1,"siblings":"1,17"},'*'"nodes":'*)
	ok "--json -o selects the members of the cpus objects" ;;
*) not_ok "--json -o selects the members of the cpus objects" "$(show)" ;;
esac
check_fail "an unknown column is refused with the valid ones" 2 \
    "^cpm-topo: unknown column 'nope' \(valid: CPU, NODE, SOCKET, DIE, CORE, L3, ONLINE, TYPE, CAPACITY, SIBLINGS, PART, L1d, L1i, L2, CACHE\)\$" \
    cpm-topo -o cpu,nope
check_fail "an empty column list is refused" 2 "empty column name" \
    cpm-topo -o ''
check_fail "--raw does not go with --json" 2 "go with -e" cpm-topo --json --raw
check_fail "-o does not go with a command" 2 "'--output' does not apply to 'cpus'" \
    cpm-topo -o cpu cpus all
# CPU numbers and cache ids wider than their headers: every line of -e
# has the same length, so the columns line up.
printf 'node 0\ncpu 0 core=0 socket=0 node=0 l3=0\ncpu 999 core=1 socket=0 node=0 l3=0\ncpu 1000 core=2 socket=0 node=0 l3=100\ncpu 1001 core=2 socket=0 node=0 l3=100\n' |
    python3 "$CPM_TOP/tests/gen-sysfs" - "$T_TMP/wide" ||
    not_ok "generate a machine with CPU 1001"
check "-e lines up CPUs past 999 and L3 ids past 99" 0 " CPU NODE SOCKET DIE CORE  L3 ONLINE
   0    0      0   0    0   0    yes
 999    0      0   0  999   0    yes
1000    0      0   0 1000 100    yes
1001    0      0   0 1000 100    yes" cpm-topo --sysroot "$T_TMP/wide" -e
run cpm-topo --json
printf '%s' "$out" >"$T_TMP/j"
if python3 - "$T_TMP/j" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["possible"] == "0-31" and d["online"] == "0-31" and d["offline"] == ""
c = {x["cpu"]: x for x in d["cpus"]}
assert c[21] == {"cpu": 21, "online": True, "node": 1, "socket": 0, "die": 0,
                 "core": 5, "l3": 1, "siblings": "5,21", "l1d": 5, "l1i": 5,
                 "l2": 5}, c[21]
k = {x["name"]: x for x in d["caches"]}
assert list(k) == ["L1d", "L1i", "L2", "L3"], list(k)
assert (k["L2"]["level"], k["L2"]["type"], k["L2"]["size"], k["L2"]["all_size"],
        k["L2"]["shared"], len(k["L2"]["instances"])) == \
    (2, "Unified", 1 << 20, 16 << 20, 2, 16), k["L2"]
assert k["L2"]["instances"][5] == {"id": 5, "cpus": "5,21"}, k["L2"]["instances"]
assert k["L3"]["instances"][1] == {"id": 1, "cpus": "4-7,20-23"}
n = {x["node"]: x for x in d["nodes"]}
assert n[2]["cpus"] == "8-11,24-27" and n[2]["distances"] == [21, 21, 10, 12]
assert n[0]["memory_total_kb"] == 8388608 and n[0]["memory_free_kb"] == 6291456
assert [s["cpus"] for s in d["sockets"]] == ["0-7,16-23", "8-15,24-31"]
assert [(x["id"], x["cpus"], x["size_kb"]) for x in d["l3"]] == [
    (0, "0-3,16-19", 16384), (1, "4-7,20-23", 16384),
    (2, "8-11,24-27", 16384), (3, "12-15,28-31", 16384)]
PY
then ok "--json holds the spec's machine"; else not_ok "--json holds the spec's machine" "$(cat "$T_TMP/j" | head -c 600)"; fi
check_fail "-e with a command is refused" 2 "'--extended' does not apply to 'cpus'" cpm-topo -e cpus all

# --- check ---
check "check: whole cores on one node are clean" 0 "" cpm-topo check 0-3,16-19
run cpm-topo check 0-1
if [ "$rc" = 3 ] && printf '%s' "$out" | grep -q '^warning: core 0 is half used: CPU 0 .* sibling 16' &&
    printf '%s' "$out" | grep -q '^warning: core 1 is half used'; then
	ok "check: half-used cores are warned about"
else not_ok "check: half-used cores are warned about" "$(show)"; fi
run cpm-topo check 0,8,16,24 --policy local
if [ "$rc" = 3 ] && printf '%s' "$out" | grep -q '^error: CPUs span 2 NUMA nodes (0,2); local placement needs one'; then
	ok "check: local placement across nodes is an error"
else not_ok "check: local placement across nodes is an error" "$(show)"; fi
run cpm-topo check 0-2,16-18,4,20
if [ "$rc" = 3 ] && printf '%s' "$out" | grep -q '^warning: CPUs span 2 NUMA nodes (0-1) where 1 would hold them'; then
	ok "check: compact placement over more nodes than needed"
else not_ok "check: compact placement over more nodes than needed" "$(show)"; fi
run cpm-topo check 0-3,16-19 --policy spread
if [ "$rc" = 3 ] && printf '%s' "$out" | grep -q '^warning: all CPUs are on NUMA node 0'; then
	ok "check: spread placement on one node"
else not_ok "check: spread placement on one node" "$(show)"; fi
check "check: spread over two nodes is clean" 0 "" cpm-topo check 0,16,4,20 --policy spread
run cpm-topo check 0-3,16-19 --nodes 1
if [ "$rc" = 3 ] && printf '%s' "$out" | grep -q '^error: CPUs 0-3,16-19 are outside NUMA node 1'; then
	ok "check: CPUs outside --nodes"
else not_ok "check: CPUs outside --nodes" "$(show)"; fi
run cpm-topo check 0-3,16-19 --nodes 0,7
if [ "$rc" = 3 ] && printf '%s' "$out" | grep -q '^error: NUMA node 7 does not exist'; then
	ok "check: a node that does not exist"
else not_ok "check: a node that does not exist" "$(show)"; fi
run cpm-topo check 0-7,16-23
if [ "$rc" = 3 ] && printf '%s' "$out" | grep -q 'span 2 L3 caches' ; then
	not_ok "check: a socket's worth on two caches that cannot fit one is fine" "$(show)"
else ok "check: a socket's worth on two caches that cannot fit one is fine"; fi
check_fail "check: an unknown policy" 2 "unknown policy 'tight'" cpm-topo check 0 --policy tight
check_fail "check: a CPU beyond the machine" 2 "CPU 99 does not exist" cpm-topo check 99

# --- offline CPU, isolated CPU, CPU-less node ---
export CPM_SYSROOT=$O
check "offline CPUs" 0 "5" cpm-topo cpus offline
check "isolated CPUs" 0 "7" cpm-topo cpus isolated
check "the sibling of an offline CPU stands alone" 0 "1" cpm-topo cpus siblings:1
check "a CPU-less node selects nothing" 0 "" cpm-topo cpus node:1
# An x86 kernel (the tree's) drops an offline CPU from its node's cpulist:
# its node is unknown, as lscpu shows it (an arm64 one keeps it there:
# t-topo-answers).
check "the node of an offline CPU is unknown on x86" 0 "" cpm-topo nodes 5
run cpm-topo -e
assert "-e shows what is unknown about an offline CPU" \
    "$(printf '%s' "$out" | awk '$1 == 5')" "$(printf '%3d %4s %6s %3s %4s %2s %6s' 5 - - - - - no)"
run cpm-topo
if printf '%s' "$out" | grep -q '^NUMA node 1: *CPUs -, memory 64.0 GiB total' &&
    printf '%s' "$out" | grep -q '^Offline CPUs: *5$' &&
    printf '%s' "$out" | grep -q '^Threads per core: *2$'; then
	ok "summary shows the memory-only node and the offline CPU"
else not_ok "summary shows the memory-only node and the offline CPU" "$(show)"; fi
run cpm-topo check 5,7
if [ "$rc" = 3 ] && printf '%s' "$out" | grep -q '^error: CPU 5 is offline' &&
    printf '%s' "$out" | grep -q '^warning: CPU 7 is isolated'; then
	ok "check: offline and isolated CPUs"
else not_ok "check: offline and isolated CPUs" "$(show)"; fi

# --- dump and replay ---
cpm-topo --sysroot "$M" dump "$T_TMP/dump1" 2>"$T_TMP/derr"
run cpm-topo --sysroot "$T_TMP/dump1" --json
a=$out
run cpm-topo --sysroot "$M" --json
assert "dump of a tree replays to the same topology" "$a" "$out"
check_fail "dump refuses a directory that is not empty" 2 "exists and is not empty" \
    cpm-topo --sysroot "$M" dump "$T_TMP/dump1"
unset CPM_SYSROOT
if cpm-topo dump "$T_TMP/live" 2>"$T_TMP/derr"; then
	# Free memory moves between two reads of a live machine.
	run cpm-topo --sysroot "$T_TMP/live" --json
	a=$(printf '%s' "$out" | sed 's/"memory_free_kb":[0-9]*//g')
	run cpm-topo --json
	assert "dump of this machine replays to the same topology" "$a" \
	    "$(printf '%s' "$out" | sed 's/"memory_free_kb":[0-9]*//g')"
else
	not_ok "dump of this machine" "$(cat "$T_TMP/derr")"
fi

# --- the live machine against the kernel and lscpu ---
# On the live sysfs a file is opened, read and closed, without the fstat
# that refuses a FIFO or a device planted in a tree others may write
# (sysfs can hold neither); the replay above checked what it reads.
# Counted: the sysfs files read (opened O_NONBLOCK) and those of them
# given an fstat before their close (a node's meminfo, read whole, is).
# (LeakSanitizer cannot run under ptrace: the sanitizer pass traces a
# run without it.)
if command -v strace >/dev/null 2>&1 &&
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -o "$T_TMP/st" -e trace=openat,newfstatat,fstat,statx,close \
    cpm-topo >/dev/null 2>&1; then
	run awk '
	/^openat\(.*"sys\/devices\/.*O_NONBLOCK.*= [0-9]+$/ { f[$NF] = 1; n++; next }
	/^(newfstatat|fstat|statx)\([0-9]+, ""/ {
		fd = $1; sub(/^[a-z]+\(/, "", fd); sub(/,.*/, "", fd)
		if (fd in f) { s++; delete f[fd] } next }
	/^close\(/ { fd = $1; sub(/^close\(/, "", fd); sub(/\).*/, "", fd); delete f[fd] }
	END { print n + 0, s + 0 }' "$T_TMP/st"
	set -- $out
	if [ "$1" -ge 10 ] && [ "$2" -lt $(($1 / 2)) ]; then
		ok "live sysfs files are read without an fstat each"
	else
		not_ok "live sysfs files are read without an fstat each" \
		    "$1 sysfs files read, $2 of them given an fstat"
	fi
else
	skip "live sysfs files are read without an fstat each" "no strace here"
fi
check "online CPUs are the kernel's" 0 "$(cat /sys/devices/system/cpu/online)" cpm-topo cpus online
if command -v taskset >/dev/null; then
	check "allowed follows this process's affinity" 0 "0" taskset -c 0 cpm-topo cpus allowed
fi
if command -v lscpu >/dev/null; then
	cpm-topo -e | awk 'NR > 1 && $7 == "yes" { print $1, $5, $3, $2 }' >"$T_TMP/ce"
	lscpu -p=CPU,CORE,SOCKET,NODE | awk -F, '!/^#/ { print $1, $2, $3, ($4 == "" ? "-" : $4) }' >"$T_TMP/le"
	for what in "cores:2" "sockets:3"; do
		col=${what#*:}
		awk -v c="$col" '{ print $1, $c }' "$T_TMP/ce" | awk -f "$CPM_TOP/tests/partition.awk" >"$T_TMP/a"
		awk -v c="$col" '{ print $1, $c }' "$T_TMP/le" | awk -f "$CPM_TOP/tests/partition.awk" >"$T_TMP/b"
		if cmp -s "$T_TMP/a" "$T_TMP/b"; then ok "live ${what%:*} agree with lscpu -p"
		else not_ok "live ${what%:*} agree with lscpu -p" "$(diff "$T_TMP/b" "$T_TMP/a")"; fi
	done
	assert "live NUMA nodes agree with lscpu -p" "$(awk '{ print $1, $4 }' "$T_TMP/ce")" \
	    "$(awk '{ print $1, $4 }' "$T_TMP/le")"
fi
