#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The selector alloc:NAME on this host's kernel: a plan applied to a
# temporary state, then cpm-pin alloc:NAME runs a command on the
# allocation's CPUs with its memory policy on its booked nodes (read back
# by cpm-pin -p from inside), and cpm-topo cpus alloc:NAME prints its
# CPUs.  Only the child processes are pinned; nothing else is touched.
. "$(dirname "$0")/lib.sh"

unset CPM_SYSROOT
export CPM_STATE=$T_TMP/alloc.state
last=$(cpm-topo cpus online | tr ',-' '\n\n' | tail -n 1)
node=$(cpm-topo nodes "$last-$last")
cpm-alloc init --reserved 0 >/dev/null 2>&1 || cpm-alloc init >/dev/null
printf 'web cpus=%s-%s mem=16M mem-policy=interleave\n' "$last" "$last" >"$T_TMP/plan"
run cpm-alloc apply "$T_TMP/plan"
assert "the plan applies (exit 4)" "$rc" 4
check "cpm-topo cpus alloc:web: its CPUs" 0 "$last" cpm-topo cpus alloc:web
check "cpm-pin alloc:web runs the command on its CPUs, memory interleaved on its nodes" 0 \
"$last
mempolicy: interleave $node" sh -c 'cpm-pin alloc:web -- sh -c "cpm-pin -p \$\$" | sed -n "1p;/^mempolicy/p"'
check "--mem given wins over the state's policy" 0 "mempolicy: bind $node" \
    sh -c 'cpm-pin alloc:web --mem bind -- sh -c "cpm-pin -p \$\$" | sed -n "/^mempolicy/p"'
cp "$CPM_STATE" "$T_TMP/before"
check_fail "an allocation that does not exist: exit 2, one line" 2 \
    "^cpm-pin: invalid selector 'alloc:nope': no allocation named 'nope'" \
    cpm-pin alloc:nope -- true
if cmp -s "$CPM_STATE" "$T_TMP/before"; then
	ok "... the state is read, not changed"
else
	not_ok "... the state is read, not changed"
fi
check_fail "no state file: exit 2, says so" 2 \
    "^cpm-topo: invalid selector 'alloc:web': no state file" \
    env CPM_STATE="$T_TMP/none" cpm-topo cpus alloc:web
check_fail "an invalid name: exit 2" 2 "^cpm-topo: invalid selector 'alloc:a b'" \
    cpm-topo cpus 'alloc:a b'
