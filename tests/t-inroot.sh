#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A replayed tree read without openat2 (a kernel before 5.6, a container's
# seccomp profile: tests/helpers/no-openat2 answers it with ENOSYS or
# EPERM) reads as it does through the kernel's RESOLVE_IN_ROOT: every
# hwloc machine, every answer, error or not, to the byte; and a link out
# of a tree still leads nowhere.
. "$(dirname "$0")/lib.sh"

NO2=$CPM_TOP/tests/helpers/no-openat2
if [ ! -x "$NO2" ]; then
	skip "reads without openat2" "tests/helpers/no-openat2 is not built"
	exit 0
fi
if ! "$NO2" true 2>/dev/null; then
	skip "reads without openat2" "no seccomp filters here"
	exit 0
fi
# the kernel answers the filtered call as asked, or the test means nothing
if "$NO2" python3 -c 'import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(437, -100, b"/", None, 0)
sys.exit(0 if r == -1 and ctypes.get_errno() == 38 else 1)' 2>/dev/null; then
	ok "no-openat2: openat2 answers ENOSYS"
else
	not_ok "no-openat2: openat2 answers ENOSYS"
fi

# same NAME ARGS...: the tool's answer with openat2 and without
same() {
	_n=$1
	shift
	"$@" >"$T_TMP/a.out" 2>"$T_TMP/a.err"
	_ra=$?
	"$NO2" "$@" >"$T_TMP/b.out" 2>"$T_TMP/b.err"
	_rb=$?
	if [ "$_ra" = "$_rb" ] && cmp -s "$T_TMP/a.out" "$T_TMP/b.out" &&
	    cmp -s "$T_TMP/a.err" "$T_TMP/b.err"; then
		return 0
	fi
	not_ok "$_n" "exit $_ra and $_rb" "$(diff "$T_TMP/a.out" "$T_TMP/b.out" | head -5)" \
	    "$(diff "$T_TMP/a.err" "$T_TMP/b.err" | head -5)"
	return 1
}

n=0 bad=0
for tb in "$FIXTURES"/hwloc/*.tar.bz2; do
	[ -f "$tb" ] || continue
	name=$(basename "$tb" .tar.bz2)
	root=$(fixture_tree "$name") || continue
	n=$((n + 1))
	same "$name: cpm-topo --json without openat2" cpm-topo --sysroot "$root" --json &&
	    same "$name: cpm-topo -e without openat2" cpm-topo --sysroot "$root" -e ||
	    bad=$((bad + 1))
done
if [ "$n" -eq 0 ]; then
	skip "hwloc machines without openat2" "no fixtures in $FIXTURES/hwloc"
elif [ "$bad" -eq 0 ]; then
	ok "$n hwloc machines read the same without openat2"
fi

# links: out of the tree, absolute and climbing, a loop, a linked directory
SYS=$T_TMP/sys
printf '%s\n' 'cpu 0 core=0 socket=0 node=0' 'cpu 1 core=1 socket=0 node=1' |
    "$CPM_TOP/tests/gen-sysfs" - "$SYS" >/dev/null
echo 'cpm-secret-text' >"$T_TMP/secret"
cpu=$SYS/sys/devices/system/cpu
for link in "$T_TMP/secret" "../../../../../../../../../..$T_TMP/secret" loop; do
	rm -f "$cpu/online"
	if [ "$link" = loop ]; then
		ln -s online "$cpu/online"
	else
		ln -s "$link" "$cpu/online"
	fi
	if same "online linked to $link: the same answer without openat2" \
	    cpm-topo --sysroot "$SYS"; then
		if grep -q cpm-secret "$T_TMP/b.out" "$T_TMP/b.err"; then
			not_ok "online linked to $link: nothing read outside the tree"
		else
			ok "online linked to $link: the same answer without openat2, nothing read outside"
		fi
	fi
done
rm -f "$cpu/online"
echo 0-1 >"$cpu/online"
mv "$SYS/sys/devices/system/node" "$SYS/nodes"
ln -s /nodes "$SYS/sys/devices/system/node"
if same "a node directory linked absolutely: the same answer without openat2" \
    cpm-topo --sysroot "$SYS" --json; then
	if grep -q '"nodes": *\[ *{' "$T_TMP/b.out" || grep -q '"node": *1' "$T_TMP/b.out"; then
		ok "a node directory linked absolutely resolves in the tree, without openat2 too"
	else
		not_ok "a node directory linked absolutely resolves in the tree, without openat2 too" "$(head -c 400 "$T_TMP/b.out")"
	fi
fi
"$NO2" -e 1 cpm-topo --sysroot "$SYS" --json >"$T_TMP/c.out" 2>&1
assert "openat2 answering EPERM: the same answer" "$(cmp -s "$T_TMP/a.out" "$T_TMP/c.out" && echo same)" same

# A cgroup walk reads a leaf from its parent with openat2 and opens its
# directory without: the same groups and numbers either way, and a link
# among the groups is no group in either.
CG=$T_TMP/cg
mkdir -p "$CG/a/b" "$CG/a/c" "$CG/d" "$CG/elsewhere"
echo 'cpu cpuset' >"$CG/cgroup.controllers"
i=0
for g in a a/b a/c d elsewhere; do
	i=$((i + 1))
	printf '%d 100000\n' $((i * 10000)) >"$CG/$g/cpu.max"
	printf 'usage_usec %d\nuser_usec 0\nsystem_usec 0\nnr_periods %d\nnr_throttled %d\nthrottled_usec %d\n' \
	    $((i * 1000)) $((i * 10)) "$i" $((i * 700)) >"$CG/$g/cpu.stat"
done
ln -s elsewhere "$CG/lnk"
# The node's pressure, which JSON reports, from a tree without it: the
# live /proc/pressure moves between the two runs.
mkdir -p "$T_TMP/nosys"
export CPM_SYSROOT="$T_TMP/nosys"
for args in "-o tsv" "--all -o json" "a -o tsv"; do
	# shellcheck disable=SC2086
	if same "throttle $args: the same answer without openat2" \
	    cpm-throttle --cgroup-root "$CG" $args; then
		if grep -q 'a/b' "$T_TMP/a.out" && ! grep -q lnk "$T_TMP/a.out"; then
			ok "throttle $args: the same answer without openat2"
		else
			not_ok "throttle $args: the same answer without openat2" \
			    "groups missing, or the link reported: $(head -c 300 "$T_TMP/a.out")"
		fi
	fi
done
exit 0
