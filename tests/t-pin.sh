# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-pin, run form: affinity and memory policy of the command it runs,
# and every kind of bad input refused before anything runs.
. "$(dirname "$0")/lib.sh"

H=$CPM_TOP/tests/helpers
online=$(cat /sys/devices/system/cpu/online)
ncpu=$(getconf _NPROCESSORS_ONLN)
last=$((ncpu - 1))
# The node of CPU 0, from sysfs (the oracle for "the nodes of CPULIST").
node0=$(ls -d /sys/devices/system/cpu/cpu0/node* 2>/dev/null | head -1)
node0=${node0##*/node}
: "${node0:=0}"

run cpm-pin --help
assert 'help goes to stdout and exits 0' "$rc $(echo "$out" | head -1) [$err]" \
    "0 Usage: cpm-pin [OPTION...] CPULIST -- COMMAND [ARG...] []"
case $out in *--migrate*--exclusive*--attach*--dry-run*--sysroot*--cgroup-root*) ok 'help documents every option' ;;
*) not_ok 'help documents every option' "$out" ;; esac
check 'version prints the name and version' 0 "cpm-pin $(sed -n 's/^VERSION *= *//p' "$CPM_TOP/Makefile")" cpm-pin --version

# ---- affinity ----
for cpus in 0 "$last" "0-$last"; do
	want=$(taskset -c "$cpus" grep '^Cpus_allowed_list' /proc/self/status)
	check "the command runs on CPUs $cpus as taskset would put it" 0 "$want" \
	    cpm-pin "$cpus" -- grep '^Cpus_allowed_list' /proc/self/status
done

T_IN="$last
"
want=$(taskset -c "$last" grep '^Cpus_allowed_list' /proc/self/status)
check 'a cpulist read from stdin with -' 0 "$want" \
    cpm-pin - -- grep '^Cpus_allowed_list' /proc/self/status
T_IN=

want=$(taskset -c "$(cat /sys/devices/system/node/node$node0/cpulist)" \
    grep '^Cpus_allowed_list' /proc/self/status)
check "the selector node:$node0 runs the command on the node's CPUs" 0 "$want" \
    cpm-pin "node:$node0" -- grep '^Cpus_allowed_list' /proc/self/status

check 'affinity survives another exec in the child' 0 \
    "$(taskset -c 0 sh -c 'exec grep ^Cpus_allowed_list /proc/self/status')" \
    cpm-pin 0 -- sh -c 'exec grep ^Cpus_allowed_list /proc/self/status'

check "CPUs outside cpm-pin's own affinity but in its cpuset are granted" 0 \
    "$(taskset -c "$last" grep '^Cpus_allowed_list' /proc/self/status)" \
    taskset -c 0 cpm-pin "$last" -- grep '^Cpus_allowed_list' /proc/self/status

# Composition: a cpulist from cpm-topo on stdin.
if [ -x "$CPM_TOP/bin/cpm-topo" ] && [ -f /sys/devices/system/node/node$node0/cpulist ]; then
	run sh -c 'cpm-topo cpus node:$1 | cpm-pin - -- grep ^Cpus_allowed_list /proc/self/status' sh "$node0"
	assert 'cpm-topo cpus node:N | cpm-pin - runs on the CPUs of node N' \
	    "$rc $(echo "$out" | cut -f2)" "0 $(cat /sys/devices/system/node/node$node0/cpulist)"
else
	skip 'cpm-topo cpus node:N | cpm-pin - runs on the CPUs of node N' 'no cpm-topo or no node directory'
fi

check 'options may follow CPULIST' 0 \
    "$(taskset -c 0 grep '^Cpus_allowed_list' /proc/self/status)" \
    cpm-pin 0 --nodes "$node0" -- grep '^Cpus_allowed_list' /proc/self/status

check 'the exit status of the command is passed on' 7 '' \
    cpm-pin 0 -- sh -c 'exit 7'
check 'arguments after -- belong to the command' 0 '--mem bind' \
    cpm-pin 0 -- echo --mem bind

# ---- memory policy, read from the command's own numa_maps ----
# The policy field of the stack mapping of the process that greps it.
policy_of() { "$@" grep ' stack' /proc/self/numa_maps | awk '{print $2}'; }
for m in bind:--membind interleave:--interleave preferred:--preferred; do
	mode=${m%%:*} opt=${m#*:}
	want=$(policy_of numactl "$opt=$node0")
	got=$(policy_of cpm-pin --mem "$mode" --nodes "$node0" 0 --)
	assert "--mem $mode sets the policy numactl $opt sets" "$got" "$want"
done
assert 'numactl oracle is sane (bind shows bind:N)' \
    "$(policy_of numactl --membind="$node0")" "bind:$node0"
assert '--mem local sets the policy numactl --localalloc sets' \
    "$(policy_of cpm-pin --mem local 0 --)" "$(policy_of numactl --localalloc)"
assert 'without --mem the inherited default policy is kept' \
    "$(policy_of cpm-pin 0 --)" default
assert 'an inherited policy passes through unchanged without --mem' \
    "$(numactl --interleave="$node0" sh -c "exec cpm-pin 0 -- grep ' stack' /proc/self/numa_maps" | awk '{print $2}')" \
    "interleave:$node0"
assert '--mem replaces an inherited policy' \
    "$(numactl --interleave="$node0" sh -c "exec cpm-pin --mem bind 0 -- grep ' stack' /proc/self/numa_maps" | awk '{print $2}')" \
    "bind:$node0"
assert '--nodes without --mem means local' \
    "$(policy_of cpm-pin --nodes "$node0" 0 --)" local
assert '--mem bind without --nodes binds to the nodes of CPULIST' \
    "$(policy_of cpm-pin --mem bind 0 --)" "bind:$node0"
assert 'the policy survives another exec' \
    "$(cpm-pin --mem interleave 0 -- sh -c "exec grep ' stack' /proc/self/numa_maps" | awk '{print $2}')" \
    "interleave:$node0"

# Pages touched under the policy are where it says.
cpm-pin --mem bind --nodes "$node0" 0 -- "$H/pin-touch" 4 >"$T_TMP/touch.out" &
tp=$!
at_exit "kill $tp 2>/dev/null"
i=0
while ! grep -q ready "$T_TMP/touch.out" 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.05; i=$((i + 1))
done
addr=$(awk '{print $2}' "$T_TMP/touch.out")
line=$(grep "^$addr " /proc/$tp/numa_maps)
# The mapping may have merged with a neighbour: at least the 1024 pages
# touched, all on the node, under the policy.
placed=$(echo "$line" | awk -v n="N$node0" '{
	for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == n) here += kv[2]
		else if (kv[1] ~ /^N[0-9]+$/) away += kv[2]
	}
	print $2, (here >= 1024 ? "all" : "few"), away + 0 }')
assert 'the touched pages are bound where asked' "$placed" "bind:$node0 all 0"
assert 'the pinned command reports its CPUs in /proc/PID/status' \
    "$(grep '^Cpus_allowed_list' /proc/$tp/status | cut -f2)" 0
kill $tp 2>/dev/null

# ---- --dry-run ----
check '--dry-run prints the plan' 0 "cpus: 0
mempolicy: bind $node0
exec: touch $T_TMP/ran" cpm-pin --dry-run --mem bind 0 -- touch "$T_TMP/ran"
assert '--dry-run runs nothing' "$(ls "$T_TMP/ran" 2>/dev/null)" ''
# Nodes this process may allocate on are checked against that list alone;
# through --sysroot / the topology is read: the plans are the same.
for m in bind interleave preferred; do
	check "--mem $m --nodes: the same plan with the topology read" 0 \
	    "$(cpm-pin --sysroot / --dry-run --mem $m --nodes "$node0" 0 -- true)" \
	    cpm-pin --dry-run --mem $m --nodes "$node0" 0 -- true
done
check '--dry-run with no memory option keeps the policy' 0 "cpus: 0-$last
mempolicy: inherited
exec: true" cpm-pin -n "0-$last" -- true

# ---- bad input: exit 2, and the command never ran ----
refused() {
	name=$1 re=$2
	shift 2
	rm -f "$T_TMP/ran"
	check_fail "$name" 2 "$re" "$@"
	if [ -e "$T_TMP/ran" ]; then not_ok "$name: nothing ran" "the command ran"; fi
}
refused 'an unknown CPU is refused and named' '^cpm-pin: CPU 99 does not exist \(possible: ' \
    cpm-pin 99 -- touch "$T_TMP/ran"
refused 'a list with one unknown CPU is refused' 'CPU 4096 does not exist' \
    cpm-pin "0,4096" -- touch "$T_TMP/ran"
refused 'an empty cpulist is refused' 'empty' cpm-pin '' -- touch "$T_TMP/ran"
T_IN='
'
refused 'an empty cpulist on stdin is refused' 'empty' cpm-pin - -- touch "$T_TMP/ran"
T_IN=
refused 'junk in the cpulist is refused' 'invalid cpulist' cpm-pin 0-x -- touch "$T_TMP/ran"
refused 'a reversed range is refused' 'invalid cpulist' cpm-pin 1-0 -- touch "$T_TMP/ran"
refused 'a missing -- is a usage error' "missing '--'" cpm-pin 0 touch "$T_TMP/ran"
refused 'a missing CPULIST is a usage error' 'missing CPULIST' cpm-pin -- touch "$T_TMP/ran"
refused 'a missing COMMAND is a usage error' 'missing COMMAND' cpm-pin 0 --
refused 'an unknown option is a usage error' "unrecognized option '--frob'" \
    cpm-pin --frob 0 -- touch "$T_TMP/ran"
refused 'an option without its argument is a usage error' "requires an argument" \
    cpm-pin 0 --nodes -- touch "$T_TMP/ran"
refused 'an ambiguous abbreviation names the candidates' \
    "option '--me' is ambiguous; possibilities: '--mem' '--mems'" \
    cpm-pin --me bind 0 -- touch "$T_TMP/ran"
check 'a unique abbreviation is the option' 0 "$(cpm-pin --dry-run 0 -- true)" \
    cpm-pin --dry 0 -- true
refused 'an unknown memory policy is refused' "invalid --mem 'fast'" \
    cpm-pin --mem fast 0 -- touch "$T_TMP/ran"
refused 'a node that does not exist is refused and named' 'node 63 does not exist' \
    cpm-pin --mem bind --nodes 63 0 -- touch "$T_TMP/ran"
refused 'an empty node list is refused' 'node list is empty' \
    cpm-pin --mem bind --nodes '' 0 -- touch "$T_TMP/ran"
refused '--migrate without -p is a usage error' '--migrate needs -p' \
    cpm-pin --migrate 0 -- touch "$T_TMP/ran"
refused '--mems without --cgroup is a usage error' '--mems needs --cgroup' \
    cpm-pin --mems 0 0 -- touch "$T_TMP/ran"
refused 'a sysroot of another machine needs --dry-run' 'only --dry-run' \
    cpm-pin --sysroot "$T_TMP" 0 -- touch "$T_TMP/ran"

offline=$(cat /sys/devices/system/cpu/offline 2>/dev/null)
if [ -n "$offline" ]; then
	off=$(echo "$offline" | sed 's/[-,].*//')
	refused 'an offline CPU is refused and named' "CPU $off is offline" \
	    cpm-pin "$off" -- touch "$T_TMP/ran"
else
	skip 'an offline CPU is refused and named' 'no offline CPU here (see t-pin-replay)'
fi

# ---- exec failures ----
check_fail 'a command that is not found exits 127' 127 "cannot run 'cpm-no-such-cmd'" \
    cpm-pin 0 -- cpm-no-such-cmd
check_fail 'a command that cannot be run exits 126' 126 "cannot run '/etc/passwd': Permission denied" \
    cpm-pin 0 -- /etc/passwd

# ---- a CPU outside this process's cgroup cpuset ----
cs=/sys/fs/cgroup/cpuset
if is_root && [ -f $cs/cpuset.cpus ] && [ "$ncpu" -ge 2 ]; then
	g=$cs/cpm-test-$$
	mkdir $g
	at_exit "rmdir $g 2>/dev/null"
	echo 0 >$g/cpuset.cpus
	cat $cs/cpuset.mems >$g/cpuset.mems
	rm -f "$T_TMP/ran"
	run sh -c 'echo $$ >"$1/cgroup.procs" && exec cpm-pin "$2" -- touch "$3"' sh \
	    $g "$last" "$T_TMP/ran"
	if [ "$rc" = 2 ] && [ ! -e "$T_TMP/ran" ] &&
	    printf '%s' "$err" | grep -q "CPU $last is not allowed in the cpuset of this process (allowed: 0)"; then
		ok 'a CPU outside the cgroup cpuset is refused, not dropped'
	else
		not_ok 'a CPU outside the cgroup cpuset is refused, not dropped' "$(show)"
	fi
	run sh -c 'echo $$ >"$1/cgroup.procs" && exec taskset -c "0,$2" grep ^Cpus_allowed_list /proc/self/status' sh \
	    $g "$last"
	assert 'taskset, by contrast, drops it silently' "$rc $(echo "$out" | cut -f2)" "0 0"
else
	skip 'a CPU outside the cgroup cpuset is refused, not dropped' 'needs root, a v1 cpuset and 2 CPUs'
fi
