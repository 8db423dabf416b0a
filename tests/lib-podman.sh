# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc oci-hook with podman: containers started from a root file
# system directory (no image pulled), the hook given with --hooks-dir,
# everything podman keeps below $T_TMP (--root, --runroot, --tmpdir) and
# every group below a parent of the test's own (--cgroup-parent), so no
# podman state and no libpod_parent group are left behind.  Sourced by
# tests/t-oci-hook.sh (runc, cgroupfs, this host's cgroups) and by the
# systemd machine's tests/vm/guest/t-systemd.sh (crun, systemd, cgroup
# v2), after lib.sh and lib-alloc.sh.
#
# podman_cases RUNTIME MANAGER PARENT: MANAGER is cgroupfs or systemd;
# PARENT the --cgroup-parent (a group, or with systemd a slice).

# podman_skip_reason RUNTIME: why podman cannot run here, or nothing.
podman_skip_reason() {
	if ! is_root; then
		echo 'needs root'
	elif ! command -v podman >/dev/null || ! command -v "$1" >/dev/null; then
		echo "needs podman and $1 (make deps)"
	elif [ ! -x /bin/busybox ] || ! file -L /bin/busybox 2>/dev/null | grep -q static &&
	    ! ldd /bin/busybox 2>&1 | grep -q 'not a dynamic'; then
		echo 'needs a static /bin/busybox (busybox-static)'
	elif [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
		echo 'needs 2 CPUs'
	fi
}

podman_cases() {
	_rt=$1 _mgr=$2 _parent=$3
	_why=$(podman_skip_reason "$_rt")
	if [ -n "$_why" ]; then
		skip "podman with $_rt" "$_why"
		return 0
	fi
	# The live machine, not the test machine of the cases before.
	unset CPM_SYSROOT CPM_CGROUP_ROOT
	export CPM_STATE=$T_TMP/podman.state
	_pm=$T_TMP/pm
	_fs=$_pm/rootfs
	mkdir -p $_fs/bin $_pm/hooks $_pm/hooks-start $_pm/tmp
	cp /bin/busybox $_fs/bin/
	for _c in sh cat grep sleep true; do ln -s busybox $_fs/bin/$_c; done
	# The hooks.d file cpm ships, pointed at this build and this state,
	# granting CPUs below the test's parent only.
	sed -e "s|/usr/bin/cpm-alloc|$CPM_TOP/bin/cpm-alloc|" \
	    -e "s|\"args\"|\"env\": [\"CPM_STATE=$CPM_STATE\"], \"args\"|" \
	    -e "s|\"cpm.slice\"|\"${_parent#/}\"|" \
	    $CPM_TOP/examples/oci-hooks.d/cpm.json >$_pm/hooks/cpm.json
	# A runtime that dies before poststop: the hook runs at start only.
	sed 's/, *"poststop"//' $_pm/hooks/cpm.json >$_pm/hooks-start/cpm.json
	_t0=$(date +%s)
	_lp_before=$(ls -d /sys/fs/cgroup/libpod_parent /sys/fs/cgroup/*/libpod_parent 2>/dev/null)
	_P="podman --root $_pm/root --runroot $_pm/run --tmpdir $_pm/tmp \
	    --storage-driver vfs --events-backend none --runtime $_rt \
	    --cgroup-manager $_mgr"
	_R="--network none --cgroup-parent $_parent --ulimit nofile=1024:1024 \
	    --ulimit nproc=1024:1024 --rootfs $_fs"
	at_exit "podman_cleanup"

	# All CPUs but one reserved: one exclusive container takes the last.
	cpm-alloc init --reserve $(($(cpm-topo cpus online --count) - 1)) >/dev/null
	_pool=$(cpm-alloc shared)

	_s1=$($_P --hooks-dir $_pm/hooks run -d --name cpm-web-$$ $_R sleep 600 2>$T_TMP/pe)
	_rc=$?
	assert "$_rt: an unannotated container starts" "$_rc$(cat $T_TMP/pe)" 0
	assert "$_rt: inside, it may use the shared pool" \
	    "$(podman_allowed $_s1)" "$_pool"
	assert "$_rt: so does its group" "$(podman_group_cpus $_s1)" "$_pool"

	_e1=$($_P --hooks-dir $_pm/hooks run -d --annotation cpm.io/cpus=1 $_R \
	    sleep 600 2>$T_TMP/pe)
	_rc=$?
	_E=$(cpm-alloc show "$_e1" 2>&1)
	assert "$_rt: an annotated container starts with 1 CPU" \
	    "$_rc$(cat $T_TMP/pe) $(count "$_E")" '0 1'
	assert "$_rt: inside, it may use only that CPU" "$(podman_allowed $_e1)" "$_E"
	assert "$_rt: its group has it" "$(podman_group_cpus $_e1)" "$_E"
	assert "$_rt: the shared container lost it, inside" \
	    "$(podman_allowed $_s1)" "$(minus "$_pool" "$_E")"
	assert "$_rt: and in its group" "$(podman_group_cpus $_s1)" "$(minus "$_pool" "$_E")"
	run cpm-alloc list -o name,count,owner --noheadings
	assert "$_rt: list shows both with their groups as owners" "$out" \
	    "$(printf '%s 0 cgroup:%s\n%s 1 cgroup:%s\n' "$_s1" \
	      "$(podman_group $_s1)" "$_e1" "$(podman_group $_e1)")
"

	# The names podman knows them by: given, and made up by podman.
	run cpm-alloc list -o name,container --noheadings
	assert "$_rt: list shows the container's name podman knows it by" "$out" \
	    "$(printf '%s cpm-web-%s\n%s %s\n' "$_s1" $$ "$_e1" \
	      "$($_P inspect -f '{{.Name}}' $_e1)")
"
	run cpm-alloc list
	assert "$_rt: the default table shows it, with ids cut short" \
	    "$(printf '%s' "$out" | awk 'NR == 1 { print $NF } NR == 2 { print $1, $NF }')" \
	    "$(printf 'CONTAINER\n%.12s cpm-web-%s' "$_s1" $$)"

	cp $CPM_STATE $T_TMP/pstate
	run $_P --hooks-dir $_pm/hooks run --rm --annotation cpm.io/cpus=lots $_R true
	if podman_refused 2 "invalid annotation cpm.io/cpus='lots' (a CPU count)"; then
		ok "$_rt: a bad annotation keeps the container from starting, with the hook's message"
	else
		not_ok "$_rt: a bad annotation keeps the container from starting, with the hook's message" "$(show)"
	fi
	run $_P --hooks-dir $_pm/hooks run --rm --annotation cpm.io/cpus=1 $_R true
	if podman_refused 3 'not enough cpus available'; then
		ok "$_rt: a request that cannot be met keeps the container from starting"
	else
		not_ok "$_rt: a request that cannot be met keeps the container from starting" "$(show)"
	fi
	cmp -s $CPM_STATE $T_TMP/pstate &&
	    ok "$_rt: and neither changed the state" ||
	    not_ok "$_rt: and neither changed the state" "$(cpm-alloc list)"

	$_P rm -f -t 0 $_e1 >/dev/null 2>&1
	assert "$_rt: stopping the annotated container releases its CPU" \
	    "$(cpm-alloc list -o name --noheadings)" "$_s1"
	assert "$_rt: and the shared container gets it back, inside" \
	    "$(podman_allowed $_s1)" "$_pool"
	assert "$_rt: and in its group" "$(podman_group_cpus $_s1)" "$_pool"

	[ "$_mgr" = cgroupfs ] && podman_quota_cases

	# Two annotated starts at once for the one CPU there is: one gets it.
	$_P --hooks-dir $_pm/hooks run -d --annotation cpm.io/cpus=1 $_R sleep 600 \
	    >$T_TMP/pa.out 2>$T_TMP/pa.err &
	_pa=$!
	$_P --hooks-dir $_pm/hooks run -d --annotation cpm.io/cpus=1 $_R sleep 600 \
	    >$T_TMP/pb.out 2>$T_TMP/pb.err &
	_pb=$!
	wait $_pa $_pb
	_won=$(cat $T_TMP/pa.out $T_TMP/pb.out | grep -c .)
	_lost=$(grep -l -e 'cpm-alloc: container' -e 'exit code: 3' \
	    $T_TMP/pa.err $T_TMP/pb.err | wc -l | tr -d ' ')
	_w=$(cat $T_TMP/pa.out $T_TMP/pb.out | head -1)
	assert "$_rt: of two parallel starts for the last CPU one runs, one is refused" \
	    "$_won $_lost $(podman_allowed $_w)" "1 1 $(cpm-alloc show "$_w" 2>&1)"
	$_P rm -f -t 0 $_w >/dev/null 2>&1
	# The loser never ran, its poststop found nothing: one entry left.
	assert "$_rt: after both, only the shared container is known" \
	    "$(cpm-alloc list -o name --noheadings)" "$_s1"

	_e3=$($_P --hooks-dir $_pm/hooks-start run -d --annotation cpm.io/cpus=1 $_R \
	    sleep 600 2>/dev/null)
	$_P rm -f -t 0 $_e3 >/dev/null 2>&1
	run cpm-alloc check
	assert "$_rt: check finds a container whose poststop never ran" \
	    "$rc $(printf '%s' "$out" | grep -c "owner of '$_e3' is gone")" '3 1'
	run cpm-alloc reconcile
	assert "$_rt: reconcile releases it" "$rc $(printf '%s' "$out" | grep -c "^released $_e3 ")" '0 1'

	# Killed with its monitor, its group left: its process is the proof
	# of life, not the group.
	_e6=$($_P --hooks-dir $_pm/hooks-start run -d --annotation cpm.io/cpus=1 $_R \
	    sleep 600 2>/dev/null)
	_k6=$($_P inspect -f '{{.State.ConmonPid}} {{.State.Pid}}' $_e6 2>/dev/null)
	kill -9 $_k6 2>/dev/null
	$_P rm -f -t 0 $_e6 >/dev/null 2>&1
	run cpm-alloc check
	assert "$_rt: check finds a container killed with its monitor" \
	    "$rc $(printf '%s' "$out" | grep -c "owner of '$_e6' is gone")" '3 1'
	run cpm-alloc reconcile
	assert "$_rt: reconcile releases its CPU" "$rc $(printf '%s' "$out" | grep -c "^released $_e6 ")" '0 1'

	[ "$_mgr" = cgroupfs ] && podman_image_cases

	$_P rm -f -t 0 $_s1 >/dev/null 2>&1
	check "$_rt: after every container stopped, list is empty" 0 '' \
	    cpm-alloc list --noheadings
	check "$_rt: and check is clean" 0 '' cpm-alloc check
	_lp_after=$(ls -d /sys/fs/cgroup/libpod_parent /sys/fs/cgroup/*/libpod_parent 2>/dev/null)
	assert "$_rt: no libpod_parent group was made" "$_lp_after" "$_lp_before"
}

# CRI-O's cpu-quota.crio.io=disable on a container of 1 exclusive CPU
# and a quota of half a CPU (--cpus 0.5): honoured where the hook's
# configuration allows it, ignored where it does not.
podman_quota_cases() {
	mkdir -p $_pm/hooks-quota
	sed 's/"cpus,mode,/"cpus,cpu-quota.crio.io,mode,/' $_pm/hooks/cpm.json \
	    >$_pm/hooks-quota/cpm.json
	_q1=$($_P --hooks-dir $_pm/hooks-quota run -d --cpus 0.5 \
	    --annotation cpm.io/cpus=1 --annotation cpu-quota.crio.io=disable \
	    $_R sleep 600 2>$T_TMP/pe)
	_rc=$?
	assert "$_rt: cpu-quota.crio.io=disable, allowed: its CFS quota is gone" \
	    "$_rc$(cat $T_TMP/pe) $(podman_quota $_q1)" '0 -1'
	$_P rm -f -t 0 $_q1 >/dev/null 2>&1
	_q2=$($_P --hooks-dir $_pm/hooks run -d --cpus 0.5 \
	    --annotation cpm.io/cpus=1 --annotation cpu-quota.crio.io=disable \
	    $_R sleep 600 2>$T_TMP/pe)
	assert "$_rt: not allowed, its quota stays" "$(podman_quota $_q2)" 50000
	$_P rm -f -t 0 $_q2 >/dev/null 2>&1
}

# The container's CFS quota in microseconds (-1: none).
podman_quota() {
	if [ -f /sys/fs/cgroup/cpuset/cpuset.cpus ]; then
		cat "/sys/fs/cgroup/cpu/$(podman_group $1)/cpu.cfs_quota_us"
	else
		cut -d' ' -f1 "/sys/fs/cgroup/$(podman_group $1)/cpu.max" | sed 's/^max$/-1/'
	fi
}

# An image built here with cpm.io/cpus=1 among its annotations (podman
# copies them into the container's, where the hook cannot tell them from
# the operator's): run outside the parent the operator allows, it gets no
# CPU of its own.
podman_image_cases() {
	_img=$_pm/img
	_untrusted=/cpm-untrusted-$$
	mkdir -p $_img
	cp /bin/busybox $_img/busybox
	printf 'FROM scratch\nCOPY busybox /bin/busybox\n' >$_img/Containerfile
	if ! $_P build -q --annotation cpm.io/cpus=1 -t localhost/cpm-annotated \
	    $_img >/dev/null 2>$T_TMP/pbuild; then
		not_ok "$_rt: an image with an annotation is built" "$(cat $T_TMP/pbuild)"
		return 0
	fi
	_a=$($_P image inspect -f '{{index .Annotations "cpm.io/cpus"}}' \
	    localhost/cpm-annotated 2>/dev/null)
	assert "$_rt: the image carries cpm.io/cpus=1" "$_a" 1
	_i1=$($_P --hooks-dir $_pm/hooks run -d --network none \
	    --cgroup-parent $_untrusted --ulimit nofile=1024:1024 \
	    --ulimit nproc=1024:1024 localhost/cpm-annotated \
	    /bin/busybox sleep 600 2>$T_TMP/pe)
	_rc=$?
	assert "$_rt: the image's container starts" "$_rc$(cat $T_TMP/pe)" 0
	assert "$_rt: the image's annotation is the container's" \
	    "$($_P inspect -f '{{index .Config.Annotations "cpm.io/cpus"}}' $_i1 2>&1)" 1
	assert "$_rt: outside the parent allowed it gets no CPU of its own" \
	    "$(cpm-alloc list -o name,count --noheadings | grep "^$_i1" | tr -s ' ')" "$_i1 0"
	assert "$_rt: it runs on the shared pool" \
	    "$($_P exec $_i1 /bin/busybox grep Cpus_allowed_list /proc/1/status 2>&1 |
	      sed 's/.*:[[:space:]]*//')" "$(cpm-alloc shared)"
	$_P rm -f -t 0 $_i1 >/dev/null 2>&1
	$_P rmi -f localhost/cpm-annotated >/dev/null 2>&1
}

# podman_refused CODE ERE: the last run failed with the hook's message
# matching ERE in podman's error (runc passes it on) or, podman's error
# naming the hook's exit status CODE, in the system log (crun passes only
# the status on; the hook logs its messages there too).
podman_refused() {
	[ "$rc" != 0 ] || return 1
	printf '%s' "$err" | grep -q "cpm-alloc: container [0-9a-f]*: $2" && return 0
	printf '%s' "$err" | grep -q "exit code: $1" || return 1
	_i=0
	while [ $_i -lt 20 ]; do
		journalctl -q --no-pager -t cpm-alloc --since "@$_t0" 2>/dev/null |
		    grep -q "container [0-9a-f]*: $2" && return 0
		sleep 0.2
		_i=$((_i + 1))
	done
	return 1
}

# The cpuset group of container ID's process, as the kernel shows it
# (/proc/PID/cgroup: the v1 cpuset line, or the v2 line), and its CPUs.
podman_group() {
	_pid=$($_P inspect -f '{{.State.Pid}}' $1 2>/dev/null)
	if [ -f /sys/fs/cgroup/cpuset/cpuset.cpus ]; then
		sed -n 's,^[0-9]*:cpuset:/,,p' /proc/$_pid/cgroup 2>/dev/null
	else
		sed -n 's,^0::/,,p' /proc/$_pid/cgroup 2>/dev/null
	fi
}
podman_group_cpus() {
	if [ -f /sys/fs/cgroup/cpuset/cpuset.cpus ]; then
		cat "/sys/fs/cgroup/cpuset/$(podman_group $1)/cpuset.cpus"
	else
		cat "/sys/fs/cgroup/$(podman_group $1)/cpuset.cpus"
	fi
}
# The CPUs the container's first process may use, from inside.
podman_allowed() {
	$_P exec $1 grep Cpus_allowed_list /proc/1/status 2>&1 | sed 's/.*:[[:space:]]*//'
}

podman_cleanup() {
	$_P rm -a -f -t 0 >/dev/null 2>&1
	for _m in $(awk -v d="$T_TMP" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r); do
		umount -l "$_m" 2>/dev/null
	done
	[ "$_mgr" = systemd ] && systemctl stop "$_parent" 2>/dev/null
	# The groups below the parents, leaves first, in every hierarchy.
	for _pp in ${_parent#/} cpm-untrusted-$$; do
		for _d in /sys/fs/cgroup/$_pp /sys/fs/cgroup/*/$_pp; do
			[ -d "$_d" ] || continue
			find "$_d" -depth -type d -exec rmdir {} \; 2>/dev/null
		done
	done
	rm -rf "$_pm"
}
