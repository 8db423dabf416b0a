# SPDX-License-Identifier: GPL-2.0-or-later
# The harness itself: the kernel shows the machine that QEMU was asked
# for.  If these fail, the expectations (tests/vm/topo.sh) or QEMU are
# wrong, not cpm.
. /cpm/tests/vm/guest/common.sh

assert "kernel lists the possible CPUs asked for" "$(kfile $SYS/cpu/possible)" "$(exp_possible)"
assert "kernel lists the present CPUs asked for" "$(kfile $SYS/cpu/present)" "$(exp_present)"
assert "kernel lists the online CPUs asked for" "$(kfile $SYS/cpu/online)" "$(exp_online)"

bad=
for c in $(list_expand "$(exp_online)"); do
	t=$SYS/cpu/cpu$c/topology
	got="$(kfile $t/physical_package_id) $(kfile $t/die_id) $(kfile $t/thread_siblings_list) $(kfile $SYS/cpu/cpu$c/cache/index3/id) $(kfile $SYS/cpu/cpu$c/cache/index3/shared_cpu_list)"
	want="$(cpu_socket $c) $(cpu_die_id $c) $(exp_siblings $c) $(cpu_l3 $c) $(exp_l3_cpus $(cpu_l3 $c))"
	[ "$got" = "$want" ] || bad="$bad
cpu$c: socket die siblings l3-id l3-cpus: got $got, want $want"
done
if [ -z "$bad" ]; then ok "kernel shows the sockets, dies, SMT siblings and L3 caches asked for"
else not_ok "kernel shows the sockets, dies, SMT siblings and L3 caches asked for" "$bad"; fi

n=0
while [ "$n" -lt "$T_NODES" ]; do
	assert "kernel puts the CPUs asked for on node $n" "$(kfile $SYS/node/node$n/cpulist)" "$(exp_node_cpus $n)"
	assert "kernel shows the distances asked for from node $n" "$(kfile $SYS/node/node$n/distance)" "$(exp_distance_row $n)"
	kb=$(awk '/MemTotal/ { print $4 }' $SYS/node/node$n/meminfo)
	lo=$((NODE_MB * 1024 * 6 / 10)) hi=$((NODE_MB * 1024))
	if [ "${kb:-0}" -ge "$lo" ] && [ "$kb" -le "$hi" ]; then
		ok "kernel gives node $n about the memory asked for"
	else
		not_ok "kernel gives node $n about the memory asked for" "MemTotal $kb kB, want $lo..$hi"
	fi
	n=$((n + 1))
done
assert "kernel has no other NUMA node" "$(kfile $SYS/node/possible)" "$(seq 0 $((T_NODES - 1)) | list_fmt)"
if [ "$(cat /proc/1/comm)" = systemd ]; then
	# systemd enables controllers in the root when a unit needs them.
	assert "kernel offers cpu and cpuset on cgroup v2" \
	    "$(tr ' ' '\n' <$CG/cgroup.controllers | grep -E '^(cpu|cpuset)$' | tr '\n' ' ')" "cpuset cpu "
else
	assert "kernel mounts cgroup v2 with cpu and cpuset" \
	    "$(tr ' ' '\n' <$CG/cgroup.subtree_control | grep -E '^(cpu|cpuset)$' | tr '\n' ' ')" "cpuset cpu "
fi
