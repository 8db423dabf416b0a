# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-throttle on a real kernel: a busy loop under a small cpu.max is
# throttled in most periods, and cpm-throttle says so.
. /cpm/tests/vm/guest/common.sh
have cpm-throttle || exit 0
G=cpmvm-thr
cg_rm $G
at_exit "cg_rm $G"
mkdir $CG/$G
echo +cpu >$CG/$G/cgroup.subtree_control
mkdir $CG/$G/busy $CG/$G/idle
echo "20000 100000" >$CG/$G/busy/cpu.max
sh -c "echo \$\$ >$CG/$G/busy/cgroup.procs; while :; do :; done" &
loop=$!
at_exit "kill $loop 2>/dev/null"
sleep 3

# field GROUP COLUMN: a column of the tsv row of GROUP (named with or
# without a leading slash).
field() {
	printf '%s' "$out" | awk -F'\t' -v g="$1" -v col="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$1 == g || $1 == "/" g { print $(h[col]) }'
}
run cpm-throttle $G -o tsv
r=$(field $G/busy RATIO)
p=$(field $G/busy PERIODS)
t=$(field $G/busy THROTTLED)
if [ "$rc" = 0 ] && awk -v r="$r" -v p="$p" -v t="$t" 'BEGIN { exit !(r > 0.5 && p >= 10 && t > 0 && t <= p) }'; then
	ok "reports a busy loop under cpu.max 20000/100000 as throttled (ratio over 0.5)"
else not_ok "reports a busy loop under cpu.max 20000/100000 as throttled (ratio over 0.5)" "$(show)"; fi
l=$(field $G/busy LIMIT)
if awk -v l="$l" 'BEGIN { exit !(l != "" && l == 0.2) }'; then ok "reports the limit in CPUs"
else not_ok "reports the limit in CPUs" "LIMIT $l, want 0.2" "$(show)"; fi
r=$(field $G/idle RATIO)
if awk -v r="$r" 'BEGIN { exit !(r != "" && r == 0) }'; then ok "reports an idle unlimited group as not throttled"
else not_ok "reports an idle unlimited group as not throttled" "$(show)"; fi

run cpm-throttle $G/busy --interval 1s -o tsv
r=$(field $G/busy RATIO)
if [ "$rc" = 0 ] && awk -v r="$r" 'BEGIN { exit !(r > 0.5) }'; then
	ok "--interval 1s sees the throttling"
else not_ok "--interval 1s sees the throttling" "$(show)"; fi

run cpm-throttle $G --fail-above 0.5
assert "--fail-above 0.5 exits 3" "$rc" 3
run cpm-throttle $G --min-ratio 0.5 -o names
assert "-o names --min-ratio 0.5 names only the busy group" "$(printf '%s' "$out" | sed 's|^/||')" "$G/busy"
run cpm-throttle $G -o prom
if [ "$rc" = 0 ] && printf '%s' "$out" | grep -q "^cpm_cpu_cfs_throttled_periods_total{.*$G/busy.*} [1-9]"; then
	ok "-o prom counts the throttled periods"
else not_ok "-o prom counts the throttled periods" "$(show)"; fi
snap=$T_TMP/snap
run cpm-throttle $G/busy --since $snap -o tsv
sleep 1
run cpm-throttle $G/busy --since $snap -o tsv
r=$(field $G/busy RATIO)
if [ "$rc" = 0 ] && awk -v r="$r" 'BEGIN { exit !(r > 0.5) }'; then
	ok "--since reports the throttling since the last snapshot"
else not_ok "--since reports the throttling since the last snapshot" "$(show)"; fi
kill $loop
