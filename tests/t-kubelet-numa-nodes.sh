#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Topology Manager's max-allowable-numa-nodes (--max-numa-nodes), as
# the kubelet's tests state it: topology_manager_test.go refuses "more
# than 8 NUMA nodes" under best-effort with "unsupported on machines
# with more than 8 NUMA Nodes"; policy_options_test.go takes 12, refuses
# a value below 8 and one that is no integer, with its messages.  The
# machine (9 nodes of one CPU) is a sysfs tree tests/gen-sysfs writes.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1 || [ ! -x "$CPM_TOP/bin/cpm-alloc" ]; then
	skip "max-allowable-numa-nodes" "python3 or bin/cpm-alloc missing"
	exit 0
fi
tree=$T_TMP/nine
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/kubelet/topoNineNodes.spec" \
    "$tree" || exit 1
A="cpm-alloc --sysroot $tree --state $T_TMP/state"
run $A init

run $A take a 2 --numa-policy best-effort
if [ "$rc" = 3 ] && [ -z "$out" ] && printf '%s' "$err" |
    grep -qF "unsupported on machines with more than 8 NUMA Nodes"; then
	ok "more than 8 NUMA nodes: refused under best-effort (exit 3)"
else
	not_ok "more than 8 NUMA nodes: refused under best-effort" "$(show)"
fi
check "max-allowable-numa-nodes 12 admits the 9 nodes" 0 "0-1" \
    $A take a 2 --numa-policy best-effort --max-numa-nodes 12
check "the none policy has no limit" 0 "2" $A take b 1
check_fail "hints are the Topology Manager's: refused too" 3 \
    "unsupported on machines with more than 8 NUMA Nodes" $A hints 1
check "and given with the option" 0 "3 preferred" sh -c \
    "$A hints 1 --max-numa-nodes 9 | head -1"
check_fail "a value below 8 is refused with the kubelet's message" 2 \
    'the minimum value of "max-allowable-numa-nodes" should not be less than 8' \
    $A take c 1 --max-numa-nodes 7
check_fail "a value that is no integer is refused with the kubelet's message" 2 \
    'unable to convert policy option to integer "max-allowable-numa-nodes": strconv.Atoi: parsing "can.t parse to int": invalid syntax' \
    $A take c 1 --max-numa-nodes "can't parse to int"
