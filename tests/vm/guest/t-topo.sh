# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-topo on a real kernel: every answer must match the machine QEMU was
# asked for, and the kernel's own files.
. /cpm/tests/vm/guest/common.sh
have cpm-topo || exit 0

check "cpus all lists the possible CPUs" 0 "$(exp_possible)" cpm-topo cpus all
check "cpus present lists the present CPUs" 0 "$(exp_present)" cpm-topo cpus present
check "cpus online lists the online CPUs" 0 "$(exp_online)" cpm-topo cpus online
check "cpus offline lists the offline and absent CPUs" 0 "$(exp_offline)" cpm-topo cpus offline
check "cpus all --count counts the possible CPUs" 0 "$T_MAXCPUS" cpm-topo cpus all --count

bad=
for c in $(list_expand "$(exp_online)"); do
	run cpm-topo cpus siblings:$c
	[ "$rc:$out" = "0:$(exp_siblings $c)
" ] || bad="$bad
siblings:$c: $(show), want $(exp_siblings $c)"
done
if [ -z "$bad" ]; then ok "cpus siblings:CPU gives the SMT siblings of every online CPU"
else not_ok "cpus siblings:CPU gives the SMT siblings of every online CPU" "$bad"; fi

n=0
while [ "$n" -lt "$T_NODES" ]; do
	check "cpus node:$n lists the CPUs of node $n" 0 "$(exp_node_cpus $n)" cpm-topo cpus node:$n
	n=$((n + 1))
done
s=0
while [ "$s" -lt "$SOCKETS" ]; do
	check "cpus socket:$s lists the CPUs of socket $s" 0 "$(exp_socket_cpus $s)" cpm-topo cpus socket:$s
	d=0
	while [ "$d" -lt "$DIES" ]; do
		i=$(die_id $s $d)
		check "cpus die:$s.$i lists the CPUs of die $i of socket $s" 0 \
		    "$(exp_die_cpus $s $d)" cpm-topo cpus die:$s.$i
		d=$((d + 1))
	done
	s=$((s + 1))
done
for i in $(exp_l3_ids); do
	check "cpus l3:$i lists the CPUs sharing L3 cache $i" 0 "$(exp_l3_cpus $i)" cpm-topo cpus l3:$i
done
k=0
while [ "$k" -lt "$THREADS" ]; do
	check "cpus thread:$k lists the thread $k of every core" 0 "$(exp_thread $k)" cpm-topo cpus thread:$k
	k=$((k + 1))
done
check "cpus node:0 --and thread:0 --not siblings:0 combines selectors" 0 \
    "$(cpus_where "cpu_online \$c && [ \$(cpu_node \$c) = 0 ] && [ \$((c % THREADS)) = 0 ] && [ \$c -ge $THREADS ]")" \
    cpm-topo cpus node:0 --and thread:0 --not siblings:0
check_fail "cpus refuses a CPU beyond the possible ones" 2 "$T_MAXCPUS" cpm-topo cpus "$T_MAXCPUS"

# nodes: the first CPU of each node with CPUs gives all those nodes.
pick= want=
n=0
while [ "$n" -lt "$T_CPU_NODES" ]; do
	f=$(exp_node_cpus $n | sed 's/[-,].*//')
	[ -n "$f" ] && { pick="$pick,$f"; want="$want $n"; }
	n=$((n + 1))
done
check "nodes names the node of each CPU" 0 "$(echo $want | list_fmt)" cpm-topo nodes "${pick#,}"
check "nodes of the CPUs of node 0 is node 0" 0 0 cpm-topo nodes "$(exp_node_cpus 0)"

# -e: one row per possible CPU, compared with the expectation and, column
# by column, with the kernel's own files.
run cpm-topo -e
printf '%s' "$out" >"$T_TMP/e"
assert "-e prints the header of the contract" "$(head -n 1 "$T_TMP/e" | tr -s ' ' | sed 's/^ //')" \
    "CPU NODE SOCKET DIE CORE L3 ONLINE"
assert "-e prints one row per possible CPU" "$(($(wc -l <"$T_TMP/e") - 1))" "$T_MAXCPUS"
bad= kbad=
for c in $(list_expand "$(exp_possible)"); do
	row=$(awk -v c=$c 'NR > 1 && $1 == c { print $2, $3, $4, $5, $6 }' "$T_TMP/e")
	if cpu_online $c; then
		want="$(cpu_node $c) $(cpu_socket $c) $(cpu_die_id $c) $(exp_siblings $c | sed 's/[-,].*//') $(cpu_l3 $c)"
		t=$SYS/cpu/cpu$c/topology
		node=$(ls -d $SYS/cpu/cpu$c/node* | sed 's/.*node//')
		kern="$node $(kfile $t/physical_package_id) $(kfile $t/die_id) $(kfile $t/thread_siblings_list | sed 's/[-,].*//') $(kfile $SYS/cpu/cpu$c/cache/index3/id)"
		[ "$row" = "$kern" ] || kbad="$kbad
cpu$c: NODE SOCKET DIE CORE L3 $row, kernel files say $kern"
	else
		# Nothing but perhaps the node is known about an offline CPU.
		want="- - - - -"
		row=$(echo "$row" | sed "s/^$(cpu_node $c) /- /")
	fi
	[ "$row" = "$want" ] || bad="$bad
cpu$c: NODE SOCKET DIE CORE L3 $row, want $want"
done
if [ -z "$bad" ]; then ok "-e rows match the machine asked for"
else not_ok "-e rows match the machine asked for" "$bad"; fi
if [ -z "$kbad" ]; then ok "-e rows agree with the kernel's topology and cache files"
else not_ok "-e rows agree with the kernel's topology and cache files" "$kbad"; fi
on=$(awk 'NR > 1 && $7 == "yes" { print $1 }' "$T_TMP/e" | list_fmt)
assert "-e marks exactly the online CPUs online" "$on" "$(exp_online)"

# check: a whole node is clean, two nodes are not under compact, half a
# core is a finding, and so is an offline CPU.
check "check accepts the CPUs of node 0 under compact" 0 "" cpm-topo check "$(exp_node_cpus 0)" --policy compact
if [ "$T_CPU_NODES" -gt 1 ]; then
	# Whole cores on two nodes where one node would hold them.
	two="$(exp_siblings $(exp_node_cpus 0 | sed 's/[-,].*//')),$(exp_siblings $(exp_node_cpus 1 | sed 's/[-,].*//'))"
	run cpm-topo check "$two" --policy compact
	if [ "$rc" = 3 ] && printf '%s' "$out" | grep '^\(warning\|error\): ' | grep -qi node; then
		ok "check finds whole cores on two nodes under compact"
	else not_ok "check finds whole cores on two nodes under compact" "$(show)"; fi
	run cpm-topo check "$(exp_node_cpus 0),$(exp_node_cpus 1)" --policy local
	if [ "$rc" = 3 ] && printf '%s' "$out" | grep -q '^\(warning\|error\): '; then
		ok "check finds two nodes under local"
	else not_ok "check finds two nodes under local" "$(show)"; fi
	check "check accepts two whole nodes under spread" 0 "" cpm-topo check "$(exp_node_cpus 0),$(exp_node_cpus 1)" --policy spread
	run cpm-topo check "$(exp_node_cpus 0)" --nodes 1
	[ "$rc" = 3 ] && ok "check finds CPUs outside --nodes" || not_ok "check finds CPUs outside --nodes" "$(show)"
fi
if [ "$THREADS" -gt 1 ]; then
	run cpm-topo check 0 --policy compact
	[ "$rc" = 3 ] && ok "check finds a half-used core" || not_ok "check finds a half-used core" "$(show)"
fi
for c in $(list_expand "$OFFLINE"); do
	run cpm-topo check $c
	[ "$rc" = 3 ] && ok "check finds offline CPU $c" || not_ok "check finds offline CPU $c" "$(show)"
done
run cpm-topo check 0 --nodes $T_NODES
[ "$rc" = 3 ] && ok "check finds a NUMA node that does not exist" || not_ok "check finds a NUMA node that does not exist" "$(show)"

# The other outputs at least run; the host checks the JSON.
run cpm-topo
[ "$rc" = 0 ] && [ -n "$out" ] && ok "the summary prints" || not_ok "the summary prints" "$(show)"
run cpm-topo --json
if [ "$rc" = 0 ]; then
	printf '%s' "$out" >/tmp/artifacts/topo.json
	ok "--json prints"
else not_ok "--json prints" "$(show)"; fi

# dump: the tree replays as this machine.
rm -rf /tmp/artifacts/dump
run cpm-topo dump /tmp/artifacts/dump
[ "$rc" = 0 ] && ok "dump writes a tree" || not_ok "dump writes a tree" "$(show)"
run cpm-topo --sysroot /tmp/artifacts/dump -e
assert "the dumped tree replays with the same -e table" "$rc $out" "0 $(cat "$T_TMP/e")
"
check "the dumped tree replays siblings:1" 0 "$(exp_siblings 1)" cpm-topo --sysroot /tmp/artifacts/dump cpus siblings:1
n=$((T_CPU_NODES - 1))
check "the dumped tree replays node:$n" 0 "$(exp_node_cpus $n)" cpm-topo --sysroot /tmp/artifacts/dump cpus node:$n

# allowed and the CPU limit come from the process's own cgroup v2 group
# and affinity.
last=$(exp_node_cpus $((T_CPU_NODES - 1)))
first=$(list_expand "$last" | awk '{ print $1 }')
cg_rm cpmvm-topo
at_exit "cg_rm cpmvm-topo"
# Under systemd the root enables only the controllers its units need.
echo "+cpu +cpuset" >$CG/cgroup.subtree_control
mkdir $CG/cpmvm-topo
echo "$last" >$CG/cpmvm-topo/cpuset.cpus
echo "150000 100000" >$CG/cpmvm-topo/cpu.max
in_group() { sh -c "echo \$\$ >$CG/cpmvm-topo/cgroup.procs && exec \"\$@\"" sh "$@"; }
check "cpus allowed is the cpuset of the process's cgroup" 0 "$last" in_group cpm-topo cpus allowed
check "cpus allowed also follows the affinity" 0 "$first" in_group taskset -c "$first" cpm-topo cpus allowed
run in_group cpm-topo --json
lim=$(printf '%s' "$out" | sed -n 's/.*"cpu_limit": *\([0-9.]*\)[,}].*/\1/p')
if [ "$rc" = 0 ] && awk -v l="$lim" 'BEGIN { exit !(l != "" && l == 1.5) }'; then
	ok "--json gives the cgroup's cpu.max as a CPU limit"
else not_ok "--json gives the cgroup's cpu.max as a CPU limit" "$(show)"; fi
