#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-pin --mem preferred-many and weighted-interleave: set with the
# system call whatever libnuma knows, read back, refused with exit 3 by a
# kernel that lacks the mode (emulated with a seccomp filter that answers
# EINVAL as such a kernel does); the kernel's interleave weights, checked
# and, asked explicitly, changed with a journal to undo.
. "$(dirname "$0")/lib.sh"

OLD=$CPM_TOP/tests/helpers/old-mempolicy
WI=/sys/kernel/mm/mempolicy/weighted_interleave

# numa_maps of the command itself shows the policy the kernel holds.
policy_of() {
	cpm-pin "$@" -- cat /proc/self/numa_maps 2>&1 | awk 'NR == 1 { print $2 }'
}

if grep -q '^Mems_allowed_list:' /proc/self/status &&
    [ -d /sys/devices/system/node/node0 ]; then
	assert "preferred-many on one node, in numa_maps" \
	    "$(policy_of --mem preferred-many --nodes 0 0)" "prefer"
	run cpm-pin --mem preferred-many --nodes 0 0 -- cat /proc/self/numa_maps
	case $out in
	*"prefer (many):0 "*) ok "preferred-many: the kernel holds MPOL_PREFERRED_MANY" ;;
	*) not_ok "preferred-many: the kernel holds MPOL_PREFERRED_MANY" "$(show)" ;;
	esac
	if [ -d "$WI" ]; then
		run cpm-pin --mem weighted-interleave 0 -- cat /proc/self/numa_maps
		case $out in
		*"weighted interleave:0 "*) ok "weighted-interleave: the kernel holds it" ;;
		*) not_ok "weighted-interleave: the kernel holds it" "$(show)" ;;
		esac
		w0=$(cat "$WI/node0")
		check "--weights as the kernel has them" 0 "" \
		    cpm-pin --mem weighted-interleave --weights "0:$w0" 0 -- true
		other=$((w0 % 200 + 3))
		check_fail "--weights the kernel does not have: exit 3" 3 \
		    "^cpm-pin: the kernel's interleave weights are 0:$w0, not 0:$other; they are system-wide" \
		    cpm-pin --mem weighted-interleave --weights "0:$other" 0 -- true
		assert "--weights: the kernel's weight is unchanged" "$(cat "$WI/node0")" "$w0"
	else
		skip "weighted-interleave on this kernel" "no $WI"
	fi
	# A kernel before 6.9 / 5.15, as set_mempolicy(2) answers there.
	check_fail "weighted-interleave on a kernel before 6.9: exit 3" 3 \
	    "^cpm-pin: this kernel \(Linux [^)]*\) has no weighted interleave \(MPOL_WEIGHTED_INTERLEAVE\); it needs Linux 6\.9 or later$" \
	    "$OLD" 5 cpm-pin --mem weighted-interleave 0 -- echo ran
	check_fail "preferred-many on a kernel before 5.15: exit 3" 3 \
	    "^cpm-pin: this kernel \(Linux [^)]*\) has no preferred-many \(MPOL_PREFERRED_MANY\); it needs Linux 5\.15 or later$" \
	    "$OLD" 4 cpm-pin --mem preferred-many --nodes 0 0 -- echo ran
	check "preferred-many allowed, weighted refused: preferred-many runs" 0 ran \
	    "$OLD" 5 cpm-pin --mem preferred-many --nodes 0 0 -- echo ran
	check "bind is not affected by the emulation" 0 ran \
	    "$OLD" 4 cpm-pin --mem bind 0 -- echo ran
else
	skip "memory policies on this machine" "no NUMA support"
fi

check_fail "--weights needs weighted-interleave" 2 \
    "^cpm-pin: --weights goes with --mem weighted-interleave" \
    cpm-pin --mem bind --weights 0:1 0 -- true
for bad in 0:0 0:256 x 0 0:1,0:2 :3 0:1,; do
	check_fail "--weights '$bad' is refused" 2 "^cpm-pin: (invalid weight|node 0 is given|no weights)" \
	    cpm-pin --mem weighted-interleave --weights "$bad" 0 -- true
done
check_fail "--mem: an unknown mode lists the new ones" 2 \
    "preferred-many or weighted-interleave" cpm-pin --mem weighted 0 -- true

# A replayed machine: nodes 0 1 2 with weights 5 5 2 (tests/topologies).
root=$T_TMP/hmat
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s3n-hmat.spec" "$root"
check "--dry-run: --weights gives the nodes" 0 \
"cpus: 0-1
mempolicy: weighted-interleave 0-2
exec: true" \
    cpm-pin --sysroot "$root" --dry-run --mem weighted-interleave --weights 0:5,1:5,2:2 0-1 -- true
check_fail "--dry-run: weights not in place: exit 3" 3 \
    "^cpm-pin: the kernel's interleave weights are 0:5,2:2, not 0:5,2:3" \
    cpm-pin --sysroot "$root" --dry-run --mem weighted-interleave --weights 0:5,2:3 0-1 -- true
check_fail "--nodes without a weight" 2 "^cpm-pin: --weights gives no weight to node 1 of --nodes" \
    cpm-pin --sysroot "$root" --dry-run --mem weighted-interleave --nodes 0-1 --weights 0:5 0 -- true
check_fail "--weights for a node the machine lacks" 2 "^cpm-pin: node 7 " \
    cpm-pin --sysroot "$root" --dry-run --mem weighted-interleave --weights 7:1 0 -- true

wi=$root/sys/kernel/mm/mempolicy/weighted_interleave
weights() { (cd "$wi" && printf '%s ' "$(cat node0)" "$(cat node1)" "$(cat node2)" "$(cat auto)"); }
export CPM_WEIGHT_JOURNAL="$T_TMP/weights.journal"
check "--set-weights writes the kernel's weights" 0 "" \
    cpm-pin --sysroot "$root" --set-weights 0:7,2:3
assert "--set-weights: the files hold them" "$(weights)" "7 5 3 false "
assert "--set-weights: the journal holds every old weight" "$(cat "$CPM_WEIGHT_JOURNAL")" \
"cpm-weight-journal 1
auto 0
node 0 5
node 1 5
node 2 2"
check "--set-weights again" 0 "" cpm-pin --sysroot "$root" --set-weights 1:9
assert "--set-weights again: the journal keeps the first values" \
    "$(sed -n 3p "$CPM_WEIGHT_JOURNAL")" "node 0 5"
check "--dry-run: now the weights are in place" 0 \
"cpus: 0-1
mempolicy: weighted-interleave 0,2
exec: true" \
    cpm-pin --sysroot "$root" --dry-run --mem weighted-interleave --weights 0:7,2:3 0-1 -- true
check "--restore-weights" 0 "" cpm-pin --sysroot "$root" --restore-weights
assert "--restore-weights: the weights are back" "$(weights)" "5 5 2 false "
assert "--restore-weights: the journal is gone" "$(ls "$CPM_WEIGHT_JOURNAL" 2>&1 | grep -c 'No such')" 1
check "--restore-weights without a journal: nothing to do" 0 "" \
    cpm-pin --sysroot "$root" --restore-weights
printf 'cpm-weight-journal 1\nnode 0 1\nnode 1 junk\n' >"$CPM_WEIGHT_JOURNAL"
check_fail "--restore-weights: a damaged journal changes nothing" 1 \
    "is not a weight journal \(line 3\); nothing was changed" \
    cpm-pin --sysroot "$root" --restore-weights
assert "--restore-weights: damaged journal, weights unchanged" "$(weights)" "5 5 2 false "
rm -f "$CPM_WEIGHT_JOURNAL"
check_fail "--set-weights: a node without a weight" 2 "^cpm-pin: node 4 has no interleave weight" \
    cpm-pin --sysroot "$root" --set-weights 4:1
check_fail "--set-weights goes alone" 2 "^cpm-pin: --set-weights and --restore-weights go alone" \
    cpm-pin --sysroot "$root" --set-weights 0:1 0 -- true
plain=$T_TMP/plain
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/1s-offline-cxl.spec" "$plain"
check_fail "--set-weights on a kernel without weights: exit 3" 3 \
    "they need Linux 6\.9 or later" cpm-pin --sysroot "$plain" --set-weights 0:1
