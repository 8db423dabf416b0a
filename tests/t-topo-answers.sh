#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One answer for one question: the selectors, the summary and --json
# agree about offline CPUs and NUMA node lists, as the kernel's files (and
# lscpu) give them; every tool fails alike on a bad --cgroup-root; and
# --sysroot is honoured by exactly the tools the documents name.
. "$(dirname "$0")/lib.sh"

S=$CPM_TOP/tests/topologies/1s-offline-cxl.spec
python3 "$CPM_TOP/tests/gen-sysfs" "$S" "$T_TMP/x86" || { not_ok "gen-sysfs"; exit 1; }
{ echo "arch arm64"; cat "$S"; } | python3 "$CPM_TOP/tests/gen-sysfs" - "$T_TMP/arm" ||
    { not_ok "gen-sysfs arm64"; exit 1; }

# siblings: of an offline CPU: online CPUs only, as --json's null says.
check "siblings: of an offline CPU is empty (online CPUs only)" 0 "" \
    cpm-topo --sysroot "$T_TMP/x86" cpus siblings:5
check "siblings: of an online CPU with an offline sibling" 0 1 \
    cpm-topo --sysroot "$T_TMP/x86" cpus siblings:1
got=$(cpm-topo --sysroot "$T_TMP/x86" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print([c["siblings"] for c in d["cpus"] if c["cpu"] == 5][0])')
assert "--json: the offline CPU has no siblings" "$got" "None"
check_fail "siblings: of a CPU that does not exist" 2 "CPU 9 does not exist" \
    cpm-topo --sysroot "$T_TMP/x86" cpus siblings:9

# Node lists: an x86 kernel's cpulist drops the offline CPU, arm64's keeps
# it; node:0 and "cpus" are the online CPUs on both, the kernel's file is
# shown (and in --json "cpulist") where it says more.
for a in x86 arm; do
	check "$a: node:0 is the node's online CPUs" 0 "0-4,6-7" \
	    cpm-topo --sysroot "$T_TMP/$a" cpus node:0
done
check "x86: the summary's node line is the file's list" 0 \
    "NUMA node 0:          CPUs 0-4,6-7, memory 16.0 GiB total, 12.0 GiB free" \
    sh -c "cpm-topo --sysroot '$T_TMP/x86' | grep '^NUMA node 0:'"
check "arm64: the summary labels the kernel's list that keeps the offline CPU" 0 \
    "NUMA node 0:          CPUs 0-4,6-7 (cpulist 0-7), memory 16.0 GiB total, 12.0 GiB free" \
    sh -c "cpm-topo --sysroot '$T_TMP/arm' | grep '^NUMA node 0:'"
for a in x86 arm; do
	want=0-4,6-7
	[ $a = arm ] && want=0-7
	got=$(cpm-topo --sysroot "$T_TMP/$a" --json | python3 -c '
import json, sys
n = json.load(sys.stdin)["nodes"][0]
print(n["cpus"], n["cpulist"])')
	assert "$a: --json cpus and cpulist" "$got" "0-4,6-7 $want"
	if command -v lscpu >/dev/null 2>&1; then
		# lscpu writes "6,7" for a range of two: the same set.
		got=$(lscpu --sysroot "$T_TMP/$a" 2>/dev/null |
		    sed -n 's/^NUMA node0 CPU(s): *//p')
		got=$(cpm-topo --sysroot "$T_TMP/$a" cpus "$got")
		assert "$a: lscpu prints the file's list, as the summary shows it" "$got" "$want"
	fi
done
check "x86: the offline CPU is in no node (as the kernel's lists say)" 0 \
    "  5    -      -   -    -  -     no" \
    sh -c "cpm-topo --sysroot '$T_TMP/x86' -e | sed -n 7p"
check "arm64: the offline CPU keeps its node" 0 \
    "  5    0      -   -    -  -     no" \
    sh -c "cpm-topo --sysroot '$T_TMP/arm' -e | sed -n 7p"

# A missing or empty --cgroup-root: the same message and exit 2 from
# every tool that takes one.
mkdir "$T_TMP/empty"
for root in "$T_TMP/missing" "$T_TMP/empty"; do
	for cmd in "cpm-throttle" "cpm-quota get g" "cpm-pin --cgroup g 0"; do
		tool=${cmd%% *}
		run env CPM_CGROUP_ROOT= $cmd --cgroup-root "$root"
		case $rc:$err in
		"2:$tool: cannot open cgroup root '$root': "*|\
		"2:$tool: no cgroup hierarchy in '$root' "*)
			ok "$tool: --cgroup-root ${root##*/} exits 2" ;;
		*) not_ok "$tool: --cgroup-root ${root##*/} exits 2" "$(show)" ;;
		esac
	done
done

for cmd in "cpm-throttle" "cpm-quota get g" "cpm-pin --cgroup g 0" "cpm-alloc list"; do
	tool=${cmd%% *}
	check_fail "$tool: an empty --cgroup-root is refused alike" 2 \
	    "^$tool: --cgroup-root needs a directory$" $cmd --cgroup-root ""
done

# --sysroot: the tools README names honour it, the others refuse it.
honour=$(sed -n 's/^The tools that read the machine.s topology (\(.*\))$/\1/p' \
    "$CPM_TOP/README" | tr -d ',')
assert "README names the tools that honour --sysroot" "$honour" \
    "cpm-topo cpm-alloc cpm-pin"
for tool in cpm-topo cpm-alloc cpm-pin cpm-quota cpm-throttle; do
	run $tool --sysroot "$T_TMP/x86" --help
	case " $honour " in
	*" $tool "*) assert "$tool takes --sysroot, as README says" "$rc" 0 ;;
	*) assert "$tool refuses --sysroot, as README says" "$rc" 2 ;;
	esac
done
