# SPDX-License-Identifier: GPL-2.0-or-later
# The library's shape (lib/README): every source in a subsystem folder,
# each folder using only those its README lists, no circle of folders,
# includes or calls (tests/layers.py).  Then the check itself is tried on
# copies of lib/ with one planted fault each, and must catch every one.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "the library's layers" "no python3"
	exit 0
fi
python3 "$CPM_TOP/tests/layers.py" --objects "$CPM_TOP/lib" >"$T_TMP/out" 2>&1
cat "$T_TMP/out"

# A copy of the sources (objects are not needed for includes).
plant() {
	rm -rf "$T_TMP/lib"
	mkdir "$T_TMP/lib"
	(cd "$CPM_TOP/lib" && find . -name '*.[ch]' -o -name README) |
	while read -r f; do
		mkdir -p "$T_TMP/lib/$(dirname "$f")"
		cp "$CPM_TOP/lib/$f" "$T_TMP/lib/$f"
	done
}
caught() {	# NAME WANT: the check fails and its output says WANT
	if python3 "$CPM_TOP/tests/layers.py" "$T_TMP/lib" >"$T_TMP/planted" 2>&1; then
		not_ok "$1" "the check passed"
	elif grep -qF -- "$2" "$T_TMP/planted"; then
		ok "$1"
	else
		not_ok "$1" "output lacks '$2': $(grep '^#' "$T_TMP/planted" | head -3)"
	fi
}

plant
if python3 "$CPM_TOP/tests/layers.py" "$T_TMP/lib" >"$T_TMP/planted" 2>&1; then
	ok "the copy the faults are planted in passes as it is"
else
	not_ok "the copy the faults are planted in passes as it is" \
	    "$(grep '^#' "$T_TMP/planted" | head -3)"
fi

plant
printf '#include "alloc/state.h"\n' >>"$T_TMP/lib/base/cpuset.c"
caught "an upward include (base uses alloc) is caught" \
    'lib/base/cpuset.c: #include "alloc/state.h": base does not use alloc'

plant
printf '#include "pin/pin.h"\n' >>"$T_TMP/lib/view/toposum.c"
caught "an include between domains no README allows is caught" \
    'view does not use pin'

plant
printf '#include "machine/topo.h"\n' >>"$T_TMP/lib/machine/sysroot.h"
caught "a circle of includes inside a folder is caught" \
    'machine/sysroot, machine/topo'

plant
sed -i 's/^Uses:.*/Uses: base view/' "$T_TMP/lib/machine/README"
caught "a circle of folders is caught" 'circle: '

plant
printf '#include "cpuset.h"\n' >>"$T_TMP/lib/base/json.c"
caught "an include without its folder is caught" 'must name its folder'

plant
mv "$T_TMP/lib/base/cpuset.c" "$T_TMP/lib/cpuset.c"
caught "a source outside the folders is caught" 'in lib/ itself: cpuset.c'
