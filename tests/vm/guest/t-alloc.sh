# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc on a real kernel: the kubelet's placement on the machine QEMU
# made.  The cases and their answers are in the topology file
# (ALLOC_CASES), derived by hand from the kubelet rules.
. /cpm/tests/vm/guest/common.sh
have cpm-alloc || exit 0
CPM_STATE=$T_TMP/alloc.state
export CPM_STATE

. /cpm/tests/vm/alloc-cases.sh
alloc_cases "" cpm-alloc

# hints for a node's worth of CPUs on an idle machine (kubelet
# generateCPUTopologyHints): every non-empty set of nodes can hold it,
# the single nodes are the preferred ones.  Only where every node has the
# same CPUs and memory-only nodes cannot confuse the count.
if [ "$MEM_NODES" = 0 ] && [ -z "$OFFLINE" ] && [ "$T_PRESENT" = "$T_MAXCPUS" ]; then
	CPM_STATE=$T_TMP/hints.state
	run cpm-alloc init
	run cpm-alloc hints $T_PER_NODE
	want=$(n=0; while [ $n -lt $T_NODES ]; do echo "$n preferred"; n=$((n + 1)); done)
	got=$(printf '%s' "$out" | grep ' preferred$')
	others=$(printf '%s' "$out" | grep -v ' preferred$' | grep -cv ' -$')
	lines=$(printf '%s' "$out" | wc -l)
	if [ "$rc" = 0 ] && [ "$got" = "$want" ] && [ "$others" = 0 ] &&
	    [ "$lines" = $(((1 << T_NODES) - 1)) ]; then
		ok "hints $T_PER_NODE offers every node set and prefers the single nodes"
	else not_ok "hints $T_PER_NODE offers every node set and prefers the single nodes" "$(show)" \
	    "want the $T_NODES single nodes preferred and $(((1 << T_NODES) - 1)) lines"; fi
	CPM_STATE=$T_TMP/alloc.state
fi

# A state made while a CPU was online no longer matches once it is
# offline: check must say so.
for c in $(list_expand "$OFFLINE"); do
	echo 1 >$SYS/cpu/cpu$c/online
	CPM_STATE=$T_TMP/hotplug.state
	run cpm-alloc init
	run cpm-alloc take all "$(list_expand "$(kfile $SYS/cpu/online)" | wc -w)"
	echo 0 >$SYS/cpu/cpu$c/online
	got=$rc
	run cpm-alloc check
	if [ "$got" = 0 ] && [ "$rc" = 3 ] && [ -n "$out$err" ]; then
		ok "check explains that allocated CPU $c went offline"
	else not_ok "check explains that allocated CPU $c went offline" "$(show)"; fi
	CPM_STATE=$T_TMP/alloc.state
done
