#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc on a machine with an offline SMT sibling: kubelet-exact, but
# said once by init, take and check; and the refusals and notes around
# a state that is not there yet.
. "$(dirname "$0")/lib.sh"

python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/1s-offline-cxl.spec" \
    "$T_TMP/m" || { not_ok "gen-sysfs"; exit 1; }
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s4n-smt.spec" \
    "$T_TMP/u" || { not_ok "gen-sysfs"; exit 1; }
export CPM_SYSROOT=$T_TMP/m CPM_STATE=$T_TMP/st
W="cpm-alloc: warning: core 1 has an offline SMT sibling: as the kubelet, cpm counts 7 online CPUs / 4 cores = 1 CPU per core, so allocations take single threads of whole cores and may span sockets or nodes (see cpm-alloc(1))"

# once: the warning is the only line of stderr
once() { # NAME CMD...: the command warns exactly once
	_n=$1
	shift
	run "$@"
	assert "$_n" "$rc:$(printf '%s' "$err")" "0:$W"
}

once "init warns once, naming the core with an offline sibling" \
    cpm-alloc init --reserve 2
assert "init --reserve 2 stays kubelet-exact: two single threads" "$(printf '%s' "$out")" "0-1"
once "take warns once (the machine from the state's layout)" cpm-alloc take a 2
once "check warns once" cpm-alloc check
run env CPM_SYSROOT="$T_TMP/u" CPM_STATE="$T_TMP/u.state" cpm-alloc init --reserve 2
assert "no warning where every sibling is online" "$rc:$(printf '%s' "$err")" "0:"

check_fail "init --reserve of every online CPU is refused" 3 \
    "^cpm-alloc: cannot reserve 32 CPUs: the machine has 32 online, and pods need at least one$" \
    env CPM_SYSROOT="$T_TMP/u" cpm-alloc init --reserve 32 --force
check_fail "init --reserve beyond the online CPUs is refused" 3 \
    "^cpm-alloc: cannot reserve 40 CPUs: the machine has 32 online" \
    env CPM_SYSROOT="$T_TMP/u" cpm-alloc init --reserve 40 --force
check "init --reserve of all but one is kubelet's to make" 0 "0-30" \
    env CPM_SYSROOT="$T_TMP/u" CPM_STATE="$T_TMP/u31" cpm-alloc init --reserve 31

export CPM_SYSROOT=$T_TMP/u
run env CPM_STATE="$T_TMP/new.state" cpm-alloc take first 2
assert "a take without a state says it creates one with nothing reserved" "$rc:$(printf '%s' "$err")" \
    "0:cpm-alloc: warning: no state file '$T_TMP/new.state' yet: this take creates one with no CPUs reserved (cpm-alloc init --reserve N sets some aside first)"
run env CPM_STATE="$T_TMP/new.state" cpm-alloc take second 2
assert "the next take says nothing" "$rc:$(printf '%s' "$err")" "0:"
run env CPM_STATE="$T_TMP/none.state" cpm-alloc take big 999
case $rc:$err in
3:*"no state file"*) not_ok "a failed take creates nothing and says nothing of it" "$(show)" ;;
3:*) ok "a failed take creates nothing and says nothing of it" ;;
*) not_ok "a failed take creates nothing and says nothing of it" "$(show)" ;;
esac
