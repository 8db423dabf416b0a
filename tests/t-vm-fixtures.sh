# SPDX-License-Identifier: GPL-2.0-or-later
# Replay the machines tests/vm/run booted under QEMU: their `cpm-topo
# dump` trees in tests/vm/fixtures/NAME, read back with --sysroot, must
# show the topology QEMU was asked for (tests/vm/topologies/NAME, worked
# out by tests/vm/topo.sh), not whatever cpm said when it dumped them.
# The kernel a machine was booted with is in tests/vm/fixtures/NAME.kernel
# (its die numbering depends on it); a fixture without one is from Debian
# 12's Linux 6.1.
# The memory view of every fixture is checked twice: against the ACPI HMAT
# values QEMU was given (HMAT_LB, HMAT_CACHE: "-" everywhere on the
# machines without them) and against hwloc's lstopo --memattrs reading the
# same tree (tests/hwloc-memattrs.py), which must find exactly the values
# QEMU was given, and nothing on the machines without HMAT.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/vm/topo.sh"
. "$CPM_TOP/tests/vm/alloc-cases.sh"
VM=$CPM_TOP/tests/vm

if [ ! -x "$CPM_TOP/bin/cpm-topo" ]; then
	skip "replay of the VM fixtures" "bin/cpm-topo is not built"
	exit 0
fi
# vm_hwloc_memattrs NAME DIR: cpm-topo --json of the tree DIR against
# lstopo --memattrs of it; both must hold the values QEMU was given: four
# (read and write bandwidth and latency) for each node with an HMAT_LB
# entry, a memory-side cache for each HMAT_CACHE entry.
vm_hwloc_memattrs() {
	if ! command -v lstopo-no-graphics >/dev/null || ! command -v python3 >/dev/null; then
		skip "$1: hwloc memattrs agree" "no lstopo-no-graphics or python3"
		return
	fi
	if ! HWLOC_FSROOT=$2 lstopo-no-graphics -p --memattrs >"$T_TMP/ma" 2>"$T_TMP/ma.err" ||
	    ! HWLOC_FSROOT=$2 lstopo-no-graphics -p --of xml >"$T_TMP/mx" 2>>"$T_TMP/ma.err"; then
		not_ok "$1: hwloc memattrs agree" "lstopo cannot read the tree: $(head -n 3 "$T_TMP/ma.err")"
		return
	fi
	cpm-topo --sysroot "$2" --json >"$T_TMP/mj"
	_v=0 _c=0 _i=0
	while [ "$_i" -lt "$T_NODES" ]; do
		[ -n "$(hmat_lb $_i)" ] && _v=$((_v + 4))
		[ -n "$(hmat_cache $_i)" ] && _c=$((_c + 1))
		_i=$((_i + 1))
	done
	run python3 "$CPM_TOP/tests/hwloc-memattrs.py" "$T_TMP/ma" "$T_TMP/mx" "$T_TMP/mj"
	if [ "$rc" = 0 ] && [ "$out" = "$_v values, $_c caches
" ]; then
		ok "$1: hwloc memattrs agree ($_v values, $_c caches)"
	else
		not_ok "$1: hwloc memattrs agree" "want $_v values, $_c caches" "$(show)"
	fi
}

n_fix=0
for dir in "$VM"/fixtures/*/; do
	[ -d "$dir" ] || continue
	name=$(basename "$dir")
	dir=${dir%/}
	TOPO_KERNEL=$(cat "$dir.kernel" 2>/dev/null)
	if ! topo_load "$name" "$VM/topologies" 2>/dev/null; then
		not_ok "$name: fixture has a topology file" "no tests/vm/topologies/$name"
		continue
	fi
	n_fix=$((n_fix + 1))
	# Work the answers out once, with the functions of topo.sh itself
	# (the previous machine replaced them with look-ups).
	(. "$VM/topo.sh" && topo_load "$name" "$VM/topologies" &&
	    topo_shvars >"$T_TMP/$name.vars" && topo_use_shvars "$T_TMP/$name.vars" &&
	    topo_expect >"$T_TMP/$name.expect")
	topo_use_shvars "$T_TMP/$name.vars"
	topo() { cpm-topo --sysroot "$dir" "$@"; }

	check "$name: cpus all lists the possible CPUs" 0 "$(exp_possible)" topo cpus all
	check "$name: cpus present lists the present CPUs" 0 "$(exp_present)" topo cpus present
	check "$name: cpus online lists the online CPUs" 0 "$(exp_online)" topo cpus online
	check "$name: cpus offline lists the offline and absent CPUs" 0 "$(exp_offline)" topo cpus offline

	bad=
	for c in $(list_expand "$(exp_online)"); do
		run topo cpus siblings:$c
		[ "$rc:$out" = "0:$(exp_siblings $c)
" ] || bad="$bad
siblings:$c: $(show), want $(exp_siblings $c)"
	done
	if [ -z "$bad" ]; then ok "$name: siblings:CPU gives the SMT siblings of every online CPU"
	else not_ok "$name: siblings:CPU gives the SMT siblings of every online CPU" "$bad"; fi

	i=0
	while [ "$i" -lt "$T_NODES" ]; do
		check "$name: node:$i lists the CPUs of node $i" 0 "$(exp_node_cpus $i)" topo cpus node:$i
		i=$((i + 1))
	done
	s=0
	while [ "$s" -lt "$SOCKETS" ]; do
		check "$name: socket:$s lists the CPUs of socket $s" 0 "$(exp_socket_cpus $s)" topo cpus socket:$s
		d=0
		while [ "$d" -lt "$DIES" ]; do
			i=$(die_id $s $d)
			check "$name: die:$s.$i lists the CPUs of die $i of socket $s" 0 \
			    "$(exp_die_cpus $s $d)" topo cpus die:$s.$i
			d=$((d + 1))
		done
		s=$((s + 1))
	done
	for i in $(exp_l3_ids); do
		check "$name: l3:$i lists the CPUs sharing L3 cache $i" 0 "$(exp_l3_cpus $i)" topo cpus l3:$i
	done
	k=0
	while [ "$k" -lt "$THREADS" ]; do
		check "$name: thread:$k lists thread $k of every core" 0 "$(exp_thread $k)" topo cpus thread:$k
		k=$((k + 1))
	done
	check "$name: nodes of the CPUs of the last node with CPUs" 0 "$((T_CPU_NODES - 1))" \
	    topo nodes "$(exp_node_cpus $((T_CPU_NODES - 1)))"
	T_IN=$(exp_node_cpus 0)
	check "$name: nodes reads the cpulist from stdin" 0 0 topo nodes -
	T_IN=
	check "$name: CPM_SYSROOT works like --sysroot" 0 "$(exp_siblings 0)" \
	    env CPM_SYSROOT="$dir" cpm-topo cpus siblings:0

	# -e: one row per possible CPU.
	run topo -e
	bad=
	[ "$rc" = 0 ] || bad="exit $rc: $err"
	for c in $(list_expand "$(exp_possible)"); do
		row=$(printf '%s' "$out" | awk -v c=$c 'NR > 1 && $1 == c { print $2, $3, $4, $5, $6, $7 }')
		if cpu_online $c; then
			want="$(cpu_node $c) $(cpu_socket $c) $(cpu_die_id $c) $(exp_siblings $c | sed 's/[-,].*//') $(cpu_l3 $c) yes"
		else
			want="- - - - - no"
			row=$(echo "$row" | sed "s/^$(cpu_node $c) /- /")
		fi
		[ "$row" = "$want" ] || bad="$bad
cpu$c: NODE SOCKET DIE CORE L3 ONLINE: $row, want $want"
	done
	if [ -z "$bad" ]; then ok "$name: -e rows match the machine QEMU made"
	else not_ok "$name: -e rows match the machine QEMU made" "$bad"; fi

	# check: findings depend on the topology only.
	check "$name: check accepts the CPUs of node 0" 0 "" topo check "$(exp_node_cpus 0)"
	if [ "$THREADS" -gt 1 ]; then
		run topo check 0
		assert "$name: check finds a half-used core" "$rc" 3
	fi

	# The kubelet's placements on this machine (cases in the topology
	# file); the hot-plug case needs the live VM.
	if [ -x "$CPM_TOP/bin/cpm-alloc" ]; then
		CPM_STATE=$T_TMP/$name.state
		export CPM_STATE
		alloc_cases "$name: " cpm-alloc --sysroot "$dir"
	else
		skip "$name: cpm-alloc places requests as the kubelet does" "bin/cpm-alloc is not built"
	fi

	if command -v python3 >/dev/null; then
		topo --json >"$T_TMP/$name.json"
		python3 "$VM/check-topo-json" "$T_TMP/$name.expect" "$T_TMP/$name.json" "$name: " replay
	else
		skip "$name: --json matches the machine QEMU made" "no python3"
	fi

	check "$name: memory shows the bandwidths, latencies, initiators and caches QEMU gave" 0 \
	    "$(exp_memory_rows)" \
	    topo memory -o node,cpus,read_bw,write_bw,read_lat,write_lat,initiators,cache --raw --noheadings
	vm_hwloc_memattrs "$name" "$dir"
done
TOPO_KERNEL=
if [ "$n_fix" -lt 4 ]; then
	not_ok "tests/vm/fixtures holds the four VM machines" "found $n_fix"
fi

# The checks can fail: one machine's tree against another's expectation.
if command -v python3 >/dev/null && [ -d "$VM/fixtures/numa4" ]; then
	(. "$VM/topo.sh" && topo_load dies4 "$VM/topologies" && topo_expect) >"$T_TMP/wrong.expect"
	cpm-topo --sysroot "$VM/fixtures/numa4" --json >"$T_TMP/wrong.json"
	run python3 "$VM/check-topo-json" "$T_TMP/wrong.expect" "$T_TMP/wrong.json" "" replay
	if [ "$rc" = 1 ] && printf '%s' "$out" | grep -q '^not ok - --json describes every CPU'; then
		ok "the JSON check rejects a machine that differs from the expectation"
	else
		not_ok "the JSON check rejects a machine that differs from the expectation" "$(show)"
	fi
fi

# The memory checks can fail, on a copy of the HMAT machine's tree: node
# 0's and node 2's read bandwidths swapped (what QEMU gave no longer
# shows), and cpm-topo's --json with them swapped (hwloc disagrees).
if [ -d "$VM/fixtures/hmat" ] && command -v python3 >/dev/null; then
	TOPO_KERNEL=$(cat "$VM/fixtures/hmat.kernel" 2>/dev/null)
	topo_load hmat "$VM/topologies"
	(. "$VM/topo.sh" && topo_load hmat "$VM/topologies" && topo_shvars) >"$T_TMP/hmat.vars"
	topo_use_shvars "$T_TMP/hmat.vars"
	cp -R "$VM/fixtures/hmat" "$T_TMP/swapped"
	a=$T_TMP/swapped/sys/devices/system/node/node0/access1/initiators/read_bandwidth
	b=$T_TMP/swapped/sys/devices/system/node/node2/access1/initiators/read_bandwidth
	cp "$a" "$T_TMP/bw" && cp "$b" "$a" && cp "$T_TMP/bw" "$b"
	run cpm-topo --sysroot "$T_TMP/swapped" memory -o node,cpus,read_bw,write_bw,read_lat,write_lat,initiators,cache --raw --noheadings
	if [ "$rc" = 0 ] && [ "${out%
}" != "$(exp_memory_rows)" ]; then
		ok "the memory check rejects a tree with two bandwidths swapped"
	else
		not_ok "the memory check rejects a tree with two bandwidths swapped" "$(show)"
	fi
	if command -v lstopo-no-graphics >/dev/null; then
		HWLOC_FSROOT=$VM/fixtures/hmat lstopo-no-graphics -p --memattrs >"$T_TMP/ma" 2>/dev/null
		HWLOC_FSROOT=$VM/fixtures/hmat lstopo-no-graphics -p --of xml >"$T_TMP/mx" 2>/dev/null
		cpm-topo --sysroot "$VM/fixtures/hmat" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
n = {x["node"]: x for x in d["memory"]["nodes"]}
a, b = n[0]["access1"], n[2]["access1"]
k = "read_bandwidth_mbps"
a[k], b[k] = b[k], a[k]
json.dump(d, sys.stdout)' >"$T_TMP/mj"
		run python3 "$CPM_TOP/tests/hwloc-memattrs.py" "$T_TMP/ma" "$T_TMP/mx" "$T_TMP/mj"
		if [ "$rc" = 1 ] && printf '%s' "$out" | grep -q '^node 0 read_bandwidth_mbps: hwloc (20480'; then
			ok "the hwloc comparison rejects cpm-topo --json with two bandwidths swapped"
		else
			not_ok "the hwloc comparison rejects cpm-topo --json with two bandwidths swapped" "$(show)"
		fi
	else
		skip "the hwloc comparison rejects swapped bandwidths" "no lstopo-no-graphics"
	fi
fi
