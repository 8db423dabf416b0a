# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-pin -p PID: show and re-pin a running process, every thread of it,
# and move its pages.
. "$(dirname "$0")/lib.sh"

H=$CPM_TOP/tests/helpers
ncpu=$(getconf _NPROCESSORS_ONLN)
last=$((ncpu - 1))
node0=$(ls -d /sys/devices/system/cpu/cpu0/node* 2>/dev/null | head -1)
node0=${node0##*/node}
: "${node0:=0}"

# start_bg NAME CMD...: run CMD in the background, wait for "ready" on
# its stdout; sets $bg to its pid.
start_bg() {
	_f=$T_TMP/$1.out
	shift
	"$@" >"$_f" &
	bg=$!
	at_exit "kill $bg 2>/dev/null"
	_i=0
	while ! grep -q ready "$_f" 2>/dev/null && [ $_i -lt 200 ]; do
		sleep 0.05; _i=$((_i + 1))
	done
}
# The affinity taskset reports for a pid (the oracle), one CPU a line.
taskset_list() {
	taskset -pc "$1" | sed 's/.*: //' | tr ',' '\n' |
	    awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }'
}
# A cpulist, one CPU a line.
expand() { echo "$1" | tr ',' '\n' | awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }'; }
# Every distinct Cpus_allowed_list among the threads of a pid.
thread_lists() {
	for _s in /proc/$1/task/*/status; do
		sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$_s" 2>/dev/null
	done | sort -u | tr '\n' ' '
}

sleep 300 &
sp=$!
at_exit "kill $sp 2>/dev/null"

# ---- showing a process ----
run cpm-pin -p $sp
assert 'the first line is the affinity taskset reports' \
    "$rc $(expand "$(echo "$out" | head -1)")" "0 $(taskset_list $sp)"
assert 'the second line is the memory policy' \
    "$(echo "$out" | sed -n 2p)" 'mempolicy: default'
assert 'the third line is the allowed memory nodes' \
    "$(echo "$out" | sed -n 3p)" \
    "mems_allowed: $(sed -n 's/^Mems_allowed_list:[[:space:]]*//p' /proc/$sp/status)"

# --json: one document; the fields checked against taskset and /proc.
run cpm-pin -p $sp --json
got=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["pid"], d["cpus"], d["mempolicy"]["mode"], d["mems_allowed"],
      " ".join(str(t["tid"]) + ":" + t["cpus"] for t in d["threads"]))' 2>&1)
assert '--json shows the process, its policy and every thread' "$rc $got" \
    "0 $sp $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$sp/status) default $(sed -n 's/^Mems_allowed_list:[[:space:]]*//p' /proc/$sp/status) $sp:$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$sp/status)"
check_fail '--json does not go with a CPULIST' 2 '--json only goes with -p PID alone' \
    cpm-pin -p $sp 0 --json

check 'showing a process needs no topology, so --sysroot does not matter' 0 \
    "$(cpm-pin -p $sp)" cpm-pin --sysroot "$T_TMP" -p $sp

start_bg bound cpm-pin --mem bind --nodes "$node0" 0 -- "$H/pin-touch" 1
run cpm-pin -p $bg
assert 'a bound process shows its policy' "$(printf '%s' "$out" | sed -n 1,3p)" "0
mempolicy: bind $node0
mems_allowed: $(sed -n 's/^Mems_allowed_list:[[:space:]]*//p' /proc/$bg/status)"
# Its pages, from numa_maps: the 1 MiB it touched and its program, all on
# the bound node, and nothing to warn about.
kb=$(awk '{ for (i = 3; i <= NF; i++) if ($i ~ /^N[0-9]+=/) { split($i, kv, "="); n += kv[2] } }
    END { printf "%.1f", n * 4 / 1024 }' /proc/$bg/numa_maps)
assert 'a bound process shows where its pages are' "$(printf '%s' "$out" | sed -n '4,$p')" \
    "memory: node $node0 $kb MiB (100%)"
run cpm-pin -p $bg --json
got=$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["memory"]["nodes"][0]["node"], d["memory"]["nodes"][0]["percent"], d["findings"])' 2>&1)
assert 'a bound process: --json memory and findings' "$got" "$node0 100.0 []"
kill $bg
start_bg inter cpm-pin --mem interleave --nodes "$node0" 0 -- "$H/pin-touch" 1
run cpm-pin -p $bg
assert 'an interleaved process shows its policy' "$(echo "$out" | sed -n 2p)" \
    "mempolicy: interleave $node0"
kill $bg
start_bg pref cpm-pin --mem preferred --nodes "$node0" 0 -- "$H/pin-touch" 1
run cpm-pin -p $bg
assert 'a process with a preferred node shows it' "$(echo "$out" | sed -n 2p)" \
    "mempolicy: preferred $node0"
kill $bg
start_bg local cpm-pin --mem local 0 -- "$H/pin-touch" 1
run cpm-pin -p $bg
assert 'a process with local allocation shows it' "$(echo "$out" | sed -n 2p)" \
    'mempolicy: local'
kill $bg

# ---- re-pinning ----
check 'a single-threaded process is re-pinned' 0 '' cpm-pin -p $sp 0
assert 'taskset sees the new affinity' "$(taskset_list $sp)" 0
check 'and back to all CPUs' 0 '' cpm-pin -p $sp "0-$last"
assert 'taskset sees all CPUs again' "$(taskset_list $sp)" "$(expand "0-$last")"

# Chains of threads that each live 2 ms, start the next and exit: every
# one is read before it goes, so cpm-pin can tell when none is left.
start_bg spawner "$H/pin-spawner" 4 3 2000
sp2=$bg
for target in "$last" 0 "0-$last"; do
	run cpm-pin -v -p $sp2 "$target"
	bad=
	# Threads keep coming: look several times, each new one must have
	# inherited the new affinity.
	for i in 1 2 3 4 5; do
		l=$(thread_lists $sp2)
		[ "$l" = "$target " ] || bad="$bad[$l]"
		sleep 0.02
	done
	if [ "$rc" = 0 ] && [ -z "$bad" ]; then
		ok "every thread of a thread-spawning process ends on $target"
	else
		not_ok "every thread of a thread-spawning process ends on $target" "$(show)" "lists seen: $bad"
	fi
done
case $err in
*"threads on CPUs"*passes*|*"threads on CPUs"*pass\)*) ok '--verbose reports threads and passes' ;;
*) not_ok '--verbose reports threads and passes' "$(show)" ;; esac

# Threads that live only a yield mostly exit before they can be read, and
# one may have handed the old CPUs on: cpm-pin says done only when it
# knows, and otherwise exits 1 saying so.
start_bg spawner0 "$H/pin-spawner" 4 3 0
sp3=$bg
bad=
for target in "$last" 0 "$last" "0-$last"; do
	run cpm-pin -p $sp3 "$target"
	case $rc in
	0)	l=$(thread_lists $sp3)
		[ "$l" = "$target " ] || bad="$bad [exit 0 on $target with $l]" ;;
	1)	case $err in
		*"keeps starting threads that exit before they can be read: some may still run on other CPUs"*) ;;
		*) bad="$bad [exit 1: $err]" ;; esac ;;
	*)	bad="$bad [exit $rc: $err]" ;;
	esac
done
if [ -z "$bad" ]; then
	ok 'a process whose threads exit unread is never reported done wrongly'
else
	not_ok 'a process whose threads exit unread is never reported done wrongly' "$bad"
fi
kill $sp3

# A thread pinned elsewhere shows up in the report.
if [ "$ncpu" -ge 2 ]; then
	cpm-pin -p $sp2 "$last" >/dev/null 2>&1
	tid=$(grep -l '^pin-sleeper$' /proc/$sp2/task/*/comm 2>/dev/null | head -1)
	tid=${tid%/comm}
	tid=${tid##*/}
	taskset -pc 0 "$tid" >/dev/null 2>&1
	run cpm-pin -p $sp2
	case $out in
	*"thread $tid: 0"*) ok 'threads with another affinity are listed' ;;
	*) not_ok 'threads with another affinity are listed' "tid $tid" "$(show)" ;; esac
else
	skip 'threads with another affinity are listed' 'needs 2 CPUs'
fi
kill $sp2

# ---- bad input: exit 2, nothing changed ----
before=$(taskset_list $sp)
check_fail 'an unknown pid is refused' 2 'no process with pid 4000000' \
    cpm-pin -p 4000000 0
check_fail 'an unknown pid is refused when showing too' 2 'no process with pid 4000000' \
    cpm-pin -p 4000000
check_fail 'a pid that is not a number is refused' 2 "invalid pid 'abc'" \
    cpm-pin -p abc 0
check_fail 'pid 0 is refused' 2 "invalid pid '0'" cpm-pin -p 0 0
check_fail 'an unknown CPU is refused for a process' 2 'CPU 99 does not exist' \
    cpm-pin -p $sp 99
check_fail 'an empty cpulist is refused for a process' 2 'empty' \
    cpm-pin -p $sp ''
check_fail 'setting the memory policy of a running process is refused' 2 \
    'cannot set the memory policy of a running process.*--migrate' \
    cpm-pin -p $sp 0 --mem bind
check_fail '--nodes with -p needs --migrate' 2 '--nodes with -p needs --migrate' \
    cpm-pin -p $sp 0 --nodes "$node0"
check_fail '-- COMMAND does not go with -p' 2 "only goes with the run form" \
    cpm-pin -p $sp 0 -- true
check_fail '--migrate to a node that does not exist is refused' 2 'node 63 does not exist' \
    cpm-pin -p $sp --nodes 63 --migrate
assert 'none of that changed the affinity' "$(taskset_list $sp)" "$before"

check '--dry-run prints the plan for a process' 0 "pid: $sp
cpus: 0
migrate: $node0" cpm-pin -n -p $sp 0 --migrate
assert '--dry-run changed nothing' "$(taskset_list $sp)" "$before"

# ---- migrating pages ----
start_bg touch "$H/pin-touch" 8
tp=$bg
run cpm-pin -v -p $tp --nodes "$node0" --migrate
addr=$(awk '{print $2}' "$T_TMP/touch.out")
line=$(grep "^$addr " /proc/$tp/numa_maps)
placed=$(echo "$line" | awk -v n="N$node0" '{
	for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == n) here += kv[2]
		else if (kv[1] ~ /^N[0-9]+$/) away += kv[2]
	}
	print (here >= 2048 ? "all" : "few"), away + 0 }')
assert '--migrate leaves every page on the target nodes' "$rc $placed" "0 all 0"
check '--migrate with a CPULIST moves pages to its nodes and re-pins' 0 '' \
    cpm-pin -p $tp 0 --migrate
assert 'after that the process runs on CPU 0' "$(taskset_list $tp)" 0
kill $tp

# ---- a CPU outside the target's cgroup cpuset ----
cs=/sys/fs/cgroup/cpuset
if is_root && [ -f $cs/cpuset.cpus ] && [ "$ncpu" -ge 2 ]; then
	g=$cs/cpm-test-$$
	mkdir $g
	at_exit "rmdir $g 2>/dev/null"
	echo 0 >$g/cpuset.cpus
	cat $cs/cpuset.mems >$g/cpuset.mems
	sleep 300 &
	cp=$!
	at_exit "kill $cp 2>/dev/null"
	echo $cp >$g/cgroup.procs
	check_fail "a CPU outside the process's cpuset is refused and named" 2 \
	    "CPU $last is not allowed in the cpuset of process $cp \\(allowed: 0\\)" \
	    cpm-pin -p $cp "0-$last"
	assert 'and its affinity is unchanged' "$(taskset_list $cp)" 0
	mkdir -p $T_TMP/tree/cpuset
	check_fail 'a tree in CPM_CGROUP_ROOT does not hide the live cpuset' 2 \
	    "CPU $last is not allowed in the cpuset of process $cp" \
	    env CPM_CGROUP_ROOT=$T_TMP/tree cpm-pin -p $cp "0-$last"
	kill $cp
	wait $cp 2>/dev/null || :
else
	skip "a CPU outside the process's cpuset is refused and named" 'needs root, a v1 cpuset and 2 CPUs'
fi
