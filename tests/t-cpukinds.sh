#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# hwloc as the oracle of core types: on every hybrid tree the tests have,
# generated (tests/topologies) or recorded (hwloc's own machines),
# lstopo-no-graphics --cpukinds with HWLOC_FSROOT on the tree gives the
# kinds, and each must lie inside one cpm type, ranked alike.
. "$(dirname "$0")/lib.sh"

if ! command -v lstopo-no-graphics >/dev/null 2>&1; then
	skip "hwloc's CPU kinds" "lstopo-no-graphics is not installed"
	exit 0
fi

# compare NAME ROOT: hwloc's kinds against cpm's types on ROOT.
compare() {
	HWLOC_FSROOT=$2 HWLOC_COMPONENTS=linux,-x86 \
	    lstopo-no-graphics --cpukinds >"$T_TMP/kinds" 2>/dev/null
	if ! cpm-topo --sysroot "$2" --json >"$T_TMP/json" 2>"$T_TMP/err"; then
		not_ok "$1: cpm-topo --json" "$(cat "$T_TMP/err")"
		return
	fi
	res=$(python3 "$CPM_TOP/tests/cpukinds-compare.py" "$T_TMP/kinds" \
	    "$T_TMP/json")
	case $res in
	ok) ok "$1: every hwloc kind lies in one cpm type, ranked alike" ;;
	"skip hwloc forms no kinds"*) : ;;	# not hybrid to either
	skip*) skip "$1: hwloc's kinds" "${res#skip }" ;;
	*) not_ok "$1: every hwloc kind lies in one cpm type, ranked alike" \
	    "$res" "$(cat "$T_TMP/kinds")" ;;
	esac
}

for spec in "$CPM_TOP"/tests/topologies/*.spec; do
	name=$(basename "$spec" .spec)
	python3 "$CPM_TOP/tests/gen-sysfs" "$spec" "$T_TMP/$name" ||
	    { not_ok "gen-sysfs $name"; continue; }
	compare "$name" "$T_TMP/$name"
done

if [ -d "$FIXTURES/hwloc" ]; then
	n=0
	for tb in "$FIXTURES"/hwloc/*.tar.bz2; do
		name=$(basename "$tb" .tar.bz2)
		root=$(fixture_tree "$name") || continue
		compare "$name" "$root"
		n=$((n + 1))
	done
	assert "hwloc's recorded machines were compared" "$([ "$n" -gt 0 ] && echo yes)" yes
else
	skip "hwloc's recorded machines" "no fixtures in $FIXTURES/hwloc"
fi
