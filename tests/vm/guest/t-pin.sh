# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-pin on a real kernel: CPU affinity, memory policies that put pages
# on the nodes asked for (numa_maps shows them), page migration and
# cgroup v2 cpuset partitions.
. /cpm/tests/vm/guest/common.sh
have cpm-pin || exit 0
MT=/cpm/tests/vm/memtouch
MB=16
PAGES=$((MB * 256))
last=$((T_CPU_NODES - 1))
CPUS_LAST=$(exp_node_cpus $last)
CPUS_0=$(exp_node_cpus 0)

# pages_on LINE NODE: pages of a memtouch line on NODE (0 when none).
pages_on() {
	printf '%s\n' "$1" | tr ' ' '\n' | awk -F= -v k="N$2" '$1 == k { n = $2 } END { print n + 0 }'
}
# only_on NAME LINE NODE: all pages, and only them, on NODE.
only_on() {
	_others=$(printf '%s\n' "$2" | tr ' ' '\n' | grep '^N' | grep -v "^N$3=")
	if [ "$(pages_on "$2" $3)" -ge "$PAGES" ] && [ -z "$_others" ]; then
		ok "$1"
	else
		not_ok "$1" "numa_maps: $2" "want all $PAGES pages on N$3 and none elsewhere"
	fi
}

run cpm-pin "$CPUS_LAST" -- grep Cpus_allowed_list /proc/self/status
assert "pins a command to the CPUs of node $last" "$(echo $out | awk '{ print $2 }')" "$CPUS_LAST"

run cpm-pin --mem bind --nodes $last "$CPUS_0" -- $MT $MB
only_on "--mem bind --nodes $last puts every page on node $last" "$out" $last
run cpm-pin --mem bind "$CPUS_LAST" -- $MT $MB
only_on "--mem bind without --nodes binds to the node of the CPUs" "$out" $last
run cpm-pin --mem preferred --nodes $last "$CPUS_0" -- $MT $MB
only_on "--mem preferred --nodes $last puts the pages on node $last" "$out" $last
run cpm-pin --nodes $last "$CPUS_LAST" -- $MT $MB
only_on "--nodes alone (local) keeps the pages on the local node $last" "$out" $last

all="0-$((T_NODES - 1))"
run cpm-pin --mem interleave --nodes "$all" "$CPUS_0" -- $MT $MB
bad= n=0
while [ "$n" -lt "$T_NODES" ]; do
	p=$(pages_on "$out" $n)
	[ "$p" -ge $((PAGES / T_NODES * 8 / 10)) ] || bad="$bad N$n=$p"
	n=$((n + 1))
done
if [ "$rc" = 0 ] && [ -z "$bad" ]; then ok "--mem interleave spreads the pages over nodes $all"
else not_ok "--mem interleave spreads the pages over nodes $all" "$(show)" "too few pages:$bad"; fi

n=$((T_NODES - 1))
if [ "$MEM_NODES" -gt 0 ]; then
	run cpm-pin --mem bind --nodes $n "$CPUS_0" -- $MT $MB
	only_on "--mem bind puts the pages on node $n, which has no CPU" "$out" $n
fi

# -p: re-pin a running process, read it back, migrate its pages.
taskset -c "$CPUS_0" $MT -w $MB >"$T_TMP/mt" &
mt=$!
at_exit "kill $mt 2>/dev/null"
# wait_for FILE: until FILE has a line (touching pages is slow under TCG).
wait_for() {
	_i=0
	while [ ! -s "$1" ] && [ $_i -lt 300 ]; do sleep 0.1; _i=$((_i + 1)); done
}
wait_for "$T_TMP/mt"
only_on "a running memtouch starts with its pages on node 0" "$(cat "$T_TMP/mt")" 0
run cpm-pin -p $mt "$CPUS_LAST"
assert "-p PID CPULIST re-pins a running process" \
    "$rc $(awk '/Cpus_allowed_list/ { print $2 }' /proc/$mt/status)" "0 $CPUS_LAST"
run cpm-pin -p $mt
assert "-p PID prints the affinity on its first line" "$rc $(printf '%s' "$out" | head -n 1)" "0 $CPUS_LAST"
run cpm-pin -p $mt "$CPUS_LAST" --nodes $last --migrate
: >"$T_TMP/mt"
kill -USR1 $mt
wait_for "$T_TMP/mt"
if [ "$rc" = 0 ]; then only_on "-p PID --migrate moves the pages to node $last" "$(cat "$T_TMP/mt")" $last
else not_ok "-p PID --migrate moves the pages to node $last" "$(show)"; fi
kill $mt

for c in $(list_expand "$OFFLINE"); do
	rm -f "$T_TMP/ran"
	run cpm-pin "$c,0" -- touch "$T_TMP/ran"
	if [ "$rc" != 0 ] && [ ! -e "$T_TMP/ran" ] && printf '%s' "$err" | grep -Eq "(^|[^0-9])$c([^0-9]|$)"; then
		ok "refuses offline CPU $c, names it and runs nothing"
	else not_ok "refuses offline CPU $c, names it and runs nothing" "$(show)"; fi
done

# cgroup v2 cpuset and partitions.
cg_rm cpmvm-pin cpmvm-part cpmvm-part2
at_exit "cg_rm cpmvm-pin cpmvm-part cpmvm-part2"
mkdir $CG/cpmvm-pin
run cpm-pin --cgroup cpmvm-pin "$CPUS_LAST"
assert "--cgroup writes cpuset.cpus, cpuset.cpus.effective follows" \
    "$rc $(kfile $CG/cpmvm-pin/cpuset.cpus) $(kfile $CG/cpmvm-pin/cpuset.cpus.effective) $(kfile $CG/cpmvm-pin/cpuset.mems.effective)" \
    "0 $CPUS_LAST $CPUS_LAST $last"

cg_rm cpmvm-pin
sleep 1000 &
sl=$!
at_exit "kill $sl 2>/dev/null"
mkdir $CG/cpmvm-part
run cpm-pin --cgroup cpmvm-part "$CPUS_LAST" --mems $last --exclusive --attach $sl
assert "--cgroup --exclusive makes a v2 partition root" \
    "$rc $(kfile $CG/cpmvm-part/cpuset.cpus.partition) $(kfile $CG/cpmvm-part/cpuset.cpus.effective)" \
    "0 root $CPUS_LAST"
root_eff=$(kfile $CG/cpuset.cpus.effective)
assert "the partition takes its CPUs away from the root" "$root_eff" \
    "$(cpus_where "cpu_online \$c && [ \$(cpu_node \$c) != $last ]")"
assert "--attach moves the process into the partition" \
    "$(cat /proc/$sl/cgroup) $(awk '/Cpus_allowed_list/ { print $2 }' /proc/$sl/status)" \
    "0::/cpmvm-part $CPUS_LAST"
mkdir $CG/cpmvm-part2
f=$(list_expand "$CPUS_LAST" | awk '{ print $1 }')
run cpm-pin --cgroup cpmvm-part2 "$f" --exclusive
if { [ "$rc" = 1 ] || [ "$rc" = 2 ]; } && printf '%s' "$err" | grep -Eq "(^|[^0-9])$f([^0-9]|$)" &&
    [ "$(kfile $CG/cpmvm-part2/cpuset.cpus.partition)" != root ]; then
	ok "--exclusive refuses CPUs another partition owns and names them"
else not_ok "--exclusive refuses CPUs another partition owns and names them" "$(show)" \
    "partition: $(kfile $CG/cpmvm-part2/cpuset.cpus.partition)"; fi
kill $sl
