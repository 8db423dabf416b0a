#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-quota burst's guards: the node's headroom (on this host's real
# proc/stat, saturated with stress-ng, and the host's real cgroup v1 cpu
# hierarchy) and each group's burst budget (on a cgroup v2 file tree built
# here: plain files, NOT the kernel, so that the budget's arithmetic is
# checked exactly).
. "$(dirname "$0")/lib.sh"

Q=cpm-quota
J=$T_TMP/burst.journal
export CPM_BURST_JOURNAL="$J"

wait_until() {
	_i=0
	while [ $_i -lt 200 ]; do
		eval "$1" && return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}

V2=$T_TMP/v2
mkdir -p "$V2/a"
echo "cpu" >"$V2/cgroup.controllers"
echo "cpu" >"$V2/a/cgroup.controllers"
echo 0 >"$V2/a/cpu.max.burst"
echo "50000 100000" >"$V2/a/cpu.max"
QV="$Q --cgroup-root $V2"

# ---- bad input: exit 2, nothing raised ----
check_fail "--node-headroom above 100 is refused" 2 "invalid --node-headroom '101'" \
    $QV burst --node-headroom 101 a
check_fail "--node-headroom must be a number" 2 "invalid --node-headroom 'x'" \
    $QV burst --node-headroom x a
check_fail "CPM_NODE_HEADROOM is checked as the option is" 2 "invalid --node-headroom '-1'" \
    env CPM_NODE_HEADROOM=-1 $QV burst a
check_fail "--budget needs a unit" 2 "invalid --budget '30'" $QV burst --budget 30 a
check_fail "--budget's window needs a unit" 2 "invalid --budget window '10m'" \
    $QV burst --budget 30s/10m a
check_fail "--budget above its window is refused" 2 "--budget '20s' is outside" \
    $QV burst --budget 20s/10s a
check_fail "--node-headroom is burst's" 2 "node-headroom" $QV get a --node-headroom 5
assert "nothing was raised by refused options" "$(cat "$V2/a/cpu.max")" "50000 100000"

# ---- the budget, on the file tree ----
# 250ms in a window of 60s: a raise of 200ms, then one cut to 50ms, then none.
T_IN="a
"
run $QV burst --budget 250ms/60s --for 200ms --cooldown 0s -v
assert "budget: the first raise lasts --for and is charged" \
    "$rc $(printf '%s' "$err" | grep -c "raised 'a' from 50000us to 100000us; for 0.2s, budget 0.2s of 0.25s used")" "0 1"
assert "budget: the window is a budget line of the register" \
    "$(sed -n 1p "$CPM_BURST_GROUPS") $(awk '$1 == "budget" { print $3, $5, $6 }' "$CPM_BURST_GROUPS")" \
    "cpm-burst-journal 3 a 60000000 200000"
run $QV burst --budget 250ms/60s --for 200ms --cooldown 0s -v
assert "budget: the next process's raise is cut to what is left" \
    "$rc $(printf '%s' "$err" | grep -c "for 0.05s, budget 0.25s of 0.25s used")" "0 1"
run $QV burst --budget 250ms/60s --for 200ms --cooldown 0s -v
assert "budget: used up, the group is not raised, and the output says why" \
    "$rc $(cat "$V2/a/cpu.max") $(printf '%s' "$err" | grep -c "not raising 'a': it has used its burst budget of 0.25s in its window, which ends in ")" \
    "0 50000 100000 1"
assert "budget: the journal is left empty" "$(sed 1,2d "$J")" ""

# A kill at any instant loses nothing: the charge is on disk before the
# quota changes, so a killed raise stays charged in full.
rm -f "$CPM_BURST_GROUPS"
$QV burst --budget 10s/60s --for 3600s a 2>/dev/null &
bp=$!
wait_until '[ "$(cat "$V2/a/cpu.max")" = "100000 100000" ]'
kill -KILL $bp
wait $bp 2>/dev/null
assert "budget: a killed raise stays charged, as far as the budget allows" \
    "$(awk '$1 == "budget" { print $3, $6 }' "$CPM_BURST_GROUPS")" "a 10000000"
run $Q restore
run $QV burst --budget 10s/60s --for 100ms -v a
assert "budget: so the next burst does not raise it within the window" \
    "$rc $(cat "$V2/a/cpu.max") $(printf '%s' "$err" | grep -c "used its burst budget of 10s")" \
    "0 50000 100000 1"
# SIGTERM puts a raise back early: only its time is charged.
rm -f "$CPM_BURST_GROUPS"
$QV burst --budget 100s/600s --for 3600s a 2>/dev/null &
bp=$!
wait_until '[ "$(cat "$V2/a/cpu.max")" = "100000 100000" ]'
kill -TERM $bp
wait $bp
used=$(awk '$1 == "budget" { print $6 }' "$CPM_BURST_GROUPS")
if [ -n "$used" ] && [ "$used" -lt 10000000 ]; then
	ok "budget: a raise put back early is charged only its time"
else
	not_ok "budget: a raise put back early is charged only its time" "used: $used"
fi

# ---- the node's headroom: the host's proc/stat, the real cgroup v1 ----
CPU=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/self/mounts)
if ! command -v stress-ng >/dev/null; then
	skip "headroom on a saturated node" "no stress-ng"
	exit 0
fi
if ! is_root || [ -z "$CPU" ] || [ ! -w "$CPU" ]; then
	skip "headroom on a saturated node" "needs root and a v1 cpu hierarchy"
	exit 0
fi
G=cpm-test-$$-guard
at_exit "rmdir '$CPU/$G/b' '$CPU/$G' 2>/dev/null"
mkdir "$CPU/$G" "$CPU/$G/b"
echo 5000 >"$CPU/$G/b/cpu.cfs_quota_us"
q() { cat "$CPU/$G/b/cpu.cfs_quota_us"; }
# Every CPU busy: twice as many workers as CPUs, at the usual priority.
stress-ng --cpu "$(($(nproc) * 2))" --timeout 60s --quiet &
sp=$!
at_exit "kill $sp 2>/dev/null; wait $sp 2>/dev/null"
sleep 1
unset CPM_NODE_HEADROOM
run $Q burst --node-headroom 20 --for 3600s -v $G/b
assert "headroom: on a saturated node a raise is refused, and the output says why" \
    "$rc $(q) $(printf '%s' "$err" | grep -c "not raising '$G/b': the node's idle CPU was .* below --node-headroom 20%")" \
    "0 5000 1"
run $Q burst --for 3600s -v $G/b
assert "headroom: the default (50%) refuses it too" \
    "$rc $(q) $(printf '%s' "$err" | grep -c "below --node-headroom 50%")" "0 5000 1"
# The pipeline of the contract, on a really throttled group.
sh -c 'while :; do :; done' &
hog=$!
at_exit "kill $hog 2>/dev/null; wait $hog 2>/dev/null"
echo $hog >"$CPU/$G/b/cgroup.procs"
mkfifo "$T_TMP/names"
cpm-throttle --watch --interval 1s --min-ratio 0.2 -o names $G >"$T_TMP/names" &
tp=$!
$Q burst --node-headroom 20 --for 500ms <"$T_TMP/names" 2>"$T_TMP/pipe.err" &
bp=$!
wait_until "grep -q 'not raising' '$T_TMP/pipe.err'" ||
    wait_until "grep -q 'not raising' '$T_TMP/pipe.err'"
kill -TERM $tp
wait $tp 2>/dev/null
wait $bp
n=$(grep -c "not raising '$G/b': the node's idle CPU" "$T_TMP/pipe.err")
assert "headroom: cpm-throttle --watch | cpm-quota burst leaves a throttled group alone on a saturated node" \
    "$(q) $([ "$n" -ge 1 ] && echo refused) $(grep -c raised "$T_TMP/pipe.err")" \
    "5000 refused 0"
kill $hog 2>/dev/null
wait $hog 2>/dev/null
kill $sp 2>/dev/null
wait $sp 2>/dev/null
run $Q burst --node-headroom 0 --for 50ms -v $G/b
assert "headroom 0: the guard is off" \
    "$rc $(q) $(printf '%s' "$err" | grep -c "raised '$G/b' from 5000us to 10000us")" "0 5000 1"
