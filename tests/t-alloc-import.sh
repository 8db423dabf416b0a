#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc import-kubelet: kubelet cpu_manager_state files.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"

gen_spec 2 2 4 2 | gen_tree "$T_TMP/m32"
export CPM_SYSROOT=$T_TMP/m32
export CPM_STATE=$T_TMP/alloc.state
K=$T_TMP/cpu_manager_state

# kubelet_sum JSON-ENTRIES-RENDERING...: the kubelet's checksum, computed
# here from the go-spew rendering written out by hand.
kubelet_sum() {
	python3 -c '
import sys
h = 0x811c9dc5
for b in sys.argv[1].encode():
    h ^= b
    h = (h * 0x01000193) & 0xffffffff
print(h)' "$1"
}

# A real file (kubernetes issue #103910): verified, nothing to import.
printf '%s\n' '{"policyName":"static","defaultCpuSet":"0-31","checksum":3540042759}' >"$K"
check "a real kubelet checkpoint verifies and imports nothing" 0 "" \
	cpm-alloc import-kubelet "$K"

sum=$(kubelet_sum '(*state.CPUManagerCheckpoint){PolicyName:(string)static DefaultCPUSet:(string)0,2-9,12-31 Entries:(map[string]map[string]string)map[6a4e-pod:map[app:1,11 init:10]] Checksum:(checksum.Checksum)0}')
printf '{"policyName":"static","defaultCpuSet":"0,2-9,12-31","entries":{"6a4e-pod":{"init":"10","app":"1,11"}},"checksum":%s}' "$sum" >"$K"
check "v2 entries become allocations named POD/CONTAINER" 0 "6a4e-pod/app 1,11
6a4e-pod/init 10" cpm-alloc import-kubelet "$K"
check "imported CPUs leave the shared pool" 0 "0,2-9,12-31" cpm-alloc shared
check "an imported allocation shows its CPUs" 0 "1,11" cpm-alloc show 6a4e-pod/app
cp "$CPM_STATE" "$T_TMP/s0"
check "importing the same file again changes nothing" 0 "" cpm-alloc import-kubelet "$K"
cmp -s "$CPM_STATE" "$T_TMP/s0" && ok "a repeated import leaves the state alone" ||
	not_ok "a repeated import leaves the state alone"

# Bad files: exit 2, state untouched.
bad() {
	_name=$1 _re=$2 _json=$3
	printf '%s' "$_json" >"$K"
	run cpm-alloc import-kubelet "$K"
	if [ "$rc" = 2 ] && printf '%s' "$err" | grep -Eq "$_re" &&
	    cmp -s "$CPM_STATE" "$T_TMP/s0"; then
		ok "$_name"
	else
		not_ok "$_name" "$(show)"
	fi
}
bad "a wrong checksum is refused" "checkpoint is corrupted \(stored checksum 12345, computed" \
	'{"policyName":"static","defaultCpuSet":"0-31","checksum":12345}'
bad "a none-policy checkpoint holds nothing to import" "'none' policy" \
	'{"policyName":"none","defaultCpuSet":"","checksum":0}'
bad "malformed JSON is refused" "not a kubelet CPU manager checkpoint: expected" \
	'{"policyName":"static","defaultCpuSet":"0-31",'
bad "trailing garbage is refused" "trailing data" \
	'{"policyName":"static","defaultCpuSet":"0-31","checksum":0} x'
bad "a checksum that is no 32-bit number is refused" "32-bit" \
	'{"policyName":"static","defaultCpuSet":"0-31","checksum":4294967296}'
bad "a bad cpulist is refused" "bad cpuset of 'p/c'" \
	'{"policyName":"static","defaultCpuSet":"0","entries":{"p":{"c":"5-3"}},"checksum":0}'
bad "an entry overlapping the default set is refused as the kubelet does" \
	"entry 'p/c' cpuset \"3-4\" overlaps with default cpuset \"0-4\"" \
	'{"policyName":"static","defaultCpuSet":"0-4","entries":{"p":{"c":"3-4"}},"checksum":0}'
bad "CPUs the machine lacks are refused" "uses CPUs 40 , which are not online|uses CPUs 40, which are not online" \
	'{"policyName":"static","defaultCpuSet":"0-3","entries":{"p":{"c":"40"}},"checksum":0}'
bad "a CPU in neither the default set nor an entry is refused as the kubelet does" \
	'current set of available CPUs "0-31" doesn.t match with CPUs in state "0-30"' \
	'{"policyName":"static","defaultCpuSet":"0-30","checksum":0}'
bad "a dual checkpoint without its data is refused" \
	"could not load v4 checkpoint: failed to deserialize cpu manager checkpoint data: unexpected end of JSON input" \
	'{"policyName":"static","defaultCpuSet":"0-31","checksum":0,"dataChecksum":5}'
bad "an invalid name is refused" "not a valid name" \
	'{"policyName":"static","defaultCpuSet":"0","entries":{"p q":{"c":"5"}},"checksum":0}'
bad "a file without policyName is refused as the kubelet refuses it" \
	'differs from state checkpoint policy ""' '{"defaultCpuSet":"0"}'

# v1 (flat container ids), checksum 0 means unchecked.
printf '%s' '{"policyName":"static","defaultCpuSet":"0,6-31","entries":{"cdc2c5cc":"1-5"},"checksum":0}' >"$K"
run cpm-alloc import-kubelet "$K"
case $rc:$out in
"3:") ok "a v1 entry clashing with existing allocations is refused" ;;
*) not_ok "a v1 entry clashing with existing allocations is refused" "$(show)" ;;
esac
cpm-alloc init --force >/dev/null
check "v1 entries are imported under their container id" 0 "cdc2c5cc 1-5" \
	cpm-alloc import-kubelet "$K"
printf '%s' '{"policyName":"static","defaultCpuSet":"0-30","entries":{"x":{"c":"31"}},"checksum":99}' >"$K"
check "--no-verify imports despite the checksum" 0 "x/c 31" \
	cpm-alloc import-kubelet "$K" --no-verify
printf '%s' '{"policyName":"static","defaultCpuSet":"0-29,31","podEntries":{},"entries":{"y":{"c":"30"}},"unknown":[1,{"a":2}],"checksum":7}' >"$K"
check_fail "a v3 checkpoint's checksum is verified" 2 "checkpoint is corrupted" \
    cpm-alloc import-kubelet "$K"
sum=$(kubelet_sum '(*state.CPUManagerCheckpointV3){PolicyName:(string)static DefaultCPUSet:(string)0-29,31 Entries:(map[string]map[string]string)map[y:map[c:30]] PodEntries:(state.PodCPUAssignments)map[] Checksum:(checksum.Checksum)0}')
printf '{"policyName":"static","defaultCpuSet":"0-29,31","podEntries":{},"entries":{"y":{"c":"30"}},"unknown":[1,{"a":2}],"checksum":%s}' "$sum" >"$K"
check "v3 verifies; fields no kubelet knows are skipped" 0 "y/c 30" cpm-alloc import-kubelet "$K"

# The kubelet's own checkpoint test entries (tests/kubelet/checkpoints):
# each on a machine whose online CPUs are the case's.
CK=$CPM_TOP/tests/kubelet/checkpoints
tab=$(printf '\t')
grep -v '^#' "$CK/expect.tsv" | while IFS=$tab read -r name online rc_want want; do
	tree=$T_TMP/online-$online
	if [ ! -d "$tree" ]; then
		{
			echo "node 0 mem_kb=8388608 free_kb=4194304"
			# Only the case's CPUs exist (CPU 0 cannot be offline).
			for c in $(CPM_SYSROOT=$T_TMP/m32 cpm-topo cpus "$online" |
			    tr ',' '\n' | awk -F- '{ for (i = $1; i <= ($2 == "" ? $1 : $2); i++) print i }'); do
				echo "cpu $c core=$c socket=0 node=0"
			done
		} >"$T_TMP/online.spec"
		python3 "$CPM_TOP/tests/gen-sysfs" "$T_TMP/online.spec" "$tree" ||
		    { not_ok "gen-sysfs for $online"; continue; }
	fi
	rm -f "$T_TMP/ck.state"
	if [ "$rc_want" = 0 ]; then
		check "kubelet test \"$name\": imported" 0 \
		    "$(printf '%s' "$want" | sed 's/; /\n/g')" \
		    env CPM_SYSROOT="$tree" CPM_STATE="$T_TMP/ck.state" \
		    cpm-alloc import-kubelet "$CK/$name.json"
	else
		check_fail "kubelet test \"$name\": refused" "$rc_want" "$want" \
		    env CPM_SYSROOT="$tree" CPM_STATE="$T_TMP/ck.state" \
		    cpm-alloc import-kubelet "$CK/$name.json"
		[ -e "$T_TMP/ck.state" ] &&
		    not_ok "kubelet test \"$name\": nothing imported" "a state was written"
	fi
done

# The dual format: data wins over the fields beside it, which an older
# kubelet would read; keys match in any case.
data='{"policyName":"static","defaultCPUSet":"0-29","entries":{"p":{"c":"30-31"}}}'
dsum=$(kubelet_sum "(string)$data")
jdata=$(printf '%s' "$data" | sed 's/"/\\"/g')
printf '{"POLICYNAME":"static","defaultCpuSet":"0-31","checksum":0,"Data":"%s","dataChecksum":%s}' "$jdata" "$dsum" >"$K"
check "the dual format's data wins over the older fields" 0 "p/c 30-31" \
    env CPM_STATE="$T_TMP/dual.state" cpm-alloc import-kubelet "$K"

# memory_manager_state beside cpu_manager_state: the kubelet's own
# checkpoint test entries (tests/kubelet/memory-checkpoints), each beside
# a CPU checkpoint that gives pod/container1 CPU 1.
MK=$CPM_TOP/tests/kubelet/memory-checkpoints
printf '%s\n' 'node 0 mem_kb=8388608 free_kb=4194304' \
    'cpu 0 core=0 socket=0 node=0' 'cpu 1 core=1 socket=0 node=0' |
    python3 "$CPM_TOP/tests/gen-sysfs" - "$T_TMP/mem2" || not_ok "gen-sysfs mem2"
grep -v '^#' "$MK/expect.tsv" | while IFS=$tab read -r name rc_want want; do
	d=$T_TMP/mm
	rm -rf "$d" "$T_TMP/mm.state"
	mkdir "$d"
	printf '%s' '{"policyName":"static","defaultCpuSet":"0","entries":{"pod":{"container1":"1"}},"checksum":0}' \
	    >"$d/cpu_manager_state"
	cp "$MK/$name.json" "$d/memory_manager_state"
	if [ "$rc_want" = 0 ]; then
		check "kubelet memory test \"$name\": imported" 0 "pod/container1 1" \
		    env CPM_SYSROOT="$T_TMP/mem2" CPM_STATE="$T_TMP/mm.state" \
		    cpm-alloc import-kubelet "$d/cpu_manager_state"
		check "kubelet memory test \"$name\": its memory booked" 0 "$want" \
		    env CPM_SYSROOT="$T_TMP/mem2" CPM_STATE="$T_TMP/mm.state" \
		    cpm-alloc list -o memory --noheadings
	else
		check_fail "kubelet memory test \"$name\": refused" "$rc_want" "$want" \
		    env CPM_SYSROOT="$T_TMP/mem2" CPM_STATE="$T_TMP/mm.state" \
		    cpm-alloc import-kubelet "$d/cpu_manager_state"
		[ -e "$T_TMP/mm.state" ] &&
		    not_ok "kubelet memory test \"$name\": nothing imported" "a state was written"
	fi
done
