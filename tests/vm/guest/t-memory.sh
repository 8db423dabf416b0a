# SPDX-License-Identifier: GPL-2.0-or-later
# Memory as the machine has it, on a machine QEMU describes with ACPI HMAT
# (tests/vm/topologies/hmat): cpm-topo's memory view against the latencies,
# bandwidths and caches given on the QEMU command line; weighted
# interleave 5:2 and preferred-many as numa_maps shows them; check --pid
# of a process bound to the far node from each CPU node.  A kernel before
# 6.9 refuses weighted interleave.
. /cpm/tests/vm/guest/common.sh
have cpm-topo || exit 0
MT=/cpm/tests/vm/memtouch
far=$((T_NODES - 1))
CPUS_0=$(exp_node_cpus 0)
rel=$(uname -r)
maj=${rel%%.*} min=${rel#*.}
min=${min%%[!0-9]*}
wi_kernel=0
[ "$maj" -gt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -ge 9 ]; } && wi_kernel=1

# pages_on LINE NODE: pages of a memtouch line on NODE (0 when none).
pages_on() {
	printf '%s\n' "$1" | tr ' ' '\n' | awk -F= -v k="N$2" '$1 == k { n = $2 } END { print n + 0 }'
}

# The access attributes and caches, node by node, from the QEMU command
# line (exp_memory_rows of topo.sh).
want=$(exp_memory_rows)
run cpm-topo memory -o node,cpus,read_bw,write_bw,read_lat,write_lat,initiators,cache --raw --noheadings
assert "memory: bandwidth, latency, initiators and caches as QEMU gave them" "${out%
}" "$want"

# The cache's line size, and the kernel's own files behind the view.
run cpm-topo memory --json $far
line=$(printf '%s' "$out" | tr ',' '\n' | sed -n 's/.*"line_size":\([0-9]*\).*/\1/p')
set -- $(hmat_cache $far)
assert "memory --json: the cache line size QEMU gave" "$line" "$2"
assert "memory --list cpuless: the memory-only node" "$(cpm-topo memory --list cpuless)" "$far"
assert "memory --list near: CPUs of socket 0 reach node 0 first" \
    "$(cpm-topo memory --list near:$CPUS_0)" 0

# The tree as cpm-topo dump writes it, for tests/vm/run --save-fixtures
# (the host replays it in tests/t-vm-fixtures.sh against hwloc); a
# machine that ran the topo tests has its dump already.
if [ ! -d /tmp/artifacts/dump ]; then
	run cpm-topo dump /tmp/artifacts/dump
	assert "dump writes a tree" "$rc" 0
fi
# (all but the free memory, which moves on)
cols=node,cpus,tier,memory,read_bw,write_bw,read_lat,write_lat,initiators,class,cache,weight
check "the dumped tree replays the memory view" 0 \
    "$(cpm-topo memory -o $cols)" cpm-topo --sysroot /tmp/artifacts/dump memory -o $cols

# Tiers: the kernel's files are the oracle (boot-time memory is all in
# the default tier; a kmem-hotplugged node would go lower).
if [ -d /sys/devices/virtual/memory_tiering ]; then
	kt=$(for d in /sys/devices/virtual/memory_tiering/memory_tier*; do
		echo "${d##*memory_tier}:$(cat $d/nodelist)"; done | sort -n | tr '\n' ' ')
	ct=$(cpm-topo memory --json | tr '{' '\n' | sed -n 's/^"tier":\([0-9]*\),"nodes":"\([^"]*\)".*/\1:\2/p' | tr '\n' ' ')
	assert "memory: the tiers the kernel has, in order" "$ct" "$kt"
else
	skip "memory tiers" "no memory_tiering on $rel"
fi

have cpm-pin || exit 0
if [ "$wi_kernel" = 1 ]; then
	run cpm-pin --set-weights 0:5,$far:2
	assert "--set-weights 0:5,$far:2 (root)" "$rc" 0
	assert "--set-weights: the kernel holds them" \
	    "$(cat /sys/kernel/mm/mempolicy/weighted_interleave/node0) $(cat /sys/kernel/mm/mempolicy/weighted_interleave/node$far)" "5 2"
	run cpm-pin --mem weighted-interleave --weights 0:5,$far:2 "$CPUS_0" -- $MT 64
	a=$(pages_on "$out" 0) b=$(pages_on "$out" $far)
	# 5:2 = 2.5; within 10%: 2.25 to 2.75.
	if [ "$rc" = 0 ] && [ "$b" -gt 0 ] && [ $((a * 100)) -ge $((b * 225)) ] &&
	    [ $((a * 100)) -le $((b * 275)) ] && [ $((a + b)) -ge 16384 ]; then
		ok "weighted interleave 5:2 of 64 MiB lands 5:2 (N0=$a N$far=$b)"
	else
		not_ok "weighted interleave 5:2 of 64 MiB lands 5:2" "$(show)"
	fi
	# memtouch keeps the policy's first word ("weighted interleave:0,2").
	case $out in
	"weighted "*) ok "weighted interleave: numa_maps shows the policy" ;;
	*) not_ok "weighted interleave: numa_maps shows the policy" "$(show)" ;;
	esac
	run cpm-pin --restore-weights
	assert "--restore-weights" "$rc" 0
else
	check_fail "weighted interleave on Linux $rel: exit 3 naming 6.9" 3 \
	    "^cpm-pin: this kernel \(Linux $rel\) has no weighted interleave \(MPOL_WEIGHTED_INTERLEAVE\); it needs Linux 6\.9 or later$" \
	    cpm-pin --mem weighted-interleave --nodes 0,$far "$CPUS_0" -- $MT 1
	check_fail "--set-weights on Linux $rel: exit 3" 3 "they need Linux 6\.9 or later" \
	    cpm-pin --set-weights 0:5
fi

# preferred-many: the pages on the preferred node while it has room, the
# rest elsewhere (MPOL_PREFERRED_MANY falls back, unlike bind).
run cpm-pin --mem preferred-many --nodes $far "$CPUS_0" -- $MT 16
assert "preferred-many: 16 MiB all on node $far" "$(pages_on "$out" $far)" 4096
run cpm-pin --mem preferred-many --nodes $far "$CPUS_0" -- $MT $((NODE_MB + 32))
b=$(pages_on "$out" $far)
o=$(( $(printf '%s\n' "$out" | tr ' ' '\n' | awk -F= '/^N[0-9]+=/ { n += $2 } END { print n + 0 }') - b ))
if [ "$rc" = 0 ] && [ "$b" -gt $((NODE_MB * 256 / 2)) ] && [ "$o" -ge 8192 ]; then
	ok "preferred-many: node $far filled ($b pages), the rest ($o) elsewhere"
else
	not_ok "preferred-many falls back to other nodes when node $far is full" "$(show)"
fi

# A process bound to the memory-only node, from each CPU node.  HMAT
# (tests/vm/topologies/hmat) puts node 0 nearest it (40 ns, node 1 60 ns):
# from node 0's CPUs that is a placement asked for on purpose, and check
# --pid sees its 32 MiB there and nothing to warn of; from node 1's CPUs
# the memory is far and check --pid says so (exit 3), as does cpm-pin -p.
# bound_on CPUS: start memtouch on CPUS bound to the far node, as $bg.
bound_on() {
	: >"$T_TMP/mt"
	cpm-pin --mem bind --nodes $far "$1" -- $MT -w 32 >"$T_TMP/mt" &
	bg=$!
	i=0
	while [ ! -s "$T_TMP/mt" ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
}
bound_on "$CPUS_0"
run cpm-topo check --pid $bg
case $rc:$out in
0:*"mempolicy bind $far, memory "*"node $far 3"[0-9].[0-9]" MiB"*)
	case $out in
	*warning*) not_ok "check --pid: the far node's nearest initiator binding it is no warning" "$(show)" ;;
	*) ok "check --pid: the far node's nearest initiator binding it is no warning" ;;
	esac ;;
*) not_ok "check --pid: the far node's nearest initiator binding it is no warning" "$(show)" ;;
esac
kill $bg 2>/dev/null
wait $bg 2>/dev/null
CPUS_1=$(exp_node_cpus 1)
bound_on "$CPUS_1"
run cpm-topo check --pid $bg
case $out in
*"warning: process $bg runs on CPUs $CPUS_1 (node 1) but 3"[0-9].[0-9]" MiB of its "*)
	assert "check --pid: memory on a node nearer another initiator, exit 3" "$rc" 3 ;;
*) not_ok "check --pid: memory on a node nearer another initiator" "$(show)" ;;
esac
run cpm-pin -p $bg
case $out in
*"memory: "*"node $far "*"warning: process $bg runs on CPUs"*) ok "cpm-pin -p: the pages and the warning" ;;
*) not_ok "cpm-pin -p: the pages and the warning" "$(show)" ;;
esac
kill $bg 2>/dev/null
wait $bg 2>/dev/null
