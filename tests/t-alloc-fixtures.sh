#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc on dumped real machines: every take is disjoint, the pools add
# up, and check finds nothing; and the topology kept in the state gives
# the answers of a full read of the machine.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"

found=0
for f in "$FIXTURES"/hwloc/*.tar.bz2; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .tar.bz2)
	root=$(fixture_tree "$name") || continue
	found=1
	export CPM_SYSROOT="$root" CPM_STATE="$T_TMP/$name.state"
	online=$(cat "$root/sys/devices/system/cpu/online" 2>/dev/null) || continue
	n=$(count "$online")
	if ! cpm-alloc init --reserve 1 >/dev/null 2>"$T_TMP/err"; then
		not_ok "$name: init --reserve 1" "$(cat "$T_TMP/err")"
		continue
	fi
	half=$(( (n - 1) / 2 ))
	a=$(cpm-alloc take a "$half" 2>"$T_TMP/err") ||
		{ not_ok "$name: take $half of $n CPUs" "$(cat "$T_TMP/err")"; continue; }
	b=$(cpm-alloc take b "$(( n - 1 - half ))" --share 2>"$T_TMP/err") ||
		{ not_ok "$name: take the rest" "$(cat "$T_TMP/err")"; continue; }
	r=$(cpm-alloc reserved)
	union=$(printf '%s\n%s\n%s\n' "$a" "$b" "$r" | expand | to_list)
	total=$(( $(count "$a") + $(count "$b") + $(count "$r") ))
	if [ "$union" = "$online" ] && [ "$total" = "$n" ] &&
	    [ "$(cpm-alloc shared)" = "$(minus "$online" "$a")" ] &&
	    cpm-alloc check >/dev/null; then
		ok "$name: reserved, exclusive and share CPUs cover the $n online CPUs once"
	else
		not_ok "$name: reserved, exclusive and share CPUs cover the $n online CPUs once" \
			"online $online reserved $r a $a b $b shared $(cpm-alloc shared)"
	fi
	# The same placements through the layout kept in the state and
	# through a full read (another spelling of the sysroot never
	# matches the layout's key).
	L=$T_TMP/$name.layout F=$T_TMP/$name.full same=1
	q=$(( (n + 3) / 4 ))
	for step in "init --reserve 1" "take a $q" "take b 2 --prefer-l3" \
	    "take c 3 --distribute" "take d 2 --spread-cores" "release a" \
	    "take e $q --full-cores" "take f 2 --numa-policy single-numa-node" \
	    "take g 3 --numa-policy restricted --align-socket" "hints 2" \
	    "list"; do
		# shellcheck disable=SC2086
		x=$(cpm-alloc --state "$L" $step 2>&1; echo "rc $?")
		# shellcheck disable=SC2086
		y=$(cpm-alloc --sysroot "$root/." --state "$F" $step 2>&1; echo "rc $?")
		if [ "$x" != "$y" ]; then
			same=0
			not_ok "$name: layout and full read agree on '$step'" \
				"layout: $x" "full: $y"
			break
		fi
	done
	[ $same = 1 ] && ok "$name: layout and full read agree"
done
[ $found = 1 ] || skip "cpm-alloc on dumped machines" "no fixtures in $FIXTURES/hwloc"
