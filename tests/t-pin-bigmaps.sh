#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A process whose /proc/PID/numa_maps is larger than any file cpm reads
# whole (16 MiB): cpm-topo check --pid and cpm-pin -p read it a line at a
# time, whatever its size, so that no process can hide from them by
# mapping many regions.  Live: a helper maps one page of a file with a
# path of 3000 bytes 7,000 times (21 MiB of numa_maps, within the
# default vm.max_map_count); then a replayed tree with 24 MiB of
# mappings that hold no pages, the lines a search for
# "kernelpagesize_kB=" used to run past.
. "$(dirname "$0")/lib.sh"

H=$CPM_TOP/tests/helpers
node0=$(ls -d /sys/devices/system/cpu/cpu0/node* 2>/dev/null | head -1)
node0=${node0##*/node}
: "${node0:=0}"

long=$T_TMP
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	long=$long/$(printf '%0200d' 0)
done
mkdir -p "$long"
head -c 4096 /dev/zero >"$long/f"
maps=7000
[ "$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)" -gt $((maps + 1000)) ] || {
	skip "a process with 21 MiB of numa_maps" "vm.max_map_count is below $((maps + 1000))"
	maps=0
}
if [ "$maps" -gt 0 ]; then
	cpm-pin --mem interleave --nodes "$node0" 0 -- "$H/many-maps" "$long/f" $maps \
	    >"$T_TMP/mm.out" &
	bg=$!
	at_exit "kill $bg 2>/dev/null"
	i=0
	while ! grep -q ready "$T_TMP/mm.out" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	size=$(wc -c </proc/$bg/numa_maps)
	if [ "$size" -gt $((16 << 20)) ]; then
		ok "the helper's numa_maps is over 16 MiB ($size bytes)"
	else
		not_ok "the helper's numa_maps is over 16 MiB" "$size bytes"
	fi
	# Every page the helper holds: the oracle is numa_maps itself.
	kb=$(awk '{ for (i = 3; i <= NF; i++) if ($i ~ /^N[0-9]+=/) { split($i, kv, "="); n += kv[2] } }
	    END { printf "%.1f", n * 4 / 1024 }' /proc/$bg/numa_maps)
	check "check --pid reads all of it" 0 \
	    "process $bg: CPUs 0, mempolicy interleave $node0, memory node $node0 $kb MiB (100%)" \
	    cpm-topo check --pid $bg
	run cpm-pin -p $bg
	assert "cpm-pin -p shows the policy, read from the stack's line at the end" \
	    "$rc $(printf '%s' "$out" | sed -n 2p)" "0 mempolicy: interleave $node0"
	assert "... and where all its pages are" \
	    "$(printf '%s' "$out" | sed -n 4p)" "memory: node $node0 $kb MiB (100%)"
	# Moving its pages reads numa_maps to count what stayed behind.
	check "cpm-pin -p --migrate reads it too" 0 "" \
	    cpm-pin -p $bg 0 --migrate
	kill $bg
fi

# A replayed process: 24 MiB of mappings without pages, then its heap
# and stack with 2 MiB on node 1 of a two-node machine.
root=$T_TMP/m
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s3n-hmat.spec" "$root"
mkdir -p "$root/proc/200"
printf 'Name:\tx\nCpus_allowed_list:\t2-3\nMems_allowed_list:\t0-2\n' \
    >"$root/proc/200/status"
awk 'BEGIN {
	for (i = 0; i < 1200000; i++)
		printf "%012x default\n", 0x10000000 + i * 8192
	print "7f0000000000 bind:1 anon=512 dirty=512 N1=512 kernelpagesize_kB=4"
	print "7ffd00000000 bind:1 stack anon=1 dirty=1 N1=1 kernelpagesize_kB=4"
}' >"$root/proc/200/numa_maps"
check "a replayed numa_maps of 24 MiB, read whole" 0 \
    "process 200: CPUs 2-3, mempolicy bind 1, memory node 1 2.0 MiB (100%)" \
    cpm-topo --sysroot "$root" check --pid 200
