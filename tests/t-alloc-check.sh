#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc check and reconcile: the machine changed, owners went away.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"

use_m32
export CPM_STATE=$T_TMP/alloc.state

cpm-alloc init --reserved 0 >/dev/null
run cpm-alloc take hi 4 --from 28-31
assert "take --from 28-31 gets them" "$rc $out" "0 28-31
"
cpm-alloc take lo 2 --from 2-3 >/dev/null
check "check finds nothing on an unchanged machine" 0 "" cpm-alloc check
check "check --json of an unchanged machine has no findings" 0 '{"findings":[]}' \
    cpm-alloc check --json

# The same machine with CPUs 28-31 offline.
gen_spec 2 2 4 2 8388608 '28|29|30|31' | gen_tree "$T_TMP/m28"
cp "$CPM_STATE" "$T_TMP/s0"
CPM_SYSROOT=$T_TMP/m28 run cpm-alloc check
assert "check exits 3 when CPUs went offline" "$rc" 3
case $out in
*"error: the CPU count changed: the state was made for 32 online CPUs (0-31), the machine has 28 (0-27)"*) ok "check names the changed CPU count" ;;
*) not_ok "check names the changed CPU count" "$(show)" ;;
esac
case $out in
*"error: CPUs 28-31 were online when the state was written and are offline now"*) ok "check names the CPUs that went offline" ;;
*) not_ok "check names the CPUs that went offline" "$(show)" ;;
esac
text=$out
CPM_SYSROOT=$T_TMP/m28 run cpm-alloc check --json
json_lines=$(printf '%s' "$out" | grep -o '{"level":"[a-z]*","message":"[^"]*"}' |
    sed 's/{"level":"\([a-z]*\)","message":"\(.*\)"}/\1: \2/')
assert "check --json gives each line as a level and a message, exit 3" \
    "$rc:$json_lines" "3:${text%
}"
CPM_SYSROOT=$T_TMP/m28 run cpm-alloc check
case $out in
*"error: 'hi' holds CPUs 28-31, which are not online: release it ('cpm-alloc release hi') and take again"*) ok "check names the allocation on offline CPUs and what to do" ;;
*) not_ok "check names the allocation on offline CPUs and what to do" "$(show)" ;;
esac
case $out in
*"'lo'"*) not_ok "check does not blame healthy allocations" "$(show)" ;;
*) ok "check does not blame healthy allocations" ;;
esac
cmp -s "$CPM_STATE" "$T_TMP/s0" && ok "check changes nothing" || not_ok "check changes nothing"

CPM_SYSROOT=$T_TMP/m28 run cpm-alloc take more 4
assert "take still works with CPUs offline, on online CPUs" \
	"$rc $(count "$out") $(inter "$out" 28-31,0,2-3)" "0 4 "
CPM_SYSROOT=$T_TMP/m28 run cpm-alloc reconcile
case $rc:$err in
3:*"still uses CPUs 28-31 that are not online"*) ok "reconcile will not adopt the machine while CPUs in use are offline" ;;
*) not_ok "reconcile will not adopt the machine while CPUs in use are offline" "$(show)" ;;
esac
CPM_SYSROOT=$T_TMP/m28 cpm-alloc release hi
CPM_SYSROOT=$T_TMP/m28 check "reconcile records the new online CPUs" 0 \
	"recorded the machine's online CPUs 0-27 (was 0-31)" cpm-alloc reconcile
CPM_SYSROOT=$T_TMP/m28 check "check is clean after reconcile" 0 "" cpm-alloc check

# A machine with fewer possible CPUs: refused, check explains.
gen_spec 2 2 4 1 | gen_tree "$T_TMP/m16"
CPM_SYSROOT=$T_TMP/m16 run cpm-alloc take x 1
case $rc:$err in
2:*"was made for a different set of CPUs (possible CPUs were 0-31, now 0-15; missing 16-31)"*) ok "a state of more CPUs than exist is refused" ;;
*) not_ok "a state of more CPUs than exist is refused" "$(show)" ;;
esac
CPM_SYSROOT=$T_TMP/m16 run cpm-alloc check
case $rc:$out in
3:*"the CPU count changed"*"CPUs 16-27 were online when the state was written and no longer exist"*) ok "check explains vanished CPUs" ;;
*) not_ok "check explains vanished CPUs" "$(show)" ;;
esac

# Overlaps and reserved CPUs handed out (as a hand-made state).
export CPM_SYSROOT=$T_TMP/m32
cpm-alloc init --force --reserved 0-1 >/dev/null
cpm-alloc take p 2 >/dev/null
cat >>"$CPM_STATE" <<'EOF'
entry q n=3 cpus=1,8-9 mode=exclusive
entry r n=1 cpus=9 mode=share
EOF
resign "$CPM_STATE"
run cpm-alloc check
case $out in
*"error: reserved CPUs 1 are handed out to 'q': release it and take again"*) ok "check finds reserved CPUs handed out" ;;
*) not_ok "check finds reserved CPUs handed out" "$(show)" ;;
esac
case $rc:$out in
3:*"error: 'q' and 'r' both hold CPUs 9: release one of them"*) ok "check finds overlapping allocations" ;;
*) not_ok "check finds overlapping allocations" "$(show)" ;;
esac
check "release fixes what check found" 0 "" sh -c 'cpm-alloc release q r && cpm-alloc check'

# Owners.
sleep 300 &
live=$!
sleep 300 &
dead=$!
at_exit "kill $live $dead 2>/dev/null"
cpm-alloc take alive 1 --owner pid:$live >/dev/null
run cpm-alloc take gone 2 --owner pid:$dead
G=${out%
}
kill $dead
wait $dead 2>/dev/null
run cpm-alloc check
case $rc:$out in
3:*"warning: the owner of 'gone' is gone (process $dead has exited): run 'cpm-alloc reconcile' to release it"*) ok "check finds an exited owner" ;;
*) not_ok "check finds an exited owner" "$(show)" ;;
esac
cp "$CPM_STATE" "$T_TMP/s1"
check "reconcile --dry-run says what it would release" 0 \
	"would release gone $G: process $dead has exited" cpm-alloc reconcile --dry-run
cmp -s "$CPM_STATE" "$T_TMP/s1" && ok "reconcile --dry-run changes nothing" ||
	not_ok "reconcile --dry-run changes nothing"
check "reconcile releases allocations of exited processes" 0 \
	"released gone $G: process $dead has exited" cpm-alloc reconcile
check "reconcile keeps allocations of live processes" 0 "alive p" \
	sh -c 'cpm-alloc list | awk "NR > 1 { print \$1 }" | sort | tr "\n" " " | sed "s/ \$//"'
# A recycled pid: the recorded start time no longer matches.
sed "s/^\(entry alive .* start=\)[0-9]*/\\11/" "$CPM_STATE" >"$T_TMP/s2"
cp "$T_TMP/s2" "$CPM_STATE"
resign "$CPM_STATE"
run cpm-alloc reconcile
case $rc:$out in
"0:released alive "*"process $live has exited (the pid now belongs to another process)"*) ok "reconcile sees through a reused pid" ;;
*) not_ok "reconcile sees through a reused pid" "$(show)" ;;
esac

# cgroup owners, in a cgroup v1 layout below a directory.
mkdir -p "$T_TMP/cg/cpuset/kubepods/pod1" "$T_TMP/cg/cpu"
export CPM_CGROUP_ROOT=$T_TMP/cg
run cpm-alloc take pod1 2 --owner cgroup:kubepods/pod1
P=${out%
}
check "reconcile keeps allocations of existing cgroups" 0 "" cpm-alloc reconcile
rmdir "$T_TMP/cg/cpuset/kubepods/pod1"
check "reconcile releases allocations of removed cgroups" 0 \
	"released pod1 $P: cgroup '$(cd "$T_TMP" && pwd -P)/cg/cpuset/kubepods/pod1' was removed" \
	cpm-alloc reconcile
