# SPDX-License-Identifier: GPL-2.0-or-later
# cgroup v2 cpuset partitions on a real kernel: an isolated partition and
# a remote one (below a group that is no partition, Linux 6.7+; before,
# the kernel's refusal with its reason), each verified from the kernel's
# files and torn down; an invalid partition reported and undone;
# cpm-topo and cpm-alloc check seeing the CPUs a partition took.
. /cpm/tests/vm/guest/common.sh
have cpm-pin || exit 0
if ! grep -qw cpuset $CG/cgroup.controllers 2>/dev/null; then
	skip "partition tests" "no cgroup v2 cpuset controller"
	exit 0
fi
# Under systemd the root enables only the controllers its units need.
echo +cpuset >$CG/cgroup.subtree_control
cg_rm cpmvm-iso cpmvm-bad cpmvm-bad2 cpmvm-rp
at_exit "cg_rm cpmvm-iso cpmvm-bad cpmvm-bad2 cpmvm-rp"
online=$(kfile $SYS/cpu/online)
# The last online core: its SMT siblings.
last=$(list_expand "$online" | awk '{ print $NF }')
C=$(exp_siblings $last)
rest=$(printf '%s\n' $(list_expand "$online") | grep -vxF "$(list_expand "$C" | tr ' ' '\n')" | list_fmt)

# part_off GROUP: tear a partition down as an operator would.
part_off() {
	echo member >$CG/$1/cpuset.cpus.partition 2>/dev/null
	cg_rm "$1"
}

# --- an isolated partition ---------------------------------------------
run cpm-pin --cgroup cpmvm-iso "$C" --create --isolated
assert "--isolated makes an isolated partition with its CPUs in effect" \
    "$rc $(kfile $CG/cpmvm-iso/cpuset.cpus.partition) $(kfile $CG/cpmvm-iso/cpuset.cpus.effective)" \
    "0 isolated $C"
assert "the isolated partition takes its CPUs from the root group" \
    "$(kfile $CG/cpuset.cpus.effective)" "$rest"
if [ -f $CG/cpuset.cpus.isolated ]; then
	assert "the kernel lists them in cpuset.cpus.isolated" \
	    "$(kfile $CG/cpuset.cpus.isolated)" "$C"
	want_iso=$C
else
	skip "the kernel lists them in cpuset.cpus.isolated" "no cpuset.cpus.isolated before Linux 6.8"
	want_iso=null
fi
if have cpm-topo; then
	run cpm-topo --json
	got=$(printf '%s' "$out" | sed -n 's/.*"partition_cpus":\("[^"]*"\|null\),"partition_isolated":\("[^"]*"\|null\).*/\1 \2/p' | tr -d '"')
	assert "cpm-topo --json shows the partition's CPUs (and isolated ones where the kernel lists them)" \
	    "$rc $got" "0 $C $want_iso"
	run cpm-topo
	assert "the cpm-topo summary shows the partition's CPUs" \
	    "$rc $(printf '%s\n' "$out" | sed -n 's/^Partition CPUs: *//p')" "0 $C"
	check "cpm-topo cpus isolated still lists only the boot-time isolated CPUs" 0 \
	    "$(kfile $SYS/cpu/isolated)" cpm-topo cpus isolated
fi
if have cpm-alloc; then
	CPM_STATE=$T_TMP/part.state
	export CPM_STATE
	run cpm-alloc init
	run cpm-alloc check
	if [ "$rc" = 3 ] && printf '%s' "$out" | grep -q "^warning: CPUs $C belong to cgroup partitions"; then
		ok "cpm-alloc check warns that the pool holds the partition's CPUs"
	else not_ok "cpm-alloc check warns that the pool holds the partition's CPUs" "$(show)"; fi
	run cpm-alloc init --force --reserved "$C"
	check "cpm-alloc check is content once they are reserved" 0 "" cpm-alloc check
fi

part_off cpmvm-iso
assert "tearing the isolated partition down gives the root its CPUs back" \
    "$(kfile $CG/cpuset.cpus.effective)" "$online"

# --- an invalid partition, undone --------------------------------------
# Every online CPU: the root group, which always has tasks, cannot give
# them all away, and says so in cpuset.cpus.partition.
run cpm-pin --cgroup cpmvm-bad "$online" --create --exclusive
if [ "$rc" = 1 ] && printf '%s' "$err" | grep -q "invalid root partition: [A-Za-z]" &&
    [ ! -d $CG/cpmvm-bad ]; then
	ok "a partition the kernel cannot honour is reported with its reason, exit 1, and the group made for it is gone"
else not_ok "a partition the kernel cannot honour is reported with its reason, exit 1, and the group made for it is gone" \
    "$(show)" "group left: $(ls -d $CG/cpmvm-bad 2>&1)"; fi
mkdir $CG/cpmvm-bad2
before="$(kfile $CG/cpmvm-bad2/cpuset.cpus)|$(kfile $CG/cpmvm-bad2/cpuset.cpus.partition)"
run cpm-pin --cgroup cpmvm-bad2 "$online" --isolated
assert "on an existing group the failed partition leaves its CPUs and type as they were" \
    "$rc $(kfile $CG/cpmvm-bad2/cpuset.cpus)|$(kfile $CG/cpmvm-bad2/cpuset.cpus.partition)" "1 $before"
cg_rm cpmvm-bad2
assert "nothing of the failed partitions is left: the root keeps every CPU" \
    "$(kfile $CG/cpuset.cpus.effective)" "$online"

# --- a remote partition: below a group that is no partition ------------
mkdir -p $CG/cpmvm-rp/mid
echo +cpuset >$CG/cpmvm-rp/cgroup.subtree_control
echo +cpuset >$CG/cpmvm-rp/mid/cgroup.subtree_control
run cpm-pin --cgroup cpmvm-rp/mid/leaf "$C" --create --isolated
if [ -f $CG/cpmvm-rp/cpuset.cpus.exclusive ]; then
	assert "a remote isolated partition two levels below a member group" \
	    "$rc $(kfile $CG/cpmvm-rp/mid/leaf/cpuset.cpus.partition) $(kfile $CG/cpmvm-rp/mid/leaf/cpuset.cpus.effective)" \
	    "0 isolated $C"
	assert "its ancestors list its CPUs in cpuset.cpus.exclusive" \
	    "$(kfile $CG/cpmvm-rp/cpuset.cpus.exclusive) $(kfile $CG/cpmvm-rp/mid/cpuset.cpus.exclusive)" "$C $C"
	assert "the remote partition takes its CPUs from the root group" \
	    "$(kfile $CG/cpuset.cpus.effective)" "$rest"
	part_off cpmvm-rp/mid/leaf
	echo >$CG/cpmvm-rp/mid/cpuset.cpus.exclusive
	echo >$CG/cpmvm-rp/cpuset.cpus.exclusive
	assert "tearing it down gives the root its CPUs back" \
	    "$(kfile $CG/cpuset.cpus.effective)" "$online"
	run cpm-pin --cgroup cpmvm-rp/mid/leaf2 "$online" --create --isolated
	if [ "$rc" = 1 ] && [ ! -d $CG/cpmvm-rp/mid/leaf2 ] &&
	    [ -z "$(kfile $CG/cpmvm-rp/cpuset.cpus.exclusive)$(kfile $CG/cpmvm-rp/mid/cpuset.cpus.exclusive)" ]; then
		ok "a remote partition the kernel refuses leaves no exclusive CPUs in its ancestors"
	else not_ok "a remote partition the kernel refuses leaves no exclusive CPUs in its ancestors" "$(show)" \
	    "exclusive: '$(kfile $CG/cpmvm-rp/cpuset.cpus.exclusive)' '$(kfile $CG/cpmvm-rp/mid/cpuset.cpus.exclusive)'"; fi
else
	if [ "$rc" = 1 ] && printf '%s' "$err" | grep -q "invalid isolated partition: [A-Za-z]" &&
	    [ ! -d $CG/cpmvm-rp/mid/leaf ]; then
		ok "without cpuset.cpus.exclusive a partition below a member is refused with the kernel's reason and undone"
	else not_ok "without cpuset.cpus.exclusive a partition below a member is refused with the kernel's reason and undone" "$(show)"; fi
fi
cg_rm cpmvm-rp

# --- a remote partition below a systemd slice --------------------------
if [ "$(cat /proc/1/comm)" = systemd ] && [ -f $CG/system.slice/cpuset.cpus.exclusive ]; then
	# systemd enables the cpuset controller down to a slice only for
	# units that ask for CPUs: the slice's service does, and keeps off
	# the partition's CPUs (a sibling's cpuset.cpus over them would make
	# the partition invalid: "Cpu list in cpuset.cpus not exclusive").
	systemctl start cpmvm-sleep.service
	at_exit "systemctl stop cpmvm-sleep.service 2>/dev/null; systemctl revert cpmvm-sleep.service >/dev/null 2>&1"
	systemctl set-property --runtime cpmvm-sleep.service AllowedCPUs="$rest"
	run cpm-pin --cgroup cpmvm.slice/cpmvm-part "$C" --create --isolated --force
	if [ "$rc $(kfile $CG/cpmvm.slice/cpmvm-part/cpuset.cpus.partition) $(kfile $CG/cpmvm.slice/cpmvm-part/cpuset.cpus.effective)" = "0 isolated $C" ]; then
		ok "an isolated partition below a systemd slice (remote, --force)"
	else not_ok "an isolated partition below a systemd slice (remote, --force)" "$(show)" \
	    "slice: cpus '$(kfile $CG/cpmvm.slice/cpuset.cpus)' excl '$(kfile $CG/cpmvm.slice/cpuset.cpus.exclusive)' eff '$(kfile $CG/cpmvm.slice/cpuset.cpus.effective)' procs '$(cat $CG/cpmvm.slice/cgroup.procs | tr '\n' ' ')' sub '$(cat $CG/cpmvm.slice/cgroup.subtree_control)'"; fi
	systemctl daemon-reload
	assert "systemctl daemon-reload leaves the partition below the slice valid" \
	    "$(kfile $CG/cpmvm.slice/cpmvm-part/cpuset.cpus.partition) $(kfile $CG/cpuset.cpus.effective)" \
	    "isolated $rest"
	part_off cpmvm.slice/cpmvm-part
	echo >$CG/cpmvm.slice/cpuset.cpus.exclusive
	systemctl stop cpmvm-sleep.service
	systemctl revert cpmvm-sleep.service >/dev/null 2>&1
	assert "torn down, the root has every CPU back" "$(kfile $CG/cpuset.cpus.effective)" "$online"
fi
