#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-topo on real machines' sysfs/procfs trees (hwloc's test suite),
# checked against lscpu reading the same trees and against the kernel
# files themselves.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"	# expand, to_list

if [ ! -d "$FIXTURES/hwloc" ]; then
	skip "hwloc machine trees" "no fixtures in $FIXTURES/hwloc"
	exit 0
fi
command -v lscpu >/dev/null || { skip "hwloc machine trees" "no lscpu"; exit 0; }

# part COLUMN_FROM_CPM: "cpu rep" of cpm's -e column for online CPUs.
cpm_part() {
	awk -v col="$2" 'NR > 1 && $7 == "yes" { print $1, $col }' "$1" |
	    awk -f "$CPM_TOP/tests/partition.awk"
}
lscpu_part() {
	awk -F, -v col="$2" '!/^#/ { print $1, $col }' "$1" |
	    awk -f "$CPM_TOP/tests/partition.awk"
}

for tb in "$FIXTURES"/hwloc/*.tar.bz2; do
	name=$(basename "$tb" .tar.bz2)
	root=$(fixture_tree "$name") || { not_ok "$name: unpack"; continue; }
	sys=$root/sys/devices/system
	if [ ! -d "$sys/cpu" ]; then
		skip "$name" "no CPU topology in the tree"
		continue
	fi
	run cpm-topo --sysroot "$root" -e
	if [ "$rc" != 0 ]; then
		not_ok "$name: cpm-topo -e reads the tree" "$(show)"
		continue
	fi
	printf '%s' "$out" >"$T_TMP/e"
	# The kernel's own online list, when the tree has one.
	if [ -f "$sys/cpu/online" ]; then
		want=$(cat "$sys/cpu/online")
		got=$(cpm-topo --sysroot "$root" cpus online)
		assert "$name: online CPUs are the kernel's list" "$got" "$want"
	fi
	# Every node directory is a node, with the kernel's cpulist: node:N
	# is its online CPUs, worked out here from the tree's own files
	# (cpu/online, else each cpuN/online), not by cpm.
	if [ -f "$sys/cpu/online" ]; then
		online_cpus=$(expand <"$sys/cpu/online")
	else
		online_cpus=$(for c in "$sys"/cpu/cpu[0-9]*; do
			[ "$(cat "$c/online" 2>/dev/null)" = 0 ] || echo "${c##*/cpu}"
		done)
	fi
	nodes_ok=1 nodes_msg= nodes_seen=0
	for nd in "$sys"/node/node[0-9]*; do
		[ -f "$nd/cpulist" ] || continue
		n=${nd##*/node}
		nodes_seen=$((nodes_seen + 1))
		want=$({ expand <"$nd/cpulist"; printf '%s\n' "$online_cpus"; } |
		    sort -n | uniq -d | to_list)
		got=$(cpm-topo --sysroot "$root" cpus node:"$n")
		if [ "$got" != "$want" ]; then
			nodes_ok=0
			nodes_msg="node $n: got '$got' want '$want' (kernel '$(cat "$nd/cpulist")')"
		fi
	done
	if [ $nodes_seen = 0 ]; then
		skip "$name: NUMA nodes hold the kernel's CPUs" "no node directories in the tree"
	elif [ $nodes_ok = 1 ]; then
		ok "$name: NUMA nodes hold the kernel's CPUs ($nodes_seen nodes)"
	else
		not_ok "$name: NUMA nodes hold the kernel's CPUs" "$nodes_msg"
	fi

	# The kernel's own topology files, read by an independent reader.
	online=$(awk 'NR > 1 && $7 == "yes" { printf "%s ", $1 }' "$T_TMP/e")
	nodes=$(ls "$sys/node" 2>/dev/null | sed -n 's/^node\([0-9][0-9]*\)$/\1/p' | tr '\n' ' ')
	awk -v root="$root" -v cpus="$online" -v nodes="$nodes" \
	    -f "$CPM_TOP/tests/kernel-oracle.awk" >"$T_TMP/k"
	for what in "cores (SMT siblings):5:2" "sockets:3:3"; do
		label=${what%%:*} cols=${what#*:}
		cpm_part "$T_TMP/e" "${cols%:*}" >"$T_TMP/c.part"
		awk -v col="${cols#*:}" '{ print $1, $col }' "$T_TMP/k" |
		    awk -f "$CPM_TOP/tests/partition.awk" >"$T_TMP/k.part"
		if cmp -s "$T_TMP/c.part" "$T_TMP/k.part"; then
			ok "$name: $label match the kernel's files"
		else
			not_ok "$name: $label match the kernel's files" \
			    "$(diff "$T_TMP/k.part" "$T_TMP/c.part" | head -8)"
		fi
	done
	awk 'NR > 1 && $7 == "yes" { print $1, $2 }' "$T_TMP/e" >"$T_TMP/c.node"
	awk '{ print $1, $4 }' "$T_TMP/k" >"$T_TMP/k.node"
	if cmp -s "$T_TMP/c.node" "$T_TMP/k.node"; then
		ok "$name: NUMA node of every CPU matches the kernel's files"
	else
		not_ok "$name: NUMA node of every CPU matches the kernel's files" \
		    "$(diff "$T_TMP/k.node" "$T_TMP/c.node" | head -8)"
	fi

	# hwloc's expected output for the same tree (lstopo's view), on the
	# CPUs both show: hwloc hides disallowed CPUs.
	console=$FIXTURES/hwloc/$name.console
	if [ -f "$console" ]; then
		awk -f "$CPM_TOP/tests/hwloc-console.awk" "$console" | sort -n >"$T_TMP/h"
		awk 'NR > 1 && $7 == "yes" { print $1, $5, $3 }' "$T_TMP/e" | sort -n >"$T_TMP/ce"
		join "$T_TMP/h" "$T_TMP/ce" | sort -n >"$T_TMP/hj"
		if [ ! -s "$T_TMP/hj" ]; then
			skip "$name: agrees with hwloc" "no common CPUs"
		elif awk '$2 == "-" { exit 1 }' "$T_TMP/hj"; then
			# Bulldozer: the kernel reports a module's two cores as
			# thread siblings (cpm follows it); hwloc splits them.
			case $name in
			64amd64-4s2n4ca2co) checks="sockets:3:5" ;;
			*) checks="cores:2:4 sockets:3:5" ;;
			esac
			for what in $checks; do
				label=${what%%:*} cols=${what#*:}
				# hwloc leaves out packages it finds conflicting.
				awk -v c="${cols%:*}" '$c != "-"' "$T_TMP/hj" >"$T_TMP/hk"
				awk -v c="${cols%:*}" '{ print $1, $c }' "$T_TMP/hk" |
				    awk -f "$CPM_TOP/tests/partition.awk" >"$T_TMP/h.part"
				awk -v c="${cols#*:}" '{ print $1, $c }' "$T_TMP/hk" |
				    awk -f "$CPM_TOP/tests/partition.awk" >"$T_TMP/c.part"
				if cmp -s "$T_TMP/h.part" "$T_TMP/c.part"; then
					ok "$name: $label agree with hwloc"
				else
					not_ok "$name: $label agree with hwloc" \
					    "$(diff "$T_TMP/h.part" "$T_TMP/c.part" | head -8)"
				fi
			done
		else
			skip "$name: agrees with hwloc" "hwloc shows PUs without cores"
		fi
	fi

	# lscpu as a further independent reader of the same tree.  lscpu
	# 2.38 groups cores by core_id, which is wrong where core ids repeat
	# without SMT (nvidia-dgx-gb10; cpm follows thread_siblings_list), and
	# splits the hand-edited package of the conflict tree that the
	# kernel files and hwloc agree on.
	case $name in
	nvidia-dgx-gb10*) lscpu_skip_core=1 ;;
	*) lscpu_skip_core=0 ;;
	esac
	case $name in
	40intel64-4n10c+pci-conflicts) lscpu_skip_sock=1 ;;
	*) lscpu_skip_sock=0 ;;
	esac
	if ! lscpu --sysroot "$root" -p=CPU,CORE,SOCKET,NODE,CACHE >"$T_TMP/l" 2>"$T_TMP/lerr" ||
	    ! grep -q '^[0-9]' "$T_TMP/l" ||
	    ! awk -F, '!/^#/ && $2 == "" { exit 1 }' "$T_TMP/l"; then
		skip "$name: agrees with lscpu" "lscpu cannot read this tree"
		continue
	fi
	if [ $lscpu_skip_core = 0 ]; then
		cpm_part "$T_TMP/e" 5 >"$T_TMP/c.core"
		lscpu_part "$T_TMP/l" 2 >"$T_TMP/l.core"
		if cmp -s "$T_TMP/c.core" "$T_TMP/l.core"; then
			ok "$name: cores agree with lscpu"
		else
			not_ok "$name: cores agree with lscpu" \
			    "$(diff "$T_TMP/l.core" "$T_TMP/c.core" | head -8)"
		fi
	fi
	if [ $lscpu_skip_sock = 0 ]; then
		cpm_part "$T_TMP/e" 3 >"$T_TMP/c.sock"
		lscpu_part "$T_TMP/l" 3 >"$T_TMP/l.sock"
		if cmp -s "$T_TMP/c.sock" "$T_TMP/l.sock"; then
			ok "$name: sockets agree with lscpu"
		else
			not_ok "$name: sockets agree with lscpu" \
			    "$(diff "$T_TMP/l.sock" "$T_TMP/c.sock" | head -8)"
		fi
	fi
	awk -F, '!/^#/ { print $1, ($4 == "" ? "-" : $4) }' "$T_TMP/l" >"$T_TMP/l.node"
	if cmp -s "$T_TMP/c.node" "$T_TMP/l.node"; then
		ok "$name: NUMA node of every CPU agrees with lscpu"
	else
		not_ok "$name: NUMA node of every CPU agrees with lscpu" \
		    "$(diff "$T_TMP/l.node" "$T_TMP/c.node" | head -8)"
	fi
	# L3 groups, when lscpu shows a fourth cache level column.
	if awk -F, '!/^#/ { exit !(split($5, a, ":") >= 4) }' "$T_TMP/l"; then
		awk -F, '!/^#/ { split($5, a, ":"); print $1, a[4] }' "$T_TMP/l" |
		    awk -f "$CPM_TOP/tests/partition.awk" >"$T_TMP/l.l3"
		cpm_part "$T_TMP/e" 6 >"$T_TMP/c.l3"
		if cmp -s "$T_TMP/c.l3" "$T_TMP/l.l3"; then
			ok "$name: L3 groups agree with lscpu"
		else
			not_ok "$name: L3 groups agree with lscpu" \
			    "$(diff "$T_TMP/l.l3" "$T_TMP/c.l3" | head -8)"
		fi
	fi
	# Every cache level: the CPUs sharing each, as lscpu -p numbers
	# them (L1d:L1i:L2:L3), against cpm's CACHE column.
	levels=$(awk -F, '!/^#/ { print split($5, a, ":"); exit }' "$T_TMP/l")
	if [ "${levels:-0}" -gt 0 ]; then
		cpm-topo --sysroot "$root" -e -o CPU,CACHE,ONLINE --raw \
		    --noheadings >"$T_TMP/cc"
		bad=
		i=1
		while [ $i -le "$levels" ]; do
			awk -F, -v i=$i '!/^#/ { split($5, a, ":"); print $1, a[i] }' \
			    "$T_TMP/l" | awk -f "$CPM_TOP/tests/partition.awk" >"$T_TMP/l.c"
			awk -v i=$i '$3 == "yes" { split($2, a, ":"); print $1, a[i] }' \
			    "$T_TMP/cc" | awk -f "$CPM_TOP/tests/partition.awk" >"$T_TMP/c.c"
			cmp -s "$T_TMP/l.c" "$T_TMP/c.c" ||
			    bad="$bad level $i: $(diff "$T_TMP/l.c" "$T_TMP/c.c" | head -4)"
			i=$((i + 1))
		done
		if [ -z "$bad" ]; then
			ok "$name: the CPUs of every cache ($levels levels) agree with lscpu"
		else
			not_ok "$name: the CPUs of every cache agree with lscpu" "$bad"
		fi
	fi
	# The summary per level, lscpu -C's (lscpu 2.38 crashes on some
	# trees: those are skipped).
	if command -v python3 >/dev/null &&
	    lscpu --sysroot "$root" -C -J --bytes >"$T_TMP/lc" 2>/dev/null &&
	    grep -q '"caches"' "$T_TMP/lc"; then
		cpm-topo --sysroot "$root" -C --json >"$T_TMP/cc" 2>"$T_TMP/cc.err"
		if res=$(python3 "$CPM_TOP/tests/lscpu-caches.py" "$T_TMP/lc" "$T_TMP/cc"); then
			ok "$name: cache levels, sizes and instances agree with lscpu -C"
		else
			not_ok "$name: cache levels, sizes and instances agree with lscpu -C" "$res"
		fi
	fi
done

# This machine, live: the same two comparisons.
if command -v python3 >/dev/null && lscpu -C -J --bytes >"$T_TMP/lc" 2>/dev/null &&
    grep -q '"caches"' "$T_TMP/lc"; then
	cpm-topo -C --json >"$T_TMP/cc" 2>&1
	if res=$(python3 "$CPM_TOP/tests/lscpu-caches.py" "$T_TMP/lc" "$T_TMP/cc"); then
		ok "this machine: cache levels agree with lscpu -C"
	else
		not_ok "this machine: cache levels agree with lscpu -C" "$res"
	fi
else
	skip "this machine: cache levels agree with lscpu -C" "no caches in lscpu -C"
fi

# Caches are read for the views that show them, and a dump copies what
# they read: with every cache file of a copy made malformed, 'cpus' and
# -e still work and -C names the file; a dump replays -C and the cache
# ids exactly.
if root=$(fixture_tree 16amd64-8n2c); then
	want_c=$(cpm-topo --sysroot "$root" -C)
	want_e=$(cpm-topo --sysroot "$root" -e -o CPU,L1D,L1I,L2,L3,CACHE)
	rm -rf "$T_TMP/dump"
	cpm-topo --sysroot "$root" dump "$T_TMP/dump"
	check "a dump replays every cache level" 0 "$want_c" \
	    cpm-topo --sysroot "$T_TMP/dump" -C
	check "a dump replays the cache ids of every CPU" 0 "$want_e" \
	    cpm-topo --sysroot "$T_TMP/dump" -e -o CPU,L1D,L1I,L2,L3,CACHE
	check "l1d:N is the CPUs sharing that L1d" 0 "2" \
	    cpm-topo --sysroot "$root" cpus l1d:2
	check_fail "l2:N names an L2 the machine does not have" 2 "no L2 cache 99" \
	    cpm-topo --sysroot "$root" cpus l2:99
	rm -rf "$T_TMP/bad"
	cp -a "$root" "$T_TMP/bad"
	for f in "$T_TMP"/bad/sys/devices/system/cpu/cpu*/cache/index[012]/size; do
		echo 'x' >"$f"
	done
	check "cpus reads no cache below L3" 0 "0-1" \
	    cpm-topo --sysroot "$T_TMP/bad" cpus node:0
	run cpm-topo --sysroot "$T_TMP/bad" -e
	assert "-e reads no cache below L3" "$rc" 0
	run cpm-topo --sysroot "$T_TMP/bad"
	assert "the summary reads no cache below L3" "$rc" 0
	check_fail "-C reads them and names a malformed one" 2 "malformed sys/devices/system/cpu/cpu0/cache/index0/size" \
	    cpm-topo --sysroot "$T_TMP/bad" -C
else
	skip "caches read only where shown" "no 16amd64-8n2c tree"
fi
if root=$(fixture_tree 16em64t-4s2c2t); then
	check "l2:N is the CPUs sharing that L2 (SMT siblings here)" 0 "1,9" \
	    cpm-topo --sysroot "$root" cpus l2:1
	check "l2:N goes with --and and --not like l3:N" 0 "9" \
	    cpm-topo --sysroot "$root" cpus l2:1 --not 0-7
fi

# An arm64 kernel's die_id is -1 (no dies) and its die_cpus_list names
# the CPU alone: one die per package, and no die file is read past the
# first die_id.  With every die_cpus list made unreadable, the CPUs'
# dies are still 0; the same lists under a die_id of 0 are refused,
# which shows they are read when dies exist.
if root=$(fixture_tree 128arm-2pa2n8cluster4co) &&
    [ "$(cat "$root/sys/devices/system/cpu/cpu0/topology/die_id")" = -1 ]; then
	cp -a "$root" "$T_TMP/arm"
	want=$(cpm-topo --sysroot "$root" -e -o CPU,SOCKET,DIE)
	for f in "$T_TMP"/arm/sys/devices/system/cpu/cpu*/topology/die_cpus*; do
		echo 'x-y' >"$f"
	done
	check "die_id -1: one die per package, die_cpus_list not read" 0 \
	    "$want" cpm-topo --sysroot "$T_TMP/arm" -e -o CPU,SOCKET,DIE
	for f in "$T_TMP"/arm/sys/devices/system/cpu/cpu*/topology/die_id; do
		echo 0 >"$f"
	done
	check_fail "die_id 0: the die_cpus_list is read" 2 "die_cpus" \
	    cpm-topo --sysroot "$T_TMP/arm" -e
else
	skip "die_id -1" "no 128arm-2pa2n8cluster4co tree"
fi
