#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm on a systemd host, the parts that run without systemd: who owns a
# group, the refusal of direct writes into systemd's groups and --force,
# delegated subtrees, the UNIT column, and cpm-pin --scope without
# systemd.
#
# The tree is a FAKE: a directory of ordinary files laid out like the
# cgroup v2 root of a host where systemd is PID 1 (init.scope holds
# PID 1).  This machine boots cgroup v1 without systemd, so a fake is the
# only systemd tree the host tier can have; nothing here validates a
# write and there is no systemd bus behind it, which is exactly the "bus
# not reachable" case.  The systemd VM tier runs the real thing.
. "$(dirname "$0")/lib.sh"

Q=cpm-quota
S=$T_TMP/sd
for d in init.scope system.slice system.slice/db.service \
    system.slice/web.service system.slice/web.service/worker top; do
	mkdir -p "$S/$d"
	echo "max 100000" >"$S/$d/cpu.max"
	echo 0 >"$S/$d/cpu.max.burst"
	echo 100 >"$S/$d/cpu.weight"
	echo 0-1 >"$S/$d/cpuset.cpus"
	echo 0 >"$S/$d/cpuset.mems"
	echo 0-1 >"$S/$d/cpuset.cpus.effective"
	echo 0 >"$S/$d/cpuset.mems.effective"
	: >"$S/$d/cgroup.procs"
	echo "cpu cpuset" >"$S/$d/cgroup.controllers"
done
echo "cpu cpuset memory" >"$S/cgroup.controllers"
echo 0-1 >"$S/cpuset.cpus.effective"
echo 0 >"$S/cpuset.mems.effective"
echo 1 >"$S/init.scope/cgroup.procs"
printf 'usage_usec 100\nnr_periods 10\nnr_throttled 5\nthrottled_usec 1000\n' >"$S/system.slice/db.service/cpu.stat"
printf 'usage_usec 100\nnr_periods 10\nnr_throttled 2\nthrottled_usec 1000\n' >"$S/top/cpu.stat"
echo "50000 100000" >"$S/system.slice/db.service/cpu.max"
echo "50000 100000" >"$S/top/cpu.max"
delegated=no
if python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.delegate", b"1")' \
    "$S/system.slice/web.service" 2>/dev/null; then
	delegated=yes
fi
tree_sum() { find "$S" -type f | sort | xargs cat | cksum; }

# ---- who owns a group ----
check "get shows a service's group as its unit's" 0 "owner=unit
unit=db.service" sh -c "$Q --cgroup-root '$S' get system.slice/db.service | tail -2"
check "get shows a group outside the unit tree as unmanaged" 0 "owner=unmanaged
unit=-" sh -c "$Q --cgroup-root '$S' get top | tail -2"
check "get --json adds owner and unit" 0 '"owner":"unit","unit":"db.service"}' \
    sh -c "$Q --cgroup-root '$S' get system.slice/db.service --json | grep -o '\"owner.*'"
if [ $delegated = yes ]; then
	check "get shows a group below Delegate=yes as delegated" 0 "owner=delegated
unit=web.service" sh -c "$Q --cgroup-root '$S' get system.slice/web.service/worker | tail -2"
else
	skip "get shows a group below Delegate=yes as delegated" "no user xattrs in $T_TMP"
fi
rm "$S/init.scope/cgroup.procs"
check "without PID 1 in init.scope nothing is systemd's" 0 "owner=unmanaged
unit=-" sh -c "$Q --cgroup-root '$S' get system.slice/db.service | tail -2"
echo 1 >"$S/init.scope/cgroup.procs"

# ---- changes: refused, forced, delegated ----
before=$(tree_sum)
check_fail "set into a unit's group without systemd's bus is refused" 3 \
    "^cpm-quota: cgroup 'system.slice/db.service' belongs to systemd unit db.service .*systemctl set-property.*--force" \
    $Q --cgroup-root "$S" set system.slice/db.service --limit 1
assert "... and changes nothing" "$(tree_sum)" "$before"
check_fail "set below an undelegated unit is refused" 3 \
    "not delegated: set Delegate=yes on db.service" \
    sh -c "mkdir -p '$S/system.slice/db.service/sub' && echo 'max 100000' >'$S/system.slice/db.service/sub/cpu.max' && echo 100 >'$S/system.slice/db.service/sub/cpu.weight' && $Q --cgroup-root '$S' set system.slice/db.service/sub --limit 1"
rm -r "$S/system.slice/db.service/sub"
check_fail "set --create inside systemd's tree is refused" 3 \
    "would be made inside systemd's unit tree" \
    $Q --cgroup-root "$S" set system.slice/new.service --create --limit 1
assert "... and makes nothing" "$(test -d "$S/system.slice/new.service" && echo made)" ""
check_fail "bad input is still exit 2 first" 2 "invalid --limit" \
    $Q --cgroup-root "$S" set system.slice/db.service --limit 1x
run $Q --cgroup-root "$S" set system.slice/db.service --limit 1.5 --force
assert "set --force writes the unit's files, with a warning" \
    "$rc $(cat "$S/system.slice/db.service/cpu.max") $(printf '%s' "$err" | grep -c 'systemd may put its own values back')" \
    "0 150000 100000 1"
check "set on an unmanaged group writes as before" 0 "25000 100000" \
    sh -c "$Q --cgroup-root '$S' set top --limit 250m && cat '$S/top/cpu.max'"
if [ $delegated = yes ]; then
	check "set inside a delegated subtree writes the files" 0 "200000 100000" \
	    sh -c "$Q --cgroup-root '$S' set system.slice/web.service/worker --limit 2 && cat '$S/system.slice/web.service/worker/cpu.max'"
else
	skip "set inside a delegated subtree writes the files" "no user xattrs in $T_TMP"
fi
check "set --dry-run on a refused group is refused too" 3 "" \
    $Q --cgroup-root "$S" set system.slice/db.service --limit 1 --dry-run
check_fail "--force is no option of get" 2 "force" \
    $Q --cgroup-root "$S" get system.slice/db.service --force

# ---- burst ----
echo "50000 100000" >"$S/system.slice/db.service/cpu.max"
run $Q --cgroup-root "$S" burst --journal "$T_TMP/j" --for 50ms system.slice/db.service
assert "burst does not raise a unit's quota behind systemd's back" \
    "$rc $(cat "$S/system.slice/db.service/cpu.max") $(printf '%s' "$err" | grep -c "not raising 'system.slice/db.service'")" \
    "3 50000 100000 1"

# ---- cpm-pin --cgroup ----
before=$(tree_sum)
check_fail "pin --cgroup into a unit's group without the bus is refused" 3 \
    "belongs to systemd unit db.service" \
    cpm-pin --cgroup-root "$S" --cgroup system.slice/db.service 1
check_fail "pin --cgroup --exclusive on a unit names the missing property" 3 \
    "no property for a cpuset partition" \
    cpm-pin --cgroup-root "$S" --cgroup system.slice/db.service 1 --exclusive
assert "... and neither changes anything" "$(tree_sum)" "$before"
run cpm-pin --cgroup-root "$S" --cgroup system.slice/db.service 1 --force
assert "pin --cgroup --force writes the cpuset" \
    "$rc $(cat "$S/system.slice/db.service/cpuset.cpus")" "0 1"
check_fail "--force needs --cgroup" 2 "--force needs --cgroup" \
    cpm-pin --force 0 -- true

# ---- cpm-pin --scope without systemd ----
check_fail "--scope without systemd says so and exits 1" 1 \
    "^cpm-pin: --scope: no systemd here" cpm-pin --scope 0 -- true
check_fail "--scope where systemd cannot be reached exits 1" 1 \
    "^cpm-pin: --scope: cannot reach systemd" \
    cpm-pin --cgroup-root "$S" --scope 0 -- true
check_fail "--unit needs --scope" 2 "--unit needs --scope" \
    cpm-pin --unit x 0 -- true
check_fail "--unit refuses a name systemd would refuse" 2 "invalid unit name 'a b'" \
    cpm-pin --scope --unit 'a b' 0 -- true
check_fail "--unit refuses another unit type" 2 "makes a .scope unit" \
    cpm-pin --scope --unit db.service 0 -- true
check_fail "--scope goes with the run form only" 2 "--scope goes with the run form" \
    cpm-pin --scope --cgroup x 0
check "--scope --dry-run names the scope" 0 "scope: job.scope" \
    sh -c "cpm-pin --scope --unit job -n 0 -- true | head -1"

# ---- cpm-throttle ----
echo "max 100000" >"$S/system.slice/web.service/worker/cpu.max"
check "throttle on a systemd tree adds a UNIT column by itself" 0 \
"GROUP                    PERIODS  THROTTLED  RATIO  THROTTLED_S  LIMIT  USAGE  UNIT
system.slice/db.service       10          5  0.500        0.001    0.5      -  db.service
top                           10          2  0.200        0.001   0.25      -  -" \
    cpm-throttle --cgroup-root "$S"
check "throttle -o prom labels a unit's group with unit" 0 \
    'cpm_cpu_cfs_throttled_periods_total{cgroup="system.slice/db.service",id="/system.slice/db.service",unit="db.service"} 5
cpm_cpu_cfs_throttled_periods_total{cgroup="top",id="/top"} 2' \
    sh -c "cpm-throttle --cgroup-root '$S' -o prom | grep '^cpm_cpu_cfs_throttled_periods_total'"
check "throttle --json adds unit" 0 '"unit":"db.service"
"unit":null' sh -c "cpm-throttle --cgroup-root '$S' --json | grep -o '\"unit\":[^,}]*'"
rm "$S/init.scope/cgroup.procs"
check "without systemd the columns stay as they were" 0 \
    "GROUP                    PERIODS  THROTTLED  RATIO  THROTTLED_S  LIMIT  USAGE" \
    sh -c "cpm-throttle --cgroup-root '$S' | head -1"
check "--systemd adds the UNIT column anyway" 0 \
    "GROUP	PERIODS	THROTTLED	RATIO	THROTTLED_S	LIMIT	USAGE	QOS	POD	CONTAINER	UNIT" \
    sh -c "cpm-throttle --cgroup-root '$S' --systemd --k8s -o tsv | head -1"
