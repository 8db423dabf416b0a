#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc --mem on a machine with a CPU-less node: the Memory Manager's
# hints and bookings as the kubelet makes them (every node cadvisor lists,
# CPU-less ones included), the merged hint extended when its nodes lack
# the memory, and the slower-tier note of hints and take --explain.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"

# Nodes 0 and 1: one socket, 2 CPUs and 8 GiB each, memory tier 4;
# node 2: no CPUs, 32 GiB in the slower memory tier 22.
gen_tree "$T_TMP/m" <"$CPM_TOP/tests/topologies/2s3n-hmat.spec"
export CPM_SYSROOT=$T_TMP/m CPM_STATE=$T_TMP/alloc.state
fresh() { rm -f "$CPM_STATE" "$CPM_STATE.lock"; cpm-alloc init >/dev/null; }
NOTE4='slower tier: 4G fits on CPU-less node 2 (memory tier 22, 32G free), slower than tier 4 of the nodes with CPUs; the Memory Manager'"'"'s hints do not weigh tiers'

fresh
run cpm-alloc take a 1 --mem 4G --numa-policy single-numa-node --explain
assert "the memory hints hold the CPU-less node, alone and in every set" \
    "$(printf '%s' "$err" | grep '^cpm-alloc: memory hints:')" \
    "cpm-alloc: memory hints: 0 preferred, 1 preferred, 2 preferred, 0-1 -, 0,2 -, 1-2 -, 0-2 -"
assert "the CPU hints never name the CPU-less node" \
    "$(printf '%s' "$err" | grep '^cpm-alloc: CPU hints:')" \
    "cpm-alloc: CPU hints: 0 preferred, 1 preferred, 0-1 -"
assert "take --explain adds the slower-tier note, in one line" \
    "$(printf '%s' "$err" | grep -c 'slower tier'):$(printf '%s' "$err" | grep 'slower tier')" \
    "1:cpm-alloc: $NOTE4"
assert "the note changes nothing: CPUs and memory where the hints put them" \
    "$rc:$(printf '%s' "$out" | tr -d '\n'):$(cpm-alloc list --raw | awk '$1 == "a" { print $6 }')" "0:0:0:4G"
fresh
cpm-alloc take a 1 --mem 4G --numa-policy single-numa-node >/dev/null 2>&1
assert "without --explain the same take books the same memory" \
    "$(cpm-alloc list --raw | awk '$1 == "a" { print $4, $5, $6 }')" "0 0 0:4G"

fresh
check "hints --mem ends with the slower-tier note" 0 \
    "0 preferred
1 preferred
0-1 -
$NOTE4" cpm-alloc hints 1 --mem 4G
check "hints --json stays the kubelet's hints alone" 0 \
    '{"count":1,"hints":[{"nodes":"0","preferred":true},{"nodes":"1","preferred":true},{"nodes":"0-1","preferred":false}]}' \
    cpm-alloc hints 1 --mem 4G --json
check "no note without --mem" 0 "0 preferred
1 preferred
0-1 -" cpm-alloc hints 1

# 20G fits on no node with CPUs, nor on both (16G): the CPU hints and
# the memory hints share no node set, best-effort admits node 0, and the
# Memory Manager extends node 0 to its narrowest hint holding it, 0 and 2.
fresh
run cpm-alloc take big 1 --mem 20G --numa-policy best-effort --explain
assert "best-effort: memory the CPUs' node lacks goes on to the CPU-less node" \
    "$rc:$(printf '%s' "$out" | tr -d '\n'):$(cpm-alloc list --raw | awk '$1 == "big" { print $5, $6 }')" \
    "0:0:0,2 0:8G,2:12G"
assert "--explain says how the merged hint was extended" \
    "$(printf '%s' "$err" | grep '^cpm-alloc: memory:')" \
    "cpm-alloc: memory: 0 lacks the free memory: booked on 0,2, the narrowest memory hint that holds it, as the Memory Manager extends a merged hint"
check "the slower node's free memory counts what is booked on it" 0 \
    "1 preferred
slower tier: 4G fits on CPU-less node 2 (memory tier 22, 20G free), slower than tier 4 of the nodes with CPUs; the Memory Manager's hints do not weigh tiers" \
    cpm-alloc hints 1 --mem 4G
fresh
check_fail "restricted: the merged hint is not preferred, and is refused" 3 \
    "topology affinity error: the restricted policy refuses 1 CPUs and 20G" \
    cpm-alloc take big 1 --mem 20G --numa-policy restricted
assert "a refused take books nothing" "$(cpm-alloc list --raw | sed 1d)" ""
fresh
run cpm-alloc take big 1 --mem 20G
assert "none policy: the Memory Manager's best hint, the CPU-less node" \
    "$rc:$(cpm-alloc list --raw | awk '$1 == "big" { print $6 }')" "0:2:20G"

# A machine without a CPU-less node: no note, and no tier file read.
use_m32
export CPM_STATE=$T_TMP/m32.state
check "no CPU-less node, no note" 0 "0 preferred
1 preferred
2 preferred
3 preferred" sh -c 'cpm-alloc hints 4 --mem 4G | head -4; cpm-alloc hints 4 --mem 4G | grep "slower tier"; true'
if command -v strace >/dev/null 2>&1; then
	strace -f -e trace=openat,open,openat2,stat,newfstatat,access \
	    -o "$T_TMP/strace" cpm-alloc take w 2 --mem 1G --explain \
	    >/dev/null 2>&1
	assert "no tier is read on a machine without a CPU-less node" \
	    "$(grep -c 'memory_tier\|access[01]\|memory_side_cache' "$T_TMP/strace")" 0
else
	skip "no tier is read on a machine without a CPU-less node" "no strace"
fi
