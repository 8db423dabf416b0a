#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every row of the kubelet's CPU-assignment test table through cpm-alloc:
# the fixture's machine is generated as a sysfs tree (tests/gen-sysfs from
# tests/kubelet/FIXTURE.spec), a fresh state is made with "init", and
# "take" must print the kubelet's answer, or fail with exit 3 and the
# kubelet's message.
. "$(dirname "$0")/lib.sh"

cases=$CPM_TOP/tests/kubelet/cases.tsv
tab=$(printf '\t')

have_alloc=true
command -v python3 >/dev/null 2>&1 || have_alloc=false
[ -x "$CPM_TOP/bin/cpm-alloc" ] || have_alloc=false

tree_of() {
	_t=$T_TMP/trees/$1
	if [ ! -d "$_t" ]; then
		mkdir -p "$T_TMP/trees" &&
		    python3 "$CPM_TOP/tests/gen-sysfs" \
			"$CPM_TOP/tests/kubelet/$1.spec" "$_t" || return 1
	fi
	printf '%s\n' "$_t"
}

row=0
while IFS=$tab read -r name fixture avail n opts expected; do
	case $name in '#'*|'') continue;; esac
	row=$((row + 1))
	tname="cpm-alloc take matches the kubelet: $name"
	if ! $have_alloc; then
		skip "$tname" "bin/cpm-alloc is not built"
		continue
	fi
	set --
	case $opts in
	packed) ;;
	*spread*) set -- --spread-cores ;;
	*uncorecache*) set -- --prefer-l3 ;;
	distributed,group=*) set -- "--distribute=${opts#distributed,group=}" ;;
	*) not_ok "$tname" "unknown options column: $opts"; continue ;;
	esac
	if ! tree=$(tree_of "$fixture"); then
		not_ok "$tname" "cannot generate the tree of $fixture"
		continue
	fi
	state=$T_TMP/state.$row
	run cpm-alloc --sysroot "$tree" --state "$state" init
	if [ "$rc" != 0 ]; then
		not_ok "$tname" "init failed" "$(show)"
		continue
	fi
	case $expected in
	'ERROR: '*)
		msg=${expected#ERROR: }
		run cpm-alloc --sysroot "$tree" --state "$state" \
		    take "row$row" "$n" --from "$avail" "$@"
		if [ "$rc" = 3 ] && [ -z "$out" ] &&
		    printf '%s' "$err" | grep -qF -- "$msg"; then
			ok "$tname"
		else
			not_ok "$tname" "want exit 3 and stderr with: $msg" \
			    "$(show)"
		fi
		;;
	*)
		[ "$expected" = '(empty)' ] && expected=
		check "$tname" 0 "$expected" cpm-alloc --sysroot "$tree" \
		    --state "$state" take "row$row" "$n" --from "$avail" "$@"
		;;
	esac
done <"$cases"
assert "the kubelet case table has its 61 rows" "$row" 61
