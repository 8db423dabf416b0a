#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc: pools, modes, take/release/resize, idempotence, bad input.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"

use_m32
S=$T_TMP/state/sub/alloc.state
export CPM_STATE=$S
ALL=0-31

check "take on a fresh machine creates the state directory" 0 "" \
	sh -c 'cpm-alloc take first 2 >/dev/null && test -f "$CPM_STATE" && test -f "$CPM_STATE.lock"'
rm -rf "$T_TMP/state"

check "init --reserved records the list" 0 "0,16" cpm-alloc init --reserved 0,16
check "reserved prints the reserved CPUs" 0 "0,16" cpm-alloc reserved
check "shared holds every online CPU, reserved included" 0 "$ALL" cpm-alloc shared
check "init again with the same settings is a no-op" 0 "0,16" cpm-alloc init --reserved 0,16
cp "$S" "$T_TMP/s0"
check_fail "init with other settings needs --force" 3 "already exists.*--force" \
	cpm-alloc init --reserved 1
cmp -s "$S" "$T_TMP/s0" && ok "a refused init leaves the state alone" ||
	not_ok "a refused init leaves the state alone"

run cpm-alloc take a 4
A=${out%
}
assert "take prints exactly 4 CPUs" "$rc $(count "$A")" "0 4"
assert "take avoids reserved CPUs" "$(inter "$A" 0,16)" ""
check "shared loses an exclusive allocation" 0 "$(minus $ALL "$A")" cpm-alloc shared

run cpm-alloc take b 2 --share
B=${out%
}
assert "a share allocation gets CPUs of its own" "$rc $(count "$B") $(inter "$A,0,16" "$B")" "0 2 "
check "share CPUs stay in the shared pool" 0 "$(minus $ALL "$A")" cpm-alloc shared

run cpm-alloc take c 8
C=${out%
}
assert "nobody else gets share CPUs" "$rc $(inter "$C" "$A,$B,0,16")" "0 "

check "mode share->exclusive takes the CPUs out of the shared pool" 0 \
	"$(minus $ALL "$A,$B,$C")" sh -c 'cpm-alloc mode b exclusive && cpm-alloc shared'
check "mode exclusive->share gives them back" 0 "$(minus $ALL "$A,$C")" \
	sh -c 'cpm-alloc mode b share && cpm-alloc shared'
check "mode exclusive->share works on any allocation" 0 "$(minus $ALL "$C")" \
	sh -c 'cpm-alloc mode a share && cpm-alloc shared'
cpm-alloc mode a exclusive

check "take is idempotent" 0 "$A" cpm-alloc take a 4
cp "$S" "$T_TMP/s1"
check_fail "take with another count points to resize" 2 "resize a 5" \
	cpm-alloc take a 5
cmp -s "$S" "$T_TMP/s1" && ok "a refused take leaves the state alone" ||
	not_ok "a refused take leaves the state alone"
check "take NAME 0 prints an empty line" 0 "" cpm-alloc take zero 0
run cpm-alloc take zero 0
assert "take NAME 0 prints exactly a newline" "$rc:$out" "0:
"
check "show prints an allocation" 0 "$C" cpm-alloc show c
check "show --nodes prints its NUMA nodes" 0 "$(nodes_of "$SPEC" "$C")" \
	cpm-alloc show c --nodes
check "show --json prints the entry as list --json has it" 0 \
    "$(cpm-alloc list --json | grep -o '{"name":"c",[^}]*}')" cpm-alloc show c --json

cp "$S" "$T_TMP/s1"
run cpm-alloc take d 2 --dry-run
D=${out%
}
cmp -s "$S" "$T_TMP/s1" && [ "$rc" = 0 ] && [ "$(count "$D")" = 2 ] &&
	ok "take --dry-run prints CPUs but saves nothing" ||
	not_ok "take --dry-run prints CPUs but saves nothing" "$(show)"

FROM=$(minus $ALL "$A,$B,$C,0,16" | expand | tail -3 | to_list)
run cpm-alloc take f 2 --from "$FROM"
F=${out%
}
assert "take --from chooses among those CPUs" "$rc $(count "$F") $(minus "$F" "$FROM")" "0 2 "
check_fail "take --full-cores refuses an odd count" 3 "SMT Alignment Error" \
	cpm-alloc take odd 3 --full-cores
check_fail "take refuses more CPUs than are free" 3 "not enough" \
	cpm-alloc take huge 30

# resize keeps what NAME has.
run cpm-alloc resize a 6
A6=${out%
}
assert "resize grows and keeps the CPUs" "$rc $(count "$A6") $(minus "$A" "$A6")" "0 6 "
assert "resize grows into free CPUs only" "$(inter "$A6" "$B,$C,$F,0,16")" ""
check "show reflects a resize" 0 "$A6" cpm-alloc show a
run cpm-alloc resize a 3
A3=${out%
}
assert "resize shrinks to a subset" "$rc $(count "$A3") $(minus "$A3" "$A6")" "0 3 "
check "take after resize is idempotent with the new count" 0 "$A3" cpm-alloc take a 3
check "release gives the CPUs back" 0 "$(minus $ALL "$C,$F")" \
	sh -c 'cpm-alloc release a zero && cpm-alloc shared'
run cpm-alloc list
assert "list shows the remaining allocations" \
	"$(printf '%s' "$out" | awk 'NR > 1 { print $1 }' | sort | tr '\n' ' ')" "b c f "
run cpm-alloc list --json
case $out in
'{"reserved":"0,16","strict_reserved":false,'*'"name":"c","mode":"exclusive","count":8,"cpus":"'"$C"'"'*) ok "list --json describes the entries" ;;
*) not_ok "list --json describes the entries" "$(show)" ;;
esac

# Column selection.
check "list -o picks columns in its order and any case" 0 "CPUS NAME
$C c" sh -c 'cpm-alloc list -o cpus,NAME --raw | sed -n "1p;/ c\$/p"'
check "list --columns --noheadings: rows alone" 0 "b 2
c 8
f 2" sh -c 'cpm-alloc list --columns name,count --noheadings | sort'
check "list --raw is the aligned list with one space between cells" 0 \
    "$(cpm-alloc list | tr -s ' ')" cpm-alloc list --raw
run cpm-alloc list
cols=$(printf '%s' "$out" | awk '{ print index($0, " " $4 " ") + 1 }' | sort -u)
assert "list aligns its columns like the other tables" "$rc:$(printf '%s\n' "$cols" | wc -l | tr -d ' '):$(printf '%s' "$out" | sed -n 2p | tr -s ' ')" \
    "0:1:b share 2 3,19 0 - -"
run cpm-alloc take opt 1 --spread-cores
check "list -o OPTIONS shows the placement options recorded" 0 \
    "opt spread-cores" sh -c 'cpm-alloc list -o name,options --raw | grep "^opt "'
check "list --json -o selects the members of the entries" 0 \
    '"entries":[{"name":"b","count":2},{"name":"c","count":8},{"name":"f","count":2},{"name":"opt","count":1}]}' \
    sh -c 'cpm-alloc list --json -o name,count | grep -o "\"entries\".*"'
cpm-alloc release opt
check_fail "list -o refuses an unknown column with the valid ones" 2 \
    "^cpm-alloc: unknown column 'owners' \(valid: NAME, MODE, COUNT, CPUS, NODES, MEMORY, OWNER, OPTIONS, DEVICES, CONTAINER, HUGEPAGES\)\$" \
    cpm-alloc list -o name,owners
check_fail "-o applies to list only" 2 "'--output' does not apply to 'take'" \
    cpm-alloc take x 1 -o name

# Strict reservation.
check "init --force --strict-reserved starts over" 0 "0,16" \
	cpm-alloc init --force --reserved 0,16 --strict-reserved
check "strict reserved CPUs leave the shared pool" 0 "1-15,17-31" cpm-alloc shared
check "init --force dropped every allocation" 0 "NAME MODE COUNT CPUS NODES MEMORY OWNER" cpm-alloc list

# Every kind of bad input: exit 2, and the state stays byte-identical.
cpm-alloc take keep 2 >/dev/null
cp "$S" "$T_TMP/before"
bad() {
	_name=$1
	shift
	run "$@"
	if [ "$rc" = 2 ] && [ -z "$out" ] && [ -n "$err" ] && cmp -s "$S" "$T_TMP/before"; then
		ok "$_name"
	else
		not_ok "$_name" "command: $*" "$(show)"
	fi
}
bad "take without arguments is a usage error" cpm-alloc take
bad "take without a count is a usage error" cpm-alloc take x
bad "take refuses a count that is not a number" cpm-alloc take x two
bad "take refuses a negative count" cpm-alloc take x -1
bad "take refuses a count with junk" cpm-alloc take x 2x
bad "take refuses a name with a space" cpm-alloc take "a b" 2
bad "take refuses a name with a semicolon" cpm-alloc take "a;b" 2
bad "take refuses an empty name" cpm-alloc take "" 2
bad "take refuses an overlong name" cpm-alloc take "$(printf '%0300d' 0)" 2
bad "take refuses an unknown policy" cpm-alloc take x 2 --numa-policy strict
bad "take refuses a bad memory size" cpm-alloc take x 2 --mem 12Q
bad "take refuses a bad owner kind" cpm-alloc take x 2 --owner foo:1
bad "take refuses pid 0 as owner" cpm-alloc take x 2 --owner pid:0
bad "take refuses a dead owner" cpm-alloc take x 2 --owner pid:999999999
bad "take refuses a missing cgroup owner" cpm-alloc take x 2 --owner cgroup:no/such --cgroup-root "$T_TMP"
bad "take refuses .. in a cgroup owner" cpm-alloc take x 2 --owner cgroup:../etc --cgroup-root "$T_TMP"
bad "take refuses a reversed --from range" cpm-alloc take x 2 --from 3-1
bad "take refuses --from CPUs the machine lacks" cpm-alloc take x 2 --from 30-40
bad "take refuses a NUMA node the machine lacks" cpm-alloc take x 2 --prefer-nodes 7
bad "take refuses --distribute=0" cpm-alloc take x 2 --distribute=0
bad "take refuses --prefer-nodes with --numa-policy" cpm-alloc take x 2 --prefer-nodes 0 --numa-policy restricted
bad "take refuses --align-socket with single-numa-node" cpm-alloc take x 2 --align-socket --numa-policy single-numa-node
bad "take refuses an option of another command" cpm-alloc take x 2 --json
bad "take refuses an extra argument" cpm-alloc take x 2 3
bad "an unknown option is a usage error" cpm-alloc take x 2 --bogus
bad "a missing option argument is a usage error" cpm-alloc take x 2 --mem
bad "an unknown command is a usage error" cpm-alloc frobnicate
bad "no command is a usage error" cpm-alloc
bad "release of an unknown name changes nothing" cpm-alloc release keep nosuch
bad "release refuses a bad name" cpm-alloc release 'x*'
bad "release needs a name" cpm-alloc release
bad "resize of an unknown name" cpm-alloc resize nosuch 2
bad "resize refuses a bad count" cpm-alloc resize keep 2.5
bad "mode refuses an unknown mode" cpm-alloc mode keep shared
bad "mode of an unknown name" cpm-alloc mode nosuch share
bad "show of an unknown name" cpm-alloc show nosuch
bad "list takes no arguments" cpm-alloc list x
bad "shared takes no arguments" cpm-alloc shared x
bad "hints refuses a bad count" cpm-alloc hints x
bad "hints refuses a bad size" cpm-alloc hints 2 --mem lots
bad "check takes no arguments" cpm-alloc check x
bad "reconcile takes no arguments" cpm-alloc reconcile x
bad "import-kubelet of a missing file" cpm-alloc import-kubelet "$T_TMP/none"
bad "init refuses CPUs the machine lacks" cpm-alloc init --force --reserved 99
bad "init refuses a reversed range" cpm-alloc init --force --reserved 3-1
bad "init refuses a bad count" cpm-alloc init --force --reserve x
bad "init refuses --reserved with --reserve" cpm-alloc init --force --reserved 1 --reserve 2
bad "init refuses incompatible options" cpm-alloc init --force --full-cores --spread-cores
bad "--state needs a name" cpm-alloc --state "" list
check "help goes to stdout" 0 "Usage: cpm-alloc [--state FILE] [--sysroot DIR] COMMAND [ARGS] [OPTIONS]" \
	sh -c 'cpm-alloc --help | head -1'
check "version" 0 "cpm-alloc $(sed -n 's/^VERSION *= *//p' "$CPM_TOP/Makefile")" cpm-alloc -V

# The state file refuses damage, truncation, other versions, other machines.
cpm-alloc take other 4 >/dev/null
cp "$S" "$T_TMP/good"
# Its checksum is XXH64 of the lines after it: what resign() computes
# (its own implementation) and what xxHash's xxhsum says.
assert "the state is version 3 with an XXH64 checksum" \
	"$(sed -n '1p;2s/:.*//p' "$S" | tr '\n' ' ')" "cpm-alloc-state 3 checksum xxh64 "
cp "$S" "$T_TMP/resigned"
resign "$T_TMP/resigned"
cmp -s "$S" "$T_TMP/resigned" && ok "the checksum is the XXH64 of the body" ||
	not_ok "the checksum is the XXH64 of the body" "$(diff "$S" "$T_TMP/resigned")"
if command -v xxhsum >/dev/null; then
	assert "xxhsum -H1 of the body gives the checksum" \
		"$(tail -n +3 "$S" | xxhsum -H1 | cut -d' ' -f1)" "$(sed -n '2s/.*://p' "$S")"
else
	skip "xxhsum -H1 of the body gives the checksum" "no xxhsum (Debian: xxhash)"
fi
refused() {
	_name=$1 _re=$2
	shift 2
	_oifs=$IFS
	IFS=';'
	for _cmd in ${REFUSED_CMDS:-take y 2;release other;list;shared;check;resize other 2}; do
		IFS=$_oifs
		# shellcheck disable=SC2086
		run cpm-alloc $_cmd
		if [ "$rc" != 2 ] || ! printf '%s' "$err" | grep -Eq "$_re" ||
		    ! cmp -s "$S" "$T_TMP/bad"; then
			not_ok "$_name" "command: cpm-alloc $_cmd" "$(show)"
			IFS=$_oifs
			return
		fi
	done
	IFS=$_oifs
	ok "$_name"
}
sed 's/^entry other n=4/entry other n=3/' "$T_TMP/good" >"$T_TMP/bad"
cp "$T_TMP/bad" "$S"
refused "a damaged state is refused and left alone" "damaged \(line 2: checksum mismatch"
head -c -7 "$T_TMP/good" >"$T_TMP/bad"
cp "$T_TMP/bad" "$S"
refused "a truncated state is refused and left alone" "damaged"
sed '1s/.*/cpm-alloc-state 9/' "$T_TMP/good" >"$T_TMP/bad"
cp "$T_TMP/bad" "$S"
refused "a state of an unknown version is refused" "unknown state version '9'"
printf 'hello\n' >"$T_TMP/bad"
cp "$T_TMP/bad" "$S"
refused "a file that is no state is refused" "not a cpm.* state file"
: >"$T_TMP/bad"
cp "$T_TMP/bad" "$S"
refused "an empty state file is refused" "empty"
# take and release keep only the allocations they name, yet check every
# line, and write the others back as they were.
sed 's/^entry other n=4 /entry other n=3 /' "$T_TMP/good" >"$T_TMP/bad"
resign "$T_TMP/bad"
cp "$T_TMP/bad" "$S"
REFUSED_CMDS='take y 2;release keep;take keep 1' \
	refused "an allocation's line that does not add up is refused by every command" \
	"entry 'other' has 4 CPUs, not 3"
grep '^entry other ' "$T_TMP/good" >>"$T_TMP/bad.line"
cat "$T_TMP/good" "$T_TMP/bad.line" >"$T_TMP/bad"
resign "$T_TMP/bad"
cp "$T_TMP/bad" "$S"
REFUSED_CMDS='take y 2;release keep' \
	refused "a name given twice is refused by take and release too" \
	"entry 'other' appears twice"
cp "$T_TMP/good" "$S"
# Allocations with options and an owner are read whole, between the others.
cpm-alloc take withopts 2 --full-cores >/dev/null
cpm-alloc take withowner 1 --owner "pid:$$" >/dev/null
cpm-alloc take last 1 >/dev/null
cp "$S" "$T_TMP/mixed"
assert "allocations read whole survive the takes of others" \
	"$(grep -c -e '^entry withopts .* opts=full-cores$' \
		-e '^entry withowner .* owner=pid:' "$T_TMP/mixed")" 2
run sh -c 'cpm-alloc take rt 2 && cpm-alloc release rt'
cmp -s "$S" "$T_TMP/mixed" && [ "$rc" = 0 ] &&
	ok "take then release gives back the very file" ||
	not_ok "take then release gives back the very file" "$(show)"
run cpm-alloc release keep
grep -v '^entry keep ' "$T_TMP/mixed" | sed -n '3,$p' >"$T_TMP/want"
sed -n '3,$p' "$S" >"$T_TMP/got"
cmp -s "$T_TMP/want" "$T_TMP/got" && [ "$rc" = 0 ] &&
	ok "release writes the other allocations' lines as they were" ||
	not_ok "release writes the other allocations' lines as they were" \
	"$(diff "$T_TMP/want" "$T_TMP/got")"

# Same CPU numbers, another layout: 1 socket, 1 node, 16 cores x 2.
gen_spec 1 1 16 2 | gen_tree "$T_TMP/other"
cp "$T_TMP/good" "$S"
cp "$T_TMP/good" "$T_TMP/bad"
REFUSED_CMDS='take y 2;release other;list;shared;resize other 2;show other' \
	CPM_SYSROOT=$T_TMP/other refused "a state of another machine is refused" "another machine"
CPM_SYSROOT=$T_TMP/other run cpm-alloc check
case $rc:$out in
3:*"error: the state was made for another machine"*) ok "check explains a foreign state" ;;
*) not_ok "check explains a foreign state" "$(show)" ;;
esac
cmp -s "$S" "$T_TMP/good" && ok "check leaves a foreign state alone" ||
	not_ok "check leaves a foreign state alone"
check "init --force replaces a state of another machine" 0 "" \
	env CPM_SYSROOT="$T_TMP/other" cpm-alloc init --force

# Commands on a state that does not exist yet.
export CPM_STATE=$T_TMP/none/alloc.state
check "shared without a state is every online CPU" 0 "$ALL" \
	env CPM_SYSROOT="$T_TMP/m32" cpm-alloc shared
check "check without a state finds nothing" 0 "" \
	env CPM_SYSROOT="$T_TMP/m32" cpm-alloc check
check_fail "release without a state names the missing allocation" 2 \
	"no allocation named 'x'" env CPM_SYSROOT="$T_TMP/m32" cpm-alloc release x
assert "a failed release creates no state directory" "$(ls "$T_TMP/none" 2>&1 >/dev/null | wc -l | tr -d ' ')" 1

# A container's id (64 hexadecimal digits) in the default table is cut to
# its first 12, as podman shows it; -o, --raw and --json give it whole.
export CPM_STATE=$T_TMP/ids.state CPM_SYSROOT=$T_TMP/m32
id=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
CPM_CGROUP_ROOT=$T_TMP/cgids
mkdir -p "$CPM_CGROUP_ROOT/machine.slice/libpod-$id.scope"
echo 'cpu cpuset' >"$CPM_CGROUP_ROOT/cgroup.controllers"
export CPM_CGROUP_ROOT
run cpm-alloc init --reserved 0
run cpm-alloc take "$id" 1 --owner "cgroup:machine.slice/libpod-$id.scope"
assert "a container's id and group are a name and an owner" "$rc:$err" "0:"
run cpm-alloc list --noheadings
case $out in
"0123456789ab "*" cgroup:machine.slice/libpod-0123456789ab.scope"*) ok "list cuts a container's id short" ;;
*) not_ok "list cuts a container's id short" "$(show)" ;;
esac
check "list -o name gives the id whole" 0 "$id" cpm-alloc list -o name --noheadings
run cpm-alloc list --raw --noheadings
case $out in "$id "*) ok "list --raw gives the id whole" ;; *) not_ok "list --raw gives the id whole" "$(show)" ;; esac
run cpm-alloc list --json
case $out in *"\"name\":\"$id\""*"libpod-$id.scope"*) ok "list --json gives the id whole" ;;
*) not_ok "list --json gives the id whole" "$(show)" ;; esac
