# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-throttle against the running kernel: a busy loop in a group with a
# 10ms/100ms quota is throttled, and cpm-throttle must report exactly what
# the kernel's cpu.stat says (read here independently).  Needs root and a
# cgroup v1 cpu hierarchy (or v2 with the cpu controller).  No timing is
# asserted: the test waits for counters, then stops the busy loop so that
# they hold still while it compares.
. "$(dirname "$0")/lib.sh"

SPIN=$CPM_TOP/tests/helpers/spin
G=cpm-test-$$
if ! is_root; then
	skip "live throttling" "needs root"
	exit 0
fi
if [ ! -x "$SPIN" ]; then
	skip "live throttling" "build tests/helpers/spin first"
	exit 0
fi

CPUDIR= ACCTDIR= SETDIR=
if [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
	V=1
	CPUDIR=/sys/fs/cgroup/cpu/$G
	# cpuacct may be co-mounted with cpu (then it is the same directory).
	if [ -d /sys/fs/cgroup/cpuacct ] &&
	    [ "$(stat -L -c %d /sys/fs/cgroup/cpuacct)" != "$(stat -L -c %d /sys/fs/cgroup/cpu)" ]; then
		ACCTDIR=/sys/fs/cgroup/cpuacct/$G
	fi
	[ -f /sys/fs/cgroup/cpuset/cpuset.cpus ] && SETDIR=/sys/fs/cgroup/cpuset/$G
elif grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	V=2
	CPUDIR=/sys/fs/cgroup/$G
else
	skip "live throttling" "no cgroup v1 cpu hierarchy and no v2 cpu controller"
	exit 0
fi

spin_pid= watch_pid=
cleanup() {
	[ -n "$spin_pid" ] && kill -9 "$spin_pid" 2>/dev/null && wait "$spin_pid" 2>/dev/null
	[ -n "$watch_pid" ] && kill "$watch_pid" 2>/dev/null
	for d in w1 w2 w3; do [ -d "$CPUDIR/$d" ] && rmdir "$CPUDIR/$d"; done
	for d in "$SETDIR" "$ACCTDIR" "$CPUDIR"; do
		[ -n "$d" ] && [ -d "$d" ] || continue
		i=0
		while ! rmdir "$d" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1; i=$((i + 1))
		done
	done
}
at_exit cleanup

mkdir "$CPUDIR" || { not_ok "create $CPUDIR"; exit 1; }
[ -n "$ACCTDIR" ] && mkdir "$ACCTDIR"
if [ $V = 1 ]; then
	echo 100000 >"$CPUDIR/cpu.cfs_period_us"
	echo 10000 >"$CPUDIR/cpu.cfs_quota_us"
else
	echo "10000 100000" >"$CPUDIR/cpu.max"
fi

"$SPIN" 120 &
spin_pid=$!
echo "$spin_pid" >"$CPUDIR/cgroup.procs"
[ -n "$ACCTDIR" ] && echo "$spin_pid" >"$ACCTDIR/cgroup.procs"

stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$CPUDIR/cpu.stat"; }

# wait_throttled N: until nr_throttled reaches N (at most ~60s).
wait_throttled() {
	i=0
	while [ "$(stat_of nr_throttled)" -lt "$1" ] && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
}

# hold: stop the busy loop and wait until cpu.stat stops moving.
hold() {
	kill -STOP "$spin_pid"
	prev= i=0
	while [ $i -lt 100 ]; do
		cur=$(cat "$CPUDIR/cpu.stat")
		[ "$cur" = "$prev" ] && break
		prev=$cur
		sleep 0.3; i=$((i + 1))
	done
}

wait_throttled 20
hold
P1=$(stat_of nr_periods) T1=$(stat_of nr_throttled)
want_ratio=$(awk -v p="$P1" -v t="$T1" 'BEGIN { printf "%.3f", t / p }')

run cpm-throttle "$G" -o tsv
got=$(printf '%s' "$out" | awk -F'\t' -v g="$G" '$1 == g { print $2, $3, $4, $6 }')
assert "the reported counters are cpu.stat's" "$rc:$got" "0:$P1 $T1 $want_ratio 0.1"
if awk -v r="$want_ratio" 'BEGIN { exit !(r > 0.5) }'; then
	ok "a busy loop under a 10% quota is throttled in most periods"
else
	not_ok "a busy loop under a 10% quota is throttled in most periods" "ratio $want_ratio"
fi

run cpm-throttle -o names
assert "the default walk finds the limited group" \
    "$rc:$(printf '%s' "$out" | grep -cx "$G")" "0:1"

run cpm-throttle "$G" --fail-above 0.1 -o names
assert "--fail-above exits 3 for the throttled group" "$rc:$out" "3:$G
"

if command -v promtool >/dev/null; then
	run cpm-throttle "$G" -o prom
	if printf '%s' "$out" | promtool check metrics >"$T_TMP/promtool.out" 2>&1 &&
	    printf '%s' "$out" | grep -qx "cpm_cpu_cfs_throttled_periods_total{cgroup=\"$G\",id=\"/$G\"} $T1"; then
		ok "live -o prom passes promtool check metrics"
	else
		not_ok "live -o prom passes promtool check metrics" "$(cat "$T_TMP/promtool.out")" "$out"
	fi
else
	skip "live -o prom passes promtool check metrics" "promtool not installed"
fi

# Pressure and bursts.  Per-group pressure files exist on v2 and on v1
# where the kernel offers cgroup1 PSI; elsewhere (this host's v1) they are
# absent and must show as "-" and null, never an error.  The node's
# pressure comes from /proc/pressure when the kernel has PSI.
run cpm-throttle "$G" -o tsv -O group,psi_some,bursts,burst_s
got=$(printf '%s' "$out" | awk -F'\t' -v g="$G" '$1 == g { print $2 != "-", $3, $4 }')
burst_ns=$(stat_of burst_time)
[ -n "$burst_ns" ] || burst_ns=$(( $(stat_of burst_usec) * 1000 ))
want_burst=$(awk -v n="$burst_ns" 'BEGIN { printf "%.3f", n / 1e9 }')
if [ -r "$CPUDIR/cpu.pressure" ] && cat "$CPUDIR/cpu.pressure" >/dev/null 2>&1; then
	has_psi=1
else
	has_psi=0
fi
if grep -q '^nr_bursts' "$CPUDIR/cpu.stat"; then
	assert "live: PSI_SOME where the group has cpu.pressure, bursts from cpu.stat" \
	    "$rc:$got" "0:$has_psi $(stat_of nr_bursts) $want_burst"
else
	assert "live: PSI_SOME where the group has cpu.pressure, no bursts before 5.14" \
	    "$rc:$got" "0:$has_psi - -"
fi
run cpm-throttle "$G" -o prom
ngrp=$(printf '%s' "$out" | grep -c "^cpm_pressure_cpu_waiting_seconds_total{cgroup=\"$G\"")
nnode=$(printf '%s' "$out" | grep -c '^cpm_node_pressure_cpu_waiting_seconds_total ')
if [ -r /proc/pressure/cpu ]; then has_node=1; else has_node=0; fi
assert "live: pressure metrics for the group where it has the file, the node's where /proc/pressure is" \
    "$rc:$ngrp:$nnode" "0:$has_psi:$has_node"
if [ $has_node = 1 ]; then
	before=$(sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/cpu)
	run cpm-throttle "$G" --json
	node=$(printf '%s' "$out" | sed -n 's/.*"node_pressure":{"cpu":{"some":[0-9.]*,"some_total_s":\([0-9.]*\).*/\1/p')
	if [ "$rc" = 0 ] && [ -n "$node" ] &&
	    awk -v n="$node" -v b="$before" 'BEGIN { exit !(n * 1e6 >= b - 1) }'; then
		ok "live: JSON has the node's cpu pressure from /proc/pressure/cpu"
	else
		not_ok "live: JSON has the node's cpu pressure from /proc/pressure/cpu" "$(show)"
	fi
else
	skip "live: JSON has the node's cpu pressure" "no /proc/pressure on this kernel"
fi

# --since twice: cumulative, then exactly what happened in between.
SNAP=$T_TMP/throttle.snap
run cpm-throttle "$G" --since "$SNAP" -o tsv
got=$(printf '%s' "$out" | awk -F'\t' -v g="$G" '$1 == g { print $2, $3 }')
assert "the first --since run is cumulative" "$rc:$got" "0:$P1 $T1"
kill -CONT "$spin_pid"
wait_throttled $((T1 + 5))
hold
P2=$(stat_of nr_periods) T2=$(stat_of nr_throttled)
run cpm-throttle "$G" --since "$SNAP" -o tsv
got=$(printf '%s' "$out" | awk -F'\t' -v g="$G" '$1 == g { print $2, $3, ($7 != "-") }')
assert "the second --since run reports the difference" "$rc:$got" \
    "0:$((P2 - P1)) $((T2 - T1)) 1"

# --interval while it runs: windowed counters and a usage.
kill -CONT "$spin_pid"
run cpm-throttle "$G" --interval 300ms -o json
if [ "$rc" = 0 ] && printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
g = d["groups"][0]
assert d["window_s"] > 0 and g["usage"] is not None and g["usage"] >= 0
assert g["throttled"] <= g["periods"]
'; then ok "--interval reports a window with a usage"
else not_ok "--interval reports a window with a usage" "$(show)"; fi

# Pinned but throttled: an exclusive cpuset with the same name.
if [ -n "$SETDIR" ] && mkdir "$SETDIR" 2>/dev/null &&
    cp /sys/fs/cgroup/cpuset/cpuset.mems "$SETDIR/cpuset.mems" 2>/dev/null &&
    echo "$(cut -d, -f1 /sys/fs/cgroup/cpuset/cpuset.effective_cpus | cut -d- -f2)" \
	>"$SETDIR/cpuset.cpus" 2>/dev/null &&
    echo 1 >"$SETDIR/cpuset.cpu_exclusive" 2>/dev/null; then
	run cpm-throttle "$G" -o json
	# An exclusive cpuset keeps siblings off its CPU: drop it at once.
	rmdir "$SETDIR"
	if printf '%s' "$err" | grep -q "warning: '$G' has exclusive CPUs" &&
	    printf '%s' "$out" | grep -q '"pinned_throttled":true'; then
		ok "a throttled group with an exclusive cpuset is flagged"
	else
		not_ok "a throttled group with an exclusive cpuset is flagged" "$(show)"
	fi
else
	skip "a throttled group with an exclusive cpuset is flagged" "cannot make an exclusive cpuset here"
fi

# --watch keeps the groups between rounds: a group made or removed below
# a watched one shows at the next round, a renamed one (v1 allows
# rename(2); no link count moves) by the walk every 10th round.  Counted
# in rounds, not in time: round k is the k-th header line.
if [ $V = 1 ]; then
	W=$T_TMP/watch.tsv
	cpm-throttle "$G" --all --watch --interval 100ms -o tsv >"$W" 2>&1 &
	watch_pid=$!
	rounds() { grep -c '^GROUP' "$W"; }
	# first_round NAME: the round that first lists (or, with -v, first
	# no longer lists) NAME, waiting at most ~10 s.
	first_round() {
		i=0
		while [ $i -lt 100 ]; do
			r=$(awk -v g="$G/$2" -v neg="$1" '
				/^GROUP/ { if (n && (neg ? !seen : seen)) { print n; exit }
					   n++; seen = 0; next }
				$1 == g { seen = 1 }' "$W")
			[ -n "$r" ] && { echo "$r"; return; }
			sleep 0.1; i=$((i + 1))
		done
		echo never
	}
	i=0; while [ "$(rounds)" -lt 2 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	k=$(rounds); mkdir "$CPUDIR/w1"
	r=$(first_round 0 w1)
	assert "--watch: a new group shows within two rounds" \
	    "$([ "$r" != never ] && [ "$r" -le $((k + 2)) ] && echo yes)" yes
	k=$(rounds); rmdir "$CPUDIR/w1"
	r=$(first_round 1 w1)
	assert "--watch: a removed group is gone within two rounds" \
	    "$([ "$r" != never ] && [ "$r" -le $((k + 2)) ] && echo yes)" yes
	mkdir "$CPUDIR/w2"
	first_round 0 w2 >/dev/null
	k=$(rounds); mv "$CPUDIR/w2" "$CPUDIR/w3" 2>/dev/null
	if [ -d "$CPUDIR/w3" ]; then
		r=$(first_round 0 w3)
		assert "--watch: a renamed group shows within eleven rounds" \
		    "$([ "$r" != never ] && [ "$r" -le $((k + 11)) ] && echo yes)" yes
		rmdir "$CPUDIR/w3"
	else
		rmdir "$CPUDIR/w2"
		skip "--watch: a renamed group shows within eleven rounds" "this kernel does not rename cgroups"
	fi
	kill "$watch_pid" 2>/dev/null
	wait "$watch_pid" 2>/dev/null || :
	watch_pid=
fi
