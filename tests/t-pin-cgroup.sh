# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-pin --cgroup: cpusets of real (v1 or v2) groups and of trees.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"	# inter

H=$CPM_TOP/tests/helpers
ncpu=$(getconf _NPROCESSORS_ONLN)
last=$((ncpu - 1))
node0=$(ls -d /sys/devices/system/cpu/cpu0/node* 2>/dev/null | head -1)
node0=${node0##*/node}
: "${node0:=0}"

# ---- trees (--cgroup-root): no kernel, only the files ----
v1=$T_TMP/v1
mkdir -p $v1/cpu $v1/cpuset
check 'a group is created in a v1 tree' 0 '' \
    cpm-pin --cgroup-root $v1 --cgroup a/b 0 --create
assert 'its cpuset.cpus holds the CPUs' "$(cat $v1/cpuset/a/b/cpuset.cpus)" 0
assert 'its cpuset.mems defaults to their node' "$(cat $v1/cpuset/a/b/cpuset.mems)" "$node0"
check '--exclusive in a v1 tree writes cpuset.cpu_exclusive' 0 '' \
    cpm-pin --cgroup-root $v1 --cgroup a/b 0 --exclusive
assert 'cpuset.cpu_exclusive is 1' "$(cat $v1/cpuset/a/b/cpuset.cpu_exclusive)" 1
# A write of cpuset.mems that fails (here a FIFO, which is refused) fails
# the command, and the CPUs already written are put back.
mkdir $v1/cpuset/wf
echo 0-1 >$v1/cpuset/wf/cpuset.cpus
mkfifo $v1/cpuset/wf/cpuset.mems
check_fail 'a failed write of cpuset.mems fails the command' 1 \
    "cannot write '$node0' to cpuset.mems of wf: not a regular file" \
    cpm-pin --cgroup-root $v1 --cgroup wf 1
assert 'and cpuset.cpus is put back' "$(cat $v1/cpuset/wf/cpuset.cpus)" 0-1
v2=$T_TMP/v2
mkdir -p $v2
echo 'cpuset cpu' >$v2/cgroup.controllers
check 'a group is created in a v2 tree' 0 '' \
    env CPM_CGROUP_ROOT=$v2 cpm-pin --cgroup a 0 --mems "$node0" --create --exclusive
assert 'its v2 cpuset.cpus holds the CPUs' "$(cat $v2/a/cpuset.cpus)" 0
assert '--exclusive on v2 makes a root partition' "$(cat $v2/a/cpuset.cpus.partition)" root
v2b=$T_TMP/v2b
mkdir -p $v2b/bare
echo 'cpuset cpu' >$v2b/cgroup.controllers
: >$v2b/cgroup.subtree_control
check 'an existing v2 group without cpuset files is given the controller' 0 '' \
    cpm-pin --cgroup-root $v2b --cgroup bare 0
assert 'the parent enables cpuset for it' "$(cat $v2b/cgroup.subtree_control)" cpuset
assert 'and the group gets its CPUs' "$(cat $v2b/bare/cpuset.cpus 2>/dev/null)" 0
check '--dry-run in a tree prints the plan' 0 "cgroup: n
create: n
cpuset.cpus: 0
cpuset.mems: $node0
cpuset.cpus.partition: root" cpm-pin --cgroup-root $v2 --cgroup n 0 --create --exclusive -n
assert '--dry-run created nothing' "$(ls -d $v2/n 2>/dev/null)" ''

# --cgroup GROUP alone shows the group's cpuset, as -p PID shows a
# process's: the CPUs granted first, then what it asks for.
echo 0 >$v2/a/cpuset.cpus.effective
echo "$node0" >$v2/a/cpuset.mems.effective
check '--cgroup GROUP without a CPU list prints its cpuset' 0 "0
cpus: 0
mems: $node0
mems_allowed: $node0" cpm-pin --cgroup-root $v2 --cgroup a
mkdir $v2/a/inh
: >$v2/a/inh/cpuset.cpus
: >$v2/a/inh/cpuset.mems
echo 0 >$v2/a/inh/cpuset.cpus.effective
echo "$node0" >$v2/a/inh/cpuset.mems.effective
check '--cgroup GROUP shows an empty cpuset.cpus as inherited' 0 "0
cpus: (inherited)
mems: (inherited)
mems_allowed: $node0" cpm-pin --cgroup-root $v2 --cgroup a/inh
check 'a v1 group without effective files shows what it asks for' 0 "0
cpus: 0
mems: $node0
mems_allowed: $node0" cpm-pin --cgroup-root $v1 --cgroup a/b
check_fail '--cgroup of a missing group alone is an error' 1 "no cgroup 'nosuch' with a cpuset" \
    cpm-pin --cgroup-root $v2 --cgroup nosuch
check_fail '--dry-run without a CPU list is still a usage error' 2 'missing CPULIST' \
    cpm-pin --cgroup-root $v2 --cgroup a -n

cs=/sys/fs/cgroup/cpuset
if ! is_root || [ ! -f $cs/cpuset.cpus ]; then
	skip 'live cpuset groups' 'needs root and a cgroup v1 cpuset hierarchy'
	exit 0
fi

# A sibling that holds CPUs exclusively (a container runtime's, a
# partitioning tool's) refuses every other sibling those CPUs: the live
# tests need the whole root cpuset, so they say whose group is in the way.
held=
for f in $cs/*/cpuset.cpu_exclusive; do
	[ -f "$f" ] && [ "$(cat "$f")" = 1 ] && held="$held ${f%/cpuset.cpu_exclusive}"
done
if [ -n "$held" ]; then
	skip 'live cpuset groups' "CPUs of the root cpuset are held exclusively by$held"
	exit 0
fi

# ---- live v1 cpusets ----
base=cpm-test-$$
G=$cs/$base
at_exit "rmdir $G/z1/z2/z3 $G/z1/z2 $G/z1 $G/n1/n2 $G/n1 $G/p/c $G/p $G/e $G/x1/y $G/x1 $G/x2 $G/x3 $G 2>/dev/null"
pids=
at_exit 'for p in $pids; do kill $p 2>/dev/null; wait $p 2>/dev/null; done'

check_fail 'a missing group is an error without --create' 1 "cgroup '$base' does not exist" \
    cpm-pin --cgroup $base 0
assert 'and it was not created' "$(ls -d $G 2>/dev/null)" ''
check '--dry-run prints the plan' 0 "cgroup: $base
create: $base
cpuset.cpus: 0
cpuset.mems: $node0" cpm-pin --dry-run --cgroup $base 0 --create
assert '--dry-run created nothing' "$(ls -d $G 2>/dev/null)" ''

check 'a live group is created and its cpuset written' 0 '' \
    cpm-pin --cgroup $base 0 --create
assert 'cpuset.cpus reads back' "$(cat $G/cpuset.cpus)" 0
assert 'cpuset.mems is the node of the CPUs' "$(cat $G/cpuset.mems)" "$node0"
check 'missing parents are created too' 0 '' cpm-pin --cgroup $base/n1/n2 0 --create
assert 'the new leaf has the CPUs' "$(cat $G/n1/n2/cpuset.cpus)" 0
rmdir $G/n1/n2 $G/n1
# A process that is gone by the time it is attached (a zombie: its PID is
# there, but the kernel moves it nowhere) fails the call, which removes
# every group it made, the parents too, and none it did not.
sh -c 'sleep 0 & exec sleep 30' &
zp=$!
pids="$pids $zp"
i=0
while z=$(pgrep -P $zp) && [ "$(awk '/^State:/ { print $2 }' /proc/$z/status 2>/dev/null)" != Z ] &&
    [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
run cpm-pin --cgroup $base/z1/z2/z3 0 --create --attach $z
if [ "$rc" = 1 ] && [ -d $G ] && [ ! -e $G/z1 ] &&
    [ "$(printf '%s' "$err" | wc -l)" = 1 ]; then
	ok 'a failed --attach removes the groups --create made, parents too, and no other'
else
	not_ok 'a failed --attach removes the groups --create made, parents too, and no other' \
	    "$(show)" "$(ls -R $G 2>&1 | grep z)"
fi
kill $zp 2>/dev/null
check 'an existing group is rewritten' 0 '' cpm-pin --cgroup /$base "0-$last" --mems "$node0"
assert 'the kernel reads the new CPUs back' "$(cat $G/cpuset.cpus)" "$(cat $cs/cpuset.cpus)"
assert 'and they are in effect' "$(cat $G/cpuset.effective_cpus)" "$(cat $cs/cpuset.cpus)"

# Attaching a process that keeps creating threads: all of them move.
"$H/pin-spawner" 2 3 >$T_TMP/sp.out &
sp=$!
pids="$pids $sp"
i=0
while ! grep -q ready $T_TMP/sp.out && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
check 'a whole process is attached' 0 '' cpm-pin --cgroup $base 0 --attach $sp
assert 'the process is in the group' "$(cat /proc/$sp/cpuset)" "/$base"
stray=
for t in $(ls /proc/$sp/task); do
	c=$(cat /proc/$sp/task/$t/cpuset 2>/dev/null) || continue
	[ "$c" = "/$base" ] || stray="$stray $t:$c"
done
assert 'every thread of it is in the group' "$stray" ''
lists=$(for s in /proc/$sp/task/*/status; do
	sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' $s 2>/dev/null; done | sort -u)
assert 'every thread runs on the group CPUs' "$lists" 0

# A group whose cpus and mems are still empty: mems go in before attach.
mkdir $G/e
sleep 300 &
sl=$!
pids="$pids $sl"
check 'attaching into a fresh group writes cpus and mems first' 0 '' \
    cpm-pin --cgroup $base/e 0 --attach $sl
assert 'the sleeper is in the fresh group' "$(cat /proc/$sl/cpuset)" "/$base/e"

# Half-done work is undone: a zombie cannot be moved, so the call fails,
# and the sleeper it had moved goes back and the new group is removed.
# perl, not sh: a shell may reap its background child on its own before
# the exec, and then there is no zombie to fail on.
perl -e 'my $c = fork; defined $c or die; $c or exit 0;
	open my $f, ">", $ARGV[0] or die; print $f "$c\n"; close $f;
	sleep 300' $T_TMP/zombie &
zpar=$!
pids="$pids $zpar"
sleep 300 &
sl2=$!
pids="$pids $sl2"
i=0
while ! grep -q '^State:.*Z' /proc/$(cat $T_TMP/zombie 2>/dev/null)/status 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.05; i=$((i + 1))
done
was=$(cat /proc/$sl2/cpuset)
run cpm-pin --cgroup $base/z 0 --create --attach $sl2 "$(cat $T_TMP/zombie)"
if [ "$rc" = 1 ] && [ ! -d $G/z ] && [ "$(cat /proc/$sl2/cpuset)" = "$was" ]; then
	ok 'a failed --create --attach removes the group and moves back who it moved'
else
	not_ok 'a failed --create --attach removes the group and moves back who it moved' \
	    "$(show)" "group: $(ls -d $G/z 2>&1)" "sleeper in: $(cat /proc/$sl2/cpuset)"
	[ -d $G/z ] && echo $sl2 >$cs/cgroup.procs && rmdir $G/z
fi

# Exclusive cpusets.  A sibling of the root that holds CPUs (podman's
# libpod_parent, another runtime's parent) keeps $base from being
# exclusive: then only the error is checked, which names one.
holders=
for d in $cs/*/; do
	d=${d%/}
	[ "${d##*/}" = "$base" ] && continue
	[ -n "$(cat $d/cpuset.cpus 2>/dev/null)" ] && holders="$holders ${d##*/}"
done
# named_holder: the sibling the last error names holds some of CPUS.
named_holder() {
	_sib=$(printf '%s' "$err" | sed -n "s/.*no sibling may share its CPUs: '\([^']*\)' holds .*/\1/p")
	[ -n "$_sib" ] && [ -n "$(inter "$(cat $cs/$_sib/cpuset.cpus 2>/dev/null)" "$1")" ]
}
if [ -n "$holders" ]; then
	run cpm-pin --cgroup $base "0-$last" --exclusive
	if [ "$rc" = 1 ] && named_holder "0-$last"; then
		ok 'an exclusive group beside a sibling that holds its CPUs is refused, the sibling named'
	else
		not_ok 'an exclusive group beside a sibling that holds its CPUs is refused, the sibling named' "$(show)"
	fi
	skip 'exclusive cpusets' "the CPUs of the root cpuset are held by$holders"
else

	check '--exclusive makes a v1 group cpu_exclusive' 0 '' \
	    cpm-pin --cgroup $base "0-$last" --exclusive
	assert 'cpuset.cpu_exclusive reads 1' "$(cat $G/cpuset.cpu_exclusive)" 1
	# An exclusive cpuset may not overlap any sibling: e holds CPU 0.
	if [ "$ncpu" -ge 2 ]; then
		check 'an exclusive child is made' 0 '' \
		    cpm-pin --cgroup $base/x1 "$last" --create --exclusive
		assert 'its cpuset.cpu_exclusive reads 1' "$(cat $G/x1/cpuset.cpu_exclusive)" 1
		run cpm-pin --cgroup $base/x2 "$last" --create --exclusive
		if [ "$rc" = 1 ] && printf '%s' "$err" | grep -q "cpuset\.cpu.* of $base/x2: Invalid argument" &&
		    named_holder "$last"; then
			ok 'an overlapping exclusive sibling is refused by the kernel, named'
		else
			not_ok 'an overlapping exclusive sibling is refused by the kernel, named' "$(show)"
		fi
		assert 'and the group it would have been is not left behind' "$(ls -d $G/x2 2>/dev/null)" ''
		check 'a sibling on other CPUs can still be created beside it' 0 '' \
		    cpm-pin --cgroup $base/x3 0 --create
		assert 'with the CPUs asked for' "$(cat $G/x3/cpuset.cpus)" 0
	else
		skip 'exclusive siblings' 'needs 2 CPUs'
	fi
	echo 0 >$G/x1/cpuset.cpu_exclusive 2>/dev/null
fi
if [ -z "$holders" ] && [ "$ncpu" -ge 2 ]; then
	check_fail 'an exclusive group below one that is not is refused, and the error says so' 1 \
	    "its parent '$base/x1' is not exclusive" \
	    cpm-pin --cgroup $base/x1/y "$last" --create --exclusive
	assert 'and the group is not left behind' "$(ls -d $G/x1/y 2>/dev/null)" ''
fi

# ---- bad input: exit 2, nothing changed ----
echo 0 >$G/e/cpuset.cpus
before=$(cat $G/e/cpuset.cpus):$(cat $G/e/cpuset.mems):$(cat $G/e/tasks | sort | tr '\n' ,)
check_fail 'an unknown CPU is refused' 2 'CPU 99 does not exist' \
    cpm-pin --cgroup $base/e 99
check_fail 'an empty cpulist is refused' 2 'empty' cpm-pin --cgroup $base/e ''
check_fail 'a node that does not exist is refused' 2 'node 63 does not exist' \
    cpm-pin --cgroup $base/e 0 --mems 63
check_fail 'an unknown pid to attach is refused' 2 'no process with pid 4000000' \
    cpm-pin --cgroup $base/e "0-$last" --attach $sl 4000000
check_fail 'a path with .. is refused' 2 "invalid cgroup path" \
    cpm-pin --cgroup $base/../x 0
check_fail 'the root group is refused' 2 "root cgroup" cpm-pin --cgroup / 0
check_fail '--mem does not go with --cgroup' 2 "use --mems" \
    cpm-pin --cgroup $base/e 0 --mem bind
check_fail 'a missing CPULIST is a usage error' 2 'missing CPULIST' \
    cpm-pin --cgroup $base/e --attach $sl
if [ "$ncpu" -ge 2 ]; then
	mkdir $G/p
	echo 0 >$G/p/cpuset.cpus
	cat $G/cpuset.mems >$G/p/cpuset.mems
	check_fail "a CPU outside the parent's cpuset is refused and named" 2 \
	    "CPU $last is not allowed in the cpuset of cgroup '$base/p' \\(allowed: 0\\)" \
	    cpm-pin --cgroup $base/p/c "$last" --create
	assert 'and the child was not created' "$(ls -d $G/p/c 2>/dev/null)" ''
fi
assert 'none of that changed the group' \
    "$(cat $G/e/cpuset.cpus):$(cat $G/e/cpuset.mems):$(cat $G/e/tasks | sort | tr '\n' ,)" "$before"
