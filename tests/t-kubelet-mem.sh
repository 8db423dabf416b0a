#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kubelet's Memory Manager cases through "cpm-alloc init
# --reserved-memory" and "cpm-alloc take --mem RESOURCE=SIZE,...": the
# static policy's default machine state, its allocations and hints with
# hugepages-1Gi and hugepages-2Mi, and the reserved memory's checks.  The
# machines are sysfs trees that tests/gen-sysfs writes from
# tests/kubelet/FIXTURE.spec (huge pages under nodeN/hugepages/): this
# host has neither the nodes nor the pages.
. "$(dirname "$0")/lib.sh"

cases=$CPM_TOP/tests/kubelet/mem-cases.tsv
tab=$(printf '\t')

if ! command -v python3 >/dev/null 2>&1 || [ ! -x "$CPM_TOP/bin/cpm-alloc" ]; then
	skip "cpm-alloc books memory as the kubelet does" \
	    "python3 or bin/cpm-alloc missing"
	exit 0
fi

tree_of() {
	_t=$T_TMP/trees/$1
	if [ ! -d "$_t" ]; then
		mkdir -p "$T_TMP/trees" &&
		    python3 "$CPM_TOP/tests/gen-sysfs" \
			"$CPM_TOP/tests/kubelet/$1.spec" "$_t" || return 1
	fi
	printf '%s\n' "$_t"
}

# bookings STATE NAME: the entry's mem= and hugepages= fields.
bookings() {
	awk -v n="$2" '$1 == "entry" && $2 == n {
		m = "mem=-"; h = ""
		for (i = 3; i <= NF; i++) {
			if ($i ~ /^mem=/) m = $i
			if ($i ~ /^hugepages=/) h = " " $i
		}
		print m h
	}' "$1"
}

row=0
while IFS=$tab read -r name fixture resmem setup policy req expected; do
	case $name in '#'*|'') continue;; esac
	row=$((row + 1))
	tname="cpm-alloc books memory as the kubelet does: $name"
	if ! tree=$(tree_of "$fixture"); then
		not_ok "$tname" "cannot generate the tree of $fixture"
		continue
	fi
	st=$T_TMP/state.$row
	A="cpm-alloc --sysroot $tree --state $st"
	if [ "$resmem" = - ]; then
		run $A init
	else
		run $A init --reserved-memory "$resmem"
	fi
	case $expected in
	'INIT '*)
		assert "$tname" "$rc $(printf '%s\n' "$err" | sed '/^$/d')" \
		    "2 cpm-alloc: --reserved-memory: ${expected#INIT }"
		continue
		;;
	esac
	if [ "$rc" != 0 ]; then
		not_ok "$tname" "init failed" "$(show)"
		continue
	fi
	_i=0
	_old_ifs=$IFS
	IFS='|'
	for _m in $setup; do
		[ "$_m" = - ] && continue
		_i=$((_i + 1))
		IFS=$_old_ifs
		run $A take "held$_i" 1 --mem "$_m"
		IFS='|'
	done
	IFS=$_old_ifs
	set -- take pod 1 --mem "$req" --numa-policy "$policy"
	case $expected in
	'HINTS '*)
		run $A "$@" --explain --dry-run
		if printf '%s\n' "$err" |
		    grep -qxF "cpm-alloc: ${expected#HINTS }"; then
			ok "$tname"
		else
			not_ok "$tname" "want the line: ${expected#HINTS }" \
			    "$(show)"
		fi
		;;
	REFUSED)
		run $A "$@"
		assert "$tname" "$rc $(bookings "$st" pod)" "3 "
		;;
	*)
		run $A "$@"
		assert "$tname" "$rc BOOK $(bookings "$st" pod)" "0 $expected"
		;;
	esac
done <"$cases"
assert "the kubelet memory case table has its 11 rows" "$row" 11

# A state with huge pages booked: listed, and read back unchanged.
tree=$(tree_of memOneNode)
st=$T_TMP/list.state
A="cpm-alloc --sysroot $tree --state $st"
run $A init --reserved-memory '0:memory=512Mi'
run $A take dpdk 1 --mem memory=1G,hugepages-1Gi=1G
check "list shows the huge pages booked" 0 "dpdk 0:1G 1Gi/0:1G" sh -c \
    "$A list --noheadings -o name,memory,hugepages | sed 's/  */ /g'"
check "list --json names them as the kubelet does" 0 \
    '[{"resource":"hugepages-1Gi","node":0,"bytes":1073741824}]' sh -c \
    "$A list --json -o hugepages | sed 's/.*\"hugepages\"://; s/}\]}\$//'"
check_fail "a page size the machine lacks is refused" 2 \
    "--mem hugepages-2Mi: no NUMA node of this machine has huge pages of that size" \
    $A take x 1 --mem hugepages-2Mi=2Mi
check_fail "an amount not a multiple of the page size is refused" 2 \
    "--mem hugepages-1Gi: 1536Mi is not a multiple of the page size 1Gi" \
    $A take x 1 --mem hugepages-1Gi=1536Mi
check "release gives the pages back" 0 "0:1G 1Gi/0:1G" sh -c \
    "$A release dpdk && $A take again 1 --mem memory=1G,hugepages-1Gi=1G >/dev/null &&
    $A list --noheadings -o memory,hugepages | sed 's/  */ /g'"
check "init with the same reserved memory changes nothing" 0 "" \
    $A init --reserved-memory '0:memory=512Mi'
check_fail "init with other reserved memory needs --force" 3 \
    "already exists with 1 allocations and other settings" \
    $A init --reserved-memory '0:memory=1Gi'

# import-kubelet: the hugepages blocks of a memory_manager_state become
# huge page bookings (split over the block's nodes in whole pages, the
# remainder on the lowest), memory stays memory.
printf '%s\n' 'node 0 mem_kb=4194304 huge=2048:10,1048576:2' \
    'node 1 mem_kb=4194304 huge=2048:10,1048576:2' \
    'cpu 0 core=0 socket=0 node=0' 'cpu 1 core=0 socket=1 node=1' |
    python3 "$CPM_TOP/tests/gen-sysfs" - "$T_TMP/imp" || not_ok "gen-sysfs imp"
d=$T_TMP/kubelet
mkdir -p "$d"
printf '%s' '{"policyName":"static","defaultCpuSet":"0","entries":{"pod":{"container1":"1"}},"checksum":0}' \
    >"$d/cpu_manager_state"
cp "$CPM_TOP/tests/kubelet/memory-checkpoints/hugepages_v1.json" \
    "$d/memory_manager_state"
A="cpm-alloc --sysroot $T_TMP/imp --state $T_TMP/imp.state"
check "import-kubelet reads a checkpoint with huge pages" 0 "pod/container1 1" \
    $A import-kubelet "$d/cpu_manager_state"
check "its hugepages blocks are booked as huge pages" 0 \
    "0:512M,1:512M 2Mi/0:4M,2Mi/1:2M,1Gi/0:2G,1Gi/1:1G" sh -c \
    "$A list --noheadings -o memory,hugepages | sed 's/  */ /g'"
