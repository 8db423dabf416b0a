#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The topology kept in the state (its layout record): calls that find the
# machine unchanged read it instead of sysfs and give the same answers as
# a full read; version 1 files are read and get a layout on their next
# write; a damaged layout is refused like any damage.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"

unset CPM_SYSROOT CPM_STATE
M=$T_TMP/m
gen_spec 2 2 4 2 | gen_tree "$M"
S=$T_TMP/a.state

check "init writes a state" 0 "" cpm-alloc --sysroot "$M" --state "$S" init
assert "the state is version 3 with a layout" \
	"$(sed -n '1p;4s/ .*//p' "$S" | tr '\n' ' ')" "cpm-alloc-state 3 layout "

# init keeps the core types with the layout, so the first take has
# nothing to read again and leaves the layout record as init wrote it.
layout0=$(sed -n 4p "$S")
case $layout0 in
*" types="*" ctype="*" ccap="*) ok "init keeps the core types in the layout" ;;
*) not_ok "init keeps the core types in the layout" "layout: $layout0" ;;
esac
cpm-alloc --sysroot "$M" --state "$S" take first 1 >/dev/null
assert "the first take after init keeps init's layout" \
	"$(sed -n 4p "$S")" "$layout0"
cpm-alloc --sysroot "$M" --state "$S" release first

# With the per-core files gone, only the layout knows the cores: a take
# that keeps to whole cores shows it was used.
want=$(cpm-alloc --sysroot "$M" --state "$S" take --dry-run x 4)
check "take records the layout" 0 "$want" \
	cpm-alloc --sysroot "$M" --state "$S" take x 4
want=$(cpm-alloc --sysroot "$M" --state "$S" take --dry-run y 4 --spread-cores)
want_list=$(cpm-alloc --sysroot "$M" --state "$S" list)
for d in "$M"/sys/devices/system/cpu/cpu*/topology; do
	mv "$d" "$d.gone"
done
check "a take reads cores from the layout, not from sysfs" 0 "$want" \
	cpm-alloc --sysroot "$M" --state "$S" take y 4 --spread-cores
check_fail "read in full, that tree is another machine" 2 "another machine" \
	cpm-alloc --sysroot "$M/." --state "$S" take --dry-run v 4
cpm-alloc --sysroot "$M" --state "$S" release y
check "so do read-only commands" 0 "$want_list" \
	cpm-alloc --sysroot "$M" --state "$S" list
for d in "$M"/sys/devices/system/cpu/cpu*/topology.gone; do
	mv "$d" "${d%.gone}"
done

# The nodes' memory sizes are not kept: a take that books memory reads
# them live.
check "a take --mem fits the nodes' memory" 0 "$(cpm-alloc --sysroot "$M" \
    --state "$S" take --dry-run m 2 --mem 1G)" \
	cpm-alloc --sysroot "$M" --state "$S" take --dry-run m 2 --mem 1G
for mi in "$M"/sys/devices/system/node/node*/meminfo; do
	mv "$mi" "$mi.orig"
	n=${mi%/meminfo}; n=${n##*node}
	printf 'Node %s MemTotal:     1024 kB\nNode %s MemFree:      1024 kB\n' \
	    "$n" "$n" >"$mi"
done
check_fail "a take --mem reads the nodes' memory live" 3 \
	"not enough free memory for 1G \\(free per node: 0:1M 1:1M 2:1M 3:1M\\)" \
	cpm-alloc --sysroot "$M" --state "$S" take --dry-run m 2 --mem 1G
for mi in "$M"/sys/devices/system/node/node*/meminfo.orig; do
	mv "$mi" "${mi%.orig}"
done

# Same answers as a full read, for a sequence of placements: state F is
# always read through another spelling of the sysroot than the one that
# wrote it, so its layout never matches and every call reads sysfs.
F=$T_TMP/f.state
i=0
spell() { [ $((i % 2)) = 0 ] && echo "$M" || echo "$M/."; }
same=1
for step in "init --reserve 2" "take a 3" "take b 4 --full-cores" \
    "take c 2 --share" "take d 5 --distribute" "take e 2 --prefer-l3" \
    "resize a 6" "release b" "take f 4 --numa-policy single-numa-node" \
    "take g 3 --mem 1G" "hints 4" "list" "shared"; do
	# shellcheck disable=SC2086
	a=$(cpm-alloc --sysroot "$M" --state "$T_TMP/c.state" $step 2>&1; echo "rc $?")
	i=$((i + 1))
	# shellcheck disable=SC2086
	b=$(cpm-alloc --sysroot "$(spell)" --state "$F" $step 2>&1; echo "rc $?")
	if [ "$a" != "$b" ]; then
		same=0
		not_ok "layout and full read agree on '$step'" "layout: $a" "full: $b"
	fi
done
[ $same = 1 ] && ok "layout and full read agree on every step"
assert "the states agree too" \
	"$(sed '/^checksum/d;/^layout/d' "$T_TMP/c.state")" \
	"$(sed '/^checksum/d;/^layout/d' "$F")"

# A CPU going offline: the layout is not used, the state is checked as
# before, and a write records the machine as it is now.
printf '0-30\n' >"$M/sys/devices/system/cpu/online"
run cpm-alloc --sysroot "$M" --state "$T_TMP/c.state" check
case $rc:$out in
3:*offline*) ok "check still sees a CPU gone offline" ;;
*) not_ok "check still sees a CPU gone offline" "$(show)" ;;
esac
printf '0-31\n' >"$M/sys/devices/system/cpu/online"

# A version 1 state (no layout) is read, and gets one on its next write.
V1=$T_TMP/v1.state
python3 - "$S" "$V1" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split('\n')
body = '\n'.join(l for l in lines[2:] if not l.startswith('layout '))
open(sys.argv[2], 'w').write('cpm-alloc-state 1\nchecksum fnv1a64:0\n%s' % body)
EOF
resign "$V1"
cp "$V1" "$T_TMP/v1.orig"
check "a version 1 state is read" 0 "$(cpm-alloc --sysroot "$M" --state "$S" list)" \
	cpm-alloc --sysroot "$M" --state "$V1" list
cmp -s "$V1" "$T_TMP/v1.orig" && ok "reading leaves it version 1" ||
	not_ok "reading leaves it version 1"
check "a version 1 state takes" 0 "$(cpm-alloc --sysroot "$M" --state "$S" take --dry-run z 2)" \
	cpm-alloc --sysroot "$M" --state "$V1" take z 2
assert "and is written as version 3 with a layout" \
	"$(sed -n '1p;4s/ .*//p' "$V1" | tr '\n' ' ')" "cpm-alloc-state 3 layout "

# A layout that is damaged under a correct checksum is refused, and
# nothing changes.  damage_layout IN OUT PATTERN REPLACEMENT: IN with its
# layout record edited (Python's re.sub) and the checksum made anew.
damage_layout() {
	python3 - "$@" <<'EOF'
import re, sys
src, dst, pat, rep = sys.argv[1:5]
lines = open(src).read().split('\n')
lines = [re.sub(pat, rep, l) if l.startswith('layout ') else l for l in lines]
body = '\n'.join(lines[2:])
open(dst, 'w').write('cpm-alloc-state 2\nchecksum fnv1a64:0\n%s' % body)
EOF
	resign "$2"
}
damage_layout "$S" "$T_TMP/bad.state" ' core=' ' core=99:0:1,'
cp "$T_TMP/bad.state" "$T_TMP/bad.orig"
for cmd in "take w 1" "list" "release x"; do
	# shellcheck disable=SC2086
	check_fail "a damaged layout is refused: $cmd" 2 "damaged \(line 4: .*layout" \
		cpm-alloc --sysroot "$M" --state "$T_TMP/bad.state" $cmd
done
cmp -s "$T_TMP/bad.state" "$T_TMP/bad.orig" && ok "the damaged state is left alone" ||
	not_ok "the damaged state is left alone"
# So is a node list naming a CPU the machine does not have online.
damage_layout "$S" "$T_TMP/bad2.state" ' nodes=0@([0-9,-]+)@' ' nodes=0@\1,40@'
grep -q ' nodes=0@[0-9,-]*,40@' "$T_TMP/bad2.state" ||
	not_ok "the node list was damaged" "$(sed -n 4p "$T_TMP/bad2.state")"
check_fail "a layout node list beyond the online CPUs is refused" 2 \
	"damaged \(line 4: layout node CPUs are not possible" \
	cpm-alloc --sysroot "$M" --state "$T_TMP/bad2.state" release x
