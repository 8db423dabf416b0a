#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc hints, Topology Manager policies and memory booking on a
# machine with 4 NUMA nodes of 8 CPUs and 8 GiB each.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"

use_m32
export CPM_STATE=$T_TMP/alloc.state
# Node CPUs: 0 = 0-3,16-19; 1 = 4-7,20-23; 2 = 8-11,24-27; 3 = 12-15,28-31.

ALLSETS="0 1 2 3 0-1 0,2 0,3 1-2 1,3 2-3 0-2 0-1,3 0,2-3 1-3 0-3"
hints_want() {
	# hints_want PREFERRED_BITS MIN_BITS: every set with at least MIN_BITS
	# nodes, "preferred" when it has PREFERRED_BITS nodes.
	for s in $ALLSETS; do
		n=$(count "$s")
		[ "$n" -lt "$2" ] && continue
		if [ "$n" = "$1" ]; then echo "$s preferred"; else echo "$s -"; fi
	done
}
check "hints lists every node set, narrowest preferred, in the kubelet's order" \
	0 "$(hints_want 1 1)" cpm-alloc hints 4
check "hints for more than a node prefers pairs" 0 "$(hints_want 2 2)" \
	cpm-alloc hints 12
check "hints for the whole machine" 0 "0-3 preferred" cpm-alloc hints 32
check "hints --json gives the count and each node set" 0 \
    '{"count":32,"hints":[{"nodes":"0-3","preferred":true}]}' cpm-alloc hints 32 --json
run cpm-alloc hints 12 --json
assert "hints --json holds the same sets as the text, in order" \
    "$rc:$(printf '%s' "$out" | grep -o '"nodes":"[^"]*","preferred":[a-z]*' |
	sed 's/"nodes":"\([^"]*\)","preferred":true/\1 preferred/; s/"nodes":"\([^"]*\)","preferred":false/\1 -/')" \
    "0:$(cpm-alloc hints 12)"
check_fail "hints --json that nothing can hold exits 3 and prints no JSON" 3 \
	"no set of NUMA nodes can hold 33 CPUs" cpm-alloc hints 33 --json
check_fail "hints for more than the machine cannot be satisfied" 3 \
	"no set of NUMA nodes can hold 33 CPUs" cpm-alloc hints 33
check_fail "hints for more memory than the machine cannot be satisfied" 3 \
	"no set of NUMA nodes can hold 32 CPUs and the memory asked for" \
	cpm-alloc hints 32 --mem 99999T

# Fill node 0 partly: it drops out of the sets that cannot hold 4.
cpm-alloc take n0 6 --from 0-3,16-17 >/dev/null
run cpm-alloc hints 4
case $out in
"1 preferred
2 preferred
3 preferred
0-1 -"*) ok "a node without room drops out of the hints" ;;
*) not_ok "a node without room drops out of the hints" "$(show)" ;;
esac

run cpm-alloc take one 4 --numa-policy single-numa-node
assert "single-numa-node keeps a take on one node" \
	"$rc $(nodes_of "$SPEC" "${out%
}")" "0 1"
cpm-alloc release one
# Leave 2 free CPUs on every node.
cpm-alloc take n1 6 --from 4-7,20-21 >/dev/null
cpm-alloc take n2 6 --from 8-11,24-25 >/dev/null
cpm-alloc take n3 6 --from 12-15,28-29 >/dev/null
cp "$CPM_STATE" "$T_TMP/s0"
check_fail "single-numa-node refuses what no node can hold, and says why" 3 \
	"topology affinity error: the single-numa-node policy refuses 4 CPUs: no single NUMA node can hold it \(free CPUs per node: 0:2 1:2 2:2 3:2\)" \
	cpm-alloc take x 4 --numa-policy single-numa-node
check_fail "restricted refuses a wider set than an idle machine needs" 3 \
	"topology affinity error: the restricted policy refuses 4 CPUs: the best NUMA node set 0-1 is wider" \
	cpm-alloc take x 4 --numa-policy restricted
cmp -s "$CPM_STATE" "$T_TMP/s0" && ok "refused takes change nothing" ||
	not_ok "refused takes change nothing"
run cpm-alloc take x 4 --numa-policy best-effort
assert "best-effort admits it on the best pair" "$rc $(nodes_of "$SPEC" "${out%
}")" "0 0-1"
run cpm-alloc take y 2 --numa-policy restricted
assert "restricted admits what fits one node" "$rc $(count "$out")" "0 2"
check_fail "no policy still fails for lack of CPUs" 3 "not enough" \
	cpm-alloc take z 5

# Memory: 8 GiB per node.
rm -f "$CPM_STATE"
run cpm-alloc take m1 2 --mem 6G --numa-policy single-numa-node
M1=${out%
}
N1=$(nodes_of "$SPEC" "$M1")
assert "a take with memory lands on one node" "$rc $(count "$N1")" "0 1"
check "show --nodes names the node" 0 "$N1" cpm-alloc show m1 --nodes
run cpm-alloc list --raw
case $out in
*"m1 exclusive 2 $M1 $N1 $N1:6G -"*) ok "list shows the memory booked" ;;
*) not_ok "list shows the memory booked" "$(show)" ;;
esac
run cpm-alloc hints 2 --mem 6G
case $out in
*"$N1 preferred"*) not_ok "hints --mem skips a node without free memory" "$(show)" ;;
"0 preferred"*|"1 preferred"*) ok "hints --mem skips a node without free memory" ;;
*) not_ok "hints --mem skips a node without free memory" "$(show)" ;;
esac
run cpm-alloc take m2 2 --mem 6G --numa-policy single-numa-node
N2=$(nodes_of "$SPEC" "${out%
}")
assert "the next take with memory goes to another node" \
	"$rc $(count "$N2") $( [ "$N1" != "$N2" ] && echo differs)" "0 1 differs"
check_fail "single-numa-node refuses memory no node has" 3 \
	"refuses 2 CPUs and 9G of memory: no NUMA node set has that much free memory|refuses 2 CPUs and 9G of memory: no single NUMA node" \
	cpm-alloc take m3 2 --mem 9G --numa-policy single-numa-node
run cpm-alloc take m4 2 --mem 12G --numa-policy best-effort
M4N=$(cpm-alloc list --json | sed 's/.*"name":"m4"//' | grep -o '"node":[0-9]*,"bytes":[0-9]*' | tr '\n' ' ')
case $rc in
0) ok "best-effort spreads memory over several nodes" ;;
*) not_ok "best-effort spreads memory over several nodes" "$(show)" ;;
esac
total=0
for b in $(printf '%s' "$M4N" | grep -o 'bytes":[0-9]*' | cut -d: -f2); do
	total=$((total + b))
done
assert "the booked bytes add up to the request" "$total" $((12 * 1024 * 1024 * 1024))
check_fail "memory that does not fit anywhere is refused" 3 "not enough free memory" \
	cpm-alloc take m5 1 --mem 30G
check "release frees the memory" 0 "0 preferred
1 preferred
2 preferred
3 preferred" sh -c 'cpm-alloc release m1 m2 m4 && cpm-alloc hints 1 --mem 8G | head -4'

# Placement options reach the kubelet's algorithm.
rm -f "$CPM_STATE"
run cpm-alloc take p 4 --prefer-nodes 2
assert "--prefer-nodes takes from those nodes" "$rc $(nodes_of "$SPEC" "${out%
}")" "0 2"
run cpm-alloc take s 2 --spread-cores
cores=$(printf '%s\n' "${out%
}" | expand | awk '{ print $1 % 16 }' | sort -u | wc -l | tr -d ' ')
assert "--spread-cores puts 2 CPUs on 2 cores" "$rc $cores" "0 2"
run cpm-alloc take f 4 --full-cores
cores=$(printf '%s\n' "${out%
}" | expand | awk '{ print $1 % 16 }' | sort -u | wc -l | tr -d ' ')
assert "--full-cores gives whole cores" "$rc $cores" "0 2"
check_fail "--full-cores with --spread-cores is refused like the kubelet refuses it" 2 \
	"full-pcpus-only and distribute-cpus-across-cores" cpm-alloc take g 2 --full-cores --spread-cores

# The kubelet's own example: 2 nodes x 6 CPUs, node 0 has 3 free, 4 wanted.
gen_spec 1 2 6 1 | gen_tree "$T_TMP/m12"
export CPM_SYSROOT=$T_TMP/m12 CPM_STATE=$T_TMP/m12.state
cpm-alloc take busy 3 --from 0-2 >/dev/null
check "hints follow the kubelet's worked example" 0 "1 preferred
0-1 -" cpm-alloc hints 4

# prefer-closest-numa-nodes: 4 nodes where 0-2 are closer than 0-1.
cat >"$T_TMP/far.spec" <<'SPEC'
node 0 distance=10,30,11,30
node 1 distance=30,10,30,11
node 2 distance=11,30,10,30
node 3 distance=30,11,30,10
cpu 0 core=0 socket=0 node=0
cpu 1 core=1 socket=0 node=0
cpu 2 core=2 socket=0 node=1
cpu 3 core=3 socket=0 node=1
cpu 4 core=4 socket=0 node=2
cpu 5 core=5 socket=0 node=2
cpu 6 core=6 socket=0 node=3
cpu 7 core=7 socket=0 node=3
SPEC
gen_tree "$T_TMP/far" <"$T_TMP/far.spec"
export CPM_SYSROOT=$T_TMP/far CPM_STATE=$T_TMP/far.state
check "without --closest-numa the lowest pair of nodes wins" 0 "0-3" \
	cpm-alloc take a 4 --numa-policy restricted --dry-run
check "--closest-numa picks the pair with the lower distance" 0 "0-1,4-5" \
	cpm-alloc take a 4 --numa-policy restricted --closest-numa --dry-run
run cpm-alloc take a 4 --numa-policy restricted --explain --dry-run
case $err in
*"cpm-alloc: CPU hints: 0-1 preferred, 0,2 preferred,"*"cpm-alloc: restricted policy: merged hint 0-1 preferred: admitted"*) ok "--explain shows the hints and the decision" ;;
*) not_ok "--explain shows the hints and the decision" "$(show)" ;;
esac
case $err in
*"cpm-alloc: chose 0-3 of 8 free CPUs (per node: 0:2 1:2 2:2 3:2), from NUMA nodes 0-1 first: the static policy takes whole NUMA nodes or sockets, then whole cores, then single threads, packed on the fewest"*) ok "--explain says why these CPUs" ;;
*) not_ok "--explain says why these CPUs" "$(show)" ;;
esac
run cpm-alloc take a 4 --explain --dry-run
assert "--explain without --numa-policy explains too" "$rc:$out:$err" "0:0-3
:cpm-alloc: CPU hints: 0-1 preferred, 0,2 preferred, 0,3 preferred, 1-2 preferred, 1,3 preferred, 2-3 preferred, 0-2 -, 0-1,3 -, 0,2-3 -, 1-3 -, 0-3 -
cpm-alloc: none policy: no NUMA alignment asked (--numa-policy): the hints are not used
cpm-alloc: chose 0-3 of 8 free CPUs (per node: 0:2 1:2 2:2 3:2): the static policy takes whole NUMA nodes or sockets, then whole cores, then single threads, packed on the fewest
"
check_fail "memory and CPUs that prefer different node sets are refused by restricted" 3 \
	"no NUMA node set is preferred for both the CPUs and the memory" \
	cpm-alloc take b 4 --mem 1G --numa-policy restricted

# A resize that the policy keeps on the allocation's node says so.
export CPM_SYSROOT=$T_TMP/far CPM_STATE=$T_TMP/grow.state
cpm-alloc take g 2 --numa-policy single-numa-node >/dev/null
check_fail "a resize that cannot grow within its node names the node and its free CPUs" 3 \
	"^cpm-alloc: cannot grow 'g' to 3 CPUs: the single-numa-node policy grows it only within NUMA node 0: 0 free there, 1 needed$" \
	cpm-alloc resize g 3
check "without a policy the same resize grows onto another node" 0 "0-2" \
	sh -c 'cpm-alloc take h 2 --state "$CPM_STATE.2" >/dev/null && cpm-alloc resize h 3 --state "$CPM_STATE.2"'
