#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc apply: Kerf's example plan (tests/plans/kerf.plan) made real
# on its machine, from an empty state; run again; with a line removed,
# changed, or impossible; and twenty applies of one plan at once.
. "$(dirname "$0")/lib.sh"

PLANS=$CPM_TOP/tests/plans
python3 "$CPM_TOP/tests/gen-sysfs" "$PLANS/kerf.machine" "$T_TMP/kerf" ||
    { not_ok "generate Kerf's machine"; exit 0; }
export CPM_SYSROOT=$T_TMP/kerf
export CPM_STATE=$T_TMP/alloc.state
PLAN=$PLANS/kerf.plan

check_fail "apply with no state file refuses and says to run init, exit 2" 2 \
    "^cpm-alloc: no state file '.*': run 'cpm-alloc init --reserved CPULIST' first" \
    cpm-alloc apply "$PLAN"
if [ -e "$CPM_STATE" ] || [ -e "$CPM_STATE.lock" ]; then
	not_ok "... and creates nothing"
else
	ok "... and creates nothing"
fi
check_fail "... with --dry-run too" 2 "run 'cpm-alloc init" \
    cpm-alloc apply "$PLAN" --dry-run
cpm-alloc init --reserved 0-3 >/dev/null
check "apply --dry-run from empty says what it would take, exit 4" 4 \
"would take web-server 4-11
would take database 20-27
would take compute 12-19,28-31
3 changes (dry run: nothing done)" cpm-alloc apply "$PLAN" --dry-run
check "... and takes nothing" 0 "" cpm-alloc list --raw --noheadings
check "apply from empty takes every instance, exit 4 (changed)" 4 \
"taken web-server 4-11
taken database 20-27
taken compute 12-19,28-31
3 changes" cpm-alloc apply "$PLAN"
check "the allocations are the plan's, marked as its own" 0 \
"web-server exclusive 8 4-11 0 0:8G plan
database exclusive 8 20-27 1 1:32G plan
compute exclusive 12 12-19,28-31 0-1 0:8G,1:8G plan" cpm-alloc list --raw --noheadings
cp "$CPM_STATE" "$T_TMP/applied"
check "apply again changes nothing and says so, exit 0" 0 \
"unchanged web-server 4-11
unchanged database 20-27
unchanged compute 12-19,28-31
no change" cpm-alloc apply "$PLAN"
if cmp -s "$CPM_STATE" "$T_TMP/applied"; then
	ok "... and leaves the state file as it was"
else
	not_ok "... and leaves the state file as it was"
fi
check "--json again: changed false, per instance" 0 \
    '{"changed":false,"dry_run":false,"instances":[{"name":"web-server","action":"unchanged","changed":false,"cpus":"4-11","before":"4-11"},{"name":"database","action":"unchanged","changed":false,"cpus":"20-27","before":"20-27"},{"name":"compute","action":"unchanged","changed":false,"cpus":"12-19,28-31","before":"12-19,28-31"}]}' \
    cpm-alloc apply "$PLAN" --json

sed '/^database/d' "$PLAN" >"$T_TMP/p1"
check "a line removed: its allocation is released, exit 4" 4 \
"released database 20-27
unchanged web-server 4-11
unchanged compute 12-19,28-31
1 change" cpm-alloc apply "$T_TMP/p1"

# An allocation the plan did not make is never the plan's to release.
cpm-alloc take batch 2 >/dev/null
check "an allocation the plan did not make stays" 0 \
"unchanged web-server 4-11
unchanged compute 12-19,28-31
no change" cpm-alloc apply "$T_TMP/p1"
check "... in the list, beside the plan's" 0 "web-server compute batch" \
    sh -c 'cpm-alloc list --noheadings -o name | sort -r | tr "\n" " " | sed "s/ $//"'
cp "$CPM_STATE" "$T_TMP/before"
check_fail "a line that cannot be made now: exit 3, names the instance" 3 \
    "^cpm-alloc: cannot apply the plan: database: CPUs 20-21 are not available \(held by batch\): nothing changed$" \
    cpm-alloc apply "$PLAN"
if cmp -s "$CPM_STATE" "$T_TMP/before"; then
	ok "... and the state is as it was"
else
	not_ok "... and the state is as it was" "$(cpm-alloc list)"
fi
sed 's/^compute .*/compute cpus=40/' "$T_TMP/p1" >"$T_TMP/p2"
run cpm-alloc apply "$T_TMP/p2"
assert "an impossible line changes nothing, even what could be done: exit 3, its errors" \
    "$rc:$out:$err" "3::cpm-alloc: error: compute: 40 CPUs asked for, but the machine has only 28 outside the reserved ones
cpm-alloc: error: compute: the instances ask for 48 CPUs, the machine has 28 outside the reserved CPUs 0-3
cpm-alloc: the plan has 2 errors on this machine (cpm-topo check --plan): nothing changed
"
if cmp -s "$CPM_STATE" "$T_TMP/before"; then
	ok "... and the state is as it was"
else
	not_ok "... and the state is as it was" "$(cpm-alloc list)"
fi
cpm-alloc release batch
check "the line put back: taken again, the same CPUs" 4 \
"unchanged web-server 4-11
taken database 20-27
unchanged compute 12-19,28-31
1 change" cpm-alloc apply "$PLAN"

# A name another allocation holds is not the plan's to take over.
cpm-alloc release database
cpm-alloc take db2 8 --from 20-27 >/dev/null
sed 's/^database /db2      /' "$PLAN" >"$T_TMP/p5"
check_fail "an instance whose name another allocation holds is refused" 3 \
    "^cpm-alloc: cannot apply the plan: db2: an allocation of that name exists that the plan did not make" \
    cpm-alloc apply "$T_TMP/p5"
cpm-alloc release db2
cpm-alloc apply "$PLAN" >/dev/null

# Changed lines: a cpulist to a count, a count resized, a cpulist moved.
sed 's/^database .*/database cpus=6 nodes=1 affinity=local mem=32G mem-policy=local/' "$PLAN" >"$T_TMP/c6"
sed 's/^database .*/database cpus=4 nodes=1 affinity=local mem=32G mem-policy=local/' "$PLAN" >"$T_TMP/c4"
sed 's/^compute    cpus=12-19,28-31 /compute    cpus=12-19,24-31 /' "$T_TMP/c4" >"$T_TMP/c8"
check "a cpulist changed to a count: resized, keeping its CPUs" 4 \
"unchanged web-server 4-11
resized database 20-27 -> 20-25
unchanged compute 12-19,28-31
1 change" cpm-alloc apply "$T_TMP/c6"
check "a count changed: resized, keeping its CPUs" 4 \
"unchanged web-server 4-11
resized database 20-25 -> 20-23
unchanged compute 12-19,28-31
1 change" cpm-alloc apply "$T_TMP/c4"
check "... and again: no change" 0 \
"unchanged web-server 4-11
unchanged database 20-23
unchanged compute 12-19,28-31
no change" cpm-alloc apply "$T_TMP/c4"
check "a cpulist changed: those CPUs exactly" 4 \
"unchanged web-server 4-11
unchanged database 20-23
replaced compute 12-19,28-31 -> 12-19,24-31
1 change" cpm-alloc apply "$T_TMP/c8"
sed 's/^web-server .*/web-server cpus=4-11 mode=share mem=8G mem-policy=local/' "$T_TMP/c8" >"$T_TMP/c9"
check "a mode changed: switched in place" 4 \
"mode web-server 4-11
unchanged database 20-23
unchanged compute 12-19,24-31
1 change" cpm-alloc apply "$T_TMP/c9"
check "--json: which instance changed and which did not" 4 \
    '{"changed":true,"dry_run":false,"instances":[{"name":"web-server","action":"mode","changed":true,"cpus":"4-11","before":"4-11"},{"name":"database","action":"unchanged","changed":false,"cpus":"20-23","before":"20-23"},{"name":"compute","action":"unchanged","changed":false,"cpus":"12-19,24-31","before":"12-19,24-31"}]}' \
    cpm-alloc apply "$T_TMP/c8" --json

# Malformed plans change nothing: exit 2, before the state is read.
printf 'web cpus=4 colour=red\n' >"$T_TMP/bad"
cp "$CPM_STATE" "$T_TMP/before"
check_fail "a malformed plan: exit 2 with its line" 2 \
    "^cpm-alloc: line 1, column 12: unknown key \(" cpm-alloc apply "$T_TMP/bad"
if cmp -s "$CPM_STATE" "$T_TMP/before"; then
	ok "... and the state is as it was"
else
	not_ok "... and the state is as it was"
fi
check_fail "apply needs a plan" 2 "a plan FILE" cpm-alloc apply
check_fail "--share is for take, not apply" 2 "'--share' does not apply to 'apply'" \
    cpm-alloc apply --share "$PLAN"

# Twenty applies of one plan at once, from an empty state: one of them
# takes everything (exit 4), the others find it done (exit 0); no
# instance is taken twice.
export CPM_STATE=$T_TMP/many.state
cpm-alloc init --reserved 0-3 >/dev/null
i=0
while [ $i -lt 20 ]; do
	cpm-alloc apply "$PLAN" >"$T_TMP/out.$i" 2>&1 &
	eval "pid$i=\$!"
	i=$((i + 1))
done
changed=0 same=0 other=
i=0
while [ $i -lt 20 ]; do
	eval "wait \$pid$i"
	rc=$?
	case $rc in
	4) changed=$((changed + 1)) ;;
	0) same=$((same + 1)) ;;
	*) other="$other $rc: $(cat "$T_TMP/out.$i")" ;;
	esac
	i=$((i + 1))
done
assert "20 applies at once: one changed, 19 found it done" \
    "$changed $same$other" "1 19"
check "... one result, each instance once" 0 \
"web-server exclusive 8 4-11 0 0:8G plan
database exclusive 8 20-27 1 1:32G plan
compute exclusive 12 12-19,28-31 0-1 0:8G,1:8G plan" cpm-alloc list --raw --noheadings
check "... and the state agrees with the machine" 0 "" cpm-alloc check
check "reconcile leaves the plan's allocations alone" 0 "" cpm-alloc reconcile
sed 's/mem=16G/mem=20G/' "$PLAN" >"$T_TMP/m20"
check "memory changed: taken again with the new booking" 4 \
"unchanged web-server 4-11
unchanged database 20-27
replaced compute 12-19,28-31 -> 12-19,28-31
1 change" cpm-alloc apply "$T_TMP/m20"
check "... booked, split over its nodes" 0 "compute exclusive 12 12-19,28-31 0-1 0:10G,1:10G plan" \
    sh -c 'cpm-alloc list --raw --noheadings | grep ^compute'

# affinity=spread with a count: over the instance's nodes, even where the
# kubelet's distribute option would keep a count that fits on one node;
# a shrink keeps it spread.
export CPM_STATE=$T_TMP/spread.state
cpm-alloc init --reserved 0-3 >/dev/null
printf 'compute cpus=10 nodes=0-1 affinity=spread\n' >"$T_TMP/s10"
check "spread: 10 CPUs that fit on node 0 go 5 and 5 over nodes 0-1" 4 \
"taken compute 4-8,20-24
1 change" cpm-alloc apply "$T_TMP/s10"
printf 'compute cpus=24 nodes=0-1 affinity=spread\n' >"$T_TMP/s24"
cpm-alloc apply "$T_TMP/s24" >/dev/null
printf 'compute cpus=6 nodes=0-1 affinity=spread\n' >"$T_TMP/s6"
check "a spread instance shrunk stays spread: 3 and 3" 4 \
"resized compute 4-15,20-31 -> 4-6,20-22
1 change" cpm-alloc apply "$T_TMP/s6"
