#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kubelet's pod cases through "cpm-alloc take POD --member ...": its
# init-container table (each init container's and container's CPUs, the
# init containers' handed on) and its pod hints (the pod scope's one
# hint list, for the pod's request).  The machines are sysfs trees that
# tests/gen-sysfs writes from tests/kubelet/FIXTURE.spec.  Then what a
# pod's members are in the state: listed as POD/NAME, released together
# or one at a time, and refused as a whole.
. "$(dirname "$0")/lib.sh"

cases=$CPM_TOP/tests/kubelet/pod-cases.tsv
tab=$(printf '\t')

if ! command -v python3 >/dev/null 2>&1 || [ ! -x "$CPM_TOP/bin/cpm-alloc" ]; then
	skip "cpm-alloc take places pods as the kubelet does" \
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

# members KIND PREFIX LIST: --KIND PREFIX-I=N for each count of LIST.
members() {
	[ "$3" = - ] && return
	_i=0
	for _n in $(printf '%s' "$3" | tr , ' '); do
		printf ' --%s %s-%d=%s' "$1" "$2" "$_i" "$_n"
		_i=$((_i + 1))
	done
}

row=0
while IFS=$tab read -r name fixture avail opts init app expected; do
	case $name in '#'*|'') continue;; esac
	row=$((row + 1))
	tname="cpm-alloc take POD matches the kubelet: $name"
	if ! tree=$(tree_of "$fixture"); then
		not_ok "$tname" "cannot generate the tree of $fixture"
		continue
	fi
	state=$T_TMP/state.$row
	set -- --scope "${opts%%,*}"
	case $opts in *,*) set -- "$@" --numa-policy "${opts#*,}" ;; esac
	# shellcheck disable=SC2046
	set -- "$@" $(members init-member initContainer "$init") \
	    $(members member appContainer "$app")
	run cpm-alloc --sysroot "$tree" --state "$state" init
	run cpm-alloc --sysroot "$tree" --state "$state" take pod \
	    --from "$avail" "$@" $(case $expected in HINTS*) echo --explain --dry-run;; esac)
	case $expected in
	'HINTS: '*)
		;;
	*)
		got=$(printf '%s' "$out" | awk '{ print ($2 == "" ? "(empty)" : $2) }' |
		    paste -sd '|' | sed 's/|/ | /g')
		assert "$tname" "$rc $got" "0 $expected"
		continue
		;;
	esac
	if printf '%s' "$err" | grep -qxF "cpm-alloc: CPU hints: ${expected#HINTS: }"; then
		ok "$tname"
	else
		not_ok "$tname" "want the line: CPU hints: ${expected#HINTS: }" "$(show)"
	fi
done <"$cases"
assert "the kubelet pod case table has its 15 rows" "$row" 15

# The scopes differ (worked out by hand on the machine of the hints
# table, 6 CPUs a node): 4 + 4 CPUs under single-numa-node.  The pod
# scope asks one node for 8 and is refused, nothing taken; the container
# scope gives each member a node of its own.
tree=$(tree_of topoHintsDualNode)
st=$T_TMP/scope.state
A="cpm-alloc --sysroot $tree --state $st"
run $A init
run $A take db --member a=4 --member b=4 --scope pod \
    --numa-policy single-numa-node
assert "a pod the pod scope cannot admit is refused whole (exit 3)" \
    "$rc $out" "3 "
check "and none of its members is taken" 0 "" $A list --noheadings
check "the container scope places each member on a node of its own" 0 \
"db/a 0-1,6-7
db/b 3-4,9-10" $A take db --member a=4 --member b=4 --scope container \
    --numa-policy single-numa-node
check "the members are listed as POD/NAME" 0 "db/a db/b" sh -c \
    "$A list --noheadings -o name | paste -sd ' '"
check_fail "a pod whose members are held already is refused" 2 \
    "pod 'db' holds allocations already" $A take db --member c=1
check "release POD/NAME gives back one member" 0 "db/b" sh -c \
    "$A release db/a && $A list --noheadings -o name"
check "release POD gives back the others" 0 "" sh -c \
    "$A release db && $A list --noheadings -o name"
check_fail "release of a pod that holds nothing is refused" 2 \
    "no allocation named 'db'" $A release db
# The init member takes cores (0,6) and (1,7); the member reuses (0,6).
check "an init member keeps what its members did not take" 0 \
"p/i 1,7
p/a 0,6" sh -c "$A take p --init-member i=4 --member a=2 >/dev/null &&
    $A list --noheadings -o name,cpus | sed 's/  */ /g'"
# Node 0 has 2 CPUs left (2,8): the pod's 4 go to node 1, both members.
check "a pod's take with --scope pod places every member in its hint" 0 \
"q/a 3,9
q/b 4,10" $A take q --member a=2 --member b=2 --scope pod \
    --numa-policy single-numa-node --dry-run
check_fail "--scope needs members" 2 "--scope needs --member" \
    $A take x 2 --scope pod
check_fail "a member is NAME=N" 2 "invalid member 'a'" \
    $A take x --member a
check_fail "a member name is given once" 2 "member 'a' given twice" \
    $A take x --member a=1 --init-member a=1

# policy_static_test.go, TestStaticPolicyReuseCPUs "SingleSocketHT,
# DeAllocOneInitContainer": an init container of 4 CPUs and a container
# of 2; the shared pool (the kubelet's defaultCPUSet) after the take, and
# after the init container is removed.
tree=$(tree_of topoSingleSocketHT)
A="cpm-alloc --sysroot $tree --state $T_TMP/reuse.state"
run $A init
run $A take pod --init-member initContainer-0=4 --member appContainer-0=2
check "TestStaticPolicyReuseCPUs: the shared pool after the take" 0 \
    "2-3,6-7" $A shared
check "TestStaticPolicyReuseCPUs: and after initContainer-0 is removed" 0 \
    "1-3,5-7" sh -c "$A release pod/initContainer-0 && $A shared"
