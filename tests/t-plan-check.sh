#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-topo check --plan: Kerf's example plan (tests/plans/kerf.plan) on
# the machine it was written for (tests/plans/kerf.machine, made with
# gen-sysfs): clean as written, and each of Kerf's findings reproduced by
# changing one line.  Then plans that are malformed, with their line.
. "$(dirname "$0")/lib.sh"

PLANS=$CPM_TOP/tests/plans
python3 "$CPM_TOP/tests/gen-sysfs" "$PLANS/kerf.machine" "$T_TMP/kerf" ||
    { not_ok "generate Kerf's machine"; exit 0; }
export CPM_SYSROOT=$T_TMP/kerf

check "Kerf's machine: node 0 holds CPUs 0-19" 0 "0-19" cpm-topo cpus node:0
check "Kerf's plan is clean as written" 0 "" \
    cpm-topo check --plan "$PLANS/kerf.plan" --reserved 0-3
T_IN=$(cat "$PLANS/kerf.plan")
check "the plan may come on standard input" 0 "" \
    cpm-topo check --plan - --reserved 0-3
T_IN=

# kerf_change NAME SED-EXPR EXPECTED: the plan with one line changed by
# SED-EXPR (which must change exactly one line) gives exactly EXPECTED
# and exit 3.
kerf_change() {
	sed "$2" "$PLANS/kerf.plan" >"$T_TMP/p"
	if [ "$(diff "$PLANS/kerf.plan" "$T_TMP/p" | grep -c '^>')" != 1 ]; then
		not_ok "$1" "the change '$2' does not change one line"
		return
	fi
	check "$1" 3 "$3" cpm-topo check --plan "$T_TMP/p" --reserved 0-3
}
kerf_change "a node that does not exist" \
    's/^\(database .*\) nodes=1 /\1 nodes=3 /' \
    "error: database: NUMA node 3 does not exist"
kerf_change "CPUs of another instance crowd a node" \
    's/^\(web-server .*\)cpus=4-11 /\1cpus=4-13 /;s/^\(web-server .*\) nodes=0 /\1 nodes=0 /' \
    "error: compute: CPUs 12-13 are also web-server's
error: compute: NUMA node 0 is crowded: web-server and compute ask for 18 of its CPUs, it has 16 outside the reserved ones
error: compute: the instances ask for 30 CPUs, the machine has 28 outside the reserved CPUs 0-3"
kerf_change "CPUs outside the instance's nodes" \
    's/^\(web-server .*\) nodes=0 /\1 nodes=1 /' \
    "error: web-server: CPUs 4-11 are outside NUMA node 1
error: web-server: local memory on NUMA node 1, where none of its CPUs are: the memory is remote"
kerf_change "compact across nodes" \
    's/affinity=spread /affinity=compact/' \
    "warning: compute: compact affinity but CPUs 12-19,28-31 span NUMA nodes 0-1"
kerf_change "spread on one node" \
    's/^compute    cpus=12-19,28-31 /compute    cpus=12-19       /' \
    "warning: compute: spread affinity but CPUs 12-19 are all on node 0"
kerf_change "local affinity across nodes" \
    's/^compute \(.*\)affinity=spread /compute \1affinity=local  /' \
    "error: compute: local affinity but CPUs 12-19,28-31 span NUMA nodes 0-1"
kerf_change "local memory on a remote node" \
    's/^\(database .*\) nodes=1 /\1 nodes=0-1 /' \
    "error: database: local memory on NUMA node 0, where none of its CPUs are: the memory is remote"
kerf_change "interleaving over one node" \
    's/^\(compute .*\)nodes=0-1/\1nodes=0  /;s/cpus=12-19,28-31/cpus=12-19      /' \
    "warning: compute: spread affinity but CPUs 12-19 are all on node 0
warning: compute: interleave memory policy over one NUMA node (0)"
kerf_change "instances that overlap" \
    's/^database   cpus=20-27 /database   cpus=24-31 /' \
    "error: compute: CPUs 28-31 are also database's"
kerf_change "a node whose instances ask for more CPUs than it has" \
    's/^database   cpus=20-27 /database   cpus=12    /' \
    "error: compute: NUMA node 1 is crowded: database and compute ask for 16 of its CPUs, it has 12 outside the reserved ones
error: compute: the instances ask for 32 CPUs, the machine has 28 outside the reserved CPUs 0-3"
kerf_change "a node whose instances ask for more memory than it has" \
    's/mem=32G/mem=60G/' \
    "error: compute: NUMA node 1 is crowded: database and compute ask for 68 GiB of its memory, it has 64 GiB"
kerf_change "reserved CPUs used" \
    's/^web-server cpus=4-11 /web-server cpus=2-11 /' \
    "error: web-server: CPUs 2-3 are reserved for the host"
kerf_change "CPUs that do not exist" \
    's/^database   cpus=20-27 /database   cpus=24-35 /' \
    "error: database: CPUs 32-35 do not exist (the machine has 0-31)
error: compute: CPUs 28-31 are also database's"
kerf_change "a count that does not fit its nodes" \
    's/^database   cpus=20-27 /database   cpus=13    /' \
    "error: database: 13 CPUs asked for, but NUMA node 1 has only 12 outside the reserved ones
error: database: NUMA node 1 is crowded: database and compute ask for 17 of its CPUs, it has 12 outside the reserved ones
error: compute: the instances ask for 33 CPUs, the machine has 28 outside the reserved CPUs 0-3"
kerf_change "a count single-numa-node cannot fit in one node" \
    's/^database .*/database cpus=17 numa-policy=single-numa-node/' \
    "error: database: 17 CPUs do not fit in one NUMA node (the largest has 16 outside the reserved ones)
error: compute: the instances ask for 37 CPUs, the machine has 28 outside the reserved CPUs 0-3"
check "without --reserved, CPUs 0-3 are the plan's to use" 0 "" \
    cpm-topo check --plan "$PLANS/kerf.plan"

# JSON: the findings, each naming its instance, and the counts.
sed 's/^\(database .*\) nodes=1 /\1 nodes=3 /;s/affinity=spread /affinity=compact/' \
    "$PLANS/kerf.plan" >"$T_TMP/p"
check "--json: findings with level, instance and message" 3 \
    '{"findings":[{"level":"error","instance":"database","message":"NUMA node 3 does not exist"},{"level":"warning","instance":"compute","message":"compact affinity but CPUs 12-19,28-31 span NUMA nodes 0-1"}],"errors":1,"warnings":1}' \
    cpm-topo check --plan "$T_TMP/p" --reserved 0-3 --json
check "--json of a clean plan" 0 '{"findings":[],"errors":0,"warnings":0}' \
    cpm-topo check --plan "$PLANS/kerf.plan" --reserved 0-3 --json

# Malformed plans: exit 2, the line, the column and the reason, nothing
# else.  Read from a file, the message quotes none of the plan's text
# (the file may be one its reader could not read); on standard input,
# the caller's own text, it names the word at fault as well.
# bad_plan NAME TEXT FILE-MESSAGE [STDIN-MESSAGE]
bad_plan() {
	printf '%b' "$2" >"$T_TMP/bad"
	check_fail "malformed: $1" 2 "$3" cpm-topo check --plan "$T_TMP/bad"
	[ $# -ge 4 ] || return 0
	T_IN=$(printf '%b' "$2")
	check_fail "malformed, on standard input: $1" 2 "$4" \
	    cpm-topo check --plan -
	T_IN=
}
bad_plan "an unknown key" 'a cpus=2\nb cpus=2 color=red\n' \
    "^cpm-topo: line 2, column 10: unknown key \(cpus, nodes, affinity, numa-policy, mem, mem-policy, mode, devices\)$" \
    "^cpm-topo: line 2, column 10: unknown key 'color' \(cpus, nodes, affinity, numa-policy, mem, mem-policy, mode, devices\)$"
bad_plan "a key given twice" 'a cpus=2 cpus=3\n' "^cpm-topo: line 1, column 10: cpus= given twice$"
bad_plan "no cpus=" '# web\n\n  web nodes=0\n' \
    "^cpm-topo: line 3, column 3: the instance has no cpus=" \
    "^cpm-topo: line 3, column 3: instance 'web' has no cpus="
bad_plan "a name given twice" 'a cpus=1\n  # x\n\ta cpus=2\n' \
    "^cpm-topo: line 3, column 2: the instance's name is given twice \(first on line 1\)$" \
    "^cpm-topo: line 3, column 2: instance 'a' is named twice \(first on line 1\)$"
bad_plan "a field that is not key=value" 'a cpus=1 compact\n' \
    "^cpm-topo: line 1, column 10: a word that is not key=value$" \
    "^cpm-topo: line 1, column 10: 'compact' is not key=value$"
bad_plan "a line without a name" 'cpus=4\n' \
    "^cpm-topo: line 1, column 1: the line begins with a key=value, not with the instance's name$" \
    "^cpm-topo: line 1, column 1: the line begins with 'cpus=4'"
bad_plan "an invalid name" 'we\$b cpus=4\n' "^cpm-topo: line 1, column 1: invalid name \(" \
    "^cpm-topo: line 1, column 1: invalid name 'we.*b' \("
bad_plan "a count of 0" 'a cpus=0\n' "^cpm-topo: line 1, column 8: invalid CPU count \(" \
    "^cpm-topo: line 1, column 8: invalid CPU count '0'"
bad_plan "a reversed cpulist" 'a cpus=8-4\n' \
    "^cpm-topo: line 1, column 8: invalid cpulist: range start above its end$" \
    "^cpm-topo: line 1, column 8: invalid cpulist '8-4'"
bad_plan "a bad nodelist" 'a cpus=2 nodes=x\n' "^cpm-topo: line 1, column 16: invalid nodelist" \
    "^cpm-topo: line 1, column 16: invalid nodelist 'x'"
bad_plan "an unknown affinity" 'a cpus=2 affinity=tight\n' \
    "^cpm-topo: line 1, column 19: invalid affinity \(compact, spread or local\)$" \
    "^cpm-topo: line 1, column 19: invalid affinity 'tight' \(compact, spread or local\)$"
bad_plan "an unknown numa-policy" 'a cpus=2 numa-policy=strict\n' \
    "^cpm-topo: line 1, column 22: invalid numa-policy \(" \
    "^cpm-topo: line 1, column 22: invalid numa-policy 'strict'"
bad_plan "a bad memory size" 'a cpus=2 mem=lots\n' "^cpm-topo: line 1, column 14: invalid memory size \(" \
    "^cpm-topo: line 1, column 14: invalid memory size 'lots'"
bad_plan "an unknown mem-policy" 'a cpus=2 mem-policy=near\n' \
    "^cpm-topo: line 1, column 21: invalid mem-policy \(" \
    "^cpm-topo: line 1, column 21: invalid mem-policy 'near'"
bad_plan "an unknown mode" 'a cpus=2 mode=private\n' "^cpm-topo: line 1, column 15: invalid mode \(" \
    "^cpm-topo: line 1, column 15: invalid mode 'private'"
bad_plan "an empty device name" 'a cpus=2 devices=nvme0,,eth0\n' \
    "^cpm-topo: line 1, column 18: invalid devices \(" \
    "^cpm-topo: line 1, column 18: invalid devices 'nvme0,,eth0'"
bad_plan "an empty value" 'a cpus=2 nodes=\n' "^cpm-topo: line 1, column 10: nodes= has no value$"
bad_plan "a NUL byte" 'a cpus=2\nb cpus=2\0\n' "^cpm-topo: line 2, column 9: a NUL byte$"

# A plan path is read as cpm reads its states.  The text of a file the
# reader could not read must not come out in a message: root checking
# a "plan" that is a secret of root's sees where the first fault is and
# nothing of what is there.
printf 'root:$6$SECRETHASH:19000:0:99999:7:::\n' >"$T_TMP/secret"
chmod 600 "$T_TMP/secret"
run cpm-topo check --plan "$T_TMP/secret"
case $err in
*SECRETHASH* | *root:*) not_ok "a file's text is not quoted in a parse error" "$(show)" ;;
*"line 1, column 1: invalid name"*) assert "a file's text is not quoted in a parse error" "$rc" 2 ;;
*) not_ok "a file's text is not quoted in a parse error" "$(show)" ;;
esac
run cpm-alloc --state "$T_TMP/st" apply --dry-run "$T_TMP/secret"
case $err in
*SECRETHASH* | *root:*) not_ok "apply --dry-run does not quote a plan file either" "$(show)" ;;
*) assert "apply --dry-run does not quote a plan file either" "$rc" 2 ;;
esac
# A link in a directory others may write, owned by another user, is one
# they could have planted: not followed.  Ours, or root's, is followed.
if id nobody >/dev/null 2>&1; then
	mkdir -p "$T_TMP/shared"
	chmod 1777 "$T_TMP/shared"
	cp "$PLANS/kerf.plan" "$T_TMP/good.plan"
	ln -s "$T_TMP/secret" "$T_TMP/shared/plan"
	chown -h nobody "$T_TMP/shared/plan"
	check_fail "a link another user planted is not followed" 2 \
	    "^cpm-topo: cannot read plan '$T_TMP/shared/plan': a symbolic link another user could have planted$" \
	    cpm-topo check --plan "$T_TMP/shared/plan"
	check_fail "... by apply --dry-run neither" 2 \
	    "a symbolic link another user could have planted" \
	    cpm-alloc --state "$T_TMP/st" apply --dry-run "$T_TMP/shared/plan"
	ln -s "$T_TMP/good.plan" "$T_TMP/shared/mine"
	check "a link of our own is followed" 0 "" \
	    cpm-topo check --plan "$T_TMP/shared/mine" --reserved 0-3
	mkdir -p "$T_TMP/theirs"
	ln -s "$T_TMP" "$T_TMP/shared/dir"
	chown -h nobody "$T_TMP/shared/dir"
	check_fail "a planted link on the way is not followed" 2 \
	    "a symbolic link on the way that another user could have planted" \
	    cpm-topo check --plan "$T_TMP/shared/dir/good.plan"
	# A plan apply acts on must be ours (or root's), as a state is;
	# another user's may be checked, not applied.
	cp "$PLANS/kerf.plan" "$T_TMP/shared/their.plan"
	chown nobody "$T_TMP/shared/their.plan"
	check "another user's plan may be checked" 0 "" \
	    cpm-topo check --plan "$T_TMP/shared/their.plan" --reserved 0-3
	check_fail "... not applied" 2 \
	    "^cpm-alloc: plan '$T_TMP/shared/their.plan' is not trusted: it is owned by another user" \
	    cpm-alloc --state "$T_TMP/st" apply --dry-run "$T_TMP/shared/their.plan"
	chown root "$T_TMP/shared/their.plan"
	chmod 666 "$T_TMP/shared/their.plan"
	check_fail "... nor one other users may write" 2 \
	    "is not trusted: other users may write it" \
	    cpm-alloc --state "$T_TMP/st" apply --dry-run "$T_TMP/shared/their.plan"
	[ -e "$T_TMP/st" ] && not_ok "a refused plan creates no state" || ok "a refused plan creates no state"
else
	skip "links and owners" "no user 'nobody'"
fi
mkfifo "$T_TMP/fifo"
check_fail "a FIFO is not read (nor waited on)" 2 "^cpm-topo: cannot read plan '$T_TMP/fifo': " \
    cpm-topo check --plan "$T_TMP/fifo"
check_fail "a plan that cannot be read" 2 "^cpm-topo: cannot read plan '$T_TMP/none'" \
    cpm-topo check --plan "$T_TMP/none"
check_fail "--plan takes no cpulist" 2 "check --plan takes no cpulist" \
    cpm-topo check 0-3 --plan "$PLANS/kerf.plan"
check_fail "--policy checks a cpulist, not a plan" 2 "not a plan" \
    cpm-topo check --policy spread --plan "$PLANS/kerf.plan"
check_fail "--reserved goes with --plan" 2 "^cpm-topo: --reserved goes with --plan$" \
    cpm-topo check 4-7 --reserved 0-3
check_fail "--reserved CPUs must exist" 2 "^cpm-topo: invalid --reserved CPU list" \
    cpm-topo check --plan "$PLANS/kerf.plan" --reserved 0-40
printf 'web cpus=2 mode=share # a comment\n# only a comment\n\t\n' >"$T_TMP/dev"
check "comments and blank lines are nothing" 0 "" \
    cpm-topo check --plan "$T_TMP/dev"

# The manuals and the README show this very plan, and cpm(7) each
# one-line change with the finding it gives.
norm() { sed 's/#.*//; s/[[:space:]][[:space:]]*/ /g; s/^ //; s/ $//' | grep -v '^$'; }
want=$(norm <"$PLANS/kerf.plan")
for doc in man/cpm.7 man/cpm-alloc.1 README; do
	got=$(grep -E '^ *(web-server|database|compute) +cpus=[^ ]+ +nodes=' "$CPM_TOP/$doc" | norm)
	assert "$doc shows Kerf's plan as tests/plans/kerf.plan has it" "$got" "$want"
done
sed -n '/^database nodes=3 /,/^\.Ed/p' "$CPM_TOP/man/cpm.7" | sed '$d' |
    awk '/^[a-z]/ { if (l != "") print l; l = $0; next } { sub(/^ +/, ""); l = l " " $0 } END { print l }' >"$T_TMP/doc"
bad=
while read -r name change finding; do
	key=${change%%=*}
	sed "s/^\\($name .*\\)$key=[^ ]*/\\1$change/; s/^\\($name *\\)$key=[^ ]*/\\1$change/" \
	    "$PLANS/kerf.plan" >"$T_TMP/d"
	# cpus= comes first on every line: a change of it keeps its column.
	got=$(cpm-topo check --plan "$T_TMP/d" --reserved 0-3 | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$finding" ] || bad="$bad
$name $change: got '$got', doc '$finding'"
done <"$T_TMP/doc"
if [ -z "$bad" ] && [ -s "$T_TMP/doc" ]; then
	ok "cpm(7): each documented one-line change gives the finding shown"
else
	not_ok "cpm(7): each documented one-line change gives the finding shown" "$bad"
fi

# The messages of a machine with an offline CPU, a node of memory
# without CPUs and an isolated CPU (tests/topologies/1s-offline-cxl.spec:
# CPU 5 of node 0 offline, node 1 CPU-less, CPU 7 isolated).
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/1s-offline-cxl.spec" \
    "$T_TMP/cxl" >/dev/null || { not_ok "generate the CXL machine"; exit 0; }
printf 'a cpus=4-5 nodes=0\n' >"$T_TMP/off"
check "an offline CPU of the instance's node is offline, not outside it" 3 \
    "error: a: CPU 5 is offline" \
    cpm-topo --sysroot "$T_TMP/cxl" check --plan "$T_TMP/off"
printf 'b cpus=2 nodes=1\n' >"$T_TMP/cpuless"
check "a CPU-less node, nothing reserved: said once, without reserved CPUs" 3 \
    "error: b: 2 CPUs asked for, but NUMA node 1 has no CPUs" \
    cpm-topo --sysroot "$T_TMP/cxl" check --plan "$T_TMP/cpuless"
check "... and so with CPUs reserved" 3 \
    "error: b: 2 CPUs asked for, but NUMA node 1 has no CPUs" \
    cpm-topo --sysroot "$T_TMP/cxl" check --plan "$T_TMP/cpuless" --reserved 0
printf 'c cpus=6-7\n' >"$T_TMP/iso"
run cpm-topo --sysroot "$T_TMP/cxl" check 6-7
want=$(printf '%s\n' "$out" | sed -n 's/^warning: \(.*isolated.*\)/warning: c: \1/p')
check "isolated CPUs: the warning cpm-topo check gives, exit 3" 3 "$want" \
    cpm-topo --sysroot "$T_TMP/cxl" check --plan "$T_TMP/iso"
