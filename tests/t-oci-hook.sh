#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc oci-hook: containers placed by their cpm.io/ annotations.
# First on the 32-CPU test machine with a cgroup v2 tree (the hook's
# logic: requests, the shared pool, concurrency, kills; this host has 2
# CPUs, too few for twenty containers), then with podman and runc on
# this host's live cgroups.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"

use_m32
S=$T_TMP/alloc.state
export CPM_STATE=$S
ALL=0-31
V2=$T_TMP/cg
# What the operator lets containers ask for: everything, in these cases.
ALLOW='--allow-annotations cpus,mode,numa-policy,mem,core-type,isolate-irqs'
mkdir -p $V2/machine $T_TMP/b
echo 'cpuset cpu' >$V2/cgroup.controllers

# state ID STATUS [ANNOTATIONS]: an OCI state whose bundle's config.json
# puts the container in machine/ID.
state() {
	mkdir -p $T_TMP/b/$1
	printf '{"ociVersion":"1.0.2","linux":{"cgroupsPath":"/machine/%s"}}\n' \
	    "$1" >$T_TMP/b/$1/config.json
	printf '{"ociVersion":"1.0.2","id":"%s","status":"%s","bundle":"%s","annotations":{%s}}' \
	    "$1" "$2" "$T_TMP/b/$1" "${3:-}"
}
# group PATH: a group of the tree, with the files the kernel would give it.
group() {
	mkdir -p $V2/$1
	touch $V2/$1/cpuset.cpus $V2/$1/cpuset.mems
}
# hook ID STATUS [ANNOTATIONS]: run the hook on machine/ID, made first.
hook() {
	group machine/$1
	T_IN=$(state "$@")
	run cpm-alloc --cgroup-root $V2 oci-hook $ALLOW
	T_IN=
}
cpus_of() { cat $V2/machine/$1/cpuset.cpus 2>/dev/null; }

check 'init keeps one CPU for the system' 0 0 cpm-alloc init --reserved 0

# ---- bad input: exit 2, one line, nothing changed ----
cp $S $T_TMP/s0
bad() {
	_n=$1
	shift
	mkdir -p $V2/machine/bad
	T_IN=$(state bad creating "$1")
	check_fail "$_n" 2 "$2" cpm-alloc --cgroup-root $V2 oci-hook $ALLOW
	T_IN=
	if cmp -s $S $T_TMP/s0 && [ ! -f $V2/machine/bad/cpuset.cpus ]; then
		ok "$_n: nothing changed"
	else
		not_ok "$_n: nothing changed" "$(cpm-alloc list)"
	fi
}
bad 'a CPU count that is no number is refused' '"cpm.io/cpus":"x"' \
    "container bad: invalid annotation cpm.io/cpus='x' \(a CPU count\)"
bad 'an unknown mode is refused' '"cpm.io/cpus":"1","cpm.io/mode":"fast"' \
    "invalid annotation cpm.io/mode='fast' \(exclusive or share\)"
bad 'an unknown NUMA policy is refused' '"cpm.io/cpus":"1","cpm.io/numa-policy":"tight"' \
    "invalid annotation cpm.io/numa-policy='tight'"
bad 'a memory size that is none is refused' '"cpm.io/cpus":"1","cpm.io/mem":"lots"' \
    "invalid annotation cpm.io/mem='lots'"
bad 'isolate-irqs takes true or false' '"cpm.io/cpus":"1","cpm.io/isolate-irqs":"maybe"' \
    "invalid annotation cpm.io/isolate-irqs='maybe' \(true or false\)"
bad 'an unknown cpm.io/ annotation is refused, not ignored' '"cpm.io/cpu":"2"' \
    "unknown annotation 'cpm.io/cpu'"
bad 'a mode without a CPU count is refused' '"cpm.io/mode":"share"' \
    "annotation cpm.io/mode needs cpm.io/cpus"
bad 'a core type the machine lacks is refused' '"cpm.io/cpus":"1","cpm.io/core-type":"turbo"' \
    "turbo"
T_IN='{"id": "x",'
check_fail 'a state that is no JSON is refused' 2 'invalid OCI state on stdin: expected a member name at byte 11' \
    cpm-alloc --cgroup-root $V2 oci-hook $ALLOW
T_IN='{"status": "creating"}'
check_fail 'a state without an id is refused' 2 'OCI state has no container "id"' \
    cpm-alloc --cgroup-root $V2 oci-hook $ALLOW
T_IN='{"id": "a b"}'
check_fail 'an id that is no allocation name is refused' 2 "invalid container id 'a b'" \
    cpm-alloc --cgroup-root $V2 oci-hook $ALLOW
T_IN=$(state bad creating)
check_fail 'an unknown stage is refused' 2 "invalid stage 'start'" \
    cpm-alloc --cgroup-root $V2 oci-hook $ALLOW start
T_IN=
cmp -s $S $T_TMP/s0 && ok 'the refusals left the state alone' ||
    not_ok 'the refusals left the state alone'

# ---- placing and releasing ----
hook c0 creating
assert 'an unannotated container is placed' "$rc$err" 0
assert 'it is confined to the shared pool' "$(cpus_of c0)" "$ALL"
assert 'with the memory nodes of the pool' "$(cat $V2/machine/c0/cpuset.mems)" 0-3
check 'list shows it with its group as owner' 0 'c0 0 cgroup:machine/c0' \
    cpm-alloc list -o name,count,owner --noheadings

hook c1 creating '"cpm.io/cpus":"4","io.other":"x"'
assert 'an annotated container is placed' "$rc$err" 0
C1=$(cpm-alloc show c1)
assert 'its group gets the 4 CPUs taken for it' "$(cpus_of c1) $(count "$C1")" "$C1 4"
assert 'the shared container loses them' "$(cpus_of c0)" "$(minus $ALL "$C1")"
check 'which is the shared pool' 0 "$(cpus_of c0)" cpm-alloc shared

hook c1 created '"cpm.io/cpus":"4"'
assert 'a second stage of the same start keeps the CPUs' "$rc $(cpus_of c1)" "0 $C1"

hook c2 creating '"cpm.io/cpus":"2","cpm.io/mode":"share"'
C2=$(cpm-alloc show c2)
assert 'a share container gets CPUs of the pool' \
    "$rc $(count "$C2") $(inter "$C2" "$C1")" "0 2 "
assert 'its group holds them' "$(cpus_of c2)" "$C2"
assert 'and the shared container keeps them' "$(cpus_of c0)" "$(minus $ALL "$C1")"

hook c3 creating '"cpm.io/cpus":"8","cpm.io/numa-policy":"single-numa-node"'
C3=$(cpm-alloc show c3)
assert 'the NUMA policy is applied' "$rc $(nodes_of $SPEC "$C3")" "0 $(cpm-alloc show c3 --nodes)"
assert 'the group gets the node of its CPUs as memory' \
    "$(cat $V2/machine/c3/cpuset.mems)" "$(cpm-alloc show c3 --nodes)"

cp $S $T_TMP/s1
hook c4 creating '"cpm.io/cpus":"30"'
if [ "$rc" = 3 ] && [ "$(printf '%s' "$err" | wc -l)" = 1 ] &&
    printf '%s' "$err" | grep -q '^cpm-alloc: container c4: '; then
	ok 'a request that cannot be met fails with exit 3 and one line'
else
	not_ok 'a request that cannot be met fails with exit 3 and one line' "$(show)"
fi
cmp -s $S $T_TMP/s1 && [ ! -s $V2/machine/c4/cpuset.cpus ] &&
    ok 'and allocates nothing' || not_ok 'and allocates nothing'

hook c5 creating '"cpm.io/cpus":"31"'
# 31 of 32 CPUs with CPU 0 reserved: the reserved CPU stays shared.
assert 'the reserved CPUs keep the pool from going empty' "$rc" 3

mkdir -p $T_TMP/b/c6
printf '{"linux":{"cgroupsPath":"machine.slice:libpod:c6"},"annotations":{"cpm.io/cpus":"1"}}' \
    >$T_TMP/b/c6/config.json
group machine.slice/libpod-c6.scope
T_IN=$(printf '{"id":"c6","status":"creating","pid":0,"bundle":"%s"}' $T_TMP/b/c6)
run cpm-alloc --cgroup-root $V2 oci-hook $ALLOW prestart
T_IN=
assert "systemd's SLICE:PREFIX:NAME is the scope in the slice" \
    "$rc $(cat $V2/machine.slice/libpod-c6.scope/cpuset.cpus 2>&1)" "0 $(cpm-alloc show c6)"
assert "config.json's annotations count when the state has none" \
    "$(cpm-alloc list -o count,owner --noheadings | grep c6)" '1 cgroup:machine.slice/libpod-c6.scope'

T_IN=$(printf '{"id":"c7","status":"creating","bundle":"%s/b/none"}' $T_TMP)
check_fail 'a container without a group is refused' 1 'container c7 has no cgroup of its own' \
    cpm-alloc --cgroup-root $V2 oci-hook $ALLOW
T_IN=$(state c8 creating '"cpm.io/cpus":"1"')
check_fail 'a group that does not exist is an error' 1 "its cgroup 'machine/c8' does not exist" \
    cpm-alloc --cgroup-root $V2 oci-hook $ALLOW
T_IN=

hook c1 stopped '"cpm.io/cpus":"4"'
assert 'poststop releases the allocation' "$rc$err $(cpm-alloc show c1 2>&1)" \
    "0 cpm-alloc: no allocation named 'c1'"
assert 'and the shared container gets its CPUs back' "$(cpus_of c0)" \
    "$(minus $ALL "$C3,$(cpm-alloc show c6)")"
hook never stopped
assert 'poststop of a container never placed does nothing' "$rc$err" 0

# ---- the lock, concurrency, kills ----
flock -o -x $S.lock sleep 30 &
holder=$!
at_exit "kill $holder 2>/dev/null"
sleep 0.2
T_IN=$(state c9 creating '"cpm.io/cpus":"1"')
group machine/c9
check_fail 'the hook waits for the lock no longer than --wait' 1 'lock' \
    cpm-alloc --cgroup-root $V2 --wait 300ms oci-hook $ALLOW
T_IN=
kill $holder
wait $holder 2>/dev/null
assert 'and took nothing' "$(cpm-alloc show c9 2>&1)" "cpm-alloc: no allocation named 'c9'"

for id in c0 c2 c3; do
	T_IN=$(state $id stopped)
	cpm-alloc --cgroup-root $V2 oci-hook $ALLOW <<EOF
$T_IN
EOF
done
# c6's bundle names its group the systemd way.
printf '{"linux":{"cgroupsPath":"machine.slice:libpod:c6"}}' >$T_TMP/b/c6/config.json
T_IN=$(printf '{"id":"c6","status":"stopped","bundle":"%s"}' $T_TMP/b/c6)
run cpm-alloc --cgroup-root $V2 oci-hook $ALLOW
T_IN=
check 'every allocation is released' 0 '' cpm-alloc list --noheadings

i=1
while [ $i -le 20 ]; do
	group machine/p$i
	state p$i creating '"cpm.io/cpus":"1"' >$T_TMP/p$i.json
	i=$((i + 1))
done
i=1
while [ $i -le 20 ]; do
	cpm-alloc --cgroup-root $V2 oci-hook $ALLOW <$T_TMP/p$i.json >/dev/null 2>$T_TMP/p$i.err &
	i=$((i + 1))
done
wait
fails= all=
i=1
while [ $i -le 20 ]; do
	# Under load a hook may wait over a second for the state's lock and
	# say so ("waiting for ..."): a notice, not a failure.
	grep -v "^cpm-alloc: waiting for '" $T_TMP/p$i.err >$T_TMP/p$i.msg
	[ -s $T_TMP/p$i.msg ] && fails="$fails p$i: $(cat $T_TMP/p$i.msg)"
	[ "$(cpus_of p$i)" = "$(cpm-alloc show p$i)" ] ||
	    fails="$fails p$i: group $(cpus_of p$i), state $(cpm-alloc show p$i 2>&1)"
	all="$all,$(cpus_of p$i)"
	i=$((i + 1))
done
assert 'twenty concurrent starts are placed' "$fails" ''
assert 'on twenty different CPUs' "$(count "${all#,}") $(printf '%s\n' "${all#,}" | expand | sort -u | wc -l | tr -d ' ')" '20 20'

# Killed at random points: the state stays whole, and what a killed hook
# recorded is released once the runtime removes the group.
i=21
while [ $i -le 30 ]; do
	group machine/p$i
	state p$i creating '"cpm.io/cpus":"1"' >$T_TMP/p$i.json
	cpm-alloc --cgroup-root $V2 oci-hook $ALLOW <$T_TMP/p$i.json >/dev/null 2>&1 &
	eval "k$i=\$!"
	i=$((i + 1))
done
i=21
while [ $i -le 30 ]; do
	eval "kill -9 \$k$i 2>/dev/null"
	i=$((i + 1))
done
wait 2>/dev/null
run cpm-alloc check
assert 'hooks killed midway leave a state check finds whole' "$rc$out$err" 0
run cpm-alloc list -o cpus --noheadings
assert 'whose allocations never share a CPU' \
    "$(printf '%s' "$out" | tr '\n' , | sed 's/,$//' | expand | sort | uniq -d)" ''
i=21
while [ $i -le 30 ]; do
	rmdir $V2/machine/p$i 2>/dev/null || rm -rf $V2/machine/p$i
	i=$((i + 1))
done
run cpm-alloc reconcile
run cpm-alloc list -o name --noheadings
assert 'reconcile releases them once their groups are gone' \
    "$(printf '%s\n' "$out" | grep -c 'p2[1-9]\|p30')" 0

rm -rf $V2/machine/p1
run cpm-alloc check
assert 'check finds a container whose poststop never ran' \
    "$rc $(printf '%s' "$out" | grep -c "owner of 'p1' is gone")" '3 1'
run cpm-alloc reconcile
assert 'reconcile releases it' "$rc $(printf '%s' "$out" | grep -c '^released p1 ')" '0 1'

# ---- who may ask for what: the trust model ----
# gstate ID GROUP STATUS [ANNOTATIONS] [PID]: an OCI state whose bundle
# (its own for each ID and GROUP) puts the container in GROUP.
gstate() {
	_b=$T_TMP/b/$1@$(printf '%s' "$2" | tr / _)
	mkdir -p "$_b"
	printf '{"linux":{"cgroupsPath":"/%s"}}\n' "$2" >"$_b/config.json"
	printf '{"id":"%s","status":"%s","bundle":"%s","pid":%s,"annotations":{%s}}' \
	    "$1" "$3" "$_b" "${5:-0}" "${4:-}"
}
# same WHAT: the state and the groups' files are as saved by keep.
keep() { cp $S $T_TMP/trust.s; find $V2 -name cpuset.cpus -exec md5sum {} + | sort >$T_TMP/trust.g; }
same() {
	find $V2 -name cpuset.cpus -exec md5sum {} + | sort >$T_TMP/trust.g2
	if cmp -s $S $T_TMP/trust.s && cmp -s $T_TMP/trust.g $T_TMP/trust.g2; then
		ok "$1: nothing changed"
	else
		not_ok "$1: nothing changed" "$(cpm-alloc list)"
	fi
}
hookx() { run cpm-alloc --cgroup-root $V2 oci-hook "$@"; }

group machine/t1
T_IN=$(gstate t1 machine/t1 creating '"cpm.io/cpus":"2"')
hookx $ALLOW
T1=$(cpm-alloc show t1)
assert 'trust: t1 gets 2 CPUs in its group' "$rc $(cpus_of t1)" "0 $T1"
run cpm-alloc list -o name,owner --noheadings
assert 'trust: the hook records the container as the owner' \
    "$(printf '%s\n' "$out" | grep '^t1 ' | tr -s ' ')" 't1 cgroup:machine/t1'
assert 'trust: and marks the entry as a container'"'"'s in the state' \
    "$(grep -c '^entry t1 .* hook=0$' $S)" 1

# 1. The same id in another group is not the same container.
group machine/t1b
keep
T_IN=$(gstate t1 machine/t1b creating '"cpm.io/cpus":"2"')
hookx $ALLOW
assert 'trust: the same id in another group is refused (exit 3)' \
    "$rc $(printf '%s' "$err" | grep -c "container t1: a container of that id runs in cgroup 'machine/t1' already")" '3 1'
same 'trust: the same id in another group'

# 2. A name made by hand is no container's.
cpm-alloc take db 3 >/dev/null
group machine/db
keep
T_IN=$(gstate db machine/db creating '"cpm.io/cpus":"3"')
hookx $ALLOW
assert 'trust: a container named as a hand-made allocation is refused (exit 3)' \
    "$rc $(printf '%s' "$err" | grep -c "allocation 'db' was made by hand or by a plan")" '3 1'
same 'trust: a container named as a hand-made allocation'
T_IN='{"id":"db","status":"stopped"}'
hookx $ALLOW
assert 'trust: poststop leaves a hand-made allocation (exit 3)' "$rc $(cpm-alloc show db | wc -l)" '3 1'
same 'trust: poststop of a hand-made name'
T_IN=
check_fail "trust: take by hand refuses a container's name" 2 \
    "allocation 't1' is a container's" cpm-alloc take t1 2
T_IN=$(gstate t1 machine/t1b stopped)
hookx $ALLOW
assert 'trust: poststop from another group leaves the container (exit 3)' \
    "$rc $(cpm-alloc show t1)" "3 $T1"
same 'trust: poststop from another group'

# 3. A group another allocation owns is given to no other container.
keep
T_IN=$(gstate t3 machine/t1 creating '"cpm.io/cpus":"1"')
hookx $ALLOW
assert "trust: a container in another's group is refused (exit 3)" \
    "$rc $(printf '%s' "$err" | grep -c "cgroup 'machine/t1' belongs to allocation 't1'")" '3 1'
same "trust: a container in another's group"
T_IN=$(gstate t3 machine/t1 creating)
hookx $ALLOW
assert "trust: so is one that asks for nothing" "$rc" 3
same "trust: a follower in another's group"

# 4. What the operator did not allow is not granted.
group machine/t4
T_IN=$(gstate t4 machine/t4 creating '"cpm.io/cpus":"1","cpm.io/isolate-irqs":"true"')
hookx
assert 'trust: without --allow-annotations a request is ignored, with a warning' \
    "$rc $(printf '%s' "$err" | grep -c 'annotation cpm.io/cpus is not allowed') $(cpm-alloc list -o name,count --noheadings | grep '^t4 ' | tr -s ' ')" \
    '0 1 t4 0'
assert 'trust: it follows the shared pool' "$(cpus_of t4)" "$(cpm-alloc shared)"
T_IN=$(gstate t4 machine/t4 stopped)
hookx
T_IN=$(gstate t4 machine/t4 creating '"cpm.io/cpus":"1","cpm.io/mem":"1M"')
hookx --allow-annotations cpus
assert 'trust: an annotation not allowed is dropped, the others count' \
    "$rc $(printf '%s' "$err" | grep -c 'cpm.io/mem is not allowed') $(cpm-alloc list -o name,count,memory --noheadings | grep '^t4 ' | tr -s ' ')" \
    '0 1 t4 1 -'
T_IN=$(gstate t4 machine/t4 stopped)
hookx
group other/t5
T_IN=$(gstate t5 other/t5 creating '"cpm.io/cpus":"1"')
hookx $ALLOW --allow-parent machine
assert 'trust: outside the parents allowed a container gets no CPU' \
    "$rc $(printf '%s' "$err" | grep -c "below none of the parents") $(cpm-alloc list -o name,count --noheadings | grep '^t5 ' | tr -s ' ')" \
    '0 1 t5 0'
group machine/t6
keep
T_IN=$(gstate t6 machine/t6 creating '"cpm.io/cpus":"3"')
hookx $ALLOW --allow-parent machine --max-cpus 2
assert 'trust: more CPUs than --max-cpus is refused (exit 2)' \
    "$rc $(printf '%s' "$err" | grep -c '3 CPUs are more than the hook grants a container (2)')" '2 1'
same 'trust: more CPUs than --max-cpus'
check_fail 'trust: --allow-annotations takes only what the hook reads' 2 \
    "unknown annotation 'cpu'" cpm-alloc oci-hook --allow-annotations cpus,cpu

# 5. A name given twice is refused, not guessed.
T_IN=$(gstate t6 machine/t6 creating '"cpm.io/cpus":"1","cpm.io/cpus":"2"')
hookx $ALLOW
assert 'trust: an annotation given twice is refused (exit 2)' \
    "$rc $(printf '%s' "$err" | grep -c "member 'cpm.io/cpus' given twice")" '2 1'
T_IN='{"id":"t6","id":"t1","status":"stopped"}'
hookx $ALLOW
assert 'trust: an id given twice is refused (exit 2)' \
    "$rc $(printf '%s' "$err" | grep -c "member 'id' given twice") $(cpm-alloc show t1)" "2 1 $T1"
T_IN=$(gstate t6 machine/t6 creating)
printf '{"linux":{"cgroupsPath":"/machine/t6"},"linux":{"cgroupsPath":"/machine/t1"}}\n' \
    >$T_TMP/b/t6@machine_t6/config.json
hookx $ALLOW
assert "trust: config.json's members given twice are refused (exit 2)" \
    "$rc $(printf '%s' "$err" | grep -c "member 'linux' given twice")" '2 1'
same 'trust: names given twice'

# 6. A container is alive while its process is, not while its group is.
sleep 600 &
sp=$!
at_exit "kill $sp 2>/dev/null"
group machine/t7
T_IN=$(gstate t7 machine/t7 creating '"cpm.io/cpus":"1"' $sp)
hookx $ALLOW
assert 'trust: the container process and its start time are recorded' \
    "$rc $(grep -c "^entry t7 .* start=$(cut -d' ' -f22 /proc/$sp/stat) .*hook=$sp$" $S)" '0 1'
T_IN=$(gstate t7 machine/t7 stopped '' $sp)
hookx $ALLOW
assert 'trust: poststop while the process runs is refused (exit 3)' \
    "$rc $(printf '%s' "$err" | grep -c "its process $sp still runs")" '3 1'
run cpm-alloc check
assert 'trust: check finds nothing while it runs' "$(printf '%s' "$out" | grep -c "'t7'")" 0
kill -9 $sp
wait $sp 2>/dev/null
run cpm-alloc check
assert 'trust: with its process killed and its group left, check finds it' \
    "$rc $(printf '%s' "$out" | grep -c "owner of 't7' is gone")" '3 1'
run cpm-alloc reconcile
assert 'trust: and reconcile releases it' \
    "$rc $(printf '%s' "$out" | grep -c "^released t7 .*container process $sp has exited")" '0 1'
T_IN=
for id in t1 t4 t5; do
	run cpm-alloc release $id
done
cpm-alloc release db >/dev/null

# 7. CRI-O's cpu-quota.crio.io: an exclusive container's CFS quota is
# removed, and config.json's comes back at poststop (the v2 test tree:
# cpu.max as the kernel shows it).
CRIO=$ALLOW,cpu-quota.crio.io,irq-load-balancing.crio.io,cpu-c-states.crio.io
# qhook ID STATUS ANNOTATIONS [OPTIONS]: the hook on machine/ID whose
# config.json gives a quota of 50ms per 100ms.
qhook() {
	T_IN=$(state $1 $2 "$3")
	printf '{"linux":{"cgroupsPath":"/machine/%s","resources":{"cpu":{"quota":50000,"period":100000}}}}\n' \
	    $1 >$T_TMP/b/$1/config.json
	shift 3
	run cpm-alloc --cgroup-root $V2 oci-hook "$@"
	T_IN=
}
group machine/q1
echo '50000 100000' >$V2/machine/q1/cpu.max
qhook q1 creating '"cpm.io/cpus":"1","cpu-quota.crio.io":"disable"' $CRIO
assert 'crio: cpu-quota.crio.io=disable removes an exclusive container'"'"'s quota' \
    "$rc $(cat $V2/machine/q1/cpu.max)" '0 max 100000'
qhook q1 stopped '"cpm.io/cpus":"1","cpu-quota.crio.io":"disable"' $CRIO
assert "crio: poststop puts config.json's quota back" \
    "$rc $(cat $V2/machine/q1/cpu.max)" '0 50000 100000'
qhook q1 creating '"cpm.io/cpus":"1","cpu-quota.crio.io":"disable"' $ALLOW
assert 'crio: not allowed, it is ignored with a warning and the quota stays' \
    "$rc $(printf '%s' "$err" | grep -c 'annotation cpu-quota.crio.io is not allowed') $(cat $V2/machine/q1/cpu.max)" \
    '0 1 50000 100000'
qhook q1 stopped '' $ALLOW
qhook q1 creating '"cpm.io/cpus":"1","cpu-c-states.crio.io":"disable"' $CRIO
assert 'crio: an allowed annotation cpm does not carry out is ignored, with a warning' \
    "$rc $(printf '%s' "$err" | grep -c 'annotation cpu-c-states.crio.io is not supported by cpm')" '0 1'
qhook q1 stopped '' $ALLOW
cp $S $T_TMP/s0
qhook q1 creating '"cpm.io/cpus":"1","cpu-quota.crio.io":"off"' $CRIO
assert 'crio: a bad value is refused (exit 2), nothing changed' \
    "$rc $(printf '%s' "$err" | grep -c "invalid annotation cpu-quota.crio.io='off' (disable)") $(cmp -s $S $T_TMP/s0 && echo same) $(cat $V2/machine/q1/cpu.max)" \
    '2 1 same 50000 100000'
check_fail 'crio: --allow-annotations takes CRI-O'"'"'s keys, spelt right' 2 \
    "unknown annotation 'cpu-quota'" cpm-alloc oci-hook --allow-annotations cpus,cpu-quota

# ---- podman and runc on this host (crun refuses a hybrid hierarchy) ----
. "$CPM_TOP/tests/lib-podman.sh"
if [ -f /sys/fs/cgroup/cpuset/cpuset.cpus ]; then
	podman_cases runc cgroupfs /cpm-test-$$
else
	skip 'podman with runc' 'needs a cgroup v1 cpuset hierarchy (the systemd machine runs crun on v2)'
fi
