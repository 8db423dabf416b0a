#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-quota set, get, burst and restore on a live cgroup v2 hierarchy
# (the kernel's, at /sys/fs/cgroup), when this machine has one with the
# cpu controller and we are root.  Skipped elsewhere.
. "$(dirname "$0")/lib.sh"

Q=cpm-quota
CG=/sys/fs/cgroup
if ! is_root || [ "$(stat -fc %T $CG 2>/dev/null)" != cgroup2fs ] ||
    ! grep -qw cpu $CG/cgroup.controllers 2>/dev/null; then
	skip "set, get and burst on a live cgroup v2 hierarchy" \
	    "needs root and cgroup v2 with the cpu controller at $CG"
	exit 0
fi
J=$T_TMP/burst.journal
export CPM_BURST_JOURNAL="$J"
unset CPM_CGROUP_ROOT
G=cpm-test-$$-v2
at_exit "rmdir '$CG/$G/c' '$CG/$G' 2>/dev/null"
f() { for _f in cpu.weight cpu.max cpu.max.burst; do printf '%s|' "$(cat "$CG/$1/$_f" 2>/dev/null)"; done; echo; }

run $Q set $G/c --create --request 250m --limit 1.5 --burst 0.5
assert "set --create on live v2 writes weight, cpu.max and cpu.max.burst" \
    "$rc $(f $G/c)" "0 35|150000 100000|50000|"
check "get on live v2 reads them back in CPUs" 0 \
"request=0.25
limit=1.5
period_us=100000
burst=0.5
quota_us=150000
burst_us=50000
weight=35
owner=unmanaged
unit=-" $Q get $G/c
run $Q set $G/c --limit 100m --burst 50m --period 50ms
assert "set lowers burst before cpu.max on live v2" "$rc $(f $G/c)" "0 35|5000 50000|2500|"
b=$(f $G/c)
for args in "--period 999us" "--limit 5m" "--burst 200m" "--limit max --burst 1"; do
	# shellcheck disable=SC2086
	run $Q set $G/c $args
	assert "live v2: set $args is refused before writing" "$rc $(f $G/c)" "2 $b"
done
run $Q set $G/c --limit max --burst 0
assert "set --limit max on live v2" "$rc $(f $G/c)" "0 35|max 50000|0|"

run $Q set $G/c --limit 500m --period 100ms
$Q burst --for 3600s $G/c &
bp=$!
i=0
while [ $i -lt 200 ] && [ "$(cat $CG/$G/c/cpu.max)" != "100000 100000" ]; do
	sleep 0.05
	i=$((i + 1))
done
assert "burst raises a live v2 quota" "$(cat $CG/$G/c/cpu.max)" "100000 100000"
kill -KILL $bp
wait $bp 2>/dev/null
run $Q restore
assert "restore puts a live v2 quota back after SIGKILL" "$rc $(cat $CG/$G/c/cpu.max)" \
    "0 50000 100000"
