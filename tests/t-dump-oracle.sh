#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A cpm-topo dump is readable by the standard tools: lscpu --sysroot and
# hwloc's lstopo --input read a fresh dump of this machine (and of a
# generated two-socket one), and their answers are cpm-topo's.
. "$(dirname "$0")/lib.sh"

# field NAME: the value of lscpu's "NAME:" line in $T_TMP/lscpu.
field() { sed -n "s/^$1: *//p" "$T_TMP/lscpu"; }
# sum NAME: the value of cpm-topo's summary line "NAME:".
sum() { sed -n "s/^$1: *//p" "$T_TMP/sum"; }
# canon LIST: a cpulist in cpm's form (lscpu writes "0,1" for "0-1").
canon() { cpm-topo --sysroot "$D" cpus "$1"; }

oracle() { # NAME DUMP
	name=$1 D=$2
	cpm-topo --sysroot "$D" >"$T_TMP/sum" ||
	    { not_ok "$name: cpm-topo reads its own dump"; return; }
	if command -v lscpu >/dev/null 2>&1; then
		if lscpu --sysroot "$D" >"$T_TMP/lscpu" 2>"$T_TMP/lscpu.err"; then
			ok "$name: lscpu --sysroot reads the dump"
			assert "$name: lscpu's online CPUs" \
			    "$(canon "$(field 'On-line CPU(s) list')")" "$(sum 'Online CPUs')"
			assert "$name: lscpu's threads per core" \
			    "$(field 'Thread(s) per core')" "$(sum 'Threads per core')"
			assert "$name: lscpu's cores per socket" \
			    "$(field 'Core(s) per socket')" "$(sum 'Cores per socket')"
			assert "$name: lscpu's sockets" "$(field 'Socket(s)')" "$(sum 'Sockets')"
			assert "$name: lscpu's NUMA nodes" "$(field 'NUMA node(s)')" \
			    "$(sum 'NUMA nodes')"
			n=$(sum 'NUMA nodes')
			k=0
			while [ "$k" -lt "$n" ]; do
				# cpm's line: "CPUs LIST[ (cpulist FILE)], memory
				# ...": lscpu prints the kernel's file.
				want=$(sed -n "s/^NUMA node $k: *CPUs \(.*\), memory .*/\1/p" \
				    "$T_TMP/sum" | sed 's/.*(cpulist \(.*\))$/\1/')
				assert "$name: lscpu's NUMA node$k CPUs" \
				    "$(canon "$(field "NUMA node$k CPU(s)")")" "$want"
				k=$((k + 1))
			done
		else
			not_ok "$name: lscpu --sysroot reads the dump" "$(cat "$T_TMP/lscpu.err")"
		fi
	else
		skip "$name: lscpu" "not installed"
	fi
	if command -v lstopo-no-graphics >/dev/null 2>&1; then
		if lstopo-no-graphics --input "$D" --of xml >"$T_TMP/xml" 2>"$T_TMP/hw.err"; then
			ok "$name: lstopo --input reads the dump"
			count() { grep -c "<object type=\"$1\"" "$T_TMP/xml"; }
			pus=$(sed -n 's/.*<object type="PU" os_index="\([0-9]*\)".*/\1/p' \
			    "$T_TMP/xml" | tr '\n' ',')
			assert "$name: hwloc's PUs are the online CPUs" \
			    "$(canon "${pus%,}")" "$(sum 'Online CPUs')"
			assert "$name: hwloc's packages" "$(count Package)" "$(sum 'Sockets')"
			assert "$name: hwloc's cores" "$(count Core)" \
			    "$(( $(sum 'Sockets') * $(sum 'Cores per socket') ))"
			assert "$name: hwloc's NUMA nodes" "$(count NUMANode)" "$(sum 'NUMA nodes')"
		else
			not_ok "$name: lstopo --input reads the dump" "$(cat "$T_TMP/hw.err")"
		fi
	else
		skip "$name: hwloc" "lstopo-no-graphics is not installed"
	fi
}

if cpm-topo dump "$T_TMP/live" >/dev/null 2>"$T_TMP/err"; then
	oracle "this machine" "$T_TMP/live"
else
	not_ok "cpm-topo dump of this machine" "$(cat "$T_TMP/err")"
fi

# With an x86 kernel's cpuinfo: lscpu prints the topology counts only
# for a CPU model it can read.
{ echo "cpuinfo x86"; cat "$CPM_TOP/tests/topologies/2s4n-smt.spec"; } |
    python3 "$CPM_TOP/tests/gen-sysfs" - "$T_TMP/gen" || { not_ok "gen-sysfs"; exit 1; }
if cpm-topo --sysroot "$T_TMP/gen" dump "$T_TMP/gendump" >/dev/null 2>"$T_TMP/err"; then
	oracle "2s4n-smt" "$T_TMP/gendump"
else
	not_ok "cpm-topo dump of 2s4n-smt" "$(cat "$T_TMP/err")"
fi
