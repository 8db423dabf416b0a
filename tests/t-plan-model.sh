#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One model for cpm-topo check --plan and cpm-alloc apply: over the plans
# of tests/plans/model (a replay tree of tests/topologies/2s4n-devices.spec
# with 4 GiB a node: devices need sysfs trees this host does not have),
# with two reservations each, a plan passes the check (no error) if and
# only if apply on a fresh state with the same reserved CPUs succeeds.
# Then what the plans' devices=, mem= and mem-policy= become in the
# state, and two instances swapping their CPUs.
. "$(dirname "$0")/lib.sh"

MODEL=$CPM_TOP/tests/plans/model
sed 's/^node \([0-9]\) distance/node \1 mem_kb=4194304 distance/' \
    "$CPM_TOP/tests/topologies/2s4n-devices.spec" >"$T_TMP/spec"
python3 "$CPM_TOP/tests/gen-sysfs" "$T_TMP/spec" "$T_TMP/m" >/dev/null ||
    { not_ok "generate the machine"; exit 0; }
export CPM_SYSROOT=$T_TMP/m

bad= n=0 npass=0
for plan in "$MODEL"/*.plan; do
	for r in 0 0-3; do
		export CPM_STATE=$T_TMP/s.$n
		cpm-alloc init --reserved "$r" >/dev/null
		errors=$(cpm-topo check --plan "$plan" --reserved "$r" --json |
		    sed -n 's/.*"errors":\([0-9]*\).*/\1/p')
		cpm-alloc apply "$plan" >"$T_TMP/out" 2>&1
		rc=$?
		case $rc in 0|4) applied=yes ;; 3) applied=no ;; *) applied="exit $rc" ;; esac
		[ "$errors" = 0 ] && checked=yes || checked=no
		[ "$applied" = yes ] && npass=$((npass + 1))
		[ "$checked" = "$applied" ] ||
		    bad="$bad
$(basename "$plan") --reserved $r: check passes: $checked ($errors errors), apply succeeds: $applied: $(cat "$T_TMP/out")"
		n=$((n + 1))
	done
done
if [ -z "$bad" ] && [ $n -ge 16 ] && [ $npass -gt 0 ] && [ $npass -lt $n ]; then
	ok "check --plan passes iff apply succeeds ($n cases, $npass applied)"
else
	not_ok "check --plan passes iff apply succeeds ($n cases, $npass applied)" "$bad"
fi

export CPM_STATE=$T_TMP/state
cpm-alloc init --reserved 0 >/dev/null
check "devices=: the instance lands beside them, as take --near places it" 4 \
"taken fwd 8-11
taken gpu 12-13
taken nic 4-5
3 changes" cpm-alloc apply "$MODEL/near.plan"
check "... recorded: list -o devices" 0 "fwd nvme0
gpu card1
nic eth1" cpm-alloc list --noheadings -o name,devices
check "... memory booked on the instance's own nodes" 0 "fwd 2:2G
gpu 3:1G
nic -" cpm-alloc list --noheadings -o name,memory
check "mem-policy= is kept in the state" 0 "entry gpu mempol=bind" \
    sh -c 'sed -n "s/^entry \(gpu\) .* \(mempol=[a-z]*\).*/entry \1 \2/p" "$CPM_STATE"'

cpm-alloc release fwd gpu nic 2>/dev/null
check "interleaved memory is split over its nodes" 4 \
"taken m 1
taken n 4
taken c 8-9
3 changes" cpm-alloc apply "$MODEL/interleave.plan"
check "... 4G on each, nothing on the CPUs' other nodes" 0 "m 0:4G
n 1:4G
c 2:4G,3:4G" cpm-alloc list --noheadings -o name,memory

export CPM_STATE=$T_TMP/swap
cpm-alloc init --reserved 0 >/dev/null
cpm-alloc apply "$MODEL/swap.plan" >/dev/null
sed 's/cpus=4-7/cpus=X/; s/cpus=8-11/cpus=4-7/; s/cpus=X/cpus=8-11/' \
    "$MODEL/swap.plan" >"$T_TMP/swapped"
check "two instances swap their CPUs: the plan is one change" 4 \
"replaced a 4-7 -> 8-11
replaced b 8-11 -> 4-7
unchanged c 12-14
2 changes" cpm-alloc apply "$T_TMP/swapped"
cpm-alloc take other 1 --from 15 >/dev/null
sed 's/cpus=4-7/cpus=15-15/' "$MODEL/swap.plan" >"$T_TMP/taken"
check_fail "a CPU another allocation holds: the message names it" 3 \
    "^cpm-alloc: cannot apply the plan: a: CPU 15 is not available \(held by other\): nothing changed$" \
    cpm-alloc apply "$T_TMP/taken"

printf 'x cpus=2 devices=eth9\n' >"$T_TMP/unknown"
check_fail "an unknown device: check --plan exits 2 with one line" 2 \
    "^cpm-topo: x: no device 'eth9'" cpm-topo check --plan "$T_TMP/unknown"
cp "$CPM_STATE" "$T_TMP/before"
check_fail "... and apply too, changing nothing" 2 \
    "^cpm-alloc: x: no device 'eth9'" cpm-alloc apply "$T_TMP/unknown"
if cmp -s "$CPM_STATE" "$T_TMP/before"; then
	ok "... the state is as it was"
else
	not_ok "... the state is as it was"
fi
printf 'fwd cpus=4-7 devices=nvme0\n' >"$T_TMP/far"
check "a cpulist away from its device: check --plan warns" 3 \
    "warning: fwd: device nvme0 is on NUMA node 2, not beside its CPUs, on 1" \
    cpm-topo check --plan "$T_TMP/far"
printf 'rdma cpus=2 devices=ib0\n' >"$T_TMP/nonode"
check "a device with no node: check --plan says it gives no hint" 3 \
    "warning: rdma: device ib0 has no NUMA node: it gives no placement hint" \
    cpm-topo check --plan "$T_TMP/nonode"
