# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-pin --dry-run --sysroot: plans against other machines (multi-node,
# sparse node ids, offline CPUs, cpusets, memoryless nodes).
. "$(dirname "$0")/lib.sh"

# nodes_of ROOT FIRST LAST: the nodes whose cpulist holds a CPU in
# FIRST..LAST, read straight from the tree's node*/cpulist files.
nodes_of() {
	for _n in "$1"/sys/devices/system/node/node[0-9]*; do
		_id=${_n##*/node}
		tr ',' '\n' <"$_n/cpulist" | awk -F- -v a="$2" -v b="$3" -v id="$_id" '
		    $1 == "" { next }
		    { lo = $1; hi = (NF == 2) ? $2 : $1
		      if (lo <= b && hi >= a) { print id; exit } }'
	done | sort -n | awk '
	    NR == 1 { s = $1; p = $1; next }
	    $1 == p + 1 { p = $1; next }
	    { out = out (out ? "," : "") (s == p ? s : s "-" p); s = $1; p = $1 }
	    END { if (NR) print out (out ? "," : "") (s == p ? s : s "-" p) }'
}

# ---- a machine made here: node 1 has CPUs but no memory, CPU 3 offline ----
mk=$T_TMP/mk
s=$mk/sys/devices/system
mkdir -p $s/cpu $s/node/node0 $s/node/node1
echo 0-3 >$s/cpu/possible
echo 0-3 >$s/cpu/present
echo 0-2 >$s/cpu/online
for c in 0 1 2 3; do
	mkdir -p $s/cpu/cpu$c/topology
	echo 0 >$s/cpu/cpu$c/topology/physical_package_id
	echo $c >$s/cpu/cpu$c/topology/core_id
	echo $c >$s/cpu/cpu$c/topology/thread_siblings_list
done
echo 0 >$s/cpu/cpu3/online
echo 0-1 >$s/node/node0/cpulist
echo 2-3 >$s/node/node1/cpulist
echo 0-1 >$s/node/possible
echo 0-1 >$s/node/online
printf 'Node 0 MemTotal:       1000000 kB\nNode 0 MemFree:         500000 kB\n' >$s/node/node0/meminfo
printf 'Node 1 MemTotal:             0 kB\nNode 1 MemFree:              0 kB\n' >$s/node/node1/meminfo

check 'bind without --nodes takes the nodes with memory' 0 'cpus: 0-2
mempolicy: bind 0
exec: true' cpm-pin --sysroot $mk -n --mem bind 0-2 -- true
check_fail 'bind on CPUs of a memoryless node needs --nodes' 2 \
    "node 1 has no memory; name memory nodes with --nodes" \
    cpm-pin --sysroot $mk -n --mem bind 2 -- true
check_fail 'a memoryless node named in --nodes is refused' 2 \
    'node 1 has no memory \(nodes with memory: 0\)' \
    cpm-pin --sysroot $mk -n --mem interleave --nodes 0-1 0 -- true
check_fail 'an offline CPU is refused and named' 2 'CPU 3 is offline \(online: 0-2\)' \
    cpm-pin --sysroot $mk -n 0,3 -- true
check 'CPU_SYSROOT works like --sysroot' 0 'cpus: 1
mempolicy: local
exec: true' env CPM_SYSROOT=$mk cpm-pin -n --nodes 0 1 -- true
check_fail 'without --dry-run another machine is refused' 2 'only --dry-run' \
    cpm-pin --sysroot $mk 0 -- true
check 'a node:N selector is the online CPUs of the node' 0 'cpus: 2
mempolicy: inherited
exec: true' cpm-pin --sysroot $mk -n node:1 -- true
check 'a siblings:N selector reads the thread siblings' 0 'cpus: 1
mempolicy: inherited
exec: true' cpm-pin --sysroot $mk -n siblings:1 -- true
check_fail 'a selector naming a missing node is refused' 2 \
    "invalid selector 'node:5': no NUMA node 5" \
    cpm-pin --sysroot $mk -n node:5 -- true
check_fail 'an unknown selector is refused' 2 "unknown selector 'cores'" \
    cpm-pin --sysroot $mk -n cores -- true

# ---- real machines ----
if r=$(fixture_tree 16amd64-8n2c); then
	check 'bind spans the nodes of CPULIST on an 8-node machine' 0 "cpus: 0-5
mempolicy: bind $(nodes_of $r 0 5)
exec: true" cpm-pin --sysroot $r -n --mem bind 0-5 -- true
	check 'interleave over named nodes' 0 'cpus: 0-15
mempolicy: interleave 1,7
exec: app' cpm-pin --sysroot $r -n --mem interleave --nodes 1,7 0-15 -- app
	check 'preferred over several nodes is preferred-many' 0 "cpus: 6-7
mempolicy: preferred-many 0,$(nodes_of $r 6 7)
exec: true" cpm-pin --sysroot $r -n --mem preferred --nodes "$(nodes_of $r 6 7),0" 6-7 -- true
	check_fail 'local with CPUs off --nodes is refused' 2 \
	    "--mem local allocates on the CPUs' nodes $(nodes_of $r 0 5), not only on --nodes 7" \
	    cpm-pin --sysroot $r -n --nodes 7 0-5 -- true
	check 'local with CPUs on --nodes is fine' 0 "cpus: 0-1
mempolicy: local
exec: true" cpm-pin --sysroot $r -n --nodes "$(nodes_of $r 0 1)" 0-1 -- true
	check_fail 'a node beyond the machine is refused' 2 'node 8 does not exist \(nodes: 0-7\)' \
	    cpm-pin --sysroot $r -n --mem bind --nodes 6-8 0 -- true
	check_fail 'a CPU beyond the machine is refused' 2 'CPUs 16-17 do not exist \(possible: 0-15\)' \
	    cpm-pin --sysroot $r -n 14-17 -- true
else
	skip 'replays of 16amd64-8n2c' 'fixtures not available'
fi

if r=$(fixture_tree 48amd64-4pa2n6c-sparse); then
	check 'sparse node ids are kept as the kernel numbers them' 0 "cpus: 18-29
mempolicy: bind $(nodes_of $r 18 29)
exec: true" cpm-pin --sysroot $r -n --mem bind 18-29 -- true
	check_fail 'a node id in a gap is refused' 2 'node 3 does not exist' \
	    cpm-pin --sysroot $r -n --mem bind --nodes 3 0 -- true
else
	skip 'replays of 48amd64-4pa2n6c-sparse' 'fixtures not available'
fi

if r=$(fixture_tree 16em64t-4s2c2t-offlines); then
	off=$(for c in $r/sys/devices/system/cpu/cpu[0-9]*; do
		[ "$(cat $c/online 2>/dev/null)" = 0 ] && echo ${c##*/cpu}; done | sort -n | head -1)
	check_fail 'an offline CPU of a real machine is refused' 2 "CPU $off is offline" \
	    cpm-pin --sysroot $r -n "$off" -- true
else
	skip 'replays of 16em64t-4s2c2t-offlines' 'fixtures not available'
fi

if r=$(fixture_tree 16amd64-8n2c-cpusets); then
	# The dumped process lived in cpuset /dummy: cpus 0-6,12-15, CPU 4 offline.
	check_fail "a CPU outside the replayed process's cpuset is refused" 2 \
	    'CPU 7 is not allowed in the cpuset of the replayed process' \
	    cpm-pin --sysroot $r -n 5-7 -- true
	check 'CPUs inside it are planned' 0 'cpus: 12-15
mempolicy: inherited
exec: true' cpm-pin --sysroot $r -n 12-15 -- true
else
	skip 'replays of 16amd64-8n2c-cpusets' 'fixtures not available'
fi
