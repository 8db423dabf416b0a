#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Core types and capacity: on hwloc's hybrid machines against hwloc's own
# CPU kinds and the kernel's cpu_capacity files, and on generated machines
# with three and four core types against their descriptions.
. "$(dirname "$0")/lib.sh"

# type_names N: cpm's documented names for N types, fastest first.
type_names() {
	case $1 in
	2) echo "performance efficiency" ;;
	3) echo "performance mid efficiency" ;;
	4) echo "prime performance mid efficiency" ;;
	esac
}

# ---- hwloc's machines: its CPU kinds are the oracle ----
if [ -d "$FIXTURES/hwloc" ]; then
	python3 "$CPM_TOP/tests/hwloc-cpukinds.py" "$FIXTURES"/hwloc/*.test \
	    >"$T_TMP/allkinds"
	grep '^== ' "$T_TMP/allkinds" | while read -r _ name src; do
		kinds=$(awk -v n="$name" '$1 == "==" { on = $2 == n; next } on' \
		    "$T_TMP/allkinds")
		root=$(fixture_tree "$src") || continue
		n=$(printf '%s\n' "$kinds" | wc -l)
		if [ "$n" -eq 1 ]; then
			# One kind: nothing new in any output.
			run cpm-topo --sysroot "$root" -e
			assert "$name: one core type, -e has no new columns" \
			    "$(printf '%s' "$out" | head -1)" \
			    "CPU NODE SOCKET DIE CORE L3 ONLINE"
			run cpm-topo --sysroot "$root"
			case $out in
			*"Core types"*) not_ok "$name: one core type, no type lines" "$(show)" ;;
			*) ok "$name: one core type, no type lines" ;;
			esac
			run cpm-topo --sysroot "$root" --json
			case $out in
			*core_type*|*capacity*) not_ok "$name: one core type, no JSON fields" "$(show)" ;;
			*) ok "$name: one core type, no JSON fields" ;;
			esac
			continue
		fi
		set -- $(type_names "$n")
		printf '%s\n' "$kinds" >"$T_TMP/kinds"
		while read -r list cores; do
			check "$name: type:$1 is hwloc's kind $list" 0 "$list" \
			    cpm-topo --sysroot "$root" cpus "type:$1"
			if [ "$cores" != - ]; then
				got=$(cpm-topo --sysroot "$root" |
				    sed -n "s/^Type $1: *CPUs [^,]*, \([0-9]*\) cores\{0,1\},.*/\1/p")
				assert "$name: $1 has hwloc's $cores cores" "$got" "$cores"
			fi
			shift
		done <"$T_TMP/kinds"
		# The CAPACITY column is the kernel's cpu_capacity where it has one.
		bad=
		run cpm-topo --sysroot "$root" -e
		printf '%s' "$out" | awk 'NR > 1 { print $1, $9 }' >"$T_TMP/cap"
		while read -r cpu cap; do
			f=$root/sys/devices/system/cpu/cpu$cpu/cpu_capacity
			[ -f "$f" ] || continue
			[ "$(cat "$f")" = "$cap" ] || bad="$bad cpu$cpu:$cap/$(cat "$f")"
		done <"$T_TMP/cap"
		assert "$name: CAPACITY is the kernel's cpu_capacity" "$bad" ""
	done

	# hwloc was told to split this machine's kinds by frequency, so its
	# output is no oracle: the kernel's cpu_capacity files are.
	if root=$(fixture_tree fakeheterocpunuma); then
		cap=$root/sys/devices/system/cpu
		hi= lo=
		for f in "$cap"/cpu[0-9]*/cpu_capacity; do
			c=${f%/cpu_capacity}; c=${c##*/cpu}
			case $(cat "$f") in
			1025) hi="$hi,$c" ;;
			234) lo="$lo,$c" ;;
			esac
		done
		check "fakeheterocpunuma: performance CPUs have capacity 1025" 0 \
		    "$(cpm-topo --sysroot "$root" cpus "${hi#,}")" \
		    cpm-topo --sysroot "$root" cpus type:performance
		check "fakeheterocpunuma: efficiency CPUs have capacity 234" 0 \
		    "$(cpm-topo --sysroot "$root" cpus "${lo#,}")" \
		    cpm-topo --sysroot "$root" cpus type:little
		check "fakeheterocpunuma: capacity:1000- is the big CPUs" 0 \
		    "$(cpm-topo --sysroot "$root" cpus "${hi#,}")" \
		    cpm-topo --sysroot "$root" cpus capacity:1000-
	fi

	# Intel hybrid: --json carries core_type and capacity per CPU, and
	# a dump replays them.
	if root=$(fixture_tree 20em64t-hybrid-1p6c2t+2ca4co1t); then
		run cpm-topo --sysroot "$root" --json
		got=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join("%d:%s:%s" % (c["cpu"], c["core_type"][0], c["capacity"])
               for c in d["cpus"] if c["cpu"] in (0, 4, 12)))
print(" ".join("%s=%s/%d" % (t["core_type"], t["cpus"], t["cores"])
               for t in d["core_types"]))')
		# cpu4 is a favoured core (5.2 GHz against 5.0): capacity 1024.
		assert "20em64t-hybrid: --json core_type and capacity" "$got" \
		    "0:p:985 4:p:1024 12:e:768
performance=0-11/6 efficiency=12-19/8"
		cpm-topo --sysroot "$root" dump "$T_TMP/dump" >/dev/null
		check "20em64t-hybrid: a dump replays the core types" 0 \
		    "$(cpm-topo --sysroot "$root" -e)" \
		    cpm-topo --sysroot "$T_TMP/dump" -e
	fi
else
	skip "hwloc hybrid machines" "no fixtures in $FIXTURES/hwloc"
fi

# ---- generated machines ----
gen() {
	python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/$1.spec" \
	    "$T_TMP/$1" || { not_ok "gen-sysfs $1"; exit 1; }
}
gen hybrid-arm3
gen hybrid-arm4
gen hybrid-intel3
A3=$T_TMP/hybrid-arm3 A4=$T_TMP/hybrid-arm4 I3=$T_TMP/hybrid-intel3

# Types are the scheduler's classes of capacity: the slow A710 (700
# against 838) is a type of its own, its part an attribute.
check "arm3: the X2 is prime" 0 7 cpm-topo --sysroot "$A3" cpus type:prime
check "arm3: the fast A710s are performance" 0 4-5 cpm-topo --sysroot "$A3" cpus type:performance
check "arm3: the slow A710 is mid" 0 6 cpm-topo --sysroot "$A3" cpus type:mid
check "arm3: the A510s are efficiency" 0 0-3 cpm-topo --sysroot "$A3" cpus type:LITTLE
check "arm3: part:0xd47 is every A710" 0 4-6 cpm-topo --sysroot "$A3" cpus part:0xd47
check "arm3: part:cortex-a710 by name" 0 4-6 cpm-topo --sysroot "$A3" cpus part:Cortex-A710
check "arm3: part:a510 without Cortex-" 0 0-3 cpm-topo --sysroot "$A3" cpus part:a510
check "arm3: capacity:300-700" 0 0-3,6 cpm-topo --sysroot "$A3" cpus capacity:300-700
check "arm3: capacity exact" 0 4-5 cpm-topo --sysroot "$A3" cpus capacity:838
check "arm3: summary" 0 "Core types:           4
Type prime:           CPUs 7, 1 core, capacity 1024
Type performance:     CPUs 4-5, 2 cores, capacity 838
Type mid:             CPUs 6, 1 core, capacity 700
Type efficiency:      CPUs 0-3, 4 cores, capacity 325" \
    sh -c "cpm-topo --sysroot '$A3' | grep -E '^(Core types|Type )'"
check "arm3: -e shows the part" 0 "CPU NODE SOCKET DIE CORE L3 ONLINE        TYPE CAPACITY  PART
  6    0      0   0    6  0    yes         mid      700 0xd47" \
    sh -c "cpm-topo --sysroot '$A3' -e | sed -n '1p;8p'"
run cpm-topo --sysroot "$A3" --json
got=$(printf '%s' "$out" | python3 -c '
import json, sys
print(" ".join("%d:%s" % (c["cpu"], c["part"]) for c in json.load(sys.stdin)["cpus"]))')
assert "arm3: --json part per CPU" "$got" \
    "0:0xd46 1:0xd46 2:0xd46 3:0xd46 4:0xd47 5:0xd47 6:0xd47 7:0xd48"
check_fail "part: of a part the machine lacks" 2 \
    "^cpm-topo: invalid selector 'part:0xd4e': no CPU of that part here$" \
    cpm-topo --sysroot "$A3" cpus part:0xd4e
check_fail "part: of an unknown name" 2 \
    "^cpm-topo: invalid selector 'part:a9000': no CPU part called 'a9000'$" \
    cpm-topo --sysroot "$A3" cpus part:a9000
check_fail "part: malformed number" 2 \
    "^cpm-topo: invalid selector 'part:0xz': use part:0xNNN or a part's name$" \
    cpm-topo --sysroot "$A3" cpus part:0xz
check_fail "part: where cpuinfo names none" 2 \
    "^cpm-topo: invalid selector 'part:0xd47': /proc/cpuinfo names no CPU part here$" \
    cpm-topo --sysroot "$A4" cpus part:0xd47

# The parts are read from cpuinfo's records; the first tells an ARM
# kernel's (a "CPU part" line in every record) from an x86 one's, and only
# then is the rest read.
cp -R "$A3" "$T_TMP/arm3-nopart"
awk 'NR == FNR && /^CPU part/ && !done { done = 1; next } { print }' \
    "$A3/proc/cpuinfo" >"$T_TMP/arm3-nopart/proc/cpuinfo"
check_fail "arm3: no part in the first record, no parts read" 2 \
    "names no CPU part here" \
    cpm-topo --sysroot "$T_TMP/arm3-nopart" cpus part:0xd47
# A first record longer than the part of the file read first is read
# whole before it is judged: here its part comes after 5,000 bytes.
cp -R "$A3" "$T_TMP/arm3-long"
awk 'NR == 2 { printf "Features\t:"; for (i = 0; i < 1000; i++) printf " fp%d", i % 10; print "" } { print }' \
    "$A3/proc/cpuinfo" >"$T_TMP/arm3-long/proc/cpuinfo"
check "arm3: a first record past the head still gives its part" 0 4-6 \
    cpm-topo --sysroot "$T_TMP/arm3-long" cpus part:a710

# Two micro-architectures of one capacity are one type, as the scheduler
# and hwloc see them: after the X3 is taken, 3 CPUs go to the big tier
# (A715s and A710s at 855), not to the A510s at 280.
gen hybrid-dynamiq
D=$T_TMP/hybrid-dynamiq
check "dynamiq: three types, the big tier one of them" 0 "Core types:           3
Type performance:     CPUs 7, 1 core, capacity 1024
Type mid:             CPUs 3-6, 4 cores, capacity 855
Type efficiency:      CPUs 0-2, 3 cores, capacity 280" \
    sh -c "cpm-topo --sysroot '$D' | grep -E '^(Core types|Type )'"
check "dynamiq: the prime CPU taken" 0 7 \
    env CPM_STATE="$T_TMP/dyn.state" cpm-alloc --sysroot "$D" take prime 1
check "dynamiq: take mid 3 gets big cores" 0 3-5 \
    env CPM_STATE="$T_TMP/dyn.state" cpm-alloc --sysroot "$D" take mid 3
check "dynamiq: part:a715 and part:a710 split the tier" 0 "3-4
5-6" sh -c "cpm-topo --sysroot '$D' cpus part:a715; cpm-topo --sysroot '$D' cpus part:0xd47"

# Four types by capacity alone, with the 10% tolerance.
check "arm4: prime" 0 9 cpm-topo --sysroot "$A4" cpus type:prime
check "arm4: performance" 0 6-8 cpm-topo --sysroot "$A4" cpus type:big
check "arm4: mid holds 581 and 604" 0 4-5 cpm-topo --sysroot "$A4" cpus type:mid
check "arm4: efficiency" 0 0-3 cpm-topo --sysroot "$A4" cpus type:e
check "arm4: cpm-pin takes a core type selector" 0 "cpus: 9
mempolicy: inherited
exec: true" cpm-pin --sysroot "$A4" -n type:prime -- true
check "arm4: cpm-pin takes a capacity selector" 0 "cpus: 4-5
mempolicy: inherited
exec: true" cpm-pin --sysroot "$A4" -n capacity:581-604 -- true
check_fail "arm4: cpm-pin refuses a type the machine lacks" 2 "type:tiny" \
    cpm-pin --sysroot "$A4" -n type:tiny -- true
check "arm4: -e columns" 0 "CPU NODE SOCKET DIE CORE L3 ONLINE        TYPE CAPACITY
  4    0      0   0    4  0    yes         mid      581
  9    0      0   0    9  0    yes       prime     1024" \
    sh -c "cpm-topo --sysroot '$A4' -e | sed -n '1p;6p;11p'"

# Three Intel types by PMU devices; capacity from the maximum frequency.
check "intel3: cpu_core is performance" 0 0-3 cpm-topo --sysroot "$I3" cpus type:p
check "intel3: cpu_atom is mid" 0 4-7 cpm-topo --sysroot "$I3" cpus type:mid
check "intel3: cpu_lowpower is efficiency" 0 8-9 cpm-topo --sysroot "$I3" cpus type:efficiency
check "intel3: cores per type" 0 "Cores per socket:     8
Type performance:     CPUs 0-3, 2 cores, capacity 1024
Type mid:             CPUs 4-7, 4 cores, capacity 778
Type efficiency:      CPUs 8-9, 2 cores, capacity 512" \
    sh -c "cpm-topo --sysroot '$I3' | grep -E '^(Cores per|Type )'"
check "intel3: selectors compose" 0 1,3 \
    cpm-topo --sysroot "$I3" cpus type:performance --and thread:1

# Bad selectors: one line, exit 2.
check_fail "type: needs a name" 2 "^cpm-topo: invalid selector 'type:': name a core type$" \
    cpm-topo --sysroot "$A3" cpus type:
check_fail "type:prime on a three-type machine" 2 \
    "^cpm-topo: invalid selector 'type:prime': no core type 'prime' \(performance, mid or efficiency\)$" \
    cpm-topo --sysroot "$I3" cpus type:prime
check_fail "capacity: range backwards" 2 "^cpm-topo: invalid selector 'capacity:700-300': use capacity:MIN-MAX$" \
    cpm-topo --sysroot "$A3" cpus capacity:700-300
check_fail "capacity: not a number" 2 "^cpm-topo: invalid selector 'capacity:big': use capacity:MIN-MAX$" \
    cpm-topo --sysroot "$A3" cpus capacity:big

# One-type machine: the names of the two ends name every online CPU, the
# others are errors; capacity without any from the kernel is an error.
gen 2s4n-smt
U=$T_TMP/2s4n-smt
check "uniform: type:performance is every online CPU" 0 0-31 \
    cpm-topo --sysroot "$U" cpus type:performance
check "uniform: type:e is every online CPU" 0 0-31 cpm-topo --sysroot "$U" cpus type:e
check_fail "uniform: type:mid" 2 "^cpm-topo: invalid selector 'type:mid': this machine has one core type$" \
    cpm-topo --sysroot "$U" cpus type:mid
check_fail "uniform: no capacity known" 2 \
    "^cpm-topo: invalid selector 'capacity:1-1024': the kernel tells no CPU capacity here$" \
    cpm-topo --sysroot "$U" cpus capacity:1-1024

# ---- allocation ----
# Takes keep to one core type, the fastest that can hold them; the oracle
# for the types is the machine's description (and hwloc above).
export CPM_STATE="$T_TMP/alloc.state"
subset() { # NAME CPUS OF: CPUS lie within OF
	if [ -n "$2" ] && [ -z "$(cpm-topo --sysroot "$A4" cpus "$2" --not "$3" 2>/dev/null)" ]; then
		ok "$1"
	else
		not_ok "$1" "got '$2', want within '$3'"
	fi
}
check "arm4: 1 CPU goes to the prime core" 0 9 cpm-alloc --sysroot "$A4" take a 1
check "arm4: 3 CPUs go to the performance cores" 0 6-8 cpm-alloc --sysroot "$A4" take b 3
check "arm4: 2 more go to mid, the fastest type with room" 0 4-5 cpm-alloc --sysroot "$A4" take c 2
check_fail "arm4: --core-type mid when mid is full" 3 \
    "^cpm-alloc: 1 CPUs do not fit on the mid cores: " \
    cpm-alloc --sysroot "$A4" take d 1 --core-type mid
check "arm4: hints say which types can hold 2" 0 "0 preferred
type prime: 0 free CPUs, cannot hold 2
type performance: 0 free CPUs, cannot hold 2
type mid: 0 free CPUs, cannot hold 2
type efficiency: 4 free CPUs, holds 2" cpm-alloc --sysroot "$A4" hints 2
check_fail "--core-type names a type the machine has" 2 \
    "^cpm-alloc: invalid --core-type 'big.little' \(prime, performance, mid or efficiency\)$" \
    cpm-alloc --sysroot "$A4" take d 1 --core-type big.little
rm -f "$CPM_STATE"

if root=$(fixture_tree 20em64t-hybrid-1p6c2t+2ca4co1t); then
	H=$root
	run cpm-alloc --sysroot "$H" take a 4
	subset "intel hybrid: a take of 4 stays on the P-cores" "$out" 0-11
	run cpm-alloc --sysroot "$H" take b 8
	subset "intel hybrid: 8 more fill the P-cores" "$out" 0-11
	run cpm-alloc --sysroot "$H" take c 4
	subset "intel hybrid: then the E-cores, not a mix" "$out" 12-19
	check "intel hybrid: --core-type e" 0 16-19 cpm-alloc --sysroot "$H" take d 4 --core-type e
	rm -f "$CPM_STATE"
	run cpm-alloc --sysroot "$H" take m 16
	case $rc:$err in
	"0:cpm-alloc: warning: no core type can hold 16 CPUs: 'm' mixes core types"*)
		ok "intel hybrid: a take no type can hold mixes, with a warning" ;;
	*) not_ok "intel hybrid: a take no type can hold mixes, with a warning" "$(show)" ;;
	esac
	# Again with the core types read from the state's layout.
	run cpm-alloc --sysroot "$H" release m
	run cpm-alloc --sysroot "$H" take n 16
	case $rc:$err in
	"0:cpm-alloc: warning: no core type can hold 16 CPUs: 'n' mixes core types"*)
		ok "intel hybrid: the same warning with the types kept in the state" ;;
	*) not_ok "intel hybrid: the same warning with the types kept in the state" "$(show)" ;;
	esac
	rm -f "$CPM_STATE"
	check "intel hybrid: check warns about a mix" 3 \
	    "warning: CPUs mix core types: performance 10-11, efficiency 12-13; the performance cores alone would hold them" \
	    cpm-topo --sysroot "$H" check 10-13
	check "intel hybrid: check is quiet on one type" 0 "" cpm-topo --sysroot "$H" check 12-15
fi

# One core type: the take is the kubelet's, --core-type changes nothing.
check "uniform: --core-type performance takes what a plain take would" 0 \
    "$(CPM_STATE=$T_TMP/u1 cpm-alloc --sysroot "$U" take a 6)" \
    env CPM_STATE="$T_TMP/u2" cpm-alloc --sysroot "$U" take a 6 --core-type performance
check_fail "uniform: --core-type mid" 2 \
    "^cpm-alloc: invalid --core-type 'mid': this machine has one core type$" \
    cpm-alloc --sysroot "$U" take a 1 --core-type mid
run cpm-alloc --sysroot "$U" hints 2
case $out in
*type*) not_ok "uniform: hints print no type lines" "$(show)" ;;
*) assert "uniform: hints print no type lines" "$rc" 0 ;;
esac
