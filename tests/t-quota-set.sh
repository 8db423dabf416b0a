#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-quota set and get: on a cgroup v2 file tree built here, and on the
# host's real cgroup v1 cpu hierarchy when there is one and we are root.
. "$(dirname "$0")/lib.sh"

Q=cpm-quota

# ---- cgroup v2, as a plain file tree ----
# This is a directory of ordinary files laid out like cgroup v2, NOT the
# kernel: nothing here validates a write, so these tests show what cpm
# writes and that it refuses bad values itself before writing anything.
V2=$T_TMP/v2
mkdir -p "$V2/pod/c1"
echo "cpu cpuset memory" >"$V2/cgroup.controllers"
echo "cpu" >"$V2/cgroup.subtree_control"
for d in "$V2/pod" "$V2/pod/c1"; do
	echo "cpu" >"$d/cgroup.controllers"
	echo "max 100000" >"$d/cpu.max"
	echo 0 >"$d/cpu.max.burst"
	echo 100 >"$d/cpu.weight"
	: >"$d/cgroup.procs"
done
tree_sum() { find "$V2" -type f | sort | xargs cat | cksum; }
files() { for f in cpu.weight cpu.max cpu.max.burst; do printf '%s|' "$(cat "$V2/$1/$f")"; done; echo; }

check "set on v2 writes weight, cpu.max and cpu.max.burst" 0 "35|150000 100000|50000|" \
    sh -c "$Q --cgroup-root '$V2' set pod/c1 --request 250m --limit 1.5 --burst 0.5 && \
    for f in cpu.weight cpu.max cpu.max.burst; do printf '%s|' \"\$(cat '$V2/pod/c1/'\$f)\"; done"
check "get on v2 reads them back in CPUs" 0 \
"request=0.25
limit=1.5
period_us=100000
burst=0.5
quota_us=150000
burst_us=50000
weight=35
owner=unmanaged
unit=-" $Q --cgroup-root "$V2" get pod/c1
check "get on v2 --json" 0 \
    '{"cgroup":"pod/c1","version":2,"request":0.25,"limit":1.5,"period_us":100000,"burst":0.5,"quota_us":150000,"burst_us":50000,"weight":35,"owner":"unmanaged","unit":null}' \
    $Q --cgroup-root "$V2" get pod/c1 --json
check "CPM_CGROUP_ROOT selects the tree too" 0 "request=0.25" \
    sh -c "CPM_CGROUP_ROOT='$V2' $Q get /pod/c1 | head -1"
check "set --period alone keeps the limit and burst in CPUs" 0 "35|15000 10000|5000|" \
    sh -c "$Q --cgroup-root '$V2' set pod/c1 --period 10ms && \
    for f in cpu.weight cpu.max cpu.max.burst; do printf '%s|' \"\$(cat '$V2/pod/c1/'\$f)\"; done"
check "set --limit max writes 'max PERIOD'" 0 "max 10000" \
    sh -c "$Q --cgroup-root '$V2' set pod/c1 --limit max --burst 0 && cat '$V2/pod/c1/cpu.max'"
# A burst left on an unlimited group would refuse the next, lower limit.
$Q --cgroup-root "$V2" set pod/c1 --limit 2 --burst 1 --period 100ms >/dev/null
check "set --limit max clears the burst allowance" 0 "max 100000|0" \
    sh -c "$Q --cgroup-root '$V2' set pod/c1 --limit max && echo \"\$(cat '$V2/pod/c1/cpu.max')|\$(cat '$V2/pod/c1/cpu.max.burst')\""
check "a lower limit after --limit max is taken" 0 "50000 100000|0" \
    sh -c "$Q --cgroup-root '$V2' set pod/c1 --limit 500m && echo \"\$(cat '$V2/pod/c1/cpu.max')|\$(cat '$V2/pod/c1/cpu.max.burst')\""
$Q --cgroup-root "$V2" set pod/c1 --limit 2 --burst 1 >/dev/null
check "set --limit max --burst 0 and a --request keep their own meaning" 0 "max 100000|0" \
    sh -c "$Q --cgroup-root '$V2' set pod/c1 --limit max --request 1 && echo \"\$(cat '$V2/pod/c1/cpu.max')|\$(cat '$V2/pod/c1/cpu.max.burst')\""
$Q --cgroup-root "$V2" set pod/c1 --limit 2 --burst 0 --period 10ms >/dev/null
check "set --weight-formula kubelet uses the linear formula" 0 "39" \
    sh -c "$Q --cgroup-root '$V2' set pod/c1 --request 1 --weight-formula kubelet && cat '$V2/pod/c1/cpu.weight'"
check "set --weight-formula systemd uses shares*100/1024" 0 "100" \
    sh -c "$Q --cgroup-root '$V2' set pod/c1 --request 1 --weight-formula systemd && cat '$V2/pod/c1/cpu.weight'"
check "get reads weight 100 back as 1 CPU under the runc formula" 0 "request=1" \
    sh -c "$Q --cgroup-root '$V2' get pod/c1 | head -1"
run $Q --cgroup-root "$V2" set pod/c1 --request 300
assert "set clamps a request above 262144 shares, with a note" \
    "$rc $(cat "$V2/pod/c1/cpu.weight") $(printf '%s' "$err" | grep -c 'clamped')" "0 10000 1"
check "set --create makes a new v2 group" 0 "59|50000 100000|" \
    sh -c "$Q --cgroup-root '$V2' set pod/new --create --request 500m --limit 500m && \
    for f in cpu.weight cpu.max; do printf '%s|' \"\$(cat '$V2/pod/new/'\$f)\"; done"
before=$(tree_sum)
check "set --dry-run prints FILE VALUE lines" 0 \
"$V2/pod/c1/cpu.weight 17
$V2/pod/c1/cpu.max 20000 100000" \
    $Q --cgroup-root "$V2" set pod/c1 --request 100m --limit 200m --period 100ms --dry-run
assert "set --dry-run changes nothing" "$(tree_sum)" "$before"

# Kernel limits are checked before anything is written: exit 2.
refuse() { # NAME ERE ARGS...
	_name=$1 _re=$2
	shift 2
	_b=$(tree_sum)
	check_fail "$_name" 2 "$_re" $Q --cgroup-root "$V2" "$@"
	assert "$_name (files unchanged)" "$(tree_sum)" "$_b"
}
echo "50000 100000" >"$V2/pod/c1/cpu.max"
refuse "set refuses a request above the limit, as class does" \
    "CPU request '2' exceeds the CPU limit '1'" set pod/c1 --request 2 --limit 1
refuse "set refuses a period below 1ms" "period '999us'" set pod/c1 --period 999us
refuse "set refuses a period above 1s" "period '1001ms'" set pod/c1 --period 1001ms
refuse "set refuses a quota below 1ms" "below the kernel's minimum" set pod/c1 --limit 5m
refuse "set refuses a quota below 1ms at a short period" "quota of 500us" \
    set pod/c1 --limit 50m --period 10ms
echo "5000 100000" >"$V2/pod/c1/cpu.max"
refuse "set refuses a period that would take the quota below 1ms" "group's limit at period 10000us is a quota of 500us" \
    set pod/c1 --period 10ms
echo "50000 100000" >"$V2/pod/c1/cpu.max"
refuse "set refuses a quota above the kernel's maximum" "above the kernel's maximum" \
    set pod/c1 --limit 200000000
refuse "set refuses a burst above the limit" "burst of 60000us is above the quota of 50000us" \
    set pod/c1 --burst 600m
refuse "set refuses a burst without a limit" "needs a CPU limit" \
    set pod/c1 --limit max --burst 1
refuse "set refuses a limit of 0" "use 'max'" set pod/c1 --limit 0
refuse "set refuses a bad quantity before touching anything" "invalid --limit '1,5'" \
    set pod/c1 --request 2 --limit 1,5
refuse "set refuses a negative request" "invalid --request" set pod/c1 --request=-1
refuse "set refuses 'max' as a request" "invalid --request 'max'" set pod/c1 --request max
refuse "set refuses a path with .." "'\.\.'" set pod/../pod/c1 --limit 1
refuse "set refuses a leading .." "'\.\.'" set ../x --limit 1
refuse "set refuses a path with a newline" "invalid|newline" set "pod/c1
x" --limit 1
refuse "set refuses the root group" "root group" set / --limit 1
refuse "set needs something to set" "needs --request" set pod/c1
ln -s "$T_TMP" "$V2/pod/escape"
refuse "set refuses a symlink out of the hierarchy" "escape" set pod/escape --limit 1
rm -f "$V2/pod/escape"
b=$(tree_sum)
check_fail "set on a missing group fails without --create" 1 "no cgroup 'pod/none'" \
    $Q --cgroup-root "$V2" set pod/none --limit 1
assert "set on a missing group creates nothing" "$(tree_sum)" "$b"
[ -e "$V2/pod/none" ] && not_ok "no directory appears for a missing group" ||
    ok "no directory appears for a missing group"
check_fail "get on a missing group fails" 1 "no cgroup 'pod/none'" \
    $Q --cgroup-root "$V2" get pod/none
echo "lots 100000" >"$V2/pod/c1/cpu.max"
check_fail "get refuses a damaged cpu.max" 2 "cpu.max" $Q --cgroup-root "$V2" get pod/c1
b=$(tree_sum)
check_fail "set refuses to work from a damaged cpu.max" 2 "cpu.max" \
    $Q --cgroup-root "$V2" set pod/c1 --request 1
assert "set leaves a damaged group alone" "$(tree_sum)" "$b"
echo "50000 100000" >"$V2/pod/c1/cpu.max"
check_fail "a cgroup root that does not exist is refused as bad input" 2 \
    "^cpm-quota: cannot open cgroup root '.*/nowhere': " \
    $Q --cgroup-root "$T_TMP/nowhere" get pod

# ---- the host's real cgroup v1 cpu hierarchy ----
CPU=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/self/mounts)
if ! is_root || [ -z "$CPU" ] || [ ! -w "$CPU" ]; then
	skip "set and get on real cgroup v1" "needs root and a v1 cpu hierarchy"
	exit 0
fi
G=cpm-test-$$-set
ACCT=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpuacct(,|$)/ { print $2; exit }' /proc/self/mounts)
at_exit "rmdir '$CPU/$G/child' '$CPU/$G/new' '$CPU/$G' 2>/dev/null"
[ -n "$ACCT" ] && at_exit "rmdir '$ACCT/$G/child' '$ACCT/$G/new' '$ACCT/$G' 2>/dev/null"
v1() { for f in cpu.shares cpu.cfs_quota_us cpu.cfs_period_us cpu.cfs_burst_us; do printf '%s|' "$(cat "$CPU/$1/$f")"; done; echo; }

check_fail "set on a missing real group fails without --create" 1 "no cgroup '$G'" \
    $Q set $G --limit 1
[ -d "$CPU/$G" ] && not_ok "no real group appears for a missing group" ||
    ok "no real group appears for a missing group"
run $Q set $G --create --request 250m --limit 0.5
assert "set --create makes a real v1 group with shares and quota" "$rc $(v1 $G)" \
    "0 256|50000|100000|0|"
check "get reads the real group back" 0 \
"request=1
limit=0.5
period_us=100000
burst=0
quota_us=50000
burst_us=0
shares=1024" sh -c "$Q set $G --request 1 && $Q get $G"
run $Q set $G --period 10ms
assert "set --period on v1 keeps the limit in CPUs" "$rc $(v1 $G)" "0 1024|5000|10000|0|"
run $Q set $G --burst 0.2
assert "set --burst on v1 writes cfs_burst_us" "$rc $(v1 $G)" "0 1024|5000|10000|2000|"
# Lowering the limit below the current burst only works if the burst goes
# down first; raising both only if the quota goes up first.
run $Q set $G --limit 100m --burst 50m
assert "set lowers burst before quota (the kernel accepts the order)" "$rc $(v1 $G)" \
    "0 1024|1000|10000|500|"
run $Q set $G --limit 2 --period 1s --burst 1
assert "set raises quota and period before burst" "$rc $(v1 $G)" \
    "0 1024|2000000|1000000|1000000|"
run $Q set $G --limit 300m --period 100ms --burst 100m
assert "set shrinks quota, period and burst together" "$rc $(v1 $G)" \
    "0 1024|30000|100000|10000|"
b=$(v1 $G)
check "set --dry-run on v1 prints the writes in a safe order" 0 \
"$CPU/$G/cpu.shares 204
$CPU/$G/cpu.cfs_burst_us 0
$CPU/$G/cpu.cfs_period_us 1000000
$CPU/$G/cpu.cfs_quota_us 500000" \
    $Q set $G --request 200m --limit 500m --period 1s --burst 0 --dry-run
assert "set --dry-run on v1 changes nothing" "$(v1 $G)" "$b"
for args in "--period 999us" "--limit 5m" "--burst 400m" "--limit max --burst 1" \
    "--limit 1x"; do
	# shellcheck disable=SC2086
	run $Q set $G $args
	assert "set $args is refused before writing (exit 2, files unchanged)" \
	    "$rc $(v1 $G)" "2 $b"
done

# A child may not exceed its parent's limit on v1: the kernel refuses,
# cpm names the file and the reason and puts back what it had written.
mkdir "$CPU/$G/child"
run $Q set $G --limit 0.5 --burst 0
c0=$(v1 $G/child)
run $Q set $G/child --request 1 --limit 1
if [ "$rc" = 1 ] && printf '%s' "$err" | grep -q 'cpu.cfs_quota_us.*Invalid argument'; then
	ok "a refused write is reported by file and reason"
else
	not_ok "a refused write is reported by file and reason" "$(show)"
fi
assert "a refused write undoes the earlier writes" "$(v1 $G/child)" "$c0"
run $Q set $G/new --create --limit 1
assert "a refused write removes a group set created" "$rc $([ -d "$CPU/$G/new" ] && echo kept)" "1 "
run $Q set $G/child --limit 250m
assert "a child within its parent's limit is accepted" "$rc $(v1 $G/child)" \
    "0 1024|25000|100000|0|"
run $Q set $G --limit max
assert "set --limit max writes -1 on v1" "$rc $(v1 $G)" "0 1024|-1|100000|0|"
check_fail "set refuses .. on the real hierarchy" 2 "'\.\.'" $Q set "$G/../$G" --limit 1
check_fail "set refuses the real root group" 2 "root group" $Q set / --request 1

# cpu and cpuacct mounted apart (two v1 hierarchies, as on many hosts):
# set --create makes the group in both, as cgcreate -g cpu,cpuacct does,
# so that its usage can be read; a refused write removes what it made in
# both, the group and the parents it made.
if [ -z "$ACCT" ] || [ "$(stat -c %d:%i "$ACCT")" = "$(stat -c %d:%i "$CPU")" ]; then
	skip "set --create with cpu and cpuacct mounted apart" "cpuacct is not a hierarchy of its own here"
	exit 0
fi
A=cpm-test-$$-acct
at_exit "rmdir '$ACCT/$A/g' '$ACCT/$A/x/y' '$ACCT/$A/x' '$ACCT/$A' '$CPU/$A/g' '$CPU/$A/x/y' '$CPU/$A/x' '$CPU/$A' 2>/dev/null"
run $Q set $A/g --create --limit 0.5
assert "set --create makes the group in the cpuacct hierarchy too" \
    "$rc $(cat "$CPU/$A/g/cpu.cfs_quota_us") $([ -d "$ACCT/$A/g" ] && echo cpuacct)" "0 50000 cpuacct"
if command -v cpm-throttle >/dev/null; then
	usage=$(cpm-throttle --interval 100ms -o tsv $A/g | awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "USAGE") k = i } NR == 2 { print $k }')
	case $usage in
	''|-) not_ok "cpm-throttle shows the usage of a group set --create made" "USAGE: '$usage'" ;;
	*) ok "cpm-throttle shows the usage of a group set --create made" ;;
	esac
fi
echo 50000 >"$CPU/$A/cpu.cfs_quota_us"
run $Q set $A/x/y --create --limit 1
assert "a refused write removes the group and the parents set made, in cpu and cpuacct" \
    "$rc $(ls "$CPU/$A" "$ACCT/$A" | grep -c '^x$')" "1 0"
mkdir "$ACCT/$A/x"
run $Q set $A/x/y --create --limit 1
assert "a parent that was there before stays" \
    "$rc $([ -d "$ACCT/$A/x" ] && echo x) $(ls "$CPU/$A" "$ACCT/$A/x" | grep -c '^[xy]$')" "1 x 0"
